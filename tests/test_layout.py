"""The tests and benchmarks are laid out like the code (tests/README.md), and
every file the tools and pages name is where they say."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

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


def test_the_mutation_tool_maps_every_module_to_test_files_that_exist(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("mutation", ROOT / "tools" / "mutation.py")
    assert spec is not None
    assert spec.loader is not None
    mutation = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "mutation", mutation)   # its dataclasses look it up
    spec.loader.exec_module(mutation)
    named = {path for paths in mutation.TESTS.values() for path in paths}
    assert sorted(path for path in named if not (ROOT / path.split("::")[0]).exists()) == []
    # Every module of the package has its entry, and no entry names a module gone.
    assert mutation.stale_entries() == []
    # A stale entry stops the tool instead of being left out in silence.
    gone = "tests/engine/" + "test_gone.py"   # split, or the page scan below would look for it
    monkeypatch.setitem(mutation.TESTS, "cardrules/hand.py", [gone])
    with pytest.raises(mutation.StaleMap, match=r"test_gone\.py"):
        mutation.tests_for("cardrules/hand.py")
    assert mutation.stale_entries() == [f"cardrules/hand.py: no such file {gone}"]


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


# ---------------------------------------------------------------------------
# The import graph (docs/architecture.rst, "The rules of the house"), read
# from the code by tools/import_graph.py.


def _load_import_graph() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph",
                                                  ROOT / "tools" / "import_graph.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GRAPH_TOOL = _load_import_graph()
GRAPH: dict[str, dict[str, str]] = GRAPH_TOOL.module_imports()
GAMES: tuple[str, ...] = GRAPH_TOOL.GAMES


def _part(module: str) -> str:
    part: str = GRAPH_TOOL.part_of(module)
    return part


def test_the_graph_sees_the_modules_and_their_imports() -> None:
    # A check that the rules below can fail: the parser finds known imports.
    assert "cardrules.back_alley.determinization" in GRAPH["cardrules.back_alley.search"]
    assert GRAPH["cardrules.back_alley.state"]["cardrules.back_alley.pictures"] == "lazy"
    assert _part("cardrules.back_alley.double_dummy.solver") == "back_alley"
    assert _part("cardrules.i18n") == "core"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_package_imports_no_other_game_nor_the_command_or_the_server(game: str) -> None:
    banned = {*GAMES, "cli", "server"} - {game}
    found = sorted(f"{module} -> {target}" for module, targets in GRAPH.items()
                   if _part(module) == game for target in targets
                   if _part(target) in banned)
    assert found == []


def test_no_shared_part_imports_a_game_as_it_loads() -> None:
    found = sorted(f"{module} -> {target}" for module, targets in GRAPH.items()
                   if _part(module) in GRAPH_TOOL.SHARED
                   for target, kind in targets.items()
                   if _part(target) in GAMES and kind == "eager")
    assert found == []


def test_no_module_hides_an_import_of_cardrules_from_the_graph() -> None:
    # importlib.import_module("cardrules.x") is an import the graph cannot see;
    # only the registry finds packages by a computed name.
    hidden = re.compile(r"import_module\(\s*[\"']cardrules")
    found = sorted(path.relative_to(ROOT).as_posix()
                   for path in (ROOT / "src" / "cardrules").rglob("*.py")
                   if hidden.search(path.read_text("utf-8")))
    assert found == []


def test_no_circle_joins_two_parts() -> None:
    # Between modules, lazy imports included ...
    joined = [group for group in GRAPH_TOOL.circles(GRAPH, eager_only=False)
              if len({_part(module) for module in group}) > 1]
    assert joined == []
    # ... and between the parts themselves, leaving out the lazy `cardrules.simulate`
    # of the top-level package (a shortcut to the simulation part, not the core's own).
    edges: dict[str, set[str]] = {}
    for (source, target) in GRAPH_TOOL.part_imports(
            {m: t for m, t in GRAPH.items() if m != "cardrules"}):
        edges.setdefault(source, set()).add(target)
    assert GRAPH_TOOL.circles({part: dict.fromkeys(targets, "eager")
                               for part, targets in edges.items()}) == []
    assert "core" not in edges   # the core imports no part


def test_no_two_modules_import_each_other_as_they_load() -> None:
    assert GRAPH_TOOL.circles(GRAPH) == []


@pytest.mark.parametrize("part", [*GAMES, "cli"])
def test_inside_a_game_or_the_command_no_circle_but_the_lazy_picture_hooks(part: str) -> None:
    # The states and views draw themselves (_repr_svg_, _repr_html_) by importing
    # the game's pictures inside the hook, as python-chess does: the pictures
    # import the states and views, never the other way round as they load.
    # Every other circle (checks <-> determinization, advise <->
    # advise_back_alley, a game <-> its double dummy) is gone.
    pictures = f"cardrules.{part}.pictures"
    hooks = {f"cardrules.{part}.state", f"cardrules.{part}.views"}
    for module in hooks & set(GRAPH):
        assert GRAPH[module].get(pictures) in (None, "lazy"), module
    without_hooks = {module: {target: kind for target, kind in targets.items()
                              if not (module in hooks and target == pictures)}
                     for module, targets in GRAPH.items() if _part(module) == part}
    assert GRAPH_TOOL.circles(without_hooks, eager_only=False) == []


def test_the_pure_python_switch_is_read_in_one_place() -> None:
    readers = sorted(path.relative_to(ROOT).as_posix()
                     for path in (ROOT / "src" / "cardrules").rglob("*.py")
                     if re.search(r"environ\S*\(?\s*[\"']CARDRULES_PURE_PYTHON",
                                  path.read_text("utf-8")))
    assert readers == ["src/cardrules/_native.py"]


def test_no_module_is_named_like_a_name_its_package_exports() -> None:
    # `from cardrules.engine import play` is the function and `determinize` of a
    # game is the function: neither package has a module of that name, so a
    # reader never meets a module where a function was meant.
    import pkgutil

    import cardrules

    clashes = []
    for found in pkgutil.walk_packages(cardrules.__path__, "cardrules."):
        if not found.ispkg:
            continue
        try:
            package = importlib.import_module(found.name)
        except ImportError:   # an optional extra not installed
            continue
        exported = set(getattr(package, "__all__", ()))
        clashes += [f"{found.name}.{sub.name}" for sub in pkgutil.iter_modules(package.__path__)
                    if sub.name in exported]
    assert clashes == []
    from cardrules import down_and_back

    assert not hasattr(down_and_back, "evaluate")   # evaluate3 and evaluate4 are the functions


def test_text_width_on_a_terminal_is_measured_in_one_place() -> None:
    # engine.presenter.width (wide characters two columns, combining ones none)
    measured = sorted(path.relative_to(ROOT).as_posix()
                      for path in (ROOT / "src" / "cardrules").rglob("*.py")
                      if "east_asian_width" in path.read_text("utf-8"))
    assert measured == ["src/cardrules/engine/presenter.py"]


def test_the_architecture_picture_is_drawn_from_the_code() -> None:
    drawn = (ROOT / "docs" / "_static" / "architecture.svg").read_text("utf-8")
    assert drawn == GRAPH_TOOL.picture(GRAPH), "run: python tools/import_graph.py"


def test_rule_ids_in_test_names_are_written_one_way() -> None:
    # test_ba31_determinize_respects_voids, not ..._BA_31 or ..._ba_31
    pattern = re.compile(r"def (test_\w+)")
    odd = sorted(f"{path.relative_to(TESTS).as_posix()}: {name}" for path in _test_files()
                 for name in pattern.findall(path.read_text("utf-8"))
                 if re.search(r"(?:BA|DB)_?\d|(?:^|_)(?:ba|db)_\d", name))
    assert odd == []


def test_the_browser_and_load_tests_are_marked_slow() -> None:
    # A developer's quick loop (pytest -m "not slow") skips them; .ci/run runs
    # them alone, after the rest (tests/README.md).
    heavy = [path for path in _test_files()
             if re.search(r"^from support(?:\.| import )(?:browser|server_load)\b",
                          path.read_text("utf-8"), re.M)]
    assert heavy, "the browser and load tests import support.browser or support.server_load"
    unmarked = [path.relative_to(TESTS).as_posix() for path in heavy
                if "pytestmark = pytest.mark.slow" not in path.read_text("utf-8")]
    assert unmarked == []
