"""A reference game server for every game the registry knows (extra ``cardrules[server]``).

:func:`create_app` is an ASGI application (Starlette) with a lobby API, a
WebSocket per table, bots that play their seats on the server, an optional
turn timer and a database (SQLite by default, any SQLAlchemy URL) that
stores every accepted action before anyone is told, so that a restarted
server resumes every table where it stood.  ``cardrules serve`` runs it on
uvicorn.

>>> from cardrules.server import create_app
>>> create_app("sqlite://", bot_delay=0).routes[0].path
'/api/games'
"""

from __future__ import annotations

try:
    import sqlalchemy as _sqlalchemy  # noqa: F401
    import starlette as _starlette  # noqa: F401
except ImportError as _err:  # pragma: no cover - depends on what is installed
    raise ImportError(f"the game server needs the server extra: pip install "
                      f"\"cardrules[server]\" ({_err})") from None

from cardrules.server.app import create_app

__all__ = ["create_app"]
