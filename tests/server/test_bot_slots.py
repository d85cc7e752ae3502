"""The bots' slots: however many bot tables are playing, only a few bot
moves are under way at once (the server's semaphore), so that a person's
move never queues behind every bot of the server."""

from __future__ import annotations

import time
from typing import Any

import pytest

from cardrules.server._live import LiveTable
from cardrules.server.store import is_shared
from support.serverplay import new_table, served

SLOTS = 8   # the server's default


def test_no_more_bot_moves_are_under_way_than_there_are_slots(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    under_way = most = moves = 0
    real = LiveTable._bot_move

    async def counted(self: LiveTable, *args: Any, **kwargs: Any) -> None:
        nonlocal under_way, most, moves
        under_way += 1
        most = max(most, under_way)
        moves += 1
        try:
            await real(self, *args, **kwargs)
        finally:
            under_way -= 1

    monkeypatch.setattr(LiveTable, "_bot_move", counted)
    with served(database) as client:
        seats = ["bot:random", "bot:heuristic"] * 2
        # Long enough games (hands of up to 6 cards; 4 on PostgreSQL, whose
        # writes take longer) that every table plays at once.
        hand = 4 if is_shared(database) else 6
        ids = [new_table(client, "back-alley", seats, seed=n, max_hand_size=hand)[0]
               for n in range(3 * SLOTS)]
        deadline = time.monotonic() + 120
        while not all(client.get(f"/api/tables/{i}").json()["finished"] for i in ids):
            assert time.monotonic() < deadline, "the bot tables did not finish"
            time.sleep(0.05)
        record = client.get(f"/api/tables/{ids[0]}/record").json()
    assert record["actions"]
    assert moves > 3 * SLOTS
    assert 1 <= most <= SLOTS
