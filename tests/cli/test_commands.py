"""The cardrules command: eval, play and replay for both games, and its errors."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardrules.cli import _games, _options, _output, main
from cardrules.engine import GameRecord
from cardrules.engine.registry import display_names, rules_for
from support import ROOT


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_eval_four_three_and_seven_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "eval", "8S 8H 8D QH") == (0, "prial of eights (8S 8H 8D QH)\n", "")
    status, out, _ = run(capsys, "eval", "JH", "QH", "KH")
    assert (status, out) == (0, "bouncer, king high (JH QH KH)\n")
    status, out, _ = run(capsys, "eval", "8S 8H 8D QH 5C 6C 7C")
    assert status == 0
    assert out.splitlines()[0].startswith("down: prial of eights")


def test_eval_errors_are_one_line_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "eval", "KS QS")
    assert (status, out) == (2, "")
    assert err == "cardrules: give 3, 4 or 7 cards, not 2\n"
    status, _, err = run(capsys, "eval", "KS Q?")
    assert status == 2
    assert err.startswith("cardrules: not a card")
    assert err.count("\n") == 1


@pytest.mark.parametrize("game", ["down-and-back", "back-alley"])
def test_play_then_replay_gives_the_same_account(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    extra = ["--rounds", "2"] if game == "down-and-back" else []
    status, played, _ = run(capsys, "play", game, "--seed", "5", *extra, "--record", str(path))
    assert status == 0
    assert played.endswith(f"record written to {path}\n")
    record = GameRecord.load(path)
    assert record.game == game.replace("-", "_")
    status, replayed, _ = run(capsys, "replay", str(path), "--summary")
    assert status == 0
    assert played.startswith(replayed)
    assert "unfinished" not in replayed
    status, moves, _ = run(capsys, "replay", str(path))  # move by move by default
    assert status == 0
    assert moves.endswith(replayed)
    assert len(moves.splitlines()) == len(record.actions) + len(replayed.splitlines())


def test_play_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    second = run(capsys, "play", "--seed", "9", "--rounds", "3")
    third = run(capsys, "play", "--seed", "9", "--rounds", "3")
    assert second == third
    assert second[0] == 0
    other = run(capsys, "play", "--seed", "10", "--rounds", "3")
    assert other[1] != second[1]


def test_moves_lists_each_action_with_its_seat(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    run(capsys, "play", "--players", "2", "--rounds", "1", "--seed", "1", "--record", str(path))
    status, out, _ = run(capsys, "replay", str(path), "--moves")
    lines = out.splitlines()
    record = GameRecord.load(path)
    assert status == 0
    assert lines[0].split() == ["1", "chance", *str(record.actions[0]).split()]
    cut = next(line for line in lines if " cut " in line)
    assert "seat" in cut
    moves = [line for line in lines if line[:5].strip().isdigit()]
    assert len(moves) == len(record.actions)


def test_replay_says_when_a_record_is_unfinished(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "short.txt"
    path.write_text("# cardrules down_and_back\nnum_players 3\n\ndealer 1\n", encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert out.splitlines()[-1] == "the record is unfinished: 1 actions, and the game goes on"


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--record", ""], "--record needs a file name"),
    (["play", "--record", "   "], "--record needs a file name"),
    (["play", "--record", "/no/such/folder/g.json"], "does not exist"),
    (["play", "back-alley", "--players", "3"], "Back Alley has no setting for --players"),
    (["play", "go-fish"], "unknown game"),
    (["play", "--bots", "genius"], "--bots is one of random, greedy"),
    (["play", "--players", "9"], "2 to 5 players"),
    (["play", "back-alley", "--bots", "heuristic,random"], "one name per seat (4 seats)"),
])
def test_play_usage_errors(args: list[str], message: str, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2
    assert out == ""
    assert message in err
    assert err.startswith("cardrules: ")
    assert err.count("\n") == 1


def test_record_path_that_is_a_folder_is_refused_before_playing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "play", "--record", str(tmp_path))
    assert (status, out) == (2, "")
    assert "that is a folder" in err


@pytest.mark.parametrize("content", [
    "[" * 100_000,
    '{"game": "down_and_back", "settings": {"num_players": 2}, "actions": '
    '[{"type": "cut", "count": ' + "9" * 5000 + "}]}",
    "# cardrules down_and_back\nnum_players 2\n\ncut " + "9" * 5000 + "\n",
    "not a record",
])
def test_replay_of_hostile_files_is_one_line(content: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert (status, out) == (2, "")
    assert err.startswith("cardrules: ")
    assert err.count("\n") == 1
    assert len(err) < 400


def test_replay_of_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "replay", "/no/such/file.json")
    assert status == 2
    assert err == "cardrules: /no/such/file.json: No such file or directory\n"


def test_json_record_can_be_read_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    run(capsys, "play", "back-alley", "--seed", "3", "--record", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["game"] == "back_alley"
    assert data["actions"][0]["type"] == "dealer"


def test_broken_pipe_is_quiet() -> None:
    """``cardrules play ... | head -1`` ends without a message."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardrules", "play", "back-alley", "--moves", "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert err == b""


