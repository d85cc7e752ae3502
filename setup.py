"""Build the optional C speed-ups; everything else is declared in pyproject.toml.

``optional=True``: where no C compiler is available the build goes on without
the extension and cardrules uses its pure-Python evaluators.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "cardrules.down_and_back._speedups",
            ["src/cardrules/down_and_back/_speedups.c"],
            optional=True,
        )
    ]
)
