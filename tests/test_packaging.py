"""The package can be published: license, build configuration, ``--version``, real builds.

The build tests copy the repository to a temporary folder and build there
without build isolation (no network), with the ``build`` front end and
``setuptools>=77`` from the ``test`` extra.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Mapping
from importlib.metadata import version as installed_version
from pathlib import Path
from typing import Any

import pytest

import cardrules
import cardrules.down_and_back as db
from cardrules.cli import main

ROOT = Path(__file__).resolve().parent.parent
VERSION = cardrules.__version__
HAVE_SPEEDUPS = importlib.util.find_spec("cardrules.down_and_back._speedups") is not None

_SKIPPED_DIRS = {".git", "build", "dist", "__pycache__", ".hypothesis", ".mypy_cache",
                 ".pytest_cache", ".ruff_cache", "_build"}


def _pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def _cibuildwheel() -> dict[str, Any]:
    table: dict[str, Any] = _pyproject()["tool"]["cibuildwheel"]
    return table


def _env(**changes: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("CARDRULES_PURE_PYTHON", "CARDRULES_NO_EXTENSIONS",
                 "CARDRULES_REQUIRE_EXTENSIONS", "PYTHONPATH"):
        env.pop(name, None)
    for name, value in changes.items():
        if value is not None:
            env[name] = value
    return env


def _version_line(accelerated: bool) -> str:
    kind = "C speed-ups active" if accelerated else "pure-Python evaluators"
    return f"cardrules {VERSION} ({kind})"


# -- license -------------------------------------------------------------------------


def test_license_is_mit_with_the_projects_copyright() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 The cardrules developers" in text
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_pyproject_declares_the_license_and_its_file() -> None:
    data = _pyproject()
    assert data["project"]["license"] == "MIT"
    assert data["project"]["license-files"] == ["LICENSE"]
    # license-files and an SPDX license string need setuptools 77 (PEP 639).
    assert "setuptools>=77" in data["build-system"]["requires"]
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split()
    assert "LICENSE" in manifest


def test_pyproject_version_matches_the_package() -> None:
    assert _pyproject()["project"]["version"] == VERSION


def test_release_extra_has_the_release_tools() -> None:
    extras = _pyproject()["project"]["optional-dependencies"]
    names = {requirement.split(">")[0].split("=")[0] for requirement in extras["release"]}
    assert names == {"build", "twine", "cibuildwheel"}


def _distributions(extra: str) -> set[str]:
    """The distributions an extra installs, following ``cardrules[...]`` inside it."""
    extras = _pyproject()["project"]["optional-dependencies"]
    found: set[str] = set()
    for requirement in extras[extra]:
        name = requirement.split(";")[0].split("[")[0]
        for mark in "<>=!~ ":
            name = name.split(mark)[0]
        if name == "cardrules":
            inner = requirement.split("[", 1)[1].split("]", 1)[0]
            for other in inner.split(","):
                found |= _distributions(other.strip())
        else:
            found.add(name)
    return found


def test_docs_extra_alone_has_what_the_docs_build_imports() -> None:
    # The API reference documents both adapters (docs/_ext/public_names.py
    # imports every module), the charts need matplotlib, the pages myst-parser.
    assert {"sphinx", "furo", "myst-parser", "matplotlib", "numpy", "rich",
            "open-spiel", "pettingzoo", "gymnasium"} <= _distributions("docs")
    assert _distributions("openspiel") | _distributions("pettingzoo") <= _distributions("docs")
    api = (ROOT / "docs" / "api" / "integrations.rst").read_text("utf-8")
    assert ".. automodule:: cardrules.integrations.openspiel" in api
    assert ".. automodule:: cardrules.integrations.pettingzoo" in api


def test_project_urls_point_to_the_repository() -> None:
    urls = _pyproject()["project"]["urls"]
    assert set(urls) == {"Homepage", "Repository", "Documentation", "Changelog", "Issues"}
    assert urls["Repository"] == "https://github.com/cardrules/cardrules"
    assert all(url.startswith("https://github.com/cardrules/cardrules") for url in urls.values())


def test_classifiers_name_every_supported_python() -> None:
    project = _pyproject()["project"]
    assert project["requires-python"] == ">=3.11"  # no upper bound
    minors = sorted(int(c.rsplit(".", 1)[1]) for c in project["classifiers"]
                    if c.startswith("Programming Language :: Python :: 3."))
    assert minors == [11, 12, 13, 14]


# -- cibuildwheel ----------------------------------------------------------------------


def _selected(identifier: str, config: Mapping[str, Any]) -> bool:
    """Approximate cibuildwheel's build/skip selection with shell patterns."""

    def patterns(value: str | list[str]) -> list[str]:
        return value.split() if isinstance(value, str) else value

    def matches(value: str | list[str]) -> bool:
        return any(fnmatch.fnmatchcase(identifier, p) for p in patterns(value))

    return matches(config.get("build", "*")) and not matches(config.get("skip", []))


