"""The shared codecs of cardrules.engine: strict JSON and text readers (codec),
the generic JSON writer (encode) and the chance actions' own forms (chance)."""

from __future__ import annotations

import enum
import random
from typing import Any

import attrs
import pytest

from cardrules import DECK, Card, Hand, Joker, ParseError, Rank, Suit, parse_card, parse_cards
from cardrules.engine.chance import (
    ChooseDealer,
    Shuffle,
    chance_from_dict,
    chance_to_dict,
    parse_chance,
    shuffled,
)
from cardrules.engine.json_out import attributes_to_json, to_json
from cardrules.engine.readers import (
    MAX_DIGITS,
    Fields,
    card_at,
    cards_at,
    check_digits,
    check_length,
    check_numbers,
    digit_count,
    int_token,
    read_card,
    safe_repr,
    split_verb,
)

AS, KS, QH = parse_cards("AS KS QH")


class Colour(enum.Enum):
    RED = "red"
    ONE = 1


def failure(call: Any) -> ParseError:
    """The ParseError raised by ``call()``."""
    with pytest.raises(ParseError) as caught:
        call()
    return caught.value


# ---------------------------------------------------------------------------
# readers.Fields


@pytest.mark.parametrize("data", [[1, 2], "text", None, 3, ("a", 1)])
def test_fields_take_only_json_objects(data: object) -> None:
    err = failure(lambda: Fields(data, "state"))
    assert err.message == f"state must be a JSON object, not {type(data).__name__}"


def test_fields_refuse_keys_that_are_not_text() -> None:
    err = failure(lambda: Fields({"a": 1, 2: 3}, "state"))
    assert err.message == "state: keys must be text"
    assert err.token == "2"


def test_a_missing_key_is_named() -> None:
    fields = Fields({"a": 1}, "deal")
    err = failure(lambda: fields.get("b"))
    assert str(err) == "deal: missing 'b'"
    assert err.token is None


def test_has_does_not_count_as_reading() -> None:
    fields = Fields({"a": 1}, "x")
    assert fields.has("a")
    assert not fields.has("b")
    assert str(failure(fields.done)) == "x: unknown key: 'a'"
    assert fields.get("a") == 1
    fields.done()


def test_done_names_the_first_key_left_unread() -> None:
    fields = Fields({"a": 1, "b": 2, "c": 3}, "x")
    fields.get("a")
    err = failure(fields.done)
    assert err.message == "x: unknown key"
    assert err.token == "b"


@pytest.mark.parametrize(("value", "minimum", "maximum"), [
    (0, 0, 0), (5, 5, None), (5, None, 5), (-7, None, None), (10**17, 0, None)])
def test_integer_accepts_whole_numbers_within_inclusive_bounds(
        value: int, minimum: int | None, maximum: int | None) -> None:
    assert Fields({"n": value}, "x").integer("n", minimum=minimum, maximum=maximum) == value


@pytest.mark.parametrize(("value", "minimum", "maximum", "message"), [
    (True, None, None, "x: 'n' must be a whole number: 'True'"),
    (1.0, None, None, "x: 'n' must be a whole number: '1.0'"),
    ("1", None, None, "x: 'n' must be a whole number: \"'1'\""),
    (None, None, None, "x: 'n' must be a whole number: 'None'"),
    (4, 5, None, "x: 'n' must be at least 5: '4'"),
    (6, None, 5, "x: 'n' must be at most 5: '6'"),
])
def test_integer_refusals_say_why(value: object, minimum: int | None, maximum: int | None,
                                  message: str) -> None:
    fields = Fields({"n": value}, "x")
    assert str(failure(lambda: fields.integer("n", minimum=minimum, maximum=maximum))) \
        == message


def test_opt_integer_reads_null_or_a_checked_number() -> None:
    assert Fields({"n": None}, "x").opt_integer("n", minimum=1) is None
    assert Fields({"n": 3}, "x").opt_integer("n", minimum=1, maximum=3) == 3
    assert "at most 3" in str(failure(lambda: Fields({"n": 4}, "x").opt_integer("n", maximum=3)))
    assert "at least 1" in str(failure(lambda: Fields({"n": 0}, "x").opt_integer("n", minimum=1)))
    assert "whole number" in str(failure(lambda: Fields({"n": False}, "x").opt_integer("n")))
    fields = Fields({"n": None}, "x")
    fields.opt_integer("n")
    fields.done()


