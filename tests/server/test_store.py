"""The store: tables, seats, tokens kept as hashes, actions in order and in one transaction."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from cardrules.server.store import SCHEMA_VERSION, SchemaError, Store, database_url, token_hash
from support.pg_cluster import PostgresCluster
from support.serverplay import new_table, served


def test_a_path_is_a_sqlite_file_and_a_url_is_kept() -> None:
    assert database_url("games/cards.sqlite") == "sqlite:///games/cards.sqlite"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_tokens_are_stored_only_as_their_hashes(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", ["human", "open", "human", "open"])
        joined = client.post(f"/api/tables/{table_id}/join").json()["token"]
    secrets = [*tokens.values(), joined]
    engine = sa.create_engine(database_url(database))
    meta = sa.MetaData()
    meta.reflect(engine)
    with engine.connect() as db:   # every value of every row, as text
        held = " ".join(str(value) for table in meta.sorted_tables
                        for row in db.execute(sa.select(table)) for value in row)
        stored = {row[0] for row in db.execute(sa.text("SELECT token_hash FROM seats"))}
    engine.dispose()
    assert not any(token in held for token in secrets)
    assert stored == {token_hash(t) for t in secrets} | {None}
    path = Path(database)
    if path.exists():   # a SQLite file: not in its bytes either (nor in its log)
        wal = path.with_name(path.name + "-wal")
        raw = path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
        assert not any(token.encode() in raw for token in secrets)


def test_a_batch_of_actions_is_stored_whole_or_not_at_all(database: str) -> None:
    store = Store(database)
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


def test_tables_are_listed_by_whether_they_are_finished(database: str) -> None:
    store = Store(database)
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


def test_every_action_a_game_accepts_is_in_the_store_in_order(database: str) -> None:
    with served(database) as client:
        table_id, _ = new_table(client, "down-and-back", ["bot:greedy", "bot:random"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            while not ws.receive_json()["over"]:
                pass
        record = client.get(f"/api/tables/{table_id}/record").json()
    store = Store(database)
    stored = store.actions(table_id)
    store.close()
    assert [a.version for a in stored] == list(range(1, len(record["actions"]) + 1))
    assert {a.made_by for a in stored} == {"bot", "chance"}
    assert [a.action for a in stored] == [
        entry.get("action", entry) if entry.get("type") == "seated" else entry
        for entry in record["actions"]]


# SQLite only: these are the settings of SQLite's own connections.
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


# -- the store shared by several processes (each test on SQLite and PostgreSQL) --

DEAL = {"type": "dealer", "seat": 0}


def test_a_version_checked_batch_from_a_stale_writer_is_left_out_alone(database: str) -> None:
    store = Store(database)
    for name in ("a", "b"):
        store.create_table(name, "back_alley", {}, 1, ["human"] * 4, {})
    assert store.append_checked([("a", 0, [(None, DEAL, "chance")], False)]) == []
    # "a" is at version 1: a second writer that saw version 0 is refused, "b" is not.
    conflicts = store.append_checked([("b", 0, [(None, DEAL, "chance")], False),
                                      ("a", 0, [(None, DEAL, "chance")] * 2, False)])
    assert conflicts == [1]
    assert [a.version for a in store.actions("a")] == [1]
    assert store.versions(["a", "b"]) == {"a": 1, "b": 1}
    assert [a.version for a in store.actions("a", after=1)] == []
    store.close()


def test_two_batches_of_one_table_in_one_call_are_stored_in_version_order(
        tmp_path: Path) -> None:
    # On SQLite the batches of one call are applied in the order of their
    # tables and versions, whatever the order they are given in, so two
    # moves of one table in one call both go in.  (On PostgreSQL every batch
    # of a call is checked against the version its table had before the
    # call: a table's second batch in the same call is a conflict.  A table
    # writes one batch at a time, so neither case comes up in the server.)
    store = Store(str(tmp_path / "db.sqlite"))
    store.create_table("a", "back_alley", {}, 1, ["human"] * 4, {})
    second = {"type": "dealer", "seat": 1}
    assert store.append_checked([("a", 1, [(None, second, "chance")], False),
                                 ("a", 0, [(None, DEAL, "chance")], False)]) == []
    assert [(a.version, a.action) for a in store.actions("a")] == [(1, DEAL), (2, second)]
    store.close()


def test_a_lease_is_held_up_to_its_expiry_inclusive(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # At the very instant a lease expires it is still its holder's: counted
    # among the live processes' leases and not taken by another.
    store = Store(str(tmp_path / "db.sqlite"))
    store.create_table("a", "back_alley", {}, 1, ["human"] * 4, {})
    monkeypatch.setattr(Store, "_clock", lambda self: sa.literal(1000.0, sa.Float))
    assert store.take_leases("p1", 0.0) == ["a"]   # expires at 1000.0, which is now
    assert store.lease_counts() == {"p1": 1}
    assert store.take_leases("p2", 60.0) == []
    store.close()


def test_a_finished_table_takes_no_more_actions(database: str) -> None:
    store = Store(database)
    store.create_table("a", "back_alley", {}, 1, ["human"] * 4, {})
    assert store.append_checked([("a", 0, [(None, DEAL, "chance")], True)]) == []
    assert store.append_checked([("a", 1, [(None, DEAL, "chance")], False)]) == [0]
    store.close()


def test_a_lease_goes_to_one_holder_and_to_another_once_expired(database: str) -> None:
    store = Store(database)
    for name in ("a", "b", "c"):
        store.create_table(name, "back_alley", {}, 1, ["human"] * 4, {})
    assert store.take_leases("p1", 60.0, limit=2) == ["a", "b"]
    assert store.take_leases("p2", 60.0) == ["c"]
    assert store.take_leases("p2", 60.0, table_ids=["a"]) == ["c"]   # held by p1
    assert store.lease_counts() == {"p1": 2, "p2": 1}
    # p1 stops renewing: a lease that ran out (a negative time: already past)
    # is taken by the next holder that asks.
    assert store.take_leases("p1", -1.0, limit=0) == ["a", "b"]
    assert store.lease_counts() == {"p2": 1}
    assert store.take_leases("p2", 60.0) == ["a", "b", "c"]
    assert store.take_leases("p1", 60.0) == []
    # A finished table's lease is given up; a released one is free at once.
    store.append("a", 0, [], finished=True)
    store.release_leases("p2", ["b"])
    assert store.take_leases("p1", 60.0) == ["b"]
    assert store.take_leases("p2", 60.0) == ["c"]
    assert store.count_unfinished() == 2
    store.close()


_FIRST_SCHEMA = [   # the first release's tables: no version column, no leases
    "CREATE TABLE game_tables (id VARCHAR(64) PRIMARY KEY, game VARCHAR(64) NOT NULL, "
    "settings TEXT NOT NULL, seed BIGINT NOT NULL, created FLOAT NOT NULL, finished FLOAT)",
    "CREATE TABLE seats (table_id VARCHAR(64) REFERENCES game_tables (id), seat INTEGER, "
    "kind VARCHAR(64) NOT NULL, token_hash VARCHAR(64), PRIMARY KEY (table_id, seat))",
    "CREATE TABLE actions (table_id VARCHAR(64) REFERENCES game_tables (id), version INTEGER, "
    "seat INTEGER, made_by VARCHAR(16) NOT NULL, action TEXT NOT NULL, "
    "PRIMARY KEY (table_id, version))",
    "INSERT INTO game_tables VALUES ('old', 'back_alley', '{}', 1, 1.0, NULL)",
    "INSERT INTO seats VALUES ('old', 0, 'human', NULL)",
    "INSERT INTO actions VALUES ('old', 1, NULL, 'chance', '{\"type\": \"dealer\", \"seat\": 0}')",
    "INSERT INTO actions VALUES ('old', 2, NULL, 'chance', '{\"type\": \"dealer\", \"seat\": 1}')",
]


def test_a_first_release_database_is_migrated_on_open(database: str) -> None:
    engine = sa.create_engine(database_url(database))
    with engine.begin() as db:
        for statement in _FIRST_SCHEMA:
            db.execute(sa.text(statement))
    engine.dispose()
    store = Store(database)
    assert store.found_version == 1
    assert store.table("old").version == 2   # type: ignore[union-attr]
    assert store.append_checked([("old", 2, [(None, DEAL, "chance")], False)]) == []
    store.close()
    again = Store(database)
    assert again.found_version == SCHEMA_VERSION
    again.close()


def test_a_newer_schema_is_refused_with_a_sentence(database: str) -> None:
    Store(database).close()
    engine = sa.create_engine(database_url(database))
    with engine.begin() as db:
        db.execute(sa.text("UPDATE cardrules_schema SET version = 99"))
    engine.dispose()
    with pytest.raises(SchemaError, match="version 99, newer than this cardrules knows"):
        Store(database)


@pytest.mark.postgres
def test_every_write_is_announced_on_commit(postgres_cluster: PostgresCluster) -> None:
    import psycopg

    url = postgres_cluster.new_database()
    store = Store(url)
    store.create_table("a", "back_alley", {}, 1, ["human"] * 4, {})
    with psycopg.connect(url, autocommit=True) as listener:
        listener.execute("LISTEN cardrules")
        store.append_checked([("a", 0, [(None, DEAL, "chance")] * 2, False)])
        store.append_checked([("a", 0, [(None, DEAL, "chance")], False)])   # refused: silent
        store.notify(["s a"])
        heard = [n.payload for n in listener.notifies(timeout=5.0, stop_after=2)]
    store.close()
    assert heard == ["a a 2", "s a"]
