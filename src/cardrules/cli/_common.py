"""Helpers the ``cardrules`` subcommands share: game names, settings, bots,
record paths and the move list."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from cardrules.engine.records import Seated
from cardrules.errors import ParseError
from cardrules.simulation.run import MAX_ROUNDS

if TYPE_CHECKING:
    from cardrules.cards import Card, Joker, Suit
    from cardrules.engine.bots import Bot
    from cardrules.engine.records import GameRecord
    from cardrules.engine.rules import Rules

#: Game names as the command spells them (any case, ``-`` or ``_``, is accepted).
GAME_NAMES = ("down-and-back", "back-alley")
#: Shown in --help; the game's own default applies.
DEFAULT_ROUNDS = 10
#: Stands in a help text for the bots of every registered game; the command's
#: :class:`HelpFormatter` fills it in from the registry when help is printed.
BOTS_MARK = "<the bots of every game>"
#: Help text of the --bots option.
BOTS_HELP = ("a bot name for every seat, or one per seat separated by commas "
             f"({BOTS_MARK})")


def game_key(name: str) -> str:
    """The registry name of a game as typed on the command line: case does
    not matter and ``-`` and ``_`` are alike (ASCII text only).

    >>> game_key("DOWN-AND-BACK"), game_key("back_alley"), game_key("Back-Alley")
    ('down_and_back', 'back_alley', 'back_alley')
    """
    return name.lower().replace("-", "_") if name.isascii() else name


def game(name: str) -> Rules[Any, Any]:
    """The rules of the game named on the command line (``down-and-back``,
    ``Back_Alley``: see :func:`game_key`).

    >>> game("Down-And-Back").title
    'Down and Back'
    >>> game("go-fish")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown game (choose from down-and-back, back-alley): 'go-fish'
    """
    from cardrules.engine.registry import rules_for

    try:
        return rules_for(game_key(name))
    except ParseError:
        raise ParseError(f"unknown game (choose from {', '.join(GAME_NAMES)})",
                         token=name) from None


def registered_bots() -> str:
    """Every registered game with the names of its bots, for ``--help``.

    >>> print(registered_bots())
    Back Alley: heuristic, random, search; Down and Back: greedy, random, search
    """
    from cardrules.engine.registry import games, rules_for

    found = [rules_for(name) for name in games()]
    return "; ".join(f"{rules.title}: {', '.join(sorted(rules.bots))}" for rules in found)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, with :data:`BOTS_MARK` replaced by
    :func:`registered_bots` (so the games are imported only to print help).

    >>> parser = Parser(prog="x")
    >>> _ = parser.add_argument("--bots", help=BOTS_HELP)
    >>> "Back Alley: heuristic, random, search" in " ".join(parser.format_help().split())
    True
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if text is not None and BOTS_MARK in text:
            text = text.replace(BOTS_MARK, registered_bots().replace("%", "%%"))
        return text


class Parser(argparse.ArgumentParser):
    """The argument parser of the command and its subcommands: argparse's,
    with :class:`HelpFormatter` unless told otherwise.

    >>> Parser(prog="x").formatter_class is HelpFormatter
    True
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)


def add_settings_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--players``, ``--rounds`` and ``--ante`` to a subcommand."""
    parser.add_argument("--players", type=int, help="Down and Back: 2 to 5 (default 4)")
    parser.add_argument("--rounds", type=int,
                        help=f"Down and Back: rounds to play (default {DEFAULT_ROUNDS}), "
                             f"1 to {MAX_ROUNDS}")
    parser.add_argument("--ante", type=int, help="Down and Back: chips each round (default 1)")


def add_hand_size_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--max-hand-size`` (Back Alley's short games) to a subcommand."""
    parser.add_argument("--max-hand-size", type=int, metavar="N",
                        help="Back Alley: cards in the first and last deal, 1 to 13 "
                             "(default 13: the full 25 deals); a smaller N is a short game "
                             "of 2N-1 deals")


