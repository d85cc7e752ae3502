"""Several ``cardrules serve`` processes on one PostgreSQL database.

Real processes on loopback share a database on the session's throwaway
cluster (the ``postgres_database`` fixture); the clients of one table are
spread across them.  What is checked: whole games of both games end with
every seat's client told each move through its own process, and the
messages hold no card their receiver may not see (the leak check of
``test_server_leaks``); the same move raced at one version from two
processes is stored once and the other answered ``stale``; a client that
moves to another process mid-game is sent its full view and history and
plays on; and SIGKILL of the process holding tables' leases, several times
with moves in flight, loses no acknowledged move: the tables go on in the
other processes, the games end and their records replay.

Bounded: every scenario has a deadline and every wait its own timeout; no
timing is asserted (the failover times are printed).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

for _needed in ("uvicorn", "httpx", "websockets", "psycopg"):
    pytest.importorskip(_needed, reason="the cluster tests need cardrules[postgres]")

import httpx  # noqa: E402
import websockets  # noqa: E402

from cardrules.engine import GameRecord  # noqa: E402
from cardrules.server.store import Store, StoredAction  # noqa: E402
from support.leak_check import leaks  # noqa: E402
from support.server_client import (  # noqa: E402
    Connection,
    Message,
    Table,
    create_table,
    fetch_record,
    over,
    replay_check,
)
from support.server_process import ServerProcess  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

#: One wait for a message, in seconds.
WAIT = 10.0
#: A lease lasts this long unless renewed (renewed every third of it).
LEASE = "1.5"


@contextlib.contextmanager
def processes(url: str, count: int, folder: Path, *, bot_delay: float = 0.0,
              turn_timer: float | None = None) -> Iterator[list[ServerProcess]]:
    """``count`` server processes on the database ``url``, stopped afterwards."""
    servers = [ServerProcess(url, bot_delay=bot_delay, turn_timer=turn_timer,
                             extra=("--lease-seconds", LEASE),
                             log=folder / f"server{number}.log") for number in range(count)]
    try:
        with ThreadPoolExecutor(count) as starting:   # at once: each takes a second or two
            list(starting.map(lambda server: server.start(), servers))
        yield servers
    finally:
        for server in servers:
            server.stop()


def _stored_actions(url: str, table_id: str) -> list[StoredAction]:
    """A table's actions as the database holds them, read afresh."""
    store = Store(url)
    try:
        return store.actions(table_id)
    finally:
        store.close()


def _tracebacks(servers: list[ServerProcess]) -> list[str]:
    return [line for server in servers for line in server.tracebacks()]


@dataclass
class Player:
    """One client of one table: a human seat playing random legal moves, or a
    spectator (``seat`` None)."""

    table: Table
    seat: int | None
    home: int
    rng: random.Random
    received: list[Message] = field(default_factory=list)
    acknowledged: dict[int, str] = field(default_factory=dict)
    shown: int = -1
    final: Message | None = None
    connects: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def token(self) -> str | None:
        return None if self.seat is None else self.table.tokens[self.seat]


async def play(player: Player, connection: Connection, *, moves: int | None = None) -> None:
    """Play (or watch) on ``connection`` to the end of the game, or until
    ``moves`` acts were acknowledged.  Views must never go back, and the
    first view of a connection never shows less than was shown before."""
    assert connection.last is not None
    message = connection.last
    player.received.append(message)
    if int(message["version"]) < player.shown:
        player.problems.append(f"table {player.table.id}: a connection began at version "
                               f"{message['version']} after {player.shown} was shown")
    made = 0
    while True:
        version = int(message["version"])
        player.shown = max(player.shown, version)
        if over(message):
            player.final = message
            return
        if moves is not None and made >= moves:
            return
        legal = message.get("legal") or []
        if player.seat is None or not legal:
            message = await connection.view(WAIT)
            player.received.append(message)
            continue
        text = player.rng.choice(legal)
        await connection.act(version, text)
        reply = await connection.reply(WAIT)
        while reply.get("type") == "view" and int(reply["version"]) <= version:
            player.received.append(reply)
            reply = await connection.reply(WAIT)
        if reply.get("type") == "error":
            # Another move got in first (a split made at once, DB-40): a newer view follows.
            if reply.get("rule") != "stale":
                player.problems.append(f"table {player.table.id}: {text!r} refused: {reply}")
                return
            player.acknowledged.pop(max(player.acknowledged, default=-1), None)
            message = connection.last if connection.version > version \
                else await connection.view(WAIT)
            assert message is not None
            player.received.append(message)
            continue
        player.received.append(reply)
        player.acknowledged[version] = text
        made += 1
        message = reply


