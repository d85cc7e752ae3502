"""The server's group commit (``cardrules.server._live.GroupWriter``): every
batch waiting is written in one transaction, each acknowledged only after
that commit, and a failed transaction fails every batch in it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the server tests need cardrules[server]")

import sqlalchemy as sa

from cardrules.server._live import GroupWriter
from cardrules.server.store import Store

DEAL = {"type": "dealer", "seat": 0}


def _store(database: str, tables: int) -> Store:
    store = Store(database)
    for number in range(tables):
        store.create_table(f"t{number}", "back_alley", {}, 1, ["human"] * 4, {})
    return store


def test_waiting_batches_share_one_transaction_and_are_acknowledged_after_it(
        database: str) -> None:
    store = _store(database, 5)
    calls: list[int] = []
    # PostgreSQL's writer checks each table's version in the same one transaction.
    method = "append_checked" if store.shared else "append_many"
    real = getattr(store, method)

    def counted(batches: Iterable[Any]) -> Any:
        batches = list(batches)
        calls.append(len(batches))
        done = real(batches)
        # Committed: no batch of this transaction may have been acknowledged yet.
        assert not any(done.done() for done in futures)
        return done

    setattr(store, method, counted)
    futures: list[asyncio.Future[None]] = []

    async def main() -> GroupWriter:
        with ThreadPoolExecutor(1) as db:
            writer = GroupWriter(store, db)
            futures.extend(writer.write((f"t{n}", 0, [(None, DEAL, "chance")], False))
                           for n in range(5))
            await asyncio.gather(*futures)
            await writer.close()
            return writer

    writer = asyncio.run(main())
    assert calls == [5]
    assert (writer.commits, writer.batches) == (1, 5)
    assert [store.table(f"t{n}").version for n in range(5)] == [1] * 5  # type: ignore[union-attr]
    store.close()


def test_a_failed_transaction_fails_every_batch_in_it_and_stores_none(database: str) -> None:
    store = _store(database, 3)
    with store.engine.begin() as db:   # an action of t1 at version 1, its table left at 0
        db.execute(sa.text("INSERT INTO actions (table_id, version, seat, made_by, action) "
                           "VALUES ('t1', 1, NULL, 'chance', '{}')"))

    async def main() -> list[BaseException | None]:
        with ThreadPoolExecutor(1) as db:
            writer = GroupWriter(store, db)
            # t1's batch claims version 1 again: the key on (table, version)
            # fails the whole transaction.
            futures = [writer.write((table, 0, [(None, DEAL, "chance")], False))
                       for table in ("t0", "t1", "t2")]
            outcomes = await asyncio.gather(*futures, return_exceptions=True)
            # The writer goes on: a later batch is stored.
            await writer.write(("t0", 0, [(None, DEAL, "chance")], True))
            await writer.close()
            return [o if isinstance(o, BaseException) else None for o in outcomes]

    outcomes = asyncio.run(main())
    assert all(isinstance(o, Exception) for o in outcomes), outcomes
    assert [store.table(t).version for t in ("t0", "t1", "t2")] == [1, 0, 0]  # type: ignore[union-attr]
    assert store.table("t0").finished is not None  # type: ignore[union-attr]
    store.close()
