"""The connection limits ``cardrules serve`` adds to uvicorn's HTTP protocol.

:func:`guarded_protocol` gives a subclass of uvicorn's HTTP protocol (h11
or httptools) that

- refuses a connection beyond ``max_connections`` open at once, or beyond
  ``per_client`` from one address, with ``503`` and closes it at once;
- answers ``408`` and closes a connection whose request headers are not
  complete within ``header_timeout`` seconds of its first byte (or of its
  opening), so clients that send one header line every few seconds cannot
  hold the server's file descriptors;

and logs each refusal as one line.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

__all__: list[str] = []

log = logging.getLogger("cardrules.server")

_UNAVAILABLE = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n"
                b"content-length: 32\r\nconnection: close\r\n\r\n"
                b"too many connections: try later\n")
_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\n"
            b"content-length: 31\r\nconnection: close\r\n\r\n"
            b"the request headers came slowly\n")


def guarded_protocol(header_timeout: float, max_connections: int, per_client: int,
                     base: type[asyncio.Protocol] | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (``base``; by default the one uvicorn
    would choose) with the limits of the module."""
    if base is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        base = AutoHTTPProtocol

    class Guarded(base):  # type: ignore[valid-type,misc]
        _header_timer: asyncio.TimerHandle | None = None
        _refused = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = self.client[0] if self.client else "?"
            connections = self.server_state.connections
            same = sum(1 for c in connections
                       if getattr(c, "client", None) and c.client[0] == peer)
            if len(connections) > max_connections or same > per_client:
                self._refused = True
                log.warning("%s: refused a connection: %d open, %d from this address",
                            peer, len(connections), same)
                transport.write(_UNAVAILABLE)
                transport.close()
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _waiting_for_headers(self) -> bool:
            return self.cycle is None or bool(self.cycle.response_complete)

        def _arm(self) -> None:
            if not self._waiting_for_headers():
                self._disarm()
            elif self._header_timer is None:
                self._header_timer = self.loop.call_later(header_timeout, self._expired)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _expired(self) -> None:
            self._header_timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return   # closed, or become a WebSocket
            if not self._waiting_for_headers():
                return
            peer = self.client[0] if self.client else "?"
            log.warning("%s: closed a connection whose request took more than %g s",
                        peer, header_timeout)
            transport.write(_TIMEOUT)
            transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded
