"""Languages: choosing one per thread or task, and the library's texts in each (cardrules.i18n)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardrules
from cardrules import DECK, Card, IllegalActionError, Joker, ParseError, Rank, Suit, i18n, language
from cardrules import back_alley as ba
from cardrules import down_and_back as db
from cardrules.back_alley.serialize import state_to_dict, view_to_dict
from cardrules.back_alley.state import Contract, cards_phrase, tricks_phrase
from cardrules.i18n import (
    LANGUAGES,
    LazyText,
    current_language,
    from_environment,
    gettext,
    lazy_gettext,
    lazy_ngettext,
    ngettext,
    normalize,
    set_language,
)

# -- choosing a language ------------------------------------------------------------------


@pytest.mark.parametrize(("code", "expected"), [
    ("ja", "ja"), ("JA", "ja"), ("ja_JP.UTF-8", "ja"), ("ja-JP", "ja"), ("uk", "uk"),
    ("uk-UA", "uk"), ("uk_UA.utf8", "uk"), ("en_GB", "en"), ("en", "en"), ("C", "en"),
    ("POSIX", "en"), ("C.UTF-8", "en"), ("", "en"), ("fr_FR.UTF-8", "en"), ("xx", "en"),
    ("  uk  ", "uk"), ("ukr", "en")])
def test_normalize_reads_locale_names_and_tags(code: str, expected: str) -> None:
    assert normalize(code) == expected


def test_normalize_refuses_what_is_not_text() -> None:
    with pytest.raises(TypeError, match="text"):
        normalize(7)  # type: ignore[arg-type]


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LC_MESSAGES": "uk_UA.UTF-8", "LANG": "ja_JP.UTF-8"}, "uk"),
    ({"LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "uk_UA.UTF-8", "LANG": "en_US"}, "ja"),
    ({"LC_ALL": "", "LANG": "uk_UA"}, "uk"),            # empty means not set
    ({"LC_ALL": "C", "LANG": "uk_UA"}, "en"),           # C decides: English
    ({"LC_ALL": "de_DE", "LANG": "uk_UA"}, "en"),       # unknown decides too: English
])
def test_environment_is_read_in_posix_order(environ: dict[str, str], expected: str) -> None:
    assert from_environment(environ) == expected


def test_the_library_speaks_english_by_default_whatever_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert current_language() == "en"
    assert Card.parse("AS").long_name == "ace of spades"


def test_language_is_a_context_manager_that_restores_the_previous_one() -> None:
    assert LANGUAGES == ("en", "ja", "uk")
    assert cardrules.language is language
    with language("uk") as chosen:
        assert chosen == "uk"
        assert current_language() == "uk"
        with language("ja"):
            assert current_language() == "ja"
        assert current_language() == "uk"
    assert current_language() == "en"


def test_language_is_restored_after_an_exception() -> None:
    with pytest.raises(RuntimeError), language("ja"):
        raise RuntimeError("boom")
    assert current_language() == "en"


def test_an_unknown_language_falls_back_to_english() -> None:
    with language("xx_YY"):
        assert current_language() == "en"
        assert Card.parse("QH").long_name == "queen of hearts"
        assert db.evaluate4(cardrules.parse_cards("8S 8H 8D QH")).description == \
            "prial of eights"


def test_a_message_missing_from_the_catalog_comes_out_in_english() -> None:
    with language("uk"):
        assert gettext("no such message in any catalog") == "no such message in any catalog"


def test_set_language_without_with_is_confined_to_its_thread() -> None:
    seen: list[str] = []

    def worker() -> None:
        set_language("ja")
        seen.append(Card.parse("KD").long_name)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == ["ダイヤのキング"]
    assert current_language() == "en"
    assert Card.parse("KD").long_name == "king of diamonds"


# -- two languages at once ----------------------------------------------------------------

def _render_all() -> list[str]:
    """Texts of every kind the library translates, in the current language."""
    texts = [c.long_name for c in DECK] + [j.long_name for j in Joker]
    texts += [str(Contract(board=level)) for level in (1, 2, 3, 4)]
    texts += [cards_phrase(n) for n in (1, 2, 5, 11, 21, 22)]
    hand = cardrules.parse_cards("8S 8H 8D QH 5C 6C 7C")
    texts += [str(option) for option in db.best_splits(hand)]
    try:
        ba.apply(ba.new_game(), ba.Pass())
    except IllegalActionError as err:
        texts.append(str(err))
    return texts


def test_two_threads_render_in_two_languages_at_once() -> None:
    expected = {}
    for lang in ("ja", "uk"):
        with language(lang):
            expected[lang] = _render_all()
    assert expected["ja"] != expected["uk"]
    barrier = threading.Barrier(2)
    results: dict[str, list[list[str]]] = {"ja": [], "uk": []}

    def worker(lang: str) -> None:
        with language(lang):
            barrier.wait()
            for _ in range(30):
                results[lang].append(_render_all())

    threads = [threading.Thread(target=worker, args=(lang,)) for lang in ("ja", "uk")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for lang in ("ja", "uk"):
        assert results[lang] == [expected[lang]] * 30
    assert current_language() == "en"


def test_two_asyncio_tasks_render_in_two_languages_at_once() -> None:
    async def seat(lang: str) -> list[str]:
        with language(lang):
            out = []
            for card in DECK[:10]:
                await asyncio.sleep(0)   # the other task runs in between
                out.append(card.long_name)
            return out

    async def main() -> tuple[list[str], list[str]]:
        ja, uk = await asyncio.gather(seat("ja"), seat("uk"))
        return ja, uk

    ja, uk = asyncio.run(main())
    assert ja[0] == "スペードのエース"
    assert uk[0] == "туз пік"
    assert ja[4] == "スペードの2"
    assert uk[4] == "двійка пік"
    assert current_language() == "en"


def test_one_error_is_shown_in_two_languages() -> None:
    with pytest.raises(IllegalActionError) as caught:
        ba.apply(ba.new_game(), ba.Pass())
    err = caught.value
    english = "BA-11: the first dealer must be chosen first (a chance action)"
    assert str(err) == english
    assert err.rule == "BA-11"
    assert err.message == "the first dealer must be chosen first (a chance action)"
    with language("uk"):
        assert str(err).startswith("BA-11: ")
        assert str(err) != english
        assert err.message == "the first dealer must be chosen first (a chance action)"
    with language("ja"):
        assert str(err).startswith("BA-11: ")
        assert str(err) != english
    assert str(err) == english


# -- what is translated, what is not ------------------------------------------------------

def test_card_names_in_each_language() -> None:
    queen = Card.parse("QH")
    names = {}
    for lang in LANGUAGES:
        with language(lang):
            names[lang] = (queen.long_name, queen.name, queen.short_name, Suit.CLUBS.long_name,
                           Rank.TEN.long_name, Joker.BIG.long_name, Joker.LITTLE.short_name)
    assert names["en"] == ("queen of hearts", "queen of hearts", "Q♥", "clubs", "ten",
                           "Big Blooper", "LB")
    assert names["ja"] == ("ハートのクイーン", "ハートのクイーン", "Q♥", "クラブ", "10",
                           "ビッグブルーパー", "LB")
    assert names["uk"] == ("дама чирв", "дама чирв", "Д♥", "трефи", "десятка",
                           "Великий Блупер", "LB")


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_every_card_has_its_own_translated_name(lang: str) -> None:
    with language(lang):
        names = [card.long_name for card in DECK]
    with language("en"):
        english = [card.long_name for card in DECK]
    assert len(set(names)) == 52
    assert not set(names) & set(english)


def _some_states() -> list[ba.GameState]:
    rules, rng = ba.RULES, random.Random(7)
    state, states = ba.new_game(), []
    for _ in range(40):
        states.append(state)
        state = rules.apply(state, rules.sample_chance(state, rng) if state.is_chance
                            else rng.choice(rules.legal_actions(state)))
    return states


@pytest.mark.parametrize("lang", LANGUAGES)
def test_machine_formats_do_not_change_with_the_language(lang: str) -> None:
    states = _some_states()

    def machine() -> list[str]:
        out = [str(c) for c in DECK] + [str(Joker.BIG), str(ba.Board()), str(ba.Bid(3))]
        for state in states:
            out.append(json.dumps(state_to_dict(state)))
            out.append(json.dumps(view_to_dict(ba.view(state, 1))))
            out += [str(action) for action in ba.RULES.legal_actions(state)
                    if not state.is_chance]
        out.append(ba.RULES.record(ba.new_game(), [ba.ChooseDealer(0)]).to_json())
        return out

    with language("en"):
        english = machine()
    with language(lang):
        here = machine()
        assert cardrules.parse_cards("QH 10s") == (Card.parse("QH"), Card.parse("TS"))
        assert ba.parse_action("board") == ba.Board()
    assert here == english


@pytest.mark.parametrize(("number", "cards", "tricks"), [
    (1, "1 карта", "1 взятка"), (2, "2 карти", "2 взятки"), (5, "5 карт", "5 взяток"),
    (11, "11 карт", "11 взяток"), (21, "21 карта", "21 взятка"), (22, "22 карти", "22 взятки"),
    (12, "12 карт", "12 взяток"), (14, "14 карт", "14 взяток"), (0, "0 карт", "0 взяток"),
    (101, "101 карта", "101 взятка"), (111, "111 карт", "111 взяток")])
def test_ukrainian_plural_forms(number: int, cards: str, tricks: str) -> None:
    with language("uk"):
        assert (cards_phrase(number), tricks_phrase(number)) == (cards, tricks)


def test_japanese_has_one_plural_form() -> None:
    with language("ja"):
        assert [cards_phrase(n) for n in (1, 2, 5)] == ["1枚", "2枚", "5枚"]


@pytest.mark.parametrize(("cards", "ja", "uk"), [
    ("8S 8H 8D 8C", "8のクワッド", "каре вісімок"),
    ("8S 8H 8D QH", "8のプライアル", "пріал вісімок"),
    ("5C 6C 7C 8C", "バウンサー（8ハイ）", "баунсер до вісімки"),
    ("JS QH KD TC", "ラン（キングハイ）", "послідовність до короля"),
    ("2S 5S 9S KS", "フラッシュ（K-9-5-2）", "флеш, K-9-5-2"),
    ("9S 9H 3C 3D", "ツーペア（9と3）", "дві пари, дев'ятки і трійки"),
    ("QS QH QD 2S", "クイーンのペア、クイーンと2", "пара дам, дама і двійка"),
    ("KS 9D 4H 2C", "ハイカード（キング）", "старша карта — король"),
    ("JH QH KH", "バウンサー（キングハイ）", "баунсер до короля"),
    ("AS AH KD", "エースのペア", "пара тузів"),
])
def test_combination_descriptions(cards: str, ja: str, uk: str) -> None:
    hand = cardrules.parse_cards(cards)
    combo = db.evaluate4(hand) if len(hand) == 4 else db.evaluate3(hand)
    with language("ja"):
        assert combo.description == ja
        assert str(combo) == f"{ja} ({cards})"
    with language("uk"):
        assert combo.description == uk


def test_parse_errors_for_a_person_typing_cards() -> None:
    with pytest.raises(ParseError) as caught:
        cardrules.parse_cards("KS QH 1X")
    err = caught.value
    assert str(err) == "not a card: '1X' at position 6"
    assert (err.message, err.token, err.position) == ("not a card", "1X", 6)
    with language("uk"):
        assert str(err) == "не карта: '1X' (позиція 6)"
    with language("ja"):
        assert str(err) == "カードではありません: '1X'（位置 6）"
        assert str(err.within("line 2: ", 10)) == "line 2: カードではありません: '1X'（位置 16）"


def test_refusals_keep_the_rule_id_in_every_language() -> None:
    state = db.new_game(2)
    for lang in LANGUAGES:
        with language(lang), pytest.raises(IllegalActionError, match=r"^DB-31: "):
            db.apply(state, db.Cut(5))


def test_a_replayed_record_refusal_is_translated_whole() -> None:
    record = ba.RULES.record(ba.new_game(), [ba.Pass()])
    with pytest.raises(IllegalActionError) as caught:
        list(ba.RULES.replay(record))
    err = caught.value
    assert str(err).startswith("BA-11: action 1 (pass): the first dealer")
    with language("uk"):
        assert str(err).startswith("BA-11: дія 1 (pass): спершу")


def test_a_lazy_text_with_a_broken_translation_falls_back_to_english() -> None:
    text = lazy_gettext("spades")
    text.fields["x"] = 1  # a field the message does not use is harmless
    with language("ja"):
        assert str(text) == "スペード"


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_the_pictures_are_labelled_in_the_language(lang: str) -> None:
    import xml.etree.ElementTree as ET

    from cardrules.back_alley.pictures import state_svg as ba_state_svg
    from cardrules.back_alley.pictures import view_svg as ba_view_svg
    from cardrules.down_and_back.pictures import state_svg as db_state_svg
    from cardrules.svg import card_svg

    states = _some_states()
    db_state = db.new_game(2)
    rng = random.Random(2)
    for _ in range(12):
        db_state = db.RULES.apply(db_state, db.RULES.sample_chance(db_state, rng)
                                  if db_state.is_chance
                                  else rng.choice(db.RULES.legal_actions(db_state)))
    with language("en"):
        english = [ba_state_svg(states[-1]), ba_view_svg(ba.view(states[-1], 2)),
                   db_state_svg(db_state), card_svg(None)]
    with language(lang):
        here = [ba_state_svg(states[-1]), ba_view_svg(ba.view(states[-1], 2)),
                db_state_svg(db_state), card_svg(None)]
    for picture in here:
        ET.fromstring(picture)  # still well-formed
    assert "seat 1" in english[0]
    seat = {"ja": "席1", "uk": "місце 1"}[lang]
    assert seat in here[0]
    assert seat in here[2]
    assert "seat 1" not in here[0]
    assert "a card face down" not in here[3]
    # The cards themselves are the same pictures, with the same data-card notation.
    assert here[0].count('data-card="') == english[0].count('data-card="')


# -- catalogs as Babel compiles them, and the English fallbacks ---------------------------

_HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
           '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && '
           'n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n')


def _locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, po: str, *,
            mo: str | None = None) -> Path:
    """A Ukrainian catalog ``po`` (and a compiled ``mo``, older) in a folder that
    cardrules reads instead of its own."""
    babel_mo = pytest.importorskip("babel.messages.mofile")
    from babel.messages.pofile import read_po

    folder = tmp_path / "uk" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    if mo is not None:
        out = io.BytesIO()
        babel_mo.write_mo(out, read_po(io.BytesIO((_HEADER + mo).encode()), locale="uk"))
        (folder / "cardrules.mo").write_bytes(out.getvalue())
        os.utime(folder / "cardrules.mo", (1_000_000, 1_000_000))
    (folder / "cardrules.po").write_text(_HEADER + po, encoding="utf-8")
    monkeypatch.setattr(i18n, "_LOCALE_DIR", tmp_path)
    i18n._clear_cache()
    return folder


@pytest.fixture(autouse=True)
def _fresh_catalogs() -> Iterator[None]:
    i18n._clear_cache()
    yield
    i18n._clear_cache()


def test_a_lazy_texts_repr_is_its_english_text_in_every_language() -> None:
    assert repr(lazy_gettext("spades")) == "LazyText('spades')"
    with language("ja"):
        assert repr(lazy_gettext("seat {seat}", seat=2)) == "LazyText('seat 2')"
        assert repr(lazy_ngettext("{n} card", "{n} cards", 3)) == "LazyText('3 cards')"


def test_a_partly_translated_plural_entry_gives_english_for_its_empty_forms(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Babel compiles an empty plural form as the English plural; the forms
    that are translated are used."""
    _locale(tmp_path, monkeypatch, 'msgid "{n} apple"\nmsgid_plural "{n} apples"\n'
            'msgstr[0] "{n} яблуко"\nmsgstr[1] ""\nmsgstr[2] ""\n')
    with language("uk"):
        assert [ngettext("{n} apple", "{n} apples", n).format(n=n) for n in (1, 21, 2, 5)] == [
            "1 яблуко", "21 яблуко", "2 apples", "5 apples"]


