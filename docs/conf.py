"""Sphinx configuration for the cardrules documentation."""

from __future__ import annotations

import sys
from pathlib import Path

# The package is normally importable from the (editable) install; the source
# tree is put on sys.path as a fallback so the docs also build from a bare checkout.
_SRC = Path(__file__).resolve().parent.parent / "src"
try:
    import cardrules
except ImportError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(_SRC))
    import cardrules

# -- Project -------------------------------------------------------------------

project = "cardrules"
author = "The cardrules developers"
copyright = "The cardrules developers"
release = cardrules.__version__
version = ".".join(release.split(".")[:2])

# -- General -------------------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]
# sphinx.ext.napoleon is left out on purpose: the docstrings are plain reST,
# and napoleon would read a property docstring such as "One-letter form: ..."
# as "type: description" and render it wrongly.

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
nitpicky = False

# -- autodoc ---------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "signature"

# -- doctest ---------------------------------------------------------------------
# Only the ``.. doctest::`` blocks of the pages run here; the ``>>>`` examples
# in docstrings run under pytest (``--doctest-modules``) with their module's
# own names, so they are not run a second time by Sphinx.

doctest_test_doctest_blocks = ""

# -- HTML ------------------------------------------------------------------------

html_theme = "furo"
html_title = f"cardrules {release}"
