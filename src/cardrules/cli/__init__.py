"""The ``cardrules`` command (also ``python -m cardrules``).

``cardrules eval CARDS...`` prints the Down and Back combination of 3 or 4
cards, or the best ways (see :func:`~cardrules.down_and_back.best_splits`)
to split 7 cards into a down and a back hand.

``cardrules play [GAME]`` lets bots play a whole game of any game the
registry finds (Down and Back unless another is named) and prints how it
went; ``--human SEAT`` puts a person in that seat, who plays by typing moves
(see :mod:`cardrules.cli.human`); ``--record FILE`` saves the game record (JSON,
or text when FILE ends in ``.txt``; the path is checked before the game
starts) and ``--moves`` lists every move with the seat that made it.
``cardrules replay FILE [--summary]`` replays a saved record of either game
move by move, prints the same account and says when the record is
unfinished.

``cardrules --version`` prints the version and which Down and Back evaluators
are in use: the C speed-ups, or the pure-Python code (see
:data:`cardrules.down_and_back.ACCELERATED`).

``--lang ja|uk|en``, before or after the subcommand, sets the language of
everything the command writes for people (tables, prompts, narration,
refusals, help); without it the user's locale decides (``LC_ALL``, then
``LC_MESSAGES``, then ``LANG``: :func:`cardrules.i18n.from_environment`), and
English is the fallback.  Machine formats (``--json``, records, the moves
typed and listed, such as ``play QH``) are the same in every language.

>>> main(["eval", "--lang", "ja", "8S", "8H", "8D", "QH"])
8のプライアル (8S 8H 8D QH)
0

>>> main(["eval", "8S", "8H", "8D", "QH"])
prial of eights (8S 8H 8D QH)
0
>>> main(["eval", "KS QS"])   # the message goes to standard error
2
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from cardrules.cli import _output, _parser, advise, evaluate, play, replay, serve, simulate
from cardrules.errors import CardRulesError
from cardrules.i18n import LANGUAGES, from_environment, gettext, language

__all__ = ["chosen_language", "main", "run"]

#: The subcommand modules; each has ``register(commands)``, which adds its
#: parser and sets ``handler`` to the function that runs it.
_COMMANDS = (evaluate, play, replay, simulate, advise, serve)


class _Version(argparse.Action):
    """``--version``: print the version and the evaluators in use, then exit 0."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from cardrules import __version__
        from cardrules.down_and_back import ACCELERATED

        kind = gettext("C speed-ups active") if ACCELERATED else gettext("pure-Python evaluators")
        print(f"cardrules {__version__} ({kind})")
        parser.exit(0)


def _add_lang(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default=default, metavar="LANG",
                        help=gettext("the language of the texts for people: en, ja or uk "
                                     "(default: from LC_ALL, LC_MESSAGES or LANG, else en); "
                                     "moves are typed in English notation in every language"))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the whole command, with every subcommand, its
    texts in the current language (:func:`cardrules.language`).

    ``--lang`` is accepted before the subcommand and after it.

    >>> build_parser().parse_args(["eval", "AS", "--lang", "uk"]).lang
    'uk'
    """
    parser = _parser.Parser(
        prog="cardrules", description=gettext("Rules engines for Down and Back and Back Alley."))
    parser.add_argument("--version", action=_Version, default=argparse.SUPPRESS,
                        help=gettext("show the version and whether the C speed-ups are in use"))
    _add_lang(parser, None)
    commands = parser.add_subparsers(dest="command", required=True,
                                     parser_class=_parser.Parser)
    for command in _COMMANDS:
        command.register(commands)
    for sub in commands.choices.values():
        _add_lang(sub, argparse.SUPPRESS)  # after the subcommand too, not overriding
    return parser


def chosen_language(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of a run: ``--lang`` wherever it stands on the command
    line, else the environment's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else
    English.  A ``--lang`` that is not ``en``, ``ja`` or ``uk`` is left for the
    parser to refuse, in the environment's language.

    >>> chosen_language(["play", "--lang", "uk"], {"LANG": "ja_JP.UTF-8"})
    'uk'
    >>> chosen_language(["--lang=ja", "eval", "AS"], {})
    'ja'
    >>> chosen_language(["eval", "AS"], {"LC_ALL": "ja_JP.UTF-8", "LANG": "uk_UA.UTF-8"})
    'ja'
    >>> chosen_language(["eval", "AS"], {"LANG": "fr_FR.UTF-8"})
    'en'
    """
    first = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    first.add_argument("--lang")
    try:
        known, _ = first.parse_known_args(list(argv))
    except SystemExit:  # "--lang" with no value: the real parser says so
        known = argparse.Namespace(lang=None)
    if known.lang in LANGUAGES:
        return str(known.lang)
    return from_environment(environ)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status instead of exiting.

    The status is 0 on success, and also when the reader of standard output
    goes away before the end (``cardrules play | head -1``): the command then
    stops quietly, whatever it had left to print.  Anything refused (bad cards, settings, bots,
    record paths or records) returns 2 after one line on standard error; a
    malformed command line makes ``argparse`` print its usage and error there
    and raise :class:`SystemExit` with status 2, as ``--help`` and
    ``--version`` raise it with 0.  Ctrl-C (:class:`KeyboardInterrupt`)
    returns 130 after one line on standard error.  The commands and options
    are described in the documentation's command-line page.

    >>> main(["eval", "JH QH KH"])
    bouncer, king high (JH QH KH)
    0
    >>> main(["play", "--players", "2", "--rounds", "1", "--seed", "3"])
    round 1: down to seat ..., back to seat ...
    net: ...
    leading: seat...
    0
    >>> main(["play", "--record", ""])   # checked before any game is played
    2

    The whole run is in the language of :func:`~cardrules.cli.chosen_language`.
    """
    given = sys.argv[1:] if argv is None else list(argv)
    with language(chosen_language(given, os.environ)):
        return _main(given)


def _main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here for a short output
        return status
    except BrokenPipeError:  # the reader went away (``cardrules replay F | head``)
        _output.quiet_stdout()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback, the shell's status
        print("cardrules: " + gettext("interrupted"), file=sys.stderr)
        return 130
    except OSError as err:
        # "cardrules: game.json: No such file or directory", not "[Errno 2] ...".
        where = f"{err.filename}: " if err.filename is not None else ""
        print(f"cardrules: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except (CardRulesError, ValueError) as err:
        print(f"cardrules: {err}", file=sys.stderr)
        return 2


def run() -> None:
    """Entry point of the console script: exit with :func:`main`'s status."""
    sys.exit(main())
