"""Saving and loading Down and Back states: loading trusts nothing.

* Every state of random games survives ``state_to_dict`` -> JSON ->
  ``state_from_dict`` unchanged, and views are written with every field.
* Unknown or missing keys at every level, wrong types (bools are not
  numbers), seats out of range, huge numbers, wrong card counts and repeated
  cards are ParseErrors naming where they are.
* History must be one the rules make: round results are checked against
  their splits (DB-41), their tie-break draws (DB-42: the tied seats, in seat
  order from the dealer's left, pass after pass) and the pot (DB-43); a
  showdown paused for a reshuffle (DB-36) must match its splits and draws.
* Random tampering either is refused with a ParseError or gives a state the
  game can be played on from without any crash.
"""

from __future__ import annotations

import copy
import enum
import functools
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import DECK, Card, Hand, Joker, ParseError, parse_card, parse_cards
from cardrules.down_and_back import (
    Action,
    ChooseDealer,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Phase,
    RoundResult,
    Shuffle,
    Split,
    View,
    apply,
    legal_actions,
    new_game,
    sample_chance,
    state_from_dict,
    state_to_dict,
    view,
    view_to_dict,
)
from cardrules.down_and_back._accel import strength3, strength4
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.serialize import FORMAT, STATE_KEYS, VIEW_FORMAT
from cardrules.engine.json_out import attributes_to_json, to_json
from support.db_deals import (
    hand_of,
    idle_until_split,
    showdown_round,
    start,
)
from support.gamecheck import SpyOnEntries

# ---------------------------------------------------------------------------
# states to load


def playout(num_players: int, seed: int, rounds: int = 2) -> list[GameState]:
    """Every state of a random game."""
    rng = random.Random(seed)
    state = new_game(num_players, ante=1 + seed % 3, rounds=rounds)
    states = [state]
    while not state.is_terminal:
        action = sample_chance(state, rng) if state.is_chance else rng.choice(
            legal_actions(state))
        state = apply(state, action)
        states.append(state)
    return states


def dump(state: GameState) -> dict[str, Any]:
    """The JSON form of ``state`` as a file would give it back."""
    data: dict[str, Any] = json.loads(json.dumps(state_to_dict(state)))
    return data


# Dealer 0 at three seats (draw order 1, 2, 0): seats 1 and 2 tie for the down,
# seats 1 and 0 for the back.  With draws KS 7C 8C JC: seat 1 wins the down, seat 0
# the back, the pot carries.
TIED_BOTH = {1: ("QS QH 9S 9H", "2S 3H 5D"), 2: ("QD QC 9D 9C", "AH 2D 4C"),
             0: ("4D 6S 8H TD", "2C 3S 5H")}


@functools.cache
def tied_result() -> GameState:
    """Round 2 of a 3-player game whose round 1 needed tie-breaks in both showdowns."""
    state = apply(new_game(3, rounds=2), ChooseDealer(0))
    state = showdown_round(state, TIED_BOTH, stock_top=parse_cards("KS 7C 8C JC"))
    result = state.results[0]
    assert [(d.stage.value, d.seat) for d in result.tiebreaks] == [
        ("down", 1), ("down", 2), ("back", 1), ("back", 0)]
    assert (result.down_winner, result.back_winner, result.pot_winner) == (1, 0, None)
    assert state.phase is Phase.SHUFFLE
    return state


# Five seats, dealer 0 (draw order 1, 2, 3, 4, 0).
# DOWN_TIE: seats 2 and 4 tie for the down; seat 4 has the best back.
DOWN_TIE = {2: ("QS QH 9S 9H", "2S 3H 5D"), 4: ("QD QC 9D 9C", "KS KH KD"),
            1: ("4D 6S 8H TD", "2C 3S 6H"), 3: ("4H 6D 8S TC", "2D 3C 7H"),
            0: ("4S 6C 8D TH", "2H 3D 7S")}
# BACK_TIE: seat 4 has the best down; seats 2 and 4 tie for the back (equal flushes).
BACK_TIE = {4: ("KS KH KD KC", "2H 4H 6H"), 2: ("QS QH 9S 9H", "2S 4S 6S"),
            1: ("4D 7S 8H TD", "3C 5D 9C"), 3: ("5H 6D 8S TC", "3D 5C 9D"),
            0: ("4C 6C 8D TH", "3H 5S JS")}


def paused(chosen: Mapping[int, tuple[str, str]], finale: str,
           rounds: int = 1) -> GameState:
    """The showdown of ``chosen`` with only ``finale`` left in the stock, so the
    stock runs out during the tie-break and the showdown waits for a reshuffle."""
    hands = {seat: hand_of(*split) for seat, split in chosen.items()}
    last = parse_cards(finale)
    used = {c for h in hands.values() for c in h} | set(last)
    rest = [c for c in DECK if c not in used]
    up, fillers = rest[0], rest[1:]
    state = start(5, 0, hands, up, (*fillers, *last), rounds=rounds)
    for _ in fillers:   # empty the stock down to the finale
        state = apply(state, DrawStock())
        assert state.drawn is not None
        state = apply(state, Discard(state.drawn))
    state = idle_until_split(state)
    assert state.stock == last
    for seat, (down, back) in chosen.items():
        state = apply(state, Split(parse_cards(down), parse_cards(back)), seat=seat)
    assert state.phase is Phase.RESHUFFLE
    assert state.showdown is not None
    return state


@functools.cache
def paused_mid_pass() -> GameState:
    """A tied pass of fives, then seat 2 draws the last card: seat 4 is still to draw."""
    state = paused(DOWN_TIE, "5S 5H 8C")
    showdown = state.showdown
    assert showdown is not None
    assert showdown.down_winner is None
    assert showdown.contenders == (2, 4)
    assert [(d.seat, str(d.card)) for d in showdown.drawn] == [(2, "8C")]
    assert len(showdown.log) == 3
    return state


@functools.cache
def paused_after_pass() -> GameState:
    """Seat 4 draws the last card, ending a pass that is not yet decided."""
    state = paused(DOWN_TIE, "5S 8C")
    showdown = state.showdown
    assert showdown is not None
    assert showdown.contenders == (2, 4)
    assert [(d.seat, str(d.card)) for d in showdown.drawn] == [(2, "5S"), (4, "8C")]
    return state


@functools.cache
def paused_in_back() -> GameState:
    """The down went to seat 4 without a tie; seat 2 draws the last card for the back."""
    downs = [strength4(parse_cards(BACK_TIE[s][0])) for s in range(5)]
    backs = [strength3(parse_cards(BACK_TIE[s][1])) for s in range(5)]
    assert downs.index(max(downs)) == 4
    assert downs.count(max(downs)) == 1
    assert [s for s in range(5) if backs[s] == max(backs)] == [2, 4]
    state = paused(BACK_TIE, "7C")
    showdown = state.showdown
    assert showdown is not None
    assert showdown.down_winner == 4
    assert showdown.contenders == (2, 4)
    assert [(d.seat, d.stage.value) for d in showdown.log] == [(2, "back")]
    return state


@functools.cache
def paused_with_seat_0() -> GameState:
    """As :func:`paused_mid_pass` with seats 0 and 4 exchanged: seats 2 and 0 are tied."""
    relabelled = {({0: 4, 4: 0}.get(seat, seat)): split for seat, split in DOWN_TIE.items()}
    state = paused(relabelled, "5S 5H 8C")
    showdown = state.showdown
    assert showdown is not None
    assert showdown.contenders == (2, 0)
    return state


def special_states() -> list[GameState]:
    return [tied_result(), paused_mid_pass(), paused_after_pass(), paused_in_back(),
            paused_with_seat_0()]


def refused(data: Any, where: str = "") -> ParseError:
    """``state_from_dict(data)`` raises a ParseError whose message names ``where``."""
    with pytest.raises(ParseError) as info:
        state_from_dict(data)
    assert where in str(info.value), str(info.value)
    assert len(str(info.value)) < 400
    return info.value


# ---------------------------------------------------------------------------
# round trips


