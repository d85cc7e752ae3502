"""Down and Back action numbers and observation tensors (cardrules.down_and_back.encoding).

Numbers: a bijection between the legal actions of any state and their ids
(DB-32, DB-34, DB-40), the documented table, and the errors for ids that are
out of range or not legal now.  Tensors: the documented layout, and no
hidden card (DB-37, DB-40) reaches a seat's tensor or string: states that
differ only in what the seat cannot see (``hidden_variant``) encode alike.
"""

from __future__ import annotations

import random
import sys
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import DECK, Hand, IllegalActionError, parse_card, parse_cards
from cardrules.down_and_back import (
    RULES,
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
    apply,
    encoding,
    legal_actions,
    new_game,
    sample_chance,
    view,
)
from cardrules.down_and_back.determinization import hidden_variant
from cardrules.down_and_back.encoding import (
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
from support.gamecheck import documented_layout, layout_part, state_after

DOCS = ROOT / "docs"
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=5)


def random_state(num_players: int, steps: int, seed: int) -> GameState:
    """The state after ``steps`` random actions (chance sampled) of a 2-round game."""
    return state_after(RULES, {"num_players": num_players, "rounds": 2}, steps, seed)


def dealt(num_players: int = 3, seed: int = 0) -> GameState:
    """A state just after the deal (the first player to draw)."""
    rng = random.Random(seed)
    state = new_game(num_players)
    state = apply(state, ChooseDealer(0))
    state = apply(state, sample_chance(state, rng))
    return apply(state, Cut(10))


def at_split(num_players: int = 2, seed: int = 1) -> GameState:
    """A state where the first player must split."""
    rng = random.Random(seed)
    state = dealt(num_players, seed)
    while state.phase is not Phase.SPLIT:
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    return state


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
        if number in ids:
            continue
        with pytest.raises(IllegalActionError):
            action_from_id(state, number)


def check_observations(state: GameState, rng: random.Random) -> None:
    """Each seat's tensor and string depend only on what the seat may see."""
    for seat in range(state.num_players):
        seat_view = view(state, seat)
        tensor = observation_tensor(seat_view)
        assert tensor.shape == (OBSERVATION_SIZE,)
        assert tensor.dtype == np.float32
        hand = part(tensor, "hand")
        assert set(np.flatnonzero(hand).tolist()) == {c.index for c in state.hands[seat]}
        text = observation_string(seat_view)
        for _ in range(3):
            variant = view(hidden_variant(state, seat, rng), seat)
            assert np.array_equal(observation_tensor(variant), tensor)
            assert observation_string(variant) == text


def part(tensor: np.ndarray, name: str) -> np.ndarray:
    """The slice ``name`` of a tensor, by :data:`OBSERVATION_LAYOUT`."""
    return layout_part(OBSERVATION_LAYOUT, tensor, name)


# -- numbers ------------------------------------------------------------------------


def test_the_numbering_table() -> None:
    assert NUM_ACTIONS == 140
    assert [action_id(Cut(n)) for n in (1, 2, 51)] == [0, 1, 50]
    assert action_id(DrawStock()) == 51
    assert action_id(DrawDiscard()) == 52
    assert action_id(Discard(parse_card("AS"))) == 53
    assert action_id(Discard(parse_card("AH"))) == 54
    assert action_id(Discard(parse_card("KC"))) == 104
    everything = [action_id(Cut(n)) for n in range(1, 52)] + [51, 52] + \
        [action_id(Discard(card)) for card in DECK]
    assert everything == list(range(105))


def test_split_numbers_follow_lexicographic_down_positions() -> None:
    hand = Hand.parse("AS 2H 3D 4C 5S 6H 7D")   # already in canonical order
    numbers = []
    for positions in combinations(range(7), 4):
        down = [hand[i] for i in positions]
        back = [card for i, card in enumerate(hand) if i not in positions]
        numbers.append(action_id(Split(down, back)))
    assert numbers == list(range(105, 140))
    # The cards' order inside the split does not matter, only which are down.
    assert action_id(Split(parse_cards("5S 3D 2H AS"), parse_cards("7D 6H 4C"))) == 106


def test_split_numbers_match_legal_action_order() -> None:
    state = at_split()
    actions = legal_actions(state)
    assert len(actions) == 35
    assert [action_id(a) for a in actions] == list(range(105, 140))
    assert legal_action_ids(state) == tuple(range(105, 140))


def test_chance_and_impossible_actions_have_no_number() -> None:
    for action in (ChooseDealer(0), Shuffle(DECK), Cut(0), Cut(52),
                   Split(parse_cards("AS 2S 3S"), parse_cards("4S 5S 6S 7S")),
                   Split(parse_cards("AS 2S 3S 4S"), parse_cards("AS 5S 6S"))):
        with pytest.raises(ValueError, match=r"no number|a split is 4 and 3"):
            action_id(action)
    with pytest.raises(TypeError):
        action_id("draw stock")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        action_id(None)  # type: ignore[arg-type]


