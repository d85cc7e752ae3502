"""Sphinx extension: pictures drawn by cardrules itself, at build time.

The directive ``cardrules-svg`` runs the Python code in its body and puts the
picture that the code's last line gives into the HTML page, so the pictures
in the documentation are always the ones the library draws now::

    .. cardrules-svg::
       :show-code:

       from cardrules import Hand
       Hand.parse("AS KD 7H")

The last line must be an expression whose value is SVG text (a string that
starts with ``<svg``) or an object with a ``_repr_svg_`` method (a card, a
hand, a view, a state).  Each directive runs in a fresh namespace; the code
should be deterministic (seeded random numbers), so every build gives the
same page.  With ``:show-code:`` the code is shown above the picture as a
Python block.  Builders other than HTML leave the picture out.  A failure
(an exception, a last line that is not a picture) is reported as an error
at the directive's line, and the documentation build (run with ``-W``)
fails on it.
"""

from __future__ import annotations

import ast
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive, directives


def _picture_of(code: str, where: str) -> str:
    """Run ``code`` and return the SVG text of its last expression."""
    tree = ast.parse(code, filename=where)
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError("the last line must be an expression giving the picture")
    last = ast.Expression(tree.body.pop().value)
    namespace: dict[str, Any] = {"__name__": "__cardrules_svg__"}
    exec(compile(tree, where, "exec"), namespace)
    value = eval(compile(last, where, "eval"), namespace)
    if hasattr(value, "_repr_svg_"):
        value = value._repr_svg_()
    if not isinstance(value, str) or not value.startswith("<svg"):
        raise ValueError(f"the last line gave {type(value).__name__}, not SVG text")
    return value


class CardrulesSvg(Directive):
    """``.. cardrules-svg::`` with Python code as its body."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {"show-code": directives.flag}

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        source, line = self.state_machine.get_source_and_line(self.lineno)
        where = f"{source}:{line}"
        try:
            picture = _picture_of(code, where)
        except Exception as error:  # report any failure at the directive
            message = self.state.document.reporter.error(
                f"cardrules-svg: {type(error).__name__}: {error}", line=self.lineno)
            return [message]
        out: list[nodes.Node] = []
        if "show-code" in self.options:
            block = nodes.literal_block(code, code)
            block["language"] = "python"
            out.append(block)
        html = f'<div class="cardrules-picture" style="overflow-x:auto">{picture}</div>'
        out.append(nodes.raw("", html, format="html"))
        return out


def setup(app: Any) -> dict[str, Any]:
    """Register the directive with Sphinx."""
    app.add_directive("cardrules-svg", CardrulesSvg)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
