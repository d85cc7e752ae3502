"""What the server tests share: an app on a fresh database, tables, and
WebSocket players that move at random."""

from __future__ import annotations

import random
import threading
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")   # Starlette's notice about httpx
    from starlette.testclient import TestClient

from cardrules.server import create_app
from cardrules.server.limits import Limits

#: Limits that let a test make many tables at once, bot tables playing unwatched.
RELAXED = Limits(tables_per_minute=60_000, table_burst=10_000, max_tables=10_000,
                 bots_play_unwatched=True)

#: Short games: Back Alley of 3 deals, Down and Back of one round.
SHORT = {"back-alley": {"max_hand_size": 2}, "down-and-back": {"rounds": 1}}


@contextmanager
def served(database: Path | str, **options: Any) -> Iterator[TestClient]:
    """A TestClient of a started app (bots move at once unless told otherwise;
    the limits on making tables, and the pause of unwatched bot tables, lifted
    unless ``limits`` is given)."""
    options.setdefault("bot_delay", 0)
    options.setdefault("limits", RELAXED)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        client = TestClient(create_app(str(database), **options))
    with client:
        yield client


def new_table(client: TestClient, game: str, seats: Sequence[str], seed: int = 1,
              **settings: int | None) -> tuple[str, dict[int, str]]:
    """Create a table; its id and the token of each human seat."""
    body = {"game": game, "settings": {**SHORT[game], **settings}, "seats": list(seats),
            "seed": seed}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], {entry["seat"]: entry["token"] for entry in data["seats"]}


def url(table_id: str, token: str | None = None) -> str:
    return f"/ws/tables/{table_id}" + ("" if token is None else f"?token={token}")


def play_seat(client: TestClient, table_id: str, token: str | None, seed: int,
              received: list[dict[str, Any]], *, act: bool = True) -> None:
    """Connect as one seat (or a spectator without ``token``), keep every
    message in ``received`` and, with ``act``, answer each turn with a random
    legal action, until the game is over."""
    rng = random.Random(seed)
    with client.websocket_connect(url(table_id, token)) as ws:
        while True:
            message = ws.receive_json()
            received.append(message)
            if message["type"] != "view":
                continue
            if message["over"]:
                return
            if act and message["legal"]:
                ws.send_json({"type": "act", "version": message["version"],
                              "action": rng.choice(message["legal"])})


def play_all(client: TestClient, table_id: str, tokens: dict[int, str],
             spectators: int = 1) -> dict[int | None, list[dict[str, Any]]]:
    """Every human seat played at random by its own client (one thread each)
    with ``spectators`` watching, to the end; every message each received,
    by seat (None: the first spectator's)."""
    received: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in tokens}
    watchers: list[list[dict[str, Any]]] = [[] for _ in range(spectators)]
    if watchers:
        received[None] = watchers[0]
    threads = [threading.Thread(target=play_seat, args=(client, table_id, token, 10 + seat,
                                                        received[seat]), daemon=True)
               for seat, token in tokens.items()]
    threads += [threading.Thread(target=play_seat, args=(client, table_id, None, 0, seen),
                                 kwargs={"act": False}, daemon=True) for seen in watchers]
    errors: list[BaseException] = []

    def guard(thread: threading.Thread) -> None:
        target = thread.run

        def run() -> None:
            try:
                target()
            except BaseException as err:  # reported by the caller
                errors.append(err)
        thread.run = run  # type: ignore[method-assign]

    for thread in threads:
        guard(thread)
        thread.start()
    for thread in threads:
        thread.join(120)
        assert not thread.is_alive(), "a client did not see the end of the game"
    assert errors == []
    return received
