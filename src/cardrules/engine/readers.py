"""Strict readers for the text and JSON forms of actions and states.

Both games read the same kinds of values (whole numbers, cards, lists of
cards, enum names) from JSON objects and from action text.  This module reads
them once, strictly: a wrong type, an unknown key, a non-ASCII digit or a
repeated card is a :class:`~cardrules.ParseError` that names the field or the
position, never a silent repair.

>>> f = Fields({"type": "discard", "card": "KS"}, "action")
>>> f.text("type"), f.card("card")
('discard', Card.parse('KS'))
>>> f.done()
>>> f = Fields({"type": "cut", "count": 3, "cards": 1}, "action")
>>> f.text("type"), f.integer("count", minimum=1)
('cut', 3)
>>> f.done()
Traceback (most recent call last):
...
cardrules.errors.ParseError: action: unknown key: 'cards'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import Literal, TypeVar, overload

from cardrules._validate import is_int
from cardrules.cards import Card, Joker, parse_card, parse_cards
from cardrules.errors import ParseError
from cardrules.i18n import lazy_gettext

__all__ = ["BLANKS", "MAX_DIGITS", "Fields", "card_at", "cards_at", "check_digits",
           "check_length", "check_numbers", "digit_count", "int_token", "safe_repr", "split_verb"]

#: The longest whole number read from text or JSON (far more than any game needs).
MAX_DIGITS = 18

E = TypeVar("E", bound=enum.Enum)
_MISSING = object()


class Fields:
    """A strict reader over one JSON object (a mapping with string keys).

    ``what`` names the object in error messages (``"action"``,
    ``"state.results[2]"``).  Each getter reads one key and checks its type;
    :meth:`done` then refuses any key that was not read.

    >>> f = Fields({"seat": 2, "cards": ["AS", "KD"]}, "draw")
    >>> f.integer("seat", maximum=3), f.cards("cards")
    (2, (Card.parse('AS'), Card.parse('KD')))
    >>> Fields({"seat": True}, "draw").integer("seat")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: draw: 'seat' must be a whole number: 'True'
    """

    __slots__ = ("_data", "_read", "what")

    def __init__(self, data: object, what: str) -> None:
        if not isinstance(data, Mapping):
            raise ParseError(f"{what} must be a JSON object, not {type(data).__name__}")
        for key in data:
            if not isinstance(key, str):
                raise ParseError(f"{what}: keys must be text", token=safe_repr(key))
        self._data: Mapping[str, object] = data
        self._read: set[str] = set()
        self.what = what

    def _fail(self, key: str, message: str, value: object = _MISSING) -> ParseError:
        token = None if value is _MISSING else safe_repr(value)
        return ParseError(f"{self.what}: {key!r} {message}", token=token)

    def get(self, key: str) -> object:
        """The raw value of ``key``; a missing key is an error.

        >>> Fields({"a": [1]}, "x").get("a")
        [1]
        """
        self._read.add(key)
        if key not in self._data:
            raise ParseError(f"{self.what}: missing {key!r}")
        return self._data[key]

    def has(self, key: str) -> bool:
        """True when ``key`` is present (it still counts as unread).

        >>> Fields({"a": 1}, "x").has("b")
        False
        """
        return key in self._data

    def integer(self, key: str, *, minimum: int | None = None,
            maximum: int | None = None) -> int:
        """A whole number (not a bool) within the bounds.

        >>> Fields({"n": 7}, "x").integer("n", minimum=1, maximum=51)
        7
        >>> Fields({"n": 0}, "x").integer("n", minimum=1)
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: x: 'n' must be at least 1: '0'
        """
        value = self.get(key)
        if not is_int(value):
            raise self._fail(key, "must be a whole number", value)
        if minimum is not None and value < minimum:
            raise self._fail(key, f"must be at least {minimum}", value)
        if maximum is not None and value > maximum:
            raise self._fail(key, f"must be at most {maximum}", value)
        return value

    def opt_integer(self, key: str, *, minimum: int | None = None,
                maximum: int | None = None) -> int | None:
        """A whole number as :meth:`integer` reads it, or None for JSON ``null``.

        >>> Fields({"n": None}, "x").opt_integer("n") is None
        True
        """
        if self.get(key) is None:
            return None
        return self.integer(key, minimum=minimum, maximum=maximum)

    def text(self, key: str) -> str:
        """A text value.

        >>> Fields({"t": "cut"}, "x").text("t")
        'cut'
        """
        value = self.get(key)
        if not isinstance(value, str):
            raise self._fail(key, "must be text", value)
        return value

    def flag(self, key: str) -> bool:
        """A JSON ``true`` or ``false``.

        >>> Fields({"b": False}, "x").flag("b")
        False
        """
        value = self.get(key)
        if not isinstance(value, bool):
            raise self._fail(key, "must be true or false", value)
        return value

    def array(self, key: str, *, max_length: int | None = None) -> list[object]:
        """A JSON array, of at most ``max_length`` entries when given.

        Readers give the most entries a valid value can hold, so that a huge
        list is refused by its length before any entry is read.

        >>> Fields({"l": [1, 2]}, "x").array("l")
        [1, 2]
        >>> Fields({"l": [0] * 10**6}, "x").array("l", max_length=25)
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: x: 'l' must hold at most 25 entries, not 1000000
        """
        value = self.get(key)
        if not isinstance(value, list):
            raise self._fail(key, "must be a list", value)
        check_length(value, max_length, f"{self.what}: {key!r}")
        return value

    def obj(self, key: str) -> Mapping[str, object]:
        """A JSON object (read it further with another :class:`Fields`).

        >>> Fields({"m": {"a": 1}}, "x").obj("m")
        {'a': 1}
        """
        value = self.get(key)
        if not isinstance(value, Mapping):
            raise self._fail(key, "must be an object", value)
        return value

    @overload
    def card(self, key: str, *, jokers: Literal[False] = ...) -> Card: ...
    @overload
    def card(self, key: str, *, jokers: bool) -> Card | Joker: ...
    def card(self, key: str, *, jokers: bool = False) -> Card | Joker:
        """One card in its text form, such as ``"KS"``.

        >>> Fields({"c": "10h"}, "x").card("c")
        Card.parse('TH')
        """
        return read_card(self.get(key), f"{self.what}: {key!r}", jokers=jokers)

    @overload
    def opt_card(self, key: str, *, jokers: Literal[False] = ...) -> Card | None: ...
    @overload
    def opt_card(self, key: str, *, jokers: bool) -> Card | Joker | None: ...
    def opt_card(self, key: str, *, jokers: bool = False) -> Card | Joker | None:
        """One card, or None for JSON ``null``.

        >>> Fields({"c": None}, "x").opt_card("c") is None
        True
        """
        if self.get(key) is None:
            return None
        return self.card(key, jokers=jokers)

    @overload
    def cards(self, key: str, *, jokers: Literal[False] = ...,
              max_length: int | None = None) -> tuple[Card, ...]: ...
    @overload
    def cards(self, key: str, *, jokers: bool,
              max_length: int | None = None) -> tuple[Card | Joker, ...]: ...
    def cards(self, key: str, *, jokers: bool = False,
              max_length: int | None = None) -> tuple[Card | Joker, ...]:
        """A JSON list of cards, exactly one card text per entry (at most
        ``max_length`` entries when given, checked before any is read).

        >>> Fields({"c": ["AS", "KD"]}, "x").cards("c")
        (Card.parse('AS'), Card.parse('KD'))
        >>> Fields({"c": ["AS KS", "", "QS"]}, "x").cards("c")
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: x: 'c'[0]: expected exactly one card: 'AS KS' at position 0
        """
        items = self.array(key, max_length=max_length)
        return tuple(read_card(item, f"{self.what}: {key!r}[{number}]", jokers=jokers)
                     for number, item in enumerate(items))

    def enum(self, key: str, kind: type[E]) -> E:
        """An enum member from its value (the form states are written in).

        >>> import enum
        >>> class Colour(enum.Enum):
        ...     RED = "red"
        >>> Fields({"c": "red"}, "x").enum("c", Colour)
        <Colour.RED: 'red'>
        """
        value = self.get(key)
        for member in kind:
            if member.value == value and type(member.value) is type(value):
                return member
        raise self._fail(key, f"must be one of {[m.value for m in kind]}", value)

    def done(self) -> None:
        """Refuse any key that no getter has read.

        >>> Fields({"a": 1}, "x").done()
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: x: unknown key: 'a'
        """
        extra = [key for key in self._data if key not in self._read]
        if extra:
            raise ParseError(f"{self.what}: unknown key", token=extra[0])


@overload
def read_card(value: object, what: str, *, jokers: Literal[False] = ...) -> Card: ...
@overload
def read_card(value: object, what: str, *, jokers: bool) -> Card | Joker: ...
def read_card(value: object, what: str, *, jokers: bool = False) -> Card | Joker:
    """One card from a JSON value that must be its text form.

    >>> read_card("bb", "x", jokers=True)
    <Joker.BIG: 'BB'>
    >>> read_card(5, "x")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: x must be a card as text: '5'
    """
    if not isinstance(value, str):
        raise ParseError(f"{what} must be a card as text", token=safe_repr(value))
    try:
        return parse_card(value, jokers=jokers)
    except ParseError as err:
        raise ParseError(f"{what}: {err.message}", token=err.token,
                         position=err.position) from None


def check_length(items: list[object], max_length: int | None, what: str) -> None:
    """Refuse ``items`` if it has more than ``max_length`` entries (no limit for
    None), naming the length: loaders call this before reading any entry, so
    a huge list costs nothing.

    >>> check_length([1, 2, 3], 3, "x")
    >>> check_length([1, 2, 3], 2, "state: 'tricks'")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: state: 'tricks' must hold at most 2 entries, not 3
    """
    if max_length is not None and len(items) > max_length:
        raise ParseError(f"{what} must hold at most {max_length} entries, not {len(items)}")


#: A list or object with more entries than this is named by its size in error
#: messages rather than written out (its ``repr`` could take seconds and gigabytes).
_REPR_ENTRIES = 1000


def safe_repr(value: object) -> str:
    """``repr(value)`` for an error message, for any value a caller may pass: one
    nested too deeply for :func:`repr` is named by its type instead of raising
    :class:`RecursionError`, a container of more than 1000 entries by its size,
    and a whole number too long to write out (Python refuses more than 4300
    digits by default) by its number of digits.

    >>> safe_repr([1, "a"])
    "[1, 'a']"
    >>> deep: list[object] = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> safe_repr(deep)
    '<list nested too deeply to show>'
    >>> safe_repr([0] * 10**6)
    '<list of 1000000 entries>'
    >>> safe_repr(10 ** 5000)
    '<whole number of 5001 digits>'
    """
    if isinstance(value, _CONTAINERS):
        size = _size(value)
        if size == "deep":
            return f"<{type(value).__name__} nested too deeply to show>"
        if size == "large":
            return f"<{type(value).__name__} of {len(value)} entries>"
    if isinstance(value, int) and not isinstance(value, bool):
        if -_SHORT_LIMIT < value < _SHORT_LIMIT:
            return repr(value)
        return f"<whole number of {digit_count(value)} digits>"
    try:
        return repr(value)
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply to show>"
    except ValueError:   # a whole number too long to write, deep inside
        return f"<{type(value).__name__} too large to show>"


_CONTAINERS = (list, tuple, dict, set, frozenset)


def _size(value: list[object] | tuple[object, ...] | dict[object, object]
          | set[object] | frozenset[object]) -> Literal["small", "large", "deep"]:
    """Whether ``value`` is small enough to write out in a message: ``"large"``
    when it holds more than :data:`_REPR_ENTRIES` entries at all levels
    together, ``"deep"`` when it is nested more than 100 levels deep (walked
    without recursion, stopping at either limit)."""
    count, pending = 0, [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > 100:
            return "deep"
        count += len(item)
        if count > _REPR_ENTRIES:
            return "large"
        entries = item.values() if isinstance(item, dict) else item
        pending.extend((e, depth + 1) for e in entries if isinstance(e, _CONTAINERS))
    return "small"


# Whole numbers below this are written out in messages (well within the 4300
# digits Python converts by default).
_SHORT_LIMIT = 10 ** 1000


def digit_count(value: int) -> int:
    """The number of decimal digits of ``value`` (its sign aside), computed
    without writing it out, so any size is fine.

    >>> digit_count(0), digit_count(-999), digit_count(10 ** 18), digit_count(10 ** 9000 - 1)
    (1, 3, 19, 9000)
    """
    value = abs(value)
    if value < _SHORT_LIMIT:
        return len(str(value))
    digits = int((value.bit_length() - 1) * 0.30102999566398120) + 1   # log10(2)
    while value >= 10 ** digits:
        digits += 1
    while digits > 1 and value < 10 ** (digits - 1):
        digits -= 1
    return digits


#: The white space action text may hold between and around its words: ASCII
#: space, tab, carriage return and line feed, nothing else (a no-break or an
#: ideographic space is part of a token, and so refused as one).
BLANKS = " \t\r\n"
_VERB = re.compile(r"[ \t\r\n]*([^ \t\r\n]+)[ \t\r\n]*")


def split_verb(text: object) -> tuple[str, int, str, int]:
    """Split action text into its verb (lower case) and the rest, with offsets.

    Words are separated by the characters of :data:`BLANKS` only, so other
    white space (``"\\u00a0"``, ``"\\u3000"``) stays inside the token it
    touches and the token is refused.

    >>> split_verb("  Cut 12 ")
    ('cut', 2, '12', 6)
    >>> split_verb("cut\\u00a012")
    ('cut\\xa012', 0, '', 6)
    """
    if not isinstance(text, str):
        raise ParseError(f"expected action text, not {type(text).__name__}")
    found = _VERB.match(text)
    if found is None:
        raise ParseError(lazy_gettext("expected an action"), token=text, position=0)
    return (found.group(1).lower(), found.start(1), text[found.end():].rstrip(BLANKS),
            found.end())


def int_token(token: str, start: int) -> int:
    """A whole number written in ASCII digits (at most :data:`MAX_DIGITS` of them).

    >>> int_token("12", 4)
    12
    >>> int_token("٣", 4)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: expected a whole number: '٣' at position 4
    """
    if not (token.isascii() and token.isdigit()):
        raise ParseError(lazy_gettext("expected a whole number"), token=token, position=start)
    check_digits(len(token), token, start)
    return int(token)


def check_digits(digits: int, token: str | None = None, position: int | None = None) -> None:
    """The one limit on numbers, for every reader of text, JSON text and JSON
    values: a whole number is written in at most :data:`MAX_DIGITS` digits.
    ``digits`` is how many the number has (its sign aside); ``token`` and
    ``position`` say where it is for the error.

    >>> check_digits(18)
    >>> check_digits(19, "1000000000000000000", 4)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: number too long (19 digits): '1000000000000000000' at position 4
    """
    if digits > MAX_DIGITS:
        raise ParseError(f"number too long ({digits} digits)", token=token, position=position)


def check_numbers(value: object) -> None:
    """Apply :func:`check_digits` to every whole number (bools aside) in a
    JSON value: in the value itself, or in the lists and objects it holds at
    any depth (walked without recursion, so nesting does not matter).  This
    is what a reader of already parsed JSON does where a reader of JSON text
    checks each number as it reads it.

    >>> check_numbers({"type": "cut", "count": 10 ** 18 - 1})
    >>> check_numbers([{"seat": 1}, {"count": -10 ** 18}])
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: number too long (19 digits): '-1000000000000000000'
    """
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            if not -_NUMBER_LIMIT < item < _NUMBER_LIMIT:
                check_digits(digit_count(item), safe_repr(item))
        elif isinstance(item, Mapping):
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)


# The smallest whole number with more than MAX_DIGITS digits.
_NUMBER_LIMIT = 10 ** MAX_DIGITS


@overload
def card_at(text: str, start: int, *, jokers: Literal[False] = ...) -> Card: ...
@overload
def card_at(text: str, start: int, *, jokers: bool) -> Card | Joker: ...
def card_at(text: str, start: int, *, jokers: bool = False) -> Card | Joker:
    """One card from a piece of text that starts at ``start`` in the whole input.

    >>> card_at("KS", 8)
    Card.parse('KS')
    >>> card_at("KX", 8)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: not a card: 'KX' at position 8
    """
    try:
        return parse_card(text, jokers=jokers)
    except ParseError as err:
        raise ParseError(err.text, token=err.token,
                         position=start + (err.position or 0)) from None


@overload
def cards_at(text: str, start: int, *, jokers: Literal[False] = ...) -> tuple[Card, ...]: ...
@overload
def cards_at(text: str, start: int, *, jokers: bool) -> tuple[Card | Joker, ...]: ...
def cards_at(text: str, start: int, *, jokers: bool = False) -> tuple[Card | Joker, ...]:
    """Several cards from a piece of text that starts at ``start``.

    >>> cards_at("AS KS", 6)
    (Card.parse('AS'), Card.parse('KS'))
    """
    try:
        return parse_cards(text, jokers=jokers)
    except ParseError as err:
        raise ParseError(err.text, token=err.token,
                         position=start + (err.position or 0)) from None
