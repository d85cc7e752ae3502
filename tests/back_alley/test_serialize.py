"""Back Alley states and views as JSON: exact forms, and loading that trusts nothing.

Each refusal is checked by its exact message, so that a check which stops
working cannot hide behind a later one that happens to refuse the same input.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import cardrules.back_alley as ba
from cardrules import Card, ParseError
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.serialize import FORMAT, VIEW_FORMAT
from support.gamecheck import SpyOnEntries

JSONDict = dict[str, Any]


def exchange_state() -> ba.GameState:
    """Deal 1, dealer 0: BB turned (no trump, BA-13), seat 1 dealt LB, which it
    discards to take AS, the last card of the shuffle."""
    order = (CARDS[53], *CARDS[1:53], CARDS[0])
    return ba.apply(ba.apply(ba.new_game(), ba.ChooseDealer(0)), ba.Shuffle(order))


def played_state() -> ba.GameState:
    """The first deal of a short game played out (a bid of 1, three passes,
    then the first legal card each time), waiting for the second shuffle."""
    state = ba.apply(ba.new_game(max_hand_size=2), ba.ChooseDealer(3))
    state = ba.apply(state, ba.Shuffle(CARDS))
    state = ba.apply(state, ba.Bid(1))
    while not state.results:
        state = ba.apply(state, ba.legal_actions(state)[0])
    return state


def data_of(state: ba.GameState) -> JSONDict:
    return json.loads(json.dumps(ba.state_to_dict(state)))  # type: ignore[no-any-return]


def refusal(data: JSONDict) -> ParseError:
    with pytest.raises(ParseError) as caught:
        ba.state_from_dict(data)
    return caught.value


def deep() -> list[object]:
    value: list[object] = []
    for _ in range(100_000):
        value = [value]
    return value


def test_state_form_of_an_exchange() -> None:
    data = data_of(exchange_state())
    assert data["format"] == FORMAT == "cardrules/back_alley/state/1"
    assert data["deal"] == {"hand_size": 13, "trump_card": "BB", "joker_discard": "LB",
                            "exchanger": 1, "taken": "AS", "undealt": [],
                            "bids": [None, None, None, None]}
    assert data["hands"][1][:3] == ["AS", "2S", "3S"]
    assert ba.state_from_dict(data) == exchange_state()


def test_state_form_after_a_deal() -> None:
    state = played_state()
    data = data_of(state)
    (result,) = data["history"]["results"]
    assert set(result) == {"deal_number", "dealer", "hand_size", "trump_card", "throw_ins",
                           "contracts", "tricks", "points", "bids"}
    assert result["deal_number"] == 1
    assert result["dealer"] == 3
    assert all(set(c) == {"tricks", "board"} for c in result["contracts"])
    assert all(bid["type"] in ("pass", "bid", "board") for bid in result["bids"])
    assert data["history"]["scores"] == list(state.scores)
    assert ba.state_from_dict(data) == state


def test_view_form_holds_the_seats_own_cards_only() -> None:
    state = exchange_state()
    for seat in range(4):
        data = json.loads(json.dumps(ba.view_to_dict(ba.view(state, seat))))
        assert data["format"] == VIEW_FORMAT == "cardrules/back_alley/view/1"
        assert data["seat"] == seat
        assert data["hand"] == [str(c) for c in state.hands[seat]]
        assert data["taken"] == ("AS" if seat == 1 else None)
        assert data["joker_discard"] == "LB"
        assert data["exchanger"] == 1
        assert data["bids"] == [None] * 4
        assert data["hand_sizes"] == [13] * 4
        others = {str(c) for other in range(4) if other != seat for c in state.hands[other]}
        assert not others & set(json.dumps(data).replace('"', " ").split())


def tampered(change: Callable[[JSONDict], object], state: Callable[[], ba.GameState]
             = exchange_state) -> JSONDict:
    data = data_of(state())
    change(data)
    return data


@pytest.mark.parametrize(("change", "message", "token"), [
    (lambda d: d["deal"].update(taken="LB"), "state.deal: 'taken' cannot be a joker", "LB"),
    (lambda d: d["deal"].update(joker_discard="AS"),
     "state.deal: 'joker_discard' must be a joker", "AS"),
    (lambda d: d["deal"]["bids"].__setitem__(2, ["bid", 3]),
     "state.deal: 'bids'[2] must be a bid", "['bid', 3]"),
    (lambda d: d["deal"]["bids"].__setitem__(1, {"type": "play", "card": "AS"}),
     "state.deal: 'bids'[1] must be a bid", "play AS"),
    (lambda d: d["deal"]["bids"].append(None), "state.deal: 'bids' must hold one bid per seat",
     "[None, None, None, None, None]"),
    (lambda d: d["tricks_won"].pop(), "state: 'tricks_won' must list 4 numbers", "[0, 0, 0]"),
    (lambda d: d["tricks_won"].__setitem__(3, -1), "state.tricks_won: '3' must be at least 0",
     "-1"),
    (lambda d: d["hands"].append([]), "state: 'hands' must hold one hand per seat", ...),
    (lambda d: d.update(format="cardrules/back_alley/state/2"),
     "unknown state format (expected 'cardrules/back_alley/state/1')",
     "'cardrules/back_alley/state/2'"),
    (lambda d: d["settings"].update(max_hand_size=14),
     "state.settings: max_hand_size must be a whole number from 1 to 13, not 14", None),
    (lambda d: d["settings"].update(deals=3), "state.settings: unknown key", "deals"),
])
def test_tampered_states_are_refused_by_the_right_check(
        change: Callable[[JSONDict], object], message: str, token: object) -> None:
    err = refusal(tampered(change))
    assert err.message == message
    if token is not ...:   # ... where the token is checked by another test
        assert err.token == token


def test_repeated_cards_are_named_where_they_are() -> None:
    err = refusal(tampered(lambda d: d["deal"].update(undealt=["2C", "2C"])))
    assert err.message == "state.deal: 'undealt': a hand holds each card once; 2C is repeated"
    err = refusal(tampered(lambda d: d["hands"].__setitem__(2, ["2C", "2C"])))
    assert err.message == "state.hands[2]: a hand holds each card once; 2C is repeated"


def test_results_need_a_bid_from_every_seat() -> None:
    def no_bid(data: JSONDict) -> None:
        data["history"]["results"][0]["bids"][0] = None

    err = refusal(tampered(no_bid, played_state))
    assert err.message == "state.history.results[0]: 'bids'[0] must be a bid"
    assert err.token == "None"


def test_a_long_wrong_list_is_quoted_short_with_its_length() -> None:
    hands: list[list[str]] = [[] for _ in range(40)]
    err = refusal(tampered(lambda d: d.update(hands=hands)))
    assert err.message == "state: 'hands' must hold one hand per seat"
    assert err.token == repr(hands)[:40] + "..."
    assert err.token_length == len(repr(hands))


@pytest.mark.parametrize("change", [
    lambda d: d.update(hands=[deep()] * 5),
    lambda d: d.update(tricks_won=[deep()] * 5),
    lambda d: d["deal"].update(bids=[deep()] * 5),
    lambda d: d["deal"].update(bids=[None, deep(), None, None]),
])
def test_deeply_nested_values_are_parse_errors(change: Callable[[JSONDict], object]) -> None:
    err = refusal(tampered(change))
    assert "nested too deeply" in str(err)
    assert len(str(err)) < 200


def after_first_trick() -> ba.GameState:
    """The short game of :func:`played_state` after its first trick."""
    state = ba.apply(ba.new_game(max_hand_size=2), ba.ChooseDealer(3))
    state = ba.apply(ba.apply(state, ba.Shuffle(CARDS)), ba.Bid(1))
    while not state.tricks:
        state = ba.apply(state, ba.legal_actions(state)[0])
    return state


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["tricks"][0].update(leader=4), "state.tricks[0]: 'leader' must be at most 3"),
    (lambda d: d["tricks"][0].update(winner=4), "state.tricks[0]: 'winner' must be at most 3"),
    (lambda d: d["tricks"][0].update(winner=-1), "state.tricks[0]: 'winner' must be at least 0"),
    (lambda d: d.update(leader=4), "state: 'leader' must be at most 3"),
    (lambda d: d.update(current_player=4), "state: 'current_player' must be at most 3"),
    (lambda d: d.update(dealer=4), "state: 'dealer' must be at most 3"),
    (lambda d: d["deal"].update(exchanger=4), "state.deal: 'exchanger' must be at most 3"),
    (lambda d: d["history"].update(first_dealer=4),
     "state.history: 'first_dealer' must be at most 3"),
])
def test_seats_are_0_to_3_everywhere(change: Callable[[JSONDict], object],
                                     message: str) -> None:
    err = refusal(tampered(change, after_first_trick))
    assert (err.message, err.token) == (message, "4" if "most" in message else "-1")


def test_a_result_dealer_is_a_seat() -> None:
    def dealer_4(data: JSONDict) -> None:
        data["history"]["results"][0]["dealer"] = 4

    err = refusal(tampered(dealer_4, played_state))
    assert err.message == "state.history.results[0]: 'dealer' must be at most 3"


def test_view_text_gives_each_teams_score() -> None:
    state = played_state()
    assert state.scores[0] != state.scores[1]
    last = str(ba.view(state, 1)).splitlines()[-1]
    assert last == f"scores: team 0 {state.scores[0]}, team 1 {state.scores[1]}"


def test_views_are_frozen_and_slotted() -> None:
    seat_view = ba.view(exchange_state(), 2)
    assert not hasattr(seat_view, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        seat_view.seat = 1  # type: ignore[misc]


@pytest.mark.parametrize("change", [
    lambda d: d.update(trump_played=True),
    lambda d: d.update(leader=1),
    lambda d: d.update(tricks_won=[0, 1, 0, 0]),
])
def test_nothing_is_played_while_bidding(change: Callable[[JSONDict], object]) -> None:
    err = refusal(tampered(change))
    assert err.message == "inconsistent Back Alley state: no card is played while bidding"


def test_a_finished_trick_has_four_cards() -> None:
    def three_cards(data: JSONDict) -> None:
        data["trick"].append(data["tricks"][0]["cards"].pop())   # all 54 still in place

    err = refusal(tampered(three_cards, after_first_trick))
    assert err.message == "inconsistent Back Alley state: a finished trick has four cards"


def test_result_bids_must_be_legal_for_the_deal() -> None:
    def bid_five(data: JSONDict) -> None:
        data["history"]["results"][0]["bids"][0] = {"type": "bid", "tricks": 5}

    err = refusal(tampered(bid_five, played_state))
    assert err.message == ("inconsistent Back Alley state: deal 1: every bid is legal for "
                           "2 cards (BA-21)")


def test_a_deals_hand_size_is_1_to_13() -> None:
    err = refusal(tampered(lambda d: d["deal"].update(hand_size=14)))
    assert err.message == "state.deal: 'hand_size' must be at most 13"
    err = refusal(tampered(lambda d: d["deal"].update(hand_size=0)))
    assert err.message == "state.deal: 'hand_size' must be at least 1"


# -- BA-13: the exchange must fit the hands -------------------------------------------

_TAKEN_MESSAGE = "inconsistent Back Alley state: the exchanger holds the card taken (BA-13)"


def short_exchange_deal() -> list[ba.GameState]:
    """Every state of a 3-card deal (dealer 0) with BB turned and LB dealt to
    seat 2, who discards it and takes AS (BA-13), from the deal to its last
    trick: bids of 1 from seat 1 and passes, then the first legal card."""
    lb, bb, ace = CARDS[52], CARDS[53], CARDS[0]
    others = [c for c in CARDS if c not in (lb, bb, ace)]
    # Dealt one at a time from the dealer's left: seat 1, 2, 3, 0, ... (BA-12).
    order = (others[0], lb, *others[1:11], bb, ace, *others[11:])
    state = ba.apply(ba.apply(ba.new_game(max_hand_size=3), ba.ChooseDealer(0)),
                     ba.Shuffle(order))
    assert state.deal is not None
    assert (state.deal.exchanger, state.deal.taken, state.deal.joker_discard) == (2, ace, lb)
    states = [state]
    state = ba.apply(state, ba.Bid(1))
    states.append(state)
    while not state.results:
        state = ba.apply(state, ba.legal_actions(state)[0])
        if not state.results:
            states.append(state)
    return states


def _dealt_hands(state: ba.GameState) -> list[set[str]]:
    """The hands as dealt: what is held plus what each seat has played."""
    hands = [{str(c) for c in hand} for hand in state.hands]
    for trick in state.tricks:
        for k, card in enumerate(trick.cards):
            hands[(trick.leader + k) % 4].add(str(card))
    for k, card in enumerate(state.trick):
        assert state.leader is not None
        hands[(state.leader + k) % 4].add(str(card))
    return hands


@pytest.mark.parametrize("make", [exchange_state, lambda: short_exchange_deal()[0]])
def test_ba13_a_bidding_state_with_another_exchanger_is_refused(
        make: Callable[[], ba.GameState]) -> None:
    # The hostile probe's case: moving the exchange to another seat made that
    # seat's view show a card of the real exchanger's hand.
    state = make()
    assert state.phase is ba.Phase.BID
    assert state.deal is not None
    for seat in range(4):
        data = data_of(state)
        data["deal"]["exchanger"] = seat
        if seat == state.deal.exchanger:
            assert ba.state_from_dict(data) == state
        else:
            assert refusal(data).message == _TAKEN_MESSAGE


def test_ba13_a_bidding_state_whose_card_taken_is_not_the_exchangers_is_refused() -> None:
    for state in (exchange_state(), short_exchange_deal()[0]):
        assert state.deal is not None
        assert state.deal.exchanger is not None
        own = {str(c) for c in state.hands[state.deal.exchanger]}
        elsewhere = [str(c) for seat, hand in enumerate(state.hands)
                     if seat != state.deal.exchanger for c in hand]
        elsewhere += [str(c) for c in state.deal.undealt if isinstance(c, Card)]
        for card in elsewhere:
            data = data_of(state)
            data["deal"]["taken"] = card
            assert refusal(data).message == _TAKEN_MESSAGE, card
        for card in own:   # another card of the exchanger's own hand: a deal the rules make
            data = data_of(state)
            data["deal"]["taken"] = card
            assert ba.state_from_dict(data).deal.taken == Card.parse(card)  # type: ignore[union-attr]


def test_ba13_the_exchange_is_checked_in_every_phase_of_the_deal() -> None:
    states = short_exchange_deal()
    assert {s.phase for s in states} == {ba.Phase.BID, ba.Phase.PLAY}
    for state in states:
        assert state.deal is not None
        assert state.deal.exchanger == 2
        assert ba.state_from_dict(data_of(state)) == state
        dealt = _dealt_hands(state)
        for seat in (0, 1, 3):
            data = data_of(state)
            data["deal"]["exchanger"] = seat
            assert refusal(data).message == _TAKEN_MESSAGE, (state.phase, seat)
        for seat in (0, 1, 3):
            data = data_of(state)
            data["deal"]["taken"] = min(dealt[seat])
            assert refusal(data).message == _TAKEN_MESSAGE, (state.phase, seat)
        data = data_of(state)
        data["deal"]["taken"] = data["deal"]["undealt"][0]
        assert refusal(data).message == _TAKEN_MESSAGE, state.phase


# -- huge lists are refused by their length, before any entry is read ------------------

HUGE = 10**6


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _spy_on_entries(spy_on_entries: SpyOnEntries) -> None:
    import cardrules.back_alley.serialize as serialize
    import cardrules.engine.readers as codec

    spy_on_entries([(codec, "read_card"), (serialize, "_read_result"),
                    (serialize, "_read_trick"), (serialize, "action_from_dict")])


@pytest.mark.parametrize(("make", "path", "message"), [
    (played_state, ("history", "results"),
     "state.history: 'results' must hold at most 3 entries, not 1000000"),
    (played_state, ("history", "results", 0, "contracts"),
     "state.history.results[0]: 'contracts' must hold at most 2 entries, not 1000000"),
    (played_state, ("history", "results", 0, "bids"),
     "state.history.results[0]: 'bids' must hold one bid per seat"),
    (played_state, ("history", "results", 0, "tricks"),
     "state.history.results[0]: 'tricks' must list 2 numbers"),
    (played_state, ("history", "scores"), "state.history: 'scores' must list 2 numbers"),
    (after_first_trick, ("tricks",), "state: 'tricks' must hold at most 2 entries, not 1000000"),
    (after_first_trick, ("tricks", 0, "cards"),
     "state.tricks[0]: 'cards' must hold at most 4 entries, not 1000000"),
    (after_first_trick, ("trick",), "state: 'trick' must hold at most 4 entries, not 1000000"),
    (after_first_trick, ("hands",), "state: 'hands' must hold one hand per seat"),
    (after_first_trick, ("hands", 1),
     "state.hands[1]: 'hand' must hold at most 2 entries, not 1000000"),
    (after_first_trick, ("deal", "undealt"),
     "state.deal: 'undealt' must hold at most 54 entries, not 1000000"),
    (after_first_trick, ("deal", "bids"), "state.deal: 'bids' must hold one bid per seat"),
    (after_first_trick, ("tricks_won",), "state: 'tricks_won' must list 4 numbers"),
    (exchange_state, ("hands", 0),
     "state.hands[0]: 'hand' must hold at most 13 entries, not 1000000"),
])
def test_a_huge_list_is_refused_by_its_length_before_its_entries_are_read(
        spy_on_entries: SpyOnEntries, make: Callable[[], ba.GameState],
        path: tuple[Any, ...], message: str) -> None:
    # At most 25 results, 13 cards a hand and 13 tricks: the probe's 10**6
    # results took 24 s and 500 MB to refuse.
    data = data_of(make())
    holder = _at(data, path[:-1])
    entries = holder[path[-1]]
    holder[path[-1]] = [entries[0] if entries else "AS"] * HUGE
    _spy_on_entries(spy_on_entries)
    err = refusal(data)
    assert err.message == message
    assert err.token is None or err.token == "<list of 1000000 entries>"
