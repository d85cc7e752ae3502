"""Vectorised evaluators for many hands at once (needs the ``numpy`` extra).

Rows are hands given as :attr:`cardrules.Card.index` values; the result
holds, per row, exactly the ``strength`` that :func:`evaluate4` or
:func:`evaluate3` gives for that hand.

Where the optional C speed-ups are installed
(:data:`~cardrules.down_and_back.ACCELERATED`), :func:`evaluate4_batch` and
:func:`evaluate3_batch` read the rows in C, in any integer dtype and memory
layout, without copying them and with the GIL released: each hand's cards
are sorted and looked up by their colex number in a table of one strength
per hand (270,725 for four cards), built from the shipped tables on first
use.  Otherwise numpy does the work, chunk by chunk, through the pair tables
of :mod:`cardrules.down_and_back.tables`.  Both give the same strengths and
raise the same errors; the numpy code words every error.

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

from cardrules.down_and_back import _accel
from cardrules.down_and_back.combos import PAIR_POSITIONS, SPLIT_POSITIONS
from cardrules.down_and_back.tables import INVALID, load, pair_offsets

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["best_splits_batch", "evaluate3_batch", "evaluate4_batch", "split_strengths_batch"]

_CHUNK = 1 << 14


_NO_NUMPY = "the batch evaluators need numpy: pip install 'cardrules[numpy]'"


def _require_numpy() -> None:
    """Raise an ImportError that names the extra to install when numpy is missing."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise ImportError(_NO_NUMPY) from None


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
    _require_numpy()
    arr = _rows(cards, size)
    if _accel.batch_strengths is None:
        return _numpy_strengths(arr, size)
    return _c_strengths(arr, size, _accel.batch_strengths)


def _c_strengths(arr: npt.NDArray[np.integer], size: int,
                 kernel: _accel.BatchKernel) -> npt.NDArray[np.int32]:
    """The strengths of checked-shape rows by the C kernel (the GIL released).

    On a bad row the kernel stops and names it; the numpy code then runs
    from the chunk holding that row (every row before it is valid), so the
    error and its message are exactly those of :func:`_numpy_strengths`.
    """
    import numpy as np

    out = np.empty(arr.shape[0], dtype=np.int32)
    bad = kernel(arr, size, out)
    if bad < 0:
        return out
    _numpy_strengths(arr, size, first=bad - bad % _CHUNK)
    raise AssertionError(f"the C kernel refused row {bad}, which the numpy code accepts")


def _numpy_strengths(arr: npt.NDArray[np.integer], size: int,
                     first: int = 0) -> npt.NDArray[np.int32]:
    """The strengths of checked-shape rows by numpy alone, chunk by chunk from
    row ``first`` (a multiple of the chunk size; rows before it are left out)."""
    import numpy as np

    four, three, ids, rows4, rows3 = _tables()
    table, heads = (four, rows4) if size == 4 else (three, rows3)
    count = arr.shape[0]
    out = np.empty(count, dtype=np.int32)
    # Scratch arrays reused by every chunk.  Each step writes into them with
    # out=, and the ufuncs compute in intp whatever the input's integer type
    # (uint64 + int64 would otherwise be float64).  Once a chunk's indices are
    # known to lie in range(52), every table position computed from them is
    # valid, so the gathers skip their own bounds checks (mode="clip").
    rows = min(_CHUNK, count)
    index, pair, column = (np.empty(rows, dtype=np.intp) for _ in range(3))
    strengths = np.empty(rows, dtype=np.uint16)
    # Checked indices read the same as intp when they have its width (uint64,
    # uintp): a view then spares the ufuncs a cast.
    as_intp = arr.dtype.isnative and arr.dtype.itemsize == np.dtype(np.intp).itemsize
    for start in range(first, count, _CHUNK):
        chunk = _in_range(arr[start:start + _CHUNK], start)
        if as_intp:
            chunk = chunk.view(np.intp)
        n = chunk.shape[0]
        h, p, s = index[:n], pair[:n], strengths[:n]
        np.multiply(chunk[:, 0], 52, out=p, dtype=np.intp, casting="unsafe")
        np.add(p, chunk[:, 1], out=p, dtype=np.intp, casting="unsafe")
        heads.take(p, out=h, mode="clip")          # the first pair's row in the table
        if size == 4:
            np.multiply(chunk[:, 2], 52, out=p, dtype=np.intp, casting="unsafe")
            np.add(p, chunk[:, 3], out=p, dtype=np.intp, casting="unsafe")
            c = column[:n]
            ids.take(p, out=c, mode="clip")        # the second pair's column
            h += c
        else:
            np.add(h, chunk[:, 2], out=h, dtype=np.intp, casting="unsafe")
        table.take(h, out=s, mode="clip")
        if s.max() == INVALID:
            row = start + int(np.flatnonzero(s == INVALID)[0])
            raise ValueError(f"row {row} holds the same card twice")
        out[start:start + n] = s
    return out


