"""Every exception cardrules raises on purpose lives here.

All of them derive from :class:`CardRulesError`, so ``except CardRulesError``
catches anything the library reports about bad input or an illegal move.  The
ones about bad input are also :class:`ValueError`, so code that already
handles ``ValueError`` keeps working.

>>> issubclass(ParseError, ValueError) and issubclass(ParseError, CardRulesError)
True
"""

from __future__ import annotations

from cardrules.i18n import LazyText, concat, lazy_gettext, lazy_ngettext

__all__ = [
    "MESSAGE_LIMIT",
    "TOKEN_LIMIT",
    "CardRulesError",
    "ConformanceError",
    "IllegalActionError",
    "ParseError",
    "quote",
    "shorten",
]


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
    >>> err.token, err.position, err.token_length
    ('1X', 3, 2)

    A long token is kept and quoted only as a short prefix (:data:`~cardrules.errors.TOKEN_LIMIT`
    characters and ``...``), with its full length in ``token_length``, so a
    huge bad input never makes a huge error:

    >>> err = ParseError("not a card", token="A" * 5_000_000, position=0)
    >>> str(err)
    "not a card: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...' (5000000 characters) at position 0"
    >>> len(err.token), err.token_length
    (43, 5000000)
    """

    def __init__(self, message: str | LazyText, *, token: str | None = None,
                 position: int | None = None, token_length: int | None = None) -> None:
        #: The message as given: a plain string or a :class:`~cardrules.i18n.LazyText`,
        #: which ``str(err)`` renders in the language of that moment.
        self.text: str | LazyText = message if isinstance(message, LazyText) else str(message)
        #: The message in English, cut to :data:`~cardrules.errors.MESSAGE_LIMIT` characters.
        self.message = shorten(_english(self.text), MESSAGE_LIMIT)
        if token is not None and not isinstance(token, str):  # a caller's slip: still quote it
            token = repr(token)
        self.token = None if token is None else shorten(token)
        #: The length of the whole token (``token`` may hold only its start).
        self.token_length = None if token is None else (
            len(token) if token_length is None else token_length)
        self.position = position
        super().__init__(self.message + quote(self.token, self.token_length) + (
            "" if position is None else f" at position {position}"))

    def __str__(self) -> str:
        """The error in the current language (:func:`cardrules.language`).

        >>> from cardrules import language, parse_cards
        >>> try:
        ...     parse_cards("KS 1X")
        ... except ParseError as err:
        ...     with language("ja"):
        ...         print(err)
        ...     with language("uk"):
        ...         print(err)
        カードではありません: '1X'（位置 3）
        не карта: '1X' (позиція 3)
        """
        if isinstance(self.text, str):
            return str(self.args[0])
        where = "" if self.position is None else str(
            lazy_gettext(" at position {position}", position=self.position))
        return shorten(str(self.text), MESSAGE_LIMIT) + _quote(self.token,
                                                               self.token_length) + where

    def within(self, prefix: str | LazyText = "", offset: int = 0) -> ParseError:
        """The same error seen from a larger input: ``prefix`` goes before the
        message and ``offset`` is added to the position.

        >>> err = ParseError("not a card", token="1X", position=3)
        >>> str(err.within("line 7: ", 8))
        "line 7: not a card: '1X' at position 11"
        """
        text = prefix + self.text if isinstance(prefix, str) and isinstance(self.text, str) \
            else concat(prefix, self.text)
        return ParseError(text, token=self.token,
                          position=None if self.position is None else self.position + offset,
                          token_length=self.token_length)


def _english(text: str | LazyText) -> str:
    return text if isinstance(text, str) else text.english


def _quote(token: str | None, length: int | None) -> str:
    # quote() in the current language: only "(N characters)" has words.
    if token is None:
        return ""
    full = len(token) if length is None else length
    if full <= TOKEN_LIMIT and len(token) == full:
        return f": {token!r}"
    return f": {shorten(token)!r} " + str(lazy_ngettext("({n} character)", "({n} characters)",
                                                        full))


#: How many characters of a bad token an error quotes.
TOKEN_LIMIT = 40
#: The longest message an error keeps (longer ones are cut, ending in ``...``).
MESSAGE_LIMIT = 300


def shorten(text: str, limit: int = TOKEN_LIMIT) -> str:
    """``text`` itself, or its first ``limit`` characters followed by ``...``.

    >>> shorten("KS QH"), shorten("x" * 50, 4)
    ('KS QH', 'xxxx...')
    """
    return text if len(text) <= limit else text[:limit] + "..."


def quote(token: str | None, length: int | None = None) -> str:
    """The ``: 'token'`` part of an error message, cut short for a long token.

    ``length`` is the full length when ``token`` is already cut short.

    >>> quote("1X"), quote(None), quote("Z" * 41)
    (": '1X'", '', ": 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ...' (41 characters)")
    """
    if token is None:
        return ""
    full = len(token) if length is None else length
    if full <= TOKEN_LIMIT and len(token) == full:
        return f": {token!r}"
    return f": {shorten(token)!r} ({full} characters)"


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

    def __init__(self, rule: str, message: str | LazyText) -> None:
        self.rule = rule
        #: The message as given: a plain string or a :class:`~cardrules.i18n.LazyText`,
        #: which ``str(err)`` renders in the language of that moment.
        self.text: str | LazyText = message if isinstance(message, LazyText) else str(message)
        # The English text is made only when asked for: the search code raises
        # and catches many of these errors without ever showing one.
        super().__init__(rule, self.text)

    @property
    def message(self) -> str:
        """The message in English, without the rule id.

        >>> IllegalActionError("DB-34", "draw first").message
        'draw first'
        """
        return _english(self.text)

    def __str__(self) -> str:
        """``rule: message``, the message in the current language (:func:`cardrules.language`).

        The rule id stays as it is in every language.

        >>> from cardrules import language
        >>> from cardrules.back_alley import new_game, apply, Pass
        >>> try:
        ...     apply(new_game(), Pass())
        ... except IllegalActionError as err:
        ...     print(err)
        ...     with language("uk"):
        ...         print(err)
        BA-11: the first dealer must be chosen first (a chance action)
        BA-11: спершу треба вибрати першого здавача (випадкова дія)
        """
        return f"{self.rule}: {self.text}"


class ConformanceError(CardRulesError, AssertionError):
    """A game implementation broke a check of :func:`cardrules.engine.check_game`.

    >>> issubclass(ConformanceError, AssertionError)
    True
    """
