"""``cardrules serve``: run the game server (:mod:`cardrules.server`) on uvicorn.

The server needs the ``server`` extra (Starlette, uvicorn, SQLAlchemy);
without it the command says so in one line and returns 2.
"""

from __future__ import annotations

import argparse
import importlib.util
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
    parser.set_defaults(handler=run)


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

    app = create_app(args.db, bot_delay=args.bot_delay, turn_timer=args.turn_timer)
    print("cardrules: " + gettext("serving on {url} (database {db}); Ctrl-C stops").format(
        url=f"http://{args.host}:{args.port}/", db=args.db), file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
