"""The conformance helper must catch broken games, and views must not leak on the wire."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import attrs
import pytest

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
        db.check_invariants(state)
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
