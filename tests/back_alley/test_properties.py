"""Random Back Alley games, checked at every step (BA-1 .. BA-50).

Hypothesis picks a seed and a game length (the ``max_hand_size`` setting, 13
for the full 25 deals); a ``random.Random(seed)`` samples the chance events
and picks uniformly among the legal actions.  At every state the tests check:

* all 54 cards are accounted for, each in exactly one place;
* whoever must act has a legal action, every legal action is accepted, and
  illegal ones are refused with IllegalActionError and change nothing;
* the state survives a JSON round trip;
* views leak nothing (BA-50): re-dealing what a seat cannot see leaves its
  view unchanged, and no hidden card appears anywhere in the view or its JSON;
* after every deal, each team's score changes as BA-40 to BA-42 say, from
  contracts recomputed here from the bids (BA-23, BA-24).

Separately, thirty seeded full games run through the engine and the
independent reference implementation (``tests/support/references/back_alley.py``) side by side,
comparing the legal actions at every step and the results after every deal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import Card, IllegalActionError, Joker
from cardrules.back_alley import (
    RULES,
    Action,
    Bid,
    Board,
    ChooseDealer,
    Contract,
    DealResult,
    GameState,
    Pass,
    Phase,
    Play,
    Shuffle,
    View,
    apply,
    legal_actions,
    new_game,
    state_to_dict,
    view,
    view_to_dict,
)
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.checks import check_invariants
from cardrules.back_alley.determinization import hidden_variant, known_absent
from support.gamecheck import cards_within, check_json, check_who_acts, choose
from support.references.back_alley import RefGame

AnyCard = Card | Joker
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=1, max_value=7)


def play(max_hand_size: int, seed: int) -> Iterator[tuple[GameState, Action | None]]:
    """Each state of a random game with the action taken from it (None at the end)."""
    rng = random.Random(seed)
    state = new_game(max_hand_size=max_hand_size)
    while not state.is_terminal:
        action = choose(RULES, state, rng)
        yield state, action
        state = apply(state, action)
    yield state, None


# -- the checks ------------------------------------------------------------------------

def placed_cards(state: GameState) -> list[AnyCard]:
    """Every card the deal has put somewhere, read through the public API."""
    if state.deal is None:
        return []
    out: list[AnyCard] = [c for hand in state.hands for c in hand]
    out += [c for trick in state.tricks for c in trick.cards]
    out += [*state.trick, *state.undealt]
    out.append(state.deal.trump_card)
    if state.deal.joker_discard is not None:
        out.append(state.deal.joker_discard)
    return out


def check_cards(state: GameState) -> None:
    cards = placed_cards(state)
    if state.phase in (Phase.BID, Phase.PLAY):
        assert len(cards) == 54
        assert set(cards) == set(CARDS)
        played = sum(len(t.cards) for t in state.tricks) + len(state.trick)
        assert sum(len(h) for h in state.hands) == 4 * state.hand_size - played
    else:
        assert cards == []
        assert not any(state.hands)


def illegal_actions(state: GameState) -> Iterator[tuple[Action, int | None]]:
    """Actions (with the acting seat) that the rules must refuse in ``state``."""
    yield ChooseDealer(4), None
    yield Shuffle(CARDS[:52]), None
    actor = state.current_player
    if state.is_chance or state.is_terminal:
        yield Pass(), None
        yield Play(CARDS[0]), None
        return
    assert actor is not None
    yield ChooseDealer(0), None
    yield Shuffle(CARDS), None
    held = set(state.hands[actor])
    yield Play(next(c for c in CARDS if c not in held)), None
    if state.phase is Phase.BID:
        yield Bid(state.hand_size), None
        yield Play(state.hands[actor][0]), None
        yield Pass(), (actor + 1) % 4
    else:
        yield Pass(), None
        yield Board(), None
        legal = set(legal_actions(state))
        for c in state.hands[actor]:
            if Play(c) not in legal:
                yield Play(c), None
        yield legal_actions(state)[0], (actor + 3) % 4


def check_actions(state: GameState) -> int:
    """Every legal action is accepted; the illegal ones are refused; nothing changes."""
    before = json.dumps(state_to_dict(state))
    same = hash(state)
    for action in legal_actions(state):
        apply(state, action, seat=state.current_player)
    refusals = 0
    for action, seat in illegal_actions(state):
        with pytest.raises(IllegalActionError) as info:
            apply(state, action, seat=seat)
        assert info.value.rule.startswith("BA-")
        refusals += 1
    assert hash(state) == same
    assert json.dumps(state_to_dict(state)) == before
    return refusals


def hidden_cards(state: GameState, seat: int) -> set[AnyCard]:
    """What ``seat`` must not see (BA-50): other hands and the undealt cards."""
    hidden = set(state.undealt)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(hand)
    if state.deal is not None and state.deal.exchanger not in (None, seat):
        assert state.deal.taken is not None
        hidden.add(state.deal.taken)   # private even once played
    return hidden


def visible_cards(seat_view: View) -> set[AnyCard]:
    """Cards a view shows about the present deal (finished deals are public record)."""
    shown: set[AnyCard] = set()
    for field in attrs.fields(View):
        if field.name not in ("results", "taken", "tricks"):
            shown |= set(cards_within(getattr(seat_view, field.name), jokers=True))
    return shown


def check_views(state: GameState, rng: random.Random) -> None:
    played = {c for t in state.tricks for c in t.cards} | set(state.trick)
    for seat in range(4):
        seat_view = view(state, seat)
        assert view(hidden_variant(state, seat, rng), seat) == seat_view
        hidden = hidden_cards(state, seat) - played   # a played card is public
        leaked = visible_cards(seat_view) & hidden
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))}"
        data = view_to_dict(seat_view)
        del data["results"]   # finished deals are public record
        text = json.dumps(data)
        for card in hidden:
            assert f'"{card}"' not in text, f"seat {seat}'s view JSON shows {card}"
        assert seat_view.hand == state.hands[seat]


def expected_contract(result: DealResult, team: int) -> Contract:
    """BA-23 and BA-24 recomputed from the bids, independently of the engine."""
    order = [(result.dealer + k) % 4 for k in range(1, 5)]
    level, levels = 0, {}
    for seat in order:
        if isinstance(result.bids[seat], Board):
            level += 1
            levels[seat] = level
    mine = [levels[s] for s in (team, team + 2) if s in levels]
    if mine:
        return Contract(board=max(mine))
    return Contract(tricks=sum(b.tricks for s in (team, team + 2)
                               if isinstance(b := result.bids[s], Bid)))


def expected_points(contract: Contract, tricks: int, size: int) -> int:
    if contract.board:
        return (1 if tricks == size else -1) * 10 * size * contract.board
    bid = contract.tricks
    return 5 * bid + tricks - bid if tricks >= bid else -5 * bid


def check_scoring(before: GameState, after: GameState) -> None:
    """A deal just ended: the score change follows BA-40 to BA-42."""
    if len(after.results) == len(before.results):
        assert after.scores == before.scores
        return
    result = after.results[-1]
    assert result.bids == before.bids
    won = before.tricks_won
    # the last trick's winner is in the new result but not yet in ``before``
    assert sum(result.tricks) == result.hand_size
    assert result.tricks[0] >= won[0] + won[2]
    assert result.tricks[1] >= won[1] + won[3]
    for team in (0, 1):
        contract = expected_contract(result, team)
        assert result.contracts[team] == contract
        points = expected_points(contract, result.tricks[team], result.hand_size)
        assert result.points[team] == points
        assert after.scores[team] - before.scores[team] == points


def check_transition(before: GameState, action: Action, after: GameState) -> None:
    check_scoring(before, after)
    if isinstance(action, Play) and after.phase is Phase.PLAY and after.trick:
        assert after.trick[-1] == action.card
        assert after.current_player == ((before.current_player or 0) + 1) % 4
    if isinstance(action, Pass | Bid | Board) and after.phase is Phase.BID:
        assert after.current_player == ((before.current_player or 0) + 1) % 4
    if after.phase is Phase.SHUFFLE and before.phase is Phase.BID:   # BA-25
        assert all(isinstance(b, Pass) for b in (*before.bids[:], action) if b is not None)
        assert after.deal_number == before.deal_number
        assert after.dealer == ((before.dealer or 0) + 1) % 4


def run_game(max_hand_size: int, seed: int) -> GameState:
    view_rng = random.Random(seed ^ 0x5EED)
    refusals = 0
    previous: tuple[GameState, Action] | None = None
    state = new_game(max_hand_size=max_hand_size)
    for state, action in play(max_hand_size, seed):
        check_invariants(state)
        check_cards(state)
        check_who_acts(RULES, state)
        refusals += check_actions(state)
        check_json(RULES, state)
        check_views(state, view_rng)
        if previous is not None:
            check_transition(previous[0], previous[1], state)
        if action is not None:
            previous = (state, action)
    assert state.is_terminal
    assert len(state.results) == 2 * max_hand_size - 1
    assert refusals > 0
    return state


# -- the properties --------------------------------------------------------------------

@settings(max_examples=12)
@given(seed=SEEDS, max_hand_size=SIZES)
def test_random_games_keep_every_promise(seed: int, max_hand_size: int) -> None:
    final = run_game(max_hand_size, seed)
    assert final.scores == tuple(sum(r.points[t] for r in final.results) for t in (0, 1))
    winner = final.winner
    if final.scores[0] == final.scores[1]:
        assert winner is None
    else:
        assert winner == (0 if final.scores[0] > final.scores[1] else 1)


@settings(max_examples=2)
@given(seed=SEEDS)
def test_random_full_games_keep_every_promise(seed: int) -> None:
    final = run_game(13, seed)
    assert [r.hand_size for r in final.results] == [*range(13, 0, -1), *range(2, 14)]


@settings(max_examples=20)
@given(seed=SEEDS, max_hand_size=SIZES)
def test_same_seed_same_game_and_replays_match(seed: int, max_hand_size: int) -> None:
    first = list(play(max_hand_size, seed))
    again = list(play(max_hand_size, seed))
    assert first == again
    state = new_game(max_hand_size=max_hand_size)
    for (expected, _), (_, action) in zip(first[1:], first[:-1], strict=True):
        assert action is not None
        state = apply(state, action)
        assert state == expected


@settings(max_examples=25)
@given(seed=SEEDS, steps=st.integers(min_value=2, max_value=400))
def test_hidden_variant_moves_only_hidden_cards(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = new_game()
    for _ in range(steps):
        if state.is_terminal:
            break
        state = apply(state, choose(RULES, state, rng))
    absent = known_absent(state)
    for seat in range(4):
        hidden = hidden_cards(state, seat)
        variants = [hidden_variant(state, seat, random.Random(k)) for k in range(6)]
        for variant in variants:
            check_invariants(variant)
            assert variant.hands[seat] == state.hands[seat]
            assert view(variant, seat) == view(state, seat)
            assert (variant.bids, variant.tricks, variant.trick) == (
                state.bids, state.tricks, state.trick)
            for other in range(4):
                assert len(variant.hands[other]) == len(state.hands[other])
                moved = set(variant.hands[other]) ^ set(state.hands[other])
                assert moved <= hidden
                assert not {c.index for c in variant.hands[other]} & absent[other]
            assert set(variant.undealt) <= hidden | set(state.undealt)
        if (state.phase is Phase.BID and len(hidden) > 1):
            assert any(v != state for v in variants), "nothing hidden was ever re-dealt"


def test_leak_check_notices_a_leaky_view() -> None:
    rng = random.Random(1)
    state = new_game()
    while state.phase is not Phase.BID:
        state = apply(state, choose(RULES, state, rng))
    honest = view(state, 0)
    assert visible_cards(honest) & hidden_cards(state, 0) == set()
    secret = state.hands[1][0]
    for leaky in (attrs.evolve(honest, hand=state.hands[1]),
                  attrs.evolve(honest, trick=(secret,)),
                  attrs.evolve(honest, trump_card=state.undealt[0])):
        assert visible_cards(leaky) & hidden_cards(state, 0)


# -- the reference implementation ------------------------------------------------------

def contract_text(contract: Contract) -> int | str:
    return f"board{contract.board}" if contract.board else contract.tricks


@pytest.mark.parametrize("seed", range(30))
def test_engine_matches_the_reference_implementation(seed: int) -> None:
    rng = random.Random(1000 + seed)
    state = new_game()
    ref = RefGame()
    steps = 0
    while not state.is_terminal:
        legal = legal_actions(state)
        assert {str(a) for a in legal} == ref.legal(), f"step {steps}"
        assert len(legal) == len(ref.legal())
        assert state.current_player == ref.current_player
        action = choose(RULES, state, rng)
        state = apply(state, action)
        ref.act(str(action))
        steps += 1
        assert state.phase.value[:4] == {"dealer": "choo", "over": "game"}.get(
            ref.phase, ref.phase[:4])
        assert list(state.scores) == ref.scores
        if ref.phase in ("bid", "play"):
            assert state.trump_card is not None
            assert str(state.trump_card) == ref.trump_card
            assert [set(map(str, h)) for h in state.hands] == ref.hands
            assert state.dealer == ref.dealer
        assert len(state.results) == len(ref.deal_results)
        if state.results:
            mine, theirs = state.results[-1], ref.deal_results[-1]
            assert mine.deal_number == theirs["deal"]
            assert mine.hand_size == theirs["hand_size"]
            assert mine.dealer == theirs["dealer"]
            assert [contract_text(c) for c in mine.contracts] == theirs["contracts"]
            assert list(mine.tricks) == theirs["tricks"]
            assert list(mine.points) == theirs["points"]
    assert ref.phase == "over"
    assert state.winner == ref.winner
    assert state.history.throw_ins == 0
    assert sum(r.throw_ins for r in state.results) == ref.throw_ins
