"""Helpers the ``cardrules`` subcommands share: game names, settings, bots,
record paths and the move list."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from cardrules.errors import ParseError

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.records import GameRecord
    from cardrules.engine.rules import Rules

#: Game names as the command spells them.
GAME_NAMES = ("down-and-back", "back-alley")
#: Shown in --help; the game's own default applies.
DEFAULT_ROUNDS = 10
#: Help text of the --bots option.
BOTS_HELP = ("a bot name for every seat, or one per seat separated by commas "
             "(Down and Back: greedy, random, search; Back Alley: heuristic, random)")


def game(name: str) -> Rules[Any, Any]:
    """The rules of the game named on the command line (``down-and-back``)."""
    from cardrules.engine.registry import rules_for

    try:
        return rules_for(name.replace("-", "_"))
    except ParseError:
        raise ParseError(f"unknown game (choose from {', '.join(GAME_NAMES)})",
                         token=name) from None


def add_settings_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--players``, ``--rounds`` and ``--ante`` to a subcommand."""
    parser.add_argument("--players", type=int, help="Down and Back: 2 to 5 (default 4)")
    parser.add_argument("--rounds", type=int,
                        help=f"Down and Back: rounds to play (default {DEFAULT_ROUNDS})")
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
    """The game settings named by the options that were given."""
    given = {"num_players": args.players, "rounds": args.rounds, "ante": args.ante,
             "max_hand_size": getattr(args, "max_hand_size", None)}
    settings: dict[str, int | None] = {}
    for key, value in given.items():
        if value is None:
            continue
        if key not in rules.default_settings:
            option = {"num_players": "--players"}.get(key, "--" + key.replace("_", "-"))
            raise ValueError(f"{rules.title} has no setting for {option}")
        settings[key] = value
    return settings


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


#: The bots that sit with a person (``play --human``) when ``--bots`` is not
#: given: each game's strongest simple bot.
HUMAN_OPPONENTS = {"down_and_back": "greedy", "back_alley": "heuristic"}


def bots_around(rules: Rules[Any, Any], spec: str | None, seats: int, seed: int,
                human: int) -> dict[int, Bot]:
    """Seeded bots for every seat but ``human``'s; seat ``s`` gets seed ``seed + s``."""
    if spec is None:
        spec = HUMAN_OPPONENTS.get(rules.name, "random")
    kinds = bot_kinds(rules, spec, seats, human)
    return {seat: rules.bots[kind](seed + seat)
            for seat, kind in enumerate(kinds) if seat != human}


def print_moves(rules: Rules[Any, Any], record: GameRecord) -> None:
    """Print every action of ``record`` with the seat that made it."""
    states = rules.replay(record)
    state = next(states)
    for number, action in enumerate(record.actions, start=1):
        actor = "chance" if state.is_chance else f"seat {state.current_player}"
        print(f"{number:5d}  {actor:8s} {action}")
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
