"""The double-dummy solver ``cardrules.back_alley.double_dummy.solver``.

Its answers are checked against the exhaustive minimax of ``support.ba_minimax``
(the library's own ``legal_actions`` and ``apply``, every card tried) on
hundreds of random positions of small deals, and on exact deals where each
rule of play changes the double-dummy result.
"""

from __future__ import annotations

import importlib
import random
import types
from collections import Counter

import pytest

from cardrules.back_alley import (
    GameState,
    Phase,
    Play,
    apply,
    legal_actions,
    max_tricks,
    new_game,
    play_values,
    state_from_dict,
    state_to_dict,
)
from cardrules.back_alley.actions import Board
from cardrules.back_alley.double_dummy import _native as _solver_c
from cardrules.back_alley.double_dummy.solver import IMPLEMENTATIONS, clear_cache
from support.ba_deals import dealt, then
from support.ba_minimax import minimax_tricks, minimax_values, random_position
from support.ba_positions import deep_positions

_OPENING_BIDS = ("bid 1", "pass", "pass", "pass")  # seat 0 bids first and leads


def _values(state: GameState) -> dict[str, int]:
    return {str(play): tricks for play, tricks in play_values(state).items()}


def _tricks_left(state: GameState) -> int:
    return max(len(hand) for hand in state.hand_indexes)


def _kinds(state: GameState) -> set[str]:
    """What a random position exercises, for the coverage check."""
    kinds = set()
    deal = state.deal
    assert deal is not None
    seat = state.current_player
    assert seat is not None
    kinds.add("mid-trick" if state.trick_indexes else "trick start")
    kinds.add("no trump" if deal.trump is None else "trump")
    if any(i >= 52 for hand in state.hand_indexes for i in hand):
        kinds.add("joker in hand")
    if deal.trump is not None and not state.trick_indexes:
        kinds.add("trump broken" if state.trump_played else "trump unbroken")
        if deal.bids[seat].__class__ is Board:
            kinds.add("board bidder leads")
    if len(state.tricks) == 0 and not state.trick_indexes:
        kinds.add("opening lead")
    return kinds


# -- against the exhaustive oracle ------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_solver_equals_exhaustive_minimax_on_random_positions(seed: int) -> None:
    rng = random.Random(1800 + seed)
    seen: Counter[str] = Counter()
    for k in range(120):
        state = random_position(rng, 1 + k % 4)
        before = state
        expected = minimax_values(state)
        values = play_values(state, implementation="python")
        assert values == expected, str(state)
        assert list(values) == list(legal_actions(state))
        assert max_tricks(state, implementation="python") == max(expected.values())
        assert state == before
        seen.update(_kinds(state))
    for kind in ("mid-trick", "trick start", "no trump", "trump", "joker in hand",
                 "trump broken", "trump unbroken", "board bidder leads", "opening lead"):
        assert seen[kind] > 0, kind


def test_solver_equals_minimax_at_every_step_of_four_card_deals() -> None:
    # Whole deals played out by the solver's own best cards: every position met.
    rng = random.Random(18)
    for _ in range(6):
        state = random_position(rng, 4)
        while state.phase is Phase.PLAY:
            values = play_values(state, implementation="python")
            assert values == minimax_values(state)
            best = max(values.values())
            state = apply(state, rng.choice([p for p, v in values.items() if v == best]))


def test_solver_equals_minimax_on_deals_rich_in_trumps_and_jokers() -> None:
    # Half the cards trumps, the jokers among them, boards bid: Blooper leads
    # (BA-33) and trump leads (BA-32) come up at every turn.
    rng = random.Random(33)
    blooper_leads = 0
    for _ in range(20):
        size = rng.choice((3, 4))
        trump = rng.choice("CDHS")
        trumps = ["BB", "LB"] + [f"{rank}{trump}" for rank in "23456789TJQKA"]
        plain = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "CDHS"
                 if suit != trump]
        rng.shuffle(trumps)
        rng.shuffle(plain)
        cards = trumps[:2 * size] + plain[:2 * size]
        rng.shuffle(cards)
        turned = next(c for c in trumps[2 * size:] if c not in ("BB", "LB"))
        hands = [" ".join(cards[k * size:(k + 1) * size]) for k in range(4)]
        bids = [rng.choice(("board", "bid 1", "pass")) for _ in range(4)]
        if bids == ["pass"] * 4:
            bids[0] = "board"
        state = then(dealt(hands, turned), *bids)
        while state.phase is Phase.PLAY:
            if state.trick_indexes and state.trick_indexes[0] >= 52:
                blooper_leads += 1
            assert play_values(state, implementation="python") == minimax_values(state)
            state = apply(state, rng.choice(legal_actions(state)))
    assert blooper_leads > 5


