"""Every program in examples/ runs as its docstring says and prints what it
promises (with small settings, so the whole file takes a few seconds)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: The runs below, by example: every example must be run here.
COVERED = {"my_bot.py", "match.py", "serve_views.py"}


def _run(name: str, *args: str, status: int = 0) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                      env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == status, done.stderr
    return done.stdout if status == 0 else done.stderr


def test_every_example_is_run_here_and_says_how_to_run_it() -> None:
    assert {path.name for path in EXAMPLES.glob("*.py")} == COVERED
    for name in COVERED:
        docstring = ast.get_docstring(ast.parse((EXAMPLES / name).read_text("utf-8")))
        assert docstring is not None, name
        assert f"python examples/{name}" in docstring, name


def test_my_bot_plays_whole_games_against_the_librarys_bots() -> None:
    out = _run("my_bot.py", "--games", "2", "--rounds", "1", "--seed", "3")
    lines = out.splitlines()
    assert lines[0].startswith("2 game(s) of Down and Back, 1 round(s) each, seed 3")
    chips = [re.fullmatch(r"seat (\d)  (\S+) +([+-]\d+) chips", line) for line in lines[1:]]
    assert all(chips), lines
    assert [(m.group(1), m.group(2)) for m in chips if m] == [
        ("0", "pair-keeper"), ("1", "greedy"), ("2", "random")]
    # Every chip lost is won by another seat or still in the pot (DB-43, DB-44).
    assert sum(int(m.group(3)) for m in chips if m) <= 0
    assert _run("my_bot.py", "--games", "2", "--rounds", "1", "--seed", "3") == out


@pytest.mark.parametrize(("game", "first", "second"), [
    ("back-alley", "heuristic", "random"),
    ("down-and-back", "greedy", "random"),
])
def test_match_plays_the_games_and_counts_the_wins(game: str, first: str, second: str) -> None:
    out = _run("match.py", game, first, second, "--games", "3", "--short", "--seed", "2")
    lines = out.splitlines()
    assert len(lines) == 4
    for number, line in enumerate(lines[:3], 1):
        assert re.fullmatch(rf"game {number}: {first} [+-]\d+, {second} [+-]\d+ -> "
                            rf"({first}|{second}|draw)", line), line
    summary = re.fullmatch(rf"{first} won (\d), {second} won (\d), (\d) drawn, of 3 games "
                           r"of (Back Alley|Down and Back)", lines[3])
    assert summary is not None, lines[3]
    assert sum(int(count) for count in summary.groups()[:3]) == 3


def test_match_refuses_a_bot_the_game_does_not_have() -> None:
    err = _run("match.py", "down-and-back", "heuristic", "random", status=2)
    assert "Down and Back has no bot 'heuristic' (it has random, greedy, search)" in err


@pytest.mark.parametrize(("game", "players"), [("back-alley", 4), ("down-and-back", 4)])
def test_serve_views_sends_every_seat_its_view_and_plays_to_the_end(game: str,
                                                                     players: int) -> None:
    out = _run("serve_views.py", game, "--short", "--seed", "5")
    lines = out.splitlines()
    counts = [re.fullmatch(rf"seat {seat}: (\d+) messages", line)
              for seat, line in enumerate(lines[:players])]
    assert all(counts), lines
    # Each seat gets its turns plus the final view; every seat has turns.
    assert all(int(m.group(1)) >= 2 for m in counts if m)
    if game == "back-alley":
        assert re.fullmatch(r"final scores by team: \[-?\d+, -?\d+\]", lines[players])
    else:
        chips = re.fullmatch(r"chips won or lost by seat: \[(.*)\], pot (\d+)", lines[players])
        assert chips is not None, lines[players]
        net = [int(value) for value in chips.group(1).split(",")]
        assert sum(net) + int(chips.group(2)) == 0  # chips are conserved (DB-43, DB-44)