def _check_records(players: list[Player], records: dict[str, GameRecord]) -> list[str]:
    problems = [p for player in players for p in player.problems]
    for player in players:
        record = records.get(player.table.id)
        if record is None:
            problems.append(f"table {player.table.id}: no record")
            continue
        try:
            replay_check(record, final=player.final, seat=player.seat,
                         sent=player.acknowledged)
        except AssertionError as error:
            problems.append(f"table {player.table.id}, seat {player.seat}: {error}")
    return problems


async def _records(server: ServerProcess, tables: list[Table]) -> dict[str, GameRecord]:
    found: dict[str, GameRecord] = {}
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as http:
        for table in tables:
            record = await fetch_record(http, table.id)
            if record is not None:
                found[table.id] = record
    return found


#: (game, settings, seats) of the spread games.
SPREAD_TABLES = [
    ("back_alley", {"max_hand_size": 2}, ["human", "human", "human", "human"]),
    ("down_and_back", {"num_players": 4, "rounds": 1}, ["human", "human", "bot:greedy",
                                                        "human"]),
    ("down_and_back", {"num_players": 2, "rounds": 1}, ["human", "human"]),
    ("back_alley", {"max_hand_size": 2}, ["bot:random", "human", "bot:heuristic", "human"]),
]


@pytest.mark.parametrize("count", [2, 3])
def test_clients_spread_over_processes_play_whole_games_of_both_games(
        postgres_database: str, tmp_path: Path, count: int) -> None:
    url = postgres_database

    async def main(servers: list[ServerProcess]) -> tuple[list[Player], dict[str, GameRecord]]:
        tables: list[Table] = []
        for number, (game, settings, kinds) in enumerate(SPREAD_TABLES):
            # Each table made through another process.
            async with httpx.AsyncClient(base_url=servers[number % count].url,
                                         timeout=WAIT) as http:
                tables.append(await create_table(http, game, settings, kinds))
        players: list[Player] = []
        for number, table in enumerate(tables):
            seats: list[int | None] = [*sorted(table.tokens), None]
            for k, seat in enumerate(seats):
                players.append(Player(table, seat, (number + k) % count, random.Random(k)))

        async def run(player: Player) -> None:
            connection = await Connection.open(servers[player.home].ws_url, player.table.id,
                                               player.token, timeout=WAIT)
            try:
                await play(player, connection)
            except TimeoutError:
                last = connection.last or {}
                player.problems.append(
                    f"table {player.table.id} ({player.table.game}), seat {player.seat} at "
                    f"process {player.home}: no view for {WAIT} s after version "
                    f"{last.get('version')} (legal {last.get('legal')}, errors "
                    f"{connection.errors})")
            finally:
                await connection.close()

        await asyncio.wait_for(asyncio.gather(*(run(p) for p in players)), 90)
        return players, await _records(servers[-1], tables)

    with processes(url, count, tmp_path) as servers:
        players, records = asyncio.run(main(servers))
        tracebacks = _tracebacks(servers)
    problems = _check_records(players, records)
    assert problems == [], "\n".join(problems)
    assert tracebacks == []
    for table_id, record in records.items():
        received = {p.seat: p.received for p in players if p.table.id == table_id}
        assert leaks(record, received) == [], table_id
    # Each table's clients sat at different processes, and all saw the end.
    assert all(p.final is not None for p in players)
    assert len({p.home for p in players if p.table.id == players[0].table.id}) == count


