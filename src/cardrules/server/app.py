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
import json
import logging
import secrets
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
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
from cardrules.server.cluster import Cluster
from cardrules.server.store import Store, StoredTable, token_hash

__all__ = ["create_app"]

log = logging.getLogger("cardrules.server")

#: The WebSocket close code for a bad token or a refused spectator (policy violation).
POLICY_VIOLATION = 1008
#: The WebSocket close code when the server fails to build or send a message.
INTERNAL_ERROR = 1011
#: The WebSocket close code for a table that does not exist.
NO_SUCH_TABLE = 4404


class _BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _spelled(name: str) -> str:
    return name.replace("_", "-")


def _rules(name: object) -> Rules[Any, Any]:
    if not isinstance(name, str):
        raise _BadRequest("'game' must name a game")
    key = name.lower().replace("-", "_") if name.isascii() else name
    try:
        return rules_for(key)
    except CardRulesError:
        known = ", ".join(_spelled(g) for g in games())
        raise _BadRequest(f"unknown game {name!r} (known: {known})") from None


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


class _Server:
    """What the application holds: the store, the live tables, the executors."""

    def __init__(self, database: str, *, bot_delay: float, turn_timer: float | None,
                 think_threads: int, lease_seconds: float = 3.0) -> None:
        self.database = database
        self.lease_seconds = lease_seconds
        #: On a shared store (PostgreSQL): this process's leases and notifications.
        self.cluster: Cluster | None = None
        self._dirty: dict[str, int] = {}
        self._tokens_due: set[str] = set()
        self._catching: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self.bot_delay = bot_delay
        self.turn_timer = turn_timer
        self.think_threads = think_threads
        self.store: Store | None = None
        self.shared: Shared | None = None
        self.live: dict[str, LiveTable] = {}
        self.db = ThreadPoolExecutor(1, thread_name_prefix="cardrules-db")
        self.thinkers = ThreadPoolExecutor(think_threads, thread_name_prefix="cardrules-bot")
        self.loading = asyncio.Lock()

    async def call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store method on the database thread."""
        return await asyncio.get_running_loop().run_in_executor(
            self.db, functools.partial(function, *args, **kwargs))

    async def open(self) -> None:
        # Made here, not in __init__: an application may be started again after a stop.
        self.live = {}
        self.db = ThreadPoolExecutor(1, thread_name_prefix="cardrules-db")
        self.thinkers = ThreadPoolExecutor(self.think_threads,
                                           thread_name_prefix="cardrules-bot")
        self.loading = asyncio.Lock()
        self.store = await self.call(Store, self.database)
        self.shared = Shared(self.store, self.db, self.thinkers, bot_delay=self.bot_delay,
                             turn_timer=self.turn_timer)
        self._dirty = {}
        self._tokens_due = set()
        self._catching = None
        self._background = set()
        if self.store.shared:
            # Tables are loaded when this process takes their lease, or when
            # a client asks for them; what the others store is heard of.
            self.cluster = Cluster(self.store, self.db, ttl=self.lease_seconds,
                                   renew=self.lease_seconds / 3)
            await self.cluster.start(self._on_leases, self._on_message, self._on_resync)
            return
        for stored in await self.call(self.store.tables, finished=False):
            try:
                await self._load(stored)
            except (CardRulesError, ValueError, KeyError) as err:
                log.error("table %s cannot be replayed: %s", stored.id, err)
        for table in self.live.values():
            table.start_driver()

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        for table in list(self.live.values()):
            await table.stop()
        if self.shared is not None:
            await self.shared.writer.close()
        if self.cluster is not None:
            await self.cluster.stop()
            self.cluster = None
        if self.store is not None:
            await self.call(self.store.close)
        self.db.shutdown(wait=True)
        self.thinkers.shutdown(wait=False, cancel_futures=True)

    async def _load(self, stored: StoredTable) -> LiveTable:
        assert self.store is not None
        assert self.shared is not None
        rules = rules_for(stored.game)
        table = LiveTable(stored, rules, self.shared)
        table.replay(await self.call(self.store.actions, stored.id))
        hashes = await self.call(self.store.token_hashes, stored.id)
        table.tokens = {hashed: seat for seat, hashed in hashes.items()}
        self.live[stored.id] = table
        if self.cluster is not None:
            # A notification that came while it was read found no table: read again.
            await table.catch_up()
        return table

    # -- several processes (a shared store) -----------------------------------------

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _on_leases(self, gained: Any, lost: Any) -> None:
        self._spawn(self._lease_change(list(gained), list(lost)))

    async def _lease_change(self, gained: list[str], lost: list[str]) -> None:
        for table_id in lost:
            table = self.live.get(table_id)
            if table is not None:
                table.may_drive = False
                await table.stop()
        for table_id in gained:
            if self.cluster is None or table_id not in self.cluster.held:
                continue
            try:
                table = await self.table(table_id)
                if table is None:
                    continue
                await table.catch_up()
            except (CardRulesError, ValueError, KeyError) as err:
                log.error("table %s cannot be replayed: %s", table_id, err)
                continue
            if self.cluster is not None and table_id in self.cluster.held:
                table.may_drive = True
                table.start_driver()

    def _on_message(self, lines: Any) -> None:
        """What another process (or this one) stored: see :mod:`cardrules.server.cluster`."""
        for line in lines:
            kind, _, rest = str(line).partition(" ")
            table_id, _, version = rest.partition(" ")
            table = self.live.get(table_id)
            if table is None:
                continue
            if kind == "a":
                wanted = int(version) if version.isdigit() else 0
                if wanted <= table.version:
                    continue
                if table.clients or table.may_drive:
                    self._catch_up(table_id, wanted)
                elif table.task is None:
                    # Nobody here watches it: forget it, to be read afresh when asked.
                    del self.live[table_id]
            elif kind == "s":
                self._catch_up(table_id, 0, tokens=True)
            elif kind == "d":
                at, _, deadline = version.partition(" ")
                with contextlib.suppress(ValueError):
                    table.heard_deadline(int(at), float(deadline))

    def _on_resync(self) -> None:
        for table_id in list(self.live):
            self._catch_up(table_id, 0, tokens=True)
            self._catch_up(table_id, 0)

    def _catch_up(self, table_id: str, wanted: int, *, tokens: bool = False) -> None:
        """Bring a table up to (at least) version ``wanted`` (0: whatever is
        stored), with ``tokens`` its tokens too, one table after another on
        one task."""
        if tokens:
            self._tokens_due.add(table_id)
        else:
            self._dirty[table_id] = max(self._dirty.get(table_id, wanted), wanted)
        if self._catching is None or self._catching.done():
            self._catching = asyncio.get_running_loop().create_task(self._catch_up_all())

    async def _catch_up_all(self) -> None:
        while self._dirty or self._tokens_due:
            if self._tokens_due:
                table_id, wanted = self._tokens_due.pop(), -1
            else:
                table_id, wanted = self._dirty.popitem()
            table = self.live.get(table_id)
            if table is None:
                continue
            try:
                if wanted < 0:
                    await self.refresh_tokens(table)
                elif wanted == 0 or wanted > table.version:
                    await table.catch_up()
            except Exception:   # logged; the next notification tries again
                log.exception("table %s: could not read what another process stored",
                              table_id)

    async def refresh_tokens(self, table: LiveTable) -> None:
        """Read a table's token hashes again (a seat taken through another process)."""
        assert self.store is not None
        hashes = await self.call(self.store.token_hashes, table.id)
        table.tokens = {hashed: seat for seat, hashed in hashes.items()}

    async def table(self, table_id: str) -> LiveTable | None:
        """A live table, loaded from the store when it is not in memory (a finished one)."""
        found = self.live.get(table_id)
        if found is not None:
            return found
        assert self.store is not None
        async with self.loading:
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
        assert self.store is not None
        if not isinstance(body, Mapping):
            raise _BadRequest("the body must be a JSON object")
        unknown = set(body) - {"game", "settings", "seats", "seed"}
        if unknown:
            raise _BadRequest(f"unknown field {sorted(unknown)[0]!r} "
                              "(known: game, settings, seats, seed)")
        rules = _rules(body.get("game"))
        settings = body.get("settings", {})
        if not isinstance(settings, Mapping):
            raise _BadRequest("'settings' must be a JSON object")
        settings = dict(settings)
        seats = body.get("seats")
        if seats is not None and (not isinstance(seats, list)
                                  or not all(isinstance(s, str) for s in seats)):
            raise _BadRequest("'seats' must be a list of seat kinds "
                              "(\"human\", \"open\" or \"bot:NAME\")")
        if seats is not None and "num_players" in rules.default_settings \
                and "num_players" not in settings:
            settings["num_players"] = len(seats)
        try:
            start = rules.new_game_from_settings(settings)
        except (CardRulesError, ValueError, TypeError) as err:
            raise _BadRequest(str(err)) from None
        if seats is None:
            seats = ["human"] + [f"bot:{rules.default_bot}"] * (start.num_players - 1)
        if len(seats) != start.num_players:
            raise _BadRequest(f"{rules.title} is played by {start.num_players} here: "
                              f"'seats' lists {len(seats)}")
        kinds = []
        for kind in seats:
            if kind in ("human", "open"):
                kinds.append("human")
            elif kind.startswith("bot:") and kind[4:] in rules.bots:
                kinds.append(kind)
            else:
                bots = ", ".join(f"bot:{name}" for name in rules.bots)
                raise _BadRequest(f"unknown seat kind {kind!r} (known: human, open, {bots})")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        elif not is_int(seed) or not 0 <= seed < 2 ** 62:
            raise _BadRequest("'seed' must be a whole number from 0 to 2**62 - 1")
        table_id = secrets.token_hex(6)
        tokens = {seat: secrets.token_urlsafe(24) for seat, kind in enumerate(seats)
                  if kind == "human"}
        stored_settings = dict(rules.settings_of(start))
        await self.call(self.store.create_table, table_id, rules.name, stored_settings, seed,
                        kinds, {seat: token_hash(t) for seat, t in tokens.items()})
        stored = await self.call(self.store.table, table_id)
        table = await self._load(stored)
        await table.run_chance()   # the first dealer and deal, before anyone connects
        if self.cluster is not None:
            await self.cluster.take(table_id)   # its bots run here (unless another took it)
        table.start_driver()
        return {"id": table_id, "game": _spelled(rules.name),
                "seats": [{"seat": seat, "token": token} for seat, token in tokens.items()]}

    async def join(self, table_id: str, body: object) -> dict[str, object]:
        assert self.store is not None
        table = await self.table(table_id)
        if table is None:
            raise _BadRequest(f"no table {table_id!r}", 404)
        wanted = body.get("seat") if isinstance(body, Mapping) else None
        if wanted is not None and (not is_int(wanted) or not 0 <= wanted < len(table.kinds)):
            raise _BadRequest(f"'seat' must be a seat of this table (0 to "
                              f"{len(table.kinds) - 1})")
        if table.over:
            raise _BadRequest("the game is over", 409)
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
        raise _BadRequest("no free seat" if wanted is None else f"seat {wanted} is not free",
                          409)

    def describe(self, table: LiveTable) -> dict[str, object]:
        taken = set(table.tokens.values())
        return {
            "id": table.id, "game": _spelled(table.rules.name), "title": table.rules.title,
            "settings": dict(table.rules.settings_of(table.start)),
            "seats": [{"seat": seat, "kind": kind,
                       "taken": kind != "human" or seat in taken}
                      for seat, kind in enumerate(table.kinds)],
            "version": table.version, "finished": table.over,
            "created": table.created,
        }

    async def listing(self, finished: bool) -> list[dict[str, object]]:
        assert self.store is not None
        if not finished and self.cluster is None:
            return [self.describe(t) for t in sorted(self.live.values(),
                                                     key=lambda t: (t.created, t.id))
                    if not t.over]
        # Described from the store: a finished table is not replayed to be listed.
        return [{"id": stored.id, "game": _spelled(stored.game),
                 "title": rules_for(stored.game).title, "settings": stored.settings,
                 "seats": [{"seat": seat, "kind": kind, "taken": kind != "human" or taken}
                           for seat, (kind, taken) in enumerate(zip(stored.seats, stored.taken,
                                                                    strict=True))],
                 "version": stored.version, "finished": finished, "created": stored.created}
                for stored in await self.call(self.store.tables, finished=finished)]


