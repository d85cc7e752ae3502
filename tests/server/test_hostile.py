"""A hostile client against the server: each test is one finding of a hostile
run, and fails on the server before its fix.

The lobby and WebSocket checks run on the app in process (Starlette's
TestClient); what only a real HTTP server shows (slow headers, many
connections, invalid UTF-8 on the wire, a client leaving mid-body, the
start of ``cardrules serve`` on a damaged database) runs against
``cardrules serve`` on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa
from starlette.requests import Request
from starlette.websockets import WebSocketDisconnect

from cardrules.server._live import MAX_FAILURES, Client, LiveTable, _texts
from cardrules.server._requests import BadRequest, read_json
from cardrules.server.limits import Limits
from cardrules.server.store import database_url
from support import ROOT
from support.serverplay import RELAXED, new_table, served, url

if TYPE_CHECKING:
    from starlette.testclient import TestClient

JSON = {"content-type": "application/json"}


def _ba(client: TestClient, seats: list[str] | None = None, **extra: Any) -> Any:
    body = {"game": "back-alley", "settings": {"max_hand_size": 2}, **extra}
    if seats is not None:
        body["seats"] = seats
    return client.post("/api/tables", json=body)


# -- request bodies -------------------------------------------------------------------


def test_deeply_nested_json_is_a_400_not_a_server_error(database: str) -> None:
    with served(database) as client:
        answer = client.post("/api/tables", content=b"[" * 10_000, headers=JSON)
        assert answer.status_code == 400
        assert "nested" in answer.json()["error"]
        assert client.post("/api/tables/x/join", content=b"{\"a\":" * 3000,
                           headers=JSON).status_code == 400


def test_a_body_over_16_kib_is_refused_from_its_length_before_it_is_read(
        database: str) -> None:
    with served(database) as client:
        answer = client.post("/api/tables", content=b" " * (16 * 1024 + 1), headers=JSON)
        assert answer.status_code == 413


    read: list[int] = []

    async def receive() -> dict[str, Any]:   # no Content-Length: 1 KiB chunks, counted
        read.append(1)
        return {"type": "http.request", "body": b" " * 1024, "more_body": len(read) < 1000}

    async def run() -> int:
        request = Request({"type": "http", "method": "POST", "path": "/api/tables",
                           "headers": [(b"content-type", b"application/json")]}, receive)
        try:
            await read_json(request, 16 * 1024)
        except BadRequest as err:
            return err.status
        return 200

    assert asyncio.run(run()) == 413
    assert len(read) == 17


def test_state_changing_requests_must_be_declared_json(database: str) -> None:
    with served(database) as client:
        body = json.dumps({"game": "back-alley"})
        for kind in ("text/plain", "application/x-www-form-urlencoded",
                     "multipart/form-data; boundary=x"):
            answer = client.post("/api/tables", content=body, headers={"content-type": kind})
            assert answer.status_code == 415, kind
        assert client.post("/api/tables", content=body).status_code == 415
        assert client.post("/api/tables", content=body, headers=JSON).status_code == 201
        assert client.get("/api/tables").json()["tables"][0]["game"] == "back-alley"


def test_every_setting_is_held_to_numbers_a_client_reads_exactly(database: str) -> None:
    with served(database) as client:
        huge = int("9" * 4300)
        answer = client.post("/api/tables", json={"game": "down-and-back",
                                                  "settings": {"ante": huge}})
        assert answer.status_code == 400
        assert "'ante'" in answer.json()["error"]
        answer = client.post("/api/tables", json={"game": "down-and-back",
                                                  "settings": {"ante": 2 ** 53}})
        assert answer.status_code == 400
        # the bounds of what a seat can win: 2**50 a round, 10 rounds, 5 seats
        answer = client.post("/api/tables", json={"game": "down-and-back",
                                                  "settings": {"ante": 2 ** 50,
                                                               "num_players": 5}})
        assert answer.status_code == 400
        assert "win or lose" in answer.json()["error"]
        assert client.get("/api/tables").json()["tables"] == []


def test_a_table_of_bots_alone_must_be_finite(database: str) -> None:
    with served(database) as client:
        answer = client.post("/api/tables", json={
            "game": "down-and-back", "settings": {"rounds": None},
            "seats": ["bot:random", "bot:random"]})
        assert answer.status_code == 400
        assert "must end" in answer.json()["error"]
        answer = client.post("/api/tables", json={
            "game": "down-and-back", "settings": {"rounds": None},
            "seats": ["human", "bot:random"]})
        assert answer.status_code == 201


# -- making tables ----------------------------------------------------------------------


def test_one_client_may_make_only_so_many_tables_a_minute(database: str) -> None:
    limits = Limits(tables_per_minute=1.0, table_burst=3)
    with served(database, limits=limits) as client:
        made = [_ba(client).status_code for _ in range(5)]
        assert made == [201, 201, 201, 429, 429]
        refused = _ba(client)
        assert int(refused.headers["retry-after"]) >= 1
        table = client.get("/api/tables").json()["tables"][0]["id"]
        assert client.post(f"/api/tables/{table}/join").status_code == 429


def test_the_server_keeps_at_most_max_tables_open(database: str) -> None:
    limits = Limits(max_tables=2, tables_per_minute=600.0, table_burst=100)
    with served(database, limits=limits) as client:
        assert [_ba(client).status_code for _ in range(3)] == [201, 201, 503]
        assert len(client.get("/api/tables").json()["tables"]) == 2


@pytest.mark.postgres
def test_max_tables_counts_the_tables_of_every_process(
        postgres_database: str) -> None:
    # PostgreSQL only: two servers on one SQLite file are not a thing one may run.
    url = postgres_database
    limits = Limits(max_tables=2, tables_per_minute=600.0, table_burst=100)
    with served(url, limits=limits) as first, served(url, limits=limits) as second:
        made = [_ba(first).status_code, _ba(second).status_code, _ba(second).status_code]
        assert made == [201, 201, 503]


# -- seeds ------------------------------------------------------------------------------


def test_a_table_made_with_a_chosen_seed_says_so(database: str) -> None:
    with served(database) as client:
        chosen = _ba(client, seed=5).json()["id"]
        drawn = _ba(client).json()["id"]
        listed = {t["id"]: t["chosen_seed"] for t in client.get("/api/tables").json()["tables"]}
        assert listed == {chosen: True, drawn: False}
        assert client.get(f"/api/tables/{chosen}").json()["chosen_seed"] is True
        token = _ba(client, seed=7).json()
        with client.websocket_connect(url(token["id"], token["seats"][0]["token"])) as ws:
            assert ws.receive_json()["chosen_seed"] is True


# -- events -----------------------------------------------------------------------------


def test_event_parts_keep_seats_and_numbers_as_numbers(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "down-and-back", ["human", "bot:greedy"])
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            events = ws.receive_json()["events"]
    first = events[0]
    assert first["parts"][:3] == ["chance:", "seat", first["parts"][2]]
    assert isinstance(first["parts"][2], int)
    for event in events:   # the same words and values as the text, in order
        assert "".join(map(str, event["parts"])).replace(" ", "") == \
            event["text"].replace(" ", "")
    assert any(isinstance(p, int) for event in events[1:] for p in event["parts"])


def test_parts_of_plain_tuples_keep_their_numbers() -> None:
    assert _texts(("seat", 2, "bids", 3, True)) == ["seat", 2, "bids", 3, "True"]


# -- WebSockets -------------------------------------------------------------------------


def _connect(client: TestClient, tmp_seed: int = 1) -> tuple[str, str]:
    table_id, tokens = new_table(client, "back-alley", ["human"] + ["bot:random"] * 3,
                                 seed=tmp_seed)
    return table_id, tokens[0]


def test_nested_json_and_binary_frames_get_an_error_and_the_connection_stays(
        database: str) -> None:
    with served(database) as client:
        table_id, token = _connect(client)
        with client.websocket_connect(url(table_id, token)) as ws:
            ws.receive_json()
            ws.send_text("[" * 3000)
            error = ws.receive_json()
            assert (error["rule"], "levels deep" in error["message"]) == ("bad-message", True)
            ws.send_bytes(b"\x00\xff")
            error = ws.receive_json()
            assert (error["rule"], "binary" in error["message"]) == ("bad-message", True)
            ws.send_text("x" * 5000)
            assert "at most" in ws.receive_json()["message"]
            ws.send_json({"type": "sync"})
            assert ws.receive_json()["type"] == "view"


def test_the_default_message_burst_is_three_seconds_worth() -> None:
    # As cardrules serve sets it from --messages-per-second (the server page).
    limits = Limits()
    assert (limits.messages_per_second, limits.message_burst) == (20.0, 60)


def test_a_client_that_floods_messages_is_cut_off(database: str) -> None:
    limits = Limits(messages_per_second=1.0, message_burst=5, queue=1000,
                    tables_per_minute=600.0, table_burst=100)
    with served(database, limits=limits) as client:
        table_id, token = _connect(client)
        with client.websocket_connect(url(table_id, token)) as ws:
            ws.receive_json()
            for _ in range(6):
                ws.send_text("nonsense")
            for _ in range(5):
                assert ws.receive_json()["rule"] == "bad-message"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (1008, "too many messages")


def test_a_client_that_never_reads_is_cut_off_when_its_queue_is_full() -> None:
    async def run() -> tuple[bool, int]:
        sent: list[str] = []
        never = asyncio.Event()

        async def send(text: str) -> None:   # a client that reads nothing
            sent.append(text)
            await never.wait()

        async def close() -> None:
            pass

        client = Client(0, send, close, queue=4)
        client.notify()
        for _ in range(10):
            client.error("bad-message", "x")
        return client.overflowed.is_set(), client.outbox.qsize()

    overflowed, queued = asyncio.run(run())
    assert overflowed
    assert queued == 4


def test_a_client_waiting_for_a_view_has_one_queued_however_often_it_is_told() -> None:
    # A view is built when it is sent, from the table as it stands then, so
    # changes that come while one is queued add nothing to the queue.
    async def run() -> tuple[int, bool]:
        async def send(text: str) -> None:
            pass

        async def close() -> None:
            pass

        client = Client(0, send, close, queue=4)
        for _ in range(10):
            client.notify()
        return client.outbox.qsize(), client.overflowed.is_set()

    assert asyncio.run(run()) == (1, False)


def test_a_slow_reader_is_cut_off_after_the_send_timeout() -> None:
    async def run() -> bool:
        from cardrules.server._live import Shared

        never = asyncio.Event()

        async def send(text: str) -> None:
            await never.wait()

        async def close() -> None:
            pass

        shared = Shared.__new__(Shared)
        shared.send_timeout = 0.01
        table = LiveTable.__new__(LiveTable)
        table.id, table.shared = "t", shared
        client = Client(0, send, close)
        client.error("bad-message", "x")
        await asyncio.wait_for(table.serve(client), 5)
        return client.overflowed.is_set()

    assert asyncio.run(run())


# -- who may ask ------------------------------------------------------------------------


def test_foreign_origins_may_not_change_anything_or_open_a_websocket(database: str) -> None:
    with served(database) as client:
        evil = {"origin": "https://evil.example"}
        assert client.post("/api/tables", json={"game": "back-alley"},
                           headers=evil).status_code == 403
        table_id, token = _connect(client)
        assert client.post(f"/api/tables/{table_id}/join", headers=evil).status_code == 403
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect(url(table_id, token), headers=evil):
            pass
        assert closed.value.code == 1008
        own = {"origin": "http://testserver"}
        assert client.post("/api/tables", json={"game": "back-alley"},
                           headers=own).status_code == 201
        assert client.get("/api/tables", headers=evil).status_code == 200   # reading is fine


def test_allowed_origins_are_configurable(database: str) -> None:
    limits = Limits(allowed_origins=("https://cards.example.org",),
                    tables_per_minute=600.0, table_burst=100)
    with served(database, limits=limits) as client:
        ok = {"origin": "https://cards.example.org"}
        assert client.post("/api/tables", json={"game": "back-alley"},
                           headers=ok).status_code == 201
        table_id, token = _connect(client)
        with client.websocket_connect(url(table_id, token), headers=ok) as ws:
            assert ws.receive_json()["type"] == "view"


def test_only_the_allowed_hosts_are_served(database: str) -> None:
    limits = Limits(allowed_hosts=("localhost", "127.0.0.1"),
                    tables_per_minute=600.0, table_burst=100)
    with served(database, limits=limits) as client:
        assert client.get("/api/games", headers={"host": "evil.example"}).status_code == 400
        assert client.get("/", headers={"host": "evil.example:8000"}).status_code == 400
        assert client.get("/api/games", headers={"host": "localhost:8000"}).status_code == 200
        assert client.get("/api/games", headers={"host": "127.0.0.1"}).status_code == 200


def test_every_answer_carries_the_security_headers(database: str) -> None:
    with served(database) as client:
        answers = [client.get(path) for path in
                   ("/", "/tables/x", "/api/games", "/api/tables/none", "/cards/QH.svg",
                    "/static/common.js", "/nowhere")]
        answers.append(client.post("/api/tables", content=b"x", headers=JSON))
    for answer in answers:
        headers = answer.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], answer.url
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


# -- tables nobody watches ----------------------------------------------------------------


def test_a_table_of_bots_alone_waits_until_someone_watches(database: str) -> None:
    limits = Limits(tables_per_minute=600.0, table_burst=100)
    with served(database, limits=limits) as client:
        table_id, _ = new_table(client, "back-alley", ["bot:random"] * 4)
        dealt = client.get(f"/api/tables/{table_id}").json()["version"]
        time.sleep(0.3)   # time enough for a whole short game of quick bots
        assert client.get(f"/api/tables/{table_id}").json()["version"] == dealt
        with client.websocket_connect(url(table_id)) as ws:
            while not ws.receive_json()["over"]:
                pass
        assert client.get(f"/api/tables/{table_id}").json()["finished"] is True


def test_the_driver_stops_after_five_failed_turns_in_a_row(database: str) -> None:
    turns: list[int] = []

    async def failing(self: LiveTable) -> None:
        turns.append(self.version)
        raise RuntimeError("a broken bot")

    with served(database) as client:
        server = client.app.state.cardrules  # type: ignore[attr-defined]
        server.shared.retry_delay = 0.0
        original = LiveTable._turn
        LiveTable._turn = failing  # type: ignore[method-assign]
        try:
            table_id, _ = new_table(client, "back-alley", ["human"] + ["bot:random"] * 3)
            table = server.live[table_id]
            deadline = time.monotonic() + 10   # (on PostgreSQL, driven once its lease is had)
            while (table.task is None or not table.task.done()) \
                    and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            LiveTable._turn = original  # type: ignore[method-assign]
    assert MAX_FAILURES == 5
    assert len(turns) == 5


# -- the database at start ----------------------------------------------------------------


def _table_with_a_damaged_row(database: str) -> str:
    with served(database, limits=RELAXED) as client:
        table_id, _ = new_table(client, "back-alley", ["human"] + ["bot:random"] * 3)
    _damage(database, table_id, 2, '{"type": "nonsense"}')
    return table_id


def _damage(database: str, table_id: str, version: int, text: str) -> None:
    """Change a stored action's text by hand, in either store."""
    engine = sa.create_engine(database_url(database))
    with engine.begin() as db:
        db.execute(sa.text("UPDATE actions SET action = :text WHERE table_id = :table "
                           "AND version = :version"),
                   {"text": text, "table": table_id, "version": version})
    engine.dispose()


