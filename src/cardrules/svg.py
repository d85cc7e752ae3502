"""Pictures of cards and hands as SVG text, with no dependencies.

Every function returns a string.  The whole documents (:func:`card_svg`,
:func:`hand_svg`, :func:`svg_document`) are well-formed XML with a fixed
``viewBox``; the same input always gives the same text.  No fonts or images
are fetched: text uses the generic ``sans-serif`` family and the suits are
the Unicode symbols ``♠ ♥ ♦ ♣``.  Hearts and diamonds are drawn in
:data:`RED`, spades and clubs in :data:`BLACK`.

Each card drawn face up is a group ``<g class="card" data-card="QH">`` whose
``<title>`` is the card's text form, so a program (or a test) can read which
cards a picture shows; a card drawn face down is ``<g class="card back">``
and carries no trace of its face.

The game pictures (:mod:`cardrules.down_and_back.pictures`,
:mod:`cardrules.back_alley.pictures`) are built from the fragments made by
:func:`card_group`, :func:`row_group` and :func:`text_element`.

>>> from cardrules import Hand
>>> picture = hand_svg(Hand.parse("QH 8D 8S"))
>>> picture.startswith("<svg"), picture.count('class="card"')
(True, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape as _html_escape

from cardrules.cards import Card, Joker, Rank, Suit
from cardrules.i18n import gettext

__all__ = [
    "BLACK",
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "RED",
    "card_group",
    "card_svg",
    "escape",
    "hand_svg",
    "number",
    "row_group",
    "svg_document",
    "text_element",
]

#: The width of one card in picture units (the ``viewBox`` of :func:`card_svg`).
CARD_WIDTH = 60
#: The height of one card in picture units.
CARD_HEIGHT = 84
#: The ink of hearts and diamonds (and of the Big Blooper).
RED = "#c8102e"
#: The ink of spades and clubs (and of the Little Blooper), and of plain text.
BLACK = "#1a1a1a"

_BACK = "#24508f"
_EDGE = "#555555"
_HIGHLIGHT = "#e0a800"
_FONT = "sans-serif"
_RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)


def escape(text: object) -> str:
    """``str(text)`` made safe for SVG text and attribute values.

    ``&``, ``<``, ``>`` and both quotes are replaced by entities, so any
    text (a player's name, say) can be put in a picture.

    >>> escape('<b> & "q"')
    '&lt;b&gt; &amp; &quot;q&quot;'
    """
    return _html_escape(str(text), quote=True)


def number(value: float) -> str:
    """A coordinate as short, deterministic text: at most two decimals, no
    trailing zeros.

    >>> number(12.0), number(0.755), number(-3.5), number(-0.001)
    ('12', '0.76', '-3.5', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text_element(x: float, y: float, content: object, *, size: float = 12,
                 anchor: str = "start", weight: str = "normal", fill: str = BLACK) -> str:
    """An SVG ``<text>`` element at ``(x, y)`` (``y`` is the baseline); the
    content is escaped.

    ``anchor`` is ``"start"``, ``"middle"`` or ``"end"``; ``weight``
    ``"normal"`` or ``"bold"``.

    >>> text_element(5, 20, "pot <3>", size=10)
    '<text x="5" y="20" font-size="10" text-anchor="start" font-weight="normal" \
fill="#1a1a1a" font-family="sans-serif">pot &lt;3&gt;</text>'
    """
    if anchor not in ("start", "middle", "end"):
        raise ValueError(f"anchor must be start, middle or end, not {anchor!r}")
    if weight not in ("normal", "bold"):
        raise ValueError(f"weight must be normal or bold, not {weight!r}")
    return (f'<text x="{number(x)}" y="{number(y)}" font-size="{number(size)}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{escape(fill)}" '
            f'font-family="{_FONT}">{escape(content)}</text>')


def _rank_text(rank: Rank) -> str:
    return "10" if rank is Rank.TEN else rank.char


def _colour(card: Card | Joker) -> str:
    if isinstance(card, Joker):
        return RED if card is Joker.BIG else BLACK
    return RED if card.suit in _RED_SUITS else BLACK


def _outline(fill: str, highlight: bool) -> str:
    stroke, width = (_HIGHLIGHT, 3) if highlight else (_EDGE, 1)
    return (f'<rect x="0.5" y="0.5" width="{CARD_WIDTH - 1}" height="{CARD_HEIGHT - 1}" '
            f'rx="5" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>')


def _face(card: Card | Joker) -> list[str]:
    mid_x, mid_y = CARD_WIDTH / 2, CARD_HEIGHT / 2
    if isinstance(card, Joker):
        word = "BIG" if card is Joker.BIG else "LITTLE"
        fill = _colour(card)
        label = text_element(5, 15, card.value, size=12, weight="bold", fill=fill)
        return [label,
                f'<g transform="rotate(180 {number(mid_x)} {number(mid_y)})">{label}</g>',
                text_element(mid_x, 40, "★", size=22, anchor="middle", fill=fill),
                text_element(mid_x, 55, word, size=8, anchor="middle", weight="bold", fill=fill),
                text_element(mid_x, 65, "BLOOPER", size=7, anchor="middle", fill=fill)]
    fill = _colour(card)
    corner = (text_element(5, 16, _rank_text(card.rank), size=14, weight="bold", fill=fill)
              + text_element(5, 29, card.suit.symbol, size=12, fill=fill))
    return [corner,
            f'<g transform="rotate(180 {number(mid_x)} {number(mid_y)})">{corner}</g>',
            text_element(mid_x, 54, card.suit.symbol, size=28, anchor="middle", fill=fill)]


def _back() -> list[str]:
    inner = (f'<rect x="5" y="5" width="{CARD_WIDTH - 10}" height="{CARD_HEIGHT - 10}" rx="3" '
             f'fill="none" stroke="#ffffff" stroke-width="1.5"/>')
    mid_x, mid_y = CARD_WIDTH / 2, CARD_HEIGHT / 2
    diamond = (f'<polygon points="{number(mid_x)},{number(mid_y - 16)} '
               f'{number(mid_x + 11)},{number(mid_y)} {number(mid_x)},{number(mid_y + 16)} '
               f'{number(mid_x - 11)},{number(mid_y)}" fill="#ffffff" fill-opacity="0.35"/>')
    return [inner, diamond]


def card_group(card: Card | Joker | None, x: float = 0, y: float = 0, *, scale: float = 1.0,
               face_down: bool = False, highlight: bool = False) -> str:
    """One card as an SVG ``<g>`` fragment, its top left corner at ``(x, y)``.

    A card drawn face up is marked ``data-card`` with its text form (and
    titled so); ``card=None`` or ``face_down=True`` draws a plain back with
    no mark of the card.  ``scale`` multiplies the card's size
    (:data:`CARD_WIDTH` by :data:`CARD_HEIGHT`); ``highlight`` draws a
    coloured edge (a card just drawn, a trick's winner).

    >>> from cardrules import parse_card
    >>> card_group(parse_card("QH"), 10, 5)[:74]
    '<g class="card" data-card="QH" fill="#c8102e" transform="translate(10 5)">'
    >>> "QH" in card_group(parse_card("QH"), face_down=True)
    False
    """
    if card is not None and not isinstance(card, Card | Joker):
        raise TypeError(f"card_group takes a Card, a Joker or None, not {type(card).__name__}")
    place = f'translate({number(x)} {number(y)})'
    if scale != 1:
        place += f' scale({number(scale)})'
    if card is None or face_down:
        parts = ['<g class="card back" transform="', place, '"><title>face down</title>',
                 _outline(_BACK, highlight), *_back(), "</g>"]
        return "".join(parts)
    label = escape(card)
    parts = [f'<g class="card" data-card="{label}" fill="{_colour(card)}" transform="{place}">',
             f"<title>{label}</title>", _outline("#ffffff", highlight), *_face(card), "</g>"]
    return "".join(parts)


def row_group(cards: Iterable[Card | Joker | None], x: float, y: float, *,
              scale: float = 1.0, step: float = 24, highlight: Card | Joker | None = None) -> str:
    """Cards in a row from left to right, each ``step`` units right of the
    one before (less than the card's width, so they overlap like a hand
    held in a fan); ``None`` draws a back.  The card equal to ``highlight``
    is drawn with a coloured edge.

    >>> from cardrules import parse_cards
    >>> row = row_group([*parse_cards("AS KD"), None], 0, 0)
    >>> row.count('data-card='), row.count('class="card back"')
    (2, 1)
    """
    out = []
    for i, card in enumerate(cards):
        marked = highlight is not None and card is not None and card == highlight
        out.append(card_group(card, x + i * step, y, scale=scale, highlight=marked))
    return "".join(out)


def svg_document(width: float, height: float, body: str | Iterable[str], *,
                 pixel_width: float | None = None, title: str | None = None) -> str:
    """A complete SVG document of ``viewBox="0 0 width height"`` holding
    ``body`` (fragments such as :func:`card_group` makes).

    ``pixel_width`` sets the displayed width (the height follows the
    picture's shape); by default one picture unit is one pixel.  ``title``
    is escaped and given as the picture's ``<title>``.

    >>> import xml.etree.ElementTree as ET
    >>> doc = svg_document(100, 50, [], title="A & B", pixel_width=200)
    >>> doc
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="200" height="100">\
<title>A &amp; B</title></svg>'
    >>> ET.fromstring(doc).tag
    '{http://www.w3.org/2000/svg}svg'
    """
    if width <= 0 or height <= 0:
        raise ValueError("an SVG picture needs a positive width and height")
    shown_width = width if pixel_width is None else pixel_width
    if shown_width <= 0:
        raise ValueError(f"pixel_width must be positive, not {pixel_width!r}")
    shown_height = height * shown_width / width
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {number(width)} '
            f'{number(height)}" width="{number(shown_width)}" height="{number(shown_height)}">')
    text = body if isinstance(body, str) else "".join(body)
    caption = "" if title is None else f"<title>{escape(title)}</title>"
    return f"{head}{caption}{text}</svg>"


def _check_size(size: float) -> float:
    if isinstance(size, bool) or not isinstance(size, int | float) or not size > 0:
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    return size


def card_svg(card: Card | Joker | None, *, face_down: bool = False, size: float = 120) -> str:
    """One card as an SVG picture ``size`` pixels high.

    ``card`` is a :class:`~cardrules.Card` or a :class:`~cardrules.Joker`;
    ``None`` or ``face_down=True`` draws the card's back.  This is what a
    notebook shows for a card.

    >>> import xml.etree.ElementTree as ET
    >>> from cardrules import parse_card, Joker
    >>> picture = card_svg(parse_card("10h"))
    >>> picture.startswith("<svg"), ET.fromstring(picture)[1].get("data-card")
    (True, 'TH')
    >>> 'data-card="BB"' in card_svg(Joker.BIG), 'data-card' in card_svg(None)
    (True, False)
    """
    pixels = _check_size(size) * CARD_WIDTH / CARD_HEIGHT
    label = gettext("a card face down") if card is None or face_down else str(card)
    return svg_document(CARD_WIDTH, CARD_HEIGHT, card_group(card, face_down=face_down),
                        pixel_width=pixels, title=label)


def hand_svg(cards: Sequence[Card | Joker | None], *, size: float = 120,
             step: float = 24) -> str:
    """Cards in a fanned row, in the order given, each card ``size`` pixels high.

    A :class:`~cardrules.Hand` is already in canonical order.  ``None``
    draws a card's back; an empty sequence gives an empty card outline.
    ``step`` is how far each card lies right of the one before, in units of
    a card :data:`CARD_WIDTH` wide.

    >>> from cardrules import Hand
    >>> picture = hand_svg(Hand.parse("AS 2H"))
    >>> picture[:74]
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 88 88" width="125.71"'
    >>> hand_svg(()).count("data-card")
    0
    """
    pad = 2
    items = list(cards)
    if isinstance(step, bool) or not isinstance(step, int | float) or step < 0:
        raise ValueError(f"step must be a number of at least 0, not {step!r}")
    width = CARD_WIDTH + max(len(items) - 1, 0) * step + 2 * pad
    height = CARD_HEIGHT + 2 * pad
    if items:
        body = row_group(items, pad, pad, step=step)
        title = " ".join("?" if c is None else str(c) for c in items)
    else:
        body = (f'<rect x="{pad + 0.5}" y="{pad + 0.5}" width="{CARD_WIDTH - 1}" '
                f'height="{CARD_HEIGHT - 1}" rx="5" fill="none" stroke="{_EDGE}" '
                f'stroke-dasharray="4 3"/>')
        title = gettext("no cards")
    return svg_document(width, height, body, pixel_width=_check_size(size) * width / CARD_HEIGHT,
                        title=title)
