"""The batch engine: thousands of games per step in numpy (``cardrules[numpy]``).

:func:`make` builds a :class:`~cardrules.vector.base.VectorGame` for a game
by name from the engine each game keeps in its own package
(``cardrules.down_and_back.vector``, ``cardrules.back_alley.vector``); each
is exact to its reducer (see
:meth:`~cardrules.vector.base.VectorGame.state` and
:meth:`~cardrules.vector.base.VectorGame.record`).  The batch bots are in
:mod:`cardrules.vector.bots`, a Gymnasium-style wrapper in
:mod:`cardrules.vector.gym`.
"""

from __future__ import annotations

try:
    import numpy as _np  # noqa: F401
except ImportError as _error:  # pragma: no cover - depends on the installation
    raise ImportError('cardrules.vector needs numpy: pip install "cardrules[numpy]"') \
        from _error

from typing import TYPE_CHECKING, Any

from cardrules._validate import is_int
from cardrules.vector.base import VectorGame, random_actions

if TYPE_CHECKING:
    from cardrules.engine.rules import Rules

__all__ = ["MAX_GAMES", "VectorGame", "make", "random_actions", "vector_rules"]

#: The most games one :func:`make` plays side by side (a batch of 2**24
#: games is tens of GiB; larger numbers are refused rather than allocated).
MAX_GAMES = 1 << 24


def vector_rules(game: str | Rules[Any, Any]) -> Rules[Any, Any]:
    """The rules of ``game`` (a registered name in any case, with ``-`` or
    ``_``, or a :class:`~cardrules.engine.Rules`), checked to have a batch
    engine (its ``vector`` field); :class:`ValueError` otherwise.

    >>> vector_rules("Down-And-Back").name
    'down_and_back'
    >>> vector_rules("go fish")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown game (choose from down-and-back, back-alley...): 'go fish'
    """
    from cardrules.engine.registry import rules_for
    from cardrules.engine.rules import Rules

    if not isinstance(game, str | Rules):
        raise ValueError(f"a game is given by its name or its Rules, not {game!r}")
    rules = rules_for(game)
    if rules.vector is None:
        raise ValueError(f"{rules.title} has no batch engine (its Rules.vector is None)")
    return rules


def make(game: str | Rules[Any, Any], num_games: int, *, seed: int,
         **settings: int | None) -> VectorGame:
    """``num_games`` games of ``game`` side by side, with the game's settings
    (the keywords of its ``new_game``; those left out take their defaults).

    ``game`` is a registered name in any case, with ``-`` or ``_``
    (``"down-and-back"``, ``"back_alley"``) or a game's
    :class:`~cardrules.engine.Rules`; the game's ``Rules.vector`` builds
    the engine.  Game ``i`` draws its chance from a stream keyed by
    ``seed`` and ``i`` alone (:mod:`cardrules.vector.streams`), so it is the
    same game whatever ``num_games`` is.  Refused with :class:`ValueError`:
    a game without a batch engine, an unknown setting or a bad value (as
    ``new_game`` refuses it), ``num_games`` outside 1 to :data:`MAX_GAMES`,
    a seed that is not a whole number.

    >>> from cardrules.vector import make
    >>> make("down-and-back", 0, seed=1)
    Traceback (most recent call last):
    ...
    ValueError: num_games must be a whole number from 1 to 16777216, not 0
    >>> make("back-alley", 8, seed=1, players=4)
    Traceback (most recent call last):
    ...
    ValueError: unknown Back Alley setting 'players' (known: max_hand_size)
    """
    rules = vector_rules(game)
    if not is_int(num_games) or not 1 <= num_games <= MAX_GAMES:
        raise ValueError(f"num_games must be a whole number from 1 to {MAX_GAMES}, "
                         f"not {num_games!r}")
    if not is_int(seed):
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    # new_game checks every setting (names and values) as it does for one game.
    start = rules.new_game_from_settings(settings)
    complete = dict(rules.settings_of(start))
    assert rules.vector is not None
    engine = rules.vector(int(num_games), int(seed), complete)
    if not isinstance(engine, VectorGame):
        raise TypeError(f"{rules.title}'s Rules.vector made a {type(engine).__name__}, "
                        f"not a VectorGame")
    return engine
