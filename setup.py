"""Build the optional C speed-ups; everything else is declared in pyproject.toml.

The extension is ``optional=True``: where no C compiler is available the build
goes on without it and cardrules uses its pure-Python evaluators.

Two environment variables change that, for release builds:

``CARDRULES_NO_EXTENSIONS=1``
    Leave the extension out altogether.  With no extension modules the wheel
    is pure Python and is tagged ``py3-none-any``.
``CARDRULES_REQUIRE_EXTENSIONS=1``
    Make the extension mandatory, so that a failed compile fails the build
    instead of quietly producing a platform wheel without the speed-ups
    (the cibuildwheel configuration in pyproject.toml sets it).

Unset, empty or ``0`` means off for both.
"""

import os

from setuptools import Extension, setup


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


NO_EXTENSIONS = _flag("CARDRULES_NO_EXTENSIONS")
REQUIRE_EXTENSIONS = _flag("CARDRULES_REQUIRE_EXTENSIONS")

if NO_EXTENSIONS and REQUIRE_EXTENSIONS:
    raise SystemExit(
        "setup.py: CARDRULES_NO_EXTENSIONS and CARDRULES_REQUIRE_EXTENSIONS are both set"
    )

# The extension's sources: the module and what its parts share
# (_speedups_module.c, _speedups.h), the evaluators, the builders of result
# objects, the batch kernel and the Back Alley double-dummy solver, one file
# each.
SPEEDUPS = "src/cardrules/down_and_back"

ext_modules = (
    []
    if NO_EXTENSIONS
    else [
        Extension(
            "cardrules.down_and_back._speedups",
            [f"{SPEEDUPS}/_speedups_{part}.c" for part in ("module", "evaluate", "build", "batch",
                                                              "solver")],
            depends=[f"{SPEEDUPS}/_speedups.h"],
            optional=not REQUIRE_EXTENSIONS,
        )
    ]
)

# The C sources go in the sdist (MANIFEST.in) but have no use inside a wheel.
setup(ext_modules=ext_modules,
      exclude_package_data={"cardrules.down_and_back": ["*.c", "*.h"]})
