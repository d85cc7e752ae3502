"""Rigged deals for the Back Alley tests.

A test names the cards each seat is to hold and the card to turn up;
:func:`rigged` works out the ``Shuffle`` that deals exactly that (BA-12: one
card at a time, clockwise from the dealer's left, then the next card turned
up; BA-13: the card after it replaces a turned joker), with every card not
named after them in deck order.

>>> state = dealt(["AS", "KS", "QS", "JS"], "2H")
>>> [str(hand) for hand in state.hands], str(state.deal.trump_card)
(['AS', 'KS', 'QS', 'JS'], '2H')
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from cardrules import Card, Joker, parse_card, parse_cards
from cardrules.back_alley import (
    ChooseDealer,
    GameState,
    Shuffle,
    apply,
    legal_actions,
    new_game,
    parse_action,
    sample_chance,
    view,
)
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.bots import HeuristicBot

SEATS = 4


def rigged(dealer: int, hands: Sequence[str], turned: str, after: str = "") -> Shuffle:
    """The shuffle that deals ``hands[seat]`` to each seat (one card at a time,
    clockwise from the dealer's left, BA-12), then turns ``turned``, with the
    cards of ``after`` next (the BA-13 replacement comes first) and every other
    card after them in deck order.

    >>> order = rigged(0, ["AS", "KS", "QS", "JS"], "BB", "2C").order
    >>> [str(card) for card in order[:6]]
    ['KS', 'QS', 'JS', 'AS', 'BB', '2C']
    """
    per_seat = [parse_cards(h, jokers=True) for h in hands]
    size = len(per_seat[0])
    assert len(per_seat) == SEATS
    assert all(len(h) == size for h in per_seat)
    head: list[Card | Joker] = [per_seat[(dealer + 1 + k) % SEATS][k // SEATS]
                                for k in range(SEATS * size)]
    head += [parse_card(turned, jokers=True), *parse_cards(after, jokers=True)]
    assert len(set(head)) == len(head), "a rigged deal names some card twice"
    return Shuffle(head + [c for c in CARDS if c not in head])


def dealt(hands: Sequence[str], turned: str, dealer: int = 3) -> GameState:
    """The first deal of a game whose hand size is that of ``hands``, dealt by
    ``dealer`` (seat 3 unless told, so seat 0 gets the first card) as
    :func:`rigged` says; the first seat to bid is to act."""
    size = len(parse_cards(hands[0], jokers=True))
    state = apply(new_game(max_hand_size=size), ChooseDealer(dealer))
    return apply(state, rigged(dealer, hands, turned))


def opening(max_hand_size: int, seed: int) -> GameState:
    """The first bidding state of a seeded game: the first dealer and the deal
    drawn from ``random.Random(seed)`` (BA-11, BA-12).

    >>> opening(3, 1).phase.name
    'BID'
    """
    rng = random.Random(seed)
    state = new_game(max_hand_size=max_hand_size)
    for _ in range(2):
        state = apply(state, sample_chance(state, rng))
    return state


def then(state: GameState, *moves: str) -> GameState:
    """``state`` after ``moves``, each in the game's notation (``"bid 2"``, ``"play QH"``).

    >>> state = dealt(["AS", "KS", "QS", "JS"], "2H")
    >>> then(state, "pass").current_player != state.current_player
    True
    """
    for move in moves:
        state = apply(state, parse_action(move))
    return state


def choice(state: GameState, bot: HeuristicBot | None = None) -> str:
    """What the heuristic bot (seed 0 unless given) does for the player to act.

    >>> choice(dealt(["AS", "KS", "QS", "JS"], "2H")) in ("pass", "board")
    True
    """
    seat = state.current_player
    assert seat is not None
    action = (bot or HeuristicBot(seed=0)).act(view(state, seat), legal_actions(state))
    assert action in legal_actions(state)
    return str(action)


def random_game(seed: int, max_hand_size: int) -> Iterator[GameState]:
    """Every state of a game of random legal moves (a seeded generator)."""
    rng = random.Random(seed)
    state = new_game(max_hand_size=max_hand_size)
    yield state
    while not state.is_terminal:
        action = (sample_chance(state, rng) if state.current_player is None
                  else rng.choice(legal_actions(state)))
        state = apply(state, action)
        yield state


def joker_turned_with_exchange() -> GameState:
    """Deal 1 (13 cards, dealer 0): BB turned, LB dealt to seat 2, who
    discards it and takes the next undealt card (BA-13)."""
    order: list[Card | Joker] = [c for c in CARDS if c not in (Joker.BIG, Joker.LITTLE)]
    order.insert(1, Joker.LITTLE)   # the second card dealt goes to seat 2
    order.insert(52, Joker.BIG)     # turned after 4 * 13 cards
    return apply(apply(new_game(), ChooseDealer(0)), Shuffle(tuple(order)))