def test_a_cleared_and_a_warm_table_give_the_same_answers() -> None:
    rng = random.Random(7)
    states = [random_position(rng, 4) for _ in range(30)]
    warm = [play_values(s, implementation="python") for s in states]
    cold = []
    for s in states:
        clear_cache()
        cold.append(play_values(s, implementation="python"))
    assert warm == cold


# -- each rule on an exact deal ---------------------------------------------------

def test_ba31_a_void_may_ruff_but_a_holder_must_follow() -> None:
    # Spades trump.  Seat 1 holds the ace of trumps but must follow the club
    # lead, so seat 0's AC wins; the ace ruffs the diamond after.
    state = then(dealt(["AC 2D", "3C AS", "4D 5D", "6D 7D"], "9S"), *_OPENING_BIDS)
    assert _values(state) == {"play 2D": 0, "play AC": 1}
    after = then(state, "play AC")
    assert _values(after) == {"play 3C": 1}  # seat 1 may only follow (BA-31)
    assert max_tricks(then(after, "play 3C", "play 4D", "play 6D")) == 0  # seat 0: 2D loses


def test_ba32_trump_may_not_lead_unbroken_unless_the_leader_claimed_board() -> None:
    hands = ["TS 3S 8C", "AD 2H 5S", "6H 3H AH", "6S 3C 5D"]
    bid = then(dealt(hands, "8S"), *_OPENING_BIDS)
    assert _values(bid) == {"play 8C": 2}  # BA-32: the club must lead
    assert max_tricks(bid) == 2  # leading TS would take all three
    board = then(dealt(hands, "8S"), "board", "pass", "pass", "pass")
    assert _values(board) == {"play 3S": 2, "play 8C": 2, "play TS": 3}
    assert max_tricks(board) == 3


def test_ba32_a_hand_of_nothing_but_trumps_may_lead_one() -> None:
    state = then(dealt(["AS KS", "2H 3H", "4H 5H", "6H 7H"], "8S"), *_OPENING_BIDS)
    assert _values(state) == {"play KS": 2, "play AS": 2}


def test_ba32_a_trump_played_to_an_earlier_trick_breaks_trumps() -> None:
    # Hearts trump.  Seat 1 ruffs the spade lead with JH: from the next trick
    # it may lead its AH, which wins, and then AD wins too.
    state = then(dealt(["2H 7S 3C", "JH AD AH", "7C 2C 8S", "5D KC 9C"], "5H"),
                 *_OPENING_BIDS, "play 7S")
    assert _values(state) == {"play AD": 2, "play JH": 3, "play AH": 3}  # seat 1 is void
    after = then(state, "play JH", "play 8S", "play 5D")
    assert after.current_player == 1
    assert after.trump_played
    assert _values(after) == {"play AD": 1, "play AH": 2}


def test_ba33_the_big_blooper_led_forces_the_highest_trump() -> None:
    # Hearts trump; seat 0 claimed board and may lead trumps (BA-32).  Leading BB
    # draws seat 1's ace (BA-33), so 3H wins the second trick: board made.
    state = then(dealt(["BB 3H", "AH 2H", "4C 5C", "6C 7C"], "8H"),
                 "board", "pass", "pass", "pass")
    assert _values(state) == {"play 3H": 1, "play BB": 2}
    assert _values(then(state, "play BB")) == {"play AH": 0}


