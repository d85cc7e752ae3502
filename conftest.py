"""Collection rules for the whole suite (tests, the package's doctests and the
README): modules and pages that need an optional extra are skipped when that
extra is not installed, so ``pytest`` runs on a bare install too.  The dev
extra installs every extra, so CI collects everything."""

from __future__ import annotations

import importlib.util

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
