"""Down and Back actions: what players (and chance) do, with text and dict forms.

Player actions: :class:`Cut` (DB-32), :class:`DrawStock`,
:class:`DrawDiscard`, :class:`Discard` (DB-34) and :class:`Split` (DB-40).
Chance actions come from :mod:`cardrules.engine.chance`:
:class:`~cardrules.engine.chance.ChooseDealer` (DB-31) and
:class:`~cardrules.engine.chance.Shuffle` (DB-32, DB-36).

One rule for actions: a constructor checks the *types* of what it is given
(``Cut("5")`` and ``Discard("KS")`` are refused at once), while
:func:`~cardrules.down_and_back.apply` checks the *game rules* (a cut of 60
cards is a legal object but an illegal move, DB-32).

Every action prints in a short text form that :func:`parse_action` reads
back, and has a JSON form (:func:`action_to_dict`, :func:`action_from_dict`).

>>> from cardrules import parse_cards
>>> str(Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 6C 7C")))
'split 8S 8H 8D QH / 5C 6C 7C'
>>> parse_action("discard 10h")
Discard(card=Card.parse('TH'))
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from cardrules._validate import is_int
from cardrules.cards import Card, Joker, scan_cards
from cardrules.engine.chance import (
    ChooseDealer,
    Shuffle,
    chance_from_dict,
    chance_to_dict,
    parse_chance,
)
from cardrules.engine.readers import Fields, card_at, cards_at, int_token, split_verb
from cardrules.errors import ParseError, shorten
from cardrules.hand import Hand
from cardrules.i18n import lazy_gettext

__all__ = [
    "Action",
    "ChooseDealer",
    "Cut",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "Shuffle",
    "Split",
    "action_from_dict",
    "action_to_dict",
    "parse_action",
]


def _check_count(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if not is_int(value):
        raise TypeError(
            f"Cut needs an int count, not {type(value).__name__} {shorten(repr(value))} "
            f"(use parse_action to read text)")


@attrs.frozen(slots=True)
class Cut:
    """The player to the dealer's right lifts ``count`` cards (1 to 51) and
    puts them under the rest (DB-32).

    ``count`` must be an ``int`` (not a bool, float or text); whether it is
    1 to 51 is a rule, checked when the cut is applied.

    >>> str(Cut(20))
    'cut 20'
    >>> Cut("20")
    Traceback (most recent call last):
    ...
    TypeError: Cut needs an int count, not str '20' (use parse_action to read text)
    """

    count: int = attrs.field(validator=_check_count)

    def __str__(self) -> str:
        return f"cut {self.count}"


@attrs.frozen(slots=True)
class DrawStock:
    """Draw the top card of the stock (DB-34); only the drawer sees it (DB-37).

    >>> str(DrawStock())
    'draw stock'
    """

    def __str__(self) -> str:
        return "draw stock"


@attrs.frozen(slots=True)
class DrawDiscard:
    """Take the top card of the discard pile (DB-34), in view of everyone (DB-37).

    >>> str(DrawDiscard())
    'draw discard'
    """

    def __str__(self) -> str:
        return "draw discard"


@attrs.frozen(slots=True)
class Discard:
    """Discard ``card`` face up, ending the turn (DB-34).

    >>> from cardrules import parse_card
    >>> str(Discard(parse_card("KS")))
    'discard KS'
    """

    card: Card = attrs.field(validator=attrs.validators.instance_of(Card))

    def __str__(self) -> str:
        return f"discard {self.card}"


def _to_hand(cards: Iterable[Card]) -> Hand[Card]:
    if type(cards) is Hand:
        return cards
    return Hand(cards)


@attrs.frozen(slots=True)
class Split:
    """Split the seven cards into a 4-card ``down`` and a 3-card ``back`` hand (DB-40).

    Each side is a :class:`~cardrules.Hand` (built from any iterable of
    cards, in canonical order), so two splits with the same cards are equal
    whatever order the cards were given in.  The constructor refuses what is
    not a card (:class:`TypeError`) and a card repeated within one side
    (:class:`ValueError`); the sizes, and that the cards are the player's
    seven, are rules checked when the split is applied
    (:class:`~cardrules.IllegalActionError`, DB-40).

    >>> from cardrules import Hand, parse_cards
    >>> s = Split(Hand.parse("8S 8H 8D QH"), parse_cards("5C 6C 7C"))
    >>> len(s.down), len(s.back), str(s.back)
    (4, 3, '5C 6C 7C')
    >>> s == Split(parse_cards("QH 8D 8H 8S"), parse_cards("7C 6C 5C"))
    True
    >>> Split("8S 8H 8D QH", "5C 6C 7C")
    Traceback (most recent call last):
    ...
    TypeError: Hand takes cards, not text; use Hand.parse('8S 8H 8D QH')
    """

    down: Hand[Card] = attrs.field(converter=_to_hand)
    back: Hand[Card] = attrs.field(converter=_to_hand)

    def __str__(self) -> str:
        return f"split {self.down} / {self.back}"

    @classmethod
    def of_sorted(cls, down: tuple[Card, ...], back: tuple[Card, ...]) -> Split:
        """A split of cards the caller vouches for, with no checks: the fast
        constructor behind the reducer's 35 legal splits (like
        :meth:`~cardrules.Hand.of_sorted` for a hand).

        Each side must hold distinct cards already in canonical order (best
        as a :class:`~cardrules.Hand` made with
        :meth:`~cardrules.Hand.of_sorted`, which is kept as it is); anything
        else makes a split that compares wrongly.

        >>> from cardrules import Hand
        >>> split = Split.of_sorted(Hand.parse("8S 8H 8D QH"), Hand.parse("5C 6C 7C"))
        >>> split == Split(Hand.parse("QH 8D 8H 8S"), Hand.parse("7C 6C 5C"))
        True
        """
        split: Split = object.__new__(cls)
        object.__setattr__(split, "down", down if type(down) is Hand else Hand.of_sorted(down))
        object.__setattr__(split, "back", back if type(back) is Hand else Hand.of_sorted(back))
        return split


#: Any Down and Back action, chance or player.
Action = ChooseDealer | Shuffle | Cut | DrawStock | DrawDiscard | Discard | Split


def parse_action(text: str) -> Action:
    """Read an action from its text form (the inverse of ``str(action)``).

    Verbs and card letters may be in either case; numbers are ASCII digits;
    words are separated by ASCII spaces, tabs and line breaks only
    (:data:`~cardrules.engine.readers.BLANKS`: a no-break space is refused).
    Bad text raises :class:`~cardrules.ParseError` with the position of the
    offending token.

    >>> parse_action("cut 12"), parse_action("Draw Stock")
    (Cut(count=12), DrawStock())
    >>> parse_action("split 8S 8H 8D QH / 5C 6C 7C").back[0]
    Card.parse('5C')
    >>> parse_action("cut\u00a012")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown action: 'cut\xa012' at position 0
    >>> parse_action("Hop 3")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown action: 'Hop' at position 0
    """
    verb, offset, rest, rest_at = split_verb(text)
    chance = parse_chance(verb, rest, rest_at, jokers=False)
    if chance is not None:
        return chance
    if verb == "draw":
        # Compare ASCII text only: str.lower() maps look-alikes such as the
        # Kelvin sign onto "k".
        source = rest.lower() if rest.isascii() else rest
        if source == "stock":
            return DrawStock()
        if source == "discard":
            return DrawDiscard()
        raise ParseError(lazy_gettext("draw from 'stock' or 'discard'"), token=rest,
                         position=rest_at)
    if verb == "cut":
        return Cut(int_token(rest, rest_at))
    if verb == "discard":
        return Discard(card_at(rest, rest_at))
    if verb == "split":
        down, slash, back = rest.partition("/")
        if not slash:
            raise ParseError(lazy_gettext("a split needs '/' between the down and back hands"),
                             token=rest, position=rest_at)
        back_at = rest_at + len(down) + 1
        return Split(_side(down, rest_at, "down"), _side(back, back_at, "back"))
    # The verb as typed (``verb`` is lower case): "unknown action: 'Hop'".
    raise ParseError(lazy_gettext("unknown action"), token=text[offset:rest_at].rstrip(),
                     position=offset)


def _side(text: str, start: int, name: str) -> tuple[Card, ...]:
    """The cards of one side of a split, refusing a repeated card at its position."""
    cards = cards_at(text, start)
    if len(set(cards)) != len(cards):
        seen: set[Card | Joker] = set()
        for card, at in scan_cards(text):
            if card in seen:
                message = (lazy_gettext("the down hand of a split holds each card once")
                           if name == "down" else
                           lazy_gettext("the back hand of a split holds each card once"))
                raise ParseError(message,
                                 token=str(card), position=start + at)
            seen.add(card)
    return cards


def action_to_dict(action: Action) -> dict[str, object]:
    """A JSON-ready dict for ``action``: ``{"type": ..., ...}`` with cards as text.

    >>> action_to_dict(Cut(7))
    {'type': 'cut', 'count': 7}
    >>> from cardrules import parse_cards
    >>> action_to_dict(Split(parse_cards("AS 2S 3S 4S"), parse_cards("KD QD JD")))
    {'type': 'split', 'down': ['AS', '2S', '3S', '4S'], 'back': ['JD', 'QD', 'KD']}
    """
    chance = chance_to_dict(action)
    if chance is not None:
        return chance
    if isinstance(action, Cut):
        return {"type": "cut", "count": action.count}
    if isinstance(action, DrawStock):
        return {"type": "draw_stock"}
    if isinstance(action, DrawDiscard):
        return {"type": "draw_discard"}
    if isinstance(action, Discard):
        return {"type": "discard", "card": str(action.card)}
    if isinstance(action, Split):
        return {"type": "split", "down": [str(c) for c in action.down],
                "back": [str(c) for c in action.back]}
    raise TypeError(f"not a Down and Back action: {shorten(repr(action))}")


def action_from_dict(data: object) -> Action:
    """Read an action back from :func:`action_to_dict`'s form.

    The reading is strict: the fields of the action's type and no others,
    whole numbers as JSON integers, one card per list entry.  Anything else
    is a :class:`~cardrules.ParseError`.

    >>> action_from_dict({"type": "discard", "card": "KS"})
    Discard(card=Card.parse('KS'))
    >>> action_from_dict({"type": "cut", "count": 3, "from": "top"})
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: action: unknown key: 'from'
    """
    fields = Fields(data, "action")
    kind = fields.text("type")
    chance = chance_from_dict(fields, kind, jokers=False)
    if chance is not None:
        return chance
    action: Action
    if kind == "cut":
        action = Cut(fields.integer("count"))
    elif kind == "draw_stock":
        action = DrawStock()
    elif kind == "draw_discard":
        action = DrawDiscard()
    elif kind == "discard":
        action = Discard(fields.card("card"))
    elif kind == "split":
        down, back = fields.cards("down"), fields.cards("back")
        try:
            action = Split(down, back)
        except ValueError as err:  # a card repeated within one side
            raise ParseError(f"action: {err}") from None
    else:
        raise ParseError("action: unknown action type", token=kind)
    fields.done()
    return action
