"""The tables being played: state in memory, one lock each, bots, timers and clients.

A :class:`LiveTable` holds the current state of one table, rebuilt from the
store by replaying its actions.  Every change goes through :meth:`LiveTable.act`
(a player, a bot or the turn timer) under the table's lock: the action is
checked by the rules, the chance actions that follow it are sampled, all of
them are written to the store in one transaction, and only then is the state
in memory replaced and every client told.

The tables of one server share a :class:`Shared`: the store, its one
database thread and a :class:`GroupWriter` on it (every batch of actions
waiting to be written, from any table, goes into one transaction, and each
is acknowledged only once that transaction is committed), the bots' thread
pool, and the bots' slots: a semaphore that lets only a few bot moves be
under way at once, so that a person's move never waits behind every bot of
the server at the database and the senders.

What a client is sent is built in :meth:`LiveTable.message_for` from its
seat's view (a spectator's from the public view) and the events its seat may
know: never from the state itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import string
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any, TypeAlias

import attrs

from cardrules.engine.bots import is_quick
from cardrules.engine.events import Event, Told
from cardrules.engine.json_out import attributes_to_json
from cardrules.engine.presenter import second_person, tell
from cardrules.engine.records import GameRecord
from cardrules.engine.rules import Rules
from cardrules.errors import CardRulesError, IllegalActionError
from cardrules.i18n import language, pgettext
from cardrules.server.store import Store, StoredTable

__all__: list[str] = []

log = logging.getLogger("cardrules.server")


#: One table's batch for the store: (table id, version before it, the rows
#: (seat, action JSON, who made it), whether the game is over after it).
Batch: TypeAlias = tuple[str, int, list[tuple[int | None, dict[str, Any], str]], bool]


class Conflict(Exception):
    """A batch not stored: another process wrote its table at that version first."""


class GroupWriter:
    """The one writer of accepted actions (group commit).

    :meth:`write` queues a batch and waits; the writer task takes every
    batch waiting, writes them all in one transaction on the database
    thread (:meth:`Store.append_many
    <cardrules.server.store.Store.append_many>`), and only after the commit
    resolves each batch's future.  When the transaction fails, every batch
    in it fails with the same error (nothing of it was written).  On a
    shared store (PostgreSQL) each table's version is checked in the
    transaction: a batch another process got in before fails alone, with
    :class:`Conflict`, and the others are stored."""

    def __init__(self, store: Store, db: Executor) -> None:
        self.store = store
        self.db = db
        self.queue: asyncio.Queue[tuple[Batch, asyncio.Future[None]] | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        #: How many transactions were committed, and how many batches they held.
        self.commits = 0
        self.batches = 0

    def write(self, batch: Batch) -> asyncio.Future[None]:
        """Queue ``batch``: the future is resolved once it is committed."""
        loop = asyncio.get_running_loop()
        if self.task is None:
            self.task = loop.create_task(self._run())
        done: asyncio.Future[None] = loop.create_future()
        self.queue.put_nowait((batch, done))
        return done

    async def close(self) -> None:
        """Write what is queued, then stop the writer task."""
        if self.task is not None:
            self.queue.put_nowait(None)
            await self.task
            self.task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        closing = False
        while not closing:
            item = await self.queue.get()
            group: list[tuple[Batch, asyncio.Future[None]]] = []
            while True:
                if item is None:
                    closing = True
                else:
                    group.append(item)
                if self.queue.empty():
                    break
                item = self.queue.get_nowait()
            if not group:
                continue
            batches = [batch for batch, _ in group]
            conflicts: list[int] = []
            try:
                if self.store.shared:
                    conflicts = await loop.run_in_executor(self.db, self.store.append_checked,
                                                           batches)
                else:
                    await loop.run_in_executor(self.db, self.store.append_many, batches)
            except Exception as err:   # every batch of the transaction fails with it
                for _, done in group:
                    if not done.done():
                        done.set_exception(err)
            else:
                self.commits += 1
                self.batches += len(group) - len(conflicts)
                refused = set(conflicts)
                for index, (_, done) in enumerate(group):
                    if done.done():
                        continue
                    if index in refused:
                        done.set_exception(Conflict(batches[index][0]))
                    else:
                        done.set_result(None)


class Shared:
    """What every live table of one server shares: the store and its
    database thread, the group writer, the bots' thread pool and slots, the
    bot delay and the turn timer."""

    def __init__(self, store: Store, db: Executor, thinkers: Executor, *, bot_delay: float,
                 turn_timer: float | None, bot_slots: int = 8, queue: int = 32,
                 send_timeout: float = 10.0, bots_play_unwatched: bool = False) -> None:
        self.store = store
        self.db = db
        self.thinkers = thinkers
        self.writer = GroupWriter(store, db)
        #: How many bot moves may be under way at once, over every table.
        self.bot_slots = asyncio.Semaphore(bot_slots)
        self.bot_delay = bot_delay
        self.turn_timer = turn_timer
        #: How many messages may wait for one client before it is cut off.
        self.queue = queue
        #: Seconds one message may take to be sent before its client is cut off.
        self.send_timeout = send_timeout
        #: Whether a table of bots alone plays while nobody watches it.
        self.bots_play_unwatched = bots_play_unwatched
        #: Seconds between a failed turn and the next try (the driver stops
        #: after :data:`MAX_FAILURES` in a row).
        self.retry_delay = 1.0


#: How many failed turns in a row stop a table's driver.
MAX_FAILURES = 5


class Refused(Exception):
    """An action refused: ``rule`` is the rule id (``DB-35``, ``BA-31``) or the
    server's reason (``stale``, ``parse``, ...)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


