"""Small checks shared by every module that takes numbers from callers.

Python's ``bool`` is an ``int`` and ``1.0 == 1``, so "is this a whole
number?" needs saying once, exactly: a plain ``int`` that is not a ``bool``.
Seats, counts, antes and bids all go through :func:`is_int`.

>>> is_int(3), is_int(True), is_int(3.0)
(True, False, False)
>>> check_seat(2, 4)
2
"""

from __future__ import annotations

from typing import TypeGuard

__all__ = ["check_seat", "is_int", "is_seat", "require_int"]


def is_int(value: object) -> TypeGuard[int]:
    """True for a plain ``int`` (or subclass) that is not a ``bool``.

    >>> is_int(0), is_int(False), is_int("1")
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(name: str, value: object, *, minimum: int | None = None,
                maximum: int | None = None) -> int:
    """``value`` if it is a whole number within the bounds, else :class:`ValueError`.

    >>> require_int("ante", 2, minimum=1)
    2
    >>> require_int("ante", 0, minimum=1)
    Traceback (most recent call last):
    ...
    ValueError: ante must be a whole number of at least 1, not 0
    """
    if not is_int(value) or (minimum is not None and value < minimum) \
            or (maximum is not None and value > maximum):
        if minimum is not None and maximum is not None:
            bounds = f" from {minimum} to {maximum}"
        elif minimum is not None:
            bounds = f" of at least {minimum}"
        elif maximum is not None:
            bounds = f" of at most {maximum}"
        else:
            bounds = ""
        shown = repr(value) if is_int(value) or isinstance(value, bool) \
            else f"{type(value).__name__} {_short(repr(value))}"
        raise ValueError(f"{name} must be a whole number{bounds}, not {shown}")
    return value


def is_seat(seat: object, num_players: int) -> TypeGuard[int]:
    """True when ``seat`` is a whole number in ``range(num_players)``.

    >>> is_seat(3, 4), is_seat(4, 4), is_seat(True, 4)
    (True, False, False)
    """
    return is_int(seat) and 0 <= seat < num_players


def check_seat(seat: object, num_players: int) -> int:
    """``seat`` if it is a seat at a ``num_players`` table, else :class:`ValueError`.

    >>> check_seat(1.0, 4)
    Traceback (most recent call last):
    ...
    ValueError: there is no seat 1.0 at a 4-player table (seats are whole numbers 0 to 3)
    """
    if not is_seat(seat, num_players):
        raise ValueError(f"there is no seat {_short(repr(seat))} at a {num_players}-player "
                         f"table (seats are whole numbers 0 to {num_players - 1})")
    return seat


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
