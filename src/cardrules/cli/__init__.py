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

>>> main(["eval", "8S", "8H", "8D", "QH"])
prial of eights (8S 8H 8D QH)
0
>>> main(["eval", "KS QS"])   # the message goes to standard error
2
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from cardrules.cli import _common, advise, evaluate, play, replay, serve, simulate
from cardrules.errors import CardRulesError

__all__ = ["main", "run"]

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

        kind = "C speed-ups active" if ACCELERATED else "pure-Python evaluators"
        print(f"cardrules {__version__} ({kind})")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the whole command, with every subcommand."""
    parser = _common.Parser(
        prog="cardrules", description="Rules engines for Down and Back and Back Alley.")
    parser.add_argument("--version", action=_Version, default=argparse.SUPPRESS,
                        help="show the version and whether the C speed-ups are in use")
    commands = parser.add_subparsers(dest="command", required=True,
                                     parser_class=_common.Parser)
    for command in _COMMANDS:
        command.register(commands)
    return parser


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
    """
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here for a short output
        return status
    except BrokenPipeError:  # the reader went away (``cardrules replay F | head``)
        _common.quiet_stdout()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback, the shell's status
        print("cardrules: interrupted", file=sys.stderr)
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
