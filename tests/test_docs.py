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
import itertools
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
    """The full names that the pages of docs/api/ document."""
    documented: set[str] = set()
    for page in sorted((DOCS / "api").glob("*.rst")):
        documented |= _documented_on(page.read_text("utf-8"))
    return documented


def _documented_on(text: str) -> set[str]:
    """The full names one page of the API reference documents."""
    documented: set[str] = set()
    current = ""
    for directive, argument, options in _directives(text):
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
    assert missing == [], f"public names missing from docs/api/: {missing}"


def test_documented_names_exist() -> None:
    for path in documented_names():
        _resolve(path)  # raises if the page names something that is gone


def test_api_page_checker_sees_a_missing_name() -> None:
    # The checker itself must not pass everything: the package documents
    # evaluate4 under cardrules.down_and_back, not under some other path.
    documented = documented_names()
    assert "cardrules.down_and_back.evaluate4" in documented
    assert "cardrules.down_and_back.combos.evaluate4" not in documented
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
        if action.help == argparse.SUPPRESS:   # internal (serve's --fd for its workers)
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
        # -h/--help and --lang are documented once, for the command as a whole.
        wanted = options - ({"-h", "--help", "--lang"} if program != "cardrules" else set())
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
    assert set(script.INVENTORIES) == {"python.inv", "attrs.inv", "numpy.inv",
                                       "gymnasium.inv", "pettingzoo.inv", "starlette.inv"}
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
    assert set(value) == {"python", "attrs", "numpy", "gymnasium", "pettingzoo", "starlette"}
    for url, inventory in value.values():
        assert url.startswith("https://")
        assert not inventory.startswith(("http:", "https:"))
        assert (DOCS / inventory).is_file()


# -- the table of contents ---------------------------------------------------------------

_TOCTREE = re.compile(r"^\.\. toctree::")


def _toctree_entries(text: str) -> list[str]:
    """The documents listed by the toctree directives of a page, in order."""
    entries: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not _TOCTREE.match(line):
            continue
        for following in lines[i + 1:]:
            if following.strip() and not following.startswith("   "):
                break  # the directive's body has ended
            entry = following.strip()
            if entry and not entry.startswith(":"):
                entries.append(entry)
    return entries


def _rst_pages() -> list[Path]:
    """The source of every page (the API reference's in docs/api/ included)."""
    return sorted(path for path in DOCS.rglob("*.rst")
                  if not any(part.startswith("_") for part in path.relative_to(DOCS).parts))


def _pages() -> set[str]:
    """Every page of the documentation, as a document name (``cli``, ``api``)."""
    return {path.relative_to(DOCS).with_suffix("").as_posix() for path in DOCS.rglob("*.rst")
            if not any(part.startswith("_") for part in path.relative_to(DOCS).parts)}


def test_every_page_is_reached_from_the_index() -> None:
    pages = _pages()
    reached, todo = {"index"}, ["index"]
    while todo:
        page = todo.pop()
        folder = page.rpartition("/")[0]
        for entry in _toctree_entries((DOCS / f"{page}.rst").read_text("utf-8")):
            entry = entry.removeprefix("/") if entry.startswith("/") \
                else f"{folder}/{entry}".lstrip("/")
            assert entry in pages, f"the toctree names a missing page: {entry}"
            if entry not in reached:
                reached.add(entry)
                todo.append(entry)
    assert pages - reached == set(), f"pages in no toctree: {sorted(pages - reached)}"


def test_index_orders_the_pages_for_a_newcomer() -> None:
    entries = _toctree_entries((DOCS / "index.rst").read_text("utf-8"))
    wanted = ["installation", "quickstart", "down_and_back_game", "back_alley_game",
              "hand_analysis", "rules", "cli", "performance", "changelog", "api/index", "release"]
    positions = [entries.index(page) for page in wanted]
    assert positions == sorted(positions), entries


def test_toctree_reader_sees_an_orphan() -> None:
    text = ".. toctree::\n   :maxdepth: 2\n\n   one\n   two\n\nAfter\n   three\n"
    assert _toctree_entries(text) == ["one", "two"]


# -- the generated hand-analysis charts ---------------------------------------------------


