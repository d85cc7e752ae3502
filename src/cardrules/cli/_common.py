"""Helpers the ``cardrules`` subcommands share: game names, settings, bots,
record paths and the move list."""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from cardrules.engine.presenter import game_title, pad, width
from cardrules.engine.records import Seated
from cardrules.engine.registry import BUILT_IN
from cardrules.errors import ParseError
from cardrules.i18n import N_, gettext, pgettext
from cardrules.simulation.run import MAX_ROUNDS

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.records import GameRecord
    from cardrules.engine.rules import Rules

#: The built-in games as the command spells them.  Every game the registry
#: finds is accepted (see :func:`game_names`), in any case, with ``-`` or ``_``.
GAME_NAMES = tuple(name.replace("_", "-") for name in BUILT_IN)
#: The game ``play`` plays when none is named: the first built-in game.
DEFAULT_GAME = GAME_NAMES[0]
#: Shown in --help; the game's own default applies.
DEFAULT_ROUNDS = 10
#: Stands in a help text for the bots of every registered game; the command's
#: :class:`HelpFormatter` fills it in from the registry when help is printed.
BOTS_MARK = "<the bots of every game>"
#: Stands in a help text for the names of every game the registry finds.
GAMES_MARK = "<every game>"
#: Stands in a help text for every game's default bot (``Rules.default_bot``).
DEFAULT_BOTS_MARK = "<the default bot of every game>"
#: Help text of the --bots option (in English: shown through ``gettext``; a
#: translation keeps the mark as it is).
BOTS_HELP = N_("a bot name for every seat, or one per seat separated by commas "
               "(<the bots of every game>)")


def game_key(name: str) -> str:
    """The registry name of a game as typed on the command line: case does
    not matter and ``-`` and ``_`` are alike (ASCII text only).

    >>> game_key("DOWN-AND-BACK"), game_key("back_alley"), game_key("Back-Alley")
    ('down_and_back', 'back_alley', 'back_alley')
    """
    return name.lower().replace("-", "_") if name.isascii() else name


def game(name: str) -> Rules[Any, Any]:
    """The rules of the game named on the command line: any game the registry
    finds (:func:`cardrules.engine.registry.rules_for`), its name written in
    any case with ``-`` or ``_`` (see :func:`game_key`).

    >>> game("Down-And-Back").title
    'Down and Back'
    >>> game("go-fish")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown game (choose from down-and-back, back-alley...): 'go-fish'
    """
    from cardrules.engine.registry import games, rules_for

    key = game_key(name)
    try:
        return rules_for(key)
    except ParseError:
        pass
    for found in games():  # a game registered under a name in capitals or with dashes
        if game_key(found) == key:
            return rules_for(found)
    raise ParseError(gettext("unknown game (choose from {games})").format(
        games=", ".join(game_names())), token=name) from None


def game_names() -> tuple[str, ...]:
    """Every game the registry finds, as the command spells them: the
    built-in games first, then the others by name.

    >>> game_names()[:2]
    ('down-and-back', 'back-alley')
    """
    from cardrules.engine.registry import games

    found = games()
    ordered = [name for name in BUILT_IN if name in found]
    ordered += sorted(set(found) - set(BUILT_IN))
    return tuple(name.replace("_", "-") for name in ordered)


def registered_bots() -> str:
    """Every registered game with the names of its bots, for ``--help``.

    >>> "Back Alley: dd, heuristic, random, search; Down and Back: greedy" in registered_bots()
    True
    """
    from cardrules.engine.registry import games, rules_for

    found = [rules_for(name) for name in games()]
    return "; ".join(f"{game_title(rules)}: {', '.join(sorted(rules.bots))}"
                     for rules in found)


def default_bots() -> str:
    """Every registered game's default bot (``Rules.default_bot``), for ``--help``.

    >>> "heuristic for Back Alley, greedy for Down and Back" in default_bots()
    True
    """
    from cardrules.engine.registry import games, rules_for

    found = [rules_for(name) for name in games()]
    return pgettext("list", ", ").join(gettext("{bot} for {game}").format(
        bot=rules.default_bot, game=game_title(rules)) for rules in found)


#: What each mark of a help text stands for.
_MARKS = {BOTS_MARK: registered_bots, GAMES_MARK: lambda: gettext(" or ").join(game_names()),
          DEFAULT_BOTS_MARK: default_bots}

