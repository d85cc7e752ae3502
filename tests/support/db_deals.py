"""Rigged deals for the Down and Back game tests.

A test names the cards it wants each seat to hold, the card to turn up and the
first cards of the stock; :func:`rigged_order` works out the ``Shuffle`` order
that produces exactly that deal once the deck is cut, following DB-32 (the cut
moves the top ``count`` cards under the rest) and DB-33 (seven cards each, one
at a time, clockwise from the dealer's left, then one card face up).

Cards a test does not name are filled in from the unused cards in
:data:`~cardrules.DECK` order, so every rigged deal is still a full deck.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from cardrules import DECK, Card, parse_card, parse_cards
from cardrules.down_and_back import (
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    GreedyBot,
    Phase,
    Shuffle,
    Split,
    apply,
    legal_actions,
    new_game,
    sample_chance,
    view,
)

HAND = 7
DECK_SIZE = 52


def cards(text: str) -> tuple[Card, ...]:
    """Cards written in the library's notation, e.g. ``"AS KD 10h"``."""
    return parse_cards(text)


def deal_positions(dealer: int, num_players: int) -> list[int]:
    """The seat that receives each of the first ``7 * n`` cards after the cut."""
    return [(dealer + 1 + k) % num_players for k in range(HAND * num_players)]


def rigged_deck(dealer: int, num_players: int, hands: Mapping[int, Sequence[Card]],
                up: Card | None = None, stock_top: Sequence[Card] = ()) -> tuple[Card, ...]:
    """The deck as it must lie *after* the cut to give the wanted deal.

    ``hands`` maps a seat to up to seven cards, in the order that seat should
    receive them; missing cards are filled in.
    """
    wanted: list[Card] = [c for hand in hands.values() for c in hand]
    if up is not None:
        wanted.append(up)
    wanted.extend(stock_top)
    if len(set(wanted)) != len(wanted):
        raise ValueError("a rigged deal names some card twice")
    if any(len(hand) > HAND for hand in hands.values()):
        raise ValueError("a hand has at most seven cards")
    named = set(wanted)
    spare = iter([c for c in DECK if c not in named])
    received = dict.fromkeys(range(num_players), 0)
    deck: list[Card] = []
    for seat in deal_positions(dealer, num_players):
        own = hands.get(seat, ())
        k = received[seat]
        deck.append(own[k] if k < len(own) else next(spare))
        received[seat] = k + 1
    deck.append(up if up is not None else next(spare))
    deck.extend(stock_top)
    deck.extend(spare)
    assert len(deck) == DECK_SIZE
    return tuple(deck)


def uncut(deck: Sequence[Card], count: int) -> tuple[Card, ...]:
    """The order before a cut of ``count`` cards that leaves ``deck`` after it.

    Cutting lifts the top ``count`` cards and puts them underneath, so the
    pre-cut order starts with the last ``count`` cards of ``deck``.
    """
    items = tuple(deck)
    split = len(items) - count
    return items[split:] + items[:split]


def rigged_order(dealer: int, num_players: int, hands: Mapping[int, Sequence[Card]],
                 up: Card | None = None, stock_top: Sequence[Card] = (),
                 cut: int = 1) -> tuple[Card, ...]:
    """The ``Shuffle`` order that, cut at ``cut``, deals ``hands``, ``up`` and ``stock_top``."""
    return uncut(rigged_deck(dealer, num_players, hands, up, stock_top), cut)


def deal_round(state: GameState, hands: Mapping[int, Sequence[Card]], up: Card | None = None,
               stock_top: Sequence[Card] = (), cut: int = 17) -> GameState:
    """Shuffle and cut a state in the SHUFFLE phase so that the rigged deal comes out."""
    assert state.phase is Phase.SHUFFLE
    assert state.dealer is not None
    order = rigged_order(state.dealer, state.num_players, hands, up, stock_top, cut)
    state = apply(state, Shuffle(order))
    return apply(state, Cut(cut))


def start(num_players: int, dealer: int, hands: Mapping[int, Sequence[Card]],
          up: Card | None = None, stock_top: Sequence[Card] = (), *, ante: int = 1,
          rounds: int | None = None, cut: int = 17) -> GameState:
    """A new game with ``dealer`` chosen and the rigged deal made (phase DRAW)."""
    state = apply(new_game(num_players, ante=ante, rounds=rounds), ChooseDealer(dealer))
    return deal_round(state, hands, up, stock_top, cut)


def idle_turn(state: GameState) -> GameState:
    """A turn that changes no hand: take the top discard and throw it back."""
    assert state.phase is Phase.DRAW
    card = state.discard[-1]
    return apply(apply(state, DrawDiscard()), Discard(card))


def idle_until_split(state: GameState) -> GameState:
    """Idle turns until every player has had six (DB-35); the stock is untouched."""
    while state.phase is Phase.DRAW:
        state = idle_turn(state)
    assert state.phase is Phase.SPLIT
    return state


