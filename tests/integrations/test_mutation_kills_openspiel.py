"""Tests of ``cardrules.integrations.openspiel`` written for survivors of the
sampled mutation run over its new ``deserialize_state`` checks
(``tools/mutation.py``, seed 31; issue 14 section 5)."""

from __future__ import annotations

import base64
import json
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from cardrules.errors import ParseError  # noqa: E402
from cardrules.integrations import openspiel_saved  # noqa: E402


class _Raw:
    """Pickles as the adapter's reader called on a (tampered) JSON text."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return openspiel_saved.saved_from_json, (self.text,)


def test_a_resampled_shuffle_in_progress_must_be_of_the_pile_being_shuffled() -> None:
    """Resampled mid-shuffle (DB-30: the whole deck is shuffled), the cards
    picked and the cards left must be that pile: one card both picked and
    left (and so one card of the pile in neither) is refused, though each
    list alone is a valid, ordered list of cards of the right length."""
    game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 2, "rounds": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(4):   # the first dealer, then three cards of the shuffle
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    state = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    history, moves, data = state.serialize().split("\n", 2)
    saved = pickle.loads(base64.b64decode(data[len("__dict__="):]))["_core"]
    fields = json.loads(saved.to_json())
    resample = fields["resamples"][0]
    assert len(resample["picked"]) == 3
    assert len(resample["picked"]) + len(resample["remaining"]) == 52

    def text(fields: dict[str, Any]) -> str:
        payload = base64.b64encode(pickle.dumps({"_core": _Raw(json.dumps(fields))})).decode()
        return f"{history}\n{moves}\n__dict__={payload}"

    assert game.deserialize_state(text(fields)).serialize() == state.serialize()
    twice = {**resample, "remaining": sorted([*resample["remaining"][1:],
                                              resample["picked"][0]])}
    with pytest.raises(ParseError, match="the shuffle in progress of a resample is not of"):
        game.deserialize_state(text({**fields, "resamples": [twice]}))


def test_a_down_and_back_game_cut_short_at_the_chance_cap_loads_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Down and Back game has no throw-ins; it is cut short only when a
    shuffle would pass the cap on chance steps (the adapter's bound for
    OpenSpiel, DB-36/DB-42 reshuffles).  Such a state says it is truncated and
    reads back as itself.  (The cap is lowered here so that the first shuffle
    already passes it; in real games only long runs of tie-break reshuffles
    do.)"""
    game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 2, "rounds": 1})
    state = game.new_initial_state()
    spec = state._core.spec
    monkeypatch.setattr(spec, "max_chance_nodes", 10)
    state.apply_action(state.chance_outcomes()[0][0])     # the first dealer; then a shuffle
    assert state.is_terminal()
    text = state.serialize()
    loaded = game.deserialize_state(text)
    assert loaded.serialize() == text
    assert loaded.is_terminal()
