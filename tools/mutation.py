"""A sampled mutation run: which small changes to the code does no test notice?

Outside CI (it takes a while).  For each module of ``src/cardrules`` the
script lists every place a small, typical slip could be made (a comparison
flipped, ``and`` for ``or``, an off-by-one constant, a negated condition, a
boolean constant swapped, an arithmetic operator changed, a statement's
return value dropped), draws a seeded sample of them, and for each one runs
the tests that cover the module against a copy of the source with that one
change.  A mutant is *killed* when some test fails and *survives* when all
pass; survivors are listed with their line so a person can judge them:
either a test is missing or the change is equivalent (it cannot change
behaviour), which goes in ``tools/mutation_equivalent.txt`` as
``module | change | source line  # reason``.  Annotations and
``if TYPE_CHECKING`` blocks are never mutated (they do not run).

Run from the repository root::

    python tools/mutation.py --per-module 8 --seed 1           # sample every module
    python tools/mutation.py --module cardrules/hand.py --per-module 20 --seed 2
    python tools/mutation.py --module cardrules/hand.py --all  # every mutant of one module

Each module's sample depends only on the seed and the module's source, so
``--module`` reproduces the sample a whole run drew.  The tests that cover
each module are listed in :data:`TESTS`; they are run once unchanged first,
and a module whose tests already fail is skipped rather than scored.

The copy lives in a temporary folder, so the working tree is never changed.
Pure-Python code paths are tested (``CARDRULES_PURE_PYTHON=1``), since the C
speed-ups would otherwise hide mutants of the evaluators.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# Which tests guard which module: the test files that exercise it directly plus
# its own doctests, so that one mutant takes seconds, not the whole suite's
# minutes (a ``file::test`` entry runs one test of a slow file).  Every module
# has an entry and every file named must exist: the run stops at a stale entry
# (tests_for, stale_entries) rather than quietly scoring a module against fewer
# tests.  The tests sit in folders by area.
_DBT, _BAT, _ENT = "tests/down_and_back/", "tests/back_alley/", "tests/engine/"
_INT, _CLIT = "tests/integrations/", "tests/cli/"
_VEC, _SRVT = "tests/vector/", "tests/server/"
_ENGINE_GAMES = [_DBT + "test_actions.py", _BAT + "test_game.py"]
_DB = _DBT + "test_"
#: The Back Alley files that hold the tests written for earlier survivors.
_BA_PINS = [_BAT + "test_bots.py", _BAT + "test_analysis.py", _BAT + "test_search.py",
            _BAT + "test_encoding.py", _BAT + "test_checks.py", _ENT + "test_pictures.py"]
_CLI = [_CLIT + "test_commands.py", _CLIT + "test_human.py", _CLIT + "test_simulate.py"]
TESTS: dict[str, list[str]] = {
    "cardrules/__init__.py": [_ENT + "test_hand.py", "src/cardrules/__init__.py"],
    "cardrules/_validate.py": [_ENT + "test_validate.py", _ENT + "test_cards.py",
                               "src/cardrules/_validate.py"],
    "cardrules/cards.py": [_ENT + "test_cards.py", _ENT + "test_hand.py",
                           _DBT + "test_combos.py", "src/cardrules/cards.py"],
    "cardrules/hand.py": [_ENT + "test_hand.py", "src/cardrules/hand.py"],
    "cardrules/errors.py": [_ENT + "test_cards.py", _ENT + "test_records.py",
                            "src/cardrules/errors.py"],
    # The command line (a package).
    **{f"cardrules/cli/{name}.py": [*_CLI, f"src/cardrules/cli/{name}.py"]
       for name in ("__init__", "_games", "_options", "_output", "simulate", "play", "human",
                    "evaluate")},
    # replay --double-dummy is tested beside the analysis it prints.
    "cardrules/cli/replay.py": [*_CLI, _BAT + "test_dd_analysis.py",
                                "src/cardrules/cli/replay.py"],
    "cardrules/cli/_parser.py": [*_CLI, _CLIT + "test_languages.py",
                                 "src/cardrules/cli/_parser.py"],
    "cardrules/cli/advise.py": [*_CLI, _DBT + "test_analysis.py",
                                "src/cardrules/cli/advise.py"],
    "cardrules/cli/advise_back_alley.py": [*_CLI, _BAT + "test_analysis.py",
                                           "src/cardrules/cli/advise_back_alley.py"],
    "cardrules/engine/__init__.py": [_ENT + "test_rules.py",
                                     "src/cardrules/engine/__init__.py"],
    "cardrules/engine/bots.py": [_ENT + "test_rules.py",
                                 "src/cardrules/engine/bots.py"],
    "cardrules/engine/chance.py": [_ENT + "test_chance.py", _ENT + "test_readers.py",
                                   "src/cardrules/engine/chance.py"],
    "cardrules/engine/readers.py": [_ENT + "test_readers.py",
                                    _ENT + "test_records.py",
                                    "src/cardrules/engine/readers.py"],
    "cardrules/engine/conformance.py": [_ENT + "test_conformance.py",
                                        "src/cardrules/engine/conformance.py"],
    "cardrules/engine/json_out.py": [_ENT + "test_readers.py",
                                   _DBT + "test_loading.py",
                                   "src/cardrules/engine/json_out.py"],
    "cardrules/engine/selfplay.py": [_ENT + "test_rules.py",
                                 "src/cardrules/engine/selfplay.py"],
    "cardrules/engine/records.py": [_ENT + "test_records.py",
                                    _ENT + "test_contracts.py",
                                    "src/cardrules/engine/records.py"],
    "cardrules/engine/registry.py": [_ENT + "test_rules.py",
                                     "src/cardrules/engine/registry.py"],
    "cardrules/engine/rules.py": [_ENT + "test_rules.py", *_ENGINE_GAMES,
                                  "src/cardrules/engine/rules.py"],
    "cardrules/back_alley/__init__.py": [_BAT + "test_rules.py",
                                         _BAT + "test_game.py", _VEC + "test_back_alley.py",
                                         *_BA_PINS, "src/cardrules/back_alley/__init__.py"],
    "cardrules/back_alley/actions.py": [_BAT + "test_rules.py",
                                        _BAT + "test_game.py",
                                        *_BA_PINS, "src/cardrules/back_alley/actions.py"],
    "cardrules/back_alley/bots.py": [_BAT + "test_bots.py", *_BA_PINS,
                                     "src/cardrules/back_alley/bots.py"],
    "cardrules/back_alley/checks.py": [_BAT + "test_checks.py",
                                       _BAT + "test_serialize.py",
                                       _BAT + "test_game.py",
                                       _BAT + "test_properties.py",
                                       *_BA_PINS, "src/cardrules/back_alley/checks.py"],
    "cardrules/back_alley/serialize.py": [_BAT + "test_game.py",
                                          _BAT + "test_serialize.py",
                                          *_BA_PINS, "src/cardrules/back_alley/serialize.py"],
    "cardrules/back_alley/views.py": [_BAT + "test_rules.py",
                                      _BAT + "test_serialize.py",
                                      _BAT + "test_game.py",
                                      *_BA_PINS, "src/cardrules/back_alley/views.py"],
    "cardrules/back_alley/game.py": [_BAT + "test_game.py",
                                     _BAT + "test_reference.py",
                                     *_BA_PINS, "src/cardrules/back_alley/game.py"],
    "cardrules/back_alley/state.py": [_BAT + "test_game.py",
                                      _BAT + "test_rules.py",
                                      _BAT + "test_serialize.py",
                                      *_BA_PINS, "src/cardrules/back_alley/state.py"],
    # Down and Back (the C extension is not mutated: it is not Python).
    "cardrules/down_and_back/__init__.py": [_DB + "game.py", _DB + "actions.py",
                                            *(_VEC + "test_down_and_back.py::test_rules_vector_"
                                              + name for name in (
                                                  "builds_the_batch_of_the_settings_given",
                                                  "refuses_settings_left_out")),
                                            "src/cardrules/down_and_back/__init__.py"],
    "cardrules/down_and_back/_accel.py": [_DB + "combos.py", _DB + "actions.py",
                                          "src/cardrules/down_and_back/_accel.py"],
    "cardrules/down_and_back/actions.py": [_DB + "actions.py", _DB + "game.py",
                                           "src/cardrules/down_and_back/actions.py"],
    "cardrules/down_and_back/bots.py": [_ENT + "test_records.py", _DB + "game.py",
                                        "src/cardrules/down_and_back/bots.py"],
    "cardrules/down_and_back/categories.py": [_DB + "combos.py", _DBT + "test_combo_properties.py",
                                              _DBT + "test_tables.py",
                                              "src/cardrules/down_and_back/categories.py"],
    "cardrules/down_and_back/checks.py": [_DB + "loading.py", _DB + "game.py",
                                          _DB + "properties.py",
                                          "src/cardrules/down_and_back/checks.py"],
    "cardrules/down_and_back/combos.py": [_DB + "combos.py", _DBT + "test_combo_properties.py",
                                          _ENT + "test_cards.py",
                                          "src/cardrules/down_and_back/combos.py"],
    "cardrules/down_and_back/game.py": [_DB + "game.py", _DB + "actions.py",
                                        _DB + "properties.py",
                                        "src/cardrules/down_and_back/game.py"],
    "cardrules/down_and_back/serialize.py": [_DB + "loading.py",
                                             "src/cardrules/down_and_back/serialize.py"],
    "cardrules/down_and_back/state.py": [_DB + "game.py", _DB + "loading.py",
                                         "src/cardrules/down_and_back/state.py"],
    "cardrules/down_and_back/summary.py": [_DB + "game.py",
                                           "src/cardrules/down_and_back/summary.py"],
    "cardrules/down_and_back/tables.py": [_DBT + "test_tables.py", _DB + "combos.py",
                                          "src/cardrules/down_and_back/tables.py"],
    "cardrules/down_and_back/views.py": [_DB + "game.py", _DB + "properties.py",
                                         "src/cardrules/down_and_back/views.py"],
    # Modules sampled since the second run.
    "cardrules/back_alley/analysis.py": [_BAT + "test_analysis.py", *_BA_PINS,
                                         "src/cardrules/back_alley/analysis.py"],
    "cardrules/back_alley/determinization.py": [_BAT + "test_analysis.py",
                                                _BAT + "test_search.py", *_BA_PINS,
                                                "src/cardrules/back_alley/determinization.py"],
    "cardrules/back_alley/encoding.py": [_BAT + "test_encoding.py", *_BA_PINS,
                                         # the information-state tensor, through OpenSpiel
                                         _INT + "test_openspiel.py",
                                         "src/cardrules/back_alley/encoding.py"],
    "cardrules/back_alley/pictures.py": [*_BA_PINS, _ENT + "test_pictures.py",
                                         "src/cardrules/back_alley/pictures.py"],
    "cardrules/back_alley/trick.py": [_BAT + "test_trick.py",
                                      _BAT + "test_game.py",
                                      _BAT + "test_reference.py", *_BA_PINS,
                                      "src/cardrules/back_alley/trick.py"],
    "cardrules/back_alley/search.py": [_BAT + "test_search.py", *_BA_PINS,
                                       "src/cardrules/back_alley/search.py"],
    "cardrules/engine/tensors.py": [_BAT + "test_encoding.py",
                                     _DBT + "test_encoding.py",
                                     "src/cardrules/engine/tensors.py"],
    "cardrules/simulation/__init__.py": [_INT + "test_simulation.py",
                                         "src/cardrules/simulation/__init__.py"],
    "cardrules/simulation/plot.py": [_CLIT + "test_simulate.py", _INT + "test_simulation.py",
                                     "src/cardrules/simulation/plot.py"],
    "cardrules/simulation/result.py": [_INT + "test_simulation.py",
                                       _CLIT + "test_simulate.py",
                                       "src/cardrules/simulation/result.py"],
    "cardrules/simulation/run.py": [_INT + "test_simulation.py", _CLIT + "test_simulate.py",
                                    _INT + "test_simulation_dask.py",
                                    "src/cardrules/simulation/run.py"],
    "cardrules/integrations/openspiel.py": [_INT + "test_openspiel.py", _INT + "test_pettingzoo.py",
                                            "src/cardrules/integrations/openspiel.py"],
    "cardrules/integrations/pettingzoo.py": [_INT + "test_pettingzoo.py",
                                             "src/cardrules/integrations/pettingzoo.py"],
    "cardrules/down_and_back/analysis.py": [_DB + "analysis.py",
                                            "src/cardrules/down_and_back/analysis.py"],
    "cardrules/down_and_back/batch.py": [_DBT + "test_batch_kernel.py",
                                         _DBT + "test_batch_dtypes.py",
                                         _DBT + "test_combo_properties.py::"
                                         "test_best_splits_batch_marks_exactly_best_splits",
                                         "src/cardrules/down_and_back/batch.py"],
    "cardrules/down_and_back/determinization.py": [_DB + "search.py", _DB + "analysis.py",
                                               "src/cardrules/down_and_back/determinization.py"],
    "cardrules/down_and_back/encoding.py": [_DBT + "test_encoding.py", _INT + "test_openspiel.py",
                                            "src/cardrules/down_and_back/encoding.py"],
    "cardrules/down_and_back/pictures.py": [_ENT + "test_pictures.py",
                                            "src/cardrules/down_and_back/pictures.py"],
    "cardrules/down_and_back/showdown.py": [_DB + "showdown.py", _DB + "game.py",
                                            _DB + "loading.py",
                                            "src/cardrules/down_and_back/showdown.py"],
    "cardrules/down_and_back/rollout.py": [_DB + "search.py", _DB + "analysis.py",
                                           "src/cardrules/down_and_back/rollout.py"],
    "cardrules/down_and_back/search.py": [_DB + "search.py",
                                          "src/cardrules/down_and_back/search.py"],
    # The seam between the games and the shared parts: what each game tells its
    # seats, shows a person, counts in a simulation and bounds for OpenSpiel.
    "cardrules/engine/events.py": [_CLIT + "test_human.py", _INT + "test_openspiel.py",
                                   "src/cardrules/engine/events.py"],
    "cardrules/engine/presenter.py": [_CLIT + "test_human.py", _ENT + "test_toy_game.py",
                                      _CLIT + "test_languages.py",
                                      "src/cardrules/engine/presenter.py"],
    "cardrules/engine/tally.py": [_INT + "test_simulation.py",
                                  "src/cardrules/engine/tally.py"],
    "cardrules/engine/bounds.py": [_INT + "test_openspiel.py", "src/cardrules/engine/bounds.py"],
    **{f"cardrules/{game}/{name}.py": [_CLIT + "test_human.py", _INT + "test_openspiel.py",
                                       _INT + "test_simulation.py", _CLIT + "test_languages.py",
                                       f"src/cardrules/{game}/{name}.py"]
       for game in ("down_and_back", "back_alley")
       for name in ("events", "presenter", "tally", "bounds")},
    "cardrules/svg.py": [_ENT + "test_pictures.py", "src/cardrules/svg.py"],
    # The modules of the one-game-one-package layout: the switch to the C
    # extensions, languages, fixed deals, the batch engines and their shared
    # parts, double dummy, the OpenSpiel reader, the command's serve and the server.
    "cardrules/_native.py": [_BAT + "test_solver_c.py", _DBT + "test_speedups.py",
                             "src/cardrules/_native.py"],
    "cardrules/i18n.py": [_ENT + "test_i18n.py", _ENT + "test_i18n_catalogs.py",
                          _CLIT + "test_languages.py", "src/cardrules/i18n.py"],
    "cardrules/engine/batch.py": [_VEC + "test_make.py", "src/cardrules/engine/batch.py"],
    "cardrules/engine/deals.py": [_INT + "test_simulation.py", _INT + "test_pettingzoo.py",
                                  _INT + "test_openspiel.py", "src/cardrules/engine/deals.py"],
    "cardrules/back_alley/summary.py": [_BAT + "test_rules.py", _BAT + "test_game.py",
                                        "src/cardrules/back_alley/summary.py"],
    "cardrules/back_alley/vector.py": [_VEC + "test_back_alley.py", _VEC + "test_make.py",
                                       "src/cardrules/back_alley/vector.py"],
    "cardrules/back_alley/_vector_tables.py": [_VEC + "test_back_alley.py",
                                               "src/cardrules/back_alley/_vector_tables.py"],
    "cardrules/down_and_back/vector.py": [_VEC + "test_down_and_back.py", _VEC + "test_make.py",
                                          "src/cardrules/down_and_back/vector.py"],
    "cardrules/vector/__init__.py": [_VEC + "test_make.py", _VEC + "test_gym.py",
                                     _VEC + "test_down_and_back.py",
                                     "src/cardrules/vector/__init__.py"],
    **{f"cardrules/vector/{name}.py": [_VEC + "test_make.py", _VEC + "test_gym.py",
                                       f"src/cardrules/vector/{name}.py"]
       for name in ("base", "gym")},
    **{f"cardrules/vector/{name}.py": [_VEC + "test_make.py", _VEC + "test_down_and_back.py",
                                       _VEC + "test_back_alley.py",
                                       f"src/cardrules/vector/{name}.py"]
       for name in ("bots", "streams")},
    "cardrules/back_alley/double_dummy/__init__.py": [
        _BAT + "test_solver.py", "src/cardrules/back_alley/double_dummy/__init__.py"],
    "cardrules/back_alley/double_dummy/solver.py": [
        _BAT + "test_solver.py", _BAT + "test_solver_c.py",
        "src/cardrules/back_alley/double_dummy/solver.py"],
    "cardrules/back_alley/double_dummy/_native.py": [
        _BAT + "test_solver_c.py", _BAT + "test_solver.py",
        "src/cardrules/back_alley/double_dummy/_native.py"],
    "cardrules/back_alley/double_dummy/bot.py": [
        _BAT + "test_dd_bot.py", "src/cardrules/back_alley/double_dummy/bot.py"],
    "cardrules/back_alley/double_dummy/report.py": [
        _BAT + "test_dd_analysis.py", "src/cardrules/back_alley/double_dummy/report.py"],
    "cardrules/integrations/__init__.py": [_INT + "test_openspiel.py",
                                           "src/cardrules/integrations/__init__.py"],
    "cardrules/integrations/openspiel_saved.py": [
        _INT + "test_openspiel.py", "src/cardrules/integrations/openspiel_saved.py"],
    "cardrules/cli/serve.py": [*_CLI, _SRVT + "test_api.py", _SRVT + "test_hostile.py",
                               _SRVT + "test_fault.py", _SRVT + "test_workers.py",
                               "src/cardrules/cli/serve.py"],
    "cardrules/server/__init__.py": [_SRVT + "test_structure.py",
                                     "src/cardrules/server/__init__.py"],
    "cardrules/server/_live.py": [_SRVT + "test_hostile.py", _SRVT + "test_bot_slots.py",
                                  _SRVT + "test_group_commit.py", _SRVT + "test_structure.py",
                                  _SRVT + "test_ws.py", _SRVT + "test_leaks.py",
                                  "src/cardrules/server/_live.py"],
    "cardrules/server/store.py": [_SRVT + "test_store.py", _SRVT + "test_group_commit.py",
                                  _SRVT + "test_hostile.py", _SRVT + "test_ws.py",
                                  _SRVT + "test_api.py", "src/cardrules/server/store.py"],
    "cardrules/server/app.py": [_SRVT + "test_structure.py", _SRVT + "test_hostile.py",
                                _SRVT + "test_api.py", _SRVT + "test_ws.py",
                                _SRVT + "test_web_pages.py",
                                # of the several-process tests: catching up on
                                # notifications, and a lease lost
                                _SRVT + "test_cluster.py::"
                                "test_a_client_moves_to_another_process_mid_game",
                                _SRVT + "test_cluster.py::"
                                "test_a_table_whose_lease_is_lost_is_not_driven_here_again",
                                "src/cardrules/server/app.py"],
    "cardrules/server/_requests.py": [_SRVT + "test_hostile.py", _SRVT + "test_api.py",
                                      "src/cardrules/server/_requests.py"],
    **{f"cardrules/server/{name}.py": [_SRVT + "test_hostile.py", _SRVT + "test_api.py",
                                       _SRVT + "test_web_pages.py",
                                       f"src/cardrules/server/{name}.py"]
       for name in ("_guard", "_http", "limits")},
    "cardrules/server/cluster.py": [_SRVT + "test_cluster.py", "src/cardrules/server/cluster.py"],
    **{f"cardrules/server/{name}.py": [_SRVT + "test_web_languages.py",
                                       _SRVT + "test_web_pages.py",
                                       f"src/cardrules/server/{name}.py"]
       for name in ("web", "rules_text", "words")},
}
# The tests written for the survivors of earlier runs sit with their subjects;
# these files hold the ones that guard a Down and Back module or a shared one.
_DB_PINS = [_DB + "analysis.py", _DB + "search.py", _DB + "showdown.py", _DB + "loading.py",
            _ENT + "test_pictures.py"]
_CORE_PINS = [_ENT + "test_pictures.py", _INT + "test_simulation.py"]
_CORE = {"cardrules/__init__.py", "cardrules/_validate.py", "cardrules/cards.py",
         "cardrules/hand.py", "cardrules/errors.py", "cardrules/svg.py"}
for _module, _files in TESTS.items():
    if _module.startswith("cardrules/down_and_back/"):
        _files[-1:-1] = [path for path in _DB_PINS if path not in _files]
    elif _module in _CORE:
        _files[-1:-1] = [path for path in _CORE_PINS if path not in _files]
EQUIVALENT_FILE = ROOT / "tools" / "mutation_equivalent.txt"

_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}
_BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift, ast.RShift: ast.LShift,
}


@dataclass(frozen=True)
class Mutant:
    """One small change: the module, the line, a description, and how to apply it."""

    module: str
    number: int  # index among the module's mutation points
    line: int
    description: str
    code: str  # the original source line, stripped


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


class _SkipAnnotations(ast.NodeTransformer):
    """Leave annotations alone: with ``from __future__ import annotations``
    they are never evaluated, so changing them is always equivalent."""

    def visit_arg(self, node: ast.arg) -> ast.AST:
        return node

    def _without_returns(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        returns, node.returns = node.returns, None
        self.generic_visit(node)
        node.returns = returns
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._without_returns(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._without_returns(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node


class _Points(_SkipAnnotations):
    """Collect mutation points of a module in a stable order."""

    def __init__(self) -> None:
        self.points: list[tuple[int, str]] = []
        self._in_docstring = False

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        for op in node.ops:
            if type(op) in _COMPARE_SWAPS:
                new = _COMPARE_SWAPS[type(op)].__name__
                self.points.append((node.lineno, f"{type(op).__name__} -> {new}"))
        return self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if type(node.op) in _BINOP_SWAPS:
            new = _BINOP_SWAPS[type(node.op)].__name__
            self.points.append((node.lineno, f"{type(node.op).__name__} -> {new}"))
        return self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.points.append((node.lineno, f"{type(node.op).__name__} -> "
                            f"{'Or' if isinstance(node.op, ast.And) else 'And'}"))
        return self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if isinstance(node.op, ast.Not):
            self.points.append((node.lineno, "drop not"))
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, bool):
            self.points.append((node.lineno, f"{node.value} -> {not node.value}"))
        elif isinstance(node.value, int):
            self.points.append((node.lineno, f"{node.value} -> {node.value + 1}"))
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        if _is_type_checking(node):
            return node
        self.points.append((node.lineno, "negate if"))
        return self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        self.points.append((node.lineno, "drop raise"))
        return self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node  # docstrings and string statements are not code
        return self.generic_visit(node)


class _Apply(_SkipAnnotations):
    """Apply the ``target``-th mutation point (same order as :class:`_Points`)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.seen = -1

    def _hit(self) -> bool:
        self.seen += 1
        return self.seen == self.target

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        ops = list(node.ops)
        for i, op in enumerate(ops):
            if type(op) in _COMPARE_SWAPS and self._hit():
                ops[i] = _COMPARE_SWAPS[type(op)]()
        node.ops = ops
        self.generic_visit(node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if type(node.op) in _BINOP_SWAPS and self._hit():
            node.op = _BINOP_SWAPS[type(node.op)]()
        self.generic_visit(node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        if self._hit():
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self.generic_visit(node)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if isinstance(node.op, ast.Not) and self._hit():
            self.generic_visit(node)
            return node.operand
        self.generic_visit(node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, bool):
            if self._hit():
                return ast.copy_location(ast.Constant(not node.value), node)
        elif isinstance(node.value, int) and self._hit():
            return ast.copy_location(ast.Constant(node.value + 1), node)
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        if _is_type_checking(node):
            return node
        if self._hit():
            node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)
        self.generic_visit(node)
        return node

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        if self._hit():
            return ast.copy_location(ast.Pass(), node)
        self.generic_visit(node)
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node
        self.generic_visit(node)
        return node


def mutation_points(module: str) -> list[Mutant]:
    """Every mutation point of ``module`` (a path below ``src``)."""
    source = (SRC / module).read_text(encoding="utf-8")
    lines = source.splitlines()
    finder = _Points()
    finder.visit(ast.parse(source))
    # The same change can fit several places of one line (four ``False`` in
    # ``attrs.field(init=False, eq=False, ...)``): number them, so that one of
    # them can be judged equivalent without the others.
    total = Counter(finder.points)
    seen: Counter[tuple[int, str]] = Counter()
    mutants = []
    for i, (line, text) in enumerate(finder.points):
        seen[line, text] += 1
        if total[line, text] > 1:
            text = f"{text} [{seen[line, text]} of {total[line, text]}]"
        mutants.append(Mutant(module, i, line, text, lines[line - 1].strip()))
    return mutants


def mutated_source(mutant: Mutant) -> str:
    """The source of the module with ``mutant`` applied."""
    tree = ast.parse((SRC / mutant.module).read_text(encoding="utf-8"))
    tree = _Apply(mutant.number).visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


def modules() -> Iterator[str]:
    """Every Python module of the package, as a path below ``src``."""
    for path in sorted((SRC / "cardrules").rglob("*.py")):
        if path.name not in {"__main__.py"}:
            yield str(path.relative_to(SRC))


def _equivalent() -> set[tuple[str, str, str]]:
    """Mutants judged equivalent: ``module | change | source line  # reason`` per line
    (the source line without a trailing comment of its own)."""
    if not EQUIVALENT_FILE.exists():
        return set()
    known = set()
    for raw in EQUIVALENT_FILE.read_text(encoding="utf-8").splitlines():
        line = raw.split("  # ", 1)[0].strip()
        if line and not line.startswith("#"):
            module, description, code = (part.strip() for part in line.split(" | ", 2))
            known.add((module, description, code))
    return known


def _run_tests(tests: list[str], workdir: Path, timeout: float) -> tuple[bool, str]:
    """Run ``tests`` in the copy: (passed, the tail of pytest's output)."""
    env = dict(os.environ, CARDRULES_PURE_PYTHON="1", CI="true",
               PYTHONPATH=str(workdir / "src"), PYTHONDONTWRITEBYTECODE="1")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
             "--no-header", *tests],
            cwd=workdir, env=env, capture_output=True, timeout=timeout, check=False,
            text=True)
    except subprocess.TimeoutExpired:
        return False, "timed out"
    return result.returncode == 0, (result.stdout + result.stderr)[-2000:]


