"""Speed of the Back Alley double-dummy solver, beside DDS.

Run from the repository root (endplay, the test extra, must be installed)::

    python benchmarks/speed/bench_solver.py                # the timings
    python benchmarks/speed/bench_solver.py --quick        # a smoke run
    python benchmarks/speed/bench_solver.py --verify       # the DDS comparison

Timings: on the same deals of ``--cards`` cards each (13 by default) in
which a joker is turned (no trumps, no joker in play: a bridge deal at no
trumps), side by side in one run, the time of our ``max_tricks`` (the C
solver) at the opening lead and of endplay's ``solve_board`` for one
optimal card; the median, 90th percentile and worst of each.  Then the
same distribution of our solver alone for every hand size 1 to 13 with a
trump suit, and the pure-Python solver's time on small deals.

``--verify`` compares our answer with DDS on ``--verify-deals`` no-trump
deals and as many trump positions (a trump deal played at random until both
jokers are gone and a trick is over; compared with DDS in that trump suit),
and prints how many differ (it should be none).

Every time is one run of one deal (a search has no warm-up to amortise);
the machine may be shared, so read the medians rather than the worst.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from _timing import machine_summary

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from cardrules.back_alley import GameState
from cardrules.back_alley.double_dummy import _native as _solver_c
from cardrules.back_alley.double_dummy import solver
from support.ba_dds import (  # type: ignore[import-untyped,unused-ignore]
    dds_max_tricks,
    no_trump_deal,
    trump_position,
)


def _seconds(func: Callable[[GameState], object], state: GameState) -> float:
    start = time.perf_counter()
    func(state)
    return time.perf_counter() - start


def _summary(times: Sequence[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1e3:9.2f} ms  "
            f"p90 {p90 * 1e3:9.2f} ms  worst {ordered[-1] * 1e3:9.2f} ms")


def _ours(state: GameState) -> int:
    value = _solver_c.max_tricks(state)
    assert value is not None
    return value


def _nodes() -> int:
    """The nodes the C solver's last call searched (a figure that does not
    depend on the machine's load)."""
    from cardrules.back_alley.double_dummy import _solver
    return _solver.last_nodes()


def trump_deal(rng: random.Random, size: int, leader: int) -> GameState:
    """A deal of ``size`` cards each with a plain card turned, at the opening lead."""
    while True:
        state = trump_position_at_start(rng, size, leader)
        if state is not None:
            return state


def trump_position_at_start(rng: random.Random, size: int, leader: int) -> GameState | None:
    from cardrules.back_alley import Bid, Board, ChooseDealer, Pass, Phase, Shuffle, apply, new_game
    from cardrules.back_alley.actions import CARDS

    deck = list(CARDS)
    rng.shuffle(deck)
    if deck[4 * size] in CARDS[52:]:
        return None
    state = apply(apply(new_game(max_hand_size=size), ChooseDealer(3)), Shuffle(tuple(deck)))
    while state.phase is Phase.BID:
        mine = state.current_player == leader
        state = apply(state, (Board() if size == 1 else Bid(1)) if mine else Pass())
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=13, help="cards per hand (default 13)")
    parser.add_argument("--deals", type=int, default=30, help="no-trump deals timed")
    parser.add_argument("--per-size", type=int, default=10, help="trump deals per hand size")
    parser.add_argument("--max-size", type=int, default=13, help="largest trump hand size")
    parser.add_argument("--verify", action="store_true", help="compare with DDS instead")
    parser.add_argument("--verify-deals", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--each", action="store_true", help="print every no-trump deal's times")
    args = parser.parse_args()
    if args.quick:
        args.cards, args.deals, args.per_size, args.max_size = 8, 5, 2, 8
        args.verify_deals = 20
    if not _solver_c.available():
        raise SystemExit("the C solver is not available (CARDRULES_PURE_PYTHON, or no extension)")
    for label, value in machine_summary(["endplay"]):
        print(f"{label:>10}: {value}")
    rng = random.Random(args.seed)

    if args.verify:
        differ = 0
        for number in range(args.verify_deals):
            state = no_trump_deal(rng, size=args.cards, leader=number % 4)
            differ += _ours(state) != dds_max_tricks(state)
        print(f"no trump, {args.cards} cards: {args.verify_deals} deals, {differ} differ from DDS")
        differ = found = 0
        while found < args.verify_deals:
            position = trump_position(rng, size=args.cards)
            if position is None:
                continue
            found += 1
            differ += _ours(position) != dds_max_tricks(position)
        print(f"trump positions after both jokers ({args.cards}-card deals): {found} positions, "
              f"{differ} differ from DDS")
        return

    warm = no_trump_deal(random.Random(0), size=args.cards)
    _ours(warm)  # the first calls allocate: DDS its tables, ours its table
    dds_max_tricks(warm)
    ours, dds, nodes = [], [], []
    for number in range(args.deals):
        state = no_trump_deal(rng, size=args.cards, leader=number % 4)
        # alternate who goes first, so that a noisy moment hurts both
        if number % 2:
            dds.append(_seconds(dds_max_tricks, state))
            ours.append(_seconds(_ours, state))
            nodes.append(_nodes())
        else:
            ours.append(_seconds(_ours, state))
            nodes.append(_nodes())
            dds.append(_seconds(dds_max_tricks, state))
        if args.each:
            print(f"  deal {number + 1}: ours {ours[-1] * 1e3:.1f} ms ({nodes[-1]:,} nodes), "
                  f"DDS {dds[-1] * 1e3:.1f} ms", flush=True)
    print(f"\nno trump, {args.cards} cards, opening lead, {args.deals} deals")
    print(f"  max_tricks (C)        {_summary(ours)}")
    print(f"  DDS solve_board       {_summary(dds)}")
    print(f"  ratio of the medians  {statistics.median(ours) / statistics.median(dds):.2f}")
    print(f"  nodes searched (C)    median {statistics.median(nodes):,.0f}, worst {max(nodes):,}")

    print(f"\ntrumps, opening lead, {args.per_size} deals per hand size (C)")
    for size in range(1, args.max_size + 1):
        times = [_seconds(_ours, trump_deal(rng, size, number % 4))
                 for number in range(args.per_size)]
        print(f"  {size:2} cards  {_summary(times)}")

    print("\npure Python solver, trumps, opening lead")
    solver.max_tricks(trump_deal(random.Random(0), 2, 0), implementation="python")  # imports
    for size in range(1, 7):
        times = [_seconds(lambda s: solver.max_tricks(s, implementation="python"),
                          trump_deal(rng, size, number % 4)) for number in range(args.per_size)]
        print(f"  {size:2} cards  {_summary(times)}")


if __name__ == "__main__":
    main()
