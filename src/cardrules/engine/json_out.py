"""A generic encoder from a game's immutable values to plain JSON values.

Every game keeps its states, views and results as frozen attrs classes made
of a few kinds of value.  :func:`to_json` turns any of them into what
:func:`json.dumps` writes, the same way for every game:

- an attrs instance becomes an object of its fields (those its constructor
  takes), in field order, each value encoded in turn;
- a :class:`~cardrules.Card` or :class:`~cardrules.Joker` becomes its text
  (``"KS"``, ``"BB"``); an :class:`enum.Enum` becomes its value;
- a tuple or list (so a :class:`~cardrules.Hand` too) becomes a list;
  a mapping with text keys becomes an object;
- ``None``, bools, ints and text stay as they are.

Anything else (a float, a set, an arbitrary object) is a :class:`TypeError`:
a state holding one is a bug, better found at once than written out.

Reading goes the other way with strict, hand-written readers per game (see
:mod:`cardrules.engine.readers`): writing can be generic, loading must check
every value against the rules.

>>> import attrs
>>> from cardrules import Hand
>>> @attrs.frozen
... class Pile:
...     owner: int | None
...     cards: Hand
>>> to_json(Pile(2, Hand.parse("KS 2H")))
{'owner': 2, 'cards': ['2H', 'KS']}
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeAlias

import attrs

from cardrules.cards import DECK, Card, Joker
from cardrules.errors import shorten
from cardrules.hand import Hand

__all__ = ["JSON", "attributes_to_json", "to_json"]

#: A plain JSON value as :func:`json.dumps` takes it.
JSON: TypeAlias = bool | int | str | list["JSON"] | dict[str, "JSON"] | None


def to_json(value: object) -> JSON:
    """``value`` as plain JSON values (see the module documentation for the rules).

    >>> from cardrules import parse_card
    >>> to_json((parse_card("AS"), None, 3, True))
    ['AS', None, 3, True]
    >>> to_json(1.5)
    Traceback (most recent call last):
    ...
    TypeError: cannot encode float as JSON: 1.5
    """
    kind = type(value)
    encode = _ENCODERS.get(kind)
    if encode is None:
        encode = _ENCODERS[kind] = _encoder_for(kind)
    return encode(value)


# How each type is encoded, worked out once per type: states are written often
# (conformance checks compare states through their JSON), so the per-value cost
# is one dict look-up and one call.
_ENCODERS: dict[type, Callable[[Any], JSON]] = {}


#: The text of each card and joker by its index (formatting a card is most of the work).
_TEXT = {card.index: str(card) for card in (*DECK, *Joker)}


def _encoder_for(kind: type) -> Callable[[Any], JSON]:
    if issubclass(kind, Card | Joker):
        return _card
    if issubclass(kind, Hand):
        return _hand
    if issubclass(kind, enum.Enum):
        return _enum
    if kind is type(None) or issubclass(kind, bool | int | str):
        return _itself
    if attrs.has(kind):
        names = tuple(field.name for field in attrs.fields(kind) if field.init)
        return lambda value: {name: to_json(getattr(value, name)) for name in names}
    if issubclass(kind, tuple | list):
        return _sequence
    if issubclass(kind, Mapping):
        return _mapping
    return _refuse


def _card(card: Card | Joker) -> JSON:
    return _TEXT[card.index]


def _hand(hand: Hand[Card] | Hand[Card | Joker]) -> JSON:
    text = _TEXT
    return [text[card.index] for card in hand]


def _itself(value: Any) -> JSON:
    result: JSON = value
    return result


def _enum(value: enum.Enum) -> JSON:
    return to_json(value.value)


def _sequence(value: Sequence[object]) -> JSON:
    if all(type(item) is Card for item in value):   # piles of cards: the common case
        text = _TEXT
        return [text[card.index] for card in value]  # type: ignore[attr-defined]
    return [to_json(item) for item in value]


def _mapping(value: Mapping[object, object]) -> JSON:
    out: dict[str, JSON] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise TypeError(f"cannot encode a mapping with a {type(key).__name__} key")
        out[key] = to_json(item)
    return out


def _refuse(value: object) -> JSON:
    raise TypeError(f"cannot encode {type(value).__name__} as JSON: {shorten(repr(value))}")


def attributes_to_json(obj: object, names: Iterable[str] | None = None) -> dict[str, JSON]:
    """An attrs instance as a JSON object: the attributes ``names`` (fields or
    read-only properties) in that order, or by default every field its
    constructor takes, each encoded with :func:`to_json`.

    Naming properties lets a game keep a stable, flat file format while its
    classes change shape (a field moved into a nested object is still read
    through the property that replaced it).

    >>> import attrs
    >>> @attrs.frozen
    ... class Score:
    ...     points: tuple[int, ...]
    ...     @property
    ...     def total(self) -> int:
    ...         return sum(self.points)
    >>> attributes_to_json(Score((2, 3))), attributes_to_json(Score((2, 3)), ["total"])
    ({'points': [2, 3]}, {'total': 5})
    """
    cls = type(obj)
    if not attrs.has(cls):
        raise TypeError(f"not an attrs instance: {cls.__name__}")
    if names is None:
        names = [field.name for field in attrs.fields(cls) if field.init]
    return {name: to_json(getattr(obj, name)) for name in names}
