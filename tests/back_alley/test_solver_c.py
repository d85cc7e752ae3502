"""The C double-dummy solver (its C search through
``cardrules.back_alley.double_dummy._native``): equal to the exhaustive oracle on
hundreds of small positions and to the pure-Python solver on larger ones,
its inputs checked, safe under threads, and off under CARDRULES_PURE_PYTHON."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest

from cardrules.back_alley import (
    Board,
    ChooseDealer,
    GameState,
    Phase,
    Play,
    Shuffle,
    apply,
    legal_actions,
    new_game,
)
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.double_dummy import _native as _solver_c
from cardrules.back_alley.double_dummy import solver
from support.ba_minimax import minimax_values
from support.ba_positions import deep_positions as _deep_positions

pytestmark = pytest.mark.skipif(not _solver_c.available(),
                                reason="the speed-ups extension has no solver")

ROOT = Path(__file__).resolve().parents[2]


def random_position(rng: random.Random, size: int, *, no_trump: bool) -> GameState | None:
    """A deal of ``size`` cards each (a joker turned when ``no_trump``), random
    bids (boards included), then a random number of random legal plays; None
    when the deal ended first."""
    state = apply(new_game(max_hand_size=size), ChooseDealer(rng.randrange(4)))
    while True:
        deck = list(CARDS)
        rng.shuffle(deck)
        if no_trump:  # BA-13: the turned card is a joker
            joker = deck.pop(deck.index(CARDS[52 + rng.randrange(2)]))
            deck.insert(4 * size, joker)
        elif deck[4 * size] in CARDS[52:]:
            deck[4 * size], deck[-1] = deck[-1], deck[4 * size]
        state = apply(state, Shuffle(tuple(deck)))
        while state.phase is Phase.BID:
            bids = legal_actions(state)
            state = apply(state, rng.choice(bids) if rng.random() < 0.4 else bids[0])
        if state.phase is Phase.PLAY:
            break
    for _ in range(rng.randrange(4 * size - 1)):
        state = apply(state, rng.choice(legal_actions(state)))
        if state.phase is not Phase.PLAY:
            return None
    return state


def positions(seed: int, count: int, sizes: tuple[int, ...]) -> list[GameState]:
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        state = random_position(rng, rng.choice(sizes), no_trump=rng.random() < 0.3)
        if state is not None:
            found.append(state)
    return found


def test_c_equals_the_exhaustive_oracle_on_small_positions() -> None:
    kinds = {"mid-trick": 0, "trick start": 0, "no trump": 0, "joker held": 0,
             "trump played": 0, "trump not played": 0, "board": 0}
    for state in positions(18, 300, (1, 2, 3, 4)):
        want = minimax_values(state)
        assert _solver_c.play_values(state) == want, state
        assert _solver_c.max_tricks(state) == max(want.values()), state
        assert state.deal is not None
        kinds["mid-trick" if state.trick_indexes else "trick start"] += 1
        kinds["no trump"] += state.deal.trump is None
        kinds["joker held"] += any(i >= 52 for hand in state.hand_indexes for i in hand)
        kinds["trump played" if state.trump_played else "trump not played"] += 1
        kinds["board"] += any(isinstance(bid, Board) for bid in state.deal.bids)
    assert min(kinds.values()) >= 10, kinds   # every kind of position was met


def test_c_equals_the_python_solver_up_to_seven_cards() -> None:
    for state in positions(7, 40, (5, 6, 7)):
        values = _solver_c.play_values(state)
        assert values == solver.play_values(state, implementation="python"), state
        assert values is not None
        assert _solver_c.max_tricks(state) == max(values.values())


def test_the_solver_uses_c_by_default() -> None:
    state = positions(3, 1, (6,))[0]
    assert solver.play_values(state) == _solver_c.play_values(state)
    assert solver.play_values(state, implementation="c") == _solver_c.play_values(state)


def test_play_values_come_in_legal_actions_order() -> None:
    for state in positions(4, 20, (3, 5, 8)):
        values = _solver_c.play_values(state)
        assert values is not None
        assert list(values) == list(legal_actions(state))


def test_a_joker_in_a_no_trump_deal_is_left_to_python() -> None:
    # No deal gets there (BA-13 takes the jokers out of a no-trump deal); the
    # card masks have no place for it, so the Python search answers.
    rng = random.Random(5)
    state = None
    while state is None:
        state = random_position(rng, 3, no_trump=True)
    hands = list(state.hand_indexes)
    seat = state.current_player
    assert seat is not None
    hands[seat] = (*hands[seat][:-1], 52)
    odd = attrs.evolve(state, hand_indexes=tuple(hands))
    assert _solver_c.play_values(odd) is None
    assert _solver_c.max_tricks(odd) is None


def test_the_c_function_checks_its_inputs() -> None:
    from cardrules.back_alley.double_dummy import _solver
    solve = _solver.max_tricks
    one_each = (1, 2, 4, 8)  # 2S, 3S, 4S, 5S
    assert solve(one_each, (), 0, -1, False, 0) == 0   # 5S wins: seat 3, team 1
    assert solve(one_each, (), 0, 0, True, 0) == 0
    bad = [
        ((1, 1, 4, 8), (), 0, -1, False, 0),                 # a card twice
        ((1, 2, 4, 1 << 13), (), 0, -1, False, 0),           # a Blooper with no trump
        ((1, 2, 4, 1 << 15), (), 0, 0, False, 0),            # no card has bit 15
        ((1, 2, 4, 8), (16,), 0, -1, False, 0),              # the trick does not fit
        ((3, 4, 8, 16), (), 0, -1, False, 0),                # unequal hands
        ((0, 0, 0, 0), (), 0, -1, False, 0),                 # nothing to play
        ((1, 2, 4, 8), (), 4, -1, False, 0),                 # no seat 4
        ((1, 2, 4, 8), (), 0, 4, False, 0),                  # no suit 4
        ((1, 2, 4, 8), (), 0, -1, False, 16),                # no seat 4 claimed board
        ((1, 2, 4, 8), (1, 2, 3, 4), 0, -1, False, 0),       # four cards in the trick
    ]
    for arguments in bad:
        with pytest.raises(ValueError, match=r"hand|trick|card|leader|board"):
            solve(*arguments)
    with pytest.raises(TypeError):
        solve([1, 2, 4, 8], (), 0, -1, False, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        solve((1, 2, 4), (), 0, -1, False, 0)  # type: ignore[arg-type]  # three hands
    with pytest.raises(OverflowError):
        solve((-1, 2, 4, 8), (), 0, -1, False, 0)


def test_the_solver_refuses_a_state_outside_the_play_phase() -> None:
    with pytest.raises(ValueError, match="play phase"):
        _solver_c.play_values(new_game())


def test_threads_get_the_same_answers() -> None:
    states = positions(9, 24, (6, 7, 8))
    alone = [_solver_c.play_values(state) for state in states]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(_solver_c.play_values, states))
    assert together == alone


def test_pure_python_turns_the_c_solver_off() -> None:
    code = ("from cardrules.back_alley.double_dummy import _native; "
            "print(_native.available())")
    env = dict(os.environ, CARDRULES_PURE_PYTHON="1",
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_the_solver_answers_alike_with_and_without_pext() -> None:
    """The transposition table's keys compress the hands with BMI2's pext
    where the processor runs it fast, else through a table: both give the
    same answers (CARDRULES_SOLVER_NO_PEXT forces the table)."""
    import json

    states = positions(17, 12, (5, 6, 7))
    args = []
    for state in states:
        arguments = _solver_c._arguments(state)
        assert arguments is not None
        args.append(arguments[1])
    code = ("import json, sys; from cardrules.back_alley.double_dummy import _solver; "
            "print(json.dumps([_solver.play_values(*[tuple(x) if isinstance(x, list) else x "
            "for x in a]) for a in json.loads(sys.stdin.read())]))")
    env = dict(os.environ, CARDRULES_SOLVER_NO_PEXT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, input=json.dumps(args))
    from cardrules.back_alley.double_dummy import _solver
    here = [[list(pair) for pair in _solver.play_values(*a)] for a in args]
    assert json.loads(out.stdout) == here


def test_a_failing_run_of_equal_cards_is_not_reused_where_the_cards_differ() -> None:
    """A position once answered wrongly by the transposition table: seat 1,
    void in hearts, may ruff the jack of hearts with the 9, 10 or queen of
    clubs (or throw the queen of spades), trumps clubs.  After a ruff its
    team takes every trick only through the 3 of clubs, low enough for
    partner's 6 to win a trump trick; a stored answer from a position where
    that hand's trumps were 9-10-Q (all equal, so one searched) claimed the
    other team a trick.  A run of equal cards whose cards all fail now adds
    its lowest card to the cards a stored answer rests on when it reaches
    into them (``runs_cut``), so what is stored holds wherever it matches."""
    state = positions(1001, 124, (5, 6, 7, 8))[123]
    assert sorted(str(card) for card in state.hands[1]) == ["3C", "9C", "QC", "QS", "TC"]
    want = minimax_values(state)
    assert {str(play): value for play, value in want.items()} == {
        "play 3C": 4, "play 9C": 5, "play TC": 5, "play QS": 5, "play QC": 5}
    assert _solver_c.play_values(state) == want
    assert solver.play_values(state, implementation="python") == want


_INDEX = {str(card): i for i, card in enumerate(CARDS)}


def _trump_deal(size: int) -> tuple[GameState, str, str, str]:
    """A trump deal of ``size`` cards at a trick start, with the letters of
    its trump suit and of the next two suits."""
    state = next(s for s in positions(3, 200, (size,))
                 if s.deal is not None and s.deal.trump is not None and not s.trick_indexes)
    assert state.deal is not None
    assert state.deal.trump is not None
    trump = state.deal.trump.value
    suits = "SHDC"  # the suits' values, 0 to 3
    return state, suits[trump], suits[(trump + 1) % 4], suits[(trump + 2) % 4]


def _dealt_as(state: GameState, hands: tuple[tuple[str, ...], ...], leader: int) -> GameState:
    """``state`` with these hands, ``leader`` to lead and trump broken."""
    return attrs.evolve(state, hand_indexes=tuple(tuple(sorted(_INDEX[c] for c in hand))
                                                  for hand in hands),
                        leader=leader, current_player=leader, trump_played=True)


def _as_the_oracle(state: GameState) -> dict[Play, int]:
    """The exhaustive oracle's values of ``state``, checked to be the C
    search's (every card's, and the best)."""
    want = minimax_values(state)
    assert _solver_c.play_values(state) == want
    assert _solver_c.max_tricks(state) == max(want.values())
    return want


def test_ba31_ba34_a_second_trump_behind_the_top_one_is_a_trick_only_off_lead() -> None:
    """The second trump held over the top one with a guard takes a trick
    when the other team is on lead (its holder plays after the top trump's
    and keeps a trump under it), but not when its own side must lead
    trumps into the top one: here seat 2 holds QH 4H and nothing else,
    seat 1 the AH over it, and seat 2's team takes nothing (BA-31, BA-34)."""
    state, t, plain, other = _trump_deal(2)
    hands = ((f"9{plain}", f"6{plain}"), (f"A{t}", f"6{t}"), (f"Q{t}", f"4{t}"),
             (f"2{t}", f"8{other}"))
    assert set(_as_the_oracle(_dealt_as(state, hands, 2)).values()) == {0}


