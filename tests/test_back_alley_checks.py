"""Back Alley's conformance hooks: hidden_variant deals hidden cards afresh,
keeping what the play has shown (known_absent)."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import cardrules.back_alley as ba
from cardrules import Joker
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.checks import _redeal, check_invariants, hidden_variant, known_absent


def states_with_inferences(count: int) -> list[ba.GameState]:
    """Seeded random play states in which some seat is known to lack cards."""
    found: list[ba.GameState] = []
    rng = random.Random(17)
    state = ba.new_game(max_hand_size=6)
    while len(found) < count and not state.is_terminal:
        if state.deal is not None and any(known_absent(state)):
            found.append(state)
        state = ba.apply(state, ba.sample_chance(state, rng) if state.is_chance
                         else rng.choice(ba.legal_actions(state)))
    assert len(found) == count
    return found


def test_hidden_variant_redeals_around_known_absences() -> None:
    for state in states_with_inferences(12):
        absent = known_absent(state)
        for seat in range(4):
            variants = [hidden_variant(state, seat, random.Random(k)) for k in range(8)]
            for variant in variants:
                assert ba.view(variant, seat) == ba.view(state, seat)
                for other in range(4):
                    held = {card.index for card in variant.hands[other]}
                    assert other == seat or not held & absent[other]
                ba.RULES.check_invariants(variant)
            # The hidden cards really move (not the state handed back as it was).
            if sum(len(h) for s, h in enumerate(state.hands) if s != seat) > 3:
                assert any(v.hands != state.hands for v in variants), (state, seat)


def test_a_hand_holds_card_indexes_0_to_53_only() -> None:
    state = ba.apply(ba.apply(ba.new_game(), ba.ChooseDealer(0)), ba.Shuffle(CARDS))
    for bad in (54, -1):
        hands = list(state._hands)
        hands[0] = (*hands[0][:-1], bad) if bad > 0 else (bad, *hands[0][1:])
        with pytest.raises(ValueError, match=r"\Ainconsistent Back Alley state: "
                                             r"a hand holds distinct cards\Z"):
            check_invariants(attrs.evolve(state, hands=tuple(hands)))


class CountingRandom(random.Random):
    """A generator that counts its shuffles."""

    shuffles = 0

    def shuffle(self, x: Any) -> None:
        self.shuffles += 1
        super().shuffle(x)


def test_an_impossible_redeal_gives_up_after_40_tries() -> None:
    # Two cards to deal, but the only pile may hold neither: hidden_variant
    # falls back to the state itself after a bounded number of tries.
    rng = CountingRandom(1)
    assert _redeal([0, 1], [2], [frozenset({0, 1})], rng) is None
    assert rng.shuffles == 40
    # A possible one: the first pile can only take card 2.
    rng = CountingRandom(1)
    piles = _redeal([0, 1, 2], [1, 2], [frozenset({0, 1}), frozenset()], rng)
    assert piles is not None
    assert piles[0] == [2]
    assert sorted(piles[1]) == [0, 1]


def test_probes_include_the_lowest_and_highest_cards_not_held() -> None:
    state = ba.apply(ba.apply(ba.new_game(), ba.ChooseDealer(0)), ba.Shuffle(CARDS))
    probes = list(ba.RULES.probe_actions(state))
    held = {card.index for card in state.hands[1]}   # seat 1 bids first
    outside = [card for card in CARDS if card.index not in held]
    assert ba.Play(outside[0]) in probes
    assert ba.Play(outside[-1]) in probes
    assert ba.Play(Joker.LITTLE) in probes


def test_known_absent_names_real_cards_and_a_trump_leader_holds_only_trumps() -> None:
    trump_leads = 0
    rng = random.Random(23)
    for _ in range(40):
        state = ba.new_game(max_hand_size=3)
        while not state.is_terminal:
            absent = known_absent(state)
            assert all(0 <= index < 54 for cards in absent for index in cards)
            deal = state.deal
            if deal is not None and deal.trump is not None:
                trumps = {i for i, c in enumerate(deal.table[0]) if c == 4}
                plain = set(range(54)) - trumps
                trump_leads += sum(1 for a in absent if a == plain)
            state = ba.apply(state, ba.sample_chance(state, rng) if state.is_chance
                             else rng.choice(ba.legal_actions(state)))
    assert trump_leads > 0   # BA-32: some seat led a trump holding nothing else


def test_probes_start_with_two_legal_actions_then_chance_out_of_turn() -> None:
    state = ba.apply(ba.apply(ba.new_game(), ba.ChooseDealer(0)), ba.Shuffle(CARDS))
    legal = ba.legal_actions(state)
    probes = list(ba.RULES.probe_actions(state))
    assert probes[:3] == [legal[0], legal[1], ba.ChooseDealer(0)]
