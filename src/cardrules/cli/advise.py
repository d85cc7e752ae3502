"""``cardrules advise GAME CARDS...``: how to play a hand.

Down and Back: the odds of each split of seven cards (see
:func:`cardrules.down_and_back.analysis.split_odds`), as a table (drawn with
``rich`` when it is installed) or as JSON.  Back Alley: the options of
``cardrules.cli.advise_back_alley``, which handles that game.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardrules.cli import advise_back_alley
from cardrules.cli._games import GAME_NAMES
from cardrules.cli._output import print_table
from cardrules.i18n import gettext, language, ngettext

if TYPE_CHECKING:
    from cardrules.down_and_back.analysis import SplitOdds

#: The most deals (Down and Back) or rollouts (Back Alley) ``--trials`` may
#: ask for, by game: either takes under a minute or so, where a huge number
#: would run on for ever.
MAX_TRIALS = {"down_and_back": 1_000_000, "back_alley": 10_000}

#: The options only Down and Back uses, with their defaults.
_DB_DEFAULTS = {"opponents": None, "dead": None, "all": False}


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``advise`` subcommand."""
    parser = commands.add_parser(
        "advise", help=gettext("odds of each split of seven cards (Down and Back) or of each bid "
                               "(Back Alley)"))
    parser.add_argument("game", help=gettext("the game: {games} (any case, - or _)").format(
        games=gettext(" or ").join(GAME_NAMES)))
    parser.add_argument("cards", nargs="+",
                        help=gettext("your cards, such as 8S 8H 8D QH 5C 6C 7C"))
    parser.add_argument("--trials", type=int, metavar="N",
                        help=gettext("deals (Down and Back, default 10000, at most {db}) or "
                                     "rollouts (Back Alley, default 200, at most {ba}) to sample")
                        .format(db=MAX_TRIALS["down_and_back"], ba=MAX_TRIALS["back_alley"]))
    parser.add_argument("--seed", type=int, metavar="S", help=gettext("seed of the sampling"))
    parser.add_argument("--json", action="store_true",
                        help=gettext("print JSON instead of a table"))
    parser.add_argument("--opponents", type=int, metavar="N",
                        help=gettext("Down and Back: opponents at the table, 1 to 4 (default 3)"))
    parser.add_argument("--dead", metavar="CARDS",
                        help=gettext("Down and Back: cards known to be out of play, such as "
                                     "'2S 9H KD'"))
    parser.add_argument("--all", action="store_true",
                        help=gettext("Down and Back: all 35 splits, not only the undominated "
                                     "ones"))
    advise_back_alley.add_arguments(parser)
    parser.set_defaults(handler=run)


def check_trials(rules_name: str, trials: int | None) -> None:
    """Refuse ``--trials`` above the game's :data:`MAX_TRIALS`.

    >>> check_trials("back_alley", 10**12)
    Traceback (most recent call last):
    ...
    ValueError: --trials is at most 10000 for Back Alley, not 1000000000000
    """
    most = MAX_TRIALS[rules_name]
    if trials is not None and trials > most:
        from cardrules.engine.presenter import game_title
        from cardrules.engine.registry import rules_for

        raise ValueError(gettext("--trials is at most {most} for {game}, not {trials}").format(
            most=most, game=game_title(rules_for(rules_name)), trials=trials))


def run(args: argparse.Namespace) -> int:
    """Print the advice for the game named on the command line (any case,
    ``-`` or ``_``)."""
    from cardrules.engine.registry import rules_for

    rules = rules_for(args.game)
    if rules.name not in MAX_TRIALS:
        from cardrules.engine.presenter import game_title

        raise ValueError(gettext("advise has no advice for {game}").format(game=game_title(rules)))
    check_trials(rules.name, args.trials)
    if rules.name == "back_alley":
        given = [f"--{name}" for name, default in _DB_DEFAULTS.items()
                 if getattr(args, name, default) != default]
        if given:
            raise ValueError(gettext("{options}: Down and Back options, not for back-alley")
                             .format(options=", ".join(given)))
        return advise_back_alley.run(args)
    return _down_and_back(args)


#: Options of the Back Alley half; refused for Down and Back when given.
_BA_OPTIONS = ("trump", "bids", "seat", "dealer", "exchanger")


def _down_and_back(args: argparse.Namespace) -> int:
    from cardrules.down_and_back.analysis import DEFAULT_TRIALS, split_odds

    given = [f"--{name}" for name in _BA_OPTIONS if getattr(args, name, None) is not None]
    if given:
        raise ValueError(gettext("{options}: Back Alley options, not for down-and-back")
                         .format(options=", ".join(given)))
    opponents = 3 if args.opponents is None else args.opponents
    trials = DEFAULT_TRIALS if args.trials is None else args.trials
    odds = split_odds(" ".join(args.cards), opponents, dead=args.dead or "", trials=trials,
                      seed=args.seed, pareto=not args.all)
    if args.json:
        with language("en"):  # a machine format: the same in every language
            data = _as_json(odds, opponents, args.seed)
        print(json.dumps(data, indent=2))
        return 0
    first = odds[0]
    if first.exact:
        how = ngettext("every one of {n} deals listed (exact)",
                       "every one of {n} deals listed (exact)", first.trials)
    elif args.seed is None:
        how = ngettext("{n} deals sampled", "{n} deals sampled", first.trials)
    else:
        how = ngettext("{n} deals sampled, seed {seed}", "{n} deals sampled, seed {seed}",
                       first.trials)
    how = how.format(n=first.trials, seed=args.seed)
    title = (ngettext("All splits against {n} opponent, best first; {how}",
                      "All splits against {n} opponents, best first; {how}", opponents)
             if args.all else
             ngettext("Undominated splits against {n} opponent, best first; {how}",
                      "Undominated splits against {n} opponents, best first; {how}", opponents))
    _table(title.format(n=opponents, how=how), odds)
    return 0


def _as_json(odds: Sequence[SplitOdds], opponents: int,
             seed: int | None) -> dict[str, object]:
    return {
        "game": "down-and-back", "opponents": opponents, "seed": seed,
        "trials": odds[0].trials, "exact": odds[0].exact,
        "splits": [{"down": [str(c) for c in o.split.down],
                    "back": [str(c) for c in o.split.back],
                    "down_hand": o.down.description, "back_hand": o.back.description,
                    "p_down": o.p_down, "p_back": o.p_back, "p_both": o.p_both,
                    "se_down": o.se_down, "se_back": o.se_back, "se_both": o.se_both}
                   for o in odds],
    }


def _cell(p: float, se: float, exact: bool) -> str:
    return f"{p:.3f}" if exact else f"{p:.3f} ± {se:.3f}"


def _table(title: str, odds: Sequence[SplitOdds]) -> None:
    headers = ("#", gettext("down hand"), gettext("back hand"), gettext("down wins"),
               gettext("back wins"), gettext("pot (both)"))
    rows = [(str(n), str(o.down), str(o.back), _cell(o.p_down, o.se_down, o.exact),
             _cell(o.p_back, o.se_back, o.exact), _cell(o.p_both, o.se_both, o.exact))
            for n, o in enumerate(odds, 1)]
    print_table(title, headers, rows, left=(1, 2))