def test_ba33_the_little_blooper_led_forces_the_lowest_trump() -> None:
    # Seat 1 holds both AH and BB: under the Little Blooper it must play the
    # ace (its lowest trump), so LB wins a trick.
    state = then(dealt(["LB 5C", "BB AH", "6D 7D", "8D 9D"], "2H"),
                 "board", "pass", "pass", "pass")
    assert _values(state) == {"play 5C": 0, "play LB": 1}
    assert _values(then(state, "play LB")) == {"play AH": 1}


def test_ba2_ba3_ba34_the_jokers_are_the_top_trumps() -> None:
    # Hearts trump; seat 1 claimed board and leads AH: seat 0's Little Blooper
    # (its only trump, BA-31) beats the ace, so team 0 takes a trick.
    state = then(dealt(["LB 2C", "AH 3C", "4C 5C", "KH 6C"], "2H"),
                 "pass", "board", "pass", "pass", "play AH", "play 4C", "play KH")
    assert _values(state) == {"play LB": 1}
    # The Big Blooper beats the Little: under LB, seat 1's only trump is BB.
    led = then(dealt(["LB 2C", "BB 3C", "4C 5C", "6C 7C"], "2H"),
               "board", "pass", "pass", "pass", "play LB")
    assert _values(led) == {"play BB": 2}


def test_ba13_a_joker_turned_means_no_trump() -> None:
    hands = ["AC KC", "2S 3S", "4D 5D", "6D 7D"]
    spades = then(dealt(hands, "9S"), *_OPENING_BIDS)
    assert max_tricks(spades) == 0  # seat 1 ruffs the clubs
    no_trump = then(dealt(hands, "BB"), *_OPENING_BIDS)
    assert no_trump.deal is not None
    assert no_trump.deal.trump is None
    assert max_tricks(no_trump) == 2


def test_the_trick_in_progress_counts_and_tricks_already_won_do_not() -> None:
    state = then(dealt(["AC KC", "2C 3C", "4C 5C", "6C 7C"], "2H"), *_OPENING_BIDS)
    assert max_tricks(state) == 2
    after = then(state, "play AC", "play 2C", "play 4C", "play 6C")
    assert after.tricks_won[0] == 1
    assert max_tricks(after) == 1
    mid = then(after, "play KC")
    assert mid.current_player == 1
    assert max_tricks(mid) == 0
    assert _values(mid) == {"play 3C": 0}


# -- properties -------------------------------------------------------------------

def test_each_value_is_the_trick_won_plus_the_best_of_what_follows() -> None:
    # play_values(state)[p] = the trick p completes (if any) + the tricks the same
    # team takes from the child with best play (max_tricks of the child, or the
    # tricks left minus it when the other team is to act).
    rng = random.Random(4)
    for _ in range(40):
        state = random_position(rng, 1 + rng.randrange(5))
        seat = state.current_player
        assert seat is not None
        team = seat & 1
        won = state.tricks_won[team] + state.tricks_won[team + 2]
        for play, value in play_values(state).items():
            child = apply(state, play)
            if child.phase is not Phase.PLAY:
                assert value == child.results[-1].tricks[team] - won
                continue
            gained = child.tricks_won[team] + child.tricks_won[team + 2] - won
            acting = child.current_player
            assert acting is not None
            rest = max_tricks(child)
            ours = rest if acting & 1 == team else _tricks_left(child) - rest
            assert value == gained + ours


def test_both_teams_tricks_add_up_to_the_tricks_left() -> None:
    # After a card that does not end the trick the other team is to play: its
    # best is the tricks left minus what the card is worth to us.
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        state = random_position(rng, 1 + rng.randrange(5))
        if len(state.trick_indexes) == 3:
            continue
        left = _tricks_left(state)
        for play, ours in play_values(state).items():
            child = apply(state, play)
            assert ours + max_tricks(child) == left
            checked += 1
        assert max_tricks(state) == max(play_values(state).values())
    assert checked > 40


def _swap(text: str, pair: dict[str, str]) -> str:
    return " ".join(card[:-1] + pair.get(card[-1], card[-1]) if len(card) == 2 else card
                    for card in text.split())


