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
# The API reference is not translated: the catalogs' build (``-b gettext -t
# no_api`` in .ci/run) leaves its pages out, the slowest to read (autodoc).
if tags.has("no_api"):  # noqa: F821 (Sphinx gives conf.py its tags)
    exclude_patterns.append("api/*")
# The pages are reStructuredText; Markdown (through myst-parser) is only used
# to include CHANGELOG.md in changelog.rst.
source_suffix = {".rst": "restructuredtext"}

# Every cross-reference must resolve: the build runs with -n -W in .ci/run.
# Nothing is ignored.  The one kind of name in type hints that has no entry
# anywhere, a TypeVar (S, A in generic signatures), is shown as plain text by
# _ext/public_names.py, which recognises it by its type rather than by name.
nitpicky = True
# ... except in the catalogs' build, where the API pages it leaves out are the
# targets of the guides' references (they resolve in every HTML build).
if tags.has("no_api"):  # noqa: F821
    nitpicky = False
    suppress_warnings = ["toc.excluded", "ref.doc"]
# Starlette publishes no Sphinx inventory: the small local one
# (_inventories/starlette.inv) links its classes in the server's signatures
# to its pages.

# -- intersphinx ---------------------------------------------------------------
# Links to the Python, attrs, numpy, Gymnasium, PettingZoo and Starlette documentation.  The
# build must work offline, so the inventories are small local files written by
# _inventories/make_inventories.py (listing the names these docs use) and
# nothing is downloaded; the links still point at the real sites.

intersphinx_mapping = {
    "python": ("https://docs.python.org/3", "_inventories/python.inv"),
    "attrs": ("https://www.attrs.org/en/stable", "_inventories/attrs.inv"),
    "numpy": ("https://numpy.org/doc/stable", "_inventories/numpy.inv"),
    "gymnasium": ("https://gymnasium.farama.org", "_inventories/gymnasium.inv"),
    "pettingzoo": ("https://pettingzoo.farama.org", "_inventories/pettingzoo.inv"),
    "starlette": ("https://www.starlette.io", "_inventories/starlette.inv"),
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

# -- Translations ----------------------------------------------------------------
# The quickstart and the rules pages are translated into Japanese and Ukrainian
# (docs/locales/<lang>/LC_MESSAGES/<page>.po, kept with sphinx-intl; see
# languages.rst).  Build a translated site with ``-D language=ja`` or ``uk``;
# pages without a catalog stay in English.  The .mo files are compiled by
# Sphinx itself at build time (gettext_auto_build).
locale_dirs = ["locales/"]
gettext_compact = False
gettext_uuid = False
gettext_location = False
