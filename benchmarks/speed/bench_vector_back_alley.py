"""Back Alley's batch engine (``cardrules.vector.back_alley``) beside OpenSpiel's
C++ ``spades`` minimal loop, in one run, on one core.

The unit is the *player decision*: chance (the first dealer, every shuffle,
deal and throw-in) happens inside the timed calls but is not counted.

* ours: ``games.step(random_actions(games.legal_action_mask, rng))`` for
  ``--steps`` steps of ``N`` full 25-deal games (1,024 to 65,536), the
  random legal actions drawn from the mask in numpy inside the time; the
  decisions are the games still playing at each step;
* OpenSpiel: ``state.apply_action(rng.choice(state.legal_actions()))`` at
  every node of a spades deal, divided by its 56 decisions (4 bids and 52
  plays; the 52 dealing chance actions are inside the time, not the count).

Targets (issue 16): at 4,096 games at most 1/10 of OpenSpiel's time per
decision, and the observations of all games of a step at most 1/10 of the
scalar ``observation_tensor`` per game.  Memory per game is the bytes of the
engine's arrays (the action log included) divided by the games, after the
timed steps and at the end of whole games (the log at its longest).

Run: ``python benchmarks/speed/bench_vector_back_alley.py [--quick]
[--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from _spades import load_spades, spiel_playout
from _timing import machine_summary

from cardrules.back_alley import observation_tensor, view
from cardrules.vector import random_actions
from cardrules.vector.back_alley import BackAlleyVector

SIZES = (1024, 4096, 16384, 65536)
TARGET = 10.0


def time_vector(num_games: int, steps: int, repeat: int) -> tuple[float, int, float]:
    """Best seconds per decision over ``repeat`` runs of ``steps`` steps, the
    memory per game in bytes, and the observation seconds per game."""
    best = float("inf")
    memory = 0
    for run in range(repeat):
        games = BackAlleyVector(num_games, seed=run, max_hand_size=13)
        rng = np.random.default_rng(run)
        decisions = 0
        start = time.perf_counter()
        for _ in range(steps):
            decisions += int((~games.terminated).sum())
            games.step(random_actions(games.legal_action_mask, rng))
        best = min(best, (time.perf_counter() - start) / decisions)
        memory = max(memory, games.memory_bytes())
    observe = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        games.observation()
        observe = min(observe, (time.perf_counter() - start) / num_games)
    return best, memory // num_games, observe


def memory_of_whole_games(num_games: int) -> int:
    """Bytes per game once ``num_games`` full games have been played to the
    end (the action log at its longest)."""
    games = BackAlleyVector(num_games, seed=0)
    rng = np.random.default_rng(0)
    while not games.terminated.all():
        games.step(random_actions(games.legal_action_mask, rng))
    return games.memory_bytes() // num_games


def time_spades(deals: int, repeat: int) -> float | None:
    """OpenSpiel spades' seconds per decision in its minimal loop."""
    game = load_spades()
    if game is None:
        return None
    best = float("inf")
    for run in range(repeat):
        start = time.perf_counter()
        for i in range(deals):
            spiel_playout(game, random.Random(run * deals + i))
        best = min(best, (time.perf_counter() - start) / (56 * deals))
    return best


def time_scalar_observation(count: int) -> float:
    """Seconds per call of the scalar ``observation_tensor`` on mid-game views."""
    games = BackAlleyVector(count, seed=1, max_hand_size=13)
    rng = np.random.default_rng(1)
    for _ in range(40):
        games.step(random_actions(games.legal_action_mask, rng))
    views = [view(games.state(i), int(games.current_player[i])) for i in range(count)]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for v in views:
            observation_tensor(v)
        best = min(best, (time.perf_counter() - start) / count)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps and runs")
    parser.add_argument("--steps", type=int, default=None, help="steps per run")
    parser.add_argument("--profile", action="store_true", help="profile 4,096 games")
    args = parser.parse_args(argv)
    steps = args.steps or (60 if args.quick else 300)
    repeat = 2 if args.quick else 3
    for key, value in machine_summary(["cardrules", "numpy", "open-spiel"]):
        print(f"{key:>12}: {value}")
    if args.profile:
        games = BackAlleyVector(4096, seed=0)
        rng = np.random.default_rng(0)
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(steps):
            games.step(random_actions(games.legal_action_mask, rng))
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    spades = time_spades(20 if args.quick else 200, repeat)
    scalar = time_scalar_observation(100)
    print()
    print(f"{'games':>7} {'per decision':>13} {'memory/game':>12} {'observation/game':>17}")
    figures = {}
    for size in SIZES:
        per, memory, observe = time_vector(size, steps, repeat)
        figures[size] = (per, observe)
        print(f"{size:>7} {per * 1e9:>10.0f} ns {memory:>9,d} B {observe * 1e9:>14.0f} ns")
    print()
    if spades is None:
        print("OpenSpiel: skipped (install cardrules[bench])")
    else:
        per = figures[4096][0]
        ratio = spades / per
        verdict = "PASS" if ratio >= TARGET else "MISS"
        print(f"OpenSpiel spades minimal loop: {spades * 1e9:.0f} ns a decision")
        print(f"  {verdict}  at 4,096 games {ratio:.1f}x faster than OpenSpiel "
              f"(target {TARGET:g}x)")
    whole = memory_of_whole_games(256)
    print(f"memory per game at the end of a 25-deal game: {whole:,d} B "
          f"(65,536 games: {whole * 65536 / 2**30:.2f} GiB)")
    observe = figures[4096][1]
    verdict = "PASS" if scalar / observe >= TARGET else "MISS"
    print(f"scalar observation_tensor: {scalar * 1e9:.0f} ns a game")
    print(f"  {verdict}  batch observation at 4,096 games {scalar / observe:.1f}x faster "
          f"(target {TARGET:g}x)")


if __name__ == "__main__":
    main()
