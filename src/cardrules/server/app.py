"""The server's ASGI application: the lobby API, the WebSocket table and the web pages.

:func:`create_app` builds a Starlette application over a
:class:`~cardrules.server.store.Store`.  Games are named as the command
names them (``back-alley``, ``down-and-back``; any case, ``-`` or ``_``).

The lobby is a JSON API (``GET /api/games``, ``POST /api/tables``,
``GET /api/tables`` and ``/api/tables/{id}``, ``POST
/api/tables/{id}/join``, ``GET /api/tables/{id}/record``; an error is
``{"error": MESSAGE}`` with status 400, 404 or 409), the table a WebSocket
(``WS /ws/tables/{id}?token=TOKEN``; no token: a spectator) that sends each
seat its view after every change and answers a refused action with the
rule's id.  Every route, field and refusal: :doc:`/server`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import os
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import exc as sa_exc
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardrules._validate import is_int
from cardrules.engine.registry import display_name, games, rules_for
from cardrules.engine.rules import Rules
from cardrules.errors import CardRulesError
from cardrules.i18n import language, normalize
from cardrules.server import web
from cardrules.server._guard import Guard
from cardrules.server._live import Client, DamagedTable, LiveTable, Refused, Shared
from cardrules.server._requests import (
    MAX_DEPTH,
    BadRequest,
    new_table,
    parse_json,
    read_json,
    wanted_seat,
)
from cardrules.server.cluster import Cluster
from cardrules.server.limits import Limits, RateLimit
from cardrules.server.store import DamagedRow, Store, StoredTable, sqlite_path, token_hash

__all__ = ["create_app"]

log = logging.getLogger("cardrules.server")

#: The WebSocket close code for a bad token or a refused spectator (policy violation).
POLICY_VIOLATION = 1008
#: The WebSocket close code when the server fails to build or send a message.
INTERNAL_ERROR = 1011
#: The WebSocket close code for a table that does not exist.
NO_SUCH_TABLE = 4404
#: The WebSocket close code for a table whose stored actions cannot be replayed.
DAMAGED_TABLE = 4409

#: What a server does with a table it cannot replay at start: refuse to start
#: (naming the table and version), or quarantine the table and serve the rest.
DAMAGED_CHOICES = ("refuse", "quarantine")


class StartError(Exception):
    """The server cannot start: the one line says why (a damaged database)."""

T = TypeVar("T")


def _table_sizes(rules: Rules[Any, Any]) -> list[int]:
    """The numbers of seats the game accepts (probed through its settings)."""
    if "num_players" not in rules.default_settings:
        return [rules.new_game_from_settings({}).num_players]
    sizes = []
    for n in range(1, 13):
        try:
            rules.new_game_from_settings({"num_players": n})
        except (CardRulesError, ValueError):
            continue
        sizes.append(n)
    return sizes


class _Running:
    """What exists while the application runs (made at start, gone at stop):
    the thread pools, the store, what the tables share, the live tables."""

    def __init__(self, think_threads: int) -> None:
        #: The one thread every database call runs on.
        self.db = ThreadPoolExecutor(1, thread_name_prefix="cardrules-db")
        #: The threads the search bots think on.
        self.thinkers = ThreadPoolExecutor(think_threads, thread_name_prefix="cardrules-bot")
        self.live: dict[str, LiveTable] = {}
        self.loading = asyncio.Lock()
        self.store: Store | None = None
        self.shared: Shared | None = None
        #: On a shared store (PostgreSQL): this process's leases and notifications.
        self.cluster: Cluster | None = None
        #: Tables to bring up to date (id -> the version heard of; 0: whatever
        #: is stored), and tables whose tokens to read again.
        self.dirty: dict[str, int] = {}
        self.tokens_due: set[str] = set()
        self.catching: asyncio.Task[None] | None = None
        self.background: set[asyncio.Task[None]] = set()

    def shutdown(self) -> None:
        self.db.shutdown(wait=True)
        self.thinkers.shutdown(wait=False, cancel_futures=True)


class _Server:
    """The application's state (``app.state.cardrules``): its options and,
    while it runs, the store, the live tables and the thread pools (made
    once per start, in :meth:`open`)."""

    def __init__(self, database: str, *, bot_delay: float, turn_timer: float | None,
                 think_threads: int, limits: Limits, damaged: str, fresh: bool,
                 lease_seconds: float = 3.0) -> None:
        self.database = database
        self.lease_seconds = lease_seconds
        self.bot_delay = bot_delay
        self.turn_timer = turn_timer
        self.think_threads = think_threads
        self.limits = limits
        self.damaged_choice = damaged
        self.fresh = fresh
        #: The tables quarantined as damaged: id -> why.
        self.damaged: dict[str, str] = {}
        #: Why the last start failed (one line), or None.
        self.failure: str | None = None
        #: Making and joining tables, per client address.
        self.table_rate = RateLimit(limits.tables_per_minute / 60.0, limits.table_burst)
        self._running: _Running | None = None

    @property
    def running(self) -> _Running:
        if self._running is None:
            raise RuntimeError("the server is not started (its lifespan has not run)")
        return self._running

    @property
    def store(self) -> Store:
        store = self.running.store
        assert store is not None
        return store

    @property
    def shared(self) -> Shared:
        shared = self.running.shared
        assert shared is not None
        return shared

    @property
    def live(self) -> dict[str, LiveTable]:
        return self.running.live

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store method on the database thread."""
        return await asyncio.get_running_loop().run_in_executor(
            self.running.db, functools.partial(function, *args, **kwargs))

    async def open(self) -> None:
        """Start: make the pools, open the store, replay every unfinished table.

        Raises :class:`StartError` (and logs its one line) when the database
        is an emptied file (unless ``fresh``), is not a database, or holds a
        table that cannot be replayed (unless damaged tables are quarantined)."""
        self.failure = None
        self.damaged = {}
        running = self._running = _Running(self.think_threads)
        try:
            await self._open(running)
        except StartError as err:   # reported by the lifespan as its one line
            self.failure = str(err)
            await self.close()
            raise
        for table in self.live.values():
            table.start_driver()

    async def _open(self, running: _Running) -> None:
        path = sqlite_path(self.database)
        if path is not None and not self.fresh and os.path.isfile(path) \
                and os.path.getsize(path) == 0:
            raise StartError(f"the database {path} is an empty file (0 bytes); start with "
                             "--fresh to use it as a new database")
        try:
            running.store = await self.call(Store, self.database)
            stored_tables = await self.call(running.store.tables, finished=False)
        except (sa_exc.SQLAlchemyError, ValueError) as err:
            reason = str(getattr(err, "orig", None) or err).splitlines()[0][:200]
            raise StartError(f"the database {self.database} cannot be read: {reason}") \
                from None
        running.shared = Shared(running.store, running.db, running.thinkers,
                                bot_delay=self.bot_delay, turn_timer=self.turn_timer,
                                queue=self.limits.queue, send_timeout=self.limits.send_timeout,
                                bots_play_unwatched=self.limits.bots_play_unwatched)
        for stored in stored_tables:
            try:
                if running.store.shared:
                    # Checked as a SQLite file's are, then let go: a table is
                    # loaded when this process takes its lease, or when a client
                    # asks for it (what the others store is heard of).
                    await self._replayed(stored)
                else:
                    await self._load(stored)
            except DamagedTable as err:
                if self.damaged_choice == "refuse":
                    raise StartError(f"{err}; start with --damaged quarantine to serve "
                                     "the other tables") from None
                log.error("%s: quarantined", err)
                self.damaged[stored.id] = str(err)
        if running.store.shared:
            running.cluster = Cluster(running.store, running.db, ttl=self.lease_seconds,
                                      renew=self.lease_seconds / 3)
            await running.cluster.start(self._on_leases, self._on_message, self._on_resync,
                                        self._on_tick)

    async def close(self) -> None:
        """Stop every table, write what is queued, close the store and the pools."""
        running, self._running = self._running, None
        if running is None:
            return
        for task in list(running.background):
            task.cancel()
        if running.catching is not None:
            running.catching.cancel()
        for table in list(running.live.values()):
            await table.stop()
        if running.shared is not None:
            await running.shared.writer.close()
        if running.cluster is not None:
            await running.cluster.stop()
        if running.store is not None:
            await asyncio.get_running_loop().run_in_executor(running.db, running.store.close)
        running.shutdown()

    async def _replayed(self, stored: StoredTable) -> LiveTable:
        """A stored table replayed (not yet live); :class:`DamagedTable` when it cannot be."""
        try:
            rules = rules_for(stored.game)
            table = LiveTable(stored, rules, self.shared)
            actions = await self.call(self.store.actions, stored.id)
        except DamagedRow as err:
            raise DamagedTable(stored.id, err.version, str(err)) from None
        except (CardRulesError, ValueError, TypeError, KeyError) as err:
            raise DamagedTable(stored.id, 0, f"{type(err).__name__}: {err}"[:300]) from None
        table.replay(actions)
        return table

    async def _load(self, stored: StoredTable) -> LiveTable:
        """Replay a stored table into memory; :class:`DamagedTable` when it cannot be."""
        table = await self._replayed(stored)
        hashes = await self.call(self.store.token_hashes, stored.id)
        table.tokens = {hashed: seat for seat, hashed in hashes.items()}
        self.live[stored.id] = table
        if self.running.cluster is not None:
            # A notification that came while it was read found no table: read again.
            await table.catch_up()
        return table

    # -- several processes (a shared store) -----------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        running = self.running
        task = asyncio.get_running_loop().create_task(work)
        running.background.add(task)
        task.add_done_callback(running.background.discard)

    def _on_leases(self, gained: Sequence[str], lost: Sequence[str]) -> None:
        if self._running is None:   # stopping
            return
        self._spawn(self._lease_change(list(gained), list(lost)))

    async def _lease_change(self, gained: list[str], lost: list[str]) -> None:
        """Stop the bots of the tables lost; load, bring up to date and drive
        the tables gained (and ask who watches them)."""
        cluster = self.running.cluster
        for table_id in lost:
            table = self.live.get(table_id)
            if table is not None:
                table.may_drive = False
                await table.stop()
        if gained and cluster is not None:
            # Whoever watches them elsewhere says so (bots alone wait for a watcher).
            await self.call(self.store.notify, [f"q {table_id}" for table_id in gained])
        for table_id in gained:
            if cluster is None or table_id not in cluster.held:
                continue
            try:
                table = await self.table(table_id)
                if table is None:
                    continue
                await table.catch_up()
            except (BadRequest, DamagedTable, DamagedRow) as err:
                log.error("table %s cannot be replayed: %s", table_id, err)
                continue
            if table_id in cluster.held:
                table.may_drive = True
                table.start_driver()

    def _on_message(self, lines: Sequence[str]) -> None:
        """What a process (this one too) stored or said: see :mod:`cardrules.server.cluster`."""
        if self._running is None:   # stopping: the listener may still speak
            return
        for line in lines:
            kind, _, rest = str(line).partition(" ")
            table_id, _, detail = rest.partition(" ")
            table = self.live.get(table_id)
            if table is None:
                continue
            if kind == "a":
                wanted = int(detail) if detail.isdigit() else 0
                if wanted <= table.version:
                    continue
                table.heard = max(table.heard, wanted)
                if table.clients or table.may_drive:
                    self._catch_up(table_id, wanted)
                # else: nobody here watches it; it is read when next asked for
            elif kind == "s":
                self._catch_up(table_id, 0, tokens=True)
            elif kind == "d":
                at, _, deadline = detail.partition(" ")
                with contextlib.suppress(ValueError):
                    table.heard_deadline(int(at), float(deadline))
            elif kind == "q" and table.clients:
                self._spawn(self._say_watched(table_id))
            elif kind == "w" and table.may_drive:
                table.watched_elsewhere()

    async def _say_watched(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.call(self.store.notify, [f"w {table_id}"])

    def catch_up_soon(self, table: LiveTable) -> None:
        """Bring ``table`` up to what was heard of it (a shared store)."""
        self._catch_up(table.id, table.heard)

    def watching(self, table: LiveTable) -> None:
        """A client of ``table`` connected here: on a shared store, tell the
        process running its bots that it is watched."""
        if self.running.cluster is not None and not table.may_drive:
            self._spawn(self._say_watched(table.id))

    def _on_tick(self) -> None:
        """After each lease step: check the tables watched here against the
        store (a safety net under the notifications: one query a step)."""
        if self._running is not None:
            self._spawn(self._sweep())

    async def _sweep(self) -> None:
        watched = [t.id for t in self.live.values() if t.clients and not t.over]
        if not watched:
            return
        with contextlib.suppress(Exception):
            stored = await self.call(self.store.versions, watched)
            for table_id, version in stored.items():
                table = self.live.get(table_id)
                if table is not None and version > table.version:
                    self._catch_up(table_id, version)

    def _on_resync(self) -> None:
        if self._running is None:
            return
        for table_id in list(self.live):
            self._catch_up(table_id, 0, tokens=True)
            self._catch_up(table_id, 0)

    def _catch_up(self, table_id: str, wanted: int, *, tokens: bool = False) -> None:
        """Bring a table up to (at least) version ``wanted`` (0: whatever is
        stored), with ``tokens`` its tokens too, one table after another on
        one task."""
        running = self.running
        if tokens:
            running.tokens_due.add(table_id)
        else:
            running.dirty[table_id] = max(running.dirty.get(table_id, wanted), wanted)
        if running.catching is None or running.catching.done():
            running.catching = asyncio.get_running_loop().create_task(self._catch_up_all())

    async def _catch_up_all(self) -> None:
        """Read what is due: every table's new actions in one query a round."""
        running = self.running
        while running.dirty or running.tokens_due:
            for table_id in list(running.tokens_due):
                running.tokens_due.discard(table_id)
                table = self.live.get(table_id)
                if table is not None:
                    try:
                        await self.refresh_tokens(table)
                    except Exception:   # logged; the next notification tries again
                        log.exception("table %s: could not read its seats", table_id)
            due = {table_id: table for table_id, wanted in running.dirty.items()
                   if (table := self.live.get(table_id)) is not None
                   and (wanted == 0 or wanted > table.version)}
            running.dirty.clear()
            if not due:
                continue
            try:
                found = await self.call(self.store.actions_since,
                                        {table_id: t.version for table_id, t in due.items()})
            except Exception:   # logged; the next notification tries again
                log.exception("could not read what other processes stored")
                continue
            for table_id, table in due.items():
                try:
                    await table.take_stored(found.get(table_id, []))
                except DamagedTable as err:
                    log.error("%s", err)

    async def refresh_tokens(self, table: LiveTable) -> None:
        """Read a table's token hashes again (a seat taken through another process)."""
        hashes = await self.call(self.store.token_hashes, table.id)
        table.tokens = {hashed: seat for seat, hashed in hashes.items()}

    async def table(self, table_id: str) -> LiveTable | None:
        """A live table, loaded from the store when it is not in memory (a
        finished one); None when there is no such table.  Raises
        :class:`BadRequest` (409) for a damaged table."""
        found = self.live.get(table_id)
        if found is not None:
            if found.heard > found.version:   # moved on at another process meanwhile
                await found.catch_up()
            return found
        if table_id in self.damaged:
            raise BadRequest(self.damaged[table_id], 409)
        async with self.running.loading:
            found = self.live.get(table_id)
            if found is not None:
                return found
            stored = await self.call(self.store.table, table_id)
            if stored is None:
                return None
            try:
                table = await self._load(stored)
            except DamagedTable as err:
                log.error("%s: quarantined", err)
                self.damaged[table_id] = str(err)
                raise BadRequest(str(err), 409) from None
            table.start_driver()
            return table

    def check_rate(self, connection: HTTPConnection) -> None:
        """Refuse (429) a client that makes or joins tables too often."""
        client = connection.client.host if connection.client else "?"
        if not self.table_rate.take(client):
            wait = max(1, math.ceil(self.table_rate.wait(client)))
            log.warning("%s: refused: too many tables made or joined", client)
            raise BadRequest(f"too many tables made or joined: wait {wait} s", 429,
                             retry_after=wait)

    # -- the lobby ------------------------------------------------------------

    async def create(self, body: object) -> dict[str, object]:
        """Make the table ``body`` asks for (checked by :func:`new_table`)."""
        wanted = new_table(body)
        if self.running.cluster is not None:   # every process's tables count
            open_tables = await self.call(self.store.count_unfinished)
        else:
            open_tables = sum(not table.over for table in self.live.values())
        if open_tables >= self.limits.max_tables:
            log.warning("refused: the server holds %d open tables", self.limits.max_tables)
            raise BadRequest(f"the server holds {self.limits.max_tables} open tables, as many "
                             "as it may: try again when one has finished", 503)
        rules = wanted.rules
        seed = secrets.randbits(62) if wanted.seed is None else wanted.seed
        table_id = secrets.token_hex(6)
        tokens = {seat: secrets.token_urlsafe(24) for seat in wanted.humans}
        await self.call(self.store.create_table, table_id, rules.name,
                        dict(rules.settings_of(wanted.start)), seed, list(wanted.kinds),
                        {seat: token_hash(t) for seat, t in tokens.items()},
                        chosen_seed=wanted.chosen_seed)
        stored = await self.call(self.store.table, table_id)
        assert stored is not None
        table = await self._load(stored)
        await table.run_chance()   # the first dealer and deal, before anyone connects
        if self.running.cluster is not None:
            await self.running.cluster.take(table_id)   # its bots run here (unless taken)
        table.start_driver()
        return {"id": table_id, "game": display_name(rules.name),
                "seats": [{"seat": seat, "token": token} for seat, token in tokens.items()]}

    async def join(self, table_id: str, body: object) -> dict[str, object]:
        """Give a free human seat of the table (the one ``body`` asks for) a token."""
        table = await self.table(table_id)
        if table is None:
            raise BadRequest(f"no table {table_id[:40]!r}", 404)
        wanted = wanted_seat(body, len(table.kinds))
        if table.over:
            raise BadRequest("the game is over", 409)
        taken = set(table.tokens.values())
        free = [seat for seat, kind in enumerate(table.kinds)
                if kind == "human" and seat not in taken and wanted in (None, seat)]
        token = secrets.token_urlsafe(24)
        hashed = token_hash(token)
        for seat in free:
            if await self.call(self.store.take_seat, table_id, seat, hashed):
                table.tokens[hashed] = seat
                await self.call(self.store.notify, [f"s {table_id}"])
                return {"id": table_id, "seat": seat, "token": token}
        raise BadRequest("no free seat" if wanted is None else f"seat {wanted} is not free",
                         409)

    def describe(self, table: LiveTable) -> dict[str, object]:
        """A live table as the lobby lists it."""
        taken = set(table.tokens.values())
        return {
            "id": table.id, "game": display_name(table.rules.name), "title": table.rules.title,
            "settings": dict(table.rules.settings_of(table.start)),
            "seats": [{"seat": seat, "kind": kind,
                       "taken": kind != "human" or seat in taken}
                      for seat, kind in enumerate(table.kinds)],
            "version": table.version, "finished": table.over,
            "created": table.created, "chosen_seed": table.chosen_seed,
        }

    async def listing(self, finished: bool) -> list[dict[str, object]]:
        """The unfinished tables (or the finished ones) as the lobby lists them
        (on a shared store, every process's tables: read from the store)."""
        if not finished and self.running.cluster is None:
            listed = [self.describe(t) for t in sorted(self.live.values(),
                                                       key=lambda t: (t.created, t.id))
                      if not t.over]
            if self.damaged:
                listed += [{**self._stored(stored), "damaged": self.damaged[stored.id]}
                           for stored in await self.call(self.store.tables, finished=False)
                           if stored.id in self.damaged]
            return listed
        # Described from the store: a finished table is not replayed to be listed.
        listed = [self._stored(stored)
                  for stored in await self.call(self.store.tables, finished=finished)]
        return [{**entry, "damaged": self.damaged[str(entry["id"])]}
                if entry["id"] in self.damaged else entry for entry in listed]

    @staticmethod
    def _stored(stored: StoredTable) -> dict[str, object]:
        """A table as stored, as the lobby lists it."""
        try:
            title = rules_for(stored.game).title
        except CardRulesError:
            title = stored.game
        return {"id": stored.id, "game": display_name(stored.game), "title": title,
                "settings": stored.settings,
                "seats": [{"seat": seat, "kind": kind, "taken": kind != "human" or taken}
                          for seat, (kind, taken) in enumerate(zip(stored.seats, stored.taken,
                                                                   strict=True))],
                "version": stored.version, "finished": stored.finished is not None,
                "created": stored.created, "chosen_seed": stored.chosen_seed}


def _games() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name in games():
        rules = rules_for(name)
        out.append({"game": display_name(rules.name), "title": rules.title,
                    "settings": dict(rules.default_settings), "players": _table_sizes(rules),
                    "bots": sorted(rules.bots), "default_bot": rules.default_bot,
                    "return_unit": rules.return_unit})
    return out


def _error(err: BadRequest) -> JSONResponse:
    headers = None if err.retry_after is None else {"Retry-After": str(err.retry_after)}
    return JSONResponse({"error": err.message}, status_code=err.status, headers=headers)


def _refused(connection: HTTPConnection, err: BadRequest) -> JSONResponse:
    """The answer to a refused request; a client's mistake the lobby cannot
    expect (a body too large or not JSON, a client gone) is logged as one line."""
    if err.status in (400, 413, 415) and "body" in err.message:
        client = connection.client.host if connection.client else "?"
        log.warning("%s: refused %s %s: %s", client, connection.scope.get("method", ""),
                    connection.url.path[:80], err.message)
    return _error(err)


def _server(connection: HTTPConnection) -> _Server:
    """The state of the application serving ``connection``."""
    server: _Server = connection.app.state.cardrules
    return server


# -- the routes: each reads the application's state ----------------------------------


async def list_games(request: Request) -> JSONResponse:
    """``GET /api/games``."""
    return JSONResponse({"games": _games()})


async def list_tables(request: Request) -> JSONResponse:
    """``GET /api/tables`` (``?finished=1``: the finished ones)."""
    finished = request.query_params.get("finished", "") in ("1", "true", "yes")
    return JSONResponse({"tables": await _server(request).listing(finished)})


async def create_table(request: Request) -> JSONResponse:
    """``POST /api/tables``."""
    server = _server(request)
    try:
        body = await read_json(request, server.limits.max_body)
        server.check_rate(request)
        return JSONResponse(await server.create(body), status_code=201)
    except BadRequest as err:
        return _refused(request, err)


async def one_table(request: Request) -> JSONResponse:
    """``GET /api/tables/{id}``."""
    server = _server(request)
    try:
        table = await server.table(request.path_params["table_id"])
    except BadRequest as err:
        return _refused(request, err)
    if table is None:
        return _error(BadRequest("no such table", 404))
    return JSONResponse(server.describe(table))


async def join_table(request: Request) -> JSONResponse:
    """``POST /api/tables/{id}/join``."""
    server = _server(request)
    try:
        body = await read_json(request, server.limits.max_body)
        server.check_rate(request)
        return JSONResponse(await server.join(request.path_params["table_id"], body))
    except BadRequest as err:
        return _refused(request, err)


async def table_record(request: Request) -> JSONResponse:
    """``GET /api/tables/{id}/record``: the record once the game is over."""
    try:
        table = await _server(request).table(request.path_params["table_id"])
    except BadRequest as err:
        return _refused(request, err)
    if table is None:
        return _error(BadRequest("no such table", 404))
    if not table.over:
        return JSONResponse({"error": "the game is not over", "version": table.version},
                            status_code=409)
    return JSONResponse(table.record().to_dict())


async def play(websocket: WebSocket) -> None:
    """``WS /ws/tables/{id}``: play a seat (with its token) or watch."""
    server = _server(websocket)
    await websocket.accept()
    try:
        table = await server.table(websocket.path_params["table_id"])
    except BadRequest:
        await websocket.close(DAMAGED_TABLE, "this table is damaged")
        return
    if table is None:
        await websocket.close(NO_SUCH_TABLE, "no such table")
        return
    token = websocket.query_params.get("token")
    seat: int | None = None
    if token is not None:
        seat = table.tokens.get(token_hash(token))
        if seat is None and server.running.cluster is not None:
            await server.refresh_tokens(table)   # a seat taken through another process
            seat = table.tokens.get(token_hash(token))
        if seat is None:
            await websocket.close(POLICY_VIOLATION, "unknown token")
            return
    elif table.rules.public_view is None:
        await websocket.close(POLICY_VIOLATION, "this game has no spectators' view")
        return

    async def close() -> None:
        await websocket.close(INTERNAL_ERROR, "the server failed")

    # ?lang=ja|uk|en: the language of this connection's event texts and
    # refusals (anything else, or none, is English); views stay JSON.
    limits = server.limits
    client = Client(seat, websocket.send_text, close,
                    normalize(websocket.query_params.get("lang") or "en"), queue=limits.queue)
    where = websocket.client.host if websocket.client else "?"
    rate = RateLimit(limits.messages_per_second, limits.message_burst, keys=1)
    table.add_client(client)
    server.watching(table)
    if table.heard > table.version:   # heard of while it had no client here
        server.catch_up_soon(table)
    client.notify()
    loop = asyncio.get_running_loop()
    sender = loop.create_task(table.serve(client))
    cut = loop.create_task(client.overflowed.wait())
    reason: str | None = None
    try:
        while reason is None:
            receiving = loop.create_task(websocket.receive())
            await asyncio.wait([receiving, cut], return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():
                receiving.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await receiving
                reason = "too many messages unread"
                break
            message = receiving.result()
            if message["type"] == "websocket.disconnect":
                break
            if not rate.take("messages"):
                reason = "too many messages"
                break
            text = message.get("text")
            with language(client.language):
                if text is None:
                    client.error("bad-message", "a message is JSON text, not binary data")
                elif len(text) > limits.max_message:
                    client.error("bad-message",
                                 f"a message is at most {limits.max_message} characters")
                else:
                    await _handle(table, client, text)
            if client.overflowed.is_set():
                reason = "too many messages unread"
    except WebSocketDisconnect:
        pass
    finally:
        table.remove_client(client)
        sender.cancel()
        cut.cancel()
        await asyncio.wait([sender, cut], timeout=limits.send_timeout)
    if reason is not None:
        log.warning("%s: table %s: a client is cut off: %s", where, table.id, reason)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(limits.send_timeout):
                await websocket.close(POLICY_VIOLATION, reason)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    server: _Server = app.state.cardrules
    await server.open()
    try:
        yield
    finally:
        await server.close()


#: The lobby's and the table's routes (the web table's pages come from :mod:`web`).
ROUTES: list[BaseRoute] = [
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", one_table, methods=["GET"]),
    Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
    Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
    WebSocketRoute("/ws/tables/{table_id}", play),
]


class _App(Starlette):
    """Starlette with :class:`~cardrules.server._guard.Guard` outside everything
    (even Starlette's error handler), so that every answer carries its headers."""

    def build_middleware_stack(self) -> Any:
        server: _Server = self.state.cardrules
        return Guard(super().build_middleware_stack(), server.limits, lambda: server.failure)


def create_app(database: str = "cardrules.sqlite", *, bot_delay: float = 0.5,
               turn_timer: float | None = None, think_threads: int = 2,
               limits: Limits | None = None, damaged: str = "refuse",
               fresh: bool = False, lease_seconds: float = 3.0) -> Starlette:
    """The game server as an ASGI application (Starlette).

    ``database`` is a path (a SQLite file, made when missing) or an SQLAlchemy
    URL.  Bots wait ``bot_delay`` seconds before each move (0
    for tests and load runs); with ``turn_timer`` a human seat that has not
    acted within that many seconds has the game's default bot move for it.
    Bots think on ``think_threads`` worker threads, off the event loop.  The
    database is opened, and every unfinished table replayed from it, when
    the application starts (its lifespan); serve it with any ASGI server,
    for example ``uvicorn.run(create_app(), port=8000)``.

    ``limits`` (:class:`~cardrules.server.limits.Limits`) bounds what each
    client may do and names the hosts and origins served.  A table that
    cannot be replayed at start stops the start with a line naming it and
    the version (``damaged="refuse"``) or is listed as damaged and served
    no further (``"quarantine"``); an empty (0-byte) SQLite file is refused
    unless ``fresh``.

    On PostgreSQL (``postgresql://user@host/db``) any number of processes
    may serve one database (:mod:`cardrules.server.cluster`): a table's bots
    and timer run in the process holding its lease, renewed every third of
    ``lease_seconds`` and taken over by another process that many seconds
    after its holder stops renewing it.

    >>> app = create_app("sqlite://", bot_delay=0)
    >>> sorted({r.path for r in app.routes if r.path.startswith("/api")})[:3]
    ['/api/games', '/api/tables', '/api/tables/{table_id}']
    >>> create_app(bot_delay=-1)
    Traceback (most recent call last):
    ...
    ValueError: bot_delay must be 0 or more seconds, not -1
    """
    if not isinstance(bot_delay, int | float) or bot_delay < 0:
        raise ValueError(f"bot_delay must be 0 or more seconds, not {bot_delay!r}")
    if turn_timer is not None and (not isinstance(turn_timer, int | float) or turn_timer <= 0):
        raise ValueError(f"turn_timer must be a positive number of seconds, not {turn_timer!r}")
    if not is_int(think_threads) or think_threads < 1:
        raise ValueError(f"think_threads must be 1 or more, not {think_threads!r}")
    if damaged not in DAMAGED_CHOICES:
        raise ValueError(f"damaged must be 'refuse' or 'quarantine', not {damaged!r}")
    if not isinstance(lease_seconds, int | float) or not 0.3 <= lease_seconds <= 600:
        raise ValueError(f"lease_seconds must be from 0.3 to 600, not {lease_seconds!r}")
    app = _App(routes=[*ROUTES, *web.routes()], lifespan=_lifespan)
    app.state.cardrules = _Server(database, bot_delay=float(bot_delay),
                                  turn_timer=None if turn_timer is None else float(turn_timer),
                                  think_threads=think_threads, limits=limits or Limits(),
                                  damaged=damaged, fresh=bool(fresh),
                                  lease_seconds=float(lease_seconds))
    return app


async def _handle(table: LiveTable, client: Client, text: str) -> None:
    """One message from a client: ``act`` or ``sync``; anything else is refused."""
    try:
        message = parse_json(text)
    except ValueError as err:
        client.error("bad-message", f"a message is a JSON object, {MAX_DEPTH} levels deep "
                                    "at most" if str(err).startswith("JSON nested")
                     else "a message is a JSON object")
        return
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "sync":
        client.sent_version = None
        client.notify()
        return
    if kind != "act" or not isinstance(message, dict):
        client.error("bad-message", "a message is {\"type\": \"act\", \"version\": N, "
                                    "\"action\": TEXT} or {\"type\": \"sync\"}")
        return
    version, action = message.get("version"), message.get("action")
    if not is_int(version) or not isinstance(action, str):
        client.error("bad-message", "'act' needs a whole-number 'version' and an "
                                    "'action' text")
        return
    if client.seat is None:
        client.error("spectator", "a spectator cannot act")
        return
    try:
        await table.act(client.seat, action, version, "player")
    except Refused as err:
        client.error(err.rule, err.message)
    except Exception:   # the store failed: nothing was applied, the client may try again
        log.exception("table %s: an action could not be stored", table.id)
        client.error("server", "the server could not store the action; nothing changed")
