"""Down and Back bot ladder: SearchBot against three GreedyBots, net chips per game.

Game ``k`` (chance from seed ``k``) seats the search bot at seat ``k mod 4`` and
greedy bots elsewhere, so over a multiple of four games it sits in every seat
equally often.  A game's margin is the search bot's net winnings minus the
mean net winnings of the other three seats; with four identical bots its
expectation is 0 by symmetry.

Each game is also played with a greedy bot in the search bot's seat (same seeds:
the search bot cuts exactly as a greedy bot with its seed, so both games start
from the same deal).  The paired figure, the search game's margin less the
greedy game's, measures the same edge with less noise from the cards.
Prints both means with 95% confidence intervals (normal approximation) and the
share of rounds whose pot the seat took (DB-43).

    python benchmarks/strength/db_search_ladder.py --games 500 --rounds 2 --workers 2

Small runs only while developing (``--games 20``); the figures in the docs come
from the full run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from cardrules.down_and_back import GreedyBot, play_game
from cardrules.down_and_back.search import SearchBot
from cardrules.engine.bots import Bot

#: The search bot's settings, shared with the worker processes.
Settings = tuple[int, int, int, bool]


def margin(k: int, rounds: int, search: SearchBot | None) -> tuple[float, int]:
    """The margin of seat ``k mod 4`` in game ``k`` (a greedy bot when ``search``
    is None) and the number of pots that seat took."""
    seat = k % 4
    bots: list[Bot] = [GreedyBot(seed=1000 * k + s) for s in range(4)]
    if search is not None:
        bots[seat] = search
    state = play_game(bots, rounds=rounds, seed=k).state
    net = state.net
    pots = sum(1 for result in state.results if result.pot_winner == seat)
    return net[seat] - sum(net[s] for s in range(4) if s != seat) / 3, pots


def game_pair(job: tuple[int, int, Settings]) -> tuple[float, float, int, int]:
    """Game ``k`` with the search bot and with a greedy bot in its seat: both
    margins and both pot counts."""
    k, rounds, (rollouts, width, split_samples, infer) = job
    bot = SearchBot(seed=1000 * k + k % 4, rollouts=rollouts, width=width,
                    split_samples=split_samples, infer=infer)
    searched, search_pots = margin(k, rounds, bot)
    greedy, greedy_pots = margin(k, rounds, None)
    return searched, greedy, search_pots, greedy_pots


def summary(values: list[float]) -> str:
    """Mean with its 95% confidence interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.3f} (95% CI {mean - half:+.3f} .. {mean + half:+.3f})"


def main() -> None:
    """Run the ladder and print the margins."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--start", type=int, default=0, help="seed of the first game")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=32)
    parser.add_argument("--split-samples", type=int, default=200)
    parser.add_argument("--width", type=int, default=3)
    parser.add_argument("--infer", action="store_true",
                        help="draw opponents' hidden cards as greedy players keep them")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="also write one CSV line per game to this file")
    args = parser.parse_args()
    start = time.perf_counter()
    settings: Settings = (args.rollouts, args.width, args.split_samples, args.infer)
    jobs = [(k, args.rounds, settings) for k in range(args.start, args.start + args.games)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(game_pair, jobs, chunksize=4))
    else:
        rows = [game_pair(job) for job in jobs]
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write("game,search_margin,greedy_margin,search_pots,greedy_pots\n")
            for k, row in zip(range(args.start, args.start + args.games), rows, strict=True):
                out.write(f"{k},{row[0]:.6f},{row[1]:.6f},{row[2]},{row[3]}\n")
    searched = [row[0] for row in rows]
    greedy = [row[1] for row in rows]
    paired = [s - g for s, g in zip(searched, greedy, strict=True)]
    rounds = args.games * args.rounds
    print(f"search (rollouts={args.rollouts}, width={args.width}, "
          f"split_samples={args.split_samples}, infer={args.infer}) vs 3 greedy; "
          f"{args.games} games of {args.rounds} rounds from seed {args.start}, "
          f"4 players, ante 1; chips per game:")
    print(f"  search seat margin:          {summary(searched)}")
    print(f"  greedy in that seat:         {summary(greedy)}")
    print(f"  paired (search - greedy):    {summary(paired)}")
    print(f"  pots taken by the seat:      search {sum(row[2] for row in rows)}, "
          f"greedy {sum(row[3] for row in rows)} of {rounds} rounds")
    print(f"  {time.perf_counter() - start:.0f} s with {args.workers} worker(s)")


if __name__ == "__main__":
    main()
