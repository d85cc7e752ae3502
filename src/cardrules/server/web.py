"""The web table: the pages, scripts, styles and card pictures the server serves.

:func:`routes` gives the routes the server's app mounts beside its API:

- ``/``: the lobby (open tables, a form to create one, join and watch);
- ``/tables/{id}``: the table page, which plays over the WebSocket;
- ``/rules/{game}``: how to play a game, its rules with their ids as anchors
  (``/rules/back-alley#BA-31``), and ``/rules/{game}.json`` the same as JSON;
- ``/words/{lang}.json``: every word the pages show, in that language
  (:func:`cardrules.server.words.words`);
- ``/static/...``: the HTML, CSS and JavaScript of ``cardrules/server/static``
  (plain files, no build step, nothing fetched from elsewhere);
- ``/cards/{code}.svg``: one card drawn by :func:`cardrules.svg.card_svg`
  (``QH``, ``TS``, ``BB``, ``LB``; ``back`` is a card face down), made once
  and kept (``/favicon.ico`` is the ace of spades).

Every page is in one language: ``?lang=`` (``en``, ``ja``, ``uk``), else the
one the page's language switch remembered (the cookie ``cardrules-lang``),
else the first of the browser's languages (``Accept-Language``) that
cardrules speaks, else English (:func:`page_language`).

The pages know nothing of a game's rules: they draw what the view says,
choosing a layout by the view's ``format`` tag, and offer exactly the actions
the server lists as legal.

>>> card_picture("QH").startswith("<svg"), card_picture("10h") is None
(True, True)
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from cardrules.i18n import LANGUAGES
from cardrules.server.words import words

__all__ = ["LANGUAGE_COOKIE", "STATIC", "card_picture", "page_language", "routes"]

#: The folder of the web table's plain files (HTML, CSS, JavaScript).
STATIC = Path(__file__).resolve().parent / "static"

# Pictures and scripts are the same for every table; the pages themselves are
# small and never cached, so a new version of the package shows at once.
_PICTURE_CACHE = "public, max-age=86400"

#: The cookie the pages' language switch sets (a language code).
LANGUAGE_COOKIE = "cardrules-lang"
#: Each language by its own name, for the switch (the same on every page).
_ENDONYMS = {"en": "English", "ja": "日本語", "uk": "Українська"}
_FIELD = re.compile(r"\{\{([^{}]+)\}\}")


@lru_cache(maxsize=64)
def card_picture(code: str) -> str | None:
    """The SVG picture served at ``/cards/{code}.svg``, or None when ``code``
    is not a card's canonical text form (``"QH"``, ``"TS"``, ``"BB"``) nor
    ``"back"``.  Each picture is drawn once and kept (55 at most).

    >>> card_picture("back").count('class="card back"')
    1
    >>> 'data-card="BB"' in card_picture("BB")
    True
    >>> card_picture("qh") is None, card_picture("ZZ") is None
    (True, True)
    """
    from cardrules.cards import parse_card
    from cardrules.errors import ParseError
    from cardrules.svg import card_svg

    if code == "back":
        return card_svg(None, face_down=True)
    try:
        card = parse_card(code, jokers=True)
    except ParseError:
        return None
    if str(card) != code:
        return None
    return card_svg(card)


async def _card(request: Request) -> Response:
    picture = card_picture(request.path_params["code"])
    if picture is None:
        return Response("no such card\n", status_code=404, media_type="text/plain")
    return Response(picture, media_type="image/svg+xml",
                    headers={"Cache-Control": _PICTURE_CACHE})


def page_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The language of a page: the query's ``lang``, else the cookie's, else
    the first language of an ``Accept-Language`` header that cardrules
    speaks (by its ``q`` weights), else ``"en"``.

    >>> page_language(None, None, "fr-CH, fr;q=0.9, uk;q=0.8, ja;q=0.7")
    'uk'
    >>> page_language("ja", "uk", "uk"), page_language("xx", "uk", None)
    ('ja', 'uk')
    >>> page_language(None, None, None)
    'en'
    """
    for chosen in (query, cookie):
        if chosen in LANGUAGES:
            return chosen
    weighted = []
    for order, item in enumerate((accept or "").split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        found = re.search(r"q=([0-9.]+)", params)
        if found is not None:
            try:
                weight = float(found.group(1))
            except ValueError:
                continue
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and weight > 0:
            weighted.append((-weight, order, code))
    return min(weighted)[2] if weighted else "en"


def _language(request: Request) -> str:
    return page_language(request.query_params.get("lang"),
                         request.cookies.get(LANGUAGE_COOKIE),
                         request.headers.get("accept-language"))


def _switch(lang: str, label: str) -> str:
    options = "".join(f'<option value="{code}" lang="{code}"'
                      f'{" selected" if code == lang else ""}>{_ENDONYMS[code]}</option>'
                      for code in LANGUAGES)
    return (f'<label class="lang-switch"><span class="visually-hidden">{html.escape(label)}'
            f'</span><select id="lang-switch" data-endonyms="1" aria-label="{html.escape(label)}">'
            f'{options}</select></label>')


@lru_cache(maxsize=16)
def render_page(name: str, lang: str) -> str:
    """The page ``name`` of the static folder in ``lang``: each ``{{message}}``
    replaced by its translation (escaped), ``{{lang}}`` by the language code
    and ``{{switch}}`` by the language switch.

    >>> render_page("lobby.html", "uk").count('lang="uk"') >= 2
    True
    >>> "{{" in render_page("table.html", "ja")
    False
    """
    said = words(lang)

    def field(found: re.Match[str]) -> str:
        key = found.group(1)
        if key == "lang":
            return lang
        if key == "switch":
            return _switch(lang, said["Language"])
        return html.escape(said.get(key, key))

    return _FIELD.sub(field, (STATIC / name).read_text(encoding="utf-8"))


def _page(request: Request, name: str) -> Response:
    lang = _language(request)
    response = Response(render_page(name, lang), media_type="text/html",
                        headers={"Cache-Control": "no-cache", "Content-Language": lang,
                                 "Vary": "Accept-Language, Cookie"})
    if request.query_params.get("lang") in LANGUAGES:   # a link's choice is remembered
        response.set_cookie(LANGUAGE_COOKIE, lang, max_age=365 * 86400, samesite="lax")
    return response


async def _lobby(request: Request) -> Response:
    return _page(request, "lobby.html")


async def _table(request: Request) -> Response:
    return _page(request, "table.html")


async def _rules_page(request: Request) -> Response:
    return _page(request, "rules.html")


async def _words(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return JSONResponse({"error": f"no language {lang!r}"}, status_code=404)
    return JSONResponse({"lang": lang, "words": words(lang)},
                        headers={"Cache-Control": "no-cache"})


async def _rules(request: Request) -> Response:
    from cardrules.server.rules_text import game_rules

    found = game_rules(request.path_params["game"], _language(request))
    if found is None:
        return JSONResponse({"error": "no such game"}, status_code=404)
    return JSONResponse(found, headers={"Cache-Control": "no-cache"})


async def _icon(request: Request) -> Response:
    return RedirectResponse("/cards/AS.svg", status_code=301)


def routes() -> list[BaseRoute]:
    """The web table's routes, which the server's app mounts beside its API.

    >>> sorted(r.path for r in routes())[:4]
    ['/', '/cards/{code}.svg', '/favicon.ico', '/rules/{game}']
    """
    return [
        Route("/", _lobby, methods=["GET"]),
        Route("/tables/{table_id}", _table, methods=["GET"]),
        Route("/rules/{game}.json", _rules, methods=["GET"]),   # before the page's route
        Route("/rules/{game}", _rules_page, methods=["GET"]),
        Route("/words/{lang}.json", _words, methods=["GET"]),
        Route("/cards/{code}.svg", _card, methods=["GET"]),
        Route("/favicon.ico", _icon, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
