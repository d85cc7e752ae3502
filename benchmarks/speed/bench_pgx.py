"""pgx on this machine's CPU: the batch-engine peer the batch engines' figures stand beside.

pgx (https://github.com/sotetsuk/pgx) steps thousands of games per call in
JAX.  This script times two of its card games, ``sparrow_mahjong`` and
``leduc_holdem``, on CPU JAX at 1,024, 4,096, 16,384 and 65,536 games:

- one step is ``jax.jit(jax.vmap(auto_reset(env.step, env.init)))`` with a
  random legal action per game drawn from ``legal_action_mask`` inside the
  same jitted call (``jax.random.categorical`` over ``log(mask)``), so every
  game of the batch makes a decision at every step and a finished game
  starts again at once (pgx has no chance steps: each step is a decision);
- ``loop`` drives that step from a Python loop, one call per step (what a
  training loop does); ``scan`` plays ``--scan`` steps in one call with
  ``jax.lax.scan`` (no dispatch between steps: pgx's best case);
- each case is compiled and run once untimed (warm-up), then timed
  ``--repeat`` times, the fastest run kept; the figure is time per
  game-step: seconds / (steps * games).

pgx needs JAX, which the project's own environment must not pull in, so the
script runs in a venv of its own (see benchmarks/README.md)::

    python3 -m venv ~/pgxvenv && ~/pgxvenv/bin/pip install pgx
    ~/pgxvenv/bin/python benchmarks/speed/bench_pgx.py

By default the process is pinned to one core (``--cores 1``) and XLA is
told to use one thread, as the project's own engines are measured; the
figures printed are per game-step in nanoseconds.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

GAMES = ("sparrow_mahjong", "leduc_holdem")
BATCHES = (1_024, 4_096, 16_384, 65_536)


def _pin(cores: int) -> None:
    """Keep this process (and XLA's threads) on ``cores`` cores; must run before JAX starts."""
    if cores > 0 and hasattr(os, "sched_setaffinity"):
        available = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, set(available[:cores]))
    if cores == 1:
        flags = os.environ.get("XLA_FLAGS", "")
        os.environ["XLA_FLAGS"] = (flags + " --xla_cpu_multi_thread_eigen=false "
                                   "intra_op_parallelism_threads=1").strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


def _stepper(env_id: str, batch: int, scan: int) -> tuple[Callable[[Any], Any],
                                                          Callable[[Any], Any], Any]:
    """The jitted one-step and ``scan``-step functions of ``batch`` games, and a start."""
    jax, jnp, pgx = _module("jax"), _module("jax.numpy"), _module("pgx")
    auto_reset = _module("pgx.experimental").auto_reset

    env = pgx.make(env_id)
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    def one(carry: Any) -> Any:
        state, key = carry
        key, pick, chance = jax.random.split(key, 3)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        actions = jax.random.categorical(pick, logits, axis=-1)
        state = step(state, actions, jax.random.split(chance, batch))
        return state, key

    def many(carry: Any) -> Any:
        return jax.lax.scan(lambda c, _: (one(c), None), carry, None, length=scan)[0]

    key = jax.random.PRNGKey(2026)
    key, start = jax.random.split(key)
    state = init(jax.random.split(start, batch))
    return jax.jit(one), jax.jit(many), (state, key)


def _module(name: str) -> Any:
    """A module of pgx or JAX (not installed where the project's type checks run)."""
    return importlib.import_module(name)


def _block(carry: Any) -> None:
    _module("jax").block_until_ready(carry)


def _time(run: Callable[[Any], Any], carry: Any, calls: int, repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs of ``calls`` calls of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        for _ in range(calls):
            carry = run(carry)
        _block(carry)
        best = min(best, time.perf_counter() - began)
    return best, carry


def measure(env_id: str, batch: int, *, budget: float, repeat: int, scan: int
            ) -> dict[str, float]:
    """Nanoseconds per game-step of ``env_id`` at ``batch`` games: loop and scan."""
    one, many, carry = _stepper(env_id, batch, scan)
    began = time.perf_counter()
    carry = one(carry)
    _block(carry)
    compile_one = time.perf_counter() - began
    once, carry = _time(one, carry, 1, 1)             # a warm step: sets the step count
    steps = max(3, int(budget / max(once, 1e-6)))
    loop, carry = _time(one, carry, steps, repeat)
    began = time.perf_counter()
    carry = many(carry)
    _block(carry)
    compile_many = time.perf_counter() - began
    calls = max(1, int(budget / max(once * scan, 1e-6)))
    scanned, carry = _time(many, carry, calls, repeat)
    return {"loop_ns": loop / (steps * batch) * 1e9,
            "scan_ns": scanned / (calls * scan * batch) * 1e9,
            "steps": steps, "compile_s": compile_one + compile_many}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--batches", nargs="*", type=int, default=list(BATCHES))
    parser.add_argument("--budget", type=float, default=1.0,
                        help="seconds per timed run (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case (default 3)")
    parser.add_argument("--scan", type=int, default=32,
                        help="steps per lax.scan call (default 32)")
    parser.add_argument("--cores", type=int, default=1,
                        help="cores to pin to, 0 for no pinning (default 1)")
    parser.add_argument("--quick", action="store_true",
                        help="1,024 and 4,096 games, short runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.batches, args.budget, args.repeat = [1_024, 4_096], 0.3, 1
    _pin(args.cores)
    try:
        jax, pgx = _module("jax"), _module("pgx")
    except ImportError:
        print("skipped: pgx is not installed here (run in its own venv: benchmarks/README.md)")
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(f"pgx {pgx.__version__}, jax {jax.__version__} on {jax.devices()[0].platform}, "
          f"python {platform.python_version()}, {platform.machine()}, cores used: {cores}")
    print(f"{'game':<16} {'games':>7} {'loop ns/step':>13} {'scan ns/step':>13} "
          f"{'compile s':>10}")
    for env_id in args.games:
        for batch in args.batches:
            figures = measure(env_id, batch, budget=args.budget, repeat=args.repeat,
                              scan=args.scan)
            print(f"{env_id:<16} {batch:>7,} {figures['loop_ns']:>13,.1f} "
                  f"{figures['scan_ns']:>13,.1f} {figures['compile_s']:>10.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
