"""The server under load, for ``tests/server/test_load.py`` and
``benchmarks/speed/bench_server_load.py``: many bot tables kept running at
once, and WebSocket clients that play human seats or watch, for a fixed time.

:func:`run_load` drives a running :class:`~support.server_process.ServerProcess`:

* ``tables`` tables of bots only (both games, short settings, random,
  greedy and heuristic bots), each replaced by a new one when its game ends,
  so that that many are always being played;
* ``clients`` WebSocket clients: ``spectators`` of them watch bot tables
  (moving on to another when the game ends), the others each sit at a table
  of their own (one human seat, bots in the rest), play a random legal move
  whenever they may act, and time each act until the view of a newer
  version arrives: the latency of the action's broadcast;

for ``duration`` seconds.  Then the clients stop, the server is killed
(SIGKILL) and started again on the same database, and every table is
checked: it comes back at a version no lower than any client was shown (no
acknowledged action is lost), and every finished game's record replays
through the library to the end (for the human seats, to the final view they
were shown, with every acknowledged act in its place).

The actions per second are the rows added to the server's ``actions``
table during the window (read from the SQLite file at its start and end).

>>> LoadSettings().tables, LoadSettings(duration=5).duration
(200, 5)
>>> percentile([0.1, 0.2, 0.3, 0.4], 50)
0.2
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

from support.server_client import (
    Connection,
    Message,
    Table,
    create_table,
    fetch_record,
    over,
    replay_check,
)
from support.server_process import ServerProcess

__all__ = ["LOAD_OPTIONS", "LoadReport", "LoadSettings", "percentile", "run_load"]

#: The options of ``cardrules serve`` for a load run: one address (the load's)
#: makes hundreds of tables, holds a hundred connections, and the bot tables
#: play unwatched; every other limit (message rates, queues, bodies, headers,
#: hosts, origins) stays at its default.
LOAD_OPTIONS = ("--tables-per-minute", "100000", "--max-tables", "5000",
                "--max-connections", "1000", "--max-connections-per-client", "1000",
                "--bots-play-unwatched")

#: The games of the load, with short settings, and the bots each may seat.
GAMES: tuple[tuple[str, dict[str, int | None], tuple[str, ...]], ...] = (
    ("down_and_back", {"num_players": 2, "rounds": 1}, ("random", "greedy")),
    ("down_and_back", {"num_players": 4, "rounds": 1}, ("random", "greedy")),
    ("back_alley", {"max_hand_size": 2}, ("random", "heuristic")),
    ("back_alley", {"max_hand_size": 3}, ("random", "heuristic")),
)
#: How long one wait for a message may last before it counts as an error.
WAIT = 20.0


def _players(game: str, settings: dict[str, int | None]) -> int:
    return int(settings.get("num_players") or 4) if game == "down_and_back" else 4


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (nearest rank; nan when empty).

    >>> percentile([5.0], 99), percentile([1.0, 2.0, 3.0], 100)
    (5.0, 3.0)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class LoadSettings:
    """What :func:`run_load` runs: bot tables, clients (of which
    ``spectators`` watch), seconds, the seed of every random choice."""

    tables: int = 200
    clients: int = 50
    spectators: int = 10
    duration: float = 30.0
    seed: int = 2026


@dataclass
class LoadReport:
    """What a load run measured and every error it saw (empty lists: none)."""

    settings: LoadSettings
    seconds: float = 0.0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    tables_created: int = 0
    games_finished: int = 0
    records_replayed: int = 0
    acts: int = 0
    stale: int = 0
    messages: int = 0
    errors: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    #: CPU seconds the server process used in the window (None: not Linux).
    server_cpu: float | None = None
    #: CPU seconds this process (the clients) used in the window.
    client_cpu: float = 0.0
    #: The machine's one-minute load average at the end of the window.
    load_average: float = 0.0

    @property
    def actions_per_second(self) -> float:
        """The stored actions per second of the window.

        >>> LoadReport(LoadSettings(), seconds=2.0, actions=10).actions_per_second
        5.0
        """
        return self.actions / self.seconds if self.seconds else math.nan

    def lines(self) -> list[str]:
        """The figures as lines of text.

        >>> LoadReport(LoadSettings(), seconds=2.0, actions=10).lines()[0]
        'bot tables 200, clients 50 (10 watching), 2.0 s'
        """
        s = self.settings
        return [
            f"bot tables {s.tables}, clients {s.clients} ({s.spectators} watching), "
            f"{self.seconds:.1f} s",
            f"actions stored: {self.actions} ({self.actions_per_second:.0f} per second)",
            f"human acts timed: {len(self.latencies)} (stale, not timed: {self.stale}); "
            f"broadcast latency p50 {percentile(self.latencies, 50) * 1e3:.1f} ms, "
            f"p99 {percentile(self.latencies, 99) * 1e3:.1f} ms",
            f"tables created {self.tables_created}, games finished {self.games_finished}, "
            f"records replayed {self.records_replayed}, messages received {self.messages}",
            f"CPU in the window: server {_share(self.server_cpu, self.seconds)}, "
            f"clients {_share(self.client_cpu, self.seconds)}; "
            f"load average {self.load_average:.1f}",
            f"errors {len(self.errors)}, lost actions {len(self.lost)}",
        ]


def _share(cpu: float | None, seconds: float) -> str:
    """``12.0 s (40% of one core)``.

    >>> _share(3.0, 10.0), _share(None, 1.0)
    ('3.0 s (30% of one core)', 'unknown')
    """
    if cpu is None:
        return "unknown"
    return f"{cpu:.1f} s ({cpu / seconds:.0%} of one core)" if seconds else f"{cpu:.1f} s"


def process_cpu(pid: int | None) -> float | None:
    """The CPU seconds (user and system) process ``pid`` has used, from
    ``/proc`` (None where there is no ``/proc``).

    >>> import os
    >>> cpu = process_cpu(os.getpid())
    >>> cpu is None or cpu > 0
    True
    """
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


@dataclass
class _Tracked:
    table: Table
    seat: int | None = None
    shown: int = -1
    final: Message | None = None
    acknowledged: dict[int, str] = field(default_factory=dict)
    finished: bool = False


class _Load:
    def __init__(self, server: ServerProcess, settings: LoadSettings,
                 http: httpx.AsyncClient, others: Sequence[ServerProcess] = (),
                 other_https: Sequence[httpx.AsyncClient] = ()) -> None:
        self.server = server
        self.settings = settings
        self.http = http
        #: Every process serving the database (the first is ``server``): tables
        #: are made and clients connect at each in turn.
        self.servers = [server, *others]
        self.https = [http, *other_https]
        self.turn = 0
        self.rng = random.Random(settings.seed)
        self.report = LoadReport(settings)
        self.tables: dict[str, _Tracked] = {}
        self.running_bots: set[str] = set()
        self.stop_at = math.inf
        self.stopping = asyncio.Event()

    def _seats(self, bots: tuple[str, ...], players: int, human: int | None) -> list[str]:
        return ["human" if seat == human else f"bot:{self.rng.choice(bots)}"
                for seat in range(players)]

    async def new_table(self, *, human: bool) -> _Tracked:
        game, settings, bots = self.rng.choice(GAMES)
        players = _players(game, settings)
        seat = self.rng.randrange(players) if human else None
        self.turn += 1
        http = self.https[self.turn % len(self.https)]
        table = await create_table(http, game, settings, self._seats(bots, players, seat))
        tracked = _Tracked(table, seat)
        self.tables[table.id] = tracked
        self.report.tables_created += 1
        if not human:
            self.running_bots.add(table.id)
        return tracked

    # -- bot tables -------------------------------------------------------------

    async def versions(self) -> dict[str, int]:
        """The version of every unfinished table, from the lobby's listing
        (a finished table is no longer listed)."""
        answer = await self.http.get("/api/tables")
        answer.raise_for_status()
        return {str(row["id"]): int(row["version"]) for row in answer.json()["tables"]}

    async def keep_bot_tables(self) -> None:
        """Replace every finished bot table by a new one until the stop."""
        while not self.stopping.is_set():
            try:
                await self._replace_finished()
            except (httpx.HTTPError, AssertionError) as error:
                self.report.errors.append(f"lobby: {error!r}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), 0.5)

    async def _replace_finished(self) -> None:
        listed = await self.versions()
        for table_id in list(self.running_bots):
            tracked = self.tables[table_id]
            if table_id in listed:
                tracked.shown = max(tracked.shown, listed[table_id])
            else:
                self.running_bots.discard(table_id)
                tracked.finished = True
                self.report.games_finished += 1
        missing = self.settings.tables - len(self.running_bots)
        if missing > 0:
            await asyncio.gather(*(self.new_table(human=False) for _ in range(missing)))

    # -- clients ----------------------------------------------------------------

    async def player(self, rng: random.Random) -> None:
        """Sit at table after table, playing a random legal move when allowed."""
        while not self.stopping.is_set():
            try:
                tracked = await self.new_table(human=True)
            except (httpx.HTTPError, AssertionError) as error:
                self.report.errors.append(f"lobby: {error!r}")
                return
            assert tracked.seat is not None
            token = tracked.table.tokens[tracked.seat]
            connection = await self._open(tracked, token)
            if connection is None:
                return
            try:
                await self._play(tracked, connection, rng)
            except websockets.ConnectionClosed as closed:
                self.report.errors.append(f"table {tracked.table.id}: connection dropped "
                                          f"({closed})")
                return
            except TimeoutError:
                self.report.errors.append(f"table {tracked.table.id}: no message for "
                                          f"{WAIT} s at version {tracked.shown}")
                return
            finally:
                await connection.close()
            if tracked.final is not None:
                tracked.finished = True
                self.report.games_finished += 1

    async def _open(self, tracked: _Tracked, token: str | None) -> Connection | None:
        try:
            self.turn += 1
            server = self.servers[self.turn % len(self.servers)]
            connection = await Connection.open(server.ws_url, tracked.table.id, token,
                                               timeout=WAIT)
        except (OSError, TimeoutError, websockets.WebSocketException) as error:
            self.report.errors.append(f"table {tracked.table.id}: cannot connect ({error!r})")
            return None
        self.report.messages += 1
        assert connection.last is not None
        self._saw(tracked, connection.last)
        return connection

    def _saw(self, tracked: _Tracked, message: Message) -> None:
        version = int(message["version"])
        if version < tracked.shown and tracked.seat is not None:
            self.report.errors.append(f"table {tracked.table.id}: version went back from "
                                      f"{tracked.shown} to {version}")
        tracked.shown = max(tracked.shown, version)

    async def _play(self, tracked: _Tracked, connection: Connection,
                    rng: random.Random) -> None:
        message = connection.last
        assert message is not None
        while not over(message) and not self.stopping.is_set():
            legal = message.get("legal") or []
            if not legal:
                message = await self._next_view(connection)
                self._saw(tracked, message)
                continue
            version = int(message["version"])
            text = rng.choice(legal)
            sent = time.perf_counter()
            await connection.act(version, text)
            self.report.acts += 1
            reply = await connection.reply(WAIT)
            self.report.messages += 1
            if reply.get("type") == "error":
                # Stale when a bot's move came first (simultaneous splits,
                # DB-40): a newer view then follows.  Anything else is an error.
                tracked.acknowledged.pop(max(tracked.acknowledged, default=-1), None)
                message = connection.last if connection.last is not None else reply
                try:
                    while int(message["version"]) <= version:
                        message = await self._next_view(connection)
                except TimeoutError:
                    self.report.errors.append(f"table {tracked.table.id}: {text!r} at "
                                              f"version {version} refused: {reply}")
                    raise
                self.report.stale += 1
                self._saw(tracked, message)
                continue
            while int(reply["version"]) <= version:
                reply = await self._next_view(connection)
            self.report.latencies.append(time.perf_counter() - sent)
            tracked.acknowledged[version] = text
            message = reply
            self._saw(tracked, message)
        if over(message):
            tracked.final = message

    async def _next_view(self, connection: Connection) -> Message:
        message = await connection.view(WAIT)
        self.report.messages += 1
        return message

    async def spectator(self, rng: random.Random) -> None:
        """Watch bot table after bot table, each to its end or to the stop."""
        while not self.stopping.is_set():
            choices = sorted(self.running_bots)
            if not choices:
                await asyncio.sleep(0.1)
                continue
            tracked = self.tables[rng.choice(choices)]
            connection = await self._open(tracked, None)
            if connection is None:
                return
            try:
                message = connection.last
                assert message is not None
                while not over(message) and not self.stopping.is_set():
                    message = await self._next_view(connection)
                    self._saw(tracked, message)
            except websockets.ConnectionClosed as closed:
                self.report.errors.append(f"spectator of {tracked.table.id}: connection "
                                          f"dropped ({closed})")
                return
            except TimeoutError:
                self.report.errors.append(f"spectator of {tracked.table.id}: no message "
                                          f"for {WAIT} s")
                return
            finally:
                await connection.close()

    # -- the run ----------------------------------------------------------------

    def stored_actions(self) -> int:
        """The number of actions in the server's database (read directly)."""
        if "://" in self.server.db:   # PostgreSQL
            import psycopg

            with psycopg.connect(self.server.db) as db:
                row = db.execute("SELECT count(*) FROM actions").fetchone()
                assert row is not None
                return int(row[0])
        with contextlib.closing(sqlite3.connect(f"file:{self.server.db}?mode=ro", uri=True,
                                                timeout=30)) as db:
            (count,) = db.execute("SELECT count(*) FROM actions").fetchone()
            return int(count)

    async def run(self) -> LoadReport:
        settings = self.settings
        await asyncio.gather(*(self.new_table(human=False) for _ in range(settings.tables)))
        players = settings.clients - settings.spectators
        keeper = asyncio.create_task(self.keep_bot_tables())
        clients = [asyncio.create_task(self.player(random.Random(self.rng.random())))
                   for _ in range(players)]
        clients += [asyncio.create_task(self.spectator(random.Random(self.rng.random())))
                    for _ in range(settings.spectators)]
        start_actions = await asyncio.to_thread(self.stored_actions)
        start, cpu = time.perf_counter(), time.process_time()
        server_cpu = _total_cpu(self.servers)
        await asyncio.sleep(settings.duration)
        end_actions = await asyncio.to_thread(self.stored_actions)
        end, self.report.client_cpu = time.perf_counter(), time.process_time() - cpu
        server_end = _total_cpu(self.servers)
        self.report.load_average = os.getloadavg()[0]
        if server_cpu is not None and server_end is not None:
            self.report.server_cpu = server_end - server_cpu
        self.stopping.set()
        await asyncio.wait_for(asyncio.gather(keeper, *clients), WAIT + 10)
        self.report.seconds = end - start
        self.report.actions = end_actions - start_actions
        return self.report

    async def check_store(self) -> None:
        """After a SIGKILL and a restart: every table is at a version no lower
        than a client was shown, and every finished record replays."""
        listed = await self.versions()
        for tracked in self.tables.values():
            table_id = tracked.table.id
            if table_id in listed:
                if listed[table_id] < tracked.shown:
                    self.report.lost.append(f"table {table_id}: at version {listed[table_id]} "
                                            f"after the restart, a client was shown "
                                            f"{tracked.shown}")
                continue
            record = await fetch_record(self.http, table_id)
            if record is None:
                self.report.lost.append(f"table {table_id}: not listed, and no record")
                continue
            try:
                check = replay_check(record, final=tracked.final, seat=tracked.seat,
                                     sent=tracked.acknowledged)
            except AssertionError as error:
                self.report.lost.append(f"table {table_id}: {error}")
                continue
            if check.actions < tracked.shown:
                self.report.lost.append(f"table {table_id}: {check.actions} actions "
                                        f"recorded, version {tracked.shown} shown")
            self.report.records_replayed += 1


