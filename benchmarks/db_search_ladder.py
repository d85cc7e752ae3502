"""Down and Back bot ladder: SearchBot against three GreedyBots, net chips per game.

Game ``k`` (chance from seed ``k``) seats the search bot at seat ``k mod 4`` and
greedy bots elsewhere.  A game's margin is the search bot's net winnings minus the
mean net winnings of the other three seats; with four identical bots its
expectation is 0 by symmetry.

Each game is also played with a greedy bot in the search bot's seat (same seeds:
the search bot cuts exactly as a greedy bot with its seed, so both games start
from the same deal).  The paired figure, the search game's margin less the
greedy game's, measures the same edge with much less noise from the cards.
Prints both means with 95% confidence intervals (normal approximation).

    python benchmarks/db_search_ladder.py --games 300 --rounds 2

Small runs only while developing (``--games 20``); the figures in the docs come
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


def margin(k: int, rounds: int, search: SearchBot | None) -> float:
    """The margin of seat ``k mod 4`` in game ``k`` (a greedy bot when ``search`` is None)."""
    seat = k % 4
    bots: list[Bot] = [GreedyBot(seed=1000 * k + s) for s in range(4)]
    if search is not None:
        bots[seat] = search
    net = play_game(bots, rounds=rounds, seed=k).state.net
    return net[seat] - sum(net[s] for s in range(4) if s != seat) / 3


def summary(values: list[float]) -> str:
    """Mean with its 95% confidence interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.3f} (95% CI {mean - half:+.3f} .. {mean + half:+.3f})"


def main() -> None:
    """Run the ladder and print the margins."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--split-samples", type=int, default=200)
    parser.add_argument("--width", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    searched, greedy = [], []
    for k in range(args.games):
        bot = SearchBot(seed=1000 * k + k % 4, rollouts=args.rollouts, width=args.width,
                        split_samples=args.split_samples)
        searched.append(margin(k, args.rounds, bot))
        greedy.append(margin(k, args.rounds, None))
    paired = [s - g for s, g in zip(searched, greedy, strict=True)]
    print(f"search (rollouts={args.rollouts}, width={args.width}, "
          f"split_samples={args.split_samples}) vs 3 greedy; {args.games} games of "
          f"{args.rounds} rounds, 4 players, ante 1; chips per game:")
    print(f"  search seat margin:          {summary(searched)}")
    print(f"  greedy in that seat:         {summary(greedy)}")
    print(f"  paired (search - greedy):    {summary(paired)}")
    print(f"  {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