def hand_of(down: str, back: str) -> tuple[Card, ...]:
    """The seven cards of a split written as two strings."""
    return cards(down) + cards(back)


def showdown_round(state: GameState, chosen: Mapping[int, tuple[str, str]],
                   up: Card | None = None, stock_top: Sequence[Card] = (),
                   cut: int = 17) -> GameState:
    """Play one whole round from the SHUFFLE phase.

    ``chosen`` gives every seat's split as ``(down, back)`` card strings; the
    seat is dealt exactly those seven cards, takes six idle turns and then
    submits that split.  Returns the state after the showdown.
    """
    assert set(chosen) == set(range(state.num_players)), "name every seat's split"
    hands = {seat: hand_of(down, back) for seat, (down, back) in chosen.items()}
    state = idle_until_split(deal_round(state, hands, up, stock_top, cut))
    for seat in sorted(chosen):
        down, back = chosen[seat]
        state = apply(state, Split(cards(down), cards(back)), seat=seat)
    return state


def stock_turn(state: GameState) -> GameState:
    state = apply(state, DrawStock())
    assert state.drawn is not None
    return apply(state, Discard(state.drawn))


def paused_showdown() -> GameState:
    """Five players, dealer 0; seats 2 and 4 tie for the down (DB-41) and the
    stock runs out during their tie-break (DB-42), so the showdown pauses for a
    reshuffle (DB-36) with every split revealed and 8C on the table."""
    chosen = {2: ("QS QH 9S 9H", "2S 3H 5D"), 4: ("QD QC 9D 9C", "KS KH KD"),
              1: ("4D 6S 8H TD", "2C 3S 6H"), 3: ("4H 6D 8S TC", "2D 3C 7H"),
              0: ("4S 6C 8D TH", "2H 3D 7S")}
    finale = cards("5S 5H 8C")
    used = {c for split in chosen.values() for c in hand_of(*split)} | set(finale)
    rest = [c for c in DECK if c not in used]
    return split_into_a_pause(chosen, rest[0], (*rest[1:], *finale))


def split_into_a_pause(chosen: dict[int, tuple[str, str]], discard: Card,
                        stock: tuple[Card, ...]) -> GameState:
    """A one-round game of five, dealer 0, dealt ``chosen`` (each seat's down
    and back), ``discard`` face up and ``stock``: thirteen turns draw from the
    stock and throw the card drawn, the rest idle to the showdown, every seat
    splits as chosen (DB-40), and the tie-break pauses for a reshuffle."""
    hands = {seat: hand_of(*split) for seat, split in chosen.items()}
    state = start(5, 0, hands, discard, stock, rounds=1)
    for _ in range(13):
        state = stock_turn(state)
    state = idle_until_split(state)
    for seat, (down, back) in chosen.items():
        state = apply(state, Split(cards(down), cards(back)), seat=seat)
    assert state.phase is Phase.RESHUFFLE
    assert state.showdown is not None
    return state


def paused_twice() -> GameState:
    """Five players, dealer 0; seats 2 and 4 tie for the down (DB-41).  The 17
    cards outside the hands are eight pairs of ranks and an ace, so the
    tie-break (DB-42) empties the stock, pauses for a reshuffle (DB-36),
    goes on tying through the whole new stock and pauses a second time."""
    chosen = {2: ("QS QH 9S 9H", "2D 3C 4D"), 4: ("QD QC 9D 9C", "KS KH KD"),
              1: ("4C 6D 8H TD", "2C 3D 5D"), 3: ("5C 7D 8D TC", "6C JD AH"),
              0: ("7C TS JC KC", "TH AD AC")}
    fillers = cards("2S 2H 3S 3H 4S 4H 6S 6H 7S 7H 8S JS JH")
    state = split_into_a_pause(chosen, parse_card("AS"), (*fillers, *cards("5S 5H 8C")))
    assert state.showdown is not None
    assert [d.card for d in state.showdown.drawn] == [parse_card("8C")]
    assert len(state.discard) == 16
    # The new up card is AS; seat 4 ties seat 2's 8C with 8S, then seven more
    # passes tie until the new stock is gone.
    order = cards("AS 8S 2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S 7H JS JH")
    assert set(order) == set(state.discard)
    state = apply(state, Shuffle(order))
    assert state.phase is Phase.RESHUFFLE
    assert state.showdown is not None
    assert [d.card for d in state.showdown.drawn] == list(cards("JS JH"))
    assert state.stock == ()
    return state


def greedy_until(phase: Phase, *, players: int, seed: int, turn: int = 0,
                 rounds: int = 3) -> GameState:
    """A game of greedy bots (chance drawn from ``seed``) played until
    ``phase``, and at least ``turn`` turns into it."""
    rng = random.Random(seed)
    bots = [GreedyBot(seed=s) for s in range(players)]
    state = new_game(players, rounds=rounds)
    while not (state.phase is phase and state.turn >= turn):
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
        else:
            seat = state.current_player
            assert seat is not None
            state = apply(state, bots[seat].act(view(state, seat), legal_actions(state)))
    return state