def _total_cpu(servers: Sequence[ServerProcess]) -> float | None:
    """The CPU seconds the server processes have used, together."""
    used = [process_cpu(server.pid) for server in servers]
    return None if any(u is None for u in used) else sum(u or 0.0 for u in used)


async def run_load(server: ServerProcess, settings: LoadSettings | None = None, *,
                   restart: bool = True, others: Sequence[ServerProcess] = ()) -> LoadReport:
    """Run the load on ``server`` (started) and check the store; with
    ``restart`` the server is killed and started again before the check.
    ``others`` are more processes serving the same (PostgreSQL) database:
    tables are made, and clients connect, at each process in turn."""
    settings = settings or LoadSettings()
    # Idle connections are dropped well before uvicorn's 5 second keep-alive
    # ends, so that a request never goes out on a connection being closed.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=50,
                          keepalive_expiry=2.0)
    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            httpx.AsyncClient(base_url=server.url, timeout=WAIT, limits=limits))
        other_https = [await stack.enter_async_context(
            httpx.AsyncClient(base_url=other.url, timeout=WAIT, limits=limits))
            for other in others]
        load = _Load(server, settings, http, others, other_https)
        report = await load.run()
    if restart:
        server.kill()
        await asyncio.to_thread(server.start)
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, limits=limits) as http:
        load.http = http
        await load.check_store()
    return report
