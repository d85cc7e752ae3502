"""Check that the translated pages of the docs are complete and current.

Usage: ``python tools/check_doc_translations.py GETTEXT_DIR`` after
``sphinx-build -b gettext docs GETTEXT_DIR``.  For every page that has a
catalog under ``docs/locales/<lang>/LC_MESSAGES/`` (the quickstart and the
rules, in Japanese and Ukrainian), every message of the page's fresh template
must have a translation that is neither empty nor fuzzy; a message the page
no longer has is reported too, so a catalog never silently lags behind its
page.  Exit status 1 lists what is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent.parent / "docs" / "locales"


def problems(gettext_dir: Path) -> list[str]:
    """Every missing, fuzzy or stale translation, as one line each."""
    found: list[str] = []
    for po_path in sorted(LOCALES.glob("*/LC_MESSAGES/*.po")):
        lang, page = po_path.parts[-3], po_path.stem
        with (gettext_dir / f"{page}.pot").open("rb") as pot_file:
            wanted = {m.id for m in read_po(pot_file) if m.id}
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file)
        have = {m.id: m for m in catalog if m.id}
        for msgid in sorted(wanted):
            message = have.get(msgid)
            if message is None or not message.string:
                found.append(f"{lang}/{page}: untranslated: {str(msgid)[:70]!r}")
            elif message.fuzzy:
                found.append(f"{lang}/{page}: fuzzy: {str(msgid)[:70]!r}")
        for msgid in sorted(set(have) - wanted):
            found.append(f"{lang}/{page}: no longer on the page: {str(msgid)[:70]!r}")
    return found


def main() -> int:
    """Check the catalogs against the templates in ``sys.argv[1]``."""
    found = problems(Path(sys.argv[1]))
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} problems: run sphinx-intl update -p {sys.argv[1]} "
              "-d docs/locales, then translate", file=sys.stderr)
        return 1
    print("translated pages complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
