"""Throughput of the Down and Back evaluators, next to treys and a bare numpy gather.

Run from the repository root (after ``pip install -e '.[bench]'``)::

    python benchmarks/speed/bench_evaluators.py           # full run, 5 to 15 seconds
    python benchmarks/speed/bench_evaluators.py --quick   # smoke run, a few seconds

The per-call cases (ours next to treys) and then the numpy cases are each
timed round-robin, every case keeping its fastest run (see ``_timing.py``);
start-up costs are measured in fresh interpreters.  ``benchmarks/README.md``
explains every row and the targets.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from _timing import (
    Case,
    Result,
    drain,
    format_count,
    format_rate,
    format_seconds,
    fresh_process_seconds,
    machine_summary,
    run_interleaved,
)

import cardrules
from cardrules import DECK, Card
from cardrules.down_and_back import best_splits, evaluate3, evaluate4, strength4
from cardrules.down_and_back.tables import load

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

SKIPPED = "skipped (install cardrules[bench])"

# Row names, in the order they are printed.
EVAL4 = "evaluate4, tuple of 4 Cards"
STRENGTH4 = "strength4 (bare int), 4 Cards"
TREYS = "treys evaluate, 5 cards (2 + 3)"
EVAL3 = "evaluate3, tuple of 3 Cards"
SPLITS = "best_splits, 7 Cards"
BATCH4 = "evaluate4_batch, int64 rows"
BATCH4_U8 = "evaluate4_batch, uint8 rows"
BATCH3 = "evaluate3_batch, int64 rows"
SPLITS_BATCH = "best_splits_batch, 7-card rows"
GATHER = "numpy gather table[idx], uint16"
#: Entries of the gather's table: C(52, 4), one per 4-card hand (as in
#: bench_batch_gather.py, which times the batch target on 5 million rows).
GATHER_ENTRIES = 270_725
#: The target: evaluate4_batch on int64 rows at least this share of the gather rate
BATCH_TARGET = 0.25
IMPORT = "import cardrules"
FIRST = "import + first evaluate4"
ORDER = (EVAL4, STRENGTH4, TREYS, EVAL3, SPLITS, SPLITS_BATCH, BATCH4, BATCH4_U8, BATCH3,
         GATHER)
NEEDS = {TREYS: "treys", BATCH4: "numpy", BATCH4_U8: "numpy", BATCH3: "numpy",
         SPLITS_BATCH: "numpy",
         GATHER: "numpy"}

# Code run in fresh interpreters; each prints the seconds it measured.
IMPORT_CODE = (
    "import time; t = time.perf_counter(); import cardrules; "
    "print(time.perf_counter() - t)"
)
FIRST_CODE = (
    "import time; t = time.perf_counter(); "
    "from cardrules import DECK; from cardrules.down_and_back import evaluate4; "
    "evaluate4(DECK[:4]); print(time.perf_counter() - t)"
)


@dataclass(frozen=True)
class Sizes:
    hands: int  # 4-, 3- and treys 5-card hands per run of a per-call case
    sevens: int  # 7-card hands per run of best_splits
    rows: int  # rows per batch call, indices per gather
    repeat: int  # timed runs per case (the best one counts)
    processes: int  # fresh interpreters per start-up figure (the best one counts)


FULL = Sizes(hands=20_000, sevens=5_000, rows=2_000_000, repeat=7, processes=5)
QUICK = Sizes(hands=2_000, sevens=500, rows=100_000, repeat=3, processes=3)


def card_cases(seed: int, sizes: Sizes) -> list[Case]:
    """evaluate4, evaluate3 and best_splits on pre-generated random tuples of Cards."""
    rng = random.Random(seed)
    fours: list[tuple[Card, ...]] = [tuple(rng.sample(DECK, 4)) for _ in range(sizes.hands)]
    threes: list[tuple[Card, ...]] = [tuple(rng.sample(DECK, 3)) for _ in range(sizes.hands)]
    sevens: list[tuple[Card, ...]] = [tuple(rng.sample(DECK, 7)) for _ in range(sizes.sevens)]
    return [
        Case(EVAL4, lambda: drain(map(evaluate4, fours)), len(fours), "calls"),
        Case(STRENGTH4, lambda: drain(map(strength4, fours)), len(fours), "calls"),
        Case(EVAL3, lambda: drain(map(evaluate3, threes)), len(threes), "calls"),
        Case(SPLITS, lambda: drain(map(best_splits, sevens)), len(sevens), "hands"),
    ]


def treys_cases(seed: int, sizes: Sizes) -> list[Case]:
    """treys' 5-card evaluation; the hands are split into 2 + 3 cards beforehand."""
    from treys import Deck, Evaluator

    rng = random.Random(seed)
    deck: list[int] = Deck.GetFullDeck()
    hands = [rng.sample(deck, 5) for _ in range(sizes.hands)]
    holes = [hand[:2] for hand in hands]
    boards = [hand[2:] for hand in hands]
    evaluate = Evaluator().evaluate
    return [Case(TREYS, lambda: drain(map(evaluate, holes, boards)), len(hands), "calls")]


