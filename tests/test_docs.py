"""The documentation covers the package: every public name, every command-line
option and every rule id, with no reference to files outside the repository.

The Sphinx build in ``.ci/run`` (``-n -W``) checks that every reference
resolves; these tests check what a build cannot see: that nothing public is
missing from the pages.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import pkgutil
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import cardrules
from cardrules.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

_DIRECTIVE = re.compile(r"^\.\. (?:py:)?(auto)?(\w+):: *(\S+)")
_OPTION = re.compile(r"^   :([\w-]+):(.*)$")
_DOCUMENTING = {"class", "function", "data", "exception", "type", "method", "attribute"}


def _directives(text: str) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(directive, argument, options) for each top-level directive of a page."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _DIRECTIVE.match(line)
        if not match:
            continue
        options: dict[str, str] = {}
        key = None
        for following in lines[i + 1:]:
            option = _OPTION.match(following)
            if option:
                key = option.group(1)
                options[key] = option.group(2).strip()
            elif key and following.startswith("      ") and following.strip():
                options[key] += " " + following.strip()
            else:
                break
        yield (match.group(1) or "") + match.group(2), match.group(3), options


def _names(listed: str) -> list[str]:
    return [name.strip() for name in listed.split(",") if name.strip()]


def documented_names() -> set[str]:
    """The full names that docs/api.rst documents."""
    documented: set[str] = set()
    current = ""
    for directive, argument, options in _directives((DOCS / "api.rst").read_text("utf-8")):
        if directive in ("currentmodule", "py:currentmodule"):
            current = argument
        elif directive == "automodule":
            current = argument
            if "members" in options and "no-index" not in options:
                listed = _names(options["members"])
                if not listed:
                    excluded = set(_names(options.get("exclude-members", "")))
                    module = importlib.import_module(argument)
                    listed = [n for n in getattr(module, "__all__", ()) if n not in excluded]
                documented.update(f"{argument}.{name}" for name in listed)
        elif directive.removeprefix("auto") in _DOCUMENTING:
            name = argument if argument.startswith("cardrules.") else f"{current}.{argument}"
            documented.add(name)
    return documented


def _public_modules() -> Iterator[ModuleType]:
    yield cardrules
    for info in pkgutil.walk_packages(cardrules.__path__, prefix="cardrules."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts):
            continue  # private modules, __main__ and the C extension
        yield importlib.import_module(info.name)


def _resolve(path: str) -> object:
    module_name, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        owner_name, _, owner_attr = module_name.rpartition(".")
        owner = getattr(importlib.import_module(owner_name), owner_attr)
        return getattr(owner, name)


def test_api_page_documents_every_public_name() -> None:
    documented = documented_names()
    by_name: dict[str, list[object]] = {}
    for path in documented:
        by_name.setdefault(path.rpartition(".")[2], []).append(_resolve(path))
    missing = []
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            path = f"{module.__name__}.{name}"
            value = getattr(module, name)
            if path in documented:
                continue
            # A name re-exported from elsewhere is covered where it is documented,
            # and so is one that a package above exports in its place (the C
            # speed-ups stand in for the Python evaluators of the same name).
            packages = {module.__name__.rsplit(".", k)[0] for k in range(1, path.count("."))}
            if any(value is other for other in by_name.get(name, [])):
                continue
            if not any(f"{package}.{name}" in documented for package in packages):
                missing.append(path)
    assert missing == [], f"public names missing from docs/api.rst: {missing}"


def test_documented_names_exist() -> None:
    for path in documented_names():
        _resolve(path)  # raises if the page names something that is gone


def test_api_page_checker_sees_a_missing_name() -> None:
    # The checker itself must not pass everything: the package documents
    # evaluate4 under cardrules.down_and_back, not under some other path.
    documented = documented_names()
    assert "cardrules.down_and_back.evaluate4" in documented
    assert "cardrules.down_and_back.evaluate.evaluate4" not in documented
    assert "cardrules.Card" in documented


# -- the command line ------------------------------------------------------------------


class _Stop(Exception):
    pass


def _parser(monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser cardrules.cli.main builds, caught when it starts parsing."""
    caught: list[argparse.ArgumentParser] = []

    def catch(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        caught.append(self)
        raise _Stop

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", catch)
    with pytest.raises(_Stop):
        main(["eval", "AS"])
    return caught[0]


def _documented_options() -> dict[str, set[str]]:
    """Program name -> the options and arguments docs/cli.rst documents for it."""
    found: dict[str, set[str]] = {}
    program = ""
    for line in (DOCS / "cli.rst").read_text("utf-8").splitlines():
        if line.startswith(".. program:: "):
            program = line.removeprefix(".. program:: ").strip()
            found.setdefault(program, set())
        elif line.startswith(".. option:: "):
            spec = line.removeprefix(".. option:: ")
            for form in spec.split(","):
                found[program].add(form.split()[0].lower())
    return found


def _options(parser: argparse.ArgumentParser) -> set[str]:
    names: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        names.update(action.option_strings or [action.dest.lower()])
    return names


def test_cli_page_documents_every_command_and_option(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = _parser(monkeypatch)
    documented = _documented_options()
    expected = {"cardrules": _options(parser)}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, subparser in action.choices.items():
                expected[f"cardrules {command}"] = _options(subparser)
    assert set(expected) == set(documented)
    for program, options in expected.items():
        # -h/--help is documented once, for the command as a whole.
        wanted = options - ({"-h", "--help"} if program != "cardrules" else set())
        assert wanted <= documented[program], (program, wanted - documented[program])
    assert {"--players", "--rounds", "--ante", "--seed", "--bots", "--record", "--moves",
            "game"} <= expected["cardrules play"]


def test_cli_page_gives_the_exit_statuses() -> None:
    text = (DOCS / "cli.rst").read_text("utf-8")
    assert "status **0**" in text
    assert "status **2**" in text
    assert "standard error" in text


# -- rules -------------------------------------------------------------------------------

RULE_IDS = (
    [f"DB-{n}" for n in (1, 2, *range(10, 18), *range(20, 26), *range(30, 38), *range(40, 45))]
    + [f"BA-{n}" for n in (*range(1, 4), *range(10, 14), *range(20, 26), *range(30, 35),
                           *range(40, 44), 50)]
)
_RULE_ID = re.compile(r"\b(?:DB|BA)-\d+\b")


def test_rules_page_defines_every_rule_once() -> None:
    text = (DOCS / "rules.rst").read_text("utf-8")
    defined = re.findall(r"^((?:DB|BA)-\d+)\b", text, flags=re.MULTILINE)
    assert defined == RULE_IDS
    assert "authority" in text


def test_every_rule_id_cited_by_the_code_is_on_the_rules_page() -> None:
    cited = set()
    for path in (ROOT / "src" / "cardrules").rglob("*.py"):
        cited.update(_RULE_ID.findall(path.read_text("utf-8")))
    assert cited, "the code cites rule ids"
    assert cited <= set(RULE_IDS), sorted(cited - set(RULE_IDS))


# -- self-contained ----------------------------------------------------------------------

_OUTSIDE = re.compile(r"\.\./shared|/work/|shared/RULES|\bRULES\.md\b")
# Files whose references to a rule book outside the repository are still to be
# rewritten (to "the rules page of the documentation", docs/rules.rst) by the
# engineers changing them at the time of writing.  Remove each one once fixed;
# any other file that points outside fails at once.
_PENDING: frozenset[str] = frozenset()
_SKIP_DIRS = {".git", "_build", "build", "dist", "node_modules", "__pycache__"}


def _repository_text_files() -> Iterator[Path]:
    suffixes = {".py", ".rst", ".md", ".toml", ".txt", ".cfg", ".ini", ".c", ".pyi"}
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if parts & _SKIP_DIRS or any(p.startswith(".venv") for p in parts):
            continue
        if path.is_file() and (path.suffix in suffixes or path.name == "run"):
            yield path


def test_nothing_points_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    offenders = []
    for path in _repository_text_files():
        if path == here or path.relative_to(ROOT).as_posix() in _PENDING:
            continue
        for number, line in enumerate(path.read_text("utf-8", "replace").splitlines(), 1):
            if _OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == [], "\n".join(offenders)


# -- offline intersphinx ---------------------------------------------------------------


def _load_inventory_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_inventories", DOCS / "_inventories" / "make_inventories.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_inventories_match_their_script() -> None:
    script = _load_inventory_script()
    assert set(script.INVENTORIES) == {"python.inv", "attrs.inv", "numpy.inv"}
    for filename, (project, version, entries) in script.INVENTORIES.items():
        shipped = (DOCS / "_inventories" / filename).read_bytes()
        fresh = script.inventory(project, version, entries)
        head, _, body = shipped.partition(b"zlib.\n")
        fresh_head, _, fresh_body = fresh.partition(b"zlib.\n")
        assert head == fresh_head, filename
        assert zlib.decompress(body) == zlib.decompress(fresh_body), (
            f"{filename} is stale: run python docs/_inventories/make_inventories.py")


def test_inventories_list_what_the_docs_use() -> None:
    script = _load_inventory_script()
    names = {name for _, _, entries in script.INVENTORIES.values() for name, _, _ in entries}
    assert {"int", "str", "tuple", "bool", "None", "ValueError", "TypeError",
            "random.Random", "collections.abc.Sequence", "enum.Enum", "enum.IntEnum",
            "typing.Any", "attrs.frozen", "attrs.define", "attrs.evolve",
            "numpy.ndarray", "numpy.dtype", "numpy.typing.NDArray"} <= names


def test_intersphinx_reads_local_files_only() -> None:
    tree = ast.parse((DOCS / "conf.py").read_text("utf-8"))
    mapping = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                   and any(getattr(t, "id", "") == "intersphinx_mapping" for t in node.targets))
    value = ast.literal_eval(mapping)
    assert set(value) == {"python", "attrs", "numpy"}
    for url, inventory in value.values():
        assert url.startswith("https://")
        assert not inventory.startswith(("http:", "https:"))
        assert (DOCS / inventory).is_file()
