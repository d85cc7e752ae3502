"""The command's and the table's texts in the reader's language: the
``"cardrules-cli"`` message domain.

What a person reads while playing (the tables, prompts and narration drawn
by the presenters, the result lines, the simulation tables, the command's
help and refusals) is written in English in the code and translated through
these functions, in the language of the current context
(:func:`cardrules.language`); a message the catalog lacks comes out in
English.  The functions have their own names (``say``, ``say_n``...) so the
extraction of this domain finds exactly its own messages (``tools/i18n.py``
has the keywords).

>>> from cardrules import language
>>> with language("ja"):
...     say("game over")
'ゲーム終了'
>>> with language("uk"):
...     [say_n("{n} card", "{n} cards", n).format(n=n) for n in (1, 2, 5)]
['1 карта', '2 карти', '5 карт']
>>> say("game over")
'game over'
"""

from __future__ import annotations

from cardrules import i18n

__all__ = ["DOMAIN", "mark", "say", "say_n", "say_np", "say_p"]

#: The message domain of the command and the table.
DOMAIN = "cardrules-cli"


def say(message: str) -> str:
    """``message`` in the current language.

    >>> say("moves:")
    'moves:'
    """
    return i18n.gettext(message, domain=DOMAIN)


def say_p(context: str, message: str) -> str:
    """``message`` in ``context`` (a word with two senses) in the current language.

    >>> say_p("seat", "you")
    'you'
    """
    return i18n.pgettext(context, message, domain=DOMAIN)


def say_n(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n`` in the current language.

    >>> say_n("{n} trick", "{n} tricks", 2).format(n=2)
    '2 tricks'
    """
    return i18n.ngettext(singular, plural, n, domain=DOMAIN)


def say_np(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`say_n` with a context.

    >>> say_np("you", "{n} card", "{n} cards", 1).format(n=1)
    '1 card'
    """
    return i18n.npgettext(context, singular, plural, n, domain=DOMAIN)


def mark(message: str) -> str:
    """Mark ``message`` for the catalog, to be translated with :func:`say` when shown.

    >>> mark("bid")
    'bid'
    """
    return message
