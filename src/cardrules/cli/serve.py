"""``cardrules serve``: run the game server (:mod:`cardrules.server`) on uvicorn.

The server needs the ``server`` extra (Starlette, uvicorn, SQLAlchemy);
without it the command says so in one line and returns 2.  With
``--workers N`` (PostgreSQL only: a SQLite file is served by one process)
the command binds the port once and starts N copies of itself that share
the listening socket (each told its descriptor by a hidden ``--fd``); each
is a full server of the shared database (:mod:`cardrules.server.cluster`).
The command supervises them: a copy that dies is started again on the same
socket, unless they die too often (more than ``MAX_RESTARTS`` within
``RESTART_WINDOW`` seconds).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import ipaddress
import logging
import signal
import socket
import subprocess
import sys
import time
from typing import Any

from cardrules.i18n import N_, gettext

#: The line printed when the server extra is missing (in English; the command
#: prints it in the reader's language).
MISSING = N_('cardrules serve needs the server extra: pip install "cardrules[server]"')


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            gettext("not a number of seconds: {text}").format(text=repr(text))) from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(
            gettext("not a number of seconds: {text}").format(text=repr(text)))
    return value


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    parser = commands.add_parser(
        "serve", help=gettext("run the game server: a lobby, web tables and bots (needs the "
                              "server extra)"))
    parser.add_argument("--host", default="127.0.0.1",
                        help=gettext(
                            "the address to listen on (default 127.0.0.1, this machine only)"))
    parser.add_argument("--port", type=int, default=8000, help=gettext("the port (default 8000)"))
    parser.add_argument("--db", default="cardrules.sqlite", metavar="PATH_OR_URL",
                        help=gettext("a SQLite file, or an SQLAlchemy URL such as "
                                     "postgresql+psycopg://user@host/db (default "
                                     "cardrules.sqlite)"))
    parser.add_argument("--bot-delay", type=_seconds, default=0.5, metavar="SECONDS",
                        help=gettext("how long bots wait before each move (default 0.5)"))
    parser.add_argument("--turn-timer", type=_seconds, default=None, metavar="SECONDS",
                        help=gettext("a person who has not moved within this many seconds "
                                     "has the game's default bot move for them (default: no "
                                     "timer)"))
    limits = parser.add_argument_group(gettext("limits (see the server guide)"))
    limits.add_argument("--allowed-host", action="append", default=None, metavar="NAME",
                        help=gettext("a host name the server answers for (repeat for more; "
                                     "*.example.org for its subdomains, * for any); default: "
                                     "localhost and 127.0.0.1 when --host is a loopback "
                                     "address, else any"))
    limits.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                        help=gettext("a web origin (https://cards.example.org) whose pages may "
                                     "make and join tables and open the table's WebSocket, "
                                     "besides the server's own (repeat for more)"))
    limits.add_argument("--max-tables", type=_count, default=500, metavar="N",
                        help=gettext("how many unfinished tables the server keeps (default 500)"))
    limits.add_argument("--tables-per-minute", type=_rate, default=20.0, metavar="N",
                        help=gettext("how many tables one address may make or join a minute "
                                     "(default 20)"))
    limits.add_argument("--messages-per-second", type=_rate, default=20.0, metavar="N",
                        help=gettext("how many messages one WebSocket may send a second "
                                     "(default 20, bursts of 60)"))
    limits.add_argument("--header-timeout", type=_rate, default=10.0, metavar="SECONDS",
                        help=gettext("how long a request's headers may take (default 10)"))
    limits.add_argument("--max-connections", type=_count, default=500, metavar="N",
                        help=gettext("how many connections may be open at once (default 500)"))
    limits.add_argument("--max-connections-per-client", type=_count, default=60, metavar="N",
                        help=gettext("how many connections one address may hold (default 60)"))
    limits.add_argument("--bots-play-unwatched", action="store_true",
                        help=gettext("let tables of bots alone play while nobody watches "
                                     "(by default they wait for a spectator)"))
    limits.add_argument("--damaged", choices=("refuse", "quarantine"), default="refuse",
                        help=gettext("a table the database cannot replay: refuse to start "
                                     "(default), or quarantine it and serve the others"))
    limits.add_argument("--fresh", action="store_true",
                        help=gettext("use an empty (0-byte) database file as a new database"))
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help=gettext("run N server processes sharing the port, each "
                                     "started again if it dies (PostgreSQL only; default 1)"))
    parser.add_argument("--lease-seconds", type=_seconds, default=3.0, metavar="SECONDS",
                        help=gettext("PostgreSQL: how long a process keeps a table's bots "
                                     "and timer without renewing, so how soon another "
                                     "process takes over when it dies (default 3)"))
    # A worker of --workers: the listening socket's descriptor, inherited.
    parser.add_argument("--fd", type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=run)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            gettext("not a whole number of at least 1: {text}").format(text=repr(text)))
    return value


def _rate(text: str) -> float:
    value = _seconds(text)
    if value == 0:
        raise argparse.ArgumentTypeError(
            gettext("not a positive number: {text}").format(text=repr(text)))
    return value


def _one_line(record: logging.LogRecord) -> bool:
    """uvicorn's log, kept to one line for a client's mistake (invalid UTF-8
    in a WebSocket text frame is logged with a traceback) and for a failed
    start (the lifespan's own line, without "Application startup failed")."""
    message = record.getMessage()
    if "startup failed" in message:
        return False
    if message.startswith("Invalid UTF-8"):
        record.exc_info = None
        record.exc_text = None
    return True


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    """Serve until stopped (Ctrl-C); 2 when the server extra is missing."""
    needed = ("starlette", "uvicorn", "sqlalchemy")
    if any(importlib.util.find_spec(name) is None for name in needed):
        print("cardrules: " + gettext(MISSING), file=sys.stderr)
        return 2
    if args.turn_timer == 0:
        raise ValueError(gettext("--turn-timer must be more than 0 seconds"))
    if not 0 <= args.port <= 65535:
        raise ValueError(gettext("--port must be from 0 to 65535, not {port}").format(
            port=args.port))
    if args.workers < 1:
        raise ValueError(gettext("--workers must be 1 or more, not {workers}").format(
            workers=args.workers))
    if not 0.3 <= args.lease_seconds <= 600:
        raise ValueError(gettext("--lease-seconds must be from 0.3 to 600, not {seconds}")
                         .format(seconds=args.lease_seconds))
    from cardrules.server.store import is_shared

    if args.workers > 1 and not is_shared(args.db):
        raise ValueError(gettext("--workers {workers} needs a PostgreSQL database (--db "
                                 "postgresql://USER@HOST/NAME): a SQLite file is served by "
                                 "one process").format(workers=args.workers))
    if args.workers > 1:
        return _run_workers(args)
    import uvicorn

    from cardrules.server import create_app
    from cardrules.server._http import guarded_protocol
    from cardrules.server.limits import LOOPBACK_HOSTS, Limits

    hosts = args.allowed_host
    if hosts is None and _loopback(args.host):
        hosts = LOOPBACK_HOSTS
    limits = Limits(allowed_hosts=hosts, allowed_origins=args.allowed_origin,
                    max_tables=args.max_tables, tables_per_minute=args.tables_per_minute,
                    table_burst=max(1, round(args.tables_per_minute)),
                    messages_per_second=args.messages_per_second,
                    message_burst=max(1, round(3 * args.messages_per_second)),
                    bots_play_unwatched=args.bots_play_unwatched)
    app = create_app(args.db, bot_delay=args.bot_delay, turn_timer=args.turn_timer,
                     limits=limits, damaged=args.damaged, fresh=args.fresh,
                     lease_seconds=args.lease_seconds)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("cardrules: %(message)s"))
    server_log = logging.getLogger("cardrules.server")
    server_log.addHandler(handler)
    server_log.propagate = False
    protocol = guarded_protocol(args.header_timeout, args.max_connections,
                                args.max_connections_per_client)
    logging.getLogger("uvicorn.error").addFilter(_one_line)
    where: dict[str, Any] = {"host": args.host, "port": args.port} if args.fd is None \
        else {"fd": args.fd}
    config = uvicorn.Config(app, **where, log_level="error",
                            http=protocol, ws_max_size=4 * limits.max_message,
                            timeout_keep_alive=5)
    server = uvicorn.Server(config)
    if args.fd is None:
        print("cardrules: " + gettext("serving on {url} (database {db}); Ctrl-C stops").format(
            url=f"http://{args.host}:{args.port}/", db=args.db), file=sys.stderr)
    server.run()
    return 0 if server.started else 1


