"""Tests of the Back Alley reference implementation in ``support.references.back_alley``.

The reference is an oracle for the real engine, so it must itself be right.
These tests build exact deals (a 54-card shuffle order with chosen cards at
chosen positions) and check each rule BA-1 .. BA-43 on them, then drive
seeded random games through to the end and check the bookkeeping.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import pytest

from support.references.back_alley import (
    DECK,
    NUM_DEALS,
    Contract,
    RefGame,
    board_levels,
    first_leader,
    hand_size_for,
    legal_bids,
    score,
    shuffle_text,
    team_contract,
    team_of,
    trick_winner,
    winner_of,
)

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def deal_for_size(hand_size: int) -> int:
    """The first deal number with ``hand_size`` cards each (the descending half)."""
    return 14 - hand_size


def rigged_order(dealer: int, hand_size: int, hands: Mapping[int, Sequence[str]],
                 turned: str, after: Sequence[str] = ()) -> list[str]:
    """A shuffle order that deals ``hands`` (up to ``hand_size`` cards per seat).

    ``turned`` lands at position 4*hand_size and ``after`` right behind it.
    Unnamed positions are filled from the unused cards in DECK order (jokers last).
    """
    named = [card for hand in hands.values() for card in hand] + [turned, *after]
    assert len(set(named)) == len(named), "a card is named twice"
    assert set(named) <= set(DECK), "unknown card"
    assert all(len(hand) <= hand_size for hand in hands.values())
    filler = iter([card for card in DECK if card not in named])
    order: list[str] = []
    for k in range(4 * hand_size):
        seat, round_index = (dealer + 1 + k) % 4, k // 4
        wanted = hands.get(seat, ())
        order.append(wanted[round_index] if round_index < len(wanted) else next(filler))
    order.append(turned)
    order.extend(after)
    order.extend(filler)
    assert sorted(order) == sorted(DECK)
    return order


def dealt(hand_size: int, dealer: int, hands: Mapping[int, Sequence[str]], turned: str,
          after: Sequence[str] = ()) -> RefGame:
    """A game in the bidding phase of a deal rigged by :func:`rigged_order`."""
    game = RefGame.starting_at(deal_for_size(hand_size), dealer)
    game.act(shuffle_text(rigged_order(dealer, hand_size, hands, turned, after)))
    return game


def act_all(game: RefGame, actions: Sequence[str]) -> None:
    """Apply actions in order."""
    for action in actions:
        game.act(action)


def play(game: RefGame, cards: str) -> None:
    """Play the space-separated cards in order."""
    for card in cards.split():
        game.act(f"play {card}")


def playable(game: RefGame) -> set[str]:
    """The cards named by the legal ``play`` actions."""
    return {action.removeprefix("play ") for action in game.legal()}


def assert_rejected(game: RefGame, text: str) -> None:
    """``text`` raises ValueError and leaves the game unchanged."""
    before = game.clone()
    with pytest.raises(ValueError, match="BA-"):
        game.act(text)
    assert vars(game) == vars(before)


def cards_in_game(game: RefGame) -> list[str]:
    """Every card the game knows about during a deal, wherever it is."""
    cards = [card for hand in game.hands for card in hand]
    cards += [card for trick in game.tricks_played for _, card in trick]
    cards += [card for _, card in game.trick]
    cards += game.undealt
    if game.trump_card is not None:
        cards.append(game.trump_card)
    if game.joker_discard is not None:
        cards.append(game.joker_discard)
    return cards


def random_action(game: RefGame, rng: random.Random) -> str:
    """A random legal or chance action (passes are likely, so throw-ins happen)."""
    if game.phase == "dealer":
        return f"dealer {rng.randrange(4)}"
    if game.phase == "shuffle":
        order = list(DECK)
        rng.shuffle(order)
        return shuffle_text(order)
    if game.phase == "bid" and rng.random() < 0.5:
        return "pass"
    return rng.choice(sorted(game.legal()))


def play_randomly_to_end(game: RefGame, rng: random.Random) -> None:
    """Random actions until the game is over."""
    while game.phase != "over":
        game.act(random_action(game, rng))


# ---------------------------------------------------------------------------
# BA-1, BA-10, BA-11: table, deal sizes, first dealer
# ---------------------------------------------------------------------------


def test_ba1_teams() -> None:
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    with pytest.raises(ValueError, match="BA-1"):
        team_of(4)


def test_ba2_deck_has_54_distinct_cards() -> None:
    assert len(DECK) == len(set(DECK)) == 54
    assert {"BB", "LB", "AS", "TD", "2C", "KH"} <= set(DECK)


def test_ba10_hand_sizes() -> None:
    sizes = [hand_size_for(deal) for deal in range(1, NUM_DEALS + 1)]
    assert sizes == [*range(13, 0, -1), *range(2, 14)]
    assert len(sizes) == 25
    for bad in (0, 26, -1):
        with pytest.raises(ValueError, match="BA-10"):
            hand_size_for(bad)


def test_ba10_hand_sizes_through_play() -> None:
    game = RefGame()
    rng = random.Random(7)
    seen: list[tuple[int, int]] = []
    while game.phase != "over":
        if game.phase == "bid" and (game.deal_number, game.hand_size) not in seen:
            seen.append((game.deal_number, game.hand_size))
            assert all(len(hand) == game.hand_size for hand in game.hands)
        game.act(random_action(game, rng))
    assert seen == [(deal, hand_size_for(deal)) for deal in range(1, 26)]


def test_ba11_first_dealer_is_a_chance_action() -> None:
    game = RefGame()
    assert game.phase == "dealer"
    assert game.legal() == set()
    assert (game.current_player, game.dealer) == (None, None)
    for bad in ("dealer 4", "dealer -1", "dealer", "dealer 1 2", "dealer one", "pass",
                "board", shuffle_text(DECK)):
        assert_rejected(game, bad)
    game.act("dealer 2")
    assert (game.phase, game.dealer, game.deal_number, game.hand_size) == ("shuffle", 2, 1, 13)
    assert game.legal() == set()
    assert game.history == ["dealer 2"]


def test_ba12_bad_shuffles_rejected() -> None:
    game = RefGame()
    game.act("dealer 0")
    cards = list(DECK)
    bad_orders = [
        cards[:53],                      # a card missing
        [*cards[:53], "AS"],             # a duplicate
        [*cards[:53], "1S"],             # an unknown card
        [*cards, "AS"],                  # 55 cards
        [card.lower() for card in cards],  # not the exact text form
    ]
    for order in bad_orders:
        assert_rejected(game, shuffle_text(order))
    assert_rejected(game, "dealer 1")
    assert_rejected(game, "shuffle  " + " ".join(cards))
    assert_rejected(game, "pass")


# ---------------------------------------------------------------------------
# BA-12, BA-13: dealing and trump
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("deal_number", [1, 11, 13, 20])
def test_ba12_dealing_order_and_trump_card(dealer: int, deal_number: int) -> None:
    size = hand_size_for(deal_number)
    plain = [card for card in DECK if card not in ("BB", "LB")]
    random.Random(dealer * 100 + deal_number).shuffle(plain)
    order = ["BB", "LB", *plain]  # the jokers are dealt, a suit card is turned
    game = RefGame.starting_at(deal_number, dealer)
    game.act(shuffle_text(order))
    for k in range(4 * size):
        assert order[k] in game.hands[(dealer + 1 + k) % 4]
    assert all(len(hand) == size for hand in game.hands)
    assert game.trump_card == order[4 * size]
    assert game.trump == order[4 * size][1]
    assert game.trump_card not in set().union(*game.hands)
    assert game.undealt == order[4 * size + 1:]
    assert game.joker_discard is None
    assert game.exchange_card is None
    assert game.turned_joker_taker is None
    assert game.phase == "bid"
    assert game.current_player == (dealer + 1) % 4


def test_ba12_first_card_goes_to_dealers_left() -> None:
    game = dealt(3, dealer=1, hands={2: ["AS", "KS", "QS"], 1: ["2D", "3D", "4D"]},
                 turned="9C")
    assert game.hands[2] == {"AS", "KS", "QS"}
    assert game.hands[1] == {"2D", "3D", "4D"}
    assert game.trump == "C"
    assert game.trump_card == "9C"


def test_ba13_turned_joker_other_joker_exchanged() -> None:
    game = dealt(3, dealer=0, hands={1: ["AS", "BB", "2D"]}, turned="LB", after=["7H"])
    assert game.trump is None
    assert game.trump_card == "LB"
    assert game.joker_discard == "BB"
    assert game.turned_joker_taker == 1
    assert game.exchange_card == "7H"
    assert game.hands[1] == {"AS", "2D", "7H"}
    assert all(len(hand) == 3 for hand in game.hands)
    assert "7H" not in game.undealt
    assert sorted(cards_in_game(game)) == sorted(DECK)


def test_ba13_turned_joker_other_joker_exchanged_thirteen_cards() -> None:
    order = rigged_order(0, 13, {2: ["LB"]}, turned="BB")
    game = RefGame.starting_at(1, dealer=0)
    game.act(shuffle_text(order))
    replacement = order[53]
    assert game.trump is None
    assert game.trump_card == "BB"
    assert game.joker_discard == "LB"
    assert game.turned_joker_taker == 2
    assert game.exchange_card == replacement
    assert replacement in game.hands[2]
    assert "LB" not in game.hands[2]
    assert game.undealt == []
    assert all(len(hand) == 13 for hand in game.hands)
    assert sorted(cards_in_game(game)) == sorted(DECK)


def test_ba13_turned_joker_other_joker_undealt() -> None:
    order = rigged_order(2, 4, {}, turned="BB", after=["LB", "5H"])
    game = RefGame.starting_at(deal_for_size(4), dealer=2)
    game.act(shuffle_text(order))
    assert game.trump is None
    assert game.trump_card == "BB"
    assert game.joker_discard is None
    assert game.turned_joker_taker is None
    assert game.exchange_card is None
    for k in range(16):
        assert order[k] in game.hands[(2 + 1 + k) % 4]
    assert game.undealt[:2] == ["LB", "5H"]
    assert all(card not in ("BB", "LB") for hand in game.hands for card in hand)


def test_ba13_no_trump_deal_plays_plain_suits_only() -> None:
    game = dealt(2, dealer=3, hands={0: ["LB", "AH"], 1: ["KH", "2S"], 2: ["QH", "3S"],
                                     3: ["4S", "5S"]}, turned="BB", after=["2H"])
    assert game.hands[0] == {"AH", "2H"}
    act_all(game, ["bid 1", "pass", "pass", "pass"])
    assert game.current_player == 0
    assert playable(game) == {"AH", "2H"}  # no trump suit, so no lead restriction
    play(game, "AH")
    assert playable(game) == {"KH"}
    play(game, "KH QH")
    assert playable(game) == {"4S", "5S"}
    play(game, "4S")
    assert game.trick_winners == [0]
    assert game.trump_played is False
    play(game, "2H 2S 3S 5S")  # the low heart led wins: nothing else is a heart, no trumps
    assert game.deal_results[-1]["tricks"] == [2, 0]
    assert game.deal_results[-1]["points"] == [6, 0]


# ---------------------------------------------------------------------------
# BA-20 .. BA-25: bidding
# ---------------------------------------------------------------------------


def random_deal(deal_number: int, dealer: int, seed: int) -> RefGame:
    """A game in the bidding phase of a randomly shuffled deal."""
    order = list(DECK)
    random.Random(seed).shuffle(order)
    game = RefGame.starting_at(deal_number, dealer)
    game.act(shuffle_text(order))
    return game


def test_ba20_bidding_order_from_dealers_left() -> None:
    game = random_deal(5, dealer=2, seed=1)
    seen = []
    for bid in ["bid 1", "bid 2", "bid 3", "bid 4"]:
        seen.append(game.current_player)
        game.act(bid)
    assert seen == [3, 0, 1, 2]
    assert game.bids == ["bid 2", "bid 3", "bid 4", "bid 1"]


def test_ba21_legal_bids_one_card_deal() -> None:
    game = random_deal(13, dealer=0, seed=2)
    assert game.hand_size == 1
    assert game.legal() == {"pass", "board"}
    for bad in ("bid 1", "bid 0", "play AS", "Board", "PASS", " pass"):
        assert_rejected(game, bad)


def test_ba21_legal_bids_thirteen_card_deal() -> None:
    game = random_deal(1, dealer=0, seed=3)
    assert game.hand_size == 13
    assert game.legal() == {"pass", "board", *(f"bid {n}" for n in range(1, 13))}
    for bad in ("bid 13", "bid 0", "bid -1", "bid 01", "bid", "bid 3 4"):
        assert_rejected(game, bad)
    assert legal_bids(2) == {"pass", "bid 1", "board"}


def test_ba22_bids_need_not_rise() -> None:
    game = random_deal(9, dealer=3, seed=4)
    act_all(game, ["bid 4", "bid 1", "bid 4", "pass"])
    assert game.bids == ["bid 4", "bid 1", "bid 4", "pass"]
    assert game.phase == "play"


def test_ba23_board_levels_in_order_claimed() -> None:
    game = random_deal(9, dealer=1, seed=5)
    act_all(game, ["board", "board", "board"])
    assert game.legal() == legal_bids(5)  # a fourth board is still allowed
    game.act("board")
    assert game.board_levels == [3, 4, 1, 2]
    assert game.bids == ["board"] * 4
    assert board_levels(1, ["board"] * 4) == [3, 4, 1, 2]
    assert board_levels(0, ["pass", "board", "bid 2", "board"]) == [None, 1, None, 2]


@pytest.mark.parametrize(("dealer", "bids", "expected"), [
    (0, ["bid 3", "bid 1", "bid 2", "pass"], [5, 1]),
    (0, ["pass", "pass", "pass", "bid 2"], [0, 2]),
    (0, ["bid 7", "pass", "bid 8", "pass"], [15, 0]),       # above the hand size is allowed
    (0, ["bid 3", "board", "bid 2", "pass"], [5, "board1"]),
    (0, ["board", "bid 4", "bid 2", "pass"], ["board1", 4]),
    (0, ["board", "board", "bid 2", "pass"], ["board2", "board1"]),  # seat 1 claimed first
    (3, ["board", "bid 4", "board", "board"], ["board2", "board3"]),
    (3, ["board", "board", "board", "board"], ["board3", "board4"]),
])
def test_ba24_team_contract(dealer: int, bids: list[str], expected: list[Contract]) -> None:
    assert [team_contract(dealer, bids, team) for team in (0, 1)] == expected


def test_ba25_throw_in_after_four_passes() -> None:
    game = random_deal(3, dealer=1, seed=6)
    act_all(game, ["pass", "pass", "pass"])
    assert game.phase == "bid"
    game.act("pass")
    assert game.phase == "shuffle"
    assert game.dealer == 2
    assert game.deal_number == 3
    assert game.hand_size == 11
    assert game.throw_ins == 1
    assert game.scores == [0, 0]
    assert game.deal_results == []
    assert game.legal() == set()
    assert game.current_player is None
    assert game.hands == [set(), set(), set(), set()]
    assert game.bids == [None] * 4
    order = list(DECK)
    random.Random(0).shuffle(order)
    game.act(shuffle_text(order))
    assert game.current_player == 3  # left of the new dealer
    assert order[0] in game.hands[3]


def test_ba25_throw_in_in_last_deal_does_not_end_game() -> None:
    game = random_deal(25, dealer=0, seed=8)
    act_all(game, ["pass"] * 4)
    assert (game.phase, game.deal_number, game.dealer, game.winner) == ("shuffle", 25, 1, None)


def test_ba25_throw_in_from_game_start() -> None:
    game = RefGame()
    act_all(game, ["dealer 3", shuffle_text(DECK), "pass", "pass", "pass", "pass"])
    assert (game.phase, game.dealer, game.deal_number) == ("shuffle", 0, 1)


# ---------------------------------------------------------------------------
# BA-30: the first leader
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "bids", "leader"), [
    # bidding order for dealer 0 is 1, 2, 3, 0
    (0, ["board", "board", "bid 3", "board"], 0),  # levels: 1 -> 1, 3 -> 2, 0 -> 3
    (0, ["pass", "board", "board", "pass"], 2),    # second board (level 2) by seat 2
    (3, ["pass", "board", "board", "pass"], 2),    # bidding order 0,1,2,3: seat 2 is level 2
    (1, ["pass", "board", "board", "pass"], 1),    # bidding order 2,3,0,1: seat 1 is level 2
    (0, ["bid 4", "board", "bid 3", "pass"], 1),   # any board beats any number
    (0, ["bid 2", "bid 1", "bid 3", "pass"], 2),   # higher number
    (0, ["bid 2", "bid 3", "pass", "bid 3"], 1),   # equal numbers: earlier bidder (seat 1)
    (2, ["bid 2", "bid 3", "pass", "bid 3"], 3),   # bidding order 3,0,1,2: seat 3 first
    (1, ["bid 2", "bid 2", "bid 2", "bid 2"], 2),  # all equal: left of dealer
    (1, ["bid 1", "pass", "pass", "pass"], 0),
])
def test_ba30_first_leader(dealer: int, bids: list[str], leader: int) -> None:
    assert first_leader(dealer, bids) == leader
    game = random_deal(9, dealer=dealer, seed=dealer)
    for seat in [(dealer + 1 + i) % 4 for i in range(4)]:
        assert game.current_player == seat
        game.act(bids[seat])
    assert game.phase == "play"
    assert game.leader == leader
    assert game.current_player == leader
    assert game.trick == []


# ---------------------------------------------------------------------------
# BA-31 .. BA-33: what may be played
# ---------------------------------------------------------------------------


def test_ba31_jokers_do_not_follow_a_plain_lead() -> None:
    game = dealt(3, dealer=3, hands={0: ["AS", "2C", "3C"], 1: ["3S", "LB", "4D"],
                                     2: ["BB", "5D", "6D"], 3: ["7H", "8H", "9H"]},
                 turned="2H")
    act_all(game, ["bid 1", "pass", "pass", "pass"])
    assert playable(game) == {"AS", "2C", "3C"}
    play(game, "AS")
    assert playable(game) == {"3S"}  # the joker is a trump, not a spade
    assert_rejected(game, "play LB")
    play(game, "3S")
    assert playable(game) == {"BB", "5D", "6D"}  # no spade: anything
    play(game, "BB")
    assert playable(game) == {"7H", "8H", "9H"}
    play(game, "7H")
    assert game.trick_winners == [2]  # the Big Blooper is the highest trump
    assert game.current_player == 2
    play(game, "5D")
    assert playable(game) == {"8H", "9H"}
    play(game, "8H")
    assert playable(game) == {"2C", "3C"}
    play(game, "2C")
    assert playable(game) == {"4D"}  # the joker does not excuse a diamond holder
    assert_rejected(game, "play LB")


def test_ba31_jokers_follow_a_trump_lead() -> None:
    game = dealt(3, dealer=3, hands={0: ["KH", "AS", "2C"], 1: ["LB", "4D", "5D"],
                                     2: ["2H", "BB", "6D"], 3: ["7S", "8S", "9S"]},
                 turned="3H")
    act_all(game, ["board", "pass", "pass", "pass"])
    play(game, "KH")
    assert playable(game) == {"LB"}  # the only trump held is the joker
    play(game, "LB")
    assert playable(game) == {"2H", "BB"}
    play(game, "2H")
    assert playable(game) == {"7S", "8S", "9S"}  # no trump: anything
    play(game, "7S")
    assert game.trick_winners == [1]


def test_ba31_must_follow_plain_suit_when_holding_it() -> None:
    game = dealt(3, dealer=0, hands={1: ["4C", "AH", "KH"], 2: ["2C", "3H", "BB"],
                                     3: ["5D", "6D", "9C"], 0: ["7D", "8D", "QS"]},
                 turned="2S")
    act_all(game, ["bid 2", "pass", "pass", "pass"])
    assert game.current_player == 1
    assert playable(game) == {"4C", "AH", "KH"}
    play(game, "4C")
    assert playable(game) == {"2C"}
    play(game, "2C")
    assert playable(game) == {"9C"}
    play(game, "9C")
    assert playable(game) == {"7D", "8D", "QS"}
    play(game, "7D")
    assert game.trick_winners == [3]


def test_ba32_trump_lead_forbidden_before_trump_is_broken() -> None:
    game = dealt(3, dealer=3, hands={0: ["AS", "KH", "2C"]}, turned="2H")
    act_all(game, ["bid 1", "pass", "pass", "pass"])
    assert playable(game) == {"AS", "2C"}
    assert_rejected(game, "play KH")


def test_ba32_joker_lead_is_a_trump_lead() -> None:
    game = dealt(3, dealer=3, hands={0: ["AS", "BB", "2C"]}, turned="2H")
    act_all(game, ["bid 1", "pass", "pass", "pass"])
    assert playable(game) == {"AS", "2C"}
    assert_rejected(game, "play BB")


def broken_trump_game(seat1_first_card: str) -> RefGame:
    """A 4-card deal; seat 1 is void in spades and plays ``seat1_first_card`` to trick 1."""
    game = dealt(4, dealer=3, hands={0: ["AS", "AD", "4H", "2C"], 1: ["3H", "2D", "5C", "6H"],
                                     2: ["QS", "3D", "6C", "7C"], 3: ["JS", "5D", "8C", "9C"]},
                 turned="2H")
    act_all(game, ["bid 1", "pass", "pass", "pass"])
    assert playable(game) == {"AS", "AD", "2C"}
    play(game, f"AS {seat1_first_card} QS JS")
    return game


def test_ba32_broken_trump_lifts_the_restriction() -> None:
    game = broken_trump_game("3H")
    assert game.trick_winners == [1]
    assert game.trump_played is True
    assert playable(game) == {"2D", "5C", "6H"}  # seat 1 may now lead trump
    play(game, "2D 3D 5D AD")  # seat 0 wins a trick without any trump in it
    assert game.trick_winners == [1, 0]
    assert playable(game) == {"4H", "2C"}  # trump was played to an earlier trick, by anyone


def test_ba32_restriction_holds_when_trump_not_broken() -> None:
    game = broken_trump_game("5C")
    assert game.trick_winners == [0]
    assert game.trump_played is False
    assert playable(game) == {"AD", "2C"}


def test_ba32_own_board_lifts_the_restriction() -> None:
    game = dealt(3, dealer=3, hands={0: ["AS", "KH", "BB"]}, turned="2H")
    act_all(game, ["board", "pass", "pass", "pass"])
    assert playable(game) == {"AS", "KH", "BB"}


def test_ba32_only_trumps_lifts_the_restriction() -> None:
    game = dealt(3, dealer=3, hands={0: ["QH", "KH", "BB"]}, turned="2H")
    act_all(game, ["bid 1", "pass", "pass", "pass"])
    assert playable(game) == {"QH", "KH", "BB"}


def test_ba32_partners_board_does_not_lift_the_restriction() -> None:
    game = dealt(3, dealer=3, hands={0: ["AS", "KH", "2C"], 1: ["KS", "3D", "4D"],
                                     2: ["QS", "5D", "6C"], 3: ["JS", "7D", "8C"]},
                 turned="2H")
    act_all(game, ["bid 2", "pass", "board", "pass"])
    assert game.board_levels == [None, None, 1, None]
    assert game.leader == 2
    play(game, "QS JS AS KS")
    assert game.trick_winners == [0]
    assert game.current_player == 0
    assert playable(game) == {"2C"}
    assert_rejected(game, "play KH")


def test_ba33_big_blooper_forces_highest_trump() -> None:
    game = dealt(3, dealer=3, hands={0: ["BB", "AS", "2C"], 1: ["LB", "AH", "3D"],
                                     2: ["KH", "4H", "5D"], 3: ["6D", "7D", "8C"]},
                 turned="2H")
    act_all(game, ["board", "pass", "pass", "pass"])
    play(game, "BB")
    assert playable(game) == {"LB"}
    play(game, "LB")
    assert playable(game) == {"KH"}
    play(game, "KH")
    assert playable(game) == {"6D", "7D", "8C"}


def test_ba33_big_blooper_not_led_forces_nothing() -> None:
    game = dealt(3, dealer=3, hands={0: ["QH", "AS", "2C"], 1: ["LB", "AH", "3D"],
                                     2: ["KH", "4H", "5D"], 3: ["6D", "7D", "8C"]},
                 turned="2H")
    act_all(game, ["board", "pass", "pass", "pass"])
    play(game, "QH")
    assert playable(game) == {"LB", "AH"}
    play(game, "AH")
    assert playable(game) == {"KH", "4H"}


@pytest.mark.parametrize(("seat1", "forced1"), [
    (["BB", "9D", "3D"], "BB"),  # the Big Blooper is played only as the only trump
    (["BB", "3H", "9D"], "3H"),
    (["AH", "3H", "9D"], "3H"),
])
def test_ba33_little_blooper_forces_lowest_trump(seat1: list[str], forced1: str) -> None:
    game = dealt(3, dealer=3, hands={0: ["LB", "AS", "2C"], 1: seat1,
                                     2: ["KH", "4H", "5D"], 3: ["6D", "7D", "8C"]},
                 turned="2H")
    act_all(game, ["board", "pass", "pass", "pass"])
    play(game, "LB")
    assert playable(game) == {forced1}
    play(game, forced1)
    assert playable(game) == {"4H"}
    play(game, "4H")
    assert playable(game) == {"6D", "7D", "8C"}
    play(game, "8C")
    assert game.trick_winners == [1 if forced1 == "BB" else 0]


# ---------------------------------------------------------------------------
# BA-34: trick winners
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "trump", "index"), [
    (["KS", "AS", "2H", "QS"], "H", 2),   # a low trump beats the led suit
    (["KS", "AS", "2H", "QS"], "D", 1),   # highest of the led suit
    (["AH", "LB", "BB", "KH"], "H", 2),   # BB above LB
    (["AH", "LB", "KH", "QH"], "H", 1),   # LB above the trump ace
    (["2S", "AD", "KD", "3S"], "H", 3),   # off-suit aces never win
    (["3D", "4H", "AH", "LB"], "H", 3),
    (["9S", "TS", "JS", "8S"], "S", 2),   # all trumps
    (["5C", "7C", "AD", "6C"], None, 1),  # no-trump deal
    (["TC", "5C"], "S", 0),               # a partial trick
    (["2C", "3C", "4C", "AC"], "C", 3),
])
def test_ba34_trick_winner(cards: list[str], trump: str | None, index: int) -> None:
    assert trick_winner(cards, trump) == index


def test_ba34_trick_winner_rejects_impossible_tricks() -> None:
    with pytest.raises(ValueError, match="BA-13"):
        trick_winner(["5C", "BB", "2C", "AC"], None)
    with pytest.raises(ValueError, match="empty"):
        trick_winner([], "S")


def test_ba34_winner_leads_next_trick() -> None:
    game = dealt(2, dealer=0, hands={1: ["AS", "2D"], 2: ["KS", "3D"], 3: ["2H", "4D"],
                                     0: ["QS", "5D"]}, turned="9H")
    act_all(game, ["bid 1", "pass", "pass", "pass"])
    play(game, "AS KS 2H QS")
    assert (game.leader, game.current_player, game.tricks_won) == (3, 3, [0, 0, 0, 1])


# ---------------------------------------------------------------------------
# BA-40 .. BA-43: scoring and the end
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "tricks", "size", "points"), [
    (3, 3, 5, 15),     # made exactly
    (3, 5, 5, 17),     # overtricks count one each
    (3, 2, 5, -15),    # set
    (1, 0, 1, -5),
    (0, 0, 5, 0),      # zero contract is always made
    (0, 4, 5, 4),
    (7, 5, 5, -35),    # a sum above the hand size cannot be made
    (12, 12, 13, 60),
    (12, 13, 13, 61),
    ("board1", 4, 4, 40), ("board1", 3, 4, -40),
    ("board2", 4, 4, 80), ("board2", 0, 4, -80),
    ("board3", 4, 4, 120), ("board3", 3, 4, -120),
    ("board4", 4, 4, 160), ("board4", 2, 4, -160),
    ("board1", 1, 1, 10), ("board4", 0, 1, -40),
    ("board2", 13, 13, 260), ("board2", 12, 13, -260),
])
def test_ba40_ba41_score(contract: Contract, tricks: int, size: int, points: int) -> None:
    assert score(contract, tricks, size) == points


def test_ba40_score_rejects_impossible_input() -> None:
    cases: list[tuple[Contract, int, int]] = [
        (1, 6, 5), (1, -1, 5), ("board5", 1, 1), ("board", 1, 1), (-1, 0, 1)]
    for contract, tricks, size in cases:
        with pytest.raises(ValueError, match=r"BA-|impossible"):
            score(contract, tricks, size)


def test_ba40_numeric_contracts_made_and_set_in_play() -> None:
    game = dealt(2, dealer=1, hands={2: ["AS", "KS"], 3: ["QS", "JS"], 0: ["TS", "9S"],
                                     1: ["8S", "7S"]}, turned="2C")
    act_all(game, ["bid 1", "bid 1", "pass", "pass"])
    assert game.leader == 2  # equal numbers: the earlier bidder
    play(game, "AS QS TS 8S KS JS 9S 7S")
    assert game.deal_results == [{"deal": 12, "hand_size": 2, "dealer": 1,
                                  "contracts": [1, 1], "tricks": [2, 0], "points": [6, -5]}]
    assert game.scores == [6, -5]
    assert (game.phase, game.deal_number, game.hand_size, game.dealer) == ("shuffle", 13, 1, 2)
    assert game.hands == [set(), set(), set(), set()]


def test_ba41_board_made_and_failed_in_play_both_teams_board() -> None:
    # dealer 0: bidding order 1, 2, 3, 0; seat 1 is level 1, seat 2 level 2
    game = dealt(1, dealer=0, hands={1: ["3S"], 2: ["AH"], 3: ["KH"], 0: ["QH"]},
                 turned="2S")
    act_all(game, ["board", "board", "pass", "pass"])
    assert game.leader == 2
    play(game, "AH KH QH 3S")
    result = game.deal_results[-1]
    assert result["contracts"] == ["board2", "board1"]
    assert result["tricks"] == [0, 1]
    assert result["points"] == [-20, 10]
    assert game.scores == [-20, 10]


def test_ba41_four_boards_levels_three_and_four() -> None:
    game = dealt(1, dealer=0, hands={1: ["KH"], 2: ["QH"], 3: ["JH"], 0: ["AH"]},
                 turned="2S")
    act_all(game, ["board"] * 4)
    assert game.board_levels == [4, 1, 2, 3]
    assert game.leader == 0
    play(game, "AH KH QH JH")
    result = game.deal_results[-1]
    assert result["contracts"] == ["board4", "board3"]
    assert result["points"] == [40, -30]


def test_ba42_board_versus_numeric() -> None:
    game = dealt(2, dealer=3, hands={0: ["AS", "AD"], 1: ["KS", "KD"], 2: ["2C", "3C"],
                                     3: ["QS", "QD"]}, turned="9H")
    act_all(game, ["board", "bid 1", "pass", "pass"])
    play(game, "AS KS 2C QS AD KD 3C QD")
    result = game.deal_results[-1]
    assert result["contracts"] == ["board1", 1]
    assert result["tricks"] == [2, 0]
    assert result["points"] == [20, -5]


def finish_last_deal(scores: Sequence[int], seed: int) -> RefGame:
    """Play deal 25 from the given scores with seeded random choices."""
    game = RefGame.starting_at(25, dealer=0, scores=scores)
    play_randomly_to_end(game, random.Random(seed))
    return game


def test_ba43_game_ends_after_deal_25_with_winner() -> None:
    game = RefGame()
    play_randomly_to_end(game, random.Random(11))
    assert game.phase == "over"
    assert len(game.deal_results) == 25
    assert game.scores == [sum(r["points"][team] for r in game.deal_results) for team in (0, 1)]
    assert game.winner == winner_of(game.scores)
    assert game.legal() == set()
    assert game.current_player is None
    assert_rejected(game, "pass")
    assert_rejected(game, shuffle_text(DECK))


def test_ba43_draw_and_winner_from_final_totals() -> None:
    first = finish_last_deal([0, 0], seed=5)
    points = first.deal_results[-1]["points"]
    assert first.deal_results[-1]["deal"] == 25
    # Same seed, same choices, same points; start from swapped points to tie.
    tied = finish_last_deal([points[1], points[0]], seed=5)
    assert tied.deal_results[-1]["points"] == points
    assert tied.scores[0] == tied.scores[1]
    assert tied.phase == "over"
    assert tied.winner is None
    ahead = finish_last_deal([points[1] + 1, points[0]], seed=5)
    assert ahead.winner == 0
    behind = finish_last_deal([points[1], points[0] + 1], seed=5)
    assert behind.winner == 1


def test_ba43_winner_of() -> None:
    assert winner_of([3, 2]) == 0
    assert winner_of([-3, -2]) == 1
    assert winner_of([0, 0]) is None
    assert winner_of([-40, -40]) is None
    assert RefGame.starting_at(25, 0, scores=[10, 0]).winner is None  # not over yet


# ---------------------------------------------------------------------------
# Smoke test: seeded random games
# ---------------------------------------------------------------------------


def check_deal_invariants(game: RefGame) -> None:
    """Card accounting and hand sizes while a deal is on."""
    assert sorted(cards_in_game(game)) == sorted(DECK)
    assert game.legal()
    if game.phase == "bid":
        assert all(len(hand) == game.hand_size for hand in game.hands)
        return
    assert game.leader is not None
    played_now = {seat for seat, _ in game.trick}
    for seat in range(4):
        expected = game.hand_size - len(game.tricks_played) - (seat in played_now)
        assert len(game.hands[seat]) == expected
    assert game.current_player == (game.leader + len(game.trick)) % 4


@pytest.mark.parametrize("seed", range(20))
def test_random_games_smoke(seed: int) -> None:
    rng = random.Random(seed)
    game = RefGame()
    dealers_at_shuffle: list[int] = []
    team_tricks = [0, 0]
    bids_at_play: list[str | None] = []
    while game.phase != "over":
        if game.phase in ("bid", "play"):
            check_deal_invariants(game)
        else:
            assert game.legal() == set()
            assert game.current_player is None
        if game.phase == "shuffle":
            assert game.dealer is not None
            dealers_at_shuffle.append(game.dealer)
        if game.phase == "play" and not bids_at_play:
            bids_at_play = list(game.bids)
        action = random_action(game, rng)
        if game.phase == "play" and len(game.trick) == 3:
            cards = [card for _, card in game.trick] + [action.removeprefix("play ")]
            seats = [seat for seat, _ in game.trick] + [game.current_player]
            winner = seats[trick_winner(cards, game.trump)]
            assert winner is not None
            team_tricks[team_of(winner)] += 1
        scores_before = list(game.scores)
        results_before = len(game.deal_results)
        dealer_before = game.dealer
        game.act(action)
        if len(game.deal_results) > results_before:
            result = game.deal_results[-1]
            assert dealer_before is not None
            contracts = [team_contract(dealer_before, bids_at_play, t) for t in (0, 1)]
            assert result["contracts"] == contracts
            assert result["tricks"] == team_tricks
            assert result["dealer"] == dealer_before
            points = [score(contracts[t], team_tricks[t], result["hand_size"]) for t in (0, 1)]
            assert result["points"] == points
            assert game.scores == [scores_before[t] + points[t] for t in (0, 1)]
            team_tricks = [0, 0]
            bids_at_play = []
    assert len(game.deal_results) == 25
    assert [r["deal"] for r in game.deal_results] == list(range(1, 26))
    assert [r["hand_size"] for r in game.deal_results] == [hand_size_for(d) for d in range(1, 26)]
    assert all(sum(r["tricks"]) == r["hand_size"] for r in game.deal_results)
    # BA-11, BA-25: the deal passes clockwise after every deal and every throw-in.
    assert len(dealers_at_shuffle) == 25 + game.throw_ins
    for before, after in itertools.pairwise(dealers_at_shuffle):
        assert after == (before + 1) % 4
    assert game.scores == [sum(r["points"][t] for r in game.deal_results) for t in (0, 1)]
    assert game.winner == winner_of(game.scores)


def test_random_games_include_throw_ins() -> None:
    total = 0
    for seed in range(5):
        game = RefGame()
        play_randomly_to_end(game, random.Random(seed))
        total += game.throw_ins
    assert total > 0
