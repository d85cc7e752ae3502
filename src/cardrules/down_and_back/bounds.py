"""How long a Down and Back game can last and what it can pay (DB-30 to DB-44).

What a bounded adapter such as OpenSpiel's needs (``RULES.bounds``).  An
open-ended game (``rounds=None``, DB-44) has no bounds.

>>> b = bounds({"num_players": 2, "ante": 1, "rounds": 3})
>>> b.max_decisions, b.min_return, b.max_return
(81, -3.0, 3.0)
"""

from __future__ import annotations

from cardrules._validate import require_int
from cardrules.down_and_back.state import DEFAULT_ROUNDS
from cardrules.engine.bounds import Bounds
from cardrules.engine.rules import SettingValues

__all__ = ["bounds"]


def bounds(settings: SettingValues) -> Bounds:
    """The bounds of a game with ``settings`` (missing ones take their defaults).

    A round is one cut, six turns of two actions per seat and one split per
    seat: ``13 * num_players + 1`` decisions.  Its chance steps are the
    deal's shuffle (51 steps), reshuffles of the discard pile while playing
    (at most one per stock draw plus one stock: ``6 * num_players + 52``)
    and room for two whole-deck reshuffles of tie-break draws (DB-36,
    DB-42); one more step chooses the first dealer (DB-31).  A seat loses
    at most its antes and wins at most everyone else's (DB-30, DB-43).

    >>> bounds({"num_players": 4, "ante": 2, "rounds": 5}).max_chance_steps
    1146
    >>> bounds({"rounds": None})
    Traceback (most recent call last):
    ...
    ValueError: an open-ended Down and Back game (rounds=None, DB-44) has no bounds: give rounds
    """
    players = require_int("num_players", settings.get("num_players", 4), minimum=2, maximum=5)
    ante = require_int("ante", settings.get("ante", 1), minimum=1)
    rounds = settings.get("rounds", DEFAULT_ROUNDS)
    if rounds is None:
        raise ValueError("an open-ended Down and Back game (rounds=None, DB-44) has no bounds: "
                         "give rounds")
    rounds = require_int("rounds", rounds, minimum=1)
    return Bounds(
        max_decisions=rounds * (13 * players + 1),
        max_chance_steps=1 + rounds * (51 + 6 * players + 52 + 2 * 51),
        min_return=float(-ante * rounds),
        max_return=float((players - 1) * ante * rounds))