@given(num_players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_every_state_of_a_random_game_round_trips(num_players: int, seed: int) -> None:
    for state in playout(num_players, seed):
        data = dump(state)
        assert list(data) == ["format", *STATE_KEYS]
        loaded = state_from_dict(data)
        assert loaded == state
        assert state_to_dict(loaded) == data


@pytest.mark.parametrize("state", special_states(), ids=["tied", "mid", "after", "back", "seat0"])
def test_tie_breaks_and_paused_showdowns_round_trip(state: GameState) -> None:
    assert state_from_dict(dump(state)) == state


@pytest.mark.parametrize("make", [paused_mid_pass, paused_after_pass, paused_in_back,
                                  paused_with_seat_0])
def test_a_loaded_paused_showdown_plays_on(make: Any) -> None:
    state = make()
    loaded = state_from_dict(dump(state))
    order = (loaded.discard[0], *reversed(loaded.discard[1:]))
    finished = apply(loaded, Shuffle(order))
    assert finished == apply(state, Shuffle(order))
    assert finished.is_terminal
    assert state_from_dict(dump(finished)) == finished


def test_the_saved_form_is_flat_and_stable() -> None:
    state = tied_result()
    data = dump(state)
    assert data["format"] == FORMAT == "cardrules/down_and_back/state/1"
    assert (data["num_players"], data["ante"], data["rounds"]) == (3, 1, 2)
    assert data["turns"] == [0, 0, 0]
    assert data["results"][0]["tiebreaks"][0] == {"stage": "down", "seat": 1, "card": "KS"}
    assert data["results"][0]["splits"][1] == {"down": ["9S", "9H", "QS", "QH"],
                                               "back": ["2S", "3H", "5D"]}
    assert set(data["results"][0]) == {"round", "dealer", "splits", "down_winner",
                                       "back_winner", "tiebreaks", "pot", "pot_winner"}
    showdown = dump(paused_mid_pass())["showdown"]
    assert showdown == {"down_winner": None, "contenders": [2, 4],
                        "drawn": [{"stage": "down", "seat": 2, "card": "8C"}],
                        "log": [{"stage": "down", "seat": 2, "card": "5S"},
                                {"stage": "down", "seat": 4, "card": "5H"},
                                {"stage": "down", "seat": 2, "card": "8C"}]}


def test_cards_in_a_saved_hand_may_come_in_any_order() -> None:
    state = paused_mid_pass()
    data = dump(state)
    data["hands"][0].reverse()
    data["results"] = []
    assert state_from_dict(data) == state


def test_loading_leaves_its_input_alone() -> None:
    data = dump(paused_mid_pass())
    before = copy.deepcopy(data)
    state_from_dict(data)
    assert data == before


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


@given(num_players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_views_are_written_field_by_field(num_players: int, seed: int) -> None:
    names = [field.name for field in attrs.fields(View)]
    for state in playout(num_players, seed, rounds=1)[::7]:
        for seat in range(num_players):
            seat_view = view(state, seat)
            data = view_to_dict(seat_view)
            assert list(data) == ["format", *names]
            assert data["format"] == VIEW_FORMAT
            assert json.loads(json.dumps(data)) == data
            assert data["hand"] == [str(c) for c in seat_view.hand]
            assert data["phase"] == seat_view.phase.value
            dealt = state.phase in (Phase.DRAW, Phase.DISCARD, Phase.SPLIT)
            if dealt and not state.results and any(s is None for s in state.splits):
                hidden = {str(c) for other, hand in enumerate(state.hands) if other != seat
                          for c in hand if c not in state.seen[other]}
                hidden |= {str(c) for c in state.stock}
                assert hidden.isdisjoint(_strings(data))


# ---------------------------------------------------------------------------
# the generic encoder (cardrules.engine.json_out)


class _Colour(enum.Enum):
    RED = "red"


@attrs.frozen
class _Inner:
    colour: _Colour
    cards: Hand[Card]


@attrs.frozen
class _Outer:
    inner: _Inner | None
    items: tuple[_Inner, ...]
    table: Mapping[str, int]
    joker: Joker
    derived: int = attrs.field(init=False, default=7)


def test_encoder_turns_values_into_plain_json() -> None:
    inner = _Inner(_Colour.RED, Hand.parse("KS 2H"))
    outer = _Outer(inner, (inner,), {"a": 1}, Joker.LITTLE)
    expected = {"colour": "red", "cards": ["2H", "KS"]}
    assert to_json(outer) == {"inner": expected, "items": [expected], "table": {"a": 1},
                              "joker": "LB"}
    assert attributes_to_json(outer, ["derived", "joker"]) == {"derived": 7, "joker": "LB"}
    assert to_json([parse_card("TD"), None, True, -3, "x"]) == ["TD", None, True, -3, "x"]


@pytest.mark.parametrize("value", [1.5, {1, 2}, {1: "a"}, object(), b"AS", (1, [2.0])])
def test_encoder_refuses_what_json_states_never_hold(value: object) -> None:
    with pytest.raises(TypeError):
        to_json(value)


def test_encoder_error_quotes_a_short_prefix() -> None:
    with pytest.raises(TypeError) as info:
        to_json(bytes(1_000_000))
    assert str(info.value).startswith("cannot encode bytes as JSON: b'\\x00")
    assert len(str(info.value)) < 100


def test_attributes_need_an_attrs_instance() -> None:
    with pytest.raises(TypeError):
        attributes_to_json({"a": 1})


# ---------------------------------------------------------------------------
# unknown and missing keys, at every level


def at(data: Any, path: Sequence[Any]) -> Any:
    for step in path:
        data = data[step]
    return data


OBJECT_PATHS: list[tuple[str, GameState, tuple[Any, ...], str]] = [
    ("top", paused_mid_pass(), (), "state"),
    ("results[]", tied_result(), ("results", 0), "state.results[0]"),
    ("results[].splits[]", tied_result(), ("results", 0, "splits", 2),
     "state.results[0].splits[2]"),
    ("results[].tiebreaks[]", tied_result(), ("results", 0, "tiebreaks", 3),
     "state.results[0].tiebreaks[3]"),
    ("splits[]", paused_mid_pass(), ("splits", 1), "state.splits[1]"),
    ("showdown", paused_mid_pass(), ("showdown",), "state.showdown"),
    ("showdown.drawn[]", paused_mid_pass(), ("showdown", "drawn", 0), "state.showdown.drawn[0]"),
    ("showdown.log[]", paused_mid_pass(), ("showdown", "log", 1), "state.showdown.log[1]"),
]


@pytest.mark.parametrize(("state", "path", "where"), [p[1:] for p in OBJECT_PATHS],
                         ids=[p[0] for p in OBJECT_PATHS])
def test_unknown_keys_are_refused_at_every_level(state: GameState, path: tuple[Any, ...],
                                                 where: str) -> None:
    data = dump(state)
    at(data, path)["note"] = "added"
    error = refused(data, f"{where}: unknown key")
    assert error.token == "note"


@pytest.mark.parametrize(("state", "path", "where"), [p[1:] for p in OBJECT_PATHS],
                         ids=[p[0] for p in OBJECT_PATHS])
def test_missing_keys_are_refused_at_every_level(state: GameState, path: tuple[Any, ...],
                                                 where: str) -> None:
    for key in list(at(dump(state), path)):
        data = dump(state)
        del at(data, path)[key]
        refused(data, f"{where}: missing {key!r}")


@pytest.mark.parametrize("state", special_states(), ids=["tied", "mid", "after", "back", "seat0"])
def test_objects_must_be_objects(state: GameState) -> None:
    for path, _ in _objects(dump(state), ()):
        replacements: tuple[Any, ...] = ([], "x", 3, None)
        for replacement in replacements:
            if replacement is None and path and path[0] in ("showdown", "splits"):
                continue   # null is a real value there
            data = dump(state)
            if not path:
                refused(replacement)
                continue
            at(data, path[:-1])[path[-1]] = replacement
            refused(data)


def _objects(data: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        yield path, data
        for key, value in data.items():
            yield from _objects(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _objects(value, (*path, index))


def _deep(depth: int = 100_000) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("path", [("round",), ("net", 0), ("stock",), ("discard", 0),
                                  ("hands", 0, 0), ("results",), ("showdown",),
                                  ("splits", 0), ("drawn",), ("format",), ("phase",)])
def test_deeply_nested_values_are_parse_errors(path: tuple[Any, ...]) -> None:
    data = dump(paused_mid_pass())
    at(data, path[:-1])[path[-1]] = _deep()
    refused(data)


def test_keys_must_be_text() -> None:
    data: dict[Any, Any] = dump(paused_mid_pass())
    data[5] = "five"
    refused(data, "keys must be text")


# ---------------------------------------------------------------------------
# wrong types, ranges and sizes


def test_format_is_checked() -> None:
    for tag in ("cardrules/down_and_back/state/2", "cardrules/back_alley/state/1", 1, None):
        data = dump(tied_result())
        data["format"] = tag
        refused(data, "unknown format")


BAD_VALUES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    # bools where whole numbers are expected
    ("players as a bool", ("num_players",), True, "state: 'num_players'"),
    ("ante as a bool", ("ante",), True, "state: 'ante'"),
    ("rounds as a bool", ("rounds",), True, "state: 'rounds'"),
    ("round as a bool", ("round",), True, "state: 'round'"),
    ("dealer as False", ("dealer",), False, "state: 'dealer'"),
    ("dealer as True", ("dealer",), True, "state: 'dealer'"),
    ("pot as a bool", ("pot",), True, "state: 'pot'"),
    ("net entry as a bool", ("net", 0), False, "state.net[0]"),
    ("turns entry as a bool", ("turns", 0), False, "state.turns[0]"),
    ("result dealer as False", ("results", 0, "dealer"), False, "state.results[0]: 'dealer'"),
    ("result round as True", ("results", 0, "round"), True, "state.results[0]: 'round'"),
    ("result winner as a bool", ("results", 0, "back_winner"), False,
     "state.results[0]: 'back_winner'"),
    ("result pot as a bool", ("results", 0, "pot"), True, "state.results[0]: 'pot'"),
    ("tie-break seat as a bool", ("results", 0, "tiebreaks", 0, "seat"), True,
     "state.results[0].tiebreaks[0]: 'seat'"),
    # floats and text
    ("dealer as a float", ("dealer",), 0.0, "state: 'dealer'"),
    ("round as text", ("round",), "2", "state: 'round'"),
    ("net as text", ("net",), "0 0 0", "state.net"),
    # out of range seats, huge numbers
    ("dealer out of range", ("dealer",), 3, "state: 'dealer'"),
    ("negative dealer", ("dealer",), -1, "state: 'dealer'"),
    ("huge dealer", ("dealer",), 10**30, "state: 'dealer'"),
    ("huge players", ("num_players",), 10**30, "state: 'num_players'"),
    ("huge round", ("round",), 10**30, "round"),
    ("negative pot", ("pot",), -3, "state: 'pot'"),
    ("huge turns", ("turns", 1), 10**30, "state.turns[1]"),
    ("negative turns", ("turns", 1), -1, "state.turns[1]"),
    ("round-1 dealer out of range", ("results", 0, "dealer"), 3,
     "state.results[0]: 'dealer'"),
    ("round-1 dealer huge", ("results", 0, "dealer"), 10**30, "state.results[0]: 'dealer'"),
    ("round-1 dealer negative", ("results", 0, "dealer"), -3, "state.results[0]: 'dealer'"),
    ("result winner out of range", ("results", 0, "down_winner"), 3,
     "state.results[0]: 'down_winner'"),
    ("back winner out of range", ("results", 0, "back_winner"), 3,
     "state.results[0]: 'back_winner' must be at most 2"),
    ("current player out of range", ("current_player",), 3,
     "state: 'current_player' must be at most 2"),
    ("current player as a bool", ("current_player",), True, "state: 'current_player'"),
    ("pot winner out of range", ("results", 0, "pot_winner"), 5,
     "state.results[0]: 'pot_winner'"),
    ("tie-break seat out of range", ("results", 0, "tiebreaks", 1, "seat"), 7,
     "state.results[0].tiebreaks[1]: 'seat'"),
    ("result round zero", ("results", 0, "round"), 0, "state.results[0]: 'round'"),
    # enums
    ("unknown phase", ("phase",), "dancing", "state: 'phase'"),
    ("phase in capitals", ("phase",), "SHUFFLE", "state: 'phase'"),
    ("bad tie-break stage", ("results", 0, "tiebreaks", 0, "stage"), "sideways",
     "state.results[0].tiebreaks[0]: 'stage'"),
    ("tie-break stage in capitals", ("results", 0, "tiebreaks", 0, "stage"), "DOWN",
     "state.results[0].tiebreaks[0]: 'stage'"),
    ("tie-break stage as a number", ("results", 0, "tiebreaks", 0, "stage"), 0,
     "state.results[0].tiebreaks[0]: 'stage'"),
    # cards
    ("card as a number", ("stock", 0), 5, "state.stock[0]"),
    ("two cards in one entry", ("stock", 0), "AS KS", "state.stock[0]"),
    ("empty card", ("stock", 0), "", "state.stock[0]"),
    ("joker", ("stock", 0), "BB", "state.stock[0]"),
    ("tie-break card unreadable", ("results", 0, "tiebreaks", 0, "card"), "KX",
     "state.results[0].tiebreaks[0]: 'card'"),
    ("result split as null", ("results", 0, "splits", 0), None, "state.results[0].splits[0]"),
    ("results as an object", ("results",), {}, "state.results"),
    ("drawn as a list", ("drawn",), ["KS"], "state: 'drawn'"),
]


@pytest.mark.parametrize(("path", "value", "where"), [b[1:] for b in BAD_VALUES],
                         ids=[b[0] for b in BAD_VALUES])
def test_bad_values_are_refused_naming_where(path: tuple[Any, ...], value: Any,
                                             where: str) -> None:
    data = dump(tied_result())
    at(data, path[:-1])[path[-1]] = value
    refused(data, where)


PAUSED_BAD_VALUES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("down winner as a bool", ("showdown", "down_winner"), False,
     "state.showdown: 'down_winner'"),
    ("down winner out of range", ("showdown", "down_winner"), 5,
     "state.showdown: 'down_winner'"),
    ("contender out of range", ("showdown", "contenders", 1), 5,
     "state.showdown.contenders[1]"),
    ("contender as a bool", ("showdown", "contenders", 0), True,
     "state.showdown.contenders[0]"),
    ("contenders as text", ("showdown", "contenders"), "2 4", "state.showdown.contenders"),
    ("drawn seat out of range", ("showdown", "drawn", 0, "seat"), 9,
     "state.showdown.drawn[0]: 'seat'"),
    ("log seat out of range", ("showdown", "log", 0, "seat"), -1,
     "state.showdown.log[0]: 'seat'"),
    ("log seat huge", ("showdown", "log", 2, "seat"), 10**40, "state.showdown.log[2]: 'seat'"),
    ("log stage unknown", ("showdown", "log", 0, "stage"), "side",
     "state.showdown.log[0]: 'stage'"),
    ("split too big", ("splits", 0, "down"), ["4S", "6C", "8D", "TH", "2H"],
     "state.splits[0].down must hold 4 cards"),
    ("split too small", ("splits", 0, "back"), ["2H", "3D"],
     "state.splits[0].back must hold 3 cards"),
    ("split card twice", ("splits", 0, "back"), ["2H", "2H", "3D"],
     "state.splits[0].back"),
    ("hand card twice", ("hands", 0), ["2H", "2H", "3D", "4S", "6C", "8D", "TH"],
     "state.hands[0]"),
    ("seen card twice", ("seen", 1), ["2C", "2C"], "state.seen[1]"),
    ("hands too few", ("hands",), [[], [], [], []], "state.hands must have one entry per seat"),
    ("splits too many", ("splits",), [None] * 6, "state.splits must have one entry per seat"),
]


@pytest.mark.parametrize(("path", "value", "where"), [b[1:] for b in PAUSED_BAD_VALUES],
                         ids=[b[0] for b in PAUSED_BAD_VALUES])
def test_bad_values_in_a_paused_showdown_are_refused(path: tuple[Any, ...], value: Any,
                                                     where: str) -> None:
    data = dump(paused_mid_pass())
    at(data, path[:-1])[path[-1]] = value
    refused(data, where)


def test_a_result_needs_one_split_per_seat() -> None:
    data = dump(tied_result())
    data["results"][0]["splits"].pop()
    refused(data, "state.results[0].splits must have one entry per seat")


def test_result_splits_of_the_wrong_size_are_refused() -> None:
    data = dump(tied_result())
    split = data["results"][0]["splits"][0]
    split["back"].append(split["down"].pop())
    refused(data, "state.results[0].splits[0].down must hold 4 cards")


def test_a_card_in_two_players_result_splits_is_refused() -> None:
    data = dump(tied_result())
    splits = data["results"][0]["splits"]
    splits[0]["back"][0] = splits[1]["back"][0]
    refused(data, "state.results[0].splits: a card is in two players' splits")


def test_duplicated_cards_on_the_table_are_refused() -> None:
    data = dump(paused_mid_pass())
    data["stock"] = [data["discard"][0]]
    refused(data, "every card exactly once")
    data = dump(paused_mid_pass())
    data["discard"].append(data["showdown"]["drawn"][0]["card"])
    refused(data, "every card exactly once")


def test_turns_must_go_clockwise() -> None:
    states = playout(3, 7, rounds=1)
    state = next(s for s in states if s.phase is Phase.DRAW and s.turn % 3 == 1)
    data = dump(state)
    first = data["turns"].index(1)
    data["turns"][first], data["turns"][(first + 1) % 3] = 0, 1   # same total, wrong seat
    refused(data, "state.turns: turns go clockwise")


# ---------------------------------------------------------------------------
# round results against their splits (DB-41 .. DB-43)


def test_wrong_back_winner_is_refused() -> None:
    data = dump(tied_result())
    data["results"][0]["back_winner"] = 2      # seat 2 does not hold a best back
    refused(data, "state.results[0].back_winner: the back showdown goes to seat 0")


def test_back_winner_that_lost_the_tie_break_is_refused() -> None:
    data = dump(tied_result())
    data["results"][0]["back_winner"] = 1      # tied for the best back, lost the draw
    refused(data, "state.results[0].back_winner")


def test_wrong_back_winner_without_a_tie_is_refused() -> None:
    state = playout(2, 3)[-1]
    result = state.results[0]
    if result.tiebreaks:
        pytest.skip("this game had a tie-break")
    data = dump(state)
    data["results"][0]["back_winner"] = 1 - result.back_winner
    data["results"][0]["pot_winner"] = (result.down_winner
                                        if result.down_winner == 1 - result.back_winner
                                        else None)
    refused(data, "state.results[0].back_winner")


def test_wrong_down_winner_is_refused() -> None:
    data = dump(tied_result())
    data["results"][0]["down_winner"] = 2      # tied, but lost the draw
    refused(data, "state.results[0].down_winner: the down showdown goes to seat 1")


def test_pot_paid_to_a_player_who_did_not_win_both_is_refused() -> None:
    data = dump(tied_result())
    data["results"][0]["pot_winner"] = 1
    refused(data, "state.results[0].pot_winner")


def test_round_numbers_and_dealers_of_results_are_checked() -> None:
    state = playout(3, 5, rounds=3)[-1]
    assert len(state.results) == 3
    data = dump(state)
    data["results"][1]["round"] = 3
    refused(data, "state.results[1].round must be 2")
    data = dump(state)
    data["results"][2]["dealer"] = data["results"][1]["dealer"]
    refused(data, "state.results[2].dealer: the deal passes to the left")


def test_a_round_1_dealer_that_disagrees_with_the_current_dealer_is_refused() -> None:
    state = tied_result()
    data = dump(state)
    data["results"][0]["dealer"] = 1
    refused(data)


def _tiebreaks(data: dict[str, Any]) -> list[dict[str, Any]]:
    draws: list[dict[str, Any]] = data["results"][0]["tiebreaks"]
    return draws


def test_tie_left_unbroken_is_refused() -> None:
    data = dump(tied_result())
    del _tiebreaks(data)[2:]                  # no draws for the tied back
    refused(data, "state.results[0].tiebreaks: seats [1, 0] tie for the back showdown")
    data = dump(tied_result())
    _tiebreaks(data).clear()
    refused(data, "seats [1, 2] tie for the down showdown")


def test_a_pass_cut_short_is_refused() -> None:
    data = dump(tied_result())
    del _tiebreaks(data)[3]
    refused(data, "state.results[0].tiebreaks")


def test_an_extra_draw_is_refused() -> None:
    data = dump(tied_result())
    _tiebreaks(data).append({"stage": "back", "seat": 0, "card": "TC"})
    refused(data, "state.results[0].tiebreaks[4]: both showdowns are decided")


def test_draws_out_of_seat_order_are_refused() -> None:
    data = dump(tied_result())
    draws = _tiebreaks(data)
    draws[0]["seat"], draws[1]["seat"] = draws[1]["seat"], draws[0]["seat"]
    refused(data, "state.results[0].tiebreaks[0]: seat 1 draws next for the down showdown")


def test_a_draw_by_a_seat_that_is_not_tied_is_refused() -> None:
    data = dump(tied_result())
    _tiebreaks(data)[1]["seat"] = 0
    refused(data, "state.results[0].tiebreaks[1]: seat 2 draws next")


@pytest.mark.parametrize(("index", "stage"), [(0, "back"), (2, "down"), (3, "down")])
def test_a_draw_for_the_wrong_stage_is_refused(index: int, stage: str) -> None:
    data = dump(tied_result())
    _tiebreaks(data)[index]["stage"] = stage
    refused(data, f"state.results[0].tiebreaks[{index}]")


def test_draws_that_decide_differently_are_refused() -> None:
    # Swapping the cards of the down pass hands that showdown to seat 2.
    data = dump(tied_result())
    draws = _tiebreaks(data)
    draws[0]["card"], draws[1]["card"] = draws[1]["card"], draws[0]["card"]
    refused(data, "state.results[0].down_winner: the down showdown goes to seat 2")


def test_a_tied_pass_must_be_drawn_again() -> None:
    # Equal ranks in a pass: both draw again (DB-42); stopping there is refused.
    data = dump(tied_result())
    _tiebreaks(data)[1]["card"] = "KD"         # seat 2 also draws a king
    refused(data, "state.results[0].tiebreaks[2]: seat 1 draws next for the down showdown")


def test_a_drawn_card_held_by_a_player_is_refused() -> None:
    data = dump(tied_result())
    _tiebreaks(data)[0]["card"] = data["results"][0]["splits"][0]["back"][0]
    refused(data, "is in a player's hand")


def test_the_same_card_twice_in_a_pass_is_refused() -> None:
    data = dump(tied_result())
    draws = _tiebreaks(data)
    draws[1]["card"] = draws[0]["card"]
    refused(data, "drawn twice in one pass")


def test_draws_without_a_tie_are_refused() -> None:
    states = playout(3, 21, rounds=2)
    state = next(s for s in states if s.results and not s.results[0].tiebreaks)
    data = dump(state)
    _tiebreaks(data).append({"stage": "down", "seat": 0, "card": "AS"})
    refused(data, "state.results[0].tiebreaks[0]: both showdowns are decided")


# ---------------------------------------------------------------------------
# a showdown paused for a reshuffle (DB-36 during DB-42)


def _showdown(data: dict[str, Any]) -> dict[str, Any]:
    showdown: dict[str, Any] = data["showdown"]
    return showdown


SHOWDOWN_TAMPERS: dict[str, tuple[str, Any]] = {
    # name: (where the error points, tamper)
    "contender added": ("state.showdown.contenders", lambda s: s["contenders"].append(1)),
    "contender dropped": ("state.showdown.contenders", lambda s: s["contenders"].pop()),
    "contenders swapped": ("state.showdown.contenders", lambda s: s["contenders"].reverse()),
    "contender replaced": ("state.showdown.contenders",
                           lambda s: s["contenders"].__setitem__(1, 0)),
    "no contenders": ("state.showdown.contenders", lambda s: s["contenders"].clear()),
    "down winner made up": ("state.showdown.down_winner must be None",
                            lambda s: s.__setitem__("down_winner", 4)),
    "drawn by another seat": ("state.showdown.drawn",
                              lambda s: s["drawn"][0].__setitem__("seat", 4)),
    "drawn card changed": ("state.showdown.drawn",
                           lambda s: s["drawn"][0].__setitem__("card", "5S")),
    "drawn emptied": ("state.showdown.drawn", lambda s: s["drawn"].clear()),
    "drawn too long": ("state.showdown.drawn",
                       lambda s: s["drawn"].insert(0, dict(s["log"][1]))),
    "log seat swapped": ("state.showdown.log[0]: seat 2 draws next",
                         lambda s: s["log"][0].__setitem__("seat", 4)),
    "log stage wrong": ("state.showdown.log[2]",
                        lambda s: s["log"][2].__setitem__("stage", "back")),
    "log emptied": ("state.showdown.log", lambda s: s["log"].clear()),
    "log missing the first pass": ("state.showdown.log[0]", lambda s: s["log"].pop(0)),
    "log with a draw by seat 1": ("state.showdown.log[0]",
                                  lambda s: s["log"].insert(0, {"stage": "down", "seat": 1,
                                                                "card": "AC"})),
    "first pass decided instead of tied": ("state.showdown",
                                           lambda s: s["log"][1].__setitem__("card", "KC")),
}


@pytest.mark.parametrize("name", sorted(SHOWDOWN_TAMPERS))
def test_tampered_paused_showdown_is_refused(name: str) -> None:
    where, tamper = SHOWDOWN_TAMPERS[name]
    data = dump(paused_mid_pass())
    tamper(_showdown(data))
    refused(data, where)


def test_paused_showdown_in_the_back_stage_is_checked() -> None:
    good = dump(paused_in_back())
    data = copy.deepcopy(good)
    _showdown(data)["down_winner"] = None
    refused(data, "state.showdown.down_winner must be 4")
    data = copy.deepcopy(good)
    _showdown(data)["down_winner"] = 2
    refused(data, "state.showdown.down_winner must be 4")
    data = copy.deepcopy(good)
    for draw in (*_showdown(data)["log"], *_showdown(data)["drawn"]):
        draw["stage"] = "down"
    refused(data, "state.showdown.log[0]")


def test_a_showdown_that_broke_every_tie_is_not_paused() -> None:
    data = dump(paused_after_pass())
    showdown = _showdown(data)
    # Pretend seat 2's card beat seat 4's: the pass is decided, nothing is waiting.
    showdown["log"][0]["card"] = showdown["drawn"][0]["card"] = "KC"
    refused(data)


def test_a_showdown_with_no_tie_to_break_is_refused() -> None:
    # Seat 2 gets JS for 6S from seat 0: its back flush J-4-2 beats seat 4's 6-4-2, so
    # neither showdown is tied, and no tie-break can be waiting for the reshuffle.
    data = dump(paused_in_back())
    for seat, old, new in ((2, "6S", "JS"), (0, "JS", "6S")):
        for pile in (data["hands"][seat], data["splits"][seat]["back"]):
            pile[pile.index(old)] = new
    showdown = _showdown(data)
    data["discard"].append(showdown["drawn"][0]["card"])
    showdown.update(contenders=[], drawn=[], log=[])
    refused(data, "state.showdown.log: the showdown pauses only when the stock runs out")


def test_a_showdown_outside_a_reshuffle_is_refused() -> None:
    states = playout(3, 4, rounds=1)
    state = next(s for s in states if s.phase is Phase.SPLIT)
    data = dump(state)
    data["showdown"] = {"down_winner": None, "contenders": [], "drawn": [], "log": []}
    refused(data, "state.showdown: a showdown is kept only while it waits for a reshuffle")


def test_a_showdown_before_every_split_is_refused() -> None:
    data = dump(paused_mid_pass())
    data["splits"][0] = None
    refused(data, "state.showdown: the showdown starts once every player has split")


# ---------------------------------------------------------------------------
# random tampering: refused cleanly, or a state that plays on


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from([10**20, -(10**20)])
    | st.sampled_from(["AS", "KD", "TC", "2H", "down", "back", "draw", "split", "", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["down", "back", "seat", "card", "stage", "x"]), inner, max_size=3),
    max_leaves=6)


def _paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*path, index))


