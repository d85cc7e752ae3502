"""What the tests share: helpers, rigged deals, recorded games and the
independent reference implementations.

The test folders (``tests/down_and_back``, ``tests/back_alley``,
``tests/engine``, ``tests/integrations``, ``tests/cli``) are plain folders,
not packages; ``tests`` itself is on ``sys.path`` (``pythonpath`` in
``pyproject.toml``), so every test imports from here the same way::

    from support.gamecheck import check_json
    from support.db_deals import start
    from support.ba_deals import dealt
    from support.references.back_alley import RefGame

Fixtures (``spy_on_entries``, ...) are not imported: ``tests/conftest.py``
provides them.  ``tests/README.md`` has the whole layout.

>>> (ROOT / "pyproject.toml").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

#: The repository's root folder (where ``pyproject.toml`` is).
ROOT = Path(__file__).resolve().parents[2]
