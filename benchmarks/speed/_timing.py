"""Small measuring helpers shared by the benchmark scripts in this folder.

Every measurement is the *minimum* over several runs: on a shared machine
the noise (other processes, frequency changes, cache misses caused by
others) only ever adds time, so the fastest run is the best estimate of the
code's own cost.  Cases that are compared with each other are run
round-robin (:func:`run_interleaved`), so that a noisy period slows all of
them rather than one.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import timeit
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata

__all__ = [
    "Case",
    "Result",
    "drain",
    "format_count",
    "format_rate",
    "format_seconds",
    "fresh_process_seconds",
    "machine_summary",
    "run_interleaved",
]


def drain(items: Iterable[object]) -> None:
    """Consume an iterator at C speed, keeping nothing (``deque(maxlen=0)``).

    ``drain(map(f, inputs))`` calls ``f`` once per input with the least
    possible loop overhead, the same for every function timed this way.
    """
    deque(items, maxlen=0)


@dataclass(frozen=True)
class Case:
    """Something to time: ``func()`` processes ``items`` things (calls, hands, rows)."""

    name: str
    func: Callable[[], object]
    items: int
    unit: str


@dataclass(frozen=True)
class Result:
    """The best (shortest) time of one run of a :class:`Case`."""

    case: Case
    seconds: float

    @property
    def rate(self) -> float:
        """Items per second."""
        return self.case.items / self.seconds

    @property
    def seconds_per_item(self) -> float:
        return self.seconds / self.case.items


def run_interleaved(cases: Sequence[Case], *, repeat: int, number: int = 1,
                    warmup: bool = True, gc: bool = False) -> list[Result]:
    """Time every case ``repeat`` times, round-robin, keeping each case's best run.

    Each round times ``func`` called ``number`` times per case, in order, so
    that slow periods of the machine hit all cases alike.  With ``warmup``
    every case is called once first (untimed), so that lazy loading and
    first-call costs are not measured.  The garbage collector is off while
    timing (the :mod:`timeit` default) unless ``gc`` is true.
    """
    if repeat < 1 or number < 1:
        raise ValueError("repeat and number must be at least 1")
    if warmup:
        for case in cases:
            case.func()
    setup = "import gc; gc.enable()" if gc else "pass"
    timers = [timeit.Timer(case.func, setup=setup) for case in cases]
    best = [float("inf")] * len(cases)
    for _ in range(repeat):
        for i, timer in enumerate(timers):
            best[i] = min(best[i], timer.timeit(number) / number)
    return [Result(case, seconds) for case, seconds in zip(cases, best, strict=True)]


def fresh_process_seconds(code: str, *, runs: int) -> float:
    """The minimum over ``runs`` fresh interpreters of the number ``code`` prints.

    ``code`` runs as ``python -c code`` with this interpreter and environment
    and must print a duration in seconds as its last line of output.
    """
    best = float("inf")
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True,
                              text=True, check=True)
        best = min(best, float(done.stdout.split()[-1]))
    return best


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Hardware", "cpu model"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def machine_summary(distributions: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Labelled facts about this machine and the versions of ``distributions``."""
    facts = [
        ("python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("platform", platform.platform()),
        ("cpu", _cpu_model()),
        ("cores", str(os.cpu_count() or "unknown")),
    ]
    facts += [(name, _version(name)) for name in distributions]
    from cardrules.down_and_back import ACCELERATED

    facts.append(("evaluators", "C speed-ups" if ACCELERATED else "pure Python"))
    return facts


_PREFIXES = ((1e9, "G"), (1e6, "M"), (1e3, "k"))


def format_rate(rate: float, unit: str) -> str:
    """``56.1 M rows/s``: a rate with an SI prefix and three significant figures."""
    for scale, prefix in _PREFIXES:
        if rate >= scale:
            return f"{rate / scale:.3g} {prefix} {unit}/s"
    return f"{rate:.3g} {unit}/s"


def format_seconds(seconds: float) -> str:
    """``658 ns``, ``13.2 ms``, ``1.25 us``: a duration in a readable unit."""
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "us")):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_count(count: int) -> str:
    """``2,000,000``."""
    return f"{count:,}"
