"""Chooses the evaluators the package exports: the optional C speed-ups
(``_speedups``, built from ``_speedups_*.c`` when a compiler is available at
install time) or the pure-Python ones in :mod:`cardrules.down_and_back.combos`;
likewise for :func:`split_actions`, the reducer's 35 legal splits, and for
:data:`batch_strengths`, the kernel behind the batch evaluators.

Both give the same results and raise the same errors; the C functions handle
the common case (a tuple, a :class:`~cardrules.Hand` or a list of
:class:`~cardrules.Card`) and pass anything else to the Python functions.
The environment variable ``CARDRULES_PURE_PYTHON`` turns them off (see
:mod:`cardrules._native`).

>>> ACCELERATED in (True, False)
True
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Protocol

from cardrules._native import load as load_extension
from cardrules.cards import Card
from cardrules.down_and_back import combos as _python
from cardrules.down_and_back.actions import Split
from cardrules.down_and_back.combos import SPLIT_GETTERS, Combo, SplitOption
from cardrules.down_and_back.tables import load, pair_offsets
from cardrules.hand import Hand

__all__ = [
    "ACCELERATED",
    "BatchKernel",
    "batch_strengths",
    "best_splits",
    "evaluate3",
    "evaluate4",
    "hand_of_sorted",
    "python_split_actions",
    "split_actions",
    "split_strengths",
    "strength3",
    "strength4",
]


def _c_tables() -> tuple[array[int], array[int], array[int], array[int], array[int]]:
    four, three = load()
    ids, rows4, rows3 = pair_offsets()
    ids_c, rows4_c, rows3_c = (array("i", values) for values in (ids, rows4, rows3))
    assert ids_c.itemsize == 4  # the C code reads them as 32-bit ints
    return four, three, ids_c, rows4_c, rows3_c


def python_split_actions(hand: Hand[Card]) -> tuple[Split, ...]:
    """The 35 :class:`~cardrules.down_and_back.Split` actions of a 7-card hand,
    in :func:`~cardrules.down_and_back.splits` order: the pure-Python code.

    The hand's cards are in canonical order, so each side taken out of it is
    too, and is made a :class:`~cardrules.Hand` without sorting again.

    >>> from cardrules import Hand
    >>> str(python_split_actions(Hand.parse("AS 2S 3S 4S 5S 6S 7S"))[-1])
    'split 4S 5S 6S 7S / AS 2S 3S'
    """
    of_sorted = Hand.of_sorted
    return tuple([Split.of_sorted(of_sorted(down(hand)), of_sorted(back(hand)))
                  for down, back in SPLIT_GETTERS])


evaluate4: Callable[[Sequence[Card]], Combo] = _python.evaluate4
evaluate3: Callable[[Sequence[Card]], Combo] = _python.evaluate3
strength4: Callable[[Sequence[Card]], int] = _python.strength4
strength3: Callable[[Sequence[Card]], int] = _python.strength3
split_strengths: Callable[[Sequence[Card]], list[tuple[int, int]]] = _python.split_strengths
best_splits: Callable[[Sequence[Card]], tuple[SplitOption, ...]] = _python.best_splits
split_actions: Callable[[Hand[Card]], tuple[Split, ...]] = python_split_actions
hand_of_sorted: Callable[[Sequence[Card]], Hand[Card]] = Hand.of_sorted

class BatchKernel(Protocol):
    """The signature of ``_speedups.batch_strengths``: fills ``out`` with the
    strengths of ``rows`` (hands of ``size`` cards) and returns -1, or the
    number of the first bad row.

    >>> batch_strengths is None or callable(batch_strengths)
    True
    """

    def __call__(self, rows: object, size: int, out: object, simd: bool = ..., /) -> int: ...


#: The C kernel of :mod:`cardrules.down_and_back.batch` (``_speedups_batch.c``),
#: or None: the batch evaluators then use numpy alone, with the same results
#: and errors.
batch_strengths: BatchKernel | None = None

#: True when the C speed-ups are in use.
ACCELERATED = False

_speedups = load_extension("cardrules.down_and_back._speedups")
if _speedups is not None:
    _speedups.setup(Card, Combo, SplitOption, Hand, Split, _c_tables, (
        _python.evaluate4, _python.evaluate3, _python.strength4, _python.strength3,
        _python.split_strengths, _python.best_splits, python_split_actions,
        Hand.of_sorted))
    evaluate4 = _speedups.evaluate4
    evaluate3 = _speedups.evaluate3
    strength4 = _speedups.strength4
    strength3 = _speedups.strength3
    split_strengths = _speedups.split_strengths
    best_splits = _speedups.best_splits
    split_actions = _speedups.split_actions
    hand_of_sorted = _speedups.hand_of_sorted
    batch_strengths = _speedups.batch_strengths
    ACCELERATED = True
