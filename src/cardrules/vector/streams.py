"""Per-game random streams for the batch engine, in numpy.

Game ``i`` of a batch draws its chance (dealers, shuffles, reshuffles,
tie-break draws, throw-ins) from its own stream, keyed by the seed and
``i`` alone, so it is the same game whatever the number of games played
beside it, and whichever steps the other games are at.

A stream is a 64-bit key (:func:`game_keys`: the first 8 bytes of the
SHA-256 digest of ``cardrules.vector:{seed}:{index}``) and a counter of the
words drawn so far.  Word ``n`` of a stream is SplitMix64's output for
``key + (n + 1) * 0x9E3779B97F4A7C15`` (:func:`words`): a counter-based
generator, so any game's words can be drawn without the others'.  A
shuffle orders the cards by the top 58 bits of one fresh word each
(:func:`shuffle_orders`, ties by position, which happens with probability
below ``2**-47`` per shuffle); a choice among ``n`` is the high part of
``word * n`` (:func:`below`), uniform to within ``n / 2**64``.

>>> import numpy as np
>>> keys = game_keys(7, 0, 3)
>>> keys.dtype, keys.shape
(dtype('uint64'), (3,))
>>> (game_keys(7, 1, 2) == keys[1:]).all()
np.True_
>>> counters = np.zeros(3, dtype=np.uint64)
>>> order = shuffle_orders(keys, counters, 5)
>>> sorted(order[0].tolist()), counters.tolist()
([0, 1, 2, 3, 4], [5, 5, 5])
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt

__all__ = ["below", "game_keys", "shuffle_orders", "words"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)

_LOW = np.uint64(63)
_HIGH = ~_LOW

U64 = npt.NDArray[np.uint64]


def game_keys(seed: int, start: int, count: int) -> U64:
    """The stream keys of games ``start`` to ``start + count - 1`` for ``seed``.

    >>> int(game_keys(0, 0, 1)[0]) == int.from_bytes(
    ...     hashlib.sha256(b"cardrules.vector:0:0").digest()[:8], "big")
    True
    """
    return np.array([int.from_bytes(hashlib.sha256(
        f"cardrules.vector:{seed}:{index}".encode("ascii")).digest()[:8], "big")
        for index in range(start, start + count)], dtype=np.uint64)


def words(keys: U64, counters: U64, width: int) -> U64:
    """``width`` fresh words of each stream, shape ``(len(keys), width)``;
    ``counters`` is advanced by ``width`` in place.

    >>> import numpy as np
    >>> c = np.zeros(2, dtype=np.uint64)
    >>> w = words(game_keys(1, 0, 2), c, 3)
    >>> w.shape, c.tolist()
    ((2, 3), [3, 3])
    >>> c2 = np.array([1], dtype=np.uint64)
    >>> bool(words(game_keys(1, 0, 1), c2, 1)[0, 0] == w[0, 1])
    True
    """
    # In place, one scratch array: the same words as the formula, fewer passes.
    z = np.arange(1, width + 1, dtype=np.uint64)[None, :] + counters[:, None]
    scratch = np.empty_like(z)
    with np.errstate(over="ignore"):
        z *= _GOLDEN
        z += keys[:, None]
        np.right_shift(z, _S30, out=scratch)
        z ^= scratch
        z *= _M1
        np.right_shift(z, _S27, out=scratch)
        z ^= scratch
        z *= _M2
        np.right_shift(z, _S31, out=scratch)
        z ^= scratch
    counters += np.uint64(width)
    out: U64 = z
    return out


def shuffle_orders(keys: U64, counters: U64, size: int) -> npt.NDArray[np.intp]:
    """A uniform order of ``range(size)`` per stream, shape ``(len(keys), size)``
    (``size`` words each): the positions by the top 58 bits of their words,
    ties by position.

    >>> import numpy as np
    >>> o = shuffle_orders(game_keys(3, 0, 4), np.zeros(4, dtype=np.uint64), 52)
    >>> o.shape, bool((np.sort(o, axis=1) == np.arange(52)).all())
    ((4, 52), True)
    """
    # Each word's low 6 bits are replaced by its position, so all keys differ
    # and a plain (fast) sort of the keys gives the order, ties by position.
    keys_ = words(keys, counters, size)
    if size > 64:
        return np.argsort(keys_ & _HIGH, axis=1, kind="stable")
    keys_ &= _HIGH
    keys_ |= np.arange(size, dtype=np.uint64)[None, :]
    keys_.sort(axis=1)
    order: npt.NDArray[np.intp] = (keys_ & _LOW).astype(np.intp)
    return order


def below(keys: U64, counters: U64, n: int | npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """A number in ``range(n)`` per stream (one word each); ``n`` is one
    bound for all or one per stream.

    >>> import numpy as np
    >>> v = below(game_keys(5, 0, 1000), np.zeros(1000, dtype=np.uint64), 4)
    >>> sorted(set(v.tolist()))
    [0, 1, 2, 3]
    """
    word = words(keys, counters, 1)[:, 0]
    high = (word >> _S32).astype(np.uint64)
    low = (word & np.uint64(0xFFFFFFFF)).astype(np.uint64)
    bound = np.asarray(n, dtype=np.uint64)
    # (word * n) >> 64 without 128-bit integers: split the word in halves.
    with np.errstate(over="ignore"):
        result = (high * bound + ((low * bound) >> _S32)) >> _S32
    return result.astype(np.int64)
