"""SVG pictures of a Back Alley table, from one seat or from above.

:func:`view_svg` draws what one seat may know (a
:class:`~cardrules.back_alley.View`, BA-50): its own hand face up, the other
hands as card backs with a count, and the public table: the turned trump
card, a joker discarded under BA-13, the current trick and the last finished
trick with its winner, every bid, the contracts, the tricks taken, the team
scores, the last finished deal, the dealer and whose turn it is.
:func:`state_svg` draws the whole
table with every hand face up, and the undealt cards.

Notebooks show the pictures by themselves: views and states have
``_repr_svg_`` and ``_repr_html_`` methods that call these functions.

>>> import xml.etree.ElementTree as ET
>>> from cardrules.back_alley import new_game, view
>>> ET.fromstring(view_svg(view(new_game(), 0))).get("viewBox")
'0 0 760 462'
"""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.back_alley.actions import Board
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    GameState,
    Phase,
    Trick,
    bid_name,
    board_levels,
    board_name,
    cards_phrase,
    contract_of,
)
from cardrules.back_alley.views import View
from cardrules.cards import Card, Joker
from cardrules.i18n import NP_, gettext, pgettext
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

AnyCard = Card | Joker

_WIDTH = 760
_MARGIN = 12
_SCALE = 0.75
_CARD_W = CARD_WIDTH * _SCALE
_CARD_H = CARD_HEIGHT * _SCALE
_STEP = 26
_BACK_STEP = 14
_ROW = 92
_GREY = "#666666"
_FELT = "#e8f1e8"
_PHASES = {Phase.CHOOSE_DEALER: NP_("phase, in a picture", "CHOOSE_DEALER"),
           Phase.SHUFFLE: NP_("phase, in a picture", "SHUFFLE"),
           Phase.BID: NP_("phase, in a picture", "BID"),
           Phase.PLAY: NP_("phase, in a picture", "PLAY"),
           Phase.GAME_OVER: NP_("phase, in a picture", "GAME_OVER")}


def _empty_slot(x: float, y: float) -> str:
    return (f'<rect x="{number(x)}" y="{number(y)}" width="{number(_CARD_W)}" '
            f'height="{number(_CARD_H)}" rx="4" fill="none" stroke="{_GREY}" '
            f'stroke-dasharray="4 3"/>')


def _trick_row(cards: Sequence[AnyCard], leader: int, x: float, y: float,
               winner: int | None) -> list[str]:
    """A trick's cards in play order, each with its seat below; the
    winner's card gets a coloured edge."""
    out = []
    for i, card in enumerate(cards):
        seat = (leader + i) % NUM_PLAYERS
        left = x + i * (_CARD_W + 6)
        out.append(card_group(card, left, y, scale=_SCALE, highlight=seat == winner))
        out.append(text_element(left + _CARD_W / 2, y + _CARD_H + 12,
                                gettext("seat {seat}").format(seat=seat), size=10,
                                anchor="middle"))
    if not cards:
        out.append(_empty_slot(x, y))
    return out


