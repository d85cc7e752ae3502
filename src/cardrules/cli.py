"""The ``cardrules`` command (also ``python -m cardrules``).

``cardrules eval CARDS...`` prints the Down and Back combination of 3 or 4
cards, or the best ways (see :func:`~cardrules.down_and_back.best_splits`)
to split 7 cards into a down and a back hand.

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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status instead of exiting.

    >>> main(["eval", "JH QH KH"])
    bouncer, king high (JH QH KH)
    0
    """
    parser = argparse.ArgumentParser(
        prog="cardrules", description="Rules engines for Down and Back and Back Alley.")
    commands = parser.add_subparsers(dest="command", required=True)
    evaluate = commands.add_parser(
        "eval", help="evaluate 3 or 4 cards, or the best splits of 7 (Down and Back)")
    evaluate.add_argument("cards", nargs="+", help="cards such as KS 10h Q♦")
    args = parser.parse_args(argv)
    try:
        return _eval(" ".join(args.cards))
    except (CardRulesError, ValueError) as err:
        print(f"cardrules: {err}", file=sys.stderr)
        return 2


def run() -> None:
    """Entry point of the console script: exit with :func:`main`'s status."""
    sys.exit(main())
