"""The showdown written once (DB-41 to DB-43) and the modules that call it.

``cardrules.down_and_back.showdown`` is the one home of the showdown rules:
the best hand (DB-41), the tie-break draws (DB-42), the pot (DB-43) and a
split's share of pots.  These tests check the functions against the rules
and against independent counts, check that the reducer's rounds are the
ones they describe, and check the layout the issue asks for: the reducer,
the reader and the checks call them rather than keep copies, the odds and
the search bot share ``rollout`` without importing each other's private
names, and the action numbers come from the reducer's ``legal_actions``.
"""

from __future__ import annotations

import ast
import random
from fractions import Fraction
from itertools import product

import pytest

from cardrules import Hand, parse_card
from cardrules.down_and_back import (
    Action,
    Cut,
    Split,
    Stage,
    TieBreakDraw,
    apply,
    legal_actions,
    new_game,
    sample_chance,
    strength3,
    strength4,
)
from cardrules.down_and_back import encoding as db_encoding
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.encoding import legal_action_ids
from cardrules.down_and_back.showdown import (
    SHARE,
    best_seats,
    draw_order,
    draw_winners,
    pot_share,
    pot_winner,
    rivals_table,
    showdown_share,
    stage_strengths,
)
from support import ROOT
from support.db_deals import cards, paused_twice

PACKAGE = ROOT / "src" / "cardrules" / "down_and_back"


def split(down: str, back: str) -> Split:
    return Split(Hand.parse(down), Hand.parse(back))


def draw(seat: int, card: str, stage: Stage = Stage.DOWN) -> TieBreakDraw:
    return TieBreakDraw(stage, seat, parse_card(card))


# -- the functions against the rules -------------------------------------------------

def test_db42_draw_order_starts_left_of_the_dealer() -> None:
    assert draw_order(0, 2) == (1, 0)
    assert draw_order(4, 5) == (0, 1, 2, 3, 4)
    assert draw_order(1, 3) == (2, 0, 1)


def test_db41_down_hands_then_back_hands_are_compared() -> None:
    splits = (split("KS KH KD 2C", "3C 6D 8C"),
              split("QS QH QD 2D", "9D 9H 5D"),
              split("AS 2S 3S 4S", "6H 7H 9C"))
    assert stage_strengths(splits, Stage.DOWN) == [strength4(s.down) for s in splits]
    assert stage_strengths(splits, Stage.BACK) == [strength3(s.back) for s in splits]
    assert best_seats(splits, Stage.DOWN, draw_order(0, 3)) == (0,)
    assert best_seats(splits, Stage.BACK, draw_order(0, 3)) == (1,)


def test_db42_tied_seats_come_in_draw_order() -> None:
    splits = (split("KS KH KD 2C", "3C 4C 5C"),
              split("KC QH QD 2D", "3D 4D 5D"),
              split("AS 2S 3S 4S", "3H 4H 5H"))
    assert best_seats(splits, Stage.BACK, draw_order(0, 3)) == (1, 2, 0)
    assert best_seats(splits, Stage.BACK, draw_order(1, 3)) == (2, 0, 1)
    assert best_seats(splits, Stage.BACK, range(3)) == (0, 1, 2)


def test_db42_king_high_ace_low_and_the_still_tied_draw_again() -> None:
    assert draw_winners([draw(0, "AS"), draw(1, "KH")]) == (1,)
    assert draw_winners([draw(3, "2S"), draw(1, "AH")]) == (3,)
    assert draw_winners([draw(2, "7S"), draw(0, "7H"), draw(1, "6C")]) == (2, 0)
    assert draw_winners(iter([draw(4, "QD")])) == (4,)


def test_db43_only_a_player_who_wins_both_takes_the_pot() -> None:
    for down, back in product(range(5), repeat=2):
        assert pot_winner(down, back) == (down if down == back else None)


def test_db42_shares_are_the_fair_tie_break_exactly() -> None:
    """A tie among k players gives each 1/k (the draw is fair); a better hand
    wins all, a worse one nothing; the pot needs both showdowns (DB-43)."""
    for ours, top, holders in product(range(4), range(4), range(1, 5)):
        expected = (Fraction(1) if ours > top else Fraction(1, holders + 1)
                    if ours == top else Fraction(0))
        assert Fraction(showdown_share(ours, top, holders), SHARE) == expected
    for d, b, top_d, top_b in product(range(3), repeat=4):
        for many_d, many_b in product(range(1, 5), repeat=2):
            table = (top_d, many_d, top_b, many_b)
            assert pot_share(d, b, table) == (showdown_share(d, top_d, many_d)
                                              * showdown_share(b, top_b, many_b))