def test_a_damaged_row_stops_the_start_naming_the_table_and_version(database: str) -> None:
    table_id = _table_with_a_damaged_row(database)
    from cardrules.server.app import StartError

    with pytest.raises(StartError, match=f"table {table_id} is damaged at version 2"), \
            served(database):
        pass


def test_a_damaged_table_can_be_quarantined_and_the_others_served(database: str) -> None:
    table_id = _table_with_a_damaged_row(database)
    with served(database, damaged="quarantine") as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [(t["id"], "version 2" in t["damaged"]) for t in listed] == [(table_id, True)]
        answer = client.get(f"/api/tables/{table_id}")
        assert answer.status_code == 409
        assert "damaged at version 2" in answer.json()["error"]
        assert client.get(f"/api/tables/{table_id}/record").status_code == 409
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect(url(table_id)) as ws:
            ws.receive_json()
        assert closed.value.code == 4409
        assert _ba(client).status_code == 201


def test_a_row_that_is_not_json_is_damage_too(database: str) -> None:
    table_id = _table_with_a_damaged_row(database)
    _damage(database, table_id, 1, "{oops")
    from cardrules.server.app import StartError

    with pytest.raises(StartError, match=r"damaged at version 1: .* not JSON"), \
            served(database):
        pass


# An emptied file and a file that is not a database are SQLite's: a database
# server has no file to empty.
def test_an_emptied_database_file_is_refused_unless_fresh(tmp_path: Path) -> None:
    from cardrules.server.app import StartError

    path = tmp_path / "db.sqlite"
    path.write_bytes(b"")
    with pytest.raises(StartError, match="empty file"), served(path):
        pass
    with served(path, fresh=True) as client:
        assert _ba(client).status_code == 201


