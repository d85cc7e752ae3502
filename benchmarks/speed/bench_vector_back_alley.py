"""Back Alley's batch engine (``cardrules.back_alley.vector``) beside OpenSpiel's
C++ ``spades`` minimal loop, in one run, on one core.

The unit is the *player decision*: chance (the first dealer, every shuffle,
deal and throw-in) happens inside the timed calls but is not counted.

* ours: ``games.step(random_actions(games.legal_action_mask, rng))`` until
  ``N`` full 25-deal games (1,024 to 65,536) are over (or ``--steps``), the
  random legal actions drawn from the mask in numpy inside the time; the
  decisions are the games still playing at each step;
* OpenSpiel: ``state.apply_action(rng.choice(state.legal_actions()))`` at
  every node of a spades deal, divided by its 56 decisions (4 bids and 52
  plays; the 52 dealing chance actions are inside the time, not the count).

Targets: at 4,096 games at most 1/10 of OpenSpiel's time per
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

from cardrules.back_alley import view
from cardrules.back_alley.encoding import observation_tensor
from cardrules.back_alley.vector import BackAlleyVector
from cardrules.vector import random_actions

SIZES = (1024, 4096, 16384, 65536)
TARGET = 10.0


def time_vector(num_games: int, steps: int, run: int) -> tuple[float, int]:
    """Seconds per decision of one run of ``steps`` steps (-1: until every
    game is over), and the memory per game in bytes after it."""
    games = BackAlleyVector(num_games, seed=run, max_hand_size=13)
    rng = np.random.default_rng(run)
    decisions = 0
    start = time.perf_counter()
    done = 0
    while done != steps and not games.terminated.all():
        decisions += int((~games.terminated).sum())
        games.step(random_actions(games.legal_action_mask, rng))
        done += 1
    return (time.perf_counter() - start) / decisions, games.memory_bytes() // num_games


def time_observation(num_games: int, repeat: int) -> float:
    """Best seconds per game of ``observation()`` for all games mid-deal."""
    games = BackAlleyVector(num_games, seed=0, max_hand_size=13)
    rng = np.random.default_rng(0)
    for _ in range(20):
        games.step(random_actions(games.legal_action_mask, rng))
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        games.observation()
        best = min(best, (time.perf_counter() - start) / num_games)
    return best


def memory_of_whole_games(num_games: int) -> int:
    """Bytes per game once ``num_games`` full games have been played to the
    end (the action log at its longest)."""
    games = BackAlleyVector(num_games, seed=0)
    rng = np.random.default_rng(0)
    while not games.terminated.all():
        games.step(random_actions(games.legal_action_mask, rng))
    return games.memory_bytes() // num_games


def time_spades(game: object, deals: int, run: int) -> float:
    """OpenSpiel spades' seconds per decision in its minimal loop, one run."""
    start = time.perf_counter()
    for i in range(deals):
        spiel_playout(game, random.Random(run * deals + i))
    return (time.perf_counter() - start) / (56 * deals)


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
    parser.add_argument("--steps", type=int, default=None,
                        help="steps per run (default: whole 25-deal games)")
    parser.add_argument("--profile", action="store_true", help="profile 4,096 games")
    args = parser.parse_args(argv)
    steps = args.steps or (60 if args.quick else -1)
    repeat = 2 if args.quick else 5
    for key, value in machine_summary(["cardrules", "numpy", "open-spiel"]):
        print(f"{key:>12}: {value}")
    if args.profile:
        games = BackAlleyVector(4096, seed=0)
        rng = np.random.default_rng(0)
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(steps if steps > 0 else 300):
            games.step(random_actions(games.legal_action_mask, rng))
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    deals = 20 if args.quick else 200
    game = load_spades()
    scalar = time_scalar_observation(100)
    # every size and spades in turn, round after round: a busy period of the
    # machine slows them all; each keeps its best run
    per: dict[int, float] = dict.fromkeys(SIZES, float("inf"))
    memory: dict[int, int] = {}
    spades = float("inf")
    for run in range(repeat):
        if game is not None:
            spades = min(spades, time_spades(game, deals, run))
        for size in SIZES:
            seconds, memory[size] = time_vector(size, steps, run)
            per[size] = min(per[size], seconds)
    print()
    print(f"{'games':>7} {'per decision':>13} {'memory/game':>12} {'observation/game':>17}")
    observe: dict[int, float] = {}
    for size in SIZES:
        observe[size] = time_observation(size, 4 * repeat)
        print(f"{size:>7} {per[size] * 1e9:>10.0f} ns {memory[size]:>9,d} B "
              f"{observe[size] * 1e9:>14.0f} ns")
    print()
    if game is None:
        print("OpenSpiel: skipped (install cardrules[bench])")
    else:
        ratio = spades / per[4096]
        verdict = "PASS" if ratio >= TARGET else "MISS"
        print(f"OpenSpiel spades minimal loop: {spades * 1e9:.0f} ns a decision")
        print(f"  {verdict}  at 4,096 games {ratio:.1f}x faster than OpenSpiel "
              f"(target {TARGET:g}x)")
    whole = memory_of_whole_games(256)
    print(f"memory per game at the end of a 25-deal game: {whole:,d} B "
          f"(65,536 games: {whole * 65536 / 2**30:.2f} GiB)")
    verdict = "PASS" if scalar / observe[4096] >= TARGET else "MISS"
    print(f"scalar observation_tensor: {scalar * 1e9:.0f} ns a game")
    print(f"  {verdict}  batch observation at 4,096 games {scalar / observe[4096]:.1f}x faster "
          f"(target {TARGET:g}x)")


if __name__ == "__main__":
    main()
