"""Down and Back analysis: split odds (DB-40 to DB-43), determinization and advice.

The odds are checked against a plain reference that lists every deal with
fractions, sampling against enumeration, the numpy path against the plain
Python path, and determinization for consistency with the view (DB-37) and
for uniformity.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import combinations, pairwise

import pytest

from cardrules import parse_card
from cardrules.cards import DECK, Card, parse_cards
from cardrules.down_and_back import (
    RULES,
    Cut,
    GameState,
    GreedyBot,
    Phase,
    Split,
    analysis,
    apply,
    best_splits,
    hand_value,
    legal_actions,
    new_game,
    sample_chance,
    split_strengths,
    splits,
    strength3,
    strength4,
    view,
)
from cardrules.down_and_back.analysis import (
    EXACT_LIMIT,
    SplitOdds,
    discard_advice,
    greedy_split,
    split_odds,
)
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.determinization import determinize
from cardrules.hand import Hand
from support.db_deals import greedy_until, paused_showdown, start

HAND = parse_cards("8S 8H 8D QH 5C 6C 7C")
# Leaves 14 unseen cards: 3,432 possible opponent hands.
SMALL_HAND = parse_cards("AS 2S 3S 4S 5H 6H 7H")
SMALL_DEAD = parse_cards("KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC 9S 9H 9D 9C "
                         "8S 8H 8D 8C 7S 7D 7C 6S 6D 6C 5S")


def _reference(hand: tuple[Card, ...], dead: tuple[Card, ...]) -> dict[Split, tuple[
        Fraction, Fraction, Fraction]]:
    """Exact odds against one greedy opponent, listing every hand, in fractions."""
    unseen = [c for c in DECK if c not in hand and c not in dead]
    ours = [(Split(o.down.cards, o.back.cards), o.down.strength, o.back.strength)
            for o in splits(hand)]
    # Shares counted in halves (DB-42: a tie between two players is won half
    # the time), the pot in quarters.
    totals = {s: [0, 0, 0] for s, _, _ in ours}
    count = 0
    for cards in combinations(unseen, 7):
        seven = sorted(cards)
        _, number = hand_value(seven)   # GreedyBot's choice (DB-40)
        d, b = split_strengths(seven)[number]
        count += 1
        for split, our_d, our_b in ours:
            down = 2 if our_d > d else 1 if our_d == d else 0
            back = 2 if our_b > b else 1 if our_b == b else 0
            row = totals[split]
            row[0] += down
            row[1] += back
            row[2] += down * back
    return {s: (Fraction(r[0], 2 * count), Fraction(r[1], 2 * count),
                Fraction(r[2], 4 * count)) for s, r in totals.items()}


def test_db42_exact_odds_match_a_fraction_reference() -> None:
    odds = split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, exact=True)
    expected = _reference(SMALL_HAND, SMALL_DEAD)
    assert len(odds) == 35
    assert {o.split for o in odds} == set(expected)
    for o in odds:
        p_down, p_back, p_both = expected[o.split]
        assert (o.p_down, o.p_back, o.p_both) == pytest.approx(
            (float(p_down), float(p_back), float(p_both)), abs=1e-12)
        assert o.exact
        assert o.trials == math.comb(14, 7)
        assert o.se_down == o.se_back == o.se_both == 0.0
    # Something is really being measured: not every split wins everything.
    assert len({round(o.p_both, 9) for o in odds}) > 5
    assert 0 < odds[0].p_both < 1


def test_exact_is_chosen_when_there_are_no_more_deals_than_trials() -> None:
    assert split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, trials=3432)[0].exact
    sampled = split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, trials=3431, seed=1)
    assert not sampled[0].exact
    assert sampled[0].trials == 3431
    assert not split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, exact=False, trials=10_000,
                          seed=1)[0].exact


def test_sampling_agrees_with_enumeration_within_standard_errors() -> None:
    exact = {o.split: o for o in split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, exact=True)}
    sampled = split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, trials=3000, seed=11, exact=False)
    worst = 0.0
    for o in sampled:
        e = exact[o.split]
        for p, se, truth in ((o.p_down, o.se_down, e.p_down), (o.p_back, o.se_back, e.p_back),
                             (o.p_both, o.se_both, e.p_both)):
            if se == 0:   # every sampled deal gave the same share
                assert truth in (0.0, 1.0) or abs(p - truth) < 0.01
                continue
            worst = max(worst, abs(p - truth) / se)
    assert worst < 4.5


def test_several_opponents_exact_matches_sampling() -> None:
    # Two opponents out of 15 unseen cards: C(15,7) * C(8,7) = 51,480 ordered deals.
    dead = SMALL_DEAD[:-1]
    exact = {o.split: o for o in split_odds(SMALL_HAND, 2, dead=dead, exact=True, pareto=True)}
    assert all(o.trials == math.comb(15, 7) * math.comb(8, 7) for o in exact.values())
    sampled = split_odds(SMALL_HAND, 2, dead=dead, trials=4000, seed=5, exact=False,
                         pareto=True)
    for o in sampled:
        e = exact[o.split]
        assert abs(o.p_both - e.p_both) <= 4.5 * max(o.se_both, 1e-3)
        assert abs(o.p_down - e.p_down) <= 4.5 * max(o.se_down, 1e-3)
        assert abs(o.p_back - e.p_back) <= 4.5 * max(o.se_back, 1e-3)


def test_numpy_and_python_paths_agree_exactly() -> None:
    for opponents in (1, 3, 4):
        vec = split_odds(HAND, opponents, trials=600, seed=opponents, vectorized=True)
        plain = split_odds(HAND, opponents, trials=600, seed=opponents, vectorized=False)
        assert vec == plain
    vec = split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, exact=True, vectorized=True)
    assert vec == split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, exact=True, vectorized=False)


def test_a_custom_opponent_policy_is_used_by_both_paths() -> None:
    def down_first(hand: Hand[Card]) -> Split:
        option = max(splits(hand), key=lambda o: (o.down.strength, o.back.strength))
        return Split(option.down.cards, option.back.cards)

    vec = split_odds(HAND, 2, trials=300, seed=3, opponent_split=down_first, vectorized=True)
    plain = split_odds(HAND, 2, trials=300, seed=3, opponent_split=down_first,
                       vectorized=False)
    assert vec == plain
    default = split_odds(HAND, 2, trials=300, seed=3)
    assert [o.p_down for o in vec] != [o.p_down for o in default]


def test_without_numpy_the_plain_path_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)   # import numpy now fails
    assert not analysis._have_numpy()
    plain = split_odds(HAND, 2, trials=200, seed=8)
    monkeypatch.undo()
    assert plain == split_odds(HAND, 2, trials=200, seed=8, vectorized=True)


def test_same_seed_same_odds_other_seed_other_odds() -> None:
    a = split_odds(HAND, 3, trials=300, seed=21)
    assert a == split_odds(HAND, 3, trials=300, seed=21)
    assert [o.p_both for o in a] != [o.p_both for o in split_odds(HAND, 3, trials=300, seed=22)]


def test_results_come_best_first_with_the_documented_tie_breaks() -> None:
    odds = split_odds(HAND, 3, trials=400, seed=2)
    keys = [(-o.p_both, -o.p_down, -o.p_back) for o in odds]
    assert keys == sorted(keys)
    assert str(odds[0].split) == "split 8S 8H 8D QH / 5C 6C 7C"
    # Splits equal in all three figures keep splits() order of the sorted hand.
    order = [str(Split(o.down.cards, o.back.cards)) for o in splits(Hand(HAND))]
    for first, second in pairwise(odds):
        if (first.p_both, first.p_down, first.p_back) == \
                (second.p_both, second.p_down, second.p_back):
            assert order.index(str(first.split)) < order.index(str(second.split))


def test_ties_share_the_showdown() -> None:
    # Hold the only four-card bouncers' rivals: the opponent's best possible
    # down hand ties ours at best.  With one opponent a tie is worth one half.
    odds = split_odds(SMALL_HAND, 1, dead=SMALL_DEAD, exact=True)
    fractions = {o.p_down * 3432 for o in odds}
    assert any(abs(f - round(f)) > 0.25 for f in fractions)   # some half wins


def test_pareto_rates_exactly_the_undominated_splits() -> None:
    full = {o.split: o for o in split_odds(HAND, 2, trials=300, seed=4)}
    pareto = split_odds(HAND, 2, trials=300, seed=4, pareto=True)
    expected = {Split(o.down.cards, o.back.cards) for o in best_splits(HAND)}
    assert {o.split for o in pareto} == expected
    for o in pareto:
        assert o == full[o.split]   # same deals, same figures


def test_split_odds_fields() -> None:
    top = split_odds(HAND, 1, trials=50, seed=0)[0]
    assert isinstance(top, SplitOdds)
    assert top.down.description == "prial of eights"
    assert 0 <= top.p_both <= min(top.p_down, top.p_back) <= 1
    assert top.se_both > 0 or top.p_both in (0.0, 1.0)
    with pytest.raises(AttributeError):
        top.p_both = 0.5  # type: ignore[misc]


def test_text_input_is_read() -> None:
    assert split_odds("8S 8H 8D QH 5C 6C 7C", 1, trials=20, seed=1, dead="2S 2H") == \
        split_odds(HAND, 1, trials=20, seed=1, dead=parse_cards("2S 2H"))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hand": HAND[:6]}, "7 cards, not 6"),
    ({"opponents": 5}, "1 to 4 opponents"),
    ({"opponents": 0}, "opponents"),
    ({"trials": 1}, "trials"),
    ({"dead": parse_cards("8S")}, "dead cards cannot be in the hand: 8S"),
    ({"dead": SMALL_DEAD + parse_cards("5D"), "hand": SMALL_HAND, "opponents": 2},
     "need 14 unseen cards; only 13"),
    ({"opponents": 4, "exact": True}, "too many to list"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"hand": HAND, "opponents": 1, "trials": 10, **kwargs}
    hand, opponents = args.pop("hand"), args.pop("opponents")
    with pytest.raises(ValueError, match=message):
        split_odds(hand, opponents, **args)  # type: ignore[arg-type]
    assert EXACT_LIMIT >= 1_000_000


def test_greedy_split_is_the_greedy_bots_split() -> None:
    import attrs

    rng = random.Random(6)
    bot = GreedyBot(seed=0)
    blank = view(new_game(2), 0)
    for _ in range(200):
        hand = Hand(rng.sample(DECK, 7))
        legal = [Split(o.down.cards, o.back.cards) for o in splits(hand)]
        assert greedy_split(hand) == bot.act(attrs.evolve(blank, hand=hand), legal)


def test_greedy_split_scores_match_the_strength_sum() -> None:
    split = greedy_split(HAND)
    total = strength4(split.down) + strength3(split.back)
    assert total == max(o.down.strength + o.back.strength for o in splits(HAND))


# -- determinize ---------------------------------------------------------------------



def _states(games: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = new_game(rng.randint(2, 5), rounds=2)
        while not state.is_terminal:
            out.append(state)
            state = apply(state, sample_chance(state, rng) if state.is_chance
                          else rng.choice(legal_actions(state)))
        out.append(state)
    return out


def test_db37_determinize_gives_back_the_view_in_every_phase() -> None:
    rng = random.Random(3)
    phases = set()
    for state in _states(6, seed=4)[::3]:
        for seat in range(state.num_players):
            v = view(state, seat)
            guess = determinize(v, rng)
            check_invariants(guess)
            assert view(guess, seat) == v
            phases.add(state.phase)
    assert {Phase.CUT, Phase.DRAW, Phase.DISCARD, Phase.SPLIT, Phase.SHUFFLE} <= phases


def test_determinize_keeps_seen_cards_and_the_chosen_split_policy() -> None:
    state = greedy_until(Phase.DRAW, players=4, seed=7, turn=14)
    assert any(state.seen), "the position should hold cards seen taken from the pile"
    v = view(state, 0)
    for k in range(20):
        guess = determinize(v, random.Random(k))
        for seat in range(4):
            assert set(state.seen[seat]) <= set(guess.hands[seat])
    split_state = greedy_until(Phase.SPLIT, players=3, seed=2)
    splitter = split_state.current_player
    assert splitter is not None
    after = apply(split_state, legal_actions(split_state)[0])   # one seat has split
    watcher = next(s for s in range(3) if after.splits[s] is None)
    guess = determinize(view(after, watcher), random.Random(1), split=greedy_split)
    assert guess.splits[splitter] == greedy_split(guess.hands[splitter])
    assert view(guess, watcher) == view(after, watcher)


def _determinized(state: GameState, seat: int, rng: random.Random) -> GameState:
    return determinize(view(state, seat), rng)


@pytest.mark.parametrize(("draw", "seed"), [(_determinized, 12), (RULES.hidden_variant, 13)],
                         ids=["determinize", "hidden_variant"])
def test_determinize_and_hidden_variant_are_uniform_over_the_hidden_cards(
        draw: Callable[[GameState, int, random.Random], GameState], seed: int) -> None:
    """Each unseen card lies in a given opponent's hand with probability
    (that hand's unseen places) / (unseen cards), and on top of the stock
    with probability 1 / (unseen cards): the conformance hook draws like
    determinize."""
    state = greedy_until(Phase.DRAW, players=3, seed=9, turn=4)
    v = view(state, 1)
    known = {*v.hand, *v.discard, *(c for s in v.seen for c in s)}
    pool = [c for c in DECK if c not in known]
    places = {o: v.hand_sizes[o] - len(v.seen[o]) for o in (0, 2)}
    samples = 3000
    rng = random.Random(seed)
    counts: dict[int, Counter[Card]] = {0: Counter(), 2: Counter()}
    top_of_stock: Counter[Card] = Counter()
    for _ in range(samples):
        guess = draw(state, 1, rng)
        for o in (0, 2):
            counts[o].update(c for c in guess.hands[o] if c not in v.seen[o])
        top_of_stock[guess.stock[0]] += 1
    for o in (0, 2):
        p = places[o] / len(pool)
        sd = math.sqrt(p * (1 - p) / samples)
        assert set(counts[o]) <= set(pool)
        for card in pool:
            assert abs(counts[o][card] / samples - p) < 5 * sd, (o, card)
    p = 1 / len(pool)
    sd = math.sqrt(p * (1 - p) / samples)
    assert all(abs(top_of_stock[c] / samples - p) < 5 * sd for c in pool)


def test_determinize_sees_only_the_view() -> None:
    rng = random.Random(5)
    for state in _states(3, seed=8)[::5]:
        for seat in range(state.num_players):
            other = RULES.hidden_variant(state, seat, rng)
            a = determinize(view(state, seat), random.Random(9))
            b = determinize(view(other, seat), random.Random(9))
            assert a == b


def _split_with_a_seen_card(players: int) -> tuple[GameState, int, int]:
    """A showdown (DB-40) in which one seat holding cards seen taken from the
    pile (DB-37) has chosen its split, and a seat that has not is watching."""
    for seed in range(40):
        state = greedy_until(Phase.SPLIT, players=players, seed=seed)
        splitter = state.current_player
        assert splitter is not None
        if len(state.seen[splitter]) < 2:
            continue
        after = apply(state, legal_actions(state)[0])
        watcher = next(s for s in range(players) if after.splits[s] is None)
        return after, splitter, watcher
    raise AssertionError("no showdown with seen cards found")


def test_db40_hidden_variant_draws_an_unrevealed_split_uniformly() -> None:
    """A split chosen but not revealed is hidden (DB-40): in the variants a
    card seen taken (DB-37) lies in the 4-card hand 4 times in 7, whatever the
    real split was, and every variant is a state the watcher cannot tell
    from the real one."""
    state, splitter, watcher = _split_with_a_seen_card(3)
    known = state.seen[splitter]
    draws = 2000
    rng = random.Random(3)
    down: Counter[Card] = Counter()
    for _ in range(draws):
        other = RULES.hidden_variant(state, watcher, rng)
        assert view(other, watcher) == view(state, watcher)
        split = other.splits[splitter]
        assert split is not None
        assert set(known) <= {*split.down, *split.back}
        down.update(c for c in known if c in split.down)
    p = 4 / 7
    sd = math.sqrt(p * (1 - p) / draws)
    for card in known:
        assert abs(down[card] / draws - p) < 5 * sd, (card, down[card])


def _after_a_draw(*, from_pile: bool) -> Iterator[tuple[GameState, int, int]]:
    """(state, mover, seat) for every state of 30 seeded games where the
    mover has drawn and must discard, the card drawn taken from the pile
    (seen by all, DB-37) when ``from_pile``, else from the stock, and every
    other seat."""
    for state in _states(30, seed=6):
        if state.phase is not Phase.DISCARD or state.drawn is None:
            continue
        mover = state.current_player
        assert mover is not None
        if (state.drawn in state.seen[mover]) != from_pile:
            continue
        for seat in range(state.num_players):
            if seat != mover:
                yield state, mover, seat


def test_db37_hidden_variant_keeps_the_card_just_taken_from_the_pile() -> None:
    """A card taken from the discard pile is seen by everyone (DB-37), but
    another seat's view does not say that it was taken this turn nor which of
    the cards seen taken came last; hidden_variant keeps it, where
    determinize alone must guess."""
    rng = random.Random(2)
    found = 0
    for state, mover, seat in _after_a_draw(from_pile=True):
        if len(state.seen[mover]) < 2:
            continue
        found += 1
        guesses = {determinize(view(state, seat), random.Random(k)).drawn for k in range(12)}
        assert guesses != {state.drawn}
        for _ in range(4):
            other = RULES.hidden_variant(state, seat, rng)
            assert other.drawn == state.drawn
            assert view(other, seat) == view(state, seat)
    assert found


def test_db37_hidden_variant_does_not_keep_a_card_drawn_from_the_stock() -> None:
    """A card drawn from the stock is seen by its drawer alone (DB-37): to
    another seat, hidden_variant draws it like any hidden card, and the
    variant is a whole consistent state."""
    rng = random.Random(3)
    found = 0
    for state, mover, seat in _after_a_draw(from_pile=False):
        found += 1
        variants = [RULES.hidden_variant(state, seat, rng) for _ in range(8)]
        for other in variants:
            RULES.check_invariants(other)
            assert view(other, seat) == view(state, seat)
            assert other.drawn in other.hands[mover]
        assert {other.drawn for other in variants} != {state.drawn}
    assert found


def test_hidden_variant_between_rounds_and_at_the_end_is_the_state() -> None:
    """Nothing is hidden before the first dealer, at a shuffle and at the end
    (DB-31, DB-32, DB-44)."""
    rng = random.Random(4)
    phases = set()
    for state in _states(3, seed=2):
        if state.phase in (Phase.CHOOSE_DEALER, Phase.SHUFFLE, Phase.GAME_OVER):
            phases.add(state.phase)
            for seat in range(state.num_players):
                assert RULES.hidden_variant(state, seat, rng) == state
    assert phases == {Phase.CHOOSE_DEALER, Phase.SHUFFLE, Phase.GAME_OVER}


def test_determinize_refuses_a_view_that_does_not_add_up() -> None:
    import attrs

    v = view(greedy_until(Phase.DRAW, players=2, seed=1), 0)
    with pytest.raises(ValueError, match="does not add up"):
        determinize(attrs.evolve(v, stock_size=v.stock_size + 1), random.Random(0))


# -- discard advice -----------------------------------------------------------------


def _draw_state(seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game(3)
    state = apply(state, sample_chance(state, rng))
    return apply(apply(state, sample_chance(state, rng)), Cut(17))


def test_discard_advice_rates_every_legal_option() -> None:
    state = _draw_state(1)
    v = view(state, state.current_player or 0)
    advice = discard_advice(v, rollouts=12, seed=3)
    assert sorted(map(str, (a.action for a in advice))) == \
        sorted(map(str, legal_actions(state)))
    assert [a.p_win for a in advice] == sorted((a.p_win for a in advice), reverse=True)
    drawn = apply(state, legal_actions(state)[0])
    v = view(drawn, drawn.current_player or 0)
    advice = discard_advice(v, rollouts=6, seed=3)
    assert {a.action for a in advice} == set(legal_actions(drawn))
    assert all(0 <= a.p_win <= 1 and a.se >= 0 and a.rollouts == 6 for a in advice)
    assert advice == discard_advice(v, rollouts=6, seed=3)


def test_discard_advice_sees_only_the_view() -> None:
    state = apply(_draw_state(2), legal_actions(_draw_state(2))[0])
    seat = state.current_player or 0
    other = RULES.hidden_variant(state, seat, random.Random(1))
    assert other != state
    assert discard_advice(view(state, seat), rollouts=5, seed=4) == \
        discard_advice(view(other, seat), rollouts=5, seed=4)


def test_discard_advice_with_a_bot_factory() -> None:
    state = _draw_state(3)
    v = view(state, state.current_player or 0)
    advice = discard_advice(v, rollouts=4, seed=1, bot=GreedyBot)
    # GreedyBot through its views plays exactly as the fast greedy rollouts do.
    assert advice == discard_advice(v, rollouts=4, seed=1)


def test_discard_advice_refuses_other_phases_and_seats() -> None:
    state = _draw_state(4)
    seat = state.current_player or 0
    with pytest.raises(ValueError, match="seat to act"):
        discard_advice(view(state, (seat + 1) % 3), rollouts=4)
    with pytest.raises(ValueError, match="seat to act"):
        discard_advice(view(new_game(3), 0), rollouts=4)


# -- the command ----------------------------------------------------------------------


def test_cli_advise_prints_the_undominated_splits(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    status = main(["advise", "down-and-back", "8S", "8H", "8D", "QH", "5C", "6C", "7C",
                   "--opponents", "3", "--trials", "300", "--seed", "1"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[0] == ("Undominated splits against 3 opponents, best first; 300 deals "
                      "sampled, seed 1")
    assert "pot (both)" in out[1]
    assert out[2].startswith("1  prial of eights (8S 8H 8D QH)  bouncer, seven high")
    assert len(out) == 2 + len(best_splits(HAND))
    odds = split_odds(HAND, 3, trials=300, seed=1, pareto=True)
    assert f"{odds[0].p_both:.3f} ± {odds[0].se_both:.3f}" in out[2]


def test_cli_advise_json_all_and_exact(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from cardrules.cli import main

    dead = " ".join(map(str, SMALL_DEAD))
    status = main(["advise", "down-and-back", "AS 2S 3S 4S 5H 6H 7H", "--opponents", "1",
                   "--dead", dead, "--all", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["exact"] is True
    assert data["trials"] == 3432
    assert len(data["splits"]) == 35
    first = split_odds(SMALL_HAND, 1, dead=SMALL_DEAD)[0]
    assert data["splits"][0]["p_both"] == first.p_both
    assert data["splits"][0]["down"] == [str(c) for c in first.split.down]
    assert main(["advise", "down-and-back", "AS 2S 3S 4S 5H 6H 7H", "--opponents", "1",
                 "--dead", dead]) == 0
    assert "every one of 3432 deals listed (exact)" in capsys.readouterr().out


def test_cli_advise_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    assert main(["advise", "down-and-back", "8S", "8H", "8D"]) == 2
    assert "7 cards, not 3" in capsys.readouterr().err
    assert main(["advise", "down-and-back", *map(str, HAND), "--opponents", "5"]) == 2
    assert "1 to 4 opponents" in capsys.readouterr().err
    assert main(["advise", "back-alley", "AS", "KS", "--opponents", "2"]) == 2
    assert "--opponents: Down and Back options" in capsys.readouterr().err


# -- found by mutation runs: sampling, odds and advice -------------------------------------


def test_db40_determinize_a_paused_showdown_gives_the_state_back() -> None:
    # Once every split is revealed (DB-40) and the stock is empty, nothing is
    # hidden: every seat's determinization is the state itself.
    state = paused_showdown()
    assert state.showdown is not None
    assert state.showdown.drawn[0].card == parse_card("8C")
    for seat in range(5):
        guess = determinize(view(state, seat), random.Random(seat))
        check_invariants(guess)
        assert guess == state


def test_split_odds_samples_exactly_the_trials_asked_for() -> None:
    # Each sampled deal gives every opponent seven cards, split by the
    # opponents' policy (DB-40): two opponents over 50 deals make 100 splits,
    # on the plain path and on the numpy path alike.
    from cardrules.down_and_back.analysis import greedy_split, split_odds

    for vectorized in (False, True):
        if vectorized:
            pytest.importorskip("numpy")
        calls: list[Hand[Card]] = []

        def policy(hand: Hand[Card], calls: list[Hand[Card]] = calls) -> Split:
            calls.append(hand)
            return greedy_split(hand)

        odds = split_odds("8S 8H 8D QH 5C 6C 7C", 2, trials=50, seed=4,
                          opponent_split=policy, vectorized=vectorized)
        assert len(calls) == 100
        assert all(len(hand) == 7 for hand in calls)
        assert {o.trials for o in odds} == {50}
        assert not any(o.exact for o in odds)


def test_numpy_is_found_when_installed() -> None:
    # The vectorised path is the default exactly when numpy can be imported.
    pytest.importorskip("numpy")
    from cardrules.down_and_back import analysis

    assert analysis._have_numpy() is True


def test_discard_advice_defaults_to_200_rollouts() -> None:
    from cardrules.down_and_back.analysis import discard_advice

    state = start(2, 0, {}, rounds=1)
    seat = state.current_player
    assert seat is not None
    advice = discard_advice(view(state, seat), seed=3)
    assert {a.rollouts for a in advice} == {200}
    assert len(advice) == 2