def test_one_move_raced_from_two_processes_is_stored_once(
        postgres_database: str, tmp_path: Path) -> None:
    url = postgres_database

    async def main(servers: list[ServerProcess]) -> tuple[Table, int, list[Message]]:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=WAIT) as http:
            table = await create_table(http, "down_and_back", {"num_players": 2, "rounds": 1},
                                       ["human", "human"])
        # Each seat has a connection at each process; both send at every turn.
        connections = {(seat, side): await Connection.open(
            servers[side].ws_url, table.id, table.tokens[seat], timeout=WAIT)
            for seat in (0, 1) for side in (0, 1)}
        rng = random.Random(5)
        races = 0
        try:
            while True:
                message = max((c.last for c in connections.values() if c.last is not None),
                              key=lambda m: int(m["version"]))
                if over(message):
                    break
                version = int(message["version"])
                mover = next((seat for seat in (0, 1)
                              if connections[seat, 0].version == version
                              and (connections[seat, 0].last or {}).get("legal")), None)
                if mover is None:   # a view is on its way somewhere
                    await asyncio.gather(*(c.view(WAIT) for c in connections.values()
                                           if c.version < version))
                    continue
                if connections[mover, 1].version < version:
                    await connections[mover, 1].view(WAIT)
                shown = connections[mover, 0].last
                assert shown is not None
                legal = shown["legal"]
                # Every other race sends the same move twice (a double would show).
                first = rng.choice(legal)
                second = first if races % 2 == 0 else rng.choice(legal)
                await asyncio.gather(connections[mover, 0].act(version, first),
                                     connections[mover, 1].act(version, second))
                races += 1
                for connection in connections.values():
                    while connection.version <= version:
                        await connection.view(WAIT)
            # Flush: a bad message's answer comes after every earlier answer.
            errors: list[Message] = []
            for connection in connections.values():
                errors += connection.errors
                await connection.socket.send('{"type": "flush"}')
                while True:
                    answer = await connection.message(WAIT)
                    if answer.get("type") != "error":
                        continue
                    if answer.get("rule") == "bad-message":
                        break
                    errors.append(answer)
            return table, races, errors
        finally:
            for connection in connections.values():
                await connection.close()

    with processes(url, 2, tmp_path) as servers:
        table, races, errors = asyncio.run(asyncio.wait_for(main(servers), 90))
        tracebacks = _tracebacks(servers)
    stored = _stored_actions(url, table.id)
    moves = [a for a in stored if a.made_by == "player"]
    assert races >= 4
    assert len(moves) == races          # each race stored exactly once
    assert [e["rule"] for e in errors] == ["stale"] * races   # and the other told so
    assert tracebacks == []


def test_a_client_moves_to_another_process_mid_game(
        postgres_database: str, tmp_path: Path) -> None:
    url = postgres_database

    async def main(servers: list[ServerProcess]) -> tuple[Player, list[Message], GameRecord]:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=WAIT) as http:
            table = await create_table(http, "back_alley", {"max_hand_size": 3},
                                       ["human", "bot:heuristic", "bot:random",
                                        "bot:heuristic"])
        player = Player(table, 0, 0, random.Random(3))
        first = await Connection.open(servers[0].ws_url, table.id, player.token, timeout=WAIT)
        try:
            await play(player, first, moves=3)
        finally:
            await first.close()
        second = await Connection.open(servers[1].ws_url, table.id, player.token,
                                       timeout=WAIT)
        arrival = second.last
        assert arrival is not None
        try:
            await play(player, second)
        finally:
            await second.close()
        records = await _records(servers[1], [table])
        return player, [arrival], records[table.id]

    with processes(url, 2, tmp_path) as servers:
        player, (arrival,), record = asyncio.run(asyncio.wait_for(main(servers), 90))
        tracebacks = _tracebacks(servers)
    assert player.problems == []
    assert len(player.acknowledged) > 3
    # The new process sent the whole history and this seat's full view at once.
    versions = sorted({e["version"] for e in arrival["events"]})
    assert versions[0] == 1
    assert int(arrival["version"]) > sorted(player.acknowledged)[2]
    replay_check(record, final=player.final, seat=0, sent=player.acknowledged)
    assert tracebacks == []


def test_the_turn_timer_runs_in_one_process_and_its_deadline_reaches_every_other(
        postgres_database: str, tmp_path: Path) -> None:
    url = postgres_database

    async def main(servers: list[ServerProcess]) -> tuple[Table, Message, Message]:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=WAIT) as http:
            table = await create_table(http, "down_and_back", {"num_players": 2, "rounds": 1},
                                       ["human", "bot:greedy"])
        # The table's lease is with the process that made it; the person is at the other.
        connection = await Connection.open(servers[1].ws_url, table.id, table.tokens[0],
                                           timeout=WAIT)
        try:
            message = connection.last
            assert message is not None
            while not (message.get("legal") and message.get("deadline")):
                message = await connection.view(WAIT)
            moved = await connection.view(WAIT)   # without acting: the timer moved for them
            while int(moved["version"]) <= int(message["version"]):
                moved = await connection.view(WAIT)
        finally:
            await connection.close()
        return table, message, moved

    with processes(url, 2, tmp_path, turn_timer=1.0) as servers:
        table, timed, moved = asyncio.run(asyncio.wait_for(main(servers), 60))
        tracebacks = _tracebacks(servers)
    stored = _stored_actions(url, table.id)
    assert timed["deadline"] > 0
    assert int(moved["version"]) > int(timed["version"])
    assert stored[int(timed["version"])].made_by == "timer"
    assert stored[int(timed["version"])].seat == 0
    assert tracebacks == []