class StaleMap(Exception):
    """:data:`TESTS` names a module or a test file that is not there, or
    leaves a module out: the map must follow the code and the tests."""


def tests_for(module: str) -> list[str]:
    """The test files and doctest modules run against mutants of ``module``,
    as :data:`TESTS` lists them.

    Raises :class:`StaleMap` when the module has no entry or an entry names a
    file that does not exist (a test moved or renamed): leaving it out would
    score the module against fewer tests than the map promises."""
    if module not in TESTS:
        raise StaleMap(f"{module} has no entry in TESTS (tools/mutation.py)")
    missing = [t for t in TESTS[module] if not (ROOT / t.split("::")[0]).exists()]
    if missing:
        raise StaleMap(f"TESTS names files that do not exist for {module}: "
                       f"{', '.join(missing)}")
    return list(TESTS[module])


def stale_entries() -> list[str]:
    """Everything wrong with :data:`TESTS`: modules of the package it leaves
    out, modules it names that are gone, test files that do not exist."""
    found = set(modules())
    problems = [f"{module}: no entry" for module in sorted(found - TESTS.keys())]
    problems += [f"{module}: no such module" for module in sorted(TESTS.keys() - found)]
    problems += [f"{module}: no such file {path}" for module, paths in TESTS.items()
                 for path in paths if not (ROOT / path.split("::")[0]).exists()]
    return problems


