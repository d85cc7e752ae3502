"""What the ``cardrules`` subcommands print alike: the list of a game's moves
and tables (plain, or drawn by rich), and a quiet standard output after a
closed pipe."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from cardrules.engine.presenter import pad, width
from cardrules.engine.records import Seated
from cardrules.i18n import gettext

if TYPE_CHECKING:
    from cardrules.engine.records import GameRecord
    from cardrules.engine.rules import Rules


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