def test_a_file_that_is_not_a_database_is_refused_in_one_sentence(tmp_path: Path) -> None:
    from cardrules.server.app import StartError

    path = tmp_path / "db.sqlite"
    path.write_bytes(b"this is not a database, only a text file of some length\n" * 20)
    with pytest.raises(StartError, match="cannot be read: file is not a database"), \
            served(path):
        pass


# -- a real server ------------------------------------------------------------------------


def _serve(db: str, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cardrules", "serve", "--db", db, "--port", "0",
         *options], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _refused_in_one_line(process: subprocess.Popen[str], words: str) -> None:
    output, _ = process.communicate(timeout=60)
    assert process.returncode != 0
    lines = [line for line in output.splitlines() if "serving on" not in line]
    assert len(lines) == 1, output
    assert words in lines[0]
    assert "Traceback" not in output


# SQLite's files, as above.
@pytest.mark.parametrize(("content", "words"), [
    (b"", "is an empty file (0 bytes); start with --fresh"),
    (b"not a database " * 100, "cannot be read: file is not a database"),
])
def test_serve_refuses_a_damaged_database_file_in_one_line(tmp_path: Path, content: bytes,
                                                           words: str) -> None:
    path = tmp_path / "db.sqlite"
    path.write_bytes(content)
    _refused_in_one_line(_serve(str(path)), words)


