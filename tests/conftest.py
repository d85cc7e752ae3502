"""Shared pytest configuration: hypothesis profiles and the shared fixtures.

The ``ci`` profile (chosen when the ``CI`` environment variable is set, as
``.ci/run`` does) is derandomized and has no deadline, so CI never flakes on
timing or on a newly found example; ``dev`` explores with fresh randomness.

Layout (``tests/README.md`` has it in full): the tests sit in plain folders by
area (``down_and_back``, ``back_alley``, ``engine``, ``integrations``,
``cli``, ...; no ``__init__.py``; pytest imports each file by its path, so
two folders may each hold a ``test_game.py``), the cross-cutting ones (docs,
packaging, examples) here.  Helpers
used as plain functions come from the ``support`` package, imported as
``from support.<module> import <name>`` (``tests`` is on ``sys.path``:
``pythonpath`` in ``pyproject.toml``); what needs pytest's own fixtures is a
fixture defined here, which a test asks for by name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from support.gamecheck import SpyOnEntries
from support.pg_cluster import PostgresCluster, missing_reason

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def spy_on_entries(monkeypatch: pytest.MonkeyPatch) -> SpyOnEntries:
    """A function that makes each of the readers it is given (a module and the
    name of a function in it that reads one list entry) fail after a few
    thousand calls, for the rest of the test: a loader that reads a huge list
    entry by entry, instead of measuring it first, is then caught at once,
    with no timing in the test."""
    def spy_on(readers: Sequence[tuple[ModuleType, str]]) -> None:
        for module, name in readers:
            real = getattr(module, name)
            calls = [0]

            def spy(*args: Any, _real: Any = real, _calls: list[int] = calls,
                    _name: str = name, **kwargs: Any) -> Any:
                _calls[0] += 1
                assert _calls[0] < 5000, f"{_name} read entry after entry of a huge list"
                return _real(*args, **kwargs)

            monkeypatch.setattr(module, name, spy)

    return spy_on


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster for the whole run (``support.pg_cluster``):
    started on 127.0.0.1 at a free port in a temporary folder, stopped and
    removed at the end.  Without the server binaries or psycopg the tests
    that need it are skipped, or fail when ``CARDRULES_REQUIRE_POSTGRES=1``
    (as ``.ci/run`` sets)."""
    reason = missing_reason()
    if reason is not None:
        if os.environ.get("CARDRULES_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here: {reason}")
        pytest.skip(reason)
    cluster = PostgresCluster()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_database(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """A fresh, empty database on the session's cluster for a test of
    PostgreSQL alone (a new schema, dropped after the test: see
    ``PostgresCluster.new_schema``)."""
    url = postgres_cluster.new_schema()
    yield url
    postgres_cluster.drop_schema(url)


#: The stores the server tests run on: a SQLite file, and PostgreSQL (marked
#: ``postgres``: skipped without a server, unless CARDRULES_REQUIRE_POSTGRES=1).
STORES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def _new_database(request: pytest.FixtureRequest, folder: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(folder / "db.sqlite")
        return
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    url = cluster.new_schema()
    yield url
    cluster.drop_schema(url)


@pytest.fixture(params=STORES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for the server, once as a SQLite file and once
    on the session's PostgreSQL cluster (a new schema of its one database,
    dropped after the test: ``PostgresCluster.new_schema``): a test that asks
    for it runs against both stores."""
    yield from _new_database(request, tmp_path)


@pytest.fixture(params=STORES, scope="module")
def module_database(request: pytest.FixtureRequest,
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """As ``database``, one for a whole module (for a server process the
    module's tests share): each module's tests run once on each store."""
    yield from _new_database(request, tmp_path_factory.mktemp("db"))
