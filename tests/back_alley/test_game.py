"""Back Alley, one or more named tests per rule BA-1 .. BA-50.

Every deal is built from an exact ``Shuffle`` order (see :func:`rigged`), so a
failure names the cards involved.  Rule ids refer to the rules page of the
documentation, "Back Alley".
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

import cardrules.back_alley as ba
from cardrules import DECK, Card, Hand, IllegalActionError, Joker, ParseError, Suit, engine
from cardrules import parse_card as _parse_card
from cardrules import parse_cards as _parse_cards
from cardrules.back_alley import (
    Action,
    Bid,
    Board,
    ChooseDealer,
    Contract,
    GameState,
    Pass,
    Phase,
    Play,
    Shuffle,
    action_from_dict,
    action_to_dict,
    apply,
    legal_actions,
    new_game,
    parse_action,
    sample_chance,
    score,
    state_from_dict,
    state_to_dict,
    view,
    view_to_dict,
)
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.checks import check_invariants
from cardrules.engine import GameRecord, RandomBot, check_game, rules_for
from support.ba_deals import rigged
from support.gamecheck import attrs_within, states_of

AnyCard = Card | Joker


def card(text: str) -> AnyCard:
    return _parse_card(text, jokers=True)


def cards(text: str) -> tuple[AnyCard, ...]:
    return _parse_cards(text, jokers=True)


def start(size: int, dealer: int) -> GameState:
    """A game whose first deal has ``size`` cards, waiting for its shuffle."""
    return apply(new_game(max_hand_size=size), ChooseDealer(dealer))


def act(state: GameState, *texts: str) -> GameState:
    for text in texts:
        state = apply(state, parse_action(text))
    return state


def deal(state: GameState, hands: Sequence[str], turned: str, after: str = "") -> GameState:
    assert state.dealer is not None
    return apply(state, rigged(state.dealer, hands, turned, after))


def texts(actions: Sequence[Action]) -> list[str]:
    return [str(a) for a in actions]


def refused(state: GameState, action: Action, rule: str, seat: int | None = None) -> str:
    """``action`` is refused citing ``rule`` and ``state`` is left unchanged."""
    before = state_to_dict(state)
    copy = state_from_dict(before)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action, seat=seat)
    assert info.value.rule == rule, str(info.value)
    assert state == copy
    assert state_to_dict(state) == before
    return info.value.message


def play_out(state: GameState, rng: random.Random) -> GameState:
    """Random legal actions until the deal in progress is over."""
    results = len(state.results)
    while len(state.results) == results and not state.is_chance:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


# -- BA-1 .. BA-3: table and cards --------------------------------------------------

def test_ba1_four_seats_in_two_partnerships() -> None:
    state = new_game()
    assert state.num_players == 4
    assert [ba.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert state.team_of(2) == 0
    assert view(state, 3).team == 1
    with pytest.raises(ValueError, match="no seat 4"):
        ba.team_of(4)
    with pytest.raises(ValueError, match="no seat True"):
        ba.team_of(True)


def test_ba2_a_game_deals_all_54_cards_with_two_distinct_jokers() -> None:
    state = deal(start(13, 0), ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
                                "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
                                "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
                                "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC BB"], "KC", "LB")
    held = [c for h in state.hands for c in h]
    assert len(held) == 52
    assert Joker.BIG in held
    assert Joker.LITTLE not in held
    assert set(held) | {state.trump_card} | set(state.undealt) == set(CARDS)
    assert state.undealt == Hand((Joker.LITTLE,), jokers=True)


def test_ba3_trump_ranks_bb_lb_then_ace_down() -> None:
    # Trump hearts; each seat plays a trump and the Big Blooper wins.
    state = deal(start(2, 3), ["BB 2S", "LB 3S", "AH 4S", "KH 5S"], "2H")
    state = act(state, "board", "pass", "pass", "pass")   # seat 0 boards and leads
    assert state.current_player == 0
    state = act(state, "play BB", "play LB", "play AH", "play KH")
    assert state.tricks[0].winner == 0
    # Plain suits rank ace high: AS beats KS led.
    state = deal(start(1, 3), ["KS", "AS", "2S", "QS"], "2H")
    state = act(state, "board", "pass", "pass", "pass", "play KS", "play AS", "play 2S",
                "play QS")
    assert state.results[0].tricks == (0, 1)


# -- BA-10 .. BA-13: deals -----------------------------------------------------------

def test_ba10_hand_sizes_run_13_down_to_1_and_back_to_13() -> None:
    rng = random.Random(10)
    state = new_game()
    sizes = []
    while not state.is_terminal:
        if state.phase is Phase.SHUFFLE:
            sizes.append(state.hand_size)
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    expected = [*range(13, 0, -1), *range(2, 14)]
    assert [r.hand_size for r in state.results] == expected
    assert [r.deal_number for r in state.results] == list(range(1, 26))
    assert sizes[0] == 13
    assert sorted(set(sizes)) == list(range(1, 14))
    assert state.deal_number == 25
    assert len(state.results) == 25


def test_ba10_short_game_setting_runs_down_to_one_and_back() -> None:
    assert [ba.hand_size_of(d, 3) for d in range(1, 6)] == [3, 2, 1, 2, 3]
    assert new_game(max_hand_size=3).settings.deals == 5
    with pytest.raises(ValueError, match="max_hand_size"):
        new_game(max_hand_size=0)
    with pytest.raises(ValueError, match="max_hand_size"):
        new_game(max_hand_size=True)


def test_ba11_first_dealer_is_a_chance_event_then_the_deal_passes_clockwise() -> None:
    state = new_game(max_hand_size=2)
    assert state.is_chance
    assert state.current_player is None
    assert legal_actions(state) == ()
    refused(state, ChooseDealer(4), "BA-11")
    refused(state, Pass(), "BA-11")
    state = apply(state, ChooseDealer(2))
    assert state.dealer == 2
    assert state.phase is Phase.SHUFFLE
    rng = random.Random(1)
    while not state.results:
        state = play_out(apply(state, sample_chance(state, rng)), rng)
    assert state.results[0].dealer == (2 + state.results[0].throw_ins) % 4
    assert state.dealer == (state.results[0].dealer + 1) % 4


def test_ba12_deal_one_at_a_time_clockwise_from_the_dealers_left() -> None:
    state = apply(start(3, 0), Shuffle(CARDS))
    # order[k] goes to seat (dealer + 1 + k) % 4: seat 1 gets order[0], order[4], order[8].
    assert state.hands[1] == Hand(CARDS[0:12:4], jokers=True)
    assert state.hands[2] == Hand(CARDS[1:12:4], jokers=True)
    assert state.hands[3] == Hand(CARDS[2:12:4], jokers=True)
    assert state.hands[0] == Hand(CARDS[3:12:4], jokers=True)
    # order[12] is turned: 4S, so spades are trump; it is out of play.
    assert state.trump_card == card("4S")
    assert state.trump is Suit.SPADES
    assert all(card("4S") not in h for h in state.hands)
    assert state.undealt == Hand(CARDS[13:], jokers=True)
    assert state.phase is Phase.BID
    assert state.current_player == 1


def test_ba12_the_shuffle_orders_all_54_cards() -> None:
    state = start(3, 0)
    refused(state, Shuffle(DECK), "BA-12")
    refused(state, Shuffle(CARDS[:53]), "BA-12")
    refused(state, ChooseDealer(1), "BA-12")
    refused(state, Bid(1), "BA-12")


def test_ba12_the_turned_card_is_never_playable() -> None:
    state = deal(start(2, 3), ["AS KS", "2S 3S", "4S 5S", "6S 7S"], "QS")
    state = act(state, "bid 1", "pass", "pass", "pass")
    refused(state, Play(card("QS")), "BA-31")


def test_ba13_turned_joker_other_joker_exchanged_for_the_next_card() -> None:
    state = deal(start(3, 1), ["2S 3S 4S", "5S 6S 7S", "8S 9S LB", "TS JS QS"], "BB", "KD")
    assert state.trump is None
    assert state.trump_card is Joker.BIG
    assert state.joker_discard is Joker.LITTLE
    assert state.deal is not None
    assert state.deal.exchanger == 2
    assert state.deal.taken == card("KD")
    assert state.hands[2] == Hand(cards("8S 9S KD"), jokers=True)
    assert card("KD") not in state.undealt
    assert Joker.LITTLE not in state.undealt
    check_invariants(state)


def test_ba13_turned_little_blooper_big_blooper_exchanged() -> None:
    state = deal(start(2, 0), ["BB 2C", "3C 4C", "5C 6C", "7C 8C"], "LB", "AH")
    assert state.trump is None
    assert state.joker_discard is Joker.BIG
    assert state.hands[0] == Hand(cards("2C AH"), jokers=True)


def test_ba13_turned_joker_other_joker_undealt_nothing_else_happens() -> None:
    state = deal(start(3, 1), ["2S 3S 4S", "5S 6S 7S", "8S 9S TS", "JS QS KS"], "BB", "LB")
    assert state.trump is None
    assert state.joker_discard is None
    assert state.deal is not None
    assert state.deal.exchanger is None
    assert state.deal.taken is None
    assert Joker.LITTLE in state.undealt
    assert state.hands[2] == Hand(cards("8S 9S TS"), jokers=True)


def test_ba13_thirteen_cards_the_replacement_is_the_last_card() -> None:
    hands = ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
             "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
             "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
             "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC BB"]
    state = deal(start(13, 2), hands, "LB", "KC")
    assert state.joker_discard is Joker.BIG
    assert state.undealt == Hand()
    assert card("KC") in state.hands[3]
    assert Joker.BIG not in state.hands[3]


def test_ba13_no_trump_deal_has_no_trumps_to_restrict_or_follow() -> None:
    state = deal(start(2, 3), ["AS 2H", "KH 3S", "4H 5S", "6H 7S"], "BB", "LB")
    state = act(state, "bid 1", "pass", "pass", "pass")
    # Any card may be led (BA-32 needs a trump suit), and hearts follow hearts only.
    assert texts(legal_actions(state)) == ["play AS", "play 2H"]
    state = act(state, "play 2H")
    assert texts(legal_actions(state)) == ["play KH"]


# -- BA-20 .. BA-25: bidding -----------------------------------------------------------

def test_ba20_bidding_starts_left_of_the_dealer_and_goes_clockwise() -> None:
    state = deal(start(3, 2), ["AS KS QS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"], "2C")
    assert state.current_player == 3
    refused(state, Pass(), "BA-20", seat=0)
    seen = []
    for text in ("bid 1", "pass", "pass", "bid 2"):
        assert state.current_player is not None
        seen.append(state.current_player)
        state = apply(state, parse_action(text), seat=state.current_player)
    assert seen == [3, 0, 1, 2]
    assert state.phase is Phase.PLAY


def test_ba20_cards_cannot_be_played_while_bidding() -> None:
    state = deal(start(3, 2), ["AS KS QS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"], "2C")
    refused(state, Play(card("8H")), "BA-20")


def test_ba21_legal_bids_are_pass_one_to_size_less_one_and_board() -> None:
    state = deal(start(3, 0), ["AS KS QS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"], "2C")
    assert texts(legal_actions(state)) == ["pass", "bid 1", "bid 2", "board"]
    refused(state, Bid(3), "BA-21")
    refused(state, Bid(13), "BA-21")
    with pytest.raises(ValueError, match="at least 1"):
        Bid(0)
    with pytest.raises(ValueError, match="whole number"):
        Bid(True)


def test_ba21_the_one_card_deal_allows_only_pass_and_board() -> None:
    state = deal(start(1, 0), ["AS", "2H", "5H", "8H"], "2C")
    assert texts(legal_actions(state)) == ["pass", "board"]
    message = refused(state, Bid(1), "BA-21")
    assert "only pass and board" in message


def test_ba22_a_bid_need_not_be_higher() -> None:
    state = deal(start(4, 3), ["AS KS QS JS", "2H 3H 4H 5H", "6H 7H 8H 9H", "TH JH QH KH"], "2C")
    state = act(state, "bid 3", "bid 1", "pass", "bid 1")
    assert state.bids == (Bid(3), Bid(1), Pass(), Bid(1))


@pytest.mark.parametrize("boards", [1, 2, 3, 4])
def test_ba23_boards_are_numbered_in_the_order_claimed(boards: int) -> None:
    state = deal(start(2, 3), ["AS KS", "2H 3H", "4H 5H", "6H 7H"], "2C")
    state = act(state, *(["board"] * boards + ["pass"] * (4 - boards)))
    assert state.board_levels == tuple(range(1, boards + 1)) + (0,) * (4 - boards)
    # the last board claimed is the highest and leads (BA-30)
    assert state.leader == boards - 1
    contracts = state.contracts
    assert contracts is not None
    assert contracts[0].board == (3 if boards >= 3 else 1)
    assert contracts[1].board == (4 if boards == 4 else 2 if boards >= 2 else 0)
    names = {1: "board", 2: "double board", 3: "triple board", 4: "quadruple board"}
    assert str(Contract(board=boards)) == names[boards]


def test_ba24_board_beats_the_partners_number() -> None:
    state = deal(start(4, 3), ["AS KS QS JS", "2H 3H 4H 5H", "6H 7H 8H 9H", "TH JH QH KH"], "2C")
    state = act(state, "bid 3", "pass", "board", "bid 2")
    assert state.contracts == (Contract(board=1), Contract(tricks=2))


def test_ba24_numeric_contract_may_exceed_the_hand_size() -> None:
    rng = random.Random(24)
    state = deal(start(3, 3), ["AS KS QS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"], "2C")
    state = act(state, "bid 2", "pass", "bid 2", "pass")
    assert state.contracts == (Contract(tricks=4), Contract())
    result = play_out(state, rng).results[0]
    assert result.contracts[0] == Contract(tricks=4)
    assert result.points[0] == -20   # 4 tricks cannot be made with 3 cards


def test_ba25_four_passes_throw_in_and_move_the_dealer() -> None:
    state = deal(start(3, 1), ["AS KS QS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"], "2C")
    state = act(state, "pass", "pass", "pass", "pass")
    assert state.phase is Phase.SHUFFLE
    assert state.dealer == 2
    assert state.deal_number == 1
    assert state.hand_size == 3
    assert state.results == ()
    assert state.history.throw_ins == 1
    assert state.scores == (0, 0)
    assert not any(state.hands)
    check_invariants(state)
    state = deal(state, ["AS KS QS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"], "2C")
    assert state.current_player == 3
    state = act(state, "board", "pass", "pass", "pass")
    state = play_out(state, random.Random(0))
    assert state.results[0].throw_ins == 1
    assert state.results[0].dealer == 2
    assert state.dealer == 3
    assert state.deal_number == 2
    assert state.history.throw_ins == 0


# -- BA-30 .. BA-34: play -----------------------------------------------------------

FOUR = ["AS KS QS JS", "2H 3H 4H 5H", "6H 7H 8H 9H", "TH JH QH KH"]


@pytest.mark.parametrize(("bids", "leader"), [
    (("bid 1", "bid 3", "bid 2", "pass"), 1),      # highest number
    (("bid 2", "bid 3", "pass", "bid 3"), 1),      # equal numbers: the earliest bidder
    (("bid 3", "board", "bid 3", "pass"), 1),      # any board beats any number
    (("board", "pass", "board", "bid 3"), 2),      # a double board beats a board
    (("pass", "pass", "pass", "bid 1"), 3),        # the only number
])
def test_ba30_the_highest_bidder_leads(bids: tuple[str, ...], leader: int) -> None:
    state = deal(start(4, 3), FOUR, "2C")   # seat 0 bids first
    state = act(state, *bids)
    assert state.phase is Phase.PLAY
    assert state.leader == leader == state.current_player


def test_ba30_earliest_of_equal_numbers_counts_from_the_dealers_left() -> None:
    state = deal(start(4, 1), FOUR, "2C")   # seat 2 bids first, then 3, 0, 1
    state = act(state, "bid 2", "bid 2", "bid 2", "bid 2")
    assert state.leader == 2


def test_ba31_follow_the_suit_led() -> None:
    state = deal(start(3, 3), ["AS 2D 3D", "KS 4H 5D", "QS JS 6H", "7H 8H 9H"], "2C")
    state = act(state, "bid 1", "pass", "pass", "pass", "play AS")
    assert texts(legal_actions(state)) == ["play KS"]
    refused(state, Play(card("4H")), "BA-31")
    state = act(state, "play KS")
    assert texts(legal_actions(state)) == ["play JS", "play QS"]
    state = act(state, "play QS")
    # seat 3 has no spade: any card
    assert texts(legal_actions(state)) == ["play 7H", "play 8H", "play 9H"]


def test_ba31_jokers_do_not_follow_a_plain_lead() -> None:
    state = deal(start(2, 3), ["AS 2D", "BB KS", "LB 3D", "4D 5D"], "2H")
    state = act(state, "bid 1", "pass", "pass", "pass", "play AS")
    assert texts(legal_actions(state)) == ["play KS"]
    refused(state, Play(Joker.BIG), "BA-31")
    state = act(state, "play KS")
    # seat 2 has no spade: the joker (a trump) may be played, as may anything
    assert texts(legal_actions(state)) == ["play 3D", "play LB"]


def test_ba31_jokers_follow_a_trump_lead() -> None:
    # Seat 0 claimed board, so it may lead trump at once (BA-32).
    state = deal(start(2, 3), ["AH 2D", "LB 3S", "4S 5S", "2H 6S"], "3H")
    state = act(state, "board", "pass", "pass", "pass", "play AH")
    assert texts(legal_actions(state)) == ["play LB"]          # the joker must follow
    message = refused(state, Play(card("3S")), "BA-31")
    assert "trump" in message
    state = act(state, "play LB")
    assert texts(legal_actions(state)) == ["play 4S", "play 5S"]   # no trump: any card
    state = act(state, "play 4S")
    assert texts(legal_actions(state)) == ["play 2H"]


def test_ba32_no_trump_lead_on_the_first_trick() -> None:
    state = deal(start(2, 3), ["AH 2D", "3S 4S", "5S 6S", "7S 8S"], "3H")
    state = act(state, "bid 1", "pass", "pass", "pass")
    assert texts(legal_actions(state)) == ["play 2D"]
    message = refused(state, Play(card("AH")), "BA-32")
    assert "earlier trick" in message


def test_ba32_a_joker_lead_is_a_trump_lead() -> None:
    state = deal(start(2, 3), ["BB 2D", "3S 4S", "5S 6S", "7S 8S"], "3H")
    state = act(state, "bid 1", "pass", "pass", "pass")
    refused(state, Play(Joker.BIG), "BA-32")


def test_ba32_restriction_applies_on_later_tricks_until_trump_is_played() -> None:
    state = deal(start(3, 3), ["AS 2S AH", "3S 4S 5S", "6S 7S 8S", "9S TS JS"], "2H")
    state = act(state, "bid 1", "pass", "pass", "pass", "play AS", "play 3S", "play 6S",
                "play 9S")
    assert state.leader == 0
    assert state.trump_played is False
    assert texts(legal_actions(state)) == ["play 2S"]
    refused(state, Play(card("AH")), "BA-32")


def test_ba32_a_trump_played_to_an_earlier_trick_lifts_the_restriction() -> None:
    # Trick 1: seat 3, void in spades, ruffs with 2H (a trump played by a follower).
    state = deal(start(4, 3), ["AS KD AH 5C", "3S 4S 5S 6S", "7S 8S 9S TS", "2H 3D 4D 6C"],
                 "9H")
    state = act(state, "bid 1", "pass", "pass", "pass", "play AS", "play 3S", "play 7S",
                "play 2H")
    assert state.trump_played
    assert state.tricks[0].winner == 3
    # Trick 2: seat 3 leads 3D, seat 0 must follow with KD and wins.
    state = act(state, "play 3D", "play KD", "play 4S", "play 8S")
    assert state.tricks[1].winner == 0
    assert state.leader == 0
    # Seat 0 holds AH and 5C and may now lead either.
    assert texts(legal_actions(state)) == ["play AH", "play 5C"]


def test_ba32_own_board_lifts_the_restriction() -> None:
    hands = ["AH 2D", "3S 4S", "KH 3D", "5S 6S"]
    own = act(deal(start(2, 3), hands, "2H"), "board", "pass", "pass", "pass")
    assert own.leader == 0
    assert texts(legal_actions(own)) == ["play AH", "play 2D"]
    theirs = act(deal(start(2, 3), hands, "2H"), "bid 1", "pass", "board", "pass")
    assert theirs.leader == 2
    assert texts(legal_actions(theirs)) == ["play 3D", "play KH"]


def test_ba32_a_partners_board_does_not_lift_the_restriction() -> None:
    hands = ["AS 2H KS", "3S 4S 8S", "5S 3D 4D", "6S 7S 9S"]
    state = act(deal(start(3, 3), hands, "9H"), "bid 1", "pass", "board", "pass")
    assert state.leader == 2                     # the board leads (BA-30)
    state = act(state, "play 5S", "play 6S", "play AS", "play 3S")
    assert state.tricks[0].winner == 0
    assert state.leader == 0
    assert not state.trump_played
    # Only seat 0's partner claimed board: seat 0 must lead its plain card.
    assert texts(legal_actions(state)) == ["play KS"]
    refused(state, Play(card("2H")), "BA-32")


def test_ba32_a_hand_of_only_trumps_may_lead_trump() -> None:
    state = deal(start(2, 3), ["AH LB", "3S 4S", "5S 6S", "7S 8S"], "2H")
    state = act(state, "bid 1", "pass", "pass", "pass")
    assert texts(legal_actions(state)) == ["play AH", "play LB"]
    state = act(state, "play LB")
    assert state.trump_played


def test_ba33_big_blooper_led_forces_the_highest_trump() -> None:
    state = deal(start(3, 3), ["BB 2D 3D", "LB 5H 4S", "AH 2H 5S", "6S 7S 8S"], "3H")
    state = act(state, "board", "pass", "pass", "pass", "play BB")
    assert texts(legal_actions(state)) == ["play LB"]           # LB over 5H
    message = refused(state, Play(card("5H")), "BA-33")
    assert "highest trump, LB" in message
    state = act(state, "play LB")
    assert texts(legal_actions(state)) == ["play AH"]           # AH over 2H
    state = act(state, "play AH")
    assert texts(legal_actions(state)) == ["play 6S", "play 7S", "play 8S"]   # no trump


def test_ba33_little_blooper_led_forces_the_lowest_trump() -> None:
    state = deal(start(3, 3), ["LB 2D 3D", "BB 5H 4S", "AH 2H 5S", "6S 7S 8S"], "3H")
    state = act(state, "board", "pass", "pass", "pass", "play LB")
    assert texts(legal_actions(state)) == ["play 5H"]           # 5H, not BB
    refused(state, Play(Joker.BIG), "BA-33")
    state = act(state, "play 5H")
    assert texts(legal_actions(state)) == ["play 2H"]
    state = act(state, "play 2H", "play 6S")
    assert state.tricks[0].winner == 0                          # LB beats 5H and 2H


def test_ba33_little_blooper_led_bb_only_when_it_is_the_only_trump() -> None:
    state = deal(start(2, 3), ["LB 2D", "BB 4S", "5S 6S", "7S 8S"], "3H")
    state = act(state, "board", "pass", "pass", "pass", "play LB")
    assert texts(legal_actions(state)) == ["play BB"]
    state = act(state, "play BB", "play 5S", "play 7S")
    assert state.tricks[0].winner == 1


def test_ba34_highest_trump_wins_else_highest_of_the_suit_led() -> None:
    state = deal(start(2, 3), ["KS 2D", "AS 3D", "2H 4D", "QS 5D"], "3H")
    state = act(state, "bid 1", "pass", "pass", "pass", "play KS", "play AS", "play 2H",
                "play QS")
    assert state.tricks[0].winner == 2
    assert state.leader == 2
    assert state.current_player == 2
    assert state.tricks_won == (0, 0, 1, 0)
    state = act(state, "play 4D", "play 5D", "play 2D", "play 3D")
    # seat 2 led 4D; 5D (seat 3) is the highest diamond and no trump was played
    assert state.results[0].dealer == 3
    result = state.results[0]
    assert result.tricks == (1, 1)


def test_ba34_off_suit_cards_never_win() -> None:
    state = deal(start(1, 3), ["2S", "AD", "AH", "3S"], "3C")
    state = act(state, "board", "pass", "pass", "pass", "play 2S", "play AD", "play AH",
                "play 3S")
    assert state.results[0].tricks == (0, 1)   # 3S beats 2S; the aces are off suit


# -- BA-40 .. BA-43: scoring ---------------------------------------------------------

def test_ba40_made_with_overtricks_and_a_zero_contract() -> None:
    state = deal(start(3, 3), ["AS KS QS", "2C 3C 4C", "5C 6C 7C", "8C 9C TC"], "2H")
    state = act(state, "bid 2", "pass", "pass", "pass", "play AS", "play 2C", "play 5C",
                "play 8C", "play KS", "play 3C", "play 6C", "play 9C", "play QS", "play 4C",
                "play 7C", "play TC")
    result = state.results[0]
    assert result.contracts == (Contract(tricks=2), Contract(tricks=0))
    assert result.tricks == (3, 0)
    assert result.points == (5 * 2 + 1, 0)
    assert state.scores == (11, 0)


def test_ba40_set_loses_five_per_trick_bid() -> None:
    state = deal(start(2, 3), ["AS KS", "2C 3C", "5C 6C", "8C 9C"], "2H")
    state = act(state, "bid 1", "bid 1", "pass", "pass", "play AS", "play 2C", "play 5C",
                "play 8C", "play KS", "play 3C", "play 6C", "play 9C")
    assert state.results[0].points == (6, -5)


def test_ba40_zero_contract_scores_the_tricks_taken() -> None:
    state = deal(start(2, 3), ["2C 3C", "AS KS", "5C 6C", "8C 9C"], "2H")
    state = act(state, "bid 1", "pass", "pass", "pass", "play 2C", "play AS", "play 5C",
                "play 8C", "play 9C", "play 3C", "play KS", "play 6C")
    assert state.results[0].tricks == (0, 2)   # 8C and 9C (seat 3) take both
    assert state.results[0].contracts[1] == Contract()
    assert state.results[0].points == (-5, 2)


def test_ba40_ba41_score_function() -> None:
    assert score(Contract(tricks=3), 3, 5) == 15
    assert score(Contract(tricks=3), 5, 5) == 17
    assert score(Contract(tricks=3), 2, 5) == -15
    assert score(Contract(), 0, 5) == 0
    assert score(Contract(tricks=7), 5, 5) == -35
    for level in (1, 2, 3, 4):
        assert score(Contract(board=level), 5, 5) == 50 * level
        assert score(Contract(board=level), 4, 5) == -50 * level


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_ba41_board_made_at_each_level(level: int) -> None:
    # Dealer 0: seats 1, 2, 3 bid first; level - 1 of them board, then seat 0 boards
    # last (the highest level), leads, and takes both tricks.
    state = deal(start(2, 0), ["AS KS", "2C 3C", "5C 6C", "8C 9C"], "2H")
    others = ["board"] * (level - 1) + ["pass"] * (4 - level)
    state = act(state, *others, "board")
    assert state.leader == 0
    assert state.board_levels[0] == level
    state = play_out(state, random.Random(level))
    result = state.results[0]
    assert result.contracts[0] == Contract(board=level)
    assert result.tricks == (2, 0)
    assert result.points[0] == 10 * 2 * level
    team1 = max(state.results[0].contracts[1].board, 0)
    assert result.points[1] == (-10 * 2 * team1 if team1 else 0)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_ba41_board_failed_at_each_level(level: int) -> None:
    state = deal(start(2, 0), ["2S 3S", "AS 3C", "5C 6C", "8C 9C"], "2H")
    others = ["board"] * (level - 1) + ["pass"] * (4 - level)
    state = act(state, *others, "board", "play 2S", "play AS")   # seat 1 must follow: AS wins
    state = play_out(state, random.Random(level))
    result = state.results[0]
    assert result.contracts[0] == Contract(board=level)
    assert result.tricks[0] < 2
    assert result.points[0] == -10 * 2 * level


def test_ba42_both_teams_board_each_scored_on_its_own() -> None:
    state = deal(start(2, 0), ["AS KS", "2C 3C", "5C 6C", "8C 9C"], "2H")
    state = act(state, "board", "pass", "pass", "board")   # seat 1 board 1, seat 0 board 2
    assert state.contracts == (Contract(board=2), Contract(board=1))
    state = play_out(state, random.Random(4))
    assert state.results[0].points == (40, -20)
    assert state.scores == (40, -20)


def _draw_game() -> GameState:
    """Three deals (2, 1, 2 cards) that end level: 5/5, then -10/+1, then +6/-5."""
    state = start(2, 3)
    state = deal(state, ["AS 3C", "AC 3S", "4S 5C", "5S 6C"], "2D")
    state = act(state, "bid 1", "bid 1", "pass", "pass", "play AS", "play 3S", "play 4S",
                "play 5S", "play 3C", "play AC", "play 5C", "play 6C")
    assert state.scores == (5, 5)
    state = deal(state, ["3S", "4S", "2S", "AS"], "2D")
    state = act(state, "pass", "board", "pass", "pass", "play 2S", "play AS", "play 3S",
                "play 4S")
    assert state.results[1].points == (-10, 1)
    state = deal(state, ["4H 5H", "6H 7H", "AS KS", "2H 3H"], "2C")
    return act(state, "bid 1", "bid 1", "pass", "pass", "play AS", "play 2H", "play 4H",
                "play 6H", "play KS", "play 3H", "play 5H", "play 7H")


def test_ba43_equal_totals_are_a_draw() -> None:
    state = _draw_game()
    assert state.results[2].points == (6, -5)
    assert state.is_terminal
    assert state.phase is Phase.GAME_OVER
    assert state.scores == (1, 1)
    assert state.winner is None
    assert "a draw" in str(state)
    refused(state, Pass(), "BA-43")
    assert legal_actions(state) == ()
    with pytest.raises(IllegalActionError):
        sample_chance(state, random.Random(0))


def test_ba43_the_higher_total_wins() -> None:
    state = deal(start(1, 0), ["2S", "AS", "3S", "4S"], "2H")
    state = act(state, "board", "pass", "pass", "pass", "play AS", "play 3S", "play 4S",
                "play 2S")
    assert state.is_terminal
    assert state.scores == (0, 10)
    assert state.winner == 1
    assert "team 1 wins" in str(state)


# -- refusals and seats --------------------------------------------------------------

def test_illegal_plays_are_refused_with_the_state_unchanged() -> None:
    state = deal(start(3, 3), ["AS 2D 3D", "KS 4H 5D", "QS JS 6H", "7H 8H 9H"], "2C")
    refused(state, Play(card("AS")), "BA-20")
    state = act(state, "bid 1", "pass", "pass", "pass")
    message = refused(state, Play(card("KS")), "BA-31")
    assert "does not hold KS" in message
    refused(state, Play(Joker.BIG), "BA-31")
    refused(state, Pass(), "BA-20")
    refused(state, Bid(1), "BA-20")
    refused(state, ChooseDealer(0), "BA-30")
    refused(state, Shuffle(CARDS), "BA-30")
    with pytest.raises(TypeError, match="parse_action"):
        apply(state, "play AS")  # type: ignore[arg-type]


def test_a_non_action_is_a_type_error_at_game_over_too() -> None:
    # Once: at game over (BA-43) apply answered a non-action with
    # IllegalActionError, where every other phase raises TypeError.
    rng = random.Random(3)
    state = new_game(max_hand_size=1)
    while not state.is_terminal:
        state = apply(state, ba.sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    for thing in ("pass", None, 3, ("bid", 1)):
        with pytest.raises(TypeError, match="not a Back Alley action"):
            apply(state, thing)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="not a Back Alley action"):
            apply(state, thing, seat=1)  # type: ignore[arg-type]
    refused(state, Pass(), "BA-43")                      # a real action: the game is over
    fresh = new_game()
    with pytest.raises(TypeError, match="not a Back Alley action"):
        apply(fresh, "dealer 0", seat=0)  # type: ignore[arg-type]


def test_seat_must_be_the_player_to_act_and_a_plain_int() -> None:
    state = deal(start(3, 3), ["AS 2D 3D", "KS 4H 5D", "QS JS 6H", "7H 8H 9H"], "2C")
    assert state.current_player == 0
    assert apply(state, Pass(), seat=0).current_player == 1
    refused(state, Pass(), "BA-20", seat=1)
    for bad in (True, 0.0, 4, -1, "0"):
        with pytest.raises(ValueError, match="no seat"):
            apply(state, Pass(), seat=bad)  # type: ignore[arg-type]
    refused(start(3, 3), Shuffle(CARDS), "BA-12", seat=0)
    state = act(state, "bid 1", "pass", "pass", "pass")
    refused(state, Play(card("AS")), "BA-34", seat=2)
    with pytest.raises(ValueError, match="no seat"):
        view(state, 4)


# -- actions -------------------------------------------------------------------------

def test_actions_text_and_json_forms_round_trip() -> None:
    samples: list[Action] = [Pass(), Bid(3), Bid(12), Board(), Play(card("TD")),
                             Play(Joker.BIG), Play(Joker.LITTLE), ChooseDealer(2),
                             Shuffle(CARDS)]
    for action in samples:
        assert parse_action(str(action)) == action
        data = json.loads(json.dumps(action_to_dict(action)))
        assert action_from_dict(data) == action
    assert str(Play(card("10h"))) == "play TH"
    assert parse_action("  Bid   7 ") == Bid(7)


@pytest.mark.parametrize(("text", "position"), [
    ("bid", 3), ("bid x", 4), ("bid -1", 4), ("bid 1.5", 4), ("play", 4), ("play ZZ", 5),
    ("pass now", 5), ("board 2", 6), ("fold", 0), ("play AS KS", 5), ("shuffle AS AS", 11),
])
def test_parse_action_refuses_bad_text_naming_the_position(text: str, position: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_action(text)
    assert info.value.position == position


@pytest.mark.parametrize("data", [
    {"type": "bid"}, {"type": "bid", "tricks": 0}, {"type": "bid", "tricks": "3"},
    {"type": "pass", "extra": 1}, {"type": "play", "card": "AS KS"}, {"type": "play"},
    {"type": "raise"}, {"tricks": 3}, ["pass"],
])
def test_action_from_dict_is_strict(data: object) -> None:
    with pytest.raises(ParseError):
        action_from_dict(data)  # type: ignore[arg-type]


def test_play_and_bid_constructors_check_types() -> None:
    with pytest.raises(TypeError, match="Card or a Joker"):
        Play("AS")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Card or a Joker"):
        Play(52)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole number"):
        Bid(2.0)  # type: ignore[arg-type]


# -- views (BA-50) ------------------------------------------------------------------

def test_ba50_views_show_own_hand_and_public_facts_only() -> None:
    state = deal(start(3, 1), ["2S 3S 4S", "5S 6S 7S", "8S 9S LB", "TS JS QS"], "BB", "KD")
    state = act(state, "bid 1", "pass", "pass", "pass")
    for seat in range(4):
        v = view(state, seat)
        assert v.hand == state.hands[seat]
        assert v.trump_card is Joker.BIG
        assert v.joker_discard is Joker.LITTLE
        assert v.exchanger == 2
        assert v.taken == (card("KD") if seat == 2 else None)
        assert v.bids == state.bids
        assert v.hand_sizes == (3, 3, 3, 3)
        shown = json.dumps(view_to_dict(v))
        for other in range(4):
            if other != seat:
                for c in state.hands[other]:
                    assert f'"{c}"' not in shown, (seat, str(c))
        for c in state.undealt:
            assert f'"{c}"' not in shown
    assert "took KD" in str(view(state, 2))
    assert "KD" not in str(view(state, 0))


def test_ba50_cards_played_and_trick_winners_are_public() -> None:
    state = deal(start(2, 3), ["KS 2D", "AS 3D", "2H 4D", "QS 5D"], "3H")
    state = act(state, "bid 1", "pass", "pass", "pass", "play KS", "play AS", "play 2H",
                "play QS", "play 4D")
    v = view(state, 1)
    assert v.tricks == state.tricks
    assert v.tricks[0].winner == 2
    assert v.trick == (card("4D"),)
    assert v.leader == 2
    assert v.tricks_won == (0, 0, 1, 0)
    assert v.trump_played
    assert v.hand_sizes == (1, 1, 0, 1)


# -- JSON states ---------------------------------------------------------------------

def test_state_json_round_trip_through_a_game() -> None:
    rng = random.Random(5)
    state = new_game(max_hand_size=4)
    while not state.is_terminal:
        text = json.dumps(state_to_dict(state))
        again = state_from_dict(json.loads(text))
        assert again == state
        assert json.dumps(state_to_dict(again)) == text
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    assert state_from_dict(state_to_dict(state)) == state


def _mid_play() -> GameState:
    state = deal(start(3, 3), ["AS 2D 3D", "KS 4H 5D", "QS JS 6H", "7H 8H 9H"], "2C")
    return act(state, "bid 1", "pass", "pass", "pass", "play AS", "play KS", "play QS",
               "play 7H", "play 2D")


def _tamper(path: Sequence[str | int], value: object) -> dict[str, object]:
    data = json.loads(json.dumps(state_to_dict(_mid_play())))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data  # type: ignore[no-any-return]


@pytest.mark.parametrize(("path", "value", "match"), [
    (["hands", 1, 0], "AS", "54 cards"),                       # a card twice
    (["hands", 1], ["4H"], "54 cards"),                        # a card missing
    (["trick"], ["KC"], "54 cards"),
    (["tricks", 0, "winner"], 1, "BA-34"),
    (["tricks_won"], [0, 1, 0, 0], "tricks won"),
    (["current_player"], 2, "clockwise"),
    (["trump_played"], True, "BA-32"),
    (["deal", "bids", 0], {"type": "bid", "tricks": 3}, "BA-21"),
    (["deal", "bids", 1], None, "BA-20"),
    (["dealer"], 2, "clockwise"),
    (["history", "scores"], [1, 0], "sums"),
    (["phase"], "bid", "next bidder"),
    (["deal", "trump_card"], "BB", "54 cards"),
    (["settings", "max_hand_size"], 14, "max_hand_size"),
    (["hands", 0], ["2D", "2D"], "repeated"),
    (["tricks_won"], [True, 0, 0, 1], "whole number"),
    (["leader"], 7, "at most 3"),
    (["format"], "cardrules/back_alley/state/0", "format"),
    (["surplus"], 1, "unknown key"),
    (["deal", "joker_discard"], "AS", "joker"),
])
def test_state_from_dict_refuses_tampered_states(path: list[str | int], value: object,
                                                 match: str) -> None:
    with pytest.raises(ParseError, match=match):
        state_from_dict(_tamper(path, value))


def test_state_from_dict_checks_results_against_the_rules() -> None:
    rng = random.Random(9)
    state = new_game(max_hand_size=2)
    while len(state.results) < 2:
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    good = state_to_dict(state)
    assert state_from_dict(good) == state
    for field, value in (("points", [99, 0]), ("tricks", [3, 0]), ("hand_size", 5),
                         ("dealer", (state.results[0].dealer + 1) % 4), ("deal_number", 2),
                         ("contracts", [{"tricks": 9, "board": 0}] * 2),
                         ("bids", [{"type": "pass"}] * 4)):
        bad = json.loads(json.dumps(good))
        bad["history"]["results"][0][field] = value
        with pytest.raises(ParseError):
            state_from_dict(bad)


# -- str, records, engine ------------------------------------------------------------

def test_str_state_is_a_compact_table() -> None:
    text = str(_mid_play())
    assert text.splitlines()[0].startswith("Back Alley, deal 1 of 5 (3 cards), play, dealer 3")
    assert "turned 2C: trump C" in text
    assert "trick led by 0: 2D" in text
    assert "   1    1 pass     0 4H 5D" in text


def test_record_replays_through_the_registry() -> None:
    game = ba.RULES.play([RandomBot(s) for s in range(4)], {"max_hand_size": 3}, seed=8)
    record = game.record
    assert record.game == "back_alley"
    assert rules_for("back_alley") is ba.RULES
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert list(again.replay())[-1] == game.state
    assert GameRecord.from_text(record.to_text()) == record
    assert list(ba.RULES.replay(record))[-1] == game.state


def test_play_game_plays_a_full_game() -> None:
    game = ba.play_game([RandomBot(s) for s in range(4)], seed=3)
    final = game.state
    assert list(game.record.replay())[-1] == final
    assert final.is_terminal
    assert len(final.results) == 25
    assert final.scores == tuple(sum(r.points[t] for r in final.results) for t in (0, 1))


def test_conformance_check_passes() -> None:
    report = check_game(ba, games=4, seed=11)
    assert report.games == 4
    assert report.actions > 100
    assert report.refused > 100


def test_conformance_check_passes_a_full_size_game() -> None:
    report = check_game(ba, games=1, seed=12, settings={"max_hand_size": 13}, max_legal=2)
    assert report.actions > 800


def test_engine_names_have_one_import_path() -> None:
    # RandomBot and GameRecord are the engine's (cardrules.engine); the chance
    # actions stay importable here because they are part of the Action union.
    for name in ("RandomBot", "GameRecord", "Bot"):
        assert not hasattr(ba, name), name
        assert name not in ba.__all__
    assert "RandomBot" not in ba.bots.__all__
    assert ba.ChooseDealer is engine.ChooseDealer
    assert ba.Shuffle is engine.Shuffle
    assert {"ChooseDealer", "Shuffle"} <= set(ba.__all__)
    assert ba.RULES.bots["random"] is RandomBot


def test_one_card_deals_say_card_not_cards() -> None:
    """A short game's one-card deal reads "1 card" in states, views and results."""
    rng = random.Random(1)
    state = new_game(max_hand_size=1)
    while not state.is_terminal:
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
    assert str(state).splitlines()[0].startswith("Back Alley, deal 1 of 1 (1 card), ")
    assert str(state.results[0]).startswith("deal 1 (1 card, dealer ")
    assert "(1 card), game_over" in str(view(state, 0)).splitlines()[0]


