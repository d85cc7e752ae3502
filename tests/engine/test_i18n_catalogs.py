"""The message catalogs: complete, faithful to their templates, and read the same as Babel does.

Every domain present in ``src/cardrules/locale`` is checked (the library's
``cardrules`` and the command's ``cardrules-cli``), in every language.
Babel comes with the ``test`` extra (it compiles the catalogs in the build).
"""

from __future__ import annotations

import gettext
import io
import string
from pathlib import Path

import pytest

from cardrules import i18n

babel = pytest.importorskip("babel")
from babel.messages.catalog import Catalog, Message  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "cardrules" / "locale"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]
DOMAINS = sorted(path.stem for path in LOCALE.glob("*.pot"))
PAIRS = [(domain, lang) for domain in DOMAINS for lang in TRANSLATED]
#: The keywords docs/languages.rst gives to pybabel extract.
KEYWORDS = ["gettext", "pgettext:1c,2", "ngettext:1,2", "npgettext:1c,2,3", "N_", "NP_:1c,2",
            "lazy_gettext", "lazy_pgettext:1c,2", "lazy_ngettext:1,2"]


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


def test_both_domains_and_the_library_domain_exists() -> None:
    assert "cardrules" in DOMAINS
    assert set(DOMAINS) <= set(i18n.DOMAINS)


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


@pytest.mark.parametrize(("domain", "lang"), PAIRS)
def test_the_runtime_reads_a_po_file_as_babel_compiles_it(domain: str, lang: str) -> None:
    po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    compiled = io.BytesIO()
    write_mo(compiled, _catalog(po, lang))
    by_babel = gettext.GNUTranslations(io.BytesIO(compiled.getvalue()))
    ours = gettext.GNUTranslations(io.BytesIO(i18n.write_mo(i18n.read_po(
        po.read_text(encoding="utf-8")))))
    assert ours._catalog == by_babel._catalog  # type: ignore[attr-defined]
    assert ours.plural(2) == by_babel.plural(2)  # type: ignore[attr-defined]


def test_the_po_reader_skips_fuzzy_and_empty_entries_and_joins_lines() -> None:
    text = ('msgid ""\nmsgstr "Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
            '#, fuzzy\nmsgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr ""\n\n'
            'msgid "c"\nmsgstr ""\n"C\\"1"\n\n'
            'msgctxt "x"\nmsgid "{n} d"\nmsgid_plural "{n} ds"\nmsgstr[0] "D"\n')
    assert i18n.read_po(text) == {"": "Plural-Forms: nplurals=1; plural=0;\n", "c": 'C"1',
                                  "x\x04{n} d\x00{n} ds": "D"}


#: Each domain's extraction settings, at the repository's root.
CONFIGS = {"cardrules": "babel.cfg", "cardrules-cli": "babel-cli.cfg"}


def _extra_keywords(config: Path) -> list[str]:
    # A line "# extra keywords: _ P_:1c,2" in the settings adds keywords.
    for line in config.read_text(encoding="utf-8").splitlines():
        if line.lower().startswith("# extra keywords:"):
            return line.split(":", 1)[1].split()
    return []


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_template_holds_every_message_of_the_code(
        domain: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from babel.messages.frontend import CommandLineInterface

    config = ROOT / CONFIGS.get(domain, f"babel-{domain}.cfg")
    if not config.exists():
        pytest.skip(f"no extraction settings for {domain}")
    fresh = tmp_path / f"{domain}.pot"
    command = ["pybabel", "-q", "extract", "-F", str(config), "--no-default-keywords",
               "--no-location", "--sort-output", "-o", str(fresh)]
    for keyword in KEYWORDS + _extra_keywords(config):
        command += ["-k", keyword]
    monkeypatch.chdir(ROOT)
    CommandLineInterface().run([*command, "."])  # type: ignore[no-untyped-call]
    wanted = {_key(m) for m in _catalog(fresh) if m.id}
    # The command's template also holds, in the context "to you", the form of
    # each narration sentence said to its seat (tools/i18n_cli.py adds them).
    have = {_key(m) for m in _catalog(LOCALE / f"{domain}.pot")
            if m.id and m.context != "to you"}
    assert wanted == have, "run the pybabel extract and update of docs/languages.rst"


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

    i18n.clear_cache()
    seen = []

    def worker() -> None:
        with i18n.language("uk"):
            seen.append(i18n._catalog("cardrules"))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(catalog) for catalog in seen}) == 1
