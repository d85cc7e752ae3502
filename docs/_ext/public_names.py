"""Sphinx extension: link every cardrules name to where it is documented.

The API reference documents each name under the path users import it from
(``cardrules.Hand``, ``cardrules.down_and_back.View``), while type hints and
some docstrings name the module that defines it (``cardrules.hand.Hand``,
``cardrules.down_and_back.views.View``).  This extension bridges the two in
two steps:

1. **Qualify string annotations.**  The package uses ``from __future__ import
   annotations``, so its annotations are strings, and autodoc cannot always
   evaluate them: names imported only for type checking (``npt.NDArray``,
   ``Bot``), ``array[int]`` on Python 3.11, and the ``__init__`` that attrs
   generates (its globals are not the module's).  Autodoc then shows the raw
   string, and ``Hand`` cannot be found.  When the extension loads, every
   string annotation of the package's functions, classes, properties and
   attrs-generated ``__init__`` methods is rewritten with full paths
   (``tuple[Hand[Card], ...]`` becomes ``tuple[cardrules.hand.Hand[
   cardrules.cards.Card], ...]``), using the defining module's names plus its
   ``if TYPE_CHECKING:`` imports.  A module-level type alias (such as
   ``Action``) keeps its name, qualified by the module that assigns it, so
   signatures read ``Action`` rather than a seven-way union.  Nothing else is
   changed, and only in the process that builds the docs.

2. **Resolve a definition path to the public entry.**  A reference to
   ``cardrules.<module>.<name>`` that is not documented under that path
   resolves to the entry that documents the *same object* under the same
   name elsewhere (``cardrules.down_and_back.views.View`` ->
   ``cardrules.down_and_back.View``); so does a short name written in a
   module's docstring (``:func:`apply``` in ``cardrules.down_and_back.game``).
   A reference to a :class:`typing.TypeVar` (``S``, ``A`` in generic
   signatures) is shown as plain text: type variables have no entry of their
   own.  Every other missing reference still warns,
   and the build (``-n -W``) fails on it.

3. **Doc comments of re-exported constants.**  ``#:`` comments are found in
   the module that assigns a constant, not only in the package that
   re-exports it (see :func:`data_comment`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
import types
import typing
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError, PycodeError
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.nodes import make_refnode
from sphinx.util.typing import stringify_annotation

PACKAGE = "cardrules"
_ALIAS_TYPES = (types.GenericAlias, types.UnionType, type(typing.List[int]),  # noqa: UP006
                type(typing.Union[int, str]))  # noqa: UP007
_MISSING = object()


# -- 1. qualifying annotations --------------------------------------------------------


def _modules() -> Iterator[types.ModuleType]:
    root = importlib.import_module(PACKAGE)
    yield root
    for info in pkgutil.walk_packages(root.__path__, prefix=PACKAGE + "."):
        last = info.name.rsplit(".", 1)[-1]
        if last == "__main__" or last.startswith("_speedups"):
            continue  # runs the command; the C extension has no annotations
        try:
            yield importlib.import_module(info.name)
        except ImportError as error:
            # One clear line rather than a traceback: the docs document every
            # module, the optional adapters included, and the docs extra has them.
            raise ExtensionError(
                f"the API reference documents {info.name}, which cannot be imported "
                f"({error}); install what the documentation build needs with "
                f"python -m pip install \".[docs]\"") from None


def _imports(nodes_: list[ast.stmt], out: dict[str, str]) -> None:
    """Record ``name -> full path`` for the import statements in ``nodes_``."""
    for node in nodes_:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    out[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                out[alias.asname or alias.name] = f"{node.module}.{alias.name}"


@cache
def _source_names(module_name: str) -> tuple[frozenset[str], dict[str, str]]:
    """Names assigned at the top of a module, and the paths of the names it
    imports (including those imported only under ``if TYPE_CHECKING:``)."""
    try:
        tree = ast.parse(inspect.getsource(sys.modules[module_name]))
    except (OSError, TypeError):
        return frozenset(), {}
    assigned: set[str] = set()
    imported: dict[str, str] = {}
    _imports(tree.body, imported)
    for node in tree.body:
        if isinstance(node, ast.Assign):
            assigned.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            assigned.add(node.target.id)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            _imports(node.body, imported)
    return frozenset(assigned), imported


@cache
def _public_aliases() -> dict[int, str]:
    """The package's public type aliases by ``id``: the module that assigns
    each one and lists it in ``__all__``, plus its name."""
    homes: dict[int, str] = {}
    for module in _modules():
        assigned, _ = _source_names(module.__name__)
        for name in sorted(assigned & set(getattr(module, "__all__", ()))):
            value = vars(module).get(name)
            if isinstance(value, _ALIAS_TYPES):
                homes.setdefault(id(value), f"{module.__name__}.{name}")
    return homes


def _path_of(value: object) -> str | None:
    """The full dotted path of a class, function, module or type variable."""
    if inspect.ismodule(value):
        return value.__name__
    if isinstance(value, typing.TypeVar):
        return f"{value.__module__}.{value.__name__}"
    module = getattr(value, "__module__", None)
    if inspect.isclass(value) or inspect.isfunction(value):
        return None if module == "builtins" else f"{module}.{value.__qualname__}"
    if module == "typing" and getattr(value, "_name", None):
        return f"typing.{value._name}"  # type: ignore[attr-defined]
    return None


@cache
def _namespace(module_name: str) -> dict[str, str]:
    """Each name usable in ``module_name``'s annotations -> what to write instead.

    Imported names get the path they were imported from, names defined here
    their own path.  A public type alias keeps its name (with the path of the
    module that defines it); any other alias is replaced by what it stands for,
    since it has no entry in the docs.
    """
    _, imported = _source_names(module_name)
    paths = dict(imported)
    for name, value in list(vars(sys.modules[module_name]).items()):
        if isinstance(value, _ALIAS_TYPES):
            home = _public_aliases().get(id(value))
            paths[name] = home or stringify_annotation(value, "fully-qualified")
        elif name not in paths and (path := _path_of(value)) is not None:
            paths[name] = path
    return paths


class _Qualify(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.expr:
        text = self.names.get(node.id)
        if text is None or text == node.id:
            return node
        return ast.parse(text, mode="eval").body


def _qualify(text: str, module_name: str) -> str:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return text
    return ast.unparse(_Qualify(_namespace(module_name)).visit(tree))


def _qualify_annotations(owner: object, module_name: str) -> None:
    annotations = getattr(owner, "__annotations__", None)
    if not isinstance(annotations, dict):
        return
    for key, value in list(annotations.items()):
        if isinstance(value, str):
            annotations[key] = _qualify(value, module_name)


def _function(value: object) -> Callable[..., Any] | None:
    """The plain function behind a function, method, property or cache wrapper."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        value = value.fget
    value = inspect.unwrap(value) if callable(value) else value
    return value if inspect.isfunction(value) else None


