"""Down and Back in the batch engine beside OpenSpiel's C++ ``spades``, in one run.

The batch loop is the shortest a user would write: ``games.step(
random_actions(games.legal_action_mask, rng))`` until every game is over
(chance, DB-31/32/36/42, happens inside ``step`` and is in the time, not in
the count).  The cost per decision is the loop's time over ``num_games``
times the decisions per game (13 per seat and one cut per round, 4 players,
2 rounds).  The time of ``random_actions`` and of ``step`` are shown apart
too.  OpenSpiel's spades is timed in its minimal loop
(``state.apply_action(rng.choice(state.legal_actions()))`` at every node)
and its time counted per decision (the 56 bids and plays of a deal, not its
52 chance actions), as the issue asks.  Each figure is the best of several
runs, the garbage collector off, on one core.

Target: at 4,096 games, at most 1/10 of spades' time per decision;
the observations of all games of a step at most 1/10 of the scalar
``observation_tensor`` per game.

Run: ``python benchmarks/speed/bench_vector_down_and_back.py [--quick]``.
"""

from __future__ import annotations

import argparse
import gc
import random
import time

import numpy as np
from _spades import load_spades
from _timing import machine_summary

from cardrules.down_and_back import view
from cardrules.down_and_back.encoding import observation_tensor
from cardrules.down_and_back.vector import DownAndBackVector
from cardrules.vector.base import random_actions

SIZES = (1024, 4096, 16384, 65536)
PLAYERS, ROUNDS = 4, 2
TARGET = 10.0


def batch_run(num_games: int, seed: int) -> tuple[float, float, int]:
    """One batch played out: (seconds choosing, seconds stepping, decisions)."""
    games = DownAndBackVector(num_games, seed=seed, num_players=PLAYERS, rounds=ROUNDS)
    rng = np.random.default_rng(seed)
    choosing = stepping = 0.0
    steps = 0
    clock = time.perf_counter
    while not games.terminated.all():
        t0 = clock()
        chosen = random_actions(games.legal_action_mask, rng)
        t1 = clock()
        games.step(chosen)
        t2 = clock()
        choosing += t1 - t0
        stepping += t2 - t1
        steps += 1
    return choosing, stepping, steps * num_games


def memory_per_game(num_games: int) -> float:
    """Bytes of the batch's arrays per game (the action log of a whole game included)."""
    games = DownAndBackVector(num_games, seed=0, num_players=PLAYERS, rounds=ROUNDS)
    rng = np.random.default_rng(0)
    while not games.terminated.all():
        games.step(random_actions(games.legal_action_mask, rng))
    total = sum(value.nbytes for value in vars(games).values() if isinstance(value, np.ndarray))
    total += sum(column.nbytes for column in games._log)
    return total / num_games


def spades_per_decision(seed: int, deals: int) -> float:
    game = load_spades()
    if game is None:
        return float("nan")
    decisions = 0
    rngs = [random.Random(seed + i) for i in range(deals)]
    start = time.perf_counter()
    for rng in rngs:
        state = game.new_initial_state()
        choice = rng.choice
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(choice(state.legal_actions()))
    return (time.perf_counter() - start) / decisions


def observation_times(num_games: int, seed: int) -> tuple[float, float]:
    """(batch observation per game, scalar observation_tensor per game) mid-round."""
    games = DownAndBackVector(num_games, seed=seed, num_players=PLAYERS, rounds=ROUNDS)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        games.step(random_actions(games.legal_action_mask, rng))
    best = min(_timed(games.observation) for _ in range(5))
    states = [games.state(i) for i in range(50)]
    start = time.perf_counter()
    for state in states:
        seat = state.current_player
        assert seat is not None
        observation_tensor(view(state, seat))
    scalar = (time.perf_counter() - start) / len(states)
    return best / num_games, scalar


def _timed(function: object) -> float:
    start = time.perf_counter()
    function()  # type: ignore[operator]
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    sizes = SIZES[:2] if args.quick else SIZES
    repeat = 1 if args.quick else args.repeat
    for key, value in machine_summary(["cardrules", "open-spiel", "numpy"]):
        print(f"{key:>12}: {value}")
    gc.disable()
    # Round-robin: each repeat times spades and every batch size once, and each
    # figure is the best of its runs (noise on a shared machine only adds time).
    deals = 100 if args.quick else 400
    spades_runs: list[float] = []
    runs: dict[int, list[tuple[float, float, int]]] = {size: [] for size in sizes}
    for _ in range(repeat):
        spades_runs.append(spades_per_decision(args.seed, deals))
        for size in sizes:
            runs[size].append(batch_run(size, args.seed))
    spades = min(spades_runs)
    print(f"\nOpenSpiel spades, minimal loop: {spades * 1e6:.2f} us per decision "
          f"(best of {repeat})")
    print(f"\n{'games':>7} {'per decision':>13} {'choosing':>10} {'stepping':>10} "
          f"{'vs spades':>10} {'bytes/game':>11}")
    for size in sizes:
        choose, step, decisions = min(runs[size], key=lambda r: r[0] + r[1])
        per = (choose + step) / decisions
        print(f"{size:>7,} {per * 1e9:>10.0f} ns {choose / decisions * 1e9:>7.0f} ns "
              f"{step / decisions * 1e9:>7.0f} ns {spades / per:>9.1f}x "
              f"{memory_per_game(size):>11,.0f}")
        if size == 4096:
            verdict = "PASS" if spades / per >= TARGET else "MISS"
            print(f"  {verdict} at 4,096 games: {spades / per:.1f}x faster than spades "
                  f"per decision (target {TARGET:g}x)")
    batch, scalar = observation_times(4096, args.seed)
    verdict = "PASS" if batch * TARGET <= scalar else "MISS"
    print(f"\nobservations: {batch * 1e9:.0f} ns per game in a batch of 4,096, scalar "
          f"observation_tensor(view(...)) {scalar * 1e6:.1f} us: {scalar / batch:.1f}x "
          f"({verdict}, target {TARGET:g}x)")
    gc.enable()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
