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

Catalogs are gettext message catalogs, one per *domain*: ``"cardrules"``
(the library) and ``"cardrules-cli"`` (the command and its narration).  In a
source tree they are read straight from the ``.po`` files beside the code
(so an edited ``.po`` is seen at once); a wheel carries the ``.mo`` files
that Babel compiled from them during the build.  A message missing from a
catalog comes out in English.
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import io
import re
import struct
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Final

__all__ = [
    "DEFAULT_DOMAIN",
    "DOMAINS",
    "LANGUAGES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "LazyText",
    "catalog_path",
    "clear_cache",
    "concat",
    "current_language",
    "from_environment",
    "gettext",
    "language",
    "lazy_gettext",
    "lazy_ngettext",
    "lazy_pgettext",
    "ngettext",
    "normalize",
    "npgettext",
    "pgettext",
    "read_po",
    "render",
    "set_language",
    "write_mo",
]

#: The languages cardrules speaks: English (the source language), Japanese, Ukrainian.
LANGUAGES: Final = ("en", "ja", "uk")
#: The library's own domain; the command's texts are in ``"cardrules-cli"``.
DEFAULT_DOMAIN: Final = "cardrules"
#: Every message domain cardrules ships.
DOMAINS: Final = ("cardrules", "cardrules-cli")

#: The folder of the message catalogs: ``<lang>/LC_MESSAGES/<domain>.po`` (and ``.mo``).
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"

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
_catalogs: dict[tuple[str, str], _gettext.NullTranslations] = {}


def _unquote(text: str) -> str:
    body = text.strip()
    if len(body) < 2 or body[0] != '"' or body[-1] != '"':
        raise ValueError(f"not a quoted .po string: {text!r}")
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), body[1:-1])


def read_po(text: str) -> dict[str, str]:
    """The translated entries of a ``.po`` file, keyed as in a ``.mo`` file.

    A key is ``msgid``, ``msgctxt + "\\x04" + msgid`` with a context, and
    ``msgid + "\\x00" + msgid_plural`` for plural entries, whose value is the
    plural forms joined by ``"\\x00"``.  Untranslated and fuzzy entries are
    left out (their English is used), like ``pybabel compile`` does.

    >>> read_po('msgctxt "bid"\\nmsgid "board"\\nmsgstr "ボード"\\n')
    {'bid\\x04board': 'ボード'}
    """
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    last: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fuzzy
        if "msgid" in fields and (not fuzzy or fields["msgid"] == ""):
            key = fields["msgid"]
            if "msgid_plural" in fields:
                key += "\x00" + fields["msgid_plural"]
                forms = [fields[k] for k in sorted(
                    (k for k in fields if k.startswith("msgstr[")),
                    key=lambda k: int(k[7:-1]))]
                value = "\x00".join(forms)
                ok = bool(forms) and all(forms)
            else:
                value = fields.get("msgstr", "")
                ok = bool(value) or key == ""
            if "msgctxt" in fields:
                key = fields["msgctxt"] + "\x04" + key
            if ok:
                entries[key] = value
        fields.clear()
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):  # a comment ends the entry before it
            if "msgid" in fields:
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            if last is None:
                raise ValueError(f"a .po continuation line outside an entry: {raw!r}")
            fields[last] += _unquote(line)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and "msgid" in fields:
            flush()
        fields[keyword] = _unquote(rest)
        last = keyword
    flush()
    return entries


def write_mo(entries: Mapping[str, str]) -> bytes:
    """A ``.mo`` file holding ``entries`` (keys and values as :func:`read_po` gives).

    >>> import gettext, io
    >>> mo = write_mo({"": "Content-Type: text/plain; charset=UTF-8\\n", "king": "キング"})
    >>> gettext.GNUTranslations(io.BytesIO(mo)).gettext("king")
    'キング'
    """
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    start = 7 * 4 + 16 * len(keys)
    id_blob, str_blob = b"", b""
    id_table: list[int] = []
    str_table: list[int] = []
    for data in ids:
        id_table += [len(data), start + len(id_blob)]
        id_blob += data + b"\0"
    str_start = start + len(id_blob)
    for data in strs:
        str_table += [len(data), str_start + len(str_blob)]
        str_blob += data + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return (header + struct.pack(f"<{len(id_table)}I", *id_table)
            + struct.pack(f"<{len(str_table)}I", *str_table) + id_blob + str_blob)


def catalog_path(lang: str, domain: str, suffix: str) -> Path:
    """Where the catalog of ``domain`` in ``lang`` lives (``suffix`` ``".po"`` or ``".mo"``).

    >>> catalog_path("ja", "cardrules", ".po").parts[-3:]
    ('ja', 'LC_MESSAGES', 'cardrules.po')
    """
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}{suffix}"


def _load(lang: str, domain: str) -> _gettext.NullTranslations:
    if lang == "en":
        return _gettext.NullTranslations()
    po = catalog_path(lang, domain, ".po")
    mo = catalog_path(lang, domain, ".mo")
    if po.is_file():  # a source tree or an editable install: the .po is the truth
        data = write_mo(read_po(po.read_text(encoding="utf-8")))
    elif mo.is_file():  # an installed wheel
        data = mo.read_bytes()
    else:
        return _gettext.NullTranslations()
    return _gettext.GNUTranslations(io.BytesIO(data))


