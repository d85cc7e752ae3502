"""The server under load, on loopback: 200 bot tables kept running and 50
WebSocket clients (40 playing a human seat each, 10 watching) for 30
seconds against a real ``cardrules serve`` process (``support.server_load``
does the work).  No client sees an error for a legal move or loses its
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

from support.server_load import LOAD_OPTIONS, LoadSettings, run_load  # noqa: E402
from support.server_process import ServerProcess  # noqa: E402

pytestmark = pytest.mark.slow   # 30 seconds of load: python -m pytest -m "not slow" skips it


# On SQLite only: the same load on two processes sharing PostgreSQL is the
# benchmark benchmarks/speed/bench_server_cluster.py (its figures on the
# performance page); a second 30-second run would not fit CI's time.
def test_200_bot_tables_and_50_clients_for_30_seconds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = LoadSettings(tables=200, clients=50, spectators=10, duration=30.0)
    with ServerProcess(tmp_path / "load.sqlite", bot_delay=0.0, extra=LOAD_OPTIONS) as server:
        report = asyncio.run(asyncio.wait_for(run_load(server, settings), 150))
    with capsys.disabled():   # the figures, shown even when the test passes
        print("\n" + "\n".join(report.lines()))
    assert report.errors == [], "\n".join(report.errors[:20]) + "\n" + server.log_tail()
    assert server.tracebacks() == [], server.log_tail()
    assert report.lost == [], "\n".join(report.lost[:20])
    assert report.latencies, "no human act was answered"
    assert report.actions > 0
    assert report.records_replayed > 0
