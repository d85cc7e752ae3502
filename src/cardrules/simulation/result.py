"""What a simulation returns: exact integer tallies that merge and compare.

Everything stored is a whole number (counts, sums, sums of squares and the
count of every final value), so two results of the same games are equal
with ``==`` whichever way they were computed, and :meth:`SimulationResult.merge`
adds results exactly.  Means, standard deviations and rates are properties
computed from the stored numbers.

>>> a = SeatTally.of([3, -1], wins=1, ties=0)
>>> b = SeatTally.of([-1], wins=0, ties=1)
>>> m = a.merge(b)
>>> m.games, m.total, m.total_squares, m.values, m.losses
(3, 1, 11, ((-1, 2), (3, 1)), 1)
>>> round(m.mean, 3), round(m.std, 3)
(0.333, 2.309)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from cardrules.engine.tally import Tally, read_count

if TYPE_CHECKING:
    from cardrules.engine.rules import Rules

__all__ = [
    "MarginTally",
    "SeatTally",
    "SimulationResult",
]

_T = TypeVar("_T")


def _same(what: str, mine: _T, theirs: _T) -> _T:
    if mine != theirs:
        raise ValueError(f"cannot merge simulations with different {what}: "
                         f"{mine!r} and {theirs!r}")
    return mine


@attrs.frozen(slots=True)
class SeatTally:
    """One seat's (or one bot kind's) results over many games.

    ``games`` games were counted; the seat won ``wins`` of them outright and
    shared the best result in ``ties`` (see :func:`~cardrules.simulation.simulate`
    for what counts as a win).  ``total`` and ``total_squares`` are the sum and
    the sum of squares of the seat's final value (net chips in Down and Back,
    its team's points in Back Alley); ``values`` counts every final value, as
    ``(value, count)`` pairs sorted by value.

    >>> t = SeatTally.of([2, 2, -4], wins=2, ties=0)
    >>> t.values, t.mean, t.win_rate, t.losses
    (((-4, 1), (2, 2)), 0.0, 0.6666666666666666, 1)
    """

    games: int
    wins: int
    ties: int
    total: int
    total_squares: int
    values: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, values: Iterable[int], *, wins: int, ties: int) -> SeatTally:
        """The tally of the final ``values`` of some games, with the wins and ties among them.

        >>> SeatTally.of([5], wins=1, ties=0).total_squares
        25
        """
        counted = Counter(values)
        return cls(games=sum(counted.values()), wins=wins, ties=ties,
                   total=sum(v * c for v, c in counted.items()),
                   total_squares=sum(v * v * c for v, c in counted.items()),
                   values=tuple(sorted(counted.items())))

    @property
    def losses(self) -> int:
        """Games neither won nor tied.

        >>> SeatTally.of([1, 0, 0], wins=1, ties=1).losses
        1
        """
        return self.games - self.wins - self.ties

    @property
    def mean(self) -> float:
        """The mean final value (0.0 for no games).

        >>> SeatTally.of([1, 2], wins=0, ties=0).mean
        1.5
        """
        return self.total / self.games if self.games else 0.0

    @property
    def std(self) -> float:
        """The sample standard deviation of the final value (divisor ``games - 1``;
        0.0 for fewer than two games), computed from the exact sums.

        >>> SeatTally.of([1, 3], wins=0, ties=0).std
        1.4142135623730951
        """
        n = self.games
        if n < 2:
            return 0.0
        return math.sqrt((n * self.total_squares - self.total * self.total) / (n * (n - 1)))

    @property
    def win_rate(self) -> float:
        """The share of games won outright (0.0 for no games).

        >>> SeatTally.of([1, 0], wins=1, ties=0).win_rate
        0.5
        """
        return self.wins / self.games if self.games else 0.0

    def merge(self, other: SeatTally) -> SeatTally:
        """The tally of both sets of games together.

        >>> SeatTally.of([1], wins=1, ties=0).merge(SeatTally.of([1], wins=0, ties=1)).values
        ((1, 2),)
        """
        counted = Counter(dict(self.values))
        counted.update(dict(other.values))
        return SeatTally(self.games + other.games, self.wins + other.wins,
                         self.ties + other.ties, self.total + other.total,
                         self.total_squares + other.total_squares,
                         tuple(sorted(counted.items())))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values: the stored numbers, then the derived ones.

        >>> SeatTally.of([4], wins=1, ties=0).to_dict()["values"]
        [[4, 1]]
        """
        return {"games": self.games, "wins": self.wins, "ties": self.ties,
                "losses": self.losses, "total": self.total,
                "total_squares": self.total_squares,
                "values": [[v, c] for v, c in self.values],
                "mean": self.mean, "std": self.std, "win_rate": self.win_rate}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatTally:
        """Read back :meth:`to_dict` (the derived numbers are ignored).

        >>> t = SeatTally.of([4, -2], wins=1, ties=0)
        >>> SeatTally.from_dict(t.to_dict()) == t
        True
        """
        values = tuple((int(v), int(c)) for v, c in data["values"])
        return cls(read_count(data, "games"), read_count(data, "wins"), read_count(data, "ties"),
                   read_count(data, "total"), read_count(data, "total_squares"), values)