def _games() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name in games():
        rules = rules_for(name)
        out.append({"game": _spelled(rules.name), "title": rules.title,
                    "settings": dict(rules.default_settings), "players": _table_sizes(rules),
                    "bots": sorted(rules.bots), "default_bot": rules.default_bot,
                    "return_unit": rules.return_unit})
    return out


async def _body(request: Request) -> object:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        raise _BadRequest("the body is not JSON") from None


def _error(err: _BadRequest) -> JSONResponse:
    return JSONResponse({"error": str(err)}, status_code=err.status)


def create_app(database: str = "cardrules.sqlite", *, bot_delay: float = 0.5,
               turn_timer: float | None = None, think_threads: int = 2,
               lease_seconds: float = 3.0) -> Starlette:
    """The game server as an ASGI application (Starlette).

    ``database`` is a path (a SQLite file, made when missing) or an
    SQLAlchemy URL.  Bots wait ``bot_delay`` seconds before each move (0
    for tests and load runs); with ``turn_timer`` a human seat that has not
    acted within that many seconds has the game's default bot move for it.
    Bots think on ``think_threads`` worker threads, off the event loop.  The
    database is opened, and every unfinished table replayed from it, when
    the application starts (its lifespan); serve it with any ASGI server,
    for example ``uvicorn.run(create_app(), port=8000)``.

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
    if not isinstance(lease_seconds, int | float) or not 0.3 <= lease_seconds <= 600:
        raise ValueError(f"lease_seconds must be from 0.3 to 600, not {lease_seconds!r}")
    server = _Server(database, bot_delay=float(bot_delay),
                     turn_timer=None if turn_timer is None else float(turn_timer),
                     think_threads=think_threads, lease_seconds=float(lease_seconds))

    async def list_games(request: Request) -> JSONResponse:
        return JSONResponse({"games": _games()})

    async def list_tables(request: Request) -> JSONResponse:
        finished = request.query_params.get("finished", "") in ("1", "true", "yes")
        return JSONResponse({"tables": await server.listing(finished)})

    async def create_table(request: Request) -> JSONResponse:
        try:
            return JSONResponse(await server.create(await _body(request)), status_code=201)
        except _BadRequest as err:
            return _error(err)

    async def one_table(request: Request) -> JSONResponse:
        table = await server.table(request.path_params["table_id"])
        if table is None:
            return _error(_BadRequest("no such table", 404))
        return JSONResponse(server.describe(table))

    async def join_table(request: Request) -> JSONResponse:
        try:
            return JSONResponse(await server.join(request.path_params["table_id"],
                                                  await _body(request)))
        except _BadRequest as err:
            return _error(err)

    async def table_record(request: Request) -> JSONResponse:
        table = await server.table(request.path_params["table_id"])
        if table is None:
            return _error(_BadRequest("no such table", 404))
        if not table.over:
            return JSONResponse({"error": "the game is not over", "version": table.version},
                                status_code=409)
        return JSONResponse(table.record().to_dict())

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        table = await server.table(websocket.path_params["table_id"])
        if table is None:
            await websocket.close(NO_SUCH_TABLE, "no such table")
            return
        token = websocket.query_params.get("token")
        seat: int | None = None
        if token is not None:
            seat = table.tokens.get(token_hash(token))
            if seat is None and server.cluster is not None:
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
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.open()
        try:
            yield
        finally:
            await server.close()

    routes: list[BaseRoute] = [
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", one_table, methods=["GET"]),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
        WebSocketRoute("/ws/tables/{table_id}", play),
        *web.routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.cardrules = server
    return app


async def _handle(table: LiveTable, client: Client, text: str) -> None:
    """One message from a client: ``act`` or ``sync``; anything else is refused."""
    try:
        message = json.loads(text)
    except ValueError:
        client.error("bad-message", "a message is a JSON object")
        return
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "sync":
        client.sent_version = None
        client.notify()
        return
    if kind != "act":
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
