"""The game server on PostgreSQL with two processes, beside one process on
SQLite, under the same load, in one run on loopback.

Two runs of ``tests/support/server_load.py``'s load, one after the other:

* **SQLite, one process**: a server on a SQLite file in a temporary folder;
* **PostgreSQL, two processes**: two servers sharing one database on a
  throwaway cluster (``initdb``/``pg_ctl`` in a temporary folder, as the
  tests make it: ``tests/support/pg_cluster.py``); tables are made, and
  clients connect, at each process in turn, so most clients' tables are
  driven by the other process and every move they see crossed over through
  the database.

Each run keeps ``--tables`` bot tables playing (bots without delay, each
finished table replaced) while ``--clients`` WebSocket clients play a human
seat each or watch (``--spectators``), for ``--duration`` seconds; then it
kills a server (SIGKILL), starts it again and checks that no acknowledged
action was lost.  Reported: the actions stored per second (moves and chance
actions), the 50th and 99th percentile of the time from a person's move to
the view of the next version coming back (its broadcast), the servers' CPU
and the machine's load average at the end of each window.

The servers run with limits opened wide (one client address makes every
table, the bots play unwatched): the default limits of ``cardrules serve``
are for the open internet, not for a load test.  The PostgreSQL cluster has
``fsync`` off (the run kills servers, never the database).

Run: ``python benchmarks/speed/bench_server_cluster.py [--duration S]
[--tables N] [--clients N] [--spectators N] [--quick]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

from _timing import machine_summary

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from support.pg_cluster import PostgresCluster, missing_reason
from support.server_load import LoadReport, LoadSettings, percentile, run_load
from support.server_process import HOST, ServerProcess

#: One server process with the limits opened wide (see the module).
LAUNCH = """
import sys
import uvicorn
from cardrules.server import create_app
from cardrules.server.limits import Limits

host, port, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
limits = Limits(tables_per_minute=1e6, table_burst=100000, max_tables=100000,
                messages_per_second=1e6, message_burst=100000, queue=10000,
                bots_play_unwatched=True)
print(f"serving {db} on {port}", flush=True)
uvicorn.run(create_app(db, bot_delay=0, limits=limits), host=host, port=port,
            log_level="warning")
"""


class OpenServer(ServerProcess):
    """A server process started by :data:`LAUNCH` instead of ``cardrules serve``."""

    def command(self) -> list[str]:
        return [sys.executable, "-c", LAUNCH, HOST, str(self.port), self.db]


def _run(servers: list[OpenServer], settings: LoadSettings) -> LoadReport:
    for server in servers:
        server.start()
    try:
        report = asyncio.run(run_load(servers[0], settings, others=servers[1:]))
    finally:
        for server in servers:
            server.stop()
    report.errors += [f"server: {line}" for server in servers for line in server.tracebacks()]
    return report


def _row(label: str, report: LoadReport) -> str:
    return (f"{label:<28} {report.seconds:>7.1f} {report.actions:>8} "
            f"{report.actions_per_second:>9.0f} {len(report.latencies):>7} "
            f"{percentile(report.latencies, 50) * 1e3:>7.1f} "
            f"{percentile(report.latencies, 99) * 1e3:>7.1f} "
            f"{(report.server_cpu or 0.0):>7.1f} {report.load_average:>5.1f} "
            f"{len(report.errors):>6} {len(report.lost):>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load")
    parser.add_argument("--tables", type=int, default=400, help="bot tables kept running")
    parser.add_argument("--clients", type=int, default=100, help="WebSocket clients")
    parser.add_argument("--spectators", type=int, default=20,
                        help="how many of the clients watch instead of playing")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 20 tables, 10 clients, 5 seconds")
    options = parser.parse_args()
    if options.quick:
        options.duration, options.tables, options.clients = 5.0, 20, 10
        options.spectators = min(options.spectators, 2)
    reason = missing_reason()
    if reason is not None:
        sys.exit(f"bench_server_cluster: {reason}")
    for label, value in machine_summary(["starlette", "uvicorn", "sqlalchemy", "websockets",
                                         "psycopg"]):
        print(f"{label:>12}: {value}")
    print(f"{'load before':>12}: {os.getloadavg()[0]:.1f}")
    print()
    settings = LoadSettings(tables=options.tables, clients=options.clients,
                            spectators=options.spectators, duration=options.duration,
                            seed=options.seed)
    reports: list[tuple[str, LoadReport]] = []
    with tempfile.TemporaryDirectory(prefix="cardrules-cluster-") as folder:
        sqlite = OpenServer(Path(folder) / "load.sqlite", log=Path(folder) / "sqlite.log")
        reports.append(("SQLite, one process", _run([sqlite], settings)))
        print("\n".join(reports[-1][1].lines()), end="\n\n", flush=True)
        cluster = PostgresCluster()
        cluster.start()
        try:
            url = cluster.new_database("load")
            servers = [OpenServer(url, log=Path(folder) / f"pg{n}.log") for n in range(2)]
            reports.append(("PostgreSQL, two processes", _run(servers, settings)))
            print("\n".join(reports[-1][1].lines()), end="\n\n", flush=True)
        finally:
            cluster.stop()
    for label, report in reports:
        for problem in (report.errors + report.lost)[:10]:
            print(f"  {label}: problem: {problem}")
    print(f"{'':<28} {'seconds':>7} {'actions':>8} {'actions/s':>9} {'timed':>7} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'CPU s':>7} {'load':>5} {'errors':>6} {'lost':>5}")
    for label, report in reports:
        print(_row(label, report))


if __name__ == "__main__":
    main()
