"""The double-dummy solver against DDS, the standard bridge solver, through
the ``endplay`` package (a test-only dependency; skipped without it), on
Back Alley deals that are bridge deals: deals in which a joker
is turned (no trumps, no joker in play), and positions after both jokers
have been played and trump broken, played in the trump suit.

A smaller sample than the benchmark's (``benchmarks/speed/bench_solver.py
--verify`` compares a thousand deals and more), and of fewer cards, to stay
within a few seconds; the twelve whole 13-card deals below take about four
seconds."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from cardrules.back_alley import GameState
from cardrules.back_alley.double_dummy import solver
from support.ba_dds import dds_max_tricks, no_trump_deal, pbn, trump_position

pytest.importorskip("endplay", reason="endplay (DDS) is a test-only dependency")


def _trump_positions(rng: random.Random, count: int,
                     size: Callable[[], int]) -> Iterator[GameState]:
    """``count`` trump positions after both jokers (``trump_position``), each
    drawn from a deal of ``size()`` cards (asked again after a deal gives
    none)."""
    found = 0
    while found < count:
        state = trump_position(rng, size=size())
        if state is not None:
            found += 1
            yield state


def test_no_trump_deals_agree_with_dds() -> None:
    rng = random.Random(18)
    for number in range(60):
        state = no_trump_deal(rng, size=rng.randint(5, 9), leader=number % 4)
        assert state.trump is None
        assert state.current_player == number % 4
        assert solver.max_tricks(state) == dds_max_tricks(state), pbn(state)


def test_trump_positions_after_the_jokers_agree_with_dds() -> None:
    rng = random.Random(19)
    for state in _trump_positions(rng, 60, lambda: rng.randint(7, 11)):
        assert state.trump is not None
        assert state.trump_played
        assert solver.max_tricks(state) == dds_max_tricks(state), (pbn(state), state.trump)


def test_full_13_card_deals_agree_with_dds() -> None:
    """Twelve whole 13-card deals at the opening lead, as the issue's check
    at full size (a thousand in the benchmark script), and twelve trump
    positions reached from 13-card deals."""
    rng = random.Random(1313)
    for number in range(12):
        state = no_trump_deal(rng, size=13, leader=number % 4)
        assert len(state.hand_indexes[0]) == 13
        assert solver.max_tricks(state) == dds_max_tricks(state), pbn(state)
    for position in _trump_positions(rng, 12, lambda: 13):
        assert solver.max_tricks(position) == dds_max_tricks(position), pbn(position)


def test_a_run_of_equal_cards_reaching_into_the_cards_that_mattered() -> None:
    """An 8-card no-trump deal once answered one trick short: a run of equal
    cards was searched through its lowest card, the answer rested on its
    highest, and a position matching on fewer cards (where the run's cards
    were no longer equal) took the answer.  A failing run that reaches into
    the cards an answer rests on now adds its lowest card to them."""
    rng = random.Random(5)
    for number in range(166):
        state = no_trump_deal(rng, size=rng.randint(8, 11), leader=number % 4)
    assert len(state.hand_indexes[0]) == 8
    assert solver.max_tricks(state) == dds_max_tricks(state) == 4