@pytest.mark.parametrize(("identifier", "built"), [
    ("cp311-manylinux_x86_64", True),
    ("cp312-manylinux_aarch64", True),
    ("cp313-macosx_arm64", True),
    ("cp314-macosx_x86_64", True),
    ("cp311-win_amd64", True),
    ("cp313t-manylinux_x86_64", False),
    ("cp314t-win_amd64", False),
    ("cp312-musllinux_x86_64", False),
    ("pp311-manylinux_x86_64", False),
])
def test_cibuildwheel_builds_cpython_wheels_only(identifier: str, built: bool) -> None:
    assert _selected(identifier, _cibuildwheel()) is built


def test_cibuildwheel_architectures_per_platform() -> None:
    config = _cibuildwheel()
    assert config["linux"]["archs"] == ["x86_64", "aarch64"]
    assert config["macos"]["archs"] == ["x86_64", "arm64"]
    assert config["windows"]["archs"] == ["AMD64"]


def test_cibuildwheel_requires_the_extension_and_tests_it() -> None:
    config = _cibuildwheel()
    assert config["environment"] == {"CARDRULES_REQUIRE_EXTENSIONS": "1"}
    commands = config["test-command"]
    assert any("assert d.ACCELERATED" in command for command in commands)
    assert "python -m cardrules --version" in commands


@pytest.mark.skipif(not HAVE_SPEEDUPS, reason="the C speed-ups are not built here")
@pytest.mark.skipif(sys.platform == "win32", reason="the commands are run with a POSIX shell")
def test_cibuildwheel_test_commands_pass_on_this_installation() -> None:
    for command in _cibuildwheel()["test-command"]:
        assert command.startswith("python ")
        line = shlex.quote(sys.executable) + command.removeprefix("python")
        done = subprocess.run(line, shell=True, capture_output=True, text=True, env=_env())
        assert done.returncode == 0, (command, done.stderr)


# -- cardrules --version ------------------------------------------------------------------


