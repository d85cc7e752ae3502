"""Back Alley's conformance hooks: hidden_variant deals hidden cards afresh,
keeping what the play has shown (known_absent)."""

from __future__ import annotations

import random

import cardrules.back_alley as ba
from cardrules.back_alley.checks import hidden_variant, known_absent


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
