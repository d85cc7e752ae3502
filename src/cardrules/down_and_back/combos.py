"""Evaluating Down and Back hands: :func:`evaluate4`, :func:`evaluate3`,
:func:`splits` and :func:`best_splits`.

Every call is a few look-ups in precomputed tables keyed by unordered pairs
of cards (see :mod:`cardrules.down_and_back.tables`), so the result never
depends on the order of the cards.

>>> from cardrules import parse_cards
>>> down = evaluate4(parse_cards("8S 8H 8D QH"))
>>> down.category, down.description
(<Category4.PRIAL: 6>, 'prial of eights')
>>> down > evaluate4(parse_cards("9S TS JS QS"))   # a prial beats a bouncer (DB-11, DB-12)
True
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from itertools import combinations
from operator import add, itemgetter
from typing import Any, NoReturn, TypeAlias

import attrs

from cardrules.cards import Card, Joker, Rank
from cardrules.down_and_back.categories import Category3, Category4, classify3, classify4
from cardrules.down_and_back.tables import CATEGORY_SHIFT, INVALID, load, pair_offsets
from cardrules.i18n import NP_, pgettext

__all__ = [
    "Combo",
    "SplitOption",
    "best_splits",
    "evaluate3",
    "evaluate4",
    "split_strengths",
    "splits",
    "strength3",
    "strength4",
]


class Combo:
    """An evaluated 3- or 4-card hand: immutable and totally ordered.

    Combos of the same size compare by strength: the stronger compares
    greater and ties compare equal, whatever their cards.  Comparing a 3-card
    with a 4-card combo raises :class:`TypeError`.  ``cards`` is the hand as
    given; ``strength`` is the int the batch evaluators return for it.

    Unlike the library's other values this is a hand-written slotted class
    rather than an attrs one: it is created on every evaluation and a plain
    class is several times cheaper to build.  Its fields are read-only.

    >>> from cardrules import parse_cards
    >>> a = evaluate4(parse_cards("8S 8H 8D 8C"))
    >>> a.category, a.description, str(a)
    (<Category4.QUAD: 7>, 'quad of eights', 'quad of eights (8S 8H 8D 8C)')
    >>> evaluate3(parse_cards("KS KH 2C")) == evaluate3(parse_cards("KD KC 2S"))
    True
    >>> a.strength = 0
    Traceback (most recent call last):
    ...
    AttributeError: property 'strength' of 'Combo' object has no setter
    """

    __slots__ = ("_cards", "_strength")
    _strength: int
    _cards: tuple[Card, ...]

    def __init__(self, strength: int, cards: tuple[Card, ...]) -> None:
        self._strength = strength
        self._cards = tuple(cards)

    @property
    def strength(self) -> int:
        """The hand's strength: larger is stronger, equal is a tie.

        ``strength >> 12`` is the category's value.

        >>> from cardrules import parse_cards
        >>> evaluate3(parse_cards("2S 2H 2D")).strength >> 12
        5
        """
        return self._strength

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the hand, in the order given.

        >>> from cardrules import parse_cards
        >>> [str(c) for c in evaluate3(parse_cards("KS 2H 9D")).cards]
        ['KS', '2H', '9D']
        """
        return self._cards


    @property
    def category(self) -> Category4 | Category3:
        """The combination's category (:class:`Category4` or :class:`Category3`).

        >>> from cardrules import parse_cards
        >>> evaluate3(parse_cards("QS KS AS")).category   # ace is low: no sequence
        <Category3.FLUSH: 2>
        """
        value = self.strength >> CATEGORY_SHIFT
        return Category4(value) if len(self.cards) == 4 else Category3(value)

    @property
    def description(self) -> str:
        """A readable name of the combination, such as ``"pair of queens"``.

        >>> from cardrules import parse_cards
        >>> evaluate4(parse_cards("QS QH QD 2S")).description
        'pair of queens, queen and two'
        """
        return describe(self.cards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Combo):
            return NotImplemented
        return len(self.cards) == len(other.cards) and self.strength == other.strength

    def __hash__(self) -> int:
        return hash((len(self.cards), self.strength))

    def _key(self, other: object) -> int:
        if not isinstance(other, Combo):
            raise TypeError(f"cannot compare Combo with {type(other).__name__}")
        if len(self.cards) != len(other.cards):
            raise TypeError("cannot compare a 3-card combo with a 4-card combo")
        return other.strength

    def __lt__(self, other: Combo) -> bool:
        return self.strength < self._key(other)

    def __le__(self, other: Combo) -> bool:
        return self.strength <= self._key(other)

    def __gt__(self, other: Combo) -> bool:
        return self.strength > self._key(other)

    def __ge__(self, other: Combo) -> bool:
        return self.strength >= self._key(other)

    def __str__(self) -> str:
        return f"{self.description} ({' '.join(map(str, self.cards))})"

    def __repr__(self) -> str:
        return f"<Combo {self}>"


