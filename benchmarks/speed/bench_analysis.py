"""Speed of the Down and Back split odds (``split_odds``) against four opponents.

Run from the repository root::

    python benchmarks/speed/bench_analysis.py           # full run, under a minute
    python benchmarks/speed/bench_analysis.py --quick   # smoke run, a few seconds

Prints, for ``split_odds(hand, 4)`` on the numpy and on the plain Python
path, the opponents' hands scored per second (each deal scores four
seven-card hands, 35 splits each), beside the evaluators those paths use:
the scalar ``split_strengths`` and the vectorised ``split_strengths_batch``.
Then the seconds ``split_odds`` takes to bring every standard error (down,
back and pot, every split) under 0.005: the trials needed are read off a
pilot run (the standard error falls as one over the square root of the
trials) and the run with that many trials is timed.  Every figure is the
best of a few runs (see ``_timing.py``).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from _timing import Case, format_rate, format_seconds, machine_summary, run_interleaved

from cardrules import DECK, parse_cards
from cardrules.down_and_back import split_strengths
from cardrules.down_and_back.analysis import split_odds

HAND = parse_cards("8S 8H 8D QH 5C 6C 7C")
OPPONENTS = 4
TARGET = 0.005


def _max_se(trials: int, vectorized: bool) -> float:
    odds = split_odds(HAND, OPPONENTS, trials=trials, seed=1, vectorized=vectorized)
    return max(max(o.se_down, o.se_back, o.se_both) for o in odds)


def main() -> None:
    """Time the cases and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run with small sizes")
    args = parser.parse_args()
    trials = 500 if args.quick else 5000
    repeat = 2 if args.quick else 5

    import numpy as np

    from cardrules.down_and_back import split_strengths_batch

    rng = random.Random(0)
    hands = [sorted(rng.sample(DECK, 7)) for _ in range(trials * OPPONENTS)]
    rows = np.array([[c.index for c in h] for h in hands], dtype=np.intp)
    cases = [
        Case("split_odds, numpy path", lambda: split_odds(
            HAND, OPPONENTS, trials=trials, seed=1, vectorized=True), trials * OPPONENTS,
            "hands"),
        Case("split_odds, plain Python path", lambda: split_odds(
            HAND, OPPONENTS, trials=trials, seed=1, vectorized=False), trials * OPPONENTS,
            "hands"),
        Case("split_strengths (scalar), alone", lambda: [split_strengths(h) for h in hands],
             len(hands), "hands"),
        Case("split_strengths_batch, alone", lambda: split_strengths_batch(rows), len(hands),
             "hands"),
    ]
    for name, value in machine_summary(["numpy"]):
        print(f"{name:>12}: {value}")
    print(f"\nsplit_odds(hand, {OPPONENTS}) with {trials} deals: opponents' hands scored "
          "per second")
    for result in run_interleaved(cases, repeat=repeat):
        print(f"  {result.case.name:<34} {format_rate(result.rate, result.case.unit)}")
    print(f"\nseconds to every standard error under {TARGET}:")
    for vectorized in (True, False):
        pilot = _max_se(trials, vectorized)
        needed = max(2, math.ceil(trials * (pilot / TARGET) ** 2))
        start = time.perf_counter()
        final = _max_se(needed, vectorized)
        seconds = time.perf_counter() - start
        path = "numpy" if vectorized else "plain Python"
        print(f"  {path:<13} {needed} deals (largest standard error {final:.4f}) in "
              f"{format_seconds(seconds)}")


if __name__ == "__main__":
    main()
