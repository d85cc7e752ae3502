"""Speed of the pure-Python Back Alley double-dummy solver at the opening lead.

Run from the repository root::

    python benchmarks/speed/bench_ba_solver_python.py            # sizes 1 to 13, minutes
    python benchmarks/speed/bench_ba_solver_python.py --quick    # sizes 1 to 8, seconds
    python benchmarks/speed/bench_ba_solver_python.py --sizes 9,10 --deals 9

For each hand size, ``--deals`` seeded random deals (a random dealer, shuffle
and legal bids, so trumps in 52 deals out of 54 and any leader) are solved at
the opening lead with ``max_tricks(state, implementation="python")`` from an
empty table (``clear_cache()`` before each), and the median, 90th percentile
and worst seconds are printed with the nodes searched.  Each deal is timed
once: the spread between deals is far larger than the noise of a run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _timing import format_seconds, machine_summary

from cardrules.back_alley import (
    ChooseDealer,
    GameState,
    Phase,
    apply,
    legal_actions,
    new_game,
    sample_chance,
)
from cardrules.back_alley.double_dummy.solver import clear_cache, max_tricks


def opening_lead(rng: random.Random, size: int) -> GameState:
    """A random deal of ``size`` cards each at its opening lead (a board bid
    about one time in ten; deals that all four pass are dealt again)."""
    while True:
        state = apply(new_game(max_hand_size=size), ChooseDealer(rng.randrange(4)))
        state = apply(state, sample_chance(state, rng))
        while state.phase is Phase.BID:
            bids = legal_actions(state)
            state = apply(state, rng.choice(bids if rng.random() < 0.1 else bids[:-1]))
        if state.phase is Phase.PLAY:
            return state


def main() -> None:
    """Time the sizes asked for and print one line per size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes 1 to 8, 5 deals each")
    parser.add_argument("--sizes", help="hand sizes, comma separated (default 1 to 13)")
    parser.add_argument("--deals", type=int, default=5, help="deals per size (default 5)")
    args = parser.parse_args()
    sizes = ([int(s) for s in args.sizes.split(",")] if args.sizes else
             list(range(1, 9 if args.quick else 14)))
    for label, value in machine_summary():
        print(f"{label}: {value}")
    max_tricks(opening_lead(random.Random(0), 1), implementation="python")  # builds its tables
    print(f"{'cards':>5} {'median':>10} {'90%':>10} {'worst':>10}  deals")
    for size in sizes:
        rng = random.Random(1000 + size)
        times = []
        for _ in range(args.deals):
            state = opening_lead(rng, size)
            clear_cache()
            start = time.perf_counter()
            max_tricks(state, implementation="python")
            times.append(time.perf_counter() - start)
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"{size:>5} {format_seconds(statistics.median(times)):>10} "
              f"{format_seconds(p90):>10} {format_seconds(times[-1]):>10}  {len(times)}",
              flush=True)


if __name__ == "__main__":
    main()
