"""Back Alley's RULES object and its small parts: settings, actions and their forms."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

import cardrules.back_alley as ba
from cardrules import Joker, ParseError, Rank, Suit, parse_card, parse_cards
from cardrules.back_alley.actions import CARDS
from cardrules.engine import RandomBot


def test_the_conformance_settings_are_games_of_five_and_three_deals() -> None:
    deals = []
    for settings in ba.RULES.check_settings:
        game = ba.RULES.play([RandomBot(seed) for seed in range(4)], settings, seed=1)
        deals.append(len(game.state.results))
    assert deals == [5, 3]


def test_rules_settings_are_the_new_game_keywords() -> None:
    assert ba.RULES.default_settings == {"max_hand_size": 13}
    assert ba.RULES.settings_of(ba.new_game(max_hand_size=4)) == {"max_hand_size": 4}
    assert ba.RULES.new_game_from_settings({"max_hand_size": 4}) == ba.new_game(max_hand_size=4)
    with pytest.raises(ValueError, match="unknown Back Alley setting"):
        ba.RULES.new_game_from_settings({"deals": 3})


# ---------------------------------------------------------------------------
# actions


ACTIONS: list[ba.Action] = [ba.Pass(), ba.Bid(1), ba.Bid(13), ba.Bid(20), ba.Board(),
           ba.Play(parse_card("10h")), ba.Play(Joker.BIG), ba.Play(Joker.LITTLE),
           ba.ChooseDealer(3), ba.Shuffle(parse_cards("AS BB KD", jokers=True))]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_actions_are_frozen_slotted_values(action: ba.Action) -> None:
    assert not hasattr(action, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        action.tricks = 2  # type: ignore[misc,union-attr]
    copy = ba.parse_action(str(action))
    assert copy == action
    assert hash(copy) == hash(action)


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_actions_survive_their_json_form(action: ba.Action) -> None:
    data = json.loads(json.dumps(ba.action_to_dict(action)))
    assert ba.action_from_dict(data) == action


def test_action_json_forms() -> None:
    assert [ba.action_to_dict(a) for a in ACTIONS[:6]] == [
        {"type": "pass"}, {"type": "bid", "tricks": 1}, {"type": "bid", "tricks": 13},
        {"type": "bid", "tricks": 20}, {"type": "board"}, {"type": "play", "card": "TH"}]
    with pytest.raises(TypeError, match="not a Back Alley action"):
        ba.action_to_dict("pass")  # type: ignore[arg-type]


def test_readers_hand_out_the_shared_instances() -> None:
    assert ba.parse_action("bid 13") is ba.parse_action("BID 13")
    assert ba.parse_action("bid 14") == ba.Bid(14)
    assert ba.parse_action("play qh") is ba.action_from_dict({"type": "play", "card": "QH"})
    assert ba.parse_action("pass") is ba.action_from_dict({"type": "pass"})
    assert ba.parse_action("board") is ba.action_from_dict({"type": "board"})
    assert ba.action_from_dict({"type": "bid", "tricks": 13}) is ba.parse_action("bid 13")
    assert ba.action_from_dict({"type": "bid", "tricks": 14}) == ba.Bid(14)


@pytest.mark.parametrize(("text", "message", "token", "position"), [
    ("pass 2", "'pass' takes nothing after it", "2", 5),
    ("board  now", "'board' takes nothing after it", "now", 7),
    ("bid 0", "a bid is a whole number of at least 1", "0", 4),
    ("bid -1", "expected a whole number", "-1", 4),
    ("bid", "expected a whole number", "", 3),
    ("play 1X", "not a card", "1X", 5),
    ("play AS KS", "expected exactly one card", "AS KS", 5),
    ("  double 2", "unknown action", "double", 2),
    ("dealer x", "expected a whole number", "x", 7),
    ("shuffle AS AS", "a shuffle holds each card once", "AS", 11),
])
def test_parse_action_errors_say_where(text: str, message: str, token: str,
                                       position: int) -> None:
    with pytest.raises(ParseError) as caught:
        ba.parse_action(text)
    assert (caught.value.message, caught.value.token, caught.value.position) \
        == (message, token, position)


@pytest.mark.parametrize(("data", "message"), [
    ({"type": "pass", "tricks": 1}, "action: unknown key"),
    ({"type": "board", "card": "AS"}, "action: unknown key"),
    ({"type": "bid", "tricks": 2, "board": True}, "action: unknown key"),
    ({"type": "play", "card": "AS", "seat": 1}, "action: unknown key"),
    ({"type": "bid", "tricks": 0}, "action: 'tricks' must be at least 1"),
    ({"type": "bid"}, "action: missing 'tricks'"),
    ({"type": "play", "card": 5}, "action: 'card' must be a card as text"),
    ({"type": "double"}, "action: unknown type"),
    ({"type": 1}, "action: 'type' must be text"),
    ({"type": "dealer", "seat": "1"}, "action: 'seat' must be a whole number"),
])
def test_action_from_dict_is_strict(data: dict[str, object], message: str) -> None:
    with pytest.raises(ParseError) as caught:
        ba.action_from_dict(data)
    assert caught.value.message == message


@pytest.mark.parametrize("value", [True, 1.0, "3", None])
def test_a_bid_is_a_whole_number(value: object) -> None:
    with pytest.raises(ValueError, match="a bid must be a whole number of at least 1"):
        ba.Bid(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("card", ["QH", 5, None, Rank.ACE])
def test_a_play_is_of_a_card_or_a_joker(card: object) -> None:
    with pytest.raises(TypeError, match="Play takes a Card or a Joker, not") as caught:
        ba.Play(card)  # type: ignore[arg-type]
    assert ("parse_card" in str(caught.value)) == isinstance(card, str)


# ---------------------------------------------------------------------------
# views


def bidding_state(dealer: int) -> ba.GameState:
    """Deal 1 from the unshuffled 54 cards, everyone still to bid."""
    return ba.apply(ba.apply(ba.new_game(), ba.ChooseDealer(dealer)), ba.Shuffle(CARDS))


def test_view_board_levels_count_from_the_dealers_left_even_for_dealer_0() -> None:
    state = ba.apply(ba.apply(bidding_state(0), ba.Board()), ba.Board())  # seats 1, then 2
    assert state.board_levels == (0, 1, 2, 0)
    assert all(ba.view(state, seat).board_levels == (0, 1, 2, 0) for seat in range(4))
    state = ba.apply(ba.apply(bidding_state(1), ba.Board()), ba.Board())  # seats 2, then 3
    assert ba.view(state, 0).board_levels == (0, 0, 1, 2)


def test_view_text_while_bidding() -> None:
    state = ba.apply(ba.apply(bidding_state(0), ba.Board()), ba.Bid(3))
    assert str(ba.view(state, 3)).splitlines() == [
        "seat 3 (team 1), deal 1 of 25 (13 cards), bid",
        "turned BB: no trump",
        "hand: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "bids: 0: -, 1: board, 2: bid 3, 3: -",
        "tricks won: 0: 0, 1: 0, 2: 0, 3: 0",
        "seat 3 to act",
        "scores: team 0 0, team 1 0"]


# ---------------------------------------------------------------------------
# state classes and summaries


def test_summary_names_the_winner_by_the_scores() -> None:
    endings = set()
    for seed in range(12):
        game = ba.RULES.play([RandomBot(s) for s in range(4)], {"max_hand_size": 1}, seed=seed)
        s0, s1 = game.state.scores
        lines = ba.summarize(game.state).splitlines()
        assert lines[-2] == f"scores: team 0 {s0}, team 1 {s1}"
        expected = "a draw" if s0 == s1 else "team 0 wins" if s0 > s1 else "team 1 wins"
        assert lines[-1] == expected
        endings.add(expected)
    assert endings >= {"team 0 wins", "team 1 wins"}


def test_summary_names_the_leader_during_the_game() -> None:
    state = ba.apply(ba.apply(ba.new_game(max_hand_size=2), ba.ChooseDealer(3)),
                     ba.Shuffle(CARDS))
    assert ba.summarize(state).splitlines()[-1] == "level"
    state = ba.apply(state, ba.Bid(1))
    while not state.results:
        state = ba.apply(state, ba.legal_actions(state)[0])
    s0, s1 = state.scores
    assert s0 != s1
    assert ba.summarize(state).splitlines()[-1] == f"team {0 if s0 > s1 else 1} leads"


def test_state_parts_are_frozen_and_slotted() -> None:
    state = ba.apply(ba.apply(ba.new_game(max_hand_size=2), ba.ChooseDealer(3)),
                     ba.Shuffle(CARDS))
    state = ba.apply(state, ba.Bid(1))
    while not state.results:
        state = ba.apply(state, ba.legal_actions(state)[0])
    parts = [state, state.settings, state.history, state.results[0],
             state.results[0].contracts[0], bidding_state(0).deal,
             ba.Trick(leader=0, cards=parse_cards("AS KS QS JS"), winner=0)]
    for part in parts:
        assert not hasattr(part, "__dict__"), type(part)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            part.hand_size = 3  # type: ignore[attr-defined]


def test_a_deals_trump_and_tables_follow_from_the_turned_card() -> None:
    deal = bidding_state(0).deal
    assert deal is not None
    assert deal.trump is None   # BB turned: no trump (BA-13)
    evolve: Any = attrs.evolve   # checked at run time: the fields take no value
    for derived in ("trump", "table"):
        with pytest.raises(TypeError):
            evolve(deal, **{derived: None})


def test_state_text_is_a_table_by_seat() -> None:
    state = ba.apply(bidding_state(0), ba.Board())
    assert str(state).splitlines() == [
        "Back Alley, deal 1 of 25 (13 cards), bid, dealer 0, seat 2 to act",
        "turned BB: no trump",
        "seat team bid    won hand",
        "   0    0 -        0 AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "   1    1 board 1  0 AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        "   2    0 -        0 AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "   3    1 -        0 AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "scores: team 0 (seats 0, 2) 0, team 1 (seats 1, 3) 0"]


def test_state_text_bid_column_is_one_wider_than_its_name() -> None:
    # The bid column leaves one space after its name before the tricks won,
    # and is at least 7 wide as in English ("bid" then "board 1").
    from cardrules.i18n import language

    state = ba.apply(bidding_state(0), ba.Board())
    with language("uk"):
        header = str(state).splitlines()[2]
    assert header == "міс. ком. заявка взят. карти"


def test_state_text_columns_line_up_with_combining_characters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A column name with a combining accent takes one column less than its
    # length: the table is measured by the engine's one text-width helper.
    import cardrules.back_alley.state as state_module
    from cardrules.engine.presenter import width

    names = {"seat": "se\u0301at", "team": "te\u0301am"}
    monkeypatch.setattr(state_module, "pgettext",
                        lambda context, message: names.get(message, message))
    lines = str(ba.apply(bidding_state(0), ba.Board())).splitlines()
    assert lines[2].startswith("se\u0301at te\u0301am bid    won hand")
    assert width(lines[2].split(" hand")[0]) == len(lines[3].split(" AC")[0])


def test_a_play_takes_its_card_only() -> None:
    make: Any = ba.Play   # checked at run time: the card index is derived
    with pytest.raises(TypeError):
        make(parse_card("AS"), 5)
    with pytest.raises(TypeError):
        make(parse_card("AS"), index=5)


def test_state_repr_shows_hands_and_trick_as_card_text() -> None:
    state = ba.apply(ba.apply(ba.new_game(max_hand_size=1), ba.ChooseDealer(0)),
                     ba.Shuffle(CARDS))
    text = repr(state)
    assert text.startswith("GameState(settings=Settings(max_hand_size=1), ")
    assert ", hand_indexes=('AC', 'AS', 'AH', 'AD'), trick_indexes='', " in text
    for bid in (ba.Board(), ba.Pass(), ba.Pass(), ba.Pass()):
        state = ba.apply(state, bid)
    state = ba.apply(state, ba.legal_actions(state)[0])
    assert ", trick_indexes='AS', " in repr(state)


def test_trick_tables_give_the_documented_powers() -> None:
    # Per trump suit (and a separate table for no trump): each card's class and
    # power, a trump 102 to 116 (BB 116, LB 115, BA-3), a plain card 2 to 14, ace high.
    from cardrules.back_alley.trick import NO_TRUMP_TABLE, TRUMP_CLASS, table_for

    def power(trump: Suit | None, text: str) -> int:
        return table_for(trump).powers[parse_card(text, jokers=True).index]

    spades = Suit.SPADES
    assert [power(spades, t) for t in ("2S", "TS", "KS", "AS", "LB", "BB")] \
        == [102, 110, 113, 114, 115, 116]
    assert [power(spades, t) for t in ("2H", "9H", "JH", "AH", "2C", "AC")] \
        == [2, 9, 11, 14, 2, 14]
    assert [power(None, t) for t in ("2S", "AS", "KD")] == [2, 14, 13]
    classes = table_for(Suit.HEARTS).classes
    assert [classes[parse_card(t, jokers=True).index] for t in ("AS", "AH", "AD", "AC", "BB")] \
        == [0, TRUMP_CLASS, 2, 3, TRUMP_CLASS]
    assert NO_TRUMP_TABLE.classes[parse_card("AH").index] == 1


def test_summary_names_team_1_when_it_leads() -> None:
    state = ba.apply(ba.apply(ba.new_game(max_hand_size=2), ba.ChooseDealer(0)),
                     ba.Shuffle(CARDS))
    state = ba.apply(state, ba.Bid(1))   # seat 1, team 1, bids first and makes it
    while not state.results:
        state = ba.apply(state, ba.legal_actions(state)[0])
    assert state.scores[1] > state.scores[0]
    assert ba.summarize(state).splitlines()[-1] == "team 1 leads"


def test_hand_sizes_of_the_shortest_and_the_full_game() -> None:
    from cardrules.back_alley.state import hand_size_of

    assert hand_size_of(1, 1) == 1
    assert [hand_size_of(d, 2) for d in (1, 2, 3)] == [2, 1, 2]
    with pytest.raises(ValueError, match="max_hand_size must be a whole number from 1 to 13"):
        hand_size_of(1, 0)
    with pytest.raises(ValueError, match="deal_number must be a whole number from 1 to 25"):
        hand_size_of(26)
