"""Charts of a simulation (``cardrules simulate --plot``); needs matplotlib.

:func:`plot_result` draws two charts side by side: how the final values
were spread (``Rules.returns``, in the game's ``return_unit``: net chips in
Down and Back, team points in Back Alley), one histogram per bot name (per
seat, or per team of the game's tally, when every seat has the same bot);
and the game's own chart, drawn by its tally (:meth:`Tally.chart
<cardrules.engine.tally.Tally.chart>`: the categories that won the down and
the back showdowns in Down and Back, how often each kind of contract was
made and set in Back Alley).  A game without a tally gets the histograms
alone.  It draws on a bare matplotlib
figure with the Agg canvas, so it never opens a window or changes
matplotlib's global state.  Without matplotlib it raises
:class:`ImportError` naming ``pip install "cardrules[plot]"``.  It saves
PNG, SVG or PDF files, as the file name's ending says (:func:`chart_format`).

>>> from cardrules.simulation import simulate
>>> result = simulate("down-and-back", games=3, seed=1, workers=1, settings={"rounds": 2})
>>> figure = plot_result(result)
>>> [axes.get_title() for axes in figure.axes]
['Net chips per game', 'Winning categories']
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from cardrules.simulation.result import SeatTally, SimulationResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["FORMATS", "INSTALL_HINT", "chart_format", "plot_result"]

#: What to install for the charts.
INSTALL_HINT = 'pip install "cardrules[plot]"'
#: The file formats :func:`plot_result` saves, named by the file name's ending.
FORMATS = ("png", "svg", "pdf")


def chart_format(path: str | os.PathLike[str]) -> str:
    """The format :func:`plot_result` saves ``path`` in: its ending, one of
    :data:`FORMATS` (in any case); :class:`ValueError` for any other name, so
    that a chart is never written under a name that says something else.

    >>> chart_format("charts.png"), chart_format("out/Charts.SVG"), chart_format("c.pdf")
    ('png', 'svg', 'pdf')
    >>> chart_format("charts.txt")
    Traceback (most recent call last):
    ...
    ValueError: charts.txt: the chart file's name must end in .png, .svg or .pdf
    """
    name = os.fspath(path)
    suffix = os.path.splitext(name)[1].lower().lstrip(".")
    if suffix not in FORMATS:
        endings = ", ".join(f".{f}" for f in FORMATS[:-1]) + f" or .{FORMATS[-1]}"
        raise ValueError(f"{name}: the chart file's name must end in {endings}")
    return suffix


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ImportError(f"the charts need matplotlib: {INSTALL_HINT}") from None


def _groups(result: SimulationResult) -> list[tuple[str, SeatTally]]:
    by_bot = result.by_bot
    if len(by_bot) > 1:
        return [(name, tally) for name, tally in by_bot]
    rules = result.rules
    tally = None if rules is None else rules.tally
    teams = () if tally is None else tally.teams(len(result.seats))
    if teams and all(len(team) > 1 for team in teams):  # partners share their values
        return [(f"team {t} (seats {', '.join(map(str, team))})", result.seats[team[0]])
                for t, team in enumerate(teams)]
    return [(f"seat {s}", tally) for s, tally in enumerate(result.seats)]


def _histograms(axes: Axes, result: SimulationResult) -> None:
    rules = result.rules
    unit = "value" if rules is None else rules.return_unit
    low = min(v for seat in result.seats for v, _ in seat.values)
    high = max(v for seat in result.seats for v, _ in seat.values)
    bins = max(1, min(40, high - low + 1))
    for label, tally in _groups(result):
        axes.hist([v for v, _ in tally.values], weights=[c for _, c in tally.values],
                  bins=bins, range=(low - 0.5, high + 0.5), histtype="step", linewidth=1.5,
                  label=f"{label}: mean {tally.mean:+.1f}")
    axes.set_title(f"{unit.capitalize()} per game")
    axes.set_xlabel(unit)
    axes.set_ylabel("games")
    axes.legend(fontsize="small")


def plot_result(result: SimulationResult,
                path: str | os.PathLike[str] | None = None) -> Any:
    """Draw the charts of ``result``; save them to ``path`` if given, as PNG,
    SVG or PDF by the name's ending (any other name is refused with
    :class:`ValueError` before anything is drawn; see :func:`chart_format`).

    Returns the ``matplotlib.figure.Figure`` (typed ``Any``, so that
    matplotlib is needed only by those who draw).

    >>> import io
    >>> from cardrules.simulation import simulate
    >>> result = simulate("back-alley", games=2, workers=1, settings={"max_hand_size": 2})
    >>> figure = plot_result(result)
    >>> figure.axes[1].get_title()
    'Contracts made and set'
    """
    fmt = None if path is None else chart_format(path)
    _require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    details = result.details
    figure = Figure(figsize=(11 if details is not None else 6, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    if details is None:
        _histograms(figure.subplots(), result)
    else:
        left, right = figure.subplots(1, 2)
        _histograms(left, result)
        details.chart(right)
    bots = ", ".join(result.bots)
    rules = result.rules
    title = result.game if rules is None else rules.title
    figure.suptitle(f"{title}: {result.games} games, "
                    f"bots {bots}, seed {result.seed}")
    if path is not None:
        figure.savefig(os.fspath(path), format=fmt, dpi=100)
    return figure
