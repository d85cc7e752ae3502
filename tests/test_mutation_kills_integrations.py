"""Integration tests written for survivors of the sampled mutation run
(``tools/mutation.py``, issue 14 section 5): each one pins an outcome that a
small slip in the code would change."""

from __future__ import annotations

import numpy as np

from cardrules import down_and_back as db
from cardrules.integrations.pettingzoo import DownAndBackEnv


def test_down_and_back_space_admits_an_empty_stock_and_empty_hands() -> None:
    # The stock can run out (DB tie-breaks with five players) and a seat's
    # hand is empty between rounds: both counts start at 0 in the space.
    environment = DownAndBackEnv(num_players=5)
    agent = environment.possible_agents[0]
    box = environment.observation_space(agent)["observation"]  # type: ignore[index]
    start = {name: (at, length) for name, at, length in db.OBSERVATION_LAYOUT}
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
