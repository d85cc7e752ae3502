"""Recorded games the tests replay, kept beside this module.

``db_recorded_games.json`` holds Down and Back games recorded by an older version
(random and rigged ones, with tie-breaks and reshuffles); the current code
must replay every one to the same money and round results.

>>> games = db_recorded_games()
>>> len(games) > 0 and all("record" in game for game in games)
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The Down and Back recordings.
DB_RECORDED_GAMES = Path(__file__).with_name("db_recorded_games.json")


def db_recorded_games() -> list[dict[str, Any]]:
    """The entries of :data:`DB_RECORDED_GAMES` (its ``"games"`` list)."""
    games: list[dict[str, Any]] = json.loads(
        DB_RECORDED_GAMES.read_text(encoding="utf-8"))["games"]
    return games