#: argparse's own messages (Python's "argparse" domain, never installed) as
#: patterns, and this domain's message for each: :meth:`Parser.error`
#: translates them.  Anything else argparse says stays in English.
_ARGPARSE = tuple((re.compile(pattern), message) for pattern, message in (
    (r"argument (?P<argument>.+?): (?P<message>.*)", N_("argument {argument}: {message}")),
    (r"invalid (?P<type>\w+) value: (?P<value>.*)", N_("invalid {type} value: {value}")),
    (r"invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)",
     N_("invalid choice: {value} (choose from {choices})")),
    (r"the following arguments are required: (?P<names>.*)",
     N_("the following arguments are required: {names}")),
    (r"unrecognized arguments: (?P<names>.*)", N_("unrecognized arguments: {names}")),
    (r"expected one argument", N_("expected one argument")),
    (r"not allowed with argument (?P<name>.*)", N_("not allowed with argument {name}")),
    (r"one of the arguments (?P<names>.*) is required",
     N_("one of the arguments {names} is required")),
    (r"ambiguous option: (?P<option>.*) could match (?P<matches>.*)",
     N_("ambiguous option: {option} could match {matches}")),
))


def argparse_message(message: str) -> str:
    """One of argparse's error messages in the current language (as it is
    when this domain has no message for it).

    >>> from cardrules import language
    >>> with language("ja"):
    ...     argparse_message("argument --seed: invalid int value: 'x'")
    "引数 --seed: int の値として正しくありません: 'x'"
    """
    for pattern, template in _ARGPARSE:
        found = pattern.fullmatch(message)
        if found is not None:
            fields = found.groupdict()
            if "message" in fields:
                fields["message"] = argparse_message(fields["message"])
            return gettext(template).format(**fields)
    return message


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, with :data:`BOTS_MARK`, :data:`GAMES_MARK` and
    :data:`DEFAULT_BOTS_MARK` filled in from the registry (so the games are
    imported only to print help).

    >>> parser = Parser(prog="x")
    >>> _ = parser.add_argument("--bots", help=BOTS_HELP)
    >>> "Back Alley: dd, heuristic, random, search" in " ".join(parser.format_help().split())
    True
    """

    def add_usage(self, usage: str | None, actions: Any, groups: Any,
                  prefix: str | None = None) -> None:
        """argparse's usage line, its ``usage:`` in the current language."""
        super().add_usage(usage, actions, groups, gettext("usage: ") if prefix is None else prefix)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        for sign, meaning in _MARKS.items():
            if text is not None and sign in text:
                text = text.replace(sign, meaning().replace("%", "%%"))
        return text


class Parser(argparse.ArgumentParser):
    """The argument parser of the command and its subcommands: argparse's,
    with :class:`HelpFormatter` unless told otherwise, and argparse's own
    words (``usage:``, the section titles, ``-h``'s help, the errors) in the
    current language.

    >>> Parser(prog="x").formatter_class is HelpFormatter
    True
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        add_help = kwargs.pop("add_help", True)
        super().__init__(add_help=False, **kwargs)
        self._positionals.title = gettext("positional arguments")
        self._optionals.title = gettext("options")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=gettext("show this help message and exit"))

    def error(self, message: str) -> NoReturn:
        """Print the usage and the error, in the current language, and exit with 2."""
        self.print_usage(sys.stderr)
        self.exit(2, gettext("{prog}: error: {message}").format(
            prog=self.prog, message=argparse_message(message)) + "\n")


def add_settings_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--players``, ``--rounds`` and ``--ante`` to a subcommand."""
    parser.add_argument("--players", type=int, help=gettext("Down and Back: 2 to 5 (default 4)"))
    parser.add_argument("--rounds", type=int,
                        help=gettext("Down and Back: rounds to play (default {default}), "
                                     "1 to {most}").format(default=DEFAULT_ROUNDS,
                                                       most=MAX_ROUNDS))
    parser.add_argument("--ante", type=int,
                        help=gettext("Down and Back: chips each round (default 1)"))
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        dest="settings",
                        help=gettext("any setting of the game, as a whole number or 'none' "
                                     "(repeat for several; for example --set num_players=3)"))