def test_serve_refuses_a_damaged_table_in_one_line(database: str) -> None:
    _table_with_a_damaged_row(database)
    _refused_in_one_line(_serve(database), "is damaged at version 2: ParseError")


@pytest.fixture(scope="module")
def real_server(module_database: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from support.server_process import ServerProcess

    log = tmp_path_factory.mktemp("hostile") / "server.log"
    with ServerProcess(module_database, bot_delay=0.0, log=log, extra=(
            "--header-timeout", "1", "--max-connections-per-client", "8",
            "--max-connections", "12")) as server:
        yield server


def _raw(server: Any) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def test_slow_headers_are_answered_408_and_closed(real_server: Any) -> None:
    slow = _raw(real_server)
    slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    answer = slow.recv(200)
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert time.monotonic() - started < 9
    assert slow.recv(100) == b""
    slow.close()
    time.sleep(0.2)
    # One line in the log, naming the address.
    assert "127.0.0.1: closed a connection whose request took more than 1 s" in \
        real_server.log_tail(200)
    silent = _raw(real_server)   # a connection that says nothing at all
    assert silent.recv(200).startswith(b"HTTP/1.1 408")
    silent.close()


@contextlib.contextmanager
def _holding_every_connection(real_server: Any) -> Iterator[None]:
    """This address holds the 8 connections the server allows it, then lets
    them go (and gives the server a moment to count them closed)."""
    held = [_raw(real_server) for _ in range(8)]
    try:
        yield
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.2)


