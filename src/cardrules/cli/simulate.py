"""``cardrules simulate [GAME]``: bots play many games; the tallies are printed.

With rich installed (``pip install "cardrules[cli]"``) a progress bar runs on
standard error and the tables are drawn by rich; without it the tables are
plain text and one line on standard error says what to install.
``--json`` saves (or prints, with ``-``) :meth:`SimulationResult.to_dict
<cardrules.simulation.SimulationResult.to_dict>`, and ``--plot`` draws the
charts of :func:`cardrules.simulation.plot.plot_result`.  What may be asked
for is bounded (the limits of :func:`cardrules.simulate`) and checked, with
the bots and the paths, before any game is played.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from cardrules.cli import _games, _options, _output, _parser
from cardrules.engine.presenter import game_title
from cardrules.engine.registry import rules_for
from cardrules.engine.tally import Table
from cardrules.i18n import N_, gettext, ngettext
from cardrules.simulation.run import ENGINES, MAX_GAMES, MAX_WORKERS

if TYPE_CHECKING:
    from cardrules.simulation import SeatTally, SimulationResult

#: What to install for the progress bar and the drawn tables (shown through ``gettext``).
RICH_HINT = N_('cardrules: for a progress bar and drawn tables: pip install "cardrules[cli]"')


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` subcommand."""
    parser = commands.add_parser(
        "simulate",
        help=gettext("let bots play many games; print wins, means and game statistics"))
    parser.add_argument("game", nargs="?", default=_games.DEFAULT_GAME,
                        help=gettext("the game: {games} (default {default})").format(
                            games=_parser.GAMES_MARK, default=_games.DEFAULT_GAME))
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help=gettext("the number of games, 1 to {most} (default 100)").format(
                            most=f"{MAX_GAMES:,}"))
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help=gettext("the master seed; each game's seeds derive from it "
                                     "(default 0)"))
    parser.add_argument("--bots", default="random",
                        help=gettext("{bots}; default random").format(
                            bots=gettext(_parser.BOTS_HELP)))
    parser.add_argument("--rotate", action="store_true",
                        help=gettext("play duplicate: every deal once in each seating of the bots, "
                                     "so the margins compare bots on the same cards (GAMES must "
                                     "be a multiple of the seatings)"))
    parser.add_argument("--engine", choices=ENGINES, default="reducer",
                        help=gettext("reducer: each game by the game's rules (default); vector: "
                                     "the batch engine, games in batches of 1,024 (random bots "
                                     "only, needs numpy; equal to the reducer in distribution, "
                                     "not game for game)"))
    parser.add_argument("--workers", type=int, metavar="W",
                        help=gettext("worker processes, 1 to {most} (default: one per core; "
                                     "1 plays here)").format(most=MAX_WORKERS))
    _options.add_settings_options(parser)
    _options.add_hand_size_option(parser)
    parser.add_argument("--json", metavar="FILE",
                        help=gettext("save the result as JSON (- prints it instead of the "
                                     "tables)"))
    parser.add_argument("--plot", metavar="FILE",
                        help=gettext("draw the charts into FILE, a .png, .svg or .pdf file "
                                     "(needs matplotlib)"))
    parser.set_defaults(handler=run)


def _check(args: argparse.Namespace) -> None:
    """Refuse bad options before any game is played."""
    if not 1 <= args.games <= MAX_GAMES:
        raise ValueError(gettext("--games must be from 1 to {most}, not {number}").format(
            most=f"{MAX_GAMES:,}", number=_options.shown_number(args.games)))
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise ValueError(gettext("--workers must be from 1 to {most}, not {number}").format(
            most=MAX_WORKERS, number=_options.shown_number(args.workers)))
    if args.plot is not None:
        from cardrules.simulation.plot import chart_format

        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ValueError(gettext('--plot needs matplotlib: pip install "cardrules[plot]"')
                             ) from None
        _options.check_record_path(args.plot, "--plot")
        try:
            chart_format(args.plot)
        except ValueError:
            raise ValueError(gettext("--plot {path}: the name must end in .png, .svg or .pdf "
                                     "(the format of the charts)").format(path=args.plot)) from None
    if args.json is not None and args.json != "-":
        _options.check_record_path(args.json, "--json")


def _settings(args: argparse.Namespace) -> dict[str, int | None]:
    """The settings of the options, as ``play`` reads them (``--bots`` does not
    set the number of players: a list of names must have one per seat)."""
    return _options.settings_of(rules_for(args.game), args)


def _rich() -> Any:
    try:
        import rich
    except ImportError:
        return None
    return rich


