"""Playing many games, in this process or spread over workers.

The games are cut into chunks of consecutive game numbers; each chunk is
played by :func:`play_chunk`, which needs only plain data (the game's name,
its settings, the bot names, the master seed and the range of game numbers),
so it can run in another process or on another machine.  Game ``i`` takes
its chance seed and its bots' seeds from :func:`game_seeds` alone, so a
game is the same wherever and in whichever chunk it is played, and the
chunks' results are merged in order into one exact result.

>>> chance, bots = game_seeds(7, 0, 2)
>>> chance == game_seeds(7, 0, 2)[0], len(bots), chance != game_seeds(7, 1, 2)[0]
(True, 2, True)
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardrules._validate import is_int, require_int
from cardrules.simulation.result import (
    BackAlleyTally,
    ContractTally,
    DownAndBackTally,
    MarginTally,
    SeatTally,
    SimulationResult,
    margins_of_game,
)

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from cardrules.engine.rules import Rules

__all__ = ["game_seeds", "play_chunk", "rotations", "simulate"]

#: The games :func:`simulate` knows how to tally.
SUPPORTED = ("down_and_back", "back_alley")
#: Chunks per worker when ``chunk_size`` is not given (a few, so that a slow
#: chunk does not hold the others up and progress is reported often).
_CHUNKS_PER_WORKER = 4
#: The largest default chunk.
_MAX_CHUNK = 250


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


def _rules(game: str | Rules[Any, Any]) -> Rules[Any, Any]:
    from cardrules.engine.registry import rules_for
    from cardrules.errors import ParseError

    if isinstance(game, str):
        try:
            rules = rules_for(game.replace("-", "_"))
        except ParseError:
            raise ValueError(f"unknown game {game!r} (simulate plays "
                             f"down-and-back or back-alley)") from None
    else:
        rules = game
    if getattr(rules, "name", None) not in SUPPORTED:
        raise ValueError(f"simulate plays Down and Back or Back Alley, not {game!r}")
    return rules


def _outcomes(values: Sequence[int]) -> list[int]:
    """Per seat (or team): 1 for the best alone, 0 for a shared best, -1 otherwise."""
    best = max(values)
    leaders = values.count(best)
    return [(1 if leaders == 1 else 0) if v == best else -1 for v in values]


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
               rotate: bool = False) -> SimulationResult:
    """Play games ``start`` to ``stop - 1`` of a simulation and tally them.

    This is what each worker runs; every argument is plain data when
    ``game`` is a name.  ``settings`` must be complete (every setting of the
    game) and ``bots`` hold one name per seat.  With ``rotate``, ``start``
    and ``stop`` must be multiples of ``len(rotations(bots))`` (see
    :func:`simulate`).

    >>> r = play_chunk("back_alley", {"max_hand_size": 1}, ["random"] * 4, 0, 3, 5)
    >>> r.games, r.details.deals
    (2, 2)
    """
    rules = _rules(game)
    final: list[list[int]] = [[] for _ in bots]
    wins = [0] * len(bots)
    ties = [0] * len(bots)
    db = rules.name == "down_and_back"
    rounds = carries = throw_ins = 0
    down: dict[str, int] = {}
    back: dict[str, int] = {}
    contracts: dict[tuple[int, int], list[int]] = {}
    margins: dict[tuple[str, int, int], list[int]] = {}
    if db:
        from cardrules.down_and_back import evaluate3, evaluate4
    else:
        from cardrules.back_alley import team_of
    n = len(bots)
    shifts = rotations(bots) if rotate else (0,)
    if start % len(shifts) or stop % len(shifts):
        raise ValueError(f"with rotate, chunks hold whole groups of {len(shifts)} games")
    group: dict[str, int] = {}
    for index in range(start, stop):
        number, turn = divmod(index, len(shifts))
        shift = shifts[turn]
        chance, bot_seeds = game_seeds(seed, number if rotate else index, n)
        # Player j (bots[j], with bot seed bot_seeds[j]) sits in seat (j + shift) % n.
        at = [(s - shift) % n for s in range(n)]
        players = [rules.bots[bots[j]](bot_seeds[j]) for j in at]
        state = rules.play(players, settings, seed=chance).state
        if db:
            values = list(state.net)
            outcomes = _outcomes(values)
            for result in state.results:
                rounds += 1
                carries += result.pot_winner is None
                name = evaluate4(result.splits[result.down_winner].down).category.name
                down[name] = down.get(name, 0) + 1
                name = evaluate3(result.splits[result.back_winner].back).category.name
                back[name] = back.get(name, 0) + 1
        else:
            values = [state.scores[team_of(s)] for s in range(len(bots))]
            by_team = _outcomes(state.scores)  # a team wins, or both draw (BA-43)
            outcomes = [by_team[team_of(s)] for s in range(len(bots))]
            for deal in state.results:
                rounds += 1
                throw_ins += deal.throw_ins
                for team, contract in enumerate(deal.contracts):
                    taken = deal.tricks[team]
                    made = taken == deal.hand_size if contract.board else \
                        taken >= contract.tricks
                    key = (contract.board, 0 if contract.board else contract.tricks)
                    sums = contracts.setdefault(key, [0, 0, 0])
                    sums[0] += 1
                    sums[1] += made
                    sums[2] += deal.points[team]
        # From seats to players (the same when not rotating).
        values = [values[(j + shift) % n] for j in range(n)]
        outcomes = [outcomes[(j + shift) % n] for j in range(n)]
        for kind, seats, others, scaled in margins_of_game(bots, values):
            group[kind] = group.get(kind, 0) + scaled
            if turn == len(shifts) - 1:  # the group is complete
                margins.setdefault((kind, seats, others), []).append(group.pop(kind))
        for s, (value, outcome) in enumerate(zip(values, outcomes, strict=True)):
            final[s].append(value)
            wins[s] += outcome == 1
            ties[s] += outcome == 0
    details: DownAndBackTally | BackAlleyTally
    if db:
        empty = DownAndBackTally.empty()
        details = DownAndBackTally(
            rounds, carries, tuple((k, down.get(k, 0)) for k, _ in empty.down_wins),
            tuple((k, back.get(k, 0)) for k, _ in empty.back_wins))
    else:
        details = BackAlleyTally(rounds, throw_ins, tuple(
            ContractTally(tricks, board, *sums)
            for (board, tricks), sums in sorted(contracts.items())))
    return SimulationResult(
        rules.name, tuple(sorted(settings.items())), tuple(bots), seed, stop - start,
        tuple(SeatTally.of(f, wins=w, ties=t) for f, w, t in zip(final, wins, ties, strict=True)),
        details, tuple(MarginTally.of(kind, scaled, seats=seats, others=others,
                                      rotations=len(shifts))
                       for (kind, seats, others), scaled in margins.items()), rotate)


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
             rotate: bool = False) -> SimulationResult:
    """Let bots play ``games`` games of ``game`` and tally the outcomes exactly.

    ``game`` is a name (``"down-and-back"``, ``"back_alley"``, ...) or a
    game's :class:`~cardrules.engine.Rules`.  ``bots`` is one bot name (from
    ``RULES.bots``) for every seat, or a sequence with one name per seat
    (which also sets the number of players of Down and Back).  ``settings``
    are the game's settings; those left out take their defaults.

    ``seed`` is the master seed; game ``i`` is played with the seeds
    :func:`game_seeds` derives from ``(seed, i)``, so the same seed gives an
    equal result however the games are spread.  With ``seed=None`` a random
    master seed is drawn and recorded in the result (run it again with
    ``seed=result.seed``).

    The games are cut into chunks of ``chunk_size`` games (by default a few
    per worker).  ``executor`` may be any :class:`concurrent.futures.Executor`
    (such as a Dask cluster's ``Client.get_executor()``); each chunk is sent
    to it as a call of :func:`play_chunk` with plain data.  Without one,
    ``workers`` local processes are used (default: every core, from
    :func:`os.cpu_count`); ``workers=1`` plays in this process without a pool.
    ``progress(done, total)`` is called with the number of games finished
    after each chunk.

    ``rotate=True`` plays duplicate, as bridge clubs do to take the luck of
    the cards out of a comparison: the games come in groups, one game for
    every distinct seating of the bots round the table (:func:`rotations`;
    four for one search bot against three greedy ones, two for two teams),
    all dealt from the same chance seed, the bots keeping their own seeds as
    they move.  ``games`` must then be a multiple of the group size; each
    :class:`MarginTally` counts groups, and ``seats[j]`` follows the bot
    ``bots[j]`` from seat to seat.

    What counts as a win: in Down and Back a seat wins a game when its net
    winnings are the largest alone, and ties when it shares the largest
    (DB-44); in Back Alley a seat wins when its team has the higher total,
    and both teams' seats tie on equal totals (BA-43).

    >>> r = simulate("down-and-back", games=3, seed=11, bots=["greedy", "random", "random"],
    ...              settings={"rounds": 2}, workers=1)
    >>> r.games, len(r.seats), sum(s.wins + s.ties for s in r.seats) >= 3
    (3, 3, True)
    >>> r == simulate("down_and_back", games=3, seed=11, bots=["greedy", "random", "random"],
    ...               settings={"rounds": 2}, workers=1, chunk_size=1)
    True
    >>> simulate("down-and-back", games=0)
    Traceback (most recent call last):
    ...
    ValueError: games must be a whole number of at least 1, not 0
    """
    rules = _rules(game)
    require_int("games", games, minimum=1)
    if seed is None:
        seed = secrets.randbits(63)
    elif not is_int(seed):
        raise ValueError(f"seed must be a whole number or None, not {seed!r}")
    if executor is not None and workers is not None:
        raise ValueError("give workers or an executor, not both")
    if workers is not None:
        require_int("workers", workers, minimum=1)
    if chunk_size is not None:
        require_int("chunk_size", chunk_size, minimum=1)
    values = dict(rules.default_settings)
    given = dict(settings or {})
    if "num_players" in values and "num_players" not in given and not isinstance(bots, str):
        given["num_players"] = len(bots)
    seats = rules.new_game_from_settings(given).num_players  # checks the settings
    values.update(given)
    names = _bot_names(rules, bots, seats)
    if len(names) != seats:
        raise ValueError(f"{rules.title} has {seats} seats here; give one bot name "
                         f"or {seats}, not {len(names)}")

    if not isinstance(rotate, bool):
        raise ValueError(f"rotate must be True or False, not {rotate!r}")
    size = len(rotations(names)) if rotate else 1
    if games % size:
        raise ValueError(f"with rotate, games must be a multiple of {size} (one game for "
                         f"each seating of the bots), not {games}")
    parallel = workers if workers is not None else (os.cpu_count() or 1)
    if chunk_size is None:
        chunk_size = min(_MAX_CHUNK, max(1, math.ceil(games / (parallel * _CHUNKS_PER_WORKER))))
    chunk_size = math.ceil(chunk_size / size) * size  # whole groups
    chunks = [(start, min(games, start + chunk_size)) for start in range(0, games, chunk_size)]

    parts: list[SimulationResult | None] = [None] * len(chunks)
    if executor is None and (parallel == 1 or len(chunks) == 1):
        done = 0
        for number, (start, stop) in enumerate(chunks):
            parts[number] = play_chunk(rules, values, names, seed, start, stop, rotate)
            done += stop - start
            if progress is not None:
                progress(done, games)
    else:
        name = rules.name
        if executor is None:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=min(parallel, len(chunks))) as pool:
                _gather(pool, name, values, names, seed, chunks, parts, games, progress,
                        rotate)
        else:
            _gather(executor, name, values, names, seed, chunks, parts, games, progress, rotate)
    result = parts[0]
    assert result is not None
    for part in parts[1:]:
        assert part is not None
        result = result.merge(part)
    return result


def _gather(executor: Executor, game: str, settings: dict[str, int | None],
            bots: list[str], seed: int, chunks: list[tuple[int, int]],
            parts: list[SimulationResult | None], total: int,
            progress: Callable[[int, int], object] | None, rotate: bool) -> None:
    from concurrent.futures import as_completed

    futures: dict[Future[SimulationResult], int] = {}
    try:
        for number, (start, stop) in enumerate(chunks):
            future = executor.submit(play_chunk, game, settings, bots, seed, start, stop, rotate)
            futures[future] = number
        done = 0
        for future in as_completed(futures):
            number = futures[future]
            parts[number] = future.result()
            start, stop = chunks[number]
            done += stop - start
            if progress is not None:
                progress(done, total)
    finally:
        for future in futures:
            future.cancel()