# == attrs.evolve on the records ===========================================================
# ``attrs.evolve`` on Back Alley's records: every init argument is
# an attribute of the same name holding what the argument takes, so passing a
# record's own values back gives the record back, and a name that is not an
# argument (``hands``, ``trick``: cards derived from the card indexes) is refused
# with a TypeError naming it, never taken in another representation.

def _states() -> Iterator[GameState]:
    """Every state of a short random game (a few seeds), in order: each phase,
    a trick under way, between deals and the end."""
    for seed in range(3):
        yield from states_of(ba.RULES, {"max_hand_size": 3}, seed)


def _init_arguments(record: Any) -> list[str]:
    return [field.alias for field in attrs.fields(type(record)) if field.init]


def test_every_init_argument_round_trips_through_evolve() -> None:
    checked: set[tuple[type, str]] = set()
    for state in _states():
        for record in attrs_within(state):
            for name in _init_arguments(record):
                again = attrs.evolve(record, **{name: getattr(record, name)})
                assert again == record, (type(record).__name__, name)
                checked.add((type(record), name))
        again = attrs.evolve(state, hand_indexes=state.hand_indexes,
                             trick_indexes=state.trick_indexes)
        assert legal_actions(again) == legal_actions(state)
        assert view(again, 0) == view(state, 0)
    assert (GameState, "hand_indexes") in checked
    assert (GameState, "trick_indexes") in checked


