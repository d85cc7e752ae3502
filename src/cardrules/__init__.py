"""cardrules: exact, typed, fast rules for Down and Back and Back Alley.

The top level holds what both games share: cards, hands and errors.  Each game
lives in its own subpackage (:mod:`cardrules.down_and_back`).

>>> from cardrules import parse_cards
>>> from cardrules.down_and_back import evaluate4
>>> evaluate4(parse_cards("8S 8H 8D QH")).description
'prial of eights'
"""

import typing as _typing

from cardrules.cards import DECK, Card, Joker, Rank, Suit, parse_card, parse_cards
from cardrules.errors import CardRulesError, IllegalActionError, ParseError
from cardrules.hand import Hand
from cardrules.i18n import language

if _typing.TYPE_CHECKING:
    from cardrules.simulation import simulate

__all__ = [
    "DECK",
    "Card",
    "CardRulesError",
    "Hand",
    "IllegalActionError",
    "Joker",
    "ParseError",
    "Rank",
    "Suit",
    "__version__",
    "language",
    "parse_card",
    "parse_cards",
    "simulate",
]

__version__ = "0.1.0.dev0"


def __getattr__(name: str) -> object:
    # cardrules.simulate is imported on first use, so that importing cardrules
    # stays light (no worker pools, no optional extras).
    if name == "simulate":
        from cardrules.simulation import simulate

        return simulate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    # dir() and help() list the lazily loaded simulate beside the rest.
    return sorted({*globals(), *__all__})
