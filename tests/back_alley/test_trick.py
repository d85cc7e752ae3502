"""The one home of Back Alley's trick rules, ``cardrules.back_alley.trick``:
the trump tables (BA-3, BA-13), the legal plays and
the reason a card is refused (BA-31 to BA-33), the trick winner (BA-34).

The rules are checked against the independent reference ``support.references.back_alley``,
and the reducer is checked to refuse exactly what :func:`why_not` refuses.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules.back_alley import Phase, apply, legal_actions, new_game, sample_chance
from cardrules.back_alley import game as ba_game
from cardrules.back_alley import state as ba_state
from cardrules.back_alley.actions import CARDS, Board, Play
from cardrules.back_alley.trick import (
    NO_TRUMP_TABLE,
    SUIT_TABLES,
    TRUMP_CLASS,
    legal_plays,
    table_for,
    trick_winner,
    why_not,
)
from cardrules.cards import Joker, Suit
from cardrules.errors import IllegalActionError
from support.references.back_alley import RefGame
from support.references.back_alley import trick_winner as reference_winner

_TRUMPS = [*Suit, None]


def _letter(trump: Suit | None) -> str | None:
    return None if trump is None else trump.char


@st.composite
def positions(draw: st.DrawFn) -> tuple[Suit | None, list[int], list[int], bool, bool]:
    """A trump, a hand, the cards already in the trick (disjoint from it), and
    the two BA-32 facts.  No joker is in play in a no-trump deal (BA-13)."""
    trump = draw(st.sampled_from(_TRUMPS))
    deck = list(range(54 if trump is not None else 52))
    cards = draw(st.permutations(deck))
    size = draw(st.integers(1, 13))
    played = draw(st.integers(0, 3))
    return (trump, cards[:size], cards[size:size + played], draw(st.booleans()),
            draw(st.booleans()))


def test_ba3_ba13_no_trump_has_its_own_table_apart_from_the_trump_class() -> None:
    # TRUMP_CLASS is the class of a trump card, not the row of the no-trump deal.
    assert len(SUIT_TABLES) == 4
    assert table_for(None) is NO_TRUMP_TABLE
    assert all(table_for(suit) is SUIT_TABLES[suit] for suit in Suit)
    jokers = {Joker.BIG.index, Joker.LITTLE.index}
    assert {i for i in range(54) if NO_TRUMP_TABLE.classes[i] == TRUMP_CLASS} == jokers
    for suit in Suit:
        trumps = {i for i in range(54) if SUIT_TABLES[suit].classes[i] == TRUMP_CLASS}
        assert trumps == {i for i in range(52) if i & 3 == suit} | jokers
    assert not hasattr(ba_state, "TABLES")
    assert not hasattr(ba_state, "TRUMP_CLASS")


def test_the_reducer_keeps_no_copy_of_the_trick_rules() -> None:
    for name in ("_allowed", "_may_play", "_why_not", "_trick_winner"):
        assert not hasattr(ba_game, name), name


@given(positions())
def test_ba31_to_ba33_legal_plays_agree_with_the_reference(
        position: tuple[Suit | None, list[int], list[int], bool, bool]) -> None:
    trump, hand, trick, trump_played, board = position
    ref = RefGame()
    ref.phase, ref.trump, ref.trump_played = "play", _letter(trump), trump_played
    seat = len(trick)
    ref.hands = [set(), set(), set(), set()]
    ref.hands[seat] = {str(CARDS[i]) for i in hand}
    ref.trick = [(k, str(CARDS[i])) for k, i in enumerate(trick)]
    ref.board_levels = [1 if board and s == seat else None for s in range(4)]
    ref.current_player = seat
    ours = legal_plays(hand, trick, table_for(trump), trump_played=trump_played,
                       claimed_board=board)
    assert {f"play {CARDS[i]}" for i in ours} == ref.legal()
    assert list(ours) == [i for i in hand if i in ours]  # in the order of the hand


@given(positions())
def test_ba31_to_ba33_why_not_refuses_exactly_the_illegal_cards(
        position: tuple[Suit | None, list[int], list[int], bool, bool]) -> None:
    trump, hand, trick, trump_played, board = position
    table = table_for(trump)
    allowed = legal_plays(hand, trick, table, trump_played=trump_played, claimed_board=board)
    for card in hand:
        refusal = why_not(card, 1, hand, trick, table, trump_played=trump_played,
                          claimed_board=board)
        assert (refusal is None) == (card in allowed)
        if refusal is not None:
            expected = ("BA-32" if not trick else "BA-33" if trick[0] >= 52 else "BA-31")
            assert refusal[0] == expected
    absent = next(i for i in range(54) if i not in hand)
    assert why_not(absent, 1, hand, trick, table, trump_played=trump_played,
                   claimed_board=board) == ("BA-31", f"seat 1 does not hold {CARDS[absent]}")


@given(st.sampled_from(_TRUMPS), st.data())
def test_ba34_trick_winner_agrees_with_the_reference(trump: Suit | None,
                                                     data: st.DataObject) -> None:
    deck = list(range(54 if trump is not None else 52))
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=1, max_size=4, unique=True))
    leader = data.draw(st.integers(0, 3))
    expected = reference_winner([str(CARDS[i]) for i in cards], _letter(trump))
    assert trick_winner(leader, cards, table_for(trump)) == (leader + expected) % 4


@pytest.mark.parametrize("seed", [1, 2])
def test_the_reducer_refuses_a_card_with_the_rule_and_reason_of_why_not(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(max_hand_size=6)
    checked = 0
    while not state.is_terminal and checked < 60:
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
            continue
        legal = legal_actions(state)
        if state.phase is Phase.PLAY:
            seat = state.current_player
            deal = state.deal
            assert seat is not None
            assert deal is not None
            hand = [c.index for c in state.hands[seat]]
            trick = [c.index for c in state.trick]
            for card in range(54):
                refusal = why_not(card, seat, hand, trick, deal.table,
                                  trump_played=state.trump_played,
                                  claimed_board=isinstance(deal.bids[seat], Board))
                action = Play(CARDS[card])
                assert (refusal is None) == (action in legal)
                if refusal is not None:
                    with pytest.raises(IllegalActionError) as caught:
                        apply(state, action)
                    assert (caught.value.rule, caught.value.message) == refusal
            checked += 1
        state = apply(state, rng.choice(legal))
    assert checked == 60
