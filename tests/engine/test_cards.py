"""Cards (``cardrules.cards``) and the parse errors that name bad input, under
hostile and careless input.  (Combos and the evaluators given text are tested
with the combinations, in ``tests/down_and_back/test_combos.py``.)

* Card text is read from the documented characters only: Python's
  ``str.upper()`` folds look-alikes (``ſ`` becomes ``S``), which must not
  turn into cards.
* ``Card(rank, suit)`` takes a Rank and a Suit or plain ints in range: bools,
  floats and text are refused, text with a hint at ``Card.parse``.
* Cards compare only with their own kind; ordering against itself is exact
  (``c < c`` is false, ``c <= c`` true).
* Error messages quote only a short prefix of a huge bad token.
"""

from __future__ import annotations

import operator
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from cardrules import DECK, Card, Joker, ParseError, Rank, Suit, parse_card, parse_cards
from cardrules.errors import TOKEN_LIMIT, quote, shorten
from support.ordering import EQUAL, GREATER, LESS, OPS, comparisons

# ---------------------------------------------------------------------------
# reading card text


@pytest.mark.parametrize("text", [
    "A\u017f",          # LATIN SMALL LETTER LONG S: "ſ".upper() == "S"
    "K\u017f QH",
    "\u017fA",
    "A\u00df",          # "ß".upper() == "SS"
    "A\ufb06",          # the "st" ligature: upper() gives "ST"
    "\u0131S",          # dotless i
    "A\uff33",          # FULLWIDTH LATIN CAPITAL LETTER S
    "\uff21S",          # FULLWIDTH LATIN CAPITAL LETTER A
    "\u212aS",          # KELVIN SIGN, lower() == "k"
    "1\u0660S",         # ARABIC-INDIC DIGIT ZERO after a 1
])
def test_look_alike_characters_are_not_cards(text: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_cards(text)
    assert info.value.message == "not a card"


@given(st.characters(min_codepoint=128).filter(lambda ch: ch not in "♠♥♦♣♤♡♢♧"))
@example("\u017f")
def test_no_other_non_ascii_character_is_a_suit(ch: str) -> None:
    with pytest.raises(ParseError):
        parse_cards("A" + ch)


@given(st.characters(min_codepoint=128))
def test_no_non_ascii_character_is_a_rank(ch: str) -> None:
    with pytest.raises(ParseError):
        parse_cards(ch + "S")


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_reads_in_either_case_and_with_symbols(card: Card) -> None:
    rank, suit = card.rank.char, card.suit.char
    spellings = {rank + suit, rank.lower() + suit.lower(), rank + suit.lower(),
                 rank.lower() + suit, rank + card.suit.symbol,
                 rank.lower() + "♤♡♢♧"[card.suit]}
    if card.rank is Rank.TEN:
        spellings |= {"10" + suit, "10" + suit.lower(), "10" + card.suit.symbol}
    for text in spellings:
        assert parse_card(text) is card, text


@pytest.mark.parametrize(("text", "joker"), [
    ("BB", Joker.BIG), ("bb", Joker.BIG), ("Bb", Joker.BIG), ("bB", Joker.BIG),
    ("LB", Joker.LITTLE), ("lb", Joker.LITTLE), ("Lb", Joker.LITTLE), ("lB", Joker.LITTLE),
])
def test_jokers_read_in_either_case(text: str, joker: Joker) -> None:
    assert parse_card(text, jokers=True) is joker
    with pytest.raises(ParseError, match="jokers are not allowed"):
        parse_card(text)

def test_jokers_and_tens_run_together_with_other_cards() -> None:
    assert parse_cards("BBLBAS", jokers=True) == (Joker.BIG, Joker.LITTLE, parse_card("AS"))
    assert parse_cards("10HBB9C", jokers=True) == (parse_card("TH"), Joker.BIG, parse_card("9C"))
    with pytest.raises(ParseError) as info:
        parse_cards("ASBBKS")
    assert (info.value.token, info.value.position) == ("BB", 2)


@pytest.mark.parametrize(("text", "token"), [
    ("KS QH", "KS QH"),
    ("", ""),
    ("   ", "   "),
    (", ;", ", ;"),
])
def test_parse_card_wants_exactly_one_card(text: str, token: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_card(text)
    assert info.value.message == "expected exactly one card"
    assert info.value.token == token
    assert info.value.position == 0


def test_parse_card_reports_the_bad_token_and_its_position() -> None:
    with pytest.raises(ParseError) as info:
        parse_cards("KS, QH  1X 2C")
    assert (info.value.token, info.value.position) == ("1X", 8)


@pytest.mark.parametrize("value", [None, 5, b"KS", ["KS"]])
def test_card_text_must_be_a_string(value: Any) -> None:
    with pytest.raises(ParseError, match="expected a string of cards"):
        parse_cards(value)


# ---------------------------------------------------------------------------
# huge bad input gives a short error


def test_a_huge_bad_token_is_quoted_short() -> None:
    size = 5_000_000
    with pytest.raises(ParseError) as info:
        parse_cards("AS " + "Z" * size)
    err = info.value
    assert err.position == 3
    assert err.token_length == size
    assert err.token == "Z" * TOKEN_LIMIT + "..."
    assert len(str(err)) < 200
    assert f"({size} characters)" in str(err)


def test_a_huge_card_list_given_to_parse_card_is_quoted_short() -> None:
    text = "AS " * 1_000_000
    with pytest.raises(ParseError) as info:
        parse_card(text)
    assert len(str(info.value)) < 200
    assert info.value.token_length == len(text)


def test_parse_error_keeps_the_length_when_seen_from_a_larger_input() -> None:
    err = ParseError("not a card", token="Q" * 100, position=2)
    outer = err.within("line 9: ", 10)
    assert outer.message == "line 9: not a card"
    assert outer.position == 12
    assert outer.token == err.token
    assert outer.token_length == 100
    assert "(100 characters)" in str(outer)
    assert err.within().position == 2
    assert ParseError("bad", token="x").within("a: ", 5).position is None


def test_short_tokens_and_messages_are_quoted_whole() -> None:
    token = "x" * TOKEN_LIMIT
    err = ParseError("bad", token=token, position=None)
    assert err.token == token
    assert str(err) == f"bad: {token!r}"
    assert shorten("abc", 3) == "abc"
    assert shorten("abcd", 3) == "abc..."
    assert quote("x" * (TOKEN_LIMIT + 1)).endswith(f"({TOKEN_LIMIT + 1} characters)")


def test_a_huge_message_is_cut() -> None:
    err = ParseError("m" * 1_000_000)
    assert len(str(err)) < 400
    assert err.message.endswith("...")


def test_messages_are_kept_whole_up_to_300_characters() -> None:
    assert ParseError("m" * 300).message == "m" * 300
    assert ParseError("m" * 301).message == "m" * 300 + "..."
    assert str(ParseError("m" * 301, token="x")) == "m" * 300 + "...: 'x'"


# ---------------------------------------------------------------------------
# constructing cards


@pytest.mark.parametrize(("rank", "suit"), [
    (True, False), (True, 0), (1, False), (1.0, 0.0), (Rank.ACE, 0.0), (1.0, Suit.SPADES),
    (14, 0), (0, 0), (1, 4), (1, -1), (None, 0), (1, None),
])
def test_card_refuses_anything_but_ranks_suits_and_plain_ints(rank: Any, suit: Any) -> None:
    with pytest.raises(ValueError, match=r"card (rank|suit) must be a whole number"):
        Card(rank, suit)


def test_card_from_text_hints_at_parse() -> None:
    with pytest.raises(TypeError, match=r"Card\.parse\('QD'\)"):
        Card("Q", "D")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Card\.parse"):
        Card("Q", 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Card\.parse"):
        Card(12, "D")  # type: ignore[arg-type]


def test_card_accepts_enums_and_plain_ints() -> None:
    card = Card(12, 2)
    assert card == Card(Rank.QUEEN, Suit.DIAMONDS)
    assert (card.rank, card.suit) == (Rank.QUEEN, Suit.DIAMONDS)
    assert type(card.rank) is Rank
    assert type(card.suit) is Suit
    assert (str(card), card.index) == ("QD", 46)


@pytest.mark.parametrize("index", [True, False, 1.0, -1, 52, "3", None])
def test_from_index_refuses_non_indices(index: Any) -> None:
    with pytest.raises(ValueError, match="card index"):
        Card.from_index(index)


# ---------------------------------------------------------------------------
# comparing cards


def test_card_order_against_itself_and_neighbours() -> None:
    low, high = parse_card("KS"), parse_card("KH")
    assert comparisons(low, low) == EQUAL
    assert comparisons(low, Card(Rank.KING, Suit.SPADES)) == EQUAL
    assert comparisons(low, high) == LESS
    assert comparisons(high, low) == GREATER


@pytest.mark.parametrize("other", [0, 5, "AS", None, 0.0])
def test_cards_are_not_numbers(other: object) -> None:
    card = parse_card("AS")
    assert card.index == 0
    assert operator.eq(card, other) is False
    assert operator.ne(card, other) is True
    for name in ("<", "<=", ">", ">="):
        with pytest.raises(TypeError):
            OPS[name](card, other)


# ---------------------------------------------------------------------------
# parse errors without a token, and a rank at the end without a suit


def test_parse_error_without_a_token_quotes_nothing() -> None:
    err = ParseError("bad input")
    assert (err.token, err.token_length, err.position) == (None, None, None)
    assert str(err) == "bad input"
    assert str(ParseError("bad input", position=4)) == "bad input at position 4"


def test_parse_error_quotes_a_token_that_is_not_text_by_its_repr() -> None:
    err = ParseError("bad", token=[5])  # type: ignore[arg-type]
    assert (err.token, err.token_length) == ("[5]", 3)
    assert str(err) == "bad: '[5]'"


@pytest.mark.parametrize(("text", "token", "position"), [
    ("AS K", "K", 3), ("K", "K", 0), ("AS 1", "1", 3), ("10", "10", 0)])
def test_a_rank_without_a_suit_at_the_end_is_not_a_card(text: str, token: str,
                                                        position: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_cards(text)
    assert (info.value.message, info.value.token, info.value.position) \
        == ("not a card", token, position)
