"""Playing over the WebSocket: whole games, refusals, tokens, reconnects,
spectators, restarts and the turn timer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from cardrules.server.store import Store
from support.serverplay import new_table, play_all, served, url

BOTS = ["human", "bot:heuristic", "bot:random", "bot:heuristic"]


def _turn(ws: Any) -> dict[str, Any]:
    """Messages are read until the seat has something to do."""
    while True:
        message = ws.receive_json()
        assert message["type"] == "view"
        if message["legal"]:
            return dict(message)


@pytest.mark.parametrize(("game", "seats"), [
    ("back-alley", ["human"] * 4),
    ("down-and-back", ["human", "human", "bot:greedy"]),
])
def test_people_play_a_whole_game_through_the_socket(database: str, game: str,
                                                     seats: list[str]) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, game, seats)
        received = play_all(client, table_id, tokens)
        record = client.get(f"/api/tables/{table_id}/record").json()
    ends = [messages[-1] for messages in received.values()]
    assert all(end["over"] and end["version"] == len(record["actions"]) for end in ends)
    assert len({tuple(end["returns"]) for end in ends}) == 1
    for seat, messages in received.items():
        versions = [m["version"] for m in messages if m["type"] == "view"]
        assert versions == sorted(versions)
        assert all(m["seat"] == seat for m in messages)
        # every step reaches every client: its events carry each version once at least
        assert {e["version"] for m in messages for e in m["events"]} \
            == set(range(1, versions[-1] + 1))


def test_stale_unparseable_and_illegal_actions_change_nothing(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", BOTS)
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            now = _turn(ws)
            version, legal = now["version"], now["legal"]
            attempts = [
                ({"type": "act", "version": version - 1, "action": legal[0]}, "stale"),
                ({"type": "act", "version": version, "action": "jump 3"}, "parse"),
                ({"type": "act", "version": version, "action": "dealer 1"}, "BA-"),
                ({"type": "act", "version": version, "action": "bid 9"}, "BA-"),
                ({"type": "act", "version": version}, "bad-message"),
                ({"type": "dance"}, "bad-message"),
            ]
            for message, rule in attempts:
                ws.send_json(message)
                answer = ws.receive_json()
                assert answer["type"] == "error", message
                assert answer["rule"].startswith(rule), (message, answer)
                assert set(answer) == {"type", "rule", "message"}
            ws.send_text("not json")
            assert ws.receive_json()["rule"] == "bad-message"
            ws.send_json({"type": "sync"})
            again = ws.receive_json()
            assert again["version"] == version
            assert again["view"] == now["view"]
            assert again["legal"] == legal
        assert client.get(f"/api/tables/{table_id}").json()["version"] == version


def test_a_bad_token_is_refused_and_changes_nothing(database: str) -> None:
    with served(database) as client:
        table_id, _ = new_table(client, "back-alley", ["open"] * 4)
        before = client.get(f"/api/tables/{table_id}").json()
        with client.websocket_connect(url(table_id, "forged")) as ws, \
                pytest.raises(WebSocketDisconnect) as refused:
            ws.receive_json()
        assert refused.value.code == 1008
        with client.websocket_connect(url("nothing")) as ws, \
                pytest.raises(WebSocketDisconnect) as missing:
            ws.receive_json()
        assert missing.value.code == 4404
        assert client.get(f"/api/tables/{table_id}").json() == before


def test_a_reconnecting_player_gets_the_full_view_and_history_again(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "down-and-back", ["human", "bot:greedy"])
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            now = _turn(ws)
            ws.send_json({"type": "act", "version": now["version"], "action": now["legal"][0]})
            later = _turn(ws)
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            first = ws.receive_json()
    assert first["version"] == later["version"]
    assert first["view"] == later["view"]
    assert first["legal"] == later["legal"]
    assert first["view"]["hand"] != []
    assert next(e["version"] for e in first["events"]) == 1
    assert {e["version"] for e in first["events"]} == set(range(1, later["version"] + 1))


def test_spectators_see_no_hand_and_cannot_act(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", BOTS)
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            seat_view = _turn(ws)
        with client.websocket_connect(url(table_id)) as ws:
            watched = ws.receive_json()
            ws.send_json({"type": "act", "version": watched["version"], "action": "pass"})
            refused = ws.receive_json()
    assert watched["seat"] is None
    assert watched["legal"] == []
    assert watched["view"]["hand"] == []
    assert watched["view"]["taken"] is None
    assert watched["view"]["hand_sizes"] == seat_view["view"]["hand_sizes"]
    assert watched["view"]["bids"] == seat_view["view"]["bids"]
    assert refused["type"] == "error"
    assert refused["rule"] == "spectator"


def test_a_restarted_server_resumes_every_table_at_its_version(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", BOTS)
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            for _ in range(2):
                now = _turn(ws)
                ws.send_json({"type": "act", "version": now["version"],
                              "action": now["legal"][-1]})
            before = _turn(ws)
    with served(database) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [(t["id"], t["version"]) for t in listed] == [(table_id, before["version"])]
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            after = ws.receive_json()
        assert (after["version"], after["view"], after["legal"]) == \
            (before["version"], before["view"], before["legal"])
        received = play_all(client, table_id, {0: tokens[0]}, spectators=0)
        assert received[0][-1]["over"] is True


def test_the_turn_timer_moves_for_a_person_who_does_not(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[str] = []
    notify = Store.notify

    def spy(store: Store, messages: Sequence[str]) -> None:
        told.extend(messages)
        notify(store, messages)

    monkeypatch.setattr(Store, "notify", spy)
    with served(database, turn_timer=0.05) as client:
        table_id, tokens = new_table(client, "back-alley", BOTS)
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            waiting = _turn(ws)
            while waiting["deadline"] is None:   # the view before the timer started
                waiting = _turn(ws)
            assert waiting["deadline"] > 0
        watched = play_all(client, table_id, {}, spectators=1)[None]
        assert watched[-1]["over"] is True
    store = Store(str(database))
    made_by = {a.made_by for a in store.actions(table_id) if a.seat == 0}
    store.close()
    assert made_by == {"timer"}
    # Each deadline is told to the other processes on one PostgreSQL database
    # ("d TABLE VERSION DEADLINE"), and only there: a SQLite file has one process.
    deadlines = [m for m in told if m.startswith(f"d {table_id} ")]
    assert bool(deadlines) == database.startswith("postgresql")


def test_an_action_out_of_turn_names_the_turn_rule(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", ["human"] * 4)
        with client.websocket_connect(url(table_id, tokens[0])) as ws:
            first = ws.receive_json()
        to_act = first["view"]["current_player"]
        other = (to_act + 1) % 4
        with client.websocket_connect(url(table_id, tokens[to_act])) as ws:
            legal = ws.receive_json()["legal"]
        with client.websocket_connect(url(table_id, tokens[other])) as ws:
            mine = ws.receive_json()
            assert mine["legal"] == []
            ws.send_json({"type": "act", "version": mine["version"], "action": legal[0]})
            refused = ws.receive_json()
    assert refused["rule"] == "BA-20"
    assert refused["type"] == "error"


def test_a_bot_thinking_does_not_hold_up_the_server(database: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    import threading

    from cardrules.back_alley import RULES

    release, thinking = threading.Event(), threading.Event()

    class Slow:
        def __init__(self, seed: int | None) -> None:
            self.rng = random.Random(seed)

        def act(self, view: object, legal: Sequence[Any]) -> Any:
            thinking.set()
            assert release.wait(60)
            return self.rng.choice(legal)   # (always passing would throw in for ever)

    monkeypatch.setitem(RULES.bots, "slow", Slow)
    with served(database) as client:
        table_id, _ = new_table(client, "back-alley", ["bot:slow"] * 4)
        assert thinking.wait(60)
        # the bot is still thinking: the lobby and the table answer meanwhile
        assert client.get("/api/games").status_code == 200
        with client.websocket_connect(url(table_id)) as ws:
            assert ws.receive_json()["version"] == 2
        release.set()
        watched = play_all(client, table_id, {}, spectators=1)[None]
    assert watched[-1]["over"] is True


def test_each_connection_reads_events_and_refusals_in_its_own_language(
        database: str) -> None:
    # Two people at one table, one reading Japanese and one Ukrainian, and an
    # English spectator: each is told the same steps in its own language at
    # the same time; the views and the action texts stay the same.
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", ["human", "human", *BOTS[2:]])
        with client.websocket_connect(url(table_id, tokens[0]) + "&lang=ja") as ja, \
                client.websocket_connect(url(table_id, tokens[1]) + "&lang=uk") as uk, \
                client.websocket_connect(url(table_id) + "?lang=xx") as en:
            first = [ws.receive_json() for ws in (ja, uk, en)]
            texts = [[e["text"] for e in m["events"]] for m in first]
            assert all(texts)
            japanese, ukrainian, english = texts
            assert any("ディール" in t for t in japanese)
            assert any("роздача" in t for t in ukrainian)
            assert any("deal" in t for t in english)
            assert first[0]["view"]["hand"] != first[1]["view"]["hand"]
            # a refusal in the sender's language, with the rule id kept
            now = first[0] if first[0]["legal"] else _turn(ja)
            ja.send_json({"type": "act", "version": now["version"], "action": "bid 99"})
            while True:
                message = ja.receive_json()
                if message["type"] == "error":
                    break
            assert message["rule"].startswith("BA-")
            assert not message["message"].isascii()
