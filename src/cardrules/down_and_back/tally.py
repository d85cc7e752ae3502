"""Down and Back's own simulation counts (``RULES.tally``).

:func:`cardrules.simulate` counts wins and net chips for every game; this
adds, over every round played, how often the pot carried over (DB-43) and
which combination categories won the two showdowns (DB-41, DB-42).

>>> from cardrules.down_and_back import RULES
>>> RULES.tally is DownAndBackTally
True
>>> DownAndBackTally.empty().tables()[0].title
'Showdowns: 0 rounds, pot carried over in 0 (0.0%)'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from cardrules.down_and_back._accel import evaluate3, evaluate4
from cardrules.down_and_back.categories import Category3, Category4
from cardrules.down_and_back.state import GameState
from cardrules.engine.tally import ChartAxes, Table, alone, read_count
from cardrules.i18n import N_, gettext, ngettext

__all__ = ["BACK_CATEGORIES", "DOWN_CATEGORIES", "DownAndBackTally"]

#: The 4-card categories, strongest first (DB-10 to DB-17).
DOWN_CATEGORIES = tuple(c.name for c in sorted(Category4, reverse=True))
#: The 3-card categories, strongest first (DB-20 to DB-25).
BACK_CATEGORIES = tuple(c.name for c in sorted(Category3, reverse=True))


#: The categories' names as the tables show them (through ``gettext``; in
#: English the enum names, as they always were).
_SHOWN = (N_("QUAD"), N_("PRIAL"), N_("BOUNCER"), N_("RUN"), N_("FLUSH"),
          N_("TWO_PAIR"), N_("PAIR"), N_("HIGH_CARD"))


def _add(mine: tuple[tuple[str, int], ...],
         theirs: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    if [k for k, _ in mine] != [k for k, _ in theirs]:
        raise ValueError(f"cannot merge simulations with different categories: "
                         f"{[k for k, _ in mine]!r} and {[k for k, _ in theirs]!r}")
    return tuple((k, a + b) for (k, a), (_, b) in zip(mine, theirs, strict=True))


@attrs.frozen(slots=True)
class DownAndBackTally:
    """Down and Back facts over every round of the simulated games.

    ``rounds`` rounds were played; in ``carries`` of them nobody won both
    showdowns and the pot carried over (DB-43; the last round of a game
    counts too, though no round follows).  ``down_wins`` and ``back_wins``
    count, per combination category (strongest first), how often the hand
    that won the 4-card and the 3-card showdown (DB-41, after any tie-break
    draw, DB-42) was of that category.

    >>> t = DownAndBackTally.empty()
    >>> t.rounds, t.carry_rate, t.down_wins[0], t.back_wins[-1]
    (0, 0.0, ('QUAD', 0), ('HIGH_CARD', 0))
    """

    rounds: int
    carries: int
    down_wins: tuple[tuple[str, int], ...]
    back_wins: tuple[tuple[str, int], ...]

    @classmethod
    def empty(cls) -> DownAndBackTally:
        """No rounds yet: every count zero.

        >>> sum(count for _, count in DownAndBackTally.empty().down_wins)
        0
        """
        return cls(0, 0, tuple((name, 0) for name in DOWN_CATEGORIES),
                   tuple((name, 0) for name in BACK_CATEGORIES))

    @classmethod
    def of_game(cls, state: GameState) -> DownAndBackTally:
        """The facts of the rounds of one game, from its last state.

        >>> from cardrules.down_and_back import RULES
        >>> game = RULES.play([RULES.bots["random"](s) for s in range(3)],
        ...                   {"num_players": 3, "rounds": 2}, seed=1)
        >>> DownAndBackTally.of_game(game.state).rounds
        2
        """
        down = dict.fromkeys(DOWN_CATEGORIES, 0)
        back = dict.fromkeys(BACK_CATEGORIES, 0)
        carries = 0
        for result in state.results:
            carries += result.pot_winner is None
            down[evaluate4(result.splits[result.down_winner].down).category.name] += 1
            back[evaluate3(result.splits[result.back_winner].back).category.name] += 1
        return cls(len(state.results), carries, tuple(down.items()), tuple(back.items()))

    @classmethod
    def teams(cls, seats: int) -> tuple[tuple[int, ...], ...]:
        """Every player for themselves (DB-44).

        >>> DownAndBackTally.teams(2)
        ((0,), (1,))
        """
        return alone(seats)

    @property
    def carry_rate(self) -> float:
        """The share of rounds whose pot carried over (0.0 for no rounds).

        >>> DownAndBackTally(4, 1, (), ()).carry_rate
        0.25
        """
        return self.carries / self.rounds if self.rounds else 0.0

    def merge(self, other: DownAndBackTally) -> DownAndBackTally:
        """Both tallies together.

        >>> t = DownAndBackTally.empty()
        >>> t.merge(t) == t
        True
        """
        return DownAndBackTally(self.rounds + other.rounds, self.carries + other.carries,
                                _add(self.down_wins, other.down_wins),
                                _add(self.back_wins, other.back_wins))

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values.

        >>> DownAndBackTally.empty().to_dict()["down_wins"]["PRIAL"]
        0
        """
        return {"rounds": self.rounds, "carries": self.carries,
                "carry_rate": self.carry_rate, "down_wins": dict(self.down_wins),
                "back_wins": dict(self.back_wins)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DownAndBackTally:
        """Read back :meth:`to_dict`.

        >>> t = DownAndBackTally.empty()
        >>> DownAndBackTally.from_dict(t.to_dict()) == t
        True
        """
        return cls(read_count(data, "rounds"), read_count(data, "carries"),
                   tuple((name, int(data["down_wins"][name])) for name in DOWN_CATEGORIES),
                   tuple((name, int(data["back_wins"][name])) for name in BACK_CATEGORIES))

    def tables(self) -> list[Table]:
        """The showdowns as a table: the wins of each category, down and back.

        >>> DownAndBackTally.empty().tables()[0].rows[-1]
        ('HIGH_CARD', '0', '0')
        """
        back = dict(self.back_wins)
        return [Table(ngettext("Showdowns: {n} rounds, pot carried over in {carries} ({rate})",
                               "Showdowns: {n} rounds, pot carried over in {carries} ({rate})",
                               self.rounds).format(n=self.rounds, carries=self.carries,
                                                rate=f"{self.carry_rate:.1%}"),
                      (gettext("winning category"), gettext("down wins"), gettext("back wins")),
                      tuple((gettext(name), str(count), str(back[name]) if name in back else "-")
                            for name, count in self.down_wins))]

    def chart(self, axes: ChartAxes) -> None:
        """Bars of the winning categories, down and back side by side.

        >>> class Axes:  # records what is drawn
        ...     def __getattr__(self, name):
        ...         return lambda *args, **options: print(name) if "title" in name else None
        >>> DownAndBackTally.empty().chart(Axes())
        set_title
        """
        names = [name for name, _ in self.down_wins]
        back = dict(self.back_wins)
        positions = list(range(len(names)))
        axes.barh([p - 0.2 for p in positions], [count for _, count in self.down_wins],
                  height=0.4, label=gettext("down (4 cards)"))
        axes.barh([p + 0.2 for p in positions], [back.get(name, 0) for name in names],
                  height=0.4, label=gettext("back (3 cards)"))
        axes.set_yticks(positions, [name.replace("_", " ").lower() for name in names])
        axes.invert_yaxis()
        axes.set_title(gettext("Winning categories"))
        axes.set_xlabel(gettext("rounds won (pot carried over in {rate})").format(
            rate=f"{self.carry_rate:.0%}"))
        axes.legend(fontsize="small")
