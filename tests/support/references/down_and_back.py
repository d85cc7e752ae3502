"""An independent reference evaluator for Down and Back combinations.

This module is test scaffolding, written straight from the rules page
(``docs/rules.rst``, section "Down and Back", rules DB-1, DB-2 and DB-10 to
DB-25) and deliberately kept separate from the library's own category
code: it only uses the card types from :mod:`cardrules.cards`.  Clarity
wins over speed here; each rule is one small function whose body reads like
the sentence in the rule book.

A hand is classified into ``(category_name, key)``.  Keys are tuples of plain
ints (ACE = 1 ... KING = 13) and are only comparable inside one category.
:func:`sort_key4` / :func:`sort_key3` turn a hand into ``(category_order, key)``
so that ordinary tuple comparison orders hands exactly as the rules do: equal
sort keys are ties, a larger sort key is a stronger hand.

>>> from cardrules.cards import parse_cards
>>> classify4(parse_cards("8S 8H 8D 4C"))
('PRIAL', (8,))
>>> classify4(parse_cards("8S 8H 8D 4H"))
('HIGH_CARD', (8, 8, 8, 4))
>>> classify4(parse_cards("QS QH QD 2S"))
('PAIR', (12, 12, 2))
>>> classify3(parse_cards("AS 2S 3S"))
('BOUNCER', (3,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise

from cardrules.cards import Card

__all__ = [
    "CATEGORIES3",
    "CATEGORIES4",
    "EXPECTED_COUNTS3",
    "EXPECTED_COUNTS4",
    "Key",
    "SortKey",
    "classify3",
    "classify4",
    "sort_key3",
    "sort_key4",
]

#: A card reduced to ``(rank, suit)`` with rank 1..13 (ace low) and suit 0..3.
Plain = tuple[int, int]
#: The within-category comparison key of a hand.
Key = tuple[int, ...]
#: ``(position of the category in weakest-first order, key)``.
SortKey = tuple[int, Key]
Rule = Callable[[Sequence[Plain]], Key | None]

#: 4-card categories, weakest first (so the position is the category's order).
CATEGORIES4: tuple[str, ...] = (
    "HIGH_CARD", "PAIR", "TWO_PAIR", "FLUSH", "RUN", "BOUNCER", "PRIAL", "QUAD",
)
#: 3-card categories, weakest first.
CATEGORIES3: tuple[str, ...] = ("HIGH_CARD", "PAIR", "FLUSH", "RUN", "BOUNCER", "PRIAL")

#: The counts printed on the rules page under DB-25.
EXPECTED_COUNTS4: dict[str, int] = {
    "QUAD": 13,
    "PRIAL": 1_056,
    "BOUNCER": 40,
    "RUN": 2_520,
    "FLUSH": 2_820,
    "TWO_PAIR": 2_808,
    "PAIR": 25_308,
    "HIGH_CARD": 236_160,
}
EXPECTED_COUNTS3: dict[str, int] = {
    "PRIAL": 52,
    "BOUNCER": 44,
    "RUN": 660,
    "FLUSH": 1_100,
    "PAIR": 2_304,
    "HIGH_CARD": 17_940,
}

_ALL_SUITS = frozenset(range(4))


# --------------------------------------------------------------------------- helpers


def _plain(cards: Sequence[Card], size: int) -> list[Plain]:
    """Check the hand and reduce each card to ``(rank, suit)`` ints."""
    hand = list(cards)
    if len(hand) != size:
        raise ValueError(f"expected {size} cards, got {len(hand)}")
    if not all(isinstance(card, Card) for card in hand):
        raise ValueError("every card must be a cardrules Card")
    plain = [(int(card.rank), int(card.suit)) for card in hand]
    if len(set(plain)) != size:
        raise ValueError("duplicate card in hand")
    return plain


def is_face(rank: int) -> bool:
    """DB-2: J, Q and K are face cards; aces and tens are not."""
    return rank in (11, 12, 13)


def _ranks(hand: Sequence[Plain]) -> list[int]:
    return [rank for rank, _ in hand]


def _high_first(ranks: Sequence[int]) -> Key:
    """Ranks highest first: the "card by card, highest first" comparison key."""
    return tuple(sorted(ranks, reverse=True))


def _consecutive(hand: Sequence[Plain]) -> bool:
    """All ranks consecutive.

    DB-1: the ace only ever counts as 1, so there is no wrap-around: K (13) and
    A (1) are never neighbours.
    """
    ranks = sorted(_ranks(hand))
    return all(upper - lower == 1 for lower, upper in pairwise(ranks))


def _one_suit(hand: Sequence[Plain]) -> bool:
    return len({suit for _, suit in hand}) == 1


def _top(hand: Sequence[Plain]) -> Key:
    """Key of a sequence: its highest card."""
    return (max(_ranks(hand)),)


# --------------------------------------------------------------------- 4-card rules


def quad4(hand: Sequence[Plain]) -> Key | None:
    """DB-10: four cards of one rank; compared by rank."""
    ranks = set(_ranks(hand))
    return (ranks.pop(),) if len(ranks) == 1 else None


def prial4(hand: Sequence[Plain]) -> Key | None:
    """DB-11: three of one rank plus a fourth card that is of the suit the three
    lack, or a face card of any suit.  Compared by the rank of the three only."""
    for position, fourth in enumerate(hand):
        three = [card for i, card in enumerate(hand) if i != position]
        if len(set(_ranks(three))) != 1:
            continue
        lacking = _ALL_SUITS - {suit for _, suit in three}
        fourth_rank, fourth_suit = fourth
        if fourth_suit in lacking or is_face(fourth_rank):
            return (three[0][0],)
    return None


def bouncer4(hand: Sequence[Plain]) -> Key | None:
    """DB-12: four consecutive ranks, all one suit; compared by the top card."""
    return _top(hand) if _consecutive(hand) and _one_suit(hand) else None


def run4(hand: Sequence[Plain]) -> Key | None:
    """DB-13: four consecutive ranks, not all one suit; compared by the top card."""
    return _top(hand) if _consecutive(hand) and not _one_suit(hand) else None


def flush4(hand: Sequence[Plain]) -> Key | None:
    """DB-14: four of one suit, not consecutive; card by card, highest first."""
    return _high_first(_ranks(hand)) if _one_suit(hand) and not _consecutive(hand) else None


def two_pair4(hand: Sequence[Plain]) -> Key | None:
    """DB-15: two pairs (two ranks, two cards each); higher pair, then lower pair."""
    counts = Counter(_ranks(hand))
    if sorted(counts.values()) != [2, 2]:
        return None
    return _high_first(list(counts))


def pair_suit_rule(pair: Sequence[Plain], others: Sequence[Plain]) -> bool:
    """DB-16's suit rule for the two cards that go with a pair."""
    pair_suits = {suit for _, suit in pair}
    faces = [card for card in others if is_face(card[0])]
    plain = [card for card in others if not is_face(card[0])]
    if len(faces) == 2:
        # Both others are face cards: always allowed.
        return True
    if len(faces) == 1:
        # Exactly one face card: the non-face card is off both suits of the pair.
        (_, plain_suit), = plain
        return plain_suit not in pair_suits
    # Neither is a face card: they differ from each other and from the pair's suits,
    # i.e. they are exactly the two suits the pair lacks.
    (_, suit_a), (_, suit_b) = plain
    return suit_a != suit_b and suit_a not in pair_suits and suit_b not in pair_suits


