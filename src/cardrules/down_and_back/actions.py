"""Down and Back actions: what players (and chance) do, with text and dict forms.

Player actions: :class:`Cut` (DB-32), :class:`DrawStock`,
:class:`DrawDiscard`, :class:`Discard` (DB-34) and :class:`Split` (DB-40).
Chance actions come from :mod:`cardrules.engine.chance`:
:class:`~cardrules.engine.ChooseDealer` (DB-31) and
:class:`~cardrules.engine.Shuffle` (DB-32, DB-36).

Every action prints in a short text form that :func:`parse_action` reads back.

>>> from cardrules import parse_cards
>>> str(Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 6C 7C")))
'split 8S 8H 8D QH / 5C 6C 7C'
>>> parse_action("discard 10h")
Discard(card=Card.parse('TH'))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import attrs

from cardrules.cards import Card, parse_card, parse_cards
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.errors import ParseError

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


@attrs.frozen(slots=True)
class Cut:
    """The player to the dealer's right lifts ``count`` cards (1 to 51) and
    puts them under the rest (DB-32).

    >>> str(Cut(20))
    'cut 20'
    """

    count: int

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


def _sorted_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    items = tuple(cards)
    return tuple(sorted(items)) if all(isinstance(c, Card) for c in items) else items


def _all_cards(instance: object, attribute: attrs.Attribute[tuple[Card, ...]],
               value: tuple[Card, ...]) -> None:
    if not all(isinstance(c, Card) for c in value):
        raise ValueError(f"{attribute.name} must hold Card objects")


@attrs.frozen(slots=True)
class Split:
    """Split the seven cards into a 4-card ``down`` and a 3-card ``back`` hand (DB-40).

    Each hand is kept sorted, so two splits with the same cards are equal
    whatever order the cards were given in.  The sizes and membership are
    checked when the action is applied, so a malformed split raises
    :class:`~cardrules.IllegalActionError` there.

    >>> from cardrules import parse_cards
    >>> s = Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 6C 7C"))
    >>> len(s.down), len(s.back)
    (4, 3)
    >>> s == Split(parse_cards("QH 8D 8H 8S"), parse_cards("7C 6C 5C"))
    True
    """

    down: tuple[Card, ...] = attrs.field(converter=_sorted_cards, validator=_all_cards)
    back: tuple[Card, ...] = attrs.field(converter=_sorted_cards, validator=_all_cards)

    def __str__(self) -> str:
        return f"split {' '.join(map(str, self.down))} / {' '.join(map(str, self.back))}"

    @classmethod
    def _sorted(cls, down: tuple[Card, ...], back: tuple[Card, ...]) -> Split:
        """Build from hands that are already sorted tuples of cards (no checks)."""
        split: Split = object.__new__(cls)
        object.__setattr__(split, "down", down)
        object.__setattr__(split, "back", back)
        return split


#: Any Down and Back action, chance or player.
Action = ChooseDealer | Shuffle | Cut | DrawStock | DrawDiscard | Discard | Split


_VERB = re.compile(r"\s*(\S+)\s*")


def _int_token(token: str, start: int) -> int:
    if not (token.isascii() and token.isdigit()):
        raise ParseError("expected a whole number", token=token, position=start)
    return int(token)


def parse_action(text: str) -> Action:
    """Read an action from its text form (the inverse of ``str(action)``).

    >>> parse_action("cut 12"), parse_action("draw stock")
    (Cut(count=12), DrawStock())
    >>> parse_action("split 8S 8H 8D QH / 5C 6C 7C").back[0]
    Card.parse('5C')
    >>> parse_action("hop 3")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown action: 'hop' at position 0
    """
    if not isinstance(text, str):
        raise ParseError(f"expected action text, not {type(text).__name__}")
    found = _VERB.match(text)
    if found is None:
        raise ParseError("expected an action", token=text, position=0)
    verb, offset, rest_at = found.group(1), found.start(1), found.end()
    rest = text[rest_at:].rstrip()
    verb_lower = verb.lower()
    if verb_lower == "draw":
        source = rest.lower()
        if source == "stock":
            return DrawStock()
        if source == "discard":
            return DrawDiscard()
        raise ParseError("draw from 'stock' or 'discard'", token=rest, position=rest_at)
    if verb_lower == "cut":
        return Cut(_int_token(rest, rest_at))
    if verb_lower == "dealer":
        return ChooseDealer(_int_token(rest, rest_at))
    if verb_lower == "discard":
        return Discard(_card_at(rest, rest_at))
    if verb_lower == "shuffle":
        return Shuffle(_cards_at(rest, rest_at))
    if verb_lower == "split":
        down, slash, back = rest.partition("/")
        if not slash:
            raise ParseError("a split needs '/' between the down and back hands",
                             token=rest, position=rest_at)
        return Split(_cards_at(down, rest_at), _cards_at(back, rest_at + len(down) + 1))
    raise ParseError("unknown action", token=verb, position=offset)


def _card_at(text: str, start: int) -> Card:
    try:
        return parse_card(text)
    except ParseError as err:
        raise ParseError(err.message, token=err.token,
                         position=start + (err.position or 0)) from None


def _cards_at(text: str, start: int) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except ParseError as err:
        raise ParseError(err.message, token=err.token,
                         position=start + (err.position or 0)) from None


def action_to_dict(action: Action) -> dict[str, object]:
    """A JSON-ready dict for ``action``: ``{"type": ..., ...}`` with cards as text.

    >>> action_to_dict(Cut(7))
    {'type': 'cut', 'count': 7}
    """
    if isinstance(action, ChooseDealer):
        return {"type": "dealer", "seat": action.seat}
    if isinstance(action, Shuffle):
        return {"type": "shuffle", "order": [str(c) for c in action.order]}
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
    raise TypeError(f"not a Down and Back action: {action!r}")


def _get(data: Mapping[str, object], key: str, kind: type) -> object:
    if key not in data:
        raise ParseError(f"action is missing {key!r}", token=str(dict(data)))
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ParseError(f"action field {key!r} must be {kind.__name__}", token=repr(value))
    return value


def _card_list(data: Mapping[str, object], key: str) -> tuple[Card, ...]:
    value = _get(data, key, list)
    assert isinstance(value, list)
    if not all(isinstance(v, str) for v in value):
        raise ParseError(f"action field {key!r} must list cards as text", token=repr(value))
    return parse_cards(" ".join(value))


def action_from_dict(data: Mapping[str, object]) -> Action:
    """Read an action back from :func:`action_to_dict`'s form.

    >>> action_from_dict({"type": "discard", "card": "KS"})
    Discard(card=Card.parse('KS'))
    """
    if not isinstance(data, Mapping):
        raise ParseError(f"an action is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    try:
        if kind == "dealer":
            seat = _get(data, "seat", int)
            assert isinstance(seat, int)
            return ChooseDealer(seat)
        if kind == "shuffle":
            return Shuffle(_card_list(data, "order"))
        if kind == "cut":
            count = _get(data, "count", int)
            assert isinstance(count, int)
            return Cut(count)
        if kind == "draw_stock":
            return DrawStock()
        if kind == "draw_discard":
            return DrawDiscard()
        if kind == "discard":
            card = _get(data, "card", str)
            assert isinstance(card, str)
            return Discard(parse_card(card))
        if kind == "split":
            return Split(_card_list(data, "down"), _card_list(data, "back"))
    except ParseError:
        raise
    except ValueError as err:
        raise ParseError(str(err), token=repr(dict(data))) from None
    raise ParseError("unknown action type", token=repr(kind))
