"""Back Alley bot ladder: SearchBot partners against HeuristicBot partners.

Two ways to measure, both with the sides swapped on the same chance seed (the
search team sits at seats 0 and 2, then at 1 and 3) so that the luck of the
cards cancels:

* ``--mode games``: whole games (``--max-hand-size``, 13 by the rules: 25
  deals); a pair's margin is the mean over the two games of the search
  team's total less the heuristic team's total.
* ``--mode deals``: single deals of ``--max-hand-size`` cards (the first deal
  of a game), the same margin in points for that deal; much cheaper.

Prints the mean margin per pair with a 95% confidence interval (normal
approximation) and the time per game or deal.

    python benchmarks/strength/ba_search_ladder.py --mode deals --pairs 200 --max-hand-size 13
    python benchmarks/strength/ba_search_ladder.py --mode games --pairs 100

Small runs only while developing (``--pairs 10``); the docs' figures come from
the full runs.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from cardrules.back_alley import HeuristicBot, SearchBot, apply, new_game, play_game, sample_chance
from cardrules.back_alley.analysis import finish_deal
from cardrules.engine.bots import Bot


def _bots(side: int, seed: int, samples: int, inference: int, confidence: float) -> list[Bot]:
    return [SearchBot(seed=seed + s, samples=samples, inference=inference,
                      confidence=confidence)
            if s % 2 == side else HeuristicBot(seed + s) for s in range(4)]


def pair_margin(mode: str, k: int, size: int, samples: int, inference: int,
                confidence: float) -> float:
    """The search team's margin over the heuristic team, sides swapped, for seed ``k``."""
    total = 0.0
    for side in (0, 1):
        bots = _bots(side, 1000 * k, samples, inference, confidence)
        if mode == "games":
            scores = play_game(bots, max_hand_size=size, seed=k).state.scores
            total += scores[side] - scores[1 - side]
            continue
        rng = random.Random(k)
        state = new_game(max_hand_size=size)
        for _ in range(2):
            state = apply(state, sample_chance(state, rng))
        final = finish_deal(state, bots)
        if final.results:   # a throw-in scores nothing (BA-25)
            points = final.results[0].points
            total += points[side] - points[1 - side]
    return total / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("games", "deals"), default="deals")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--max-hand-size", type=int, default=13)
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--inference", type=int, default=0)
    parser.add_argument("--confidence", type=float, default=1.0)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    args = parser.parse_args()
    started = time.perf_counter()
    margins = [pair_margin(args.mode, k, args.max_hand_size, args.samples, args.inference,
                           args.confidence)
               for k in range(args.start, args.start + args.pairs)]
    elapsed = time.perf_counter() - started
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0
    unit = "game" if args.mode == "games" else "deal"
    print(f"{len(margins)} pairs of {unit}s ({args.max_hand_size} cards, samples "
          f"{args.samples}, inference {args.inference}, confidence {args.confidence}): "
          f"search margin "
          f"{mean:+.2f} points per {unit} (95% CI {mean - half:+.2f} to {mean + half:+.2f}); "
          f"{elapsed / (2 * len(margins)):.2f} s per {unit}")


if __name__ == "__main__":
    main()
