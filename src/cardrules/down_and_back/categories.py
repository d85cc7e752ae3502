"""Down and Back's combination categories, defined rule by rule (DB-1 to DB-25).

Each category is a *matcher*: a function that takes the cards of a hand and
returns the hand's comparison key within the category, or ``None`` when the
hand does not qualify.  A hand belongs to the first category in strength
order whose matcher accepts it.  These definitions are the single source the
evaluation tables are generated from (see :mod:`cardrules.down_and_back.tables`);
they are written for clarity, not speed, and are never called on the hot path.

>>> from cardrules import parse_cards
>>> classify4(parse_cards("8S 8H 8D 8C"))
(<Category4.QUAD: 7>, (8,))
>>> classify3(parse_cards("QS QH 2C"))
(<Category3.PAIR: 1>, (12, 2))
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise

from cardrules.cards import Card

__all__ = [
    "CATEGORIES3",
    "CATEGORIES4",
    "RULE_IDS3",
    "RULE_IDS4",
    "Category3",
    "Category4",
    "classify3",
    "classify4",
]

Key = tuple[int, ...]
Matcher = Callable[[Sequence[Card]], Key | None]


class Category4(enum.IntEnum):
    """Categories of the 4-card "down" hand; a larger value is stronger.

    ``str()`` gives the name, and :attr:`rule` the rule that defines it.

    >>> Category4.PRIAL > Category4.BOUNCER > Category4.RUN
    True
    >>> str(Category4.TWO_PAIR), f"{Category4.QUAD}", Category4.TWO_PAIR.rule
    ('TWO_PAIR', 'QUAD', 'DB-15')
    >>> [c.name for c in sorted(Category4, reverse=True)][:3]
    ['QUAD', 'PRIAL', 'BOUNCER']
    """

    HIGH_CARD = 0  #: DB-17
    PAIR = 1  #: DB-16
    TWO_PAIR = 2  #: DB-15
    FLUSH = 3  #: DB-14
    RUN = 4  #: DB-13
    BOUNCER = 5  #: DB-12
    PRIAL = 6  #: DB-11
    QUAD = 7  #: DB-10

    @property
    def rule(self) -> str:
        """The rule id that defines this category.

        >>> Category4.PRIAL.rule
        'DB-11'
        """
        return RULE_IDS4[self]

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)


class Category3(enum.IntEnum):
    """Categories of the 3-card "back" hand; a larger value is stronger.

    >>> Category3.BOUNCER > Category3.FLUSH
    True
    """

    HIGH_CARD = 0  #: DB-25
    PAIR = 1  #: DB-24
    FLUSH = 2  #: DB-23
    RUN = 3  #: DB-22
    BOUNCER = 4  #: DB-21
    PRIAL = 5  #: DB-20

    @property
    def rule(self) -> str:
        """The rule id that defines this category.

        >>> Category3.PAIR.rule
        'DB-24'
        """
        return RULE_IDS3[self]

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)


# The rule (see the rules page) that defines each category, written out.  Two
# tables, not one: the categories are IntEnums, so Category4.TWO_PAIR and
# Category3.FLUSH (both 2) would be the same dict key.

#: The rule that defines each 4-card category (DB-10 to DB-17).
RULE_IDS4: dict[Category4, str] = {
    Category4.QUAD: "DB-10",
    Category4.PRIAL: "DB-11",
    Category4.BOUNCER: "DB-12",
    Category4.RUN: "DB-13",
    Category4.FLUSH: "DB-14",
    Category4.TWO_PAIR: "DB-15",
    Category4.PAIR: "DB-16",
    Category4.HIGH_CARD: "DB-17",
}

#: The rule that defines each 3-card category (DB-20 to DB-25).
RULE_IDS3: dict[Category3, str] = {
    Category3.PRIAL: "DB-20",
    Category3.BOUNCER: "DB-21",
    Category3.RUN: "DB-22",
    Category3.FLUSH: "DB-23",
    Category3.PAIR: "DB-24",
    Category3.HIGH_CARD: "DB-25",
}


# -- small facts about a hand ------------------------------------------------

def _ranks_desc(cards: Sequence[Card]) -> Key:
    return tuple(sorted((int(c.rank) for c in cards), reverse=True))


def _one_suit(cards: Sequence[Card]) -> bool:
    return len({c.suit for c in cards}) == 1


def _consecutive_top(cards: Sequence[Card]) -> int | None:
    """The top rank if the ranks are consecutive, ace low, no wrap (DB-1)."""
    ranks = sorted(int(c.rank) for c in cards)
    if all(b == a + 1 for a, b in pairwise(ranks)):
        return ranks[-1]
    return None


def _groups(cards: Sequence[Card]) -> Counter[int]:
    return Counter(int(c.rank) for c in cards)


# -- 4-card matchers (DB-10 .. DB-17) -----------------------------------------

def _quad(cards: Sequence[Card]) -> Key | None:
    """DB-10: four cards of one rank."""
    (rank, count), = _groups(cards).most_common(1)
    return (rank,) if count == 4 else None


def _prial4(cards: Sequence[Card]) -> Key | None:
    """DB-11: three of a rank, and a fourth card of the missing suit or a face card."""
    (rank, count), = _groups(cards).most_common(1)
    if count != 3:
        return None
    trio_suits = {c.suit for c in cards if c.rank == rank}
    (fourth,) = [c for c in cards if c.rank != rank]
    if fourth.suit not in trio_suits or fourth.is_face:
        return (rank,)
    return None


def _bouncer(cards: Sequence[Card]) -> Key | None:
    """DB-12 / DB-21: consecutive ranks, all one suit."""
    top = _consecutive_top(cards)
    return (top,) if top is not None and _one_suit(cards) else None


def _run(cards: Sequence[Card]) -> Key | None:
    """DB-13 / DB-22: consecutive ranks, not all one suit."""
    top = _consecutive_top(cards)
    return (top,) if top is not None and not _one_suit(cards) else None


def _flush(cards: Sequence[Card]) -> Key | None:
    """DB-14 / DB-23: one suit, not consecutive."""
    if _one_suit(cards) and _consecutive_top(cards) is None:
        return _ranks_desc(cards)
    return None


def _two_pair(cards: Sequence[Card]) -> Key | None:
    """DB-15: two pairs."""
    counts = _groups(cards)
    if sorted(counts.values()) == [2, 2]:
        return tuple(sorted(counts, reverse=True))
    return None


def _pair_others_ok(pair: Sequence[Card], others: Sequence[Card]) -> bool:
    """The suit rule of DB-16 for the two cards beside a pair."""
    pair_suits = {c.suit for c in pair}
    plain = [c for c in others if not c.is_face]
    if not plain:
        return True
    if len(plain) == 1:
        return plain[0].suit not in pair_suits
    a, b = plain
    return a.suit != b.suit and a.suit not in pair_suits and b.suit not in pair_suits


def _pair4(cards: Sequence[Card]) -> Key | None:
    """DB-16: a pair whose two other cards meet the suit rule; best reading counts."""
    best: Key | None = None
    for pair in combinations(cards, 2):
        if pair[0].rank != pair[1].rank:
            continue
        others = [c for c in cards if c not in pair]
        if _pair_others_ok(pair, others):
            key = (int(pair[0].rank), *_ranks_desc(others))
            if best is None or key > best:
                best = key
    return best


def _high_card(cards: Sequence[Card]) -> Key | None:
    """DB-17 / DB-25: any hand; card by card, highest first."""
    return _ranks_desc(cards)


# -- 3-card matchers (DB-20 .. DB-25) -----------------------------------------

def _prial3(cards: Sequence[Card]) -> Key | None:
    """DB-20: three cards of one rank."""
    (rank, count), = _groups(cards).most_common(1)
    return (rank,) if count == 3 else None


def _pair3(cards: Sequence[Card]) -> Key | None:
    """DB-24: a pair and a third card that is a face card or of neither pair suit."""
    (rank, count), = _groups(cards).most_common(1)
    if count != 2:
        return None
    pair = [c for c in cards if c.rank == rank]
    (third,) = [c for c in cards if c.rank != rank]
    if third.is_face or third.suit not in {c.suit for c in pair}:
        return (rank, int(third.rank))
    return None


#: 4-card categories, strongest first, with their matchers.
CATEGORIES4: tuple[tuple[Category4, Matcher], ...] = (
    (Category4.QUAD, _quad),
    (Category4.PRIAL, _prial4),
    (Category4.BOUNCER, _bouncer),
    (Category4.RUN, _run),
    (Category4.FLUSH, _flush),
    (Category4.TWO_PAIR, _two_pair),
    (Category4.PAIR, _pair4),
    (Category4.HIGH_CARD, _high_card),
)

#: 3-card categories, strongest first, with their matchers.
CATEGORIES3: tuple[tuple[Category3, Matcher], ...] = (
    (Category3.PRIAL, _prial3),
    (Category3.BOUNCER, _bouncer),
    (Category3.RUN, _run),
    (Category3.FLUSH, _flush),
    (Category3.PAIR, _pair3),
    (Category3.HIGH_CARD, _high_card),
)


def classify4(cards: Sequence[Card]) -> tuple[Category4, Key]:
    """Category and comparison key of four distinct cards (slow, by the definitions).

    >>> from cardrules import parse_cards
    >>> classify4(parse_cards("8S 8H 8D 4H"))   # not a prial, and no valid pair
    (<Category4.HIGH_CARD: 0>, (8, 8, 8, 4))
    """
    for category, matcher in CATEGORIES4:
        key = matcher(cards)
        if key is not None:
            return category, key
    raise AssertionError("unreachable: HIGH_CARD accepts every hand")  # pragma: no cover


def classify3(cards: Sequence[Card]) -> tuple[Category3, Key]:
    """Category and comparison key of three distinct cards (slow, by the definitions).

    >>> from cardrules import parse_cards
    >>> classify3(parse_cards("AS 2S 3S"))
    (<Category3.BOUNCER: 4>, (3,))
    """
    for category, matcher in CATEGORIES3:
        key = matcher(cards)
        if key is not None:
            return category, key
    raise AssertionError("unreachable: HIGH_CARD accepts every hand")  # pragma: no cover
