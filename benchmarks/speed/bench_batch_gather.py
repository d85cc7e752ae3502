"""The batch evaluators on large random inputs, next to a bare numpy gather.

Run from the repository root (needs numpy)::

    python benchmarks/speed/bench_batch_gather.py              # 5 million rows, 3 runs
    python benchmarks/speed/bench_batch_gather.py --runs 5 --rows 1000000

The yardstick is ``table[idx]``: one gather of random positions from a table
of 270,725 entries (as many as there are 4-card hands), with as many
positions (random ``intp``, that is int64 here) as there are rows.  The
headline gather reads a ``uint16`` table, the type of the strengths the
batch evaluators look up, and the faster (stricter) of the two yardsticks;
the gather from an ``int64`` table is printed beside it.

The target: ``evaluate4_batch`` on int64 rows at least 0.25x the
rate of the ``uint16`` gather, in the same run.  With the C speed-ups the
batch evaluators run a C kernel, whose AVX2 loop (where the processor has
AVX2) takes contiguous 4-card rows; the same rows through its plain loop and
through the numpy code alone (the fallback without the speed-ups, also what
``CARDRULES_PURE_PYTHON=1`` runs) are timed beside it.  Each run times every case
round-robin and keeps its fastest repeat (see ``_timing.py``); the machine
is shared and noisy, so the script makes several runs and prints the range.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from _timing import Case, Result, format_rate, machine_summary, run_interleaved

from cardrules.down_and_back import _accel
from cardrules.down_and_back.batch import (
    _numpy_strengths,
    _rows,
    evaluate3_batch,
    evaluate4_batch,
)
from cardrules.down_and_back.tables import load

#: Entries of the yardstick tables: C(52, 4), the number of 4-card hands.
GATHER_ENTRIES = 270_725
#: The target: evaluate4_batch on int64 rows at least this share of the gather rate
TARGET = 0.25

TARGET_CASE = "evaluate4_batch, int64 rows"
GATHER = f"gather table[idx], uint16, {GATHER_ENTRIES:,}"
GATHER64 = f"gather table[idx], int64, {GATHER_ENTRIES:,}"


def random_rows(gen: np.random.Generator, count: int, width: int) -> npt.NDArray[np.int64]:
    """``count`` rows of ``width`` distinct card indices, uniformly random."""
    parts = [np.argsort(gen.random((min(500_000, count - start), 52)), axis=1)[:, :width]
             for start in range(0, count, 500_000)]
    return np.ascontiguousarray(np.concatenate(parts), dtype=np.int64)


def cases(gen: np.random.Generator, n: int) -> list[Case]:
    """Everything timed in one run, the two gathers last."""
    rows4 = random_rows(gen, n, 4)
    rows3 = np.ascontiguousarray(rows4[:, :3])
    narrow, wide = rows4.astype(np.uint8), rows4.astype(np.uint64)
    # copies: gathering from the evaluators' own tables would warm their caches
    table = np.frombuffer(load()[0], dtype=np.uint16)[:GATHER_ENTRIES].copy()
    table64 = table.astype(np.int64)
    positions = gen.integers(0, GATHER_ENTRIES, size=n, dtype=np.intp)
    found = [
        Case(TARGET_CASE, lambda: evaluate4_batch(rows4), n, "rows"),
        Case("evaluate4_batch, uint8 rows", lambda: evaluate4_batch(narrow), n, "rows"),
        Case("evaluate4_batch, uint64 rows", lambda: evaluate4_batch(wide), n, "rows"),
        Case("evaluate3_batch, int64 rows", lambda: evaluate3_batch(rows3), n, "rows"),
        Case("(numpy code alone) evaluate4, int64",
             lambda: _numpy_strengths(_rows(rows4, 4), 4), n, "rows"),
    ]
    kernel = _accel.batch_strengths
    if kernel is not None:
        def plain() -> object:
            assert kernel is not None
            out = np.empty(n, dtype=np.int32)
            return kernel(rows4, 4, out, False)

        found.append(Case("(C plain loop) evaluate4, int64", plain, n, "rows"))
    found.append(Case(GATHER, lambda: table[positions], n, "rows"))
    found.append(Case(GATHER64, lambda: table64[positions], n, "rows"))
    return found


def print_run(number: int, results: list[Result]) -> float:
    """One run's table; returns the target case's share of the gather rate."""
    by_name = {result.case.name: result for result in results}
    gather = by_name[GATHER].rate
    print(f"run {number}")
    for result in results:
        print(f"  {result.case.name:<38} {format_rate(result.rate, 'rows'):>16} "
              f"{result.seconds_per_item * 1e9:6.2f} ns {result.rate / gather:7.3f}x gather")
    return by_name[TARGET_CASE].rate / gather


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rows", type=int, default=5_000_000, help="rows per call")
    parser.add_argument("--repeat", type=int, default=7, help="timed repeats per case and run")
    parser.add_argument("--runs", type=int, default=3, help="runs (each round-robin)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    for label, value in machine_summary(["numpy"]):
        print(f"  {label + ':':<12}{value}")
    if _accel.batch_strengths is not None:
        from cardrules.down_and_back import _speedups

        print(f"  {'batch loop:':<12}{_speedups.BATCH_SIMD or 'plain C (no AVX2)'}")
    print(f"  {args.rows:,} rows per call; {args.runs} runs, each the best of "
          f"{args.repeat} round-robin repeats\n")
    timed = cases(np.random.default_rng(args.seed), args.rows)
    shares = [print_run(run + 1, run_interleaved(timed, repeat=args.repeat))
              for run in range(args.runs)]
    low, high = min(shares), max(shares)
    print(f"\nevaluate4_batch (int64 rows) / uint16 gather: {low:.3f}x to {high:.3f}x "
          f"over {len(shares)} runs")
    verdict = "PASS" if low >= TARGET else "MISS"
    print(f"{verdict}  at least {TARGET}x the gather rate in every run (lowest {low:.3f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
