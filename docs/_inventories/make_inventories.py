"""Write the small intersphinx inventories shipped in this folder.

The documentation links names such as :class:`int`, :class:`random.Random`,
:func:`attrs.evolve` and :class:`numpy.ndarray` to the Python, attrs and
numpy documentation through ``sphinx.ext.intersphinx``.  Intersphinx
normally downloads each project's ``objects.inv``, but the documentation is
built offline (on developers' machines and in CI), so ``docs/conf.py`` points
intersphinx at the files written by this script instead, and a build never
touches the network.  The links themselves still go to the real sites.

Each inventory lists only the external names that the pages and docstrings
of cardrules refer to (explicitly or through type hints), with their real
locations on the published sites.  When the docs start to mention another
external name, add it to the table below and run::

    python docs/_inventories/make_inventories.py

The files use the format Sphinx itself writes (``# Sphinx inventory version
2``, four header lines, then zlib-compressed lines of ``name domain:role
priority uri dispname``); a ``$`` ending a uri stands for the name and
``-`` as dispname for the name itself.  Nothing beyond the standard library
is needed to run it.
"""

from __future__ import annotations

import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent

# One entry per name: (name, "domain:role", uri relative to the base url).
Entry = tuple[str, str, str]


def _python() -> list[Entry]:
    entries: list[Entry] = [
        ("abc", "py:module", "library/abc.html#module-$"),
        ("argparse", "py:module", "library/argparse.html#module-$"),
        ("argparse.ArgumentParser", "py:class", "library/argparse.html#$"),
        ("array", "py:module", "library/array.html#module-$"),
        ("array.array", "py:class", "library/array.html#$"),
        ("collections.abc", "py:module", "library/collections.abc.html#module-$"),
        ("concurrent.futures", "py:module", "library/concurrent.futures.html#module-$"),
        ("concurrent.futures.Executor", "py:class", "library/concurrent.futures.html#$"),
        ("concurrent.futures.ProcessPoolExecutor", "py:class",
         "library/concurrent.futures.html#$"),
        ("concurrent.futures.ThreadPoolExecutor", "py:class",
         "library/concurrent.futures.html#$"),
        ("enum", "py:module", "library/enum.html#module-$"),
        ("enum.Enum", "py:class", "library/enum.html#$"),
        ("enum.IntEnum", "py:class", "library/enum.html#$"),
        ("enum.StrEnum", "py:class", "library/enum.html#$"),
        ("enum.auto", "py:class", "library/enum.html#$"),
        ("functools.cache", "py:function", "library/functools.html#$"),
        ("importlib.metadata.entry_points", "py:function",
         "library/importlib.metadata.html#$"),
        ("io.TextIOBase", "py:class", "library/io.html#$"),
        ("itertools.combinations", "py:function", "library/itertools.html#$"),
        ("json", "py:module", "library/json.html#module-$"),
        ("json.JSONDecodeError", "py:exception", "library/json.html#$"),
        ("json.dumps", "py:function", "library/json.html#$"),
        ("json.loads", "py:function", "library/json.html#$"),
        ("os.PathLike", "py:class", "library/os.html#$"),
        ("os.cpu_count", "py:function", "library/os.html#$"),
        ("os.fspath", "py:function", "library/os.html#$"),
        ("pathlib.Path", "py:class", "library/pathlib.html#$"),
        ("random", "py:module", "library/random.html#module-$"),
        ("secrets", "py:module", "library/secrets.html#module-$"),
        ("random.Random", "py:class", "library/random.html#$"),
        ("random.shuffle", "py:function", "library/random.html#$"),
        ("random.choice", "py:function", "library/random.html#$"),
        ("sys.exit", "py:function", "library/sys.html#$"),
        ("sys.stderr", "py:data", "library/sys.html#$"),
        ("sys.stdout", "py:data", "library/sys.html#$"),
        ("types.MappingProxyType", "py:class", "library/types.html#$"),
        ("types.ModuleType", "py:class", "library/types.html#$"),
        ("types.UnionType", "py:class", "library/types.html#$"),
        ("typing", "py:module", "library/typing.html#module-$"),
        ("object.__eq__", "py:method", "reference/datamodel.html#$"),
        ("object.__hash__", "py:method", "reference/datamodel.html#$"),
        ("object.__lt__", "py:method", "reference/datamodel.html#$"),
        ("object.__repr__", "py:method", "reference/datamodel.html#$"),
        ("object.__str__", "py:method", "reference/datamodel.html#$"),
        ("str.upper", "py:method", "library/stdtypes.html#$"),
    ]
    # Built-in classes: int, float, bool and object are described with the
    # built-in functions, the containers and str under "Built-in Types".
    for name in ("bool", "float", "int", "object", "type", "slice"):
        entries.append((name, "py:class", "library/functions.html#$"))
    for name in ("bytes", "bytearray", "dict", "frozenset", "list", "memoryview",
                 "range", "set", "str", "tuple"):
        entries.append((name, "py:class", "library/stdtypes.html#$"))
    for name in ("hash", "isinstance", "iter", "len", "max", "min", "repr", "sorted"):
        entries.append((name, "py:function", "library/functions.html#$"))
    for name in ("None", "True", "False", "NotImplemented", "Ellipsis"):
        entries.append((name, "py:data", "library/constants.html#$"))
    for name in ("ArithmeticError", "AttributeError", "Exception", "ImportError",
                 "IndexError", "KeyError", "LookupError", "OSError", "OverflowError",
                 "RecursionError", "RuntimeError", "TypeError", "UnicodeError",
                 "SystemExit", "ValueError"):
        entries.append((name, "py:exception", "library/exceptions.html#$"))
    for name in ("Callable", "Collection", "Container", "Hashable", "Iterable", "Iterator",
                 "Generator", "Mapping", "MutableMapping", "MutableSequence", "Reversible",
                 "Sequence", "Set", "Sized"):
        entries.append((f"collections.abc.{name}", "py:class", "library/collections.abc.html#$"))
    for name in ("Generic", "NamedTuple", "Protocol", "SupportsIndex", "TextIO", "TypeVar"):
        entries.append((f"typing.{name}", "py:class", "library/typing.html#$"))
    for name in ("Any", "ClassVar", "Final", "Literal", "Never", "NoReturn", "Optional",
                 "Self", "TYPE_CHECKING", "TypeAlias", "Union"):
        entries.append((f"typing.{name}", "py:data", "library/typing.html#$"))
    for name in ("cast", "final", "overload", "runtime_checkable"):
        entries.append((f"typing.{name}", "py:function", "library/typing.html#$"))
    return entries


