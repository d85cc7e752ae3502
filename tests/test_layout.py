"""The tests and benchmarks are laid out like the code (tests/README.md), and
every file the tools and pages name is where they say."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from support import ROOT

TESTS = ROOT / "tests"
AREAS = {"down_and_back", "back_alley", "engine", "integrations", "cli", "vector", "server"}
#: The only test files at the top: they are about the whole repository.
CROSS_CUTTING = {"test_docs.py", "test_examples.py", "test_layout.py", "test_packaging.py"}


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def test_every_test_file_is_in_its_area_or_about_the_whole_repository() -> None:
    misplaced = [path.relative_to(TESTS).as_posix() for path in _test_files()
                 if not (path.parent == TESTS and path.name in CROSS_CUTTING)
                 and not (path.parent.parent == TESTS and path.parent.name in AREAS)]
    assert misplaced == []
    folders = {path.name for path in TESTS.iterdir()
               if path.is_dir() and path.name != "__pycache__"}
    assert folders == {*AREAS, "support"}


def test_test_files_are_named_for_their_subject_and_the_folders_are_not_packages() -> None:
    # pytest imports test files by path (--import-mode=importlib), so a name
    # need not repeat its folder: tests/down_and_back/test_game.py, not
    # test_down_and_back_game.py.  Only test files sit in the area folders.
    repeating = [path.relative_to(TESTS).as_posix() for path in TESTS.rglob("test_*.py")
                 if path.parent.name in AREAS and path.stem.startswith(f"test_{path.parent.name}_")]
    assert repeating == []
    # Tests are grouped by subject, not by how they came to be written.
    by_history = [path.relative_to(TESTS).as_posix() for path in TESTS.rglob("test_*.py")
                  if re.search(r"mutation_kills|_hardening|_evolve", path.stem)]
    assert by_history == []
    helpers = [path.relative_to(TESTS).as_posix() for path in TESTS.rglob("*.py")
               if path.parent.name in AREAS and not path.name.startswith("test_")]
    assert helpers == []
    assert [area for area in AREAS if (TESTS / area / "__init__.py").exists()] == []
    assert (TESTS / "support" / "__init__.py").is_file()
    assert (TESTS / "support" / "references" / "__init__.py").is_file()


def test_the_mutation_tool_names_test_files_that_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("mutation", ROOT / "tools" / "mutation.py")
    assert spec is not None
    assert spec.loader is not None
    mutation = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mutation", mutation)   # its dataclasses look it up
    spec.loader.exec_module(mutation)
    named = {path for paths in mutation.TESTS.values() for path in paths}
    assert sorted(path for path in named if not (ROOT / path).exists()) == []


def test_benchmarks_are_split_into_speed_and_strength() -> None:
    scripts = sorted(path.relative_to(ROOT / "benchmarks").as_posix()
                     for path in (ROOT / "benchmarks").rglob("*.py")
                     if "__pycache__" not in path.parts)
    assert scripts
    assert [script for script in scripts
            if not script.startswith(("speed/", "strength/"))] == []


_NAMED = re.compile(r"\b(?:benchmarks|tests|tools|examples)/[\w/.-]*\w\.(?:py|md|json)\b")


def test_every_file_the_pages_name_exists() -> None:
    pages = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", TESTS / "README.md",
             *sorted((ROOT / "docs").glob("*.rst")), *sorted((ROOT / "docs" / "api").glob("*.rst")),
             *sorted((ROOT / "benchmarks").rglob("*.py")), *sorted(TESTS.rglob("*.py"))]
    missing = [f"{page.relative_to(ROOT)}: {name}" for page in pages
               for name in _NAMED.findall(page.read_text("utf-8"))
               if not (ROOT / name).exists()]
    assert missing == []


def test_rule_ids_in_test_names_are_written_one_way() -> None:
    # test_ba31_determinize_respects_voids, not ..._BA_31 or ..._ba_31
    pattern = re.compile(r"def (test_\w+)")
    odd = sorted(f"{path.relative_to(TESTS).as_posix()}: {name}" for path in _test_files()
                 for name in pattern.findall(path.read_text("utf-8"))
                 if re.search(r"(?:BA|DB)_?\d|(?:^|_)(?:ba|db)_\d", name))
    assert odd == []
