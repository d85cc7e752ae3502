"""The C kernel of the batch evaluators agrees with their numpy code on everything.

With the C speed-ups built, :func:`evaluate4_batch` and :func:`evaluate3_batch`
run ``_speedups.batch_strengths`` (one table entry per hand, indexed by the
colex number of the sorted cards); without them (or with
``CARDRULES_PURE_PYTHON=1``) they run the numpy code over the pair tables.
Both must give the same strengths for every hand, in every integer dtype and
memory layout, and raise the same errors, word for word, for the same bad
input.  Contiguous 4-card rows in native byte order go through an AVX2
loop where the processor has one (``_speedups.BATCH_SIMD``); the kernel's
``simd`` argument turns it off, so that both of its loops are checked.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from itertools import chain, combinations, permutations
from typing import Any

import pytest

pytest.importorskip("numpy")

import numpy as np
import numpy.typing as npt

from cardrules.down_and_back import _accel, batch
from cardrules.down_and_back.batch import evaluate3_batch, evaluate4_batch

KERNEL = _accel.batch_strengths
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the C speed-ups are not in use")
DTYPES = ["i1", "u1", "i2", "u2", ">i2", "i4", "u4", ">u4", "i8", "u8", ">i8", ">u8",
          "intp", "uintp"]
CHUNK = batch._CHUNK  # the numpy code's rows per chunk


def all_hands(size: int) -> npt.NDArray[np.int8]:
    """Every hand of ``size`` distinct cards, sorted, in colex order's cousin
    (itertools order): 270,725 rows for 4, 22,100 for 3."""
    flat = chain.from_iterable(combinations(range(52), size))
    return np.fromiter(flat, dtype=np.int8).reshape(-1, size)


def random_rows(count: int, size: int, seed: int) -> npt.NDArray[np.int64]:
    gen = np.random.default_rng(seed)
    rows: npt.NDArray[np.int64] = np.argsort(gen.random((count, 52)), axis=1)[:, :size]
    return rows


def numpy_path(rows: npt.NDArray[Any], size: int) -> npt.NDArray[np.int32]:
    return batch._numpy_strengths(np.asarray(rows), size)


def kernel_path(rows: npt.NDArray[Any], size: int,
                simd: bool = True) -> tuple[int, npt.NDArray[np.int32]]:
    assert KERNEL is not None
    out = np.full(rows.shape[0], -7, dtype=np.int32)
    return KERNEL(rows, size, out, simd), out


def outcome(function: Callable[[Any], Any], rows: Any) -> tuple[str, Any]:
    """What a call gives: its result as a list, or its error's type and message."""
    try:
        return "ok", function(rows).tolist()
    except (ValueError, TypeError) as err:
        return type(err).__name__, str(err)


def both_paths(rows: Any, size: int) -> Iterator[tuple[str, Any]]:
    """The outcome of the public function with the kernel, then without it."""
    function = evaluate4_batch if size == 4 else evaluate3_batch
    yield outcome(function, rows)
    saved, _accel.batch_strengths = _accel.batch_strengths, None
    try:
        yield outcome(function, rows)
    finally:
        _accel.batch_strengths = saved


def test_the_batch_module_uses_the_kernel_when_the_speedups_are_in_use() -> None:
    assert (_accel.batch_strengths is not None) == _accel.ACCELERATED


@needs_kernel
@pytest.mark.parametrize("simd", [True, False])
@pytest.mark.parametrize("size", [4, 3])
def test_every_hand_gets_the_numpy_strength(size: int, simd: bool) -> None:
    hands = all_hands(size)
    assert len(hands) == (270_725 if size == 4 else 22_100)
    expected = numpy_path(hands, size)
    bad, got = kernel_path(hands, size, simd)
    assert bad == -1
    assert np.array_equal(got, expected)
    # the same hands, each in a random order of its cards, in int64 and int32
    gen = np.random.default_rng(size)
    shuffled = np.take_along_axis(hands, np.argsort(gen.random(hands.shape), axis=1), axis=1)
    for dtype in (np.int64, np.int32):
        bad, got = kernel_path(shuffled.astype(dtype), size, simd)
        assert bad == -1
        assert np.array_equal(got, expected)


@needs_kernel
def test_the_vector_loop_is_named() -> None:
    from cardrules.down_and_back import _speedups

    assert _speedups.BATCH_SIMD in ("avx2", None)


@needs_kernel
@pytest.mark.parametrize("simd", [True, False])
@pytest.mark.parametrize("size", [4, 3])
def test_every_order_of_the_cards_gives_the_same_strength(size: int, simd: bool) -> None:
    hands = random_rows(2_000, size, 11)
    orders = list(permutations(range(size)))
    every = np.concatenate([hands[:, list(order)] for order in orders])
    bad, got = kernel_path(every, size, simd)
    assert bad == -1
    assert np.array_equal(got, np.tile(numpy_path(hands, size), len(orders)))