@functools.cache
def fuzz_pool() -> tuple[GameState, ...]:
    pool: list[GameState] = list(special_states())
    for n, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        states = playout(n, seed, rounds=2)
        pool += states[:: max(1, len(states) // 12)]
    return tuple(pool)


def _mutate(data: Any, draw: Any) -> None:
    paths = [p for p in _paths(data) if p]
    path = draw(st.sampled_from(paths))
    parent, key = at(data, path[:-1]), path[-1]
    kind = draw(st.sampled_from(["replace", "delete", "swap", "duplicate", "shift"]))
    target = parent[key]
    if kind == "replace":
        parent[key] = draw(JSON_VALUES)
    elif kind == "delete":
        del parent[key]
    elif kind == "swap" and isinstance(parent, list) and len(parent) > 1:
        other = draw(st.integers(0, len(parent) - 1))
        parent[key], parent[other] = parent[other], parent[key]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(target))
    elif is_int(target):
        parent[key] = target + draw(st.sampled_from([-1, 1]))
    else:
        parent[key] = draw(JSON_VALUES)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def play_on(state: GameState, seed: int, steps: int = 400) -> None:
    """Random play from ``state``: nothing may go wrong but the end of the game."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            return
        action: Action = (sample_chance(state, rng) if state.is_chance
                          else rng.choice(legal_actions(state)))
        state = apply(state, action)
        for seat in range(state.num_players):
            view(state, seat)


@given(st.data())
def test_random_tampering_is_refused_or_plays_on(data: st.DataObject) -> None:
    pool = fuzz_pool()
    state = pool[data.draw(st.integers(0, len(pool) - 1))]
    tampered = dump(state)
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(tampered, data.draw)
    try:
        loaded = state_from_dict(tampered)
    except ParseError as err:
        message = str(err)
        assert len(message) < 400
        return
    check_invariants(loaded)
    assert state_from_dict(dump(loaded)) == loaded
    play_on(loaded, data.draw(st.integers(0, 2**16)))


@pytest.mark.parametrize("index", range(len(special_states())))
def test_every_single_value_changed_in_a_special_state(index: int) -> None:
    # Each leaf nudged (numbers +-1, cards to another card, text to other text):
    # refused with a ParseError, or a state the game plays on from.
    state = special_states()[index]
    base = dump(state)
    for path in _paths(base):
        if not path:
            continue
        value = at(base, path)
        if isinstance(value, dict | list) or value is None:
            continue
        for replacement in _nudges(value):
            data = dump(state)
            at(data, path[:-1])[path[-1]] = replacement
            try:
                loaded = state_from_dict(data)
            except ParseError:
                continue
            play_on(loaded, 1, steps=60)


def _nudges(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, int(value)]
    if isinstance(value, int):
        return [value - 1, value + 1, float(value)]
    if isinstance(value, str):
        try:
            card = parse_card(value)
        except ParseError:
            return [value.upper(), value + "x"]
        return [str(DECK[(card.index + 1) % 52]), str(DECK[(card.index + 13) % 52])]
    return []


# ---------------------------------------------------------------------------
# check_invariants on states made past the constructors' own checks (found by
# the sampled mutation run): each names what is wrong


def unchecked_settings(num_players: Any, ante: Any, rounds: Any) -> Any:
    from cardrules.down_and_back import Settings
    with attrs.validators.disabled():
        return Settings(num_players, ante, rounds)


def test_db30_invariants_refuse_a_table_size_outside_two_to_five() -> None:
    bad = attrs.evolve(new_game(4), settings=unchecked_settings(6, 1, 10))
    with pytest.raises(ValueError, match="2 to 5 players"):
        check_invariants(bad)


@pytest.mark.parametrize(("ante", "rounds"), [(0, 10), (-2, 10), (True, 10), (1.0, 10),
                                              (1, 0), (1, True), (1, 2.0)])
def test_db30_db44_invariants_refuse_bad_antes_and_round_counts(ante: Any, rounds: Any) -> None:
    bad = attrs.evolve(new_game(2), settings=unchecked_settings(2, ante, rounds))
    with pytest.raises(ValueError, match="bad settings"):
        check_invariants(bad)


def test_db35_invariants_refuse_a_turn_after_everyone_has_had_six() -> None:
    state = idle_until_split(start(3, 0, {}))
    check_invariants(state)
    # Seat 1 is asked to split first and would also be next in turn order.
    bad = attrs.evolve(state, phase=Phase.DRAW)
    with pytest.raises(ValueError, match="turns remain"):
        check_invariants(bad)


def test_db40_invariants_refuse_a_split_that_is_not_the_seat_own_seven_cards() -> None:
    state = idle_until_split(start(3, 0, {}))
    own = state.hands[1]
    state = apply(state, Split(own[:4], own[4:]), seat=1)
    check_invariants(state)
    other = state.hands[0]
    for split in (Split(other[:4], other[4:]),        # right sizes, someone else's cards
                  Split(own[:5], own[5:])):            # own cards, five and two
        bad = attrs.evolve(state, splits=(None, split, None))
        with pytest.raises(ValueError, match="a split uses the player's seven cards"):
            check_invariants(bad)


def test_db40_probes_at_a_split_include_a_right_sized_split_with_a_card_not_held() -> None:
    from cardrules import IllegalActionError
    from cardrules.down_and_back.checks import probe_actions
    state = idle_until_split(start(3, 0, {}))
    hand = set(state.hands[state.current_player])   # type: ignore[index]
    odd = [a for a in probe_actions(state) if isinstance(a, Split)
           and (len(a.down), len(a.back)) == (4, 3) and not {*a.down, *a.back} <= hand]
    assert odd
    for split in odd:
        with pytest.raises(IllegalActionError, match="DB-40"):
            apply(state, split)


def test_db33_invariants_refuse_hands_that_are_not_hands_in_canonical_order() -> None:
    state = start(3, 0, {})
    check_invariants(state)
    hand = state.hands[1]
    backwards = Hand.of_sorted(tuple(reversed(hand)))     # trusted: kept as given
    bad: Any
    for bad in (tuple(hand), backwards):
        hands = (state.hands[0], bad, state.hands[2])
        with pytest.raises(ValueError, match="Hand objects of distinct cards in canonical"):
            check_invariants(attrs.evolve(state, hands=hands))


def test_db31_a_wrong_result_dealer_is_refused_naming_the_round_and_its_dealer() -> None:
    state = playout(3, 5, rounds=3)[-1]
    data = dump(state)
    right = data["results"][2]["dealer"]
    wrong = (right + 1) % 3
    data["results"][2]["dealer"] = wrong
    refused(data, f"state.results[2].dealer: the deal passes to the left each round (DB-31), "
                  f"so round 3 is dealt by seat {right}, not seat {wrong}")


@pytest.mark.parametrize("phase", [Phase.DRAW, Phase.SPLIT])
def test_db33_db34_a_draw_or_a_split_with_an_empty_discard_pile_is_refused(phase: Phase) -> None:
    # The deal turns a card up (DB-33) and every turn ends with a discard
    # (DB-34): the pile is empty only between taking its top card and discarding.
    state = start(3, 0, {})
    if phase is Phase.SPLIT:
        state = idle_until_split(state)
    assert state.phase is phase
    data = dump(state)
    data["stock"] += data["discard"]
    data["discard"] = []
    refused(data, "a card lies face up on the discard pile")


def test_db34_after_taking_the_only_discard_the_pile_may_be_empty() -> None:
    state = apply(start(3, 0, {}), DrawDiscard())
    assert state.discard == ()
    assert state_from_dict(dump(state)) == state


def test_db31_invariants_refuse_a_dealer_that_is_not_a_seat() -> None:
    state = start(3, 0, {})
    bad = attrs.evolve(state, history=attrs.evolve(state.history, dealer=3))
    with pytest.raises(ValueError, match="dealer seat"):
        check_invariants(bad)


def test_db40_invariants_refuse_the_wrong_seat_asked_to_split() -> None:
    state = idle_until_split(start(3, 0, {}))
    assert state.current_player == 1       # left of the dealer is asked first
    for seat in (0, 2):
        with pytest.raises(ValueError, match="who splits next"):
            check_invariants(attrs.evolve(state, current_player=seat))


def test_db32_probes_at_the_cut_include_a_cut_too_small_and_one_too_large() -> None:
    from cardrules import IllegalActionError
    from cardrules.down_and_back import Cut
    from cardrules.down_and_back.checks import probe_actions
    state = apply(apply(new_game(3), ChooseDealer(0)), Shuffle(DECK))
    probes = list(probe_actions(state))
    assert Cut(0) in probes
    assert Cut(52) in probes
    for bad in (Cut(0), Cut(52)):
        with pytest.raises(IllegalActionError, match="DB-32"):
            apply(state, bad)


@pytest.mark.parametrize("winner", ["someone", "nobody"])
def test_db43_a_wrong_pot_winner_is_refused_saying_who_won_both(winner: str) -> None:
    state = next(final for final in (playout(3, seed, rounds=1)[-1] for seed in range(40))
                 if (final.results[0].pot_winner is not None) == (winner == "someone"))
    result = state.results[0]
    data = dump(state)
    if winner == "someone":
        data["results"][0]["pot_winner"] = None
        refused(data, f"state.results[0].pot_winner: seat {result.pot_winner} won both "
                      f"showdowns (DB-43), not None")
    else:
        data["results"][0]["pot_winner"] = result.down_winner
        refused(data, f"state.results[0].pot_winner: nobody won both showdowns, so the pot "
                      f"carries (DB-43), not {result.down_winner}")


def test_db40_probes_at_a_split_include_the_own_seven_cards_in_the_wrong_sizes() -> None:
    from cardrules import IllegalActionError
    from cardrules.down_and_back.checks import probe_actions
    state = idle_until_split(start(3, 0, {}))
    hand = state.hands[state.current_player]   # type: ignore[index]
    resized = [a for a in probe_actions(state) if isinstance(a, Split)
               and sorted((*a.down, *a.back)) == list(hand)
               and (len(a.down), len(a.back)) != (4, 3)]
    assert resized
    for split in resized:
        with pytest.raises(IllegalActionError, match="DB-40: a split is a 4-card down hand"):
            apply(state, split)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_db31_each_later_result_names_its_own_dealer(seed: int) -> None:
    state = playout(3, seed, rounds=3)[-1]
    first = state.results[0].dealer
    for k in (1, 2):
        data = dump(state)
        right = (first + k) % 3               # the deal passes to the left (DB-31)
        assert data["results"][k]["dealer"] == right
        data["results"][k]["dealer"] = (right + 1) % 3
        refused(data, f"so round {k + 1} is dealt by seat {right}, not seat {(right + 1) % 3}")


def test_db42_str_of_a_paused_showdown_shows_the_draws_on_the_table() -> None:
    assert str(paused_mid_pass()).splitlines()[-1] == (
        "tie-break DOWN: seats 2, 4; on the table: DOWN: seat 2 drew 8C")
    assert str(paused_after_pass()).splitlines()[-1] == (
        "tie-break DOWN: seats 2, 4; on the table: DOWN: seat 2 drew 5S, DOWN: seat 4 drew 8C")
    assert str(paused_in_back()).splitlines()[-1] == (
        "tie-break BACK: seats 2, 4; on the table: BACK: seat 2 drew 7C")


def test_turns_and_contenders_out_of_range_are_refused_naming_the_range() -> None:
    data = dump(tied_result())
    data["turns"][1] = 7                            # six turns each at most (DB-35)
    refused(data, "state.turns[1] must be from 0 to 6")
    data = dump(paused_mid_pass())
    data["showdown"]["contenders"][0] = 5           # five players: seats 0 to 4
    refused(data, "state.showdown.contenders[0] must be from 0 to 4")


@pytest.mark.parametrize("seat", [3, -1, True])
def test_db43_invariants_refuse_a_pot_winner_that_is_not_a_seat(seat: Any) -> None:
    state = next(final for final in (playout(3, seed, rounds=1)[-1] for seed in range(40))
                 if final.results[0].pot_winner is not None)
    result = attrs.evolve(state.results[0], pot_winner=seat)
    bad = attrs.evolve(state, history=attrs.evolve(state.history, results=(result,)))
    with pytest.raises(ValueError, match="pot winner seat"):
        check_invariants(bad)


@pytest.mark.parametrize("seat", [3, -1, True])
def test_db42_invariants_refuse_a_tie_break_draw_by_no_seat(seat: Any) -> None:
    state = tied_result()
    result = state.results[0]
    draws = (attrs.evolve(result.tiebreaks[0], seat=seat), *result.tiebreaks[1:])
    results = (attrs.evolve(result, tiebreaks=draws),)
    bad = attrs.evolve(state, history=attrs.evolve(state.history, results=results))
    with pytest.raises(ValueError, match="tie-break draws name a stage and a seat"):
        check_invariants(bad)


# ---------------------------------------------------------------------------
# the pile, the cards seen and the turns agree (DB-33 to DB-37)

_DEALT = (Phase.DRAW, Phase.DISCARD, Phase.RESHUFFLE, Phase.SPLIT)


@functools.cache
def dealt_states() -> tuple[GameState, ...]:
    """Every dealt state (draw, discard, reshuffle, split) of random one-round
    games at every table size, with the stock drawn from more or less often."""
    states = []
    for seed in range(12):
        rng = random.Random(seed)
        n = 2 + seed % 4
        from_stock = (0.2, 0.6, 1.0)[seed % 3]
        state = new_game(n, rounds=1)
        while not state.is_terminal:
            if state.is_chance:
                action: Action = sample_chance(state, rng)
            elif state.phase is Phase.DRAW and state.discard:
                action = DrawStock() if rng.random() < from_stock else DrawDiscard()
            else:
                action = rng.choice(legal_actions(state))
            state = apply(state, action)
            if state.phase in _DEALT:
                states.append(state)
    assert {s.phase for s in states} == set(_DEALT)
    return tuple(states)


def _mid_turn(state: GameState) -> bool:
    return state.phase is Phase.DISCARD or (state.phase is Phase.RESHUFFLE
                                            and state.showdown is None)


def _drawer(state: GameState) -> int:
    assert state.dealer is not None
    return (state.dealer + 1 + state.turn) % state.num_players


def _pile_draws(state: GameState, seat: int) -> int:
    """How often ``seat`` may have drawn from the discard pile this round: once
    per finished turn, plus the draw of a turn under way if it took a card
    seen (DB-34, DB-37)."""
    taking = (_mid_turn(state) and seat == _drawer(state)
              and state.drawn in state.seen[seat])
    return state.turns[seat] + taking


def _budget(state: GameState) -> int:
    """How many more cards the seats may hold as seen: the draws so far, less
    those from the stock that the pile needs, less the cards already seen."""
    mid = _mid_turn(state)
    draws = state.turn + mid
    from_stock = len(state.discard) - (not mid)
    return draws - from_stock - sum(map(len, state.seen))


def _with_seen(state: GameState, extra: Mapping[int, Sequence[Card]]) -> dict[str, Any]:
    data = dump(state)
    for seat, cards in extra.items():
        data["seen"][seat] = [*data["seen"][seat], *map(str, cards)]
    return data


def _unseen(state: GameState, seat: int) -> list[Card]:
    """The cards ``seat`` holds unseen, but the card drawn this turn (which,
    once seen, would mean a draw from the pile)."""
    return [c for c in state.hands[seat] if c not in state.seen[seat] and c != state.drawn]


def test_db37_a_card_seen_before_any_turn_is_refused() -> None:
    # The hostile probe's case: every view showed a card of seat 1's hand as public.
    state = next(s for s in dealt_states() if s.phase is Phase.DRAW and s.turn == 0)
    seat = state.current_player
    assert seat is not None
    err = refused(_with_seen(state, {seat: _unseen(state, seat)[:1]}))
    assert err.message == (f"inconsistent Down and Back state: seat {seat} holds 1 cards seen "
                           f"taken from the discard pile, but has drawn only 0 times "
                           f"(DB-34, DB-37)")


def test_db33_two_face_up_cards_before_any_turn_are_refused() -> None:
    state = next(s for s in dealt_states() if s.phase is Phase.DRAW and s.turn == 0)
    data = dump(state)
    data["discard"].append(data["stock"].pop(0))
    err = refused(data, "discard pile of 2 cards needs 1 draws from the stock")
    assert "(DB-33, DB-34, DB-37)" in err.message


def test_db37_no_seat_holds_more_cards_seen_than_its_draws_from_the_pile() -> None:
    tried = 0
    for state in dealt_states():
        for seat in range(state.num_players):
            allowed = _pile_draws(state, seat)
            unseen = _unseen(state, seat)
            more = allowed + 1 - len(state.seen[seat])
            if more > len(unseen):
                continue
            tried += 1
            refused(_with_seen(state, {seat: unseen[:more]}), f"seat {seat} holds {allowed + 1} "
                    "cards seen taken from the discard pile")
    assert tried > 500


def test_db34_db37_cards_seen_and_the_pile_fit_the_turns_exactly() -> None:
    # Up to the budget the state is one the rules make (fewer stock draws,
    # more cards kept from the pile); one card more is refused.
    accepted = refused_count = 0
    for state in dealt_states():
        if state.showdown is not None:
            continue
        budget = _budget(state)
        assert budget >= 0
        room = {seat: _unseen(state, seat)[:_pile_draws(state, seat) - len(state.seen[seat])]
                for seat in range(state.num_players)}
        extra: dict[int, list[Card]] = {}
        for seat, cards in room.items():
            for card in cards:
                if sum(map(len, extra.values())) <= budget:
                    extra.setdefault(seat, []).append(card)
        given_cards = sum(map(len, extra.values()))
        if given_cards <= budget:
            assert state_from_dict(_with_seen(state, extra)).seen != state.seen or not extra
            continue
        assert given_cards == budget + 1
        refused(_with_seen(state, extra), "more than the")
        refused_count += 1
        last_seat = max(extra)
        extra[last_seat].pop()
        loaded = state_from_dict(_with_seen(state, extra))
        assert sum(map(len, loaded.seen)) == sum(map(len, state.seen)) + budget
        accepted += 1
    assert accepted > 100
    assert refused_count == accepted


def test_db34_a_pile_bigger_than_the_turns_allow_is_refused_in_every_phase() -> None:
    tried = set()
    for state in dealt_states():
        if state.showdown is not None:
            continue
        more = _budget(state) + 1
        if len(state.stock) <= more:
            continue
        data = dump(state)
        data["discard"] = [*data["discard"], *data["stock"][:more]]
        data["stock"] = data["stock"][more:]
        refused(data, "more than the")
        tried.add(state.phase)
    assert tried == {Phase.DRAW, Phase.DISCARD, Phase.SPLIT}


def test_db36_the_stock_runs_out_on_a_draw_from_the_stock() -> None:
    reshuffles = [s for s in dealt_states() if s.phase is Phase.RESHUFFLE]
    assert reshuffles
    for state in reshuffles:
        seat = _drawer(state)
        assert state.drawn is not None
        assert state.drawn not in state.seen[seat]
        err = refused(_with_seen(state, {seat: [state.drawn]}))
        assert err.message == ("inconsistent Down and Back state: the stock ran out on a draw "
                               "from the stock, so the card drawn was not taken from the "
                               "discard pile (DB-36, DB-37)")


def test_db34_a_draw_from_the_stock_with_no_pile_is_refused() -> None:
    for state in dealt_states():
        if state.phase is not Phase.DISCARD or state.drawn in state.seen[_drawer(state)]:
            continue
        data = dump(state)
        data["stock"] = [*data["discard"], *data["stock"]]
        data["discard"] = []
        refused(data, "a draw from the stock leaves the discard pile as it was")
        return
    pytest.fail("no draw from the stock")


@pytest.mark.parametrize(("make", "pile"), [(paused_mid_pass, 14), (paused_after_pass, 15),
                                            (paused_in_back, 16), (paused_with_seat_0, 14)])
def test_db36_a_paused_showdown_checks_the_cards_seen_against_its_pile(make: Any,
                                                                     pile: int) -> None:
    # The stock ran out after as many tie-break draws as it held at the
    # split, so the pile then held 17 cards less those draws; thirty turns
    # with that pile leave room for 30 - (pile - 1) cards seen.
    state = make()
    assert not any(state.seen)
    budget = 30 - (pile - 1)
    extra: dict[int, list[Card]] = {seat: [] for seat in range(5)}
    cards = [(seat, card) for seat in range(5) for card in state.hands[seat][:6]]
    for seat, card in cards[:budget]:
        extra[seat].append(card)
    assert sum(map(len, state_from_dict(_with_seen(state, extra)).seen)) == budget
    seat, card = cards[budget]
    extra[seat].append(card)
    refused(_with_seen(state, extra), f"discard pile of {pile} cards at the showdown")


def test_db36_a_paused_showdown_must_be_where_the_stock_runs_out() -> None:
    state = paused_mid_pass()
    check_invariants(state)
    assert state.showdown is not None
    bad = attrs.evolve(state, showdown=attrs.evolve(state.showdown, log=()))
    with pytest.raises(ValueError, match="tie-break draws follow DB-42"):
        check_invariants(bad)


def test_db44_a_finished_game_keeps_the_dealer_of_its_last_round() -> None:
    for n in (2, 3, 5):
        over = playout(n, 7)[-1]
        assert over.is_terminal
        for dealer in range(n):
            data = dump(over)
            data["dealer"] = dealer
            if dealer == over.results[-1].dealer:
                assert state_from_dict(data) == over
            else:
                err = refused(data)
                assert err.message == ("inconsistent Down and Back state: a finished game "
                                       "keeps the dealer of its last round (DB-31, DB-44)")


# ---------------------------------------------------------------------------
# huge lists are refused by their length, before any entry is read

HUGE = 10**6


def _spy_on_entries(spy_on_entries: SpyOnEntries) -> None:
    import cardrules.down_and_back.serialize as serialize

    spy_on_entries([(serialize, name) for name in
                    ("read_card", "_result", "_draw", "_split", "_whole")])


def _a_drawing_state() -> GameState:
    return next(s for s in dealt_states() if s.phase is Phase.DISCARD and any(s.seen))


@pytest.mark.parametrize(("make", "path", "message"), [
    (tied_result, ("results",), "state.results must hold at most 2 entries, not 1000000"),
    (lambda: playout(3, 5, rounds=3)[-1], ("results",),
     "state.results must hold at most 3 entries, not 1000000"),
    (tied_result, ("results", 0, "splits", 1, "down"),
     "state.results[0].splits[1].down must hold at most 8 entries, not 1000000"),
    (tied_result, ("results", 0, "splits"),
     "state.results[0].splits must have one entry per seat (3), not 1000000"),
    (_a_drawing_state, ("hands", 0), "state.hands[0] must hold at most 8 entries, not 1000000"),
    (_a_drawing_state, ("seen", 0), "state.seen[0] must hold at most 8 entries, not 1000000"),
    (_a_drawing_state, ("stock",), "state.stock must hold at most 52 entries, not 1000000"),
    (_a_drawing_state, ("discard",), "state.discard must hold at most 52 entries, not 1000000"),
    (_a_drawing_state, ("hands",), "state.hands must have one entry per seat"),
    (_a_drawing_state, ("seen",), "state.seen must have one entry per seat"),
    (_a_drawing_state, ("net",), "state.net must have one entry per seat"),
    (_a_drawing_state, ("turns",), "state.turns must have one entry per seat"),
    (_a_drawing_state, ("splits",), "state.splits must have one entry per seat"),
    (paused_mid_pass, ("showdown", "contenders"),
     "state.showdown.contenders must hold at most 5 entries, not 1000000"),
    (paused_mid_pass, ("showdown", "drawn"),
     "state.showdown.drawn must hold at most 5 entries, not 1000000"),
])
def test_a_huge_list_is_refused_by_its_length_before_its_entries_are_read(
        spy_on_entries: SpyOnEntries, make: Any, path: tuple[Any, ...],
        message: str) -> None:
    # A state holds at most the rounds so far, 8 cards a hand and the 52 cards
    # in a pile: the probe's 10**6 results took 48 s and 820 MB to refuse.
    data = dump(make())
    holder = at(data, path[:-1])
    entries = holder[path[-1]]
    holder[path[-1]] = [entries[0] if entries else "AS"] * HUGE
    _spy_on_entries(spy_on_entries)
    err = refused(data)
    assert err.message.startswith(message)
    assert err.token is None or err.token == "<list of 1000000 entries>"


def test_db37_a_determinized_state_loads_when_the_mover_took_from_the_pile() -> None:
    # determinize() used to make the card another seat drew mid-turn one of
    # its unseen cards (a draw from the stock) even where the pile and the
    # cards seen show the draw was from the pile: states the loader refuses.
    from cardrules.down_and_back.determinization import determinize

    rng = random.Random(5)
    tried = 0
    for state in dealt_states():
        if state.phase is not Phase.DISCARD:
            continue
        mover = _drawer(state)
        if state.drawn not in state.seen[mover]:
            continue
        for seat in range(state.num_players):
            if seat != mover:
                guess = determinize(view(state, seat), rng)
                assert state_from_dict(dump(guess)) == guess
                assert view(guess, seat) == view(state, seat)
                tried += 1
    assert tried > 50


# -- check_invariants on the results of rounds (DB-31, DB-40) ------------------------------


def _three_rounds() -> GameState:
    from cardrules.down_and_back import GreedyBot, play_game

    state = play_game([GreedyBot(seed=s) for s in range(3)], rounds=3, seed=5).state
    assert len(state.results) == 3
    check_invariants(state)
    return state


def _with_result(state: GameState, k: int, result: RoundResult) -> GameState:
    import attrs

    results = (*state.results[:k], result, *state.results[k + 1:])
    return attrs.evolve(state, history=attrs.evolve(state.history, results=results))


def test_db31_invariants_refuse_a_result_with_the_wrong_dealer_or_round() -> None:
    # Round k + 1 is dealt by the seat left of round k's dealer (DB-31); a
    # result naming another dealer, or another round number, is refused on
    # its own, the other field being right.
    import attrs

    state = _three_rounds()
    second = state.results[1]
    for bad in (attrs.evolve(second, dealer=(second.dealer + 1) % 3),
                attrs.evolve(second, round=3)):
        with pytest.raises(ValueError, match="the deal passes to the left each round"):
            check_invariants(_with_result(state, 1, bad))


def test_db40_invariants_refuse_result_splits_of_the_wrong_sizes() -> None:
    # Every split of a result is a 4-card down and a 3-card back (DB-40): one
    # seat's back of four and another's of two are refused, though the
    # downs are right and the cards are still 7 per player, all different.
    import attrs

    state = _three_rounds()
    first = state.results[0]
    a, b = first.splits[0], first.splits[1]
    moved = b.back[0]
    splits = (Split(a.down, (*a.back, moved)), Split(b.down, b.back[1:]), *first.splits[2:])
    with pytest.raises(ValueError, match="the splits of a result"):
        check_invariants(_with_result(state, 0, attrs.evolve(first, splits=splits)))
