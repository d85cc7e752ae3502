"""``cardrules play [GAME]``: bots play a whole game and the outcome is printed."""

from __future__ import annotations

import argparse

from cardrules.cli import _common


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = commands.add_parser("play", help="play a whole game; print the outcome")
    parser.add_argument("game", nargs="?", default="down-and-back",
                        help=f"the game: {' or '.join(_common.GAME_NAMES)} "
                             "(default down-and-back)")
    _common.add_settings_options(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed for chance and the bots")
    parser.add_argument("--bots", default="random",
                        help=_common.BOTS_HELP + "; default random")
    parser.add_argument("--record", metavar="FILE",
                        help="save the game record (JSON, or text when FILE ends in .txt)")
    parser.add_argument("--moves", action="store_true", help="list every move with its seat")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the game the options describe and print its summary."""
    rules = _common.game(args.game)
    if args.record is not None:
        _common.check_record_path(args.record)
    settings = _common.settings_of(rules, args)
    seats = rules.new_game_from_settings(settings).num_players
    game = rules.play(_common.bots(rules, args.bots, seats, args.seed), settings,
                      seed=args.seed)
    if args.moves:
        _common.print_moves(rules, game.record)
    print(rules.summarize(game.state))
    if args.record is not None:
        game.record.dump(args.record)
        print(f"record written to {args.record}")
    return 0
