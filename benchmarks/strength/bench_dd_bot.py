"""Back Alley: DoubleDummyBot partners against SearchBot and HeuristicBot partners.

Duplicate whole games (:func:`cardrules.simulation.simulate` with
``rotate=True``): every group is two games dealt from the same chance seed,
the double-dummy pair in seats 0 and 2, then in seats 1 and 3, so that the
luck of the cards cancels.  The margin of a group is the mean over its two
games of the double-dummy team's total less the other team's (BA-40 to
BA-43); the script prints its mean per game with a 95% interval (normal
approximation over the groups), the time per game and, when the games are
played in this process (``--workers 1``, the default), the time per
double-dummy decision that was not forced (a bid or a play with a real
choice).

    python benchmarks/strength/bench_dd_bot.py --opponent search --groups 20
    python benchmarks/strength/bench_dd_bot.py --opponent heuristic --groups 20 --samples 8
    python benchmarks/strength/bench_dd_bot.py --quick            # 1 group of 3-card games

Whole 13-card games need the C solver (``--implementation c``); the pure
Python solver is for small ``--max-hand-size``.  The machine running this
is shared, so the times are indicative only.
"""

from __future__ import annotations

import argparse
import functools
import platform
import sys
import time
from collections.abc import Sequence

import attrs

from cardrules.back_alley import RULES, DoubleDummyBot
from cardrules.back_alley.double_dummy import DEFAULT_INFERENCE, DEFAULT_SAMPLES
from cardrules.simulation import simulate

#: (decisions, seconds) of the double-dummy bots, when played in this process.
_CLOCK = {"play": [0, 0.0], "bid": [0, 0.0]}


class _TimedBot(DoubleDummyBot):
    """A DoubleDummyBot that adds its time per decision to ``_CLOCK``."""

    def act(self, view: object, legal: Sequence[object]) -> object:  # type: ignore[override]
        started = time.perf_counter()
        choice = super().act(view, legal)
        if len(legal) > 1:
            kind = "play" if type(legal[0]).__name__ == "Play" else "bid"
            _CLOCK[kind][0] += 1
            _CLOCK[kind][1] += time.perf_counter() - started
        return choice


def main(argv: list[str] | None = None) -> int:
    """Play the match(es) and print the figures; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", choices=("search", "heuristic", "both"), default="both")
    parser.add_argument("--groups", type=int, default=10,
                        help="duplicate groups (two games each) per opponent (default 10)")
    parser.add_argument("--seed", type=int, default=18, help="master seed (default 18)")
    parser.add_argument("--samples", type=int, default=None,
                        help="deals drawn per play (default: the bot's)")
    parser.add_argument("--bid-samples", type=int, default=0,
                        help="deals drawn per double-dummy bid (default 0: the heuristic bid)")
    parser.add_argument("--inference", type=float, default=DEFAULT_INFERENCE,
                        help="how strongly the draws fit the bids seen (0: uniform)")
    parser.add_argument("--max-hand-size", type=int, default=13,
                        help="13 for the real game of 25 deals (default)")
    parser.add_argument("--implementation", choices=("auto", "c", "python"), default="auto")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--quick", action="store_true",
                        help="one group of 3-card games (5 deals), a smoke run")
    args = parser.parse_args(argv)
    groups, size = (1, 3) if args.quick else (args.groups, args.max_hand_size)
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    kind = _TimedBot if args.workers == 1 else DoubleDummyBot
    factory = functools.partial(kind, samples=samples, bid_samples=args.bid_samples,
                                inference=args.inference, implementation=args.implementation)
    rules = attrs.evolve(RULES, bots={**RULES.bots, "dd": factory})
    sample_bot = factory(0)
    opponents = ("search", "heuristic") if args.opponent == "both" else (args.opponent,)
    print(f"python {platform.python_implementation()} {platform.python_version()}; "
          f"dd samples {sample_bot.samples}, bid samples {sample_bot.bid_samples}, "
          f"inference {sample_bot.inference}, "
          f"solver {args.implementation}; {2 * size - 1} deals of up to {size} cards; "
          f"seed {args.seed}")
    for opponent in opponents:
        for clock in _CLOCK.values():
            clock[0], clock[1] = 0, 0.0
        started = time.perf_counter()
        result = simulate(rules, games=2 * groups, seed=args.seed,
                          bots=["dd", opponent, "dd", opponent],
                          settings={"max_hand_size": size}, workers=args.workers,
                          rotate=True)
        elapsed = time.perf_counter() - started
        margin = next(m for m in result.margins if m.bot == "dd")
        low, high = margin.interval
        line = (f"dd pair vs {opponent} pair: {margin.games} groups ({2 * margin.games} games), "
                f"margin {margin.mean:+.1f} points per game, 95% CI [{low:+.1f}, {high:+.1f}]; "
                f"{elapsed / (2 * groups):.1f} s per game")
        if args.workers == 1:
            (plays, play_time), (bids, bid_time) = _CLOCK["play"], _CLOCK["bid"]
            line += (f"; {1000 * play_time / max(plays, 1):.0f} ms per dd play ({plays}), "
                     f"{1000 * bid_time / max(bids, 1):.0f} ms per dd bid ({bids})")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
