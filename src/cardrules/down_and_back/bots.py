"""Down and Back bots: :class:`GreedyBot` (the shared
:class:`~cardrules.engine.RandomBot` plays any game).

Bots see only a :class:`~cardrules.down_and_back.View` and the legal actions.

>>> from cardrules.down_and_back import play_game
>>> game = play_game([GreedyBot(seed=1), GreedyBot(seed=2)], rounds=2, seed=9)
>>> len(game.state.results)
2
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import starmap
from operator import add
from typing import ClassVar, TypeVar

from cardrules.cards import Card
from cardrules.down_and_back._accel import split_strengths
from cardrules.down_and_back.actions import Cut, Discard, DrawDiscard, DrawStock, Split
from cardrules.down_and_back.tables import CATEGORY_SHIFT
from cardrules.down_and_back.views import View

__all__ = ["GreedyBot", "hand_value"]

A = TypeVar("A")


def _weight(strength: int) -> float:
    # Category dominates; the rank inside the category breaks ties.
    return (strength >> CATEGORY_SHIFT) + (strength & ((1 << CATEGORY_SHIFT) - 1)) / 4096


def hand_value(cards: Sequence[Card]) -> tuple[float, int]:
    """How promising seven cards are: the best ``down + back`` weight over the
    35 splits, and the number of that split (in :func:`splits` order).

    Each hand's weight is its category value plus a fraction for its rank
    within the category, so both showdowns count about equally.

    >>> from cardrules import parse_cards
    >>> value, number = hand_value(parse_cards("8S 8H 8D QH 5C 6C 7C"))
    >>> int(value), number   # prial (6) plus bouncer (4), the first split
    (10, 0)
    """
    weights = [_weight(d) + _weight(b) for d, b in split_strengths(cards)]
    best = max(weights)
    return best, weights.index(best)


# GreedyBot's measure in whole numbers, shared with the search bot and the
# analysis.  A strength is its category shifted left by CATEGORY_SHIFT (12)
# plus its rank, so the sum of the two strengths of a split is exactly 4096
# times the split's weight in hand_value and compares the same way.


def greedy_measure(cards: Sequence[Card]) -> int:
    """The largest sum of down and back strengths over the 35 splits of seven
    cards: 4096 times :func:`hand_value`'s value, memoised by the cards.

    >>> from cardrules import parse_cards
    >>> greedy_measure(parse_cards("8S 8H 8D QH 5C 6C 7C")) // 4096   # prial + bouncer
    10
    """
    key = sum(c.mask for c in cards)
    known = _MEASURES.get(key)
    if known is not None:
        return known
    if len(_MEASURES) >= _MEASURES_SIZE:
        _MEASURES.clear()
    best: int = max(starmap(add, split_strengths(cards)))
    _MEASURES[key] = best
    return best


#: Memo of :func:`greedy_measure` by the cards' bit mask: search rollouts
#: meet the same sevens again and again.
_MEASURES: dict[int, int] = {}
_MEASURES_SIZE = 1 << 18


def greedy_index(scores: Sequence[tuple[int, int]]) -> int:
    """The number of the split with the largest strength sum (the first on a
    tie), given each split's ``(down, back)`` strengths in
    :func:`~cardrules.down_and_back.splits` order.

    >>> greedy_index([(1, 2), (3, 0), (2, 2)])
    2
    """
    best, number = -1, 0
    for n, (down, back) in enumerate(scores):
        if down + back > best:
            best, number = down + back, n
    return number


def without_each(hand: Sequence[Card]) -> list[list[Card]]:
    """``hand`` less each of its cards in turn, in the hand's order.

    >>> from cardrules import parse_cards
    >>> [len(rest) for rest in without_each(parse_cards("AS 2S 3S"))]
    [2, 2, 2]
    """
    cards = list(hand)
    return [cards[:n] + cards[n + 1:] for n in range(len(cards))]


def takes_discard(hand: Sequence[Card], top: Card) -> bool:
    """GreedyBot's draw (DB-34): take ``top`` from the discard pile when some
    seven cards with it measure more than ``hand``.

    >>> from cardrules import parse_cards
    >>> takes_discard(parse_cards("8S 8H QH 5C 6C 7C 2D"), parse_cards("8D")[0])
    True
    """
    now = greedy_measure(hand)
    return any(greedy_measure([*rest, top]) > now for rest in without_each(hand))


def greedy_discard(hand: Sequence[Card]) -> Card:
    """GreedyBot's discard: the card whose loss leaves the best seven (the
    first in ``hand``'s order on a tie).

    >>> from cardrules import parse_cards
    >>> greedy_discard(parse_cards("8S 8H 8D QH 5C 6C 7C 2D"))
    Card.parse('2D')
    """
    best, choice = -1, hand[0]
    for card, rest in zip(hand, without_each(hand), strict=True):
        value = greedy_measure(rest)
        if value > best:
            best, choice = value, card
    return choice


class GreedyBot:
    """Improves its hand one step at a time using the evaluators.

    It takes the discard pile's top card when that gives a better best hand
    than it has now, keeps the seven cards with the best :func:`hand_value`
    when discarding, and splits by the same measure.  Cuts are random.

    >>> from cardrules import parse_cards
    >>> bot = GreedyBot(seed=0)
    >>> legal = [Discard(c) for c in parse_cards("8S 8H 8D QH 5C 6C 7C 2D")]
    >>> bot._discard(legal, parse_cards("8S 8H 8D QH 5C 6C 7C 2D"))
    Discard(card=Card.parse('2D'))
    """

    #: A move takes a fraction of a millisecond: a server asks it on its event
    #: loop (:func:`cardrules.engine.bots.is_quick`).
    quick: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: object, legal: Sequence[A]) -> A:
        """Choose one of ``legal`` for the seat that ``view`` belongs to.

        >>> from cardrules.down_and_back import Cut
        >>> GreedyBot(seed=0).act(None, [Cut(5)])
        Cut(count=5)
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        if not isinstance(view, View):
            return self.rng.choice(legal)
        first = legal[0]
        if isinstance(first, Cut):
            return self.rng.choice(legal)
        if isinstance(first, DrawStock | DrawDiscard):
            return self._draw(legal, view)
        if isinstance(first, Discard):
            return self._discard(legal, view.hand)
        if isinstance(first, Split):
            # legal_actions lists the splits of the sorted hand, in splits() order.
            return legal[greedy_index(split_strengths(sorted(view.hand)))] \
                if len(legal) == 35 else first
        return self.rng.choice(legal)

    def _draw(self, legal: Sequence[A], view: View) -> A:
        take = next((a for a in legal if isinstance(a, DrawDiscard)), None)
        if take is None or not view.discard or len(view.hand) != 7:
            return legal[0]
        return take if takes_discard(view.hand, view.discard[-1]) else legal[0]

    def _discard(self, legal: Sequence[A], hand: Sequence[Card]) -> A:
        card = greedy_discard(hand)
        return next((a for a in legal if isinstance(a, Discard) and a.card == card), legal[0])
