"""The optional C speed-ups agree with the pure-Python evaluators in every case.

``CARDRULES_REQUIRE_SPEEDUPS=1`` (set by ``.ci/run``) turns a missing build
into a failure instead of a skip.
"""

from __future__ import annotations

import doctest
import gc
import os
import pathlib
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import pytest

import cardrules.down_and_back as db
from cardrules import DECK, Joker, parse_cards
from cardrules.down_and_back import combos as python

if os.environ.get("CARDRULES_REQUIRE_SPEEDUPS"):
    from cardrules.down_and_back import _speedups
else:
    _speedups = pytest.importorskip("cardrules.down_and_back._speedups")

pytestmark = pytest.mark.skipif(not db.ACCELERATED, reason="CARDRULES_PURE_PYTHON is set")


def test_the_package_exports_the_speedups() -> None:
    assert db.evaluate4 is _speedups.evaluate4
    assert db.best_splits is _speedups.best_splits


def test_every_4_card_hand_agrees() -> None:
    for hand in combinations(DECK, 4):
        fast = db.evaluate4(hand)
        assert fast.strength == python.strength4(hand) == db.strength4(hand)
        assert fast.cards is hand


def test_every_3_card_hand_agrees() -> None:
    for hand in combinations(DECK, 3):
        listed = list(hand)
        fast = db.evaluate3(listed)
        assert fast.strength == python.strength3(hand) == db.strength3(listed)
        assert fast.cards == hand
        assert type(fast) is python.Combo


def test_random_seven_card_hands_agree() -> None:
    rng = random.Random(2026)
    for _ in range(5_000):
        hand = tuple(rng.sample(DECK, 7))
        assert db.split_strengths(hand) == python.split_strengths(hand)
        fast, slow = db.best_splits(hand), python.best_splits(hand)
        assert fast == slow  # SplitOption equality: both combos tie
        assert [(o.down.cards, o.back.cards) for o in fast] == \
            [(o.down.cards, o.back.cards) for o in slow]


BAD_INPUTS: list[Any] = [
    DECK[:3], DECK[:5], (DECK[0], DECK[0], DECK[1], DECK[2]), ("KS", DECK[1], DECK[2], DECK[3]),
    (DECK[0], DECK[1], DECK[2], Joker.BIG), 5, None, "KSQSJSTS",
]


def _outcome(function: Callable[[Any], object], argument: Any) -> tuple[str, str]:
    try:
        result = function(argument)
    except (ValueError, TypeError) as err:
        return type(err).__name__, str(err)
    return "ok", repr(result)


@pytest.mark.parametrize("argument", BAD_INPUTS)
@pytest.mark.parametrize(("fast", "slow"), [
    (db.evaluate4, python.evaluate4), (db.strength4, python.strength4),
])
def test_bad_4_card_input_raises_what_python_raises(
        fast: Callable[[Any], object], slow: Callable[[Any], object], argument: Any) -> None:
    outcome = _outcome(fast, argument)
    assert outcome[0] != "ok"
    assert outcome == _outcome(slow, argument)


@pytest.mark.parametrize("argument", [
    DECK[:6], DECK[:8], DECK[:6] + DECK[:1], (*DECK[:6], Joker.LITTLE), (*DECK[:6], "AS"), 7,
])
@pytest.mark.parametrize(("fast", "slow"), [
    (db.best_splits, python.best_splits), (db.split_strengths, python.split_strengths),
])
def test_bad_7_card_input_raises_what_python_raises(
        fast: Callable[[Any], object], slow: Callable[[Any], object], argument: Any) -> None:
    outcome = _outcome(fast, argument)
    assert outcome[0] != "ok"
    assert outcome == _outcome(slow, argument)


def test_other_sequences_go_through_the_python_code() -> None:
    hand = parse_cards("8S 8H 8D QH")
    iterator: Any = iter(hand)  # outside the declared Sequence type, yet accepted
    assert db.evaluate4(iterator).cards == hand
    assert db.evaluate4(range_like(hand)).description == "prial of eights"


def range_like(cards: Sequence[Any]) -> Sequence[Any]:
    class Cards(Sequence[Any]):
        def __getitem__(self, i: Any) -> Any:
            return cards[i]

        def __len__(self) -> int:
            return len(cards)

    return Cards()


def test_no_reference_is_leaked() -> None:
    hand = parse_cards("8S 8H 8D QH 5C 6C 7C")
    four = hand[:4]
    # The card is shared with the rest of the process (the deck, caches, other
    # tests' leftovers), whose references may come and go by one or two while
    # the loop runs; a leak would add one per call, 10,000 in all.
    gc.collect()
    before = sys.getrefcount(four), sys.getrefcount(hand[0])
    for _ in range(10_000):
        db.evaluate4(four)
        db.best_splits(hand)
        db.split_strengths(hand)
        _outcome(db.evaluate4, (hand[0], hand[0], hand[1], hand[2]))
    gc.collect()
    assert sys.getrefcount(four) == before[0]
    assert abs(sys.getrefcount(hand[0]) - before[1]) < 10


def _alive(kind: type) -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is kind)