def pair4(hand: Sequence[Plain]) -> Key | None:
    """DB-16: a pair plus two other cards meeting the suit rule.

    Every way of picking a pair out of the hand is a separate reading (there is
    more than one only with three of a kind); the strongest qualifying reading
    counts.  Key: pair rank, then the higher other card, then the lower one.
    """
    readings: list[Key] = []
    for i, j in combinations(range(4), 2):
        if hand[i][0] != hand[j][0]:
            continue
        pair = [hand[i], hand[j]]
        others = [card for k, card in enumerate(hand) if k not in (i, j)]
        if pair_suit_rule(pair, others):
            readings.append((hand[i][0], *_high_first(_ranks(others))))
    return max(readings) if readings else None


def high_card4(hand: Sequence[Plain]) -> Key | None:
    """DB-17: any four cards; card by card, highest first."""
    return _high_first(_ranks(hand))


#: Strongest first: a hand belongs to the first (highest) category it meets.
RULES4: tuple[tuple[str, Rule], ...] = (
    ("QUAD", quad4),
    ("PRIAL", prial4),
    ("BOUNCER", bouncer4),
    ("RUN", run4),
    ("FLUSH", flush4),
    ("TWO_PAIR", two_pair4),
    ("PAIR", pair4),
    ("HIGH_CARD", high_card4),
)


