"""Tests of the ``cardrules`` command written for survivors of the sampled
mutation run over its rewritten modules (``tools/mutation.py``, seed 31;
issue 14 section 5): each one pins an outcome that a small slip would change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrules.cli import _common, main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_rich_tables_put_the_named_columns_on_the_left() -> None:
    """The text columns (``left``) are flush left, the numbers flush right."""
    pytest.importorskip("rich")
    table = _common.rich_table("T", ["seat", "bot", "wins"], [["0", "greedy", "2"]],
                               left=(1,))
    assert [column.justify for column in table.columns] == ["right", "left", "right"]
    table = _common.rich_table("T", ["bot", "wins"], [["greedy", "2"]])
    assert [column.justify for column in table.columns] == ["left", "right"]


_SIM = ["simulate", "--games", "2", "--seed", "3", "--rounds", "1", "--workers", "1",
        "--players", "2"]


def test_with_json_on_standard_output_the_chart_message_goes_to_standard_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--json -`` keeps standard output for the JSON alone, so the line
    saying where the charts went is on standard error; else on standard output."""
    pytest.importorskip("matplotlib")
    target = tmp_path / "charts.png"
    status, out, err = run(capsys, *_SIM, "--json", "-", "--plot", str(target))
    assert status == 0
    assert json.loads(out)["games"] == 2
    assert f"charts written to {target}" in err
    status, out, err = run(capsys, *_SIM, "--plot", str(target))
    assert status == 0
    assert f"charts written to {target}" in out
    assert "charts written" not in err


def test_the_progress_bar_leaves_nothing_behind(capsys: pytest.CaptureFixture[str]) -> None:
    """The bar is transient: once the games are played, standard error holds
    nothing of it (the tables alone are the output)."""
    pytest.importorskip("rich")
    status, out, err = run(capsys, *_SIM)
    assert status == 0
    assert "Down and Back: 2 games" in out
    assert err.strip() == ""   # (rich may end its live display with a bare newline)
