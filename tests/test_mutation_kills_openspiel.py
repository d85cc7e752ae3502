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
from cardrules.integrations import openspiel  # noqa: E402


class _Raw:
    """Pickles as the adapter's reader called on a (tampered) JSON text."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return openspiel._core_from_json, (self.text,)


def test_a_shuffle_in_progress_must_be_of_the_pile_being_shuffled() -> None:
    """Mid-shuffle (DB-30: the whole deck is shuffled), the cards picked and
    the cards left must be that pile: one card both picked and left (and so
    one card of the pile in neither) is refused, though each list alone is
    a valid, ordered list of cards of the right length."""
    game = pyspiel.load_game(openspiel.DOWN_AND_BACK, {"players": 2, "rounds": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(4):   # the first dealer, then three cards of the shuffle
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    history, moves, data = state.serialize().split("\n", 2)
    core = pickle.loads(base64.b64decode(data[len("__dict__="):]))["_core"]
    fields = json.loads(core.to_json())
    assert len(fields["picked"]) == 3
    assert len(fields["picked"]) + len(fields["remaining"]) == 52

    def text(fields: dict[str, Any]) -> str:
        payload = base64.b64encode(pickle.dumps({"_core": _Raw(json.dumps(fields))})).decode()
        return f"{history}\n{moves}\n__dict__={payload}"

    assert game.deserialize_state(text(fields)).serialize() == state.serialize()
    twice = {**fields, "remaining": sorted([*fields["remaining"][1:], fields["picked"][0]])}
    with pytest.raises(ParseError, match="the shuffle in progress is not of the pile"):
        game.deserialize_state(text(twice))
