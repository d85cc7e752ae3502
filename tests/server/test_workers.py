"""The parent of ``cardrules serve --workers N`` (PostgreSQL): it binds the
port once and runs N workers on that socket, starts a new worker when one
dies (SIGKILL here), gives up when workers die too often (here, workers
that cannot start: a damaged table), and stops them all with it.  Real
processes on loopback, on a database of the session's throwaway cluster;
every wait is bounded by a deadline, no timing is asserted.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

for _needed in ("uvicorn", "httpx", "psycopg"):
    pytest.importorskip(_needed, reason="the workers tests need cardrules[postgres]")

import httpx  # noqa: E402

from cardrules.server.store import Store  # noqa: E402
from support.server_process import ServerProcess  # noqa: E402

pytestmark = pytest.mark.postgres

#: One wait for an answer, in seconds.
WAIT = 10.0


def test_serve_workers_starts_processes_on_one_port_and_stops_them(
        postgres_database: str, tmp_path: Path) -> None:
    url = postgres_database
    server = ServerProcess(url, bot_delay=0.0, extra=("--workers", "2"),
                           log=tmp_path / "workers.log")
    with server:
        assert server.pid is not None
        children = _children(server.pid)
        with httpx.Client(base_url=server.url, timeout=WAIT) as http:
            made = [http.post("/api/tables", json={
                "game": "back-alley", "settings": {"max_hand_size": 2},
                "seats": ["human", "bot:random", "bot:random", "bot:random"]}).status_code
                for _ in range(4)]
            listed = http.get("/api/tables").json()["tables"]
        # A worker killed is replaced on the same socket, which the new one serves:
        # with the other stopped (SIGSTOP), only the new one accepts.
        os.kill(children[0], signal.SIGKILL)
        deadline = time.monotonic() + 60
        now = _children(server.pid)
        while children[0] in now or len(now) < 2:
            assert time.monotonic() < deadline, f"no new worker: {now}\n{server.log_tail()}"
            time.sleep(0.1)
            now = _children(server.pid)
        os.kill(children[1], signal.SIGSTOP)
        try:
            answered = None
            while answered is None:
                assert time.monotonic() < deadline, f"the new worker is silent: " \
                    f"{server.log_tail()}"
                with contextlib.suppress(httpx.HTTPError):
                    answered = httpx.get(f"{server.url}/api/tables", timeout=2).json()
        finally:
            os.kill(children[1], signal.SIGCONT)
        replaced = sorted(set(now) - set(children))
    assert len(children) == 2
    assert made == [201] * 4
    assert len(listed) == 4   # every worker lists every table (the store's)
    assert len(answered["tables"]) == 4
    assert len(replaced) == 1
    assert not any(Path(f"/proc/{pid}").exists() for pid in [*children, *replaced])   # stopped
    assert server.returncode == 0   # stopped by SIGTERM, its workers too: a clean stop
    log = server.log_tail(100)
    assert f"server process {children[0]} ended (SIGKILL); starting another" in log, log
    assert server.tracebacks() == []


def test_serve_workers_gives_up_when_workers_die_too_often(
        postgres_database: str) -> None:
    url = postgres_database
    store = Store(url)   # a table no worker can replay: each one stops at its start
    store.create_table("bad", "back_alley", {"max_hand_size": 2}, 1, ["human"] * 4, {})
    store.append("bad", 0, [(None, {"type": "nonsense"}, "chance")], finished=False)
    store.close()
    process = subprocess.Popen(
        [sys.executable, "-m", "cardrules", "serve", "--db", url, "--port", "0",
         "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 1, output
    assert "Traceback" not in output
    lines = output.splitlines()
    assert lines[-1] == ("cardrules: server processes ended more than 5 times within 60 "
                         "seconds: stopping"), output
    assert sum("starting another" in line for line in lines) == 5
    assert all("is damaged at version 1" in line for line in lines[1:-1]
               if "starting another" not in line), output


def _children(pid: int) -> list[int]:
    """The ids of the processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