def evaluate4_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of many 4-card hands: an int array of shape ``(N, 4)`` in, ``(N,)`` out.

    Raises :class:`ValueError` for a wrong shape, indices outside
    ``range(52)`` or a card repeated within a row, and :class:`ImportError`
    (naming the extra to install) when numpy is missing.

    >>> import numpy as np
    >>> evaluate4_batch(np.array([[0, 1, 2, 3], [0, 4, 8, 12]])) >> 12
    array([7, 5], dtype=int32)
    >>> evaluate4_batch(np.array([[0, 1, 2, 3], [0, 0, 1, 2]]))
    Traceback (most recent call last):
    ...
    ValueError: row 1 holds the same card twice
    """
    return _evaluate(cards, 4)


def evaluate3_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of many 3-card hands: an int array of shape ``(N, 3)`` in, ``(N,)`` out.

    >>> import numpy as np
    >>> evaluate3_batch(np.array([[0, 1, 2]])) >> 12   # three aces: a prial
    array([5], dtype=int32)
    """
    return _evaluate(cards, 3)


# Position plans for the 35 splits of a 7-card row: the 21 pairs of positions,
# and per split which pairs (and which single card) make its two hands.
_PAIR_NUMBER = {pair: n for n, pair in enumerate(PAIR_POSITIONS)}
_DOWN_HEAD = [_PAIR_NUMBER[d[0], d[1]] for d, _ in SPLIT_POSITIONS]
_DOWN_TAIL = [_PAIR_NUMBER[d[2], d[3]] for d, _ in SPLIT_POSITIONS]
_BACK_HEAD = [_PAIR_NUMBER[b[0], b[1]] for _, b in SPLIT_POSITIONS]
_BACK_TAIL = [b[2] for _, b in SPLIT_POSITIONS]
_SPLIT_CHUNK = 1 << 10


