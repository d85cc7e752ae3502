"""Tests of the ``cardrules`` command written for survivors of the sampled
mutation run over its rewritten modules (``tools/mutation.py``, seed 31;
issue 14 section 5): each one pins an outcome that a small slip would change."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cardrules.cli import _output, main


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


class _Terminal(io.StringIO):
    """Typed answers on a terminal (which shows them as they are typed)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_answers_are_echoed_only_when_they_do_not_come_from_a_terminal(
        terminal: bool, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal shows what the person types, so the answer is printed again
    only for piped input (a transcript then reads like the session)."""
    from cardrules.cli import human

    stdin = _Terminal("quit\n") if terminal else io.StringIO("quit\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert human._read("move> ") == "quit"
    out = capsys.readouterr().out
    assert out == ("move> " if terminal else "move> quit\n")


@pytest.mark.parametrize("count", [1, 3])
def test_play_printing_refuses_a_bot_list_that_does_not_fit_the_table(
        count: int, capsys: pytest.CaptureFixture[str]) -> None:
    """One bot per seat (Down and Back is for 2 to 5 players, one per seat): too few or
    too many is refused before any move, not played with some bots left idle."""
    from cardrules.cli.play import play_printing
    from cardrules.down_and_back import RULES
    from cardrules.engine import RandomBot

    bots = [RandomBot(seat) for seat in range(count)]
    with pytest.raises(ValueError, match=f"Down and Back needs 2 bots here, not {count}"):
        play_printing(RULES, bots, {"num_players": 2, "rounds": 1}, seed=1)
    assert capsys.readouterr().out == ""


def test_play_printing_keeps_the_actions_only_when_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``keep`` (off by default) returns the actions played, which replay the game."""
    from cardrules.cli.play import play_printing
    from cardrules.down_and_back import RULES
    from cardrules.engine import RandomBot

    bots = [RandomBot(0), RandomBot(1)]
    _, end, actions = play_printing(RULES, bots, {"rounds": 1}, seed=4)
    assert actions is None
    again = play_printing(RULES, [RandomBot(0), RandomBot(1)], {"rounds": 1}, seed=4,
                          keep=True)
    assert again[2] is not None
    assert list(RULES.record(again[0], again[2]).replay())[-1] == end
    capsys.readouterr()


def test_the_back_alley_table_names_who_played_each_card_of_the_trick() -> None:
    """The trick on the table lists its cards from the leader clockwise
    (BA-1: seats 0..3 clockwise), wrapping from seat 3 to seat 0."""
    import random

    from cardrules.back_alley import RULES, view
    from cardrules.back_alley.presenter import BackAlleyTable

    rng = random.Random(5)
    state = RULES.new_game_from_settings({"max_hand_size": 3})
    seen = 0
    while not state.is_terminal and seen < 3:
        if state.is_chance:
            state = RULES.apply(state, RULES.sample_chance(state, rng))
            continue
        seat = state.current_player
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)), seat=seat)
        seen_by_0 = view(state, 0)
        if seen_by_0.leader is not None and seen_by_0.leader >= 2 and len(seen_by_0.trick) == 3:
            who = [(seen_by_0.leader + k) % 4 for k in range(3)]
            assert 0 in who
            expected = ", ".join(f"{'you' if s == 0 else f'seat {s}'} {card}"
                                 for s, card in zip(who, seen_by_0.trick, strict=True))
            lines = BackAlleyTable(0).table(seen_by_0)
            assert f"trick: {expected} (led by seat {seen_by_0.leader})" in lines
            seen += 1
    assert seen == 3


def test_advise_without_its_back_alley_half_still_serves_down_and_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Back Alley half of ``advise`` is optional: when that module itself
    is missing the command goes on without it, but a module it needs that is
    missing is a real error and is not hidden."""
    from cardrules.cli import advise

    monkeypatch.delitem(sys.modules, "cardrules.cli.advise_back_alley", raising=False)
    monkeypatch.setitem(sys.modules, "cardrules.cli.advise_back_alley", None)
    assert advise._back_alley() is None
    monkeypatch.delitem(sys.modules, "cardrules.cli.advise_back_alley")
    monkeypatch.setitem(sys.modules, "cardrules.back_alley.analysis", None)
    with pytest.raises(ModuleNotFoundError) as caught:
        advise._back_alley()
    assert caught.value.name == "cardrules.back_alley.analysis"


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
