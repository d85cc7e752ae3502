"""Back Alley positions that are bridge positions, and their answer from DDS
(the standard bridge double-dummy solver, through the ``endplay`` package).

Two kinds:

* :func:`no_trump_deal`: a deal in which a joker is turned (BA-13): no trump
  suit and no joker in play, so the deal is a bridge deal at no trumps, with
  the highest bidder on lead;
* :func:`trump_position`: a deal with a trump suit played at random until
  both jokers are gone and a trick is over: what is left is a bridge
  position in that trump suit (trump has been played, so it may be led).

:func:`dds_max_tricks` asks DDS the most tricks the side on lead takes:
seats 0 to 3 are North, East, South and West (clockwise, partners opposite,
so team 0 is North-South), Back Alley's suits are bridge's suits.

>>> import random
>>> state = no_trump_deal(random.Random(1), size=3, leader=2)
>>> state.current_player, state.trump, len(state.hand_indexes[0])
(2, None, 3)
"""

from __future__ import annotations

import random

from cardrules.back_alley import (
    Bid,
    ChooseDealer,
    GameState,
    Pass,
    Phase,
    Shuffle,
    apply,
    legal_actions,
    new_game,
)
from cardrules.back_alley.actions import CARDS
from cardrules.cards import Card

__all__ = ["dds_max_tricks", "no_trump_deal", "pbn", "trump_position"]

_BIG, _LITTLE = CARDS[52], CARDS[53]


def _bid_to_lead(state: GameState, leader: int) -> GameState:
    """Everyone passes but ``leader``, who bids 1 and so leads (BA-30)."""
    while state.phase is Phase.BID:
        state = apply(state, Bid(1) if state.current_player == leader else Pass())
    return state


def no_trump_deal(rng: random.Random, *, size: int = 13, leader: int = 0) -> GameState:
    """A deal of ``size`` cards each with a joker turned and the other joker
    left undealt, ``leader`` to lead the first trick (a one-card deal has no
    bid 1: there the leader claims board, which changes nothing at no
    trumps)."""
    deck = list(CARDS[:52])
    rng.shuffle(deck)
    turned, other = (_BIG, _LITTLE) if rng.random() < 0.5 else (_LITTLE, _BIG)
    order = (*deck[:4 * size], turned, *deck[4 * size:], other)
    state = apply(apply(new_game(max_hand_size=size), ChooseDealer(3)), Shuffle(order))
    if size == 1:
        from cardrules.back_alley import Board
        while state.phase is Phase.BID:
            state = apply(state, Board() if state.current_player == leader else Pass())
        return state
    return _bid_to_lead(state, leader)


def trump_position(rng: random.Random, *, size: int = 13) -> GameState | None:
    """A deal of ``size`` cards each with a plain card turned and both jokers
    dealt, played at random until both jokers have been played and a trick
    is over (None if that never happens before the last trick)."""
    deck = list(CARDS[:52])
    rng.shuffle(deck)
    dealt = [*deck[:4 * size - 2], _BIG, _LITTLE]
    rng.shuffle(dealt)
    order = (*dealt, *deck[4 * size - 2:])
    state = apply(apply(new_game(max_hand_size=size), ChooseDealer(rng.randrange(4))),
                  Shuffle(order))
    state = _bid_to_lead(state, rng.randrange(4))
    jokers = {52, 53}
    while True:
        if not state.trick_indexes and not jokers & {i for h in state.hand_indexes for i in h}:
            return state if state.hand_indexes[0] and len(state.hand_indexes[0]) > 1 else None
        state = apply(state, rng.choice(legal_actions(state)))
        if state.phase is not Phase.PLAY:
            return None


def _height(card: Card) -> int:
    """Highest first: the ace (rank value 1) above the king."""
    return -(14 if card.rank.value == 1 else card.rank.value)


def pbn(state: GameState) -> str:
    """The hands of ``state`` as a PBN deal, North (seat 0) first.

    >>> import random
    >>> pbn(no_trump_deal(random.Random(2), size=1, leader=0)).count(".")
    12
    """
    hands = []
    for seat in range(4):
        suits: dict[str, list[Card]] = {char: [] for char in "SHDC"}
        for index in state.hand_indexes[seat]:
            card = CARDS[index]
            assert isinstance(card, Card)
            suits[card.suit.char].append(card)
        hands.append(".".join("".join(str(card)[0] for card in
                                      sorted(suits[char], key=_height))
                              for char in "SHDC"))
    return "N:" + " ".join(hands)


def dds_max_tricks(state: GameState) -> int:
    """The most tricks the side of the seat on lead takes from ``state`` (at
    the start of a trick), by DDS: ``solve_board`` for one optimal card.

    >>> import random
    >>> dds_max_tricks(no_trump_deal(random.Random(2), size=1, leader=0)) in (0, 1)
    True
    """
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    assert state.phase is Phase.PLAY
    assert not state.trick_indexes
    assert state.leader is not None
    trump = state.trump
    denom = Denom.nt if trump is None else Denom(int(trump))  # both S, H, D, C = 0 to 3
    deal = Deal(pbn(state), first=Player(state.leader), trump=denom)
    return max(score for _, score in solve_board(deal, SolveMode.OptimalOne))
