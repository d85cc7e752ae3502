"""Back Alley actions: bids and plays, with their text and JSON forms.

Player actions: :class:`Pass`, :class:`Bid` and :class:`Board` while bidding
(BA-20 to BA-24) and :class:`Play` during the tricks (BA-30 to BA-34).  A
board's level (BA-23) follows from the boards claimed before it, so it is not
part of the action.  Chance actions are the shared ones of
:mod:`cardrules.engine.chance`: :class:`~cardrules.engine.ChooseDealer`
(the first dealer, BA-11) and :class:`~cardrules.engine.Shuffle` of all 54
cards before each deal (BA-12, ``order[0]`` on top).

Every action prints in a short text form that :func:`parse_action` reads back.

>>> [str(a) for a in (Pass(), Bid(3), Board(), Play(Joker.BIG))]
['pass', 'bid 3', 'board', 'play BB']
>>> parse_action("play 10h")
Play(card=Card.parse('TH'))
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from cardrules._validate import require_int
from cardrules.cards import DECK, Card, Joker
from cardrules.engine.chance import (
    ChooseDealer,
    Shuffle,
    chance_from_dict,
    chance_to_dict,
    parse_chance,
)
from cardrules.engine.readers import Fields, card_at, int_token, split_verb
from cardrules.errors import ParseError
from cardrules.i18n import lazy_gettext

__all__ = [
    "Action",
    "Bid",
    "BidAction",
    "Board",
    "ChooseDealer",
    "Pass",
    "Play",
    "Shuffle",
    "action_from_dict",
    "action_to_dict",
    "parse_action",
]


@attrs.frozen(slots=True)
class Pass:
    """Bid nothing: counts as 0 tricks in the team's contract (BA-21).

    >>> str(Pass()), Pass() == Pass()
    ('pass', True)
    """

    def __str__(self) -> str:
        return "pass"


def _positive(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    require_int("a bid", value, minimum=1)


@attrs.frozen(slots=True)
class Bid:
    """Bid a number of tricks, 1 to hand size - 1 (BA-21); checked when applied.

    The constructor takes any positive whole number:

    >>> str(Bid(4))
    'bid 4'
    >>> Bid(0)
    Traceback (most recent call last):
    ...
    ValueError: a bid must be a whole number of at least 1, not 0
    """

    tricks: int = attrs.field(validator=_positive)

    def __str__(self) -> str:
        return f"bid {self.tricks}"


@attrs.frozen(slots=True)
class Board:
    """Claim that the team takes every trick (BA-21); its level follows BA-23.

    >>> str(Board())
    'board'
    """

    def __str__(self) -> str:
        return "board"


def _index_of(card: object) -> int:
    if isinstance(card, Card):
        return card.index
    if isinstance(card, Joker):
        return card.index
    raise TypeError(f"Play takes a Card or a Joker, not {type(card).__name__}"
                    + ("; to read a card use parse_card(text, jokers=True)"
                       if isinstance(card, str) else ""))


@attrs.frozen(slots=True)
class Play:
    """Play ``card`` (a :class:`~cardrules.Card` or a :class:`~cardrules.Joker`)
    to the current trick (BA-31 to BA-33).

    ``index`` is the card's index 0 to 53 (52 for the Big Blooper, 53 for the
    Little, as in ``CARDS``), derived from ``card``: it is not an
    argument.

    >>> from cardrules import parse_card
    >>> str(Play(parse_card("QH"))), str(Play(Joker.LITTLE))
    ('play QH', 'play LB')
    >>> Play(parse_card("QH")).index, Play(Joker.LITTLE).index
    (45, 53)
    >>> Play("QH")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: Play takes a Card or a Joker, not str; to read a card use parse_card(...)
    """

    card: Card | Joker
    index: int = attrs.field(
        init=False, eq=False, repr=False, hash=False,
        default=attrs.Factory(lambda play: _index_of(play.card), takes_self=True))

    def __str__(self) -> str:
        return f"play {self.card}"


#: A bid of BA-21: :class:`Pass`, :class:`Bid` or :class:`Board`.
BidAction = Pass | Bid | Board
#: Any Back Alley action, chance or player.
Action = ChooseDealer | Shuffle | Pass | Bid | Board | Play

#: The 54 cards in index order (the 52, then BB and LB).
CARDS: tuple[Card | Joker, ...] = (*DECK, Joker.BIG, Joker.LITTLE)
# Shared instances handed out by legal_actions and the readers.
PASS = Pass()
BOARD = Board()
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in CARDS)
BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(1, 14))


def parse_action(text: str) -> Action:
    """Read an action from its text form (the inverse of ``str(action)``).

    Verbs and card letters may be in either case; numbers are ASCII digits;
    words are separated by ASCII spaces, tabs and line breaks only
    (:data:`~cardrules.engine.readers.BLANKS`: an ideographic space is refused).

    >>> parse_action("bid 3"), parse_action("  PASS ")
    (Bid(tricks=3), Pass())
    >>> parse_action("play bb").card
    <Joker.BIG: 'BB'>
    >>> parse_action("bid 0")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: a bid is a whole number of at least 1: '0' at position 4
    >>> parse_action("bid\u30003")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown action: 'bid\u30003' at position 0
    >>> parse_action("double")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown action: 'double' at position 0
    """
    verb, verb_at, rest, rest_at = split_verb(text)
    if verb in ("pass", "board"):
        if rest:
            raise ParseError(lazy_gettext("'{verb}' takes nothing after it", verb=verb),
                             token=rest, position=rest_at)
        return PASS if verb == "pass" else BOARD
    if verb == "bid":
        tricks = int_token(rest, rest_at)
        if tricks < 1:
            raise ParseError(lazy_gettext("a bid is a whole number of at least 1"), token=rest,
                             position=rest_at)
        return BIDS[tricks - 1] if tricks <= 13 else Bid(tricks)
    if verb == "play":
        return PLAYS[card_at(rest, rest_at, jokers=True).index]
    chance = parse_chance(verb, rest, rest_at, jokers=True)
    if chance is not None:
        return chance
    raise ParseError(lazy_gettext("unknown action"), token=text[verb_at:verb_at + len(verb)],
                     position=verb_at)


def action_to_dict(action: Action) -> dict[str, object]:
    """A JSON-ready dict for ``action``: ``{"type": ..., ...}`` with cards as text.

    >>> action_to_dict(Bid(2)), action_to_dict(Play(Joker.LITTLE))
    ({'type': 'bid', 'tricks': 2}, {'type': 'play', 'card': 'LB'})
    """
    cls = type(action)
    if cls is Play:
        assert isinstance(action, Play)
        return {"type": "play", "card": str(action.card)}
    if cls is Bid:
        assert isinstance(action, Bid)
        return {"type": "bid", "tricks": action.tricks}
    if cls is Pass:
        return {"type": "pass"}
    if cls is Board:
        return {"type": "board"}
    chance = chance_to_dict(action)
    if chance is None:
        raise TypeError(f"not a Back Alley action: {action!r}")
    return chance


def action_from_dict(data: Mapping[str, object]) -> Action:
    """Read an action back from :func:`action_to_dict`'s form (strictly: a
    missing or unknown key, or a value of the wrong type, is a ParseError).

    >>> action_from_dict({"type": "play", "card": "BB"})
    Play(card=<Joker.BIG: 'BB'>)
    >>> action_from_dict({"type": "bid", "tricks": True})
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: action: 'tricks' must be a whole number: 'True'
    """
    fields = Fields(data, "action")
    kind = fields.text("type")
    action: Action
    if kind == "pass":
        action = PASS
    elif kind == "board":
        action = BOARD
    elif kind == "bid":
        tricks = fields.integer("tricks", minimum=1)
        action = BIDS[tricks - 1] if tricks <= 13 else Bid(tricks)
    elif kind == "play":
        action = PLAYS[fields.card("card", jokers=True).index]
    else:
        chance = chance_from_dict(fields, kind, jokers=True)
        if chance is None:
            raise ParseError("action: unknown type", token=kind)
        return chance
    fields.done()
    return action
