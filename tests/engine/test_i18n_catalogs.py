"""The message catalogs: one domain, complete, faithful to its template, compiled by Babel.

The one domain ``cardrules`` (the library's, the command's and the tables'
texts) is checked in every language.  Babel comes with the ``test`` extra
(it compiles the catalogs in the build).
"""

from __future__ import annotations

import gettext
import string
import subprocess
import sys
from pathlib import Path

import pytest

from cardrules import i18n

babel = pytest.importorskip("babel")
from babel.messages.catalog import Catalog, Message  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "cardrules" / "locale"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]
DOMAINS = sorted(path.stem for path in LOCALE.glob("*.pot"))
PAIRS = [(domain, lang) for domain in DOMAINS for lang in TRANSLATED]
#: The keywords docs/languages.rst gives to pybabel extract.
KEYWORDS = ["_", "gettext", "pgettext:1c,2", "ngettext:1,2", "npgettext:1c,2,3", "N_",
            "NP_:1c,2", "lazy_gettext", "lazy_ngettext:1,2",
            "told", "told_n:1,2", "_told", "_told_n:1,2"]


def _catalog(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def _key(message: Message) -> tuple[str | None, str]:
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


def _strings(message: Message) -> list[str]:
    value = message.string
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_one_domain_holds_every_text() -> None:
    assert DOMAINS == ["cardrules"]
    assert sorted(p.name for p in LOCALE.glob("*/LC_MESSAGES/*.po")) == ["cardrules.po"] * len(
        TRANSLATED)
    config = (ROOT / "babel.cfg").read_text(encoding="utf-8")
    assert [line for line in config.splitlines() if line.startswith("[")] == [
        "[python: src/cardrules/**.py]"]


@pytest.mark.parametrize(("domain", "lang"), PAIRS)
def test_every_message_has_a_translation(domain: str, lang: str) -> None:
    template = _catalog(LOCALE / f"{domain}.pot")
    catalog = _catalog(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", lang)
    missing = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        strings = [] if found is None else _strings(found)
        if found is None or not strings or not all(strings) or found.fuzzy:
            missing.append(_key(message))
    assert missing == []


@pytest.mark.parametrize(("domain", "lang"), PAIRS)
def test_no_translation_is_left_over_from_a_message_that_is_gone(domain: str, lang: str) -> None:
    template = {_key(m) for m in _catalog(LOCALE / f"{domain}.pot") if m.id}
    catalog = {_key(m) for m in _catalog(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", lang)
               if m.id}
    assert catalog - template == set()


@pytest.mark.parametrize(("domain", "lang"), PAIRS)
def test_placeholders_are_kept(domain: str, lang: str) -> None:
    wrong = []
    for message in _catalog(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", lang):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = _strings(message)
        # The English forms may differ only in {n}; every translated form must use
        # exactly the fields of the English plural form.
        wanted = _placeholders(ids[-1])
        if isinstance(message.id, str):
            wanted = _placeholders(ids[0])
        for text in strings:
            have = _placeholders(text)
            if have != wanted and not (have | {"n"} == wanted and len(ids) > 1):
                wrong.append((_key(message), text))
            if "%" in text and "%" not in "".join(ids):
                wrong.append((_key(message), text))
    assert wrong == []


@pytest.mark.parametrize(("lang", "forms"), [("ja", 1), ("uk", 3)])
def test_plural_forms_in_the_headers(lang: str, forms: int) -> None:
    for domain in DOMAINS:
        catalog = _catalog(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", lang)
        assert catalog.num_plurals == forms
        for message in catalog:
            if message.id and not isinstance(message.id, str):
                assert len(_strings(message)) == forms, _key(message)


def test_the_ukrainian_plural_rule() -> None:
    catalog = _catalog(LOCALE / "uk" / "LC_MESSAGES" / "cardrules.po", "uk")
    rule = gettext.c2py(catalog.plural_expr)
    # one: 1, 21, 101; few: 2-4, 22-24; many: 0, 5-20, 25-30, 111-114.
    assert [rule(n) for n in (1, 21, 31, 101)] == [0, 0, 0, 0]
    assert [rule(n) for n in (2, 3, 4, 22, 24, 102)] == [1] * 6
    assert [rule(n) for n in (0, 5, 11, 12, 13, 14, 19, 20, 25, 111, 112)] == [2] * 11


def test_the_template_is_up_to_date() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "catalogs.py"), "check"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_plain_pybabel_extract_finds_the_templates_messages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pybabel command of docs/languages.rst finds every message of the
    template but the "to you" forms, which tools/catalogs.py adds."""
    from babel.messages.frontend import CommandLineInterface

    fresh = tmp_path / "cardrules.pot"
    command = ["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"),
               "--no-default-keywords", "--no-location", "--sort-output", "-o", str(fresh)]
    for keyword in KEYWORDS:
        command += ["-k", keyword]
    monkeypatch.chdir(ROOT)
    CommandLineInterface().run([*command, "."])  # type: ignore[no-untyped-call]
    wanted = {_key(m) for m in _catalog(fresh) if m.id}
    have = {_key(m) for m in _catalog(LOCALE / "cardrules.pot")
            if m.id and m.context != "to you"}
    assert wanted == have, "run python tools/catalogs.py update"


def test_a_pickled_refusal_keeps_its_rule_and_its_languages() -> None:
    import pickle

    from cardrules import IllegalActionError
    from cardrules.i18n import lazy_gettext

    err = IllegalActionError("DB-34", lazy_gettext("seat {seat} does not hold {card}",
                                                   seat=1, card="QH"))
    back = pickle.loads(pickle.dumps(err))
    assert (back.rule, back.message, str(back)) == ("DB-34", "seat 1 does not hold QH",
                                                    "DB-34: seat 1 does not hold QH")
    with i18n.language("uk"):
        assert str(back) == "DB-34: у місця 1 немає QH"


def test_the_catalogs_are_read_once_and_shared_by_threads() -> None:
    import threading

    i18n._clear_cache()
    seen = []

    def worker() -> None:
        with i18n.language("uk"):
            seen.append(i18n._catalog())

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(catalog) for catalog in seen}) == 1