def distinct_rows(gen: np.random.Generator, count: int, width: int) -> npt.NDArray[np.int64]:
    """``count`` random rows of ``width`` distinct card indices (0..51)."""
    import numpy as np

    rows = gen.integers(0, 52, size=(count, width), dtype=np.int64)
    todo = np.arange(count)
    while todo.size:  # redraw the rows that repeat a card until none does
        ordered = np.sort(rows[todo], axis=1)
        todo = todo[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
        rows[todo] = gen.integers(0, 52, size=(todo.size, width), dtype=np.int64)
    return rows


def numpy_cases(seed: int, sizes: Sizes) -> list[Case]:
    """The batch evaluators, and a bare gather from a table of one entry per 4-card hand."""
    import numpy as np

    from cardrules.down_and_back import best_splits_batch, evaluate3_batch, evaluate4_batch

    gen = np.random.default_rng(seed)
    rows4 = distinct_rows(gen, sizes.rows, 4)
    rows4_u8 = rows4.astype(np.uint8)
    rows3 = np.ascontiguousarray(rows4[:, :3])
    sevens = distinct_rows(gen, max(sizes.rows // 20, 1000), 7)
    # a copy: gathering from the evaluators' own table would warm their caches
    table = np.frombuffer(load()[0], dtype=np.uint16)[:GATHER_ENTRIES].copy()
    indices = gen.integers(0, table.size, size=sizes.rows, dtype=np.intp)
    n = sizes.rows
    return [
        Case(BATCH4, lambda: evaluate4_batch(rows4), n, "rows"),
        Case(BATCH4_U8, lambda: evaluate4_batch(rows4_u8), n, "rows"),
        Case(BATCH3, lambda: evaluate3_batch(rows3), n, "rows"),
        Case(SPLITS_BATCH, lambda: best_splits_batch(sevens), len(sevens), "hands"),
        Case(GATHER, lambda: table[indices], n, "rows"),
    ]


def missing(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return True
    return False


@dataclass(frozen=True)
class Check:
    target: str
    measured: str | None  # None: skipped, a dependency is missing
    met: bool = False


BATCH_CHECK = f"evaluate4_batch >= {BATCH_TARGET:.0%} of bare gather"


def checks(best: dict[str, Result], startup: dict[str, float]) -> list[Check]:
    """The performance targets, each met or missed (or skipped)."""
    found: list[Check] = []
    if EVAL4 in best and TREYS in best:
        ratio = best[TREYS].seconds_per_item / best[EVAL4].seconds_per_item
        found.append(Check("evaluate4 >= 2.5x treys", f"{ratio:.2f}x", ratio >= 2.5))
    else:
        found.append(Check("evaluate4 >= 2.5x treys", None))
    if STRENGTH4 in best and TREYS in best:
        ratio = best[TREYS].seconds_per_item / best[STRENGTH4].seconds_per_item
        found.append(Check("(info) strength4 >= 2.5x treys", f"{ratio:.2f}x", ratio >= 2.5))
    if BATCH4 in best and GATHER in best:
        share = best[BATCH4].rate / best[GATHER].rate
        found.append(Check(BATCH_CHECK, f"{share:.1%}", share >= BATCH_TARGET))
    else:
        found.append(Check(BATCH_CHECK, None))
    rate = best[SPLITS].rate
    found.append(Check("best_splits >= 100,000 hands/s", f"{rate:,.0f} hands/s",
                       rate >= 100_000))
    if SPLITS_BATCH in best:
        rate = best[SPLITS_BATCH].rate
        found.append(Check("(info) best_splits_batch >= 100,000 hands/s",
                           f"{rate:,.0f} hands/s", rate >= 100_000))
    found.append(Check("import cardrules < 100 ms", format_seconds(startup[IMPORT]),
                       startup[IMPORT] < 0.1))
    found.append(Check("first evaluation < 0.5 s", format_seconds(startup[FIRST]),
                       startup[FIRST] < 0.5))
    return found


def print_table(best: dict[str, Result], startup: dict[str, float], sizes: Sizes) -> None:
    line = "{:<34} {:>11} {:>10} {:>19} {:>14}"
    print(line.format("benchmark", "n", "best run", "rate", "per item"))
    print("-" * 92)
    for name in ORDER:
        if name not in best:
            print(f"{name:<34} {SKIPPED}")
            continue
        result = best[name]
        print(line.format(name, format_count(result.case.items), format_seconds(result.seconds),
                          format_rate(result.rate, result.case.unit),
                          f"{result.seconds_per_item * 1e9:,.1f} ns"))
    for name in (IMPORT, FIRST):
        print(line.format(name, f"min of {sizes.processes}", format_seconds(startup[name]),
                          "-", "-"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and few repeats: a smoke run of a few seconds")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random hands")
    parser.add_argument("--repeat", type=int, help="timed runs per case (default 7, quick 3)")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    if args.repeat is not None:
        sizes = Sizes(sizes.hands, sizes.sevens, sizes.rows, args.repeat, sizes.processes)

    print(f"cardrules {cardrules.__version__} evaluator benchmark"
          f"{' (--quick)' if args.quick else ''}")
    for label, value in machine_summary(("numpy", "treys")):
        print(f"  {label + ':':<10} {value}")
    print(f"  {'sizes:':<10} {sizes.hands:,} hands per call loop, {sizes.sevens:,} seven-card "
          f"hands, {sizes.rows:,} batch rows; best of {sizes.repeat} runs; seed {args.seed}")
    print()

    # Two groups, each timed round-robin: the per-call cases (ours next to treys), then
    # the numpy ones, whose large arrays would otherwise flush the caches between the
    # per-call runs.
    per_call = card_cases(args.seed, sizes)
    if not missing("treys"):
        per_call += treys_cases(args.seed, sizes)
    groups = [per_call]
    if not missing("numpy"):
        groups.append(numpy_cases(args.seed, sizes))
    best: dict[str, Result] = {}
    for group in groups:
        group.sort(key=lambda case: ORDER.index(case.name))
        for result in run_interleaved(group, repeat=sizes.repeat):
            best[result.case.name] = result
    startup = {
        IMPORT: fresh_process_seconds(IMPORT_CODE, runs=sizes.processes),
        FIRST: fresh_process_seconds(FIRST_CODE, runs=sizes.processes),
    }

    print_table(best, startup, sizes)
    print()
    print("targets")
    for check in checks(best, startup):
        if check.measured is None:
            print(f"  SKIP  {check.target:<38} {SKIPPED}")
        else:
            print(f"  {'PASS' if check.met else 'MISS'}  {check.target:<38} {check.measured}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
