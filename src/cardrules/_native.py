"""The one place that decides whether cardrules uses its C extensions.

cardrules has two optional extension modules, each built from C sources
kept beside the Python code they speed up: Down and Back's evaluators
(``cardrules.down_and_back._speedups``) and Back Alley's double-dummy
solver (``cardrules.back_alley.double_dummy._solver``).  Either may be
missing (no compiler at install time); the Python code then does the work,
with the same answers.

Set ``CARDRULES_PURE_PYTHON`` to any value but empty or ``0`` before
importing cardrules to use the Python code alone.

>>> load("cardrules.no_such_extension") is None
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["PURE_PYTHON_REQUESTED", "load"]

#: True when ``CARDRULES_PURE_PYTHON`` asks for the Python code: any value but
#: empty or ``0``, the same reading setup.py gives its build switches.
PURE_PYTHON_REQUESTED = os.environ.get("CARDRULES_PURE_PYTHON", "").strip() not in ("", "0")


def load(name: str) -> ModuleType | None:
    """The extension module ``name``, or None when it is not built, cannot run
    on this processor, or :data:`PURE_PYTHON_REQUESTED` is set.

    >>> load("cardrules.down_and_back._speedups") is None or not PURE_PYTHON_REQUESTED
    True
    """
    if PURE_PYTHON_REQUESTED:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:  # depends on how the package was built
        return None
