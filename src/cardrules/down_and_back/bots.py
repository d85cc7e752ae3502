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
from typing import TypeVar

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
            return legal[hand_value(sorted(view.hand))[1]] if len(legal) == 35 else first
        return self.rng.choice(legal)

    def _draw(self, legal: Sequence[A], view: View) -> A:
        take = next((a for a in legal if isinstance(a, DrawDiscard)), None)
        if take is None or not view.discard or len(view.hand) != 7:
            return legal[0]
        now = hand_value(view.hand)[0]
        top = view.discard[-1]
        with_top = max(hand_value([*[c for c in view.hand if c != out], top])[0]
                       for out in view.hand)
        return take if with_top > now else legal[0]

    def _discard(self, legal: Sequence[A], hand: Sequence[Card]) -> A:
        best, choice = -1.0, legal[0]
        for action in legal:
            if isinstance(action, Discard):
                value = hand_value([c for c in hand if c != action.card])[0]
                if value > best:
                    best, choice = value, action
        return choice
