"""The server's database: tables, seats and every accepted action, through SQLAlchemy Core.

A :class:`Store` keeps three tables: ``game_tables`` (one row per game
table: its game, settings, chance seed, when it was created and finished),
``seats`` (each seat's kind, ``"human"`` or ``"bot:NAME"``, and for a
taken human seat the SHA-256 hash of its token, never the token itself)
and ``actions`` (every accepted action of a table in order, as the game's
JSON, with the seat that made it).  The version of a table is the number
of its actions; ``(table, version)`` is the key of an action, so two
writers can never both store an action at one version.

Only portable SQL is used (SQLAlchemy Core): the default is a SQLite file,
and PostgreSQL (``postgresql://user@host/db``, through psycopg 3: the
``postgres`` extra) is the store several server processes share.  A fourth
table, ``table_leases``, says which process runs each table's bots and turn
timer (:meth:`Store.take_leases`), and ``game_tables.version`` (the number
of a table's actions) lets a writer check, in the same transaction, that
nobody wrote that table since it looked (:meth:`Store.append_checked`).

The schema's version is kept in the database (``cardrules_schema``): a new
database is made at the current version, an older one migrated on open
(version 1, the first release's, had no version table, no ``version``
column and no leases), and a newer one refused with a message.

>>> store = Store("sqlite://")
>>> store.create_table("t1", "back_alley", {"max_hand_size": 2}, 7,
...                    ["human", "bot:random", "bot:random", "bot:random"], {0: "ab12"})
>>> store.append("t1", 0, [(None, {"type": "dealer", "seat": 1}, "chance")], finished=False)
>>> [(a.version, a.seat, a.action) for a in store.actions("t1")]
[(1, None, {'type': 'dealer', 'seat': 1})]
>>> store.close()
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import attrs
import sqlalchemy as sa
import sqlalchemy.dialects.postgresql
import sqlalchemy.dialects.sqlite

__all__ = ["CHANNEL", "SCHEMA_VERSION", "DamagedRow", "SchemaError", "Store", "StoredAction",
           "StoredTable", "database_url", "is_shared", "sqlite_path", "token_hash"]

#: The version of the schema this code writes (``cardrules_schema.version``).
SCHEMA_VERSION = 2

#: The channel on which a PostgreSQL store announces what it wrote
#: (``NOTIFY``; see :mod:`cardrules.server.cluster`).
CHANNEL = "cardrules"

_META = sa.MetaData()

_TABLES = sa.Table(
    "game_tables", _META,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    # Whether the creator chose the seed (and so may know every hand).
    sa.Column("chosen_seed", sa.Boolean, nullable=True),
    # The number of stored actions (kept with them, in the same transaction).
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
)

_SEATS = sa.Table(
    "seats", _META,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("game_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
)

_ACTIONS = sa.Table(
    "actions", _META,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("game_tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("made_by", sa.String(16), nullable=False),
    sa.Column("action", sa.Text, nullable=False),
)


_SCHEMA = sa.Table(
    "cardrules_schema", _META,
    sa.Column("version", sa.Integer, nullable=False),
)

_LEASES = sa.Table(
    "table_leases", _META,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("game_tables.id"), primary_key=True),
    sa.Column("holder", sa.String(128), nullable=False),
    # Seconds since the epoch by the DATABASE's clock (one clock for every host).
    sa.Column("expires", sa.Float, nullable=False),
)


#: PostgreSQL: lock tables' rows in the order of their ids (a writer's first step).
_LOCK_TABLES = sa.text("SELECT id FROM game_tables WHERE id = ANY(:ids) ORDER BY id "
                       "FOR NO KEY UPDATE")
#: PostgreSQL: move tables on to their new versions where still at the old ones.
_MOVE_VERSIONS = sa.text(
    "UPDATE game_tables AS g SET version = m.new "
    "FROM unnest(CAST(:ids AS VARCHAR[]), CAST(:olds AS INTEGER[]), "
    "CAST(:news AS INTEGER[])) AS m(id, old, new) "
    "WHERE g.id = m.id AND g.version = m.old AND g.finished IS NULL "
    "RETURNING g.id, m.old")


class SchemaError(Exception):
    """The database holds a schema this code cannot use (a newer one)."""


def token_hash(token: str) -> str:
    """The SHA-256 hash (hexadecimal) under which a seat's token is stored.

    >>> token_hash("secret")[:16]
    '2bb80d537b1da3e3'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def database_url(database: str) -> str:
    """The SQLAlchemy URL of ``database``: a path as a SQLite file, a
    ``postgresql://`` (or ``postgres://``) URL with the psycopg 3 driver,
    any other URL as it is.

    >>> database_url("cardrules.sqlite")
    'sqlite:///cardrules.sqlite'
    >>> database_url("postgresql://me@localhost/cards")
    'postgresql+psycopg://me@localhost/cards'
    >>> database_url("postgresql+psycopg://me@localhost/cards")
    'postgresql+psycopg://me@localhost/cards'
    """
    if "://" not in database:
        return f"sqlite:///{database}"
    scheme, rest = database.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return database


