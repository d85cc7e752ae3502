"""Languages: English, Japanese and Ukrainian texts for people.

Every text that cardrules writes *for a person* (card names, combination
descriptions, bids, refusals, the pictures' labels) goes through the
translation functions of this module, in the language of the current
**context**: a ``contextvars`` variable, so each thread and each asyncio
task has its own language and a server can render one view in two languages
for two seats at the same moment.  Nothing here installs ``_`` into builtins
or touches the ``gettext`` module's global state.

>>> from cardrules import Card, language
>>> card = Card.parse("AS")
>>> card.long_name
'ace of spades'
>>> with language("ja"):
...     card.long_name
'スペードのエース'
>>> with language("uk"):
...     card.long_name
'туз пік'

The default language of the library is English whatever the environment
says: programs, logs and doctests read the library's texts and must get the
same text on every machine.  The ``cardrules`` command reads the user's
locale with :func:`from_environment` and sets it for its own run.

Machine formats never change with the language: ``str(card)`` is ``"AS"``,
action texts, JSON states and records are the same in every language.

The texts are in gettext message catalogs of one domain, ``"cardrules"``:
the library's, the command's and the tables' texts alike (a word with two
senses has a context).  Every install, editable ones included, holds the
``.mo`` files that Babel compiled from the ``.po`` files during the build; in
a source tree whose ``.po`` file is newer than its ``.mo`` (an edited
translation), Babel compiles the ``.po`` when it is read.  A message missing
from a catalog comes out in English.
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import io
import re
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Final

__all__ = [
    "LANGUAGES",
    "NP_",
    "N_",
    "LazyText",
    "concat",
    "current_language",
    "from_environment",
    "gettext",
    "language",
    "lazy_gettext",
    "lazy_ngettext",
    "ngettext",
    "normalize",
    "npgettext",
    "pgettext",
    "set_language",
]

#: The languages cardrules speaks: English (the source language), Japanese, Ukrainian.
LANGUAGES: Final = ("en", "ja", "uk")
#: The one message domain: the catalogs are ``<lang>/LC_MESSAGES/cardrules.mo``.
_DOMAIN: Final = "cardrules"

#: The folder of the message catalogs: ``<lang>/LC_MESSAGES/cardrules.mo`` (and ``.po``).
_LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("cardrules_language",
                                                               default="en")
_CODE = re.compile(r"[A-Za-z]{2,3}")


def normalize(code: str) -> str:
    """The supported language a locale name or language tag stands for.

    Accepts ``"ja"``, ``"ja_JP.UTF-8"``, ``"uk-UA"``, ``"en_GB"``, ``"JA"`` and
    the like; ``"C"``, ``"POSIX"``, an empty string and any language cardrules
    does not speak give ``"en"`` (English is the fallback, never an error).

    >>> normalize("ja_JP.UTF-8"), normalize("uk-UA"), normalize("EN_gb"), normalize("fr_FR")
    ('ja', 'uk', 'en', 'en')
    >>> normalize("C.UTF-8"), normalize("")
    ('en', 'en')
    """
    if not isinstance(code, str):
        raise TypeError(f"a language code is text, not {type(code).__name__}")
    found = _CODE.match(code.strip())
    if found is None:
        return "en"
    lang = found.group().lower()
    return lang if lang in LANGUAGES else "en"


def from_environment(environ: Mapping[str, str]) -> str:
    """The language a process environment asks for, by POSIX order.

    The first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set and not
    empty decides (``"C"`` or a language cardrules does not speak gives
    English, without looking further); none set gives ``"en"``.

    >>> from_environment({"LANG": "uk_UA.UTF-8"})
    'uk'
    >>> from_environment({"LC_ALL": "ja_JP.UTF-8", "LANG": "uk_UA.UTF-8"})
    'ja'
    >>> from_environment({"LC_MESSAGES": "C", "LANG": "ja_JP.UTF-8"}), from_environment({})
    ('en', 'en')
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return normalize(value)
    return "en"


def current_language() -> str:
    """The language of the current thread or task (``"en"`` unless set).

    >>> current_language()
    'en'
    """
    return _current.get()


def set_language(code: str) -> None:
    """Set the language of the current context (thread or task) without ``with``.

    A new thread starts in English; a new asyncio task starts in the
    language of the code that created it.  :func:`language` sets one for a
    block and puts the previous one back.

    >>> import threading
    >>> def seat():
    ...     set_language("uk")
    ...     print(current_language())
    >>> worker = threading.Thread(target=seat)
    >>> worker.start(); worker.join()
    uk
    >>> current_language()
    'en'
    """
    _current.set(normalize(code))


@contextmanager
def language(code: str) -> Iterator[str]:
    """Speak ``code`` inside the ``with`` block, in this thread or task only.

    ``code`` goes through :func:`~cardrules.i18n.normalize`, so an unknown language gives
    English rather than an error (a player's locale is never a reason for a
    program to fail).  The block's value is the language chosen.

    >>> from cardrules import Rank, language
    >>> with language("ja_JP.UTF-8") as lang:
    ...     lang, Rank.KING.long_name
    ('ja', 'キング')
    >>> with language("xx"):
    ...     Rank.KING.long_name
    'king'
    """
    token = _current.set(normalize(code))
    try:
        yield token.var.get()
    finally:
        _current.reset(token)


# -- catalogs ---------------------------------------------------------------------------

_lock = threading.Lock()
_catalogs: dict[str, _gettext.NullTranslations] = {}


