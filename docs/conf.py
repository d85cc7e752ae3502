"""Sphinx configuration for the cardrules documentation."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# The reference documents the pure-Python evaluators (the C speed-ups give the
# same results), so the pages are the same whether or not the extension was
# built.  This must be set before cardrules.down_and_back is imported.
os.environ["CARDRULES_PURE_PYTHON"] = "1"

# The package is normally importable from the (editable) install; the source
# tree is put on sys.path as a fallback so the docs also build from a bare checkout.
_DOCS = Path(__file__).resolve().parent
_SRC = _DOCS.parent / "src"
sys.path.insert(0, str(_DOCS / "_ext"))
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
    "sphinx.ext.intersphinx",
    "myst_parser",
    "public_names",  # _ext/public_names.py: links definition paths to public names
    "charts",  # _ext/charts.py: writes the hand-analysis charts into _generated/
    "split_chart",  # _ext/split_chart.py: the chart of analysis.rst, into _generated/
    "svg_pictures",  # _ext/svg_pictures.py: the cardrules-svg directive (pictures.rst)
]
# sphinx.ext.napoleon is left out on purpose: the docstrings are plain reST,
# and napoleon would read a property docstring such as "One-letter form: ..."
# as "type: description" and render it wrongly.

exclude_patterns = ["_build", "_ext", "_generated", "_inventories", "Thumbs.db", ".DS_Store"]
# The pages are reStructuredText; Markdown (through myst-parser) is only used
# to include CHANGELOG.md in changelog.rst.
source_suffix = {".rst": "restructuredtext"}

# Every cross-reference must resolve: the build runs with -n -W in .ci/run.
# Nothing is ignored.  The one kind of name in type hints that has no entry
# anywhere, a TypeVar (S, A in generic signatures), is shown as plain text by
# _ext/public_names.py, which recognises it by its type rather than by name.
nitpicky = True
# Starlette publishes no Sphinx inventory: the server's signatures name its
# classes without a link.
nitpick_ignore = [("py:class", "starlette.applications.Starlette"),
                  ("py:class", "starlette.routing.BaseRoute")]

# -- intersphinx ---------------------------------------------------------------
# Links to the Python, attrs, numpy, Gymnasium and PettingZoo documentation.  The
# build must work offline, so the inventories are small local files written by
# _inventories/make_inventories.py (listing the names these docs use) and
# nothing is downloaded; the links still point at the real sites.

intersphinx_mapping = {
    "python": ("https://docs.python.org/3", "_inventories/python.inv"),
    "attrs": ("https://www.attrs.org/en/stable", "_inventories/attrs.inv"),
    "numpy": ("https://numpy.org/doc/stable", "_inventories/numpy.inv"),
    "gymnasium": ("https://gymnasium.farama.org", "_inventories/gymnasium.inv"),
    "pettingzoo": ("https://pettingzoo.farama.org", "_inventories/pettingzoo.inv"),
}

# -- autodoc ---------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# String annotations are made fully qualified by _ext/public_names.py, which
# also sends a reference to a defining module (cardrules.hand.Hand) to the
# entry for the public name (cardrules.Hand), so no autodoc_type_aliases.
# Show "Hand" rather than "cardrules.hand.Hand" in signatures (links are kept).
python_use_unqualified_type_names = True

# -- MyST (Markdown) -------------------------------------------------------------

myst_heading_anchors = 2

# -- doctest ---------------------------------------------------------------------
# Only the ``.. doctest::`` blocks of the pages run here; the ``>>>`` examples
# in docstrings run under pytest (``--doctest-modules``) with their module's
# own names, so they are not run a second time by Sphinx.

doctest_test_doctest_blocks = ""

# -- HTML ------------------------------------------------------------------------

html_theme = "furo"
html_title = f"cardrules {release}"
