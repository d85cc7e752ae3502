"""Back Alley determinization and trick estimates.

The consistency oracle is the rules themselves: a card may lie in a seat's
hand when :func:`check_invariants` accepts the state with that hand, which
replays every play of the deal under BA-31 to BA-33.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import permutations

import attrs
import pytest

from cardrules import parse_card
from cardrules.back_alley import (
    RULES,
    Bid,
    ChooseDealer,
    GameState,
    HeuristicBot,
    Pass,
    Phase,
    Shuffle,
    apply,
    legal_actions,
    new_game,
    sample_chance,
    view,
)
from cardrules.back_alley.actions import CARDS
from cardrules.back_alley.analysis import TrickEstimate, _roll, finish_deal, trick_estimate
from cardrules.back_alley.checks import check_invariants
from cardrules.back_alley.determinization import Determinizer, determinize, known_absent
from cardrules.back_alley.tally import BackAlleyTally
from cardrules.back_alley.trick import TRUMP_CLASS, table_for
from cardrules.cards import Card, Joker
from cardrules.hand import Hand
from support.ba_deals import dealt, joker_turned_with_exchange, random_game, then
from support.ba_deals import opening as _dealt
from support.ba_deals import opening as _opening


def _step(state: GameState, bots: list[HeuristicBot]) -> GameState:
    seat = state.current_player
    assert seat is not None
    return apply(state, bots[seat].act(view(state, seat), legal_actions(state)))


def _positions(max_hand_size: int, seed: int) -> list[GameState]:
    """Every bidding and play state of one deal played by heuristic bots."""
    state = _dealt(max_hand_size, seed)
    bots = [HeuristicBot(seed + s) for s in range(4)]
    states = []
    while state.phase in (Phase.BID, Phase.PLAY):
        states.append(state)
        state = _step(state, bots)
    return states


def _moved(state: GameState, moves: dict[int, tuple[int, int]]) -> GameState:
    """``state`` with 1-card hands swapped: ``moves[seat] = (old, new)`` gives
    ``seat`` the card ``new`` and puts ``old`` among the undealt cards."""
    hands = list(state.hand_indexes)
    undealt = {c.index for c in state.undealt}
    for seat, (old, new) in moves.items():
        hands[seat] = (new,)
        undealt.add(old)
    undealt -= {new for _, new in moves.values()}
    deal = state.deal
    assert deal is not None
    deal = attrs.evolve(deal, undealt=Hand.of_sorted(tuple(CARDS[i] for i in sorted(undealt))))
    return attrs.evolve(state, hand_indexes=tuple(hands), deal=deal)


def _valid(state: GameState) -> bool:
    try:
        check_invariants(state)
    except ValueError:
        return False
    return True


def _holdable(state: GameState, seat: int) -> dict[int, list[int]]:
    """Per other seat (each holding one card), the unseen cards it may hold:
    those with which the state replays legally (check_invariants).  A card in
    a third seat's hand is tried by giving that seat an undealt card it may
    hold instead."""
    others = [s for s in range(4) if s != seat]
    undealt = sorted(c.index for c in state.undealt)
    own = {s: state.hand_indexes[s][0] for s in others}
    allowed: dict[int, list[int]] = {}
    for s in others:
        allowed[s] = [own[s]] + [d for d in undealt if _valid(_moved(state, {s: (own[s], d)}))]
    for s in others:
        for p in others:
            if p == s:
                continue
            spare = next(d for d in allowed[p] if d != own[p])
            if _valid(_moved(state, {s: (own[s], own[p]), p: (own[p], spare)})):
                allowed[s].append(own[p])
    return {s: sorted(cards) for s, cards in allowed.items()}


def _void_end_position() -> tuple[GameState, int]:
    """A 2-card deal after its first trick in which a seat other than the one
    to lead showed out; the state and the seat to lead."""
    for seed in range(200):
        state = _dealt(2, seed)
        bots = [HeuristicBot(seed + s) for s in range(4)]
        while state.phase in (Phase.BID, Phase.PLAY) and len(state.tricks) < 1:
            state = _step(state, bots)
        seat = state.current_player
        if (state.phase is Phase.PLAY and seat is not None
                and any(absent for s, absent in enumerate(known_absent(state)) if s != seat)):
            return state, seat
    raise AssertionError("no position with a void found")


# -- determinize -----------------------------------------------------------------

@pytest.mark.parametrize(("size", "seed"), [(13, 1), (13, 2), (7, 3), (3, 4), (2, 5), (1, 6)])
def test_determinize_gives_the_same_view_and_a_legal_state(size: int, seed: int) -> None:
    for k, state in enumerate(_positions(size, seed)):
        seat = k % 4
        mine = view(state, seat)
        guess = determinize(mine, random.Random(k))
        assert view(guess, seat) == mine
        check_invariants(guess)  # every past play legal with the drawn hands (BA-31 to BA-33)
        if state.current_player == seat:
            assert legal_actions(guess) == legal_actions(state)
        absent = known_absent(state)
        for other in range(4):
            held = {c.index for c in guess.hands[other]}
            assert not held & absent[other], "a shown void was broken"
        # The remaining deal can be played to its end.
        after = finish_deal(guess, [HeuristicBot(s) for s in range(4)])
        assert after.phase in (Phase.SHUFFLE, Phase.GAME_OVER)


def test_ba31_determinize_respects_voids() -> None:
    state, seat = _void_end_position()
    absent = known_absent(state)
    sampler = Determinizer(view(state, seat))
    rng = random.Random(0)
    for _ in range(200):
        guess = sampler.sample(rng)
        for other in range(4):
            assert not {c.index for c in guess.hands[other]} & absent[other]


def test_determinize_is_uniform_on_a_small_end_position() -> None:
    state, seat = _void_end_position()
    others = [s for s in range(4) if s != seat]
    unseen = sorted({c.index for s in others for c in state.hands[s]}
                    | {c.index for c in state.undealt})
    allowed = _holdable(state, seat)
    assert any(len(allowed[s]) < len(unseen) for s in others), "the position shows a void"
    classes = table_for(state.trump).classes
    # Exact: every consistent deal of one card to each other seat, equally likely.
    exact: Counter[tuple[int, int]] = Counter()
    deals = 0
    for a in allowed[others[0]]:
        for b in allowed[others[1]]:
            if b == a:
                continue
            for c in allowed[others[2]]:
                if c in (a, b):
                    continue
                deals += 1
                exact[classes[a], classes[b]] += 1
    sampler = Determinizer(view(state, seat))
    assert sampler.count == deals
    draws = 6000
    seen: Counter[tuple[int, int]] = Counter()
    rng = random.Random(7)
    for _ in range(draws):
        guess = sampler.sample(rng)
        a_card, = guess.hands[others[0]]
        b_card, = guess.hands[others[1]]
        seen[classes[a_card.index], classes[b_card.index]] += 1
    for cell in set(exact) | set(seen):
        p = exact[cell] / deals
        assert p > 0, f"a class pair the rules exclude was drawn: {cell}"
        sigma = (p * (1 - p) / draws) ** 0.5
        assert abs(seen[cell] / draws - p) <= 4.5 * sigma + 1e-9, cell


def test_determinize_is_seeded_and_varies() -> None:
    mine = view(_positions(13, 9)[10], 2)
    first = determinize(mine, random.Random(3))
    assert determinize(mine, random.Random(3)) == first
    assert any(determinize(mine, random.Random(s)).hands != first.hands for s in range(4, 8))


def test_determinize_sees_only_the_view() -> None:
    """Two states that differ only in cards the seat cannot see (BA-50) give
    the same draws and the same estimate."""
    for state in _positions(5, 11)[::3]:
        seat = 3
        other = RULES.hidden_variant(state, seat, random.Random(1))
        assert view(other, seat) == view(state, seat)
        assert determinize(view(other, seat), random.Random(5)) == determinize(
            view(state, seat), random.Random(5))
    state = _positions(4, 12)[6]
    other = RULES.hidden_variant(state, 0, random.Random(2))
    assert other != state
    assert (trick_estimate(view(other, 0), samples=20, seed=1)
            == trick_estimate(view(state, 0), samples=20, seed=1))


def _joker_turned_with_exchange() -> GameState:
    """Deal 1 (13 cards, dealer 0): BB turned, LB dealt to seat 2 (BA-13)."""
    order: list[Card | Joker] = [c for c in CARDS if c not in (Joker.BIG, Joker.LITTLE)]
    order.insert(1, Joker.LITTLE)   # the second card dealt goes to seat 2
    order.insert(52, Joker.BIG)     # turned after 4 * 13 cards
    return apply(apply(new_game(), ChooseDealer(0)), Shuffle(tuple(order)))


def test_ba13_determinize_after_a_joker_exchange() -> None:
    state = _joker_turned_with_exchange()
    assert state.trump is None
    assert state.deal is not None
    assert state.deal.exchanger == 2
    for seat in range(4):
        mine = view(state, seat)
        sampler = Determinizer(mine)
        rng = random.Random(seat)
        for _ in range(20):
            guess = sampler.sample(rng)
            assert view(guess, seat) == mine
            check_invariants(guess)
            assert all(c.index < 52 for hand in guess.hands for c in hand)  # no joker in play
            assert Joker.LITTLE not in guess.undealt
            assert guess.joker_discard is Joker.LITTLE
            deal = guess.deal
            assert deal is not None
            assert deal.taken is not None
            assert deal.taken in guess.hands[2]
            if seat == 2:
                assert deal.taken == state.deal.taken


def test_determinize_between_deals_gives_the_state_the_view_shows() -> None:
    """Before the first dealer, at a shuffle and at the end nothing is hidden
    (BA-11, BA-12, BA-43): the one state the view allows."""
    state = new_game(max_hand_size=2)
    assert determinize(view(state, 0), random.Random(0)) == state
    state = apply(state, ChooseDealer(2))
    assert Determinizer(view(state, 1)).count == 1
    assert determinize(view(state, 1), random.Random(0)) == state


def test_determinize_refuses_a_view_that_does_not_fit_its_phase() -> None:
    mine = view(apply(new_game(), ChooseDealer(0)), 0)
    with pytest.raises(ValueError, match="no card is dealt in the shuffle phase"):
        determinize(attrs.evolve(mine, hand_sizes=(0, 1, 0, 0)), random.Random(0))
    dealt = view(_positions(2, 3)[0], 0)
    with pytest.raises(ValueError, match="shows a turned card"):
        determinize(attrs.evolve(dealt, trump_card=None), random.Random(0))


# -- trick_estimate ------------------------------------------------------------------

def test_trick_estimate_rolls_out_200_deals_unless_told() -> None:
    state = _dealt(1, 3)
    assert trick_estimate(view(state, 0), seed=0).samples == 200


def test_trick_estimate_is_exact_when_the_last_card_decides() -> None:
    """The fourth card of the last trick: nothing is hidden any more."""
    state = _dealt(1, 3)
    while state.phase is Phase.BID:
        state = apply(state, legal_actions(state)[-1])    # board all round
    bots = [HeuristicBot(s) for s in range(4)]
    for _ in range(3):
        state = _step(state, bots)
    seat = state.current_player
    assert seat is not None
    estimate = trick_estimate(view(state, seat), samples=5, seed=0)
    final = finish_deal(state, bots)
    result = final.results[0]
    team = seat & 1
    expected = [0.0, 0.0]
    expected[result.tricks[team]] = 1.0
    assert list(estimate.probabilities) == expected
    assert estimate.mean == result.tricks[team]
    assert estimate.stderr == 0.0
    assert estimate.expected_score == result.points[team]
    assert estimate.bids == ()
    assert estimate.suggested_bid is None


def test_trick_estimate_matches_the_enumerated_last_trick() -> None:
    """The leader of the last trick of a 2-card deal: the chance that its team
    takes that trick, by enumerating every consistent deal of the hidden cards
    (each other seat holds one card and must play it)."""
    state, seat = _void_end_position()
    others = [s for s in range(4) if s != seat]
    unseen = sorted({c.index for s in others for c in state.hands[s]}
                    | {c.index for c in state.undealt})
    allowed = _holdable(state, seat)
    lead, = (c.index for c in state.hands[seat])
    classes, powers = table_for(state.trump)
    team = seat & 1
    already = state.tricks_won[team] + state.tricks_won[team + 2]
    wins = deals = 0
    for cards in permutations(unseen, 3):
        if any(card not in allowed[s] for s, card in zip(others, cards, strict=True)):
            continue
        deals += 1
        trick = {seat: lead, **dict(zip(others, cards, strict=True))}
        led = classes[lead]
        best = max(trick, key=lambda s: (classes[trick[s]] == TRUMP_CLASS,
                                         classes[trick[s]] in (led, TRUMP_CLASS),
                                         powers[trick[s]]))
        wins += best & 1 == team
    p = wins / deals
    samples = 1500
    estimate = trick_estimate(view(state, seat), samples=samples, seed=4)
    assert estimate.probabilities[already + 1] + estimate.probabilities[already] == 1.0
    sigma = (p * (1 - p) / samples) ** 0.5
    assert abs(estimate.probabilities[already + 1] - p) <= 4.5 * sigma + 1e-9


def test_ba25_trick_estimate_bids_and_throw_in() -> None:
    """The dealer after three passes: passing throws the deal in and scores 0."""
    state = _dealt(3, 8)
    for _ in range(3):
        state = apply(state, Pass())
    seat = state.dealer
    assert seat is not None
    assert state.current_player == seat
    estimate = trick_estimate(view(state, seat), samples=60, seed=5)
    assert [str(v.bid) for v in estimate.bids] == ["pass", "bid 1", "bid 2", "board"]
    by_bid = {str(v.bid): v for v in estimate.bids}
    assert by_bid["pass"].expected_score == 0.0
    assert by_bid["pass"].made == 0.0
    best = max(estimate.bids, key=lambda v: v.expected_score)
    assert estimate.suggested_bid == best.bid
    assert estimate.expected_score == best.expected_score
    assert abs(sum(estimate.probabilities) - 1.0) < 1e-9
    mean = sum(t * p for t, p in enumerate(estimate.probabilities))
    assert abs(mean - estimate.mean) < 1e-9
    # bid 1 alone is the team's contract (the partner passed): made iff a trick is taken.
    assert by_bid["bid 1"].made == pytest.approx(1.0 - estimate.probabilities[0])


def test_ba24_trick_estimate_counts_the_partners_bid() -> None:
    """After the partner's bid 2, a bid of 1 is a team contract of 3 and a pass one of 2."""
    state = _dealt(4, 2)
    dealer = state.dealer
    assert dealer is not None
    state = apply(apply(state, Bid(2)), Pass())     # seats dealer + 1 and dealer + 2
    seat = (dealer + 3) % 4
    assert state.current_player == seat
    estimate = trick_estimate(view(state, seat), samples=40, seed=1)
    by_bid = {str(v.bid): v for v in estimate.bids}
    assert by_bid["bid 1"].made == pytest.approx(sum(estimate.probabilities[3:]))
    assert by_bid["pass"].made == pytest.approx(sum(estimate.probabilities[2:]))