def _load_charts() -> ModuleType:
    spec = importlib.util.spec_from_file_location("charts", DOCS / "_ext" / "charts.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_chart_extension_writes_valid_deterministic_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("numpy")
    import xml.etree.ElementTree as ET

    charts = _load_charts()
    files = charts.generate(tmp_path / "a", samples=300, seed=1)
    assert sorted(f.name for f in files) == ["categories3.svg", "categories3.txt",
                                             "categories4.svg", "categories4.txt"]
    for path, categories in ((tmp_path / "a" / "categories4.svg", ["QUAD (DB-10)",
                              "HIGH_CARD (DB-17)"]),
                             (tmp_path / "a" / "categories3.svg", ["PRIAL (DB-20)",
                              "HIGH_CARD (DB-25)"])):
        root = ET.fromstring(path.read_bytes())
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        text = " ".join(node.text or "" for node in root.iter()
                        if node.tag == "{http://www.w3.org/2000/svg}text")
        for label in categories:
            assert label in text
        assert b"<dc:date>" not in path.read_bytes()  # no build date in the file
    # The same numbers draw the same bytes (fixed hash salt, no date).
    again = charts.chart(charts.category_stats(3, samples=300, seed=1), "Back hands (three cards)")
    assert again == (tmp_path / "a" / "categories3.svg").read_bytes()


def test_chart_numbers_are_exact_counts_and_sensible_shares() -> None:
    pytest.importorskip("numpy")
    from support.references.down_and_back import EXPECTED_COUNTS3, EXPECTED_COUNTS4

    charts = _load_charts()
    for size, expected, hands in ((4, EXPECTED_COUNTS4, 270_725), (3, EXPECTED_COUNTS3, 22_100)):
        stats = charts.category_stats(size, samples=2_000, seed=7)
        assert {row.name: row.hands for row in stats} == expected
        assert sum(row.frequency for row in stats) == pytest.approx(1.0)
        assert stats[0].hands * 2 > hands  # a high card is the most common hand
        shares = [row.share for row in stats]  # weakest category first
        assert all(0 <= s <= 1 for s in shares)
        assert shares == sorted(shares), shares  # a stronger category wins more often
        assert shares[0] < 1 / (charts.OPPONENTS + 1) < shares[1]
        assert all(0 < row.margin < 0.05 for row in stats[:2])
        table = charts.table(stats, samples=2_000)
        assert f"{hands:,}" in table
        assert "2,000 samples" in table


def test_hand_analysis_shows_the_files_the_chart_extension_writes() -> None:
    written = {f"categories{size}.{ext}" for size in (3, 4) for ext in ("svg", "txt")}
    text = (DOCS / "hand_analysis.rst").read_text("utf-8")
    assert set(re.findall(r"_generated/([\w.]+)", text)) == written


def test_chart_table_shows_a_share_near_certainty_without_rounding_it_up() -> None:
    charts = _load_charts()
    row = charts.CategoryStats
    table = charts.table([row("HIGH_CARD", "DB-25", 3, 0.75, 0.25, 0.01),
                          row("PAIR", "DB-24", 1, 0.25, 0.99986, 0.0001),
                          row("PRIAL", "DB-20", 1, 0.001, 1.0, 0.0)], samples=10)
    lines = [line.strip() for line in table.splitlines()]
    assert "- 25.0% (24.0% to 26.0%)" in lines
    assert "- 99.99% (99.98% to 100.00%)" in lines
    assert "- 100.0% (every sample scored the same)" in lines
    assert "- 0.10%" in lines  # a small share keeps two significant digits
    assert lines.index("* - ``PRIAL``") < lines.index("* - ``HIGH_CARD``")  # strongest first


# -- what a reader sees: tools/check_html.py -------------------------------------------

_GOOD_PAGE = """<!doctype html><html><head><style>.contents::before{content:"x"}</style></head>
<body><noscript><div class="admonition error"><p>Please activate JavaScript.</p></div>
</noscript><article role="main"><h1>Installation</h1>
<p>Read the <a href="rules.html"><span class="doc">rules page</span></a>.</p>
<nav class="contents this-will-duplicate-information-and-it-is-still-useful-here"></nav>
<div class="admonition note"><p>A note.</p></div><img src="x.svg"><br/></article></body></html>
"""
_BAD_PAGE = """<!doctype html><html><body><article role="main"><h1>API reference</h1>
<nav class="contents local" id="on-this-page"><p>On this page</p></nav>
<p>See the <a href="rules.html"><span class="doc">The rules as implemented</span></a>
page.</p>
<div class="system-message"><p>ERROR/3 Unknown directive type "autofoo".</p></div>
<p><a href="#id1"><span class="problematic" id="id2">`broken`_</span></a></p>
<div class="admonition error"><p class="admonition-title">Error</p></div>
<p>ERROR: Adding a table of contents in Furo-based documentation is unnecessary</p>
</article></body></html>
"""


def _load_html_checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_html", ROOT / "tools" / "check_html.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_html_checker_passes_a_clean_page() -> None:
    # The theme's <noscript> notice, Furo's escape class and plain notes are not errors.
    assert _load_html_checker().check_page(_GOOD_PAGE) == []


def test_html_checker_finds_every_kind_of_error_box() -> None:
    findings = _load_html_checker().check_page(_BAD_PAGE)
    text = "\n".join(findings)
    assert len(findings) == 6, text
    for expected in ("a table of contents", "'the The'", "a system message",
                     "problematic text", "an error admonition",
                     "Furo's table-of-contents error text"):
        assert expected in text, expected
    assert "(line 2)" in findings[0]  # the contents element is on the page's line 2


def test_html_checker_refuses_a_page_over_400_kb(tmp_path: Path) -> None:
    # The API reference was once one 2.8 MB page; now each part is its own page.
    checker = _load_html_checker()
    body = "<p>" + "x" * 399_000 + "</p>"
    (tmp_path / "short.html").write_text(f"<html><body>{body}</body></html>", "utf-8")
    assert checker.check_directory(tmp_path) == {}
    (tmp_path / "long.html").write_text(f"<html><body>{body}{body}</body></html>", "utf-8")
    assert checker.check_directory(tmp_path) == {
        "long.html": ["798 kB of HTML, over 400 kB (split the page)"]}


def test_html_checker_names_the_pages_and_sets_the_status(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checker = _load_html_checker()
    (tmp_path / "api").mkdir()
    (tmp_path / "index.html").write_text(_GOOD_PAGE, "utf-8")
    assert checker.main([str(tmp_path)]) == 0
    (tmp_path / "api" / "reference.html").write_text(_BAD_PAGE, "utf-8")
    assert checker.main([str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "api/reference.html: a table of contents" in err
    assert "index.html" not in err
    assert checker.main([str(tmp_path / "missing")]) == 2


def test_ci_runs_the_html_checker_after_the_html_build() -> None:
    script = (ROOT / ".ci" / "run").read_text("utf-8")
    build = script.index("-b html docs docs/_build/html")
    translated = script.index('-D language="$lang" docs "docs/_build/html-$lang"')
    check = script.index('for site in html html-ja html-uk; do "$venv/bin/python" '
                         'tools/check_html.py "docs/_build/$site"')
    assert build < translated < check


def test_no_page_hard_codes_the_version_the_command_prints() -> None:
    # ``cardrules --version`` shows the installed version: pages write |release|
    # (or a placeholder such as X.Y.Z), never a number that goes stale.
    printed = re.compile(r"^\s*cardrules (\S+) \((?:C speed-ups active|pure-Python "
                         r"evaluators)\)")
    versions = [(page.name, match.group(1)) for page in _rst_pages()
                for line in page.read_text("utf-8").splitlines()
                if (match := printed.match(line))]
    assert versions, "the installation page shows the output of cardrules --version"
    assert ("installation.rst", "|release|") in versions
    assert [v for v in versions if re.search(r"\d", v[1])] == []


def test_no_page_opens_with_a_table_of_contents_directive() -> None:
    # Furo draws '.. contents::' as a red error box (tools/check_html.py finds it built).
    assert [page.name for page in _rst_pages()
            if re.search(r"^\.\. contents::", page.read_text("utf-8"), re.M)] == []


# -- the README's picture ----------------------------------------------------------------


def _load_tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_picture_is_what_the_library_draws_now() -> None:
    # tools/readme_picture.py draws it; a change to the pictures must redraw it.
    tool = _load_tool("readme_picture")
    committed = (ROOT / "assets" / "back-alley-table.svg").read_text("utf-8")
    assert committed == tool.picture(), "run python tools/readme_picture.py"
    assert tool.main(["--check"]) == 0


def test_readme_picture_tool_sees_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    tool = _load_tool("readme_picture")
    stale = tmp_path / "picture.svg"
    stale.write_text("<svg/>\n", "utf-8")
    monkeypatch.setattr(tool, "PICTURE", stale)
    assert tool.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert tool.main([]) == 0
    assert stale.read_text("utf-8") == tool.picture()
    assert tool.main(["--check"]) == 0


def test_readme_shows_the_picture_and_points_to_the_repository_and_examples() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "](assets/back-alley-table.svg)" in readme
    assert "https://github.com/cardrules/cardrules" in readme
    assert "examples/" in readme
    picture = (ROOT / "assets" / "back-alley-table.svg").read_text("utf-8")
    # Seat 0's view: its own ten cards face up, the other hands as backs only (BA-50).
    assert picture.startswith("<svg")
    assert "seat 0&#x27;s view" in picture
    assert picture.count('class="card back"') == 9 + 9 + 10


def _page_title(page: Path) -> str:
    lines = page.read_text("utf-8").splitlines()
    for above, below in itertools.pairwise(lines):
        if above.strip() and below and set(below) == {"="} and len(below) >= len(above):
            return above.strip()
    return ""


def test_no_reference_reads_the_the() -> None:
    # A bare :doc:`rules` shows the page's title, "The rules as implemented":
    # after "the" it reads "the The rules as implemented page".
    starts_with_the = {page.stem for page in DOCS.glob("*.rst")
                       if _page_title(page).startswith("The ")}
    assert "rules" in starts_with_the
    bare = re.compile(r"\bthe\s+:doc:`([\w/]+)`", re.IGNORECASE)
    found = [f"{page.name}: {match.group()}" for page in _rst_pages()
             for match in bare.finditer(page.read_text("utf-8"))
             if match.group(1) in starts_with_the]
    assert found == []
