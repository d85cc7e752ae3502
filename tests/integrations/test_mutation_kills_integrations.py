"""Integration tests written for survivors of the sampled mutation run
(``tools/mutation.py``, issue 14 section 5): each one pins an outcome that a
small slip in the code would change."""

from __future__ import annotations

import numpy as np

from cardrules import back_alley as ba
from cardrules import down_and_back as db
from cardrules.integrations.pettingzoo import raw_env


def test_down_and_back_space_admits_an_empty_stock_and_empty_hands() -> None:
    # The stock can run out (DB tie-breaks with five players) and a seat's
    # hand is empty between rounds: both counts start at 0 in the space.
    environment = raw_env("down_and_back", num_players=5)
    agent = environment.possible_agents[0]
    box = environment.observation_space(agent)["observation"]  # type: ignore[index]
    start = {name: (at, length) for name, at, length in db.encoding.OBSERVATION_LAYOUT}
    for name, top in (("stock_size", 52), ("hand_sizes", 8)):
        at, length = start[name]
        assert list(box.low[at:at + length]) == [0.0] * length, name
        assert list(box.high[at:at + length]) == [float(top)] * length, name
    environment.reset(seed=1)
    observation = environment.observe(agent)
    empty = observation["observation"].copy()
    at, _ = start["stock_size"]
    empty[at] = 0.0
    assert environment.observation_space(agent).contains(
        {"observation": empty.astype(np.float32), "action_mask": observation["action_mask"]})


def _box_ranges(environment: object, layout: tuple[tuple[str, int, int], ...]
                ) -> dict[str, set[tuple[float, float]]]:
    """Per named block of ``layout``, the (low, high) pairs of the observation box."""
    agent = environment.possible_agents[0]  # type: ignore[attr-defined]
    box = environment.observation_space(agent)["observation"]  # type: ignore[attr-defined]
    return {name: {(float(lo), float(hi)) for lo, hi in
                   zip(box.low[at:at + n], box.high[at:at + n], strict=True)}
            for name, at, n in layout}


def test_back_alley_space_bounds_every_count_and_score() -> None:
    # Default game: 25 deals (BA-10) of 13, 12, ..., 1, 2, ..., 13 cards, 181
    # cards in all, each worth at most 40 points either way (a quadruple
    # board, BA-41); counts of cards and tricks at most 13; board levels at
    # most 4 (BA-23); everything else is a 0/1 flag.
    ranges = _box_ranges(raw_env("back_alley"), ba.encoding.OBSERVATION_LAYOUT)
    assert ranges.pop("deal") == {(0.0, 25.0)}
    assert ranges.pop("hand_sizes") == {(0.0, 13.0)}
    assert ranges.pop("board_levels") == {(0.0, 4.0)}
    assert ranges.pop("tricks_won") == {(0.0, 13.0)}
    assert ranges.pop("scores") == {(-7240.0, 7240.0)}
    assert all(pairs == {(0.0, 1.0)} for pairs in ranges.values()), ranges
    # Three deals of 2, 1 and 2 cards: at most 40 * 5 points.
    short = raw_env("back_alley", max_hand_size=2)
    assert _box_ranges(short, ba.encoding.OBSERVATION_LAYOUT)["scores"] == {(-200.0, 200.0)}


def test_down_and_back_space_bounds_every_count_and_chip() -> None:
    # Five players, ante 2, 7 rounds: at most 5 * 2 * 7 = 70 chips in a pot,
    # a seat loses at most its antes (2 * 7) and wins at most every chip.
    ranges = _box_ranges(raw_env("down_and_back", num_players=5, ante=2, rounds=7),
                         db.encoding.OBSERVATION_LAYOUT)
    expected = {"round": (0.0, 7.0), "rounds": (0.0, 7.0), "ante": (0.0, 2.0),
                "pot": (0.0, 70.0), "net": (-14.0, 70.0), "hand_sizes": (0.0, 8.0),
                "stock_size": (0.0, 52.0), "turns": (0.0, 6.0)}
    for name, pair in expected.items():
        assert ranges.pop(name) == {pair}, name
    assert all(pairs == {(0.0, 1.0)} for pairs in ranges.values()), ranges
