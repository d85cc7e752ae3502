"""OpenSpiel's C++ ``spades``, the peer both games' engines are measured against.

Each loop here is OpenSpiel's own minimal way of playing: at every node,
chance nodes included, ``state.apply_action(rng.choice(state.legal_actions()))``
(at a chance node ``legal_actions()`` lists the outcomes).  ``bench_engine.py``
times them in the same run as both games' loops, so Down and Back and Back
Alley are compared with the same yardstick.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

__all__ = ["load_spades", "runner", "spiel_child_playout", "spiel_playout", "spiel_record",
           "spiel_replay"]


def load_spades() -> Any:
    """OpenSpiel's ``spades`` game, or None when open-spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("spades")


def spiel_playout(game: Any, rng: random.Random) -> int:
    """One random spades deal with OpenSpiel's minimal loop; returns its actions."""
    choice = rng.choice
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        state.apply_action(choice(state.legal_actions()))
        actions += 1
    return actions


def spiel_child_playout(game: Any, rng: random.Random) -> int:
    """The same loop with ``child()``: a new state per action, the old one kept
    (what search code that branches compares with an immutable ``apply``)."""
    choice = rng.choice
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        state = state.child(choice(state.legal_actions()))
        actions += 1
    return actions


def spiel_record(game: Any, rng: random.Random) -> list[int]:
    """The actions of one random deal, for :func:`spiel_replay`."""
    state = game.new_initial_state()
    actions: list[int] = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
    return actions


def spiel_replay(game: Any, games: list[list[int]]) -> None:
    """Replay recorded deals, asking for the legal actions at every decision:
    the engine's own cost per action, with no sampling."""
    for actions in games:
        state = game.new_initial_state()
        for action in actions:
            if not state.is_chance_node():
                state.legal_actions()
            state.apply_action(action)


def runner(play: Callable[[random.Random], object], seed: int,
           count: int) -> Callable[[], None]:
    """A timing case that plays ``count`` games, game ``i`` seeded ``seed + i``."""
    def run() -> None:
        for i in range(count):
            play(random.Random(seed + i))
    return run
