"""A throwaway PostgreSQL cluster for the tests: ``initdb`` and ``pg_ctl`` in
a temporary folder, listening on 127.0.0.1 at a free port only, stopped
and removed afterwards.

The server binaries are looked for on ``PATH`` and in Debian's
``/usr/lib/postgresql/*/bin``.  PostgreSQL refuses to run as root: as
root the cluster is made and run as the ``postgres`` user (Debian's
package makes it) through ``runuser``.  Durability is turned off
(``fsync``, ``synchronous_commit``): the tests kill server processes, never
the database, so nothing they check depends on it.

>>> find_binary("no-such-postgres-tool") is None
True
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from support.server_process import free_port

__all__ = ["PostgresCluster", "find_binary", "missing_reason"]


def find_binary(name: str) -> str | None:
    """The path of PostgreSQL's program ``name``, or None.

    >>> find_binary("initdb") is None or find_binary("initdb").endswith("initdb")
    True
    """
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return candidate
    return None


def missing_reason() -> str | None:
    """Why no cluster can be started here (None: it can).

    >>> missing_reason() is None or "PostgreSQL" in missing_reason()
    True
    """
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return 'psycopg 3 is missing: pip install "cardrules[postgres]"'
    for name in ("initdb", "pg_ctl"):
        if find_binary(name) is None:
            return f"the PostgreSQL server is not installed ({name} not found)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root, and runuser is missing to run PostgreSQL as postgres"
    return None


class PostgresCluster:
    """One temporary cluster: :meth:`start`, :meth:`new_database` (a fresh
    empty database's URL) and :meth:`stop` (which removes its folder).

    >>> PostgresCluster().port is None
    True
    """

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.port: int | None = None
        self.user = "cardrules"
        self._count = 0
        self._shared: str | None = None

    def _run(self, *command: str) -> None:
        prefix: list[str] = []
        if os.geteuid() == 0:
            prefix = ["runuser", "-u", "postgres", "--"]
        done = subprocess.run([*prefix, *command], capture_output=True, text=True,
                              timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        """initdb and start the cluster (about two seconds)."""
        initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        assert initdb is not None
        assert pg_ctl is not None
        self.folder = Path(tempfile.mkdtemp(prefix="cardrules-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        data = self.folder / "data"
        self._run(initdb, "-D", str(data), "-U", self.user, "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        self.port = free_port()
        options = " ".join([
            "-c listen_addresses=127.0.0.1", f"-p {self.port}",
            f"-c unix_socket_directories={self.folder}", "-c max_connections=300",
            "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
            "-c shared_buffers=64MB"])
        self._run(pg_ctl, "-D", str(data), "-o", options, "-l", str(self.folder / "log"),
                  "-w", "-t", "60", "start")

    @property
    def admin_url(self) -> str:
        """The URL of the ``postgres`` database (to make others)."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def new_database(self, name: str | None = None) -> str:
        """Make a new empty database; its URL (``postgresql://...``)."""
        import psycopg

        self._count += 1
        name = name or f"t{os.getpid()}_{self._count}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.admin_url, autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{name}"

    def new_schema(self) -> str:
        """A new empty schema in one database kept for the whole run; the
        URL of that database with the schema first on its ``search_path``.
        To a server it is a fresh database, made in milliseconds rather
        than the tenth of a second or more a copied database takes (and
        what a test stores is dropped with it by :meth:`drop_schema`); the
        notifications of the database are shared, which a server ignores
        for tables it does not have.

        >>> PostgresCluster().new_schema.__name__
        'new_schema'
        """
        import psycopg

        if self._shared is None:
            self._shared = self.new_database("shared")
        self._count += 1
        name = f"s{self._count}"
        with psycopg.connect(self._shared, autocommit=True) as db:
            db.execute(f'CREATE SCHEMA "{name}"')
        return f"{self._shared}?options=-csearch_path%3D{name}"

    def drop_schema(self, url: str) -> None:
        """Drop a schema :meth:`new_schema` made, with all it holds (left
        alone if a connection still holds a lock on it after a few seconds)."""
        import psycopg

        base, _, options = url.partition("?options=-csearch_path%3D")
        with psycopg.connect(base, autocommit=True) as db:
            db.execute("SET lock_timeout = '5s'")
            with contextlib.suppress(psycopg.errors.LockNotAvailable):
                db.execute(f'DROP SCHEMA IF EXISTS "{options}" CASCADE')

    def stop(self) -> None:
        """Stop the cluster at once and remove its folder."""
        if self.folder is None:
            return
        pg_ctl = find_binary("pg_ctl")
        assert pg_ctl is not None
        try:
            self._run(pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
