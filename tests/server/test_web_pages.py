"""The web table's files over HTTP, without a browser: the pages, the
scripts and styles, the card pictures, and that nothing is fetched from
another host (tests/server/test_browser.py plays them in Chromium)."""

from __future__ import annotations

import re

from cardrules.server.web import STATIC, card_picture
from support.serverplay import new_table, served


def test_the_lobby_and_a_table_page_are_served_with_their_scripts(database: str) -> None:
    with served(database) as client:
        lobby = client.get("/")
        assert lobby.status_code == 200
        assert lobby.headers["content-type"].startswith("text/html")
        assert 'id="create-form"' in lobby.text
        table, _ = new_table(client, "down-and-back", ["human", "bot:greedy"])
        page = client.get(f"/tables/{table}")
        assert page.status_code == 200
        assert 'id="hand"' in page.text
        for name in ("common.js", "lobby.js", "table.js", "style.css"):
            answer = client.get(f"/static/{name}")
            assert answer.status_code == 200, name
        assert client.get("/static/nothing.js").status_code == 404


def test_every_card_picture_is_the_library_drawing_and_bad_codes_are_404(
        database: str) -> None:
    from cardrules.cards import DECK, Card, Joker
    from cardrules.svg import card_svg

    every: list[Card | Joker] = [*DECK, Joker.BIG, Joker.LITTLE]
    with served(database) as client:
        for card in every:
            answer = client.get(f"/cards/{card}.svg")
            assert answer.status_code == 200
            assert answer.headers["content-type"] == "image/svg+xml"
            assert answer.text == card_svg(card)
        back = client.get("/cards/back.svg").text
        assert "data-card" not in back
        for bad in ("10h", "qh", "ZZ", "AS AH", "..%2Fstyle.css"):
            assert client.get(f"/cards/{bad}.svg").status_code == 404, bad
        assert client.get("/favicon.ico", follow_redirects=False).headers["location"] \
            == "/cards/AS.svg"
    assert card_picture("QH") is card_picture("QH")   # drawn once, then kept


def test_the_pages_fetch_nothing_from_another_host() -> None:
    # No CDN, no web font, no absolute URL to anywhere: every reference in
    # the HTML, CSS and JavaScript is a path on the server itself.
    for path in sorted(STATIC.iterdir()):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), path.name
        assert "@import" not in text, path.name
        for ref in re.findall(r'(?:src|href)="([^"]*)"', text):
            assert ref.startswith("/"), (path.name, ref)