def test_play_help_states_the_games_own_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.down_and_back import RULES

    with pytest.raises(SystemExit) as caught:
        main(["play", "--help"])
    assert caught.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # as argparse wrapped it
    defaults = RULES.default_settings
    assert f"Down and Back: rounds to play (default {defaults['rounds']})" in text
    assert f"Down and Back: 2 to 5 (default {defaults['num_players']})" in text
    assert f"Down and Back: chips each round (default {defaults['ante']})" in text


@pytest.mark.parametrize(("args", "last_part"), [
    (["play", "--players", "2", "--rounds", "1", "--bots", "greedy,random", "--seed", "1"],
     "\nnet: "),
    (["play", "back-alley", "--bots", "heuristic,random,random,heuristic", "--seed", "1"],
     "\nscores: team 0 "),
])
def test_bots_per_seat_may_use_every_kind(args: list[str], last_part: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *args)
    assert (status, err) == (0, "")
    assert last_part in out


def test_version_prints_one_line_and_exits_with_status_0(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules import __version__
    from cardrules.down_and_back import ACCELERATED

    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    kind = "C speed-ups active" if ACCELERATED else "pure-Python evaluators"
    assert capsys.readouterr() == (f"cardrules {__version__} ({kind})\n", "")


def test_record_path_that_cannot_be_written_is_refused_before_playing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Permissions cannot be taken from root, so the permission check itself says no.
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    path = tmp_path / "game.json"
    status, out, err = run(capsys, "play", "--record", str(path))
    assert (status, out) == (2, "")
    assert err == f"cardrules: --record {path}: cannot write there\n"
    assert not path.exists()


@pytest.mark.parametrize(("game", "kind"), [("back-alley", "heuristic"),
                                            ("down-and-back", "greedy")])
def test_seat_s_gets_the_strong_default_bot_seeded_with_seed_plus_s(
        game: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --bots, play seats each game's strongest fast bot (a newcomer's
    first game is not played by random bots), each seeded seed + seat."""
    from cardrules.engine import play

    rules = rules_for(game)
    path = tmp_path / "g.json"
    status, out, _ = run(capsys, "play", game, "--seed", "5", "--record", str(path))
    assert status == 0
    seats = rules.new_game_from_settings({}).num_players
    expected = play(rules, [rules.bots[kind](5 + seat) for seat in range(seats)], {},
                    seed=5)
    assert GameRecord.load(path) == expected.record
    assert out == f"{rules.summarize(expected.state)}\nrecord written to {path}\n"


def test_eval_json_gives_category_rule_and_description(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "eval", "--json", "8S 8H 8D QH")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"cards", "category", "rule", "description", "strength"}
    assert data["cards"] == ["8S", "8H", "8D", "QH"]
    assert (data["category"], data["rule"], data["description"]) == (
        "PRIAL", "DB-11", "prial of eights")
    three = json.loads(run(capsys, "eval", "JH", "QH", "KH", "--json")[1])
    assert (three["category"], three["rule"]) == ("BOUNCER", "DB-21")
    weaker = json.loads(run(capsys, "eval", "--json", "7S 7H 7D QH")[1])
    assert weaker["strength"] < data["strength"]


def test_eval_json_of_seven_cards_lists_the_best_splits(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules import parse_cards
    from cardrules.down_and_back import best_splits

    status, out, _ = run(capsys, "eval", "--json", "8S 8H 8D QH 5C 6C 7C")
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"cards", "best_splits"}
    expected = best_splits(parse_cards("8S 8H 8D QH 5C 6C 7C"))
    assert len(data["best_splits"]) == len(expected)
    first = data["best_splits"][0]
    assert first["down"]["description"] == expected[0].down.description == "prial of eights"
    assert first["back"]["rule"] == "DB-21"
    assert first["back"]["cards"] == ["5C", "6C", "7C"]


def test_eval_json_errors_stay_on_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "eval", "--json", "KS QS") == (
        2, "", "cardrules: give 3, 4 or 7 cards, not 2\n")


def test_replay_moves_is_the_default_and_summary_leaves_them_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    run(capsys, "play", "--players", "2", "--rounds", "1", "--seed", "1", "--record", str(path))
    default = run(capsys, "replay", str(path))
    assert run(capsys, "replay", str(path), "--moves") == default  # the old spelling
    status, summary, _ = run(capsys, "replay", "--summary", str(path))
    assert status == 0
    assert summary.startswith("round 1: ")
    assert default[1].endswith(summary)
    assert default[1].splitlines()[0].split()[:2] == ["1", "chance"]


def test_replay_summary_and_moves_together_are_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["replay", "x.json", "--summary", "--moves"])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_ctrl_c_exits_130_with_one_line(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import replay

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(replay, "run", interrupted)
    assert run(capsys, "replay", "x.json") == (130, "", "cardrules: interrupted\n")


@pytest.mark.parametrize("command", ["eval", "play", "replay"])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([command, "--help"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: cardrules {command}")


def test_back_alley_short_game_and_the_option_down_and_back_refuses(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "play", "back-alley", "--max-hand-size", "2", "--seed", "2")
    assert status == 0
    assert [line.split()[:2] for line in out.splitlines()[:3]] == [
        ["deal", "1"], ["deal", "2"], ["deal", "3"]]
    assert run(capsys, "play", "--max-hand-size", "2") == (
        2, "", "cardrules: Down and Back has no setting for --max-hand-size\n")


# -- the first ten minutes ------------------------------------------------------

#: The most rounds ``play --rounds`` takes, as docs/cli.rst gives it.
MAX_ROUNDS = 10_000
#: The bots ``play`` seats when --bots is not given.
STRONG_BOTS = {"down_and_back": "greedy", "back_alley": "heuristic"}


def test_the_limits_and_defaults_are_the_documented_ones() -> None:
    from cardrules.engine.registry import BUILT_IN, rules_for
    from cardrules.simulation import run as simulation_run

    assert simulation_run.MAX_ROUNDS == MAX_ROUNDS   # play and simulate share the limit
    assert {name: rules_for(name).default_bot for name in BUILT_IN} == STRONG_BOTS

class _Stop(Exception):
    """Raised by a watching bot to end a game part-way."""


def _stopping_bots(monkeypatch: pytest.MonkeyPatch, raw: io.BytesIO, after: int,
                   seen: list[str]) -> None:
    """Make play's bots stop the game at their ``after``-th move, noting what had
    reached ``raw`` (the bytes under standard output) by then."""
    made = _games.bots
    count = [0]

    class Watch:
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def act(self, view: Any, legal: Any) -> Any:
            count[0] += 1
            if count[0] == after:
                seen.append(raw.getvalue().decode("utf-8"))
                raise _Stop
            return self.bot.act(view, legal)

    def bots(*args: Any) -> list[Watch]:
        return [Watch(bot) for bot in made(*args)]

    monkeypatch.setattr(_games, "bots", bots)


@pytest.mark.parametrize("moves", [False, True])
def test_play_prints_the_game_as_it_goes_and_flushes_each_line(
        moves: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --rounds 100000000 | head -1`` printed nothing for minutes: the whole game
    was played before the first line.  Now every round line (or move, with --moves) is
    written and flushed as it happens: a game stopped part-way has already delivered
    the lines of what was played, past Python's own buffer."""
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="utf-8"))
    seen: list[str] = []
    _stopping_bots(monkeypatch, raw, 200, seen)
    with pytest.raises(_Stop):
        main(["play", "--rounds", "100", "--seed", "1", *(["--moves"] if moves else [])])
    lines = seen[0].splitlines()
    if moves:
        assert len(lines) > 150
        assert lines[0].split()[:2] == ["1", "chance"]
    else:
        assert len(lines) >= 2
        assert [line.split(":")[0] for line in lines] == [
            f"round {n}" for n in range(1, len(lines) + 1)]