def _compiled(po: Path, lang: str) -> bytes | None:
    """``po`` compiled by Babel, or None without Babel (a source tree only)."""
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        return None
    with po.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=_DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _load(lang: str) -> _gettext.NullTranslations:
    if lang == "en":
        return _gettext.NullTranslations()
    folder = _LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{_DOMAIN}.po", folder / f"{_DOMAIN}.mo"
    data = None
    # A source tree with an edited translation: the .po is newer than the .mo.
    if po.is_file() and (not mo.is_file() or po.stat().st_mtime > mo.stat().st_mtime):
        data = _compiled(po, lang)
    if data is None and mo.is_file():
        data = mo.read_bytes()
    if data is None:
        return _gettext.NullTranslations()
    return _gettext.GNUTranslations(io.BytesIO(data))


def _catalog() -> _gettext.NullTranslations:
    lang = _current.get()
    found = _catalogs.get(lang)
    if found is None:
        with _lock:
            found = _catalogs.get(lang)
            if found is None:
                found = _catalogs[lang] = _load(lang)
    return found


def _clear_cache() -> None:
    """Forget the catalogs read so far (tests that read other catalogs)."""
    with _lock:
        _catalogs.clear()


# -- translation functions --------------------------------------------------------------

def gettext(message: str) -> str:
    """``message`` in the current language (English when the catalog lacks it).

    >>> with language("uk"):
    ...     gettext("spades")
    'піки'
    """
    return _catalog().gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, in ``context`` (for words with two senses).

    >>> with language("ja"):
    ...     pgettext("bid", "board")
    'ボード'
    """
    return _catalog().pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n`` (Ukrainian has three forms).

    >>> with language("uk"):
    ...     [ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 2, 5, 11, 21)]
    ['1 карта', '2 карти', '5 карт', '11 карт', '21 карта']
    """
    return _catalog().ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context.

    >>> npgettext("score", "{n} trick", "{n} tricks", 2).format(n=2)
    '2 tricks'
    """
    return _catalog().npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (it is translated later).

    >>> N_("spades")
    'spades'
    """
    return message


def NP_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for the catalog; the message comes back untranslated.

    >>> NP_("bid", "board")
    'board'
    """
    return message


class LazyText:
    """A message translated when it is shown, in the language active at that moment.

    Built by :func:`lazy_gettext` and :func:`lazy_ngettext`;
    ``str()`` (or a format field) renders it, filling its ``{name}`` fields,
    which may be lazy texts themselves.  :attr:`english` is the English text.

    >>> text = lazy_gettext("you hold {count} too many", count=2)
    >>> str(text), text.english
    ('you hold 2 too many', 'you hold 2 too many')
    """

    __slots__ = ("context", "fields", "message", "n", "plural", "translated")

    def __init__(self, message: str, *, context: str | None = None,
                 plural: str | None = None, n: int | None = None,
                 translated: bool = True, fields: Mapping[str, object] | None = None
                 ) -> None:
        self.message = message
        self.context = context
        self.plural = plural
        self.n = n
        self.translated = translated
        self.fields: dict[str, object] = dict(fields or {})

    def template(self) -> str:
        """The message, not yet filled in, in the current language.

        >>> lazy_gettext("{a} and {b}", a=1, b=2).template()
        '{a} and {b}'
        """
        if not self.translated:  # a text of other texts (concat): nothing to translate
            return self.message
        if self.plural is not None:
            n = 0 if self.n is None else self.n
            if self.context is None:
                return ngettext(self.message, self.plural, n)
            return npgettext(self.context, self.message, self.plural, n)
        if self.context is None:
            return gettext(self.message)
        return pgettext(self.context, self.message)

    def __str__(self) -> str:
        template = self.template()
        if not self.fields:
            return template
        values = {k: str(v) for k, v in self.fields.items()}
        try:
            return template.format_map(values)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English
            english = self.message if self.plural is None or self.n == 1 else self.plural
            return english.format_map(values)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    @property
    def english(self) -> str:
        """The text in English, whatever the current language.

        >>> with language("ja"):
        ...     lazy_gettext("spades").english
        'spades'
        """
        # English is the source language: no catalog and no change of context.
        template = self.message if self.plural is None or self.n == 1 else self.plural
        if not self.fields:
            return template
        values = {k: v.english if isinstance(v, LazyText) else str(v)
                  for k, v in self.fields.items()}
        return template.format_map(values)

    def __repr__(self) -> str:
        return f"LazyText({self.english!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyText):
            return (self.message, self.context, self.plural, self.n, self.translated,
                    self.fields) == (other.message, other.context, other.plural, other.n,
                                     other.translated, other.fields)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.message, self.context, self.plural, self.n, self.translated))


def lazy_gettext(message: str, /, **fields: object) -> LazyText:
    """A :class:`LazyText` for ``message`` with its ``{name}`` fields.

    >>> t = lazy_gettext("spades")
    >>> with language("ja"):
    ...     str(t)
    'スペード'
    """
    return LazyText(message, fields=fields)


def lazy_ngettext(singular: str, plural: str, n: int, /, **fields: object) -> LazyText:
    """A :class:`LazyText` whose form follows ``n`` (also given to the text as ``{n}``).

    >>> with language("uk"):
    ...     str(lazy_ngettext("{n} trick", "{n} tricks", 22))
    '22 взятки'
    """
    fields.setdefault("n", n)
    return LazyText(singular, plural=plural, n=n, fields=fields)


def concat(*parts: object) -> LazyText:
    """The texts ``parts`` one after the other, each rendered when shown.

    >>> text = concat("line 7: ", lazy_gettext("hearts"))
    >>> with language("ja"):
    ...     str(text)
    'line 7: ハート'
    """
    return LazyText("".join(f"{{p{i}}}" for i in range(len(parts))), translated=False,
                    fields={f"p{i}": part for i, part in enumerate(parts)})