def test_ba32_ba33_c_equals_the_oracle_where_trumps_may_be_led_with_a_joker_left() -> None:
    """Where trump may be led (played before, or a board bid) and a joker is
    still held, the bounds that lead trumps (the team's cashing line drawing
    the opponents' trumps, BA-32) and count trumps (each trump of one hand
    that the other team's trumps cannot each beat) agree with the
    exhaustive oracle, Blooper leads forcing trumps included (BA-33)."""
    rng = random.Random(5)
    found = 0
    while found < 120:
        state = random_position(rng, rng.choice((4, 5)), no_trump=False)
        if state is None or state.deal is None or state.deal.trump is None:
            continue
        held = {i for hand in state.hand_indexes for i in hand}
        board = any(isinstance(bid, Board) for bid in state.deal.bids)
        if not held & {52, 53} or not (state.trump_played or board):
            continue
        if state.current_player is None or len(state.hand_indexes[state.current_player]) < 3:
            continue
        found += 1
        want = minimax_values(state)
        assert _solver_c.play_values(state) == want, state
        assert _solver_c.max_tricks(state) == max(want.values()), state


def test_ba34_trumps_the_other_team_cannot_each_beat_take_tricks() -> None:
    """Seat 0 holds the king and three of trumps against the ace alone: the
    ace beats one of them at most, so seat 0's team takes a trick whatever
    is led and whoever leads (BA-34: only a higher trump beats a trump)."""
    state, t, a, b = _trump_deal(3)
    hands = ((f"K{t}", f"3{t}", f"2{a}"), (f"A{t}", f"A{a}", f"K{a}"),
             (f"3{a}", f"4{a}", f"5{a}"), (f"A{b}", f"K{b}", f"Q{b}"))
    for leader in range(4):
        best = max(_as_the_oracle(_dealt_as(state, hands, leader)).values())
        assert (best if leader % 2 == 0 else 3 - best) == 1


