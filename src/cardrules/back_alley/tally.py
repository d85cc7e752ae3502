"""Back Alley's own simulation counts (``RULES.tally``).

:func:`cardrules.simulate` counts wins and team points for every game; this
adds, over every deal played, how often deals were thrown in (BA-25) and how
each kind of contract fared (BA-24, BA-40 to BA-42).  Partners win and lose
together (BA-43).

>>> from cardrules.back_alley import RULES
>>> RULES.tally is BackAlleyTally
True
>>> BackAlleyTally.empty().tables()[0].title
'Contracts: 0 deals, 0 thrown in'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from cardrules.back_alley.state import GameState, board_name, team_of
from cardrules.engine.tally import ChartAxes, Table, read_count
from cardrules.i18n import gettext, ngettext

__all__ = ["BOARD_NAMES", "BackAlleyTally", "ContractTally"]

#: Names of the board levels (BA-23).
BOARD_NAMES = ("board", "double board", "triple board", "quadruple board")


@attrs.frozen(slots=True)
class ContractTally:
    """How one kind of contract fared (BA-24, BA-40, BA-41).

    The kind is a numeric contract of ``tricks`` (the partners' bids added,
    ``board`` 0) or a board at level ``board`` (1 to 4, ``tricks`` 0).  It was
    the contract of a team ``count`` times, was made ``made`` times (at
    least ``tricks`` tricks taken; every trick for a board) and scored
    ``points`` in all.

    >>> c = ContractTally(tricks=0, board=2, count=4, made=1, points=-60)
    >>> c.kind, c.failed, c.make_rate, c.is_board
    ('double board', 3, 0.25, True)
    """

    tricks: int
    board: int
    count: int
    made: int
    points: int

    @property
    def kind(self) -> str:
        """The contract as text: ``"3"`` or ``"board"``, ``"double board"``, ...

        >>> ContractTally(5, 0, 1, 1, 26).kind
        '5'
        """
        return BOARD_NAMES[self.board - 1] if self.board else str(self.tricks)

    @property
    def is_board(self) -> bool:
        """True for a board contract.

        >>> ContractTally(5, 0, 1, 1, 26).is_board
        False
        """
        return self.board > 0

    @property
    def failed(self) -> int:
        """How often the contract was set (not made).

        >>> ContractTally(5, 0, 3, 1, 0).failed
        2
        """
        return self.count - self.made

    @property
    def make_rate(self) -> float:
        """The share of these contracts that were made (0.0 when none).

        >>> ContractTally(1, 0, 2, 1, 0).make_rate
        0.5
        """
        return self.made / self.count if self.count else 0.0

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values.

        >>> ContractTally(0, 1, 1, 1, 130).to_dict()["kind"]
        'board'
        """
        return {"kind": self.kind, "tricks": self.tricks, "board": self.board,
                "count": self.count, "made": self.made, "failed": self.failed,
                "points": self.points, "make_rate": self.make_rate}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ContractTally:
        """Read back :meth:`to_dict`.

        >>> c = ContractTally(3, 0, 2, 1, 1)
        >>> ContractTally.from_dict(c.to_dict()) == c
        True
        """
        return cls(read_count(data, "tricks"), read_count(data, "board"), read_count(data, "count"),
                   read_count(data, "made"), read_count(data, "points"))


def _kind(tally: ContractTally) -> str:
    """The kind of contract as a table shows it, in the current language."""
    return board_name(tally.board) if tally.board else str(tally.tricks)


def _by_kind(sums: dict[tuple[int, int], list[int]]) -> tuple[ContractTally, ...]:
    """Tallies from ``(board, tricks) -> [count, made, points]``: numeric
    contracts by size, then boards by level."""
    return tuple(ContractTally(tricks, board, *counts)
                 for (board, tricks), counts in sorted(sums.items()))


