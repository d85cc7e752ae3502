"""Extract the command's messages (domain ``cardrules-cli``) and update its catalogs.

    python tools/i18n_cli.py            # write the .pot, merge it into ja and uk .po
    python tools/i18n_cli.py --check    # exit 1 if the .pot is not up to date

The files are the ones ``babel-cli.cfg`` names (the command, the presenters,
the narration and the simulation tables), read with Babel's Python extractor
and these keywords: ``say``, ``say_p:1c,2``, ``say_n:1,2``, ``say_np:1c,2,3``,
``mark``, ``told`` and ``told_n:1,2``, also as ``_told`` and ``_told_n`` (see
``cardrules.engine._words`` and ``cardrules.engine.events.told``).  A
narration sentence about a seat (a message with the field ``{seat}``) is
told to that seat's player as "you":
for each such message the template also gets an entry in the context
``to you``, which holds the sentence said to the player (in English the
command derives it, see ``cardrules.engine.presenter.second_person``).
New messages reach the ``.po`` files untranslated (English until someone
translates them); messages no longer used are dropped.
"""

from __future__ import annotations

import argparse
import configparser
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = "cardrules-cli"
LOCALE = ROOT / "src" / "cardrules" / "locale"
LANGUAGES = ("ja", "uk")
KEYWORDS = {"say": None, "say_p": ((1, "c"), 2), "say_n": (1, 2),
            "say_np": ((1, "c"), 2, 3), "mark": None, "told": None, "told_n": (1, 2),
            "_told": None, "_told_n": (1, 2)}
#: The context of a narration sentence said to the seat it is about.
TO_YOU = "to you"


def _method_map() -> list[tuple[str, str]]:
    parser = configparser.RawConfigParser()
    parser.read(ROOT / "babel-cli.cfg", encoding="utf-8")
    found = []
    for section in parser.sections():
        method, _, pattern = section.partition(":")
        found.append((pattern.strip(), method.strip()))
    return found


def template() -> Catalog:
    """The catalog template of the domain, from the sources."""
    catalog = Catalog(project="cardrules", domain=DOMAIN, charset="utf-8",
                      header_comment="# Messages of the cardrules command and its table.\n"
                                     "# Written by tools/i18n_cli.py: do not edit by hand.")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), _method_map(), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        where = [(filename, lineno)]
        catalog.add(message, None, where, auto_comments=comments, context=context)
        first = message[0] if isinstance(message, tuple) else message
        if context is None and "{seat}" in first:
            catalog.add(message, None, where, context=TO_YOU, auto_comments=[
                "The same sentence said to the player of {seat} (\"you\")."])
    return catalog


_DATE = '"POT-Creation-Date:'


def _text(catalog: Catalog, path: Path) -> str:
    """The catalog as a .po file; the creation date is kept from the file at
    ``path`` when it has one, so the file changes only with its messages."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, no_location=True,
             sort_output=True)
    lines = out.getvalue().decode("utf-8").splitlines()
    if path.is_file():
        old = [line for line in path.read_text(encoding="utf-8").splitlines()
               if line.startswith(_DATE)]
        if old:
            lines = [old[0] if line.startswith(_DATE) else line for line in lines]
    return "\n".join(lines) + "\n"


def _same(path: Path, text: str) -> bool:
    """``path`` holds ``text``, whatever its creation date."""
    if not path.is_file():
        return False

    def body(content: str) -> list[str]:
        return [line for line in content.splitlines() if not line.startswith(_DATE)]

    return body(path.read_text(encoding="utf-8")) == body(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that the .pot file is up to date")
    args = parser.parse_args(argv)
    pot = template()
    pot_path = LOCALE / f"{DOMAIN}.pot"
    text = _text(pot, pot_path)
    if args.check:
        same = _same(pot_path, text)
        print(f"{pot_path.name}: {'up to date' if same else 'out of date'}")
        return 0 if same else 1
    pot_path.write_text(text, encoding="utf-8")
    for lang in LANGUAGES:
        path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.is_file():
            with path.open("rb") as source:
                catalog = read_po(source, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="cardrules",
                              charset="utf-8", fuzzy=False)
        catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_text(catalog, pot_path), encoding="utf-8")
    print(f"{pot_path.relative_to(ROOT)}: {len(pot)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
