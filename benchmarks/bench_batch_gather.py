"""The batch evaluators on large random inputs, next to a bare numpy gather.

Run from the repository root (needs numpy)::

    python benchmarks/bench_batch_gather.py              # 5 million rows
    python benchmarks/bench_batch_gather.py --rows 1000000

The yardstick is ``table[idx]``: one gather of random positions from a
uint16 table of 270,725 entries (as many as there are 4-card hands), with as
many positions as there are rows.  Every case is timed round-robin and keeps
its fastest run (see ``_timing.py``); the figure of interest is the rate of
``evaluate4_batch`` on int64 rows as a share of the gather's rate.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from _timing import Case, format_rate, machine_summary, run_interleaved

from cardrules.down_and_back.batch import evaluate3_batch, evaluate4_batch
from cardrules.down_and_back.tables import load

#: Entries of the yardstick table: C(52, 4), the number of 4-card hands.
GATHER_ENTRIES = 270_725


def random_rows(gen: np.random.Generator, count: int, width: int) -> npt.NDArray[np.int64]:
    """``count`` rows of ``width`` distinct card indices, uniformly random."""
    parts = [np.argsort(gen.random((min(500_000, count - start), 52)), axis=1)[:, :width]
             for start in range(0, count, 500_000)]
    return np.ascontiguousarray(np.concatenate(parts), dtype=np.int64)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rows", type=int, default=5_000_000, help="rows per call")
    parser.add_argument("--repeat", type=int, default=9, help="timed runs per case")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    gen = np.random.default_rng(args.seed)
    rows4 = random_rows(gen, args.rows, 4)
    rows3 = np.ascontiguousarray(rows4[:, :3])
    narrow, wide = rows4.astype(np.uint8), rows4.astype(np.uint64)
    table = np.frombuffer(load()[0], dtype=np.uint16)[:GATHER_ENTRIES].copy()
    positions = gen.integers(0, GATHER_ENTRIES, size=args.rows, dtype=np.intp)
    n = args.rows
    cases = [
        Case("evaluate4_batch, int64 rows", lambda: evaluate4_batch(rows4), n, "rows"),
        Case("evaluate4_batch, uint8 rows", lambda: evaluate4_batch(narrow), n, "rows"),
        Case("evaluate4_batch, uint64 rows", lambda: evaluate4_batch(wide), n, "rows"),
        Case("evaluate3_batch, int64 rows", lambda: evaluate3_batch(rows3), n, "rows"),
        Case(f"gather table[idx], {GATHER_ENTRIES:,} entries", lambda: table[positions], n,
             "rows"),
    ]
    for label, value in machine_summary(["numpy"]):
        print(f"  {label + ':':<12}{value}")
    print(f"  {n:,} rows per call, best of {args.repeat} runs\n")
    results = run_interleaved(cases, repeat=args.repeat)
    gather = results[-1]
    for result in results:
        share = result.rate / gather.rate
        print(f"{result.case.name:<38} {format_rate(result.rate, 'rows'):>16} "
              f"{share:7.3f}x gather")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
