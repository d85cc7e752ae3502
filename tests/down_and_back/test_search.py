"""SearchBot and its rollouts: legal choices, whole games, seeds, and no peeking
at hidden cards (DB-37, DB-40)."""

from __future__ import annotations

import random

import pytest

from cardrules.cards import DECK
from cardrules.down_and_back import (
    RULES,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    GreedyBot,
    Phase,
    SearchBot,
    Split,
    apply,
    best_splits,
    hand_value,
    legal_actions,
    new_game,
    play_game,
    sample_chance,
    split_strengths,
    view,
)
from cardrules.down_and_back.analysis import greedy_split
from cardrules.down_and_back.bots import greedy_measure
from cardrules.down_and_back.determinization import determinize
from cardrules.down_and_back.rollout import greedy_action, legal_options, play_out
from cardrules.down_and_back.search import _strengthen
from cardrules.engine import Bot
from support.db_deals import cards, greedy_until, start


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_search_bot_plays_whole_games_with_legal_actions(players: int) -> None:
    bots = [SearchBot(seed=1, rollouts=2, split_samples=5)] + \
        [GreedyBot(seed=s) for s in range(players - 1)]
    game = play_game(bots, rounds=1, seed=players)   # apply refuses any illegal action
    assert game.state.is_terminal
    assert sum(game.state.net) + game.state.pot == 0
    assert list(RULES.replay(game.record))[-1] == game.state


def test_search_bot_is_registered_and_made_from_a_seed() -> None:
    assert RULES.bots["search"] is SearchBot
    game = RULES.play([RULES.bots["search"](4), RULES.bots["greedy"](5)], {"rounds": 1},
                      seed=6)
    assert game.state.is_terminal


def test_same_seed_same_game() -> None:
    def once() -> tuple[object, ...]:
        bots: list[Bot] = [SearchBot(seed=9, rollouts=3, split_samples=10), GreedyBot(seed=1),
                           GreedyBot(seed=2)]
        return play_game(bots, rounds=1, seed=11).record.actions

    assert once() == once()


@pytest.mark.parametrize(("phase", "turn"), [(Phase.DRAW, 5), (Phase.DISCARD, 7),
                                             (Phase.SPLIT, 0)])
def test_search_bot_sees_only_its_view(phase: Phase, turn: int) -> None:
    for seed in range(3):
        state = greedy_until(phase, players=3, seed=seed, turn=turn, rounds=2)
        seat = state.current_player
        assert seat is not None
        legal = legal_actions(state)
        other = RULES.hidden_variant(state, seat, random.Random(seed))
        assert other != state   # the hidden cards really moved
        assert legal_actions(other) == legal
        for infer in (False, True):
            chosen = SearchBot(seed=3, rollouts=4, split_samples=20,
                               infer=infer).act(view(state, seat), legal)
            again = SearchBot(seed=3, rollouts=4, split_samples=20,
                              infer=infer).act(view(other, seat), legal)
            assert chosen == again
            assert chosen in legal


def test_search_bot_splits_one_of_the_undominated_splits() -> None:
    state = greedy_until(Phase.SPLIT, players=4, seed=5, rounds=2)
    seat = state.current_player
    assert seat is not None
    split = SearchBot(seed=1, split_samples=30).act(view(state, seat), legal_actions(state))
    assert isinstance(split, Split)
    undominated = {(o.down.cards, o.back.cards) for o in best_splits(state.hands[seat])}
    assert (tuple(split.down), tuple(split.back)) in undominated


def test_search_bot_cuts_and_chooses_without_a_view() -> None:
    bot = SearchBot(seed=2)
    assert bot.act(None, [Cut(3), Cut(4)]) in (Cut(3), Cut(4))
    with pytest.raises(ValueError, match="no legal action"):
        bot.act(None, [])
    with pytest.raises(ValueError, match="at least"):
        SearchBot(rollouts=-1)


