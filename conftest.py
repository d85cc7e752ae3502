"""Collection rules for the whole suite (tests, the package's doctests and the
README): modules and pages that need an optional extra are skipped when that
extra is not installed, so ``pytest`` runs on a bare install too.  The dev
extra installs every extra, so CI collects everything.

Every test and doctest runs in an English locale (``LC_ALL=C.UTF-8``, which
the ``cardrules`` command reads as English): the command speaks the user's
language, and the suite must not depend on the developer's ``LANG``.  A test
of another language says so itself (``--lang``, ``cardrules.language`` or its
own environment)."""

from __future__ import annotations

import importlib.util

import pytest

#: Paths (relative to this folder) and the module each one needs.
_NEEDS = {
    "src/cardrules/integrations/openspiel.py": "pyspiel",
    "src/cardrules/integrations/pettingzoo.py": "pettingzoo",
    "README.md": "pyspiel",
    # The clients of a real server process (the server extra brings them).
    "tests/support/server_client.py": "websockets",
    "tests/support/server_load.py": "websockets",
    "tests/support/server_process.py": "httpx",
}

collect_ignore = [path for path, module in _NEEDS.items()
                  if importlib.util.find_spec(module) is None]


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin the locale the command reads to English for every test (and for the
    processes a test starts)."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LANG", raising=False)
