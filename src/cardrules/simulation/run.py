"""Playing many games, in this process or spread over workers.

The games are cut into chunks of consecutive game numbers; each chunk is
played by :func:`play_chunk`, which needs only plain data (the game's name,
or its rules when the registry does not know them, its settings, the bot
names, the master seed and the range of game numbers), so it can run in
another process or on another machine.  Game ``i`` takes its chance seed
and its bots' seeds from :func:`game_seeds` alone, so a game is the same
wherever and in whichever chunk it is played, and the chunks' results are
merged in order into one exact result.

>>> chance, bots = game_seeds(7, 0, 2)
>>> chance == game_seeds(7, 0, 2)[0], len(bots), chance != game_seeds(7, 1, 2)[0]
(True, 2, True)
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from cardrules._validate import is_int, require_int
from cardrules.engine.deals import FixedDeals
from cardrules.engine.tally import outcomes
from cardrules.simulation.result import (
    MarginTally,
    SeatTally,
    SimulationResult,
    margins_of_game,
)

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future, ProcessPoolExecutor
    from multiprocessing.queues import SimpleQueue

    from cardrules.engine.rules import Rules

__all__ = ["ENGINES", "VECTOR_BATCH", "game_seeds", "play_chunk", "rotations", "simulate",
           "vector_seeds"]

#: The most games one call of :func:`simulate` plays (10**12: years of work
#: on one machine; a larger number is refused rather than started).
MAX_GAMES = 10**12
#: The most rounds of a game with a ``rounds`` setting (Down and Back's) in
#: :func:`simulate`; an open-ended game (``rounds=None``) is refused, since
#: it never ends.
MAX_ROUNDS = 10_000
#: The most local worker processes :func:`simulate` starts.
MAX_WORKERS = 256
#: The largest chunk of games sent to a worker at once.
MAX_CHUNK_SIZE = 1_000_000
#: Chunks per worker when ``chunk_size`` is not given (a few, so that a slow
#: chunk does not hold the others up).
_CHUNKS_PER_WORKER = 4
#: The largest default chunk.
_MAX_CHUNK = 250
#: Chunks waiting or running at once, per local worker: enough to keep every
#: worker busy, few enough that memory does not grow with the games.
_WINDOW_PER_WORKER = 2
#: Chunks waiting or running at once on an executor given by the caller.
_EXECUTOR_WINDOW = 64
#: How often (seconds) the caller's process reads the local workers' reports
#: of their finished games.
_REPORT_EVERY = 0.1
#: The engines :func:`simulate` can play with: the reducer, one game at a
#: time, or the game's batch engine (``Rules.vector``, numpy).
ENGINES = ("reducer", "vector")
#: Games per batch of the batch engine (``engine="vector"``): batch ``k``
#: holds games ``k * VECTOR_BATCH`` to ``(k + 1) * VECTOR_BATCH - 1``.
VECTOR_BATCH = 1024


def _derive(seed: int, index: int, part: str) -> int:
    text = f"cardrules.simulate:{seed}:{index}:{part}".encode("ascii")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def game_seeds(seed: int, index: int, seats: int) -> tuple[int, tuple[int, ...]]:
    """The chance seed and the bot seeds (one per seat) of game ``index``.

    Each is the first 8 bytes, read as a big-endian unsigned integer, of the
    SHA-256 digest of the ASCII text ``cardrules.simulate:{seed}:{index}:{part}``
    where ``part`` is ``chance`` for the chance seed and ``seat{s}`` for the
    bot of seat ``s``.  The derivation is stable across Python versions,
    machines and runs (it does not use :func:`hash`), so game ``index`` of a
    simulation can be played again on its own:
    ``rules.play(bots, settings, seed=chance)`` with seat ``s``'s bot built as
    ``rules.bots[name](bot_seeds[s])``.

    >>> game_seeds(0, 0, 1)
    (11657996559169139703, (4760951767479105488,))
    >>> import hashlib
    >>> digest = hashlib.sha256(b"cardrules.simulate:0:0:seat0").digest()
    >>> game_seeds(0, 0, 1)[1][0] == int.from_bytes(digest[:8], "big")
    True
    """
    require_int("seed", seed)
    require_int("game index", index, minimum=0)
    return (_derive(seed, index, "chance"),
            tuple(_derive(seed, index, f"seat{s}") for s in range(seats)))


def vector_seeds(seed: int, batch: int, seats: int) -> tuple[int, tuple[int, ...]]:
    """The seed of batch ``batch`` of the batch engine (``engine="vector"``)
    and the seeds of its bots (one per seat), derived as in :func:`game_seeds`
    with ``batch`` for the game index and the parts ``vector`` and
    ``vector-seat{s}``.

    >>> vector_seeds(0, 0, 1) == vector_seeds(0, 0, 1) != vector_seeds(0, 1, 1)
    True
    """
    require_int("seed", seed)
    require_int("batch", batch, minimum=0)
    return (_derive(seed, batch, "vector"),
            tuple(_derive(seed, batch, f"vector-seat{s}") for s in range(seats)))


def _rules(game: str | Rules[Any, Any]) -> Rules[Any, Any]:
    from cardrules.engine.registry import rules_for
    from cardrules.engine.rules import Rules

    if not isinstance(game, str | Rules):
        raise ValueError(f"simulate plays a game given by its name or its Rules, "
                         f"not {game!r}")
    return rules_for(game)


def _sent(rules: Rules[Any, Any]) -> str | Rules[Any, Any]:
    """What names the game for a worker: its name when the registry finds these
    very rules by it, else the rules themselves (pickled)."""
    from cardrules.engine.registry import rules_for
    from cardrules.errors import ParseError

    try:
        found = rules_for(rules.name)
    except ParseError:
        return rules
    return rules.name if found is rules else rules


def rotations(bots: Sequence[str]) -> tuple[int, ...]:
    """The shifts that seat ``bots`` round the table in every distinct way.

    Shift ``k`` puts the bot of player ``j`` (``bots[j]``) in seat
    ``(j + k) % len(bots)``; shifts giving the same seating as an earlier one
    are left out.

    >>> rotations(["search", "greedy", "greedy", "greedy"])
    (0, 1, 2, 3)
    >>> rotations(["search", "heuristic", "search", "heuristic"])
    (0, 1)
    """
    seen: set[tuple[str, ...]] = set()
    shifts = []
    n = len(bots)
    for shift in range(n):
        seating = tuple(bots[(s - shift) % n] for s in range(n))
        if seating not in seen:
            seen.add(seating)
            shifts.append(shift)
    return tuple(shifts)


def play_chunk(game: str | Rules[Any, Any], settings: Mapping[str, int | None],
               bots: Sequence[str], seed: int, start: int, stop: int,
               rotate: bool = False, engine: str = "reducer") -> SimulationResult:
    """Play games ``start`` to ``stop - 1`` of a simulation and tally them.

    This is what each worker runs; every argument is plain data when
    ``game`` is a name.  ``settings`` must be complete (every setting of the
    game) and ``bots`` hold one name per seat.  With ``rotate``, ``start``
    and ``stop`` must be multiples of ``len(rotations(bots))`` (see
    :func:`simulate`).  The memory it needs does not grow with the number
    of games: the final values are counted as they come.  With
    ``engine="vector"`` the games are played in batches of
    :data:`~cardrules.simulation.run.VECTOR_BATCH` by the game's batch engine
    (see :func:`simulate`): ``start`` must then begin a batch (a multiple of
    ``VECTOR_BATCH``).

    >>> r = play_chunk("back_alley", {"max_hand_size": 1}, ["random"] * 4, 0, 3, 5)
    >>> r.games, r.details.deals
    (2, 2)
    """
    return _play(game, settings, bots, seed, start, stop, rotate, None, engine)


def _reducer_games(rules: Rules[Any, Any], settings: Mapping[str, int | None],
                   bots: Sequence[str], seed: int, start: int, stop: int,
                   shifts: tuple[int, ...], rotate: bool) -> Iterator[Any]:
    """The last state of each game ``start`` to ``stop - 1``, played by the reducer."""
    n = len(bots)
    for index in range(start, stop):
        number, turn = divmod(index, len(shifts))
        shift = shifts[turn]
        chance, bot_seeds = game_seeds(seed, number if rotate else index, n)
        # Player j (bots[j], with bot seed bot_seeds[j]) sits in seat (j + shift) % n.
        at = [(s - shift) % n for s in range(n)]
        players = [rules.bots[bots[j]](bot_seeds[j]) for j in at]
        if rotate:   # the group's games deal alike, deal by deal (cardrules.engine.deals)
            fixed = attrs.evolve(rules, sample_chance=FixedDeals(rules, chance).sample_chance)
            yield fixed.play(players, settings, seed=chance).state
        else:
            yield rules.play(players, settings, seed=chance).state


def _vector_games(rules: Rules[Any, Any], settings: Mapping[str, int | None],
                  bots: Sequence[str], seed: int, start: int, stop: int
                  ) -> Iterator[Any]:
    """The last state of each game ``start`` to ``stop - 1``, played in batches
    of ``VECTOR_BATCH`` by the game's batch engine with the batch bots."""
    import numpy as np

    from cardrules.vector.base import VectorGame
    from cardrules.vector.bots import BOTS

    if start % VECTOR_BATCH:
        raise ValueError(f"with engine='vector', a chunk begins a batch of "
                         f"{VECTOR_BATCH} games (start {start} does not)")
    assert rules.vector is not None
    for begin in range(start, stop, VECTOR_BATCH):
        count = min(stop, begin + VECTOR_BATCH) - begin
        chance, bot_seeds = vector_seeds(seed, begin // VECTOR_BATCH, len(bots))
        game = rules.vector(count, chance, settings)
        assert isinstance(game, VectorGame)
        # One batch bot per bot name, for the seats of that name (seeded by
        # the first of them): a bot reads the whole batch at each step.
        seats: dict[str, list[int]] = {}
        for s, name in enumerate(bots):
            seats.setdefault(name, []).append(s)
        players = [(BOTS[name](bot_seeds[at[0]]), np.array(at)) for name, at in seats.items()]
        while not game.terminated.all():
            if len(players) == 1:
                actions = players[0][0].act(game)
            else:
                to_act = game.current_player
                actions = np.zeros(count, dtype=np.int64)
                for bot, at in players:
                    here = np.isin(to_act, at)
                    if here.any():
                        actions[here] = bot.act(game)[here]
            game.step(actions)
        for i in range(count):
            yield game.state(i)


def _play(game: str | Rules[Any, Any], settings: Mapping[str, int | None],
          bots: Sequence[str], seed: int, start: int, stop: int, rotate: bool,
          on_game: Callable[[int], object] | None,
          engine: str = "reducer") -> SimulationResult:
    """:func:`play_chunk`, calling ``on_game(k)`` after the ``k``-th game of the chunk."""
    rules = _rules(game)
    n = len(bots)
    tally = rules.tally
    details = None if tally is None else tally.empty()
    teams = None if tally is None else tally.teams(n)
    final: list[Counter[int]] = [Counter() for _ in bots]
    wins = [0] * n
    ties = [0] * n
    # Per (kind, seats, others): groups counted, sum and sum of squares of the
    # scaled margins (what MarginTally.of computes from the list of them).
    margins: dict[tuple[str, int, int], list[int]] = {}
    shifts = rotations(bots) if rotate else (0,)
    if start % len(shifts) or stop % len(shifts):
        raise ValueError(f"with rotate, chunks hold whole groups of {len(shifts)} games")
    group: dict[str, int] = {}
    _check_engine(rules, engine, bots, len(shifts))
    if engine == "vector":
        states = _vector_games(rules, settings, bots, seed, start, stop)
    else:
        states = _reducer_games(rules, settings, bots, seed, start, stop, shifts, rotate)
    for index, state in zip(range(start, stop), states, strict=True):
        turn = index % len(shifts)
        shift = shifts[turn]
        by_seat = rules.returns(state)
        won = outcomes(by_seat, teams)
        if tally is not None and details is not None:
            details = details.merge(tally.of_game(state))
        # From seats to players (the same when not rotating).
        values = [by_seat[(j + shift) % n] for j in range(n)]
        results = [won[(j + shift) % n] for j in range(n)]
        for kind, seats, others, scaled in margins_of_game(bots, values):
            group[kind] = group.get(kind, 0) + scaled
            if turn == len(shifts) - 1:  # the group is complete
                margin = group.pop(kind)
                sums = margins.setdefault((kind, seats, others), [0, 0, 0])
                sums[0] += 1
                sums[1] += margin
                sums[2] += margin * margin
        for s, (value, outcome) in enumerate(zip(values, results, strict=True)):
            final[s][value] += 1
            wins[s] += outcome == 1
            ties[s] += outcome == 0
        if on_game is not None:
            on_game(index + 1 - start)
    return SimulationResult(
        rules.name, tuple(sorted(settings.items())), tuple(bots), seed, stop - start,
        tuple(SeatTally(sum(f.values()), w, t, sum(v * c for v, c in f.items()),
                        sum(v * v * c for v, c in f.items()), tuple(sorted(f.items())))
              for f, w, t in zip(final, wins, ties, strict=True)),
        details, tuple(MarginTally(kind, seats, others, count, total, squares, len(shifts))
                       for (kind, seats, others), (count, total, squares) in margins.items()),
        rotate)


def _bot_names(rules: Rules[Any, Any], bots: str | Sequence[str],
               seats: int | None) -> list[str]:
    known = ", ".join(rules.bots)
    names = [bots] if isinstance(bots, str) else list(bots)
    for name in names:
        if name not in rules.bots:
            raise ValueError(f"unknown {rules.title} bot {name!r} (known: {known})")
    if isinstance(bots, str):
        return names * (seats or 0)
    if not names:
        raise ValueError("bots: give a bot name, or one per seat")
    return names


def simulate(game: str | Rules[Any, Any], games: int = 100, seed: int | None = None,
             bots: str | Sequence[str] = "random",
             settings: Mapping[str, int | None] | None = None, *,
             workers: int | None = None, executor: Executor | None = None,
             chunk_size: int | None = None,
             progress: Callable[[int, int], object] | None = None,
             rotate: bool = False, engine: str = "reducer") -> SimulationResult:
    """Let bots play ``games`` games of ``game`` and tally the outcomes exactly.

    - ``game``: a name the registry finds (any case, ``-`` or ``_``) or a
      game's :class:`~cardrules.engine.Rules`.
    - ``bots``: one bot name of ``RULES.bots`` for every seat, or one per
      seat (which also sets ``num_players``, if the game has it).
    - ``settings``: the game's settings; those left out take their defaults.
      Every game must end: Down and Back's ``rounds`` must be 1 to
      ``MAX_ROUNDS`` (10,000).
    - ``seed``: the master seed; game ``i`` is played with the seeds
      :func:`game_seeds` derives from ``(seed, i)``, so the result does not
      depend on how the games are spread.  ``None`` draws one, kept in the
      result.
    - ``workers`` (local processes, default every core; ``1``: this process),
      ``executor`` (a :class:`concurrent.futures.Executor` of yours) and
      ``chunk_size``: how the games are spread; ``progress(done, total)``
      is told the games finished.
    - ``rotate=True``: duplicate play, the same deals for every seating of
      the bots (:func:`rotations`); ``games`` must be a multiple of the group.
    - ``engine``: ``"reducer"`` (the default) or ``"vector"`` (the game's
      batch engine, ``Rules.vector``, with the batch bots; needs numpy).

    Returns a :class:`SimulationResult`: each seat's final ``rules.returns``,
    its wins and ties (the teams of ``rules.tally``: Back Alley's
    partnerships, BA-43; each seat alone in Down and Back, DB-44) and the
    game's own counts.  Raises :class:`ValueError` for a setting out of its
    limits (``games`` 1 to ``MAX_GAMES``, ``workers`` 1 to ``MAX_WORKERS``,
    ``chunk_size`` 1 to ``MAX_CHUNK_SIZE``, an unknown game or bot, a game or
    bot without a batch version for ``engine="vector"``) and
    :class:`TypeError` for an ``executor`` that is not an executor or a
    ``progress`` that cannot be called, before any game is played.  How the
    games are spread, seeded, interrupted and counted: :doc:`/simulation`.

    >>> r = simulate("down-and-back", games=3, seed=11, bots=["greedy", "random", "random"],
    ...              settings={"rounds": 2}, workers=1)
    >>> r.games, len(r.seats), sum(s.wins + s.ties for s in r.seats) >= 3
    (3, 3, True)
    """
    job = _validate(game, games, seed, bots, settings, workers=workers, executor=executor,
                    chunk_size=chunk_size, progress=progress, rotate=rotate, engine=engine)
    plan = _plan(job, workers, chunk_size, executor is not None)
    return _run(job, plan, executor, progress)


@attrs.frozen
class _Job:
    """What :func:`simulate` was asked to play, checked: complete settings,
    one bot name per seat, a master seed."""

    rules: Rules[Any, Any]
    settings: dict[str, int | None]
    bots: list[str]
    seed: int
    games: int
    rotate: bool
    engine: str
    group: int   # games per group: the distinct seatings with rotate, else 1


@attrs.frozen
class _Plan:
    """How the games of a :class:`_Job` are cut up and where they are played."""

    chunk_size: int
    chunks: int        # how many chunks
    workers: int       # local processes (1: in this process)
    in_process: bool   # no pool: play the chunks here, one after the other

    def ranges(self, games: int) -> Iterator[tuple[int, int]]:
        """The chunks' ranges of game numbers, in order."""
        return ((start, min(games, start + self.chunk_size))
                for start in range(0, games, self.chunk_size))


def _validate(game: str | Rules[Any, Any], games: int, seed: int | None,
              bots: str | Sequence[str], settings: Mapping[str, int | None] | None, *,
              workers: int | None, executor: Executor | None, chunk_size: int | None,
              progress: Callable[[int, int], object] | None, rotate: bool,
              engine: str) -> _Job:
    """Check every argument of :func:`simulate` before any game is played and
    complete the settings, the bots and the seed."""
    from concurrent.futures import Executor

    rules = _rules(game)
    require_int("games", games, minimum=1, maximum=MAX_GAMES)
    if seed is None:
        seed = secrets.randbits(63)
    elif not is_int(seed):
        raise ValueError(f"seed must be a whole number or None, not {seed!r}")
    if executor is not None and workers is not None:
        raise ValueError("give workers or an executor, not both")
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor (a process or "
                        f"thread pool, or a Dask client's get_executor()), not "
                        f"{type(executor).__name__}")
    if workers is not None:
        require_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    if chunk_size is not None:
        require_int("chunk_size", chunk_size, minimum=1, maximum=MAX_CHUNK_SIZE)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a function of (done, total) or None, "
                        f"not {type(progress).__name__}")
    values = dict(rules.default_settings)
    given = dict(settings or {})
    if "num_players" in values and "num_players" not in given and not isinstance(bots, str):
        given["num_players"] = len(bots)
    # The seats: one return each (this also checks the settings).
    seats = len(rules.returns(rules.new_game_from_settings(given)))
    values.update(given)
    if "rounds" in values:
        if values["rounds"] is None:
            raise ValueError(f"simulate needs games that end: rounds must be 1 to "
                             f"{MAX_ROUNDS}, not None")
        require_int("rounds", values["rounds"], minimum=1, maximum=MAX_ROUNDS)
    names = _bot_names(rules, bots, seats)
    if len(names) != seats:
        raise ValueError(f"{rules.title} has {seats} seats here; give one bot name "
                         f"or {seats}, not {len(names)}")
    if not isinstance(rotate, bool):
        raise ValueError(f"rotate must be True or False, not {rotate!r}")
    group = len(rotations(names)) if rotate else 1
    if games % group:
        raise ValueError(f"with rotate, games must be a multiple of {group} (one game for "
                         f"each seating of the bots), not {games}")
    _check_engine(rules, engine, names, group)
    return _Job(rules, values, names, seed, games, rotate, engine, group)