def is_shared(database: str) -> bool:
    """True for a database several server processes may share (PostgreSQL);
    False for SQLite (one process).

    >>> is_shared("cards.sqlite"), is_shared("postgresql://me@db/cards")
    (False, True)
    """
    return database_url(database).startswith("postgresql")


def sqlite_path(database: str) -> str | None:
    """The file of a SQLite ``database`` (a path or a ``sqlite:///`` URL), or
    None (in memory, or another database).

    >>> sqlite_path("games.sqlite"), sqlite_path("sqlite://"), sqlite_path("postgresql://h/db")
    ('games.sqlite', None, None)
    """
    url = sa.engine.make_url(database_url(database))
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return str(url.database)


class DamagedRow(ValueError):
    """A stored action that cannot be read (not JSON): ``version`` is its version.

    >>> DamagedRow(3, "not JSON").version
    3
    """

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(f"the action stored as version {version} is {reason}")
        self.version = version


@attrs.frozen(slots=True)
class StoredTable:
    """One table as stored: ``seats`` holds each seat's kind, ``taken`` which
    human seats have a token.

    >>> store = Store("sqlite://")
    >>> store.create_table("t", "down_and_back", {"rounds": 1}, 3, ["human", "bot:greedy"], {})
    >>> t = store.table("t")
    >>> t.game, t.settings, t.seats, t.taken, t.version, t.finished, t.chosen_seed
    ('down_and_back', {'rounds': 1}, ('human', 'bot:greedy'), (False, False), 0, None, False)
    """

    id: str
    game: str
    settings: dict[str, int | None]
    seed: int
    seats: tuple[str, ...]
    taken: tuple[bool, ...]
    created: float
    finished: float | None
    version: int
    chosen_seed: bool = False


@attrs.frozen(slots=True)
class StoredAction:
    """One accepted action: its ``version`` (1 for the first action), the
    ``seat`` that made it (None for chance), who made it (``made_by``:
    ``"player"``, ``"bot"``, ``"timer"`` or ``"chance"``) and the action as
    the game's JSON.

    >>> StoredAction(1, None, "chance", {"type": "dealer", "seat": 0}).version
    1
    """

    version: int
    seat: int | None
    made_by: str
    action: dict[str, Any]


