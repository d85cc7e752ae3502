"""The Down and Back round, one or more named tests per rule DB-30 .. DB-44.

Every test builds an exact deal (see ``support/db_deals.py``) so that a failure names the
cards involved.  Rule ids are those of the documentation's rules page
(``docs/rules.rst``), "Down and Back".  The last part checks the library
surface around the rules: hands as :class:`~cardrules.Hand`, input checks,
defaults, readable text, the rules object and old records replaying unchanged.
"""

from __future__ import annotations

import inspect
import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

import cardrules.down_and_back as db
from cardrules import DECK, Card, Hand, IllegalActionError, parse_card
from cardrules.down_and_back import (
    Action,
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Phase,
    Shuffle,
    Split,
    Stage,
    TieBreakDraw,
    apply,
    evaluate3,
    evaluate4,
    legal_actions,
    new_game,
    sample_chance,
    state_from_dict,
    state_to_dict,
    view,
)
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.determinization import hidden_variant
from support.db_deals import (
    cards,
    deal_round,
    hand_of,
    idle_turn,
    idle_until_split,
    rigged_deck,
    rigged_order,
    showdown_round,
    start,
)
from support.gamecheck import attrs_within, states_of
from support.recorded import db_recorded_games


def card(text: str) -> Card:
    return parse_card(text)


def refused(state: GameState, action: Action, rule: str, seat: int | None = None) -> None:
    """``action`` raises IllegalActionError citing ``rule`` and leaves ``state`` alone."""
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action, seat=seat)
    assert info.value.rule == rule, str(info.value)
    assert state_to_dict(state) == before


def stock_turn(state: GameState) -> tuple[GameState, Card]:
    """Draw from the stock and throw the drawn card away; returns the card too."""
    state = apply(state, DrawStock())
    drawn = state.drawn
    assert drawn is not None
    if state.phase is Phase.RESHUFFLE:
        return state, drawn
    return apply(state, Discard(drawn)), drawn


# Splits used in several showdowns.  Each line is (down, back).
QUAD_KINGS = ("KS KH KD KC", "2S 3H 5D")        # best down, weak back
PRIAL_QUEENS = ("4C 6S 8H 9D", "QS QH QD")      # weak down, best back
MIDDLING = ("7S 7H TC JD", "2C 3C 9C")          # pair of sevens / flush: second everywhere


# ---------------------------------------------------------------------------
# DB-30 antes


def test_db30_antes_taken_when_the_first_dealer_is_chosen() -> None:
    state = new_game(3, ante=5)
    assert (state.pot, state.net) == (0, (0, 0, 0))
    state = apply(state, ChooseDealer(0))
    assert state.phase is Phase.SHUFFLE
    assert (state.pot, state.net) == (15, (-5, -5, -5))


def test_db30_every_player_antes_again_before_each_deal() -> None:
    state = apply(new_game(3, ante=5), ChooseDealer(0))
    # Round 1: down and back go to different players, so the pot stays.
    state = showdown_round(state, {0: QUAD_KINGS, 1: PRIAL_QUEENS, 2: MIDDLING})
    assert state.phase is Phase.SHUFFLE
    assert state.round == 2
    assert (state.pot, state.net) == (30, (-10, -10, -10))
    # Round 2: seat 0 wins both and takes the 30 chips; round 3 antes at once.
    state = showdown_round(state, {0: ("KS KH KD KC", "QS QH QD"), 1: ("4C 6S 8H TD", "2S 3H 5D"),
                                   2: MIDDLING})
    assert state.results[-1].pot == 30
    assert state.results[-1].pot_winner == 0
    assert state.round == 3
    assert (state.pot, state.net) == (15, (20 - 5, -15, -15))


def test_db30_default_ante_is_one_and_bad_antes_are_refused() -> None:
    state = apply(new_game(4), ChooseDealer(1))
    assert (state.ante, state.pot, state.net) == (1, 4, (-1, -1, -1, -1))
    with pytest.raises(ValueError, match="ante"):
        new_game(2, ante=0)


# ---------------------------------------------------------------------------
# DB-31 the dealer


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_db31_first_dealer_is_a_chance_event(seat: int) -> None:
    state = new_game(4)
    assert state.is_chance
    assert state.phase is Phase.CHOOSE_DEALER
    assert state.current_player is None
    assert legal_actions(state) == ()
    after = apply(state, ChooseDealer(seat))
    assert after.dealer == seat


def test_db31_dealer_choice_refusals() -> None:
    state = new_game(3)
    refused(state, ChooseDealer(3), "DB-31")
    refused(state, Shuffle(DECK), "DB-31")
    refused(state, Cut(5), "DB-31")
    refused(state, ChooseDealer(0), "DB-31", seat=0)  # a chance event, not a player's move


def test_db31_sample_chance_chooses_every_seat_sometimes() -> None:
    rng = random.Random(31)
    chosen = set()
    for _ in range(200):
        action = sample_chance(new_game(5), rng)
        assert isinstance(action, ChooseDealer)
        chosen.add(action.seat)
    assert chosen == {0, 1, 2, 3, 4}


def test_db31_deal_passes_clockwise_each_round() -> None:
    rng = random.Random(7)
    state = apply(new_game(3, rounds=5), ChooseDealer(2))
    dealers_seen = []
    while not state.is_terminal:
        if state.phase is Phase.SHUFFLE:
            dealers_seen.append(state.dealer)
        if state.phase is Phase.CUT:
            assert state.current_player == ((state.dealer or 0) - 1) % 3
        action = sample_chance(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state = apply(state, action)
    assert dealers_seen == [2, 0, 1, 2, 0]
    assert [r.dealer for r in state.results] == [2, 0, 1, 2, 0]
    assert [r.round for r in state.results] == [1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------
# DB-32 shuffle and cut


@pytest.mark.parametrize("count", [1, 10, 26, 51])
def test_db32_cut_moves_the_top_cards_under_the_rest(count: int) -> None:
    state = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
    assert state.phase is Phase.CUT
    assert state.stock == DECK
    state = apply(state, Cut(count))
    cut_deck = DECK[count:] + DECK[:count]
    # Two players, dealer 0: seat 1 gets the 1st, 3rd, ... card, seat 0 the 2nd, 4th, ...
    assert state.hands[1] == Hand(cut_deck[0:14:2])
    assert state.hands[0] == Hand(cut_deck[1:14:2])
    assert state.discard == (cut_deck[14],)
    assert state.stock == cut_deck[15:]


@pytest.mark.parametrize("count", [0, 52, -1, 100])
def test_db32_cut_out_of_bounds_is_refused(count: int) -> None:
    state = apply(apply(new_game(3), ChooseDealer(0)), Shuffle(DECK))
    refused(state, Cut(count), "DB-32")


def test_db32_cut_bounds_one_and_fifty_one_are_legal() -> None:
    state = apply(apply(new_game(3), ChooseDealer(0)), Shuffle(DECK))
    assert legal_actions(state) == tuple(Cut(k) for k in range(1, 52))
    assert apply(state, Cut(1)).phase is Phase.DRAW
    assert apply(state, Cut(51)).phase is Phase.DRAW


def test_db32_only_the_player_right_of_the_dealer_cuts() -> None:
    state = apply(apply(new_game(4), ChooseDealer(0)), Shuffle(DECK))
    assert state.current_player == 3  # right of seat 0 at a 4-player table
    for wrong in (0, 1, 2):
        refused(state, Cut(5), "DB-32", seat=wrong)
    assert apply(state, Cut(5), seat=3).phase is Phase.DRAW


@pytest.mark.parametrize(("num_players", "dealer", "cutter"),
                         [(2, 0, 1), (2, 1, 0), (3, 0, 2), (5, 2, 1), (5, 0, 4)])
def test_db32_cutter_seat(num_players: int, dealer: int, cutter: int) -> None:
    state = apply(apply(new_game(num_players), ChooseDealer(dealer)), Shuffle(DECK))
    assert state.current_player == cutter


def test_db32_shuffle_must_order_the_whole_deck() -> None:
    state = apply(new_game(2), ChooseDealer(0))
    assert state.is_chance
    assert state.phase is Phase.SHUFFLE
    refused(state, Shuffle(DECK[:51]), "DB-32")
    refused(state, Shuffle(()), "DB-32")
    refused(state, Cut(5), "DB-32")
    refused(state, DrawStock(), "DB-32")
    order = sample_chance(state, random.Random(2))
    assert isinstance(order, Shuffle)
    assert len(order.order) == 52
    assert set(order.order) == set(DECK)


# ---------------------------------------------------------------------------
# DB-33 the deal


def test_db33_deal_one_at_a_time_clockwise_from_dealers_left() -> None:
    # Cutting 51 cards off the unshuffled deck puts KC on top, then AS, AH, ...
    state = apply(apply(apply(new_game(3), ChooseDealer(1)), Shuffle(DECK)), Cut(51))
    assert state.hands[2] == Hand.parse("KC AD 2H 3S 3C 4D 5H")   # left of the dealer: first
    assert state.hands[0] == Hand.parse("AS AC 2D 3H 4S 4C 5D")
    assert state.hands[1] == Hand.parse("AH 2S 2C 3D 4H 5S 5C")   # the dealer: last of a lap
    assert str(state.hands[2]) == "AD 2H 3S 3C 4D 5H KC"   # a Hand keeps canonical order
    assert state.discard == cards("6S")
    assert state.stock[:4] == cards("6H 6D 6C 7S")
    assert state.stock[-1] == card("KD")
    assert len(state.stock) == 52 - 21 - 1
    assert state.phase is Phase.DRAW
    assert state.current_player == 2


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_db33_rigged_deals_arrive_exactly(num_players: int) -> None:
    rng = random.Random(num_players)
    for dealer in range(num_players):
        deck = list(DECK)
        rng.shuffle(deck)
        hands = {seat: tuple(deck[7 * seat:7 * seat + 7]) for seat in range(num_players)}
        up = deck[7 * num_players]
        top = tuple(deck[7 * num_players + 1:7 * num_players + 4])
        cut = rng.randrange(1, 52)
        state = start(num_players, dealer, hands, up, top, cut=cut)
        for seat in range(num_players):
            assert state.hands[seat] == Hand(hands[seat])
        assert state.discard == (up,)
        assert state.stock[:3] == top
        assert len(state.stock) == 52 - 7 * num_players - 1
        assert set(state.stock) == set(deck[7 * num_players + 1:])


def test_db33_rigged_order_helper_agrees_with_a_plain_cut() -> None:
    deck = rigged_deck(0, 2, {}, None, ())
    assert deck == DECK  # nothing rigged: the deck in order
    order = rigged_order(0, 2, {}, None, (), cut=10)
    assert order[10:] + order[:10] == DECK


# ---------------------------------------------------------------------------
# DB-34 turns: draw, then discard

SPADES = "AS 2S 3S 4S 5S 6S 7S"
HEARTS = "AH 2H 3H 4H 5H 6H 7H"
DIAMONDS = "AD 2D 3D 4D 5D 6D 7D"


def three_suits(dealer: int = 2) -> GameState:
    """Three players: seat 0 spades, seat 1 hearts, seat 2 diamonds; KC up; QC JC TC on top."""
    return start(3, dealer, {0: cards(SPADES), 1: cards(HEARTS), 2: cards(DIAMONDS)},
                 card("KC"), cards("QC JC TC"))


@pytest.mark.parametrize(("num_players", "dealer"), [(2, 0), (2, 1), (3, 2), (4, 1), (5, 4)])
def test_db34_first_turn_is_left_of_the_dealer(num_players: int, dealer: int) -> None:
    state = start(num_players, dealer, {})
    assert state.phase is Phase.DRAW
    assert state.current_player == (dealer + 1) % num_players
    assert legal_actions(state) == (DrawStock(), DrawDiscard())


def test_db34_draw_from_stock_then_discard_the_same_card() -> None:
    state = three_suits()
    assert state.current_player == 0
    state = apply(state, DrawStock())
    assert state.phase is Phase.DISCARD
    assert state.current_player == 0
    assert state.hands[0] == (*cards(SPADES), card("QC"))
    assert state.drawn == card("QC")
    assert state.stock[:2] == cards("JC TC")
    assert legal_actions(state) == tuple(Discard(c) for c in state.hands[0])
    state = apply(state, Discard(card("QC")))
    assert state.hands[0] == cards(SPADES)
    assert state.discard == cards("KC QC")
    assert state.drawn is None
    assert state.phase is Phase.DRAW
    assert state.current_player == 1
    assert state.turns == (1, 0, 0)


def test_db34_draw_from_discard_pile_then_discard_the_same_card() -> None:
    state = three_suits()
    state = apply(state, DrawDiscard())
    assert state.hands[0] == (*cards(SPADES), card("KC"))
    assert state.discard == ()
    assert state.stock[:1] == cards("QC")
    state = apply(state, Discard(card("KC")))
    assert state.hands[0] == cards(SPADES)
    assert state.discard == cards("KC")
    assert state.current_player == 1


def test_db34_discard_a_different_card_and_turns_go_clockwise() -> None:
    state = three_suits()
    state = apply(apply(state, DrawStock()), Discard(card("7S")))
    assert state.hands[0] == cards("AS 2S 3S 4S 5S 6S QC")
    assert state.discard == cards("KC 7S")
    state = apply(apply(state, DrawDiscard()), Discard(card("AH")))   # seat 1 takes 7S
    assert state.hands[1] == Hand.parse("2H 3H 4H 5H 6H 7H 7S")
    assert str(state.hands[1]) == "2H 3H 4H 5H 6H 7S 7H"   # canonical order, not arrival
    assert state.discard == cards("KC AH")
    state = idle_turn(state)  # seat 2
    assert state.current_player == 0
    assert state.turns == (1, 1, 1)


def test_db34_order_of_turns_around_the_table() -> None:
    state = start(4, 1, {})
    movers = []
    while state.phase is Phase.DRAW:
        movers.append(state.current_player)
        state = idle_turn(state)
    assert movers == [(2 + k) % 4 for k in range(24)]


def test_db34_wrong_phase_actions_are_refused() -> None:
    state = three_suits()
    refused(state, Discard(card("AS")), "DB-34")      # must draw first
    refused(state, Cut(3), "DB-34")
    refused(state, Split(cards("AS 2S 3S 4S"), cards("5S 6S 7S")), "DB-34")
    refused(state, Shuffle(DECK), "DB-34")
    refused(state, ChooseDealer(0), "DB-34")
    drawn = apply(state, DrawStock())
    refused(drawn, DrawStock(), "DB-34")                # already drew
    refused(drawn, DrawDiscard(), "DB-34")


def test_db34_discarding_a_card_not_held_is_refused() -> None:
    state = apply(three_suits(), DrawStock())
    refused(state, Discard(card("AH")), "DB-34")   # in seat 1's hand
    refused(state, Discard(card("KC")), "DB-34")   # on the discard pile
    refused(state, Discard(card("JC")), "DB-34")   # in the stock


def test_db34_acting_out_of_turn_is_refused() -> None:
    state = three_suits()
    refused(state, DrawStock(), "DB-34", seat=1)
    refused(state, DrawDiscard(), "DB-34", seat=2)
    assert apply(state, DrawStock(), seat=0).current_player == 0
    drawn = apply(state, DrawStock())
    refused(drawn, Discard(card("AH")), "DB-34", seat=1)


# ---------------------------------------------------------------------------
# DB-35 six turns each


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_db35_six_turns_each_then_the_split(num_players: int) -> None:
    dealer = num_players - 1
    state = start(num_players, dealer, {})
    actions = 0
    while state.phase is not Phase.SPLIT:
        assert state.phase in (Phase.DRAW, Phase.DISCARD)
        if state.phase is Phase.DRAW and sum(state.turns) == 6 * num_players - 1:
            assert state.current_player == dealer  # the dealer's sixth turn is the last
            assert state.turns[dealer] == 5
        state = idle_turn(state)
        actions += 2
    assert actions == 12 * num_players
    assert state.turns == (6,) * num_players
    assert state.current_player == (dealer + 1) % num_players
    assert len(legal_actions(state)) == 35


def test_db35_stock_draws_do_not_change_the_turn_count() -> None:
    state = start(2, 0, {})
    actions = 0
    while state.phase is not Phase.SPLIT:
        state, _ = stock_turn(state)
        actions += 2
    assert actions == 24
    assert len(state.stock) == 52 - 15 - 12
    assert len(state.discard) == 13


# ---------------------------------------------------------------------------
# DB-36 the stock runs out


def test_db36_five_players_run_out_and_reshuffle_the_discard_pile() -> None:
    state = start(5, 0, {})
    assert len(state.stock) == 16
    drawers = []
    for _ in range(16):
        assert state.phase is Phase.DRAW
        drawers.append(state.current_player)
        state, last = stock_turn(state)
    drawer = drawers[-1]
    assert drawer == (0 + 1 + 15) % 5
    assert state.phase is Phase.RESHUFFLE
    assert state.is_chance
    assert state.current_player is None
    assert legal_actions(state) == ()
    assert state.stock == ()
    assert state.drawn == last
    assert last in state.hands[drawer]
    assert len(state.hands[drawer]) == 8
    pile = state.discard
    assert len(pile) == 16   # the up card and fifteen discards
    # Only a permutation of exactly the discard pile is accepted.
    refused(state, Shuffle(pile[1:]), "DB-36")
    refused(state, Shuffle((*pile, state.hands[0][0])), "DB-36")
    refused(state, Shuffle((*pile[1:], last)), "DB-36")
    refused(state, Shuffle(DECK), "DB-36")
    refused(state, DrawStock(), "DB-36")
    refused(state, Discard(last), "DB-36", seat=drawer)
    sampled = sample_chance(state, random.Random(36))
    assert isinstance(sampled, Shuffle)
    assert set(sampled.order) == set(pile)
    assert len(sampled.order) == len(pile)
    order = tuple(reversed(pile))
    after = apply(state, Shuffle(order))
    assert after.discard == order[:1]
    assert after.stock == order[1:]
    assert after.phase is Phase.DISCARD
    assert after.current_player == drawer
    assert after.drawn == last
    after = apply(after, Discard(last))
    assert after.discard == (order[0], last)
    assert after.phase is Phase.DRAW
    assert after.current_player == (drawer + 1) % 5
    check_invariants(after)


def test_db36_stock_running_out_on_the_dealers_last_turn() -> None:
    state = start(4, 3, {})
    assert len(state.stock) == 23
    state = idle_turn(state)
    for _ in range(22):
        state, _ = stock_turn(state)
    assert state.phase is Phase.DRAW
    assert state.current_player == 3
    assert len(state.stock) == 1
    state, last = stock_turn(state)
    assert state.phase is Phase.RESHUFFLE
    pile = state.discard
    state = apply(state, Shuffle(pile))
    assert state.phase is Phase.DISCARD
    assert state.current_player == 3
    state = apply(state, Discard(last))
    assert state.phase is Phase.SPLIT
    assert state.stock == pile[1:]
    assert state.discard == (pile[0], last)


# ---------------------------------------------------------------------------
# DB-37 what is seen


def views_ignore_hidden_cards(state: GameState, seed: int = 0) -> None:
    rng = random.Random(seed)
    for seat in range(state.num_players):
        for _ in range(3):
            assert view(hidden_variant(state, seat, rng), seat) == view(state, seat)


def test_db37_a_card_drawn_from_the_stock_is_seen_only_by_the_drawer() -> None:
    state = apply(three_suits(), DrawStock())
    qc = card("QC")
    own = view(state, 0)
    assert own.drawn == qc
    assert qc in own.hand
    for other in (1, 2):
        theirs = view(state, other)
        assert theirs.drawn is None
        assert qc not in theirs.hand
        assert qc not in theirs.discard
        assert all(qc not in seen for seen in theirs.seen)
        assert theirs.hand_sizes == (8, 7, 7)
        assert theirs.stock_size == len(state.stock)
    views_ignore_hidden_cards(state)
    state = apply(state, Discard(qc))
    assert all(view(state, s).discard == cards("KC QC") for s in range(3))


def test_db37_a_card_taken_from_the_discard_pile_is_seen_by_everyone() -> None:
    state = apply(three_suits(), DrawDiscard())
    kc = card("KC")
    assert state.seen == ((kc,), (), ())
    for seat in range(3):
        assert view(state, seat).seen == ((kc,), (), ())
    assert view(state, 1).drawn is None   # the public record is ``seen``
    views_ignore_hidden_cards(state)
    state = apply(state, Discard(card("AS")))   # keeps KC: still seen in the hand
    assert state.seen[0] == (kc,)
    views_ignore_hidden_cards(state, 1)
    state = idle_turn(idle_turn(state))   # seats 1 and 2 pass
    state = apply(apply(state, DrawStock()), Discard(kc))   # seat 0 lets KC go again
    assert state.seen == ((), (), ())
    assert state.discard[-1] == kc


@pytest.mark.parametrize("seat", [-1, 3, True])
def test_db37_there_is_no_view_from_a_missing_seat(seat: int) -> None:
    with pytest.raises(ValueError, match="no seat"):
        view(three_suits(), seat)


# ---------------------------------------------------------------------------
# DB-40 splits


def at_split() -> GameState:
    return idle_until_split(three_suits(dealer=0))


def test_db40_splits_are_hidden_until_everyone_has_chosen() -> None:
    state = at_split()
    assert state.current_player == 1   # left of dealer 0 is asked first
    split1 = Split(cards("AH 2H 3H 4H"), cards("5H 6H 7H"))
    state = apply(state, split1, seat=1)
    assert state.splits == (None, split1, None)
    assert state.current_player == 2
    assert view(state, 1).splits == (None, split1, None)
    for other in (0, 2):
        other_view = view(state, other)
        assert other_view.splits == (None, None, None)
        assert other_view.split_chosen == (False, True, False)
    # What every seat is shown alike also tells who has split, and nothing more.
    from cardrules.down_and_back.views import public_view
    assert public_view(state).split_chosen == (False, True, False)
    assert public_view(state).splits == (None, None, None)
    views_ignore_hidden_cards(state)
    split0 = Split(cards("4S 5S 6S 7S"), cards("AS 2S 3S"))
    state = apply(state, split0, seat=0)
    assert view(state, 2).splits == (None, None, None)
    assert view(state, 0).splits == (split0, None, None)
    assert state.current_player == 2
    split2 = Split(cards("AD 2D 3D 4D"), cards("5D 6D 7D"))
    state = apply(state, split2)   # seat 2 is the only one left: the default actor
    assert state.results[0].splits == (split0, split1, split2)


def test_db40_split_order_does_not_matter() -> None:
    base = at_split()
    chosen = {0: Split(cards("AS 2S 3S 4S"), cards("5S 6S 7S")),
              1: Split(cards("AH 2H 3H 7H"), cards("4H 5H 6H")),
              2: Split(cards("4D 5D 6D 7D"), cards("AD 2D 3D"))}
    finals = []
    for order in ((0, 1, 2), (2, 0, 1), (1, 2, 0)):
        state = base
        for seat in order:
            state = apply(state, chosen[seat], seat=seat)
        finals.append(state)
    assert finals[0] == finals[1] == finals[2]


def test_db40_malformed_splits_are_refused() -> None:
    state = at_split()
    hand = state.hands[1]
    foreign = card("KS")
    assert foreign not in hand
    refused(state, Split(hand[:5], hand[5:]), "DB-40", seat=1)          # 5 + 2
    refused(state, Split(hand[:3], hand[3:]), "DB-40", seat=1)          # 3 + 4
    refused(state, Split(hand[:4], hand[4:6]), "DB-40", seat=1)         # 4 + 2
    refused(state, Split(hand[:4], (*hand[4:6], foreign)), "DB-40", seat=1)   # not held
    with pytest.raises(ValueError, match="each card once"):  # twice: a Split refuses it
        Split(hand[:4], (hand[4], hand[5], hand[5]))
    refused(state, Split(hand[:4], (hand[3], hand[4], hand[5])), "DB-40", seat=1)  # both hands
    refused(state, Split(state.hands[2][:4], state.hands[2][4:]), "DB-40", seat=1)  # another's
    refused(state, DrawStock(), "DB-40")
    refused(state, Discard(hand[0]), "DB-40", seat=1)
    refused(state, Shuffle(DECK), "DB-40")
    once = apply(state, Split(hand[:4], hand[4:]), seat=1)
    refused(once, Split(hand[3:], hand[:3]), "DB-40", seat=1)           # no second split


def test_db40_legal_splits_are_the_35_ways() -> None:
    state = at_split()
    legal = legal_actions(state)
    assert len(legal) == 35 == len(set(legal))
    for split in legal:
        assert isinstance(split, Split)
        assert sorted(split.down + split.back) == sorted(state.hands[1])


# ---------------------------------------------------------------------------
# DB-41 down first, then back


def test_db41_down_and_back_hands_are_compared_separately() -> None:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, {0: QUAD_KINGS, 1: PRIAL_QUEENS, 2: MIDDLING})
    result = state.results[0]
    assert (result.down_winner, result.back_winner) == (0, 1)
    assert result.pot_winner is None
    assert result.tiebreaks == ()
    # Sanity: the evaluators agree on who is strongest where.
    downs = [evaluate4(cards(s[0])) for s in (QUAD_KINGS, PRIAL_QUEENS, MIDDLING)]
    backs = [evaluate3(cards(s[1])) for s in (QUAD_KINGS, PRIAL_QUEENS, MIDDLING)]
    assert downs.index(max(downs)) == 0
    assert backs.index(max(backs)) == 1


def test_db41_the_split_chosen_counts_not_the_best_split() -> None:
    # Seat 0 holds four kings but puts three of them in the back: seat 2's pair of
    # sevens wins the down, and seat 0's kings beat seat 1's queens in the back.
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, {0: ("KS 2S 3H 5D", "KH KD KC"), 1: PRIAL_QUEENS,
                                   2: MIDDLING})
    assert evaluate4(cards("KS 2S 3H 5D")) < evaluate4(cards(MIDDLING[0]))
    assert state.results[0].down_winner == 2
    assert state.results[0].back_winner == 0


# ---------------------------------------------------------------------------
# DB-42 ties broken by drawing from the stock

# Dealer 0 at three seats: the draw order is 1, 2, 0.  Seats 2 and 0 tie for the
# down with equal two pairs; seat 1 has the best back.
TIED_DOWN = {2: ("QS QH 9S 9H", "2S 3H 5D"), 0: ("QD QC 9D 9C", "2H 3D 6C"),
             1: ("4C 6S 8H TD", "KS KH KD")}


@pytest.mark.parametrize(("draws", "winner"), [
    ("4D JC", 0),    # the second drawer has the higher card
    ("KC JS", 2),    # the first drawer has the higher card
    ("AS 2C", 0),    # the ace is low
])
def test_db42_tie_broken_by_one_draw_each(draws: str, winner: int) -> None:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    assert evaluate4(cards("QS QH 9S 9H")) == evaluate4(cards("QD QC 9D 9C"))
    state = showdown_round(state, TIED_DOWN, stock_top=cards(draws))
    result = state.results[0]
    first, second = cards(draws)
    assert result.tiebreaks == (TieBreakDraw(Stage.DOWN, 2, first),
                                TieBreakDraw(Stage.DOWN, 0, second))
    assert result.down_winner == winner
    assert result.back_winner == 1


def test_db42_equal_ranks_draw_again() -> None:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, TIED_DOWN, stock_top=cards("7S 7C 3S 2D"))
    result = state.results[0]
    assert result.tiebreaks == (
        TieBreakDraw(Stage.DOWN, 2, card("7S")), TieBreakDraw(Stage.DOWN, 0, card("7C")),
        TieBreakDraw(Stage.DOWN, 2, card("3S")), TieBreakDraw(Stage.DOWN, 0, card("2D")))
    assert result.down_winner == 2


def test_db42_three_way_tie_only_the_still_tied_draw_again() -> None:
    chosen = {1: ("KS 9H 7D 4C", "QS QH QD"), 2: ("KH 9D 7C 4S", "2S 3H 5C"),
              0: ("KD 9C 7S 4H", "2H 3D 6C")}
    downs = {evaluate4(cards(down)) for down, _ in chosen.values()}
    assert len(downs) == 1
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, chosen, stock_top=cards("JS JH 5D 6D 8S"))
    result = state.results[0]
    assert result.tiebreaks == (
        TieBreakDraw(Stage.DOWN, 1, card("JS")), TieBreakDraw(Stage.DOWN, 2, card("JH")),
        TieBreakDraw(Stage.DOWN, 0, card("5D")),
        TieBreakDraw(Stage.DOWN, 1, card("6D")), TieBreakDraw(Stage.DOWN, 2, card("8S")))
    assert (result.down_winner, result.back_winner, result.pot_winner) == (2, 1, None)


# Seats 1 and 2 tie for the down, seats 1 and 0 for the back (dealer 0: order 1, 2, 0).
TIED_BOTH = {1: ("QS QH 9S 9H", "2S 3H 5D"), 2: ("QD QC 9D 9C", "AH 2D 4C"),
             0: ("4D 6S 8H TD", "2C 3S 5H")}


def test_db42_down_tie_is_broken_before_the_back_tie() -> None:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, TIED_BOTH, stock_top=cards("KS 7C 8C JC"))
    result = state.results[0]
    assert result.tiebreaks == (
        TieBreakDraw(Stage.DOWN, 1, card("KS")), TieBreakDraw(Stage.DOWN, 2, card("7C")),
        TieBreakDraw(Stage.BACK, 1, card("8C")), TieBreakDraw(Stage.BACK, 0, card("JC")))
    assert (result.down_winner, result.back_winner, result.pot_winner) == (1, 0, None)


def test_db42_tie_breaks_can_win_the_whole_pot() -> None:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, TIED_BOTH, stock_top=cards("KS 7C JC 8C"))
    result = state.results[0]
    assert (result.down_winner, result.back_winner, result.pot_winner) == (1, 1, 1)
    assert state.net == (-1, 2, -1)


def test_db42_stock_runs_out_during_a_tie_break() -> None:
    # Five players, dealer 0: draw order 1, 2, 3, 4, 0.  Seats 2 and 4 tie for the down;
    # seat 4 has the best back.  The stock is drained to three cards before the showdown.
    chosen = {2: ("QS QH 9S 9H", "2S 3H 5D"), 4: ("QD QC 9D 9C", "KS KH KD"),
              1: ("4D 6S 8H TD", "2C 3S 6H"), 3: ("4H 6D 8S TC", "2D 3C 7H"),
              0: ("4S 6C 8D TH", "2H 3D 7S")}
    hands = {seat: hand_of(*split) for seat, split in chosen.items()}
    finale = cards("5S 5H 8C")   # a tied pass of fives, then seat 2 draws the last card
    used = {c for h in hands.values() for c in h} | set(finale)
    rest = [c for c in DECK if c not in used]
    up, fillers = rest[0], rest[1:]
    assert len(fillers) == 13
    assert card("KC") in fillers
    state = start(5, 0, hands, up, (*fillers, *finale), rounds=1)
    for _ in range(13):
        state, _ = stock_turn(state)
    state = idle_until_split(state)
    assert state.stock == finale
    for seat, (down, back) in chosen.items():
        state = apply(state, Split(cards(down), cards(back)), seat=seat)
    # Paused: the first pass tied and went to the discard pile; 8C is on the table.
    assert state.phase is Phase.RESHUFFLE
    assert state.current_player is None
    assert state.stock == ()
    showdown = state.showdown
    assert showdown is not None
    assert showdown.stage is Stage.DOWN
    assert showdown.contenders == (2, 4)
    assert showdown.drawn == (TieBreakDraw(Stage.DOWN, 2, card("8C")),)
    assert [d.card for d in showdown.log] == list(cards("5S 5H 8C"))
    assert state.discard[-2:] == cards("5S 5H")
    assert len(state.discard) == 1 + 13 + 2
    assert card("8C") not in state.discard
    check_invariants(state)
    assert state_from_dict(state_to_dict(state)) == state
    # Every split is revealed now, and the table is public.
    for seat in range(5):
        assert view(state, seat).splits == state.splits
        assert view(state, seat).showdown == showdown
    views_ignore_hidden_cards(state)
    # The reshuffle must be of the discard pile only (not the card on the table).
    pile = state.discard
    refused(state, Shuffle((*pile, card("8C"))), "DB-36")
    refused(state, Shuffle(pile[1:]), "DB-36")
    order = (pile[0], card("KC"), *[c for c in pile[1:] if c != card("KC")])
    state = apply(state, Shuffle(order))
    result = state.results[0]
    assert [(d.seat, d.card) for d in result.tiebreaks] == [
        (2, card("5S")), (4, card("5H")), (2, card("8C")), (4, card("KC"))]
    assert (result.down_winner, result.back_winner, result.pot_winner) == (4, 4, 4)
    assert state.phase is Phase.GAME_OVER
    assert state.net == (-1, -1, -1, -1, 4)


# ---------------------------------------------------------------------------
# DB-43 the pot

# Two players.  DOWN_ONLY wins the down and loses the back against BACK_ONLY.
DOWN_ONLY = ("KS KH KD KC", "2S 3H 5D")
BACK_ONLY = ("4C 6S 8H TD", "QS QH QD")
BOTH = ("KS KH KD KC", "QS QH QD")
NEITHER = ("4C 6S 8H TD", "2S 3H 5D")


def test_db43_a_player_winning_both_takes_the_pot() -> None:
    state = apply(new_game(3, ante=2), ChooseDealer(1))
    state = showdown_round(state, {0: NEITHER, 1: BOTH, 2: MIDDLING})
    result = state.results[0]
    assert (result.down_winner, result.back_winner, result.pot_winner, result.pot) == (1, 1, 1, 6)
    # Seat 1 took the six chips; the next round's antes are already in.
    assert state.net == (-4, 6 - 4, -4)
    assert state.pot == 6


def test_db43_pot_carries_over_two_rounds_then_is_won() -> None:
    state = apply(new_game(2, rounds=3), ChooseDealer(0))
    state = showdown_round(state, {0: DOWN_ONLY, 1: BACK_ONLY})
    assert state.results[0].pot == 2
    assert state.results[0].pot_winner is None
    assert (state.pot, state.net, state.dealer) == (4, (-2, -2), 1)
    state = showdown_round(state, {0: BACK_ONLY, 1: DOWN_ONLY})
    assert (state.results[1].down_winner, state.results[1].back_winner) == (1, 0)
    assert state.results[1].pot == 4
    assert state.results[1].pot_winner is None
    assert (state.pot, state.net, state.dealer) == (6, (-3, -3), 0)
    state = showdown_round(state, {0: NEITHER, 1: BOTH})
    assert state.results[2].pot == 6
    assert state.results[2].pot_winner == 1
    assert state.phase is Phase.GAME_OVER
    assert (state.pot, state.net) == (0, (-3, 3))


# ---------------------------------------------------------------------------
# DB-44 the end of the game


def test_db44_set_number_of_rounds_ends_the_game() -> None:
    state = apply(new_game(3, rounds=2), ChooseDealer(0))
    state = showdown_round(state, {0: BOTH, 1: NEITHER, 2: MIDDLING})
    assert state.phase is Phase.SHUFFLE
    assert not state.is_terminal
    assert state.leaders == (0,)
    state = showdown_round(state, {0: NEITHER, 1: BOTH, 2: MIDDLING})
    assert state.phase is Phase.GAME_OVER
    assert state.is_terminal
    assert state.current_player is None
    assert legal_actions(state) == ()
    assert len(state.results) == 2
    assert state.net == (1, 1, -2)
    assert state.leaders == (0, 1)   # equal net winnings share the lead
    for action in (ChooseDealer(0), Shuffle(DECK), Cut(5), DrawStock(), DrawDiscard(),
                   Discard(DECK[0]), Split(DECK[:4], DECK[4:7])):
        refused(state, action, "DB-44")
    refused(state, DrawStock(), "DB-44", seat=0)
    with pytest.raises(IllegalActionError) as info:
        sample_chance(state, random.Random(0))
    assert info.value.rule == "DB-44"


def test_db44_carried_pot_at_the_end_leaves_everyone_level() -> None:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, {0: QUAD_KINGS, 1: PRIAL_QUEENS, 2: MIDDLING})
    assert state.is_terminal
    assert (state.pot, state.net) == (3, (-1, -1, -1))
    assert state.leaders == (0, 1, 2)


