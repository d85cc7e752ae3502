"""The evaluation tables: one precomputed strength for every 4- and 3-card hand.

A *strength* is an int ``(category << 12) | rank_in_category``: comparing two
strengths compares the hands, equal strengths are ties, and
``strength >> 12`` is the category's value.  ``rank_in_category`` is the dense
position of the hand's comparison key among all keys of its category.

The strengths are generated from the declarative definitions in
:mod:`cardrules.down_and_back.categories` by :func:`generate`, which lists
every hand in *colex* order (sorted card indices ``a < b < c < d`` have number
``C(a,1) + C(b,2) + C(c,3) + C(d,4)``).

For fast look-ups the evaluators use *pair tables*, laid out so that no
sorting is needed: an unordered pair of distinct cards has the id
``C(lo,1) + C(hi,2)`` (``0..1325``), and a pair of one card with itself has
the id ``1326``.  The 4-card table is indexed by
``pair_id(a, b) * 1327 + pair_id(c, d)``, the 3-card table by
``pair_id(a, b) * 52 + c``; entries that repeat a card hold :data:`INVALID`.
They are small (3.5 MB and 140 kB) and so stay in the processor's caches,
which a dictionary of 270,725 entries does not.  Building them takes seconds,
so the package ships them in ``_tables.bin`` (regenerate with
``python -m cardrules.down_and_back.tables``); a test checks that the shipped
file equals the generator's output.  Nothing is loaded until the first
evaluation.

>>> four, three = load()
>>> len(four), len(three)
(1760929, 69004)
>>> a, b, c, d = (0, 1, 2, 3)   # the four aces
>>> four[pair_id(a, b) * 1327 + pair_id(c, d)] >> CATEGORY_SHIFT
7
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Iterator, Sequence
from functools import cache
from importlib import resources
from math import comb

from cardrules.cards import DECK
from cardrules.down_and_back.categories import CATEGORIES3, CATEGORIES4, classify3, classify4

__all__ = [
    "CATEGORY_SHIFT",
    "INVALID",
    "NUM_PAIR_IDS",
    "colex_combinations",
    "colex_index",
    "generate",
    "load",
    "pair_id",
    "pair_offsets",
    "pair_tables",
]

#: ``strength >> CATEGORY_SHIFT`` is the category value.
CATEGORY_SHIFT = 12
#: Table entry of a "hand" that holds one card twice.
INVALID = 0xFFFF
#: Pair ids run ``0..1326``; 1326 is a card paired with itself.
NUM_PAIR_IDS = 1327
_FILE = "_tables.bin"
_MAGIC = b"cardrules-db-tables-v2\n"


def colex_combinations(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every ``k``-subset of ``range(n)``, sorted ascending, in colex order.

    >>> list(colex_combinations(4, 2))
    [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]
    """
    if k == 0:
        yield ()
        return
    for top in range(k - 1, n):
        for rest in colex_combinations(top, k - 1):
            yield (*rest, top)


def colex_index(sorted_indices: Sequence[int]) -> int:
    """The colex number of a strictly increasing tuple of card indices.

    >>> colex_index((0, 2)), colex_index((2, 3))
    (1, 5)
    """
    return sum(comb(x, i + 1) for i, x in enumerate(sorted_indices))


def _strengths(size: int) -> array[int]:
    classify = classify4 if size == 4 else classify3
    definitions = CATEGORIES4 if size == 4 else CATEGORIES3
    hands = [classify([DECK[i] for i in combo]) for combo in colex_combinations(52, size)]
    keys_by_category: dict[int, set[tuple[int, ...]]] = {int(c): set() for c, _ in definitions}
    for category, key in hands:
        keys_by_category[category].add(key)
    dense = {
        (category, key): (category << CATEGORY_SHIFT) | position
        for category, keys in keys_by_category.items()
        for position, key in enumerate(sorted(keys))
    }
    assert all(len(keys) <= 1 << CATEGORY_SHIFT for keys in keys_by_category.values())
    return array("H", (dense[int(category), key] for category, key in hands))