@pytest.mark.parametrize(("getter", "good", "bad", "message"), [
    ("text", "cut", 3, "must be text"),
    ("flag", False, 0, "must be true or false"),
    ("flag", True, 1, "must be true or false"),
    ("array", [1], (1,), "must be a list"),
    ("array", [], "[]", "must be a list"),
    ("obj", {"a": 1}, [("a", 1)], "must be an object"),
])
def test_typed_getters(getter: str, good: object, bad: object, message: str) -> None:
    assert getattr(Fields({"k": good}, "x"), getter)("k") == good
    err = failure(lambda: getattr(Fields({"k": bad}, "x"), getter)("k"))
    assert err.message == f"x: 'k' {message}"
    assert err.token == repr(bad)


def test_card_getters() -> None:
    fields = Fields({"c": "10h", "n": None, "j": "lb", "l": ["AS", "BB"]}, "x")
    assert fields.card("c") == parse_card("TH")
    assert fields.opt_card("n") is None
    assert fields.opt_card("c") == parse_card("TH")
    assert fields.card("j", jokers=True) is Joker.LITTLE
    assert fields.cards("l", jokers=True) == (AS, Joker.BIG)
    fields.done()
    err = failure(lambda: Fields({"j": "LB"}, "x").card("j"))
    assert err.message == "x: 'j': jokers are not allowed here"
    err = failure(lambda: Fields({"l": ["AS", "BB"]}, "x").cards("l"))
    assert err.message == "x: 'l'[1]: jokers are not allowed here"
    err = failure(lambda: Fields({"c": "ZZ"}, "x").opt_card("c"))
    assert (err.message, err.token, err.position) == ("x: 'c': not a card", "ZZ", 0)


def test_cards_take_one_card_per_entry_and_name_the_entry() -> None:
    assert Fields({"l": []}, "x").cards("l") == ()
    err = failure(lambda: Fields({"l": ["AS", "", "QS"]}, "x").cards("l"))
    assert err.message == "x: 'l'[1]: expected exactly one card"
    err = failure(lambda: Fields({"l": ["AS", 7]}, "x").cards("l"))
    assert (err.message, err.token) == ("x: 'l'[1] must be a card as text", "7")
    assert "must be a list" in str(failure(lambda: Fields({"l": "AS KS"}, "x").cards("l")))


def test_enum_matches_value_and_type() -> None:
    assert Fields({"c": "red"}, "x").enum("c", Colour) is Colour.RED
    assert Fields({"c": 1}, "x").enum("c", Colour) is Colour.ONE
    for wrong in ("RED", True, 1.0, "1", None):   # True == 1 and 1.0 == 1, but not the type
        err = failure(lambda wrong=wrong: Fields({"c": wrong}, "x").enum("c", Colour))
        assert err.message == "x: 'c' must be one of ['red', 1]"
        assert err.token == repr(wrong)


# ---------------------------------------------------------------------------
# codec: card readers and text helpers


def test_read_card_wants_text_and_keeps_the_position() -> None:
    assert read_card("qh", "x") == QH
    assert read_card("BB", "x", jokers=True) is Joker.BIG
    err = failure(lambda: read_card(["AS"], "deal"))
    assert (err.message, err.token) == ("deal must be a card as text", "['AS']")
    err = failure(lambda: read_card("AS KS", "deal"))
    assert (err.message, err.position) == ("deal: expected exactly one card", 0)
    err = failure(lambda: read_card(" KX", "deal"))
    assert (err.message, err.token, err.position) == ("deal: not a card", "KX", 1)
    assert failure(lambda: read_card("BB", "deal")).message \
        == "deal: jokers are not allowed here"


def test_safe_repr_names_a_value_too_deep_to_show() -> None:
    assert safe_repr({"a": (1,)}) == "{'a': (1,)}"
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert safe_repr(deep) == "<list nested too deeply to show>"


