"""Tests of ``cardrules simulate``: tables, JSON, charts and refusals."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardrules.back_alley.tally import BackAlleyTally
from cardrules.cli import _output, main
from cardrules.down_and_back.tally import DownAndBackTally
from cardrules.simulation import SimulationResult, simulate

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DB_ARGS = ["simulate", "--games", "4", "--seed", "7", "--rounds", "2", "--workers", "1",
           "--players", "3", "--bots", "greedy,random,random"]
BA_ARGS = ["simulate", "back-alley", "--games", "3", "--seed", "2", "--max-hand-size", "2",
           "--workers", "1", "--bots", "heuristic"]


def _expected_db() -> SimulationResult:
    return simulate("down-and-back", games=4, seed=7, bots=["greedy", "random", "random"],
                    settings={"rounds": 2}, workers=1)


def _without(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``import module`` fail, as if the extra were not installed."""
    for module in modules:
        for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
            monkeypatch.delitem(sys.modules, name)
        monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize("rich", [True, False], ids=["rich", "plain"])
def test_the_tables_show_the_result(rich: bool, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    if not rich:
        _without(monkeypatch, "rich")
    assert main(DB_ARGS) == 0
    out, err = capsys.readouterr()
    result = _expected_db()
    details = result.details
    assert isinstance(details, DownAndBackTally)
    assert "Down and Back: 4 games, seed 7" in out
    assert "net chips" in out
    for seat, tally in enumerate(result.seats):
        row = next(line for line in out.splitlines()
                   if re.match(rf"\W*{seat}\W+{result.bots[seat]}\W", line))
        numbers = re.findall(r"[-+]?\d+(?:\.\d+)?%?", row)
        assert numbers[1:6] == [str(tally.games), str(tally.wins), str(tally.ties),
                                str(tally.losses), f"{tally.win_rate:.1%}"]
        assert f"{tally.mean:+.2f}" in row
        assert f"{tally.std:.2f}" in row
    assert f"{details.rounds} rounds, pot carried over in {details.carries}" in out
    run_row = next(line for line in out.splitlines() if "RUN" in line)
    assert re.findall(r"\d+", run_row) == [str(dict(details.down_wins)["RUN"]),
                                            str(dict(details.back_wins)["RUN"])]
    assert "Per bot" in out
    hint = 'pip install "cardrules[cli]"'
    if rich:
        assert hint not in err
        assert "┃" in out  # drawn by rich
    else:
        assert err.count(hint) == 1
        assert "┃" not in out


def test_back_alley_tables_show_the_contracts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(BA_ARGS) == 0
    out = capsys.readouterr().out
    result = simulate("back-alley", games=3, seed=2, bots="heuristic",
                      settings={"max_hand_size": 2}, workers=1)
    details = result.details
    assert isinstance(details, BackAlleyTally)
    assert f"Contracts: {details.deals} deals, {details.throw_ins} thrown in" in out
    contracts = out[out.index("Contracts:"):].splitlines()
    for contract in details.contracts:
        row = next(line for line in contracts if re.match(rf"\W*{contract.kind}\W", line))
        assert re.findall(r"[-+]?\d+(?:\.\d+)?%?", row)[-5:] == [
            str(contract.count), str(contract.made), str(contract.failed),
            f"{contract.make_rate:.1%}", f"{contract.points:+d}"]
    assert "mean and std of team points" in out


def test_json_to_a_file_and_to_standard_output(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "result.json"
    assert main([*DB_ARGS, "--json", str(target)]) == 0
    out = capsys.readouterr().out
    assert f"result written to {target}" in out
    data = json.loads(target.read_text("utf-8"))
    assert SimulationResult.from_dict(data) == _expected_db()
    assert data["seats"][0]["bot"] == "greedy"

    assert main([*DB_ARGS, "--json", "-"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == data  # only the JSON on standard output


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "charts.png"
    assert main([*BA_ARGS, "--plot", str(target)]) == 0
    assert target.read_bytes()[:8] == PNG_MAGIC
    assert f"charts written to {target}" in capsys.readouterr().out


def test_plot_without_matplotlib_is_refused_before_simulating(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _without(monkeypatch, "matplotlib")
    played: list[object] = []
    monkeypatch.setattr("cardrules.simulation.simulate",
                        lambda *a, **k: played.append(a))  # must not be reached
    target = tmp_path / "charts.png"
    assert main([*DB_ARGS, "--plot", str(target)]) == 2
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [
        'cardrules: --plot needs matplotlib: pip install "cardrules[plot]"']
    assert out == ""
    assert played == []
    assert not target.exists()


def test_plot_result_without_matplotlib_names_the_extra(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.simulation.plot import plot_result

    _without(monkeypatch, "matplotlib")
    with pytest.raises(ImportError, match=re.escape('pip install "cardrules[plot]"')):
        plot_result(_expected_db())


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--games", "0"], "--games must be from 1 to 1,000,000,000,000, not 0"),
    (["simulate", "--workers", "0"], "--workers must be from 1 to 256, not 0"),
    (["simulate", "go-fish"], "unknown game"),
    (["simulate", "--bots", "clever"], "--bots is one of random, greedy"),
    (["simulate", "back-alley", "--rounds", "3"], "Back Alley has no setting for --rounds"),
    (["simulate", "--max-hand-size", "3"], "Down and Back has no setting for --max-hand-size"),
    (["simulate", "back-alley", "--max-hand-size", "14"], "max_hand_size must be"),
    (["simulate", "--players", "6"], "2 to 5 players, not 6"),
    (["simulate", "--json", ""], "--json needs a file name"),
    (["simulate", "--plot", "/no/such/folder/x.png"], "--plot /no/such/folder/x.png: the folder"),
])
def test_bad_options_print_one_line_and_exit_2(args: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "--workers", "1"] if "--workers" not in args else args) == 2
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if "cardrules[cli]" not in line]
    assert len(lines) == 1
    assert message in lines[0]
    assert out == ""


def test_a_malformed_number_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--games", "many"])
    assert stop.value.code == 2
    assert "invalid int value: 'many'" in capsys.readouterr().err


def test_rotate_plays_duplicate_and_prints_the_paired_margins(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "down-and-back", "--games", "4", "--seed", "3", "--bots",
            "greedy,random", "--players", "2", "--rounds", "1", "--workers", "1", "--rotate"]
    assert main([*args, "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = simulate("down-and-back", games=4, seed=3, bots=["greedy", "random"],
                        settings={"rounds": 1}, workers=1, rotate=True)
    assert SimulationResult.from_dict(data) == expected
    assert data["rotate"] is True
    assert data["margins"][0]["rotations"] == 2
    assert main(args) == 0
    out = " ".join(capsys.readouterr().out.split())   # titles may wrap
    assert "per group of 2 games on the same cards" in out
    assert f"{expected.margins[0].mean:+.2f}" in out
    assert main([*args[:3], "3", *args[4:]]) == 2      # 3 games: not whole groups
    assert "multiple of 2" in capsys.readouterr().err


def test_the_margins_table_gives_each_margin_its_low_and_high_bounds() -> None:
    from cardrules.cli.simulate import tables

    result = simulate("down-and-back", games=12, seed=3, bots=["random", "greedy", "random"],
                      settings={"rounds": 1}, workers=1, rotate=True)
    margins = [t for t in tables(result) if t.title.startswith("Margins")]
    assert len(margins) == 1
    for row, margin in zip(margins[0].rows, result.margins, strict=True):
        low, high = margin.interval
        assert low < high
        assert row[2:5] == (f"{margin.mean:+.2f}", f"{low:+.2f}", f"{high:+.2f}")


def test_the_most_games_allowed_are_not_refused() -> None:
    # Only checked: a trillion games are not played here.
    import argparse

    from cardrules.cli.simulate import _check
    from cardrules.simulation.run import MAX_GAMES

    for games in (1, MAX_GAMES):
        _check(argparse.Namespace(games=games, workers=None, plot=None, json=None))
    with pytest.raises(ValueError, match="--games must be from 1 to 1,000,000,000,000"):
        _check(argparse.Namespace(games=MAX_GAMES + 1, workers=None, plot=None, json=None))


def test_a_hundred_games_unless_told(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "result.json"
    assert main(["simulate", "down-and-back", "--players", "2", "--rounds", "1",
                 "--workers", "1", "--json", str(path)]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["games"] == 100


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "1000000000001"], "--games must be from 1 to 1,000,000,000,000, "
                                   "not 1000000000001"),
    (["--games", "99999999999999999999999"], "--games must be from 1 to 1,000,000,000,000"),
    (["--games", "9" * 4000], "not a number of 4000 digits"),
    (["--workers", "257"], "--workers must be from 1 to 256, not 257"),
    (["--rounds", "10001"], "--rounds must be from 1 to 10,000, not 10001"),
    (["--rounds", str(10**18)], "--rounds must be from 1 to 10,000, not 1000000000000000000"),
    (["--rounds", "0"], "--rounds must be from 1 to 10,000, not 0"),
])
def test_what_may_be_asked_for_is_bounded(args: list[str], message: str,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # --games 10**12 used to die with a MemoryError traceback, and 10**23 to grow
    # without end; --rounds 10**18 ran for ever.
    played: list[object] = []
    monkeypatch.setattr("cardrules.simulation.simulate",
                        lambda *a, **k: played.append(a))  # must not be reached
    assert main(["simulate", *args, "--workers", "1"] if "--workers" not in args
                else ["simulate", *args]) == 2
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line and "cardrules[cli]" not in line]
    assert len(lines) == 1
    assert lines[0].startswith("cardrules: ")
    assert message in lines[0]
    assert len(lines[0]) < 120
    assert out == ""
    assert played == []


@pytest.mark.parametrize("bots", ["greedy,random", "greedy,random,random,random,random"])
def test_a_list_of_bots_must_fit_the_table_as_in_play(
        bots: str, capsys: pytest.CaptureFixture[str]) -> None:
    # --bots greedy,random used to play a 2-player game silently; play refuses it.
    assert main(["play", "--bots", bots, "--rounds", "1"]) == 2
    refused_by_play = capsys.readouterr().err.strip()
    assert main(["simulate", "--bots", bots, "--games", "1", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line and "cardrules[cli]" not in line]
    assert lines == [refused_by_play]
    assert "one name per seat (4 seats)" in refused_by_play
    # With --players the list fits, in both commands.
    seats = str(len(bots.split(",")))
    assert main(["simulate", "--bots", bots, "--players", seats, "--games", "1",
                 "--rounds", "1", "--workers", "1", "--json", "-"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == bots.split(",")


@pytest.mark.parametrize("name", ["charts.txt", "charts", "charts.png.bak", "charts.jpg"])
def test_plot_refuses_a_name_that_is_not_a_chart_format(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # --plot p.txt used to write a PNG into p.txt.
    played: list[object] = []
    monkeypatch.setattr("cardrules.simulation.simulate",
                        lambda *a, **k: played.append(a))  # must not be reached
    target = tmp_path / name
    assert main([*DB_ARGS, "--plot", str(target)]) == 2
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [
        f"cardrules: --plot {target}: the name must end in .png, .svg or .pdf "
        "(the format of the charts)"]
    assert out == ""
    assert played == []
    assert not target.exists()


@pytest.mark.parametrize(("name", "magic"), [
    ("charts.svg", b"<?xml"), ("charts.PDF", b"%PDF-"), ("charts.Png", PNG_MAGIC)])
def test_plot_writes_the_format_the_name_ends_in(name: str, magic: bytes, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / name
    assert main([*BA_ARGS, "--plot", str(target)]) == 0
    assert target.read_bytes().startswith(magic)
    assert f"charts written to {target}" in capsys.readouterr().out


def test_plot_result_refuses_a_name_it_cannot_honour(tmp_path: Path) -> None:
    from cardrules.simulation.plot import chart_format, plot_result

    target = tmp_path / "p.txt"
    with pytest.raises(ValueError, match=r"must end in \.png, \.svg or \.pdf"):
        plot_result(_expected_db(), target)
    assert not target.exists()
    assert chart_format(tmp_path / "p.svg") == "svg"


def test_a_saved_png_chart_is_drawn_at_100_dots_an_inch(tmp_path: Path) -> None:
    # 11 by 4.5 inches (a game with its own chart beside the histograms).
    pytest.importorskip("matplotlib")
    from cardrules.simulation.plot import plot_result

    target = tmp_path / "charts.png"
    plot_result(_expected_db(), target)
    header = target.read_bytes()[:24]   # the PNG signature, then IHDR: width, height
    assert (int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")) == \
        (1100, 450)


#: The console script's entry point, with Python's Ctrl-C handler installed
#: even when the test runner was started with SIGINT ignored (as in a
#: background job).
_COMMAND = [sys.executable, "-c",
            "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from cardrules.cli import run; run()"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a pty and /proc")
def test_ctrl_c_stops_a_run_on_two_workers_at_once() -> None:
    pytest.importorskip("rich")
    # 2000 games of 200 rounds on two workers take minutes, and a chunk of them
    # (250 games) far more than the 10 s allowed below: the command used to wait
    # for the running chunks.  The progress bar goes to a pseudo-terminal, where
    # rich draws it, so the test can wait for the first games to be counted.
    leader, follower = os.openpty()
    process = subprocess.Popen(
        [*_COMMAND, "simulate", "--games", "2000", "--rounds", "200", "--workers", "2",
         "--seed", "1"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=follower,
        env={**os.environ, "COLUMNS": "120", "LINES": "24"})
    os.close(follower)
    seen = b""
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 300
        while not re.search(rb"\b[1-9]\d*/2000\b", seen):
            assert time.monotonic() < deadline, f"no progress shown: {seen[-500:]!r}"
            assert process.poll() is None, f"the command ended: {seen[-500:]!r}"
            ready, _, _ = select.select([leader], [], [], 1)
            if ready:
                seen += os.read(leader, 65536)
        workers = _children(process.pid)
        process.send_signal(signal.SIGINT)
        try:
            status = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail("Ctrl-C did not stop the command within 10 s")
        assert status == 130
        while select.select([leader], [], [], 0.5)[0]:
            try:
                chunk = os.read(leader, 65536)
            except OSError:   # the other end is closed
                break
            if not chunk:
                break
            seen += chunk
        assert b"cardrules: interrupted" in seen
        assert b"Traceback" not in seen
        assert process.stdout is not None
        assert process.stdout.read() == b""   # no tables
        assert workers   # the pool had started its workers; they are stopped too
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "the workers kept running"
            time.sleep(0.1)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        os.close(leader)


# -- tables, the chart message and the progress bar ----------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_rich_tables_put_the_named_columns_on_the_left() -> None:
    """The text columns (``left``) are flush left, the numbers flush right."""
    pytest.importorskip("rich")
    table = _output.rich_table("T", ["seat", "bot", "wins"], [["0", "greedy", "2"]],
                               left=(1,))
    assert [column.justify for column in table.columns] == ["right", "left", "right"]
    table = _output.rich_table("T", ["bot", "wins"], [["greedy", "2"]])
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


def test_plain_tables_put_the_first_column_on_the_left_unless_told() -> None:
    text = _output.plain_table("T", ["bot", "wins"], [["greedy", "2"]])
    assert text.splitlines() == ["T", "bot     wins", "greedy     2"]


def test_a_table_on_a_terminal_is_drawn_by_rich(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    _output.print_table("T", ["bot", "wins"], [["greedy", "2"]])
    drawn = capsys.readouterr().out
    assert "greedy" in drawn
    assert "bot     wins" not in drawn   # rich's table, not the plain one
