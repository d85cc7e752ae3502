"""The ``cardrules`` command (also ``python -m cardrules``).

``cardrules eval CARDS...`` prints the Down and Back combination of 3 or 4
cards, or the best ways (see :func:`~cardrules.down_and_back.best_splits`)
to split 7 cards into a down and a back hand.

``cardrules play [GAME]`` lets bots play a whole game (Down and Back unless
``back-alley`` is named) and prints how it went; ``--record FILE`` saves the
game record (JSON, or text when FILE ends in ``.txt``; the path is checked
before the game starts) and ``--moves`` lists every move with the seat that
made it.  ``cardrules replay FILE [--moves]`` replays a saved record of
either game, prints the same account and says when the record is unfinished.

``cardrules --version`` prints the version and which Down and Back evaluators
are in use: the C speed-ups, or the pure-Python code (see
:data:`cardrules.down_and_back.ACCELERATED`).

>>> main(["eval", "8S", "8H", "8D", "QH"])
prial of eights (8S 8H 8D QH)
0
>>> main(["eval", "KS QS"])   # the message goes to standard error
2
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardrules.cards import parse_cards
from cardrules.engine.records import GameRecord
from cardrules.errors import CardRulesError, ParseError

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.rules import Rules

__all__ = ["main", "run"]

#: Game names as the command spells them.
_GAME_NAMES = ("down-and-back", "back-alley")
#: Shown in --help; the game's own default applies.
_DEFAULT_ROUNDS = 10


def _eval(text: str) -> int:
    from cardrules.down_and_back import best_splits, evaluate3, evaluate4

    cards = parse_cards(text)
    if len(cards) == 4:
        print(evaluate4(cards))
    elif len(cards) == 3:
        print(evaluate3(cards))
    elif len(cards) == 7:
        for option in best_splits(cards):
            print(f"down: {option.down}   back: {option.back}")
    else:
        print(f"cardrules: give 3, 4 or 7 cards, not {len(cards)}", file=sys.stderr)
        return 2
    return 0


def _game(name: str) -> Rules[Any, Any]:
    """The rules of the game named on the command line (``down-and-back``)."""
    from cardrules.engine.registry import rules_for

    try:
        return rules_for(name.replace("-", "_"))
    except ParseError:
        raise ParseError(f"unknown game (choose from {', '.join(_GAME_NAMES)})",
                         token=name) from None


def _check_record_path(path: str) -> None:
    """Refuse a record path that could not be written, before any game is played."""
    if not path.strip():
        raise ValueError("--record needs a file name")
    target = os.path.abspath(path)
    if os.path.isdir(target):
        raise ValueError(f"--record {path}: that is a folder, not a file")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise ValueError(f"--record {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(target)
                                           and not os.access(target, os.W_OK)):
        raise ValueError(f"--record {path}: cannot write there")


def _settings(rules: Rules[Any, Any], args: argparse.Namespace) -> dict[str, int | None]:
    """The game settings named by the options that were given."""
    given = {"num_players": args.players, "rounds": args.rounds, "ante": args.ante}
    settings: dict[str, int | None] = {}
    for key, value in given.items():
        if value is None:
            continue
        if key not in rules.default_settings:
            option = {"num_players": "--players"}.get(key, f"--{key}")
            raise ValueError(f"{rules.title} has no setting for {option}")
        settings[key] = value
    return settings


def _bots(rules: Rules[Any, Any], spec: str, seats: int, seed: int) -> list[Bot]:
    kinds = spec.split(",")
    if len(kinds) == 1:
        kinds *= seats
    names = ", ".join(rules.bots)
    if len(kinds) != seats or not set(kinds) <= set(rules.bots):
        raise ValueError(f"--bots is one of {names}, or one name per seat "
                         f"({seats} seats), separated by commas")
    return [rules.bots[kind](seed + seat) for seat, kind in enumerate(kinds)]


def _moves(rules: Rules[Any, Any], record: GameRecord) -> None:
    """Print every action of ``record`` with the seat that made it."""
    states = rules.replay(record)
    state = next(states)
    for number, action in enumerate(record.actions, start=1):
        actor = "chance" if state.is_chance else f"seat {state.current_player}"
        print(f"{number:5d}  {actor:8s} {action}")
        state = next(states)


def _play(args: argparse.Namespace) -> int:
    rules = _game(args.game)
    if args.record is not None:
        _check_record_path(args.record)
    settings = _settings(rules, args)
    seats = rules.new_game_from_settings(settings).num_players
    game = rules.play(_bots(rules, args.bots, seats, args.seed), settings, seed=args.seed)
    if args.moves:
        _moves(rules, game.record)
    print(rules.summarize(game.state))
    if args.record is not None:
        game.record.dump(args.record)
        print(f"record written to {args.record}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    record = GameRecord.load(args.file)
    rules = record.rules
    if args.moves:
        _moves(rules, record)
    *_, final = rules.replay(record)
    print(rules.summarize(final))
    if not final.is_terminal:
        print(f"the record is unfinished: {len(record.actions)} actions, "
              "and the game goes on")
    return 0


class _Version(argparse.Action):
    """``--version``: print the version and the evaluators in use, then exit 0."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from cardrules import __version__
        from cardrules.down_and_back import ACCELERATED

        kind = "C speed-ups active" if ACCELERATED else "pure-Python evaluators"
        print(f"cardrules {__version__} ({kind})")
        parser.exit(0)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status instead of exiting.

    The status is 0 on success.  Anything refused (bad cards, settings, bots,
    record paths or records) returns 2 after one line on standard error; a
    malformed command line makes ``argparse`` print its usage and error there
    and raise :class:`SystemExit` with status 2, as ``--help`` and
    ``--version`` raise it with 0.  The commands and options are described
    in the documentation's command-line page.

    >>> main(["eval", "JH QH KH"])
    bouncer, king high (JH QH KH)
    0
    >>> main(["play", "--players", "2", "--rounds", "1", "--seed", "3"])
    round 1: down to seat ..., back to seat ...
    net: ...
    leading: seat...
    0
    >>> main(["play", "--record", ""])   # checked before any game is played
    2
    """
    parser = argparse.ArgumentParser(
        prog="cardrules", description="Rules engines for Down and Back and Back Alley.")
    parser.add_argument("--version", action=_Version, default=argparse.SUPPRESS,
                        help="show the version and whether the C speed-ups are in use")
    commands = parser.add_subparsers(dest="command", required=True)
    evaluate = commands.add_parser(
        "eval", help="evaluate 3 or 4 cards, or the best splits of 7 (Down and Back)")
    evaluate.add_argument("cards", nargs="+", help="cards such as KS 10h Q♦")
    play = commands.add_parser("play", help="bots play a whole game; print the outcome")
    play.add_argument("game", nargs="?", default="down-and-back",
                      help=f"the game: {' or '.join(_GAME_NAMES)} (default down-and-back)")
    play.add_argument("--players", type=int, help="Down and Back: 2 to 5 (default 4)")
    play.add_argument("--rounds", type=int,
                      help="Down and Back: rounds to play (default "
                           f"{_DEFAULT_ROUNDS})")
    play.add_argument("--ante", type=int, help="Down and Back: chips each round (default 1)")
    play.add_argument("--seed", type=int, default=0, help="seed for chance and the bots")
    play.add_argument("--bots", default="random",
                      help="a bot name for every seat, or one per seat separated by commas "
                           "(Down and Back: greedy, random; Back Alley: heuristic, random; "
                           "default random)")
    play.add_argument("--record", metavar="FILE",
                      help="save the game record (JSON, or text when FILE ends in .txt)")
    play.add_argument("--moves", action="store_true", help="list every move with its seat")
    replay = commands.add_parser("replay", help="replay a saved game record")
    replay.add_argument("file", help="a record written by 'cardrules play --record'")
    replay.add_argument("--moves", action="store_true", help="list every move with its seat")
    args = parser.parse_args(argv)
    try:
        if args.command == "play":
            return _play(args)
        if args.command == "replay":
            return _replay(args)
        return _eval(" ".join(args.cards))
    except BrokenPipeError:  # the reader went away (``cardrules replay F | head``)
        _quiet_stdout()
        return 1
    except (CardRulesError, ValueError, OSError) as err:
        print(f"cardrules: {err}", file=sys.stderr)
        return 2


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that Python's final flush
    does not fail again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (tests, notebooks)
        pass


def run() -> None:
    """Entry point of the console script: exit with :func:`main`'s status."""
    sys.exit(main())
