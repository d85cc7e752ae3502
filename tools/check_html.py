"""Fail when the built documentation shows an error box to its readers.

Some mistakes never reach Sphinx's warnings, so ``sphinx-build -W`` passes
while the page a reader opens shows an error:

- Furo draws a red box reading "Adding a table of contents in Furo-based
  documentation is unnecessary..." over every ``.. contents::`` directive
  (an element of class ``contents`` without Furo's escape class);
- docutils writes the messages it does not report as warnings into the page
  (class ``system-message``), and marks the text they concern (class
  ``problematic``);
- an ``error`` admonition in the page body;
- a reference to a page whose title starts with "The" after the word "the"
  reads "the The rules as implemented page";
- a page over :data:`MAX_PAGE_BYTES` (400 kB): too long to load and to find
  one's way in (split it, as the API reference is split into its parts).

Usage (``.ci/run`` runs it after the HTML build)::

    python tools/check_html.py docs/_build/html

It prints one line per finding, ``page: what (line N)``, and exits with
status 1 if there is any, 0 if the pages are clean, 2 if the directory holds
no HTML page.  The theme's own ``<noscript>`` notice on the search page is
not a finding.  Only the standard library is used.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

#: Furo's escape hatch: a ``contents`` element with this class is drawn normally.
FURO_ESCAPE = "this-will-duplicate-information-and-it-is-still-useful-here"
_FURO_TEXT = "Adding a table of contents in Furo"
#: The largest page a reader is given, in bytes of HTML.
MAX_PAGE_BYTES = 400_000
_DOUBLED_THE = re.compile(r"\bthe\s+The\b")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                   "meta", "source", "track", "wbr"})


class _PageScanner(HTMLParser):
    """Collects the findings of one page while it is parsed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.findings: list[str] = []
        self._skip: list[str] = []  # open <noscript>, <script> and <style> elements
        self._text: list[tuple[int, str]] = []

    def _found(self, what: str) -> None:
        self.findings.append(f"{what} (line {self.getpos()[0]})")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("noscript", "script", "style"):
            self._skip.append(tag)
        if self._skip or tag in _VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        if "contents" in classes and FURO_ESCAPE not in classes:
            self._found("a table of contents (Furo shows an error box: remove "
                        "'.. contents::')")
        if "system-message" in classes:
            self._found("a system message of docutils")
        if "problematic" in classes:
            self._found("problematic text marked by docutils")
        if "admonition" in classes and "error" in classes:
            self._found("an error admonition")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:  # <div/>: opened and closed at once
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._text.append((self.getpos()[0], data))

    def close(self) -> None:
        super().close()
        text = "".join(data for _, data in self._text)
        starts: list[int] = []  # where each piece begins in ``text``, for line numbers
        position = 0
        for _, data in self._text:
            starts.append(position)
            position += len(data)

        def line_at(offset: int) -> int:
            index = max(i for i, start in enumerate(starts) if start <= offset)
            return self._text[index][0]

        if _FURO_TEXT in text:
            self.findings.append(f"Furo's table-of-contents error text "
                                 f"(line {line_at(text.index(_FURO_TEXT))})")
        for match in _DOUBLED_THE.finditer(text):
            self.findings.append(f"'{' '.join(match.group().split())}' "
                                 f"(line {line_at(match.start())})")


def check_page(html: str) -> list[str]:
    """The findings of one page's HTML text (an empty list if it is clean).

    >>> check_page('<p>See the <a href="rules.html">rules page</a>.</p>')
    []
    >>> check_page('<nav class="contents local" id="on-this-page"></nav>')
    ["a table of contents (Furo shows an error box: remove '.. contents::') (line 1)"]
    """
    scanner = _PageScanner()
    scanner.feed(html)
    scanner.close()
    return scanner.findings


def check_directory(root: Path) -> dict[str, list[str]]:
    """Findings by page name (path relative to ``root``) for every ``*.html``
    below ``root``; pages without findings are left out."""
    found: dict[str, list[str]] = {}
    for page in sorted(root.rglob("*.html")):
        html = page.read_text("utf-8")
        findings = check_page(html)
        size = len(html.encode("utf-8"))
        if size > MAX_PAGE_BYTES:
            findings.append(f"{size // 1000} kB of HTML, over {MAX_PAGE_BYTES // 1000} kB "
                            f"(split the page)")
        if findings:
            found[page.relative_to(root).as_posix()] = findings
    return found


def main(argv: list[str] | None = None) -> int:
    """Check the directory named on the command line; see the module docstring."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python tools/check_html.py HTML_DIRECTORY", file=sys.stderr)
        return 2
    root = Path(args[0])
    if not root.is_dir() or next(root.rglob("*.html"), None) is None:
        print(f"check_html: no HTML pages in {root}", file=sys.stderr)
        return 2
    found = check_directory(root)
    for page, findings in found.items():
        for finding in findings:
            print(f"{page}: {finding}", file=sys.stderr)
    if found:
        print(f"check_html: {len(found)} page(s) show errors to readers: "
              f"{', '.join(found)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
