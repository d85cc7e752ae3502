"""Random Back Alley play positions with most of the cards still to play.

>>> import random
>>> [len(state.hand_indexes[state.current_player]) > 3 for state in deep_positions(1, 3)]
[True, True, True]
"""

from __future__ import annotations

import random

from cardrules.back_alley import (
    ChooseDealer,
    GameState,
    Phase,
    Shuffle,
    apply,
    legal_actions,
    new_game,
)
from cardrules.back_alley.actions import CARDS

__all__ = ["deep_positions"]


def deep_positions(seed: int, count: int) -> list[GameState]:
    """Positions of 5- to 7-card deals with most of the cards still to play
    (at most one trick gone), half no trump and half with trumps: where the
    Python solver's table key holds the most cards and a slip in it shows."""
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        size = 5 + len(found) % 3
        state = apply(new_game(max_hand_size=size), ChooseDealer(rng.randrange(4)))
        deck = list(CARDS)
        rng.shuffle(deck)
        if len(found) % 2:  # BA-13: a joker turned, no trump
            joker = deck.pop(deck.index(CARDS[52 + rng.randrange(2)]))
            deck.insert(4 * size, joker)
        while len(found) % 2 == 0 and deck[4 * size] in CARDS[52:]:
            rng.shuffle(deck)  # a plain card turned: its suit is trump
        if len(found) % 2 == 0:  # the jokers dealt, or one of them (BA-2, BA-33)
            for number in rng.sample((52, 53), rng.randrange(1, 3)):
                at, to = deck.index(CARDS[number]), rng.randrange(4 * size)
                deck[at], deck[to] = deck[to], deck[at]
        state = apply(state, Shuffle(tuple(deck)))
        while state.phase is Phase.BID:
            bids = legal_actions(state)
            state = apply(state, rng.choice(bids) if rng.random() < 0.4 else bids[0])
        if state.phase is not Phase.PLAY:
            continue
        for _ in range(rng.randrange(6)):
            state = apply(state, rng.choice(legal_actions(state)))
        found.append(state)
    return found