def _catalog(domain: str) -> _gettext.NullTranslations:
    key = (domain, _current.get())
    found = _catalogs.get(key)
    if found is None:
        with _lock:
            found = _catalogs.get(key)
            if found is None:
                found = _catalogs[key] = _load(key[1], domain)
    return found


def clear_cache() -> None:
    """Forget the catalogs read so far (after editing a ``.po`` file in a running program).

    >>> clear_cache()
    """
    with _lock:
        _catalogs.clear()


# -- translation functions --------------------------------------------------------------

def gettext(message: str, *, domain: str = DEFAULT_DOMAIN) -> str:
    """``message`` in the current language (English when the catalog lacks it).

    >>> with language("uk"):
    ...     gettext("spades")
    'піки'
    """
    return _catalog(domain).gettext(message)


def pgettext(context: str, message: str, *, domain: str = DEFAULT_DOMAIN) -> str:
    """``message`` in the current language, in ``context`` (for words with two senses).

    >>> with language("ja"):
    ...     pgettext("bid", "board")
    'ボード'
    """
    return _catalog(domain).pgettext(context, message)


def ngettext(singular: str, plural: str, n: int, *, domain: str = DEFAULT_DOMAIN) -> str:
    """The form of a message for the number ``n`` (Ukrainian has three forms).

    >>> with language("uk"):
    ...     [ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 2, 5, 11, 21)]
    ['1 карта', '2 карти', '5 карт', '11 карт', '21 карта']
    """
    return _catalog(domain).ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int, *,
              domain: str = DEFAULT_DOMAIN) -> str:
    """:func:`ngettext` with a context.

    >>> npgettext("score", "{n} trick", "{n} tricks", 2).format(n=2)
    '2 tricks'
    """
    return _catalog(domain).npgettext(context, singular, plural, n)


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

    Built by :func:`lazy_gettext`, :func:`lazy_pgettext` and :func:`lazy_ngettext`;
    ``str()`` (or a format field) renders it, filling its ``{name}`` fields,
    which may be lazy texts themselves.  :attr:`english` is the English text.

    >>> text = lazy_gettext("you hold {count} too many", count=2)
    >>> str(text), text.english
    ('you hold 2 too many', 'you hold 2 too many')
    """

    __slots__ = ("context", "domain", "fields", "message", "n", "plural")

    def __init__(self, message: str, *, context: str | None = None,
                 plural: str | None = None, n: int | None = None,
                 domain: str = DEFAULT_DOMAIN, fields: Mapping[str, object] | None = None
                 ) -> None:
        self.message = message
        self.context = context
        self.plural = plural
        self.n = n
        self.domain = domain
        self.fields: dict[str, object] = dict(fields or {})

    def template(self) -> str:
        """The message, not yet filled in, in the current language.

        >>> lazy_gettext("{a} and {b}", a=1, b=2).template()
        '{a} and {b}'
        """
        if not self.domain:  # a text of other texts (concat): nothing to translate
            return self.message
        if self.plural is not None:
            n = 0 if self.n is None else self.n
            if self.context is None:
                return ngettext(self.message, self.plural, n, domain=self.domain)
            return npgettext(self.context, self.message, self.plural, n, domain=self.domain)
        if self.context is None:
            return gettext(self.message, domain=self.domain)
        return pgettext(self.context, self.message, domain=self.domain)

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
            return (self.message, self.context, self.plural, self.n, self.domain,
                    self.fields) == (other.message, other.context, other.plural, other.n,
                                     other.domain, other.fields)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.message, self.context, self.plural, self.n, self.domain))


def lazy_gettext(message: str, /, *, domain: str = DEFAULT_DOMAIN,
                 **fields: object) -> LazyText:
    """A :class:`LazyText` for ``message`` with its ``{name}`` fields.

    >>> t = lazy_gettext("spades")
    >>> with language("ja"):
    ...     str(t)
    'スペード'
    """
    return LazyText(message, domain=domain, fields=fields)


def lazy_pgettext(context: str, message: str, /, *, domain: str = DEFAULT_DOMAIN,
                  **fields: object) -> LazyText:
    """A :class:`LazyText` for ``message`` in ``context``.

    >>> with language("uk"):
    ...     str(lazy_pgettext("bid", "board"))
    'борд'
    """
    return LazyText(message, context=context, domain=domain, fields=fields)


def lazy_ngettext(singular: str, plural: str, n: int, /, *, domain: str = DEFAULT_DOMAIN,
                  **fields: object) -> LazyText:
    """A :class:`LazyText` whose form follows ``n`` (also given to the text as ``{n}``).

    >>> with language("uk"):
    ...     str(lazy_ngettext("{n} trick", "{n} tricks", 22))
    '22 взятки'
    """
    fields.setdefault("n", n)
    return LazyText(singular, plural=plural, n=n, domain=domain, fields=fields)


def concat(*parts: object) -> LazyText:
    """The texts ``parts`` one after the other, each rendered when shown.

    >>> text = concat("line 7: ", lazy_gettext("hearts"))
    >>> with language("ja"):
    ...     str(text)
    'line 7: ハート'
    """
    return LazyText("".join(f"{{p{i}}}" for i in range(len(parts))), domain="",
                    fields={f"p{i}": part for i, part in enumerate(parts)})


def render(text: object) -> str:
    """``str(text)``: a plain string as it is, a :class:`LazyText` in the current language.

    >>> render("x"), render(lazy_gettext("hearts"))
    ('x', 'hearts')
    """
    return str(text)