class Store:
    """The server's storage over one SQLAlchemy engine (see the module).

    Every method is a short transaction of its own; :meth:`append` writes a
    batch of actions (and the finish time) in one transaction, so either all
    of them are stored or none, and :meth:`append_many` several tables'
    batches in one.  The methods block: the server calls them
    from one worker thread.

    >>> store = Store("sqlite://")
    >>> store.tables()
    []
    >>> store.close()
    """

    def __init__(self, database: str) -> None:
        url = database_url(database)
        options: dict[str, Any] = {}
        if url.startswith("sqlite"):
            options["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                options["poolclass"] = sa.pool.StaticPool
        elif url.startswith("postgresql"):
            _needs_psycopg()
        self.engine = sa.create_engine(url, **options)
        #: True on PostgreSQL: several processes may share this database.
        self.shared = self.engine.dialect.name == "postgresql"
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        #: The schema version found on opening (0: a new database).
        self.found_version = self._migrate()

    def _migrate(self) -> int:
        """Make the schema, or bring an older one to :data:`SCHEMA_VERSION`,
        in one transaction (on PostgreSQL under a lock, so that processes
        starting together migrate once); the version found."""
        with self.engine.begin() as db:
            if self.shared:
                db.execute(sa.text("SELECT pg_advisory_xact_lock(2905817)"))
            inspector = sa.inspect(db)
            names = set(inspector.get_table_names())
            if "game_tables" not in names:
                found = 0
            elif "cardrules_schema" not in names:
                found = 1
            else:
                found = int(db.execute(sa.select(sa.func.max(_SCHEMA.c.version))).scalar() or 1)
            if found > SCHEMA_VERSION:
                raise SchemaError(
                    f"the database's schema is version {found}, newer than this cardrules "
                    f"knows ({SCHEMA_VERSION}): upgrade cardrules to serve it")
            if found == 1:
                # Version 1: no version column, no leases, no version table
                # (and, before the chosen seeds were marked, no chosen_seed).
                known = {c["name"] for c in inspector.get_columns("game_tables")}
                if "chosen_seed" not in known:
                    db.execute(sa.text("ALTER TABLE game_tables ADD COLUMN chosen_seed BOOLEAN"))
                db.execute(sa.text("ALTER TABLE game_tables ADD COLUMN version "
                                   "INTEGER NOT NULL DEFAULT 0"))
                counts = (sa.select(sa.func.count()).where(_ACTIONS.c.table_id == _TABLES.c.id)
                          .scalar_subquery())
                db.execute(_TABLES.update().values(version=counts))
            _META.create_all(db)
            if found < SCHEMA_VERSION:
                db.execute(_SCHEMA.delete())
                db.execute(_SCHEMA.insert().values(version=SCHEMA_VERSION))
        return found

    def _clock(self) -> sa.ColumnElement[float]:
        """Now, in seconds since the epoch, by the database's clock on
        PostgreSQL (every host agrees) and this machine's on SQLite."""
        if self.shared:
            return sa.cast(sa.func.extract("epoch", sa.func.clock_timestamp()), sa.Float)
        return sa.literal(time.time(), sa.Float)

    def close(self) -> None:
        """Close every connection.

        >>> Store("sqlite://").close()
        """
        self.engine.dispose()

    def create_table(self, table_id: str, game: str, settings: Mapping[str, int | None],
                     seed: int, seats: Sequence[str], tokens: Mapping[int, str], *,
                     chosen_seed: bool = False) -> None:
        """Store a new table: ``seats`` their kinds, ``tokens`` the token hash of
        every seat taken at once (by seat); ``chosen_seed`` when its creator
        chose the seed.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {2: token_hash("t")})
        >>> store.table("x").taken
        (False, False, True, False)
        """
        with self.engine.begin() as db:
            db.execute(_TABLES.insert().values(
                id=table_id, game=game, settings=json.dumps(dict(settings)), seed=seed,
                created=time.time(), finished=None, chosen_seed=bool(chosen_seed)))
            db.execute(_SEATS.insert(), [
                {"table_id": table_id, "seat": seat, "kind": kind,
                 "token_hash": tokens.get(seat)} for seat, kind in enumerate(seats)])

    def take_seat(self, table_id: str, seat: int, hashed: str) -> bool:
        """Give the free human seat ``seat`` the token hash ``hashed``; False when
        it is taken already (or is not a free human seat).

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> store.take_seat("x", 1, "h"), store.take_seat("x", 1, "i")
        (True, False)
        """
        with self.engine.begin() as db:
            done = db.execute(_SEATS.update().where(
                _SEATS.c.table_id == table_id, _SEATS.c.seat == seat,
                _SEATS.c.kind == "human", _SEATS.c.token_hash.is_(None),
            ).values(token_hash=hashed))
            return bool(done.rowcount == 1)

    def token_hashes(self, table_id: str) -> dict[int, str]:
        """The token hash of every taken seat of a table, by seat.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {3: "h"})
        >>> store.token_hashes("x")
        {3: 'h'}
        """
        with self.engine.connect() as db:
            rows = db.execute(sa.select(_SEATS.c.seat, _SEATS.c.token_hash).where(
                _SEATS.c.table_id == table_id, _SEATS.c.token_hash.is_not(None)))
            return {int(seat): str(hashed) for seat, hashed in rows}

    def append(self, table_id: str, version: int,
               entries: Iterable[tuple[int | None, Mapping[str, object], str]], *,
               finished: bool) -> None:
        """Store ``entries`` (seat, action JSON, who made it) as the actions after
        ``version``, in one transaction; with ``finished`` the table is marked
        over in the same transaction.  An action already stored at one of
        those versions makes the whole batch fail (nothing is written).

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> store.append("x", 0, [(None, {"type": "dealer", "seat": 0}, "chance")],
        ...              finished=True)
        >>> store.table("x").version, store.table("x").finished is not None
        (1, True)
        """
        self.append_many([(table_id, version, entries, finished)])

    def append_many(self, batches: Iterable[tuple[
            str, int, Iterable[tuple[int | None, Mapping[str, object], str]], bool]]) -> None:
        """Store several batches, each ``(table_id, version, entries, finished)``
        as for :meth:`append`, in ONE transaction: all of them are stored or
        none (the server's group commit).

        >>> store = Store("sqlite://")
        >>> for name in "xy":
        ...     store.create_table(name, "back_alley", {}, 1, ["human"] * 4, {})
        >>> deal = {"type": "dealer", "seat": 0}
        >>> store.append_many([("x", 0, [(None, deal, "chance")], False),
        ...                    ("y", 0, [(None, deal, "chance")], True)])
        >>> store.table("x").version, store.table("y").finished is not None
        (1, True)
        >>> store.append_many([("x", 1, [(None, deal, "chance")], False),
        ...                    ("y", 0, [(None, deal, "chance")], False)])
        Traceback (most recent call last):
        ...
        sqlalchemy.exc.IntegrityError: ...
        >>> store.table("x").version   # the failure took the whole group with it
        1
        """
        rows: list[dict[str, object]] = []
        finished: list[str] = []
        for table_id, version, entries, done in batches:
            rows += [{"table_id": table_id, "version": version + number, "seat": seat,
                      "made_by": made_by, "action": json.dumps(dict(action))}
                     for number, (seat, action, made_by) in enumerate(entries, start=1)]
            if done:
                finished.append(table_id)
        with self.engine.begin() as db:
            if rows:
                db.execute(_ACTIONS.insert(), rows)
            self._after_rows(db, rows, finished)

    def _after_rows(self, db: sa.Connection, rows: Sequence[Mapping[str, object]],
                    finished: Sequence[str], *, set_versions: bool = True) -> None:
        """In the writing transaction: each table's new version, the finish
        times, and on PostgreSQL a notification of each table's new version
        (sent by the database when, and only if, the transaction commits)."""
        newest: dict[str, int] = {}
        for row in rows:
            table_id, version = str(row["table_id"]), int(str(row["version"]))
            newest[table_id] = max(newest.get(table_id, 0), version)
        if newest and set_versions:
            bind = sa.bindparam("b_id", type_=sa.String)
            db.execute(_TABLES.update().where(_TABLES.c.id == bind)
                       .values(version=sa.bindparam("b_version", type_=sa.Integer)),
                       [{"b_id": t, "b_version": v} for t, v in sorted(newest.items())])
        if finished:
            db.execute(_TABLES.update().where(_TABLES.c.id.in_(finished))
                       .values(finished=time.time()))
        if self.shared and newest:
            self._notify(db, [f"a {t} {v}" for t, v in sorted(newest.items())])

    def _notify(self, db: sa.Connection, messages: Sequence[str]) -> None:
        """Queue ``messages`` on :data:`CHANNEL` (PostgreSQL; sent on commit)."""
        for start in range(0, len(messages), 200):   # a payload holds < 8000 bytes
            db.execute(sa.select(sa.func.pg_notify(CHANNEL, "\n".join(
                messages[start:start + 200]))))

    def notify(self, messages: Sequence[str]) -> None:
        """Send ``messages`` to every process listening (PostgreSQL; nothing
        on SQLite): ``s TABLE`` when a seat was taken, ``t TABLE`` for a new
        table.

        >>> Store("sqlite://").notify(["t x"])
        """
        if self.shared:
            with self.engine.begin() as db:
                self._notify(db, messages)

    def append_checked(self, batches: Sequence[tuple[
            str, int, Sequence[tuple[int | None, Mapping[str, object], str]], bool]]
                       ) -> list[int]:
        """Store batches as :meth:`append_many` does, in ONE transaction, but
        first check each table's version: a batch whose table is no longer
        at the version it was made at (another process wrote it first) is
        left out, and its index returned, while the others are stored.  The
        tables' rows are locked in the order of their ids, so that two
        processes writing the same tables cannot deadlock; the constraint on
        (table, version) still stands behind the check.

        >>> store = Store("sqlite://")
        >>> for name in "xy":
        ...     store.create_table(name, "back_alley", {}, 1, ["human"] * 4, {})
        >>> deal = {"type": "dealer", "seat": 0}
        >>> store.append_checked([("x", 0, [(None, deal, "chance")], False)])
        []
        >>> store.append_checked([("x", 0, [(None, deal, "chance")], False),
        ...                       ("y", 0, [(None, deal, "chance")], False)])
        [0]
        >>> store.table("x").version, store.table("y").version
        (1, 1)
        """
        order = sorted(range(len(batches)), key=lambda i: (batches[i][0], batches[i][1]))
        conflicts: list[int] = []
        rows: list[dict[str, object]] = []
        finished: list[str] = []
        with self.engine.begin() as db:
            moved = self._move_versions(db, [
                (batches[i][0], batches[i][1], batches[i][1] + len(batches[i][2]))
                for i in order])
            for index in order:
                table_id, version, entries, done = batches[index]
                if (table_id, version) not in moved:
                    conflicts.append(index)
                    continue
                rows += [{"table_id": table_id, "version": version + number, "seat": seat,
                          "made_by": made_by, "action": json.dumps(dict(action))}
                         for number, (seat, action, made_by) in enumerate(entries, start=1)]
                if done:
                    finished.append(table_id)
            if rows:
                db.execute(_ACTIONS.insert(), rows)
            self._after_rows(db, rows, finished, set_versions=False)
        return sorted(conflicts)

    def _move_versions(self, db: sa.Connection, moves: Sequence[tuple[str, int, int]]
                       ) -> set[tuple[str, int]]:
        """Move each table (id, from, to) on to its new version where it is
        still at ``from`` and unfinished; the (id, from) of those moved.  On
        PostgreSQL: the rows locked in the order of their ids, then one
        UPDATE for them all (two round trips, however many tables)."""
        if not moves:
            return set()
        if not self.shared:
            moved = set()
            for table_id, old, new in moves:
                done = db.execute(_TABLES.update().where(
                    _TABLES.c.id == table_id, _TABLES.c.version == old,
                    _TABLES.c.finished.is_(None)).values(version=new))
                if done.rowcount == 1:
                    moved.add((table_id, old))
            return moved
        # Text with array parameters: one statement compiled once, whatever the group.
        ids = sorted({table_id for table_id, _, _ in moves})
        db.execute(_LOCK_TABLES, {"ids": ids})
        rows = db.execute(_MOVE_VERSIONS, {"ids": [m[0] for m in moves],
                                           "olds": [m[1] for m in moves],
                                           "news": [m[2] for m in moves]})
        return {(str(table_id), int(old)) for table_id, old in rows}

    def actions(self, table_id: str, after: int = 0) -> list[StoredAction]:
        """Every stored action of a table after version ``after``, in order.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> store.actions("x")
        []
        """
        with self.engine.connect() as db:
            rows = db.execute(sa.select(_ACTIONS.c.version, _ACTIONS.c.seat,
                                        _ACTIONS.c.made_by, _ACTIONS.c.action)
                              .where(_ACTIONS.c.table_id == table_id,
                                     _ACTIONS.c.version > after)
                              .order_by(_ACTIONS.c.version))
            out = []
            for version, seat, made_by, action in rows:
                out.append(_stored_action(version, seat, made_by, action))
            return out

    def actions_since(self, versions: Mapping[str, int]) -> dict[str, list[StoredAction]]:
        """The stored actions of several tables, each after its version in
        ``versions``, in one query (a table with none: an empty list).

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> store.append("x", 0, [(None, {"type": "dealer", "seat": 1}, "chance")],
        ...              finished=False)
        >>> {t: [a.version for a in found] for t, found in store.actions_since({"x": 0}).items()}
        {'x': [1]}
        """
        found: dict[str, list[StoredAction]] = {table_id: [] for table_id in versions}
        if not versions:
            return found
        where = sa.or_(*(sa.and_(_ACTIONS.c.table_id == table_id, _ACTIONS.c.version > after)
                         for table_id, after in versions.items()))
        with self.engine.connect() as db:
            rows = db.execute(sa.select(_ACTIONS.c.table_id, _ACTIONS.c.version,
                                        _ACTIONS.c.seat, _ACTIONS.c.made_by,
                                        _ACTIONS.c.action)
                              .where(where).order_by(_ACTIONS.c.table_id, _ACTIONS.c.version))
            for table_id, version, seat, made_by, action in rows:
                found[str(table_id)].append(_stored_action(version, seat, made_by, action))
        return found

    def table(self, table_id: str) -> StoredTable | None:
        """The stored table ``table_id``, or None.

        >>> Store("sqlite://").table("nothing") is None
        True
        """
        found = self._tables(_TABLES.c.id == table_id)
        return found[0] if found else None

    def tables(self, *, finished: bool | None = None) -> list[StoredTable]:
        """Every stored table, oldest first: only unfinished ones with
        ``finished=False``, only finished ones with ``finished=True``.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> [t.id for t in store.tables(finished=False)], store.tables(finished=True)
        (['x'], [])
        """
        if finished is None:
            return self._tables(sa.true())
        if finished:
            return self._tables(_TABLES.c.finished.is_not(None))
        return self._tables(_TABLES.c.finished.is_(None))

    # -- leases: which process runs a table's bots and timer ------------------------

    def take_leases(self, holder: str, ttl: float, *, table_ids: Sequence[str] | None = None,
                    limit: int | None = None) -> list[str]:
        """Renew every lease ``holder`` has, for ``ttl`` seconds, then take
        unfinished tables whose lease is missing or expired (``table_ids``
        only, when given; at most ``limit`` of them); the ids of every table
        ``holder`` now holds.  A lease is taken in one statement that
        succeeds only while the old one is expired, so two processes never
        both take it.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> store.take_leases("a", 5.0), store.take_leases("b", 5.0)
        (['x'], [])
        """
        with self.engine.begin() as db:
            now = float(db.execute(sa.select(self._clock())).scalar_one())
            db.execute(_LEASES.delete().where(   # the finished tables' leases are done with
                _LEASES.c.holder == holder, _LEASES.c.table_id.in_(
                    sa.select(_TABLES.c.id).where(_TABLES.c.finished.is_not(None)))))
            db.execute(_LEASES.update().where(_LEASES.c.holder == holder)
                       .values(expires=now + ttl))
            free = (sa.select(_TABLES.c.id)
                    .outerjoin(_LEASES, _LEASES.c.table_id == _TABLES.c.id)
                    .where(_TABLES.c.finished.is_(None),
                           sa.or_(_LEASES.c.table_id.is_(None), _LEASES.c.expires < now))
                    .order_by(_TABLES.c.created, _TABLES.c.id))
            if table_ids is not None:
                free = free.where(_TABLES.c.id.in_(list(table_ids)))
            if limit is not None:
                free = free.limit(max(0, limit))
            wanted = [str(row[0]) for row in db.execute(free)]
            if wanted:
                insert = (sa.dialects.postgresql.insert(_LEASES) if self.shared
                          else sa.dialects.sqlite.insert(_LEASES))
                stmt = insert.values([{"table_id": t, "holder": holder, "expires": now + ttl}
                                      for t in wanted])
                db.execute(stmt.on_conflict_do_update(
                    index_elements=[_LEASES.c.table_id],
                    set_={"holder": stmt.excluded.holder, "expires": stmt.excluded.expires},
                    where=_LEASES.c.expires < now))
            held = db.execute(sa.select(_LEASES.c.table_id)
                              .where(_LEASES.c.holder == holder)
                              .order_by(_LEASES.c.table_id))
            return [str(row[0]) for row in held]

    def lease_counts(self) -> dict[str, int]:
        """How many unexpired leases each holder has (the live processes).

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> _ = store.take_leases("a", 5.0)
        >>> store.lease_counts()
        {'a': 1}
        """
        with self.engine.connect() as db:
            now = float(db.execute(sa.select(self._clock())).scalar_one())
            rows = db.execute(sa.select(_LEASES.c.holder, sa.func.count())
                              .where(_LEASES.c.expires >= now).group_by(_LEASES.c.holder))
            return {str(holder): int(count) for holder, count in rows}

    def release_leases(self, holder: str, table_ids: Sequence[str] | None = None) -> None:
        """Give up ``holder``'s leases (``table_ids`` only, when given), for
        another process to take at once.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> _ = store.take_leases("a", 5.0)
        >>> store.release_leases("a"); store.take_leases("b", 5.0)
        ['x']
        """
        with self.engine.begin() as db:
            query = _LEASES.delete().where(_LEASES.c.holder == holder)
            if table_ids is not None:
                query = query.where(_LEASES.c.table_id.in_(list(table_ids)))
            db.execute(query)

    def count_unfinished(self) -> int:
        """How many tables are not finished.

        >>> Store("sqlite://").count_unfinished()
        0
        """
        with self.engine.connect() as db:
            return int(db.execute(sa.select(sa.func.count()).select_from(_TABLES)
                                  .where(_TABLES.c.finished.is_(None))).scalar_one())

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The stored version of each of ``table_ids`` that exists.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> store.versions(["x", "nope"])
        {'x': 0}
        """
        if not table_ids:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(sa.select(_TABLES.c.id, _TABLES.c.version)
                              .where(_TABLES.c.id.in_(list(table_ids))))
            return {str(t): int(v) for t, v in rows}

    def _tables(self, where: sa.ColumnElement[bool]) -> list[StoredTable]:
        query = (sa.select(_TABLES.c.id, _TABLES.c.game, _TABLES.c.settings, _TABLES.c.seed,
                           _TABLES.c.created, _TABLES.c.finished, _TABLES.c.chosen_seed,
                           _TABLES.c.version)
                 .where(where).order_by(_TABLES.c.created, _TABLES.c.id))
        with self.engine.connect() as db:
            rows = db.execute(query).all()
            ids = [row[0] for row in rows]
            seats: dict[str, list[tuple[int, str, bool]]] = {i: [] for i in ids}
            if ids:
                for table_id, seat, kind, hashed in db.execute(
                        sa.select(_SEATS.c.table_id, _SEATS.c.seat, _SEATS.c.kind,
                                  _SEATS.c.token_hash).where(_SEATS.c.table_id.in_(ids))):
                    seats[table_id].append((int(seat), str(kind), hashed is not None))
        out = []
        for table_id, game, settings, seed, created, finished, chosen, version in rows:
            listed = sorted(seats[table_id])
            try:
                read = json.loads(settings)
            except (TypeError, ValueError):
                read = None
            out.append(StoredTable(
                id=table_id, game=game,
                settings=read if isinstance(read, dict) else {"(settings not JSON)": None},
                seed=int(seed),
                seats=tuple(kind for _, kind, _ in listed),
                taken=tuple(taken for _, _, taken in listed), created=float(created),
                finished=None if finished is None else float(finished), version=int(version),
                chosen_seed=bool(chosen)))
        return out


def _stored_action(version: object, seat: object, made_by: object,
                   action: object) -> StoredAction:
    """One row of the actions table as a :class:`StoredAction`; a row whose
    action is not a JSON object is a :class:`DamagedRow`."""
    number = int(cast(int, version))
    try:
        data = json.loads(cast(str, action))
    except (TypeError, ValueError):
        raise DamagedRow(number, "not JSON") from None
    if not isinstance(data, dict):
        raise DamagedRow(number, "not a JSON object")
    return StoredAction(number, None if seat is None else int(cast(int, seat)),
                        str(made_by), data)


def _needs_psycopg() -> None:
    """Refuse a PostgreSQL URL in one sentence when psycopg 3 is missing."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise ImportError('a PostgreSQL database needs psycopg 3: pip install '
                          '"cardrules[postgres]"') from None


def _sqlite_pragmas(connection: Any, record: object) -> None:
    """SQLite only: write-ahead logging (a process killed at any moment loses
    no committed transaction) and foreign keys."""
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
    finally:
        cursor.close()
