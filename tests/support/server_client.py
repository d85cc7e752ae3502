"""A small client of the game server for the tests that drive a real server
process (the fault and load tests, the benchmark): the lobby calls over
HTTP (httpx) and one WebSocket connection per seat or spectator
(websockets), plus the check that a finished record replays through the
library to what the server showed.

Everything here speaks the server's protocol (its documentation page): the lobby's
``POST /api/tables`` and ``GET /api/tables/{id}/record``, and on
``/ws/tables/{id}?token=T`` the server's ``view`` and ``error`` messages and
the client's ``act``.

>>> over({"type": "view", "version": 3, "view": {"phase": "game_over"}, "legal": []})
True
>>> over({"type": "view", "version": 3, "view": {"phase": "play"}, "legal": ["pass"]})
False
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from cardrules.engine.records import GameRecord, Seated
from cardrules.engine.registry import rules_for

__all__ = ["Connection", "Message", "ReplayCheck", "Table", "create_table", "fetch_record",
           "over", "replay_check", "ws_address"]

#: One JSON message of the protocol, as decoded.
Message = dict[str, Any]


@dataclass(frozen=True)
class Table:
    """A table the lobby created: its id, game, settings and human seats' tokens."""

    id: str
    game: str
    settings: Mapping[str, int | None]
    seats: tuple[str, ...]
    tokens: Mapping[int, str] = field(default_factory=dict)


async def create_table(http: httpx.AsyncClient, game: str, settings: Mapping[str, int | None],
                       seats: Sequence[str]) -> Table:
    """``POST /api/tables``: a new table, with a token for each human seat."""
    answer = await http.post("/api/tables", json={"game": game, "settings": dict(settings),
                                                  "seats": list(seats)})
    if answer.status_code not in (200, 201):
        raise AssertionError(f"creating {game} {settings} {seats}: "
                             f"{answer.status_code} {answer.text}")
    data = answer.json()
    tokens = {int(entry["seat"]): str(entry["token"]) for entry in data["seats"]
              if entry.get("token")}
    return Table(str(data["id"]), game, dict(settings), tuple(seats), tokens)


async def fetch_record(http: httpx.AsyncClient, table_id: str) -> GameRecord | None:
    """``GET /api/tables/{id}/record``: the finished game's record, or None
    while the game is not over (409)."""
    answer = await http.get(f"/api/tables/{table_id}/record")
    if answer.status_code == 409:
        return None
    if answer.status_code != 200:
        raise AssertionError(f"record of {table_id}: {answer.status_code} {answer.text}")
    data = answer.json()
    return GameRecord.from_dict(data.get("record", data) if isinstance(data, dict) else data)


def ws_address(base: str, table_id: str, token: str | None) -> str:
    """The WebSocket address of a table, for a seat's token or a spectator.

    >>> ws_address("ws://127.0.0.1:1", "t1", None)
    'ws://127.0.0.1:1/ws/tables/t1'
    >>> ws_address("ws://127.0.0.1:1", "t1", "abc")
    'ws://127.0.0.1:1/ws/tables/t1?token=abc'
    """
    address = f"{base}/ws/tables/{table_id}"
    return address if token is None else f"{address}?token={token}"


def over(message: Message) -> bool:
    """True when a view message shows a finished game."""
    if message.get("over") is True or message.get("status") in ("over", "finished"):
        return True
    view = message.get("view")
    return isinstance(view, dict) and view.get("phase") == "game_over"


