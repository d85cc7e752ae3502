"""Hands: immutable sets of distinct cards, kept in one canonical order.

A :class:`Hand` is a tuple subclass, so it is as cheap to build, index,
iterate and compare as a tuple, and every function that takes a sequence of
cards takes a hand too.  Its cards are always sorted by card index (rank,
ace low, then suit in the order S, H, D, C; the jokers after the 52), so
two hands holding the same cards are equal and print the same whatever
order the cards arrived in: equality is set equality.

>>> from cardrules import Hand
>>> hand = Hand.parse("QH 8D 8S 8H")
>>> str(hand), len(hand)
('8S 8H 8D QH', 4)
>>> hand == Hand.parse("8s 8h 8d qh")
True
>>> str(hand.remove(hand[0]).add(Card.parse("KS")))
'8H 8D QH KS'
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import pairwise
from operator import attrgetter
from typing import TYPE_CHECKING, TypeVar, overload

from cardrules.cards import Card, Joker, parse_cards
from cardrules.errors import shorten

__all__ = ["Hand", "card_index"]

AnyCard = Card | Joker
C = TypeVar("C", Card, Card | Joker)


def card_index(card: Card | Joker) -> int:
    """The sort key of a card in a :class:`Hand`: ``0..51`` for cards, 52 and 53
    for the Big and Little Blooper.

    >>> card_index(Card.parse("AS")), card_index(Joker.LITTLE)
    (0, 53)
    """
    return card.index


_INDEX = attrgetter("index")
_new = tuple.__new__

if TYPE_CHECKING:
    _Base = tuple[C, ...]
else:
    _Base = tuple


class Hand(_Base[C]):
    """An immutable, hashable hand of distinct cards in canonical order.

    ``Hand(cards)`` checks every item (a :class:`~cardrules.Card`, or a
    :class:`~cardrules.Joker` when ``jokers=True``) and that no card is
    repeated, then sorts.  Operations return new hands; the hand itself never
    changes.  Compared with a plain tuple, a hand compares as the tuple of its
    cards in canonical order.

    >>> Hand(Card.parse(t) for t in ("KS", "AS"))
    Hand.parse('AS KS')
    >>> Hand.parse("AS AS")
    Traceback (most recent call last):
    ...
    ValueError: a hand holds each card once; AS is repeated
    >>> Hand.parse("BB AS", jokers=True)
    Hand.parse('AS BB')
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[C] = (), *, jokers: bool = False) -> Hand[C]:
        if isinstance(cards, str):
            raise TypeError(f"Hand takes cards, not text; use Hand.parse({shorten(cards)!r})")
        items = tuple(cards)
        for item in items:
            if not isinstance(item, Card) and not (jokers and isinstance(item, Joker)):
                allowed = "a Card or a Joker" if jokers else "a Card"
                if isinstance(item, Joker):
                    raise ValueError(f"jokers are not allowed in this hand: {item}")
                raise TypeError(f"a hand holds cards; each item must be {allowed}, "
                                f"not {type(item).__name__}")
        ordered = sorted(items, key=card_index)
        for first, second in pairwise(ordered):
            if first.index == second.index:
                raise ValueError(f"a hand holds each card once; {first} is repeated")
        return tuple.__new__(cls, ordered)

    @staticmethod
    def of_sorted(cards: Sequence[C]) -> Hand[C]:
        """A hand of ``cards`` taken as they are: no checks, no sorting.

        For engine hot paths whose cards are already distinct and in
        canonical order; anything else should call ``Hand(cards)``.

        >>> from cardrules import DECK
        >>> Hand.of_sorted(DECK[:2])
        Hand.parse('AS AH')
        """
        return _new(Hand, cards)

    @overload
    @staticmethod
    def parse(text: str) -> Hand[Card]: ...
    @overload
    @staticmethod
    def parse(text: str, *, jokers: bool) -> Hand[Card | Joker]: ...
    @staticmethod
    def parse(text: str, *, jokers: bool = False) -> Hand[Card] | Hand[Card | Joker]:
        """Read a hand from text such as ``"8S 8H 8D QH"`` (see
        :func:`~cardrules.parse_cards` for the accepted forms).

        >>> Hand.parse("10h, js")
        Hand.parse('TH JS')
        """
        if jokers:
            return Hand(parse_cards(text, jokers=True), jokers=True)
        return Hand(parse_cards(text))

    def add(self, card: C) -> Hand[C]:
        """A new hand with ``card`` added in its place.

        >>> str(Hand.parse("AS KS").add(Card.parse("5D")))
        'AS 5D KS'
        """
        if not isinstance(card, Card | Joker):
            raise TypeError(f"a hand holds cards, not {type(card).__name__}")
        key = card.index
        place: int = bisect_left(self, key, key=_INDEX)
        if place < len(self) and self[place].index == key:
            raise ValueError(f"the hand already holds {card}")
        return _new(Hand, (*self[:place], card, *self[place:]))

    def remove(self, card: C) -> Hand[C]:
        """A new hand without ``card``; :class:`ValueError` if it is not held.

        >>> str(Hand.parse("AS 5D KS").remove(Card.parse("5D")))
        'AS KS'
        >>> Hand.parse("AS").remove(Card.parse("KS"))
        Traceback (most recent call last):
        ...
        ValueError: the hand does not hold KS
        """
        key = card.index if isinstance(card, Card | Joker) else -1
        place: int = bisect_left(self, key, key=_INDEX)
        if place == len(self) or self[place].index != key:
            raise ValueError(f"the hand does not hold {card}")
        return _new(Hand, self[:place] + self[place + 1:])

    def without(self, cards: Iterable[C]) -> Hand[C]:
        """A new hand without any of ``cards`` (cards not held are ignored).

        >>> str(Hand.parse("AS 5D KS").without(Hand.parse("AS KS QS")))
        '5D'
        """
        gone = {card_index(c) for c in cards}
        return tuple.__new__(Hand, tuple(c for c in self if c.index not in gone))

    @property
    def mask(self) -> int:
        """The cards as a bit mask: bit ``card.index`` is set for each card.

        >>> Hand.parse("AS 2S").mask
        17
        """
        mask = 0
        for card in self:
            mask |= 1 << card.index
        return mask

    def __reduce__(self) -> tuple[object, tuple[tuple[C, ...]]]:
        """Pickle a hand as its cards, read back by :func:`_hand_of`.

        Without this, pickle would rebuild the hand with ``Hand.__new__(Hand,
        cards)``, which refuses jokers: a Back Alley hand holding one could not
        be pickled, copied or sent to another process.

        >>> import pickle
        >>> hand = Hand.parse("AS BB", jokers=True)
        >>> pickle.loads(pickle.dumps(hand)) == hand
        True
        """
        return _hand_of, (tuple(self),)

    def __copy__(self) -> Hand[C]:
        """A hand is immutable: its copy is itself.

        >>> import copy
        >>> hand = Hand.parse("AS LB", jokers=True)
        >>> copy.copy(hand) is hand
        True
        """
        return self

    def __deepcopy__(self, memo: object) -> Hand[C]:
        """A hand and its cards are immutable: its deep copy is itself.

        >>> import copy
        >>> hand = Hand.parse("AS BB", jokers=True)
        >>> copy.deepcopy([hand])[0] is hand
        True
        """
        return self

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The hand as an SVG picture, for notebooks (:func:`cardrules.svg.hand_svg`)."""
        from cardrules.svg import hand_svg  # imported here: importing cardrules stays light
        return hand_svg(self)


def _hand_of(cards: Iterable[AnyCard]) -> Hand[AnyCard]:
    """A hand read back from a pickle: the cards checked again, jokers allowed
    (a pickled hand may come from Back Alley, BA-2).

    >>> _hand_of((Card.parse("KS"), Joker.BIG))
    Hand.parse('KS BB')
    """
    return Hand(cards, jokers=True)