def test_ba31_ba34_a_trump_behind_every_higher_one_with_guards_is_a_trick() -> None:
    """Seat 2 holds the queen and two low trumps, seat 1 (who plays before
    it in every trick seat 2 does not lead) the ace and king: seat 2 plays
    low under each of them and the queen when neither is in the trick, so
    its team takes a trick whoever else leads (BA-31, BA-34)."""
    state, t, a, b = _trump_deal(3)
    guarded = ((f"2{a}", f"3{a}", f"4{a}"), (f"A{t}", f"K{t}", f"A{a}"),
               (f"Q{t}", f"3{t}", f"2{t}"), (f"A{b}", f"K{b}", f"Q{b}"))
    for leader in (1, 3, 0):
        best = max(_as_the_oracle(_dealt_as(state, guarded, leader)).values())
        assert (best if leader % 2 == 0 else 3 - best) == 1


def test_the_node_count_of_the_last_solve_is_reported() -> None:
    """``last_nodes`` (for benchmarks: a figure that does not depend on the
    machine's load) counts the positions the last solve visited."""
    from cardrules.back_alley.double_dummy import _solver
    one, six = positions(3, 1, (1,))[0], positions(4, 1, (6,))[0]
    _solver_c.max_tricks(six)
    many = _solver.last_nodes()
    _solver_c.max_tricks(one)
    assert 1 <= _solver.last_nodes() < many


