"""The store: tables, seats, tokens kept as hashes, actions in order and in one transaction."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from cardrules.server.store import Store, database_url, token_hash
from support.serverplay import new_table, served


def test_a_path_is_a_sqlite_file_and_a_url_is_kept() -> None:
    assert database_url("games/cards.sqlite") == "sqlite:///games/cards.sqlite"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_tokens_are_stored_only_as_their_hashes(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite"
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", ["human", "open", "human", "open"])
        joined = client.post(f"/api/tables/{table_id}/join").json()["token"]
    secrets = [*tokens.values(), joined]
    raw = database.read_bytes() + (tmp_path / "db.sqlite-wal").read_bytes() \
        if (tmp_path / "db.sqlite-wal").exists() else database.read_bytes()
    assert not any(token.encode() in raw for token in secrets)
    with sqlite3.connect(database) as db:
        stored = {row[0] for row in db.execute("SELECT token_hash FROM seats")}
    assert stored == {token_hash(t) for t in secrets} | {None}


def test_a_batch_of_actions_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "db.sqlite"))
    store.create_table("t", "down_and_back", {"num_players": 2}, 5, ["human", "bot:greedy"],
                       {})
    store.append("t", 0, [(None, {"type": "dealer", "seat": 0}, "chance")], finished=False)
    with pytest.raises(sa.exc.IntegrityError):   # version 1 is taken: nothing of the batch
        store.append("t", 0, [(None, {"type": "cut", "count": 3}, "chance")] * 2,
                     finished=True)
    assert [a.version for a in store.actions("t")] == [1]
    stored = store.table("t")
    assert stored is not None
    assert stored.finished is None
    assert stored.version == 1
    store.close()


def test_tables_are_listed_by_whether_they_are_finished(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "db.sqlite"))
    for name in ("a", "b"):
        store.create_table(name, "back_alley", {"max_hand_size": 2}, 1, ["human"] * 4, {})
    store.append("b", 0, [], finished=True)
    assert [t.id for t in store.tables()] == ["a", "b"]
    assert [t.id for t in store.tables(finished=False)] == ["a"]
    assert [t.id for t in store.tables(finished=True)] == ["b"]
    assert store.take_seat("a", 2, "h")
    assert not store.take_seat("a", 2, "i")
    assert store.token_hashes("a") == {2: "h"}
    store.close()


def test_every_action_a_game_accepts_is_in_the_store_in_order(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite"
    with served(database) as client:
        table_id, _ = new_table(client, "down-and-back", ["bot:greedy", "bot:random"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            while not ws.receive_json()["over"]:
                pass
        record = client.get(f"/api/tables/{table_id}/record").json()
    store = Store(str(database))
    stored = store.actions(table_id)
    store.close()
    assert [a.version for a in stored] == list(range(1, len(record["actions"]) + 1))
    assert {a.made_by for a in stored} == {"bot", "chance"}
    assert [a.action for a in stored] == [
        entry.get("action", entry) if entry.get("type") == "seated" else entry
        for entry in record["actions"]]


def test_every_sqlite_connection_has_wal_foreign_keys_and_a_busy_timeout(
        tmp_path: Path) -> None:
    store = Store(str(tmp_path / "db.sqlite"))
    try:
        for _ in range(2):   # each connection of the pool, not only the first
            with store.engine.connect() as db:
                raw = db.connection.dbapi_connection
                assert raw is not None
                pragmas = {name: raw.execute(f"PRAGMA {name}").fetchone()[0]
                           for name in ("journal_mode", "foreign_keys", "busy_timeout",
                                        "synchronous")}
                assert pragmas == {"journal_mode": "wal", "foreign_keys": 1,
                                   "busy_timeout": 10000, "synchronous": 1}
        with store.engine.begin() as db, pytest.raises(sa.exc.IntegrityError):
            db.execute(sa.text("INSERT INTO seats (table_id, seat, kind) "
                               "VALUES ('none', 0, 'human')"))
    finally:
        store.close()
