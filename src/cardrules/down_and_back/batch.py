"""Vectorised evaluators for many hands at once (needs the ``numpy`` extra).

Rows are hands given as :attr:`cardrules.Card.index` values; the result
holds, per row, exactly the ``strength`` that :func:`evaluate4` or
:func:`evaluate3` gives for that hand.

>>> import numpy as np
>>> from cardrules import parse_cards
>>> from cardrules.down_and_back import evaluate4
>>> rows = np.array([[c.index for c in parse_cards("8S 8H 8D 8C")],
...                  [c.index for c in parse_cards("AS 2S 3S 4S")]])
>>> strengths = evaluate4_batch(rows)
>>> [int(s) for s in strengths] == [evaluate4(parse_cards(h)).strength
...                                 for h in ("8S 8H 8D 8C", "AS 2S 3S 4S")]
True
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from cardrules.down_and_back.tables import INVALID, load, pair_offsets

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["evaluate3_batch", "evaluate4_batch"]

_CHUNK = 1 << 14


_NO_NUMPY = "the batch evaluators need numpy: pip install 'cardrules[numpy]'"


@cache
def _tables() -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16], npt.NDArray[np.intp],
                       npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    import numpy as np

    four, three = load()
    ids, rows4, rows3 = pair_offsets()
    return (np.frombuffer(four, dtype=np.uint16), np.frombuffer(three, dtype=np.uint16),
            np.array(ids, dtype=np.intp), np.array(rows4, dtype=np.intp),
            np.array(rows3, dtype=np.intp))


def _evaluate(cards: npt.ArrayLike, size: int) -> npt.NDArray[np.int32]:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(_NO_NUMPY) from None
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] != size:
        raise ValueError(f"expected an array of shape (N, {size}), got {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"expected an integer array of card indices, got dtype {arr.dtype}")
    four, three, ids, rows4, rows3 = _tables()
    out = np.empty(arr.shape[0], dtype=np.int32)
    if arr.shape[0] == 0:
        return out
    unsigned = arr.view(arr.dtype.str.replace("i", "u"))  # negatives become huge
    for start in range(0, arr.shape[0], _CHUNK):
        stop = start + _CHUNK
        if unsigned[start:stop].max() > 51:
            raise ValueError("card indices must lie in range(52)")
        chunk = arr[start:stop]
        head = chunk[:, 0].astype(np.intp)
        head *= 52
        head += chunk[:, 1]
        if size == 4:
            tail = chunk[:, 2].astype(np.intp)
            tail *= 52
            tail += chunk[:, 3]
            index = rows4.take(head)
            index += ids.take(tail)
            strengths = four.take(index)
        else:
            index = rows3.take(head)
            index += chunk[:, 2]
            strengths = three.take(index)
        if strengths.max() == INVALID:
            raise ValueError("a row holds the same card twice")
        out[start:stop] = strengths
    return out


def evaluate4_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of many 4-card hands: an int array of shape ``(N, 4)`` in, ``(N,)`` out.

    Raises :class:`ValueError` for a wrong shape, indices outside
    ``range(52)`` or a card repeated within a row, and :class:`ImportError`
    (naming the extra to install) when numpy is missing.

    >>> import numpy as np
    >>> evaluate4_batch(np.array([[0, 1, 2, 3], [0, 4, 8, 12]])) >> 12
    array([7, 5], dtype=int32)
    >>> evaluate4_batch(np.array([[0, 0, 1, 2]]))
    Traceback (most recent call last):
    ...
    ValueError: a row holds the same card twice
    """
    return _evaluate(cards, 4)


def evaluate3_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of many 3-card hands: an int array of shape ``(N, 3)`` in, ``(N,)`` out.

    >>> import numpy as np
    >>> evaluate3_batch(np.array([[0, 1, 2]])) >> 12   # three aces: a prial
    array([5], dtype=int32)
    """
    return _evaluate(cards, 3)