@attrs.frozen(slots=True)
class SplitOption:
    """One way to split seven cards: a 4-card ``down`` and a 3-card ``back`` hand.

    ``str()`` gives both combinations:

    >>> from cardrules import Hand
    >>> print(best_splits(Hand.parse("8S 8H 8D QH 5C 6C 7C"))[0])
    prial of eights (8S 8H 8D QH) / bouncer, seven high (5C 6C 7C)

    >>> from cardrules import parse_cards
    >>> for option in best_splits(parse_cards("8S 8H 8D 8C 5H 6H 7H")):
    ...     print(option.down.description, "/", option.back.description)
    quad of eights / bouncer, seven high
    prial of eights / bouncer, eight high
    bouncer, eight high / prial of eights
    """

    down: Combo
    back: Combo

    def __str__(self) -> str:
        return f"{self.down} / {self.back}"

    def dominates(self, other: SplitOption) -> bool:
        """True if this split is at least as strong in both hands and stronger in one.

        >>> from cardrules import parse_cards
        >>> a, b = splits(parse_cards("AS 2S 3S 4S 5S 6S 7S"))[:2]
        >>> a.dominates(a)
        False
        """
        return (self.down >= other.down and self.back >= other.back
                and (self.down > other.down or self.back > other.back))


#: The five tables every evaluation reads, in this order: strengths of 4-card
#: hands and of 3-card hands (by pair offsets), then per ordered pair of card
#: indexes ``a * 52 + b`` its pair id, and that id times the 4-card and the
#: 3-card row length (see :mod:`cardrules.down_and_back.tables`).
_Tables: TypeAlias = "tuple[array[int], array[int], list[int], list[int], list[int]]"


#: The tables once loaded: None until the first evaluation.  Every use reads
#: them as ``_loaded or _load_tables()``: a test of one name, where calling a
#: cached accessor on every evaluation measured a third slower on the
#: pure-Python ``strength3``.
_loaded: _Tables | None = None


def _load_tables() -> _Tables:
    """Load the tables (on the first evaluation, not at import) and keep them."""
    global _loaded
    four, three = load()
    ids, rows4, rows3 = pair_offsets()
    _loaded = four, three, ids, rows4, rows3
    return _loaded


_new = object.__new__


def _make(strength: int, cards: tuple[Card, ...]) -> Combo:
    """Build a Combo without the checks of ``__init__`` (the caller made ``cards``)."""
    combo: Combo = _new(Combo)
    combo._strength = strength
    combo._cards = cards
    return combo


def _as_hand(cards: Any) -> tuple[Card, ...]:
    """``cards`` as a tuple (a :class:`~cardrules.Hand`, or any other tuple, is
    kept as it is, as the C speed-ups do); the checks of the hand come later."""
    if isinstance(cards, tuple):
        return cards
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise TypeError(f"expected a sequence of cards, not {type(cards).__name__}")
    return tuple(cards)


def _reject(cards: Any, size: int) -> NoReturn:
    """Raise the ValueError that explains why ``cards`` is not a valid hand."""
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise TypeError(f"expected a sequence of {size} cards, not {type(cards).__name__}")
    items = list(cards)
    if len(items) != size:
        raise ValueError(f"a Down and Back hand here has {size} cards, got {len(items)}")
    for item in items:
        if isinstance(item, Joker):
            raise ValueError(f"Down and Back is played without jokers, got {item}")
        if not isinstance(item, Card):
            raise ValueError(f"expected Card objects, got {item!r}")
    if len(set(items)) != size:
        raise ValueError(f"duplicate cards in {' '.join(map(str, items))}")
    raise AssertionError("unreachable")  # pragma: no cover