def _holders(url: str) -> dict[int, int]:
    """How many leases each process (by process id) holds."""
    import psycopg

    with psycopg.connect(url) as db:
        rows = db.execute("SELECT holder, count(*) FROM table_leases l JOIN game_tables t "
                          "ON t.id = l.table_id WHERE t.finished IS NULL GROUP BY holder")
        return {int(holder.split(":")[1]): int(count) for holder, count in rows}


#: Tables of the failover run: bots only, and with people.
FAILOVER_TABLES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("back_alley", {"max_hand_size": 5}, ["bot:random", "bot:heuristic", "bot:random",
                                          "bot:heuristic"]),
    ("down_and_back", {"num_players": 3, "rounds": 4}, ["bot:greedy", "bot:random",
                                                        "bot:greedy"]),
    ("back_alley", {"max_hand_size": 4}, ["bot:heuristic", "bot:random", "bot:random",
                                          "bot:heuristic"]),
    ("back_alley", {"max_hand_size": 3}, ["human", "bot:random", "human", "bot:heuristic"]),
    ("down_and_back", {"num_players": 2, "rounds": 2}, ["human", "bot:greedy"]),
    ("down_and_back", {"num_players": 3, "rounds": 1}, ["human", "human", "bot:random"]),
    ("back_alley", {"max_hand_size": 2}, ["bot:random", "human", "bot:random", "human"]),
]


