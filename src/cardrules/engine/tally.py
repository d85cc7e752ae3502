"""A game's own simulation counts: the :class:`Tally` protocol.

:func:`cardrules.simulate` counts, for every game, wins, ties and final
values per seat and per bot.  A game adds its own counts (Down and Back's
carried pots and winning categories, Back Alley's contracts) through
``Rules.tally``, a class with this shape; results of chunks of games merge
exactly, whatever the workers, so every count is a whole number.

>>> from cardrules.down_and_back import RULES
>>> RULES.tally is None or hasattr(RULES.tally, "empty")
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

__all__ = ["Table", "Tally"]

#: A table for people: a title, the column headers and the rows, all text.
Table = tuple[str, Sequence[str], Sequence[Sequence[str]]]

_T = TypeVar("_T", bound="Tally")


class Tally(Protocol):
    """What ``simulate`` needs of a game's own counts.

    >>> from cardrules.engine.tally import Tally
    >>> Tally.__name__
    'Tally'
    """

    @classmethod
    def empty(cls: type[_T]) -> _T:
        """The counts of no games."""

    @classmethod
    def of_game(cls: type[_T], state: object) -> _T:
        """The counts of one finished game, from its last state."""

    def merge(self: _T, other: _T) -> _T:
        """Both tallies added up."""

    def to_dict(self) -> dict[str, object]:
        """The counts as plain JSON values."""

    @classmethod
    def from_dict(cls: type[_T], data: Mapping[str, object]) -> _T:
        """Counts read back from :meth:`to_dict`, every value checked."""

    def tables(self) -> list[Table]:
        """The counts as tables for the command line."""