def test_permuting_the_plain_suits_changes_nothing() -> None:
    rng = random.Random(3)
    for _ in range(12):
        suits = ["C", "D", "H", "S"]
        trump = rng.choice(suits)
        plain = [s for s in suits if s != trump]
        shuffled = plain[:]
        rng.shuffle(shuffled)
        pair = dict(zip(plain, shuffled, strict=True))
        deck = [f"{r}{s}" for r in "23456789TJQKA" for s in suits] + ["BB", "LB"]
        deck.remove(f"9{trump}")
        rng.shuffle(deck)
        hands = [" ".join(deck[4 * k:4 * k + 4]) for k in range(4)]
        one = then(dealt(hands, f"9{trump}"), "board", "pass", "bid 1", "pass")
        two = then(dealt([_swap(h, pair) for h in hands], f"9{trump}"),
                   "board", "pass", "bid 1", "pass")
        assert sorted(play_values(one).values()) == sorted(play_values(two).values())
        assert max_tricks(one) == max_tricks(two)


def test_equal_states_give_equal_answers_and_nothing_is_changed() -> None:
    state = random_position(random.Random(9), 5)
    copy = state_from_dict(state_to_dict(state))
    assert copy == state
    assert copy is not state
    first = play_values(state)
    assert play_values(copy) == first
    assert max_tricks(state) == max(first.values())
    assert all(isinstance(p, Play) for p in first)


# -- the API's edges ----------------------------------------------------------------

def test_outside_the_play_phase_is_a_value_error_naming_the_phase() -> None:
    with pytest.raises(ValueError, match="phase 'choose_dealer'"):
        max_tricks(new_game())
    bidding = dealt(["AC", "2C", "3C", "4C"], "2H")
    with pytest.raises(ValueError, match="phase 'bid'"):
        play_values(bidding)
    done = then(bidding, "board", "pass", "pass", "pass",
                "play AC", "play 2C", "play 3C", "play 4C")
    assert done.phase is Phase.GAME_OVER
    for implementation in IMPLEMENTATIONS:
        with pytest.raises(ValueError, match="phase 'game_over'"):
            max_tricks(done, implementation=implementation)


def test_an_unknown_implementation_is_a_value_error() -> None:
    state = random_position(random.Random(1), 2)
    with pytest.raises(ValueError, match="implementation must be one of"):
        play_values(state, implementation="fortran")


def test_the_implementations_agree_or_c_says_it_is_missing() -> None:
    rng = random.Random(5)
    for _ in range(20):
        state = random_position(rng, 1 + rng.randrange(4))
        python = play_values(state, implementation="python")
        assert play_values(state) == python
        if _solver_c.play_values(state) is None:
            with pytest.raises(RuntimeError, match="C double-dummy solver"):
                play_values(state, implementation="c")
        else:
            assert play_values(state, implementation="c") == python
            assert max_tricks(state, implementation="c") == max(python.values())


def test_the_oracle_itself_sees_the_rules() -> None:
    # The oracle is the library's own reducer: a refused card never appears.
    state = then(dealt(["TS 3S 8C", "AD 2H 5S", "6H 3H AH", "6S 3C 5D"], "8S"),
                 *_OPENING_BIDS)
    assert [str(p) for p in minimax_values(state)] == ["play 8C"]
    assert minimax_tricks(state) == 2


# -- the double-dummy table --------------------------------------------------------

def _opening(rng: random.Random, size: int) -> GameState:
    """A random deal of ``size`` cards each at its opening lead (boards bid
    about one bid in three, jokers dealt one time in two)."""
    while True:
        state = random_position(rng, size)
        if not state.tricks and not state.trick_indexes:  # no card played yet
            return state


