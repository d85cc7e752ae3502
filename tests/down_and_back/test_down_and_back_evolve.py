"""``attrs.evolve`` on Down and Back's records (issue 15 §3): every init argument
is an attribute of the same name holding what the argument takes, so passing a
record's own values back gives the record back; a name that only reads
through to the settings or the books (``num_players``, ``pot``, ``turns``, ...)
is not an argument and is refused with a TypeError naming it."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import attrs
import pytest

import cardrules.down_and_back as db
from cardrules.down_and_back import GameState, legal_actions, view
from support.gamecheck import attrs_within, states_of


def _states() -> Iterator[GameState]:
    """Every state of short random games of two and three players: each phase,
    tie-breaks when they come, and the end."""
    for seed, players in ((0, 2), (1, 3), (2, 3)):
        yield from states_of(db.RULES, {"num_players": players, "rounds": 2}, seed)


def test_every_init_argument_round_trips_through_evolve() -> None:
    kinds: set[type] = set()
    for state in _states():
        for record in (*attrs_within(state), *attrs_within(view(state, 0))):
            kinds.add(type(record))
            fields = attrs.fields(type(record))
            for field in fields:
                if field.init:
                    assert field.alias == field.name, (type(record).__name__, field.name)
                    again = attrs.evolve(record, **{field.name: getattr(record, field.name)})
                    assert again == record, (type(record).__name__, field.name)
        again = attrs.evolve(state, **{f.name: getattr(state, f.name)
                                       for f in attrs.fields(GameState)})
        assert legal_actions(again) == legal_actions(state)
    assert {GameState, db.Settings, db.History, db.RoundResult, db.Split, db.View} <= kinds


@pytest.mark.parametrize("name", ["num_players", "ante", "rounds", "round", "dealer", "pot",
                                  "net", "results", "turns"])
def test_a_name_read_through_to_the_books_is_refused_by_evolve(name: str) -> None:
    state = db.apply(db.new_game(3), db.ChooseDealer(1))
    with pytest.raises(TypeError, match=rf"unexpected keyword argument '{name}'"):
        attrs.evolve(state, **{name: getattr(state, name)})


def test_the_reducers_state_builder_lists_the_fields_in_their_order() -> None:
    """The reducer's keyword-only builder passes its arguments to GameState by
    position: its parameters must be the fields, in the same order."""
    from cardrules.down_and_back.game import _new_state

    assert list(inspect.signature(_new_state).parameters) == \
        [field.name for field in attrs.fields(GameState)]
