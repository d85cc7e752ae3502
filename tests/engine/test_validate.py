"""cardrules._validate: the one whole-number and seat check behind every public input."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardrules._validate import check_seat, is_int, is_seat, require_int


class Count(int):
    """An int subclass that is not a bool: a whole number like any other."""


@pytest.mark.parametrize("value", [0, -3, 10**30, Count(2)])
def test_is_int_accepts_plain_ints_and_subclasses(value: int) -> None:
    assert is_int(value)


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None, 2j])
def test_is_int_refuses_bools_floats_and_text(value: Any) -> None:
    assert not is_int(value)


@pytest.mark.parametrize(("value", "minimum", "maximum"), [
    (1, 1, 13), (13, 1, 13), (7, None, 7), (7, 7, None), (-5, None, None)])
def test_require_int_accepts_the_bounds_themselves(value: int, minimum: int | None,
                                                   maximum: int | None) -> None:
    assert require_int("x", value, minimum=minimum, maximum=maximum) == value


@pytest.mark.parametrize(("value", "minimum", "maximum", "message"), [
    (0, 1, 13, "x must be a whole number from 1 to 13, not 0"),
    (14, 1, 13, "x must be a whole number from 1 to 13, not 14"),
    (0, 1, None, "x must be a whole number of at least 1, not 0"),
    (8, None, 7, "x must be a whole number of at most 7, not 8"),
    (True, None, None, "x must be a whole number, not True"),
    (False, 0, 3, "x must be a whole number from 0 to 3, not False"),
    (2.0, None, None, "x must be a whole number, not float 2.0"),
    ("3", 1, None, "x must be a whole number of at least 1, not str '3'"),
])
def test_require_int_says_what_was_wanted_and_what_came(
        value: Any, minimum: int | None, maximum: int | None, message: str) -> None:
    with pytest.raises(ValueError, match=r"\A" + re.escape(message) + r"\Z"):
        require_int("x", value, minimum=minimum, maximum=maximum)


def test_require_int_quotes_a_long_value_short() -> None:
    with pytest.raises(ValueError, match="whole number") as caught:
        require_int("ante", "9" * 100)
    assert str(caught.value) == f"ante must be a whole number, not str '{'9' * 39}..."
    with pytest.raises(ValueError, match="whole number") as caught:
        require_int("ante", "9" * 38)   # 40 characters with its quotes: shown whole
    assert str(caught.value) == f"ante must be a whole number, not str '{'9' * 38}'"


@pytest.mark.parametrize(("seat", "players", "expected"), [
    (0, 4, True), (3, 4, True), (4, 4, False), (-1, 4, False), (True, 4, False),
    (1.0, 4, False), (0, 0, False), (1, 2, True), (2, 2, False)])
def test_is_seat_is_a_whole_number_in_range(seat: Any, players: int, expected: bool) -> None:
    assert is_seat(seat, players) is expected


def test_check_seat_returns_the_seat_or_says_the_range() -> None:
    assert check_seat(0, 2) == 0
    assert check_seat(4, 5) == 4
    with pytest.raises(ValueError, match=r"\Athere is no seat 5 at a 5-player table "
                                         r"\(seats are whole numbers 0 to 4\)\Z"):
        check_seat(5, 5)
    with pytest.raises(ValueError, match="no seat -1 at a 2-player"):
        check_seat(-1, 2)
    with pytest.raises(ValueError, match="no seat False at"):
        check_seat(False, 2)


def test_check_seat_quotes_a_long_value_short() -> None:
    with pytest.raises(ValueError, match="no seat") as caught:
        check_seat("x" * 1000, 4)
    message = str(caught.value)
    assert message.startswith("there is no seat '" + "x" * 39 + "... at a 4-player table")
    assert len(message) < 120
