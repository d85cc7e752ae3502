"""``cardrules eval CARDS... [--json]``: Down and Back combinations of 3, 4 or 7 cards.

With ``--json`` the answer is one JSON object with stable keys:

- 3 or 4 cards: ``cards`` (the cards in text form, in the library's card
  order as every command shows them: see :func:`in_hand_order`), ``category``
  (the category's name, such as ``"PRIAL"``), ``rule`` (the rule id that
  defines the category, such as ``"DB-11"``), ``description`` (such as
  ``"prial of eights"``) and ``strength`` (larger is stronger, equal is a
  tie; comparable between hands of the same size only);
- 7 cards: ``cards`` and ``best_splits``, a list of ``{"down": ..., "back":
  ...}`` objects, each side described as above, in the order of
  :func:`~cardrules.down_and_back.best_splits`.

>>> from cardrules.cli import main
>>> main(["eval", "--json", "JH", "QH", "KH"])  # doctest: +ELLIPSIS
{"cards": ["JH", "QH", "KH"], "category": "BOUNCER", "rule": "DB-21", ...}
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardrules.cards import Card, parse_cards
from cardrules.hand import Hand
from cardrules.i18n import gettext, language

if TYPE_CHECKING:
    from cardrules.down_and_back import Combo


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``eval`` subcommand."""
    parser = commands.add_parser(
        "eval", help=gettext("evaluate 3 or 4 cards, or the best splits of 7 (Down and Back)"))
    parser.add_argument("cards", nargs="+", help=gettext("cards such as KS 10h Q♦"))
    parser.add_argument("--json", action="store_true",
                        help=gettext("print one JSON object (keys: cards, category, rule, "
                                     "description, strength; for 7 cards: cards, best_splits)"))
    parser.set_defaults(handler=run)


def combo_to_json(combo: Combo) -> dict[str, object]:
    """The ``--json`` form of one evaluated 3- or 4-card hand.

    >>> from cardrules import parse_cards
    >>> from cardrules.down_and_back import evaluate4
    >>> data = combo_to_json(evaluate4(parse_cards("8S 8H 8D QH")))
    >>> data["cards"], data["category"], data["rule"], data["description"]
    (['8S', '8H', '8D', 'QH'], 'PRIAL', 'DB-11', 'prial of eights')
    """
    category = combo.category
    with language("en"):  # a machine format: the same in every language
        description = combo.description
    return {"cards": [str(card) for card in combo.cards], "category": category.name,
            "rule": category.rule, "description": description,
            "strength": combo.strength}


def in_hand_order(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards in the library's card order (:class:`~cardrules.Hand`'s: by
    rank, ace low, then spades, hearts, diamonds, clubs), the order every
    command shows Down and Back cards in; repeated cards are left as given
    for the evaluator to refuse.

    >>> from cardrules import parse_cards
    >>> " ".join(map(str, in_hand_order(parse_cards("QH 5C 7C 6C"))))
    '5C 6C 7C QH'
    """
    if len(set(cards)) != len(cards):
        return tuple(cards)
    return tuple(Hand(cards))


def run(args: argparse.Namespace) -> int:
    """Print the combination, or the best splits of 7 cards."""
    from cardrules.down_and_back import best_splits, evaluate3, evaluate4

    cards = in_hand_order(parse_cards(" ".join(args.cards)))
    if len(cards) not in (3, 4, 7):
        print("cardrules: " + gettext("give 3, 4 or 7 cards, not {count}").format(count=len(cards)),
              file=sys.stderr)
        return 2
    if len(cards) == 7:
        options = best_splits(cards)
        if args.json:
            print(json.dumps({"cards": [str(card) for card in cards], "best_splits": [
                {"down": combo_to_json(option.down), "back": combo_to_json(option.back)}
                for option in options]}))
        else:
            for option in options:
                print(gettext("down: {down}   back: {back}").format(down=option.down,
                                                                  back=option.back))
        return 0
    combo = evaluate4(cards) if len(cards) == 4 else evaluate3(cards)
    print(json.dumps(combo_to_json(combo)) if args.json else combo)
    return 0
