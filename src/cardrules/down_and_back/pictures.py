"""SVG pictures of a Down and Back table, from one seat or from above.

:func:`view_svg` draws what one seat may know (a
:class:`~cardrules.down_and_back.View`): its own hand face up, every other
hand as card backs with a count, except the cards everyone saw taken from
the discard pile (DB-37) and the splits once revealed (DB-40), which are
public.  The whole discard pile is drawn (every card in it was seen), its
top card on the right; the stock is a back with a count.  The pot, the
dealer, whose turn it is, the phase and the money are written out.
:func:`state_svg` draws the whole table with every hand face up.

Notebooks show the pictures by themselves: views and states have
``_repr_svg_`` and ``_repr_html_`` methods that call these functions.

>>> import xml.etree.ElementTree as ET
>>> from cardrules.down_and_back import new_game
>>> from cardrules.down_and_back import view
>>> picture = view_svg(view(new_game(3), 0))
>>> ET.fromstring(picture).get("viewBox")
'0 0 760 427'
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cardrules.cards import Card
from cardrules.down_and_back.state import GameState, Phase, phase_name
from cardrules.down_and_back.views import View
from cardrules.i18n import gettext, ngettext
from cardrules.svg import (
    CARD_HEIGHT,
    CARD_WIDTH,
    card_group,
    number,
    row_group,
    svg_document,
    text_element,
)

__all__ = ["state_html", "state_svg", "view_html", "view_svg"]

_WIDTH = 760
_MARGIN = 12
_SCALE = 0.75
_CARD_W = CARD_WIDTH * _SCALE
_CARD_H = CARD_HEIGHT * _SCALE
_STEP = 27
_ROW = 92
_GREY = "#666666"
_FELT = "#e8f1e8"


@attrs.frozen(slots=True)
class _Seat:
    """What the picture shows of one seat: a line of text and its cards
    (None for a card drawn face down), as one row or as a split."""

    label: str
    cards: tuple[Card | None, ...] = ()
    split: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None
    highlight: Card | None = None


def _cards(count: int) -> str:
    return ngettext("{n} card", "{n} cards", count).format(n=count)


def _seat_label(facts: GameState | View, seat: int, you: int | None, size: int,
                note: str) -> str:
    parts = [(gettext("seat {seat} (you)") if seat == you else gettext("seat {seat}"))
             .format(seat=seat)]
    if seat == facts.dealer:
        parts.append(gettext("dealer"))
    if seat == facts.current_player:
        parts.append(gettext("to act"))
    parts += [gettext("net {net}").format(net=f"{facts.net[seat]:+d}"),
              gettext("turns {turns}").format(turns=facts.turns[seat]), _cards(size)]
    if note:
        parts.append(note)
    return " · ".join(parts)


def _empty_slot(x: float, y: float) -> str:
    return (f'<rect x="{number(x)}" y="{number(y)}" width="{number(_CARD_W)}" '
            f'height="{number(_CARD_H)}" rx="4" fill="none" stroke="{_GREY}" '
            f'stroke-dasharray="4 3"/>')


def _result_line(facts: GameState | View) -> str | None:
    if not facts.results:
        return None
    last = facts.results[-1]
    taken = (gettext("seat {seat} took the pot of {pot}").format(seat=last.pot_winner,
                                                                 pot=last.pot)
             if last.pot_winner is not None
             else gettext("the pot of {pot} carried over").format(pot=last.pot))
    return gettext("round {round}: down won by seat {down}, back by seat {back}; {taken}").format(
        round=last.round, down=last.down_winner, back=last.back_winner, taken=taken)


def _picture(facts: GameState | View, seats: Sequence[_Seat], stock_size: int,
             you: int | None, width: float | None) -> str:
    body: list[str] = []
    if facts.rounds is None:
        title = gettext("Down and Back · round {round} open-ended").format(round=facts.round)
    else:
        title = gettext("Down and Back · round {round} of {rounds}").format(
            round=facts.round, rounds=facts.rounds)
    if you is not None:
        title += gettext(" · seat {seat}'s view").format(seat=you)
    head = [gettext("phase {phase}").format(phase=phase_name(facts.phase)),
            gettext("pot {pot}").format(pot=facts.pot),
            gettext("ante {ante}").format(ante=facts.ante),
            gettext("no dealer yet") if facts.dealer is None
            else gettext("dealer seat {seat}").format(seat=facts.dealer)]
    if facts.current_player is not None:
        head.append(gettext("seat {seat} to act").format(seat=facts.current_player))
    elif facts.phase.is_chance:
        head.append(gettext("chance to act"))
    if facts.phase is Phase.GAME_OVER:
        best = max(facts.net)
        leaders = [str(s) for s, value in enumerate(facts.net) if value == best]
        head.append((gettext("game over; leader: seat {seats}") if len(leaders) == 1 else
                     gettext("game over; leaders: seat {seats}")).format(
                         seats=", ".join(leaders)))
    body.append(text_element(_MARGIN, 26, title, size=16, weight="bold"))
    body.append(text_element(_MARGIN, 44, " · ".join(head), size=12))

    # The stock and the discard pile (DB-33, DB-37).
    y: float = 54
    discard = facts.discard
    body.append(text_element(_MARGIN, y + 14, gettext("stock {count}").format(count=stock_size),
                             size=11, fill=_GREY))
    pile_x = _MARGIN + _CARD_W + 24
    pile = (gettext("discard pile, {cards}, top on the right") if len(discard) > 1
            else gettext("discard pile, {cards}")).format(cards=_cards(len(discard)))
    body.append(text_element(pile_x, y + 14, pile, size=11, fill=_GREY))
    y += 20
    body.append(card_group(None, _MARGIN, y, scale=_SCALE) if stock_size
                else _empty_slot(_MARGIN, y))
    if discard:
        room = _WIDTH - _MARGIN - pile_x - _CARD_W
        step = min(16.0, room / (len(discard) - 1)) if len(discard) > 1 else 0.0
        body.append(row_group(discard, pile_x, y, scale=_SCALE, step=step))
    else:
        body.append(_empty_slot(pile_x, y))
    y += _CARD_H + 10

    # A tie-break waiting for a reshuffle: its draws lie face up (DB-42).
    showdown = facts.showdown
    if showdown is not None:
        contenders = ", ".join(map(str, showdown.contenders))
        body.append(text_element(_MARGIN, y + 14, gettext(
            "tie-break {stage}: seats {seats}; drawn this pass:").format(
                stage=showdown.stage, seats=contenders), size=12))
        y += 20
        for i, draw in enumerate(showdown.drawn):
            x = _MARGIN + i * (_CARD_W + 12)
            body.append(card_group(draw.card, x, y, scale=_SCALE))
            body.append(text_element(x + _CARD_W / 2, y + _CARD_H + 12,
                                     gettext("seat {seat}").format(seat=draw.seat),
                                     size=10, anchor="middle"))
        if not showdown.drawn:
            body.append(_empty_slot(_MARGIN, y))
        y += _CARD_H + 20

    # One row per seat.
    for seat, shown in enumerate(seats):
        top = y + seat * _ROW
        weight = "bold" if seat == you else "normal"
        body.append(text_element(_MARGIN, top + 14, shown.label, size=12, weight=weight))
        cards_y = top + 20
        if shown.split is not None:
            down, back = shown.split
            body.append(row_group(down, _MARGIN, cards_y, scale=_SCALE, step=_STEP))
            back_x = _MARGIN + 3 * _STEP + _CARD_W + 24
            body.append(row_group(back, back_x, cards_y, scale=_SCALE, step=_STEP))
            body.append(text_element(back_x - 12, cards_y + _CARD_H / 2 + 5, "/", size=16,
                                     anchor="middle", fill=_GREY))
        elif shown.cards:
            body.append(row_group(shown.cards, _MARGIN, cards_y, scale=_SCALE, step=_STEP,
                                  highlight=shown.highlight))
        else:
            body.append(_empty_slot(_MARGIN, cards_y))
    y += len(seats) * _ROW
    line = _result_line(facts)
    if line is not None:
        body.append(text_element(_MARGIN, y + 12, line, size=11, fill=_GREY))
        y += 20
    height = y + 4
    background = (f'<rect x="0" y="0" width="{_WIDTH}" height="{number(height)}" '
                  f'fill="{_FELT}"/>')
    label = title if you is None else gettext("{title} (hidden cards face down)").format(
        title=title)
    return svg_document(_WIDTH, height, [background, *body], pixel_width=width, title=label)


def view_svg(view: View, *, width: float | None = None) -> str:
    """The table as ``view``'s seat sees it, as an SVG picture.

    Shows the seat's own hand (the card just drawn has a coloured edge) or
    its split, the other hands as backs except their public cards (the
    cards seen taken from the discard pile, DB-37, and the splits once all
    are revealed, DB-40), the stock, the whole discard pile, any tie-break
    draws on the table (DB-42), the pot, the dealer, whose turn it is and
    each seat's net winnings and turns.  No card the seat cannot see is
    drawn.  ``width`` is the displayed width in pixels (760 by default).

    >>> import random
    >>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut, view
    >>> rng = random.Random(1)
    >>> s = new_game(2)
    >>> s = apply(s, sample_chance(s, rng)); s = apply(s, sample_chance(s, rng))
    >>> s = apply(s, Cut(20))
    >>> picture = view_svg(view(s, 0))
    >>> mine = {str(c) for c in view(s, 0).hand} | {str(view(s, 0).discard[-1])}
    >>> picture.count("data-card="), all(f'data-card="{c}"' in picture for c in mine)
    (8, True)
    """
    if not isinstance(view, View):
        hint = "; for a seat's view of a state use view(state, seat)" \
            if isinstance(view, GameState) else ""
        raise TypeError(f"view_svg takes a View, not {type(view).__name__}{hint}")
    seats = []
    for seat, size in enumerate(view.hand_sizes):
        split = view.splits[seat]
        if seat == view.seat:
            note = gettext("has split") if split is not None else ""
            if split is not None:
                seats.append(_Seat(_seat_label(view, seat, view.seat, size, note),
                                   split=(tuple(split.down), tuple(split.back))))
            else:
                seats.append(_Seat(_seat_label(view, seat, view.seat, size, note),
                                   cards=tuple(view.hand), highlight=view.drawn))
        elif split is not None:
            seats.append(_Seat(_seat_label(view, seat, view.seat, size, gettext("split shown")),
                               split=(tuple(split.down), tuple(split.back))))
        else:
            seen = tuple(view.seen[seat])
            note = gettext("has split") if view.split_chosen[seat] else ""
            if seen:
                taken = gettext("{count} seen taken from the discard pile").format(
                    count=len(seen))
                note = f"{note}; {taken}" if note else taken
            hidden: tuple[Card | None, ...] = (None,) * (size - len(seen))
            seats.append(_Seat(_seat_label(view, seat, view.seat, size, note),
                               cards=seen + hidden))
    return _picture(view, seats, view.stock_size, view.seat, width)


def state_svg(state: GameState, *, width: float | None = None) -> str:
    """The whole table of ``state``, every hand face up, as an SVG picture.

    Each seat shows its hand (the card drawn this turn has a coloured edge)
    or, once chosen, its split; the stock stays face down with its count.
    ``width`` is the displayed width in pixels (760 by default).

    >>> import xml.etree.ElementTree as ET
    >>> import random
    >>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut
    >>> rng = random.Random(1)
    >>> s = new_game(2)
    >>> s = apply(s, sample_chance(s, rng)); s = apply(s, sample_chance(s, rng))
    >>> picture = state_svg(apply(s, Cut(20)))
    >>> len(ET.fromstring(picture).findall(".//{*}g[@data-card]"))
    15
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state_svg takes a GameState, not {type(state).__name__}")
    seats = []
    for seat, hand in enumerate(state.hands):
        split = state.splits[seat]
        label = _seat_label(state, seat, None, len(hand), gettext("has split") if split else "")
        if split is not None:
            seats.append(_Seat(label, split=(tuple(split.down), tuple(split.back))))
        else:
            drawn = state.drawn if state.drawn is not None and state.drawn in hand else None
            seats.append(_Seat(label, cards=tuple(hand), highlight=drawn))
    return _picture(state, seats, len(state.stock), None, width)


def _html(picture: str) -> str:
    return f'<div class="cardrules-table">{picture}</div>'


def view_html(view: View) -> str:
    """:func:`view_svg` in an HTML ``<div>``: what a notebook shows for a view.

    >>> from cardrules.down_and_back import new_game, view
    >>> view_html(view(new_game(2), 1))[:36]
    '<div class="cardrules-table"><svg xm'
    """
    return _html(view_svg(view))


def state_html(state: GameState) -> str:
    """:func:`state_svg` in an HTML ``<div>``: what a notebook shows for a state.

    >>> from cardrules.down_and_back import new_game
    >>> "<svg" in state_html(new_game(2))
    True
    """
    return _html(state_svg(state))