def test_no_init_argument_is_named_with_an_underscore() -> None:
    for state in _states():
        for record in attrs_within(state):
            for name in _init_arguments(record):
                field = attrs.fields_dict(type(record))[name]
                assert field.name == name, (type(record).__name__, field.name)


@pytest.mark.parametrize("name", ["hands", "trick", "undealt", "scores", "trump", "bids"])
def test_a_derived_name_is_refused_by_evolve(name: str) -> None:
    for state in _states():
        if state.phase is ba.Phase.PLAY:
            break
    with pytest.raises(TypeError, match=rf"unexpected keyword argument '{name}'"):
        attrs.evolve(state, **{name: getattr(state, name)})


def test_derived_fields_of_a_deal_and_a_play_are_not_arguments() -> None:
    state = next(s for s in _states() if s.deal is not None)
    deal = state.deal
    assert deal is not None
    for name in ("trump", "table"):
        with pytest.raises(TypeError, match=rf"unexpected keyword argument '{name}'"):
            attrs.evolve(deal, **{name: getattr(deal, name)})
    play = Play(CARDS[5])
    with pytest.raises(TypeError, match="unexpected keyword argument 'index'"):
        attrs.evolve(play, index=7)  # type: ignore[call-arg]
    moved = attrs.evolve(play, card=CARDS[53])   # the index follows the card
    assert moved.index == 53
    assert moved == Play(CARDS[53])


def test_the_hands_are_the_cards_of_the_hand_indexes() -> None:
    for state in _states():
        assert state.hands == tuple(Hand((CARDS[i] for i in indexes), jokers=True)
                                    for indexes in state.hand_indexes)
        assert state.trick == tuple(CARDS[i] for i in state.trick_indexes)


def test_the_reducers_state_builder_lists_the_fields_in_their_order() -> None:
    """The reducer's keyword-only builder passes its arguments to GameState by
    position: its parameters must be the fields, in the same order."""
    from cardrules.back_alley.game import _new_state

    assert list(inspect.signature(_new_state).parameters) == \
        [field.name for field in attrs.fields(GameState)]
