"""Back Alley action numbers and observation tensors (cardrules.back_alley.encoding).

Numbers: a bijection between the legal actions of any state and their ids
(BA-21, BA-31 to BA-33), the documented table, and the errors for ids that
are out of range or not legal now.  Tensors: the documented layout, and no
hidden card (BA-50) reaches a seat's tensor or string: states that differ
only in what the seat cannot see (``hidden_variant``) encode alike.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import IllegalActionError, Joker, parse_card
from cardrules.back_alley import (
    RULES,
    Bid,
    Board,
    ChooseDealer,
    GameState,
    Pass,
    Phase,
    Play,
    Shuffle,
    apply,
    encoding,
    legal_actions,
    new_game,
    sample_chance,
    view,
)
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.determinization import hidden_variant
from cardrules.back_alley.encoding import (
    NUM_ACTIONS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    action_from_id,
    action_id,
    legal_action_ids,
    legal_actions_with_ids,
    observation_string,
    observation_tensor,
)
from support import ROOT
from support.ba_deals import dealt, random_game, then
from support.gamecheck import documented_layout, layout_part, state_after

DOCS = ROOT / "docs"
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=1, max_value=13)


def random_state(max_hand_size: int, steps: int, seed: int) -> GameState:
    """The state after ``steps`` random actions (chance sampled) of a short game."""
    return state_after(RULES, {"max_hand_size": max_hand_size}, steps, seed)


def bidding(max_hand_size: int = 3) -> GameState:
    """The first bid of a deal from an unshuffled pack, dealer seat 0."""
    return apply(apply(new_game(max_hand_size=max_hand_size), ChooseDealer(0)), Shuffle(CARDS))


def check_numbers(state: GameState, illegal: list[int]) -> None:
    """The legal actions and their ids match one to one; ``illegal`` ids are refused."""
    actions = legal_actions(state)
    ids = [action_id(action) for action in actions]
    assert len(set(ids)) == len(ids) == len(actions)
    assert all(0 <= number < NUM_ACTIONS for number in ids)
    assert tuple(sorted(ids)) == legal_action_ids(state)
    # the reducer lists its actions in the order of their numbers, and the
    # adapters' shortcut gives both at once
    assert legal_actions_with_ids(state) == (tuple(ids), actions)
    for action, number in zip(actions, ids, strict=True):
        assert action_from_id(state, number) == action
        assert action_id(action, state) == number
    for number in illegal:
        if number not in ids:
            with pytest.raises(IllegalActionError):
                action_from_id(state, number)


def part(tensor: np.ndarray, name: str) -> np.ndarray:
    """The slice ``name`` of a tensor, by :data:`OBSERVATION_LAYOUT`."""
    return layout_part(OBSERVATION_LAYOUT, tensor, name)


# -- numbers ------------------------------------------------------------------------


def test_the_numbering_table() -> None:
    assert NUM_ACTIONS == 68
    assert action_id(Pass()) == 0
    assert [action_id(Bid(n)) for n in range(1, 13)] == list(range(1, 13))
    assert action_id(Board()) == 13
    assert action_id(Play(parse_card("AS"))) == 14
    assert action_id(Play(parse_card("KC"))) == 65
    assert action_id(Play(Joker.BIG)) == 66
    assert action_id(Play(Joker.LITTLE)) == 67
    assert [action_id(Play(card)) for card in CARDS] == \
        list(range(14, 68))


def test_chance_actions_and_impossible_bids_have_no_number() -> None:
    for action in (ChooseDealer(1), Shuffle(CARDS), Bid(13), Bid(40)):
        with pytest.raises(ValueError, match="no number"):
            action_id(action)
    with pytest.raises(TypeError, match="not a Back Alley action"):
        action_id("pass")  # type: ignore[arg-type]


def test_ids_out_of_range_or_of_the_wrong_type_are_refused() -> None:
    state = bidding()
    for number in (-1, NUM_ACTIONS, 1000):
        with pytest.raises(ValueError, match="action ids are 0 to 67") as caught:
            action_from_id(state, number)
        assert not isinstance(caught.value, IllegalActionError)
    wrong: list[object] = [False, 0.0, "0", None]
    for value in wrong:
        with pytest.raises(TypeError, match="an action id is an int"):
            action_from_id(state, value)  # type: ignore[arg-type]
    assert action_from_id(state, np.int32(13)) == Board()


def test_illegal_ids_name_the_rule() -> None:
    state = bidding(3)
    assert legal_action_ids(state) == (0, 1, 2, 13)
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(state, 3)   # bid 3 with 3 cards
    assert caught.value.rule == "BA-21"
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(state, 14)   # a play while bidding
    assert caught.value.rule.startswith("BA-2")
    with pytest.raises(IllegalActionError) as caught:
        action_id(Bid(3), state)
    assert caught.value.rule == "BA-21"
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(new_game(), 0)   # before the first dealer is chosen
    assert caught.value.rule == "BA-11"


def test_the_one_card_deal_bids_pass_or_board() -> None:
    state = bidding(1)
    assert legal_action_ids(state) == (0, 13)
    with pytest.raises(IllegalActionError):
        action_from_id(state, 1)


def test_plays_must_follow_suit() -> None:
    rng = random.Random(2)
    state = bidding(5)
    while state.phase is Phase.BID:
        state = apply(state, Bid(1))
    state = apply(state, rng.choice(legal_actions(state)))
    seat = state.current_player
    assert seat is not None
    legal = set(legal_action_ids(state))
    held = {14 + card.index for card in state.hands[seat]}
    assert legal <= held
    for number in held - legal:  # cards held but not allowed (BA-31)
        with pytest.raises(IllegalActionError):
            action_from_id(state, number)


@settings(max_examples=40)
@given(seed=SEEDS, size=SIZES, steps=st.integers(min_value=0, max_value=120))
def test_ids_are_a_bijection_on_legal_actions(seed: int, size: int, steps: int) -> None:
    state = random_state(size, steps, seed)
    check_numbers(state, random.Random(seed).sample(range(NUM_ACTIONS), 12))


def test_every_state_of_a_whole_game_numbers_its_actions() -> None:
    rng = random.Random(7)
    state = new_game(max_hand_size=4)
    phases = set()
    while not state.is_terminal:
        phases.add(state.phase)
        check_numbers(state, [])
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    assert legal_action_ids(state) == ()
    assert {Phase.BID, Phase.PLAY} <= phases


# -- observations ---------------------------------------------------------------------


def test_layout_slices_tile_the_tensor() -> None:
    start = 0
    for _, begin, length in OBSERVATION_LAYOUT:
        assert begin == start
        assert length > 0
        start += length
    assert start == OBSERVATION_SIZE == 698


def test_tensor_slices_hold_what_the_table_says() -> None:
    state = bidding(3)
    state = apply(state, Bid(2))   # seat 1 bids 2
    state = apply(state, Board())  # seat 2 claims board
    for viewer in range(4):
        tensor = observation_tensor(view(state, viewer))
        assert part(tensor, "phase")[list(Phase).index(Phase.BID)] == 1
        assert part(tensor, "deal").tolist() == [1, 5, 3]
        assert np.flatnonzero(part(tensor, "dealer")).tolist() == [(0 - viewer) % 4]
        assert np.flatnonzero(part(tensor, "current_player")).tolist() == [(3 - viewer) % 4]
        assert np.flatnonzero(part(tensor, "trump_card")).tolist() == \
            [state.trump_card.index]  # type: ignore[union-attr]
        assert part(tensor, "trump_suit").sum() == 1
        hand = np.flatnonzero(part(tensor, "hand")).tolist()
        assert hand == sorted(card.index for card in state.hands[viewer])
        assert part(tensor, "hand_sizes").tolist() == [3, 3, 3, 3]
        bids = part(tensor, "bids").reshape(4, 15)
        by_seat = [np.flatnonzero(bids[(seat - viewer) % 4]).tolist() for seat in range(4)]
        assert by_seat == [[0], [3], [14], [0]]   # none yet, bid 2, board, none yet
        levels = part(tensor, "board_levels").tolist()
        assert levels[(2 - viewer) % 4] == 1
        assert sum(levels) == 1


def test_tricks_are_encoded_by_the_position_that_played() -> None:
    rng = random.Random(11)
    state = bidding(4)
    while state.phase is Phase.BID:
        state = apply(state, rng.choice(legal_actions(state)))
    leader = state.current_player
    assert leader is not None
    first = legal_actions(state)[0]
    assert isinstance(first, Play)
    state = apply(state, first)
    for viewer in range(4):
        trick = part(observation_tensor(view(state, viewer)), "trick").reshape(4, 54)
        position = (leader - viewer) % 4
        assert np.flatnonzero(trick[position]).tolist() == [first.card.index]
        assert trick.sum() == 1
    while len(state.tricks) == 0:
        state = apply(state, rng.choice(legal_actions(state)))
    done = state.tricks[0]
    played = part(observation_tensor(view(state, 0)), "played").reshape(4, 54)
    for k, card in enumerate(done.cards):
        assert played[(done.leader + k) % 4, card.index] == 1
    assert played.sum() == 4
    won = part(observation_tensor(view(state, 0)), "tricks_won")
    assert won[done.winner % 4] == 1


def test_scores_put_the_viewers_team_first() -> None:
    rng = random.Random(3)
    state = new_game(max_hand_size=2)
    while not state.results or state.scores[0] == state.scores[1]:
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    for viewer in range(4):
        scores = part(observation_tensor(view(state, viewer)), "scores").tolist()
        team = viewer & 1
        assert scores == [state.scores[team], state.scores[1 - team]]


def test_the_tensor_changes_with_the_seats_own_cards() -> None:
    # The leak test below would pass for a constant tensor; this one would not.
    a = random_state(13, 2, seed=1)
    b = random_state(13, 2, seed=2)
    assert a.hands[0] != b.hands[0]
    assert not np.array_equal(observation_tensor(view(a, 0)), observation_tensor(view(b, 0)))


@settings(max_examples=30)
@given(seed=SEEDS, size=SIZES, steps=st.integers(min_value=0, max_value=120))
def test_hidden_cards_do_not_reach_tensors_or_strings(seed: int, size: int,
                                                      steps: int) -> None:
    state = random_state(size, steps, seed)
    rng = random.Random(seed)
    for seat in range(4):
        seat_view = view(state, seat)
        tensor = observation_tensor(seat_view)
        assert tensor.shape == (OBSERVATION_SIZE,)
        assert tensor.dtype == np.float32
        text = observation_string(seat_view)
        for _ in range(3):
            variant = view(hidden_variant(state, seat, rng), seat)
            assert np.array_equal(observation_tensor(variant), tensor)
            assert observation_string(variant) == text


def test_the_taken_card_is_seen_only_by_its_taker() -> None:
    # Find a deal where the turned card is a joker and the other joker was dealt (BA-13).
    for seed in range(2000):
        state = random_state(13, 2, seed)
        if state.deal is not None and state.deal.exchanger is not None:
            break
    else:
        pytest.fail("no BA-13 exchange in 2000 deals")
    taker = state.deal.exchanger
    assert taker is not None
    for viewer in range(4):
        tensor = observation_tensor(view(state, viewer))
        taken = np.flatnonzero(part(tensor, "taken")).tolist()
        assert taken == ([state.deal.taken.index] if viewer == taker  # type: ignore[union-attr]
                         else [])
        assert np.flatnonzero(part(tensor, "exchanger")).tolist() == [(taker - viewer) % 4]
        assert part(tensor, "trump_suit")[4] == 1   # no trump
        assert part(tensor, "joker_discard").sum() == 1


def test_observation_string_is_the_views_text() -> None:
    state = bidding(2)
    assert observation_string(view(state, 3)) == str(view(state, 3))


def test_missing_numpy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match=r'pip install "cardrules\[numpy\]"'):
        observation_tensor(view(new_game(), 0))


def test_the_documented_layouts_match_the_code() -> None:
    layout = [(name, length) for name, _, length in OBSERVATION_LAYOUT]
    assert documented_layout(encoding.__doc__ or "") == layout
    page = (DOCS / "integrations.rst").read_text("utf-8")
    start = page.index("Back Alley (:data:`cardrules.back_alley.encoding.OBSERVATION_SIZE`")
    section = page[start:page.index("\nPettingZoo\n---", start)]
    assert documented_layout(section) == layout


# -- one-hot blocks and bid slots ----------------------------------------------------------


def test_observation_one_hot_blocks_hold_a_single_one_or_nothing() -> None:
    # Every one-hot block of the observation (see the layout in the module
    # docstring) holds zeros and at most one 1, exactly one where the view
    # has the fact; card planes hold zeros and ones.  Checked at every state
    # of a seeded game, from every seat.
    start = {name: (at, length) for name, at, length in OBSERVATION_LAYOUT}

    def block(tensor: object, name: str) -> list[float]:
        at, length = start[name]
        return [float(x) for x in tensor[at:at + length]]  # type: ignore[index]

    for state in random_game(6, 3):
        for seat in range(4):
            seen = view(state, seat)
            tensor = observation_tensor(seen)
            facts = {"phase": True, "dealer": seen.dealer is not None,
                     "current_player": seen.current_player is not None,
                     "trump_card": seen.trump_card is not None,
                     "trump_suit": seen.trump_card is not None,
                     "exchanger": seen.exchanger is not None,
                     "leader": seen.leader is not None and bool(seen.trick)}
            for name, present in facts.items():
                values = block(tensor, name)
                assert set(values) <= {0.0, 1.0}, name
                if name != "leader":
                    assert sum(values) == present, name
                else:
                    assert sum(values) <= 1
            bids = block(tensor, "bids")
            assert set(bids) <= {0.0, 1.0}
            assert [sum(bids[k:k + 15]) for k in range(0, 60, 15)] == [1.0] * 4
            for plane in ("hand", "taken", "trick", "played"):
                assert set(block(tensor, plane)) <= {0.0, 1.0}, plane


def test_observation_bids_use_one_slot_per_kind_of_bid() -> None:
    # Per position (0 the viewer, then clockwise), 15 slots: 0 no bid yet, 1
    # a pass, 2 to 13 bids 1 to 12, 14 a board (BA-21).
    state = then(dealt(["2H 3H 4H", "5H 6H 7H", "8H 9H TH", "JH QH KH"], "2S"),
                 "pass", "bid 1", "bid 2")
    start = {name: at for name, at, _ in OBSERVATION_LAYOUT}["bids"]
    for seat in range(4):
        tensor = observation_tensor(view(state, seat))
        bids = [float(x) for x in tensor[start:start + 60]]
        ones = [k for k, x in enumerate(bids) if x]
        slots = {0: 1, 1: 2, 2: 3, 3: 0}    # seat: slot of its bid
        assert ones == sorted(15 * ((s - seat) % 4) + slot for s, slot in slots.items())
    tensor = observation_tensor(view(then(state, "board"), 0))
    assert tensor[start + 45 + 14] == 1.0