def test_greedy_action_is_what_greedy_bot_does() -> None:
    rng = random.Random(2)
    state = new_game(4, rounds=2)
    bot = GreedyBot(seed=0)
    compared = 0
    while not state.is_terminal:
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
            continue
        seat = state.current_player
        assert seat is not None
        action = bot.act(view(state, seat), legal_actions(state))
        if state.phase is not Phase.CUT:
            assert greedy_action(state) == action
            compared += 1
        state = apply(state, action)
    assert compared > 100
    with pytest.raises(ValueError, match="nobody is to act"):
        greedy_action(new_game(2))


def test_play_out_finishes_the_round() -> None:
    state = greedy_until(Phase.DRAW, players=3, seed=4, turn=3, rounds=2)
    result = play_out(state, DrawStock(), random.Random(1))
    assert result.round == state.round
    assert result == play_out(state, DrawStock(), random.Random(1))
    with_bots = play_out(state, DrawStock(), random.Random(1), bot=GreedyBot, bot_seed=5)
    assert with_bots == result   # GreedyBot through its views plays as the fast policy


def test_legal_options_are_the_legal_draws_and_discards() -> None:
    state = greedy_until(Phase.DRAW, players=2, seed=1, turn=2, rounds=2)
    seat = state.current_player
    assert seat is not None
    assert legal_options(view(state, seat)) == (DrawStock(), DrawDiscard())
    drawn = apply(state, DrawStock())
    assert legal_options(view(drawn, seat)) == legal_actions(drawn)
    assert all(isinstance(a, Discard) for a in legal_options(view(drawn, seat)))
    with pytest.raises(ValueError, match="no draw or discard"):
        legal_options(view(drawn, 1 - seat))


def test_without_rollouts_a_search_bot_draws_as_a_greedy_bot() -> None:
    # rollouts=0 leaves the draws (DB-35) to the greedy choice, whichever pile it is.
    greedy = GreedyBot(seed=1)
    chosen = set()
    for seed in range(12):
        state = greedy_until(Phase.DRAW, players=3, seed=seed, rounds=1)
        for _ in range(8):
            seat = state.current_player
            assert seat is not None
            legal = legal_actions(state)
            action = greedy.act(view(state, seat), legal)
            if state.phase is Phase.DRAW:
                assert SearchBot(seed=2, rollouts=0).act(view(state, seat), legal) == action
                chosen.add(type(action))
            state = apply(state, action)
            if state.phase not in (Phase.DRAW, Phase.DISCARD):
                break
    assert chosen == {DrawStock, DrawDiscard}


def test_search_bot_cuts_as_a_greedy_bot_with_the_same_seed() -> None:
    # DB-32: the cut is the one choice a search has nothing to say about; it
    # matches GreedyBot's, so a ladder can compare the two on the same deals.
    state = greedy_until(Phase.CUT, players=3, seed=1, rounds=2)
    seat = state.current_player
    assert seat is not None
    search, greedy = SearchBot(seed=42), GreedyBot(seed=42)
    for _ in range(5):
        legal = legal_actions(state)
        assert search.act(view(state, seat), legal) == greedy.act(view(state, seat), legal)


@pytest.mark.parametrize(("phase", "turn"), [(Phase.DRAW, 9), (Phase.DISCARD, 14),
                                             (Phase.SPLIT, 0)])
def test_strengthened_deals_keep_the_view(phase: Phase, turn: int) -> None:
    # DB-37: only unseen cards move; the seen cards stay in their holders' hands.
    for seed in range(3):
        state = greedy_until(phase, players=4, seed=seed, turn=turn, rounds=2)
        for seat in range(4):
            seen = view(state, seat)
            rng = random.Random(seed)
            for _ in range(3):
                guess = _strengthen(determinize(seen, rng, split=greedy_split), seen, rng)
                assert view(guess, seat) == seen


def test_strengthened_opponents_hold_what_greedy_players_keep() -> None:
    # After six turns each, greedy opponents hold far better hands than seven
    # cards drawn at random; the inference makes the drawn hands as strong.
    state = greedy_until(Phase.SPLIT, players=4, seed=3, rounds=2)
    seat = state.current_player
    assert seat is not None
    seen = view(state, seat)
    rng = random.Random(1)
    plain, strong = [], []
    for _ in range(40):
        uniform = determinize(seen, rng, split=greedy_split)
        inferred = _strengthen(uniform, seen, rng)
        for other in range(4):
            if other != seat:
                plain.append(hand_value(uniform.hands[other])[0])
                strong.append(hand_value(inferred.hands[other])[0])
    assert sum(strong) / len(strong) > sum(plain) / len(plain) + 1
    truth = sum(hand_value(state.hands[o])[0] for o in range(4) if o != seat) / 3
    assert abs(sum(strong) / len(strong) - truth) < abs(sum(plain) / len(plain) - truth)