def evaluate4(cards: Sequence[Card]) -> Combo:
    """Evaluate a 4-card ("down") hand under DB-10 to DB-17.

    Raises :class:`ValueError` for a wrong number of cards, duplicates or jokers.

    >>> from cardrules import parse_cards
    >>> evaluate4(parse_cards("8S 8H 8D 4H")).category  # no prial, no valid pair
    <Category4.HIGH_CARD: 0>
    >>> evaluate4(parse_cards("AS 2H 3D 4C")).description
    'run, four high'
    """
    hand = _as_hand(cards)
    combo: Combo = _new(Combo)
    combo._strength = strength4(hand)
    combo._cards = hand
    return combo


def evaluate3(cards: Sequence[Card]) -> Combo:
    """Evaluate a 3-card ("back") hand under DB-20 to DB-25.

    >>> from cardrules import parse_cards
    >>> evaluate3(parse_cards("JH QH KH")).description
    'bouncer, king high'
    >>> evaluate3(parse_cards("5S 5H 9H")).category   # 9H shares a suit with the pair
    <Category3.HIGH_CARD: 0>
    """
    hand = _as_hand(cards)
    combo: Combo = _new(Combo)
    combo._strength = strength3(hand)
    combo._cards = hand
    return combo


def strength4(cards: Sequence[Card]) -> int:
    """The strength of a 4-card hand as a bare int: ``evaluate4(cards).strength``
    without building a :class:`Combo`.  For bots and simulations that only
    compare hands; same checks and errors as :func:`evaluate4`.

    >>> from cardrules import parse_cards
    >>> strength4(parse_cards("8S 8H 8D QH")) == evaluate4(parse_cards("8S 8H 8D QH")).strength
    True
    >>> strength4(parse_cards("8S 8H 8D QH")) >> 12   # Category4.PRIAL
    6
    """
    hand = cards if type(cards) is tuple else _as_hand(cards)
    four, _, ids, rows4, _ = _loaded or _load_tables()
    try:
        a, b, c, d = hand
        strength = four[rows4[a.pair_row + b.pair_column] + ids[c.pair_row + d.pair_column]]
    except (AttributeError, ValueError, TypeError, IndexError):
        _reject(hand, 4)
    if strength == INVALID:
        _reject(hand, 4)
    return strength


def strength3(cards: Sequence[Card]) -> int:
    """The strength of a 3-card hand as a bare int (see :func:`strength4`).

    >>> from cardrules import parse_cards
    >>> strength3(parse_cards("2S 2H 2D")) > strength3(parse_cards("QS KS JS"))
    True
    """
    hand = cards if type(cards) is tuple else _as_hand(cards)
    _, three, _, _, rows3 = _loaded or _load_tables()
    try:
        a, b, c = hand
        strength = three[rows3[a.pair_row + b.pair_column] + c.pair_column]
    except (AttributeError, ValueError, TypeError, IndexError):
        _reject(hand, 3)
    if strength == INVALID:
        _reject(hand, 3)
    return strength


# Fixed index plans for the 35 splits of seven cards, so that the work per
# hand runs in C (itemgetter and map over pairs of adjacent items) rather
# than in a Python loop.  ``_pairwise_sum(xs)`` adds items 0+1, 2+3, ...
_SPLITS = tuple(combinations(range(7), 4))
_BACKS = tuple(tuple(i for i in range(7) if i not in down) for down in _SPLITS)
#: The 21 pairs of positions within seven cards, in ``combinations`` order.
PAIR_POSITIONS = tuple(combinations(range(7), 2))
_PAIR_NO = {pair: n for n, pair in enumerate(PAIR_POSITIONS)}
# pair offsets: rows (0..6) and columns (7..13) of one list ``rows + cols``
_PAIR_PLAN = itemgetter(*(k for i, j in PAIR_POSITIONS for k in (i, 7 + j)))
# 4-card index: head offsets (0..20) and tail ids (21..41) of ``heads4 + tails4``
_DOWN_PLAN = itemgetter(*(k for d in _SPLITS
                          for k in (_PAIR_NO[d[0], d[1]], 21 + _PAIR_NO[d[2], d[3]])))
