"""``cardrules replay FILE``: replay a saved record of either game.

By default every move is listed (number, who made it, the action), then the
summary; ``--summary`` prints the summary alone.  ``--moves`` is still
accepted: it asks for the default.  ``--double-dummy`` adds the game's
double-dummy analysis (``Rules.double_dummy``) after the summary; a game
without one refuses it.
"""

from __future__ import annotations

import argparse

from cardrules.cli import _output
from cardrules.engine.presenter import game_title
from cardrules.engine.records import GameRecord
from cardrules.i18n import gettext, ngettext


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` subcommand."""
    parser = commands.add_parser("replay", help=gettext("replay a saved game record move by move"))
    parser.add_argument("file", help=gettext("a record written by 'cardrules play --record' or "
                                             "by 'save FILE' during a game"))
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--summary", action="store_true",
                       help=gettext("print only the summary, not every move"))
    shown.add_argument("--moves", action="store_true",
                       help=gettext("list every move with its seat, then the summary (the "
                                    "default)"))
    parser.add_argument("--double-dummy", action="store_true",
                        help=gettext("after the summary, each deal's double-dummy tricks beside "
                                     "the tricks taken and the contracts (for a game that has it)"))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay the record; print its moves (unless ``--summary``) and its summary."""
    record = GameRecord.load(args.file)
    rules = record.rules
    if args.double_dummy and rules.double_dummy is None:
        raise ValueError(gettext("replay --double-dummy: {game} has no double-dummy analysis")
                         .format(game=game_title(rules)))
    *_, final = rules.replay(record)  # refuses a bad record before anything is printed
    if not args.summary:
        _output.print_moves(rules, record)
    print(rules.summarize(final))
    if args.double_dummy and rules.double_dummy is not None:
        print(rules.double_dummy(rules.replay(record)))
    if not final.is_terminal:
        print(ngettext("the record is unfinished: {n} actions, and the game goes on",
                       "the record is unfinished: {n} actions, and the game goes on",
                       len(record.actions)).format(n=len(record.actions)))
    return 0