def test_ids_out_of_range_or_of_the_wrong_type_are_refused() -> None:
    state = dealt()
    for number in (-1, NUM_ACTIONS, 10**6):
        with pytest.raises(ValueError, match="action ids are 0 to 139") as caught:
            action_from_id(state, number)
        assert not isinstance(caught.value, IllegalActionError)
    wrong: list[object] = [True, 1.0, "51", None]
    for value in wrong:
        with pytest.raises(TypeError, match="an action id is an int"):
            action_from_id(state, value)  # type: ignore[arg-type]
    # numpy integers (what gymnasium spaces hand out) are accepted.
    assert action_from_id(state, np.int64(51)) == DrawStock()


def test_illegal_ids_name_the_rule() -> None:
    state = dealt()
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(state, 0)   # a cut while drawing
    assert caught.value.rule == "DB-34"
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(state, 120)   # a split before the showdown
    assert caught.value.rule == "DB-34"
    discarding = apply(state, DrawStock())
    held = view(discarding, discarding.current_player).hand  # type: ignore[arg-type]
    other = next(card for card in DECK if card not in held)
    with pytest.raises(IllegalActionError, match=f"does not hold {other}"):
        action_from_id(discarding, action_id(Discard(other)))
    with pytest.raises(IllegalActionError):
        action_id(Discard(other), discarding)
    with pytest.raises(IllegalActionError) as caught:
        action_from_id(new_game(2), 51)   # a chance point
    assert caught.value.rule == "DB-31"


def test_split_ids_read_the_hand_of_the_player_to_act() -> None:
    state = at_split(3, seed=4)
    seat = state.current_player
    assert seat is not None
    hand = state.hands[seat]
    split = action_from_id(state, 139)
    assert split == Split(hand[3:], hand[:3])
    after = apply(state, split)
    assert after.current_player != seat
    assert action_from_id(after, 105) == Split(after.hands[after.current_player][:4],  # type: ignore[index]
                                               after.hands[after.current_player][4:])  # type: ignore[index]


@settings(max_examples=40)
@given(seed=SEEDS, num_players=PLAYERS, steps=st.integers(min_value=0, max_value=160))
def test_ids_are_a_bijection_on_legal_actions(seed: int, num_players: int, steps: int) -> None:
    state = random_state(num_players, steps, seed)
    check_numbers(state, random.Random(seed).sample(range(NUM_ACTIONS), 12))


def test_every_state_of_whole_games_numbers_its_actions() -> None:
    phases = set()
    for num_players in (2, 5):
        rng = random.Random(num_players)
        state = new_game(num_players, rounds=1)
        while not state.is_terminal:
            phases.add(state.phase)
            check_numbers(state, [])
            action: Action = (sample_chance(state, rng) if state.is_chance
                              else rng.choice(legal_actions(state)))
            state = apply(state, action)
        assert legal_action_ids(state) == ()
    assert {Phase.CUT, Phase.DRAW, Phase.DISCARD, Phase.SPLIT} <= phases


# -- observations ---------------------------------------------------------------------


def test_layout_slices_tile_the_tensor() -> None:
    start = 0
    for _, begin, length in OBSERVATION_LAYOUT:
        assert begin == start
        assert length > 0
        start += length
    assert start == OBSERVATION_SIZE == 1087
    names = [name for name, _, _ in OBSERVATION_LAYOUT]
    assert len(set(names)) == len(names)


def test_tensor_slices_hold_what_the_table_says() -> None:
    state = apply(dealt(3), DrawStock())
    seat = state.current_player
    assert seat is not None
    for viewer in range(3):
        tensor = observation_tensor(view(state, viewer))
        assert part(tensor, "num_players").tolist() == [0, 1, 0, 0]
        assert part(tensor, "phase")[list(Phase).index(Phase.DISCARD)] == 1
        assert part(tensor, "phase").sum() == 1
        assert np.flatnonzero(part(tensor, "dealer")).tolist() == [(0 - viewer) % 3]
        assert np.flatnonzero(part(tensor, "current_player")).tolist() == [(seat - viewer) % 3]
        assert part(tensor, "round").tolist() == [1]
        assert part(tensor, "rounds").tolist() == [10]
        assert part(tensor, "ante").tolist() == [1]
        assert part(tensor, "pot").tolist() == [3]
        assert part(tensor, "net").tolist() == [-1, -1, -1, 0, 0]
        sizes = [len(state.hands[(viewer + p) % 3]) for p in range(3)]
        assert part(tensor, "hand_sizes").tolist() == [*sizes, 0, 0]
        assert part(tensor, "stock_size").tolist() == [len(state.stock)]
        assert np.flatnonzero(part(tensor, "discard_top")).tolist() == [state.discard[-1].index]
        drawn = np.flatnonzero(part(tensor, "drawn")).tolist()
        assert drawn == ([state.drawn.index] if viewer == seat and state.drawn else [])
        assert part(tensor, "split_down").sum() == 0