def add_hand_size_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--max-hand-size`` (Back Alley's short games) to a subcommand."""
    parser.add_argument("--max-hand-size", type=int, metavar="N",
                        help=gettext("Back Alley: cards in the first and last deal, 1 to 13 "
                                     "(default 13: the full 25 deals); a smaller N is a short "
                                     "game of 2N-1 deals"))


def check_record_path(path: str, option: str = "--record") -> None:
    """Refuse a path that could not be written, before any game is played."""
    if not path.strip():
        raise ValueError(gettext("{option} needs a file name").format(option=option))
    target = os.path.abspath(path)
    if os.path.isdir(target):
        raise ValueError(gettext("{option} {path}: that is a folder, not a file").format(
            option=option, path=path))
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise ValueError(gettext("{option} {path}: the folder {folder} does not exist").format(
            option=option, path=path, folder=folder))
    if not os.access(folder, os.W_OK) or (os.path.exists(target)
                                           and not os.access(target, os.W_OK)):
        raise ValueError(gettext("{option} {path}: cannot write there").format(
            option=option, path=path))


def settings_of(rules: Rules[Any, Any], args: argparse.Namespace) -> dict[str, int | None]:
    """The game settings named by the options that were given; ``--rounds``
    above :data:`cardrules.simulation.run.MAX_ROUNDS` (the limit of
    :func:`cardrules.simulate` too: a game of that many rounds still ends in
    minutes, where a huge number would play on for ever) is refused.

    >>> from cardrules.down_and_back import RULES
    >>> given = argparse.Namespace(players=3, rounds=None, ante=None)
    >>> settings_of(RULES, given)
    {'num_players': 3}
    >>> settings_of(RULES, argparse.Namespace(players=None, rounds=10**18, ante=None))
    Traceback (most recent call last):
    ...
    ValueError: --rounds must be from 1 to 10,000, not 1000000000000000000

    Any setting can also be given as ``--set NAME=VALUE`` (a whole number, or
    ``none`` for a setting that may be left open), for every game alike.

    >>> settings_of(RULES, argparse.Namespace(players=None, rounds=None, ante=None,
    ...                                       settings=["ante=2", "rounds=none"]))
    {'ante': 2, 'rounds': None}
    >>> settings_of(RULES, argparse.Namespace(players=None, rounds=None, ante=None,
    ...                                       settings=["colour=red"]))
    Traceback (most recent call last):
    ...
    ValueError: Down and Back has no setting 'colour' (its settings: num_players, ante, rounds)
    """
    given = {"num_players": args.players, "rounds": args.rounds, "ante": args.ante,
             "max_hand_size": getattr(args, "max_hand_size", None)}
    settings: dict[str, int | None] = {}
    for key, value in given.items():
        if value is None:
            continue
        if key not in rules.default_settings:
            option = {"num_players": "--players"}.get(key, "--" + key.replace("_", "-"))
            raise ValueError(gettext("{game} has no setting for {option}").format(
                game=game_title(rules), option=option))
        settings[key] = value
    for pair in getattr(args, "settings", None) or ():
        key, value = _setting(rules, pair)
        settings[key] = value
    rounds = settings.get("rounds")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(gettext("--rounds must be from 1 to {most}, not {number}").format(
            most=f"{MAX_ROUNDS:,}", number=shown_number(rounds)))
    return settings


def _setting(rules: Rules[Any, Any], pair: str) -> tuple[str, int | None]:
    """One ``--set NAME=VALUE``, checked against the game's settings."""
    name, equals, text = pair.partition("=")
    name, text = name.strip(), text.strip()
    if not equals or not name or not text:
        raise ValueError(gettext("--set takes NAME=VALUE, not {text}").format(text=repr(pair)))
    if name not in rules.default_settings:
        known = ", ".join(rules.default_settings) or gettext("none")
        raise ValueError(gettext("{game} has no setting {name} (its settings: {known})").format(
            game=game_title(rules), name=repr(name), known=known))
    if text.lower() == "none":
        return name, None
    if not (text.isascii() and text.lstrip("-").isdigit()) or len(text) > 19:
        raise ValueError(gettext("--set {name}: {text} is not a whole number").format(
            name=name, text=repr(text)))
    return name, int(text)


def shown_number(number: int) -> str:
    """A number for a message: in full, or its size when it is very long.

    >>> shown_number(12), shown_number(10**40)
    ('12', 'a number of 41 digits')
    """
    text = str(number)
    if len(text) <= 30:
        return text
    return gettext("a number of {n} digits").format(n=len(text.lstrip("-")))


def bot_kinds(rules: Rules[Any, Any], spec: str, seats: int,
              human: int | None = None) -> list[str]:
    """One bot name per seat from ``--bots`` (one name, or one per seat).

    With a person at seat ``human`` that seat's entry is not used (it may
    be written ``human``).
    """
    kinds = spec.split(",")
    if len(kinds) == 1:
        kinds *= seats
    names = ", ".join(rules.bots)
    allowed = set(rules.bots)
    if len(kinds) != seats or not all(
            kind in allowed or (seat == human and kind == "human")
            for seat, kind in enumerate(kinds)):
        raise ValueError(gettext("--bots is one of {names}, or one name per seat ({seats} seats), "
                                 "separated by commas").format(names=names, seats=seats))
    return kinds


def bots(rules: Rules[Any, Any], spec: str, seats: int, seed: int) -> list[Bot]:
    """Seeded bots for every seat from ``--bots``."""
    return [rules.bots[kind](seed + seat)
            for seat, kind in enumerate(bot_kinds(rules, spec, seats))]


def bots_around(rules: Rules[Any, Any], spec: str | None, seats: int, seed: int,
                human: int) -> dict[int, Bot]:
    """Seeded bots for every seat but ``human``'s (the game's
    ``Rules.default_bot`` unless ``spec`` names others); seat ``s`` gets seed
    ``seed + s``.

    >>> from cardrules.back_alley import RULES
    >>> {seat: type(bot).__name__ for seat, bot in bots_around(RULES, None, 4, 1, 2).items()}
    {0: 'HeuristicBot', 1: 'HeuristicBot', 3: 'HeuristicBot'}
    """
    kinds = bot_kinds(rules, rules.default_bot if spec is None else spec, seats, human)
    return {seat: rules.bots[kind](seed + seat)
            for seat, kind in enumerate(kinds) if seat != human}


def move_line(number: int, state: Any, action: object) -> str:
    """The line that lists ``action``, the ``number``-th of the game, made in
    ``state`` by chance or by the seat to act.

    >>> from cardrules.down_and_back import Cut, new_game
    >>> move_line(3, new_game(2), Cut(20))
    '    3  chance   cut 20'

    A record entry made by another seat than the one to act
    (:class:`~cardrules.engine.Seated`) names that seat:

    >>> from cardrules.engine import Seated
    >>> move_line(9, new_game(2), Seated(1, Cut(20)))
    '    9  seat 1   cut 20'
    """
    if isinstance(action, Seated):
        actor, action = gettext("seat {number}").format(number=action.seat), action.action
    elif state.is_chance:
        actor = gettext("chance")
    else:
        actor = gettext("seat {number}").format(number=state.current_player)
    return f"{number:5d}  {pad(actor, 8)} {action}"


def print_moves(rules: Rules[Any, Any], record: GameRecord) -> None:
    """Print every action of ``record`` with the seat that made it."""
    states = rules.replay(record)
    state = next(states)
    for number, action in enumerate(record.actions, start=1):
        print(move_line(number, state, action))
        state = next(states)


def quiet_stdout() -> None:
    """Point standard output at the null device, so that Python's final flush
    does not fail again on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (tests, notebooks)
        pass


def plain_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]],
                left: Collection[int] = (0,)) -> str:
    """A table as plain text: a title line, then aligned columns; those whose
    index is in ``left`` to the left, the others (numbers) to the right.

    >>> print(plain_table("T", ["bot", "wins"], [["greedy", "2"]]))
    T
    bot     wins
    greedy     2
    """
    widths = [max(width(row[k]) for row in [headers, *rows]) for k in range(len(headers))]
    lines = [title]
    for row in [headers, *rows]:
        lines.append("  ".join(pad(c, w) if k in left else " " * (w - width(c)) + c
                               for k, (c, w) in enumerate(zip(row, widths, strict=True)))
                     .rstrip())
    return "\n".join(lines)


def rich_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]],
               left: Collection[int] = (0,)) -> Any:
    """The same table drawn by rich (the ``cli`` extra must be installed).

    >>> rich_table("T", ["bot", "wins"], [["greedy", "2"]]).row_count
    1
    """
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for k, header in enumerate(headers):
        table.add_column(header, justify="left" if k in left else "right")
    for row in rows:
        table.add_row(*row)
    return table


def print_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]],
                left: Collection[int] = (0,)) -> None:
    """Print a table: drawn by rich on a terminal when rich is installed (the
    ``cli`` extra), else as :func:`plain_table`.

    >>> print_table("T", ["bot", "wins"], [["greedy", "2"]])
    T
    bot     wins
    greedy     2
    """
    if sys.stdout.isatty() and importlib.util.find_spec("rich") is not None:
        from rich.console import Console

        Console().print(rich_table(title, headers, rows, left))
    else:
        print(plain_table(title, headers, rows, left))
