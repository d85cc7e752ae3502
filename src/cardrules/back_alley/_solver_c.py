"""The bridge between :mod:`cardrules.back_alley.solver` and the C double-dummy
solver in the speed-ups extension.

A placeholder until the C solver lands: :func:`play_values` answers None, which
tells the solver to use its pure-Python search.
"""

from __future__ import annotations

from cardrules.back_alley.actions import Play
from cardrules.back_alley.state import GameState

__all__ = ["play_values"]


def play_values(state: GameState) -> dict[Play, int] | None:
    """Every legal play of the seat to act with the tricks its team takes from
    here with best play, computed in C; None when the extension has no solver.
    """
    del state
    return None