def test_ba31_ba34_a_run_that_fails_is_cut_where_its_answer_rests_on_it() -> None:
    """A position the Python search once answered wrongly (2 tricks where 1
    is right, found by comparing it with the C search on 10,000 random
    positions): trumps spades, seat 1 must play its ace on the queen of
    diamonds, and seat 2, void in diamonds, may ruff (BA-31, BA-34).  The
    Python search let a run's lowest card stand for the whole run of equal
    cards and stored the answer under cards that cut through the run, so it
    was reused where the run's cards were not equal.  When every card fails,
    a run that reaches into the cards the answer rests on now adds its lowest
    card to them, as the C search does (``runs_cut``)."""
    state = then(dealt(["5S 7D JS JD 8D", "AD 4H 7C JC QC", "AS 3C 5H 8S KS",
                        "3S 5C JH BB QD"], "2S", dealer=1),
                 "pass", "bid 2", "pass", "pass", "play QD", "play 8D")
    assert state.current_player == 1
    want = minimax_values(state)
    assert {str(play): value for play, value in want.items()} == {"play AD": 1}
    for implementation in ("auto", "python"):
        clear_cache()
        assert play_values(state, implementation=implementation) == want
        assert max_tricks(state, implementation=implementation) == 1


def test_ba30_ba32_the_double_dummy_table_equals_minimax_with_each_seat_on_lead() -> None:
    import attrs

    from cardrules.back_alley.double_dummy import double_dummy_table

    rng = random.Random(2830)
    boards = 0
    for k in range(40):
        state = _opening(rng, 1 + k % 4)
        deal = state.deal
        assert deal is not None
        boards += any(bid.__class__ is Board for bid in deal.bids)
        want = []
        for leader in range(4):
            tricks = minimax_tricks(attrs.evolve(state, leader=leader, current_player=leader))
            team = (tricks, deal.hand_size - tricks)
            want.append(team if leader % 2 == 0 else team[::-1])
        for implementation in ("python", "c") if _solver_c.available() else ("python",):
            table = double_dummy_table(state, implementation=implementation)
            for leader in range(4):
                assert table.team_tricks(leader) == want[leader], (implementation, str(state))
                row = table.tricks[leader]
                assert row == (row[0], row[1], row[0], row[1])
            # the real leader's row is the solver's answer at the opening lead
            seat = state.current_player
            assert seat is not None
            assert table.team_tricks(seat)[seat % 2] == max_tricks(state)
    assert boards >= 5


def test_the_double_dummy_table_refuses_a_deal_already_under_way() -> None:
    from cardrules.back_alley.double_dummy import double_dummy_table

    state = _opening(random.Random(5), 3)
    state = apply(state, legal_actions(state)[0])
    with pytest.raises(ValueError, match="opening lead"):
        double_dummy_table(state)
    with pytest.raises(ValueError, match="opening lead"):
        double_dummy_table(new_game())


# -- the Python solver against the C one on larger positions ----------------------

def _raw_c_solver(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """The bridge to the C solver, loaded even under CARDRULES_PURE_PYTHON
    (the mutation tool runs the tests so, and this test is what checks the
    Python solver on positions too large for the minimax); a skip when the
    extension is not built."""
    try:
        raw = importlib.import_module("cardrules.back_alley.double_dummy._solver")
    except ImportError:
        pytest.skip("the C solver is not built")
    monkeypatch.setattr(_solver_c, "_loaded", True)
    monkeypatch.setattr(_solver_c, "_max_tricks", raw.max_tricks)
    monkeypatch.setattr(_solver_c, "_play_values", raw.play_values)
    return _solver_c


def test_ba30_ba34_python_equals_c_on_hundreds_of_five_to_seven_card_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The Python solver files its answers under a packed key (``_place``:
    # the leader, the BA-32 facts, the jokers' holders, every hand's length
    # in every class, the holders of the cards left): a shifted field there
    # mixes positions up only once the hands are long enough, so this runs
    # 300 positions of 5 to 7 cards each, trick starts and mid-trick, trump
    # and no trump, with the Python table warm across them as in play.
    c_solver = _raw_c_solver(monkeypatch)
    states = deep_positions(2812, 300)
    sizes = {len(state.hand_indexes[state.current_player or 0]) for state in states}
    assert sizes >= {5, 6, 7}
    assert sum(state.deal.trump is None for state in states if state.deal) == 150
    clear_cache()
    for state in states:
        want = c_solver.play_values(state)
        assert want is not None
        assert play_values(state, implementation="python") == want, state
        assert max_tricks(state, implementation="python") == max(want.values()), state