def test_sigkill_of_the_lease_holder_loses_no_acknowledged_move(
        postgres_database: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = postgres_database
    kills = 3
    takeovers: list[float] = []
    notes: list[str] = []

    async def follow(player: Player, servers: list[ServerProcess], deadline: float) -> None:
        loop = asyncio.get_running_loop()
        turn = player.home
        while player.final is None and loop.time() < deadline:
            server = servers[turn % len(servers)]
            turn += 1
            if not server.running:
                await asyncio.sleep(0.05)
                continue
            try:
                connection = await Connection.open(server.ws_url, player.table.id,
                                                   player.token, timeout=WAIT)
            except (OSError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.1)
                continue
            player.connects += 1
            try:
                await play(player, connection)
            except (OSError, TimeoutError, websockets.WebSocketException):
                pass   # the process died: go on at another
            finally:
                await connection.close()
        if player.final is None:
            player.problems.append(f"table {player.table.id} did not end (version "
                                   f"{player.shown})")

    async def moved_since(server: ServerProcess, tables: list[Table],
                          versions: dict[str, int], limit: float) -> float | None:
        """Seconds until some table the dead process held moves again."""
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as http:
            while time.monotonic() - started < limit:
                for table in tables:
                    answer = await http.get(f"/api/tables/{table.id}")
                    data = answer.json()
                    if data["finished"] or data["version"] > versions[table.id]:
                        return time.monotonic() - started
                await asyncio.sleep(0.05)
        return None

    async def main(servers: list[ServerProcess]) -> tuple[list[Player], dict[str, GameRecord]]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 80
        tables: list[Table] = []
        for number, (game, settings, seats) in enumerate(FAILOVER_TABLES):
            async with httpx.AsyncClient(base_url=servers[number % 3].url,
                                         timeout=WAIT) as http:
                tables.append(await create_table(http, game, settings, seats))
        players = [Player(table, seat, (number + seat) % 3, random.Random(number * 10 + seat))
                   for number, table in enumerate(tables) for seat in sorted(table.tokens)]
        # A spectator at each table of bots alone (unwatched, their bots wait).
        players += [Player(tables[0], None, 1, random.Random(0)),
                    Player(tables[1], None, 2, random.Random(0)),
                    Player(tables[2], None, 0, random.Random(0))]
        tasks = [asyncio.create_task(follow(p, servers, deadline)) for p in players]
        rng = random.Random(29)
        restarting: dict[ServerProcess, asyncio.Task[None]] = {}
        for _ in range(kills):
            await asyncio.sleep(rng.uniform(0.5, 1.0))
            # One process down at a time: the last one killed is back first.
            await asyncio.gather(*restarting.values())
            holders = await asyncio.to_thread(_holders, url)
            ready = [s for s in servers if s.running and s not in restarting]
            victims = [s for s in ready if holders.get(s.pid or -1, 0)]
            if not victims:
                notes.append(f"no process holds a lease: {holders}")
                break
            victim = max(victims, key=lambda s: holders.get(s.pid or -1, 0))
            import psycopg

            def held_by(pid: int) -> dict[str, int]:
                with psycopg.connect(url) as db:
                    return {str(t): int(v) for t, v in db.execute(
                        "SELECT t.id, t.version FROM table_leases l JOIN game_tables t "
                        "ON t.id = l.table_id WHERE t.finished IS NULL AND "
                        "split_part(l.holder, ':', 2) = %s", (str(pid),))}

            held = await asyncio.to_thread(held_by, victim.pid or -1)
            victim.kill()   # SIGKILL, with the people's and bots' moves under way
            survivor = next(s for s in ready if s is not victim)
            took = await moved_since(survivor, [t for t in tables if t.id in held], held, 20)
            if took is not None:
                takeovers.append(took)
            else:
                notes.append(f"none of {held} moved within 20 s of the kill")
            restarting[victim] = asyncio.create_task(asyncio.to_thread(victim.start))
            restarting[victim].add_done_callback(
                lambda _, victim=victim: restarting.pop(victim, None))   # type: ignore[misc]
        await asyncio.gather(*tasks, *restarting.values())
        return players, await _records(servers[0], tables)

    with processes(url, 3, tmp_path, bot_delay=0.05) as servers:
        players, records = asyncio.run(asyncio.wait_for(main(servers), 110))
        tracebacks = _tracebacks(servers)
        logs = "\n".join(s.log_tail(15) for s in servers)
    with capsys.disabled():
        print(f"\nfailover: {len(takeovers)} kills, a dead holder's table moved again "
              f"after {[round(t, 2) for t in takeovers]} s; reconnects "
              f"{[p.connects for p in players]}; acknowledged moves checked "
              f"{sum(len(p.acknowledged) for p in players)}")
    problems = _check_records(players, records)
    assert problems == [], "\n".join(problems) + "\n" + logs
    assert tracebacks == [], logs
    assert len(takeovers) == kills, notes
    assert all(p.connects >= 1 for p in players)
    assert len(records) == len(FAILOVER_TABLES)


def test_a_table_whose_lease_is_lost_is_not_driven_here_again(
        postgres_database: str) -> None:
    # Only the lease holder runs a table's bots and turn timer: when another
    # process takes the lease, this one stops them and does not start them again.
    from support.serverplay import new_table, served

    with served(postgres_database) as client:
        server = client.app.state.cardrules  # type: ignore[attr-defined]
        table_id, _ = new_table(client, "back-alley", ["human"] + ["bot:random"] * 3)
        table = server.live[table_id]
        assert client.portal is not None
        client.portal.call(server._lease_change, [], [table_id])
        assert table.task is None
        client.portal.call(table.start_driver)
        assert table.task is None


def test_a_holder_is_named_by_at_most_64_characters_of_its_host(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.server import cluster

    monkeypatch.setattr("socket.gethostname", lambda: "h" * 100)
    host, pid, tail = cluster.Cluster.holder_name().split(":")
    assert (host, pid, len(tail)) == ("h" * 64, str(os.getpid()), 8)


def test_a_cluster_listens_with_no_resync_at_first_and_stops_its_listener(
        postgres_database: str) -> None:
    # The first LISTEN is no reconnection (nothing was missed: no resync), and
    # stop() ends the listening thread before it returns.
    from cardrules.server.cluster import Cluster

    store = Store(postgres_database)
    resyncs: list[int] = []

    async def main() -> tuple[Cluster, Any]:
        with ThreadPoolExecutor(1) as db:
            cluster = Cluster(store, db)
            await cluster.start(lambda gained, lost: None, lambda lines: None,
                                lambda: resyncs.append(1))
            await asyncio.sleep(0.3)
            thread = cluster._thread
            await cluster.stop()
            return cluster, thread

    try:
        cluster, thread = asyncio.run(main())
    finally:
        store.close()
    assert resyncs == []
    assert thread is not None
    assert cluster._thread is None
    assert cluster._task is None   # the lease loop ended too
    assert not thread.is_alive()
