"""What a played Back Alley game left on the table: each deal's
double-dummy tricks at the opening lead beside the tricks taken, the
report ``cardrules replay --double-dummy`` prints (``RULES.double_dummy``).

>>> from cardrules.back_alley import HeuristicBot, play_game
>>> game = play_game([HeuristicBot(s) for s in range(4)], max_hand_size=1, seed=2)
>>> len(double_dummy_report(game.record).deals)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import cast

import attrs

from cardrules.back_alley.double_dummy.solver import (
    DoubleDummyTable,
    double_dummy_table,
    max_tricks,
)
from cardrules.back_alley.state import Contract, GameState, Phase, cards_phrase
from cardrules.cards import Card, Joker
from cardrules.engine.records import GameRecord
from cardrules.i18n import gettext, ngettext

__all__ = ["DealDoubleDummy", "DoubleDummyReport", "double_dummy_report", "double_dummy_text"]


@attrs.frozen(slots=True)
class DealDoubleDummy:
    """One played deal beside its double-dummy result.

    ``double_dummy`` holds, per team, the tricks it takes in the whole deal
    with every hand open and both teams playing their best from the opening
    lead (the two add up to ``hand_size``); ``tricks`` the tricks it took,
    ``contracts`` its contract (BA-24) and ``points`` what it scored
    (BA-40 to BA-42).  ``leader`` led the first trick (BA-30).  ``table``:
    the deal's :class:`~cardrules.back_alley.double_dummy.DoubleDummyTable`
    (each team's tricks with each seat on lead), None when not worked out;
    its text adds a line for it.

    >>> from cardrules.cards import Card
    >>> d = DealDoubleDummy(deal_number=1, dealer=3, hand_size=2, trump_card=Card.parse("2H"),
    ...                     leader=0, contracts=(Contract(tricks=1), Contract()),
    ...                     double_dummy=(2, 0), tricks=(1, 1), points=(5, 1))
    >>> print(d)
    deal 1 (2 cards, turned 2H, seat 0 led): team 0 bid 1 dd 2 took 1; team 1 bid 0 dd 0 took 1
    >>> d.lost
    (1, -1)
    """

    deal_number: int
    dealer: int
    hand_size: int
    trump_card: Card | Joker
    leader: int
    contracts: tuple[Contract, Contract]
    double_dummy: tuple[int, int]
    tricks: tuple[int, int]
    points: tuple[int, int]
    table: DoubleDummyTable | None = None

    @property
    def lost(self) -> tuple[int, int]:
        """Per team, the double-dummy tricks less the tricks taken: how many
        tricks its play (or the other team's good play) cost it; negative
        when it took more than best play against it allows.

        >>> from cardrules.cards import Joker
        >>> DealDoubleDummy(2, 0, 1, Joker.BIG, 1, (Contract(), Contract()), (0, 1),
        ...                 (1, 0), (1, 0)).lost
        (-1, 1)
        """
        return (self.double_dummy[0] - self.tricks[0], self.double_dummy[1] - self.tricks[1])

    def __str__(self) -> str:
        teams = "; ".join(
            gettext("team {team} bid {contract} dd {dd} took {took}").format(
                team=t, contract=self.contracts[t], dd=self.double_dummy[t],
                took=self.tricks[t]) for t in (0, 1))
        line = gettext("deal {number} ({cards}, turned {card}, seat {seat} led): "
                       "{teams}").format(number=self.deal_number,
                                         cards=cards_phrase(self.hand_size),
                                         card=self.trump_card, seat=self.leader, teams=teams)
        if self.table is None:
            return line
        rows = ", ".join(gettext("seat {seat}").format(seat=leader) + f" {row[0]}-{row[1]}"
                         for leader, row in enumerate(self.table.tricks))
        return line + "\n  " + gettext("dd with each seat on lead, team 0-team 1: "
                                       "{rows}").format(rows=rows)


@attrs.frozen(slots=True)
class DoubleDummyReport:
    """Every finished deal of a game (:class:`DealDoubleDummy`, in order),
    with totals: what each team could have taken with every hand open, and
    what it took.  The text form is a line that says what "dd" means, a
    line per deal and a line of totals.

    >>> from cardrules.cards import Card
    >>> d = DealDoubleDummy(1, 3, 2, Card.parse("2H"), 0, (Contract(tricks=1), Contract()),
    ...                     (2, 0), (1, 1), (5, 1))
    >>> report = DoubleDummyReport((d,))
    >>> report.double_dummy, report.tricks
    ((2, 0), (1, 1))
    >>> print(report)
    dd: the tricks a team takes from the opening lead, every hand open, both teams at best
    deal 1 (2 cards, turned 2H, seat 0 led): team 0 bid 1 dd 2 took 1; team 1 bid 0 dd 0 took 1
    1 deal: team 0 dd 2 took 1; team 1 dd 0 took 1
    >>> from cardrules.back_alley.double_dummy import DoubleDummyTable
    >>> table = DoubleDummyTable(((2, 0, 2, 0), (1, 1, 1, 1), (2, 0, 2, 0), (1, 1, 1, 1)))
    >>> print(DoubleDummyReport((attrs.evolve(d, table=table),)).deals[0])
    deal 1 (2 cards, turned 2H, seat 0 led): team 0 bid 1 dd 2 took 1; team 1 bid 0 dd 0 took 1
      dd with each seat on lead, team 0-team 1: seat 0 2-0, seat 1 1-1, seat 2 2-0, seat 3 1-1
    """

    deals: tuple[DealDoubleDummy, ...]

    @property
    def double_dummy(self) -> tuple[int, int]:
        """Per team, the double-dummy tricks added over the deals.

        >>> DoubleDummyReport(()).double_dummy
        (0, 0)
        """
        return (sum(d.double_dummy[0] for d in self.deals),
                sum(d.double_dummy[1] for d in self.deals))

    @property
    def tricks(self) -> tuple[int, int]:
        """Per team, the tricks taken added over the deals.

        >>> DoubleDummyReport(()).tricks
        (0, 0)
        """
        return sum(d.tricks[0] for d in self.deals), sum(d.tricks[1] for d in self.deals)

    def __str__(self) -> str:
        lines = [gettext("dd: the tricks a team takes from the opening lead, every hand "
                         "open, both teams at best")]
        lines.extend(str(d) for d in self.deals)
        count = len(self.deals)
        totals = "; ".join(gettext("team {team} dd {dd} took {took}").format(
            team=t, dd=self.double_dummy[t], took=self.tricks[t]) for t in (0, 1))
        lines.append(ngettext("{n} deal: {totals}", "{n} deals: {totals}", count).format(
            n=count, totals=totals))
        return "\n".join(lines)


def double_dummy_report(game: GameRecord | Iterable[GameState], *, implementation: str = "auto",
                        tables: bool = True) -> DoubleDummyReport:
    """Every finished deal of ``game`` beside its double-dummy result at the
    opening lead (:func:`cardrules.back_alley.double_dummy.max_tricks`) and,
    with ``tables`` (the default), its double-dummy table
    (:func:`cardrules.back_alley.double_dummy.double_dummy_table`: four
    solves a deal rather than one).

    ``game`` is a record of a Back Alley game, or its states in order (as
    :meth:`~cardrules.engine.Rules.replay` gives them); a final state alone
    is not enough, as it keeps no hands of the deals played.  A deal thrown
    in (BA-25) was never played and is left out, and so is a deal not
    finished at the end of the states.  ``implementation`` is the
    solver's (``"auto"``, ``"c"`` or ``"python"``).

    >>> from cardrules.back_alley import HeuristicBot, play_game
    >>> game = play_game([HeuristicBot(s) for s in range(4)], max_hand_size=2, seed=3)
    >>> report = double_dummy_report(game.record)
    >>> len(report.deals), [d.hand_size for d in report.deals]
    (3, [2, 1, 2])
    >>> all(sum(d.double_dummy) == d.hand_size for d in report.deals)
    True
    >>> all(d.table is not None and d.table.team_tricks(d.leader) == d.double_dummy
    ...     for d in report.deals)
    True
    """
    if isinstance(game, GameRecord):
        if game.game != "back_alley":
            raise ValueError(f"a double-dummy report is of a Back Alley game, "
                             f"not {game.game!r}")
        states = cast("Iterator[GameState]", game.replay())
    else:
        states = iter(game)
    deals: list[DealDoubleDummy] = []
    # results, leader, dd, table
    opening: tuple[int, int, tuple[int, int], DoubleDummyTable | None] | None = None
    for state in states:
        if opening is not None and len(state.results) > opening[0]:
            result = state.results[opening[0]]
            contracts = result.contracts
            deals.append(DealDoubleDummy(
                deal_number=result.deal_number, dealer=result.dealer,
                hand_size=result.hand_size, trump_card=result.trump_card, leader=opening[1],
                contracts=(contracts[0], contracts[1]), double_dummy=opening[2],
                tricks=(result.tricks[0], result.tricks[1]),
                points=(result.points[0], result.points[1]), table=opening[3]))
            opening = None
        if (opening is None and state.phase is Phase.PLAY and not state.tricks
                and not state.trick_indexes):
            leader = state.current_player
            deal = state.deal
            assert leader is not None
            assert deal is not None
            if tables:
                table: DoubleDummyTable | None = double_dummy_table(
                    state, implementation=implementation)
                assert table is not None
                team_tricks = table.team_tricks(leader)
            else:
                table = None
                solved = max_tricks(state, implementation=implementation)
                rest = deal.hand_size - solved
                team_tricks = (solved, rest) if leader & 1 == 0 else (rest, solved)
            opening = (len(state.results), leader, team_tricks, table)
    return DoubleDummyReport(tuple(deals))


def double_dummy_text(states: Iterable[GameState]) -> str:
    """The text of :func:`double_dummy_report` for a game's states: Back
    Alley's ``RULES.double_dummy``, which ``cardrules replay --double-dummy``
    prints.

    >>> from cardrules.back_alley import HeuristicBot, RULES, play_game
    >>> game = play_game([HeuristicBot(s) for s in range(4)], max_hand_size=1, seed=2)
    >>> print(double_dummy_text(RULES.replay(game.record)))
    dd: the tricks a team takes from the opening lead, every hand open, both teams at best
    deal 1 (1 card, turned ..., seat ... led): team 0 bid ... dd ... took ...; team 1 bid ...
      dd with each seat on lead, team 0-team 1: seat 0 ...-..., seat 1 ..., seat 2 ..., seat 3 ...
    1 deal: team 0 dd ... took ...; team 1 dd ... took ...
    """
    return str(double_dummy_report(states))
