"""How long a Back Alley game can last and what it can pay (BA-10 to BA-43).

What a bounded adapter such as OpenSpiel's needs (``RULES.bounds``).
Throw-ins (BA-25) could repeat without end, so the bounds take the limit
setting ``max_throw_ins`` (``RULES.limit_settings``, default 50): room for
that many extra deals.

>>> b = bounds({"max_hand_size": 2, "max_throw_ins": 50})
>>> b.max_decisions, b.max_return
(236, 200.0)
"""

from __future__ import annotations

from cardrules._validate import require_int
from cardrules.back_alley.state import MAX_HAND_SIZE, Settings, hand_size_of
from cardrules.engine.bounds import Bounds
from cardrules.engine.rules import SettingValues

__all__ = ["MAX_THROW_INS", "bounds"]

#: The default of the limit setting ``max_throw_ins``.
MAX_THROW_INS = 50


def bounds(settings: SettingValues) -> Bounds:
    """The bounds of a game with ``settings`` (missing ones take their defaults).

    Each deal is one shuffle of 54 cards (53 chance steps, BA-12), after
    the one step that chooses the first dealer (BA-11); ``max_throw_ins``
    makes room for that many deals thrown in (BA-25).  A deal played is four
    bids and four cards per trick; a deal thrown in, four passes (one more
    throw-in than the room, which ends the game, is counted too).  A deal
    scores at most 40 points per card either way (BA-41), and the hand sizes
    add up to ``max_hand_size ** 2``.

    >>> bounds({"max_hand_size": 3, "max_throw_ins": 2}).max_chance_steps
    372
    >>> bounds({"max_throw_ins": -1})
    Traceback (most recent call last):
    ...
    ValueError: max_throw_ins must be a whole number of at least 0, not -1
    """
    max_hand_size = require_int("max_hand_size", settings.get("max_hand_size", MAX_HAND_SIZE),
                                minimum=1, maximum=MAX_HAND_SIZE)
    throw_ins = require_int("max_throw_ins", settings.get("max_throw_ins", MAX_THROW_INS),
                            minimum=0)
    deals = Settings(max_hand_size=max_hand_size).deals
    sizes = [hand_size_of(deal, max_hand_size) for deal in range(1, deals + 1)]
    points = 40.0 * sum(sizes)
    return Bounds(
        max_decisions=sum(4 + 4 * size for size in sizes) + 4 * (throw_ins + 1),
        max_chance_steps=1 + 53 * (deals + throw_ins),
        min_return=-points, max_return=points)