def split_strengths_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Down and back strengths of all 35 splits of many 7-card hands.

    ``cards`` is an int array of shape ``(N, 7)`` of card indices; the result
    has shape ``(N, 35, 2)``: ``[n, s, 0]`` is the down (4-card) strength and
    ``[n, s, 1]`` the back (3-card) strength of split ``s`` of hand ``n``, the
    splits in :func:`~cardrules.down_and_back.splits` order.

    >>> import numpy as np
    >>> from cardrules import parse_cards
    >>> from cardrules.down_and_back import split_strengths
    >>> hand = parse_cards("8S 8H 8D QH 5C 6C 7C")
    >>> batch = split_strengths_batch(np.array([[c.index for c in hand]]))
    >>> batch.shape, [tuple(map(int, s)) for s in batch[0]] == split_strengths(hand)
    ((1, 35, 2), True)
    """
    _require_numpy()
    import numpy as np

    arr = _rows(cards, 7)
    four, three, ids, rows4, rows3 = _tables()
    out = np.empty((arr.shape[0], 35, 2), dtype=np.int32)
    first = [i for i, _ in PAIR_POSITIONS]
    second = [j for _, j in PAIR_POSITIONS]
    for start in range(0, arr.shape[0], _SPLIT_CHUNK):
        chunk = _in_range(arr[start:start + _SPLIT_CHUNK], start).astype(np.intp)
        pairs = chunk[:, first] * 52
        pairs += chunk[:, second]
        down = rows4.take(pairs)[:, _DOWN_HEAD]
        down += ids.take(pairs)[:, _DOWN_TAIL]
        back = rows3.take(pairs)[:, _BACK_HEAD]
        back += chunk[:, _BACK_TAIL]
        downs = four.take(down)
        if downs.max() == INVALID:  # every pair of positions meets in some down hand
            row = start + int(np.flatnonzero((downs == INVALID).any(axis=1))[0])
            raise ValueError(f"row {row} holds the same card twice")
        out[start:start + _SPLIT_CHUNK, :, 0] = downs
        out[start:start + _SPLIT_CHUNK, :, 1] = three.take(back)
    return out


def best_splits_batch(cards: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Which of the 35 splits of each 7-card hand are Pareto-optimal.

    The vectorised counterpart of :func:`~cardrules.down_and_back.best_splits`:
    for an int array of shape ``(N, 7)`` it returns a boolean array of shape
    ``(N, 35)``, true for the splits (in
    :func:`~cardrules.down_and_back.splits` order) that no other split of the
    same hand beats in one hand while matching it in the other.

    >>> import numpy as np
    >>> from cardrules import parse_cards
    >>> from cardrules.down_and_back import best_splits, splits
    >>> hand = parse_cards("9S 9H 9D 2C 3C 4C 8D")
    >>> mask = best_splits_batch(np.array([[c.index for c in hand]]))[0]
    >>> chosen = [o for o, keep in zip(splits(hand), mask) if keep]
    >>> sorted(map(str, chosen)) == sorted(map(str, best_splits(hand)))
    True
    """
    _require_numpy()
    import numpy as np

    scores = split_strengths_batch(cards)
    out = np.empty(scores.shape[:2], dtype=np.bool_)
    for start in range(0, scores.shape[0], _SPLIT_CHUNK):
        part = scores[start:start + _SPLIT_CHUNK]
        down = part[:, :, 0].astype(np.uint16)
        back = part[:, :, 1].astype(np.uint16)
        key = (down.astype(np.uint32) << 16) | back
        # Split t dominates split s when it is at least as strong in both hands
        # and not equal in both: axis 1 runs over t, axis 2 over s.
        dominated = (down[:, :, None] >= down[:, None, :])
        dominated &= back[:, :, None] >= back[:, None, :]
        dominated &= key[:, :, None] != key[:, None, :]
        out[start:start + _SPLIT_CHUNK] = ~dominated.any(axis=1)
    return out


def _rows(cards: npt.ArrayLike, size: int) -> npt.NDArray[np.integer]:
    """``cards`` as an integer array of shape (N, size); indices are checked per chunk.

    Every integer dtype is accepted (signed or unsigned, any width and byte
    order); anything else, bools included, is refused naming its dtype.
    """
    import numpy as np

    arr = np.asarray(cards)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"expected an integer array of card indices (Card.index values), "
                         f"got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != size:
        raise ValueError(f"expected an array of shape (N, {size}), got {arr.shape}")
    return arr


def _in_range(chunk: npt.NDArray[np.integer], start: int = 0) -> npt.NDArray[np.integer]:
    """``chunk`` itself, once every index in it lies in range(52).

    ``start`` is the number of the chunk's first row, for the error message.
    """
    import numpy as np

    # One pass checks both ends: viewed as unsigned, negative indices are huge.
    unsigned = chunk.view(chunk.dtype.str.replace("i", "u"))
    if chunk.size and unsigned.max() > 51:
        row = start + int(np.flatnonzero((unsigned > 51).any(axis=1))[0])
        raise ValueError(f"card indices must lie in range(52): row {row} holds "
                         f"{chunk[row - start].tolist()}")
    return chunk