@pytest.mark.parametrize("args", [
    ["--rounds", "3", "--players", "3", "--seed", "2"],
    ["back-alley", "--max-hand-size", "3", "--seed", "2"],
])
def test_streamed_play_prints_what_it_printed_before(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The streamed account is the game's summary, and with --moves the moves as
    replay lists them, then the summary (the same game as engine.play)."""
    from cardrules.engine import play

    rules = rules_for(args[0] if not args[0].startswith("-") else "down-and-back")
    status, out, err = run(capsys, "play", *args)
    assert (status, err) == (0, "")
    seats = rules.new_game_from_settings(_settings(rules, args)).num_players
    kind = STRONG_BOTS[rules.name]
    game = play(rules, [rules.bots[kind](2 + s) for s in range(seats)],
                _settings(rules, args), seed=2)
    assert out == rules.summarize(game.state) + "\n"
    status, moves, _ = run(capsys, "play", *args, "--moves")
    path_out = moves.splitlines()
    assert len(path_out) == len(game.record.actions) + len(out.splitlines())
    assert moves.endswith(out)


def _settings(rules: Any, args: list[str]) -> dict[str, int]:
    names = {"--rounds": "rounds", "--players": "num_players", "--max-hand-size":
             "max_hand_size"}
    return {names[a]: int(b) for a, b in itertools.pairwise(args) if a in names}


@pytest.mark.parametrize(("args", "message"), [
    (["play", "--rounds", str(10**18)], f"--rounds must be from 1 to {MAX_ROUNDS:,}, "
                                        f"not {10**18}"),
    (["play", "--rounds", str(MAX_ROUNDS + 1)], "--rounds must be from 1 to"),
    (["advise", "down-and-back", "8S 8H 8D QH 5C 6C 7C", "--trials", str(10**12)],
     "--trials is at most 1000000 for Down and Back, not 1000000000000"),
    (["advise", "back-alley", "AS KS", "--trump", "2S", "--trials", str(10**12)],
     "--trials is at most 10000 for Back Alley, not 1000000000000"),
])
def test_open_ended_requests_are_refused_with_the_documented_maximum(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``play --rounds 10**18`` and ``advise --trials 10**12`` ran without end."""
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    assert err.startswith(f"cardrules: {message}")
    assert err.count("\n") == 1
    text = (ROOT / "docs" / "cli.rst").read_text("utf-8")
    assert f"{MAX_ROUNDS:,}" in text
    assert "1,000,000" in text
    assert "10,000 rollouts" in text


def test_the_largest_rounds_allowed_is_accepted() -> None:
    from argparse import Namespace

    from cardrules.down_and_back import RULES

    given = Namespace(players=None, rounds=MAX_ROUNDS, ante=None)
    assert _options.settings_of(RULES, given) == {"rounds": MAX_ROUNDS}


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_help_lists_every_registered_bot_of_every_game(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` left out Back Alley's search bot: the list comes from the registry."""
    from cardrules.engine.registry import games, rules_for

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in games():
        rules = rules_for(name)
        assert f"{rules.title}: {', '.join(sorted(rules.bots))}" in text
    assert "search" in rules_for("back_alley").bots


@pytest.mark.parametrize("name", ["DOWN-AND-BACK", "down_and_back", "Down-and_Back",
                                  "BACK-ALLEY", "back_alley", "Back-Alley"])
def test_game_names_ignore_case_and_dashes(name: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``DOWN-AND-BACK`` was refused while ``down_and_back`` was accepted."""
    key = name.lower().replace("-", "_")
    size = ["--rounds", "1"] if key == "down_and_back" else ["--max-hand-size", "1"]
    status, _, err = run(capsys, "play", name, *size, "--seed", "1", "--record", os.devnull)
    assert (status, err) == (0, "")
    hand = ("8S 8H 8D QH 5C 6C 7C", "--trials", "50") if key == "down_and_back" else (
        "AS", "--trump", "2S", "--trials", "5")
    status, advice, err = run(capsys, "advise", name, *hand, "--seed", "1", "--json")
    assert (status, err) == (0, "")
    assert json.loads(advice)["game"].replace("-", "_") == key
    status, _, err = run(capsys, "simulate", name, "--games", "1", "--workers", "1",
                         *size, "--json", "-")
    assert (status, err.count("cardrules: ")) == (0, err.count("pip install"))


@pytest.mark.parametrize("name", ["d\u043ewn-and-back", "down and back", "downandback"])
def test_other_game_names_are_still_refused(name: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["play", name], ["advise", name, "AS"]):
        status, out, err = run(capsys, *command)
        assert (status, out) == (2, "")
        # The built-in games first, then any other game registered in this process.
        assert err.startswith("cardrules: unknown game (choose from down-and-back, "
                              "back-alley"), err
        assert err.endswith(f"): {name!r}\n")
        assert err.count("\n") == 1


def _closed_early(args: list[str]) -> tuple[int, bytes]:
    """Run the command with its standard output a pipe that the reader closes after
    one line; return the exit status and what it wrote on standard error."""
    proc = subprocess.Popen([sys.executable, "-m", "cardrules", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    return proc.wait(timeout=300), err


def test_a_closed_stdout_ends_every_command_quietly_with_status_0(tmp_path: Path) -> None:
    """The status was 1 for a long output and 0 for a short one: it is 0 for both, with
    nothing on standard error, as documented on the command-line page."""
    record = tmp_path / "long.json"
    assert main(["play", "--rounds", "300", "--players", "5", "--seed", "1", "--bots",
                 "random", "--record", str(record)]) == 0
    commands = [
        ["play", "--rounds", str(MAX_ROUNDS), "--moves", "--bots", "random", "--seed", "1"],
        ["replay", str(record)],                                                     # long
        ["eval", "8S 8H 8D QH 5C 6C 7C"],                                            # short
        ["advise", "down-and-back", "8S 8H 8D QH 5C 6C 7C", "--trials", "20", "--all"],
        ["play", "back-alley", "--max-hand-size", "1", "--seed", "1"],
    ]
    for args in commands:
        assert _closed_early(args) == (0, b""), args
    text = (ROOT / "docs" / "cli.rst").read_text("utf-8")
    assert "closes it early" in text


def _hand_order(cards: list[str]) -> list[str]:
    """The library's card order, written out: rank ace low, then S H D C."""
    ranks, suits = "A23456789TJQK", "SHDC"
    return sorted(cards, key=lambda c: (ranks.index(c[0]), suits.index(c[1])))


@pytest.mark.parametrize("cards", ["QH 5C 6C 7C", "7C QH 6C 5C", "KS 2H 9D", "9D KS 2H",
                                   "QH 8S 8D 8H", "KC QS JD AH"])
def test_eval_shows_cards_in_the_librarys_order_whatever_the_order_typed(
        cards: str, capsys: pytest.CaptureFixture[str]) -> None:
    """eval showed 'QH 5C 6C 7C' where advise and the game showed '5C 6C 7C QH'."""
    status, out, _ = run(capsys, "eval", cards)
    assert status == 0
    shown = out[out.index("(") + 1:out.index(")")].split()
    assert shown == _hand_order(cards.split())
    status, out, _ = run(capsys, "eval", "--json", cards)
    assert json.loads(out)["cards"] == _hand_order(cards.split())


def test_eval_and_advise_show_a_split_with_its_cards_in_one_order(
        capsys: pytest.CaptureFixture[str]) -> None:
    hand = "8S 8H 8D QH 5C 6C 7C"
    _, evaluated, _ = run(capsys, "eval", hand)
    _, advised, _ = run(capsys, "advise", "down-and-back", hand, "--trials", "50",
                        "--seed", "1")
    groups = re.findall(r"[a-z ,]+ \((?:[2-9TJQKA][SHDC] ?)+\)", evaluated)
    assert "high card queen (5C 6C 7C QH)" in evaluated
    assert len(groups) == 4
    for group in groups:
        assert group.strip() in advised, (group, advised)
        inside = group[group.index("(") + 1:-1].split()
        assert inside == _hand_order(inside)


def test_advise_back_alley_shows_the_jokers_as_the_top_trumps(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Back Alley printed BB after the small trumps (AS 2S 3H KS BB): by BA-2 and BA-3 it
    is the highest trump, so the hand shows trump first, BB LB A K ... 2, then the
    other suits, highest first."""
    args = ["advise", "back-alley", "AS KS LB 2S 3H 9D KH", "--trump", "9S", "--trials",
            "5", "--seed", "1"]
    status, out, _ = run(capsys, *args)
    assert status == 0
    assert out.splitlines()[0].startswith(
        "Back Alley, seat 0 (dealer 3) with LB AS KS 2S | KH 3H | 9D, turned 9S")
    status, out, _ = run(capsys, *args, "--json")  # data: the library's order, as in states
    assert json.loads(out)["hand"] == ["AS", "2S", "3H", "9D", "KS", "KH", "LB"]


@pytest.mark.parametrize("args", [
    ["eval", "KS"], ["eval", "KS Q?"], ["eval", "--json", "8S 8S 8D QH"],
    ["play", "go-fish"], ["play", "--players", "9"], ["play", "--rounds", str(10**18)],
    ["play", "--human", "9"], ["play", "--bots", "genius"], ["play", "--record", ""],
    ["play", "back-alley", "--max-hand-size", "0"], ["replay", "/no/such/file.json"],
    ["advise", "down-and-back", "KS"], ["advise", "back-alley", "AS"],
    ["advise", "down-and-back", "8S 8H 8D QH 5C 6C 7C", "--trials", "1"],
    ["advise", "back-alley", "AS KS", "--trump", "AS"], ["advise", "go-fish", "AS"],
    ["simulate", "--games", "0"], ["simulate", "go-fish"],
    ["simulate", "--games", "3", "--rotate", "--bots", "greedy,random", "--players", "2"],
])
def test_a_refusal_is_exactly_one_line_on_standard_error(args: list[str]) -> None:
    """An older version printed a stray blank line on standard error before one-line refusals: as a
    real process (what the interpreter writes at exit included), a refusal is status 2,
    nothing on standard output and exactly one line, ``cardrules: ...``, on standard
    error."""
    proc = subprocess.run([sys.executable, "-m", "cardrules", *args], capture_output=True,
                          text=True, timeout=120, check=False, stdin=subprocess.DEVNULL)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert re.fullmatch(r"cardrules: [^\n]+\n", proc.stderr), proc.stderr


def test_replay_names_the_seat_of_a_split_made_out_of_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DB-40: splits may be made in any order; a record keeps a split by a
    seat other than the one to act as ``seat N: split ...``, and the move
    list names that seat, not the player to act."""
    import random

    import cardrules.down_and_back as db
    from cardrules.down_and_back.game import split_actions
    from cardrules.engine import Seated

    rng = random.Random(5)
    start = state = db.new_game(3, rounds=1)
    entries: list[db.Action | Seated] = []
    while state.phase is not db.Phase.SPLIT:
        action = (db.sample_chance(state, rng) if state.is_chance
                  else rng.choice(db.legal_actions(state)))
        entries.append(action)
        state = db.apply(state, action)
    other = (state.current_player + 1) % 3            # type: ignore[operator]
    entry = db.RULES.entry(state, split_actions(state.hands[other])[0], other)
    assert isinstance(entry, Seated)
    path = tmp_path / "game.txt"
    path.write_text(db.RULES.record(start, [*entries, entry]).to_text(), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    line = out.splitlines()[len(entries)]
    assert line.split()[:4] == [str(len(entries) + 1), "seat", str(other), "split"]


# -- the commands over the registry -------------------------------------------

def test_play_help_names_every_game_and_its_default_bot_from_the_registry(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.engine.registry import games, rules_for

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the game: down-and-back or back-alley" in text
    assert "(default down-and-" in text  # (argparse may break the line at a dash)
    for name in games():
        rules = rules_for(name)
        assert f"{rules.default_bot} for {rules.title}" in text
    assert "<" not in text  # every mark was filled in


def test_game_names_put_the_built_in_games_first() -> None:
    from cardrules.engine.registry import BUILT_IN, games

    names = display_names()
    assert names[:len(BUILT_IN)] == tuple(n.replace("_", "-") for n in BUILT_IN)
    assert sorted(names) == sorted(n.replace("_", "-") for n in games())
    assert _games.GAME_NAMES == ("down-and-back", "back-alley")


def test_a_game_registered_under_capitals_is_found_in_any_spelling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import attrs

    from cardrules.down_and_back import RULES
    from cardrules.engine import registry

    registry.games()  # every built-in game registered before the registry is copied
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    copy = registry.register(attrs.evolve(RULES, name="Copy-Of_DB"))
    for spelled in ("copy-of-db", "COPY_OF_DB", "Copy-Of_DB", "copy_of-DB"):
        assert rules_for(spelled) is copy
    assert "Copy-Of-DB" in display_names()
    with pytest.raises(Exception, match=r"choose from down-and-back, back-alley, .*Copy-Of-DB"):
        rules_for("copy of db")


def test_any_setting_is_given_with_set_for_play_and_simulate(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--set NAME=VALUE`` reaches every setting of a game, the same for every game."""
    status, out, err = run(capsys, "play", "down-and-back", "--set", "num_players=3",
                           "--set", "rounds=1", "--seed", "1")
    assert (status, err) == (0, "")
    assert "net: " in out
    assert len(out.split("net: ")[1].split("(")[0].split()) == 3
    status, out, err = run(capsys, "simulate", "back-alley", "--games", "1", "--seed", "2",
                           "--set", "max_hand_size=1")
    assert (status, err.strip().splitlines()[-1:] != ["Traceback"]) == (0, True)
    for bad, message in (("foo", "--set takes NAME=VALUE, not 'foo'"),
                         ("max_hand_size=x", "--set max_hand_size: 'x' is not a whole number"),
                         ("colour=red", "Back Alley has no setting 'colour'")):
        status, out, err = run(capsys, "play", "back-alley", "--set", bad)
        assert status == 2
        assert message in err
        assert out == ""
    status, _, err = run(capsys, "play", "down-and-back", "--set", "rounds=99999999")
    assert status == 2
    assert "--rounds must be from 1 to 10,000" in err


# -- advise: its optional half, its table and its arguments --------------------------------


def test_the_command_loads_no_game_as_it_starts() -> None:
    """Both halves of ``advise`` are always there (no "not available" branch),
    and neither loads a game before a game is asked for."""
    code = ("import sys, cardrules.cli, cardrules.cli.advise_back_alley; "
            "cardrules.cli.build_parser(); "   # the help's game names are filled in when shown
            "print(sorted(m for m in sys.modules if m.startswith(('cardrules.back_alley', "
            "'cardrules.down_and_back'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_advise_table_puts_the_hands_left_and_the_odds_right(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The two hand columns are text, flush left; the three odds columns are
    numbers, flush right under their headers (as every table of the command)."""
    status, out, _ = run(capsys, "advise", "down-and-back", "8S 8H 8D QH 5C 6C 7C",
                         "--trials", "200", "--seed", "1")
    assert status == 0
    header, first = out.splitlines()[1:3]
    assert first.startswith("1  prial of eights (8S 8H 8D QH)  bouncer, seven high")
    assert header.index("back hand") == first.index("bouncer")
    for name in ("down wins", "back wins", "pot (both)"):
        end = header.index(name) + len(name)
        assert first[end - 1] != " "     # a right-justified number ends where its header does
        assert first[end:end + 2] in ("  ", "")


def test_advise_json_with_a_single_undominated_split(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A hand whose best split beats every other one (here with most of the
    deck known dead, so every deal is listed) gives one split, and its JSON
    still says how many deals were weighed and that the odds are exact."""
    dead = ("KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC 9S 9H 9D 9C "
            "8S 8H 8D 8C 7S 7D 7C 6S 6D 6C 5S")
    status, out, _ = run(capsys, "advise", "down-and-back", "AS 2S 3S 4S 5H 6H 7H",
                         "--opponents", "1", "--dead", dead, "--json")
    assert status == 0
    data = json.loads(out)
    assert len(data["splits"]) == 1
    assert (data["trials"], data["exact"]) == (3432, True)


def test_advise_back_alley_takes_one_rollout_but_not_none(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--trials`` is at least 1: one rollout is a (rough) answer, zero is refused."""
    args = ("advise", "back-alley", "AS KS QS", "--trump", "2H", "--seed", "1", "--json")
    status, out, _ = run(capsys, *args, "--trials", "1")
    assert status == 0
    assert json.loads(out)["samples"] == 1
    status, out, err = run(capsys, *args, "--trials", "0")
    assert (status, out) == (2, "")
    assert err == "cardrules: --trials must be at least 1, not 0\n"


def test_at_most_three_bids_come_before_yours() -> None:
    """BA-20: four players bid once each, so at most three bids come before
    the seat asking for advice; four are refused, naming the limit."""
    from cardrules.cli.advise_back_alley import parse_bids

    assert len(parse_bids("pass 1 board", 5)) == 3
    with pytest.raises(ValueError, match=r"^at most 3 bids come before yours, not 4$"):
        parse_bids("pass 1 board 2", 5)


def test_a_bid_is_a_number_from_1_to_the_hand_size_less_one() -> None:
    """BA-21: with 5 cards the number bids are 1 to 4; 0 and 5 are refused."""
    from cardrules.back_alley.actions import Bid
    from cardrules.cli.advise_back_alley import parse_bids
    from cardrules.errors import ParseError

    assert parse_bids("1", 5) == (Bid(1),)
    assert parse_bids("bid 4", 5) == (Bid(4),)
    for word in ("0", "5"):
        with pytest.raises(ParseError, match="1 to 4 with 5 cards"):
            parse_bids(word, 5)


# -- no command, no standard output, a reader gone -----------------------------------------


def test_a_command_must_be_named(capsys: pytest.CaptureFixture[str]) -> None:
    """``cardrules`` alone is a usage error (status 2), not a crash."""
    with pytest.raises(SystemExit) as stopped:
        main([])
    assert stopped.value.code == 2
    assert "the following arguments are required: command" in capsys.readouterr().err


def test_a_command_runs_without_any_standard_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no standard output at all (``sys.stdout`` is None, as under
    pythonw) a command still runs and returns its status."""
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["eval", "JH QH KH"]) == 0


class _ClosedPipe(io.StringIO):
    def flush(self) -> None:
        raise BrokenPipeError


def test_a_reader_gone_before_the_flush_ends_quietly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A short output sits in the buffer until the command flushes it at the
    end; a reader that went away shows there, and the status is still 0."""
    quieted: list[bool] = []
    monkeypatch.setattr(_output, "quiet_stdout", lambda: quieted.append(True))
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["eval", "JH QH KH"]) == 0
    assert quieted == [True]
