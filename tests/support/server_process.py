"""The game server as a real process: ``python -m cardrules serve`` on a free
loopback port, with its own database file, for the tests (and benchmarks)
that need a server they can kill.

:class:`ServerProcess` starts the command with the interpreter running the
tests (and this tree's ``src`` first on ``PYTHONPATH``), waits until the
lobby answers, and stops it gently (:meth:`~ServerProcess.stop`) or with
SIGKILL (:meth:`~ServerProcess.kill`); :meth:`~ServerProcess.start` may be
called again on the same database.  What the server prints goes to a log
file beside the database, quoted when it fails to start.

>>> server = ServerProcess("/tmp/never-started.sqlite", bot_delay=0.0)
>>> server.running, server.command()[1:4]
(False, ['-m', 'cardrules', 'serve'])
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx

from support import ROOT

__all__ = ["ServerProcess", "ServerStartError", "free_port"]

#: The address every test server listens on: loopback only.
HOST = "127.0.0.1"


class ServerStartError(RuntimeError):
    """The server exited, or did not answer, before its start deadline."""


def free_port() -> int:
    """A TCP port on the loopback interface nobody listens on right now.

    >>> 1024 <= free_port() <= 65535
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``cardrules serve`` in a child process, started and stopped on demand.

    ``db`` is the database (a file path or a database URL); ``bot_delay``
    and ``turn_timer`` are passed on as ``--bot-delay`` and ``--turn-timer``
    when given, ``extra`` is appended to the command.  Each start takes a
    new free port (so a restart never waits for the old socket) unless
    ``port`` fixes one.  Use it as a context manager to be sure it is
    stopped.

    >>> ServerProcess("x.sqlite", bot_delay=0.25, turn_timer=3).command()[8:]
    ['--db', 'x.sqlite', '--bot-delay', '0.25', '--turn-timer', '3']
    """

    def __init__(self, db: str | os.PathLike[str], *, bot_delay: float | None = None,
                 turn_timer: float | None = None, port: int | None = None,
                 extra: tuple[str, ...] = (), log: str | os.PathLike[str] | None = None) -> None:
        self.db = os.fspath(db)
        self.bot_delay = bot_delay
        self.turn_timer = turn_timer
        self.fixed_port = port
        self.port = port or 0
        self.extra = extra
        self.log_path = Path(log) if log is not None else Path(f"{self.db}.log")
        self.starts = 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        """True while the child process is alive.

        >>> ServerProcess("x.sqlite").running
        False
        """
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (None before the first start).

        >>> ServerProcess("x.sqlite").pid is None
        True
        """
        return None if self._process is None else self._process.pid

    @property
    def url(self) -> str:
        """The base HTTP address, such as ``http://127.0.0.1:8123``.

        >>> ServerProcess("x.sqlite", port=8123).url
        'http://127.0.0.1:8123'
        """
        return f"http://{HOST}:{self.port}"

    @property
    def ws_url(self) -> str:
        """The base WebSocket address, such as ``ws://127.0.0.1:8123``.

        >>> ServerProcess("x.sqlite", port=8123).ws_url
        'ws://127.0.0.1:8123'
        """
        return f"ws://{HOST}:{self.port}"

    def command(self) -> list[str]:
        """The command line the next start runs.

        >>> ServerProcess("x.sqlite").command()[-2:]
        ['--db', 'x.sqlite']
        """
        command = [sys.executable, "-m", "cardrules", "serve", "--host", HOST,
                   "--port", str(self.port), "--db", self.db]
        if self.bot_delay is not None:
            command += ["--bot-delay", repr(self.bot_delay)]
        if self.turn_timer is not None:
            command += ["--turn-timer", repr(self.turn_timer)]
        return [*command, *self.extra]

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and return once ``GET /api/tables`` answers 200;
        :class:`ServerStartError` (with the end of its log) if it exits or
        stays silent for ``timeout`` seconds."""
        if self.running:
            raise RuntimeError("the server is already running")
        self.port = self.fixed_port or free_port()
        env = dict(os.environ)
        src = str(ROOT / "src")
        env["PYTHONPATH"] = os.pathsep.join(
            [src, *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != src]])
        env["PYTHONUNBUFFERED"] = "1"
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts}: {' '.join(self.command())}\n".encode())
            log.flush()
            self._process = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=env, cwd=str(Path(self.log_path).parent))
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2.0) as client:
            while True:
                if not self.running:
                    raise ServerStartError(f"the server exited at start:\n{self.log_tail()}")
                try:
                    if client.get(f"{self.url}/api/tables").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    self.kill()
                    raise ServerStartError(
                        f"the server did not answer within {timeout} s:\n{self.log_tail()}")
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL the server (no clean-up at all) and wait for it to be gone."""
        process = self._process
        if process is not None and process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server with SIGTERM, then SIGKILL after ``timeout`` seconds."""
        process = self._process
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    @property
    def returncode(self) -> int | None:
        """The exit status of the last start once it has ended, else None.

        >>> ServerProcess("/nonexistent/x.sqlite").returncode is None
        True
        """
        return None if self._process is None else self._process.poll()

    def log_tail(self, lines: int = 40) -> str:
        """The last ``lines`` lines the server printed (all its starts).

        >>> ServerProcess("/nonexistent/x.sqlite").log_tail()
        ''
        """
        try:
            text = self.log_path.read_text("utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def tracebacks(self) -> list[str]:
        """The last line of every Python traceback the server printed (all
        its starts): an exception it logged, such as a failed turn.

        >>> ServerProcess("/nonexistent/x.sqlite").tracebacks()
        []
        """
        try:
            lines = self.log_path.read_text("utf-8", errors="replace").splitlines()
        except OSError:
            return []
        found = []
        inside = False
        for number, line in enumerate(lines):
            if line.startswith("Traceback (most recent call last)"):
                inside = True
            elif inside and line and not line[0].isspace():
                found.append(f"line {number + 1}: {line}")
                inside = False
        return found

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()
