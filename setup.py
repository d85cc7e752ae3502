"""Build the optional C speed-ups; everything else is declared in pyproject.toml.

The extensions are ``optional=True``: where no C compiler is available the build
goes on without them and cardrules uses its pure-Python evaluators.

Two environment variables change that, for release builds:

``CARDRULES_NO_EXTENSIONS=1``
    Leave the extensions out altogether.  With no extension modules the wheel
    is pure Python and is tagged ``py3-none-any``.
``CARDRULES_REQUIRE_EXTENSIONS=1``
    Make the extensions mandatory, so that a failed compile fails the build
    instead of quietly producing a platform wheel without the speed-ups
    (the cibuildwheel configuration in pyproject.toml sets it).

Unset, empty or ``0`` means off for both.

The build also compiles the message catalogs (``src/cardrules/locale/*/LC_MESSAGES/*.po``)
with Babel (a build requirement) into ``.mo`` files: into the wheel, and for an
editable install beside the ``.po`` files in the source tree (git ignores them),
so that every install reads compiled catalogs (see :mod:`cardrules.i18n`).
"""

import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

LOCALE = Path("src/cardrules/locale")


class BuildWithCatalogs(build_py):
    """build_py that also writes each ``.po`` catalog as a Babel-compiled ``.mo`` file
    (into the build, or beside the ``.po`` for an editable install)."""

    def run(self) -> None:
        super().run()
        here = Path(__file__).resolve().parent
        # An editable install imports the source tree: its .mo files go there.
        into = here / "src" if getattr(self, "editable_mode", False) else Path(self.build_lib)
        try:
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po
        except ImportError as err:  # only without build isolation and without Babel
            raise SystemExit("setup.py: compiling the message catalogs needs Babel "
                             "(pip install babel); it is in [build-system] requires") from err
        for po in sorted(here.joinpath(LOCALE).glob("*/LC_MESSAGES/*.po")):
            relative = po.relative_to(here / "src")
            target = into / relative.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source, locale=relative.parts[2])
            with target.open("wb") as out:
                write_mo(out, catalog)


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


NO_EXTENSIONS = _flag("CARDRULES_NO_EXTENSIONS")
REQUIRE_EXTENSIONS = _flag("CARDRULES_REQUIRE_EXTENSIONS")

if NO_EXTENSIONS and REQUIRE_EXTENSIONS:
    raise SystemExit(
        "setup.py: CARDRULES_NO_EXTENSIONS and CARDRULES_REQUIRE_EXTENSIONS are both set"
    )

# Each game's extension lives in that game's package, beside the Python code
# it speeds up.  Down and Back's: the module and what its parts share
# (_speedups_module.c, _speedups.h), the evaluators, the builders of result
# objects and the batch kernel, one file each.  Back Alley's: the
# double-dummy solver, one file.
DOWN_AND_BACK = "src/cardrules/down_and_back"
DOUBLE_DUMMY = "src/cardrules/back_alley/double_dummy"

ext_modules = (
    []
    if NO_EXTENSIONS
    else [
        Extension(
            "cardrules.down_and_back._speedups",
            [f"{DOWN_AND_BACK}/_speedups_{part}.c" for part in ("module", "evaluate", "build",
                                                                   "batch")],
            depends=[f"{DOWN_AND_BACK}/_speedups.h"],
            optional=not REQUIRE_EXTENSIONS,
        ),
        Extension(
            "cardrules.back_alley.double_dummy._solver",
            [f"{DOUBLE_DUMMY}/_solver.c"],
            optional=not REQUIRE_EXTENSIONS,
        ),
    ]
)

# The C sources go in the sdist (MANIFEST.in) but have no use inside a wheel.
setup(ext_modules=ext_modules,
      cmdclass={"build_py": BuildWithCatalogs},
      exclude_package_data={"cardrules.down_and_back": ["*.c", "*.h"],
                            "cardrules.back_alley.double_dummy": ["*.c"],
                            # the catalogs' sources: the wheel has their .mo files
                            "": ["*.po", "*.pot"]})