@attrs.define
class Step:
    """One applied action, kept for the events clients are sent."""

    seat: int | None
    events: tuple[Event, ...]


class Client:
    """One WebSocket client: its seat (None: a spectator), what it was last
    sent, and its outbox, drained by one sender task so that a slow client
    holds up nobody else.  The outbox holds at most ``queue`` messages: a
    client that lets more pile up is marked :attr:`overflowed` (and cut off)."""

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 close: Callable[[], Awaitable[None]], language: str = "en",
                 queue: int = 32) -> None:
        self.seat = seat
        #: The language of this client's texts (events and refusals): each
        #: client may have its own, at the same table at the same time.
        self.language = language
        self.send = send
        self.close = close
        self.sent_version: int | None = None   # None: nothing sent yet (full history next)
        self.outbox: asyncio.Queue[dict[str, object] | None] = asyncio.Queue(queue)
        self.view_due = False
        #: Set when the outbox was full: the client reads too little, and is cut off.
        self.overflowed = asyncio.Event()

    def _put(self, item: dict[str, object] | None) -> bool:
        try:
            self.outbox.put_nowait(item)
        except asyncio.QueueFull:
            self.overflowed.set()
            return False
        return True

    def notify(self) -> None:
        """A new view is due (one queued at most: the sender builds the latest)."""
        if not self.view_due:
            self.view_due = self._put(None)

    def error(self, rule: str, message: str) -> None:
        """Queue an error message for this client."""
        self._put({"type": "error", "rule": rule, "message": message})


def _texts(parts: Sequence[object]) -> list[object]:
    """An event's parts for a client: words as texts, numbers as numbers, and a
    sentence (:class:`~cardrules.engine.events.Told`) in its words and values,
    a seat as ``"seat", N`` (joined with spaces, they read as the English text)."""
    out: list[object] = []
    for part in parts:
        if isinstance(part, Told):
            out += _told(part)
        elif isinstance(part, int) and not isinstance(part, bool):
            out.append(part)
        else:
            out.append(str(part))
    return out


@functools.lru_cache(maxsize=1024)
def _template(template: str) -> tuple[tuple[str, str | None], ...]:
    """A message's words and fields, in order (parsed once per message)."""
    return tuple((literal.strip(), field)
                 for literal, field, _, _ in string.Formatter().parse(template))