class Connection:
    """One WebSocket connection to a table, as a seat (``token``) or a spectator.

    :meth:`view` waits for the next view message (errors received meanwhile
    are kept in :attr:`errors`); :meth:`act` sends an action for a version.
    """

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.last: Message | None = None
        self.errors: list[Message] = []

    @classmethod
    async def open(cls, base: str, table_id: str, token: str | None,
                   timeout: float = 10.0) -> Connection:
        """Connect and wait for the first view (the full sync)."""
        socket = await asyncio.wait_for(
            websockets.connect(ws_address(base, table_id, token), open_timeout=timeout,
                               ping_interval=None, max_size=None), timeout)
        connection = cls(socket)
        try:
            await connection.view(timeout)
        except Exception:   # no first view: the socket is not left open
            await connection.close()
            raise
        return connection

    @property
    def version(self) -> int:
        """The version of the last view received (-1 before any)."""
        return -1 if self.last is None else int(self.last["version"])

    async def message(self, timeout: float) -> Message:
        """The next message of any type."""
        raw = await asyncio.wait_for(self.socket.recv(), timeout)
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise AssertionError(f"not a JSON object: {raw!r}")
        return cast(Message, data)

    async def view(self, timeout: float) -> Message:
        """The next view message; error messages on the way are kept."""
        while True:
            data = await self.message(timeout)
            if data.get("type") == "error":
                self.errors.append(data)
            elif data.get("type") == "view":
                self.last = data
                return data

    async def reply(self, timeout: float) -> Message:
        """The next view or error message (the answer to an act)."""
        while True:
            data = await self.message(timeout)
            if data.get("type") == "error":
                self.errors.append(data)
                return data
            if data.get("type") == "view":
                self.last = data
                return data

    async def act(self, version: int, action: str) -> None:
        """Send ``action`` for the table at ``version``."""
        await self.socket.send(json.dumps({"type": "act", "version": version,
                                           "action": action}))

    async def close(self) -> None:
        """Close the connection (quietly if it is already gone)."""
        with contextlib.suppress(OSError, websockets.ConnectionClosed):
            await self.socket.close()


@dataclass(frozen=True)
class ReplayCheck:
    """What replaying a finished record showed: the number of actions, and
    the final state's returns."""

    actions: int
    returns: tuple[int, ...]


def replay_check(record: GameRecord, *, final: Message | None = None,
                 seat: int | None = None,
                 sent: Mapping[int, str] | None = None) -> ReplayCheck:
    """Replay ``record`` through the library and check it against what a
    client was shown: the game ends; when ``final`` (the last view message,
    of ``seat``, None for a spectator) is given, its version is the number of
    actions and its view is that seat's (or the public) view of the final state; every action in
    ``sent`` (by the version it was sent at, each acknowledged) is the
    record's action at that place.  An ``AssertionError`` says what differs.

    >>> from cardrules.engine import RandomBot
    >>> rules = rules_for("back_alley")
    >>> played = rules.play([RandomBot(k) for k in range(4)], {"max_hand_size": 2}, seed=1)
    >>> check = replay_check(played.record)
    >>> check.returns == rules.returns(played.state), check.actions == len(played.record.actions)
    (True, True)
    """
    rules = rules_for(record.game)
    *_, state = rules.replay(record)
    assert state.is_terminal, f"the {record.game} record does not end the game"
    returns = tuple(rules.returns(state))
    count = len(record.actions)
    if final is not None:
        assert int(final["version"]) == count, \
            f"the last view was version {final['version']}, the record has {count} actions"
        assert rules.view_to_dict is not None
        view = rules.view(state, seat) if seat is not None else rules.public_view(state) \
            if rules.public_view is not None else None
        if view is not None:
            expected = json.loads(json.dumps(rules.view_to_dict(view)))
            assert final["view"] == expected, \
                f"{'seat ' + str(seat) if seat is not None else 'a spectator'}'s final view " \
                "differs from the replay's"
        if "returns" in final:
            assert tuple(final["returns"]) == returns, (final["returns"], returns)
    for version, text in (sent or {}).items():
        entry = record.actions[version]
        action = entry.action if isinstance(entry, Seated) else entry
        assert action == rules.parse_action(text), \
            f"action {version}: the record has {entry}, the client sent {text!r}"
    return ReplayCheck(count, returns)
