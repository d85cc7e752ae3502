"""The ``cardrules`` command (also ``python -m cardrules``).

``cardrules eval CARDS...`` prints the Down and Back combination of 3 or 4
cards, or the best ways (see :func:`~cardrules.down_and_back.best_splits`)
to split 7 cards into a down and a back hand.

``cardrules play`` plays a game of Down and Back between bots and prints each
round's result (``--record FILE`` saves the game record as JSON, or as text
when FILE ends in ``.txt``); ``cardrules replay FILE`` replays a saved record
and prints the same summary.

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
import sys
from collections.abc import Sequence
from typing import Any

from cardrules.cards import parse_cards
from cardrules.errors import CardRulesError

__all__ = ["main"]


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


def _summary(state: object) -> None:
    from cardrules.down_and_back import GameState

    assert isinstance(state, GameState)
    for result in state.results:
        pot = (f"seat {result.pot_winner} takes {result.pot}" if result.pot_winner is not None
               else f"pot of {result.pot} carries over")
        print(f"round {result.round}: down to seat {result.down_winner}, "
              f"back to seat {result.back_winner}; {pot}")
    print("net:", " ".join(f"{v:+d}" for v in state.net), f"(pot {state.pot})")
    leaders = ", ".join(str(seat) for seat in state.leaders)
    print(f"leading: seat {leaders}")


def _play(players: int, rounds: int, ante: int, seed: int, bots: str,
          record_path: str | None) -> int:
    import random

    import cardrules.down_and_back as db
    from cardrules.engine import Bot

    kinds = bots.split(",")
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players or not set(kinds) <= {"greedy", "random"}:
        print("cardrules: --bots is 'greedy', 'random' or one per seat, such as "
              "greedy,random,random", file=sys.stderr)
        return 2
    table: list[Bot] = [db.GreedyBot(seed + i) if kind == "greedy" else db.RandomBot(seed + i)
                        for i, kind in enumerate(kinds)]
    rng = random.Random(seed)
    state = db.new_game(players, ante=ante, rounds=rounds)
    start, actions = state, []
    while not state.is_terminal:
        if state.is_chance:
            action: db.Action = db.sample_chance(state, rng)
        else:
            seat = state.current_player
            assert seat is not None
            action = table[seat].act(db.view(state, seat), db.legal_actions(state))
        state = db.apply(state, action)
        actions.append(action)
    _summary(state)
    if record_path:
        game = db.record(start, actions)
        text = game.to_text() if record_path.endswith(".txt") else game.to_json(indent=1)
        with open(record_path, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"record written to {record_path}")
    return 0


def _replay(path: str) -> int:
    from cardrules.engine import GameRecord

    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    game = GameRecord.from_text(text) if text.startswith("#") else GameRecord.from_json(text)
    *_, final = game.replay()
    _summary(final)
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

    >>> main(["eval", "JH QH KH"])
    bouncer, king high (JH QH KH)
    0
    >>> main(["play", "--players", "2", "--rounds", "1", "--seed", "3"])
    round 1: down to seat ..., back to seat ...
    net: ...
    leading: seat ...
    0
    """
    parser = argparse.ArgumentParser(
        prog="cardrules", description="Rules engines for Down and Back and Back Alley.")
    parser.add_argument("--version", action=_Version, default=argparse.SUPPRESS,
                        help="show the version and whether the C speed-ups are in use")
    commands = parser.add_subparsers(dest="command", required=True)
    evaluate = commands.add_parser(
        "eval", help="evaluate 3 or 4 cards, or the best splits of 7 (Down and Back)")
    evaluate.add_argument("cards", nargs="+", help="cards such as KS 10h Q♦")
    play = commands.add_parser("play", help="play a game of Down and Back between bots")
    play.add_argument("--players", type=int, default=4, help="2 to 5 (default 4)")
    play.add_argument("--rounds", type=int, default=3, help="rounds to play (default 3)")
    play.add_argument("--ante", type=int, default=1, help="chips each round (default 1)")
    play.add_argument("--seed", type=int, default=0, help="seed for chance and the bots")
    play.add_argument("--bots", default="greedy",
                      help="'greedy', 'random', or one per seat: greedy,random,...")
    play.add_argument("--record", metavar="FILE", help="save the game record (JSON or .txt)")
    replay = commands.add_parser("replay", help="replay a saved game record")
    replay.add_argument("file", help="a record written by 'cardrules play --record'")
    args = parser.parse_args(argv)
    try:
        if args.command == "play":
            return _play(args.players, args.rounds, args.ante, args.seed, args.bots,
                         args.record)
        if args.command == "replay":
            return _replay(args.file)
        return _eval(" ".join(args.cards))
    except (CardRulesError, ValueError, OSError) as err:
        print(f"cardrules: {err}", file=sys.stderr)
        return 2


def run() -> None:
    """Entry point of the console script: exit with :func:`main`'s status."""
    sys.exit(main())
