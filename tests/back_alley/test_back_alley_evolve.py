"""``attrs.evolve`` on Back Alley's records (issue 15 §3): every init argument is
an attribute of the same name holding what the argument takes, so passing a
record's own values back gives the record back, and a name that is not an
argument (``hands``, ``trick``: cards derived from the card indexes) is refused
with a TypeError naming it, never taken in another representation."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import cardrules.back_alley as ba
from cardrules.back_alley import GameState, Play, legal_actions, view
from cardrules.back_alley.actions import CARDS
from cardrules.hand import Hand
from support.gamecheck import attrs_within, states_of


def _states() -> Iterator[GameState]:
    """Every state of a short random game (a few seeds), in order: each phase,
    a trick under way, between deals and the end."""
    for seed in range(3):
        yield from states_of(ba.RULES, {"max_hand_size": 3}, seed)


def _init_arguments(record: Any) -> list[str]:
    return [field.alias for field in attrs.fields(type(record)) if field.init]


def test_every_init_argument_round_trips_through_evolve() -> None:
    checked: set[tuple[type, str]] = set()
    for state in _states():
        for record in attrs_within(state):
            for name in _init_arguments(record):
                again = attrs.evolve(record, **{name: getattr(record, name)})
                assert again == record, (type(record).__name__, name)
                checked.add((type(record), name))
        again = attrs.evolve(state, hand_indexes=state.hand_indexes,
                             trick_indexes=state.trick_indexes)
        assert legal_actions(again) == legal_actions(state)
        assert view(again, 0) == view(state, 0)
    assert (GameState, "hand_indexes") in checked
    assert (GameState, "trick_indexes") in checked


def test_no_init_argument_is_named_with_an_underscore() -> None:
    for state in _states():
        for record in attrs_within(state):
            for name in _init_arguments(record):
                field = attrs.fields_dict(type(record))[name]
                assert field.name == name, (type(record).__name__, field.name)


@pytest.mark.parametrize("name", ["hands", "trick", "undealt", "scores", "trump", "bids"])
def test_a_derived_name_is_refused_by_evolve(name: str) -> None:
    for state in _states():
        if state.phase is ba.Phase.PLAY:
            break
    with pytest.raises(TypeError, match=rf"unexpected keyword argument '{name}'"):
        attrs.evolve(state, **{name: getattr(state, name)})


def test_derived_fields_of_a_deal_and_a_play_are_not_arguments() -> None:
    state = next(s for s in _states() if s.deal is not None)
    deal = state.deal
    assert deal is not None
    for name in ("trump", "table"):
        with pytest.raises(TypeError, match=rf"unexpected keyword argument '{name}'"):
            attrs.evolve(deal, **{name: getattr(deal, name)})
    play = Play(CARDS[5])
    with pytest.raises(TypeError, match="unexpected keyword argument 'index'"):
        attrs.evolve(play, index=7)  # type: ignore[call-arg]
    moved = attrs.evolve(play, card=CARDS[53])   # the index follows the card
    assert moved.index == 53
    assert moved == Play(CARDS[53])


def test_the_hands_are_the_cards_of_the_hand_indexes() -> None:
    for state in _states():
        assert state.hands == tuple(Hand((CARDS[i] for i in indexes), jokers=True)
                                    for indexes in state.hand_indexes)
        assert state.trick == tuple(CARDS[i] for i in state.trick_indexes)


def test_the_reducers_state_builder_lists_the_fields_in_their_order() -> None:
    """The reducer's keyword-only builder passes its arguments to GameState by
    position: its parameters must be the fields, in the same order."""
    from cardrules.back_alley.game import _new_state

    assert list(inspect.signature(_new_state).parameters) == \
        [field.name for field in attrs.fields(GameState)]