@pytest.mark.parametrize(("text", "expected"), [
    ("cut 12", ("cut", 0, "12", 4)),
    ("  Cut   12  ", ("cut", 2, "12", 8)),
    ("PASS", ("pass", 0, "", 4)),
    ("\tplay  AS KS \n", ("play", 1, "AS KS", 7)),
])
def test_split_verb(text: str, expected: tuple[str, int, str, int]) -> None:
    assert split_verb(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_split_verb_refuses_blank_text(text: str) -> None:
    err = failure(lambda: split_verb(text))
    assert (err.message, err.token, err.position) == ("expected an action", text, 0)


# Only the documented blanks (readers.BLANKS) separate the words of an
# action; other white space stays part of its token, which is then refused.
OTHER_SPACES = ["\u00a0", "\u3000", "\u2003", "\u2028", "\x0b", "\x0c", "\x85"]


@pytest.mark.parametrize("space", OTHER_SPACES)
def test_split_verb_separates_words_by_ascii_blanks_only(space: str) -> None:
    assert split_verb(f"cut{space}12") == (f"cut{space}12", 0, "", len(f"cut{space}12"))
    assert split_verb(f"{space}cut 12")[0] == f"{space}cut"
    assert split_verb(f"cut 12{space}")[2] == f"12{space}"


@pytest.mark.parametrize("space", OTHER_SPACES)
@pytest.mark.parametrize(("game", "text"), [
    ("down_and_back", "cut{}12"), ("down_and_back", "{}draw stock"),
    ("down_and_back", "draw{}stock"), ("down_and_back", "discard KS{}"),
    ("down_and_back", "dealer{}1"), ("back_alley", "bid{}3"), ("back_alley", "pass{}"),
    ("back_alley", "{}board"), ("back_alley", "play{}KS"), ("back_alley", "play BB{}"),
])
def test_parse_action_refuses_other_white_space_in_both_games(space: str, game: str,
                                                              text: str) -> None:
    from cardrules.engine import rules_for
    rules = rules_for(game)
    rules.parse_action(text.format(" "))                # the ASCII space is fine
    with pytest.raises(ParseError) as info:
        rules.parse_action(text.format(space))
    assert space in (info.value.token or "")


@pytest.mark.parametrize("value", [None, 5, b"cut 1", ["cut", 1]])
def test_split_verb_refuses_what_is_not_text(value: object) -> None:
    assert failure(lambda: split_verb(value)).message \
        == f"expected action text, not {type(value).__name__}"


def test_int_token_reads_ascii_digits_up_to_the_limit() -> None:
    assert int_token("0", 0) == 0
    assert int_token("9" * MAX_DIGITS, 0) == int("9" * MAX_DIGITS)
    err = failure(lambda: int_token("1" * (MAX_DIGITS + 1), 6))
    assert (err.message, err.position) == (f"number too long ({MAX_DIGITS + 1} digits)", 6)
    for bad in ("", "-1", "+1", "1.0", "1_0", " 1", "\u0663", "\u00b2"):
        err = failure(lambda bad=bad: int_token(bad, 3))
        assert (err.message, err.position) == ("expected a whole number", 3)
    assert MAX_DIGITS == 18


def test_card_readers_add_their_offset_to_the_position() -> None:
    assert card_at("as", 5) == AS
    assert card_at("bb", 5, jokers=True) is Joker.BIG
    err = failure(lambda: card_at("AS KS", 5))
    assert (err.message, err.position) == ("expected exactly one card", 5)
    assert cards_at("AS  KS", 9) == (AS, KS)
    assert cards_at("AS BB", 9, jokers=True) == (AS, Joker.BIG)
    err = failure(lambda: cards_at("AS  KX", 9))
    assert (err.message, err.token, err.position) == ("not a card", "KX", 13)
    err = failure(lambda: cards_at("AS LB", 2))
    assert (err.message, err.token, err.position) == ("jokers are not allowed here", "LB", 5)


# ---------------------------------------------------------------------------
# encode


@attrs.frozen
class Seat:
    number: int
    hand: Hand[Card]
    total: int = attrs.field(init=False, default=0)


@attrs.frozen
class Table:
    seats: tuple[Seat, ...]
    colour: Colour
    top: Card | Joker | None
    notes: dict[str, object]


def test_to_json_of_a_nested_state() -> None:
    table = Table((Seat(0, Hand.parse("KS AS")), Seat(1, Hand())), Colour.ONE, Joker.LITTLE,
                  {"pile": [QH, Joker.BIG], "open": True, "count": None})
    assert to_json(table) == {
        "seats": [{"number": 0, "hand": ["AS", "KS"]}, {"number": 1, "hand": []}],
        "colour": 1, "top": "LB",
        "notes": {"pile": ["QH", "BB"], "open": True, "count": None}}


def test_to_json_of_plain_values_and_sequences() -> None:
    assert to_json([AS, KS]) == ["AS", "KS"]
    assert to_json((AS, Joker.BIG, 3)) == ["AS", "BB", 3]
    assert to_json([(AS,), []]) == [["AS"], []]
    assert to_json([]) == []
    assert to_json(DECK) == [str(card) for card in DECK]
    assert to_json(Rank.KING) == 13
    assert to_json(Suit.CLUBS) == 3
    assert to_json(Colour.RED) == "red"
    for value in (None, True, False, 0, -4, "text"):
        assert to_json(value) == value
        assert type(to_json(value)) is type(value)


@pytest.mark.parametrize("value", [1.5, {1, 2}, object(), b"x", [1, 2.5], {"a": {1}}])
def test_to_json_refuses_what_json_cannot_hold(value: object) -> None:
    with pytest.raises(TypeError, match="cannot encode"):
        to_json(value)


def test_to_json_refuses_mappings_with_keys_that_are_not_text() -> None:
    with pytest.raises(TypeError, match=r"\Acannot encode a mapping with a int key\Z"):
        to_json({"a": 1, 2: 3})


def test_to_json_quotes_a_long_value_short() -> None:
    with pytest.raises(TypeError) as caught:
        to_json(frozenset(range(1000)))
    assert str(caught.value).startswith("cannot encode frozenset as JSON: frozenset({0, 1, 2")
    assert str(caught.value).endswith("...")
    assert len(str(caught.value)) < 100


def test_attributes_to_json() -> None:
    seat = Seat(2, Hand.parse("QH"))
    assert attributes_to_json(seat) == {"number": 2, "hand": ["QH"]}
    assert attributes_to_json(seat, ["hand", "total"]) == {"hand": ["QH"], "total": 0}
    assert list(attributes_to_json(seat, ("total", "number"))) == ["total", "number"]
    with pytest.raises(TypeError, match=r"\Anot an attrs instance: tuple\Z"):
        attributes_to_json((1, 2))


# ---------------------------------------------------------------------------
# chance actions: construction and both forms


@pytest.mark.parametrize("seat", [-1, True, 1.0, "1", None])
def test_choose_dealer_takes_a_non_negative_whole_number(seat: Any) -> None:
    with pytest.raises(ValueError, match="a seat is a non-negative whole number"):
        ChooseDealer(seat)


def test_choose_dealer_accepts_seat_zero_and_up() -> None:
    assert ChooseDealer(0).seat == 0
    assert str(ChooseDealer(7)) == "dealer 7"


def test_shuffle_orders_distinct_cards() -> None:
    assert Shuffle([AS, Joker.BIG]).order == (AS, Joker.BIG)
    assert Shuffle(()).order == ()
    assert str(Shuffle((KS, AS))) == "shuffle KS AS"
    with pytest.raises(ValueError, match="a shuffle holds each card once"):
        Shuffle((AS, KS, AS))
    with pytest.raises(ValueError, match="a shuffle orders cards"):
        Shuffle((AS, "KS"))  # type: ignore[arg-type]


def test_shuffled_is_a_permutation_drawn_from_the_generator() -> None:
    pile = DECK[:10]
    order = shuffled(pile, random.Random(4))
    assert sorted(order, key=lambda card: card.index) == list(pile)
    assert order == shuffled(pile, random.Random(4))
    assert order != tuple(pile)
    assert shuffled((), random.Random(1)) == ()


def test_chance_to_dict() -> None:
    assert chance_to_dict(ChooseDealer(0)) == {"type": "dealer", "seat": 0}
    assert chance_to_dict(Shuffle((QH, Joker.LITTLE))) == {"type": "shuffle",
                                                           "order": ["QH", "LB"]}
    assert chance_to_dict(QH) is None


def test_chance_from_dict_reads_both_kinds_strictly() -> None:
    fields = Fields({"type": "shuffle", "order": ["KS", "BB"]}, "action")
    assert chance_from_dict(fields, fields.text("type"), jokers=True) == Shuffle((KS, Joker.BIG))
    fields = Fields({"type": "dealer", "seat": 0}, "action")
    assert chance_from_dict(fields, fields.text("type"), jokers=False) == ChooseDealer(0)
    fields = Fields({"type": "cut", "count": 3}, "action")
    assert chance_from_dict(fields, fields.text("type"), jokers=False) is None
    for data, message in [
            ({"type": "dealer", "seat": -1}, "action: 'seat' must be at least 0"),
            ({"type": "dealer", "seat": 1, "x": 0}, "action: unknown key"),
            ({"type": "shuffle", "order": ["KS"], "seat": 0}, "action: unknown key"),
            ({"type": "shuffle", "order": ["KS", "ks"]}, "action: a shuffle holds each card once"),
            ({"type": "shuffle", "order": ["BB"]}, "action: 'order'[0]: jokers are not allowed")]:
        fields = Fields(data, "action")
        err = failure(lambda fields=fields: chance_from_dict(fields, fields.text("type"),
                                                             jokers=False))
        assert err.message.startswith(message), (data, err.message)


def test_parse_chance_reads_both_kinds_with_positions() -> None:
    assert parse_chance("dealer", "3", 7, jokers=False) == ChooseDealer(3)
    assert parse_chance("shuffle", "KS bb", 8, jokers=True) == Shuffle((KS, Joker.BIG))
    assert parse_chance("shuffle", "", 8, jokers=False) == Shuffle(())
    assert parse_chance("cut", "3", 4, jokers=False) is None
    err = failure(lambda: parse_chance("dealer", "x", 7, jokers=False))
    assert (err.message, err.position) == ("expected a whole number", 7)
    err = failure(lambda: parse_chance("shuffle", "AS  KS,QH ks", 8, jokers=False))
    assert (err.message, err.token, err.position) == ("a shuffle holds each card once", "KS",
                                                      18)
    err = failure(lambda: parse_chance("shuffle", "ASKSAS", 8, jokers=False))
    assert (err.token, err.position) == ("AS", 12)
    err = failure(lambda: parse_chance("shuffle", "AS BB", 8, jokers=False))
    assert (err.message, err.position) == ("jokers are not allowed here", 11)


@pytest.mark.parametrize("action", [ChooseDealer(1), Shuffle((AS, KS))])
def test_chance_actions_are_frozen_and_slotted(action: ChooseDealer | Shuffle) -> None:
    assert not hasattr(action, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        action.seat = 2  # type: ignore[misc,union-attr]
    assert hash(action) == hash(type(action)(*attrs.astuple(action, recurse=False)))


def test_card_readers_place_errors_inside_the_piece_of_text() -> None:
    err = failure(lambda: card_at(" KX", 5))
    assert (err.message, err.token, err.position) == ("not a card", "KX", 6)
    err = failure(lambda: cards_at("AS KX", 9))
    assert (err.token, err.position) == ("KX", 12)
    # An error without a position of its own is placed at the piece's start.
    err = failure(lambda: card_at(None, 5))  # type: ignore[call-overload]
    assert (err.message, err.position) == ("expected a string of cards, not NoneType", 5)
    err = failure(lambda: cards_at(None, 7))  # type: ignore[call-overload]
    assert (err.message, err.position) == ("expected a string of cards, not NoneType", 7)


def test_card_getters_refuse_jokers_unless_asked() -> None:
    for getter in ("card", "opt_card"):
        err = failure(lambda getter=getter: getattr(Fields({"c": "BB"}, "x"), getter)("c"))
        assert err.message == "x: 'c': jokers are not allowed here"
    assert Fields({"c": "BB"}, "x").opt_card("c", jokers=True) is Joker.BIG
    assert Fields({"c": None}, "x").opt_card("c", jokers=True) is None


def test_text_card_readers_refuse_jokers_unless_asked() -> None:
    err = failure(lambda: card_at("BB", 4))
    assert (err.message, err.token, err.position) == ("jokers are not allowed here", "BB", 4)
    err = failure(lambda: cards_at("AS LB", 4))
    assert (err.message, err.token, err.position) == ("jokers are not allowed here", "LB", 7)


# -- the one limit on numbers, lengths first, short error tokens ------------------------

@pytest.mark.parametrize(("power", "offset", "digits"), [
    (0, -1, 1), (1, -1, 1), (1, 0, 2), (17, 0, 18), (18, -1, 18), (18, 0, 19), (4299, 0, 4300),
    (4300, 0, 4301), (9000, -1, 9000), (9000, 0, 9001)])
def test_digit_count_counts_without_writing_the_number(power: int, offset: int,
                                                       digits: int) -> None:
    value = 10 ** power + offset
    assert digit_count(value) == digits
    assert digit_count(-value) == digits


def test_every_reader_of_numbers_shares_one_limit() -> None:
    # text (int_token), JSON values (check_numbers) and the digit rule itself agree
    longest, too_long = 10 ** MAX_DIGITS - 1, 10 ** MAX_DIGITS
    check_digits(MAX_DIGITS)
    assert int_token(str(longest), 0) == longest
    check_numbers({"a": [longest, -longest, True, 1.5e300, "9" * 40]})
    for value in (too_long, -too_long):
        err = failure(lambda value=value: check_numbers([{"x": (1, value)}]))
        assert (err.message, err.token) == ("number too long (19 digits)", str(value))
    err = failure(lambda: int_token(str(too_long), 2))
    assert (err.message, err.token, err.position) == ("number too long (19 digits)",
                                                      str(too_long), 2)


def test_check_numbers_walks_deep_values_without_recursion() -> None:
    value: list[object] = [10 ** 30]
    for _ in range(100_000):
        value = [value]
    assert failure(lambda: check_numbers(value)).message == "number too long (31 digits)"


def test_lists_are_measured_before_their_entries_are_read() -> None:
    huge = [object()] * 10 ** 6   # entries that no reader could read
    err = failure(lambda: Fields({"l": huge}, "x").array("l", max_length=3))
    assert err.message == "x: 'l' must hold at most 3 entries, not 1000000"
    err = failure(lambda: Fields({"c": huge}, "x").cards("c", max_length=13))
    assert err.message == "x: 'c' must hold at most 13 entries, not 1000000"
    assert Fields({"c": ["AS"] * 3}, "x").cards("c", max_length=3) == (AS,) * 3
    check_length([], 0, "x")
    check_length([1] * 5, None, "x")


def test_safe_repr_stays_short_for_huge_values() -> None:
    assert safe_repr([[1]] * 10 ** 6) == "<list of 1000000 entries>"
    assert safe_repr({"a": [0] * 5000}) == "<dict of 1 entries>"
    assert safe_repr(10 ** 5000) == "<whole number of 5001 digits>"
    assert safe_repr([10 ** 5000]) == "<list too large to show>"
    assert safe_repr([1] * 1000) == repr([1] * 1000)


def _nested(levels: int) -> list[object]:
    value: list[object] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_safe_repr_writes_out_101_levels_and_names_102() -> None:
    # The limit is "more than 100 levels below the top": 101 lists in all are shown.
    assert safe_repr(_nested(101)) == "[" * 101 + "]" * 101
    assert safe_repr(_nested(102)) == "<list nested too deeply to show>"
    assert safe_repr((_nested(100),)) == "(" + "[" * 100 + "]" * 100 + ",)"
    assert safe_repr((_nested(101),)) == "<tuple nested too deeply to show>"