@needs_kernel
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("size", [4, 3])
def test_random_rows_agree_in_every_integer_dtype(dtype: str, size: int) -> None:
    rows = random_rows(40_003, size, 5).astype(dtype)
    expected = numpy_path(rows, size)
    for simd in (True, False):
        bad, got = kernel_path(rows, size, simd)
        assert bad == -1
        assert np.array_equal(got, expected)
    assert np.array_equal(expected, numpy_path(rows.astype(np.int64), size))


LAYOUTS: dict[str, Callable[[npt.NDArray[Any]], npt.NDArray[Any]]] = {
    "fortran": np.asfortranarray,
    "reversed columns": lambda rows: rows[:, ::-1],
    "reversed rows": lambda rows: rows[::-1],
    "every other row": lambda rows: rows[::2],
    "columns of a wider array": lambda rows: np.concatenate(
        [rows[:, :1], rows, rows[:, :1]], axis=1)[:, 1:-1],
    "one row repeated": lambda rows: np.broadcast_to(rows[:1], rows.shape),
    "unaligned": lambda rows: np.frombuffer(
        b"\0" + rows.astype(np.int64).tobytes(), dtype=np.int64, offset=1).reshape(rows.shape),
}


@needs_kernel
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("size", [4, 3])
def test_every_memory_layout_agrees(layout: str, size: int) -> None:
    rows = LAYOUTS[layout](random_rows(30_000, size, 8))
    assert rows.shape[1] == size
    for dtype in ("u1", ">i4", "i8"):
        typed = rows.astype(dtype) if layout != "unaligned" else rows
        bad, got = kernel_path(typed, size)
        assert bad == -1
        assert np.array_equal(got, numpy_path(typed, size))


