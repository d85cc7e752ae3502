"""What each comparison operator says about two values, for the tests of an order
(cards, combos): ``comparisons(a, b) == LESS`` states the whole order at once.

>>> comparisons(1, 2) == LESS
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, "<=": operator.le, "==": operator.eq,
    "!=": operator.ne, ">=": operator.ge, ">": operator.gt,
}


def comparisons(a: object, b: object) -> dict[str, bool]:
    """What each comparison operator says about ``a`` and ``b``."""
    return {name: op(a, b) for name, op in OPS.items()}


#: The answers for two equal values, for a smaller first value, for a larger one.
EQUAL = {"<": False, "<=": True, "==": True, "!=": False, ">=": True, ">": False}
LESS = {"<": True, "<=": True, "==": False, "!=": True, ">=": False, ">": False}
GREATER = {"<": False, "<=": False, "==": False, "!=": True, ">=": True, ">": True}
