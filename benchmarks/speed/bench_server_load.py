"""How the game server holds up under load: actions stored per second and
the latency of an action's broadcast, on loopback.

A real ``cardrules serve`` process (a SQLite file in a temporary folder,
bots without delay unless ``--bot-delay``) plays ``--tables`` bot tables at
once (both games, short settings; each finished table is replaced by a new
one) while ``--clients`` WebSocket clients connect: ``--spectators`` of them
watch bot tables, the others each play a human seat at a table of their
own, acting on their turn with a random legal move and timing each act
until the view of the next version arrives.  After ``--duration`` seconds
the server is killed (SIGKILL) and restarted, and every table is checked
against what the clients were shown (``tests/support/server_load.py`` does
the work, the same as ``tests/server/test_load.py``).

The rate counts every stored action (chance actions too) in the window;
the clients run in this process, on the same machine as the server, so
they compete with it for the CPU.  With several ``--tables`` values the
runs are made one after the other, each on a new server.

The server runs with every limit at its default except those a load run
must lift (:data:`support.server_load.LOAD_OPTIONS`: hundreds of tables
made from one address, a hundred connections from it, bot tables playing
unwatched).  With ``--before PATH`` each round first runs another tree's
copy of this benchmark (its ``.venv``, its own server) with the same
settings, then this tree's, ``--rounds`` times, and prints both rows with
the load average.

Run: ``python benchmarks/speed/bench_server_load.py [--duration S] [--tables N ...]
[--clients N] [--spectators N] [--bot-delay S] [--quick] [--before PATH --rounds N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import machine_summary

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from support.server_load import LOAD_OPTIONS, LoadReport, LoadSettings, percentile, run_load
from support.server_process import ServerProcess


def _measure(settings: LoadSettings, bot_delay: float) -> tuple[LoadReport, str]:
    with tempfile.TemporaryDirectory(prefix="cardrules-load-") as folder:
        server = ServerProcess(Path(folder) / "load.sqlite", bot_delay=bot_delay,
                               extra=LOAD_OPTIONS)
        with server:
            report = asyncio.run(run_load(server, settings))
        report.errors += [f"server: {line}" for line in server.tracebacks()]
        return report, server.log_tail(5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load")
    parser.add_argument("--tables", type=int, nargs="+", default=[200],
                        help="bot tables kept running (several: one run each)")
    parser.add_argument("--clients", type=int, default=50, help="WebSocket clients")
    parser.add_argument("--spectators", type=int, default=10,
                        help="how many of the clients watch instead of playing")
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="the server's --bot-delay (seconds)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--before", type=Path, default=None,
                        help="another tree whose copy of this benchmark runs first each round")
    parser.add_argument("--rounds", type=int, default=1, help="rounds with --before")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 20 tables, 10 clients, 5 seconds")
    options = parser.parse_args()
    if options.quick:
        options.duration, options.tables, options.clients = 5.0, [20], 10
        options.spectators = min(options.spectators, 2)
    for label, value in machine_summary(["starlette", "uvicorn", "sqlalchemy", "websockets"]):
        print(f"{label:>12}: {value}")
    print()
    header = (f"{'bot tables':>10} {'clients':>8} {'seconds':>8} {'actions':>8} "
              f"{'actions/s':>10} {'acts timed':>10} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'errors':>6} {'lost':>5}")
    if options.before is not None:
        _side_by_side(options, header)
        return
    rows = []
    for tables in options.tables:
        settings = LoadSettings(tables=tables, clients=options.clients,
                                spectators=options.spectators, duration=options.duration,
                                seed=options.seed)
        report, log = _measure(settings, options.bot_delay)
        rows.append(
            f"{tables:>10} {options.clients:>8} {report.seconds:>8.1f} {report.actions:>8} "
            f"{report.actions_per_second:>10.0f} {len(report.latencies):>10} "
            f"{percentile(report.latencies, 50) * 1e3:>8.1f} "
            f"{percentile(report.latencies, 99) * 1e3:>8.1f} "
            f"{len(report.errors):>6} {len(report.lost):>5}")
        print("\n".join(report.lines()))
        for problem in (report.errors + report.lost)[:10]:
            print("  problem:", problem)
        if report.errors or report.lost:
            print("  server log:", log, sep="\n")
        print()
    print(header)
    print("\n".join(rows))


def _row(tables: int, clients: int, report: LoadReport) -> str:
    return (f"{tables:>10} {clients:>8} {report.seconds:>8.1f} {report.actions:>8} "
            f"{report.actions_per_second:>10.0f} {len(report.latencies):>10} "
            f"{percentile(report.latencies, 50) * 1e3:>8.1f} "
            f"{percentile(report.latencies, 99) * 1e3:>8.1f} "
            f"{len(report.errors):>6} {len(report.lost):>5}")


def _side_by_side(options: argparse.Namespace, header: str) -> None:
    """Rounds of: the other tree's run, then this tree's, each with the load average."""
    before = options.before
    command = [str(before / ".venv" / "bin" / "python"),
               str(before / "benchmarks" / "speed" / "bench_server_load.py"),
               "--duration", str(options.duration), "--clients", str(options.clients),
               "--spectators", str(options.spectators), "--bot-delay",
               str(options.bot_delay), "--seed", str(options.seed), "--tables",
               *map(str, options.tables)]
    print(f"{'round':>5} {'tree':>6} {'load':>5} " + header)
    for round_ in range(1, options.rounds + 1):
        load = os.getloadavg()[0]
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              cwd=before, timeout=600)
        last = done.stdout.strip().splitlines()[-len(options.tables):]
        for line in last:
            print(f"{round_:>5} {'before':>6} {load:>5.1f} " + line, flush=True)
        for tables in options.tables:
            load = os.getloadavg()[0]
            settings = LoadSettings(tables=tables, clients=options.clients,
                                    spectators=options.spectators,
                                    duration=options.duration, seed=options.seed)
            report, _ = _measure(settings, options.bot_delay)
            print(f"{round_:>5} {'after':>6} {load:>5.1f} "
                  + _row(tables, options.clients, report), flush=True)
            for problem in (report.errors + report.lost)[:5]:
                print("  problem:", problem)


if __name__ == "__main__":
    main()
