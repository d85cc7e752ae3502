"""``cardrules serve``: run the game server (:mod:`cardrules.server`) on uvicorn.

The server needs the ``server`` extra (Starlette, uvicorn, SQLAlchemy);
without it the command says so in one line and returns 2.  With
``--workers N`` (PostgreSQL only: a SQLite file is served by one process)
uvicorn runs N processes sharing the port, each a full server of the shared
database (:mod:`cardrules.server.cluster`); they build the application with
:func:`app_from_environment` from the settings this command leaves in
``CARDRULES_SERVE``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
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
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help=gettext("run N server processes sharing the port (PostgreSQL "
                                     "only; default 1)"))
    parser.add_argument("--lease-seconds", type=_seconds, default=3.0, metavar="SECONDS",
                        help=gettext("PostgreSQL: how long a process keeps a table's bots "
                                     "and timer without renewing, so how soon another "
                                     "process takes over when it dies (default 3)"))
    parser.set_defaults(handler=run)


def app_from_environment() -> Any:
    """The application of one ``--workers`` process, made from the settings
    in ``CARDRULES_SERVE`` (JSON: the arguments of :func:`create_app
    <cardrules.server.create_app>`).

    >>> import os
    >>> os.environ["CARDRULES_SERVE"] = '{"database": "sqlite://", "bot_delay": 0}'
    >>> app_from_environment().routes[0].path
    '/api/games'
    """
    from cardrules.server import create_app

    settings = json.loads(os.environ["CARDRULES_SERVE"])
    return create_app(**settings)


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
    import uvicorn

    from cardrules.server import create_app

    settings = {"database": args.db, "bot_delay": args.bot_delay,
                "turn_timer": args.turn_timer, "lease_seconds": args.lease_seconds}
    print("cardrules: " + gettext("serving on {url} (database {db}); Ctrl-C stops").format(
        url=f"http://{args.host}:{args.port}/", db=args.db), file=sys.stderr)
    if args.workers > 1:
        os.environ["CARDRULES_SERVE"] = json.dumps(settings)
        uvicorn.run("cardrules.cli.serve:app_from_environment", factory=True,
                    workers=args.workers, host=args.host, port=args.port,
                    log_level="warning")
        return 0
    app = create_app(**settings)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
