"""The server's ASGI application: the lobby API, the WebSocket table and the web pages.

:func:`create_app` builds a Starlette application over a
:class:`~cardrules.server.store.Store`.  Games are named as the command
names them (``back-alley``, ``down-and-back``; any case, ``-`` or ``_``).

The lobby (JSON; an error is ``{"error": MESSAGE}`` with status 400, 404 or 409):

- ``GET /api/games``: ``{"games": [{"game", "title", "settings" (the
  defaults), "players" (the table sizes), "bots", "default_bot",
  "return_unit"}]}``;
- ``POST /api/tables`` with ``{"game": ..., "settings": {...}, "seats":
  [...], "seed": N}`` (all but ``game`` optional): a seat is ``"human"``
  (taken by the creator, who gets its token), ``"open"`` (a human seat left
  for someone to join) or ``"bot:NAME"``; without ``seats``, one human and
  the game's default bots.  Answers 201 ``{"id", "game", "seats": [{"seat",
  "token"}]}``;
- ``GET /api/tables``: ``{"tables": [...]}``, the unfinished tables
  (``?finished=1``: the finished ones), each ``{"id", "game", "title",
  "settings", "seats": [{"seat", "kind" ("human" or "bot:NAME"), "taken"}],
  "version", "finished", "created"}``; ``GET /api/tables/{id}``: one of them;
- ``POST /api/tables/{id}/join`` (optional body ``{"seat": N}``): takes a
  free human seat, ``{"id", "seat", "token"}``; 409 when none is free;
- ``GET /api/tables/{id}/record``: 409 ``{"error", "version"}`` until the
  game is over, then the game record (:meth:`GameRecord.to_dict
  <cardrules.engine.GameRecord.to_dict>`).

The table: ``WS /ws/tables/{id}?token=TOKEN`` (no token: a spectator; an
unknown token is closed with code 1008, an unknown table with 4404).  On
connecting, and after every change, the client is sent ``{"type": "view",
"table", "version", "seat" (null for a spectator), "view" (the game's
``view_to_dict`` of that seat's view, or of the public view), "legal" (the
actions' texts when it is that seat's turn, else []), "events" (what that
seat may know of every step since its last message, the whole game on the
first: ``{"version", "text", "parts"}``), "over", "returns" (when over),
"deadline" (the turn timer's end, in seconds since the epoch, or null)}``.
A client sends ``{"type": "act", "version": N, "action": TEXT}``, or
``{"type": "sync"}`` to be sent the full view and history again.  A refusal
changes nothing and is answered ``{"type": "error", "rule", "message"}``:
``rule`` is the game rule's id (``BA-31``; an action out of turn names the
turn's rule, such as ``BA-20``) or the server's reason: ``stale`` (the
version is not the table's), ``parse`` (not an action), ``spectator``,
``game-over``, ``bad-message`` (not a message of this protocol),
``illegal`` (refused for another reason) or ``server`` (the action could
not be stored).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardrules._validate import is_int
from cardrules.engine.registry import games, rules_for
from cardrules.engine.rules import Rules
from cardrules.errors import CardRulesError
from cardrules.i18n import language, normalize
from cardrules.server import web
from cardrules.server._live import Client, LiveTable, Refused, Shared
from cardrules.server._requests import (
    BadRequest,
    new_table,
    parse_json,
    read_json,
    spelled,
    wanted_seat,
)
from cardrules.server.store import Store, StoredTable, token_hash

__all__ = ["create_app"]

log = logging.getLogger("cardrules.server")

#: The WebSocket close code for a bad token or a refused spectator (policy violation).
POLICY_VIOLATION = 1008
#: The WebSocket close code when the server fails to build or send a message.
INTERNAL_ERROR = 1011
#: The WebSocket close code for a table that does not exist.
NO_SUCH_TABLE = 4404

#: The largest request body the lobby reads (its largest body is a few hundred bytes).
MAX_BODY = 16 * 1024

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

    def shutdown(self) -> None:
        self.db.shutdown(wait=True)
        self.thinkers.shutdown(wait=False, cancel_futures=True)


class _Server:
    """The application's state (``app.state.cardrules``): its options and,
    while it runs, the store, the live tables and the thread pools (made
    once per start, in :meth:`open`)."""

    def __init__(self, database: str, *, bot_delay: float, turn_timer: float | None,
                 think_threads: int) -> None:
        self.database = database
        self.bot_delay = bot_delay
        self.turn_timer = turn_timer
        self.think_threads = think_threads
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
        """Start: make the pools, open the store, replay every unfinished table."""
        running = self._running = _Running(self.think_threads)
        running.store = await self.call(Store, self.database)
        running.shared = Shared(running.store, running.db, running.thinkers,
                                bot_delay=self.bot_delay, turn_timer=self.turn_timer)
        for stored in await self.call(self.store.tables, finished=False):
            try:
                await self._load(stored)
            except (CardRulesError, ValueError, KeyError) as err:
                log.error("table %s cannot be replayed: %s", stored.id, err)
        for table in self.live.values():
            table.start_driver()

    async def close(self) -> None:
        """Stop every table, write what is queued, close the store and the pools."""
        running, self._running = self._running, None
        if running is None:
            return
        for table in list(running.live.values()):
            await table.stop()
        if running.shared is not None:
            await running.shared.writer.close()
        if running.store is not None:
            await asyncio.get_running_loop().run_in_executor(running.db, running.store.close)
        running.shutdown()

    async def _load(self, stored: StoredTable) -> LiveTable:
        rules = rules_for(stored.game)
        table = LiveTable(stored, rules, self.shared)
        table.replay(await self.call(self.store.actions, stored.id))
        hashes = await self.call(self.store.token_hashes, stored.id)
        table.tokens = {hashed: seat for seat, hashed in hashes.items()}
        self.live[stored.id] = table
        return table

    async def table(self, table_id: str) -> LiveTable | None:
        """A live table, loaded from the store when it is not in memory (a finished one)."""
        found = self.live.get(table_id)
        if found is not None:
            return found
        async with self.running.loading:
            found = self.live.get(table_id)
            if found is not None:
                return found
            stored = await self.call(self.store.table, table_id)
            if stored is None:
                return None
            table = await self._load(stored)
            table.start_driver()
            return table

    # -- the lobby ------------------------------------------------------------

    async def create(self, body: object) -> dict[str, object]:
        """Make the table ``body`` asks for (checked by :func:`new_table`)."""
        wanted = new_table(body)
        rules = wanted.rules
        seed = secrets.randbits(62) if wanted.seed is None else wanted.seed
        table_id = secrets.token_hex(6)
        tokens = {seat: secrets.token_urlsafe(24) for seat in wanted.humans}
        await self.call(self.store.create_table, table_id, rules.name,
                        dict(rules.settings_of(wanted.start)), seed, list(wanted.kinds),
                        {seat: token_hash(t) for seat, t in tokens.items()})
        stored = await self.call(self.store.table, table_id)
        assert stored is not None
        table = await self._load(stored)
        await table.run_chance()   # the first dealer and deal, before anyone connects
        table.start_driver()
        return {"id": table_id, "game": spelled(rules.name),
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
                return {"id": table_id, "seat": seat, "token": token}
        raise BadRequest("no free seat" if wanted is None else f"seat {wanted} is not free",
                         409)

    def describe(self, table: LiveTable) -> dict[str, object]:
        """A live table as the lobby lists it."""
        taken = set(table.tokens.values())
        return {
            "id": table.id, "game": spelled(table.rules.name), "title": table.rules.title,
            "settings": dict(table.rules.settings_of(table.start)),
            "seats": [{"seat": seat, "kind": kind,
                       "taken": kind != "human" or seat in taken}
                      for seat, kind in enumerate(table.kinds)],
            "version": table.version, "finished": table.over,
            "created": table.created,
        }

    async def listing(self, finished: bool) -> list[dict[str, object]]:
        """The unfinished tables (or the finished ones) as the lobby lists them."""
        if not finished:
            return [self.describe(t) for t in sorted(self.live.values(),
                                                     key=lambda t: (t.created, t.id))
                    if not t.over]
        # Described from the store: a finished table is not replayed to be listed.
        return [{"id": stored.id, "game": spelled(stored.game),
                 "title": rules_for(stored.game).title, "settings": stored.settings,
                 "seats": [{"seat": seat, "kind": kind, "taken": kind != "human" or taken}
                           for seat, (kind, taken) in enumerate(zip(stored.seats, stored.taken,
                                                                    strict=True))],
                 "version": stored.version, "finished": True, "created": stored.created}
                for stored in await self.call(self.store.tables, finished=True)]


def _games() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name in games():
        rules = rules_for(name)
        out.append({"game": spelled(rules.name), "title": rules.title,
                    "settings": dict(rules.default_settings), "players": _table_sizes(rules),
                    "bots": sorted(rules.bots), "default_bot": rules.default_bot,
                    "return_unit": rules.return_unit})
    return out


def _error(err: BadRequest) -> JSONResponse:
    return JSONResponse({"error": err.message}, status_code=err.status)


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
    try:
        body = await read_json(request, MAX_BODY)
        return JSONResponse(await _server(request).create(body), status_code=201)
    except BadRequest as err:
        return _error(err)


async def one_table(request: Request) -> JSONResponse:
    """``GET /api/tables/{id}``."""
    server = _server(request)
    table = await server.table(request.path_params["table_id"])
    if table is None:
        return _error(BadRequest("no such table", 404))
    return JSONResponse(server.describe(table))


async def join_table(request: Request) -> JSONResponse:
    """``POST /api/tables/{id}/join``."""
    try:
        body = await read_json(request, MAX_BODY)
        return JSONResponse(await _server(request).join(request.path_params["table_id"],
                                                        body))
    except BadRequest as err:
        return _error(err)


async def table_record(request: Request) -> JSONResponse:
    """``GET /api/tables/{id}/record``: the record once the game is over."""
    table = await _server(request).table(request.path_params["table_id"])
    if table is None:
        return _error(BadRequest("no such table", 404))
    if not table.over:
        return JSONResponse({"error": "the game is not over", "version": table.version},
                            status_code=409)
    return JSONResponse(table.record().to_dict())


async def play(websocket: WebSocket) -> None:
    """``WS /ws/tables/{id}``: play a seat (with its token) or watch."""
    await websocket.accept()
    table = await _server(websocket).table(websocket.path_params["table_id"])
    if table is None:
        await websocket.close(NO_SUCH_TABLE, "no such table")
        return
    token = websocket.query_params.get("token")
    seat: int | None = None
    if token is not None:
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
    client = Client(seat, websocket.send_text, close,
                    normalize(websocket.query_params.get("lang") or "en"))
    table.clients.add(client)
    client.notify()
    sender = asyncio.get_running_loop().create_task(table.serve(client))
    try:
        while True:
            text = await websocket.receive_text()
            with language(client.language):
                await _handle(table, client, text)
    except WebSocketDisconnect:
        pass
    finally:
        table.clients.discard(client)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


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


def create_app(database: str = "cardrules.sqlite", *, bot_delay: float = 0.5,
               turn_timer: float | None = None, think_threads: int = 2) -> Starlette:
    """The game server as an ASGI application (Starlette).

    ``database`` is a path (a SQLite file, made when missing) or an SQLAlchemy
    URL.  Bots wait ``bot_delay`` seconds before each move (0
    for tests and load runs); with ``turn_timer`` a human seat that has not
    acted within that many seconds has the game's default bot move for it.
    Bots think on ``think_threads`` worker threads, off the event loop.  The
    database is opened, and every unfinished table replayed from it, when
    the application starts (its lifespan); serve it with any ASGI server,
    for example ``uvicorn.run(create_app(), port=8000)``.

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
    app = Starlette(routes=[*ROUTES, *web.routes()], lifespan=_lifespan)
    app.state.cardrules = _Server(database, bot_delay=float(bot_delay),
                                  turn_timer=None if turn_timer is None else float(turn_timer),
                                  think_threads=think_threads)
    return app


async def _handle(table: LiveTable, client: Client, text: str) -> None:
    """One message from a client: ``act`` or ``sync``; anything else is refused."""
    try:
        message = parse_json(text)
    except ValueError:
        client.error("bad-message", "a message is a JSON object")
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