def _drawn_alike(seed: int, count: int) -> list[GameState]:
    """Deals that differ only in the cards of seats 1 to 3, as a bot's draws
    from one view do (the same trump, bids and cards played): the states
    solve_many keeps one table across."""
    from cardrules.back_alley import view
    from cardrules.back_alley.determinization import Determinizer

    rng = random.Random(seed)
    state = _deep_positions(seed, 1)[0]
    sampler = Determinizer(view(state, state.current_player or 0))
    return [sampler.sample(rng) for _ in range(count)]


def test_solve_many_equals_one_solve_at_a_time_on_any_number_of_threads() -> None:
    # Mixed deals (trump and no trump, boards bid, 5 to 7 cards) and runs of
    # deals drawn from one view, where a thread's table is kept from one to
    # the next: every answer is that of a solve with a fresh table.
    states = _deep_positions(2831, 60)
    for seed in range(4):
        states += _drawn_alike(seed, 12)
    want_tricks = [solver.max_tricks(state) for state in states]
    want_values = [solver.play_values(state) for state in states]
    for threads in (1, 2, 3, None):
        assert solver.solve_many(states, threads=threads) == want_tricks
        assert solver.solve_many(states, threads=threads, every_card=True) == want_values
    assert solver.solve_many(states[:20], threads=2, table_entries=64) == want_tricks[:20]
    assert (solver.solve_many(states[:20], implementation="python", every_card=True)
            == want_values[:20])
    assert solver.solve_many([]) == []


def test_solve_many_checks_its_arguments() -> None:
    state = positions(3, 1, (5,))[0]
    with pytest.raises(ValueError, match="threads must be at least 1, not 0"):
        solver.solve_many([state], threads=0)
    with pytest.raises(ValueError, match="table_entries must be a power of two"):
        solver.solve_many([state], table_entries=100)
    with pytest.raises(ValueError, match="needs a deal in play"):
        solver.solve_many([state, new_game()])
    with pytest.raises(ValueError, match="implementation must be one of"):
        solver.solve_many([state], implementation="fast")


def test_a_table_is_sized_by_its_caller_and_used_by_one_search_at_a_time() -> None:
    from cardrules.back_alley.double_dummy import _solver

    table = _solver.Table(1 << 10)
    assert (table.entries, table.nbytes) == (1024, 1024 * (40 + 4))
    assert _solver.Table().entries == 1 << 20
    for bad in (0, 63, 100, 1 << 27):
        with pytest.raises(ValueError, match="power of two"):
            _solver.Table(bad)
    state = positions(4, 1, (6,))[0]
    kept = [_solver_c.max_tricks(state, table, True) for _ in range(3)]
    assert kept == [_solver_c.max_tricks(state)] * 3
    with pytest.raises(TypeError, match="table must be a Table"):
        _solver.max_tricks((1, 2, 4, 8), (), 0, -1, False, 0, object())  # type: ignore[arg-type]