def _plan(job: _Job, workers: int | None, chunk_size: int | None, on_executor: bool) -> _Plan:
    """Cut the games into chunks of whole groups (and whole batches for the
    batch engine), a few per worker unless ``chunk_size`` is given."""
    parallel = workers if workers is not None else min(MAX_WORKERS, os.cpu_count() or 1)
    if chunk_size is None:
        chunk_size = min(_MAX_CHUNK,
                         max(1, math.ceil(job.games / (parallel * _CHUNKS_PER_WORKER))))
    chunk_size = math.ceil(chunk_size / job.group) * job.group  # whole groups
    if job.engine == "vector":
        chunk_size = math.ceil(chunk_size / VECTOR_BATCH) * VECTOR_BATCH  # whole batches
    count = math.ceil(job.games / chunk_size)
    return _Plan(chunk_size, count, min(parallel, count),
                 not on_executor and (parallel == 1 or count == 1))


def _run(job: _Job, plan: _Plan, executor: Executor | None,
         progress: Callable[[int, int], object] | None) -> SimulationResult:
    """Play the chunks of ``plan``, here, on ``executor`` or on local workers,
    and merge their results in order."""
    chunks = plan.ranges(job.games)
    report = _Reporter(progress, job.games)
    if plan.in_process:
        result: SimulationResult | None = None
        for start, stop in chunks:
            part = _play(job.rules, job.settings, job.bots, job.seed, start, stop, job.rotate,
                         None if progress is None else report.at(start), job.engine)
            result = part if result is None else result.merge(part)
            report.finish(start, stop - start)
        assert result is not None
        return result
    sent = _sent(job.rules)
    if executor is not None:
        given = executor
        return _stream(lambda number, start, stop: given.submit(
            play_chunk, sent, job.settings, job.bots, job.seed, start, stop, job.rotate,
            job.engine), chunks, _EXECUTOR_WINDOW, report, None)
    task = (sent, job.settings, job.bots, job.seed, job.rotate, job.engine)
    return _on_local_workers(task, chunks, plan.workers, report)


