"""The server survives SIGKILL: a real ``cardrules serve`` process on a
database (a SQLite file, and PostgreSQL: the ``database`` fixture), with
bot tables and tables where this test plays a human seat, is killed three
times (twice while a human action is on the wire) and started again on the
same database.  (On PostgreSQL the new process takes the dead one's leases
when they expire: a short ``--lease-seconds`` keeps that wait short.)
After every restart each table resumes at a version no lower than the
last one any client was shown (nothing a client was told is lost), the
clients reconnect with their tokens, every game ends, and every record
replays through the library to the final views and returns the clients
saw.

Bounded: the whole scenario has a 60 second deadline and every wait its
own timeout; no timing is asserted.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

for _needed in ("uvicorn", "httpx", "websockets"):   # the server extra brings them all
    pytest.importorskip(_needed, reason="the server tests need cardrules[server]")

import httpx  # noqa: E402
import websockets  # noqa: E402

from cardrules.server.store import is_shared  # noqa: E402
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

#: The whole scenario's deadline, in seconds.
DEADLINE = 60.0
#: How long one wait for a message may last before the client reconnects.
WAIT = 5.0
#: Bots act after this many seconds: slow enough that the kills land mid-game.
BOT_DELAY = 0.1

#: Idle connections are dropped before uvicorn's 5 second keep-alive ends.
LIMITS = httpx.Limits(keepalive_expiry=2.0)

#: (game, settings, seats): tables of bots only, then tables with a human seat.
BOT_TABLES = [
    ("down_and_back", {"num_players": 3, "rounds": 2}, ["bot:random", "bot:greedy", "bot:random"]),
    ("down_and_back", {"num_players": 2, "rounds": 2}, ["bot:greedy", "bot:greedy"]),
    ("back_alley", {"max_hand_size": 3}, ["bot:heuristic", "bot:random", "bot:heuristic",
                                          "bot:random"]),
    ("back_alley", {"max_hand_size": 2}, ["bot:random"] * 4),
]
HUMAN_TABLES = [
    ("down_and_back", {"num_players": 2, "rounds": 2}, ["human", "bot:greedy"]),
    ("down_and_back", {"num_players": 3, "rounds": 1}, ["bot:random", "human", "bot:greedy"]),
    ("back_alley", {"max_hand_size": 3}, ["human", "bot:heuristic", "bot:random",
                                          "bot:heuristic"]),
    ("back_alley", {"max_hand_size": 2}, ["bot:random", "bot:random", "human", "bot:random"]),
]


class Problems(list[str]):
    """Everything that went wrong, reported together at the end."""


@dataclass
class Follower:
    """One client of one table: a human seat that plays random legal moves,
    or a spectator (``seat`` None)."""

    table: Table
    seat: int | None
    rng: random.Random
    #: The highest version this client was shown.
    shown: int = -1
    #: The last view received, once the game is over.
    final: Message | None = None
    #: Acts answered by a newer view and by no error: version -> action text.
    acknowledged: dict[int, str] = field(default_factory=dict)
    #: An act sent and not yet answered when the connection dropped.
    in_flight: tuple[int, str] | None = None
    connects: int = 0
    stale: int = 0

    @property
    def token(self) -> str | None:
        return None if self.seat is None else self.table.tokens[self.seat]


class Scenario:
    """The server, its clients and the kills."""

    def __init__(self, server: ServerProcess, problems: Problems) -> None:
        self.server = server
        self.problems = problems
        #: Set while the server is up (clients wait on it to reconnect).
        self.up = asyncio.Event()
        #: Set to ask the next human act to be followed by a kill at once.
        self.kill_after_act = asyncio.Event()
        self.killed_in_flight = asyncio.Event()
        self.kills = 0
        #: What became of each act on the wire when the server was killed (the
        #: two kills made for it, and any act another kill caught).
        self.in_flight_outcomes: list[str] = []
        self.in_flight_kills = 0
        #: How long after sending an act each in-flight kill waits.
        self.in_flight_delays: list[float] = []
        #: The highest version any client was shown, by table id.
        self.shown: dict[str, int] = {}

    async def kill(self) -> None:
        self.up.clear()
        self.server.kill()
        self.kills += 1

    async def restart(self) -> None:
        await asyncio.to_thread(self.server.start)
        self.up.set()

    def saw(self, follower: Follower, message: Message, *, first: bool) -> None:
        version = int(message["version"])
        table = follower.table.id
        if first and version < self.shown.get(table, -1):
            self.problems.append(
                f"table {table} ({follower.table.game}) came back at version {version}, "
                f"but a client had been shown version {self.shown[table]}")
        if version < follower.shown and not first:
            self.problems.append(f"table {table}: version went back from {follower.shown} "
                                 f"to {version} on one connection")
        follower.shown = max(follower.shown, version)
        self.shown[table] = max(self.shown.get(table, -1), version)

    async def follow(self, follower: Follower, loop_deadline: float) -> None:
        """Follow a table to its end, reconnecting whenever the server goes away."""
        loop = asyncio.get_running_loop()
        while loop.time() < loop_deadline:
            await asyncio.wait_for(self.up.wait(), max(0.1, loop_deadline - loop.time()))
            try:
                connection = await Connection.open(self.server.ws_url, follower.table.id,
                                                   follower.token, timeout=WAIT)
            except (OSError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.05)
                continue
            follower.connects += 1
            try:
                await self._play(follower, connection)
            except (OSError, TimeoutError, websockets.WebSocketException):
                pass
            finally:
                await connection.close()
            if follower.final is not None:
                return
        self.problems.append(f"table {follower.table.id} ({follower.table.game}) did not "
                             f"end before the deadline (version {follower.shown})")

    async def _play(self, follower: Follower, connection: Connection) -> None:
        assert connection.last is not None
        self.saw(follower, connection.last, first=True)
        if follower.in_flight is not None:
            # Sent just before a kill: applied or not, the table is at a
            # version no lower than the one it was sent at, and the client
            # plays on from what it is shown now (resending if need be).
            version, sent = follower.in_flight
            if connection.version < version:
                self.problems.append(f"table {follower.table.id}: an act sent at version "
                                     f"{version} came back at {connection.version}")
            self.in_flight_outcomes.append("stored" if connection.version > version
                                           else "absent (sent again)")
            resend = sent if connection.version == version else None
            follower.in_flight = None
        else:
            resend = None
        message = connection.last
        while not over(message):
            legal = message.get("legal") or []
            if follower.seat is None or not legal:
                message = await connection.view(WAIT)
                self.saw(follower, message, first=False)
                continue
            version = int(message["version"])
            text: str = resend if resend is not None and resend in legal \
                else follower.rng.choice(legal)
            resend = None
            follower.in_flight = (version, text)
            await connection.act(version, text)
            if self.kill_after_act.is_set():
                self.kill_after_act.clear()
                # At once (the act still unread, most likely), or a moment
                # later (while it is being checked, stored or broadcast).
                await asyncio.sleep(self.in_flight_delays.pop(0))
                await self.kill()
                self.in_flight_kills += 1
                self.killed_in_flight.set()
                raise ConnectionResetError("killed with an act in flight")
            reply = await connection.reply(WAIT)
            while reply.get("type") == "view" and int(reply["version"]) <= version:
                reply = await connection.reply(WAIT)
            follower.in_flight = None
            if reply.get("type") == "error":
                # Stale if a bot's move got in first (Down and Back's splits
                # are made at once, DB-40): then a newer view comes, and
                # nothing else changed.  Anything else is a real error.
                self._forget_unsure(follower)
                message = connection.last
                assert message is not None
                while int(message["version"]) <= version:
                    try:
                        message = await connection.view(WAIT)
                    except TimeoutError:
                        self.problems.append(f"table {follower.table.id}: {text!r} at "
                                             f"version {version} refused: {reply}")
                        raise
                follower.stale += 1
                self.saw(follower, message, first=False)
                continue
            follower.acknowledged[version] = text
            message = reply
            self.saw(follower, message, first=False)
        follower.final = message

    @staticmethod
    def _forget_unsure(follower: Follower) -> None:
        """An error may answer this act or the one before (when a newer view
        came first): the one before is no longer sure to be in the record."""
        for version in sorted(follower.acknowledged)[-1:]:
            del follower.acknowledged[version]

    async def kills_at_random(self, rng: random.Random, count: int) -> None:
        """``count`` kills at random moments, two of them with a human act in
        flight: one right after the act is sent, one a few milliseconds later."""
        in_flight = dict(zip(rng.sample(range(count), 2), [0.0, rng.uniform(0.0005, 0.004)],
                             strict=True))
        for number in range(count):
            await asyncio.sleep(rng.uniform(0.3, 1.2))
            if number in in_flight:
                self.killed_in_flight.clear()
                self.in_flight_delays.append(in_flight[number])
                self.kill_after_act.set()
                try:
                    await asyncio.wait_for(self.killed_in_flight.wait(), 10.0)
                except TimeoutError:
                    self.kill_after_act.clear()
                    self.in_flight_delays.clear()
                    self.problems.append("no human act was in flight to kill the server on")
                    await self.kill()
            else:
                await self.kill()
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            await self.restart()


async def _scenario(database: str, tmp: Path,
                    problems: Problems) -> tuple[Scenario, list[Follower]]:
    extra = ("--lease-seconds", "0.6") if is_shared(database) else ()
    server = ServerProcess(database, bot_delay=BOT_DELAY, extra=extra, log=tmp / "fault.log")
    scenario = Scenario(server, problems)
    await scenario.restart()
    rng = random.Random(17)
    followers: list[Follower] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE - 10
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, limits=LIMITS) as http:
            for game, settings, seats in BOT_TABLES + HUMAN_TABLES:
                table = await create_table(http, game, settings, seats)
                humans = [seat for seat, kind in enumerate(seats) if kind == "human"]
                followers.append(Follower(table, humans[0] if humans else None,
                                          random.Random(rng.random())))
        # A spectator on one human table too: its versions must never go back.
        followers.append(Follower(followers[-1].table, None, random.Random(0)))
        tasks = [asyncio.create_task(scenario.follow(f, deadline)) for f in followers]
        await scenario.kills_at_random(rng, 3)
        await asyncio.gather(*tasks)
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, limits=LIMITS) as http:
            for follower in followers:
                record = await fetch_record(http, follower.table.id)
                if record is None:
                    problems.append(f"table {follower.table.id}: no record after the end")
                    continue
                try:
                    replay_check(record, final=follower.final, seat=follower.seat,
                                 sent=follower.acknowledged)
                except AssertionError as error:
                    problems.append(f"table {follower.table.id} ({follower.table.game}, "
                                    f"seat {follower.seat}): {error}")
    finally:
        server.stop()
    return scenario, followers


def test_the_server_resumes_every_table_after_sigkill(
        database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problems = Problems()
    scenario, followers = asyncio.run(
        asyncio.wait_for(_scenario(database, tmp_path, problems), DEADLINE))
    with capsys.disabled():
        print(f"\n{scenario.kills} kills; reconnects per client: "
              f"{[f.connects for f in followers]}; stale acts: "
              f"{sum(f.stale for f in followers)}; acknowledged human acts checked in the "
              f"records: {sum(len(f.acknowledged) for f in followers)}; acts in flight at a "
              f"kill: {scenario.in_flight_outcomes}")
    assert problems == [], "\n".join(problems) + "\n" + scenario.server.log_tail()
    assert scenario.server.tracebacks() == [], scenario.server.log_tail()
    assert scenario.kills >= 3
    assert scenario.in_flight_kills == 2
    assert len(scenario.in_flight_outcomes) >= 2   # and any act a plain kill caught on the wire
    assert all(f.final is not None for f in followers)
    assert all(f.connects >= 2 for f in followers)   # each one reconnected at least once
