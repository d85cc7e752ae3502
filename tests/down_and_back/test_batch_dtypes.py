"""The batch evaluators take card indices in every integer dtype, and nothing else.

Card indices are small whole numbers, so a ``uint64``, big-endian or
``uint8`` array is as valid an input as the default ``int64`` one and must
give the same strengths.  Floats, bools, objects and text are refused with a
ValueError naming the dtype; bad rows are named by their number, also past
the first internal chunk.
"""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("numpy")

import numpy as np
import numpy.typing as npt

from cardrules import DECK
from cardrules.down_and_back import (
    best_splits,
    split_strengths,
    splits,
    strength3,
    strength4,
)
from cardrules.down_and_back.batch import (
    best_splits_batch,
    evaluate3_batch,
    evaluate4_batch,
    split_strengths_batch,
)

INTEGER_DTYPES = ["u1", "u2", "u4", "u8", ">u8", "<u8", "uintp", ">u2", ">u4",
                  "i1", "i2", "i4", "i8", ">i8", ">i4", ">i2", "intp"]
OTHER_DTYPES = ["f8", "f4", "f2", "?", "O", "c16", "U2", "S2", "m8[s]", "M8[s]"]


def random_rows(count: int, width: int, seed: int) -> npt.NDArray[np.int64]:
    rng = random.Random(seed)
    return np.array([[c.index for c in rng.sample(DECK, width)] for _ in range(count)])


ROWS4 = random_rows(300, 4, 1)
ROWS3 = random_rows(300, 3, 2)
ROWS7 = random_rows(40, 7, 3)
EXPECTED4 = [strength4(tuple(DECK[i] for i in row)) for row in ROWS4]
EXPECTED3 = [strength3(tuple(DECK[i] for i in row)) for row in ROWS3]


def expected_splits(rows: npt.NDArray[np.int64]) -> list[list[tuple[int, int]]]:
    return [split_strengths(tuple(DECK[i] for i in row)) for row in rows]


def expected_best(rows: npt.NDArray[np.int64]) -> list[list[bool]]:
    masks = []
    for row in rows:
        hand = tuple(DECK[i] for i in row)
        best = {(o.down.strength, o.back.strength, str(o.down), str(o.back))
                for o in best_splits(hand)}
        masks.append([(o.down.strength, o.back.strength, str(o.down), str(o.back)) in best
                      for o in splits(hand)])
    return masks


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_every_integer_dtype_gives_the_same_strengths(dtype: str) -> None:
    rows4, rows3 = ROWS4.astype(dtype), ROWS3.astype(dtype)
    result4, result3 = evaluate4_batch(rows4), evaluate3_batch(rows3)
    assert result4.dtype == np.int32
    assert result3.dtype == np.int32
    assert result4.tolist() == EXPECTED4
    assert result3.tolist() == EXPECTED3


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_every_integer_dtype_works_for_the_split_batches(dtype: str) -> None:
    rows7 = ROWS7.astype(dtype)
    scores = split_strengths_batch(rows7)
    assert [[tuple(pair) for pair in hand] for hand in scores.tolist()] == expected_splits(ROWS7)
    assert best_splits_batch(rows7).tolist() == expected_best(ROWS7)


@pytest.mark.parametrize("layout", ["reversed", "fortran", "every other row", "read-only"])
def test_any_memory_layout_is_read(layout: str) -> None:
    rows = ROWS4.astype(np.uint64)
    expected = EXPECTED4
    if layout == "reversed":
        rows = rows[:, ::-1]       # the same cards in another order: the same strength
    elif layout == "fortran":
        rows = np.asfortranarray(rows)
    elif layout == "every other row":
        rows, expected = rows[::2], EXPECTED4[::2]
    else:
        rows.setflags(write=False)
    before = rows.copy()
    assert evaluate4_batch(rows).tolist() == expected
    assert np.array_equal(rows, before)


def test_lists_are_read() -> None:
    assert evaluate4_batch(ROWS4.tolist()).tolist() == EXPECTED4


@pytest.mark.parametrize("dtype", OTHER_DTYPES)
def test_other_dtypes_are_refused_naming_the_dtype(dtype: str) -> None:
    rows = np.zeros((2, 4), dtype=dtype)
    name = str(rows.dtype)
    for function, width in ((evaluate4_batch, 4), (evaluate3_batch, 3),
                            (split_strengths_batch, 7), (best_splits_batch, 7)):
        with pytest.raises(ValueError, match=f"got dtype {re.escape(name)}$"):
            function(np.zeros((2, width), dtype=dtype))


@pytest.mark.parametrize(("dtype", "value"), [
    ("u1", 52), ("u1", 255), ("u2", 65535), ("u8", 2**64 - 1), (">u8", 2**63),
    ("i1", -1), ("i1", 127), ("i8", -(2**63)), ("i8", 52), (">i4", -1), ("uintp", 1000),
])
def test_out_of_range_indices_are_refused_in_every_dtype(dtype: str, value: int) -> None:
    rows = ROWS4.astype(dtype)
    rows[7, 2] = value
    with pytest.raises(ValueError, match=r"card indices must lie in range\(52\): row 7 holds"):
        evaluate4_batch(rows)
    rows7 = ROWS7.astype(dtype)
    rows7[3, 6] = value
    with pytest.raises(ValueError, match=r"range\(52\): row 3 holds"):
        split_strengths_batch(rows7)


def test_bad_rows_are_named_past_the_first_chunk() -> None:
    rows = random_rows(1000, 4, 9)
    rows = np.concatenate([rows] * 40)    # 40,000 rows: more than one chunk
    bad = rows.astype(np.uint64)
    bad[39_001] = [5, 6, 5, 7]
    with pytest.raises(ValueError, match=r"^row 39001 holds the same card twice$"):
        evaluate4_batch(bad)
    bad3 = np.ascontiguousarray(bad[:, :3])
    with pytest.raises(ValueError, match=r"^row 39001 holds the same card twice$"):
        evaluate3_batch(bad3)
    far = rows.astype(np.int16)
    far[33_333, 0] = -4
    with pytest.raises(ValueError, match=r"range\(52\): row 33333 holds \[-4, "):
        evaluate4_batch(far)
    sevens = np.concatenate([ROWS7] * 50).astype(np.uint8)   # 2,000 rows
    sevens[1_999, 4] = sevens[1_999, 0]
    with pytest.raises(ValueError, match=r"^row 1999 holds the same card twice$"):
        split_strengths_batch(sevens)


@pytest.mark.parametrize("dtype", ["u1", "i8", ">u8"])
def test_empty_batches_give_empty_results(dtype: str) -> None:
    assert evaluate4_batch(np.zeros((0, 4), dtype=dtype)).shape == (0,)
    assert evaluate3_batch(np.zeros((0, 3), dtype=dtype)).dtype == np.int32
    assert split_strengths_batch(np.zeros((0, 7), dtype=dtype)).shape == (0, 35, 2)