def _picture(facts: GameState | View, hands: Sequence[Sequence[AnyCard | None]],
             you: int | None, exchanger: int | None, undealt: Sequence[AnyCard],
             width: float | None) -> str:
    body: list[str] = []
    settings = facts.settings
    title = gettext("Back Alley · deal {number} of {deals} ({cards})").format(
        number=facts.deal_number, deals=settings.deals, cards=cards_phrase(facts.hand_size))
    if you is not None:
        title += gettext(" · seat {seat}'s view (team {team})").format(seat=you, team=you & 1)
    head = [gettext("phase {phase}").format(phase=pgettext("phase, in a picture",
                                                           _PHASES[facts.phase])),
            gettext("no dealer yet") if facts.dealer is None
            else gettext("dealer seat {seat}").format(seat=facts.dealer)]
    if facts.current_player is not None:
        head.append(gettext("seat {seat} to act").format(seat=facts.current_player))
    elif facts.phase.is_chance:
        head.append(gettext("chance to act"))
    s0, s1 = facts.scores
    scores = gettext("scores: team 0 (seats 0, 2) {first} · team 1 (seats 1, 3) {second}"
                     ).format(first=s0, second=s1)
    if facts.phase is Phase.GAME_OVER:
        scores += " · " + (gettext("a draw") if s0 == s1 else
                           gettext("team {team} wins").format(team=0 if s0 > s1 else 1))
    body.append(text_element(_MARGIN, 26, title, size=16, weight="bold"))
    body.append(text_element(_MARGIN, 44, " · ".join(head), size=12))
    body.append(text_element(_MARGIN, 62, scores, size=12))
    bids, dealer = facts.bids, facts.dealer
    levels = board_levels(bids, dealer or 0)
    contracts = None
    if dealer is not None and all(b is not None for b in bids):
        contracts = [contract_of(bids, dealer, team) for team in (0, 1)]
        won = [facts.tricks_won[t] + facts.tricks_won[t + 2] for t in (0, 1)]
        body.append(text_element(_MARGIN, 80, gettext(
            "contracts: team 0 {first} (taken {first_won}) · team 1 {second} (taken {second_won})"
        ).format(first=contracts[0], first_won=won[0], second=contracts[1],
                 second_won=won[1]), size=12))

    # The public middle of the table: trump, a discarded joker, the tricks.
    y: float = 90
    x: float = _MARGIN
    trump_card = facts.trump_card
    if trump_card is not None:
        trump = facts.trump
        body.append(text_element(x, y + 14, gettext("turned"), size=11, fill=_GREY))
        body.append(card_group(trump_card, x, y + 20, scale=_SCALE))
        body.append(text_element(x + _CARD_W / 2, y + 20 + _CARD_H + 12,
                                 pgettext("picture", "no trump") if trump is None
                                 else pgettext("picture", "trump {suit}").format(
                                     suit=trump.symbol),
                                 size=10, anchor="middle"))
        x += _CARD_W + 20
    joker = facts.joker_discard
    if joker is not None:
        body.append(text_element(x, y + 14, gettext("discarded"), size=11, fill=_GREY))
        body.append(card_group(joker, x, y + 20, scale=_SCALE))
        body.append(text_element(x + _CARD_W / 2, y + 20 + _CARD_H + 12,
                                 gettext("by seat {seat}").format(seat=exchanger),
                                 size=10, anchor="middle"))
        x += _CARD_W + 20
    if facts.leader is not None:
        body.append(text_element(x, y + 14, gettext("trick {number}, led by seat {seat}").format(
            number=len(facts.tricks) + 1, seat=facts.leader), size=11, fill=_GREY))
        body += _trick_row(facts.trick, facts.leader, x, y + 20, None)
        x += 4 * (_CARD_W + 6) + 14
    if facts.tricks:
        last: Trick = facts.tricks[-1]
        body.append(text_element(x, y + 14, gettext("last trick, won by seat {seat}").format(
            seat=last.winner), size=11, fill=_GREY))
        body += _trick_row(last.cards, last.leader, x, y + 20, last.winner)
    if trump_card is not None:
        y += 20 + _CARD_H + 20

    # One row per seat.
    for seat, hand in enumerate(hands):
        top = y + seat * _ROW
        parts = [(gettext("seat {seat} (you)") if seat == you else gettext("seat {seat}"))
                 .format(seat=seat), gettext("team {team}").format(team=seat & 1)]
        if seat == dealer:
            parts.append(gettext("dealer"))
        if seat == facts.current_player:
            parts.append(gettext("to act"))
        bid = bids[seat]
        if bid is not None:
            parts.append(board_name(levels[seat]) if isinstance(bid, Board) else bid_name(bid))
        parts += [gettext("won {tricks}").format(tricks=facts.tricks_won[seat]),
                  cards_phrase(len(hand))]
        weight = "bold" if seat == you else "normal"
        body.append(text_element(_MARGIN, top + 14, " · ".join(parts), size=12, weight=weight))
        if hand:
            step = _BACK_STEP if all(card is None for card in hand) else _STEP
            body.append(row_group(hand, _MARGIN, top + 20, scale=_SCALE, step=step))
        else:
            body.append(_empty_slot(_MARGIN, top + 20))
    y += len(hands) * _ROW
    if undealt:
        body.append(text_element(_MARGIN, y + 14, gettext("undealt, out of play: {cards}").format(
            cards=cards_phrase(len(undealt))), size=12))
        room = _WIDTH - 2 * _MARGIN - _CARD_W
        spread = min(float(_STEP), room / (len(undealt) - 1)) if len(undealt) > 1 else 0.0
        body.append(row_group(undealt, _MARGIN, y + 20, scale=_SCALE, step=spread))
        y += _ROW
    if facts.results:
        body.append(text_element(_MARGIN, y + 12, gettext("last {result}").format(
            result=facts.results[-1]), size=11, fill=_GREY))
        y += 20
    height = y + 4
    background = (f'<rect x="0" y="0" width="{_WIDTH}" height="{number(height)}" '
                  f'fill="{_FELT}"/>')
    label = title if you is None else gettext("{title} (hidden cards face down)").format(
        title=title)
    return svg_document(_WIDTH, height, [background, *body], pixel_width=width, title=label)


