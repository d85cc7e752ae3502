"""Pieces both games' ``encoding`` modules share: reading an action id, laying
out an observation vector, and filling it.

The numbering and the layouts themselves belong to each game (see
``cardrules.down_and_back.encoding`` and ``cardrules.back_alley.encoding``).

>>> layout((("phase", 3), ("hand", 52)))
(('phase', 0, 3), ('hand', 3, 52))
>>> as_action_id(7)
7
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import TYPE_CHECKING

from cardrules.cards import Card, Joker

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["as_action_id", "layout", "mark_cards", "zeros"]


def as_action_id(number: object) -> int:
    """``number`` as a plain int: an ``int`` or an integer numpy scalar, not a bool.

    >>> as_action_id(True)
    Traceback (most recent call last):
    ...
    TypeError: an action id is an int, not bool
    """
    if type(number) is int:
        return number
    if not isinstance(number, bool):
        try:
            return operator.index(number)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise TypeError(f"an action id is an int, not {type(number).__name__}")


def layout(spec: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int, int], ...]:
    """``(name, length)`` pairs laid end to end as ``(name, start, length)``.

    >>> layout((("a", 2), ("b", 1)))[-1]
    ('b', 2, 1)
    """
    slices, start = [], 0
    for name, length in spec:
        slices.append((name, start, length))
        start += length
    return tuple(slices)


def zeros(size: int) -> npt.NDArray[np.float32]:
    """A float32 vector of ``size`` zeros; a clear :class:`ImportError` without numpy.

    >>> zeros(3).tolist()
    [0.0, 0.0, 0.0]
    """
    try:
        import numpy as np
    except ImportError:
        raise ImportError('observation_tensor needs numpy: pip install "cardrules[numpy]"') \
            from None
    return np.zeros(size, dtype=np.float32)


def mark_cards(out: npt.NDArray[np.float32], start: int, cards: Iterable[Card | Joker]) -> None:
    """Set ``out[start + card.index]`` to 1 for every card.

    >>> from cardrules import parse_cards
    >>> out = zeros(54)
    >>> mark_cards(out, 2, parse_cards("AS AH"))  # card indexes 0 and 1
    >>> out[:5].tolist()
    [0.0, 0.0, 1.0, 1.0, 0.0]
    """
    for card in cards:
        out[start + card.index] = 1
