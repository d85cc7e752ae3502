"""A game's own simulation counts: the :class:`Tally` protocol.

:func:`cardrules.simulate` counts, for every game, wins, ties and final
values per seat and per bot, from ``Rules.returns``.  A game adds its own
counts (Down and Back's carried pots and winning categories, Back Alley's
contracts) through ``Rules.tally``, a class with the shape of
:class:`Tally`: it counts one finished game from its last state, adds
counts up exactly (every count is a whole number, so results of chunks
merge the same way whatever the workers), writes and reads them as JSON
values, shows them as :class:`Table` objects and draws them on the chart
axes the caller gives (the game package never imports matplotlib).  It also
says which seats play as one team, which decides who wins (:func:`outcomes`).

>>> outcomes([3, 1, 3])
(0, -1, 0)
>>> outcomes([2, 5, 2, 5], teams=((0, 2), (1, 3)))
(-1, 1, -1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

import attrs

__all__ = ["ChartAxes", "Table", "Tally", "alone", "outcomes", "read_count"]

_T = TypeVar("_T", bound="Tally")


@attrs.frozen(slots=True)
class Table:
    """A table for people: a title, the column headers and the rows, all
    text.  The first ``names`` columns hold names (aligned left), the others
    numbers (aligned right).

    >>> t = Table("Deals", ("kind", "count"), (("board", "2"),))
    >>> t.rows[0][1], t.names
    ('2', 1)
    """

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    names: int = 1


class ChartAxes(Protocol):
    """The part of a matplotlib ``Axes`` a tally's chart draws with (the
    caller passes real axes; a game package needs no matplotlib).

    Anything with these methods will do, such as this stand-in that keeps
    the titles and ignores the rest:

    >>> class Titles:
    ...     def __init__(self) -> None:
    ...         self.titles: list[str] = []
    ...     def set_title(self, label: str) -> None:
    ...         self.titles.append(label)
    ...     def __getattr__(self, name: str) -> object:
    ...         return lambda *args, **options: None
    >>> from cardrules.down_and_back.tally import DownAndBackTally
    >>> axes = Titles()
    >>> DownAndBackTally.empty().chart(axes)
    >>> axes.titles
    ['Winning categories']
    """

    def bar(self, x: Sequence[str], height: Sequence[int], **options: Any) -> object:
        """Vertical bars."""

    def barh(self, y: Sequence[float], width: Sequence[int], **options: Any) -> object:
        """Horizontal bars."""

    def set_yticks(self, ticks: Sequence[int], labels: Sequence[str]) -> object:
        """Where the y ticks are, and their labels."""

    def invert_yaxis(self) -> None:
        """The y axis upside down (the first row on top)."""

    def tick_params(self, **options: Any) -> None:
        """How the ticks look."""

    def set_title(self, label: str) -> object:
        """The chart's title."""

    def set_xlabel(self, xlabel: str) -> object:
        """The x axis's label."""

    def set_ylabel(self, ylabel: str) -> object:
        """The y axis's label."""

    def legend(self, **options: Any) -> object:
        """A legend of the labelled bars."""


def read_count(data: Mapping[str, Any], key: str) -> int:
    """The whole number stored under ``key`` in counts read back from JSON;
    :class:`ValueError` for anything else (a bool included).

    >>> read_count({"rounds": 3}, "rounds")
    3
    >>> read_count({"rounds": 2.5}, "rounds")
    Traceback (most recent call last):
    ...
    ValueError: 'rounds' must be a whole number, not 2.5
    """
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key!r} must be a whole number, not {value!r}")
    return value


def alone(seats: int) -> tuple[tuple[int, ...], ...]:
    """Every seat a team of its own: what :meth:`Tally.teams` gives in a game
    without partners, and what ``simulate`` uses for a game without a tally.

    >>> alone(3)
    ((0,), (1,), (2,))
    """
    return tuple((seat,) for seat in range(seats))


def outcomes(values: Sequence[int],
             teams: Sequence[Sequence[int]] | None = None) -> tuple[int, ...]:
    """Per seat, 1 for a win, 0 for a tie and -1 for a loss, from the seats'
    final ``values`` (``Rules.returns``): a team wins when its value is the
    best alone and ties when it shares the best; partners (seats of one team,
    which share their value) have the same outcome.  Without ``teams``,
    every seat is alone.

    >>> outcomes([4, 4, 1]), outcomes([1, 0])
    ((0, 0, -1), (1, -1))
    >>> outcomes([7, 7, 7, 7], teams=((0, 2), (1, 3)))
    (0, 0, 0, 0)
    """
    if teams is None:
        teams = alone(len(values))
    scores = [values[team[0]] for team in teams]
    best = max(scores)
    leaders = scores.count(best)
    found = [0] * len(values)
    for team, score in zip(teams, scores, strict=True):
        outcome = (1 if leaders == 1 else 0) if score == best else -1
        for seat in team:
            found[seat] = outcome
    return tuple(found)


class Tally(Protocol):
    """What ``simulate`` needs of a game's own counts (``Rules.tally``).

    The counts are frozen values: equal for the same games, added up by
    :meth:`merge`.  The states given to :meth:`of_game` are the game's own.

    >>> from cardrules.back_alley import RULES
    >>> tally = RULES.tally.of_game(RULES.play(
    ...     [RULES.bots["random"](s) for s in range(4)], {"max_hand_size": 1}, seed=3).state)
    >>> tally.merge(RULES.tally.empty()) == tally, RULES.tally.teams(4)
    (True, ((0, 2), (1, 3)))
    """

    @classmethod
    def empty(cls: type[_T]) -> _T:
        """The counts of no games."""

    @classmethod
    def of_game(cls: type[_T], state: Any) -> _T:
        """The counts of one finished game, from its last state."""

    @classmethod
    def teams(cls, seats: int) -> tuple[tuple[int, ...], ...]:
        """The seats that play as one team, for ``seats`` players (every seat
        in one of them; :func:`alone` when there are no partners)."""

    def merge(self: _T, other: _T) -> _T:
        """Both tallies added up."""

    def to_dict(self) -> dict[str, object]:
        """The counts as plain JSON values."""

    @classmethod
    def from_dict(cls: type[_T], data: Mapping[str, Any]) -> _T:
        """Counts read back from :meth:`to_dict`, every value checked."""

    def tables(self) -> list[Table]:
        """The counts as tables for the command line."""

    def chart(self, axes: ChartAxes) -> None:
        """Draw the counts' chart on ``axes`` (title and labels included)."""
