"""The web table: the pages, scripts, styles and card pictures the server serves.

:func:`routes` gives the routes the server's app mounts beside its API:

- ``/``: the lobby (open tables, a form to create one, join and watch);
- ``/tables/{id}``: the table page, which plays over the WebSocket;
- ``/static/...``: the HTML, CSS and JavaScript of ``cardrules/server/static``
  (plain files, no build step, nothing fetched from elsewhere);
- ``/cards/{code}.svg``: one card drawn by :func:`cardrules.svg.card_svg`
  (``QH``, ``TS``, ``BB``, ``LB``; ``back`` is a card face down), made once
  and kept (``/favicon.ico`` is the ace of spades).

The pages know nothing of a game's rules: they draw what the view says,
choosing a layout by the view's ``format`` tag, and offer exactly the actions
the server lists as legal.

>>> card_picture("QH").startswith("<svg"), card_picture("10h") is None
(True, True)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

__all__ = ["STATIC", "card_picture", "routes"]

#: The folder of the web table's plain files (HTML, CSS, JavaScript).
STATIC = Path(__file__).resolve().parent / "static"

# Pictures and scripts are the same for every table; the pages themselves are
# small and never cached, so a new version of the package shows at once.
_PICTURE_CACHE = "public, max-age=86400"


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


def _page(name: str) -> Response:
    return FileResponse(STATIC / name, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


async def _lobby(request: Request) -> Response:
    return _page("lobby.html")


async def _table(request: Request) -> Response:
    return _page("table.html")


async def _icon(request: Request) -> Response:
    return RedirectResponse("/cards/AS.svg", status_code=301)


def routes() -> list[BaseRoute]:
    """The web table's routes, which the server's app mounts beside its API.

    >>> sorted(r.path for r in routes())
    ['/', '/cards/{code}.svg', '/favicon.ico', '/static', '/tables/{table_id}']
    """
    return [
        Route("/", _lobby, methods=["GET"]),
        Route("/tables/{table_id}", _table, methods=["GET"]),
        Route("/cards/{code}.svg", _card, methods=["GET"]),
        Route("/favicon.ico", _icon, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
