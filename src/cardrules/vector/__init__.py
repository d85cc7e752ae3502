"""The batch engine: thousands of games per step in numpy (``cardrules[numpy]``).

:func:`make` builds a :class:`~cardrules.vector.base.VectorGame` for a game
by name; each game's engine is exact to its reducer (see
:meth:`~cardrules.vector.base.VectorGame.state` and
:meth:`~cardrules.vector.base.VectorGame.record`).
"""

from __future__ import annotations

try:
    import numpy as _np  # noqa: F401
except ImportError as _error:  # pragma: no cover - depends on the installation
    raise ImportError('cardrules.vector needs numpy: pip install "cardrules[numpy]"') \
        from _error

from cardrules.vector.base import VectorGame, random_actions

__all__ = ["VectorGame", "random_actions"]
