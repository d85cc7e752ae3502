"""Down and Back bot ladder: SearchBot against three GreedyBots, net chips per game.

Game ``k`` (seed ``k``) seats the search bot at seat ``k mod 4`` and greedy bots
elsewhere.  A game's margin is the search bot's net winnings minus the mean net
winnings of the other three seats; with four identical bots its expectation is 0
by symmetry.  Prints the mean margin with a 95% confidence interval (normal
approximation) and, with ``--baseline``, the same figure for four greedy bots.

    python benchmarks/db_search_ladder.py --games 300 --rounds 2

Small runs only while developing (``--games 20``); the figure in the docs comes
from the full run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from cardrules.down_and_back import GreedyBot, play_game
from cardrules.down_and_back.search import SearchBot
from cardrules.engine.bots import Bot


def margins(games: int, rounds: int, rollouts: int, split_samples: int, width: int,
            baseline: bool) -> list[float]:
    """The search seat's margin in each game."""
    out = []
    for k in range(games):
        seat = k % 4
        bots: list[Bot] = [GreedyBot(seed=1000 * k + s) for s in range(4)]
        if not baseline:
            bots[seat] = SearchBot(seed=k, rollouts=rollouts, width=width,
                                   split_samples=split_samples)
        net = play_game(bots, rounds=rounds, seed=k).state.net
        others = [net[s] for s in range(4) if s != seat]
        out.append(net[seat] - sum(others) / 3)
    return out


def summary(values: list[float]) -> str:
    """Mean with its 95% confidence interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.3f} chips/game (95% CI {mean - half:+.3f} .. {mean + half:+.3f})"


def main() -> None:
    """Run the ladder and print the margin."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--split-samples", type=int, default=200)
    parser.add_argument("--width", type=int, default=3)
    parser.add_argument("--baseline", action="store_true",
                        help="four greedy bots (the margin should be near 0)")
    args = parser.parse_args()
    start = time.perf_counter()
    values = margins(args.games, args.rounds, args.rollouts, args.split_samples, args.width,
                     args.baseline)
    who = "greedy (baseline)" if args.baseline else (
        f"search (rollouts={args.rollouts}, width={args.width}, "
        f"split_samples={args.split_samples})")
    print(f"{who} vs 3 greedy, {args.games} games of {args.rounds} rounds, 4 players, ante 1: "
          f"{summary(values)}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
