"""The web table in the player's language, without a browser: every word
the pages show is a catalog entry (context "web") in English, Japanese and
Ukrainian; the page's language comes from ``?lang=``, the language switch's
cookie or the browser's languages; the log is told to the viewer; a refusal
is in one language; and the rules panel's text is the rules page's, rule ids
kept (tests/server/test_browser.py looks at the same pages in Chromium)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardrules.i18n import language, pgettext
from cardrules.server.rules_text import game_rules
from cardrules.server.web import STATIC, page_language, render_page
from cardrules.server.words import MESSAGES, words
from support.serverplay import new_table, served, url

ROOT = Path(__file__).resolve().parents[2]
BOTS = ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
#: Messages the server says itself (refusals), not the pages.
SAID_BY_THE_SERVER = {"the game is over", "the table is at version {now}, not {sent}",
                      "not an action: {reason}", "a chance action is due", "your partner",
                      "Language"}


def _used_by_the_pages() -> set[str]:
    used: set[str] = set()
    for path in sorted(STATIC.glob("*.js")):
        for found in re.finditer(r'\b[tN]\("((?:[^"\\]|\\.)*)"', path.read_text("utf-8")):
            used.add(json.loads(f'"{found.group(1)}"'))
    for path in sorted(STATIC.glob("*.html")):
        used |= set(re.findall(r"\{\{([^{}]+)\}\}", path.read_text("utf-8"))) - {"lang", "switch"}
    return used


def test_every_word_of_the_pages_is_in_the_catalog_and_every_entry_is_used() -> None:
    used = _used_by_the_pages()
    assert used - set(MESSAGES) == set()
    assert set(MESSAGES) - used - SAID_BY_THE_SERVER == set()


def test_no_english_word_is_written_into_the_pages_outside_the_messages() -> None:
    # Every text node of the HTML is a {{message}}, a name or a symbol.
    for name in ("lobby.html", "table.html", "rules.html"):
        body = (STATIC / name).read_text("utf-8").split("<body", 1)[1]
        body = re.sub(r"<script.*?</script>", "", body, flags=re.S)
        texts = [t.strip() for t in re.findall(r">([^<>]+)<", body)]
        allowed = r"(\{\{[^{}]+\}\}\s*)+|cardrules|&#x21bb;"
        leftover = [t for t in texts if t and not re.fullmatch(allowed, t)]
        assert leftover == [], name


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_every_word_of_the_pages_is_translated(lang: str) -> None:
    said = words(lang)
    assert [m for m, text in said.items() if m == text] == []


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_a_page_in_japanese_or_ukrainian_has_no_english_word(lang: str) -> None:
    for name in ("lobby.html", "table.html", "rules.html"):
        page = render_page(name, lang)
        assert f'<html lang="{lang}">' in page
        visible = re.sub(r"<(script|option)[^>]*>.*?</\1>|<[^>]+>", " ", page, flags=re.S)
        english = [w for w in re.findall(r"[A-Za-z]{3,}", visible) if w != "cardrules"]
        assert english == [], (name, english)


def test_the_page_language_comes_from_the_query_then_the_cookie_then_the_browser(
        database: str) -> None:
    assert page_language(None, None, "en-US,en;q=0.9,ja;q=0.8") == "en"
    assert page_language(None, None, "fr;q=1, ja;q=0.3, uk;q=0.5") == "uk"
    assert page_language(None, None, "ja;q=0, uk") == "uk"
    assert page_language(None, "ja", "uk") == "ja"
    assert page_language("uk", "ja", "ja") == "uk"
    with served(database) as client:
        page = client.get("/", headers={"Accept-Language": "ja-JP,ja;q=0.9"})
        assert '<html lang="ja">' in page.text
        assert "新しいテーブル" in page.text
        assert page.headers["content-language"] == "ja"
        assert "cardrules-lang" not in page.headers.get("set-cookie", "")
        chosen = client.get("/?lang=uk", headers={"Accept-Language": "ja"})
        assert '<html lang="uk">' in chosen.text
        assert "cardrules-lang=uk" in chosen.headers["set-cookie"]   # remembered
        table, _ = new_table(client, "down-and-back", ["human", "bot:greedy"])
        again = client.get(f"/tables/{table}", headers={"Accept-Language": "ja"})
        assert '<html lang="uk">' in again.text   # the cookie outranks the browser
        assert 'id="lang-switch"' in again.text
        words_uk = client.get("/words/uk.json").json()
        assert words_uk["lang"] == "uk"
        assert words_uk["words"]["join"] == "приєднатися"
        assert client.get("/words/fr.json").status_code == 404


def test_the_log_speaks_to_the_viewer_and_names_the_partner(database: str) -> None:
    with served(database) as client:
        table, tokens = new_table(client, "back-alley", ["human", *BOTS[1:]], seed=4)
        with client.websocket_connect(url(table, tokens[0]) + "&lang=en") as ws:
            texts = [e["text"] for e in ws.receive_json()["events"]]
        with client.websocket_connect(url(table)) as watcher:
            watched = [e["text"] for e in watcher.receive_json()["events"]]
    assert any(t.startswith("you are dealt ") for t in texts), texts
    assert not any(re.search(r"\bseat 0\b|\bseat 2\b", t) for t in texts), texts
    assert any("your partner" in t for t in texts) or len(texts) < 6
    assert not any("you" in t.split() for t in watched)


def test_a_refusal_is_in_the_language_of_the_connection_only(database: str) -> None:
    with served(database) as client:
        table, tokens = new_table(client, "down-and-back", ["human", "bot:greedy"])
        for lang, prefix in (("ja", "手ではありません"), ("uk", "це не хід")):
            with client.websocket_connect(url(table, tokens[0]) + f"&lang={lang}") as ws:
                version = ws.receive_json()["version"]
                ws.send_json({"type": "act", "version": version, "action": "play ZZ"})
                while (answer := ws.receive_json())["type"] != "error":
                    pass
            assert answer["rule"] == "parse"
            assert answer["message"].startswith(prefix), answer
            assert "not an action" not in answer["message"]
    with language("ja"):
        assert pgettext("web", "not an action: {reason}") != "not an action: {reason}"


def _items(game: str, lang: str) -> list[dict[str, object]]:
    rules = game_rules(game, lang)
    assert rules is not None
    sections = rules["sections"]
    assert isinstance(sections, list)
    return [item for section in sections for item in section["items"]]


def test_the_rules_panel_text_is_the_rules_page_with_its_ids() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "web_rules.py"), "--check"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    source = (ROOT / "docs" / "rules.rst").read_text("utf-8")
    for game, prefix in (("back-alley", "BA-"), ("down-and-back", "DB-")):
        count = len(re.findall(rf"^{prefix}\d+", source, flags=re.M))
        for lang in ("en", "ja", "uk"):   # every rule of the page, in each language
            ids = [item["id"] for item in _items(game, lang) if item["id"]]
            assert len(ids) == count
            assert all(str(i).startswith(prefix) for i in ids)
    ba31 = {lang: next(item["text"] for item in _items("back-alley", lang)
                       if item["id"] == "BA-31")
            for lang in ("en", "ja", "uk")}
    assert str(ba31["en"]).startswith("A player who can follow the suit led must do so.")
    assert not str(ba31["ja"]).isascii()
    assert not str(ba31["uk"]).isascii()
    assert "``" not in json.dumps(game_rules("back-alley", "en"))


def test_the_rules_are_served_as_a_page_and_as_json(database: str) -> None:
    with served(database) as client:
        page = client.get("/rules/back-alley?lang=ja")
        assert page.status_code == 200
        assert '<html lang="ja">' in page.text
        data = client.get("/rules/down-and-back.json?lang=uk").json()
        assert data["game"] == "down-and-back"
        assert data["lang"] == "uk"
        assert client.get("/rules/chess.json").status_code == 404