def test_one_address_cannot_hold_every_connection(real_server: Any) -> None:
    import httpx

    with _holding_every_connection(real_server):
        extra = _raw(real_server)
        assert extra.recv(200).startswith(b"HTTP/1.1 503")
        extra.close()
    assert httpx.get(f"{real_server.url}/api/games", timeout=10).status_code == 200


def test_another_address_connects_while_one_holds_all_it_may(real_server: Any) -> None:
    # The limit per client counts the connections of that address alone:
    # 127.0.0.2 is another address on the same loopback.
    with _holding_every_connection(real_server):
        other = socket.socket()
        other.settimeout(10)
        other.bind(("127.0.0.2", 0))
        other.connect(("127.0.0.1", real_server.port))
        other.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Connection: close\r\n\r\n")
        assert other.recv(200).startswith(b"HTTP/1.1 200")
        other.close()


def _read_until_closed(ws: Any) -> None:
    while True:
        ws.recv(timeout=10)


def test_a_client_leaving_mid_body_and_invalid_utf8_log_one_line(real_server: Any) -> None:
    import websockets.sync.client as ws_client
    from websockets.exceptions import ConnectionClosedError
    from websockets.frames import Frame, Opcode

    leaving = _raw(real_server)
    leaving.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"ga")
    time.sleep(0.2)
    leaving.close()
    import httpx

    made = httpx.post(f"{real_server.url}/api/tables",
                      json={"game": "back-alley", "seats": ["human"] + ["bot:random"] * 3})
    table = made.json()
    with ws_client.connect(f"{real_server.ws_url}/ws/tables/{table['id']}"
                           f"?token={table['seats'][0]['token']}") as ws:
        ws.recv(timeout=10)
        with ws.protocol_mutex:
            ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe"))
            ws.send_data()
        with pytest.raises(ConnectionClosedError, match="1007"):
            _read_until_closed(ws)
    time.sleep(0.5)
    assert real_server.tracebacks() == [], real_server.log_tail()
    log = real_server.log_tail(200)
    assert "Invalid UTF-8" in log


def test_serve_on_loopback_answers_only_loopback_names(real_server: Any) -> None:
    import httpx

    games = f"{real_server.url}/api/games"
    assert httpx.get(games, headers={"host": "rebound.example"}, timeout=10).status_code == 400
    for name in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        assert httpx.get(games, headers={"host": name}, timeout=10).status_code == 200, name
