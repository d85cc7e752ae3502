"""The web table: the pages, scripts, styles and card pictures the server serves.

A placeholder: the web table's routes are filled in by the issue 17 work.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

__all__ = ["routes"]


def routes() -> list[BaseRoute]:
    """The web table's routes, which the server's app mounts beside its API."""
    return []