def _told(sentence: Told) -> list[object]:
    values = sentence.values()
    out: list[object] = []
    for words, field in _template(sentence.template()):
        if words:
            out.append(words)
        if field is None:
            continue
        value = values.get(field)
        if (field == "seat" or field.endswith("_seat")) and isinstance(value, int):
            out += ["seat", value]
        elif isinstance(value, Told):
            out += _told(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append(value)
        elif type(value) is tuple:
            out.append(", ".join(map(str, value)))
        else:
            out.append(str(value))
    return out


class DamagedTable(Exception):
    """A stored table that cannot be replayed: its id, the version (the
    number of the action) at which the replay failed, and why."""

    def __init__(self, table_id: str, version: int, reason: str) -> None:
        super().__init__(f"table {table_id} is damaged at version {version}: {reason}")
        self.table_id = table_id
        self.version = version
        self.reason = reason


class LiveTable:
    """One table being played (see the module)."""

    def __init__(self, stored: StoredTable, rules: Rules[Any, Any], shared: Shared) -> None:
        self.id = stored.id
        self.rules = rules
        self.shared = shared
        self.seed = stored.seed
        self.kinds = stored.seats
        self.bot_delay = shared.bot_delay
        self.turn_timer = shared.turn_timer
        self.start = rules.new_game_from_settings(stored.settings)
        self.state = self.start
        self.entries: list[object] = []      # what the record keeps
        self.steps: list[Step] = []          # steps[v - 1]: the step to version v
        self.tokens: dict[str, int] = {}     # token hash -> seat
        self.clients: set[Client] = set()
        self.watched = asyncio.Event()       # set while a client is connected
        self.watched_remotely = False        # a client at another process watched it
        self.heard = 0                       # the newest version another process announced
        #: A table of bots alone: it waits for a spectator unless told otherwise.
        self.bots_only = all(kind.startswith("bot:") for kind in self.kinds)
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.deadline: float | None = None   # when the human to act runs out of time
        self.task: asyncio.Task[None] | None = None
        self.bots: dict[int, Any] = {}
        for seat, kind in enumerate(self.kinds):
            if kind.startswith("bot:"):
                self.bots[seat] = rules.bots[kind[4:]](self.seed + seat)
        self.stand_in: dict[int, Any] = {}  # the turn timer's default bots, made when needed
        self.created = stored.created
        #: Whether the table's creator chose its seed (and may know every hand).
        self.chosen_seed = stored.chosen_seed
        #: Whether this process runs the table's bots and timer: always with
        #: one process; on a shared store only while it holds the lease.
        self.may_drive = not shared.store.shared

    # -- the state ----------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of actions applied."""
        return len(self.steps)

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal)

    def replay(self, stored: Sequence[Any]) -> None:
        """Rebuild the state from the stored actions (at start-up), or bring
        it up to date with the ones stored since (those after its version);
        raises :class:`DamagedTable` naming the first action that cannot be
        replayed."""
        for item in stored:
            if item.version <= self.version:
                continue
            try:
                if item.version != self.version + 1:
                    raise ValueError(f"the action stored as version {item.version} "
                                     "is out of order")
                action = self.rules.action_from_dict(item.action)
                after = self.rules.apply(self.state, action, seat=item.seat)
            except (CardRulesError, ValueError, TypeError, KeyError) as err:
                raise DamagedTable(self.id, self.version + 1,
                                   f"{type(err).__name__}: {err}"[:300]) from None
            self._keep([(item.seat, action, after)])

    def add_client(self, client: Client) -> None:
        """A client connects: it is told of every change, and the table is watched."""
        self.clients.add(client)
        self.watched.set()

    def remove_client(self, client: Client) -> None:
        """A client leaves (the last one: the table is no longer watched)."""
        self.clients.discard(client)
        if not self.clients and not self.watched_remotely:
            self.watched.clear()

    def watched_elsewhere(self) -> None:
        """A client watches this table through another process (a shared
        store): its bots play on, to the end of the game."""
        self.watched_remotely = True
        self.watched.set()

    def _keep(self, applied: Sequence[tuple[int | None, object, Any]]) -> None:
        """Make the applied actions (seat, action, the state after it) the
        table's, from the current state (each action applied once only)."""
        rules = self.rules
        before = self.state
        for seat, action, after in applied:
            self.entries.append(rules.entry(before, action, seat))
            self.steps.append(Step(seat, tuple(rules.events(before, action, after))))
            before = after
        self.state = before

    def chance_rng(self, version: int) -> random.Random:
        """The generator the chance action after ``version`` is drawn from: one
        per table and version, so a restarted server draws the same."""
        return random.Random(f"{self.seed}/{version}")

    def record(self) -> GameRecord:
        return self.rules.record(self.start, self.entries)

    # -- changes ------------------------------------------------------------------

    async def catch_up(self) -> bool:
        """Apply what other processes stored since this table's version (a
        shared store), then tell this process's clients; True when anything
        was new."""
        async with self.lock:
            newer = await self._catch_up_locked()
        if newer:
            self._changed()
        return newer

    async def _catch_up_locked(self) -> bool:
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(self.shared.db, self.shared.store.actions,
                                            self.id, self.version)
        return self._take_stored(stored)

    def _take_stored(self, stored: Sequence[Any]) -> bool:
        before = self.version
        self.replay(stored)
        if self.version > before and self.task is None:
            self.deadline = None   # another process's turn timer: that turn is over
        return self.version > before

    async def take_stored(self, stored: Sequence[Any]) -> bool:
        """Apply actions read from the store (those after this table's
        version; the others are skipped), then tell this process's clients."""
        async with self.lock:
            newer = self._take_stored(stored)
        if newer:
            self._changed()
        return newer

    def heard_deadline(self, version: int, deadline: float) -> None:
        """The process running this table's timer set the turn at ``version``
        to end at ``deadline``: tell this process's clients of that seat."""
        if version != self.version or self.task is not None or self.over:
            return
        self.deadline = deadline
        seat = self.state.current_player
        for client in list(self.clients):
            if client.seat == seat:
                client.notify()

    async def act(self, seat: int, text_or_action: object, version: int | None,
                  made_by: str) -> None:
        """Apply an action of ``seat`` (text from a client, or an action from a
        bot or the timer), store it with the chance actions that follow, then
        tell everyone.  Raises :class:`Refused` and changes nothing when the
        action is refused.  On a shared store, a version newer than this
        process knows is first looked up, and an action another process
        stored first at that version is refused as ``stale``."""
        try:
            await self._act(seat, text_or_action, version, made_by)
        except Conflict:
            async with self.lock:
                await self._catch_up_locked()
            self._changed()
            raise Refused("stale", "another move was made first at this version") from None

    async def _act(self, seat: int, text_or_action: object, version: int | None,
                   made_by: str) -> None:
        async with self.lock:
            if version is not None and version > self.version and self.shared.store.shared \
                    and await self._catch_up_locked():
                self.changed.set()
                for client in list(self.clients):
                    client.notify()
            if self.over:
                raise Refused("game-over", pgettext("web", "the game is over"))
            if version is not None and version != self.version:
                raise Refused("stale", pgettext(
                    "web", "the table is at version {now}, not {sent}").format(
                        now=self.version, sent=version))
            state = self.state
            if isinstance(text_or_action, str):
                try:
                    action = self.rules.parse_action(text_or_action)
                except (CardRulesError, ValueError) as err:
                    raise Refused("parse", pgettext("web", "not an action: {reason}").format(
                        reason=err)) from None
            else:
                action = text_or_action
            if state.is_chance:
                raise Refused("illegal", pgettext("web", "a chance action is due"))
            if seat == state.current_player:
                if action not in self.rules.legal_actions(state):
                    self._explain(state, action, seat)
            else:
                # Another seat may act out of turn only where the rules say so
                # (Down and Back's splits, DB-40).
                self._explain(state, action, seat)
            after = self.rules.apply(state, action, seat=seat)
            applied: list[tuple[int | None, object, Any]] = [(seat, action, after)]
            made = [made_by]
            self._chances(applied, made)
            await self._store(applied, made)
        self._changed()

    def _chances(self, applied: list[tuple[int | None, object, Any]],
                 made: list[str]) -> None:
        """Sample and apply the chance actions due after ``applied``."""
        after = applied[-1][2] if applied else self.state
        while after.is_chance:
            chance = self.rules.sample_chance(after, self.chance_rng(self.version
                                                                     + len(applied)))
            after = self.rules.apply(after, chance)
            applied.append((None, chance, after))
            made.append("chance")

    def _explain(self, state: object, action: object, seat: int) -> None:
        """Raise :class:`Refused` for an action the rules refuse (or one no
        player makes, such as a chance action)."""
        try:
            self.rules.apply(state, action, seat=seat)
        except IllegalActionError as err:   # in the language of the client who sent it
            raise Refused(err.rule, second_person(str(err.text), seat)) from None
        except (CardRulesError, ValueError, TypeError) as err:
            raise Refused("illegal", str(err)) from None

    async def run_chance(self) -> None:
        """Sample and store the chance actions due now (a new table's first ones)."""
        async with self.lock:
            applied: list[tuple[int | None, object, Any]] = []
            made: list[str] = []
            self._chances(applied, made)
            if applied:
                try:
                    await self._store(applied, made)
                except Conflict:   # another process stored them first: the same ones
                    await self._catch_up_locked()
        self._changed()

    async def _store(self, applied: Sequence[tuple[int | None, object, Any]],
                     made: Sequence[str]) -> None:
        """Have the group writer store ``applied`` (under the table's lock), and
        make it the table's state once it is committed, not before."""
        rows = [(seat, dict(self.rules.action_to_dict(action)), made_by)
                for (seat, action, _), made_by in zip(applied, made, strict=True)]
        finished = bool(applied[-1][2].is_terminal)
        done = self.shared.writer.write((self.id, self.version, rows, finished))
        try:
            await asyncio.shield(done)
        except asyncio.CancelledError:
            # Cancelled while the batch is being written: keep the memory as
            # the store will have it, then let the cancellation through.
            await asyncio.wait([done])
            if not done.cancelled() and done.exception() is None:
                self._keep(applied)
            raise
        self._keep(applied)

    def _changed(self) -> None:
        self.changed.set()
        for client in list(self.clients):
            client.notify()

    # -- what clients are sent ----------------------------------------------------

    def message_for(self, client: Client) -> dict[str, object]:
        """The view message for ``client``, built from its seat's view only,
        with the events' texts in the client's language."""
        with language(client.language):
            return self._message_for(client)

    def _message_for(self, client: Client) -> dict[str, object]:
        rules, state, seat = self.rules, self.state, client.seat
        encode = rules.view_to_dict or attributes_to_json
        if seat is None:
            assert rules.public_view is not None
            view = encode(rules.public_view(state))
        else:
            view = encode(rules.view(state, seat))
        legal: list[str] = []
        if seat is not None and not state.is_terminal and seat == state.current_player:
            legal = [str(action) for action in rules.legal_actions(state)]
        since = 0 if client.sent_version is None else client.sent_version
        # Told to the viewer: "you", and in Back Alley "your partner" (BA-1).
        viewer = -1 if seat is None else seat
        names = ({(seat + 2) % 4: pgettext("web", "your partner")}
                 if seat is not None and rules.name == "back_alley" else None)
        events: list[dict[str, object]] = []
        for version in range(since + 1, self.version + 1):
            step = self.steps[version - 1]
            for event in step.events:
                parts = event.public if seat is None else event.seen_by(seat)
                if parts is not None:
                    text = tell(parts, viewer, names)
                    events.append({"version": version, "text": text, "parts": _texts(parts)})
        message: dict[str, object] = {
            "type": "view", "table": self.id, "version": self.version, "seat": seat,
            "view": view, "legal": legal, "events": events, "over": self.over,
            "returns": list(rules.returns(state)) if self.over else None,
            "deadline": self.deadline if seat is not None and seat == state.current_player
            else None,
            "chosen_seed": self.chosen_seed,
        }
        client.sent_version = self.version
        return message

    async def serve(self, client: Client) -> None:
        """The sender task of one client: drain its outbox in order.  A client
        that takes longer than the send timeout over one message is cut off."""
        try:
            while True:
                item = await client.outbox.get()
                if item is None:
                    client.view_due = False
                    item = self.message_for(client)
                text = json.dumps(item)
                try:
                    # asyncio.timeout, not wait_for: wait_for may swallow a
                    # cancellation that comes as the send completes (3.11).
                    async with asyncio.timeout(self.shared.send_timeout):
                        await client.send(text)
                except TimeoutError:
                    log.warning("table %s: a client read nothing for %g s: cut off",
                                self.id, self.shared.send_timeout)
                    client.overflowed.set()
                    return
                except Exception as err:   # the client is gone
                    log.warning("table %s: a client is gone (%s)", self.id,
                                type(err).__name__)
                    return
        except asyncio.CancelledError:
            raise
        except Exception:   # a message could not be built: the server's own failure
            log.exception("table %s: a client is dropped", self.id)
            with contextlib.suppress(Exception):
                await client.close()

    # -- bots and the timer -------------------------------------------------------

    def start_driver(self) -> None:
        if self.task is None and not self.over and self.may_drive:
            self.task = asyncio.get_running_loop().create_task(self._drive())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _drive(self) -> None:
        """Play the bots' seats, and a human's when the turn timer runs out.

        A failure (the store, a bot) is logged and the turn tried again a
        second later; after :data:`MAX_FAILURES` failures in a row the table
        stops (it resumes when the server is started again)."""
        failures = 0
        while not self.over:
            try:
                await self._turn()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:   # a broken table must not take the server down
                failures += 1
                log.exception("table %s: turn failed (%d in a row)", self.id, failures)
                if failures >= MAX_FAILURES:
                    log.error("table %s stopped", self.id)
                    return
                await asyncio.sleep(self.shared.retry_delay)

    async def _turn(self) -> None:
        """Wait for, or make, the next move of the game."""
        if self.state.is_chance:
            await self.run_chance()
            return
        self.changed.clear()
        state, version = self.state, self.version
        seat = state.current_player
        if seat is None:   # nothing for a player to do (cannot stay so)
            await self.changed.wait()
            return
        if seat in self.bots:
            if self.bots_only and not self.shared.bots_play_unwatched:
                await self.watched.wait()   # nobody watches: the bots wait
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            async with self.shared.bot_slots:   # a person's act never waits behind every bot
                await self._bot_move(self.bots[seat], state, version, seat, "bot")
            return
        if self.turn_timer is None:
            self.deadline = None
            await self.changed.wait()
            return
        self.deadline = time.time() + self.turn_timer
        for client in list(self.clients):
            if client.seat == seat:
                client.notify()
        if self.shared.store.shared:   # the other processes' clients of this seat see it too
            with contextlib.suppress(Exception):
                await asyncio.get_running_loop().run_in_executor(
                    self.shared.db, self.shared.store.notify,
                    [f"d {self.id} {version} {self.deadline!r}"])
        try:
            await asyncio.wait_for(self.changed.wait(), self.turn_timer)
        except TimeoutError:
            bot = self.stand_in.get(seat)
            if bot is None:
                bot = self.rules.bots[self.rules.default_bot](self.seed + seat)
                self.stand_in[seat] = bot
            await self._bot_move(bot, state, version, seat, "timer")
        finally:
            self.deadline = None

    async def _bot_move(self, bot: Any, state: Any, version: int, seat: int,
                        made_by: str) -> None:
        """Ask ``bot`` for a move from its seat's view only: on the bots' thread
        pool, or, for a bot that declares itself quick
        (:func:`~cardrules.engine.bots.is_quick`), on the event loop."""
        seat_view = self.rules.view(state, seat)
        legal = self.rules.legal_actions(state)
        if is_quick(bot):
            action = bot.act(seat_view, legal)
        else:
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self.shared.thinkers, bot.act, seat_view,
                                                legal)
        if self.version != version:   # someone acted meanwhile: think again
            return
        try:
            await self.act(seat, action, version, made_by)
        except Refused as err:
            if err.rule != "stale":
                raise RuntimeError(f"{made_by} move refused: {err.rule}: {err}") from None