def run(args: argparse.Namespace) -> int:
    """Simulate the games the options describe; print or save the result."""
    from cardrules.simulation import simulate

    rules = rules_for(args.game)
    _check(args)
    settings = _settings(args)
    seats = len(rules.returns(rules.new_game_from_settings(settings)))
    kinds = _games.bot_kinds(rules, args.bots, seats)
    rich = _rich()
    if rich is None:
        print(gettext(RICH_HINT), file=sys.stderr)
    progress: Any = None
    if rich is not None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )

        progress = Progress(TextColumn("[progress.description]{task.description}"),
                            BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                            TimeRemainingColumn(), console=Console(stderr=True),
                            transient=True)
    update = None
    if progress is not None:
        task = progress.add_task(gettext("{game}: games").format(game=game_title(rules)),
                                 total=args.games)

        def update(done: int, total: int) -> None:
            # The bar is shown from the first game on: a request that
            # simulate() refuses leaves nothing on the terminal but its
            # one-line refusal.
            if not progress.live.is_started:
                progress.start()
            progress.update(task, completed=done)

    try:
        result = simulate(rules, args.games, args.seed, kinds, settings,
                          workers=args.workers, progress=update, rotate=args.rotate,
                          engine=args.engine)
    finally:
        if progress is not None and progress.live.is_started:
            progress.stop()
    if args.json == "-":
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print_tables(result, rich)
        if args.json is not None:
            with open(args.json, "w", encoding="utf-8") as file:
                json.dump(result.to_dict(), file, indent=2)
                file.write("\n")
            print(gettext("result written to {path}").format(path=args.json))
    if args.plot is not None:
        from cardrules.simulation.plot import plot_result

        plot_result(result, args.plot)
        print(gettext("charts written to {path}").format(path=args.plot),
              file=sys.stderr if args.json == "-" else None)
    return 0


def _value(x: float) -> str:
    return f"{x:+.2f}"


def tables(result: SimulationResult) -> list[Table]:
    """The summary as tables: the seats, the bots, the margins, then the
    game's own tables (from its tally)."""
    rules = result.rules
    unit = gettext("value") if rules is None else gettext(rules.return_unit)
    title = result.game if rules is None else game_title(rules)
    headers = (gettext("games"), gettext("wins"), gettext("ties"), gettext("losses"),
               gettext("win %"), gettext("mean"), gettext("std"))

    def cells(tally: SeatTally) -> tuple[str, ...]:
        return (str(tally.games), str(tally.wins), str(tally.ties), str(tally.losses),
                f"{tally.win_rate:.1%}", _value(tally.mean), f"{tally.std:.2f}")

    found: list[Table] = []
    settings = ", ".join(f"{k} {v}" for k, v in result.settings)
    found.append(Table(ngettext("{game}: {n} games, seed {seed} ({settings}); mean and std of "
                                "{unit}",
                                "{game}: {n} games, seed {seed} ({settings}); mean and std of "
                                "{unit}", result.games).format(
                                 game=title, n=result.games, seed=result.seed,
                                 settings=settings, unit=unit),
                       (gettext("seat"), gettext("bot"), *headers),
                       tuple((str(s), kind, *cells(t)) for s, (kind, t)
                             in enumerate(zip(result.bots, result.seats, strict=True))),
                       names=2))
    if len(result.by_bot) > 1:
        found.append(Table(gettext("Per bot (seat-games)"), (gettext("bot"), *headers),
                           tuple((kind, *cells(t)) for kind, t in result.by_bot)))
    if result.margins:
        rotations = result.margins[0].rotations
        per = (ngettext("per group of {n} games on the same cards",
                        "per group of {n} games on the same cards", rotations).format(n=rotations)
               if result.rotate else gettext("per game"))
        found.append(Table(gettext("Margins: each bot's mean {unit} minus the other seats' mean, "
                                   "{per} (95% interval)").format(unit=unit, per=per),
                           (gettext("bot"), gettext("seats"), gettext("margin"), gettext("low"),
                            gettext("high"), gettext("se")),
                           tuple((m.bot, str(m.seats), _value(m.mean), _value(m.interval[0]),
                                  _value(m.interval[1]), f"{m.standard_error:.2f}")
                                 for m in result.margins)))
    if result.details is not None:
        found.extend(result.details.tables())
    return found


def print_tables(result: SimulationResult, rich: Any = None) -> None:
    """Print the summary tables, drawn by rich when ``rich`` is the module."""
    found = [(t.title, t.headers, t.rows, range(t.names)) for t in tables(result)]
    if rich is None:
        print("\n\n".join(_output.plain_table(*table) for table in found))
        return
    from rich.console import Console

    console = Console()
    for table in found:
        console.print(_output.rich_table(*table))
