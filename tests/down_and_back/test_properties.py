"""Random Down and Back games, checked at every step (DB-30 .. DB-44).

Hypothesis picks a seed, a table size and a number of rounds; the game is
then played by a ``random.Random(seed)`` that samples the chance events and
picks uniformly among the legal actions.  At every state the tests check:

* every one of the 52 cards is in exactly one place;
* money is conserved: ``sum(net) + pot == 0``;
* whoever must act has a legal action, and nobody acts at a chance point;
* illegal actions are refused with IllegalActionError and change nothing;
* the state survives a JSON round trip;
* views leak nothing (two ways: re-dealing what a seat cannot see leaves its
  view unchanged, and no hidden card appears anywhere in the view);
* the same seed and actions give the same game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules.down_and_back as db
from cardrules import DECK, Card, Hand, IllegalActionError
from cardrules.down_and_back import (
    Action,
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Phase,
    Shuffle,
    Split,
    View,
    apply,
    legal_actions,
    new_game,
    sample_chance,
    state_to_dict,
    view,
)
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.determinization import hidden_variant
from cardrules.engine import check_game
from support.gamecheck import cards_within, check_json, check_who_acts

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=5)
ROUNDS = st.integers(min_value=1, max_value=2)


def choose(state: GameState, rng: random.Random) -> Action:
    """The next action of a random game: sampled chance, or a uniform legal action."""
    if state.is_chance:
        return sample_chance(state, rng)
    return rng.choice(legal_actions(state))


def play(num_players: int, rounds: int, seed: int) -> Iterator[tuple[GameState, Action | None]]:
    """Yield each state of a random game with the action taken from it (None at the end)."""
    rng = random.Random(seed)
    state = new_game(num_players, rounds=rounds)
    while not state.is_terminal:
        action = choose(state, rng)
        yield state, action
        state = apply(state, action)
    yield state, None


# -- the checks ------------------------------------------------------------------


def all_cards(state: GameState) -> list[Card]:
    table = [d.card for d in state.showdown.drawn] if state.showdown is not None else []
    return [*(c for hand in state.hands for c in hand), *state.stock, *state.discard, *table]


def check_cards_and_money(state: GameState) -> None:
    cards = all_cards(state)
    assert len(cards) == 52
    assert set(cards) == set(DECK)
    assert sum(state.net) + state.pot == 0
    assert state.pot >= 0


def illegal_actions(state: GameState) -> Iterator[tuple[Action, int | None]]:
    """Actions (with the acting seat) that the rules must refuse in ``state``."""
    n = state.num_players
    yield Cut(0), None
    yield Cut(52), None
    yield ChooseDealer(n), None
    yield Shuffle(DECK[:10]), None
    actor = state.current_player
    if state.is_chance or state.is_terminal:
        yield DrawStock(), None
        yield Discard(DECK[0]), 0
        return
    assert actor is not None
    held = set(state.hands[actor])
    yield Discard(next(c for c in DECK if c not in held)), None
    if state.phase is Phase.CUT:
        yield DrawStock(), None
        yield Discard(DECK[0]), None
    if state.phase is Phase.DRAW:
        yield Discard(state.hands[actor][0]), None
        yield Split(state.hands[actor][:4], state.hands[actor][4:]), None
    if state.phase is Phase.DISCARD:
        yield DrawStock(), None
        yield DrawDiscard(), None
    if state.phase in (Phase.CUT, Phase.DRAW, Phase.DISCARD):
        yield DrawStock(), (actor + 1) % n   # out of turn
    if state.phase is Phase.SPLIT:
        yield DrawStock(), None
        hand = state.hands[actor]
        yield Split(hand[:3], hand[3:]), None
        for seat, split in enumerate(state.splits):
            if split is not None:
                yield Split(state.hands[seat][:4], state.hands[seat][4:]), seat


def check_refusals(state: GameState) -> int:
    copied = copy.deepcopy(state)
    before = state_to_dict(state)
    refusals = 0
    for action, seat in illegal_actions(state):
        with pytest.raises(IllegalActionError) as info:
            apply(state, action, seat=seat)
        assert info.value.rule.startswith("DB-")
        assert state == copied
        assert state_to_dict(state) == before
        refusals += 1
    return refusals


def hidden_cards(state: GameState, seat: int) -> set[Card]:
    """Cards ``seat`` must not be able to see: the stock, and the other hands
    apart from cards seen taken from the discard pile (until splits are revealed)."""
    hidden = set(state.stock)
    if not all(s is not None for s in state.splits):
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden |= set(hand) - set(state.seen[other])
    return hidden


def visible_cards(seat_view: View) -> set[Card]:
    """Cards a view shows about the present deal (finished rounds and the
    history of tie-break draws are public record, so they are left out)."""
    shown: set[Card] = set()
    for field in attrs.fields(View):
        if field.name in ("results", "showdown"):
            continue
        shown |= set(cards_within(getattr(seat_view, field.name)))
    if seat_view.showdown is not None:
        shown |= {d.card for d in seat_view.showdown.drawn}
    return shown


def check_views(state: GameState, rng: random.Random) -> None:
    for seat in range(state.num_players):
        seat_view = view(state, seat)
        assert view(hidden_variant(state, seat, rng), seat) == seat_view
        leaked = visible_cards(seat_view) & hidden_cards(state, seat)
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))}"
        assert seat_view.hand == state.hands[seat]
        if seat_view.drawn is not None:   # only the drawer sees the card drawn this turn
            assert seat_view.drawn == state.drawn
            assert state.drawn in state.hands[seat]


def check_turn_order(before: GameState, action: Action, after: GameState) -> None:
    if isinstance(action, Discard) and after.phase is Phase.DRAW:
        assert before.current_player is not None
        assert after.current_player == (before.current_player + 1) % before.num_players
        assert after.discard[-1] == action.card
    if isinstance(action, DrawStock) and before.stock:
        assert after.drawn == before.stock[0]
    if isinstance(action, DrawDiscard):
        assert after.drawn == before.discard[-1]
        assert after.current_player is not None
        assert after.drawn in after.seen[after.current_player]


# -- the properties --------------------------------------------------------------


@settings(max_examples=25)
@given(seed=SEEDS, num_players=PLAYERS, rounds=ROUNDS)
def test_random_games_keep_every_promise(seed: int, num_players: int, rounds: int) -> None:
    view_rng = random.Random(seed ^ 0x5EED)
    actions: list[Action] = []
    states: list[GameState] = []
    refusals = 0
    for state, action in play(num_players, rounds, seed):
        check_cards_and_money(state)
        check_invariants(state)
        check_who_acts(db.RULES, state)
        refusals += check_refusals(state)
        check_json(db.RULES, state)
        check_views(state, view_rng)
        if states:
            check_turn_order(states[-1], actions[-1], state)
        states.append(state)
        if action is not None:
            actions.append(action)
    final = states[-1]
    assert final.is_terminal
    assert len(final.results) == rounds
    assert refusals > 0
    # Same actions from the same start: the same game, state by state.
    replayed = new_game(num_players, rounds=rounds)
    assert replayed == states[0]
    for k, action in enumerate(actions, start=1):
        replayed = apply(replayed, action)
        assert replayed == states[k]
    # Same seed: the same actions and states again.
    again = list(play(num_players, rounds, seed))
    assert [s for s, _ in again] == states
    assert [a for _, a in again[:-1]] == actions


@settings(max_examples=25)
@given(seed=SEEDS, num_players=PLAYERS)
def test_any_waiting_seat_may_split_in_any_order(seed: int, num_players: int) -> None:
    rng = random.Random(seed)
    state = new_game(num_players, rounds=1)
    while state.phase is not Phase.SPLIT:
        state = apply(state, choose(state, rng))
    pending = list(range(num_players))
    rng.shuffle(pending)
    chosen: dict[int, Split] = {}
    while pending:
        seat = pending.pop()
        hand = sorted(state.hands[seat])
        rng.shuffle(hand)
        split = Split(hand[:4], hand[4:])
        chosen[seat] = split
        state = apply(state, split, seat=seat)
        if pending:
            assert state.phase is Phase.SPLIT
            for other in range(num_players):
                assert view(state, other).splits == tuple(
                    chosen.get(s) if s == other else None for s in range(num_players))
    assert state.is_terminal or state.phase is Phase.RESHUFFLE
    if state.phase is Phase.RESHUFFLE:   # a tie-break ran out of stock; finish it
        while not state.is_terminal:
            state = apply(state, choose(state, rng))
    assert state.results[0].splits == tuple(chosen[s] for s in range(num_players))


@settings(max_examples=25)
@given(seed=SEEDS)
def test_five_players_drawing_only_from_the_stock_always_reshuffle(seed: int) -> None:
    # Sixteen cards are left in the stock after a five-player deal and there are
    # thirty turns, so a table that always draws from the stock must reshuffle.
    rng = random.Random(seed)
    view_rng = random.Random(seed + 1)
    state = new_game(5, rounds=1)
    reshuffles = 0
    while state.phase is not Phase.SPLIT:
        check_views(state, view_rng)
        check_cards_and_money(state)
        if state.phase is Phase.RESHUFFLE:
            pile = state.discard
            action = sample_chance(state, rng)
            assert isinstance(action, Shuffle)
            assert len(action.order) == len(pile)
            assert set(action.order) == set(pile)
            state = apply(state, action)
            assert state.discard == action.order[:1]
            assert state.stock == action.order[1:]
            reshuffles += 1
        elif state.phase is Phase.DRAW:
            state = apply(state, DrawStock())
        else:
            state = apply(state, choose(state, rng))
    assert reshuffles >= 1
    assert state.turns == (6,) * 5


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_conformance_check_passes(num_players: int) -> None:
    report = check_game(db, games=2, seed=100 + num_players,
                        settings={"num_players": num_players, "rounds": 2})
    assert report.games == 2
    assert report.actions > 0
    assert report.refused > 0


@settings(max_examples=25)
@given(seed=SEEDS, num_players=PLAYERS, steps=st.integers(min_value=3, max_value=80))
def test_hidden_variant_moves_only_hidden_cards(seed: int, num_players: int, steps: int) -> None:
    rng = random.Random(seed)
    state = new_game(num_players)
    for _ in range(steps):
        state = apply(state, choose(state, rng))
    for seat in range(num_players):
        hidden = hidden_cards(state, seat)
        variants = [hidden_variant(state, seat, random.Random(k)) for k in range(8)]
        for variant in variants:
            check_invariants(variant)
            assert variant.hands[seat] == state.hands[seat]
            assert variant.discard == state.discard
            assert variant.seen == state.seen
            assert variant.net == state.net
            assert variant.pot == state.pot
            for other in range(num_players):
                assert len(variant.hands[other]) == len(state.hands[other])
                moved = set(variant.hands[other]) ^ set(state.hands[other])
                assert moved <= hidden
            assert set(variant.stock) <= hidden
        if len(hidden) > 1 and state.phase not in (Phase.SHUFFLE, Phase.CHOOSE_DEALER,
                                                Phase.GAME_OVER):
            assert any(v != state for v in variants), "nothing hidden was ever re-dealt"


def test_leak_check_notices_a_leaky_view() -> None:
    # The direct leak check must flag a view that shows another player's card
    # or the top of the stock.
    rng = random.Random(1)
    state = new_game(3)
    while state.phase is not Phase.DRAW:
        state = apply(state, choose(state, rng))
    honest = view(state, 0)
    assert visible_cards(honest) & hidden_cards(state, 0) == set()
    assert set(honest.hand) <= visible_cards(honest)
    secret = state.hands[1][0]
    for leaky in (attrs.evolve(honest, hand=Hand((*honest.hand, secret))),
                  attrs.evolve(honest, discard=(*honest.discard, state.stock[0])),
                  attrs.evolve(honest, drawn=secret),
                  attrs.evolve(honest, splits=(None, Split(state.hands[1][:4],
                                                          state.hands[1][4:]), None))):
        assert visible_cards(leaky) & hidden_cards(state, 0)
