"""Checks shared by the random-game property tests of every game.

Each game's property tests (``test_<game>_properties.py``) play random games
and check every state; what does not depend on the game lives here, written
against the game's :class:`~cardrules.engine.Rules` object.

>>> import random
>>> from cardrules import back_alley
>>> state = back_alley.new_game(max_hand_size=1)
>>> check_json(back_alley.RULES, state)
>>> check_who_acts(back_alley.RULES, state)
>>> type(choose(back_alley.RULES, state, random.Random(1))).__name__
'ChooseDealer'
>>> check_copies(state)
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, Literal, TypeVar, overload

import attrs
import numpy as np

from cardrules import Card, Joker
from cardrules.engine import Rules
from cardrules.engine.rules import StateLike

S = TypeVar("S", bound=StateLike)
A = TypeVar("A")

#: The ``spy_on_entries`` fixture of ``tests/conftest.py``: give it the
#: (module, function name) pairs of readers that each read one list entry.
SpyOnEntries = Callable[[Sequence[tuple[ModuleType, str]]], None]


def choose(rules: Rules[S, A], state: S, rng: random.Random) -> A:
    """The next action of a random game: sampled chance, or a uniform legal action."""
    if state.is_chance:
        return rules.sample_chance(state, rng)
    return rng.choice(rules.legal_actions(state))


def state_after(rules: Rules[S, A], settings: Mapping[str, int | None], steps: int,
                seed: int) -> S:
    """The state after ``steps`` random actions (chance sampled) of a game with
    ``settings`` (fewer if the game ends first).

    >>> from cardrules.down_and_back import RULES
    >>> state_after(RULES, {"num_players": 2}, 0, 1) == RULES.new_game_from_settings({})
    False
    >>> state_after(RULES, {"num_players": 2}, 2, 1).current_player is not None
    True
    """
    rng = random.Random(seed)
    state = rules.new_game_from_settings(settings)
    for _ in range(steps):
        if state.is_terminal:
            break
        state = rules.apply(state, choose(rules, state, rng))
    return state


def states_of(rules: Rules[S, A], settings: Mapping[str, int | None], seed: int
              ) -> Iterator[S]:
    """Every state of one random game with ``settings``, the first to the last.

    >>> from cardrules.back_alley import RULES
    >>> states = list(states_of(RULES, {"max_hand_size": 1}, 0))
    >>> states[0].is_chance, states[-1].is_terminal
    (True, True)
    """
    rng = random.Random(seed)
    state = rules.new_game_from_settings(settings)
    yield state
    while not state.is_terminal:
        state = rules.apply(state, choose(rules, state, rng))
        yield state


def attrs_within(value: Any) -> Iterator[Any]:
    """``value`` if it is an attrs instance, and every attrs instance inside it
    (in its fields and tuples), depth first.

    >>> from cardrules.down_and_back import new_game
    >>> [type(v).__name__ for v in attrs_within(new_game(2))][:3]
    ['GameState', 'Settings', 'History']
    """
    if attrs.has(type(value)):
        yield value
        for field in attrs.fields(type(value)):
            yield from attrs_within(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from attrs_within(item)


def check_who_acts(rules: Rules[S, A], state: S) -> None:
    """Nobody acts at a chance point or at the end; otherwise one seat acts
    and has a legal action."""
    if state.is_terminal or state.is_chance:
        assert state.current_player is None
        assert rules.legal_actions(state) == ()
    else:
        assert state.current_player in range(state.num_players)
        assert rules.legal_actions(state)


def check_copies(value: object) -> None:
    """``value`` pickles (at the default and the oldest binary protocol),
    ``copy.copy``-s and ``copy.deepcopy``-s to an equal value of the same type."""
    copies = (pickle.loads(pickle.dumps(value)), pickle.loads(pickle.dumps(value, protocol=2)),
              copy.copy(value), copy.deepcopy(value))
    for again in copies:
        assert type(again) is type(value)
        assert again == value, (again, value)


def check_json(rules: Rules[S, A], state: S) -> None:
    """``state`` survives a JSON round trip, and writes the same text again."""
    text = json.dumps(rules.state_to_dict(state))
    again = rules.state_from_dict(json.loads(text))
    assert again == state
    assert json.dumps(rules.state_to_dict(again)) == text


@overload
def cards_within(value: object, *, jokers: Literal[False] = ...) -> Iterator[Card]: ...
@overload
def cards_within(value: object, *, jokers: bool) -> Iterator[Card | Joker]: ...
def cards_within(value: object, *, jokers: bool = False) -> Iterator[Card | Joker]:
    """Every card anywhere inside ``value`` (attrs classes, tuples, lists); with
    ``jokers=True`` the jokers too (a joker found without it fails the test).

    >>> from cardrules import parse_cards
    >>> [str(c) for c in cards_within([parse_cards("AS KD"), (Joker.BIG, 3)], jokers=True)]
    ['AS', 'KD', 'BB']
    >>> list(cards_within((Joker.BIG,)))
    Traceback (most recent call last):
    ...
    AssertionError: a joker in a game without jokers: BB
    """
    kind = type(value)
    if isinstance(value, Card):
        yield value
    elif isinstance(value, Joker):
        if not jokers:
            raise AssertionError(f"a joker in a game without jokers: {value}")
        yield value
    elif attrs.has(kind):
        for field in attrs.fields(kind):
            yield from cards_within(getattr(value, field.name), jokers=jokers)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_within(item, jokers=jokers)


def layout_part(layout: Sequence[tuple[str, int, int]], tensor: np.ndarray,
                name: str) -> np.ndarray:
    """The slice ``name`` of an observation tensor laid out by ``layout``."""
    for slice_name, start, length in layout:
        if slice_name == name:
            return tensor[start:start + length]
    raise KeyError(name)


def documented_layout(text: str) -> list[tuple[str, int]]:
    """The (name, length) rows of a layout table in reStructuredText ``text``."""
    rows = []
    for line in text.splitlines():
        match = re.match(r"^\s*([a-z_]+)\s{2,}(\d+)(?: x (\d+))?\s{2,}\S", line)
        if match and match.group(1) not in ("slice", "ids"):
            length = int(match.group(2)) * int(match.group(3) or 1)
            rows.append((match.group(1), length))
    return rows