def _worker_argv(argv: list[str], fd: int) -> list[str]:
    """The command line of one worker: this one's, less ``--workers``, with ``--fd``.

    >>> _worker_argv(["serve", "--workers", "3", "--db", "x"], 5)
    ['serve', '--db', 'x', '--fd', '5']
    >>> _worker_argv(["serve", "--workers=3"], 5)
    ['serve', '--fd', '5']
    """
    out: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--workers":
            skip = True
        elif not word.startswith("--workers="):
            out.append(word)
    return [*out, "--fd", str(fd)]


#: A dead worker is started again unless more than this many died within
#: ``RESTART_WINDOW`` seconds; then the command gives up and stops.
MAX_RESTARTS = 5
#: The window, in seconds, in which the deaths of workers are counted.
RESTART_WINDOW = 60.0


class _Restarts:
    """The deaths of workers within the last ``window`` seconds: :meth:`allow`
    says whether one more may be started again.

    >>> restarts = _Restarts(limit=2, window=10.0)
    >>> [restarts.allow(now) for now in (0.0, 1.0, 2.0)]
    [True, True, False]
    >>> restarts.allow(30.0)   # the old ones are forgotten
    True
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.deaths: list[float] = []

    def allow(self, now: float) -> bool:
        self.deaths = [t for t in self.deaths if now - t < self.window] + [now]
        return len(self.deaths) <= self.limit


def _how(code: int) -> str:
    """How a worker ended, from its return code.

    >>> _how(-9), _how(3)
    ('SIGKILL', 'exit code 3')
    """
    if code < 0:
        with contextlib.suppress(ValueError):
            return signal.Signals(-code).name
        return f"signal {-code}"
    return gettext("exit code {code}").format(code=code)


def _run_workers(args: argparse.Namespace) -> int:
    """Bind the port, start ``args.workers`` copies of this command on it, and
    supervise them: one that dies is started again on the same socket (one
    line says so), unless more than ``MAX_RESTARTS`` died within
    ``RESTART_WINDOW`` seconds, when the command stops them all and
    returns 1.  Ctrl-C or SIGTERM stops them all (0)."""
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((args.host, args.port))
    listener.listen(2048)
    listener.set_inheritable(True)
    fd = listener.fileno()
    command = [sys.executable, "-m", "cardrules", *_worker_argv(sys.argv[1:], fd)]
    print("cardrules: " + gettext("serving on {url} (database {db}); Ctrl-C stops").format(
        url=f"http://{args.host}:{listener.getsockname()[1]}/", db=args.db), file=sys.stderr)
    workers = [subprocess.Popen(command, pass_fds=[fd]) for _ in range(args.workers)]
    stopping = False
    failed = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    restarts = _Restarts(MAX_RESTARTS, RESTART_WINDOW)
    while not stopping:
        time.sleep(0.2)
        for number, worker in enumerate(workers):
            code = worker.poll()
            if code is None or stopping:
                continue
            if not restarts.allow(time.monotonic()):
                failed = True
                stop(signal.SIGTERM, None)
                break
            print("cardrules: " + gettext(
                "server process {pid} ended ({how}); starting another").format(
                    pid=worker.pid, how=_how(code)), file=sys.stderr)
            workers[number] = subprocess.Popen(command, pass_fds=[fd])
    for worker in workers:   # one started as the signal came
        if worker.poll() is None:
            worker.terminate()
    codes = [worker.wait() for worker in workers]
    listener.close()
    if failed:   # said last, once the others have stopped
        print("cardrules: " + gettext(
            "server processes ended more than {count} times within {seconds} "
            "seconds: stopping").format(count=MAX_RESTARTS, seconds=round(RESTART_WINDOW)),
              file=sys.stderr)
        return 1
    return 0 if all(code in (0, -signal.SIGTERM) for code in codes) else 1
