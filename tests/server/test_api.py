"""The lobby API: games, creating, listing and joining tables, records (each test
against SQLite and PostgreSQL: the ``database`` fixture)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardrules.engine import GameRecord
from support.serverplay import new_table, play_all, served


def test_games_lists_both_games_with_their_settings_sizes_and_bots(database: str) -> None:
    with served(database) as client:
        games = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    assert games["back-alley"]["players"] == [4]
    assert games["down-and-back"]["players"] == [2, 3, 4, 5]
    assert games["back-alley"]["settings"] == {"max_hand_size": 13}
    assert "heuristic" in games["back-alley"]["bots"]
    assert games["down-and-back"]["default_bot"] == "greedy"


def test_create_gives_a_token_for_each_human_seat_and_none_for_open_ones(
        database: str) -> None:
    with served(database) as client:
        answer = client.post("/api/tables", json={
            "game": "down_and_back", "settings": {"rounds": 1},
            "seats": ["human", "open", "bot:greedy", "human"]})
        assert answer.status_code == 201
        data = answer.json()
        assert [s["seat"] for s in data["seats"]] == [0, 3]
        assert len({s["token"] for s in data["seats"]}) == 2
        listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [data["id"]]
    assert listed[0]["settings"] == {"num_players": 4, "ante": 1, "rounds": 1}
    assert [(s["kind"], s["taken"]) for s in listed[0]["seats"]] == [
        ("human", True), ("human", False), ("bot:greedy", True), ("human", True)]
    assert listed[0]["finished"] is False


def test_create_without_seats_gives_one_person_and_the_default_bots(database: str) -> None:
    with served(database) as client:
        data = client.post("/api/tables", json={"game": "Back-Alley"}).json()
        table = client.get(f"/api/tables/{data['id']}").json()
    assert [s["kind"] for s in table["seats"]] == ["human"] + ["bot:heuristic"] * 3


def test_bad_requests_are_refused_with_a_message_naming_the_mistake(database: str) -> None:
    cases = [
        ({"game": "go-fish"}, "unknown game 'go-fish'"),
        # a long name is quoted by its first 40 characters only
        ({"game": "abcdefghij" * 4 + "KLM"}, "unknown game '" + "abcdefghij" * 4 + "' (known:"),
        ({"game": "back-alley", "settings": {"max_hand": 2}}, "setting 'max_hand'"),
        ({"game": "back-alley", "settings": {"max_hand_size": 99}}, "max_hand_size"),
        ({"game": "back-alley", "settings": {"max_hand_size": "2"}}, "max_hand_size"),
        ({"game": "back-alley", "seats": ["human", "bot:best"] * 2},
         "unknown seat kind 'bot:best' (known: human, open, bot:random, bot:heuristic"),
        ({"game": "back-alley", "seats": ["human"] * 3}, "lists 3"),
        ({"game": "down-and-back", "seats": ["human"]}, "2 to 5"),
        ({"game": "back-alley", "colour": "red"}, "unknown field 'colour'"),
        ({"game": "back-alley", "seed": -1}, "'seed'"),
        ([1, 2], "JSON object"),
    ]
    with served(database) as client:
        for body, words in cases:
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 400, body
            assert words in answer.json()["error"], (body, answer.json())
        assert client.post("/api/tables", content=b"{not json",
                           headers={"content-type": "application/json"}).status_code == 400
        assert client.get("/api/tables").json()["tables"] == []


def test_join_takes_the_free_seats_then_answers_409(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley",
                                     ["human", "open", "open", "bot:random"])
        first = client.post(f"/api/tables/{table_id}/join")
        assert first.status_code == 200
        assert first.json()["seat"] == 1
        taken = client.post(f"/api/tables/{table_id}/join", json={"seat": 1})
        assert taken.status_code == 409
        second = client.post(f"/api/tables/{table_id}/join", json={"seat": 2}).json()
        assert second["seat"] == 2
        assert len({tokens[0], first.json()["token"], second["token"]}) == 3
        full = client.post(f"/api/tables/{table_id}/join")
        assert full.status_code == 409
        assert full.json() == {"error": "no free seat"}
        assert client.post(f"/api/tables/{table_id}/join", json={"seat": 9}).status_code == 400
        assert client.post("/api/tables/nothing/join").status_code == 404
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert all(s["taken"] for s in seats)


def test_record_is_refused_until_the_end_then_replays_to_the_final_view(
        database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "back-alley", ["human", "bot:heuristic",
                                                            "bot:random", "bot:heuristic"])
        early = client.get(f"/api/tables/{table_id}/record")
        assert early.status_code == 409
        assert early.json()["error"] == "the game is not over"
        received = play_all(client, table_id, tokens)
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200
        assert client.get("/api/tables").json()["tables"] == []
        finished = client.get("/api/tables?finished=1").json()["tables"]
        assert client.get("/api/tables/nothing/record").status_code == 404
    game = GameRecord.from_dict(record.json())
    *_, final = game.replay()
    last = received[0][-1]
    assert last["over"] is True
    assert last["version"] == len(game.actions)
    assert last["returns"] == list(game.rules.returns(final))
    encode = game.rules.view_to_dict
    assert encode is not None
    assert last["view"] == encode(game.rules.view(final, 0))
    assert [t["id"] for t in finished] == [table_id]
    assert finished[0]["finished"] is True


def test_a_table_of_bots_plays_itself_to_the_end(database: str) -> None:
    with served(database) as client:
        table_id, tokens = new_table(client, "down-and-back", ["bot:greedy", "bot:random"])
        assert tokens == {}
        watched = play_all(client, table_id, tokens)[None]
    assert watched[-1]["over"] is True
    assert all(m["legal"] == [] and m["seat"] is None for m in watched)


def test_serve_without_the_server_extra_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    from cardrules.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "uvicorn" else real(name, *args))
    assert main(["serve", "--port", "0"]) == 2
    assert capsys.readouterr().err == (
        'cardrules: cardrules serve needs the server extra: pip install "cardrules[server]"\n')


def test_importing_the_server_without_its_extra_says_how_to_install_it() -> None:
    # A fresh interpreter in which starlette cannot be imported.
    code = ("import sys; sys.modules['starlette'] = None\n"
            "try:\n    import cardrules.server\n"
            "except ImportError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.startswith(
        'the game server needs the server extra: pip install "cardrules[server]"')


def test_serve_refuses_bad_numbers_before_starting(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    assert main(["serve", "--turn-timer", "0"]) == 2
    assert main(["serve", "--port", "70000"]) == 2
    with pytest.raises(SystemExit):
        main(["serve", "--bot-delay", "-1"])
    err = capsys.readouterr().err
    assert "--turn-timer must be more than 0 seconds" in err
    assert "--port must be from 0 to 65535" in err


def test_serve_refuses_workers_on_sqlite_and_bad_lease_times(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    assert main(["serve", "--workers", "2", "--db", "cards.sqlite"]) == 2
    assert main(["serve", "--workers", "0"]) == 2
    assert main(["serve", "--lease-seconds", "0.1", "--db", "postgresql://h/db"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "cardrules: --workers 2 needs a PostgreSQL database (--db postgresql://USER@HOST/NAME):"
        " a SQLite file is served by one process",
        "cardrules: --workers must be 1 or more, not 0",
        "cardrules: --lease-seconds must be from 0.3 to 600, not 0.1"]
