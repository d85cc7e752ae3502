"""The shipped tables, lazy loading and the optional numpy dependency."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

from cardrules import DECK
from cardrules.down_and_back import evaluate4
from cardrules.down_and_back.tables import (
    CATEGORY_SHIFT,
    INVALID,
    generate,
    load,
    pair_id,
    pair_tables,
)


def test_shipped_tables_equal_the_generator_output() -> None:
    """_tables.bin must be exactly what the rule definitions generate (DB-10..DB-25)."""
    strengths4, strengths3 = generate()
    assert Counter(s >> CATEGORY_SHIFT for s in strengths4) == {
        7: 13, 6: 1_056, 5: 40, 4: 2_520, 3: 2_820, 2: 2_808, 1: 25_308, 0: 236_160}
    assert Counter(s >> CATEGORY_SHIFT for s in strengths3) == {
        5: 52, 4: 44, 3: 660, 2: 1_100, 1: 2_304, 0: 17_940}
    four, three = pair_tables(strengths4, strengths3)
    shipped_four, shipped_three = load()
    assert four == shipped_four
    assert three == shipped_three


def test_pair_tables_mark_repeated_cards_invalid() -> None:
    four, three = load()
    assert four[pair_id(5, 5) * 1327 + pair_id(1, 2)] == INVALID
    assert four[pair_id(0, 1) * 1327 + pair_id(1, 2)] == INVALID
    assert three[pair_id(3, 4) * 52 + 4] == INVALID
    assert four[pair_id(0, 1) * 1327 + pair_id(2, 3)] == evaluate4(DECK[:4]).strength


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return done.stdout.strip()


def test_import_cardrules_is_light() -> None:
    out = _run("import sys, cardrules; "
               "print(sorted(m for m in ('numpy', 'cardrules.down_and_back') if m in sys.modules))")
    assert out == "[]"


def test_tables_load_on_first_evaluation_only() -> None:
    out = _run("import cardrules\n"
               "import cardrules.down_and_back as db\n"
               "from cardrules.down_and_back import tables\n"
               "before = tables.load.cache_info().currsize\n"
               "db.evaluate3(cardrules.DECK[:3])\n"
               "print(before, tables.load.cache_info().currsize)")
    assert out == "0 1"


def test_everything_but_the_batch_evaluators_works_without_numpy() -> None:
    """pip install cardrules must work without numpy; the batch calls name the extra."""
    out = _run(
        "import sys\n"
        "sys.modules['numpy'] = None  # makes 'import numpy' fail\n"
        "import cardrules.down_and_back as db\n"
        "from cardrules import DECK\n"
        "print(db.evaluate4(DECK[:4]).category.name, len(db.best_splits(DECK[:7])) > 0)\n"
        "for f in (db.evaluate4_batch, db.evaluate3_batch, db.split_strengths_batch,\n"
        "          db.best_splits_batch):\n"
        "    try:\n"
        "        f([[0, 1, 2, 3]])\n"
        "    except ImportError as err:\n"
        "        print(err)\n")
    lines = out.splitlines()
    assert lines[0] == "QUAD True"
    assert lines[1:] == ["the batch evaluators need numpy: pip install 'cardrules[numpy]'"] * 4


def test_package_ships_type_information() -> None:
    out = _run("import importlib.resources as r; "
               "print(r.files('cardrules').joinpath('py.typed').is_file())")
    assert out == "True"
