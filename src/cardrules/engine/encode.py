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
:mod:`cardrules.engine.codec`): writing can be generic, loading must check
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
from collections.abc import Iterable, Mapping
from typing import TypeAlias

import attrs

from cardrules.cards import Card, Joker

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
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Card | Joker):
        return str(value)
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if attrs.has(type(value)):
        return attributes_to_json(value)
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        out: dict[str, JSON] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"cannot encode a mapping with a {type(key).__name__} key")
            out[key] = to_json(item)
        return out
    raise TypeError(f"cannot encode {type(value).__name__} as JSON: {repr(value)[:40]}")


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
