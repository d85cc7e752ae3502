"""How many games a second :func:`cardrules.simulate` plays, and how it scales.

For each game (Down and Back: 4 players, 10 rounds; Back Alley: a full game
of 25 deals; random bots, or ``--bots``), the same simulation is timed

* with ``workers=1``: in this process, no pool;
* with ``workers=2``: a new local process pool per call (its start-up is
  part of the time, as it is for a user's call);
* on a local Dask cluster of two worker processes with one thread each,
  through ``Client.get_executor()`` (the cluster is started once, before
  timing; skipped without the ``dask`` extra).

Every run plays the same games (same master seed), and the script checks
that the results are equal.  Each figure is the best of ``--repeat`` runs,
cases timed round-robin (see ``_timing.py``).  The speed-ups are relative
to ``workers=1``; with two cores the ideal is 2x, less the pool's start-up
and the cost of sending chunks and results.

Run: ``python benchmarks/speed/bench_simulate.py [--quick] [--games N] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from _timing import Case, format_rate, machine_summary, run_interleaved

from cardrules.simulation import SimulationResult, simulate

GAMES = {"down-and-back": 400, "back-alley": 100}


def _case(name: str, game: str, games: int, bots: str, seed: int,
          results: list[SimulationResult], **options: Any) -> Case:
    def run() -> None:
        results.append(simulate(game, games=games, seed=seed, bots=bots, **options))

    return Case(name, run, games, "games")


def _dask() -> tuple[Callable[[], None], Executor] | None:
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        return None
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    client.wait_for_workers(2)

    def close() -> None:
        client.close()
        cluster.close()

    executor: Executor = client.get_executor()
    return close, executor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few games, 2 timed runs")
    parser.add_argument("--games", type=int, help="games per run (default: 400 Down and "
                                                  "Back, 100 Back Alley; --quick: 8)")
    parser.add_argument("--repeat", type=int, help="timed runs per case (default 3)")
    parser.add_argument("--bots", default="random", help="bot name for every seat")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask cluster")
    args = parser.parse_args()
    repeat = args.repeat or (2 if args.quick else 3)

    for label, value in machine_summary(["distributed"]):
        print(f"{label}: {value}")
    dask = None if args.no_dask else _dask()
    if dask is None:
        print("Dask: skipped (install cardrules[dask])")
    try:
        for game, default in GAMES.items():
            games = args.games or (8 if args.quick else default)
            results: list[SimulationResult] = []
            cases = [_case("workers=1", game, games, args.bots, args.seed, results, workers=1),
                     _case("workers=2", game, games, args.bots, args.seed, results, workers=2)]
            if dask is not None:
                cases.append(_case("Dask, 2 workers", game, games, args.bots, args.seed,
                                   results, executor=dask[1]))
            timed = run_interleaved(cases, repeat=repeat)
            assert all(r == results[0] for r in results), "results differ between runs"
            print(f"\n{game}: {games} games a run, bots {args.bots}, best of {repeat}")
            base = timed[0].rate
            for result in timed:
                print(f"  {result.case.name:16s} {format_rate(result.rate, 'games'):>20s}"
                      f"   speed-up {result.rate / base:4.2f}x")
    finally:
        if dask is not None:
            dask[0]()


if __name__ == "__main__":
    main()