@attrs.frozen(slots=True)
class MarginTally:
    """How far one bot kind finished ahead of the other seats, game by game
    (or, when the games were played in rotation, deal by deal).

    In each game the bot's margin is the mean final value of its ``seats``
    seats minus the mean final value of the ``others`` other seats (net chips
    in Down and Back; in Back Alley a team's points, so with one bot kind per
    team the margin is the points difference of the two teams).  To stay
    exact, the tally keeps the margin multiplied by ``seats * others``, an
    integer: ``total`` is its sum over the games and ``total_squares`` the sum
    of its squares.  This is what a bot ladder reports: the mean margin per
    game with its standard error and a 95% confidence interval (normal
    approximation, the games being independent).  When the simulation
    rotated the bots round the table (``rotate=True``), ``games`` counts the
    groups of ``rotations`` games played on the same cards and each group's
    margin is the mean over its games: the luck of the cards cancels, which
    narrows the interval.

    >>> t = MarginTally.of("search", [6, 0, 12], seats=1, others=3)  # margins 2, 0, 4
    >>> t.mean, t.std
    (2.0, 2.0)
    """

    bot: str
    seats: int
    others: int
    games: int
    total: int
    total_squares: int
    rotations: int = 1

    @classmethod
    def of(cls, bot: str, scaled: Iterable[int], *, seats: int, others: int,
           rotations: int = 1) -> MarginTally:
        """The tally of per-game margins already multiplied by ``seats * others``
        (per group of ``rotations`` games, the sum of the group's scaled margins:
        see :func:`~cardrules.simulation.simulate`'s ``rotate``).

        >>> MarginTally.of("a", [4, 8], seats=2, others=2).mean
        1.5
        >>> MarginTally.of("a", [4, 8], seats=2, others=2, rotations=2).mean
        0.75
        """
        values = list(scaled)
        return cls(bot, seats, others, len(values), sum(values), sum(v * v for v in values),
                   rotations)

    @property
    def _scale(self) -> int:
        return self.seats * self.others * self.rotations

    @property
    def mean(self) -> float:
        """The mean margin per game (0.0 for no games).

        >>> MarginTally.of("a", [6], seats=1, others=3).mean
        2.0
        """
        return self.total / (self.games * self._scale) if self.games else 0.0

    @property
    def std(self) -> float:
        """The sample standard deviation of the per-game margin (0.0 for fewer
        than two games).

        >>> round(MarginTally.of("a", [0, 6], seats=1, others=3).std, 6)
        1.414214
        """
        n = self.games
        if n < 2:
            return 0.0
        spread = (n * self.total_squares - self.total * self.total) / (n * (n - 1))
        return math.sqrt(max(spread, 0)) / self._scale

    @property
    def standard_error(self) -> float:
        """The standard error of :attr:`mean`.

        >>> round(MarginTally.of("a", [0, 6], seats=1, others=3).standard_error, 6)
        1.0
        """
        return self.std / math.sqrt(self.games) if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean margin, ``mean ± 1.96 se``.

        >>> [round(x, 6) for x in MarginTally.of("a", [0, 6], seats=1, others=3).interval]
        [-0.96, 2.96]
        """
        half = 1.96 * self.standard_error
        return (self.mean - half, self.mean + half)

    def merge(self, other: MarginTally) -> MarginTally:
        """Both sets of games together (same bot and seat counts).

        >>> a = MarginTally.of("a", [3], seats=1, others=3)
        >>> a.merge(a).games
        2
        """
        _same("margin bots", (self.bot, self.seats, self.others, self.rotations),
              (other.bot, other.seats, other.others, other.rotations))
        return MarginTally(self.bot, self.seats, self.others, self.games + other.games,
                           self.total + other.total, self.total_squares + other.total_squares,
                           self.rotations)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values: the stored numbers, then the derived ones.

        >>> MarginTally.of("a", [3], seats=1, others=3).to_dict()["mean"]
        1.0
        """
        low, high = self.interval
        return {"bot": self.bot, "seats": self.seats, "others": self.others,
                "rotations": self.rotations, "games": self.games, "total": self.total,
                "total_squares": self.total_squares, "mean": self.mean, "std": self.std,
                "standard_error": self.standard_error, "interval": [low, high]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MarginTally:
        """Read back :meth:`to_dict` (the derived numbers are ignored).

        >>> t = MarginTally.of("a", [3, -3], seats=1, others=3)
        >>> MarginTally.from_dict(t.to_dict()) == t
        True
        """
        return cls(str(data["bot"]), read_count(data, "seats"), read_count(data, "others"),
                   read_count(data, "games"), read_count(data, "total"),
                   read_count(data, "total_squares"),
                   read_count(data, "rotations") if "rotations" in data else 1)


def margins_of_game(bots: Sequence[str], values: Sequence[int]) -> list[tuple[str, int, int, int]]:
    """Per bot kind of one game: ``(bot, seats, others, scaled margin)``.

    Nothing when every seat has the same bot.

    >>> margins_of_game(["search", "greedy", "greedy"], [4, -1, -3])
    [('search', 1, 2, 12), ('greedy', 2, 1, -12)]
    """
    kinds = list(dict.fromkeys(bots))
    if len(kinds) < 2:
        return []
    total = sum(values)
    found = []
    for kind in kinds:
        mine = [v for b, v in zip(bots, values, strict=True) if b == kind]
        seats, others = len(mine), len(values) - len(mine)
        found.append((kind, seats, others, sum(mine) * others - (total - sum(mine)) * seats))
    return found


def _rules_of(game: object) -> Rules[Any, Any] | None:
    from cardrules.engine.registry import rules_for
    from cardrules.errors import ParseError

    if not isinstance(game, str):
        return None
    try:
        return rules_for(game)
    except ParseError:
        return None


@attrs.frozen(slots=True)
class SimulationResult:
    """The outcome of :func:`~cardrules.simulation.simulate`: exact tallies of many games.

    ``game`` is the game's name, ``settings`` every setting the games were
    played with (as sorted ``(name, value)`` pairs), ``bots`` the bot name of
    each seat, ``seed`` the master seed (None after merging results of
    different seeds), ``games`` the number of games, ``seats`` one
    :class:`SeatTally` per seat, ``details`` the game's own facts (an
    instance of its ``Rules.tally``, such as
    :class:`~cardrules.down_and_back.tally.DownAndBackTally`; None for a game
    without one) and ``margins``, when the seats have more than one kind of
    bot, one :class:`MarginTally` per bot kind (in seat order of first
    appearance): how far it finished ahead of the other seats, game by game,
    the figure a bot ladder reports.  ``rotate`` tells whether the bots were
    rotated round the table (see :func:`~cardrules.simulation.simulate`);
    then ``seats[j]`` follows the bot named ``bots[j]`` from seat to seat.

    >>> from cardrules.simulation import simulate
    >>> result = simulate("down-and-back", games=4, seed=1, workers=1,
    ...                   settings={"num_players": 2, "rounds": 2})
    >>> result.games, result.bots, result.details.rounds
    (4, ('random', 'random'), 8)
    >>> sum(seat.total for seat in result.seats) <= 0   # chips left in the pot
    True
    """

    game: str
    settings: tuple[tuple[str, int | None], ...]
    bots: tuple[str, ...]
    seed: int | None
    games: int
    seats: tuple[SeatTally, ...]
    details: Tally | None
    margins: tuple[MarginTally, ...] = ()
    rotate: bool = False

    @property
    def settings_dict(self) -> dict[str, int | None]:
        """The settings as a dictionary.

        >>> from cardrules.simulation import simulate
        >>> simulate("back-alley", games=1, workers=1,
        ...          settings={"max_hand_size": 1}).settings_dict
        {'max_hand_size': 1}
        """
        return dict(self.settings)

    @property
    def rules(self) -> Rules[Any, Any] | None:
        """The rules of the game, as the registry finds them by its name
        (``game``; None when no game of that name is registered): its title,
        the unit of its returns and its tally.

        >>> from cardrules.simulation import simulate
        >>> simulate("back-alley", games=1, workers=1,
        ...          settings={"max_hand_size": 1}).rules.title
        'Back Alley'
        """
        return _rules_of(self.game)

    @property
    def by_bot(self) -> tuple[tuple[str, SeatTally], ...]:
        """Per bot name (in seat order of first appearance), the tallies of its
        seats added together; ``games`` then counts seat-games.

        >>> from cardrules.simulation import simulate
        >>> r = simulate("down-and-back", games=2, seed=3, workers=1, bots=["greedy", "random"],
        ...              settings={"rounds": 1})
        >>> [(name, tally.games) for name, tally in r.by_bot]
        [('greedy', 2), ('random', 2)]
        """
        kinds: dict[str, SeatTally] = {}
        for kind, tally in zip(self.bots, self.seats, strict=True):
            kinds[kind] = kinds[kind].merge(tally) if kind in kinds else tally
        return tuple(kinds.items())

    def merge(self, other: SimulationResult) -> SimulationResult:
        """Both results as one: the counts and sums added.  The game, settings
        and bots must be the same (:class:`ValueError` otherwise); the seed is
        kept when both have the same one, else None.  Merging is associative
        and exact.

        >>> from cardrules.simulation import simulate
        >>> a = simulate("down-and-back", games=2, seed=1, workers=1, settings={"rounds": 1})
        >>> b = simulate("down-and-back", games=3, seed=2, workers=1, settings={"rounds": 1})
        >>> m = a.merge(b)
        >>> m.games, m.seed, m.seats[0].games
        (5, None, 5)
        """
        game = _same("games", self.game, other.game)
        settings = _same("settings", self.settings, other.settings)
        bots = _same("bots", self.bots, other.bots)
        rotate = _same("rotate", self.rotate, other.rotate)
        mine, theirs = self.details, other.details
        if type(mine) is not type(theirs):
            raise ValueError("cannot merge simulations of different games")
        details = None if mine is None or theirs is None else mine.merge(theirs)
        return SimulationResult(
            game, settings, bots, self.seed if self.seed == other.seed else None,
            self.games + other.games,
            tuple(a.merge(b) for a, b in zip(self.seats, other.seats, strict=True)), details,
            tuple(a.merge(b) for a, b in zip(self.margins, other.margins, strict=True)), rotate)

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON values (with the derived means, deviations
        and rates, and the per-bot tallies); :meth:`from_dict` reads it back.
        The game's own facts are under the game's name (left out for a game
        without a tally).

        >>> import json
        >>> from cardrules.simulation import simulate
        >>> r = simulate("back-alley", games=2, seed=5, workers=1, settings={"max_hand_size": 2})
        >>> data = json.loads(json.dumps(r.to_dict()))
        >>> data["game"], data["games"], data["back_alley"]["deals"]
        ('back_alley', 2, 6)
        >>> SimulationResult.from_dict(data) == r
        True
        """
        seats = []
        for seat, (kind, tally) in enumerate(zip(self.bots, self.seats, strict=True)):
            seats.append({"seat": seat, "bot": kind, **tally.to_dict()})
        data: dict[str, Any] = {
            "game": self.game, "settings": dict(self.settings), "bots": list(self.bots),
            "seed": self.seed, "games": self.games, "rotate": self.rotate, "seats": seats,
            "by_bot": {kind: tally.to_dict() for kind, tally in self.by_bot},
            "margins": [margin.to_dict() for margin in self.margins]}
        if self.details is not None:
            data[self.game] = self.details.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SimulationResult:
        """Read back :meth:`to_dict` (derived numbers are recomputed, not read).
        The game must be one the registry finds: its ``Rules.tally`` reads
        the game's own facts.

        >>> SimulationResult.from_dict({"game": "chess"})
        Traceback (most recent call last):
        ...
        ValueError: not a simulation of a known game: 'chess'
        """
        game = data.get("game")
        rules = _rules_of(game)
        if rules is None or not isinstance(game, str):
            raise ValueError(f"not a simulation of a known game: {game!r}")
        details = None if rules.tally is None else rules.tally.from_dict(data[game])
        seed = data["seed"]
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError(f"'seed' must be a whole number or null, not {seed!r}")
        settings: Mapping[str, int | None] = data["settings"]
        seats: Sequence[Mapping[str, Any]] = data["seats"]
        return cls(game, tuple(sorted(settings.items())), tuple(str(b) for b in data["bots"]),
                   seed, read_count(data, "games"), tuple(SeatTally.from_dict(s) for s in seats),
                   details, tuple(MarginTally.from_dict(m) for m in data.get("margins", ())),
                   data.get("rotate", False) is True)
