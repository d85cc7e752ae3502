"""The message catalogs of cardrules, kept with Babel: one domain, ``cardrules``.

    python tools/catalogs.py extract    # the code's messages -> locale/cardrules.pot
    python tools/catalogs.py update     # extract, then bring every language's .po up to date
    python tools/catalogs.py compile    # every .po -> .mo beside it (what the build does)
    python tools/catalogs.py check      # exit 1 when the .pot lags behind the code
    python tools/catalogs.py init fr    # start the catalog of a new language

``babel.cfg`` names the files; the keywords are the standard ones of
:mod:`cardrules.i18n` (``gettext``, ``_``, ``pgettext``, ``ngettext``,
``npgettext``, ``N_``, ``NP_`` and the ``lazy_*`` forms) plus the two builders
of narration sentences, ``told`` and ``told_n`` of :mod:`cardrules.engine.events`.
A narration sentence about a seat (a ``told`` message with the field
``{seat}``) also gets an entry in the context ``to you``: the same sentence
said to that seat's player.  New messages reach the ``.po`` files empty
(English until translated); messages no longer in the code are dropped.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = "cardrules"
LOCALE = ROOT / "src" / "cardrules" / "locale"
POT = LOCALE / f"{DOMAIN}.pot"
#: The translation functions of cardrules.i18n, as Babel keyword specs.
KEYWORDS: dict[str, object] = {
    "_": None, "gettext": None, "pgettext": ((1, "c"), 2), "ngettext": (1, 2),
    "npgettext": ((1, "c"), 2, 3), "N_": None, "NP_": ((1, "c"), 2),
    "lazy_gettext": None, "lazy_ngettext": (1, 2),
}
#: The builders of narration sentences (cardrules.engine.events), also as imported
#: under a private name.
TOLD = {"told": None, "told_n": (1, 2), "_told": None, "_told_n": (1, 2)}
#: The context of a narration sentence said to the seat it is about.
TO_YOU = "to you"
_DATE = '"POT-Creation-Date:'


def _extract(keywords: dict[str, object]) -> list[tuple[str, int, object, list[str], str | None]]:
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    return list(extract_from_dir(str(ROOT), method_map, options_map, keywords=keywords,
                                 comment_tags=("TRANSLATORS:",), strip_comment_tags=True))


def template() -> Catalog:
    """The template: every message of the code, and the "to you" form of each
    narration sentence about a seat."""
    catalog = Catalog(project="cardrules", domain=DOMAIN, charset="utf-8",
                      header_comment="# The messages of cardrules (one domain).\n"
                                     "# Written by tools/catalogs.py: do not edit by hand.")
    for filename, lineno, message, comments, context in _extract({**KEYWORDS, **TOLD}):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    for filename, lineno, message, _comments, context in _extract(TOLD):
        first = message[0] if isinstance(message, tuple) else message
        if context is None and "{seat}" in str(first):
            catalog.add(message, None, [(filename, lineno)], context=TO_YOU, auto_comments=[
                "The same sentence said to the player of {seat} (\"you\")."])
    return catalog


def _text(catalog: Catalog, path: Path) -> str:
    """The catalog as a .po file, keeping the creation date of the file at ``path``
    so that a file changes only with its messages."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, no_location=True, sort_output=True)
    lines = out.getvalue().decode("utf-8").splitlines()
    if path.is_file():
        old = [line for line in path.read_text(encoding="utf-8").splitlines()
               if line.startswith(_DATE)]
        if old:
            lines = [old[0] if line.startswith(_DATE) else line for line in lines]
    return "\n".join(lines) + "\n"


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith(_DATE)]


def catalogs() -> list[Path]:
    """The .po file of every translated language."""
    return sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def update(pot: Catalog) -> None:
    """Bring every language's catalog in line with ``pot``."""
    for path in catalogs():
        lang = path.parts[-3]
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang, domain=DOMAIN)
        catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        path.write_text(_text(catalog, path), encoding="utf-8")


def compile_all() -> list[Path]:
    """Compile every .po into the .mo file beside it; the files written."""
    written = []
    for path in catalogs():
        with path.open("rb") as source:
            catalog = read_po(source, locale=path.parts[-3], domain=DOMAIN)
        target = path.with_suffix(".mo")
        with target.open("wb") as out:
            write_mo(out, catalog)
        written.append(target)
    return written


def init(lang: str, pot: Catalog) -> Path:
    """Start the (empty) catalog of a new language ``lang``."""
    path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        raise SystemExit(f"{path.relative_to(ROOT)} exists already")
    catalog = Catalog(locale=lang, domain=DOMAIN, project="cardrules", charset="utf-8",
                      fuzzy=False)
    catalog.update(pot, no_fuzzy_matching=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_text(catalog, path), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("command", choices=("extract", "update", "compile", "check", "init"))
    parser.add_argument("lang", nargs="?", help="the new language's code (init only)")
    args = parser.parse_args(argv)
    if args.command == "compile":
        for path in compile_all():
            print(path.relative_to(ROOT))
        return 0
    pot = template()
    text = _text(pot, POT)
    if args.command == "check":
        same = POT.is_file() and _body(POT.read_text(encoding="utf-8")) == _body(text)
        print(f"{POT.name}: " + ("up to date" if same
                                 else "out of date: run tools/catalogs.py update"))
        return 0 if same else 1
    if args.command == "init":
        if not args.lang:
            parser.error("init needs a language code")
        print(init(args.lang, pot).relative_to(ROOT))
        return 0
    POT.write_text(text, encoding="utf-8")
    if args.command == "update":
        update(pot)
    print(f"{POT.relative_to(ROOT)}: {len(pot)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
