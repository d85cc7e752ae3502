"""Down and Back actions: constructors, text form and JSON form.

* Constructors check types (``Cut("x")``, ``Cut(True)``, ``Discard("KS")``,
  ``Split("AS ...", ...)`` are refused at once); ``apply`` checks the rules
  (a cut of 0 or 52 cards is a valid object and an illegal move, DB-32).
* ``parse_action`` reads exactly what ``str(action)`` writes, with ASCII
  digits only and the position of every bad token.
* ``action_from_dict`` is strict: the keys of the action's type and no others,
  JSON integers (no bools or floats), exactly one card per list entry.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import DECK, Hand, IllegalActionError, ParseError, parse_card, parse_cards
from cardrules.down_and_back import (
    Action,
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    Phase,
    Shuffle,
    Split,
    action_from_dict,
    action_to_dict,
    apply,
    legal_actions,
    new_game,
    parse_action,
    sample_chance,
)
from cardrules.engine.chance import ChooseDealer as EngineChooseDealer
from cardrules.engine.chance import Shuffle as EngineShuffle


def at_cut() -> Any:
    state = apply(new_game(3, rounds=1), ChooseDealer(0))
    state = apply(state, Shuffle(DECK))
    assert state.phase is Phase.CUT
    return state


# ---------------------------------------------------------------------------
# constructors check types, apply checks rules (DB-32, DB-34, DB-40)


@pytest.mark.parametrize("count", ["x", "5", True, False, 2.0, None, [3]])
def test_db32_cut_refuses_a_count_that_is_not_an_int(count: object) -> None:
    with pytest.raises(TypeError, match="Cut needs an int count") as info:
        Cut(count)  # type: ignore[arg-type]
    assert "parse_action" in str(info.value)


def test_db32_cut_error_quotes_a_short_prefix_of_a_long_value() -> None:
    with pytest.raises(TypeError) as info:
        Cut("9" * 100_000)  # type: ignore[arg-type]
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("count", [0, 52, -1, 10**30])
def test_db32_cut_out_of_range_is_built_but_refused_by_apply(count: int) -> None:
    cut = Cut(count)
    assert cut.count == count
    state = at_cut()
    with pytest.raises(IllegalActionError) as info:
        apply(state, cut)
    assert info.value.rule == "DB-32"


@pytest.mark.parametrize("count", [1, 51])
def test_db32_cut_in_range_is_applied(count: int) -> None:
    assert apply(at_cut(), Cut(count)).phase is Phase.DRAW


@pytest.mark.parametrize("card", ["KS", 13, None, DECK[:1]])
def test_db34_discard_refuses_anything_but_a_card(card: object) -> None:
    with pytest.raises(TypeError):
        Discard(card)  # type: ignore[arg-type]


def test_db40_split_sides_are_hands_in_canonical_order() -> None:
    down, back = parse_cards("QH 8D 8S 8H"), parse_cards("7C 5C 6C")
    split = Split(down, back)
    assert type(split.down) is Hand
    assert type(split.back) is Hand
    assert str(split) == "split 8S 8H 8D QH / 5C 6C 7C"
    assert split == Split(Hand(down), list(back)) == Split(iter(down), reversed(back))
    assert hash(split) == hash(Split(Hand(down), Hand(back)))


def test_db40_split_from_hands_keeps_them() -> None:
    down, back = Hand.parse("8S 8H 8D QH"), Hand.parse("5C 6C 7C")
    split = Split(down, back)
    assert split.down is down
    assert split.back is back


@pytest.mark.parametrize(("down", "back"), [
    ("8S 8H 8D QH", "5C 6C 7C"),
    (parse_cards("8S 8H 8D QH"), "5C 6C 7C"),
    (("8S", "8H", "8D", "QH"), parse_cards("5C 6C 7C")),
    (parse_cards("8S 8H 8D QH"), (5, 6, 7)),
    (parse_cards("8S 8H 8D QH"), None),
])
def test_db40_split_refuses_what_is_not_cards(down: Any, back: Any) -> None:
    with pytest.raises(TypeError):
        Split(down, back)


def test_db40_split_refuses_a_card_twice_in_one_side() -> None:
    with pytest.raises(ValueError, match="each card once"):
        Split(parse_cards("8S 8S 8D QH"), parse_cards("5C 6C 7C"))
    with pytest.raises(ValueError, match="each card once"):
        Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 5C 7C"))


def test_db40_split_with_a_card_on_both_sides_is_refused_by_apply() -> None:
    # Sizes and the player's own cards are rules, checked when applied.
    split = Split(parse_cards("8S 8H 8D QH"), parse_cards("8S 6C 7C"))
    assert len(split.down) + len(split.back) == 7
    rng = random.Random(5)
    state = new_game(2, rounds=1)
    while state.phase is not Phase.SPLIT:
        action = sample_chance(state, rng) if state.is_chance else rng.choice(
            legal_actions(state))
        state = apply(state, action)
    with pytest.raises(IllegalActionError) as info:
        apply(state, split)
    assert info.value.rule == "DB-40"


def test_trusted_split_constructor_makes_hands() -> None:
    down, back = DECK[:4], DECK[4:7]
    fast = Split.of_sorted(down, back)
    assert type(fast.down) is Hand
    assert type(fast.back) is Hand
    assert fast == Split(down, back)
    hands = Split.of_sorted(Hand.of_sorted(down), Hand.of_sorted(back))
    assert hands == fast


@pytest.mark.parametrize("action", [Cut(3), DrawStock(), DrawDiscard(), Discard(DECK[0]),
                                    Split(DECK[:4], DECK[4:7])], ids=str)
def test_actions_are_frozen_and_slotted(action: Action) -> None:
    assert not hasattr(action, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        action.count = 5  # type: ignore[union-attr, misc]
    assert hash(action) == hash(parse_action(str(action)))


def test_chance_actions_are_the_engines() -> None:
    assert ChooseDealer is EngineChooseDealer
    assert Shuffle is EngineShuffle


# ---------------------------------------------------------------------------
# text form

EXAMPLES: list[Action] = [
    ChooseDealer(3), Shuffle(DECK), Shuffle(parse_cards("KS 2H")), Cut(1), Cut(51),
    DrawStock(), DrawDiscard(), Discard(parse_card("TH")),
    Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 6C 7C")),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_text_round_trip(action: Action) -> None:
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(("text", "action"), [
    ("CUT 7", Cut(7)),
    ("  cut   7  ", Cut(7)),
    ("Draw STOCK", DrawStock()),
    ("draw Discard", DrawDiscard()),
    ("discard 10h", Discard(parse_card("TH"))),
    ("split qh 8d 8s 8h/7c 6c 5c", Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 6C 7C"))),
    ("dealer 0", ChooseDealer(0)),
])
def test_text_is_read_in_any_case_and_spacing(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(("text", "token", "position"), [
    ("hop 3", "hop", 0),
    ("  hop", "hop", 2),
    ("cut x", "x", 4),
    ("cut ٣", "٣", 4),             # only ASCII digits
    ("cut -3", "-3", 4),
    ("cut 3.0", "3.0", 4),
    ("cut", "", 3),
    ("dealer two", "two", 7),
    ("draw", "", 4),
    ("draw deck", "deck", 5),
    ("draw stoc\u212a", "stoc\u212a", 5),   # the Kelvin sign is not a k
    ("discard KX", "KX", 8),
    ("discard AS KS", "AS KS", 8),
    ("discard", "", 7),
    ("split AS 2S 3S 4S 5S 6S 7S", "AS 2S 3S 4S 5S 6S 7S", 6),
    ("split AS 2S 3S 4S / 5S 6S ZZ", "ZZ", 26),
    ("split AS AS 3S 4S / 5S 6S 7S", "AS", 9),
    ("split AS 2S 3S 4S / 5S 6S 5S", "5S", 26),
    ("shuffle AS KS AS", "AS", 14),
    ("shuffle AS ZZ", "ZZ", 11),
])
def test_bad_text_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_action(text)
    assert info.value.token == token
    assert info.value.position == position


@pytest.mark.parametrize(("text", "side"), [
    ("split AS AS 3S 4S / 5S 6S 7S", "down"),
    ("split AS 2S 3S 4S / 5S 6S 5S", "back"),
])
def test_db40_a_card_repeated_in_a_split_names_its_hand(text: str, side: str) -> None:
    with pytest.raises(ParseError, match=f"^the {side} hand of a split holds each card once"):
        parse_action(text)


def test_a_huge_number_is_refused_by_length() -> None:
    with pytest.raises(ParseError, match="number too long") as info:
        parse_action("cut " + "7" * 5000)
    assert info.value.position == 4
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("text", [None, 5, b"cut 5", ["cut", "5"], "", "   "])
def test_action_text_must_be_text(text: object) -> None:
    with pytest.raises(ParseError):
        parse_action(text)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# JSON form

@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_dict_round_trip(action: Action) -> None:
    data = action_to_dict(action)
    assert action_from_dict(data) == action
    assert action_from_dict(dict(data)) == action


def test_dict_forms() -> None:
    assert action_to_dict(Cut(7)) == {"type": "cut", "count": 7}
    assert action_to_dict(DrawStock()) == {"type": "draw_stock"}
    assert action_to_dict(DrawDiscard()) == {"type": "draw_discard"}
    assert action_to_dict(Discard(parse_card("KS"))) == {"type": "discard", "card": "KS"}
    assert action_to_dict(ChooseDealer(2)) == {"type": "dealer", "seat": 2}
    assert action_to_dict(Shuffle(parse_cards("KS 2H"))) == {"type": "shuffle",
                                                              "order": ["KS", "2H"]}
    assert action_to_dict(Split(parse_cards("QH 8D 8S 8H"), parse_cards("7C 5C 6C"))) == {
        "type": "split", "down": ["8S", "8H", "8D", "QH"], "back": ["5C", "6C", "7C"]}


def test_to_dict_refuses_what_is_not_an_action() -> None:
    with pytest.raises(TypeError):
        action_to_dict("cut 5")  # type: ignore[arg-type]


BAD_DICTS: list[Any] = [
    None, [], "cut 5", 5,
    {},
    {"type": 5},
    {"type": "hop"},
    {"type": "CUT", "count": 3},
    {"type": "cut"},
    {"type": "cut", "count": True},
    {"type": "cut", "count": 3.0},
    {"type": "cut", "count": "3"},
    {"type": "cut", "count": 3, "from": "top"},
    {"type": "draw_stock", "card": "KS"},
    {"type": "draw_discard", "x": None},
    {"type": "discard"},
    {"type": "discard", "card": "KS QS"},
    {"type": "discard", "card": ""},
    {"type": "discard", "card": 13},
    {"type": "discard", "card": ["KS"]},
    {"type": "discard", "card": "KS", "seat": 1},
    {"type": "split", "down": ["AS KS", "", "QS"], "back": ["2H", "3H", "4H"]},
    {"type": "split", "down": ["AS", "KS", "QS", "JS"], "back": "2H 3H 4H"},
    {"type": "split", "down": ["AS", "KS", "QS", "JS"], "back": ["2H", "3H", 4]},
    {"type": "split", "down": ["AS", "KS", "QS", "JS"], "back": ["2H", "2H", "4H"]},
    {"type": "split", "down": ["AS", "KS", "QS", "JS"]},
    {"type": "split", "down": ["AS", "KS", "QS", "JS"], "back": ["2H", "3H", "4H"], "x": 1},
    {"type": "dealer", "seat": True},
    {"type": "dealer", "seat": -1},
    {"type": "dealer", "seat": 1, "dealer": 1},
    {"type": "shuffle", "order": ["AS", "AS"]},
    {"type": "shuffle", "order": ["AS KS"]},
    {"type": "shuffle", "order": "AS KS"},
    {1: "cut", "type": "cut", "count": 3},
]


@pytest.mark.parametrize("data", BAD_DICTS, ids=repr)
def test_bad_dicts_are_parse_errors(data: Any) -> None:
    with pytest.raises(ParseError):
        action_from_dict(data)


@pytest.mark.parametrize("key", ["count", "card", "type"])
def test_deeply_nested_values_are_parse_errors(key: str) -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    data: dict[str, Any] = {"type": "cut" if key == "count" else "discard", key: deep}
    with pytest.raises(ParseError):
        action_from_dict(data)


def test_one_card_per_list_entry() -> None:
    data = {"type": "split", "down": ["AS KS", "", "QS"], "back": ["2H", "3H", "4H"]}
    with pytest.raises(ParseError, match=r"'down'\[0\]"):
        action_from_dict(data)


def test_unknown_key_is_named() -> None:
    with pytest.raises(ParseError) as info:
        action_from_dict({"type": "cut", "count": 3, "from": "top"})
    assert info.value.token == "from"


def test_a_huge_count_is_read_and_refused_by_apply() -> None:
    cut = action_from_dict({"type": "cut", "count": 10**40})
    assert cut == Cut(10**40)
    with pytest.raises(IllegalActionError):
        apply(at_cut(), cut)


def test_reading_does_not_change_the_input() -> None:
    data = {"type": "split", "down": ["QH", "8D", "8S", "8H"], "back": ["7C", "5C", "6C"]}
    before = {k: list(v) if isinstance(v, list) else v for k, v in data.items()}
    action_from_dict(data)
    assert data == before


# ---------------------------------------------------------------------------
# every action of random games survives both forms

@given(num_players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_actions_of_random_games_round_trip(num_players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(num_players, rounds=1)
    while not state.is_terminal:
        if state.is_chance:
            action: Action = sample_chance(state, rng)
        else:
            legal = legal_actions(state)
            for other in legal[:3]:
                assert parse_action(str(other)) == other
            action = rng.choice(legal)
        assert parse_action(str(action)) == action
        assert action_from_dict(action_to_dict(action)) == action
        state = apply(state, action)


@pytest.mark.parametrize("joker", ["BB", "LB"])
def test_db32_a_shuffle_with_a_joker_is_refused_in_text_and_dict_form(joker: str) -> None:
    # Down and Back is played with 52 cards and no jokers.
    order = [str(c) for c in DECK[:51]] + [joker]
    with pytest.raises(ParseError, match="jokers are not allowed") as info:
        action_from_dict({"type": "shuffle", "order": order})
    assert info.value.token == joker
    with pytest.raises(ParseError, match="jokers are not allowed") as info:
        parse_action("shuffle " + " ".join(order))
    assert info.value.token == joker