def test_a_broken_plural_translation_falls_back_to_the_english_form_for_n(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A translation that renames a field is shown in English, singular for 1
    and plural otherwise, with the fields filled in."""
    _locale(tmp_path, monkeypatch, 'msgid "{n} pear"\nmsgid_plural "{n} pears"\n'
            'msgstr[0] "{m} груша"\nmsgstr[1] "{m} груші"\nmsgstr[2] "{m} груш"\n')
    with language("uk"):
        assert [str(lazy_ngettext("{n} pear", "{n} pears", n)) for n in (1, 2, 5)] == [
            "1 pear", "2 pears", "5 pears"]


def test_the_english_of_a_plural_text_follows_n_and_its_fields_english() -> None:
    inner = lazy_gettext("spades")
    with language("uk"):
        assert lazy_ngettext("{n} of {suit}", "{n} of all {suit}", 1, suit=inner).english == \
            "1 of spades"
        assert lazy_ngettext("{n} of {suit}", "{n} of all {suit}", 4, suit=inner).english == \
            "4 of all spades"


def test_an_edited_po_file_newer_than_its_mo_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _locale(tmp_path, monkeypatch, 'msgid "pear"\nmsgstr "груша (нова)"\n',
            mo='msgid "pear"\nmsgstr "груша"\n')
    with language("uk"):
        assert gettext("pear") == "груша (нова)"


def test_the_compiled_catalog_is_read_when_it_is_newer_than_its_po(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _locale(tmp_path, monkeypatch, 'msgid "pear"\nmsgstr "груша (стара)"\n',
                     mo='msgid "pear"\nmsgstr "груша"\n')
    os.utime(folder / "cardrules.mo", None)  # now: newer than the .po
    os.utime(folder / "cardrules.po", (1_000_000, 1_000_000))
    with language("uk"):
        assert gettext("pear") == "груша"


def test_a_compiled_catalog_as_new_as_its_po_is_read_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _locale(tmp_path, monkeypatch, 'msgid "pear"\nmsgstr "груша (нова)"\n',
                     mo='msgid "pear"\nmsgstr "груша"\n')
    os.utime(folder / "cardrules.po", (1_000_000, 1_000_000))  # the .mo's time
    with language("uk"):
        assert gettext("pear") == "груша"


def test_without_babel_a_source_tree_reads_its_compiled_catalog(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _locale(tmp_path, monkeypatch, 'msgid "pear"\nmsgstr "груша (нова)"\n',
            mo='msgid "pear"\nmsgstr "груша"\n')
    monkeypatch.setitem(sys.modules, "babel.messages.pofile", None)  # import fails
    with language("uk"):
        assert gettext("pear") == "груша"


def test_no_catalog_at_all_gives_english(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_LOCALE_DIR", tmp_path)
    with language("uk"):
        assert gettext("spades") == "spades"
        assert ngettext("{n} card", "{n} cards", 2) == "{n} cards"


def test_a_plural_text_without_a_number_takes_the_form_for_zero() -> None:
    text = LazyText("{n} card", plural="{n} cards")
    assert (str(text), text.english) == ("{n} cards", "{n} cards")
    with language("uk"):
        assert str(text) == "{n} карт"  # Ukrainian's form for 0 (and 5), not for 1


def test_lazy_texts_are_equal_by_message_and_fields_never_to_plain_text() -> None:
    first = lazy_gettext("seat {seat} to act", seat=1)
    same = lazy_gettext("seat {seat} to act", seat=1)
    assert first == same
    assert hash(first) == hash(same)
    assert first != lazy_gettext("seat {seat} to act", seat=2)
    assert first != lazy_ngettext("seat {seat} to act", "seats {seat} to act", 1, seat=1)
    assert first != "seat 1 to act"