def bad_cases(size: int) -> Iterator[tuple[str, npt.NDArray[np.int64]]]:
    """Rows of mostly valid hands with bad rows planted where the two paths
    could differ: first row, last row, past the first chunk, a repeated card
    followed by an index out of range in the same chunk, and the reverse."""
    base = random_rows(3 * CHUNK + 5, size, 21)

    def planted(*changes: tuple[int, int, int]) -> npt.NDArray[np.int64]:
        rows = base.copy()
        for row, column, value in changes:
            rows[row, column] = value
        return rows

    last = len(base) - 1
    yield "repeat in row 0", planted((0, 1, int(base[0, 0])))
    yield "out of range in the last row", planted((last, size - 1, 52))
    yield "negative past a chunk", planted((CHUNK + 3, 0, -1))
    yield "huge in chunk 3", planted((2 * CHUNK + 7, 2, 2**62))
    yield "repeat then out of range, one chunk", planted(
        (CHUNK + 10, 2, int(base[CHUNK + 10, 0])), (CHUNK + 500, 1, 99))
    yield "out of range then repeat, one chunk", planted(
        (CHUNK + 10, 1, 60), (CHUNK + 20, 0, int(base[CHUNK + 20, 1])))
    yield "repeat, then out of range in a later chunk", planted(
        (CHUNK - 1, 1, int(base[CHUNK - 1, 0])), (CHUNK, 0, 77))
    yield "all four the same" if size == 4 else "all three the same", planted(
        *((9, column, 13) for column in range(size)))
    # around the AVX2 loop's groups of eight rows, and in the rows after the last group
    for row in (7, 8, 15, 16, 8 * (len(base) // 8) - 1, 8 * (len(base) // 8), last):
        yield f"repeat in row {row}", planted((row, size - 1, int(base[row, 0])))
        yield f"index 52 in row {row}", planted((row, 0, 52))
        yield f"index -1 in row {row}", planted((row, 1, -1))
    yield "index 64 (past the bits of a small check)", planted((30, 2, 64))
    yield "index 2**32 (a clean 32-bit half)", planted((31, 1, 2**32))
    yield "index 2**32 + 5", planted((40, 0, 2**32 + 5))


@pytest.mark.parametrize("dtype", ["i8", "u1", ">u8", "i2"])
@pytest.mark.parametrize("size", [4, 3])
def test_bad_rows_raise_the_same_error_either_way(size: int, dtype: str) -> None:
    for name, rows in bad_cases(size):
        if dtype in ("u1", ">u8") and (rows < 0).any():
            continue  # no negative value in an unsigned dtype
        typed = rows.astype(dtype) if dtype != "u1" else np.clip(rows, 0, 255).astype(dtype)
        with_kernel, numpy_only = both_paths(typed, size)
        if dtype == "i8":  # narrower dtypes wrap some planted values into valid ones
            assert with_kernel[0] == "ValueError", name
        assert with_kernel == numpy_only, name


@needs_kernel
@pytest.mark.parametrize("dtype", ["i8", "u8", "i4", "u2", "i1"])
@pytest.mark.parametrize("simd", [True, False])
@pytest.mark.parametrize("size", [4, 3])
def test_the_kernel_names_the_first_bad_row(size: int, simd: bool, dtype: str) -> None:
    for name, planted in bad_cases(size):
        rows = planted.astype(dtype)   # wraps -1 and 2**32 in the narrower dtypes
        ordered = np.sort(rows, axis=1)
        valid = ((rows >= 0) & (rows < 52)).all(axis=1)
        valid &= (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
        first = int(np.argmin(valid)) if not valid.all() else -1
        bad, out = kernel_path(rows, size, simd)
        assert bad == first, name
        done = first if first >= 0 else len(rows)
        assert np.array_equal(out[:done], numpy_path(rows[:done], size)), name


@pytest.mark.parametrize("rows", [
    np.zeros((3, 5), dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros((2, 4), dtype="f8"),
    np.zeros((2, 4), dtype="?"), [[0, 1]], "AS KS QS JS",
])
def test_bad_shapes_and_dtypes_raise_the_same_error_either_way(rows: Any) -> None:
    for size in (4, 3):
        with_kernel, numpy_only = both_paths(rows, size)
        assert with_kernel[0] == "ValueError"
        assert with_kernel == numpy_only


@pytest.mark.parametrize("dtype", ["i8", "u1", ">u2"])
def test_empty_batches_give_empty_results_either_way(dtype: str) -> None:
    for size in (4, 3):
        with_kernel, numpy_only = both_paths(np.zeros((0, size), dtype=dtype), size)
        assert with_kernel == numpy_only == ("ok", [])


@needs_kernel
def test_the_kernel_refuses_what_it_cannot_read() -> None:
    assert KERNEL is not None
    out = np.empty(2, dtype=np.int32)
    refusals: list[tuple[Any, int, Any, str]] = [
        (np.zeros((2, 4), dtype=np.int64), 5, out, "hands of 3 or 4 cards"),
        (np.zeros((2, 3), dtype=np.int64), 4, out, r"shape \(N, size\)"),
        (np.zeros(8, dtype=np.int64), 4, out, r"shape \(N, size\)"),
        (np.zeros((2, 4), dtype=np.float64), 4, out, "hold integers"),
        (np.zeros((2, 4), dtype=np.int64), 4, np.empty(3, dtype=np.int32), "one 4-byte int"),
        (np.zeros((2, 4), dtype=np.int64), 4, np.empty(2, dtype=np.int64), "one 4-byte int"),
    ]
    for rows, size, target, message in refusals:
        with pytest.raises(ValueError, match=message):
            KERNEL(rows, size, target)
    with pytest.raises(BufferError):
        KERNEL(np.zeros((2, 4), dtype=np.int64), 4, bytes(8))   # read-only
    with pytest.raises(TypeError):
        KERNEL(object(), 4, out)
    with pytest.raises(TypeError, match="three or four arguments"):
        KERNEL(np.zeros((2, 4), dtype=np.int64), 4)  # type: ignore[call-arg]


@needs_kernel
def test_threads_share_the_kernel() -> None:
    """The kernel releases the GIL while it reads rows; threads calling it at
    once each get their own correct strengths."""
    batches = [random_rows(50_000, 4, seed).astype(dtype)
               for seed, dtype in enumerate(["i8", "u1", ">i4", "u8"])]
    expected = [numpy_path(rows, 4) for rows in batches]
    results: dict[int, Any] = {}

    def work(number: int) -> None:
        for _ in range(5):
            results[number] = evaluate4_batch(batches[number])

    threads = [threading.Thread(target=work, args=(n,)) for n in range(len(batches))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for number, want in enumerate(expected):
        assert np.array_equal(results[number], want)


def test_the_numpy_code_alone_still_words_its_own_errors() -> None:
    """Without the kernel the public functions fall back to numpy with the
    messages the rest of the suite checks."""
    saved, _accel.batch_strengths = _accel.batch_strengths, None
    try:
        with pytest.raises(ValueError, match=re.escape("row 1 holds the same card twice")):
            evaluate4_batch(np.array([[0, 1, 2, 3], [5, 5, 6, 7]]))
        assert evaluate3_batch(np.array([[0, 1, 2]])).tolist() == [
            int(evaluate3_batch(np.array([[2, 0, 1]]))[0])]
    finally:
        _accel.batch_strengths = saved


def test_a_kernel_refusing_a_row_the_numpy_code_accepts_is_an_internal_error() -> None:
    # The C kernel and the numpy code must agree on which rows are bad: a row the
    # kernel alone refuses is a bug, said as one rather than a wrong answer.
    rows = np.array([[0, 1, 2, 3], [4, 5, 6, 7]], dtype=np.int64)

    def refuses_row_1(arr: Any, size: int, out: Any) -> int:
        return 1

    with pytest.raises(AssertionError, match="the C kernel refused row 1, which the numpy "
                                             "code accepts"):
        batch._c_strengths(rows, 4, refuses_row_1)  # type: ignore[arg-type]
