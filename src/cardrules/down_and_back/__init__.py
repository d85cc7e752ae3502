"""Down and Back: combination evaluators (DB-1 to DB-25).

>>> from cardrules import parse_cards
>>> from cardrules.down_and_back import best_splits
>>> best = best_splits(parse_cards("8S 8H 8D QH 5C 6C 7C"))
>>> str(best[0].down), str(best[0].back)
('prial of eights (8S 8H 8D QH)', 'bouncer, seven high (5C 6C 7C)')
"""

from cardrules.down_and_back.batch import evaluate3_batch, evaluate4_batch
from cardrules.down_and_back.categories import Category3, Category4
from cardrules.down_and_back.evaluate import (
    Combo,
    SplitOption,
    best_splits,
    evaluate3,
    evaluate4,
    splits,
)

__all__ = [
    "Category3",
    "Category4",
    "Combo",
    "SplitOption",
    "best_splits",
    "evaluate3",
    "evaluate3_batch",
    "evaluate4",
    "evaluate4_batch",
    "splits",
]