def test_trick_estimate_refuses_bad_samples() -> None:
    mine = view(_dealt(2, 1), 0)
    with pytest.raises(ValueError, match="samples"):
        trick_estimate(mine, samples=0)


def test_trick_estimate_result_round_trips_to_plain_values() -> None:
    estimate = trick_estimate(view(_dealt(2, 4), 1), samples=10, seed=3)
    data = estimate.to_dict()
    assert data["probabilities"] == list(estimate.probabilities)
    assert data["suggested_bid"] == str(estimate.suggested_bid)
    assert isinstance(estimate, TrickEstimate)


# -- cardrules advise back-alley ------------------------------------------------------

def test_advise_back_alley_json(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    code = main(["advise", "back-alley", "AS", "KS", "QH", "--trump", "2S", "--bids", "pass 2",
                 "--trials", "30", "--seed", "3", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hand"] == ["AS", "QH", "KS"]
    assert data["dealer"] == 1
    assert data["seat"] == 0
    assert data["bids"] == [None, None, "pass", "bid 2"]
    assert [b["bid"] for b in data["bid_values"]] == ["pass", "bid 1", "bid 2", "board"]
    assert abs(sum(data["probabilities"]) - 1.0) < 1e-9
    best = max(data["bid_values"], key=lambda b: b["expected_score"])
    assert data["suggested_bid"] == best["bid"]


def test_advise_back_alley_finds_the_seat_to_bid_from_the_dealer(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The seat left of the dealer bids first (BA-20): after dealer 2, seat 3.
    from cardrules.cli import main

    assert main(["advise", "back-alley", "AS KS", "--trump", "2H", "--dealer", "2",
                 "--trials", "10", "--seed", "1"]) == 0
    assert capsys.readouterr().out.startswith("Back Alley, seat 3 (dealer 2) with AS KS")


def test_advise_back_alley_refuses_a_hand_of_more_than_13_cards(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    hand = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH"
    assert main(["advise", "back-alley", hand, "--trump", "2H"]) == 2
    assert "a Back Alley hand has 1 to 13 cards, not 14" in capsys.readouterr().err


def test_advise_back_alley_table(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    assert main(["advise", "back-alley", "AS KS", "--trump", "BB", "--exchanger", "1",
                 "--trials", "10", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "turned BB: no trump" in out
    assert "suggested bid:" in out
    assert "board" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["AS", "KS"], "--trump"),
    (["AS", "KS", "--trump", "AS"], "cannot be in your hand"),
    (["AS", "KS", "--trump", "2S", "--bids", "pass 5"], "a bid is pass, board or 1"),
    (["AS", "KS", "--trump", "2S", "--seat", "1", "--dealer", "1"], "turn to bid"),
    (["AS", "LB", "--trump", "BB"], "BA-13"),
    (["AS", "KS", "--trump", "2S", "--exchanger", "2"], "BA-13"),
    (["AS", "XX", "--trump", "2S"], "XX"),
])
def test_advise_back_alley_refuses_bad_input(argv: list[str], message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    assert main(["advise", "back-alley", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


# -- the estimate's rollouts and determinisation (BA-13, BA-25) ----------------------------


@pytest.mark.parametrize("samples", [1, 2, 5, 9])
def test_trick_estimate_gives_the_mean_and_standard_error_of_its_rollouts(samples: int) -> None:
    # The rollouts' team tricks are recovered from the distribution; the mean
    # and the standard error of the mean (sample deviation / sqrt(n), 0 for
    # one rollout) must be theirs.
    estimate = trick_estimate(view(_opening(4, 4), 0), samples=samples, seed=4)
    tricks = [t for t, p in enumerate(estimate.probabilities)
              for _ in range(round(p * samples))]
    assert len(tricks) == samples
    assert estimate.mean == pytest.approx(statistics.fmean(tricks))
    expected = statistics.stdev(tricks) / math.sqrt(samples) if samples > 1 else 0.0
    assert estimate.stderr == pytest.approx(expected)
    if samples == 2:
        assert sorted(tricks) == [2, 4]
        assert estimate.stderr == pytest.approx(1.0)


def _exchanged_and_played_until(done: Callable[[GameState], bool]) -> GameState:
    """The joker-turned deal in which seat 2 exchanged (BA-13), bid by seat 1
    alone, then played by each seat's first legal card until ``done``."""
    state = then(joker_turned_with_exchange(), "bid 1", "pass", "pass", "pass")
    while not done(state):
        state = apply(state, legal_actions(state)[0])
    assert state.deal is not None
    assert state.deal.exchanger == 2
    return state


def _guesses(state: GameState, seat: int, count: int = 150) -> list[GameState]:
    """``count`` deals drawn from ``seat``'s view of ``state`` (seeded by the seat)."""
    sampler = Determinizer(view(state, seat))
    rng = random.Random(seat)
    return [sampler.sample(rng) for _ in range(count)]


def test_ba13_the_card_taken_is_drawn_among_the_exchangers_cards_played_or_held() -> None:
    # Seat 1 led and seat 2, the exchanger, followed: the card seat 2 took
    # may be any card it was dealt, the one it just played included, but
    # never seat 1's card in the same trick (BA-13, BA-50).
    state = _exchanged_and_played_until(lambda s: s.leader == 1 and len(s.trick) == 2)
    assert state.current_player == 3
    led, followed = state.trick
    for seat in (0, 3):
        taken = set()
        for guess in _guesses(state, seat):
            assert guess.deal is not None
            card = guess.deal.taken
            assert card is not None
            played = [c for t in guess.tricks for k, c in enumerate(t.cards)
                      if (t.leader + k) % 4 == 2]
            assert card in guess.hands[2] or card in played or card == followed
            taken.add(card)
        assert led not in taken
        assert followed in taken


def test_ba13_the_card_taken_may_be_one_the_exchanger_played_in_a_finished_trick() -> None:
    # After a whole trick, the exchanger's card in it is still among the cards
    # it was dealt, and the other seats' cards in it never are (BA-13, BA-50).
    state = _exchanged_and_played_until(lambda s: bool(s.tricks))
    first = state.tricks[0]
    own = {c for k, c in enumerate(first.cards) if (first.leader + k) % 4 == 2}
    for seat in (0, 3):
        taken = set()
        for guess in _guesses(state, seat):
            assert guess.deal is not None
            taken.add(guess.deal.taken)
        assert own <= taken
        assert not taken & (set(first.cards) - own)


def test_a_view_no_deal_fits_is_refused() -> None:
    # A tampered view: seats 1 to 3 are shown out of hearts in the first trick
    # (the 3H of seat 1 replaced by a diamond), so the twelve hearts seat 0
    # cannot see have nowhere to go but the one undealt card.
    state = then(dealt(["2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
                        "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2D",
                        "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD BB",
                        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC LB"], "2C"),
                 "bid 1", "pass", "pass", "pass",
                 "play 2H", "play 3H", "play 3D", "play 3C")
    seen = view(state, 0)
    first = seen.tricks[0]
    tampered = attrs.evolve(first, cards=(first.cards[0], parse_card("4D"), *first.cards[2:]))
    bad = attrs.evolve(seen, tricks=(tampered,))
    Determinizer(seen)   # the true view is fine
    with pytest.raises(ValueError, match="no deal of the unseen cards fits this view"):
        Determinizer(bad)


def test_determinize_keeps_the_history_when_no_deal_was_thrown_in() -> None:
    # After the first deal, with no throw-in (BA-25), the fewest throw-ins that
    # bring the deal to its dealer are none: a drawn state has the true history.
    rng = random.Random(2)
    state = _opening(3, 2)
    while len(state.results) < 1 or state.phase is not Phase.PLAY:
        state = apply(state, sample_chance(state, rng) if state.current_player is None
                      else rng.choice(legal_actions(state)))
    assert state.history.throw_ins == 0
    for seat in range(4):
        guess = Determinizer(view(state, seat)).sample(random.Random(seat))
        assert guess.history == state.history


class _Passer:
    """Passes whenever it may, else plays its first legal action."""

    def act(self, seen: object, legal: Sequence[object]) -> object:
        return next((a for a in legal if isinstance(a, Pass)), legal[0])


def test_ba25_a_rollout_all_four_pass_in_is_bid_by_the_seat_itself() -> None:
    # When all four pass (BA-25) the rollout is not thrown away: the seat
    # asked about bids the lowest other bid (1) at its own turn, the others
    # keep their passes.
    state = _opening(3, 2)
    seat = state.current_player
    assert seat is not None
    outcome = _roll(state, seat, [_Passer()] * 4)  # type: ignore[list-item]
    assert outcome.thrown_in
    assert not hasattr(outcome, "__dict__")   # a slotted record, one per rollout
    assert [str(b) for b in outcome.bids] == ["bid 1" if s == seat else "pass" for s in range(4)]


def test_values_of_the_analysis_and_the_tallies_are_slotted() -> None:
    # The result values are small frozen records kept by the thousand: they
    # carry no per-instance dictionary.
    estimate = trick_estimate(view(_opening(2, 1), 0), samples=2, seed=1)
    tally = BackAlleyTally(0, 0, ()).contract("3")
    for value in (estimate, *estimate.bids, tally):
        assert not hasattr(value, "__dict__"), type(value).__name__


def test_determinize_keeps_the_history_at_every_deal_of_a_game() -> None:
    # Deals of 1 to 3 cards: the dealer goes round the table (BA-11); at the
    # first play of each deal without a throw-in, drawn states keep the history.
    checked = 0
    for state in random_game(6, 3):
        first_play = state.phase is Phase.PLAY and not state.tricks and not state.trick
        if first_play and state.history.throw_ins == 0 and state.results:
            seat = state.current_player
            assert seat is not None
            guess = Determinizer(view(state, seat)).sample(random.Random(checked))
            assert guess.history == state.history
            checked += 1
    assert checked >= 3


class _ScriptedPicks(random.Random):
    """A generator whose first ``randrange`` returns ``first`` and later ones 0;
    ``shuffle`` keeps the order."""

    def __init__(self, first: int) -> None:
        super().__init__(0)
        self.first: int | None = first

    def randrange(self, *args: object, **kwargs: object) -> int:
        first, self.first = self.first, None
        return 0 if first is None else first

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        return None


def test_determinize_gives_each_place_of_a_constrained_card_its_share_of_the_deals() -> None:
    # The first card that a shown void constrains is placed by one uniform
    # pick among all the deals the view allows: the first picks leave it
    # undealt, the next ones give it to the first seat allowed, then to the
    # next, each range as long as the number of deals with the card there.
    # Checked at the edges of each range.
    state = next(s for s in random_game(6, 3)
                 if s.phase is Phase.PLAY and Determinizer(view(s, s.current_player or 0))
                 ._constrained)
    seat = state.current_player
    assert seat is not None
    sampler = Determinizer(view(state, seat))
    card, allowed = sampler._constrained[0]
    following = sampler._tables[1]
    needs = [view(state, seat).hand_sizes[s] for s in sampler._others]
    at = sum(n * stride for n, stride in zip(needs, sampler._strides, strict=True))
    places: list[tuple[int | None, int]] = [(None, following[at])]
    places += [(k, following[at - sampler._strides[k]]) for k in allowed if needs[k]]
    assert sum(size for _, size in places) == sampler._tables[0][at]
    low = 0
    for place, size in places:
        for pick in (low, low + size - 1):
            guess = sampler.sample(_ScriptedPicks(pick))
            holders = [k for k, s in enumerate(sampler._others) if CARDS[card] in guess.hands[s]]
            holder = None if CARDS[card] in guess.undealt else holders[0]
            assert holder == place, (pick, place)
        low += size
