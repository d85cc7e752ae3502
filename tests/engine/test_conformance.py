"""The conformance helper must catch broken games, and views must not leak on the wire."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import attrs
import pytest

import cardrules.back_alley as ba
import cardrules.down_and_back as db
from cardrules.engine import check_game
from cardrules.errors import ConformanceError, IllegalActionError

SETTINGS = {"num_players": 3, "rounds": 1}


def broken(**overrides: Any) -> Any:
    """A copy of the Down and Back rules with some functions replaced."""
    return attrs.evolve(db.RULES, **overrides)


def test_check_game_passes_the_real_rules() -> None:
    report = check_game(db, games=2, seed=11, settings=SETTINGS)
    assert report.games == 2
    assert report.actions > 50
    assert report.refused > report.actions


def test_check_game_catches_a_leaky_view() -> None:
    def leaky_view(state: db.GameState, seat: int) -> object:
        return (db.view(state, seat), state.stock)  # the stock order is secret (DB-37)

    with pytest.raises(ConformanceError, match="view depends on cards it cannot see"):
        check_game(broken(view=leaky_view), games=1, seed=1, settings=SETTINGS)


def test_check_game_catches_an_accepted_illegal_action() -> None:
    def lax_apply(state: db.GameState, action: db.Action) -> db.GameState:
        if isinstance(action, db.Discard) and state.phase is db.Phase.DRAW:
            return state  # should have been refused (DB-34)
        return db.apply(state, action)

    with pytest.raises(ConformanceError, match="was accepted"):
        check_game(broken(apply=lax_apply), games=1, seed=2, settings=SETTINGS)


def test_check_game_catches_a_lossy_round_trip() -> None:
    def lossy(data: Any) -> db.GameState:
        state = db.state_from_dict(data)
        return db.new_game(state.num_players, rounds=state.rounds) if state.round else state

    with pytest.raises(ConformanceError, match="JSON round trip"):
        check_game(broken(state_from_dict=lossy), games=1, seed=3, settings=SETTINGS)


def test_check_game_catches_a_broken_invariant() -> None:
    def picky(state: db.GameState) -> None:
        db.RULES.check_invariants(state)
        if state.phase is db.Phase.SPLIT:
            raise ValueError("no splitting allowed")

    with pytest.raises(ConformanceError, match="invariant broken: no splitting allowed"):
        check_game(broken(check_invariants=picky), games=1, seed=4, settings=SETTINGS)


def test_check_game_catches_a_refusal_that_is_not_illegal_action_error() -> None:
    def rude_apply(state: db.GameState, action: db.Action) -> db.GameState:
        if isinstance(action, db.Cut) and not 1 <= action.count <= 51:
            raise IndexError("no")  # should be IllegalActionError naming DB-32
        return db.apply(state, action)

    with pytest.raises(IndexError):
        check_game(broken(apply=rude_apply), games=1, seed=5, settings=SETTINGS)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_view_json_never_names_a_hidden_card(num_players: int) -> None:
    """DB-37: what a client receives holds no card hidden from its seat."""
    rng = random.Random(num_players)
    state = db.new_game(num_players, rounds=2)
    card_text = re.compile(r'"([A2-9TJQK][SHDC])"')
    checked = 0
    while not state.is_terminal:
        for seat in range(num_players):
            data = db.view_to_dict(db.view(state, seat))
            del data["results"]  # splits of finished rounds: public, and cards go back
            text = json.dumps(data)
            revealed = all(s is not None for s in state.splits)
            hidden = set(state.stock)
            for other in range(num_players):
                if other != seat and not revealed:
                    hidden |= set(state.hands[other]) - set(state.seen[other])
            named = set(card_text.findall(text))
            assert not named & {str(c) for c in hidden}
            checked += 1
        action = (db.sample_chance(state, rng) if state.is_chance
                  else rng.choice(db.legal_actions(state)))
        state = db.apply(state, action)
    assert checked > 100


def test_apply_refuses_a_seat_acting_out_of_turn() -> None:
    rng = random.Random(0)
    state = db.new_game(3)
    while state.phase is not db.Phase.DRAW:
        state = db.apply(state, db.sample_chance(state, rng) if state.is_chance
                         else db.legal_actions(state)[0])
    wrong = ((state.current_player or 0) + 1) % 3
    with pytest.raises(IllegalActionError) as caught:
        db.apply(state, db.DrawStock(), seat=wrong)
    assert caught.value.rule == "DB-34"


def test_check_game_counts_every_action_it_applies() -> None:
    steps: list[int] = []

    def counting_legal(state: db.GameState) -> tuple[db.Action, ...]:
        steps.append(1)
        return db.legal_actions(state)

    report = check_game(broken(legal_actions=counting_legal), games=2, seed=6,
                        settings=SETTINGS)
    assert report.actions == len(steps)   # legal_actions is asked once per step
    assert report.games == 2


def test_check_game_seed_defaults_to_zero() -> None:
    short = {"max_hand_size": 2}   # the probes refused differ from seed to seed here
    assert check_game(ba, games=1, settings=short) \
        == check_game(ba, games=1, seed=0, settings=short)
    assert check_game(ba, games=1, seed=0, settings=short) \
        != check_game(ba, games=1, seed=1, settings=short)


def test_check_game_names_the_step_that_broke() -> None:
    seen: list[db.GameState] = []

    def third_state_is_bad(state: db.GameState) -> None:
        seen.append(state)
        if len(seen) == 3:
            raise ValueError("third")

    with pytest.raises(ConformanceError, match=r"\Agame 0, step 2: invariant broken: third\Z"):
        check_game(broken(check_invariants=third_state_is_bad), games=1, seed=1,
                   settings=SETTINGS)


def test_check_game_catches_a_game_that_replays_differently() -> None:
    finished: list[bool] = []

    def noting_end(state: db.GameState) -> None:
        db.RULES.check_invariants(state)
        if state.is_terminal:
            finished.append(True)

    def forgetful_apply(state: db.GameState, action: db.Action, *,
                        seat: int | None = None) -> db.GameState:
        if finished and isinstance(action, db.ChooseDealer):  # differs on the replay
            action = db.ChooseDealer((action.seat + 1) % state.num_players)
        return db.apply(state, action, seat=seat)

    with pytest.raises(ConformanceError, match="replaying the actions gave a different state"):
        check_game(broken(check_invariants=noting_end, apply=forgetful_apply), games=1, seed=2,
                   settings=SETTINGS)


def test_check_game_catches_a_refusal_that_changes_the_state() -> None:
    # A state that a refused action leaves marked: what a mutable state would do.
    marks: dict[int, int] = {}

    def marking_apply(state: db.GameState, action: db.Action, *,
                      seat: int | None = None) -> db.GameState:
        try:
            return db.apply(state, action, seat=seat)
        except IllegalActionError:
            marks[id(state)] = marks.get(id(state), 0) + 1
            raise

    def marked_to_dict(state: db.GameState) -> dict[str, object]:
        return {**db.state_to_dict(state), "marks": marks.get(id(state), 0)}

    def unmarked_from_dict(data: Any) -> db.GameState:
        return db.state_from_dict({k: v for k, v in data.items() if k != "marks"})

    with pytest.raises(ConformanceError, match=r"applying .* changed the original state"):
        check_game(broken(apply=marking_apply, state_to_dict=marked_to_dict,
                          state_from_dict=unmarked_from_dict), games=1, seed=3,
                   settings=SETTINGS)


def test_check_game_plays_ten_games_by_default() -> None:
    report = check_game(ba, settings={"max_hand_size": 1})
    assert report.games == 10


def test_check_game_counts_the_probes_refused() -> None:
    expected: list[int] = []

    def counted_probes(state: db.GameState) -> list[db.Action]:
        probes = list(db.RULES.probe_actions(state))
        for probe in probes:
            try:
                db.apply(state, probe)
            except IllegalActionError:
                expected.append(1)
        return probes

    report = check_game(broken(probe_actions=counted_probes), games=1, seed=8,
                        settings=SETTINGS)
    assert report.refused == len(expected) > 0


def test_check_game_catches_legal_actions_at_a_chance_point() -> None:
    def always_something(state: db.GameState) -> tuple[db.Action, ...]:
        return db.legal_actions(state) or (db.DrawStock(),)

    with pytest.raises(ConformanceError,
                       match=r"\Agame 0, step 0: legal_actions must be empty at a chance point\Z"):
        check_game(broken(legal_actions=always_something), games=1, seed=1, settings=SETTINGS)


def test_check_game_tries_at_most_eight_legal_actions_per_step_by_default() -> None:
    calls: dict[int, int] = {}
    expected: dict[int, int] = {}
    keep: list[db.GameState] = []   # so that no id is reused during the run

    def counting_apply(state: db.GameState, action: db.Action, *,
                       seat: int | None = None) -> db.GameState:
        if id(state) not in expected:
            keep.append(state)
            legal = db.legal_actions(state)
            probes = len(list(db.RULES.probe_actions(state)))
            # the legal actions tried, the probes, then the move played
            expected[id(state)] = (min(8, len(legal)) if legal else 0) + probes + 1
        calls[id(state)] = calls.get(id(state), 0) + 1
        return db.apply(state, action, seat=seat)

    check_game(broken(apply=counting_apply), games=1, seed=1, settings=SETTINGS)
    played = [key for key in calls if calls[key] > 1]   # the replay applies once per state
    assert [calls[key] for key in played] == [expected[key] for key in played]
    assert any(len(db.legal_actions(state)) > 8 for state in keep)


def test_check_game_catches_a_player_with_no_legal_action() -> None:
    def nothing_to_split(state: db.GameState) -> tuple[db.Action, ...]:
        return () if state.phase is db.Phase.SPLIT else db.legal_actions(state)

    with pytest.raises(ConformanceError, match=r", step \d+: the player to act has no legal "
                                               r"action\Z"):
        check_game(broken(legal_actions=nothing_to_split), games=1, seed=1, settings=SETTINGS)
