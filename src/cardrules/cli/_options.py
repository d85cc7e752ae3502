"""The options several ``cardrules`` subcommands share: the game's settings
(``--players``, ``--rounds``, ``--ante``, ``--set``, ``--max-hand-size``),
the paths a record is written to, and numbers in messages."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from cardrules.engine.presenter import game_title
from cardrules.i18n import gettext
from cardrules.simulation.run import MAX_ROUNDS

if TYPE_CHECKING:
    from cardrules.engine.rules import Rules

#: Shown in --help; the game's own default applies.
DEFAULT_ROUNDS = 10


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