def run_mutant(mutant: Mutant, workdir: Path, timeout: float,
               tests: list[str] | None = None) -> bool:
    """True when ``tests`` (by default :func:`tests_for` the module) kill
    ``mutant``: some test fails or the run times out."""
    target = workdir / "src" / mutant.module
    original = target.read_text(encoding="utf-8")
    target.write_text(mutated_source(mutant), encoding="utf-8")
    try:
        passed, _ = _run_tests(tests or tests_for(mutant.module), workdir, timeout)
    finally:
        target.write_text(original, encoding="utf-8")
    return not passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", help="only this module (below src)")
    parser.add_argument("--per-module", type=int, default=8, help="mutants sampled per module")
    parser.add_argument("--all", action="store_true", help="every mutant, no sampling")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="at most this many seconds per mutant (a mutant gets 10 times "
                             "its module's unmutated run, at least 30 s)")
    args = parser.parse_args(argv)
    stale = stale_entries()
    if stale:
        parser.exit(2, "TESTS in tools/mutation.py is stale:\n  " + "\n  ".join(stale) + "\n")
    equivalent = _equivalent()
    chosen = args.module or list(modules())
    total_killed = total_counted = 0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "repo"
        shutil.copytree(ROOT, workdir, ignore=shutil.ignore_patterns(
            ".git", ".venv*", "_build", "*.egg-info", "__pycache__", ".mypy_cache",
            ".ruff_cache", ".hypothesis", "build", "dist"))
        for module in chosen:
            # Without this a test that already fails (or a missing file) would
            # count every mutant as killed.
            tests = tests_for(module)
            started = time.perf_counter()
            passed, output = _run_tests(tests, workdir, args.timeout)
            # A mutant that makes the code loop forever is killed by the timeout:
            # no need to wait the full --timeout for each one.
            limit = min(args.timeout, max(30.0, 10 * (time.perf_counter() - started)))
            if not passed:
                print(f"{module}: SKIPPED, its tests fail without any mutant:\n{output}",
                      flush=True)
                continue
            points = mutation_points(module)
            # One generator per module, so a module's sample does not depend on
            # which other modules the same run samples.
            rng = random.Random(f"{args.seed}:{module}")
            sample = points if args.all else rng.sample(points, min(args.per_module,
                                                                    len(points)))
            killed = counted = same = 0
            for mutant in sample:
                # The file's lines end in "  # reason", so a source line is
                # matched without its own trailing comment.
                key = (mutant.module, mutant.description,
                       mutant.code.split("  # ", 1)[0].strip())
                if key in equivalent:
                    print(f"  equivalent {module}:{mutant.line} {mutant.description}")
                    same += 1
                    continue
                start = time.perf_counter()
                dead = run_mutant(mutant, workdir, limit, tests)
                counted += 1
                killed += dead
                status = "killed  " if dead else "SURVIVED"
                print(f"  {status} {module}:{mutant.line} {mutant.description} "
                      f"({time.perf_counter() - start:.0f} s) | {mutant.code}", flush=True)
            if counted:
                print(f"{module}: {killed}/{counted} killed "
                      f"({100 * killed / counted:.1f}%); sampled {len(sample)}, "
                      f"{same} equivalent", flush=True)
            total_killed += killed
            total_counted += counted
    if total_counted:
        print(f"total: {total_killed}/{total_counted} killed "
              f"({100 * total_killed / total_counted:.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
