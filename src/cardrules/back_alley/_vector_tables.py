"""Lookup arrays of Back Alley's trick rules for the batch engine.

Built once from :mod:`cardrules.back_alley.trick`'s trump tables, so the
batch engine asks the same card order as the reducer: card ``i`` is bit
``i`` of a 64-bit card set (the 52 cards, then BB 52 and LB 53).  The
trump index ``t`` is the trump suit's value 0 to 3, or 4 for a deal with
no trump (a joker turned, BA-13).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cardrules.back_alley.trick import NO_TRUMP_TABLE, SUIT_TABLES, TRUMP_CLASS

__all__: list[str] = []

_TABLES = (*SUIT_TABLES, NO_TRUMP_TABLE)
#: ``CLASSES[t, card]``: the class card follows as under trump ``t`` (BA-31).
CLASSES: npt.NDArray[np.int64] = np.array([t.classes for t in _TABLES], dtype=np.int64)
#: ``POWERS[t, card]``: its rank within its class (BA-3, BA-34).
POWERS: npt.NDArray[np.int64] = np.array([t.powers for t in _TABLES], dtype=np.int64)
#: ``CLASS_SETS[t, c]``: the card set of class ``c`` under trump ``t``.
CLASS_SETS: npt.NDArray[np.uint64] = np.zeros((5, 5), dtype=np.uint64)
for _t in range(5):
    for _card in range(54):
        CLASS_SETS[_t, CLASSES[_t, _card]] |= np.uint64(1) << np.uint64(_card)
#: ``TRUMP_SETS[t]``: every trump under trump ``t`` (the jokers included).
TRUMP_SETS: npt.NDArray[np.uint64] = CLASS_SETS[:, TRUMP_CLASS].copy()
#: ``TRUMPS_BY_POWER[t]``: the trumps of trump ``t`` from the highest down,
#: padded with 54 (no card).
TRUMPS_BY_POWER: npt.NDArray[np.int64] = np.full((5, 15), 54, dtype=np.int64)
for _t in range(5):
    _trumps = sorted((c for c in range(54) if CLASSES[_t, c] == TRUMP_CLASS),
                     key=lambda c: -POWERS[_t, c])
    TRUMPS_BY_POWER[_t, :len(_trumps)] = _trumps
#: ``BITS[card]``: the card set of one card (``BITS[54]`` is empty).
BITS: npt.NDArray[np.uint64] = np.array([1 << c for c in range(54)] + [0], dtype=np.uint64)
#: ``CLASSES`` flat with a 55th card (54: none, of class 5): ``[55 * t + card]``.
CLASSES_FLAT: npt.NDArray[np.int64] = np.concatenate(
    [CLASSES, np.full((5, 1), 5, dtype=np.int64)], axis=1).reshape(-1)
#: ``CLASS_SETS`` flat with a sixth, empty class: ``[6 * t + class]``.
CLASS_SETS_FLAT: npt.NDArray[np.uint64] = np.concatenate(
    [CLASS_SETS, np.zeros((5, 1), dtype=np.uint64)], axis=1).reshape(-1)
#: ``BID_BITS[size]``: the legal bid ids 0 to 13 as bits with ``size`` cards (BA-21).
BID_BITS: npt.NDArray[np.uint64] = np.array(
    [0] + [(1 | (1 << 13) | ((1 << size) - 2)) for size in range(1, 14)], dtype=np.uint64)
#: ``POWERS`` flat with a 55th card (54: none, power -1): ``[55 * t + card]``.
POWERS_FLAT: npt.NDArray[np.int64] = np.concatenate(
    [POWERS, np.full((5, 1), -1, dtype=np.int64)], axis=1).reshape(-1)
#: ``LED_SETS_FLAT[55 * t + card]``: the card set of the class of ``card``
#: under trump ``t`` (what follows it, BA-31); empty for card 54 (none).
LED_SETS_FLAT: npt.NDArray[np.uint64] = CLASS_SETS_FLAT[
    6 * np.repeat(np.arange(5), 55) + CLASSES_FLAT]
#: ``WIN_FLAT[330 * t + 55 * led + card]``: the power of ``card`` in a trick
#: whose led class is ``led`` under trump ``t`` if it can win it (a trump or of
#: the led class, BA-34), else -1.
WIN_FLAT: npt.NDArray[np.int64] = np.where(
    (CLASSES_FLAT.reshape(5, 1, 55) == np.arange(6).reshape(1, 6, 1))
    | (CLASSES_FLAT.reshape(5, 1, 55) == TRUMP_CLASS),
    POWERS_FLAT.reshape(5, 1, 55), -1).reshape(-1)