def check_record_path(path: str, option: str = "--record") -> None:
    """Refuse a path that could not be written, before any game is played."""
    if not path.strip():
        raise ValueError(f"{option} needs a file name")
    target = os.path.abspath(path)
    if os.path.isdir(target):
        raise ValueError(f"{option} {path}: that is a folder, not a file")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise ValueError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(target)
                                           and not os.access(target, os.W_OK)):
        raise ValueError(f"{option} {path}: cannot write there")


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
    """
    given = {"num_players": args.players, "rounds": args.rounds, "ante": args.ante,
             "max_hand_size": getattr(args, "max_hand_size", None)}
    settings: dict[str, int | None] = {}
    for key, value in given.items():
        if value is None:
            continue
        if key not in rules.default_settings:
            option = {"num_players": "--players"}.get(key, "--" + key.replace("_", "-"))
            raise ValueError(f"{rules.title} has no setting for {option}")
        if key == "rounds" and not 1 <= value <= MAX_ROUNDS:
            raise ValueError(f"--rounds must be from 1 to {MAX_ROUNDS:,}, "
                             f"not {shown_number(value)}")
        settings[key] = value
    return settings


def shown_number(number: int) -> str:
    """A number for a message: in full, or its size when it is very long.

    >>> shown_number(12), shown_number(10**40)
    ('12', 'a number of 41 digits')
    """
    text = str(number)
    return text if len(text) <= 30 else f"a number of {len(text.lstrip('-'))} digits"


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
        raise ValueError(f"--bots is one of {names}, or one name per seat "
                         f"({seats} seats), separated by commas")
    return kinds


def bots(rules: Rules[Any, Any], spec: str, seats: int, seed: int) -> list[Bot]:
    """Seeded bots for every seat from ``--bots``."""
    return [rules.bots[kind](seed + seat)
            for seat, kind in enumerate(bot_kinds(rules, spec, seats))]


#: The bots ``play`` seats when ``--bots`` is not given (around a person too):
#: each game's strongest bot that still plays fast.
DEFAULT_BOTS = {"down_and_back": "greedy", "back_alley": "heuristic"}
#: The old name of :data:`DEFAULT_BOTS`.
HUMAN_OPPONENTS = DEFAULT_BOTS


def default_bot(rules: Rules[Any, Any]) -> str:
    """The bot ``play`` seats by default in ``rules``' game.

    >>> from cardrules.back_alley import RULES
    >>> default_bot(RULES)
    'heuristic'
    """
    return DEFAULT_BOTS.get(rules.name, "random")


def bots_around(rules: Rules[Any, Any], spec: str | None, seats: int, seed: int,
                human: int) -> dict[int, Bot]:
    """Seeded bots for every seat but ``human``'s; seat ``s`` gets seed ``seed + s``."""
    if spec is None:
        spec = default_bot(rules)
    kinds = bot_kinds(rules, spec, seats, human)
    return {seat: rules.bots[kind](seed + seat)
            for seat, kind in enumerate(kinds) if seat != human}


def back_alley_suits(cards: Iterable[Card | Joker],
                     trump: Suit | None) -> list[list[Card | Joker]]:
    """Back Alley cards as a player holds them: by suit, trump first with the
    jokers at its top (BA-2), then the other suits in the order spades,
    hearts, diamonds, clubs; highest card first in each (BA-3).

    >>> from cardrules import parse_cards
    >>> from cardrules.cards import Suit
    >>> cards = parse_cards("2S AH LB 9S BB KS 3C", jokers=True)
    >>> [" ".join(map(str, suit)) for suit in back_alley_suits(cards, Suit.SPADES)]
    ['BB LB KS 9S 2S', 'AH', '3C']
    """
    from cardrules.back_alley.trick import TRUMP_CLASS, table_for

    classes, powers = table_for(trump)
    groups: dict[int, list[Card | Joker]] = {}
    for card in cards:
        groups.setdefault(classes[card.index], []).append(card)
    order = (TRUMP_CLASS, *range(4))
    return [sorted(groups[k], key=lambda card: powers[card.index], reverse=True)
            for k in order if k in groups]


def back_alley_hand(cards: Iterable[Card | Joker], trump: Suit | None) -> str:
    """A Back Alley hand as text in the order of :func:`back_alley_suits`,
    the suits separated by ``|`` (``-`` for no cards).

    >>> from cardrules import parse_cards
    >>> from cardrules.cards import Suit
    >>> back_alley_hand(parse_cards("AS 2S 3H KS BB", jokers=True), Suit.SPADES)
    'BB AS KS 2S | 3H'
    """
    return " | ".join(" ".join(map(str, suit)) for suit in back_alley_suits(cards, trump)) \
        or "-"


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
        actor, action = f"seat {action.seat}", action.action
    else:
        actor = "chance" if state.is_chance else f"seat {state.current_player}"
    return f"{number:5d}  {actor:8s} {action}"


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
    widths = [max(len(row[k]) for row in [headers, *rows]) for k in range(len(headers))]
    lines = [title]
    for row in [headers, *rows]:
        lines.append("  ".join(c.ljust(w) if k in left else c.rjust(w)
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