def view_svg(view: View, *, width: float | None = None) -> str:
    """The table as ``view``'s seat sees it, as an SVG picture (BA-50).

    Shows the seat's own hand face up and the other hands as backs with a
    count; the turned trump card, a joker discarded under BA-13, the current
    trick and the last finished trick (its winner's card has a coloured
    edge); each seat's bid, board level and tricks taken; the contracts
    once all have bid, the team scores, the last finished deal, the dealer
    and whose turn it is.  No card the seat cannot see is drawn.  ``width`` is the displayed width
    in pixels (760 by default).

    >>> import random
    >>> from cardrules.back_alley import new_game, apply, sample_chance, view
    >>> rng = random.Random(3)
    >>> s = new_game()
    >>> s = apply(s, sample_chance(s, rng)); s = apply(s, sample_chance(s, rng))
    >>> v = view(s, 2)
    >>> picture = view_svg(v)
    >>> shown = {str(c) for c in v.hand} | {str(v.trump_card)}
    >>> picture.count("data-card=") >= 14, all(f'data-card="{c}"' in picture for c in shown)
    (True, True)
    """
    if not isinstance(view, View):
        hint = "; for a seat's view of a state use view(state, seat)" \
            if isinstance(view, GameState) else ""
        raise TypeError(f"view_svg takes a View, not {type(view).__name__}{hint}")
    hands: list[Sequence[AnyCard | None]] = [
        view.hand if seat == view.seat else (None,) * size
        for seat, size in enumerate(view.hand_sizes)]
    return _picture(view, hands, view.seat, view.exchanger, (), width)


def state_svg(state: GameState, *, width: float | None = None) -> str:
    """The whole table of ``state``, every hand and the undealt cards face
    up, as an SVG picture.  ``width`` is the displayed width in pixels.

    >>> import xml.etree.ElementTree as ET
    >>> import random
    >>> from cardrules.back_alley import new_game, apply, sample_chance
    >>> rng = random.Random(3)
    >>> s = new_game()
    >>> s = apply(s, sample_chance(s, rng)); s = apply(s, sample_chance(s, rng))
    >>> len(ET.fromstring(state_svg(s)).findall(".//{*}g[@data-card]"))
    54
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state_svg takes a GameState, not {type(state).__name__}")
    exchanger = None if state.deal is None else state.deal.exchanger
    return _picture(state, state.hands, None, exchanger, state.undealt, width)


def _html(picture: str) -> str:
    return f'<div class="cardrules-table">{picture}</div>'


def view_html(view: View) -> str:
    """:func:`view_svg` in an HTML ``<div>``: what a notebook shows for a view.

    >>> from cardrules.back_alley import new_game, view
    >>> view_html(view(new_game(), 1))[:36]
    '<div class="cardrules-table"><svg xm'
    """
    return _html(view_svg(view))


def state_html(state: GameState) -> str:
    """:func:`state_svg` in an HTML ``<div>``: what a notebook shows for a state.

    >>> from cardrules.back_alley import new_game
    >>> "<svg" in state_html(new_game())
    True
    """
    return _html(state_svg(state))
