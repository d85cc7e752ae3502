"""Every 4-card and every 3-card hand, checked against the reference evaluator.

``tests/support/references/down_and_back.py`` is an independent, rule-by-rule reading of the
rules page, docs/rules.rst (DB-10 to DB-25).  Here the library must agree
with it on every one of the 270,725 down hands and 22,100 back hands:

* the category counts are the ones printed on the rules page (for both evaluators);
* the library's category is the reference category, hand by hand;
* the library's ``strength`` orders hands exactly as the reference sort key
  does: equal inside a group of tied hands, strictly increasing from one group
  to the next;
* the numpy batch evaluators return the single-call strengths.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, groupby

import pytest

from cardrules import DECK, Card
from cardrules.down_and_back import (
    Combo,
    evaluate3,
    evaluate3_batch,
    evaluate4,
    evaluate4_batch,
)
from support.references.down_and_back import (
    CATEGORIES3,
    CATEGORIES4,
    EXPECTED_COUNTS3,
    EXPECTED_COUNTS4,
    Key,
    SortKey,
    classify3,
    classify4,
)

Hand = tuple[Card, ...]
MAX_REPORTED = 10


@dataclass(frozen=True)
class Reference:
    """Reference results for all hands of one size, in ``combinations`` order."""

    hands: list[Hand]
    categories: list[str]
    sort_keys: list[SortKey]


@dataclass(frozen=True)
class Library:
    """Library results (single-call API) for the same hands, in the same order."""

    categories: list[str]
    strengths: list[int]


def _reference(size: int, classify: Callable[[Sequence[Card]], tuple[str, Key]],
               order: tuple[str, ...]) -> Reference:
    hands = list(combinations(DECK, size))
    categories: list[str] = []
    sort_keys: list[SortKey] = []
    for hand in hands:
        name, key = classify(hand)
        categories.append(name)
        sort_keys.append((order.index(name), key))
    return Reference(hands, categories, sort_keys)


def _library(hands: Sequence[Hand], evaluate: Callable[[Sequence[Card]], Combo]) -> Library:
    combos = [evaluate(hand) for hand in hands]
    return Library([c.category.name for c in combos], [c.strength for c in combos])


@pytest.fixture(scope="module")
def ref4() -> Reference:
    return _reference(4, classify4, CATEGORIES4)


@pytest.fixture(scope="module")
def ref3() -> Reference:
    return _reference(3, classify3, CATEGORIES3)


@pytest.fixture(scope="module")
def lib4(ref4: Reference) -> Library:
    return _library(ref4.hands, evaluate4)


@pytest.fixture(scope="module")
def lib3(ref3: Reference) -> Library:
    return _library(ref3.hands, evaluate3)


def _show(hand: Hand) -> str:
    return " ".join(str(card) for card in hand)


def _category_mismatches(ref: Reference, lib: Library) -> list[str]:
    return [
        f"{_show(hand)}: reference {want}, library {got}"
        for hand, want, got in zip(ref.hands, ref.categories, lib.categories, strict=True)
        if want != got
    ]


def _order_problems(ref: Reference, strengths: Sequence[int]) -> list[str]:
    """Group hands by reference sort key; strengths must be constant within a
    group and strictly increasing from each group to the next stronger one."""
    problems: list[str] = []
    by_reference = sorted(range(len(ref.hands)), key=ref.sort_keys.__getitem__)
    previous: tuple[int, int] | None = None  # (max strength, a hand index) of last group
    for sort_key, group in groupby(by_reference, key=ref.sort_keys.__getitem__):
        members = list(group)
        values = {strengths[i] for i in members}
        if len(values) != 1:
            examples = sorted({strengths[i]: i for i in members}.items())[:2]
            problems.append(
                f"tied hands (reference {sort_key}) get different strengths: "
                + ", ".join(f"{_show(ref.hands[i])}={s}" for s, i in examples)
            )
        lowest = min(values)
        lowest_hand = min(members, key=strengths.__getitem__)
        if previous is not None and lowest <= previous[0]:
            problems.append(
                f"{_show(ref.hands[lowest_hand])} (reference {sort_key}, strength {lowest}) "
                f"is not stronger than {_show(ref.hands[previous[1]])} "
                f"(strength {previous[0]})"
            )
        highest_hand = max(members, key=strengths.__getitem__)
        previous = (strengths[highest_hand], highest_hand)
        if len(problems) >= MAX_REPORTED:
            break
    return problems


# ----------------------------------------------------------------------- counts


def test_there_are_270725_down_hands_and_22100_back_hands(ref4: Reference,
                                                          ref3: Reference) -> None:
    assert len(ref4.hands) == 270_725 == sum(EXPECTED_COUNTS4.values())
    assert len(ref3.hands) == 22_100 == sum(EXPECTED_COUNTS3.values())


def test_reference_counts_4_match_rules(ref4: Reference) -> None:
    assert Counter(ref4.categories) == EXPECTED_COUNTS4


def test_reference_counts_3_match_rules(ref3: Reference) -> None:
    assert Counter(ref3.categories) == EXPECTED_COUNTS3


def test_library_counts_4_match_rules(lib4: Library) -> None:
    assert Counter(lib4.categories) == EXPECTED_COUNTS4


def test_library_counts_3_match_rules(lib3: Library) -> None:
    assert Counter(lib3.categories) == EXPECTED_COUNTS3


# ------------------------------------------------------------------- categories


def test_library_category_equals_reference_4(ref4: Reference, lib4: Library) -> None:
    mismatches = _category_mismatches(ref4, lib4)
    assert not mismatches, f"{len(mismatches)} hands differ, e.g. {mismatches[:MAX_REPORTED]}"


def test_library_category_equals_reference_3(ref3: Reference, lib3: Library) -> None:
    mismatches = _category_mismatches(ref3, lib3)
    assert not mismatches, f"{len(mismatches)} hands differ, e.g. {mismatches[:MAX_REPORTED]}"


# --------------------------------------------------------------------- ordering


def test_library_order_equals_reference_4(ref4: Reference, lib4: Library) -> None:
    problems = _order_problems(ref4, lib4.strengths)
    assert not problems, "\n".join(problems)


def test_library_order_equals_reference_3(ref3: Reference, lib3: Library) -> None:
    problems = _order_problems(ref3, lib3.strengths)
    assert not problems, "\n".join(problems)


def test_order_checker_catches_a_broken_tie_and_an_inversion(ref3: Reference,
                                                             lib3: Library) -> None:
    # The checker itself must be able to fail: perturb correct-looking strengths.
    strengths = list(lib3.strengths)
    weakest = min(range(len(strengths)), key=ref3.sort_keys.__getitem__)
    strongest = max(range(len(strengths)), key=ref3.sort_keys.__getitem__)
    strengths[weakest], strengths[strongest] = strengths[strongest], strengths[weakest]
    assert _order_problems(ref3, strengths)
    flat = [0] * len(strengths)
    assert _order_problems(ref3, flat)


# ------------------------------------------------------------------------ batch


def test_evaluate4_batch_equals_single_call_on_every_hand(ref4: Reference,
                                                         lib4: Library) -> None:
    np = pytest.importorskip("numpy")
    indices = np.array([[card.index for card in hand] for hand in ref4.hands], dtype=np.int64)
    out = evaluate4_batch(indices)
    assert out.shape == (len(ref4.hands),)
    assert out.tolist() == lib4.strengths


def test_evaluate3_batch_equals_single_call_on_every_hand(ref3: Reference,
                                                         lib3: Library) -> None:
    np = pytest.importorskip("numpy")
    indices = np.array([[card.index for card in hand] for hand in ref3.hands], dtype=np.int64)
    out = evaluate3_batch(indices)
    assert out.shape == (len(ref3.hands),)
    assert out.tolist() == lib3.strengths