# --------------------------------------------------------------------- 3-card rules


def prial3(hand: Sequence[Plain]) -> Key | None:
    """DB-20: three of one rank; compared by rank."""
    ranks = set(_ranks(hand))
    return (ranks.pop(),) if len(ranks) == 1 else None


def bouncer3(hand: Sequence[Plain]) -> Key | None:
    """DB-21: three consecutive ranks of one suit; by top card."""
    return _top(hand) if _consecutive(hand) and _one_suit(hand) else None


def run3(hand: Sequence[Plain]) -> Key | None:
    """DB-22: three consecutive ranks, not all one suit; by top card."""
    return _top(hand) if _consecutive(hand) and not _one_suit(hand) else None


def flush3(hand: Sequence[Plain]) -> Key | None:
    """DB-23: three of one suit, not consecutive; card by card, highest first."""
    return _high_first(_ranks(hand)) if _one_suit(hand) and not _consecutive(hand) else None


def pair3(hand: Sequence[Plain]) -> Key | None:
    """DB-24: a pair plus a third card that is a face card or is off both pair suits.

    Key: the pair's rank, then the third card.
    """
    readings: list[Key] = []
    for i, j in combinations(range(3), 2):
        if hand[i][0] != hand[j][0]:
            continue
        pair_suits = {hand[i][1], hand[j][1]}
        (third_rank, third_suit), = (card for k, card in enumerate(hand) if k not in (i, j))
        if is_face(third_rank) or third_suit not in pair_suits:
            readings.append((hand[i][0], third_rank))
    return max(readings) if readings else None


def high_card3(hand: Sequence[Plain]) -> Key | None:
    """DB-25: any three cards; card by card, highest first."""
    return _high_first(_ranks(hand))


RULES3: tuple[tuple[str, Rule], ...] = (
    ("PRIAL", prial3),
    ("BOUNCER", bouncer3),
    ("RUN", run3),
    ("FLUSH", flush3),
    ("PAIR", pair3),
    ("HIGH_CARD", high_card3),
)


# ---------------------------------------------------------------------- public API


def _classify(hand: Sequence[Plain], rules: tuple[tuple[str, Rule], ...]) -> tuple[str, Key]:
    for name, rule in rules:
        key = rule(hand)
        if key is not None:
            return name, key
    raise AssertionError("unreachable: HIGH_CARD matches every hand")  # pragma: no cover


def classify4(cards: Sequence[Card]) -> tuple[str, Key]:
    """``(category name, key)`` of a 4-card (down) hand."""
    return _classify(_plain(cards, 4), RULES4)


def classify3(cards: Sequence[Card]) -> tuple[str, Key]:
    """``(category name, key)`` of a 3-card (back) hand."""
    return _classify(_plain(cards, 3), RULES3)


def sort_key4(cards: Sequence[Card]) -> SortKey:
    """Total-order key of a 4-card hand: bigger is stronger, equal is a tie.

    >>> from cardrules.cards import parse_cards
    >>> sort_key4(parse_cards("8S 8H 8D QH")) == sort_key4(parse_cards("8S 8H 8C 4D"))
    True
    >>> sort_key4(parse_cards("AS 2S 3S 4S")) < sort_key4(parse_cards("2S 3S 4S 5S"))
    True
    """
    name, key = classify4(cards)
    return CATEGORIES4.index(name), key


def sort_key3(cards: Sequence[Card]) -> SortKey:
    """Total-order key of a 3-card hand: bigger is stronger, equal is a tie."""
    name, key = classify3(cards)
    return CATEGORIES3.index(name), key