def _check_engine(rules: Rules[Any, Any], engine: object, names: Sequence[str],
                  rotations_per_group: int) -> None:
    """Refuse an engine that cannot play these games before any is played."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be 'reducer' or 'vector', not {engine!r}")
    if engine == "reducer":
        return
    if rules.vector is None:
        raise ValueError(f"engine='vector': {rules.title} has no batch engine "
                         f"(its Rules.vector is None); use engine='reducer'")
    try:
        from cardrules.vector.bots import BOTS
    except ImportError:
        raise ValueError('engine=\'vector\' needs numpy: pip install "cardrules[numpy]"') \
            from None
    others = sorted({name for name in names if name not in BOTS})
    if others:
        raise ValueError(f"engine='vector' plays only bots with a batch version "
                         f"({', '.join(sorted(BOTS))}), not {', '.join(others)}; "
                         f"use engine='reducer' for them")
    if rotations_per_group > 1:
        raise ValueError("engine='vector' does not rotate the seats of different bots")


class _Reporter:
    """Adds up the games finished (whole chunks, and games of running chunks)
    and calls ``progress(done, total)`` when the count has grown."""

    def __init__(self, progress: Callable[[int, int], object] | None, total: int) -> None:
        self.progress = progress
        self.total = total
        self.finished = 0                   # games of the chunks done
        self.running: dict[int, int] = {}   # games done so far of chunks running (by start)
        self.shown = 0

    def at(self, start: int) -> Callable[[int], None]:
        """``on_game`` for the chunk beginning at game ``start``."""
        def on_game(done: int) -> None:
            self.update(start, done)
        return on_game

    def update(self, start: int, done: int) -> None:
        """The chunk beginning at ``start`` has played ``done`` games."""
        if done > self.running.get(start, -1):
            self.running[start] = done
            self._show()

    def begin(self, start: int) -> None:
        """A chunk beginning at ``start`` was sent out; later reports count."""
        self.running.setdefault(start, 0)

    def finish(self, start: int, games: int) -> None:
        """The chunk beginning at ``start`` is done with its ``games`` games."""
        self.running.pop(start, None)
        self.finished += games
        self._show()

    def _show(self) -> None:
        done = self.finished + sum(self.running.values())
        if self.progress is not None and done > self.shown:
            self.shown = done
            self.progress(done, self.total)


def _stream(submit: Callable[[int, int, int], Future[SimulationResult]],
            chunks: Iterator[tuple[int, int]], window: int, report: _Reporter,
            poll: Callable[[], None] | None) -> SimulationResult:
    """Send the chunks out, at most ``window`` at a time, and merge their
    results in order as they come back; ``poll`` (when given) is called
    every ``_REPORT_EVERY`` seconds to read the workers' reports.

    On any exception (Ctrl-C included) the chunks not started are cancelled
    and the exception goes on."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending: dict[Future[SimulationResult], tuple[int, int, int]] = {}
    waiting: dict[int, SimulationResult] = {}  # finished out of order, by number
    numbers = enumerate(chunks)
    merged = 0
    result: SimulationResult | None = None
    try:
        while True:
            while len(pending) < window:
                item = next(numbers, None)
                if item is None:
                    break
                number, (start, stop) = item
                report.begin(start)
                pending[submit(number, start, stop)] = (number, start, stop)
            if not pending:
                break
            ready, _ = wait(pending, timeout=None if poll is None else _REPORT_EVERY,
                            return_when=FIRST_COMPLETED)
            if poll is not None:
                poll()
            for future in ready:
                number, start, stop = pending.pop(future)
                waiting[number] = future.result()
                report.finish(start, stop - start)
            while merged in waiting:
                part = waiting.pop(merged)
                result = part if result is None else result.merge(part)
                merged += 1
    except BaseException:
        for future in pending:
            future.cancel()
        raise
    assert result is not None
    return result