def test_no_result_object_is_leaked() -> None:
    hand = parse_cards("8S 8H 8D QH 5C 6C 7C")
    combos, options = _alive(python.Combo), _alive(python.SplitOption)
    for _ in range(2_000):
        db.evaluate4(hand[:4])
        db.evaluate3(list(hand[:3]))
        db.best_splits(hand)
    assert (_alive(python.Combo), _alive(python.SplitOption)) == (combos, options)


@pytest.mark.parametrize("name", ["evaluate4", "evaluate3", "strength4", "strength3",
                                  "split_strengths", "best_splits", "split_actions",
                                  "hand_of_sorted", "batch_strengths"])
def test_c_docstring_examples_run(name: str) -> None:
    function = getattr(_speedups, name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    tests = finder.find(function, name, globs={name: function})
    assert tests
    assert tests[0].examples
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_pure_python_mode_gives_the_same_results() -> None:
    code = ("import cardrules.down_and_back as db\n"
            "from cardrules import DECK\n"
            "print(db.ACCELERATED, db.evaluate4(DECK[:4]).strength,"
            " len(db.best_splits(DECK[10:17])))")
    env = {**os.environ, "CARDRULES_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env)
    assert done.stdout.split() == [
        "False", str(db.evaluate4(DECK[:4]).strength), str(len(db.best_splits(DECK[10:17])))]


# -- Hands: tuple subclasses on the fast path, split actions, new hands


def test_evaluators_take_a_hand_and_keep_it_as_the_cards() -> None:
    from cardrules import Hand
    four, three = Hand.parse("QH 8D 8S 8H"), Hand.parse("KC KD 2S")
    for fast, slow in ((db.evaluate4, python.evaluate4), (db.evaluate3, python.evaluate3)):
        hand = four if fast is db.evaluate4 else three
        assert fast(hand).cards is hand
        assert slow(hand).cards is hand
        assert fast(hand).strength == slow(hand).strength
    seven = Hand.parse("8S 8H 8D QH 5C 6C 7C")
    assert db.split_strengths(seven) == python.split_strengths(seven)
    assert db.best_splits(seven) == python.best_splits(seven)
    assert db.strength4(four) == python.strength4(tuple(four))


def test_random_hands_give_the_same_split_actions() -> None:
    from cardrules import Hand
    from cardrules.down_and_back._accel import python_split_actions
    rng = random.Random(6)
    for _ in range(500):
        hand = Hand(rng.sample(DECK, 7))
        fast, slow = _speedups.split_actions(hand), python_split_actions(hand)
        assert fast == slow
        assert all(type(s.down) is Hand and type(s.back) is Hand for s in fast)
        assert [str(s) for s in fast] == [str(s) for s in slow]


def test_split_actions_hand_other_input_to_python() -> None:
    from cardrules import Hand
    from cardrules.down_and_back._accel import python_split_actions
    hand = Hand(DECK[:7])
    plain: Any = tuple(hand)   # not a Hand: the Python code answers, with the same splits
    assert _speedups.split_actions(plain) == python_split_actions(hand)
    nothing: Any = None
    with pytest.raises(TypeError):
        _speedups.split_actions(nothing)


def test_hand_of_sorted_makes_the_same_hand() -> None:
    from cardrules import Hand
    made = _speedups.hand_of_sorted(DECK[3:9])
    assert type(made) is Hand
    assert made == Hand.of_sorted(DECK[3:9])
    assert made == DECK[3:9]
    assert type(_speedups.hand_of_sorted([DECK[0], DECK[5]])) is Hand   # a list: Python
    assert _speedups.hand_of_sorted(()) == Hand()


def test_new_functions_leak_nothing() -> None:
    from cardrules import Hand
    hand = Hand(DECK[10:17])
    items = DECK[10:17]
    before = sys.getrefcount(hand), sys.getrefcount(DECK[10])
    for _ in range(5_000):
        _speedups.split_actions(hand)
        _speedups.hand_of_sorted(items)
        db.evaluate4(hand[:4])
    assert (sys.getrefcount(hand), sys.getrefcount(DECK[10])) == before


def test_setup_refuses_classes_without_the_slots_and_keeps_working() -> None:
    from cardrules import Hand
    from cardrules.down_and_back.actions import Split
    from cardrules.down_and_back.combos import Combo, SplitOption

    class NoSlots:
        pass

    fallbacks = (python.evaluate4,) * 8
    setup: Any = _speedups.setup
    with pytest.raises(TypeError, match="is not a slot"):
        setup(NoSlots, Combo, SplitOption, Hand, Split, lambda: (), fallbacks)
    with pytest.raises(TypeError, match="tuple subclass"):
        setup(type(DECK[0]), Combo, SplitOption, NoSlots, Split, lambda: (), fallbacks)
    with pytest.raises(TypeError, match="seven arguments"):
        setup(Combo)
    assert db.evaluate4(DECK[:4]).strength == python.strength4(DECK[:4])


def test_the_c_code_uses_the_public_attribute_protocol() -> None:
    """No slot offsets read from CPython's member descriptors."""
    sources = sorted(pathlib.Path(python.__file__).parent.glob("_speedups*.[ch]"))
    if not sources:
        pytest.skip("the C sources are not installed")
    text = "".join(source.read_text() for source in sources)
    assert "structmember.h" not in text
    assert "PyMemberDescr" not in text
    assert "d_member" not in text
    assert "tp_descr_set" in text
    assert "tp_descr_get" in text