def test_search_bot_without_inference_still_plays_legally() -> None:
    bots: list[Bot] = [SearchBot(seed=1, rollouts=2, split_samples=5, infer=False),
                       GreedyBot(seed=2), GreedyBot(seed=3)]
    game = play_game(bots, rounds=1, seed=4)
    assert game.state.is_terminal


def test_the_memo_of_the_greedy_measure_gives_the_measure() -> None:
    rng = random.Random(8)
    deck = list(DECK)
    for _ in range(50):
        seven = rng.sample(deck, 7)
        fresh = max(d + b for d, b in split_strengths(seven))
        assert greedy_measure(seven) == fresh
        assert greedy_measure(list(reversed(seven))) == fresh   # the same cards, any order
        # GreedyBot's float weights are exactly the whole-number sums / 4096.
        assert hand_value(seven)[0] * 4096 == fresh


def test_the_memo_of_the_greedy_measure_keeps_at_most_its_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.down_and_back import bots

    monkeypatch.setattr(bots, "_MEASURES", {})
    monkeypatch.setattr(bots, "_MEASURES_SIZE", 2)
    rng = random.Random(9)
    sizes = []
    for _ in range(5):
        greedy_measure(rng.sample(list(DECK), 7))
        sizes.append(len(bots._MEASURES))
    assert sizes == [1, 2, 1, 2, 1]   # kept up to its size, then cleared


# -- pot shares and rollouts ---------------------------------------------------------------


def test_pot_share_of_a_hand_counts_whole_and_shared_pots() -> None:
    # Against a table of opponents' best hands (best down, how many hold it,
    # best back, how many hold it), a hand's pot share is the largest over its
    # undominated splits of the down share times the back share (DB-41, DB-43),
    # a tie splitting a showdown evenly; a hand that loses everything has none.
    from cardrules.down_and_back import strength3, strength4
    from cardrules.down_and_back.search import _pot_share
    from cardrules.down_and_back.showdown import SHARE as _SHARE

    strong = tuple(sorted(c.index for c in cards("KS KH KD KC QS QH QD")))
    weak = tuple(sorted(c.index for c in cards("2S 3H 5D 7C 9S JH 4D")))
    kings, queens = strength4(cards("KS KH KD KC")), strength3(cards("QS QH QD"))
    low_d, low_b = strength4(cards("2C 3D 4H 6S")), strength3(cards("2D 3S 5C"))
    beaten = (low_d, 1, low_b, 2)
    tied_down = (kings, 1, low_b, 1)
    assert _pot_share(strong, [beaten], {}) == _SHARE * _SHARE
    assert _pot_share(strong, [tied_down], {}) == _SHARE // 2 * _SHARE
    assert _pot_share(strong, [beaten, tied_down], {}) == _SHARE * _SHARE * 3 // 2
    assert _pot_share(weak, [(kings, 1, queens, 1)], {}) == 0
    cache: dict[tuple[int, ...], int] = {}
    assert _pot_share(strong, [beaten], cache) == cache[strong] == _SHARE * _SHARE


def test_play_out_makes_each_seats_bot_from_bot_seed_plus_seat() -> None:
    from cardrules.down_and_back import GreedyBot
    from cardrules.down_and_back.rollout import play_out

    seeds: list[int | None] = []

    def factory(seed: int | None) -> GreedyBot:
        seeds.append(seed)
        return GreedyBot(seed=seed)

    state = start(3, 0, {}, rounds=1)
    result = play_out(state, DrawStock(), random.Random(2), bot=factory, bot_seed=5)
    assert seeds == [5, 6, 7]
    assert result.round == 1
