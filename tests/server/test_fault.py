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

"Shown before the restart" is judged by the server start each view came
from (a start is killed, and gone, before the next one begins), not by
the order this test reads its sockets in: a first view that a start built
before a newer view it sent another client may well be read after that
newer view (opening a connection takes more steps of the event loop than
reading a message), and is no loss.  On failure the message gives, for
each table named, the views read (by start and connection), its stored
actions, the server's log tail and the log's path (pytest keeps the last
runs' temporary directories).

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

from cardrules.server.store import Store, is_shared  # noqa: E402
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


@dataclass(frozen=True)
class Seen:
    """One view a client read: the server start that sent it (1 for the
    first), the client and its connection number, the version, and whether
    it was the connection's first view (the full sync)."""

    start: int
    who: str
    connection: int
    version: int
    first: bool


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
    #: The server start the current connection was opened on.
    start: int = 0

    @property
    def who(self) -> str:
        return "spectator" if self.seat is None else f"seat {self.seat}"

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
        #: Every view read, by table id, in the order this test read them.
        self.seen: dict[str, list[Seen]] = {}

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
        self.seen.setdefault(table, []).append(
            Seen(follower.start, follower.who, follower.connects, version, first))
        if version < follower.shown and not first:
            self.problems.append(f"table {table}: version went back from {follower.shown} "
                                 f"to {version} on one connection")
        follower.shown = max(follower.shown, version)

    def check_resumed(self) -> None:
        """Each start showed every table at versions no lower than any earlier
        start had shown it at: the versions are grouped by the start that sent
        them (a start is killed, and gone, before the next one begins)."""
        for table, seen in self.seen.items():
            highest, by = -1, 0   # the highest version the earlier starts showed
            for start in sorted({s.start for s in seen}):
                versions = [s.version for s in seen if s.start == start]
                if min(versions) < highest:
                    self.problems.append(
                        f"table {table} came back at version {min(versions)} (server start "
                        f"{start}), but a client had been shown version {highest} "
                        f"(server start {by})")
                if max(versions) > highest:
                    highest, by = max(versions), start

    def read_late(self) -> list[str]:
        """The first views read after a newer view of the same table from the
        same server start (no loss: the first view was built before that one
        was sent, and read later), such as ``t1: start 3, spectator's first
        view 26 read after seat 2's 27``."""
        found = []
        for table, seen in self.seen.items():
            for number, one in enumerate(seen):
                newer = [other for other in seen[:number]
                         if other.version > one.version and other.start == one.start]
                if one.first and newer:
                    found.append(f"{table}: start {one.start}, {one.who}'s first view "
                                 f"{one.version} read after {newer[-1].who}'s {newer[-1].version}")
        return found

    def views_read(self, table: str) -> str:
        """The views of ``table`` read, one line per connection:
        ``start 2, seat 0, connection 3: 20 21 22``."""
        lines: dict[tuple[int, str, int], list[str]] = {}
        for s in self.seen.get(table, []):
            key = (s.start, s.who, s.connection)
            lines.setdefault(key, []).append(f"{s.version}{'*' if s.first else ''}")
        return "\n".join(f"  start {start}, {who}, connection {number}: {' '.join(versions)}"
                         for (start, who, number), versions in lines.items())

    async def follow(self, follower: Follower, loop_deadline: float) -> None:
        """Follow a table to its end, reconnecting whenever the server goes away."""
        loop = asyncio.get_running_loop()
        while loop.time() < loop_deadline:
            await asyncio.wait_for(self.up.wait(), max(0.1, loop_deadline - loop.time()))
            # Read together, in one step of the loop: the address, and the
            # start it belongs to (the one after the kills made so far; a
            # kill and the next start are over before the next kill).
            url, start = self.server.ws_url, self.kills + 1
            try:
                connection = await Connection.open(url, follower.table.id,
                                                   follower.token, timeout=WAIT)
            except (OSError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.05)
                continue
            follower.connects += 1
            follower.start = start
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
        scenario.check_resumed()
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
              f"kill: {scenario.in_flight_outcomes}; first views read after a newer one of "
              f"the same start: {scenario.read_late()}")
    assert problems == [], _explained(problems, scenario, database)
    assert scenario.server.tracebacks() == [], scenario.server.log_tail()
    assert scenario.kills >= 3
    assert scenario.in_flight_kills == 2
    assert len(scenario.in_flight_outcomes) >= 2   # and any act a plain kill caught on the wire
    assert all(f.final is not None for f in followers)
    assert all(f.connects >= 2 for f in followers)   # each one reconnected at least once


def _explained(problems: Problems, scenario: Scenario, database: str) -> str:
    """The problems, then for each table they name the views read and its
    stored actions, then the server's log tail and where the log is kept."""
    parts = list(problems)
    named = [table for table in scenario.seen if any(table in problem for problem in problems)]
    for table in named:
        parts.append(f"table {table}: views read (* first of a connection), by server "
                     f"start:\n{scenario.views_read(table)}")
    try:
        store = Store(database)
        try:
            for table in named:
                actions = store.actions(table)
                parts.append(f"table {table}: {len(actions)} actions stored, the last ones: "
                             + "; ".join(f"{a.version} {a.made_by} seat {a.seat} {a.action}"
                                         for a in actions[-6:]))
        finally:
            store.close()
    except Exception as error:   # the problems above matter more than this
        parts.append(f"the stored actions could not be read: {error!r}")
    parts.append(f"the server's log ({scenario.server.log_path}), its end:\n"
                 + scenario.server.log_tail())
    return "\n".join(parts)


def test_a_first_view_read_late_is_no_loss_and_a_lower_start_is(tmp_path: Path) -> None:
    """How "came back lower" is judged, on views made up: by the server start
    that sent each view, not by the order the test read them in.  A first
    view (20) built before a newer view (21) sent to another client of the
    same start, and read after it, is no loss; a later start showing the
    table lower (20) than an earlier one had (21) is."""
    problems = Problems()
    scenario = Scenario(ServerProcess(tmp_path / "db.sqlite"), problems)
    scenario.seen["t"] = [Seen(1, "seat 0", 1, 20, True), Seen(1, "seat 0", 1, 21, False),
                          Seen(1, "spectator", 1, 20, True),   # read late: no loss
                          Seen(2, "seat 0", 2, 21, True), Seen(2, "spectator", 2, 21, True)]
    scenario.check_resumed()
    assert problems == []
    assert scenario.read_late() == [
        "t: start 1, spectator's first view 20 read after seat 0's 21"]
    scenario.seen["u"] = [Seen(1, "seat 0", 1, 21, False), Seen(2, "spectator", 2, 22, True),
                          Seen(2, "seat 0", 2, 20, True)]   # start 2 lower than start 1
    scenario.check_resumed()
    assert problems == ["table u came back at version 20 (server start 2), but a client had "
                        "been shown version 21 (server start 1)"]
    assert scenario.views_read("u").splitlines() == [
        "  start 1, seat 0, connection 1: 21", "  start 2, spectator, connection 2: 22*",
        "  start 2, seat 0, connection 2: 20*"]
