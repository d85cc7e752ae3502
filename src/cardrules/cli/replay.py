"""``cardrules replay FILE``: replay a saved record of either game."""

from __future__ import annotations

import argparse

from cardrules.cli import _common
from cardrules.engine.records import GameRecord


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` subcommand."""
    parser = commands.add_parser("replay", help="replay a saved game record")
    parser.add_argument("file", help="a record written by 'cardrules play --record'")
    parser.add_argument("--moves", action="store_true", help="list every move with its seat")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay the record and print its summary."""
    record = GameRecord.load(args.file)
    rules = record.rules
    if args.moves:
        _common.print_moves(rules, record)
    *_, final = rules.replay(record)
    print(rules.summarize(final))
    if not final.is_terminal:
        print(f"the record is unfinished: {len(record.actions)} actions, "
              "and the game goes on")
    return 0
