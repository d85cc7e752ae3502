"""Every exception cardrules raises on purpose lives here.

All of them derive from :class:`CardRulesError`, so ``except CardRulesError``
catches anything the library reports about bad input or an illegal move.  The
ones about bad input are also :class:`ValueError`, so code that already
handles ``ValueError`` keeps working.

>>> issubclass(ParseError, ValueError) and issubclass(ParseError, CardRulesError)
True
"""

from __future__ import annotations

__all__ = ["CardRulesError", "ConformanceError", "IllegalActionError", "ParseError"]


class CardRulesError(Exception):
    """Base class of every error raised deliberately by cardrules.

    >>> try:
    ...     raise IllegalActionError("DB-34", "draw before you discard")
    ... except CardRulesError as err:
    ...     print(err)
    DB-34: draw before you discard
    """


class ParseError(CardRulesError, ValueError):
    """Text that could not be read as cards, actions or a record.

    ``token`` is the offending piece of text and ``position`` its 0-based
    character offset in the input (``None`` when the input had no position,
    for example a JSON value).

    >>> err = ParseError("not a card", token="1X", position=3)
    >>> str(err)
    "not a card: '1X' at position 3"
    >>> err.token, err.position
    ('1X', 3)
    """

    def __init__(self, message: str, *, token: str | None = None,
                 position: int | None = None) -> None:
        self.message = message
        self.token = token
        self.position = position
        text = message
        if token is not None:
            text += f": {token!r}"
        if position is not None:
            text += f" at position {position}"
        super().__init__(text)


class IllegalActionError(CardRulesError, ValueError):
    """An action the rules do not allow in the given state.

    ``rule`` is the id of the rule broken (``"DB-34"``, ``"BA-31"``, ...), as
    listed in the rules page of the documentation; the state the action was
    applied to is left untouched.

    >>> err = IllegalActionError("DB-34", "you must draw before you discard")
    >>> err.rule
    'DB-34'
    >>> str(err)
    'DB-34: you must draw before you discard'
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")


class ConformanceError(CardRulesError, AssertionError):
    """A game implementation broke a check of :func:`cardrules.engine.check_game`.

    >>> issubclass(ConformanceError, AssertionError)
    True
    """