def test_version_flag_prints_version_and_evaluators(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == _version_line(db.ACCELERATED) + "\n"


def test_version_flag_in_pure_python_mode() -> None:
    done = subprocess.run([sys.executable, "-m", "cardrules", "--version"], capture_output=True,
                          text=True, env=_env(CARDRULES_PURE_PYTHON="1"))
    assert done.returncode == 0
    assert done.stdout == _version_line(False) + "\n"


@pytest.mark.skipif(not HAVE_SPEEDUPS, reason="the C speed-ups are not built here")
def test_version_flag_with_the_speedups() -> None:
    done = subprocess.run([sys.executable, "-m", "cardrules", "--version"], capture_output=True,
                          text=True, env=_env())
    assert done.returncode == 0
    assert done.stdout == _version_line(True) + "\n"


# -- real builds ------------------------------------------------------------------------

needs_new_setuptools = pytest.mark.skipif(
    int(installed_version("setuptools").split(".")[0]) < 77,
    reason="building cardrules needs setuptools>=77 (the 'test' extra installs it)")


def _copy_source(dest: Path) -> Path:
    """Copy the repository without build outputs, caches or compiled modules."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {name for name in names
                if name in _SKIPPED_DIRS or name.startswith(".venv")
                or name.endswith((".egg-info", ".so", ".pyd"))}

    shutil.copytree(ROOT, dest, ignore=ignore)
    return dest


def _build(source: Path, out: Path, env: dict[str, str], *,
           wheel_only: bool = False) -> subprocess.CompletedProcess[str]:
    """Build with the ``build`` front end, or call the setuptools hooks without it."""
    if importlib.util.find_spec("build") is not None:
        command = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out)]
        command += ["--wheel"] if wheel_only else []
        command.append(str(source))
    else:
        hooks = ["build_wheel"] if wheel_only else ["build_sdist", "build_wheel"]
        code = "; ".join(["from setuptools import build_meta as b"]
                         + [f"b.{hook}({str(out)!r})" for hook in hooks])
        command = [sys.executable, "-c", code]
    return subprocess.run(command, cwd=source, capture_output=True, text=True, env=env)


def _compiled(po: Path) -> bytes:
    """``po`` compiled by Babel, as the build does."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parts[-3])
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _failure(done: subprocess.CompletedProcess[str]) -> str:
    return f"build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@needs_new_setuptools
def test_sdist_and_pure_wheel(tmp_path: Path) -> None:
    source, out = _copy_source(tmp_path / "src"), tmp_path / "dist"
    # A checkout where the docs were built: their outputs match the docs
    # patterns of MANIFEST.in (objects.inv, .py, .rst) and must stay out.
    for built in ("docs/_build/html/objects.inv", "docs/_build/html/_static/notes.py",
                  "docs/_build/doctest/output.rst", "docs/_generated/chart.rst"):
        (source / built).parent.mkdir(parents=True, exist_ok=True)
        (source / built).write_text("built by a documentation build\n", encoding="utf-8")
    done = _build(source, out, _env(CARDRULES_NO_EXTENSIONS="1"))
    assert done.returncode == 0, _failure(done)

    wheels = sorted(out.glob("*.whl"))
    assert [path.name for path in wheels] == [f"cardrules-{VERSION}-py3-none-any.whl"]
    dist_info = f"cardrules-{VERSION}.dist-info"
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        wheel_meta = wheel.read(f"{dist_info}/WHEEL").decode()
        metadata = wheel.read(f"{dist_info}/METADATA").decode()
        license_text = wheel.read(f"{dist_info}/licenses/LICENSE").decode()
    assert "Root-Is-Purelib: true" in wheel_meta
    assert "Tag: py3-none-any" in wheel_meta
    assert "License-Expression: MIT" in metadata
    assert "License-File: LICENSE" in metadata
    assert license_text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert {"cardrules/py.typed", "cardrules/down_and_back/_tables.bin",
            "cardrules/cli/__init__.py"} <= names
    # The web table's pages, scripts and styles (cardrules serve).
    static = {f"cardrules/server/static/{name}" for name in
              ("lobby.html", "table.html", "common.js", "lobby.js", "table.js", "style.css")}
    assert static <= names
    assert not [name for name in names if name.endswith((".so", ".pyd", ".c", ".h"))]
    # The message catalogs: each .po compiled by Babel in the build, and only the .mo.
    catalogs = sorted((ROOT / "src" / "cardrules" / "locale").glob("*/LC_MESSAGES/*.po"))
    assert catalogs
    with zipfile.ZipFile(wheels[0]) as wheel:
        for po in catalogs:
            mo = po.relative_to(ROOT / "src").with_suffix(".mo").as_posix()
            assert wheel.read(mo) == _compiled(po), mo
    assert not [name for name in names if name.endswith((".po", ".pot"))]

    sdists = sorted(out.glob("*.tar.gz"))
    assert [path.name for path in sdists] == [f"cardrules-{VERSION}.tar.gz"]
    with tarfile.open(sdists[0]) as sdist:
        members = set(sdist.getnames())
    top = f"cardrules-{VERSION}"
    assert {f"{top}/LICENSE", f"{top}/pyproject.toml", f"{top}/setup.py", f"{top}/PKG-INFO",
            f"{top}/src/cardrules/py.typed"} <= members
    # Every C source and header of the speed-ups, so the sdist can build them.
    package = ROOT / "src" / "cardrules" / "down_and_back"
    c_files = {path.name for path in package.glob("*.[ch]")}
    assert {"_speedups.h", "_speedups_module.c", "_speedups_evaluate.c",
            "_speedups_build.c", "_speedups_batch.c"} <= c_files
    assert {f"{top}/src/cardrules/down_and_back/{name}" for name in c_files} <= members
    assert [name for name in members
            if name.startswith((f"{top}/docs/_build", f"{top}/docs/_generated"))] == []
    assert f"{top}/docs/index.rst" in members
    assert {f"{top}/src/{name}" for name in static} <= members
    assert f"{top}/docs/_static/server-table.png" in members
    assert {f"{top}/{po.relative_to(ROOT).as_posix()}" for po in catalogs} <= members
    # The README's picture and the examples it points to travel with the source.
    assert {f"{top}/assets/back-alley-table.svg", f"{top}/examples/my_bot.py",
            f"{top}/examples/match.py", f"{top}/examples/serve_views.py",
            f"{top}/tools/check_html.py", f"{top}/tools/readme_picture.py"} <= members
    # The tests travel whole: every module, data file and note of every folder.
    shipped = {f"{top}/{path.relative_to(ROOT).as_posix()}" for path in (ROOT / "tests").rglob("*")
               if path.suffix in (".py", ".json", ".md") and "__pycache__" not in path.parts}
    assert f"{top}/tests/support/db_recorded_games.json" in shipped
    assert shipped <= members

    # The unpacked pure wheel imports on the Python evaluators and says so.
    site = tmp_path / "site"
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(site)
    code = ("import cardrules, cardrules.down_and_back as d; "
            "print(cardrules.__file__); print(d.ACCELERATED)")
    env = _env(PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    where, accelerated = done.stdout.splitlines()
    assert Path(where).is_relative_to(site)
    assert accelerated == "False"
    done = subprocess.run([sys.executable, "-m", "cardrules", "--version"], capture_output=True,
                          text=True, env=env, check=True)
    assert done.stdout == _version_line(False) + "\n"
    # The installed wheel reads its .mo files (it has no .po).
    code = ("import cardrules; from cardrules import i18n, Card; "
            "print((i18n._LOCALE_DIR / 'uk' / 'LC_MESSAGES' / 'cardrules.po').exists()); "
            "cardrules.i18n.set_language('uk'); print(Card.parse('AS').long_name)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, encoding="utf-8",
                          env={**env, "PYTHONIOENCODING": "utf-8"}, check=True)
    assert done.stdout.splitlines() == ["False", "туз пік"]


@needs_new_setuptools
@pytest.mark.skipif(sys.platform == "win32", reason="uses CC to stand for a missing compiler")
@pytest.mark.parametrize("required", [False, True])
def test_a_missing_compiler(tmp_path: Path, required: bool) -> None:
    """The extension is optional unless CARDRULES_REQUIRE_EXTENSIONS=1 is set."""
    source, out = _copy_source(tmp_path / "src"), tmp_path / "dist"
    env = _env(CC="/bin/false", CARDRULES_REQUIRE_EXTENSIONS="1" if required else None)
    done = _build(source, out, env, wheel_only=True)
    if required:
        assert done.returncode != 0
        assert "_speedups" in done.stdout + done.stderr
        assert not list(out.glob("*.whl"))
        return
    assert done.returncode == 0, _failure(done)
    [wheel_path] = out.glob("*.whl")
    with zipfile.ZipFile(wheel_path) as wheel:
        names = wheel.namelist()
    assert "cardrules/down_and_back/combos.py" in names
    assert not [name for name in names if name.endswith((".so", ".pyd"))]


def test_setup_refuses_both_build_flags() -> None:
    done = subprocess.run([sys.executable, "setup.py", "--version"], cwd=ROOT,
                          capture_output=True, text=True,
                          env=_env(CARDRULES_NO_EXTENSIONS="1", CARDRULES_REQUIRE_EXTENSIONS="1"))
    assert done.returncode != 0
    assert "are both set" in done.stderr


@needs_new_setuptools
def test_an_editable_build_compiles_the_catalogs_beside_their_po_files(tmp_path: Path) -> None:
    """``pip install -e .`` runs this hook: the source tree then holds the
    Babel-compiled ``.mo`` files that cardrules reads."""
    source = _copy_source(tmp_path / "src")
    for old in source.glob("src/cardrules/locale/*/LC_MESSAGES/*.mo"):
        old.unlink()
    (tmp_path / "out").mkdir()
    code = f"from setuptools import build_meta as b; b.build_editable({str(tmp_path / 'out')!r})"
    done = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True,
                          text=True, env=_env(CARDRULES_NO_EXTENSIONS="1"))
    assert done.returncode == 0, _failure(done)
    catalogs = sorted(source.glob("src/cardrules/locale/*/LC_MESSAGES/*.po"))
    assert [po.parts[-3] for po in catalogs] == ["ja", "uk"]
    for po in catalogs:
        assert po.with_suffix(".mo").read_bytes() == _compiled(po)