#: In a local worker process: where to report finished games.
_QUEUE: SimpleQueue[tuple[int, int]] | None = None


def _start_worker(queue: SimpleQueue[tuple[int, int]]) -> None:
    """Run in each local worker as it starts: keep the report queue, and
    leave Ctrl-C to the caller, which stops the workers itself."""
    import signal

    global _QUEUE
    _QUEUE = queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _reported_chunk(game: str | Rules[Any, Any], settings: Mapping[str, int | None],
                    bots: Sequence[str], seed: int, start: int, stop: int,
                    rotate: bool, engine: str) -> SimulationResult:
    """:func:`play_chunk` in a local worker, reporting each finished game as
    ``(start, done)`` on the queue.  The queue writes at once (no feeder
    thread), so every report of a chunk is there before its result."""
    queue = _QUEUE
    return _play(game, settings, bots, seed, start, stop, rotate,
                 None if queue is None else lambda done: queue.put((start, done)), engine)


def _on_local_workers(task: tuple[str | Rules[Any, Any], dict[str, int | None], list[str],
                                  int, bool, str],
                      chunks: Iterator[tuple[int, int]], workers: int,
                      report: _Reporter) -> SimulationResult:
    """Play the chunks on a pool of ``workers`` processes started for the call."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    context = multiprocessing.get_context()
    queue: SimpleQueue[tuple[int, int]] = context.SimpleQueue()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_start_worker, initargs=(queue,))
    game, settings, bots, seed, rotate, engine = task

    def poll() -> None:
        while not queue.empty():
            start, done = queue.get()
            if start in report.running:
                report.update(start, done)

    try:
        result = _stream(lambda number, start, stop: pool.submit(
            _reported_chunk, game, settings, bots, seed, start, stop, rotate, engine),
            chunks, workers * _WINDOW_PER_WORKER, report, poll)
    except BaseException:
        _stop_now(pool)
        queue.close()
        raise
    pool.shutdown(wait=True)
    queue.close()
    return result


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Stop a process pool without waiting for the chunks its workers are playing."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=1)
