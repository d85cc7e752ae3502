"""Property tests for the Down and Back evaluators and the showdown split helpers.

* A combination does not depend on the order of its cards, nor on which suit is
  called which (suits have no rank, DB-1, and every suit rule only asks whether
  suits are equal or different).
* The numpy batch evaluators return the single-call strengths.
* ``splits`` lists the 35 ways to cut seven cards into a 4-card and a 3-card
  hand (DB-40); ``best_splits`` is exactly its Pareto-optimal part.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardrules import DECK, Card, Suit, parse_cards
from cardrules.down_and_back import (
    SplitOption,
    best_splits,
    evaluate3,
    evaluate3_batch,
    evaluate4,
    evaluate4_batch,
    splits,
)
from support.references.down_and_back import sort_key3, sort_key4

Hand = tuple[Card, ...]
SplitId = tuple[frozenset[Card], frozenset[Card]]


def hands(size: int) -> st.SearchStrategy[Hand]:
    """``size`` distinct cards in random order."""
    return st.lists(
        st.sampled_from(range(52)), unique=True, min_size=size, max_size=size
    ).map(lambda indices: tuple(DECK[i] for i in indices))


sevens: st.SearchStrategy[Hand] = st.permutations(DECK).map(lambda deck: tuple(deck[:7]))
suit_relabellings: st.SearchStrategy[list[Suit]] = st.permutations(list(Suit))


def relabel(hand: Sequence[Card], new_suit: Sequence[Suit]) -> Hand:
    """The same hand with suit ``s`` renamed to ``new_suit[s]``."""
    return tuple(Card(card.rank, new_suit[card.suit]) for card in hand)


def split_id(option: SplitOption) -> SplitId:
    return frozenset(option.down.cards), frozenset(option.back.cards)


@pytest.fixture(autouse=True, scope="module")
def _warm_up_tables() -> None:
    """The first evaluation loads lookup tables (a few hundred ms); do it outside
    the timed Hypothesis examples so a deadline never measures it."""
    assert evaluate4(parse_cards("AS 2S 3S 4S")) > evaluate4(parse_cards("KS QH JD 9C"))
    assert evaluate3(parse_cards("AS 2S 3S")) > evaluate3(parse_cards("KS QH TD"))


def dominates(a: SplitOption, b: SplitOption) -> bool:
    """``a`` is at least as strong as ``b`` in both hands and stronger in one."""
    down_a, back_a = a.down.strength, a.back.strength
    down_b, back_b = b.down.strength, b.back.strength
    return down_a >= down_b and back_a >= back_b and (down_a > down_b or back_a > back_b)


# ------------------------------------------------------------- invariances


@given(st.data())
def test_evaluate4_ignores_card_order(data: st.DataObject) -> None:
    hand = data.draw(hands(4))
    shuffled = data.draw(st.permutations(hand))
    a, b = evaluate4(hand), evaluate4(shuffled)
    assert a.strength == b.strength
    assert a.category is b.category
    assert a == b
    assert sorted(a.cards) == sorted(b.cards) == sorted(hand)


@given(st.data())
def test_evaluate3_ignores_card_order(data: st.DataObject) -> None:
    hand = data.draw(hands(3))
    shuffled = data.draw(st.permutations(hand))
    a, b = evaluate3(hand), evaluate3(shuffled)
    assert a.strength == b.strength
    assert a.category is b.category
    assert a == b


@given(hands(4), suit_relabellings)
@example(parse_cards("8S 8H 8D 4C"), [Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS])
@example(parse_cards("QS QH QD 2S"), [Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES])
@example(parse_cards("5S 5H 9D 2C"), [Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES, Suit.HEARTS])
def test_evaluate4_ignores_suit_names(hand: Hand, new_suit: list[Suit]) -> None:
    a, b = evaluate4(hand), evaluate4(relabel(hand, new_suit))
    assert a.strength == b.strength
    assert a.category is b.category


@given(hands(3), suit_relabellings)
@example(parse_cards("5S 5H 9D"), [Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES, Suit.HEARTS])
def test_evaluate3_ignores_suit_names(hand: Hand, new_suit: list[Suit]) -> None:
    a, b = evaluate3(hand), evaluate3(relabel(hand, new_suit))
    assert a.strength == b.strength
    assert a.category is b.category


@given(hands(4), hands(4))
def test_evaluate4_order_agrees_with_reference(a: Hand, b: Hand) -> None:
    combo_a, combo_b = evaluate4(a), evaluate4(b)
    key_a, key_b = sort_key4(a), sort_key4(b)
    assert (combo_a < combo_b) == (key_a < key_b)
    assert (combo_a == combo_b) == (key_a == key_b)
    assert combo_a.category.name == ("HIGH_CARD", "PAIR", "TWO_PAIR", "FLUSH", "RUN",
                                     "BOUNCER", "PRIAL", "QUAD")[key_a[0]]


@given(hands(3), hands(3))
def test_evaluate3_order_agrees_with_reference(a: Hand, b: Hand) -> None:
    combo_a, combo_b = evaluate3(a), evaluate3(b)
    key_a, key_b = sort_key3(a), sort_key3(b)
    assert (combo_a < combo_b) == (key_a < key_b)
    assert (combo_a == combo_b) == (key_a == key_b)


# -------------------------------------------------------------------- batch


@given(st.lists(hands(4), min_size=1, max_size=40), st.sampled_from(["int64", "int32", "intp"]))
def test_evaluate4_batch_equals_single_call(batch: list[Hand], dtype: str) -> None:
    np = pytest.importorskip("numpy")
    indices = np.array([[card.index for card in hand] for hand in batch], dtype=dtype)
    out = evaluate4_batch(indices)
    assert out.shape == (len(batch),)
    assert np.issubdtype(out.dtype, np.integer)
    assert out.tolist() == [evaluate4(hand).strength for hand in batch]


@given(st.lists(hands(3), min_size=1, max_size=40), st.sampled_from(["int64", "int32", "intp"]))
def test_evaluate3_batch_equals_single_call(batch: list[Hand], dtype: str) -> None:
    np = pytest.importorskip("numpy")
    indices = np.array([[card.index for card in hand] for hand in batch], dtype=dtype)
    out = evaluate3_batch(indices)
    assert out.shape == (len(batch),)
    assert np.issubdtype(out.dtype, np.integer)
    assert out.tolist() == [evaluate3(hand).strength for hand in batch]


@pytest.mark.parametrize(
    ("rows", "width"),
    [
        ([[0, 1, 2]], 4),  # three columns for the 4-card evaluator
        ([[0, 1, 2, 3, 4]], 4),
        ([[0, 1]], 3),
        ([[0, 1, 2, 3]], 3),
    ],
)
def test_batch_rejects_wrong_width(rows: list[list[int]], width: int) -> None:
    np = pytest.importorskip("numpy")
    evaluate = evaluate4_batch if width == 4 else evaluate3_batch
    with pytest.raises(ValueError, match=r"\S"):
        evaluate(np.array(rows, dtype=np.int64))


def test_batch_rejects_one_dimensional_input() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match=r"\S"):
        evaluate4_batch(np.array([0, 1, 2, 3], dtype=np.int64))
    with pytest.raises(ValueError, match=r"\S"):
        evaluate3_batch(np.array([0, 1, 2], dtype=np.int64))


@pytest.mark.parametrize("bad", [52, -1, 1000])
def test_batch_rejects_out_of_range_index(bad: int) -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match=r"\S"):
        evaluate4_batch(np.array([[0, 1, 2, 3], [4, 5, 6, bad]], dtype=np.int64))
    with pytest.raises(ValueError, match=r"\S"):
        evaluate3_batch(np.array([[bad, 1, 2], [4, 5, 6]], dtype=np.int64))


@pytest.mark.parametrize("size", [3, 4])
@given(data=st.data())
def test_batch_rejects_duplicate_index_in_a_row(size: int, data: st.DataObject) -> None:
    np = pytest.importorskip("numpy")
    row = [card.index for card in data.draw(hands(size))]
    src, dst = data.draw(st.permutations(range(size)))[:2]
    row[dst] = row[src]
    good = [card.index for card in DECK[:size]]
    evaluate = evaluate4_batch if size == 4 else evaluate3_batch
    with pytest.raises(ValueError, match=r"\S"):
        evaluate(np.array([good, row], dtype=np.int64))


# ------------------------------------------------------------------- splits

SEVEN_EXAMPLES = [
    "8S 8H 8D QH 5C 6C 7C",
    "QS QH QD 2S 2H 9C 9D",
    "AS 2S 3S 4S 5S 6S 7S",
    "KS KH KD KC QS QH QD",
    "5S 5H 9D 2C 3C 4C JD",
]


@settings(max_examples=60)
@given(sevens)
@example(parse_cards(SEVEN_EXAMPLES[0]))
@example(parse_cards(SEVEN_EXAMPLES[1]))
def test_splits_are_the_35_partitions_into_four_and_three(seven: Hand) -> None:
    options = splits(seven)
    assert len(options) == 35
    ids = [split_id(option) for option in options]
    assert len(set(ids)) == 35
    everything = frozenset(seven)
    for option in options:
        assert len(option.down.cards) == 4
        assert len(option.back.cards) == 3
        down, back = split_id(option)
        assert len(down) == 4
        assert len(back) == 3
        assert down | back == everything
        assert not down & back
    assert {down for down, _ in ids} == {frozenset(c) for c in combinations(seven, 4)}


@settings(max_examples=60)
@given(sevens)
@example(parse_cards(SEVEN_EXAMPLES[2]))
def test_split_hands_are_evaluated_like_single_calls(seven: Hand) -> None:
    for option in splits(seven):
        assert option.down.strength == evaluate4(option.down.cards).strength
        assert option.back.strength == evaluate3(option.back.cards).strength
        assert option.down.category is evaluate4(option.down.cards).category
        assert option.back.category is evaluate3(option.back.cards).category


@settings(max_examples=60)
@given(sevens)
@example(parse_cards(SEVEN_EXAMPLES[0]))
@example(parse_cards(SEVEN_EXAMPLES[3]))
@example(parse_cards(SEVEN_EXAMPLES[4]))
def test_best_splits_is_a_non_dominated_subset_of_splits(seven: Hand) -> None:
    options = splits(seven)
    best = best_splits(seven)
    assert best
    all_ids = {split_id(option) for option in options}
    best_ids = [split_id(option) for option in best]
    assert len(set(best_ids)) == len(best_ids)
    assert set(best_ids) <= all_ids
    for chosen in best:
        beaten_by = [option for option in options if dominates(option, chosen)]
        assert not beaten_by, f"{split_id(chosen)} is dominated by {split_id(beaten_by[0])}"


@settings(max_examples=60)
@given(sevens)
@example(parse_cards(SEVEN_EXAMPLES[1]))
@example(parse_cards(SEVEN_EXAMPLES[3]))
def test_best_splits_contains_every_non_dominated_split(seven: Hand) -> None:
    options = splits(seven)
    best_ids = {split_id(option) for option in best_splits(seven)}
    for option in options:
        undominated = not any(dominates(other, option) for other in options)
        assert (split_id(option) in best_ids) == undominated
    strongest_down = max(options, key=lambda o: (o.down.strength, o.back.strength))
    strongest_back = max(options, key=lambda o: (o.back.strength, o.down.strength))
    assert split_id(strongest_down) in best_ids
    assert split_id(strongest_back) in best_ids


@settings(max_examples=30)
@given(st.data())
def test_best_splits_ignore_the_order_of_the_seven(data: st.DataObject) -> None:
    seven = data.draw(sevens)
    shuffled = data.draw(st.permutations(seven))
    assert {split_id(o) for o in best_splits(seven)} == {split_id(o) for o in best_splits(shuffled)}
    assert {split_id(o) for o in splits(seven)} == {split_id(o) for o in splits(shuffled)}


# -- batch split scoring -----------------------------------------------------------


@given(st.lists(hands(7), min_size=1, max_size=20), st.sampled_from(["int64", "uint8", "int16"]))
def test_split_strengths_batch_equals_single_call(batch: list[Hand], dtype: str) -> None:
    np = pytest.importorskip("numpy")
    from cardrules.down_and_back import split_strengths, split_strengths_batch

    rows = np.array([[c.index for c in hand] for hand in batch], dtype=dtype)
    result = split_strengths_batch(rows)
    assert result.shape == (len(batch), 35, 2)
    for hand, scores in zip(batch, result, strict=True):
        assert [tuple(int(x) for x in pair) for pair in scores] == split_strengths(hand)


@given(st.lists(hands(7), min_size=1, max_size=20))
@example([parse_cards("9S 9H 9D 2C 3C 4C 8D")])
@example([parse_cards("8S 8H 8D 8C 5H 6H 7H")])
def test_best_splits_batch_marks_exactly_best_splits(batch: list[Hand]) -> None:
    np = pytest.importorskip("numpy")
    from cardrules.down_and_back import best_splits_batch, splits

    mask = best_splits_batch(np.array([[c.index for c in hand] for hand in batch]))
    assert mask.shape == (len(batch), 35)
    for hand, keep in zip(batch, mask, strict=True):
        marked = [split_id(o) for o, k in zip(splits(hand), keep, strict=True) if k]
        best = [split_id(o) for o in best_splits(hand)]
        assert len(marked) == len(best)
        assert set(marked) == set(best)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([[0, 1, 2, 3, 4, 5]], "shape"),
        ([[0, 1, 2, 3, 4, 5, 52]], "range"),
        ([[0, 1, 2, 3, 4, 5, -1]], "range"),
        ([[0, 1, 2, 3, 4, 6, 6]], "same card twice"),
        ([[9, 1, 2, 3, 4, 5, 9]], "same card twice"),
    ],
)
def test_split_batches_reject_bad_rows(rows: list[list[int]], message: str) -> None:
    np = pytest.importorskip("numpy")
    from cardrules.down_and_back import best_splits_batch, split_strengths_batch

    for function in (split_strengths_batch, best_splits_batch):
        with pytest.raises(ValueError, match=message):
            function(np.array(rows))