def test_rivals_table_counts_the_holders_of_the_best() -> None:
    assert rivals_table([3], [1]) == (3, 1, 1, 1)
    assert rivals_table([2, 7, 7, 1], [5, 5, 5, 0]) == (7, 2, 5, 3)


# -- the reducer's rounds are the ones the functions describe ------------------------

def test_db41_to_db43_every_round_the_reducer_plays_follows_the_functions() -> None:
    rng = random.Random(15)
    rounds = 0
    for players in (2, 3, 4, 5):
        for _ in range(12):
            state = new_game(players, rounds=3)
            while not state.is_terminal:
                action: Action
                if state.is_chance:
                    action = sample_chance(state, rng)
                else:
                    action = rng.choice(legal_actions(state))
                state = apply(state, action)
            for result in state.results:
                rounds += 1
                order = draw_order(result.dealer, players)
                for stage, winner in ((Stage.DOWN, result.down_winner),
                                      (Stage.BACK, result.back_winner)):
                    tied = best_seats(result.splits, stage, order)
                    draws = [d for d in result.tiebreaks if d.stage is stage]
                    while len(tied) > 1:       # DB-42, pass by pass
                        this_pass, draws = draws[:len(tied)], draws[len(tied):]
                        assert [d.seat for d in this_pass] == list(tied)
                        tied = draw_winners(this_pass)
                    assert draws == []
                    assert tied == (winner,)
                assert result.pot_winner == pot_winner(result.down_winner, result.back_winner)
    assert rounds == 4 * 12 * 3


# -- one home: the callers use the module rather than copies -------------------------

def _imports(module: str) -> list[tuple[str, str]]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    return [(node.module or "", alias.name) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) for alias in node.names]


@pytest.mark.parametrize("module", ["game", "serialize", "checks"])
def test_the_reducer_reader_and_checks_leave_hand_comparison_to_showdown(module: str) -> None:
    names = _imports(module)
    assert ("cardrules.down_and_back.showdown", "best_seats") in names
    assert not {"strength3", "strength4"} & {name for _, name in names}


@pytest.mark.parametrize("module", ["analysis", "search"])
def test_the_odds_and_the_search_count_shares_with_showdown(module: str) -> None:
    names = _imports(module)
    assert any(source == "cardrules.down_and_back.showdown" for source, _ in names)
    source = (PACKAGE / f"{module}.py").read_text(encoding="utf-8")
    assert "_SHARE" not in source
    assert "SHARE // (many" not in source
    assert "SHARE if d > top_d" not in source


@pytest.mark.parametrize("module", ["analysis", "search", "rollout", "showdown"])
def test_no_private_names_cross_between_the_analysis_modules(module: str) -> None:
    siblings = {"analysis", "search", "rollout", "showdown"}
    for source, name in _imports(module):
        if source.rsplit(".", 1)[-1] in siblings:
            assert not name.startswith("_"), (module, source, name)
    if module in ("rollout", "showdown"):   # the shared pieces depend on neither user
        assert not {"cardrules.down_and_back.analysis", "cardrules.down_and_back.search"} \
            & {source for source, _ in _imports(module)}
    if module == "analysis":
        assert "cardrules.down_and_back.search" not in {s for s, _ in _imports(module)}


def test_legal_action_ids_follow_the_reducers_legal_actions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The numbers are the reducer's list mapped through action_id, not a
    second account of what is legal phase by phase."""
    state = new_game(3)
    rng = random.Random(2)
    while not legal_actions(state) or not isinstance(legal_actions(state)[0], Cut):
        state = apply(state, sample_chance(state, rng))
    assert legal_action_ids(state) == tuple(range(51))
    monkeypatch.setattr(db_encoding, "legal_actions", lambda s: (Cut(3), Cut(40)))
    assert legal_action_ids(state) == (2, 39)


def test_legal_action_ids_are_the_numbers_of_the_legal_actions_in_every_phase() -> None:
    rng = random.Random(7)
    seen = set()
    for players in (2, 5):
        state = new_game(players, rounds=2)
        while not state.is_terminal:
            seen.add(state.phase)
            ids = legal_action_ids(state)
            assert ids == tuple(db_encoding.action_id(a) for a in legal_actions(state))
            assert list(ids) == sorted(set(ids))
            for number in ids:
                assert legal_actions(state)[ids.index(number)] == \
                    db_encoding.action_from_id(state, number)
            if state.is_chance:
                state = apply(state, sample_chance(state, rng))
            else:
                state = apply(state, rng.choice(legal_actions(state)))
    assert len(seen) == 7   # every phase but the end


# -- a tie-break that pauses twice (DB-36, DB-42) ------------------------------------------


def test_db36_a_tie_break_can_pause_twice_and_each_card_stays_single() -> None:
    state = paused_twice()
    assert state.discard == cards("AS 8C 8S 2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S 7H")
    check_invariants(state)
