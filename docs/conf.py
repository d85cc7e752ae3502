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
# The doctest builder also runs the ``>>>`` examples that autodoc pulls in from
# the docstrings, and all blocks of one page share a namespace, so the names
# those docstrings use without importing are provided here.

doctest_global_setup = """
import numpy as np

import cardrules
from cardrules import (
    DECK,
    Card,
    CardRulesError,
    IllegalActionError,
    Joker,
    ParseError,
    Rank,
    Suit,
    parse_card,
    parse_cards,
)
from cardrules.down_and_back import (
    Category3,
    Category4,
    Combo,
    SplitOption,
    best_splits,
    evaluate3,
    evaluate3_batch,
    evaluate4,
    evaluate4_batch,
    splits,
)
from cardrules.down_and_back.categories import (
    CATEGORIES3,
    CATEGORIES4,
    classify3,
    classify4,
)
from cardrules.down_and_back.tables import (
    CATEGORY_SHIFT,
    INVALID,
    NUM_PAIR_IDS,
    colex_combinations,
    colex_index,
    load,
    pair_id,
    pair_offsets,
)
from cardrules.cli import main
"""

# -- HTML ------------------------------------------------------------------------

html_theme = "furo"
html_title = f"cardrules {release}"
