"""``cardrules play [GAME]``: bots play a whole game and the outcome is printed;
with ``--human SEAT`` a person plays that seat (see :mod:`cardrules.cli.human`).

Any game the registry finds can be played.  The game is printed as it is
played, each line flushed at once: every move with ``--moves``, else each
round's (or deal's) line as it ends (the game's ``Rules.result_lines``), so
``cardrules play --rounds 10000 | head -1`` answers at once.  The bots are
the game's ``Rules.default_bot`` (its strongest fast bot) unless ``--bots``
names others.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardrules.cli import _games, _options, _output, _parser
from cardrules.engine.registry import rules_for
from cardrules.engine.selfplay import steps
from cardrules.i18n import gettext

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.rules import Rules, SettingValues


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = commands.add_parser(
        "play", help=gettext("play a whole game (bots, or you against bots); print the outcome"))
    parser.add_argument("game", nargs="?", default=_games.DEFAULT_GAME,
                        help=gettext("the game: {games} (default {default}; any case, - or _)")
                        .format(games=_parser.GAMES_MARK, default=_games.DEFAULT_GAME))
    _options.add_settings_options(parser)
    _options.add_hand_size_option(parser)
    parser.add_argument("--seed", type=int, default=None,
                        help=gettext("seed for chance and the bots (default: a fresh one, "
                                     "printed so that the game can be played again)"))
    parser.add_argument("--human", type=int, metavar="SEAT",
                        help=gettext("you play this seat (from 0), typing your moves"))
    parser.add_argument("--bots", default=None,
                        help=gettext("{bots}; default {default}, also around you with --human")
                        .format(bots=gettext(_parser.BOTS_HELP), default=_parser.DEFAULT_BOTS_MARK))
    parser.add_argument("--record", metavar="FILE",
                        help=gettext("save the game record (JSON, or text when FILE ends in .txt)"))
    parser.add_argument("--moves", action="store_true",
                        help=gettext("list every move with its seat"))
    parser.set_defaults(handler=run)


def play_printing(rules: Rules[Any, Any], bots: Sequence[Bot], settings: SettingValues,
                  seed: int | None, *, moves: bool = False,
                  keep: bool = False) -> tuple[Any, Any, list[Any] | None]:
    """Play a game as :func:`cardrules.engine.play` does (the same game for
    the same bots and seed) and print it as it goes; then print the rest of
    the summary.  Returns the first state, the last one and, when ``keep``,
    the actions.

    Each line is flushed at once: with ``moves`` every move (as ``cardrules
    replay`` lists it), then the whole summary; else each round's (or deal's)
    line as it ends (``Rules.result_lines``), then the rest of the summary.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> _ = play_printing(RULES, [RandomBot(1), RandomBot(2)], {"rounds": 2}, seed=3)
    round 1: down to seat ...
    round 2: ...
    net: ... (pot ...)
    leading: seat...
    """
    loop = steps(rules, bots, settings, seed=seed)   # checks the settings and the bots first
    values = dict(settings)
    if "num_players" in rules.default_settings and "num_players" not in values:
        values["num_players"] = len(bots)
    state = start = rules.new_game_from_settings(values)
    actions: list[Any] | None = [] if keep else None
    shown = 0
    for number, step in enumerate(loop, start=1):
        state = step.after
        if actions is not None:
            actions.append(step.action)
        if moves:
            print(_output.move_line(number, step.before, step.action), flush=True)
            continue
        if rules.result_lines is not None:
            for line in rules.result_lines(step.before, state):
                print(line, flush=True)
                shown += 1
    lines = rules.summarize(state).splitlines()
    for line in lines if moves else lines[shown:]:
        print(line, flush=True)
    return start, state, actions


def fresh_seed() -> int:
    """A seed for a game nobody asked to repeat: drawn from the system's
    randomness, small enough to type back after ``--seed``.

    >>> 0 <= fresh_seed() < 10 ** 9
    True
    """
    return secrets.randbelow(10 ** 9)


def _say_seed(seed: int, drawn: bool) -> None:
    """Say which seed a fresh game was drawn with (on standard error)."""
    if drawn:
        print(gettext("seed {seed} (drawn at random; --seed {seed} plays this game again)")
              .format(seed=seed), file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Play the game the options describe, printing it as it goes.  Without
    ``--seed`` the game is a fresh one: its seed is drawn and printed (on
    standard error, so the game's own account is unchanged) with the option
    that plays it again."""
    rules = rules_for(args.game)
    if args.record is not None:
        _options.check_record_path(args.record)
    settings = _options.settings_of(rules, args)
    seats = rules.new_game_from_settings(settings).num_players
    if args.human is not None and not 0 <= args.human < seats:
        raise ValueError(gettext("--human is a seat from 0 to {last}, not {number}").format(
            last=seats - 1, number=args.human))
    drawn = args.seed is None
    seed = fresh_seed() if drawn else args.seed
    if args.human is not None:
        from cardrules.cli.human import play_human

        around = _games.bots_around(rules, args.bots, seats, seed, args.human)
        _say_seed(seed, drawn)
        return play_human(rules, settings, args.human, around, seed, record_path=args.record)
    spec = rules.default_bot if args.bots is None else args.bots
    bots = _games.bots(rules, spec, seats, seed)
    _say_seed(seed, drawn)
    start, _, actions = play_printing(rules, bots, settings, seed, moves=args.moves,
                                      keep=args.record is not None)
    if args.record is not None:
        assert actions is not None
        rules.record(start, actions).dump(args.record)
        print(gettext("record written to {path}").format(path=args.record))
    return 0
