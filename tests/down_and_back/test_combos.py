"""Down and Back combinations on hand-picked hands, one or more tests per rule id.

Every hand here is written out in full so that a failure names the exact cards.
Rule ids are those of the rules page of the documentation (docs/rules.rst), "Down and Back".
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import pytest

import cardrules.down_and_back as db
from cardrules import DECK, Card, Hand, Joker, Rank, Suit, parse_card, parse_cards
from cardrules.down_and_back import (
    Category3,
    Category4,
    Combo,
    best_splits,
    evaluate3,
    evaluate4,
    splits,
)
from cardrules.down_and_back import combos as pure
from cardrules.down_and_back.combos import SplitOption
from support.ordering import EQUAL, LESS, OPS, comparisons


def down(text: str) -> Combo:
    """Evaluate a 4-card (down) hand written in card notation."""
    return evaluate4(parse_cards(text))


def back(text: str) -> Combo:
    """Evaluate a 3-card (back) hand written in card notation."""
    return evaluate3(parse_cards(text))


def assert_strictly_increasing(texts: Sequence[str], evaluate: Callable[[str], Combo]) -> None:
    """Each hand is strictly stronger than the one before it."""
    combos = [(text, evaluate(text)) for text in texts]
    assert len(combos) >= 2
    for (weak_text, weak), (strong_text, strong) in pairwise(combos):
        assert weak.strength < strong.strength, f"{weak_text!r} should lose to {strong_text!r}"
        assert weak < strong
        assert strong > weak
        assert weak != strong


def assert_all_tied(texts: Sequence[str], evaluate: Callable[[str], Combo]) -> None:
    """All hands tie: equal strength, ``==`` and equal hashes."""
    combos = [(text, evaluate(text)) for text in texts]
    assert len(combos) >= 2
    first_text, first = combos[0]
    for text, combo in combos[1:]:
        assert combo.strength == first.strength, f"{text!r} should tie with {first_text!r}"
        assert combo == first
        assert not combo < first
        assert not combo > first
        assert hash(combo) == hash(first)


# ------------------------------------------------------------------ category enums


def test_category4_members_and_values() -> None:
    assert [(c.name, int(c)) for c in Category4] == [
        ("HIGH_CARD", 0), ("PAIR", 1), ("TWO_PAIR", 2), ("FLUSH", 3),
        ("RUN", 4), ("BOUNCER", 5), ("PRIAL", 6), ("QUAD", 7),
    ]


def test_category3_members_and_values() -> None:
    assert [(c.name, int(c)) for c in Category3] == [
        ("HIGH_CARD", 0), ("PAIR", 1), ("FLUSH", 2), ("RUN", 3), ("BOUNCER", 4), ("PRIAL", 5),
    ]


# ------------------------------------------------------------------------- DB-1


def test_db1_ace_low_bouncer_is_the_lowest_bouncer() -> None:
    assert down("AS 2S 3S 4S").category is Category4.BOUNCER
    assert_strictly_increasing(["AS 2S 3S 4S", "2H 3H 4H 5H", "9D TD JD QD", "TC JC QC KC"], down)


def test_db1_ace_low_run_is_the_lowest_run() -> None:
    assert down("AS 2H 3D 4C").category is Category4.RUN
    assert_strictly_increasing(["4C 3D 2H AS", "2S 3H 4D 5C", "TS JH QD KC"], down)


def test_db1_ace_low_three_card_sequences_are_the_lowest() -> None:
    assert back("AS 2S 3S").category is Category3.BOUNCER
    assert back("AS 2H 3D").category is Category3.RUN
    assert_strictly_increasing(["AS 2S 3S", "2H 3H 4H", "JD QD KD"], back)
    assert_strictly_increasing(["AS 2H 3D", "2H 3D 4C", "JS QH KD"], back)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("JS QH KD AC", Category4.HIGH_CARD),
        ("QS KH AD 2C", Category4.HIGH_CARD),
        ("KS AH 2D 3C", Category4.HIGH_CARD),
        ("JS QS KS AS", Category4.FLUSH),
        ("QH KH AH 2H", Category4.FLUSH),
        ("KD AD 2D 3D", Category4.FLUSH),
    ],
)
def test_db1_no_wrap_around_in_four_cards(text: str, expected: Category4) -> None:
    assert down(text).category is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QS KH AD", Category3.HIGH_CARD),
        ("KS AH 2D", Category3.HIGH_CARD),
        ("QS KS AS", Category3.FLUSH),
        ("KC AC 2C", Category3.FLUSH),
    ],
)
def test_db1_no_wrap_around_in_three_cards(text: str, expected: Category3) -> None:
    assert back(text).category is expected


def test_db1_ace_is_the_lowest_card_in_card_by_card_comparisons() -> None:
    assert_strictly_increasing(["KS 9H 5D AC", "KS 9H 5D 2C"], down)
    assert_strictly_increasing(["KS 9H AD", "KS 9H 2D"], back)
    assert_strictly_increasing(["KS QS JS AS", "KH QH JH 9H"], down)  # flushes


@pytest.mark.parametrize(
    "texts",
    [
        ["KS 9H 5D 2C", "KH 9D 5C 2S", "KC 9C 5C 2D"],  # high card
        ["5S 5H 9D 2C", "5D 5C 9H 2S"],  # pair
        ["9S 9H 4D 4C", "9D 9C 4S 4H"],  # two pair
        ["KS 9S 5S 2S", "KH 9H 5H 2H", "KC 9C 5C 2C"],  # flush
        ["5S 6H 7D 8C", "5H 6H 7H 8S", "8D 7C 6S 5S"],  # run
        ["5S 6S 7S 8S", "5D 6D 7D 8D"],  # bouncer
    ],
)
def test_db1_suits_never_break_ties_in_four_cards(texts: list[str]) -> None:
    assert_all_tied(texts, down)


@pytest.mark.parametrize(
    "texts",
    [
        ["KS 9H 5D", "KH 9D 5S"],  # high card
        ["5S 5H 9D", "5D 5C 9H", "5S 5H 9C"],  # pair
        ["KS 9S 5S", "KH 9H 5H"],  # flush
        ["5S 6H 7D", "5H 6H 7C"],  # run
        ["5S 6S 7S", "5C 6C 7C"],  # bouncer
    ],
)
def test_db1_suits_never_break_ties_in_three_cards(texts: list[str]) -> None:
    assert_all_tied(texts, back)


# ------------------------------------------------------------------------- DB-2


def test_db2_face_cards_are_jack_queen_king() -> None:
    cards = parse_cards("AS 2S 9S TS JS QS KS")
    assert [card.is_face for card in cards] == [False, False, False, False, True, True, True]
    assert sum(card.is_face for card in DECK) == 12


def test_db2_ten_and_ace_are_not_face_cards_for_the_pair_rule() -> None:
    # With a king, exactly one other is a face card, so the plain card must be off-suit.
    assert down("5S 5H JS KS").category is Category4.PAIR
    assert down("5S 5H TS KS").category is Category4.HIGH_CARD
    assert down("5S 5H AS KS").category is Category4.HIGH_CARD
    assert back("5S 5H JS").category is Category3.PAIR
    assert back("5S 5H TS").category is Category3.HIGH_CARD
    assert back("5S 5H AH").category is Category3.HIGH_CARD


def test_db2_ten_and_ace_are_not_face_cards_for_the_prial_rule() -> None:
    assert down("8S 8H 8D JH").category is Category4.PRIAL
    assert down("8S 8H 8D TH").category is Category4.HIGH_CARD
    assert down("8S 8H 8D AH").category is Category4.HIGH_CARD


# ------------------------------------------------------------------------ DB-10


def test_db10_quad_is_four_cards_of_one_rank() -> None:
    assert down("8S 8H 8D 8C").category is Category4.QUAD
    assert down("AC AD AH AS").category is Category4.QUAD


def test_db10_quads_compare_by_rank() -> None:
    assert_strictly_increasing(
        ["AS AH AD AC", "2S 2H 2D 2C", "8S 8H 8D 8C", "KS KH KD KC"], down
    )


def test_db10_weakest_quad_beats_strongest_prial() -> None:
    assert_strictly_increasing(["KS KH KD QC", "AS AH AD AC"], down)


# ------------------------------------------------------------------------ DB-11


def test_db11_prial_with_fourth_suit_card() -> None:
    combo = down("8S 8H 8D 4C")
    assert combo.category is Category4.PRIAL
    assert down("8H 8D 8C 2S").category is Category4.PRIAL
    assert down("2C 8S 8D 8C").category is Category4.HIGH_CARD  # 2C is not the missing suit
    assert down("2H 8S 8D 8C").category is Category4.PRIAL


@pytest.mark.parametrize("fourth", ["QH", "JS", "KD", "QC", "JC"])
def test_db11_prial_with_face_card_of_any_suit(fourth: str) -> None:
    assert down(f"8S 8H 8D {fourth}").category is Category4.PRIAL


def test_db11_prial_of_faces_with_face_fourth_card() -> None:
    assert down("QS QH QD KS").category is Category4.PRIAL
    assert down("QS QH QD JD").category is Category4.PRIAL
    assert down("JS JH JD 2C").category is Category4.PRIAL


@pytest.mark.parametrize("fourth", ["4H", "4S", "4D", "TS", "AH", "9D"])
def test_db11_three_of_a_kind_with_neither_is_not_a_prial(fourth: str) -> None:
    # The fourth card is neither of the missing suit (clubs) nor a face card.
    # Plain three of a kind then cannot be a PAIR either (DB-16), so: HIGH_CARD.
    combo = down(f"8S 8H 8D {fourth}")
    assert combo.category is Category4.HIGH_CARD


def test_db11_prials_of_equal_rank_tie_regardless_of_fourth_card() -> None:
    assert_all_tied(["8S 8H 8D 4C", "8S 8H 8D QH", "8H 8D 8C AS", "8S 8D 8C KC", "8S 8H 8C JD"],
                    down)


def test_db11_prials_compare_by_rank_of_the_three() -> None:
    assert_strictly_increasing(
        ["AS AH AD KC", "2S 2H 2D AC", "7S 7H 7D 2C", "8S 8H 8C AD", "KS KH KD 2C"], down
    )


def test_db11_weakest_prial_beats_strongest_bouncer() -> None:
    assert down("AS AH AD 2C").category is Category4.PRIAL
    assert_strictly_increasing(["TS JS QS KS", "AS AH AD 2C"], down)


# ------------------------------------------------------------------------ DB-12


def test_db12_bouncer_is_four_consecutive_cards_of_one_suit() -> None:
    assert down("5H 6H 7H 8H").category is Category4.BOUNCER
    assert down("8H 5H 7H 6H").category is Category4.BOUNCER
    assert down("TS JS QS KS").category is Category4.BOUNCER


def test_db12_bouncers_compare_by_highest_card() -> None:
    assert_strictly_increasing(
        ["AS 2S 3S 4S", "2D 3D 4D 5D", "5H 6H 7H 8H", "9C TC JC QC", "TS JS QS KS"], down
    )
    assert_all_tied(["TS JS QS KS", "TH JH QH KH"], down)


def test_db12_weakest_bouncer_beats_strongest_run() -> None:
    assert_strictly_increasing(["TS JH QD KC", "AS 2S 3S 4S"], down)


# ------------------------------------------------------------------------ DB-13


def test_db13_run_is_four_consecutive_cards_not_all_one_suit() -> None:
    assert down("5H 6H 7H 8S").category is Category4.RUN
    assert down("5S 6H 7D 8C").category is Category4.RUN
    assert down("KC JS TS QS").category is Category4.RUN


def test_db13_runs_compare_by_highest_card() -> None:
    assert_strictly_increasing(["AS 2H 3D 4C", "2S 3H 4D 5C", "9S TH JD QC", "TS JH QD KC"], down)
    assert_all_tied(["5S 6H 7D 8C", "5H 6H 7H 8S"], down)


def test_db13_weakest_run_beats_strongest_flush() -> None:
    assert down("KS QS JS 9S").category is Category4.FLUSH
    assert_strictly_increasing(["KS QS JS 9S", "AS 2H 3D 4C"], down)


# ------------------------------------------------------------------------ DB-14


def test_db14_flush_is_four_of_one_suit_not_consecutive() -> None:
    assert down("2D 5D 9D KD").category is Category4.FLUSH
    assert down("2D 3D 4D 6D").category is Category4.FLUSH


def test_db14_flushes_compare_card_by_card_highest_first() -> None:
    assert_strictly_increasing(
        [
            "AS 2S 3S 5S",
            "6S 4S 3S 2S",
            "6H 5H 3H 2H",
            "KS 9S 5S 2S",
            "KS 9S 5S 3S",
            "KS 9S 6S 2S",
            "KS TS 3S 2S",
            "KS QS JS 9S",
        ],
        down,
    )


def test_db14_weakest_flush_beats_strongest_two_pair() -> None:
    assert_strictly_increasing(["KS KH QD QC", "AS 2S 3S 5S"], down)


# ------------------------------------------------------------------------ DB-15


def test_db15_two_pair_has_no_suit_rule() -> None:
    assert down("9S 9H 4S 4H").category is Category4.TWO_PAIR
    assert down("9S 9H 4D 4C").category is Category4.TWO_PAIR
    assert down("2S 2H AS AH").category is Category4.TWO_PAIR


def test_db15_two_pairs_compare_higher_pair_then_lower_pair() -> None:
    assert_strictly_increasing(
        ["2S 2H AS AH", "3S 3H AS AH", "3S 3H 2D 2C", "KS KH AS AH", "KS KH QS QH"], down
    )
    assert_all_tied(["9S 9H 4D 4C", "9D 9C 4S 4H", "4S 9S 4H 9C"], down)


def test_db15_weakest_two_pair_beats_strongest_pair() -> None:
    assert down("KS KH KD TS").category is Category4.PAIR
    assert_strictly_increasing(["KS KH KD TS", "2S 2H AD AC"], down)


# ------------------------------------------------------------------------ DB-16


@pytest.mark.parametrize("text", ["5S 5H JS QS", "5S 5H JH QH", "5S 5H KD QC", "5D 5C JD QD"])
def test_db16_pair_with_two_face_cards_is_always_allowed(text: str) -> None:
    assert down(text).category is Category4.PAIR


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5S 5H QS 9D", Category4.PAIR),
        ("5S 5H QH 9C", Category4.PAIR),
        ("5S 5H QD 9H", Category4.HIGH_CARD),
        ("5S 5H QD 9S", Category4.HIGH_CARD),
        ("5D 5C KC 2S", Category4.PAIR),
        ("5D 5C KS 2C", Category4.HIGH_CARD),
    ],
)
def test_db16_pair_with_one_face_card_needs_plain_card_off_both_pair_suits(
    text: str, expected: Category4
) -> None:
    assert down(text).category is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5S 5H 9D 2C", Category4.PAIR),
        ("5D 5C 9S 2H", Category4.PAIR),
        ("5S 5H 9D 2D", Category4.HIGH_CARD),  # the two others share a suit
        ("5S 5H 9D 2S", Category4.HIGH_CARD),  # one other shares a pair suit
        ("5S 5H 9H 2S", Category4.HIGH_CARD),  # both share pair suits
        ("5S 5H 9C 2C", Category4.HIGH_CARD),
    ],
)
def test_db16_pair_with_no_face_cards_needs_the_two_suits_the_pair_lacks(
    text: str, expected: Category4
) -> None:
    assert down(text).category is expected


def test_db16_pairs_compare_by_pair_then_higher_then_lower_other() -> None:
    assert_strictly_increasing(
        [
            "AS AH 2D 3C",  # pair of aces: the lowest pair rank
            "AS AH KD QC",
            "2S 2H AD 3C",
            "2S 2H 4D 3C",
            "2S 2H KD AC",
            "2S 2H KD 3C",
            "2S 2H KD QC",
            "3S 3H AD 2C",
            "KS KH QD JC",
            "KS KH KD TS",
        ],
        down,
    )


def test_db16_three_queens_and_a_plain_card_is_a_pair_of_queens() -> None:
    combo = down("QS QH QD 2S")
    assert combo.category is Category4.PAIR
    # Read as QH QD with QS and 2S: pair of queens, then a queen, then a two.
    assert_strictly_increasing(["QS QH JD 2C", "QS QH QD 2S", "QS QH QD 3S", "QS QH KD 2C"],
                               down)
    assert_all_tied(["QS QH QD 2S", "QH QD QC 2H", "QS QD QC 2C", "QS QH QC 2H"], down)


def test_db16_three_plain_cards_of_a_rank_never_make_a_pair() -> None:
    assert down("8S 8H 8D 4H").category is Category4.HIGH_CARD
    # It is compared as a high card, card by card (8 8 8 4).
    assert_strictly_increasing(["8S 8H 8D 4H", "8S 8H 8D 5H", "9S 7H 4D 2C", "AS AH 2D 3C"], down)


# ------------------------------------------------------------------------ DB-17


def test_db17_high_cards_compare_card_by_card_highest_first() -> None:
    assert down("AS 2H 3D 5C").category is Category4.HIGH_CARD
    assert_strictly_increasing(
        [
            "AS 2H 3D 5C",
            "AS 2H 4D 5C",
            "2S 3H 4D 6C",
            "KS 9H 5D 2C",
            "KS 9H 5D 3C",
            "KS TH 2D AC",
            "KS QH JD AC",
            "KS QH JD 9C",
        ],
        down,
    )


def test_db17_strongest_high_card_loses_to_weakest_pair() -> None:
    assert down("KS QH JD 9C").category is Category4.HIGH_CARD
    assert down("AS AH 2D 3C").category is Category4.PAIR
    assert_strictly_increasing(["KS QH JD 9C", "AS AH 2D 3C"], down)


def test_db10_to_db17_category_boundaries_four_cards() -> None:
    # (strongest of a category, weakest of the next one up), weakest categories first
    ladder = [
        ("KS QH JD 9C", Category4.HIGH_CARD),
        ("AS AH 2D 3C", Category4.PAIR),
        ("KS KH KD TS", Category4.PAIR),
        ("2S 2H AD AC", Category4.TWO_PAIR),
        ("KS KH QD QC", Category4.TWO_PAIR),
        ("AS 2S 3S 5S", Category4.FLUSH),
        ("KS QS JS 9S", Category4.FLUSH),
        ("AS 2H 3D 4C", Category4.RUN),
        ("TS JH QD KC", Category4.RUN),
        ("AS 2S 3S 4S", Category4.BOUNCER),
        ("TS JS QS KS", Category4.BOUNCER),
        ("AS AH AD 2C", Category4.PRIAL),
        ("KS KH KD QC", Category4.PRIAL),
        ("AS AH AD AC", Category4.QUAD),
    ]
    assert [down(text).category for text, _ in ladder] == [cat for _, cat in ladder]
    assert_strictly_increasing([text for text, _ in ladder], down)


# ------------------------------------------------------------------------ DB-20


def test_db20_prial_is_three_of_one_rank() -> None:
    assert back("7S 7H 7D").category is Category3.PRIAL
    assert back("7H 7D 7C").category is Category3.PRIAL


def test_db20_prials_compare_by_rank() -> None:
    assert_strictly_increasing(["AS AH AD", "2S 2H 2D", "7S 7H 7C", "KS KH KD"], back)
    assert_all_tied(["7S 7H 7D", "7H 7D 7C"], back)


def test_db20_weakest_prial_beats_strongest_bouncer() -> None:
    assert_strictly_increasing(["JS QS KS", "AS AH AD"], back)


# ------------------------------------------------------------------------ DB-21


def test_db21_bouncer_is_three_consecutive_of_one_suit() -> None:
    assert back("5H 6H 7H").category is Category3.BOUNCER
    assert back("7H 5H 6H").category is Category3.BOUNCER
    assert back("JS QS KS").category is Category3.BOUNCER


def test_db21_bouncers_compare_by_top_card() -> None:
    assert_strictly_increasing(["AS 2S 3S", "2D 3D 4D", "9C TC JC", "TH JH QH", "JS QS KS"], back)


def test_db21_weakest_bouncer_beats_strongest_run() -> None:
    assert_strictly_increasing(["JS QH KD", "AS 2S 3S"], back)


# ------------------------------------------------------------------------ DB-22


def test_db22_run_is_three_consecutive_not_all_one_suit() -> None:
    assert back("5H 6H 7S").category is Category3.RUN
    assert back("KD JS QS").category is Category3.RUN


def test_db22_runs_compare_by_top_card() -> None:
    assert_strictly_increasing(["AS 2H 3D", "2S 3H 4D", "TS JH QD", "JS QH KD"], back)


def test_db22_weakest_run_beats_strongest_flush() -> None:
    assert back("KS QS TS").category is Category3.FLUSH
    assert_strictly_increasing(["KS QS TS", "AS 2H 3D"], back)


# ------------------------------------------------------------------------ DB-23


def test_db23_flush_is_three_of_one_suit_not_consecutive() -> None:
    assert back("2S 5S 9S").category is Category3.FLUSH
    assert back("2S 3S 5S").category is Category3.FLUSH


def test_db23_flushes_compare_card_by_card_highest_first() -> None:
    assert_strictly_increasing(
        ["AS 2S 4S", "AS 3S 4S", "2S 3S 5S", "KS 9S 2S", "KS 9S 3S", "KS AS QS", "KS QS TS"],
        back,
    )


def test_db23_weakest_flush_beats_strongest_pair() -> None:
    assert back("KS KH QD").category is Category3.PAIR
    assert_strictly_increasing(["KS KH QD", "AS 2S 4S"], back)


# ------------------------------------------------------------------------ DB-24


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5S 5H KS", Category3.PAIR),  # face card of a pair suit: allowed
        ("5S 5H JH", Category3.PAIR),
        ("5S 5H 9D", Category3.PAIR),  # plain card off both pair suits
        ("5S 5H 9C", Category3.PAIR),
        ("5S 5H 9S", Category3.HIGH_CARD),  # plain card on a pair suit
        ("5S 5H TH", Category3.HIGH_CARD),
        ("KS KH 2H", Category3.HIGH_CARD),  # a face pair still needs the suit rule
        ("KS KH 2D", Category3.PAIR),
    ],
)
def test_db24_pair_suit_rule(text: str, expected: Category3) -> None:
    assert back(text).category is expected


def test_db24_pairs_compare_by_pair_then_third_card() -> None:
    assert_strictly_increasing(
        ["AS AH 2D", "AS AH KS", "2S 2H AD", "2S 2H 3D", "2S 2H QS", "9S 9H AD", "KS KH QD"],
        back,
    )


# ------------------------------------------------------------------------ DB-25


def test_db25_high_cards_compare_card_by_card_highest_first() -> None:
    assert back("5S 5H 9S").category is Category3.HIGH_CARD
    assert_strictly_increasing(
        ["AS 2H 4D", "AS 3H 4D", "2S 3H 5D", "9S 5H 4D", "5S 5H 9S", "9S 6H 2D",
         "KS AH QD", "KS QH TD"],
        back,
    )


def test_db20_to_db25_category_boundaries_three_cards() -> None:
    ladder = [
        ("KS QH TD", Category3.HIGH_CARD),
        ("AS AH 2D", Category3.PAIR),
        ("KS KH QD", Category3.PAIR),
        ("AS 2S 4S", Category3.FLUSH),
        ("KS QS TS", Category3.FLUSH),
        ("AS 2H 3D", Category3.RUN),
        ("JS QH KD", Category3.RUN),
        ("AS 2S 3S", Category3.BOUNCER),
        ("JS QS KS", Category3.BOUNCER),
        ("AS AH AD", Category3.PRIAL),
    ]
    assert [back(text).category for text, _ in ladder] == [cat for _, cat in ladder]
    assert_strictly_increasing([text for text, _ in ladder], back)


# --------------------------------------------------------------- Combo behaviour


def test_combo_fields() -> None:
    hand = parse_cards("QH 8S 8D 8H")
    combo = evaluate4(hand)
    assert isinstance(combo.category, Category4)
    assert isinstance(combo.strength, int)
    assert isinstance(combo.cards, tuple)
    assert sorted(combo.cards) == sorted(hand)
    three = evaluate3(parse_cards("7S 7H 7D"))
    assert isinstance(three.category, Category3)
    assert sorted(three.cards) == sorted(parse_cards("7S 7H 7D"))


def test_combo_accepts_list_or_tuple() -> None:
    cards = parse_cards("5S 5H 9D 2C")
    assert evaluate4(list(cards)) == evaluate4(tuple(cards))
    assert evaluate4(list(cards)).strength == evaluate4(cards[::-1]).strength


def test_combo_description_prial_of_eights() -> None:
    for text in ["8S 8H 8D QH", "8S 8H 8D 4C"]:
        description = down(text).description.lower()
        assert "prial" in description
        assert "eights" in description
    assert "sixes" in down("6S 6H 6D 2C").description.lower()
    description3 = back("7S 7H 7D").description.lower()
    assert "prial" in description3
    assert "sevens" in description3


def test_combo_description_pair_of_queens() -> None:
    description = down("QS QH QD 2S").description.lower()
    assert "pair" in description
    assert "queens" in description
    description3 = back("5S 5H 9D").description.lower()
    assert "pair" in description3
    assert "fives" in description3


def test_combo_descriptions_are_readable_and_distinct_per_category() -> None:
    examples4 = ["KS QH JD 9C", "5S 5H 9D 2C", "9S 9H 4D 4C", "2D 5D 9D KD",
                 "5S 6H 7D 8C", "5H 6H 7H 8H", "8S 8H 8D 4C", "8S 8H 8D 8C"]
    examples3 = ["KS QH TD", "5S 5H 9D", "2S 5S 9S", "5H 6H 7S", "5H 6H 7H", "7S 7H 7D"]
    descriptions = [down(t).description for t in examples4]
    descriptions += [back(t).description for t in examples3]
    for text in descriptions:
        assert isinstance(text, str)
        assert text.strip()
        assert "Category" not in text
        assert "<" not in text
        assert "_" not in text
    assert len(set(descriptions[:8])) == 8
    assert len(set(descriptions[8:])) == 6


def test_combo_ties_compare_equal() -> None:
    a = down("8S 8H 8D 4C")
    b = down("8H 8D 8C QS")
    assert a == b
    assert a <= b
    assert a >= b
    assert not a < b
    assert not a > b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1


def test_combo_stronger_compares_greater() -> None:
    weak = down("5S 5H 9D 2C")
    strong = down("8S 8H 8D 4C")
    assert strong > weak
    assert strong >= weak
    assert weak < strong
    assert weak <= strong
    assert weak != strong
    assert max([weak, strong]) is strong
    assert sorted([strong, weak]) == [weak, strong]
    assert back("5S 5H 9D") < back("7S 7H 7D")


@pytest.mark.parametrize("compare", [operator.lt, operator.le, operator.gt, operator.ge])
def test_comparing_three_card_with_four_card_combo_raises_type_error(
    compare: Callable[[Combo, Combo], object],
) -> None:
    four = down("8S 8H 8D 4C")
    three = back("8S 8H 8D")
    with pytest.raises(TypeError):
        compare(four, three)
    with pytest.raises(TypeError):
        compare(three, four)


def test_three_card_and_four_card_combos_are_never_equal() -> None:
    four = down("8S 8H 8D 4C")
    three = back("8S 8H 8D")
    assert four != three
    assert not (three == four)  # noqa: SIM201


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("text", ["", "AS", "AS 2H 3D", "AS 2H 3D 4C 5S"])
def test_evaluate4_wrong_card_count_raises(text: str) -> None:
    with pytest.raises(ValueError, match="4"):
        evaluate4(parse_cards(text))


@pytest.mark.parametrize("text", ["", "AS 2H", "AS 2H 3D 4C"])
def test_evaluate3_wrong_card_count_raises(text: str) -> None:
    with pytest.raises(ValueError, match="3"):
        evaluate3(parse_cards(text))


DUPLICATE = r"(?i)duplicate|twice|repeat|more than once|same card|distinct|unique"


def test_evaluate4_duplicate_cards_raise() -> None:
    with pytest.raises(ValueError, match=DUPLICATE):
        evaluate4(parse_cards("AS AS 2H 3D"))
    with pytest.raises(ValueError, match=DUPLICATE):
        evaluate4(parse_cards("8S 8H 8D 8H"))


def test_evaluate3_duplicate_cards_raise() -> None:
    with pytest.raises(ValueError, match=DUPLICATE):
        evaluate3(parse_cards("KS KS 2H"))


JOKER_MESSAGE = r"(?i)joker|blooper|\bBB\b|\bLB\b"


@pytest.mark.parametrize("position", range(4))
@pytest.mark.parametrize("joker", ["BB", "LB"])
@pytest.mark.parametrize("others", ["AS 2H 3D", "7D KC QC", "3D 4C 5S"])
def test_jokers_are_rejected_by_evaluate4(joker: str, position: int, others: str) -> None:
    card = parse_card(joker, jokers=True)
    assert isinstance(card, Joker)
    hand: list[Any] = list(parse_cards(others))
    hand.insert(position, card)
    with pytest.raises(ValueError, match=JOKER_MESSAGE):
        evaluate4(hand)


@pytest.mark.parametrize("position", range(3))
@pytest.mark.parametrize("joker", ["BB", "LB"])
@pytest.mark.parametrize("others", ["AS 2H", "KC QC", "3D 4C"])
def test_jokers_are_rejected_by_evaluate3(joker: str, position: int, others: str) -> None:
    card = parse_card(joker, jokers=True)
    assert isinstance(card, Joker)
    hand: list[Any] = list(parse_cards(others))
    hand.insert(position, card)
    with pytest.raises(ValueError, match=JOKER_MESSAGE):
        evaluate3(hand)


def test_joker_parses_as_big_blooper() -> None:
    assert parse_card("BB", jokers=True) is Joker.BIG


@pytest.mark.parametrize(
    "bad",
    [["AS", "2H", "3D", "4C"], [0, 1, 2, 3], [None, *parse_cards("AS 2H 3D")]],
)
def test_non_cards_are_rejected(bad: list[Any]) -> None:
    with pytest.raises(ValueError, match=r"\S"):
        evaluate4(bad)
    with pytest.raises(ValueError, match=r"\S"):
        evaluate3(bad[:3])


def test_cards_built_from_rank_and_suit_are_accepted() -> None:
    hand = [Card(Rank.EIGHT, suit) for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)]
    hand.append(Card(Rank.QUEEN, Suit.HEARTS))
    assert evaluate4(hand) == down("8S 8H 8D QH")
    assert evaluate4(hand).category is Category4.PRIAL
    assert evaluate4([Card.from_index(c.index) for c in hand]).category is Category4.PRIAL


# ------------------------------------------------------- bad input to splits


@pytest.mark.parametrize("split", [splits, best_splits])
@pytest.mark.parametrize("text", ["AS 2H 3D 4C 5S 6H", "AS 2H 3D 4C 5S 6H 7D 8C"])
def test_splitting_needs_exactly_seven_cards(
    split: Callable[[Sequence[Card]], object], text: str
) -> None:
    with pytest.raises(ValueError, match="7"):
        split(parse_cards(text))


@pytest.mark.parametrize("split", [splits, best_splits])
def test_splitting_rejects_duplicate_cards(split: Callable[[Sequence[Card]], object]) -> None:
    with pytest.raises(ValueError, match=DUPLICATE):
        split(parse_cards("AS 2H 3D 4C 5S 6H AS"))


@pytest.mark.parametrize("split", [splits, best_splits])
@pytest.mark.parametrize("position", range(7))
@pytest.mark.parametrize("joker", ["BB", "LB"])
def test_splitting_rejects_jokers(
    split: Callable[[Sequence[Card]], object], position: int, joker: str
) -> None:
    hand: list[Any] = list(parse_cards("AS 2H 3D 4C 5S 6H"))
    hand.insert(position, parse_card(joker, jokers=True))
    with pytest.raises(ValueError, match=JOKER_MESSAGE):
        split(hand)


# ---------------------------------------------------------------------------
# Which evaluators are in use (found by the sampled mutation run)


def _evaluators_in_a_fresh_interpreter(pure: bool) -> list[str]:
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "CARDRULES_PURE_PYTHON"}
    if pure:
        env["CARDRULES_PURE_PYTHON"] = "1"
    code = ("import cardrules.down_and_back as db\n"
            "from cardrules import DECK, Hand\n"
            "from cardrules.down_and_back import _accel\n"
            "seven = DECK[10:17]\n"
            "print(db.ACCELERATED, db.evaluate4(DECK[:4]).strength,"
            " db.evaluate3(DECK[4:7]).strength, db.strength4(DECK[:4]),"
            " db.strength3(DECK[4:7]), len(db.best_splits(seven)),"
            " sum(map(sum, db.split_strengths(seven))),"
            " str(_accel.split_actions(Hand(seven))[-1]).replace(' ', '_'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env)
    return done.stdout.split()


def test_the_c_speed_ups_are_used_unless_pure_python_is_asked_for() -> None:
    import importlib.util

    from cardrules.down_and_back import _accel
    built = importlib.util.find_spec("cardrules.down_and_back._speedups") is not None
    seven = DECK[10:17]
    expected = [str(evaluate4(DECK[:4]).strength), str(evaluate3(DECK[4:7]).strength),
                str(evaluate4(DECK[:4]).strength), str(evaluate3(DECK[4:7]).strength),
                str(len(best_splits(seven))),
                str(sum(o.down.strength + o.back.strength for o in splits(seven))),
                str(_accel.python_split_actions(Hand(seven))[-1]).replace(" ", "_")]
    pure = _evaluators_in_a_fresh_interpreter(pure=True)
    assert pure == ["False", *expected]
    fast = _evaluators_in_a_fresh_interpreter(pure=False)
    assert fast == [str(built), *expected]


def test_accelerated_says_whether_the_c_functions_are_in_use() -> None:
    import os

    import cardrules.down_and_back as db
    from cardrules.down_and_back import combos
    in_use = db.evaluate4 is not combos.evaluate4
    assert db.ACCELERATED is in_use
    if os.environ.get("CARDRULES_PURE_PYTHON", "").strip() not in ("", "0"):
        assert not db.ACCELERATED


def test_pure_python_switch_reads_zero_as_off() -> None:
    """``CARDRULES_PURE_PYTHON=0`` keeps the speed-ups, as ``1`` turns them off."""
    import os
    import subprocess

    probe = "import cardrules.down_and_back as d; print(d.ACCELERATED)"
    seen: dict[str, str] = {}
    for value in ("0", "1", ""):
        env = {k: v for k, v in os.environ.items() if k != "CARDRULES_PURE_PYTHON"}
        env["CARDRULES_PURE_PYTHON"] = value
        out = subprocess.run([sys.executable, "-c", probe], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
        seen[value] = out
    assert seen["1"] == "False"
    assert seen["0"] == seen[""]


def test_pair_tables_refuse_strength_lists_of_the_wrong_length() -> None:
    from math import comb

    from cardrules.down_and_back.tables import pair_tables
    # One strength per hand in colex order: 270,725 four-card and 22,100 three-card hands.
    with pytest.raises(ValueError, match="zip"):
        pair_tables([0] * 10, [0] * comb(52, 3))
    with pytest.raises(ValueError, match="zip"):
        pair_tables([0] * comb(52, 4), [0] * (comb(52, 3) - 1))


def test_split_options_are_frozen_and_slotted() -> None:
    import attrs
    option = best_splits(parse_cards("8S 8H 8D QH 5C 6C 7C"))[0]
    assert not hasattr(option, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        option.down = option.back  # type: ignore[misc]


def test_table_file_encoding_reads_back_as_the_shipped_tables() -> None:
    import zlib
    from array import array

    from cardrules.down_and_back import tables
    four, three = tables.load()
    data = tables._encode(four, three)    # what regenerating _tables.bin writes
    assert data.startswith(tables._MAGIC)
    both = array("H")
    both.frombytes(zlib.decompress(data[len(tables._MAGIC):]))
    if sys.byteorder != "little":   # the file is little-endian on every machine
        both.byteswap()
    assert both == four + three


def test_a_damaged_table_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.down_and_back import tables

    class Damaged:
        def files(self, package: str) -> Damaged:
            return self

        def joinpath(self, name: str) -> Damaged:
            return self

        def read_bytes(self) -> bytes:
            return b"not the tables"

    monkeypatch.setattr(tables, "resources", Damaged())
    with pytest.raises(RuntimeError, match="damaged; reinstall"):
        tables.load.__wrapped__()


@pytest.mark.parametrize("name", ["evaluate4", "evaluate3", "strength4", "strength3",
                                  "split_strengths", "splits", "best_splits"])
def test_each_python_evaluator_loads_the_tables_on_its_first_call(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pure-Python evaluator reads the tables through the one loader, so
    any of them can be the first evaluation of a program (DB-10 to DB-25)."""
    from cardrules.down_and_back import combos
    from cardrules.down_and_back.tables import load

    function: Callable[[Sequence[Card]], object] = getattr(combos, name)
    cards = {"evaluate4": 4, "strength4": 4, "evaluate3": 3, "strength3": 3}.get(name, 7)
    hand = parse_cards("8S 8H 8D QH 5C 6C 7C")[:cards]
    expected = function(hand)
    monkeypatch.setattr(combos, "_loaded", None)   # as in a fresh interpreter
    assert function(hand) == expected
    assert combos._loaded is not None
    assert combos._loaded[0] is load()[0]   # the shipped tables, read once