@attrs.frozen(slots=True)
class BackAlleyTally:
    """Back Alley facts over every deal of the simulated games.

    ``deals`` deals were played (thrown-in deals are not deals, BA-25; they
    are counted in ``throw_ins``).  ``contracts`` holds one
    :class:`ContractTally` per kind of contract that occurred, numeric ones
    by size first, then boards by level; each deal adds two, one per team
    (BA-42).

    >>> t = BackAlleyTally(1, 0, (ContractTally(2, 0, 1, 1, 10),
    ...                           ContractTally(0, 1, 1, 0, -130)))
    >>> [c.kind for c in t.boards], t.contract("2").made
    (['board'], 1)
    """

    deals: int
    throw_ins: int
    contracts: tuple[ContractTally, ...]

    @classmethod
    def empty(cls) -> BackAlleyTally:
        """No deals yet.

        >>> BackAlleyTally.empty()
        BackAlleyTally(deals=0, throw_ins=0, contracts=())
        """
        return cls(0, 0, ())

    @classmethod
    def of_game(cls, state: GameState) -> BackAlleyTally:
        """The facts of the deals of one game, from its last state.

        >>> from cardrules.back_alley import RULES
        >>> game = RULES.play([RULES.bots["random"](s) for s in range(4)],
        ...                   {"max_hand_size": 2}, seed=1)
        >>> t = BackAlleyTally.of_game(game.state)
        >>> t.deals, sum(c.count for c in t.contracts)
        (3, 6)
        """
        throw_ins = 0
        sums: dict[tuple[int, int], list[int]] = {}
        for deal in state.results:
            throw_ins += deal.throw_ins
            for team, contract in enumerate(deal.contracts):
                taken = deal.tricks[team]
                made = taken == deal.hand_size if contract.board else taken >= contract.tricks
                counts = sums.setdefault(
                    (contract.board, 0 if contract.board else contract.tricks), [0, 0, 0])
                counts[0] += 1
                counts[1] += made
                counts[2] += deal.points[team]
        return cls(len(state.results), throw_ins, _by_kind(sums))

    @classmethod
    def teams(cls, seats: int) -> tuple[tuple[int, ...], ...]:
        """The two partnerships, seats 0 and 2 against 1 and 3 (BA-1, BA-43).

        >>> BackAlleyTally.teams(4)
        ((0, 2), (1, 3))
        """
        return tuple(tuple(s for s in range(seats) if team_of(s) == t) for t in (0, 1))

    @property
    def boards(self) -> tuple[ContractTally, ...]:
        """The board contracts, by level.

        >>> BackAlleyTally(0, 0, ()).boards
        ()
        """
        return tuple(c for c in self.contracts if c.board)

    def contract(self, kind: str) -> ContractTally:
        """The tally of contracts of ``kind`` (such as ``"3"`` or ``"board"``);
        all zero when none occurred.

        >>> BackAlleyTally(0, 0, ()).contract("double board").count
        0
        """
        for tally in self.contracts:
            if tally.kind == kind:
                return tally
        if kind in BOARD_NAMES:
            return ContractTally(0, BOARD_NAMES.index(kind) + 1, 0, 0, 0)
        if kind.isdigit():
            return ContractTally(int(kind), 0, 0, 0, 0)
        raise ValueError(f"not a kind of contract: {kind!r}")

    def merge(self, other: BackAlleyTally) -> BackAlleyTally:
        """Both tallies together.

        >>> t = BackAlleyTally(1, 2, (ContractTally(3, 0, 2, 1, 0),))
        >>> t.merge(t).contracts
        (ContractTally(tricks=3, board=0, count=4, made=2, points=0),)
        """
        kinds = {(c.board, c.tricks): c for c in self.contracts}
        for theirs in other.contracts:
            key = (theirs.board, theirs.tricks)
            mine = kinds.get(key)
            kinds[key] = theirs if mine is None else ContractTally(
                mine.tricks, mine.board, mine.count + theirs.count, mine.made + theirs.made,
                mine.points + theirs.points)
        return BackAlleyTally(self.deals + other.deals, self.throw_ins + other.throw_ins,
                              tuple(kinds[key] for key in sorted(kinds)))

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values.

        >>> BackAlleyTally(3, 1, ()).to_dict()
        {'deals': 3, 'throw_ins': 1, 'contracts': []}
        """
        return {"deals": self.deals, "throw_ins": self.throw_ins,
                "contracts": [c.to_dict() for c in self.contracts]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BackAlleyTally:
        """Read back :meth:`to_dict`.

        >>> t = BackAlleyTally(3, 1, (ContractTally(3, 0, 2, 1, 0),))
        >>> BackAlleyTally.from_dict(t.to_dict()) == t
        True
        """
        return cls(read_count(data, "deals"), read_count(data, "throw_ins"),
                   tuple(ContractTally.from_dict(c) for c in data["contracts"]))

    def tables(self) -> list[Table]:
        """The contracts as a table: how often each kind was made and set.

        >>> BackAlleyTally(1, 0, (ContractTally(2, 0, 2, 1, -10),)).tables()[0].rows
        (('2', '2', '1', '1', '50.0%', '-10'),)
        """
        return [Table(ngettext("Contracts: {n} deals, {thrown} thrown in",
                               "Contracts: {n} deals, {thrown} thrown in", self.deals).format(
                                n=self.deals, thrown=self.throw_ins),
                      (gettext("contract"), gettext("teams"), gettext("made"), gettext("set"),
                       gettext("made %"), gettext("points")),
                      tuple((_kind(c), str(c.count), str(c.made), str(c.failed),
                             f"{c.make_rate:.1%}", f"{c.points:+d}") for c in self.contracts))]

    def chart(self, axes: ChartAxes) -> None:
        """Stacked bars per kind of contract: made, then set.

        >>> class Axes:  # records what is drawn
        ...     def __getattr__(self, name):
        ...         return lambda *args, **options: print(name) if "title" in name else None
        >>> BackAlleyTally.empty().chart(Axes())
        set_title
        """
        kinds = [_kind(c).replace(" board", "\nboard") for c in self.contracts]
        made = [c.made for c in self.contracts]
        axes.bar(kinds, made, label=gettext("made"))
        axes.bar(kinds, [c.failed for c in self.contracts], bottom=made, label=gettext("set"))
        axes.set_title(gettext("Contracts made and set"))
        axes.set_xlabel(gettext("contract"))
        axes.set_ylabel(gettext("team deals"))
        axes.tick_params(axis="x", labelsize="small")
        axes.legend(fontsize="small")