def test_revealed_splits_and_seen_cards_are_encoded_by_position() -> None:
    state = at_split(2, seed=3)
    for _ in range(2):
        if state.phase is not Phase.SPLIT or state.current_player is None:
            break
        before = state
        state = apply(state, legal_actions(state)[0])
        if state.phase is Phase.SPLIT:
            first = before.current_player
            assert first is not None
            # Only the splitter sees its own split until every player has split (DB-40).
            mine = observation_tensor(view(state, first))
            theirs = observation_tensor(view(state, 1 - first))
            assert part(mine, "split_down")[:52].sum() == 4
            assert part(theirs, "split_down").sum() == 0
            assert part(theirs, "split_chosen").tolist()[:2] == [0, 1]
    finished = state.results[0]
    tensor = observation_tensor(view(state, 0))
    # The round is over: the next round's view shows no split, the result is public.
    assert finished.splits
    assert part(tensor, "split_down").sum() == 0


def test_seen_cards_appear_in_the_takers_position() -> None:
    state = dealt(3)
    taker = state.current_player
    assert taker is not None
    top = state.discard[-1]
    state = apply(state, DrawDiscard())
    for viewer in range(3):
        seen = part(observation_tensor(view(state, viewer)), "seen").reshape(5, 52)
        position = (taker - viewer) % 3
        assert np.flatnonzero(seen[position]).tolist() == [top.index]
        assert seen.sum() == 1


def test_the_tensor_changes_with_the_seats_own_cards() -> None:
    # The leak test below would pass for a constant tensor; this one would not.
    a, b = dealt(3, seed=1), dealt(3, seed=2)
    assert a.hands[0] != b.hands[0]
    assert not np.array_equal(observation_tensor(view(a, 0)), observation_tensor(view(b, 0)))


@settings(max_examples=30)
@given(seed=SEEDS, num_players=PLAYERS, steps=st.integers(min_value=0, max_value=160))
def test_hidden_cards_do_not_reach_tensors_or_strings(seed: int, num_players: int,
                                                      steps: int) -> None:
    state = random_state(num_players, steps, seed)
    check_observations(state, random.Random(seed))


def test_observation_string_is_the_views_text() -> None:
    state = dealt(2)
    assert observation_string(view(state, 1)) == str(view(state, 1))
    assert "you are seat 1" in observation_string(view(state, 1))


def test_missing_numpy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match=r'pip install "cardrules\[numpy\]"'):
        observation_tensor(view(new_game(2), 0))


def test_the_documented_layouts_match_the_code() -> None:
    layout = [(name, length) for name, _, length in OBSERVATION_LAYOUT]
    assert documented_layout(encoding.__doc__ or "") == layout
    page = (DOCS / "integrations.rst").read_text("utf-8")
    start = page.index("Down and Back (:data:`cardrules.down_and_back.encoding.OBSERVATION_SIZE`")
    end = page.index("Back Alley (:data:`cardrules.back_alley.encoding.OBSERVATION_SIZE`")
    section = page[start:end]
    assert documented_layout(section) == layout


def test_db40_every_revealed_split_is_marked_in_its_seats_blocks() -> None:
    """At a showdown paused for a reshuffle every split is revealed: each
    seat's observation marks every seat's down and back hands in that seat's
    52-card blocks, counted from the observer."""
    from support.db_deals import paused_showdown

    state = paused_showdown()
    start = {name: begin for name, begin, _ in OBSERVATION_LAYOUT}
    n = state.num_players
    for seat in range(n):
        seen = view(state, seat)
        tensor = observation_tensor(seen)
        for other, split in enumerate(seen.splits):
            assert split is not None
            p = (other - seat) % n
            for name, hand in (("split_down", split.down), ("split_back", split.back)):
                block = tensor[start[name] + 52 * p:start[name] + 52 * (p + 1)]
                assert set(np.flatnonzero(block).tolist()) == {card.index for card in hand}


def test_db42_the_information_state_writes_each_tie_break_draw() -> None:
    """The history part of the information-state tensor writes the round's
    tie-break draws in order, each as three entries: the stage (1 down, 2
    back), the seat plus 1 and the card's index plus 1."""
    from cardrules.down_and_back import Stage, apply, legal_actions, sample_chance
    from cardrules.down_and_back.encoding import information_state_bits
    from support.db_deals import paused_showdown

    state = paused_showdown()
    rounds = len(state.results)
    rng = random.Random(5)
    public: tuple[tuple[int, int], ...] = ()
    while len(state.results) == rounds:
        action = sample_chance(state, rng) if state.is_chance else legal_actions(state)[0]
        after = apply(state, action)
        public, _ = information_state_bits(state, action, after)
        state = after
    draws = state.results[-1].tiebreaks
    assert draws
    wanted = [value for draw in draws[:12]
              for value in (1 + (draw.stage is Stage.BACK), draw.seat + 1, draw.card.index + 1)]
    entries = dict(public)
    assert any([entries.get(at + k) for k in range(len(wanted))] == wanted for at in entries)