def _attrs() -> list[Entry]:
    entries: list[Entry] = [
        ("attrs", "py:module", "api.html#module-$"),
        ("attrs.Attribute", "py:class", "api.html#$"),
        ("attrs.exceptions.FrozenInstanceError", "py:exception", "api.html#$"),
    ]
    for name in ("asdict", "astuple", "define", "evolve", "field", "fields", "frozen",
                 "has", "mutable", "validate"):
        entries.append((f"attrs.{name}", "py:function", "api.html#$"))
    return entries


def _numpy() -> list[Entry]:
    entries: list[Entry] = [
        ("numpy", "py:module", "reference/index.html#module-$"),
        ("numpy.typing", "py:module", "reference/typing.html#module-$"),
        ("numpy.ndarray", "py:class", "reference/generated/numpy.ndarray.html#$"),
        ("numpy.dtype", "py:class", "reference/generated/numpy.dtype.html#$"),
        ("numpy.random.Generator", "py:class",
         "reference/random/generator.html#$"),
    ]
    # numpy's own inventory lists these aliases as py:data; as py:type (type
    # alias) they also resolve from type hints, which refer to them as classes.
    entries += [
        ("numpy.typing.ArrayLike", "py:type", "reference/typing.html#$"),
        ("numpy.typing.DTypeLike", "py:type", "reference/typing.html#$"),
        ("numpy.typing.NDArray", "py:type", "reference/typing.html#$"),
    ]
    for name in ("array", "asarray", "take", "unique"):
        entries.append((f"numpy.{name}", "py:function",
                        f"reference/generated/numpy.{name}.html#$"))
    # Scalar types are described together on the "Scalars" page.
    for name in ("bool", "bool_", "generic", "integer", "signedinteger", "unsignedinteger",
                 "int8", "int16", "int32", "int64", "intp", "uint8", "uint16", "uint32",
                 "uint64", "uintp", "floating", "float32", "float64"):
        entries.append((f"numpy.{name}", "py:class", "reference/arrays.scalars.html#$"))
    return entries


def _gymnasium() -> list[Entry]:
    # The spaces of the PettingZoo environments; type hints name Space by its
    # defining module, the site documents it under gymnasium.spaces.
    space = "api/spaces/#gymnasium.spaces.Space"
    return [
        ("gymnasium.spaces.Space", "py:class", space),
        ("gymnasium.spaces.space.Space", "py:class", space),
        ("gymnasium.spaces.Box", "py:class", "api/spaces/fundamental/#$"),
        ("gymnasium.spaces.Discrete", "py:class", "api/spaces/fundamental/#$"),
        ("gymnasium.spaces.Dict", "py:class", "api/spaces/composite/#$"),
    ]


def _pettingzoo() -> list[Entry]:
    aec = "api/aec/#pettingzoo.utils.env.AECEnv"
    return [
        ("pettingzoo.AECEnv", "py:class", aec),
        ("pettingzoo.utils.env.AECEnv", "py:class", aec),
    ]


def _starlette() -> list[Entry]:
    # Starlette's documentation is not built with Sphinx: these point at its pages.
    return [
        ("starlette", "py:module", "$"),
        ("starlette.applications.Starlette", "py:class", "applications/"),
        ("starlette.routing.BaseRoute", "py:class", "routing/"),
    ]


def inventory(project: str, version: str, entries: list[Entry]) -> bytes:
    """The bytes of an ``objects.inv`` file listing ``entries``.

    >>> data = inventory("Demo", "1", [("int", "py:class", "library/functions.html#$")])
    >>> data.splitlines()[0]
    b'# Sphinx inventory version 2'
    >>> zlib.decompress(data.split(b"zlib.\\n", 1)[1])
    b'int py:class 1 library/functions.html#$ -\\n'
    """
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        f"# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    ).encode()
    names = [name for name, _, _ in entries]
    if len(set(names)) != len(names):
        raise ValueError(f"{project}: a name is listed twice")
    lines = "".join(f"{name} {role} 1 {uri} -\n" for name, role, uri in sorted(entries))
    return header + zlib.compress(lines.encode(), 9)


INVENTORIES = {
    # file name: (project, version, entries); the base urls are in docs/conf.py.
    "python.inv": ("Python", "3", _python()),
    "attrs.inv": ("attrs", "stable", _attrs()),
    "numpy.inv": ("NumPy", "stable", _numpy()),
    "gymnasium.inv": ("Gymnasium", "stable", _gymnasium()),
    "pettingzoo.inv": ("PettingZoo", "stable", _pettingzoo()),
    "starlette.inv": ("Starlette", "stable", _starlette()),
}


def main() -> None:
    """Write every inventory next to this script."""
    for filename, (project, version, entries) in INVENTORIES.items():
        (HERE / filename).write_bytes(inventory(project, version, entries))
        print(f"{filename}: {len(entries)} names")


if __name__ == "__main__":
    main()
