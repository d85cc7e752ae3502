"""The argument parser of the ``cardrules`` command, in the reader's language.

argparse looks up its own words (``usage:``, the section titles, ``-h``'s
help, its error messages) through ``gettext`` under its own message ids,
such as ``"invalid %(type)s value: %(value)r"``.  While the command's
:class:`Parser` builds, parses or prints, those look-ups go to the cardrules
catalog in the context ``"argparse"`` (:data:`ARGPARSE_MESSAGES` lists the
ids translated there), in the current language; a message the catalog lacks
is argparse's own.  No English output is taken apart again.

The help texts may hold marks (:data:`BOTS_MARK`, :data:`GAMES_MARK`,
:data:`DEFAULT_BOTS_MARK`) that :class:`HelpFormatter` fills in from the game
registry, so the games are imported only to print help.
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

from cardrules.cli._games import default_bots, registered_bots
from cardrules.engine.registry import display_names
from cardrules.i18n import N_, NP_, gettext, pgettext

__all__ = [
    "ARGPARSE_MESSAGES",
    "BOTS_HELP",
    "BOTS_MARK",
    "DEFAULT_BOTS_MARK",
    "GAMES_MARK",
    "HelpFormatter",
    "Parser",
    "argparse_in_current_language",
]

#: Stands in a help text for the bots of every registered game.
BOTS_MARK = "<the bots of every game>"
#: Stands in a help text for the names of every game the registry finds.
GAMES_MARK = "<every game>"
#: Stands in a help text for every game's default bot (``Rules.default_bot``).
DEFAULT_BOTS_MARK = "<the default bot of every game>"
#: Help text of the --bots option (in English: shown through ``gettext``; a
#: translation keeps the mark as it is).
BOTS_HELP = N_("a bot name for every seat, or one per seat separated by commas "
               "(<the bots of every game>)")

#: What each mark of a help text stands for.
_MARKS: dict[str, Callable[[], str]] = {
    BOTS_MARK: registered_bots, GAMES_MARK: lambda: gettext(" or ").join(display_names()),
    DEFAULT_BOTS_MARK: default_bots}

#: The context of argparse's own messages in the catalog.
ARGPARSE = "argparse"
#: argparse's message ids the catalog translates (tests check that the running
#: Python's argparse still uses each of them).  None is a plural message (which
#: argparse looks up with ``ngettext``): those stay argparse's own.
ARGPARSE_MESSAGES = (
    NP_("argparse", "usage: "),
    NP_("argparse", "positional arguments"),
    NP_("argparse", "options"),
    NP_("argparse", "show this help message and exit"),
    NP_("argparse", "%(prog)s: error: %(message)s\n"),
    NP_("argparse", "argument %(argument_name)s: %(message)s"),
    NP_("argparse", "invalid %(type)s value: %(value)r"),
    NP_("argparse", "invalid choice: %(value)r (choose from %(choices)s)"),
    NP_("argparse", "the following arguments are required: %s"),
    NP_("argparse", "unrecognized arguments: %s"),
    NP_("argparse", "expected one argument"),
    NP_("argparse", "not allowed with argument %s"),
    NP_("argparse", "one of the arguments %s is required"),
    NP_("argparse", "ambiguous option: %(option)s could match %(matches)s"),
)

#: argparse's module namespace, where its code looks up ``_`` (its gettext).
_ARGPARSE_NAMES: dict[str, Any] = vars(argparse)
_lock = threading.Lock()
_depth = 0
_original: Callable[[str], str] | None = None


def _argparse_gettext(message: str) -> str:
    found = pgettext(ARGPARSE, message)
    if found == message and _original is not None:
        return _original(message)
    return found


@contextmanager
def argparse_in_current_language() -> Iterator[None]:
    """Inside the block, argparse's own words come from the catalog's
    ``"argparse"`` context in the current language (the language of each
    thread or task); outside, argparse is as Python ships it.  Blocks may nest.

    >>> from cardrules import language
    >>> with language("uk"), argparse_in_current_language():
    ...     argparse.ArgumentParser(prog="x").format_usage()
    'використання: x [-h]\\n'
    >>> argparse.ArgumentParser(prog="x").format_usage()
    'usage: x [-h]\\n'
    """
    global _depth, _original
    with _lock:
        if _depth == 0:
            _original = _ARGPARSE_NAMES["_"]
            _ARGPARSE_NAMES["_"] = _argparse_gettext
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _original is not None:
                _ARGPARSE_NAMES["_"] = _original
                _original = None


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, with :data:`BOTS_MARK`, :data:`GAMES_MARK` and
    :data:`DEFAULT_BOTS_MARK` filled in from the registry (so the games are
    imported only to print help).

    >>> parser = Parser(prog="x")
    >>> _ = parser.add_argument("--bots", help=BOTS_HELP)
    >>> "Back Alley: dd, heuristic, random, search" in " ".join(parser.format_help().split())
    True
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        for sign, meaning in _MARKS.items():
            if text is not None and sign in text:
                text = text.replace(sign, meaning().replace("%", "%%"))
        return text


class Parser(argparse.ArgumentParser):
    """The argument parser of the command and its subcommands: argparse's,
    with :class:`HelpFormatter` unless told otherwise, and argparse's own
    words (``usage:``, the section titles, ``-h``'s help, the errors) in the
    current language (see :func:`argparse_in_current_language`).

    >>> from cardrules import language
    >>> with language("ja"):
    ...     Parser(prog="x").format_usage()
    '使い方: x [-h]\\n'
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        with argparse_in_current_language():
            super().__init__(**kwargs)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """argparse's, its refusals in the current language."""
        with argparse_in_current_language():
            return super().parse_args(args, namespace)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, its refusals in the current language."""
        with argparse_in_current_language():
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        """argparse's, in the current language."""
        with argparse_in_current_language():
            return super().format_usage()

    def format_help(self) -> str:
        """argparse's, in the current language."""
        with argparse_in_current_language():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        """Print the usage and the error, in the current language, and exit with 2."""
        with argparse_in_current_language():
            super().error(message)