# 3-card index: head offsets (0..20) and card columns (21..27) of ``heads3 + cols``
_BACK_PLAN = itemgetter(*(k for b in _BACKS for k in (_PAIR_NO[b[0], b[1]], 21 + b[2])))
#: The 35 splits of seven cards in :func:`splits` order, as the positions
#: (within the seven) of the down hand and of the back hand.
SPLIT_POSITIONS = tuple(zip(_SPLITS, _BACKS, strict=True))
#: For each split, a pair of getters taking its down and back hands out of a 7-tuple.
SPLIT_GETTERS = tuple((itemgetter(*d), itemgetter(*b)) for d, b in SPLIT_POSITIONS)


def _pairwise_sum(items: tuple[int, ...]) -> map[int]:
    it = iter(items)
    return map(add, it, it)


def _score_splits(seven: Sequence[Card]) -> tuple[tuple[Card, ...], list[tuple[int, int]]]:
    """The hand as a tuple and (down, back) strengths of its 35 splits."""
    hand = _as_hand(seven)  # refuses a string ("ASKS...") as not a sequence of cards
    try:
        if len(hand) != 7:
            raise ValueError
        cols = [c.pair_column for c in hand]
        offsets = [c.pair_row for c in hand] + cols
    except (AttributeError, ValueError):
        _reject(hand, 7)
    if len(set(cols)) != 7:
        _reject(hand, 7)
    four, three, ids, rows4, rows3 = _loaded or _load_tables()
    pair_index = list(_pairwise_sum(_PAIR_PLAN(offsets)))
    heads4 = list(map(rows4.__getitem__, pair_index))
    heads4 += map(ids.__getitem__, pair_index)
    heads3 = list(map(rows3.__getitem__, pair_index))
    heads3 += cols
    down = map(four.__getitem__, _pairwise_sum(_DOWN_PLAN(heads4)))
    back = map(three.__getitem__, _pairwise_sum(_BACK_PLAN(heads3)))
    return hand, list(zip(down, back, strict=False))


def _option(hand: tuple[Card, ...], number: int, scores: tuple[int, int]) -> SplitOption:
    down, back = SPLIT_GETTERS[number]
    return SplitOption(_make(scores[0], down(hand)), _make(scores[1], back(hand)))


def split_strengths(seven: Sequence[Card]) -> list[tuple[int, int]]:
    """The (down, back) strengths of all 35 splits, in :func:`splits` order.

    The cheapest way to score every split: no :class:`Combo` is built.

    >>> from cardrules import parse_cards
    >>> hand = parse_cards("8S 8H 8D QH 5C 6C 7C")
    >>> split_strengths(hand)[0] == (splits(hand)[0].down.strength, splits(hand)[0].back.strength)
    True
    """
    return _score_splits(seven)[1]


def splits(seven: Sequence[Card]) -> tuple[SplitOption, ...]:
    """All 35 ways to split seven cards into a 4-card down and a 3-card back hand.

    The order is fixed: down hands in the order of
    ``itertools.combinations(seven, 4)``, the back hand being the other three.

    >>> from cardrules import parse_cards
    >>> options = splits(parse_cards("AS 2S 3S 4S 5S 6S 7S"))
    >>> len(options), str(options[0].down), str(options[0].back)
    (35, 'bouncer, four high (AS 2S 3S 4S)', 'bouncer, seven high (5S 6S 7S)')
    """
    hand, scores = _score_splits(seven)
    return tuple(_option(hand, n, pair) for n, pair in enumerate(scores))


