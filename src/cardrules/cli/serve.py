"""``cardrules serve``: run the game server (:mod:`cardrules.server`) on uvicorn.

The server needs the ``server`` extra (Starlette, uvicorn, SQLAlchemy);
without it the command says so in one line and returns 2.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import logging
import sys

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
                     limits=limits, damaged=args.damaged, fresh=args.fresh)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("cardrules: %(message)s"))
    server_log = logging.getLogger("cardrules.server")
    server_log.addHandler(handler)
    server_log.propagate = False
    protocol = guarded_protocol(args.header_timeout, args.max_connections,
                                args.max_connections_per_client)
    logging.getLogger("uvicorn.error").addFilter(_one_line)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="error",
                            http=protocol, ws_max_size=4 * limits.max_message,
                            timeout_keep_alive=5)
    server = uvicorn.Server(config)
    print("cardrules: " + gettext("serving on {url} (database {db}); Ctrl-C stops").format(
        url=f"http://{args.host}:{args.port}/", db=args.db), file=sys.stderr)
    server.run()
    return 0 if server.started else 1
