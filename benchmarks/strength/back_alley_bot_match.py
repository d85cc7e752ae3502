"""How the Back Alley heuristic pair scores against the random pair.

Each seed is played twice with the same chance seed (the same first dealer
and, barring throw-ins, the same shuffles): once with team A in seats 0 and 2
and team B in seats 1 and 3, once with the sides swapped.  A pair of games
is one sample of the points difference per game (A's total minus B's,
averaged over the two games), which removes both the luck of the cards and
any seat bias.  The script prints the mean difference per game with a 95%
confidence interval (normal approximation over the pairs), and the wins,
draws and losses of team A over all games (BA-43).

Run: ``python benchmarks/strength/back_alley_bot_match.py [--pairs N] [--quick]``; by
default the heuristic pair (:class:`~cardrules.back_alley.HeuristicBot`)
against the random pair (:class:`~cardrules.engine.RandomBot`).  ``--team-a``
and ``--team-b`` choose other bots: ``heuristic``, ``random`` or
``heuristic-duck`` (the heuristic with ``duck_when_made=True``).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable

from cardrules.back_alley import HeuristicBot, play_game
from cardrules.engine import Bot, RandomBot

BOTS: dict[str, Callable[[int], Bot]] = {
    "heuristic": HeuristicBot,
    "random": RandomBot,
    "heuristic-duck": lambda seed: HeuristicBot(seed, duck_when_made=True),
}


def play_pair(team_a: Callable[[int], Bot], team_b: Callable[[int], Bot], seed: int,
              max_hand_size: int) -> list[tuple[int, int]]:
    """(team A's total, team B's total) in the two games of ``seed``: A first
    in seats 0 and 2, then in seats 1 and 3."""
    totals = []
    for side in (0, 1):
        bots = [team_a(4 * seed + seat) if seat % 2 == side else team_b(4 * seed + seat)
                for seat in range(4)]
        final = play_game(bots, max_hand_size=max_hand_size, seed=seed).state
        totals.append((final.scores[side], final.scores[1 - side]))
    return totals


def main(argv: list[str] | None = None) -> int:
    """Play the match and print the figures; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200,
                        help="seeds to play, each twice with the sides swapped (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--max-hand-size", type=int, default=13,
                        help="13 for the real game of 25 deals (default)")
    parser.add_argument("--team-a", choices=sorted(BOTS), default="heuristic")
    parser.add_argument("--team-b", choices=sorted(BOTS), default="random")
    parser.add_argument("--quick", action="store_true", help="10 pairs, a smoke run")
    args = parser.parse_args(argv)
    pairs = 10 if args.quick else args.pairs
    team_a, team_b = BOTS[args.team_a], BOTS[args.team_b]

    started = time.perf_counter()
    samples: list[float] = []
    scores_a: list[int] = []
    scores_b: list[int] = []
    wins = draws = losses = 0
    for seed in range(args.seed, args.seed + pairs):
        pair = play_pair(team_a, team_b, seed, args.max_hand_size)
        for a, b in pair:
            wins += a > b
            draws += a == b
            losses += a < b
            scores_a.append(a)
            scores_b.append(b)
        samples.append(sum(a - b for a, b in pair) / 2)
    elapsed = time.perf_counter() - started

    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / len(samples) ** 0.5 if len(samples) > 1 else 0.0
    games = 2 * pairs
    print(f"python {platform.python_implementation()} {platform.python_version()}, "
          f"{games} games ({pairs} seeds from {args.seed}, sides swapped), "
          f"{2 * args.max_hand_size - 1} deals each, {elapsed:.1f} s")
    print(f"team A: {args.team_a} pair, mean score {statistics.fmean(scores_a):+.1f}; "
          f"team B: {args.team_b} pair, mean score {statistics.fmean(scores_b):+.1f}")
    print(f"points difference per game (A - B): {mean:+.1f}, "
          f"95% CI [{mean - half:+.1f}, {mean + half:+.1f}]")
    print(f"team A won {wins}, drew {draws}, lost {losses} of {games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
