"""Back Alley's conformance hooks: hidden_variant deals hidden cards afresh,
uniformly among the deals that keep what the play has shown (known_absent)."""

from __future__ import annotations

import json
import random
from collections import Counter

import attrs
import pytest

import cardrules.back_alley as ba
from cardrules import Joker
from cardrules.back_alley import (
    new_game,
)
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.checks import check_invariants
from cardrules.back_alley.determinization import hidden_variant, known_absent


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
        hands = list(state.hand_indexes)
        hands[0] = (*hands[0][:-1], bad) if bad > 0 else (bad, *hands[0][1:])
        with pytest.raises(ValueError, match=r"\Ainconsistent Back Alley state: "
                                             r"a hand holds distinct cards\Z"):
            check_invariants(attrs.evolve(state, hand_indexes=tuple(hands)))


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


# -- hidden_variant is determinize plus the public facts a view leaves out -----------

def _last_trick(seed: int) -> ba.GameState:
    """Deal 1 (13 cards each) played at random up to its last trick (BA-30):
    every seat holds one card and one card is undealt (BA-12)."""
    rng = random.Random(seed)
    state = ba.new_game()
    while len(state.tricks) < 12:
        state = ba.apply(state, ba.sample_chance(state, rng) if state.is_chance
                         else rng.choice(ba.legal_actions(state)))
    return state


def _every_deal_the_seat_allows(state: ba.GameState, seat: int) -> set[str]:
    """Every state ``seat`` cannot tell from ``state``, found without the
    determinizer: each way of giving the unseen cards to the other seats and
    the undealt pile, kept when the strict JSON reader accepts it (every past
    play legal with those hands, BA-31 to BA-33, BA-13).  As sorted JSON."""
    data = ba.state_to_dict(state)
    others = [s for s in range(4) if s != seat]
    deal = data["deal"]
    assert isinstance(deal, dict)
    hands = data["hands"]
    assert isinstance(hands, list)
    unseen = [c for s in others for c in hands[s]] + list(deal["undealt"])
    sizes = [len(hands[s]) for s in others]
    assert sizes == [1, 1, 1]
    found: set[str] = set()
    for a in unseen:
        for b in unseen:
            for c in unseen:
                if len({a, b, c}) < 3:
                    continue
                guess = json.loads(json.dumps(data))
                for s, card in zip(others, (a, b, c), strict=True):
                    guess["hands"][s] = [card]
                guess["deal"]["undealt"] = [x for x in unseen if x not in (a, b, c)]
                try:
                    candidate = ba.state_from_dict(guess)
                except ValueError:
                    continue
                assert ba.view(candidate, seat) == ba.view(state, seat)
                found.add(json.dumps(ba.state_to_dict(candidate), sort_keys=True))
    return found


def test_ba50_hidden_variant_is_exactly_uniform_on_a_last_trick() -> None:
    """Every state the seat cannot tell apart is drawn, and each as often
    (within 4.5 standard deviations): the void-aware resampler is exact."""
    for seed in range(100):
        state = _last_trick(seed)
        deal = state.deal
        assert deal is not None
        if deal.exchanger is not None:
            continue
        seat = next((s for s in range(4) if len(_every_deal_the_seat_allows(state, s)) < 24
                     and known_absent(state)[(s + 1) % 4]), None)
        if seat is not None:
            break
    else:
        raise AssertionError("no last trick with a void found")
    allowed = _every_deal_the_seat_allows(state, seat)
    assert 1 < len(allowed) < 24, "some deals are ruled out by a void, not all"
    draws = 300 * len(allowed)
    rng = random.Random(5)
    seen = Counter(json.dumps(ba.state_to_dict(hidden_variant(state, seat, rng)),
                              sort_keys=True) for _ in range(draws))
    assert set(seen) == allowed
    p = 1 / len(allowed)
    sigma = (p * (1 - p) / draws) ** 0.5
    for key in allowed:
        assert abs(seen[key] / draws - p) <= 4.5 * sigma, (seen[key], draws * p)


def _thrown_in_twice() -> ba.GameState:
    """Deal 1 thrown in twice (BA-25): the third dealer is to shuffle."""
    rng = random.Random(4)
    state = ba.apply(ba.new_game(max_hand_size=2), ba.ChooseDealer(3))
    for _ in range(2):
        state = ba.apply(state, ba.sample_chance(state, rng))
        for _ in range(4):
            state = ba.apply(state, ba.Pass())
    assert state.phase is ba.Phase.SHUFFLE
    assert state.history.throw_ins == 2
    return state


def test_ba11_ba25_hidden_variant_keeps_the_first_dealer_and_the_throw_ins() -> None:
    """A view shows neither the first dealer nor the throw-ins of the deal now
    due, though every seat saw them; hidden_variant copies them over, while
    determinize alone guesses the fewest throw-ins."""
    from cardrules.back_alley.determinization import determinize

    state = _thrown_in_twice()
    rng = random.Random(2)
    for _ in range(3):   # the shuffle, the bidding, then the play
        for seat in range(4):
            other = hidden_variant(state, seat, rng)
            assert other.history == state.history
            assert ba.view(other, seat) == ba.view(state, seat)
            guess = determinize(ba.view(state, seat), rng)
            assert (guess.history.first_dealer, guess.history.throw_ins) == (1, 0)
        state = ba.apply(state, ba.sample_chance(state, rng) if state.is_chance
                         else ba.legal_actions(state)[-1])


def test_hidden_variant_between_deals_and_at_the_end_is_the_state() -> None:
    """Before the first dealer is chosen, at every shuffle and at the end no
    card is held or undealt (BA-11, BA-12, BA-43): nothing to redraw."""
    rng = random.Random(8)
    state = ba.new_game(max_hand_size=2)
    phases = set()
    while True:
        if state.deal is None:
            phases.add(state.phase)
            for seat in range(4):
                assert hidden_variant(state, seat, rng) == state
        if state.is_terminal:
            break
        state = ba.apply(state, ba.sample_chance(state, rng) if state.is_chance
                         else rng.choice(ba.legal_actions(state)))
    assert phases == {ba.Phase.CHOOSE_DEALER, ba.Phase.SHUFFLE, ba.Phase.GAME_OVER}


def test_a_state_before_the_first_dealer_with_a_throw_in_is_refused() -> None:
    # Before the first dealer is chosen (BA-11) no deal was played or thrown in.
    start = new_game()
    check_invariants(start)
    for history in (attrs.evolve(start.history, throw_ins=1),):
        with pytest.raises(ValueError, match="no deal before the first dealer"):
            check_invariants(attrs.evolve(start, history=history))