def qualify_package_annotations() -> None:
    """Rewrite the string annotations of the whole package with full paths."""
    _public_aliases()  # imports every module first
    for module in _modules():
        _qualify_annotations(module, module.__name__)
        for value in list(vars(module).values()):
            if getattr(value, "__module__", None) != module.__name__:
                continue
            if inspect.isclass(value):
                _qualify_annotations(value, module.__name__)
                members = [_function(member) for member in vars(value).values()]
            else:
                members = [_function(value)]
            for function in members:
                if function is not None and function.__module__ == module.__name__:
                    _qualify_annotations(function, module.__name__)


# -- 2. resolving definition paths ----------------------------------------------------


def _lookup(path: str) -> object:
    """The object named by a dotted path, or _MISSING."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            value = getattr(value, part, _MISSING)
            if value is _MISSING:
                return _MISSING
        # A class method is a new bound method at every lookup: compare functions.
        return getattr(value, "__func__", value)
    return _MISSING


def _documented(env: BuildEnvironment) -> dict[tuple[str, int], str]:
    """(last name, id of object) -> documented full name, for the package's entries."""
    objects = env.get_domain("py").objects
    cached: dict[tuple[str, int], str] | None = getattr(env, "_public_names_index", None)
    if cached is not None and getattr(env, "_public_names_size", -1) == len(objects):
        return cached
    index: dict[tuple[str, int], str] = {}
    for fullname, entry in objects.items():
        if not fullname.startswith(PACKAGE) or entry.aliased:
            continue
        value = _lookup(fullname)
        if value is not _MISSING:
            index.setdefault((fullname.rsplit(".", 1)[-1], id(value)), fullname)
    env._public_names_index = index  # type: ignore[attr-defined]
    env._public_names_size = len(objects)  # type: ignore[attr-defined]
    return index


def _candidates(node: pending_xref) -> list[str]:
    """Full paths a reference may mean: itself, or relative to where it is written."""
    target = node["reftarget"].lstrip(".~")
    if target.startswith(PACKAGE + "."):
        return [target]
    module, cls = node.get("py:module"), node.get("py:class")
    if not module or not module.startswith(PACKAGE):
        return []
    return [f"{module}.{cls}.{target}", f"{module}.{target}"] if cls else [f"{module}.{target}"]


def resolve_public_name(app: Sphinx, env: BuildEnvironment, node: pending_xref,
                        contnode: nodes.TextElement) -> nodes.Element | None:
    """``missing-reference`` handler: see the module docstring, step 2."""
    if node.get("refdomain") != "py":
        return None
    for path in _candidates(node):
        value = _lookup(path)
        if value is _MISSING:
            continue
        if isinstance(value, typing.TypeVar):
            return contnode
        fullname = _documented(env).get((path.rsplit(".", 1)[-1], id(value)))
        if fullname is None or fullname == path:
            return None
        entry = env.get_domain("py").objects[fullname]
        return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id,
                            contnode, fullname)
    return None


# -- 3. doc comments of re-exported data ---------------------------------------------


def _comment(module_name: str, name: str) -> list[str] | None:
    try:
        comments = ModuleAnalyzer.for_module(module_name).find_attr_docs()
    except PycodeError:
        return None
    lines = comments.get(("", name))
    return list(lines) if lines else None


def data_comment(app: Sphinx, what: str, name: str, obj: object, options: object,
                 lines: list[str]) -> None:
    """``autodoc-process-docstring`` handler for module-level data.

    Autodoc reads the ``#:`` comment of a constant only in the module it is
    documented in; for a name re-exported by a package (``ACCELERATED``) it
    falls back to the docstring of the value's type (``bool``'s).  This takes
    the comment from the module that assigns the name instead.
    """
    if what != "data" or not name.startswith(PACKAGE + "."):
        return
    module_name, attr = name.rsplit(".", 1)
    if _comment(module_name, attr) is not None:
        return
    for module in _modules():
        assigned, _ = _source_names(module.__name__)
        if attr in assigned and vars(module).get(attr, _MISSING) is obj:
            found = _comment(module.__name__, attr)
            if found is not None:
                lines[:] = [*found, ""]
                return
    type_doc = inspect.getdoc(type(obj))
    if type_doc and "\n".join(lines).strip() == type_doc.strip():
        lines.clear()


def setup(app: Sphinx) -> dict[str, object]:
    """Register the extension."""
    qualify_package_annotations()
    app.connect("missing-reference", resolve_public_name)
    app.connect("autodoc-process-docstring", data_comment)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