# -- combos and splits compare only with their own kind; the evaluators refuse text --------


@pytest.mark.parametrize("other", [0, 5, None])
def test_combos_are_not_numbers(other: object) -> None:
    combo = db.evaluate4(parse_cards("8S 8H 8D QH"))
    assert operator.eq(combo, other) is False
    assert operator.ne(combo, other) is True
    assert operator.eq(combo, combo.strength) is False
    for name in ("<", "<=", ">", ">="):
        with pytest.raises(TypeError, match="cannot compare Combo with"):
            OPS[name](combo, other)


def test_combo_order_against_itself() -> None:
    combo = db.evaluate3(parse_cards("5C 6C 7C"))
    assert comparisons(combo, combo) == EQUAL
    assert comparisons(combo, db.evaluate3(parse_cards("5D 6D 7D"))) == EQUAL
    assert comparisons(combo, db.evaluate3(parse_cards("6C 7C 8C"))) == LESS


def _option(down: str, back: str) -> SplitOption:
    return SplitOption(db.evaluate4(parse_cards(down)), db.evaluate3(parse_cards(back)))


def dominance(a: SplitOption, b: SplitOption) -> tuple[bool, bool]:
    """(a dominates b, b dominates a)."""
    return a.dominates(b), b.dominates(a)


def test_split_dominance_with_one_hand_equal() -> None:
    # Same down strength (suits do not count, DB-1), a stronger back: dominates.
    weak = _option("8S 8H 8D QH", "2C 5D 9S")
    strong = _option("8S 8H 8C QD", "5C 6C 7C")
    assert weak.down == strong.down
    assert strong.back > weak.back
    assert dominance(strong, weak) == (True, False)
    # Same back, a stronger down: dominates.
    low = _option("2S 5H 9D JC", "5C 6C 7C")
    high = _option("8S 8H 8D QH", "5D 6D 7D")
    assert low.back == high.back
    assert high.down > low.down
    assert dominance(high, low) == (True, False)
    # Equal in both hands: neither dominates.
    twin = _option("8S 8H 8D QC", "2D 5S 9C")
    assert (twin.down, twin.back) == (weak.down, weak.back)
    assert dominance(twin, weak) == (False, False)
    # Stronger down but weaker back: neither dominates.
    assert weak.down > low.down
    assert weak.back < low.back
    assert dominance(weak, low) == (False, False)


