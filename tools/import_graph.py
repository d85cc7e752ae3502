"""The package's import graph, read from the code, and its picture.

Usage: ``python tools/import_graph.py [OUT.svg]`` writes the picture of how
cardrules' parts import each other (``docs/_static/architecture.svg`` by
default), as the architecture page shows it.  tests/test_layout.py checks
the rules the picture illustrates with :func:`module_imports` and
:func:`part_of`, and that the picture in the docs is current.

A *part* is one game package (everything about that game), one shared
package, or the core (the top-level modules: cards, hands, errors, the
languages).  An import is *eager* when it runs as the module loads (at
module level, not under ``if TYPE_CHECKING``) and *lazy* when it runs inside
a function.  Shared parts find a game through the registry at run time,
which is no import at all.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "cardrules"

#: The games, each one package holding everything about that game.
GAMES = ("down_and_back", "back_alley")
#: The parts written once for every game; they import no game.
SHARED = ("engine", "vector", "simulation", "integrations", "server", "cli")
#: Drawing order of the parts, top row first (a part imports only parts
#: drawn below it).
ROWS = (("cli",), ("simulation", "integrations", "server"), GAMES, ("vector",), ("engine",),
        ("core",))

#: The line under each part's name in the picture.
NOTES = {"cli": "the cardrules command", "simulation": "many games, tallied",
         "integrations": "OpenSpiel, PettingZoo", "server": "tables over HTTP",
         "down_and_back": "everything about the game", "back_alley": "everything about the game",
         "vector": "batch engines' base", "engine": "Rules and what uses it",
         "core": "cards, hands, errors, languages"}


def module_name(path: Path) -> str:
    """The dotted name of the module in ``path`` (under src/)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, base]) if base else ".".join(package)
    # "from pkg import name" may name a submodule: keep both readings.
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def module_imports(root: Path = PACKAGE) -> dict[str, dict[str, str]]:
    """Every module of the package with the cardrules modules it imports:
    ``{importer: {imported: "eager" | "lazy"}}`` (``eager`` wins when both).
    Imports under ``if TYPE_CHECKING`` are left out; a name imported from a
    module counts as that module unless it is a submodule itself."""
    paths = sorted(root.rglob("*.py"))
    known = {module_name(path) for path in paths}
    graph: dict[str, dict[str, str]] = {}
    for path in paths:
        module = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: dict[str, str] = {}

        def visit(node: ast.AST, kind: str, module: str = module, path: Path = path,
                  found: dict[str, str] = found) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _is_type_checking(child.test):
                    for other in child.orelse:
                        visit(other, kind)
                    continue
                if isinstance(child, ast.Import | ast.ImportFrom):
                    names = _targets(child, module, path.name == "__init__.py")
                    hits = [name for name in names[1:] if name in known] or [
                        name for name in names[:1] if name in known]
                    for name in hits:
                        if name != module and found.get(name) != "eager":
                            found[name] = kind
                    continue
                inner = kind
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    inner = "lazy"
                visit(child, inner)

        visit(tree, "eager")
        graph[module] = found
    return graph


def part_of(module: str) -> str:
    """The part a module belongs to: a game, a shared package, or ``core``."""
    pieces = module.split(".")
    if module == "cardrules.__main__":   # python -m cardrules: the command
        return "cli"
    if len(pieces) > 1 and pieces[1] in (*GAMES, *SHARED):
        return pieces[1]
    return "core"


def part_imports(graph: dict[str, dict[str, str]]) -> dict[tuple[str, str], str]:
    """The imports between parts: ``{(importer, imported): kind}``."""
    between: dict[tuple[str, str], str] = {}
    for module, targets in graph.items():
        for target, kind in targets.items():
            pair = (part_of(module), part_of(target))
            if pair[0] != pair[1] and between.get(pair) != "eager":
                between[pair] = kind
    return between


def circles(graph: dict[str, dict[str, str]], *, eager_only: bool = True) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    edges = {m: [t for t, k in ts.items() if t in graph and (k == "eager" or not eager_only)]
             for m, ts in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def strong(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                strong(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            strong(node)
    return found


def picture(graph: dict[str, dict[str, str]]) -> str:
    """The parts as boxes in rows and their imports as arrows, as SVG text."""
    width, box_w, box_h, gap_y = 760, 200, 48, 46
    boxes: dict[str, tuple[float, float]] = {}
    for row, names in enumerate(ROWS):
        step = width / len(names)
        for column, name in enumerate(names):
            boxes[name] = (step * column + (step - box_w) / 2, 20 + row * (box_h + gap_y))
    height = 20 + len(ROWS) * (box_h + gap_y)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" font-family="sans-serif" font-size="14">',
           '<defs><marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#445"/></marker></defs>']
    for (source, target), kind in sorted(part_imports(graph).items()):
        (x1, y1), (x2, y2) = boxes[source], boxes[target]
        dash = ' stroke-dasharray="5 4"' if kind == "lazy" else ""
        out.append(f'<line x1="{x1 + box_w / 2:.0f}" y1="{y1 + box_h:.0f}" '
                   f'x2="{x2 + box_w / 2:.0f}" y2="{y2:.0f}" stroke="#445" stroke-width="1.2"'
                   f'{dash} marker-end="url(#head)"/>')
    for name, (x, y) in boxes.items():
        fill = "#f3e3c3" if name in GAMES else "#dde7f3" if name != "core" else "#e4e4e4"
        label = name.replace("_", " ") if name in GAMES else name
        out.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="{box_w}" height="{box_h}" rx="6" '
                   f'fill="{fill}" stroke="#445"/>')
        out.append(f'<text x="{x + box_w / 2:.0f}" y="{y + 21:.0f}" text-anchor="middle" '
                   f'font-weight="bold">{label}</text>')
        out.append(f'<text x="{x + box_w / 2:.0f}" y="{y + 38:.0f}" text-anchor="middle" '
                   f'font-size="11" fill="#556">{NOTES[name]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else ROOT / "docs" / "_static" / "architecture.svg"
    target.write_text(picture(module_imports()), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
