"""The double-dummy analysis of a played Back Alley game:
analysis.double_dummy_report, RULES.double_dummy and ``replay --double-dummy``."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from cardrules.back_alley import RULES, ChooseDealer, Contract, new_game, parse_action
from cardrules.back_alley.double_dummy import (
    DealDoubleDummy,
    DoubleDummyReport,
    double_dummy_report,
    double_dummy_text,
)
from cardrules.cli import main
from cardrules.down_and_back import RULES as DB_RULES
from cardrules.engine import GameRecord
from cardrules.engine.rules import Rules
from support.ba_deals import rigged

# A game of max_hand_size 2: deals of 2, 1 and 2 cards, dealt by seats 3, 0, 1.
# Deal 1: seat 0 bids 1 and must lead a heart; with best play seat 3 ruffs
# with AS and takes the last trick with 5D (no one else holds a diamond),
# but it discards 5D on the ace and takes only one trick.
# Deal 2: seat 1 claims board with the only club that wins.
# Deal 3: seat 0 holds the top diamonds and takes both tricks.
_MOVES = (
    ["dealer 3"], (3, ["AH KH", "QH JH", "TH 9H", "AS 5D"], "2S"),
    ["bid 1", "pass", "pass", "pass", "play AH", "play QH", "play 9H", "play 5D",
     "play KH", "play JH", "play TH", "play AS"],
    (0, ["2C", "AC", "3C", "4C"], "5D"),
    ["board", "pass", "pass", "pass", "play AC", "play 3C", "play 4C", "play 2C"],
    (1, ["AD KD", "2D 3D", "4D 5D", "6D 7D"], "8C"),
    ["bid 1", "pass", "pass", "pass", "play 4D", "play 6D", "play AD", "play 2D",
     "play KD", "play 3D", "play 5D", "play 7D"],
)


def _record() -> GameRecord:
    actions: list[object] = []
    for part in _MOVES:
        if isinstance(part, tuple):
            dealer, hands, turned = part
            actions.append(rigged(dealer, hands, turned))
        else:
            actions.extend(ChooseDealer(int(m.split()[1])) if m.startswith("dealer")
                           else parse_action(m) for m in part)
    return RULES.record(new_game(max_hand_size=2), actions)  # type: ignore[arg-type]


def test_the_rigged_record_is_a_whole_game() -> None:
    *_, final = RULES.replay(_record())
    assert final.is_terminal
    assert [r.tricks for r in final.results] == [(1, 1), (0, 1), (2, 0)]


def test_report_gives_the_exact_double_dummy_figures() -> None:
    report = double_dummy_report(_record(), implementation="python")
    assert [d.double_dummy for d in report.deals] == [(0, 2), (0, 1), (2, 0)]
    assert [d.tricks for d in report.deals] == [(1, 1), (0, 1), (2, 0)]
    assert [d.leader for d in report.deals] == [0, 1, 2]
    assert [d.contracts for d in report.deals] == [
        (Contract(tricks=1), Contract()), (Contract(), Contract(board=1)),
        (Contract(tricks=1), Contract())]
    assert [d.lost for d in report.deals] == [(-1, 1), (0, 0), (0, 0)]
    assert report.double_dummy == (2, 3)
    assert report.tricks == (3, 2)
    first = report.deals[0]
    assert isinstance(first, DealDoubleDummy)
    assert (first.deal_number, first.dealer, first.hand_size, str(first.trump_card)) == (
        1, 3, 2, "2S")
    assert first.points == (5, 1)


def test_report_from_states_equals_report_from_record() -> None:
    record = _record()
    assert double_dummy_report(list(RULES.replay(record))) == double_dummy_report(record)


def test_report_text() -> None:
    text = str(double_dummy_report(_record()))
    assert text.splitlines() == [
        "dd: the tricks a team takes from the opening lead, every hand open, both teams at best",
        "deal 1 (2 cards, turned 2S, seat 0 led): team 0 bid 1 dd 0 took 1; "
        "team 1 bid 0 dd 2 took 1",
        "  dd with each seat on lead, team 0-team 1: seat 0 0-2, seat 1 0-2, seat 2 0-2, "
        "seat 3 0-2",
        "deal 2 (1 card, turned 5D, seat 1 led): team 0 bid 0 dd 0 took 0; "
        "team 1 bid board dd 1 took 1",
        "  dd with each seat on lead, team 0-team 1: seat 0 0-1, seat 1 0-1, seat 2 0-1, "
        "seat 3 0-1",
        "deal 3 (2 cards, turned 8C, seat 2 led): team 0 bid 1 dd 2 took 2; "
        "team 1 bid 0 dd 0 took 0",
        "  dd with each seat on lead, team 0-team 1: seat 0 2-0, seat 1 2-0, seat 2 2-0, "
        "seat 3 2-0",
        "3 deals: team 0 dd 2 took 3; team 1 dd 3 took 2",
    ]
    assert double_dummy_text(RULES.replay(_record())) == text


def test_ba30_each_deal_carries_its_table_and_can_go_without() -> None:
    report = double_dummy_report(_record())
    for deal in report.deals:
        assert deal.table is not None
        assert deal.table.team_tricks(deal.leader) == deal.double_dummy
    plain = double_dummy_report(_record(), tables=False)
    assert [d.table for d in plain.deals] == [None, None, None]
    assert [d.double_dummy for d in plain.deals] == [d.double_dummy for d in report.deals]
    assert "each seat on lead" not in str(plain)


def test_an_unfinished_deal_and_a_game_without_deals_are_left_out() -> None:
    record = _record()
    cut = GameRecord(record.game, dict(record.settings), record.actions[:20])
    report = double_dummy_report(cut)
    assert len(report.deals) == 1
    assert double_dummy_report(GameRecord(record.game, dict(record.settings), ())) == (
        DoubleDummyReport(()))


def test_a_record_of_another_game_is_refused() -> None:
    record = DB_RULES.play([DB_RULES.bots["random"](seat) for seat in range(2)],
                           {"num_players": 2, "rounds": 1}, seed=1).record
    with pytest.raises(ValueError, match="a double-dummy report is of a Back Alley game, "
                                         "not 'down_and_back'"):
        double_dummy_report(record)


def test_rules_say_which_games_have_a_double_dummy_analysis() -> None:
    assert RULES.double_dummy is double_dummy_text
    assert DB_RULES.double_dummy is None
    assert attrs.fields(Rules).double_dummy.default is None


def test_replay_option_prints_the_analysis(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rigged.json"
    _record().dump(path)
    assert main(["replay", str(path), "--summary", "--double-dummy"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(str(double_dummy_report(_record())) + "\n")
    assert "team 1 bid 0 dd 2 took 1" in out


def test_replay_option_is_refused_for_down_and_back(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.down_and_back import ChooseDealer as DBChooseDealer
    from cardrules.down_and_back import new_game as db_new_game

    path = tmp_path / "db.json"
    DB_RULES.record(db_new_game(2), [DBChooseDealer(0)]).dump(path)
    assert main(["replay", str(path), "--double-dummy"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "cardrules: replay --double-dummy: Down and Back has no double-dummy analysis"]
