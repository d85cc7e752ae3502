"""What the server allows each client, and whom it answers: :class:`Limits`.

The defaults hold a server on the open internet: small request bodies, a
bounded queue and a message rate per WebSocket, a rate per client address
for making and joining tables, a cap on open tables, and the Host and
Origin headers checked.  ``cardrules serve`` sets them from its options
(see :doc:`/server`); :func:`~cardrules.server.create_app` takes them as
``limits``.

>>> Limits().max_body
16384
>>> Limits(max_tables=0)
Traceback (most recent call last):
...
ValueError: max_tables must be a whole number of at least 1, not 0
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

import attrs

from cardrules._validate import require_int

__all__ = ["LOOPBACK_HOSTS", "Limits", "RateLimit"]

#: The host names a server bound to a loopback address answers by default.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


def _whole(minimum: int) -> Callable[[object, attrs.Attribute[int], int], None]:
    def check(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        require_int(attribute.name, value, minimum=minimum)
    return check


def _positive(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not 0 < value < math.inf:
        raise ValueError(f"{attribute.name} must be a positive number, not {value!r}")


def _names(value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    return tuple(str(item) for item in value)  # type: ignore[attr-defined]


def _origins(value: object) -> tuple[str, ...]:
    return _names(value) or ()


@attrs.frozen(kw_only=True)
class Limits:
    """The server's limits (every one has a default; see the module).

    - ``max_body``: the largest request body, in bytes (413 beyond it);
    - ``max_message``: the largest WebSocket message, in bytes (refused
      with a ``bad-message`` error);
    - ``queue``: how many messages may wait for one WebSocket client; a
      client that lets more pile up (it sends and never reads) is cut off
      (close code 1008);
    - ``send_timeout``: seconds a client may take to take one message
      before it is cut off;
    - ``messages_per_second`` and ``message_burst``: how many messages one
      WebSocket may send (a client beyond them is cut off, 1008);
    - ``tables_per_minute`` and ``table_burst``: how many tables one client
      address may make or join (429 beyond them);
    - ``max_tables``: how many unfinished tables the server keeps (503
      beyond it);
    - ``allowed_hosts``: the names the server answers for in the Host
      header (None: any; ``cardrules serve`` on a loopback address:
      :data:`LOOPBACK_HOSTS`); ``"*.example.org"`` covers the subdomains;
    - ``allowed_origins``: the origins (``https://cards.example.org``) a
      browser may open WebSockets and make tables from, besides the
      server's own (``"*"``: any);
    - ``bots_play_unwatched``: whether a table of bots alone plays while
      nobody watches it (by default it waits for a spectator).

    >>> Limits(allowed_hosts="localhost").allowed_hosts
    ('localhost',)
    >>> Limits(messages_per_second=0)
    Traceback (most recent call last):
    ...
    ValueError: messages_per_second must be a positive number, not 0
    """

    max_body: int = attrs.field(default=16 * 1024, validator=_whole(64))
    max_message: int = attrs.field(default=4096, validator=_whole(64))
    queue: int = attrs.field(default=32, validator=_whole(1))
    send_timeout: float = attrs.field(default=10.0, validator=_positive)
    messages_per_second: float = attrs.field(default=20.0, validator=_positive)
    message_burst: int = attrs.field(default=60, validator=_whole(1))
    tables_per_minute: float = attrs.field(default=20.0, validator=_positive)
    table_burst: int = attrs.field(default=20, validator=_whole(1))
    max_tables: int = attrs.field(default=500, validator=_whole(1))
    allowed_hosts: tuple[str, ...] | None = attrs.field(default=None, converter=_names)
    allowed_origins: tuple[str, ...] = attrs.field(default=(), converter=_origins)
    bots_play_unwatched: bool = False

    def host_allowed(self, host: str) -> bool:
        """True when the server answers for ``host`` (the Host header, a port
        allowed after it).

        >>> limits = Limits(allowed_hosts=("localhost", "*.example.org"))
        >>> [limits.host_allowed(h) for h in ("localhost:8000", "a.example.org", "evil.net")]
        [True, True, False]
        """
        if self.allowed_hosts is None or "*" in self.allowed_hosts:
            return True
        name = _host_name(host)
        for allowed in self.allowed_hosts:
            allowed = allowed.lower()
            if allowed.startswith("*.") and name.endswith(allowed[1:]):
                return True
            if name == _host_name(allowed):
                return True
        return False

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """True when a browser page from ``origin`` may change things here:
        no Origin (not a browser's request), the server's own origin (the
        same host as the Host header), or one of ``allowed_origins``.

        >>> Limits().origin_allowed("http://localhost:8000", "localhost:8000")
        True
        >>> Limits().origin_allowed("https://evil.example", "localhost:8000")
        False
        >>> Limits(allowed_origins="https://evil.example").origin_allowed(
        ...     "https://evil.example", "localhost:8000")
        True
        """
        if origin is None:
            return True
        origin = origin.strip().lower().rstrip("/")
        if "*" in self.allowed_origins or origin in {o.lower().rstrip("/")
                                                     for o in self.allowed_origins}:
            return True
        if host is None or "://" not in origin:
            return False
        return origin.split("://", 1)[1] == host.strip().lower()


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


class RateLimit:
    """A token bucket per key (a client address, a connection): ``rate``
    tokens a second up to ``burst``; :meth:`take` spends one or says no.
    At most ``keys`` keys are remembered (the oldest forgotten first).

    >>> limit = RateLimit(rate=1.0, burst=2)
    >>> [limit.take("a", now=0.0) for _ in range(3)], limit.take("a", now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, rate: float, burst: int, keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float | None = None) -> bool:
        """Spend one token of ``key``: False when it has none left."""
        now = time.monotonic() if now is None else now
        tokens, then = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return allowed

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` has a token again (0 when it has one).

        >>> limit = RateLimit(rate=0.5, burst=1)
        >>> limit.take("a", now=0.0), limit.wait("a", now=0.0)
        (True, 2.0)
        """
        now = time.monotonic() if now is None else now
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate
