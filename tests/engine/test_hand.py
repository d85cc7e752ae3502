"""cardrules.Hand: canonical order, set equality, checks, and the new-hand operations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import DECK, Card, Hand, Joker, ParseError, parse_cards
from cardrules.hand import card_index

CARDS = st.lists(st.sampled_from(DECK), unique=True, max_size=13)


def test_hand_is_sorted_by_card_index_whatever_the_order_given() -> None:
    hand = Hand.parse("QH 8D KS 8S 8H")
    assert [c.index for c in hand] == sorted(c.index for c in hand)
    assert str(hand) == "8S 8H 8D QH KS"
    assert repr(hand) == "Hand.parse('8S 8H 8D QH KS')"


@given(CARDS, st.randoms(use_true_random=False))
def test_equality_and_hash_ignore_arrival_order(cards: list[Card], rng: random.Random) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert Hand(cards) == Hand(shuffled)
    assert hash(Hand(cards)) == hash(Hand(shuffled))
    assert set(Hand(cards)) == set(cards)
    assert len(Hand(cards)) == len(cards)


def test_different_cards_make_different_hands() -> None:
    assert Hand.parse("AS KS") != Hand.parse("AS QS")
    assert Hand.parse("AS") != Hand.parse("AS KS")


def test_a_hand_is_a_tuple_of_cards() -> None:
    hand = Hand.parse("KS AS")
    assert isinstance(hand, tuple)
    assert hand[0] == Card.parse("AS")
    assert hand[-1] == Card.parse("KS")
    assert Card.parse("KS") in hand
    assert Card.parse("QS") not in hand
    assert list(hand) == [Card.parse("AS"), Card.parse("KS")]
    assert hand == parse_cards("AS KS")  # compared with a tuple, as the tuple of its cards


def test_repeated_cards_are_refused() -> None:
    with pytest.raises(ValueError, match="AS is repeated"):
        Hand(parse_cards("AS KS AS"))


def test_items_must_be_cards() -> None:
    with pytest.raises(TypeError, match="must be a Card"):
        Hand([Card.parse("AS"), 3])  # type: ignore[type-var]
    with pytest.raises(TypeError, match=r"use Hand\.parse\('AS KS'\)"):
        Hand("AS KS")  # type: ignore[type-var]
    with pytest.raises(TypeError) as caught:
        Hand("AS " * 1000)  # type: ignore[type-var]
    assert len(str(caught.value)) < 120  # the hint quotes a short prefix only


def test_jokers_only_where_allowed() -> None:
    with pytest.raises(ParseError, match="jokers are not allowed"):
        Hand.parse("AS BB")
    with pytest.raises(ValueError, match="jokers are not allowed"):
        Hand([Joker.BIG])
    hand = Hand.parse("LB AS BB", jokers=True)
    assert str(hand) == "AS BB LB"
    assert card_index(hand[1]) == 52
    assert card_index(hand[2]) == 53


def test_add_keeps_the_order_and_returns_a_new_hand() -> None:
    hand = Hand.parse("AS KS")
    bigger = hand.add(Card.parse("5D"))
    assert str(bigger) == "AS 5D KS"
    assert str(hand) == "AS KS"
    assert isinstance(bigger, Hand)
    assert str(Hand().add(Card.parse("2C"))) == "2C"
    assert str(hand.add(Card.parse("KC"))) == "AS KS KC"
    assert str(hand.add(Card.parse("AC"))) == "AS AC KS"


def test_add_refuses_a_card_already_held_and_non_cards() -> None:
    with pytest.raises(ValueError, match="already holds KS"):
        Hand.parse("AS KS").add(Card.parse("KS"))
    with pytest.raises(TypeError, match="a hand holds cards, not str"):
        Hand.parse("AS").add("KS")  # type: ignore[arg-type]


def test_add_a_joker_to_a_joker_hand() -> None:
    hand = Hand.parse("AS", jokers=True).add(Joker.LITTLE)
    assert str(hand) == "AS LB"


def test_remove_and_without() -> None:
    hand = Hand.parse("AS 5D KS")
    assert str(hand.remove(Card.parse("5D"))) == "AS KS"
    assert str(hand.remove(Card.parse("AS"))) == "5D KS"
    assert str(hand.remove(Card.parse("KS"))) == "AS 5D"
    assert isinstance(hand.remove(Card.parse("KS")), Hand)
    with pytest.raises(ValueError, match="does not hold QS"):
        hand.remove(Card.parse("QS"))
    with pytest.raises(ValueError, match="does not hold"):
        hand.remove("AS")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not hold KC"):
        hand.remove(Card.parse("KC"))  # past the last card
    assert str(hand.without(parse_cards("AS KS QS"))) == "5D"
    assert hand.without([]) == hand


@given(CARDS, st.sampled_from(DECK))
def test_add_then_remove_is_identity(cards: list[Card], card: Card) -> None:
    hand = Hand(cards)
    if card in hand:
        assert hand.remove(card).add(card) == hand
    else:
        assert hand.add(card).remove(card) == hand
        assert hand.add(card) == Hand([*cards, card])


def test_mask() -> None:
    assert Hand().mask == 0
    assert Hand.parse("AS").mask == 1
    assert Hand.parse("AS AH").mask == 3
    assert Hand.parse("KC").mask == 1 << 51


def test_of_sorted_takes_cards_as_given() -> None:
    cards = parse_cards("AS 2S")
    hand = Hand.of_sorted(cards)
    assert isinstance(hand, Hand)
    assert tuple(hand) == cards
