"""The server's group commit (``cardrules.server._live.GroupWriter``): every
batch waiting is written in one transaction, each acknowledged only after
that commit, and a failed transaction fails every batch in it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the server tests need cardrules[server]")

from cardrules.server._live import GroupWriter
from cardrules.server.store import Store

DEAL = {"type": "dealer", "seat": 0}


def _store(tmp_path: Path, tables: int) -> Store:
    store = Store(str(tmp_path / "db.sqlite"))
    for number in range(tables):
        store.create_table(f"t{number}", "back_alley", {}, 1, ["human"] * 4, {})
    return store


def test_waiting_batches_share_one_transaction_and_are_acknowledged_after_it(
        tmp_path: Path) -> None:
    store = _store(tmp_path, 5)
    calls: list[int] = []
    real = store.append_many

    def counted(batches: Iterable[Any]) -> None:
        batches = list(batches)
        calls.append(len(batches))
        real(batches)
        # Committed: no batch of this transaction may have been acknowledged yet.
        assert not any(done.done() for done in futures)

    store.append_many = counted  # type: ignore[method-assign]
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


def test_a_failed_transaction_fails_every_batch_in_it_and_stores_none(tmp_path: Path) -> None:
    store = _store(tmp_path, 3)
    store.append("t1", 0, [(None, DEAL, "chance")], finished=False)   # t1 is at version 1

    async def main() -> list[BaseException | None]:
        with ThreadPoolExecutor(1) as db:
            writer = GroupWriter(store, db)
            # t1's batch claims version 1 again: the whole transaction fails.
            futures = [writer.write((table, 0, [(None, DEAL, "chance")], False))
                       for table in ("t0", "t1", "t2")]
            outcomes = await asyncio.gather(*futures, return_exceptions=True)
            # The writer goes on: a later batch is stored.
            await writer.write(("t0", 0, [(None, DEAL, "chance")], True))
            await writer.close()
            return [o if isinstance(o, BaseException) else None for o in outcomes]

    outcomes = asyncio.run(main())
    assert all(isinstance(o, Exception) for o in outcomes), outcomes
    assert [store.table(t).version for t in ("t0", "t1", "t2")] == [1, 1, 0]  # type: ignore[union-attr]
    assert store.table("t0").finished is not None  # type: ignore[union-attr]
    store.close()
