"""How long a game can last and what it can pay: what a bounded adapter needs.

OpenSpiel wants a finite game with known bounds.  A game's
``Rules.bounds(settings)`` gives them for one set of settings (which may
include the game's ``Rules.limit_settings``, knobs that only cap rules that
could repeat without end, such as Back Alley's throw-ins).

>>> b = Bounds(max_decisions=10, max_chance_steps=52, min_return=-3.0, max_return=3.0)
>>> b.max_decisions + b.max_chance_steps
62
"""

from __future__ import annotations

import attrs

__all__ = ["Bounds"]


@attrs.frozen(slots=True)
class Bounds:
    """The bounds of one game with fixed settings.

    ``max_decisions``: player decisions in the longest game;
    ``max_chance_steps``: chance steps in the longest game, a shuffle of ``k``
    cards counting ``k - 1`` steps (the last card is forced) and a choice of
    dealer one.  A bounded adapter (OpenSpiel's) ends a game, with the
    returns as they stand, when the chance action due would take it past
    ``max_chance_steps``; so a rule that could repeat without end is capped
    by the chance steps it needs, and ``max_decisions`` must count the
    decisions such a game can still reach.  ``min_return`` and
    ``max_return``: the least and most one seat can end with.

    >>> Bounds(1, 1, 0.0, 1.0).max_return
    1.0
    """

    max_decisions: int
    max_chance_steps: int
    min_return: float
    max_return: float
