"""Build the web table's "how to play" text from the rules page and its translations.

    python tools/web_rules.py            # write src/cardrules/server/static/rules.json
    python tools/web_rules.py --check    # exit 1 if that file is not up to date

The rules are the two game sections of ``docs/rules.rst`` (the page that is
the authority on the rules), in English, and in Japanese and Ukrainian from
the page's catalogs ``docs/locales/{ja,uk}/LC_MESSAGES/rules.po`` (each
paragraph as the translated docs show it; a paragraph without a
translation stays English).  Inline markup is reduced to its text, and a
paragraph that only points to another page of the documentation is left out.  The
server serves the result as ``/rules/{game}.json`` and ``/rules/{game}``
(:mod:`cardrules.server.rules_text`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "docs" / "rules.rst"
LOCALES = ROOT / "docs" / "locales"
OUT = ROOT / "src" / "cardrules" / "server" / "static" / "rules.json"
GAMES = {"down-and-back": "rules-down-and-back", "back-alley": "rules-back-alley"}
LANGUAGES = ("en", "ja", "uk")
_RULE = re.compile(r"^((?:BA|DB)-\d+)(?: -- .*)?$")


def _blocks(lines: list[str]) -> list[tuple[str, str, str | None]]:
    """The section's blocks: ("heading", text, None), ("para", text, None) or
    ("rule", term, body)."""
    blocks: list[tuple[str, str, str | None]] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        if not line.strip() or line.startswith(".. "):
            k += 1
            continue
        if k + 1 < len(lines) and re.fullmatch(r"~{3,}", lines[k + 1].strip()):
            blocks.append(("heading", line.strip(), None))
            k += 2
            continue
        if _RULE.match(line.strip()) and k + 1 < len(lines) and lines[k + 1].startswith("   "):
            body = []
            k += 1
            while k < len(lines) and (lines[k].startswith("   ") or not lines[k].strip()):
                if not lines[k].strip() and (k + 1 >= len(lines)
                                             or not lines[k + 1].startswith("   ")):
                    break
                body.append(lines[k].strip())
                k += 1
            blocks.append(("rule", line.strip(), " ".join(b for b in body if b)))
            continue
        para = []
        while k < len(lines) and lines[k].strip():
            para.append(lines[k].strip())
            k += 1
        blocks.append(("para", " ".join(para), None))
    return blocks


def _section(text: str, label: str) -> tuple[str, list[str]]:
    lines = text.splitlines()
    start = lines.index(f".. _{label}:")
    title = lines[start + 2].strip()
    body = []
    for line in lines[start + 4:]:
        if re.fullmatch(r"-{3,}", line.strip()) and body and body[-1].strip():
            body.pop()   # the next section's title
            while body and (not body[-1].strip() or body[-1].startswith(".. ")):
                body.pop()
            break
        body.append(line)
    return title, body


def plain(text: str) -> str:
    """``text`` without reStructuredText's inline markup.

    >>> plain("``T >= B`` and :ref:`the notation <card-notation>`, **bold**\\\\ x")
    'T >= B and the notation, boldx'
    """
    text = re.sub(r":\w+:`([^`<]*?)\s*<[^`>]*>`", r"\1", text)
    text = re.sub(r":\w+:`~?([^`]*)`", lambda m: m.group(1).split(".")[-1], text)
    text = re.sub(r"``([^`]*)``", r"\1", text)
    text = re.sub(r"\*\*([^*]*)\*\*", r"\1", text)
    text = re.sub(r"(?<!\*)\*([^*]+)\*(?!\*)", r"\1", text)
    return text.replace("\\ ", "").replace("\\", "")


def build() -> dict[str, dict[str, object]]:
    """The rules of each game in each language."""
    source = SOURCE.read_text(encoding="utf-8")
    out: dict[str, dict[str, object]] = {}
    for lang in LANGUAGES:
        table: dict[str, str] = {}
        if lang != "en":
            with (LOCALES / lang / "LC_MESSAGES" / "rules.po").open("rb") as handle:
                for message in read_po(handle, locale=lang):
                    if message.id and message.string and not message.fuzzy:
                        table[str(message.id)] = str(message.string)

        def said(text: str, table: dict[str, str] = table) -> str:
            return plain(table.get(text, text))

        games: dict[str, object] = {}
        for game, label in GAMES.items():
            title, lines = _section(source, label)
            sections: list[dict[str, object]] = [{"heading": None, "items": []}]
            for kind, first, body in _blocks(lines):
                if kind == "heading":
                    sections.append({"heading": said(first), "items": []})
                    continue
                items = sections[-1]["items"]
                assert isinstance(items, list)
                if kind == "rule":
                    rule = _RULE.match(first)
                    assert rule is not None
                    assert body is not None
                    items.append({"id": rule.group(1), "title": said(first),
                                  "text": said(body)})
                elif ":doc:" not in first:   # a pointer to another page of the docs
                    items.append({"id": None, "title": None, "text": said(first)})
            games[game] = {"title": said(title), "sections": sections}
        out[lang] = games
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the file, or with ``--check`` say whether it is current."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = json.dumps(build(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is not up to date: run tools/web_rules.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"web_rules: wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