def test_db44_open_ended_game_never_ends() -> None:
    rng = random.Random(44)
    state = new_game(2, rounds=None)
    assert state.rounds is None
    while len(state.results) < 4:
        assert not state.is_terminal
        action = sample_chance(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state = apply(state, action)
    assert state.phase is Phase.SHUFFLE
    assert state.round == 5
    best = max(state.net)
    assert state.leaders == tuple(s for s in range(2) if state.net[s] == best)


@pytest.mark.parametrize("rounds", [0, -1])
def test_db44_rounds_must_be_positive(rounds: int) -> None:
    with pytest.raises(ValueError, match="rounds"):
        new_game(2, rounds=rounds)


@pytest.mark.parametrize("num_players", [0, 1, 6])
def test_player_count_is_two_to_five(num_players: int) -> None:
    with pytest.raises(ValueError, match="2 to 5"):
        new_game(num_players)


def test_deal_after_round_one_uses_the_new_dealer() -> None:
    state = apply(new_game(3), ChooseDealer(2))
    state = showdown_round(state, {0: QUAD_KINGS, 1: PRIAL_QUEENS, 2: MIDDLING})
    assert state.dealer == 0
    assert state.phase is Phase.SHUFFLE
    assert state.hands == ((), (), ())
    assert state.stock == DECK
    assert state.discard == ()
    hands: dict[int, Sequence[Card]] = {1: cards(SPADES)}
    state = deal_round(state, hands, cut=3)
    assert state.hands[1] == cards(SPADES)
    assert state.current_player == 1   # left of the new dealer
    assert [r.dealer for r in state.results] == [2]


# ---------------------------------------------------------------------------
# Hands (DB-33, DB-34, DB-37): every hand is a Hand, in canonical order


def random_states(num_players: int, seed: int, rounds: int = 1) -> Iterator[GameState]:
    """Every state of a random game (chance sampled, legal actions chosen uniformly)."""
    rng = random.Random(seed)
    state = new_game(num_players, rounds=rounds)
    yield state
    while not state.is_terminal:
        state = apply(state, sample_chance(state, rng) if state.is_chance
                      else rng.choice(legal_actions(state)))
        yield state


def test_db33_hands_are_dealt_as_hands_in_canonical_order() -> None:
    # Seat 0 receives its cards in a scrambled order; its hand is sorted by card index.
    state = start(3, 2, {0: cards("7S 2S AS 6S 3S 5S 4S")})
    assert type(state.hands[0]) is Hand
    assert str(state.hands[0]) == "AS 2S 3S 4S 5S 6S 7S"
    for hand in state.hands:
        assert [c.index for c in hand] == sorted(c.index for c in hand)


@pytest.mark.parametrize("num_players", [2, 5])
def test_db34_hands_seen_and_views_stay_hands_all_game(num_players: int) -> None:
    discard_turns = 0
    for state in random_states(num_players, seed=34 + num_players):
        for seat in range(num_players):
            for pile in (state.hands[seat], state.seen[seat], view(state, seat).hand):
                assert type(pile) is Hand
                assert [c.index for c in pile] == sorted(c.index for c in pile)
            assert all(type(seen) is Hand for seen in view(state, seat).seen)
        if state.phase is Phase.DISCARD:   # discards are listed in the hand's order
            hand = state.hands[state.current_player or 0]
            assert legal_actions(state) == tuple(Discard(c) for c in hand)
            discard_turns += 1
    assert discard_turns == 6 * num_players


def test_db37_cards_seen_taken_are_a_hand_in_canonical_order() -> None:
    state = apply(three_suits(), DrawDiscard())            # seat 0 takes KC...
    state = apply(state, Discard(card("AS")))
    state = idle_turn(idle_turn(state))                    # (AS goes up and down again)
    state = apply(apply(state, DrawStock()), Discard(card("2S")))
    state = idle_turn(idle_turn(state))
    state = apply(apply(state, DrawDiscard()), Discard(card("3S")))   # ...then takes 2S
    assert type(state.seen[0]) is Hand
    assert str(state.seen[0]) == "2S KC"                  # not the arrival order KC, 2S
    assert state.seen[1] == state.seen[2] == Hand()


def test_db40_a_split_without_a_seat_is_the_current_players() -> None:
    # Without seat= an action is the player to act's, so apply agrees
    # with legal_actions; another seat still to split must be named (DB-40).
    state = at_split()
    assert state.current_player == 1
    other = Split(state.hands[2][:4], state.hands[2][4:])   # seat 2's cards, no seat named
    assert other not in legal_actions(state)
    refused(state, other, "DB-40")
    after = apply(state, other, seat=2)                       # named: any order (DB-40)
    assert after.splits == (None, None, other)
    assert after.current_player == 1
    refused(after, other, "DB-40", seat=2)                   # seat 2 has split already
    mixed = Split((*state.hands[0][:3], state.hands[2][0]), state.hands[0][3:6])
    refused(state, mixed, "DB-40")                          # nobody holds these seven


def test_db40_legal_splits_are_those_of_splits_in_order() -> None:
    from cardrules.down_and_back import splits
    state = at_split()
    hand = state.hands[1]
    legal = [action for action in legal_actions(state) if isinstance(action, Split)]
    assert len(legal) == 35
    assert [(s.down, s.back) for s in legal] == [
        (Hand(o.down.cards), Hand(o.back.cards)) for o in splits(hand)]
    assert all(type(s.down) is Hand and type(s.back) is Hand for s in legal)


# ---------------------------------------------------------------------------
# Recorded games replay unchanged (DB-30 .. DB-44)

RECORDED = db_recorded_games()


@pytest.mark.parametrize("game", RECORDED, ids=[g["note"] for g in RECORDED])
def test_db30_to_db44_games_recorded_before_the_hand_type_replay_unchanged(
        game: dict[str, Any]) -> None:
    from cardrules.down_and_back import RULES
    from cardrules.engine import GameRecord
    record = GameRecord.from_text(game["record"])
    *_, final = RULES.replay(record)
    assert final.is_terminal
    assert (list(final.net), final.pot) == (game["net"], game["pot"])
    assert [[r.dealer, r.down_winner, r.back_winner, r.pot, r.pot_winner,
             [[d.stage.value, d.seat, str(d.card)] for d in r.tiebreaks]]
            for r in final.results] == game["results"]


def test_recorded_games_cover_tie_breaks_and_reshuffles() -> None:
    texts = [g["record"] for g in RECORDED]
    assert any(r[5] for g in RECORDED for r in g["results"])          # a tie-break drew
    assert any(t.count("shuffle") > 2 for t in texts)                 # a mid-round reshuffle
    assert {t.splitlines()[1] for t in texts} >= {"num_players 2", "num_players 5"}


# ---------------------------------------------------------------------------
# Tie-break stages (DB-41, DB-42) and categories (DB-10 .. DB-25)


def test_db42_tie_break_draws_name_their_stage_as_an_enum() -> None:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = showdown_round(state, TIED_BOTH, stock_top=cards("KS 7C 8C JC"))
    stages = [d.stage for d in state.results[0].tiebreaks]
    assert stages == [Stage.DOWN, Stage.DOWN, Stage.BACK, Stage.BACK]
    assert all(type(stage) is Stage for stage in stages)
    assert [str(stage) for stage in Stage] == ["DOWN", "BACK"]
    assert str(state.results[0].tiebreaks[0]) == "DOWN: seat 1 drew KS"


def test_db10_to_db25_every_category_names_its_own_rule() -> None:
    from cardrules.down_and_back import Category3, Category4
    assert {c.name: c.rule for c in Category4} == {
        "QUAD": "DB-10", "PRIAL": "DB-11", "BOUNCER": "DB-12", "RUN": "DB-13",
        "FLUSH": "DB-14", "TWO_PAIR": "DB-15", "PAIR": "DB-16", "HIGH_CARD": "DB-17"}
    assert {c.name: c.rule for c in Category3} == {
        "PRIAL": "DB-20", "BOUNCER": "DB-21", "RUN": "DB-22", "FLUSH": "DB-23",
        "PAIR": "DB-24", "HIGH_CARD": "DB-25"}
    # Equal values in the two enums must not share a rule (TWO_PAIR == FLUSH == 2).
    two_pair: int = Category4.TWO_PAIR
    assert two_pair == Category3.FLUSH
    assert Category4.TWO_PAIR.rule != Category3.FLUSH.rule


# ---------------------------------------------------------------------------
# Input checks: seats and actions (apply as view)

NOT_SEATS: list[Any] = [True, False, 1.0, 0.0, -1, 3, "1", None.__class__]


def states_in_every_phase() -> list[GameState]:
    drawn = apply(three_suits(dealer=0), DrawStock())
    return [new_game(3), apply(new_game(3), ChooseDealer(0)),
            apply(apply(new_game(3), ChooseDealer(0)), Shuffle(DECK)), three_suits(dealer=0),
            drawn, at_split()]


@pytest.mark.parametrize("seat", NOT_SEATS)
def test_apply_checks_the_seat_as_view_does(seat: Any) -> None:
    for state in states_in_every_phase():
        before = state_to_dict(state)
        with pytest.raises(ValueError, match="no seat") as from_view:
            view(state, seat)
        for action in (*legal_actions(state)[:2], DrawStock(), ChooseDealer(0)):
            with pytest.raises(ValueError, match="no seat") as from_apply:
                apply(state, action, seat=seat)
            assert not isinstance(from_apply.value, IllegalActionError)
            assert str(from_apply.value) == str(from_view.value)
        assert state_to_dict(state) == before


def test_db34_a_bool_seat_equal_to_the_player_to_act_is_still_refused() -> None:
    state = three_suits(dealer=0)          # seat 1 to act; True == 1 in Python
    assert state.current_player == 1
    with pytest.raises(ValueError, match="no seat True"):
        apply(state, DrawStock(), seat=True)
    assert apply(state, DrawStock(), seat=1).phase is Phase.DISCARD


@pytest.mark.parametrize("text", ["cut 5", "draw stock", "discard KS", ""])
def test_apply_says_text_is_not_an_action(text: str) -> None:
    for state in states_in_every_phase():
        before = state_to_dict(state)
        with pytest.raises(TypeError, match="parse_action") as info:
            apply(state, text)  # type: ignore[arg-type]
        assert not isinstance(info.value, IllegalActionError)
        assert state_to_dict(state) == before


@pytest.mark.parametrize("thing", [5, None, ("cut", 5), Card(13, 0)])
def test_apply_refuses_what_is_not_a_down_and_back_action(thing: Any) -> None:
    state = apply(apply(new_game(3), ChooseDealer(0)), Shuffle(DECK))
    with pytest.raises(TypeError, match="Down and Back action"):
        apply(state, thing)


def test_is_legal_agrees_with_apply_and_changes_nothing() -> None:
    from cardrules.down_and_back import is_legal
    from cardrules.down_and_back.checks import probe_actions
    for state in states_in_every_phase():
        before = state_to_dict(state)
        for action in probe_actions(state):
            try:
                apply(state, action)
            except IllegalActionError:
                accepted = False
            else:
                accepted = True
            assert is_legal(state, action) is accepted, (state.phase, action)
        assert state_to_dict(state) == before


# ---------------------------------------------------------------------------
# Defaults (DB-44): one finite number of rounds; open-ended only when asked


def test_db44_one_finite_default_for_new_game_play_game_and_the_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules import cli
    from cardrules.down_and_back import DEFAULT_ROUNDS, RULES, play_game
    from cardrules.engine import RandomBot
    assert DEFAULT_ROUNDS == 10
    assert new_game(4).rounds == DEFAULT_ROUNDS
    assert RULES.default_settings["rounds"] == DEFAULT_ROUNDS
    assert RULES.new_game_from_settings({"num_players": 3}).rounds == DEFAULT_ROUNDS
    assert play_game([RandomBot(1), RandomBot(2)], seed=1).state.rounds == DEFAULT_ROUNDS
    assert inspect.signature(new_game).parameters["rounds"].default == DEFAULT_ROUNDS
    assert cli._options.DEFAULT_ROUNDS == DEFAULT_ROUNDS   # the command's help text
    assert cli.main(["play", "--players", "2", "--seed", "1", "--bots", "random"]) == 0
    played = [line for line in capsys.readouterr().out.splitlines()
              if line.startswith("round ")]
    assert len(played) == DEFAULT_ROUNDS


def test_db44_the_plain_random_loop_ends_after_the_default_rounds() -> None:
    from cardrules.down_and_back import DEFAULT_ROUNDS
    *_, final = random_states(2, seed=44, rounds=DEFAULT_ROUNDS)
    again = new_game(2)
    assert again.rounds == DEFAULT_ROUNDS
    assert final.is_terminal
    assert len(final.results) == DEFAULT_ROUNDS


def test_db44_open_ended_is_asked_for_with_rounds_none() -> None:
    state = new_game(2, rounds=None)
    assert state.rounds is None
    assert "open-ended" in str(state)
    for bad in (0, -2, True, 2.0, "3"):
        with pytest.raises(ValueError, match="rounds"):
            new_game(2, rounds=bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Readable text: states, views, enums, split options

CARD_TOKEN = re.compile(r"\b([A2-9TJQK][SHDC])\b")


def test_str_of_a_state_is_a_compact_table() -> None:
    state = apply(three_suits(dealer=0), DrawDiscard())     # seat 1 takes KC
    text = str(state)
    lines = text.splitlines()
    assert len(lines) == 2 + 3 + 1
    assert lines[1] == "phase DISCARD, seat 1 to act, pot 3"
    assert lines[3] == ("seat 1  net -1  turns 0  hand AH 2H 3H 4H 5H 6H 7H KC  drew KC  "
                        "seen KC")
    assert lines[-1] == "stock 30 cards, top QC;  discard 0 cards"
    assert "Card.parse" not in text
    assert len(text) < 400
    assert repr(state) == "<GameState round 1, DISCARD, 3 players, pot 3>"


def test_db37_str_of_a_view_shows_only_what_the_seat_may_see() -> None:
    checked = 0
    for state in random_states(4, seed=37):
        revealed = all(s is not None for s in state.splits)
        for seat in range(4):
            hidden = {str(c) for c in state.stock}
            if not revealed:
                for other in range(4):
                    if other != seat:
                        hidden |= {str(c) for c in state.hands[other]}
                        hidden -= {str(c) for c in state.seen[other]}
            text = str(view(state, seat))
            shown = set(CARD_TOKEN.findall(text))
            assert not shown & hidden, (seat, shown & hidden)
            assert {str(c) for c in state.hands[seat]} <= shown | {"-"}
            checked += 1
    assert checked > 200


def test_db40_str_of_a_view_hides_unrevealed_splits() -> None:
    state = at_split()
    split = Split(state.hands[1][:4], state.hands[1][4:])
    state = apply(state, split, seat=1)
    assert str(split)[len("split "):] in str(view(state, 1))
    other = str(view(state, 0))
    assert "(has split)" in other
    assert str(split.down) not in other


def test_enums_print_their_names() -> None:
    from cardrules.down_and_back import Category3, Category4
    assert (str(Phase.DRAW), f"{Phase.SPLIT}", f"{Phase.CUT:>5}") == ("DRAW", "SPLIT", "  CUT")
    assert (str(Stage.BACK), f"{Stage.DOWN}") == ("BACK", "DOWN")
    assert (str(Category4.TWO_PAIR), f"{Category3.FLUSH}") == ("TWO_PAIR", "FLUSH")


def test_split_options_print_both_combinations() -> None:
    from cardrules.down_and_back import best_splits
    option = best_splits(Hand.parse("8S 8H 8D QH 5C 6C 7C"))[0]
    assert str(option) == "prial of eights (8S 8H 8D QH) / bouncer, seven high (5C 6C 7C)"


# ---------------------------------------------------------------------------
# The rules object and the user namespace


def test_rules_object_holds_the_conformance_hooks() -> None:
    import cardrules.down_and_back as db
    from cardrules.down_and_back import checks
    from cardrules.engine.registry import rules_for
    from cardrules.engine.rules import Rules
    assert isinstance(db.RULES, Rules)
    assert rules_for("down_and_back") is db.RULES
    assert db.RULES.check_invariants is checks.check_invariants
    assert db.RULES.hidden_variant is hidden_variant
    assert db.RULES.probe_actions is checks.probe_actions
    # what RULES carries is reached through RULES only, in both games
    for name in ("record", "replay", "new_game_from_settings", "NAME", "CHECK_SETTINGS",
                 "RandomBot", "GameRecord", "check_invariants", "hidden_variant",
                 "probe_actions", "returns", "chance_pile", "NUM_ACTIONS", "action_id"):
        assert not hasattr(db, name), name


def test_public_names_are_listed_once_and_exist() -> None:
    import cardrules.down_and_back as db
    assert len(db.__all__) == len(set(db.__all__))
    for name in db.__all__:
        assert getattr(db, name) is not None
    # Everything public that the package itself defines or re-exports from
    # cardrules is listed (imports of other libraries and submodules aside).
    ours = {n for n, v in vars(db).items() if not n.startswith("_") and not inspect.ismodule(v)
            and getattr(v, "__module__", "").startswith("cardrules")}
    assert ours <= set(db.__all__)


def test_play_game_gives_the_final_state_and_its_record() -> None:
    from cardrules.down_and_back import RULES, GreedyBot, play_game
    from cardrules.engine import PlayedGame, RandomBot
    game = play_game([GreedyBot(1), RandomBot(2), RandomBot(3)], ante=2, rounds=2, seed=8)
    assert isinstance(game, PlayedGame)
    assert game.state.is_terminal
    assert len(game.state.results) == 2
    assert game.record.settings_dict == {"num_players": 3, "ante": 2, "rounds": 2}
    assert list(RULES.replay(game.record))[-1] == game.state


# ---------------------------------------------------------------------------
# Found by the sampled mutation run (tools/mutation.py): behaviour no test checked


def test_rules_object_defaults_are_four_players_ante_one_and_the_default_rounds() -> None:
    from cardrules.down_and_back import DEFAULT_ROUNDS, RULES, play_game
    from cardrules.engine import RandomBot
    state = RULES.new_game_from_settings({})
    assert (state.num_players, state.ante, state.rounds) == (4, 1, DEFAULT_ROUNDS)
    assert play_game([RandomBot(1), RandomBot(2)], rounds=1, seed=2).state.ante == 1


def test_conformance_settings_cover_every_table_size_and_more_than_one_ante() -> None:
    from cardrules.down_and_back import RULES
    settings = RULES.check_settings
    # Each table size once (DB-30: 2 to 5 players), antes of one and of two
    # chips alternating, and two rounds each so that the deal passes (DB-31).
    assert [s["num_players"] for s in settings] == [2, 3, 4, 5]
    assert [s["ante"] for s in settings] == [1, 2, 1, 2]
    assert {s["rounds"] for s in settings} == {2}
    for each in settings:
        state = RULES.new_game_from_settings(each)
        assert RULES.settings_of(state) == each


def summary_lines(state: GameState) -> list[str]:
    from cardrules.down_and_back.summary import summarize
    return summarize(state).splitlines()


def test_db43_db44_the_summary_tells_each_round_the_money_and_the_leaders() -> None:
    from cardrules.down_and_back import play_game
    from cardrules.engine import RandomBot
    kinds: set[str] = set()
    leader_counts: set[int] = set()
    for seed in range(40):
        state = play_game([RandomBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)],
                          rounds=2, seed=seed).state
        lines = summary_lines(state)
        assert len(lines) == len(state.results) + 2
        for line, result in zip(lines, state.results, strict=False):
            head = (f"round {result.round}: down to seat {result.down_winner}, "
                    f"back to seat {result.back_winner}; ")
            if result.pot_winner is not None:   # DB-43: won both showdowns
                assert line == head + f"seat {result.pot_winner} takes {result.pot}"
                kinds.add("won")
            else:
                assert line == head + f"pot of {result.pot} carries over"
                kinds.add("carried")
        net = " ".join(f"{v:+d}" for v in state.net)
        assert lines[-2] == f"net: {net} (pot {state.pot})"
        leaders = state.leaders
        word = "seat" if len(leaders) == 1 else "seats"
        assert lines[-1] == f"leading: {word} " + ", ".join(map(str, leaders))
        leader_counts.add(len(leaders))
    assert kinds == {"won", "carried"}
    assert {1, 2} <= leader_counts


def test_db37_str_of_a_view_shows_the_drawn_card_only_to_the_drawer() -> None:
    before = three_suits(dealer=0)          # seat 1 to draw; QC on top of the stock
    for seat in range(3):
        assert "drew" not in str(view(before, seat))
    drawn = apply(before, DrawStock())
    assert drawn.drawn == card("QC")
    assert "drew QC" in str(view(drawn, 1))
    for seat in (0, 2):
        assert "drew" not in str(view(drawn, seat))
        assert "QC" not in str(view(drawn, seat))


def test_repr_of_a_view_is_short() -> None:
    assert repr(view(new_game(2), 1)) == "<View of seat 1: round 1, CHOOSE_DEALER, hand ->"
    state = three_suits(dealer=0)
    assert repr(view(state, 0)) == "<View of seat 0: round 1, DRAW, hand AS 2S 3S 4S 5S 6S 7S>"


def test_str_of_a_state_shows_the_drawn_card_on_the_drawer_line_only() -> None:
    state = apply(three_suits(dealer=0), DrawStock())       # seat 1 draws QC
    lines = str(state).splitlines()
    seat_lines = [line for line in lines if line.startswith("seat ")]
    assert [("drew QC" in line) for line in seat_lines] == [False, True, False]
    assert "drew" not in str(three_suits(dealer=0))


def test_state_parts_and_views_are_frozen_and_slotted() -> None:
    import attrs
    state = apply(three_suits(dealer=0), DrawStock())
    draw = TieBreakDraw(Stage.DOWN, 0, card("KS"))
    finished = showdown_round(
        apply(new_game(2), ChooseDealer(0)),
        {0: ("8S 8H 8D QH", "5C 6C 7C"), 1: ("2S 4H 6D 9C", "3S 5H 7D")})
    result = finished.results[0]
    from cardrules.down_and_back import Showdown
    paused = Showdown(down_winner=None, contenders=(0, 1), drawn=(draw,), log=(draw,))
    for thing in (state, state.settings, state.history, draw, result, paused, view(state, 1)):
        assert attrs.has(type(thing)), type(thing)
        assert not hasattr(thing, "__dict__"), type(thing)
        name = attrs.fields(type(thing))[0].name
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(thing, name, getattr(thing, name))


# -- GreedyBot


def test_greedy_bot_refuses_an_empty_list_of_actions() -> None:
    from cardrules.down_and_back import GreedyBot
    with pytest.raises(ValueError, match="no legal action"):
        GreedyBot(seed=1).act(view(three_suits(dealer=0), 1), [])


def test_greedy_bot_takes_the_only_discard_it_is_offered() -> None:
    from cardrules.down_and_back import GreedyBot
    state = apply(three_suits(dealer=0), DrawStock())        # seat 1 holds eight cards
    only = Discard(state.hands[1][3])
    assert GreedyBot(seed=1).act(view(state, 1), [only]) == only


def test_db34_greedy_bot_takes_the_discard_only_when_it_makes_the_hand_better() -> None:
    from cardrules.down_and_back import GreedyBot
    seven = cards("8S 8H 8D QH 5C 6C 7C")      # prial of eights and a bouncer
    # KH would only stand in for QH as the prial's face card: no better, so the stock.
    same = start(3, 0, {1: seven}, card("KH"))
    assert GreedyBot(seed=1).act(view(same, 1), legal_actions(same)) == DrawStock()
    # 8C makes a quad: take it.
    better = start(3, 0, {1: seven}, card("8C"))
    assert GreedyBot(seed=1).act(view(better, 1), legal_actions(better)) == DrawDiscard()


def test_hand_value_is_category_plus_a_fraction_for_the_rank_summed_over_the_split() -> None:
    from cardrules.down_and_back import Combo, hand_value, splits

    def weight(combo: Combo) -> float:
        fraction = (combo.strength & 0xFFF) / 4096
        assert 0 <= fraction < 1
        return int(combo.category) + fraction

    rng = random.Random(7)
    for _ in range(200):
        seven = Hand(rng.sample(DECK, 7))
        weights = [weight(o.down) + weight(o.back) for o in splits(seven)]
        value, number = hand_value(seven)
        assert value == max(weights)
        assert number == weights.index(value)


def test_apply_quotes_only_the_first_40_characters_of_text() -> None:
    text = "cut " + "9" * 200
    with pytest.raises(TypeError) as info:
        apply(new_game(2), text)  # type: ignore[arg-type]
    assert repr(text[:40]) in str(info.value)
    assert len(str(info.value)) < 120


def test_str_of_a_state_counts_one_card_without_a_plural() -> None:
    state = three_suits(dealer=0)                      # KC turned up (DB-33)
    assert str(state).splitlines()[-1] == "stock 30 cards, top QC;  discard 1 card, top KC"
    state = apply(apply(state, DrawStock()), Discard(card("QC")))
    assert str(state).splitlines()[-1] == "stock 29 cards, top JC;  discard 2 cards, top QC"


def test_greedy_bot_offered_only_the_stock_draws_from_it() -> None:
    from cardrules.down_and_back import GreedyBot
    state = start(3, 0, {1: cards("8S 8H 8D QH 5C 6C 7C")}, card("8C"))
    assert GreedyBot(seed=1).act(view(state, 1), [DrawStock()]) == DrawStock()


def test_db40_greedy_bot_splits_by_its_hand_value() -> None:
    from cardrules.down_and_back import GreedyBot, hand_value
    state = at_split()
    for _ in range(3):
        seat = state.current_player
        assert seat is not None
        legal = legal_actions(state)
        choice = GreedyBot(seed=seat).act(view(state, seat), legal)
        assert choice == legal[hand_value(state.hands[seat])[1]]
        assert choice in legal
        state = apply(state, choice)
    assert state.results


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_db35_turns_count_the_turns_each_seat_has_finished(num_players: int) -> None:
    rng = random.Random(num_players)
    for dealer in range(num_players):
        state = start(num_players, dealer, {})
        finished = [0] * num_players
        while state.phase is Phase.DRAW:
            assert state.turns == tuple(finished), (dealer, finished)
            seat = state.current_player
            assert seat is not None
            state = apply(state, rng.choice(legal_actions(state)))
            if state.phase is Phase.RESHUFFLE:
                state = apply(state, sample_chance(state, rng))
            state = apply(state, rng.choice(legal_actions(state)))
            finished[seat] += 1
        assert state.turns == (6,) * num_players    # DB-35


# == attrs.evolve on the records ===========================================================
# ``attrs.evolve`` on Down and Back's records: every init argument
# is an attribute of the same name holding what the argument takes, so passing a
# record's own values back gives the record back; a name that only reads
# through to the settings or the books (``num_players``, ``pot``, ``turns``, ...)
# is not an argument and is refused with a TypeError naming it.

def _states() -> Iterator[GameState]:
    """Every state of short random games of two and three players: each phase,
    tie-breaks when they come, and the end."""
    for seed, players in ((0, 2), (1, 3), (2, 3)):
        yield from states_of(db.RULES, {"num_players": players, "rounds": 2}, seed)


def test_every_init_argument_round_trips_through_evolve() -> None:
    kinds: set[type] = set()
    for state in _states():
        for record in (*attrs_within(state), *attrs_within(view(state, 0))):
            kinds.add(type(record))
            fields = attrs.fields(type(record))
            for field in fields:
                if field.init:
                    assert field.alias == field.name, (type(record).__name__, field.name)
                    again = attrs.evolve(record, **{field.name: getattr(record, field.name)})
                    assert again == record, (type(record).__name__, field.name)
        again = attrs.evolve(state, **{f.name: getattr(state, f.name)
                                       for f in attrs.fields(GameState)})
        assert legal_actions(again) == legal_actions(state)
    assert {GameState, db.Settings, db.History, db.RoundResult, db.Split, db.View} <= kinds


@pytest.mark.parametrize("name", ["num_players", "ante", "rounds", "round", "dealer", "pot",
                                  "net", "results", "turns"])
def test_a_name_read_through_to_the_books_is_refused_by_evolve(name: str) -> None:
    state = db.apply(db.new_game(3), db.ChooseDealer(1))
    with pytest.raises(TypeError, match=rf"unexpected keyword argument '{name}'"):
        attrs.evolve(state, **{name: getattr(state, name)})


def test_the_reducers_state_builder_lists_the_fields_in_their_order() -> None:
    """The reducer's keyword-only builder passes its arguments to GameState by
    position: its parameters must be the fields, in the same order."""
    from cardrules.down_and_back.game import _new_state

    assert list(inspect.signature(_new_state).parameters) == \
        [field.name for field in attrs.fields(GameState)]


@pytest.mark.parametrize("stray", ["turn", "drawn", "splits"])
def test_check_invariants_refuses_any_one_sign_of_play_between_rounds(stray: str) -> None:
    # Before the first dealer nothing has been played: a turn counted, a card
    # drawn or a split made, any one of them alone, is refused (DB-31).
    from cardrules import parse_card, parse_cards
    from cardrules.down_and_back import RULES, Split, new_game

    state = new_game(2)
    made = Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 6C 7C"))
    value: Any = {"turn": 3, "drawn": parse_card("AS"), "splits": (made, None)}[stray]
    evolve: Any = attrs.evolve   # one field named at run time
    with pytest.raises(ValueError, match="no play between rounds"):
        RULES.check_invariants(evolve(state, **{stray: value}))
