"""How the server is built: routes at module level reading the app's state,
pools made once per start, and no game's bots named by the server."""

from __future__ import annotations

import ast
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from starlette.routing import Route, WebSocketRoute

import cardrules.server
from cardrules import back_alley, down_and_back
from cardrules.engine.bots import RandomBot, is_quick
from support.serverplay import new_table, play_all, served

A = TypeVar("A")

SERVER = Path(cardrules.server.__file__).parent


def test_the_server_names_no_games_bots() -> None:
    pages = {"web.py", "words.py", "rules_text.py"}   # the web table's words for people
    for path in SERVER.glob("*.py"):
        if path.name in pages:
            continue
        names = {node.value for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        assert not names & {"random", "greedy", "heuristic", "search"}, path.name


def test_bots_declare_whether_they_think_quickly() -> None:
    quick = {(game, name)
             for game, bots in (("down_and_back", down_and_back.RULES.bots),
                                ("back_alley", back_alley.RULES.bots))
             for name, make in bots.items() if is_quick(make(0))}
    assert quick == {("down_and_back", "random"), ("down_and_back", "greedy"),
                     ("back_alley", "random"), ("back_alley", "heuristic")}

    class Slow(RandomBot):
        quick = False

    assert is_quick(RandomBot(0))
    assert not is_quick(Slow(0))


def test_a_bot_that_is_not_quick_thinks_off_the_event_loop(database: str) -> None:
    threads: list[str] = []

    class Watched(RandomBot):
        quick = False

        def act(self, view: object, legal: Sequence[A]) -> A:
            threads.append(threading.current_thread().name)
            return super().act(view, legal)

    class Quick(Watched):
        quick = True

    bots = dict(back_alley.RULES.bots)
    try:
        back_alley.RULES.bots["random"] = Watched  # type: ignore[index]
        with served(database) as client:
            table_id, tokens = new_table(client, "back-alley", ["human"] + ["bot:random"] * 3)
            play_all(client, table_id, tokens, spectators=0)
        assert threads
        assert all(name.startswith("cardrules-bot") for name in threads)
        threads.clear()
        back_alley.RULES.bots["random"] = Quick  # type: ignore[index]
        with served(database) as client:
            table_id, tokens = new_table(client, "back-alley", ["human"] + ["bot:random"] * 3)
            play_all(client, table_id, tokens, spectators=0)
        assert threads
        assert not any(name.startswith("cardrules-bot") for name in threads)
    finally:
        back_alley.RULES.bots.clear()  # type: ignore[attr-defined]
        back_alley.RULES.bots.update(bots)  # type: ignore[attr-defined]


def test_routes_are_module_functions_reading_the_apps_state(tmp_path: Path) -> None:
    from cardrules.server import app as module

    app = cardrules.server.create_app(str(tmp_path / "x.sqlite"))
    api = [route for route in app.routes
           if isinstance(route, Route | WebSocketRoute) and route.path.startswith(("/api", "/ws"))]
    assert {route.endpoint for route in api} == {
        module.list_games, module.list_tables, module.create_table, module.one_table,
        module.join_table, module.table_record, module.play}


def test_the_pools_are_made_once_per_start_and_shut_at_stop(database: str) -> None:
    with served(database) as client:
        server = client.app.state.cardrules  # type: ignore[attr-defined]
        first = server.running
        assert server.shared.db is first.db
        assert server.shared.thinkers is first.thinkers
    assert first.db._shutdown
    assert first.thinkers._shutdown
    with served(database) as client:
        assert client.app.state.cardrules.running is not first  # type: ignore[attr-defined]
