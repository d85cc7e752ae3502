"""The server under load, on loopback: 200 bot tables kept running and 50
WebSocket clients (40 playing a human seat each, 10 watching) for 30
seconds against real ``cardrules serve`` processes (``support.server_load``
does the work): one on a SQLite file, and two sharing one PostgreSQL
database.  No client sees an error for a legal move or loses its
connection, and after a SIGKILL and a restart no acknowledged action is
missing from the store and every finished record replays.

The figures (actions per second, the 50th and 99th percentile of an
action's broadcast latency) are printed, never asserted: the timed
benchmark is ``benchmarks/speed/bench_server_load.py``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

for _needed in ("uvicorn", "httpx", "websockets"):   # the server extra brings them all
    pytest.importorskip(_needed, reason="the server tests need cardrules[server]")

from cardrules.server.store import is_shared  # noqa: E402
from support.server_load import LOAD_OPTIONS, LoadSettings, run_load  # noqa: E402
from support.server_process import ServerProcess  # noqa: E402

pytestmark = pytest.mark.slow   # 30 seconds of load: python -m pytest -m "not slow" skips it


def test_200_bot_tables_and_50_clients_for_30_seconds(
        database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # SQLite: one process.  PostgreSQL: two processes sharing the database,
    # tables made and clients connected at each in turn (so most moves a
    # client sees crossed over through the database); the first is killed
    # and restarted before the check.
    settings = LoadSettings(tables=200, clients=50, spectators=10, duration=30.0)
    count = 2 if is_shared(database) else 1
    servers = [ServerProcess(database, bot_delay=0.0, extra=LOAD_OPTIONS,
                             log=tmp_path / f"server{number}.log") for number in range(count)]
    try:
        for server in servers:
            server.start()
        report = asyncio.run(asyncio.wait_for(
            run_load(servers[0], settings, others=servers[1:]), 150))
    finally:
        for server in servers:
            server.stop()
    with capsys.disabled():   # the figures, shown even when the test passes
        store = "PostgreSQL" if is_shared(database) else "SQLite"
        print(f"\n{count} process(es) on {store}:\n" + "\n".join(report.lines()))
    logs = "\n".join(server.log_tail() for server in servers)
    assert report.errors == [], "\n".join(report.errors[:20]) + "\n" + logs
    assert [line for server in servers for line in server.tracebacks()] == [], logs
    assert report.lost == [], "\n".join(report.lost[:20])
    assert report.latencies, "no human act was answered"
    assert report.actions > 0
    assert report.records_replayed > 0
