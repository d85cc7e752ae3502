"""The shared shuffle helpers of cardrules.engine.chance."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardrules import DECK
from cardrules.back_alley import ChooseDealer, apply, new_game, sample_chance
from cardrules.back_alley.actions import CARDS
from cardrules.engine.chance import Shuffle, shuffled, shuffled_by_keys


def test_shuffled_by_keys_sorts_by_one_key_per_card_in_pile_order() -> None:
    draw = random.Random(11)
    keys = [draw.random() for _ in DECK]
    expected = tuple(card for _, card in sorted(zip(keys, DECK, strict=True),
                                                key=lambda pair: pair[0]))
    assert shuffled_by_keys(DECK, random.Random(11)) == expected


def test_shuffled_by_keys_is_a_permutation_and_leaves_its_input_alone() -> None:
    pile = list(DECK[:9])
    order = shuffled_by_keys(pile, random.Random(5))
    assert pile == list(DECK[:9])
    assert sorted(order, key=lambda card: card.index) == pile
    assert order != tuple(pile)


def test_shuffled_by_keys_reaches_every_order_about_equally() -> None:
    # 6000 seeded shuffles of three cards: each of the 6 orders about 1000
    # times (a fixed seed, so the counts are the same on every run).
    rng = random.Random(2026)
    counts = Counter(shuffled_by_keys(DECK[:3], rng) for _ in range(6000))
    assert len(counts) == 6
    assert all(900 < n < 1100 for n in counts.values()), counts


def test_shuffled_by_keys_and_shuffled_draw_differently() -> None:
    # Down and Back keeps shuffled (its seeded games must not change); from
    # the same seed the two helpers give different orders.
    assert shuffled_by_keys(DECK, random.Random(3)) != shuffled(DECK, random.Random(3))


def test_back_alley_shuffles_all_54_cards_with_shuffled_by_keys() -> None:
    state = apply(new_game(), ChooseDealer(0))
    action = sample_chance(state, random.Random(8))
    assert isinstance(action, Shuffle)
    assert action == Shuffle(shuffled_by_keys(CARDS, random.Random(8)))
    assert len(set(action.order)) == 54


def test_a_shuffle_stops_at_its_first_bad_card_and_says_where_it_is_in_the_line() -> None:
    from cardrules import ParseError
    from cardrules.engine.chance import parse_chance

    # "shuffle " is 8 characters: ZZ, the third card, starts at 8 + 6.
    with pytest.raises(ParseError, match="not a card") as refused:
        parse_chance("shuffle", "AS KS ZZ QS", 8, jokers=False)
    assert (refused.value.token, refused.value.position) == ("ZZ", 14)
