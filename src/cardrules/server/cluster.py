"""Several server processes on one PostgreSQL database: leases and notifications.

Every process serves any table to any client; what they share is only what
the database holds.  A :class:`Cluster` is one process's part:

- **Leases.**  One process at a time runs a table's bots and turn timer:
  the holder of its row in ``table_leases``.  Every ``renew`` seconds the
  process renews its leases for ``ttl`` seconds and takes tables whose
  lease is missing or expired, up to its fair share (the unfinished tables
  divided by the processes holding leases); the expiry is reckoned by the
  database's clock, so hosts need not agree on the time.  A process that
  dies stops renewing: its tables are taken by the others at most ``ttl +
  renew`` seconds after its last renewal (4 seconds with the defaults), and
  their bots and timers resume there.  A process that learns it lost a
  lease (it was too slow to renew) stops that table's bots at once.  The
  lease is an economy, not the guarantee: every write checks the table's
  version in its transaction (:meth:`Store.append_checked
  <cardrules.server.store.Store.append_checked>`) and the (table, version)
  key stands behind it, so a move is stored once however many processes
  try.
- **Notifications.**  Each writing transaction sends ``NOTIFY cardrules``
  with every table's new version, delivered on commit.  A listening thread
  hands them to the event loop (:meth:`Cluster.start`'s ``on_message``);
  the server then reads the new actions from the database and tells its own
  clients, each built from its seat's view as always.  When the listening
  connection is lost and made again, ``on_resync`` asks the server to check
  every table it holds, since notifications sent meanwhile are gone.

>>> Cluster.holder_name().count(":")
2
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

from cardrules.server.store import CHANNEL, Store

__all__ = ["Cluster"]

log = logging.getLogger("cardrules.server")


class Cluster:
    """One process's membership of a shared store (see the module).

    ``on_leases(gained, lost)`` is called on the event loop with the ids of
    the tables this process started and stopped holding; ``on_message(lines)``
    with the lines of each notification (``a TABLE VERSION``: actions stored;
    ``s TABLE``: a seat taken; ``d TABLE VERSION DEADLINE``: the turn timer
    of the seat to act at that version ends then); ``on_resync()``
    after the listening connection is (re)made.

    >>> Cluster.__init__.__doc__ is None
    True
    """

    def __init__(self, store: Store, db: Executor, *, ttl: float = 3.0,
                 renew: float = 1.0) -> None:
        self.store = store
        self.db = db
        self.ttl = ttl
        self.renew = renew
        self.holder = self.holder_name()
        #: The tables this process holds the lease of.
        self.held: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._listening = threading.Event()

    @staticmethod
    def holder_name() -> str:
        """A name for this process in ``table_leases``: host, process id and
        a random tail (a restarted process with the same id is another holder).

        >>> Cluster.holder_name() != Cluster.holder_name()
        True
        """
        return f"{socket.gethostname()[:64]}:{os.getpid()}:{secrets.token_hex(4)}"

    async def start(self, on_leases: Callable[[Sequence[str], Sequence[str]], object],
                    on_message: Callable[[Sequence[str]], object],
                    on_resync: Callable[[], object],
                    on_tick: Callable[[], object] | None = None) -> None:
        """Start listening (and wait until the listener is ready, at most 10 s),
        then start the lease loop (``on_tick`` is called after each step)."""
        loop = asyncio.get_running_loop()
        self._on_leases = on_leases
        self._on_tick = on_tick
        self._stopping.clear()

        def deliver(lines: list[str]) -> None:
            on_message(lines)

        def resynced() -> None:
            on_resync()

        self._thread = threading.Thread(
            target=self._listen, args=(loop, deliver, resynced), daemon=True,
            name="cardrules-listen")
        self._thread.start()
        await loop.run_in_executor(None, self._listening.wait, 10.0)
        await self.step()
        self._task = loop.create_task(self._leases())

    async def take(self, table_id: str) -> bool:
        """Take the lease of a table just made here (True when this process has it)."""
        held = await self._call(self.store.take_leases, self.holder, self.ttl,
                                table_ids=[table_id])
        assert isinstance(held, list)
        self._update(set(held))
        return table_id in self.held

    async def stop(self) -> None:
        """Stop the lease loop and give every lease up (the others take the
        tables at their next step), then stop listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(Exception):
            await self._call(self.store.release_leases, self.holder)
        self.held = set()
        self._stopping.set()
        with contextlib.suppress(Exception):   # wakes the listener now (the others ignore it)
            await self._call(self.store.notify, ["-"])
        if self._thread is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join, 5.0)
            self._thread = None

    async def _call(self, function: Callable[..., object], *args: object,
                    **kwargs: object) -> object:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db, lambda: function(*args, **kwargs))

    async def step(self) -> None:
        """Renew this process's leases and take its share of the free ones."""
        counts = await self._call(self.store.lease_counts)
        assert isinstance(counts, dict)
        unfinished = await self._call(self.store.count_unfinished)
        assert isinstance(unfinished, int)
        holders = len(set(counts) | {self.holder})
        share = math.ceil(unfinished / holders) - counts.get(self.holder, 0)
        held = await self._call(self.store.take_leases, self.holder, self.ttl,
                                limit=max(share, 0))
        assert isinstance(held, list)
        self._update(set(held))

    def _update(self, held: set[str]) -> None:
        gained = sorted(held - self.held)
        lost = sorted(self.held - held)
        self.held = held
        if gained or lost:
            self._on_leases(gained, lost)

    async def _leases(self) -> None:
        while True:
            await asyncio.sleep(self.renew)
            try:
                await self.step()
                if self._on_tick is not None:
                    self._on_tick()
            except asyncio.CancelledError:
                raise
            except Exception as err:   # the database is away: try again next time
                log.warning("leases not renewed: %s", err)

    def _listen(self, loop: asyncio.AbstractEventLoop,
                deliver: Callable[[list[str]], None], resynced: Callable[[], None]) -> None:
        """The listening thread: one connection of its own, made again when lost."""
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        first = True
        while not self._stopping.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if not first:
                        loop.call_soon_threadsafe(resynced)
                    first = False
                    while not self._stopping.is_set():
                        # Each one handed over at once; the loop coalesces them.
                        for note in connection.notifies(timeout=0.5):
                            if self._stopping.is_set():
                                break
                            loop.call_soon_threadsafe(deliver, note.payload.splitlines())
            except Exception as err:   # the connection is lost: make it again
                if self._stopping.is_set():
                    return
                log.warning("listening for other processes' moves: %s", err)
                self._stopping.wait(0.5)
