"""The server's outer layer: whom it answers, and the headers on every answer.

:class:`Guard` wraps the whole application (pure ASGI, so WebSockets and
the lifespan pass through it too):

- a Host header the server does not answer for (:meth:`Limits.host_allowed
  <cardrules.server.limits.Limits.host_allowed>`) is refused: 400 for a
  request, a WebSocket closed before it opens (the handshake answered 403);
- a state-changing request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) or a
  WebSocket from a foreign Origin (:meth:`Limits.origin_allowed
  <cardrules.server.limits.Limits.origin_allowed>`) is refused with 403;
- every answer carries :data:`SECURITY_HEADERS`;
- a failure to start (a damaged database) is reported as its one line.

Each refusal is logged as one line, never a traceback.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from cardrules.server.limits import Limits

__all__: list[str] = []

log = logging.getLogger("cardrules.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The headers every answer carries: the pages load only the server's own
#: scripts, styles, pictures and WebSocket, no page may frame them, no
#: answer is sniffed for another type, and no address leaves in a referrer.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

_CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


class Guard:
    """The ASGI layer described in the module, around ``app``.

    ``failure`` gives the one-line reason the application failed to start,
    or None: it replaces the traceback a failed lifespan would report.
    """

    def __init__(self, app: ASGIApp, limits: Limits,
                 failure: Callable[[], str | None] = lambda: None) -> None:
        self.app = app
        self.limits = limits
        self.failure = failure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self.app(scope, receive, self._lifespan_send(send))
            return
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if host is not None and not self.limits.host_allowed(host):
            log.warning("%s: refused: host %r is not served here", _client(scope), host[:80])
            await self._refuse(scope, send, 400, "this server does not answer for that host")
            return
        if kind == "websocket" or scope.get("method") in _CHANGES:
            origin = _header(scope, b"origin")
            if not self.limits.origin_allowed(origin, host):
                log.warning("%s: refused: origin %r may not %s", _client(scope),
                            (origin or "")[:80],
                            "open a WebSocket" if kind == "websocket" else "change things")
                await self._refuse(scope, send, 403, "requests from that origin are refused")
                return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {bytes(key).lower() for key, _ in headers}
                headers += [(key, value) for key, value in SECURITY_HEADERS
                            if key not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _refuse(self, scope: Scope, send: Send, status: int, reason: str) -> None:
        if scope["type"] == "websocket":
            # Closing before accepting: the server answers the handshake with 403.
            await send({"type": "websocket.close", "code": 1008, "reason": reason})
            return
        body = json.dumps({"error": reason}).encode("utf-8")
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode("ascii")),
                                *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})

    def _lifespan_send(self, send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "lifespan.startup.failed":
                reason = self.failure()
                if reason is not None:
                    message = {**message, "message": reason}
            await send(message)
        return wrapped