def best_splits(seven: Sequence[Card]) -> tuple[SplitOption, ...]:
    """The Pareto-optimal splits of seven cards (DB-40, DB-41).

    A split is kept unless another split is at least as strong in both hands
    and stronger in one; splits that tie in both hands are all kept.  They come
    strongest down hand first, ties in the order of :func:`splits`.

    >>> from cardrules import parse_cards
    >>> for o in best_splits(parse_cards("9S 9H 9D 2C 3C 4C 8D")):
    ...     print(o.down, "/", o.back)
    prial of nines (9S 9H 9D 2C) / high card eight (3C 4C 8D)
    pair of nines, eight and four (9S 9H 4C 8D) / high card nine (9D 2C 3C)
    pair of nines, eight and three (9S 9H 3C 8D) / high card nine (9D 2C 4C)
    pair of nines, eight and two (9S 9H 2C 8D) / high card nine (9D 3C 4C)
    high card nine (9S 9H 9D 8D) / bouncer, four high (2C 3C 4C)
    high card eight (2C 3C 4C 8D) / prial of nines (9S 9H 9D)
    """
    hand, scores = _score_splits(seven)
    # One sweep from the strongest down hand down: a split survives if its back
    # hand is the best among equal down hands and beats every stronger down's.
    order = sorted(range(35), key=scores.__getitem__, reverse=True)
    kept = []
    best_above = group_best = -1
    group_down = None
    for number in order:
        down, back = scores[number]
        if down != group_down:
            best_above = max(best_above, group_best)
            group_down, group_best = down, back
        if back == group_best and back > best_above:
            kept.append(number)
    return tuple(_option(hand, n, scores[n]) for n in kept)


# -- descriptions ---------------------------------------------------------------

def _list_ranks(ranks: Sequence[int]) -> str:
    words = [Rank(r).long_name for r in ranks]
    if len(words) == 1:
        return words[0]
    return pgettext("combination", "{first} and {second}").format(
        first=", ".join(words[:-1]), second=words[-1])


def _up_to(rank: int) -> str:
    # The top rank of a run or bouncer, as in "run, king high" (Ukrainian
    # "послідовність до короля" puts it in the genitive singular).
    return pgettext("rank, as the top of a run", Rank(rank).word)


_TOPS = (
    NP_("rank, as the top of a run", "ace"),
    NP_("rank, as the top of a run", "two"),
    NP_("rank, as the top of a run", "three"),
    NP_("rank, as the top of a run", "four"),
    NP_("rank, as the top of a run", "five"),
    NP_("rank, as the top of a run", "six"),
    NP_("rank, as the top of a run", "seven"),
    NP_("rank, as the top of a run", "eight"),
    NP_("rank, as the top of a run", "nine"),
    NP_("rank, as the top of a run", "ten"),
    NP_("rank, as the top of a run", "jack"),
    NP_("rank, as the top of a run", "queen"),
    NP_("rank, as the top of a run", "king"),
)


def describe(cards: Sequence[Card]) -> str:
    """A readable name for a 3- or 4-card hand, such as ``"prial of eights"``.

    The name is in the current language (:func:`cardrules.language`).

    >>> from cardrules import parse_cards, language
    >>> describe(parse_cards("9S 9H 3C 3D"))
    'two pair, nines and threes'
    >>> describe(parse_cards("KS 9D 4H"))
    'high card king'
    >>> with language("ja"):
    ...     describe(parse_cards("9S 9H 3C 3D")), describe(parse_cards("JH QH KH"))
    ('ツーペア（9と3）', 'バウンサー（キングハイ）')
    >>> with language("uk"):
    ...     describe(parse_cards("QS QH QD 2S")), describe(parse_cards("5C 6D 7C"))
    ('пара дам, дама і двійка', 'послідовність до сімки')
    """
    category, key = classify4(cards) if len(cards) == 4 else classify3(cards)
    name = category.name
    top = Rank(key[0])
    if name == "QUAD":
        return pgettext("combination", "quad of {ranks}").format(ranks=top.plural_of)
    if name == "PRIAL":
        return pgettext("combination", "prial of {ranks}").format(ranks=top.plural_of)
    if name == "BOUNCER":
        return pgettext("combination", "bouncer, {rank} high").format(rank=_up_to(top))
    if name == "RUN":
        return pgettext("combination", "run, {rank} high").format(rank=_up_to(top))
    if name == "FLUSH":
        return pgettext("combination", "flush, {ranks}").format(
            ranks="-".join(Rank(r).char for r in key))
    if name == "TWO_PAIR":
        return pgettext("combination", "two pair, {high} and {low}").format(
            high=top.plural_name, low=Rank(key[1]).plural_name)
    if name == "PAIR":
        if len(key) == 2:
            return pgettext("combination", "pair of {ranks}").format(ranks=top.plural_of)
        return pgettext("combination", "pair of {ranks}, {others}").format(
            ranks=top.plural_of, others=_list_ranks(key[1:]))
    return pgettext("combination", "high card {rank}").format(rank=top.long_name)