Evaluator = Callable[[Any], object]


EVALUATORS: list[tuple[str, Evaluator, str]] = [
    ("evaluate4", db.evaluate4, "AS 2S 3S 4S"),
    ("evaluate3", db.evaluate3, "AS 2S 3S"),
    ("strength4", db.strength4, "AS2S"),
    ("strength3", db.strength3, "ASK"),
    ("split_strengths", db.split_strengths, "AS2S3S4S5S6S7S"),
    ("best_splits", db.best_splits, "AS 2S 3S 4S 5S 6S 7S"),
    ("pure evaluate4", pure.evaluate4, "AS 2S 3S 4S"),
    ("pure evaluate3", pure.evaluate3, "AS 2S 3S"),
    ("pure strength4", pure.strength4, "ASKS"),
    ("pure strength3", pure.strength3, "ASK"),
    ("pure split_strengths", pure.split_strengths, "AS2S3S4"),
    ("pure best_splits", pure.best_splits, "AS2S3S4"),
    ("pure splits", pure.splits, "AS2S3S4"),
]


@pytest.mark.parametrize(("name", "function", "text"), EVALUATORS,
                         ids=[name for name, _, _ in EVALUATORS])
def test_evaluators_refuse_a_string(name: str, function: Evaluator, text: str) -> None:
    with pytest.raises(TypeError, match=r"expected a sequence of .*cards, not str"):
        function(text)
    with pytest.raises(TypeError, match="not bytes"):
        function(text.encode())


@pytest.mark.parametrize(("name", "function", "text"), EVALUATORS,
                         ids=[name for name, _, _ in EVALUATORS])
def test_evaluators_refuse_a_number(name: str, function: Evaluator, text: str) -> None:
    with pytest.raises(TypeError, match="not int"):
        function(5)