@cache
def generate() -> tuple[array[int], array[int]]:
    """Strengths of every 4-card and every 3-card hand, in colex order.

    Built from the rule definitions; takes a few seconds (the result is
    cached).  Do not modify the arrays it returns.

    >>> four, three = generate()
    >>> len(four), len(three), four[0] >> CATEGORY_SHIFT   # hand 0: the four aces
    (270725, 22100, 7)
    """
    return _strengths(4), _strengths(3)


def pair_id(a: int, b: int) -> int:
    """The id of the unordered pair of card indices ``a`` and ``b``.

    >>> pair_id(0, 1), pair_id(1, 0), pair_id(50, 51), pair_id(7, 7)
    (0, 0, 1325, 1326)
    """
    if a == b:
        return NUM_PAIR_IDS - 1
    lo, hi = min(a, b), max(a, b)
    return lo + hi * (hi - 1) // 2


def pair_tables(strengths4: Sequence[int], strengths3: Sequence[int]
                ) -> tuple[array[int], array[int]]:
    """Lay colex-ordered strengths out as the 4-card and 3-card pair tables.

    >>> pair_tables(*generate()) == load()   # the shipped file is exactly this
    True
    """
    four = array("H", [INVALID]) * (NUM_PAIR_IDS * NUM_PAIR_IDS)
    for hand, strength in zip(colex_combinations(52, 4), strengths4, strict=True):
        a, b, c, d = hand
        for (p, q), (r, t) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            first, second = pair_id(p, q), pair_id(r, t)
            four[first * NUM_PAIR_IDS + second] = strength
            four[second * NUM_PAIR_IDS + first] = strength
    three = array("H", [INVALID]) * (NUM_PAIR_IDS * 52)
    for hand, strength in zip(colex_combinations(52, 3), strengths3, strict=True):
        for i, c in enumerate(hand):
            p, q = (x for j, x in enumerate(hand) if j != i)
            three[pair_id(p, q) * 52 + c] = strength
    return four, three


def _encode(four: array[int], three: array[int]) -> bytes:
    four, three = array("H", four), array("H", three)
    if sys.byteorder != "little":  # pragma: no cover
        four.byteswap()
        three.byteswap()
    return _MAGIC + zlib.compress(four.tobytes() + three.tobytes(), 9)


@cache
def load() -> tuple[array[int], array[int]]:
    """The shipped 4-card and 3-card pair tables (loaded once, on first use)."""
    data = resources.files("cardrules.down_and_back").joinpath(_FILE).read_bytes()
    if not data.startswith(_MAGIC):  # pragma: no cover
        raise RuntimeError(f"{_FILE} is damaged; reinstall cardrules")
    both = array("H")
    both.frombytes(zlib.decompress(data[len(_MAGIC):]))
    if sys.byteorder != "little":  # pragma: no cover
        both.byteswap()
    n4 = NUM_PAIR_IDS * NUM_PAIR_IDS
    return both[:n4], both[n4:]


@cache
def pair_offsets() -> tuple[list[int], list[int], list[int]]:
    """Per ordered pair of card indices ``a * 52 + b``: the pair id, and the id
    times the row lengths of the 4-card (1327) and 3-card (52) tables.

    >>> ids, rows4, rows3 = pair_offsets()
    >>> ids[1 * 52 + 0], rows4[3 * 52 + 2] == pair_id(2, 3) * 1327
    (0, True)
    """
    ids = [pair_id(a, b) for a in range(52) for b in range(52)]
    return ids, [i * NUM_PAIR_IDS for i in ids], [i * 52 for i in ids]


def main() -> None:  # pragma: no cover - maintenance tool
    """Regenerate ``_tables.bin`` next to this module."""
    path = resources.files("cardrules.down_and_back").joinpath(_FILE)
    with resources.as_file(path) as real:
        real.write_bytes(_encode(*pair_tables(*generate())))
        print(f"wrote {real}")


if __name__ == "__main__":  # pragma: no cover
    main()
