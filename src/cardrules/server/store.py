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
and a URL such as ``postgresql+psycopg://user@host/db`` works the same where
its driver is installed.

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
from typing import Any

import attrs
import sqlalchemy as sa

__all__ = ["DamagedRow", "Store", "StoredAction", "StoredTable", "database_url", "sqlite_path",
           "token_hash"]

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


def token_hash(token: str) -> str:
    """The SHA-256 hash (hexadecimal) under which a seat's token is stored.

    >>> token_hash("secret")[:16]
    '2bb80d537b1da3e3'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def database_url(database: str) -> str:
    """The SQLAlchemy URL of ``database``: a URL as it is, a path as a SQLite file.

    >>> database_url("cardrules.sqlite")
    'sqlite:///cardrules.sqlite'
    >>> database_url("postgresql+psycopg://me@localhost/cards")
    'postgresql+psycopg://me@localhost/cards'
    """
    return database if "://" in database else f"sqlite:///{database}"


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
        self.engine = sa.create_engine(url, **options)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        _META.create_all(self.engine)
        self._add_missing_columns()

    def _add_missing_columns(self) -> None:
        """Add the columns a database made by an older version lacks."""
        known = {column["name"] for column in sa.inspect(self.engine).get_columns("game_tables")}
        if "chosen_seed" not in known:
            with self.engine.begin() as db:
                db.execute(sa.text("ALTER TABLE game_tables ADD COLUMN chosen_seed BOOLEAN"))

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
            if finished:
                db.execute(_TABLES.update().where(_TABLES.c.id.in_(finished))
                           .values(finished=time.time()))

    def actions(self, table_id: str) -> list[StoredAction]:
        """Every stored action of a table, in order.

        >>> store = Store("sqlite://")
        >>> store.create_table("x", "back_alley", {}, 1, ["human"] * 4, {})
        >>> store.actions("x")
        []
        """
        with self.engine.connect() as db:
            rows = db.execute(sa.select(_ACTIONS.c.version, _ACTIONS.c.seat,
                                        _ACTIONS.c.made_by, _ACTIONS.c.action)
                              .where(_ACTIONS.c.table_id == table_id)
                              .order_by(_ACTIONS.c.version))
            out = []
            for version, seat, made_by, action in rows:
                try:
                    data = json.loads(action)
                except (TypeError, ValueError):
                    raise DamagedRow(int(version), "not JSON") from None
                if not isinstance(data, dict):
                    raise DamagedRow(int(version), "not a JSON object")
                out.append(StoredAction(int(version), None if seat is None else int(seat),
                                        str(made_by), data))
            return out

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

    def _tables(self, where: sa.ColumnElement[bool]) -> list[StoredTable]:
        counts = (sa.select(_ACTIONS.c.table_id, sa.func.count().label("n"))
                  .group_by(_ACTIONS.c.table_id).subquery())
        query = (sa.select(_TABLES, sa.func.coalesce(counts.c.n, 0))
                 .outerjoin(counts, counts.c.table_id == _TABLES.c.id)
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
