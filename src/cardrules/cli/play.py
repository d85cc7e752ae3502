"""``cardrules play [GAME]``: bots play a whole game and the outcome is printed;
with ``--human SEAT`` a person plays that seat (see :mod:`cardrules.cli.human`)."""

from __future__ import annotations

import argparse

from cardrules.cli import _common


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = commands.add_parser(
        "play", help="play a whole game (bots, or you against bots); print the outcome")
    parser.add_argument("game", nargs="?", default="down-and-back",
                        help=f"the game: {' or '.join(_common.GAME_NAMES)} "
                             "(default down-and-back)")
    _common.add_settings_options(parser)
    _common.add_hand_size_option(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed for chance and the bots")
    parser.add_argument("--human", type=int, metavar="SEAT",
                        help="you play this seat (from 0), typing your moves; the bots "
                             "default to greedy (Down and Back) or heuristic (Back Alley)")
    parser.add_argument("--bots", default=None,
                        help=_common.BOTS_HELP + "; default random, or with --human the "
                             "game's strongest simple bot")
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
    if args.human is not None:
        from cardrules.cli.human import play_human

        if not 0 <= args.human < seats:
            raise ValueError(f"--human is a seat from 0 to {seats - 1}, not {args.human}")
        bots = _common.bots_around(rules, args.bots, seats, args.seed, args.human)
        return play_human(rules, settings, args.human, bots, args.seed,
                          record_path=args.record)
    game = rules.play(_common.bots(rules, args.bots or "random", seats, args.seed), settings,
                      seed=args.seed)
    if args.moves:
        _common.print_moves(rules, game.record)
    print(rules.summarize(game.state))
    if args.record is not None:
        game.record.dump(args.record)
        print(f"record written to {args.record}")
    return 0
