"""The exhaustive oracle for the Back Alley double-dummy solver.

A plain minimax over the library's own :func:`~cardrules.back_alley.legal_actions`
and :func:`~cardrules.back_alley.apply`, with no pruning and no rule code of
its own: every card of every hand is tried, every trick is resolved by the
reducer.  Positions already met in one call are remembered (an exact memo on
the whole position, which changes no answer), so a deal of four cards each
takes well under a second.  Meant for small deals only; :func:`random_position`
draws the positions to compare on.

>>> from support.ba_deals import dealt, then
>>> state = then(dealt(["AS", "KS", "QS", "JS"], "2H"), "board", "pass", "pass", "pass")
>>> minimax_tricks(state), [(str(p), v) for p, v in minimax_values(state).items()]
(1, [('play AS', 1)])
"""

from __future__ import annotations

import random

from cardrules.back_alley import (
    ChooseDealer,
    GameState,
    Phase,
    Play,
    Shuffle,
    apply,
    legal_actions,
    new_game,
)
from cardrules.back_alley.actions import CARDS

__all__ = ["minimax_tricks", "minimax_values", "random_position"]

_Key = tuple[object, ...]


def _team0_gain(before: GameState, after: GameState) -> int:
    """The tricks team 0 won between ``before`` and ``after`` (one card apart)."""
    won = before.tricks_won
    if after.phase is Phase.PLAY:
        now = after.tricks_won
        return (now[0] + now[2]) - (won[0] + won[2])
    # The deal is over: its result holds each team's tricks of the whole deal.
    return after.results[-1].tricks[0] - (won[0] + won[2])


def _team0(state: GameState, memo: dict[_Key, int]) -> int:
    """The tricks team 0 takes from ``state`` on, both teams playing their best."""
    key = (state.hand_indexes, state.trick_indexes, state.current_player, state.leader,
           state.trump_played)
    known = memo.get(key)
    if known is not None:
        return known
    seat = state.current_player
    assert seat is not None
    outcomes = []
    for action in legal_actions(state):
        child = apply(state, action)
        gain = _team0_gain(state, child)
        outcomes.append(gain + (_team0(child, memo) if child.phase is Phase.PLAY else 0))
    best = max(outcomes) if seat % 2 == 0 else min(outcomes)
    memo[key] = best
    return best


def _tricks_left(state: GameState) -> int:
    return max(len(hand) for hand in state.hand_indexes)


def minimax_values(state: GameState) -> dict[Play, int]:
    """For each legal play of the seat to act (in the order of ``legal_actions``),
    the tricks its team takes from here (the trick in progress included) with
    best play by both teams afterwards."""
    if state.phase is not Phase.PLAY:
        raise ValueError(f"not in the play phase: {state.phase.value}")
    seat = state.current_player
    assert seat is not None
    memo: dict[_Key, int] = {}
    left = _tricks_left(state)
    values: dict[Play, int] = {}
    for action in legal_actions(state):
        assert isinstance(action, Play)
        child = apply(state, action)
        ours = _team0_gain(state, child) + (_team0(child, memo)
                                            if child.phase is Phase.PLAY else 0)
        values[action] = ours if seat % 2 == 0 else left - ours
    return values


def minimax_tricks(state: GameState) -> int:
    """The most tricks the team of the seat to act takes from here on."""
    return max(minimax_values(state).values())


def random_position(rng: random.Random, size: int) -> GameState:
    """A random play position of a deal of ``size`` cards each, drawn from
    ``rng``: a random dealer and shuffle, a joker turned (no trump, BA-13) one
    time in four and both jokers dealt into the hands one time in two, random
    legal bids (a board about one bid in three), then a random number
    of random legal cards (so anywhere in a trick, trumps broken or not)."""
    cards = 4 * size
    while True:
        state = apply(new_game(max_hand_size=size), ChooseDealer(rng.randrange(4)))
        order = list(CARDS)
        rng.shuffle(order)
        draw = rng.random()
        if draw < 0.25:
            at = order.index(CARDS[52 + rng.randrange(2)])
            order[at], order[cards] = order[cards], order[at]
        elif draw < 0.75:
            for joker in (52, 53):
                at, to = order.index(CARDS[joker]), rng.randrange(cards)
                order[at], order[to] = order[to], order[at]
        state = apply(state, Shuffle(tuple(order)))
        while state.phase is Phase.BID:
            bids = legal_actions(state)
            state = apply(state, bids[-1] if rng.random() < 0.25 else rng.choice(bids))
        if state.phase is Phase.PLAY:
            break  # else all four passed (BA-25): deal again
    for _ in range(rng.randrange(cards)):
        state = apply(state, rng.choice(legal_actions(state)))
    return state
