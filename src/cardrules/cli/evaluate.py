"""``cardrules eval CARDS...``: Down and Back combinations of 3, 4 or 7 cards."""

from __future__ import annotations

import argparse
import sys

from cardrules.cards import parse_cards


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``eval`` subcommand."""
    parser = commands.add_parser(
        "eval", help="evaluate 3 or 4 cards, or the best splits of 7 (Down and Back)")
    parser.add_argument("cards", nargs="+", help="cards such as KS 10h Q♦")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the combination, or the best splits of 7 cards."""
    from cardrules.down_and_back import best_splits, evaluate3, evaluate4

    cards = parse_cards(" ".join(args.cards))
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
