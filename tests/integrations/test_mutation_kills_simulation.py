"""Simulation tests written for survivors of the sampled mutation run
(``tools/mutation.py``, issue 14 section 5): each one pins an outcome that a
small slip in the code would change."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardrules.back_alley.tally import BackAlleyTally
from cardrules.down_and_back.tally import DownAndBackTally
from cardrules.simulation import simulate
from cardrules.simulation.plot import plot_result
from cardrules.simulation.result import SimulationResult

pytest.importorskip("matplotlib")


def _outline_edges(result: SimulationResult, figure: object) -> None:
    """Every histogram outline spans the values +- 0.5 in at most 40 bins."""
    left = figure.axes[0]  # type: ignore[attr-defined]
    low = min(v for seat in result.seats for v, _ in seat.values)
    high = max(v for seat in result.seats for v, _ in seat.values)
    bins = max(1, min(40, high - low + 1))
    assert left.patches
    for patch in left.patches:
        xs = np.unique(patch.get_path().vertices[:, 0])
        assert len(xs) == bins + 1
        assert xs.min() == pytest.approx(low - 0.5)
        assert xs.max() == pytest.approx(high + 0.5)


def test_back_alley_charts_show_team_points_and_contracts(tmp_path: Path) -> None:
    result = simulate("back-alley", games=6, seed=3, workers=1, settings={"max_hand_size": 3})
    target = tmp_path / "chart.png"
    figure = plot_result(result, target)
    assert target.read_bytes().startswith(b"\x89PNG")
    assert tuple(figure.get_size_inches()) == (11.0, 4.5)
    assert len(figure.axes) == 2
    assert figure._suptitle.get_text() == (
        "Back Alley: 6 games, bots random, random, random, random, seed 3")
    left, right = figure.axes
    # Partners share their team's points (BA-40): one line per team.
    assert [t.get_text() for t in left.get_legend().get_texts()] == [
        f"team {t} (seats {t}, {t + 2}): mean {result.seats[t].mean:+.1f}" for t in (0, 1)]
    assert (left.get_title(), left.get_xlabel(), left.get_ylabel()) == (
        "Team points per game", "team points", "games")
    _outline_edges(result, figure)
    details = result.details
    assert isinstance(details, BackAlleyTally)
    n = len(details.contracts)
    bars = right.patches
    assert len(bars) == 2 * n
    assert [b.get_height() for b in bars[:n]] == [c.made for c in details.contracts]
    assert [b.get_y() for b in bars[:n]] == [0] * n
    assert [b.get_height() for b in bars[n:]] == [c.failed for c in details.contracts]
    assert [b.get_y() for b in bars[n:]] == [c.made for c in details.contracts]
    assert right.get_title() == "Contracts made and set"
    assert (right.get_xlabel(), right.get_ylabel()) == ("contract", "team deals")


def test_down_and_back_charts_show_each_bot_and_the_winning_categories() -> None:
    result = simulate("down-and-back", games=6, seed=3, workers=1, bots=["greedy", "random"])
    figure = plot_result(result)
    assert figure._suptitle.get_text() == "Down and Back: 6 games, bots greedy, random, seed 3"
    left, right = figure.axes
    assert [t.get_text() for t in left.get_legend().get_texts()] == [
        f"{name}: mean {tally.mean:+.1f}" for name, tally in result.by_bot]
    assert left.get_legend().get_texts()[0].get_text().startswith("greedy")
    assert left.get_xlabel() == "net chips"
    _outline_edges(result, figure)
    details = result.details
    assert isinstance(details, DownAndBackTally)
    names = [name for name, _ in details.down_wins]
    back = dict(details.back_wins)
    n = len(names)
    bars = right.patches
    assert len(bars) == 2 * n
    # Two bars per category, centred 0.2 above and below its tick.
    centres = [round(b.get_y() + b.get_height() / 2, 6) for b in bars]
    assert centres == [round(p - 0.2, 6) for p in range(n)] + [round(p + 0.2, 6) for p in range(n)]
    assert all(b.get_height() == pytest.approx(0.4) for b in bars)
    assert [b.get_width() for b in bars[:n]] == [c for _, c in details.down_wins]
    assert [b.get_width() for b in bars[n:]] == [back.get(name, 0) for name in names]
    assert [t.get_text() for t in right.get_yticklabels()] == [
        name.replace("_", " ").lower() for name in names]
    assert right.yaxis_inverted()
    assert right.get_xlabel() == f"rounds won (pot carried over in {details.carry_rate:.0%})"


def test_one_bot_charts_have_a_line_per_seat_and_narrow_bins() -> None:
    # With one bot everywhere Down and Back draws a line per seat; a small
    # spread of values gets one bin per value.
    result = simulate("down-and-back", games=2, seed=5, workers=1)
    figure = plot_result(result)
    left = figure.axes[0]
    assert [t.get_text() for t in left.get_legend().get_texts()] == [
        f"seat {s}: mean {tally.mean:+.1f}" for s, tally in enumerate(result.seats)]
    _outline_edges(result, figure)


def test_a_single_value_gets_a_single_bin() -> None:
    # One seeded game of one round in which every seat ends at -1: the
    # histogram has one bin, centred on that value.
    result = simulate("down-and-back", games=1, seed=0, workers=1, settings={"rounds": 1})
    assert {v for seat in result.seats for v, _ in seat.values} == {-1}
    figure = plot_result(result)
    for patch in figure.axes[0].patches:
        assert list(np.unique(patch.get_path().vertices[:, 0])) == [-1.5, -0.5]
    _outline_edges(result, figure)


# -- result.py ---------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "tricks", "board"), [
    ("board", 0, 1), ("double board", 0, 2), ("quadruple board", 0, 4), ("0", 0, 0),
    ("3", 3, 0)])
def test_a_contract_that_never_occurred_is_an_empty_tally_of_its_kind(
        kind: str, tricks: int, board: int) -> None:
    # BA-24 contracts: a number of tricks (0 for two passes) or a board of a
    # level 1 to 4 (BA-23); one that never occurred tallies nothing.
    tally = BackAlleyTally(0, 0, ()).contract(kind)
    assert (tally.tricks, tally.board, tally.count, tally.made, tally.points) == (
        tricks, board, 0, 0, 0)
    assert tally.kind == kind
    assert tally.is_board is (board > 0)


@pytest.mark.parametrize("seed", ["7", True, 1.5, [1]])
def test_a_result_with_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    data = simulate("back-alley", games=1, seed=2, workers=1,
                    settings={"max_hand_size": 1}).to_dict()
    assert SimulationResult.from_dict(data).seed == 2
    data["seed"] = seed
    with pytest.raises(ValueError, match="'seed' must be a whole number or null"):
        SimulationResult.from_dict(data)
    data["seed"] = None
    assert SimulationResult.from_dict(data).seed is None


def test_tallies_are_slotted() -> None:
    # Tallies are small frozen records merged by the thousand: no
    # per-instance dictionary.
    result = simulate("back-alley", games=1, seed=2, workers=1, settings={"max_hand_size": 1})
    details = result.details
    assert isinstance(details, BackAlleyTally)
    for value in (result, details, *details.contracts, *result.seats):
        assert not hasattr(value, "__dict__"), type(value).__name__
