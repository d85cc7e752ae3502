"""The Back Alley search bot (issue 10): legal, seeded, view-only, registered."""

from __future__ import annotations

import random

import pytest

from cardrules.back_alley import (
    RULES,
    HeuristicBot,
    Pass,
    Phase,
    SearchBot,
    apply,
    legal_actions,
    new_game,
    play_game,
    view,
)
from cardrules.back_alley.checks import check_invariants
from cardrules.engine import Bot, rules_for
from support.ba_deals import opening as _dealt


def test_search_bot_is_registered_as_search() -> None:
    assert RULES.bots["search"] is SearchBot
    assert rules_for("back_alley").bots["search"] is SearchBot


def test_search_bot_finishes_games_with_legal_actions() -> None:
    bots: list[Bot] = [SearchBot(seed=1, samples=3), HeuristicBot(2),
                       SearchBot(seed=3, samples=3, bid_samples=4), HeuristicBot(4)]
    game = play_game(bots, max_hand_size=3, seed=9)
    assert game.state.is_terminal
    assert len(game.state.results) == 5
    assert list(RULES.replay(game.record))[-1] == game.state   # every action was legal


def test_search_bot_returns_a_legal_play_every_turn() -> None:
    state = _dealt(5, 4)
    heuristic = [HeuristicBot(s) for s in range(4)]
    searcher = SearchBot(seed=0, samples=2)
    while state.phase in (Phase.BID, Phase.PLAY):
        seat = state.current_player
        assert seat is not None
        legal = legal_actions(state)
        choice = searcher.act(view(state, seat), legal)
        assert choice in legal
        state = apply(state, heuristic[seat].act(view(state, seat), legal))
    check_invariants(state)


def test_search_bot_is_seeded_and_sees_only_its_view() -> None:
    state = _dealt(6, 7)
    while state.phase is Phase.BID:
        state = apply(state, legal_actions(state)[1])
    heuristic = [HeuristicBot(s) for s in range(4)]
    for _ in range(5):   # into the play, so that some cards are known
        seat = state.current_player
        assert seat is not None
        state = apply(state, heuristic[seat].act(view(state, seat), legal_actions(state)))
    while len(legal_actions(state)) == 1:
        seat = state.current_player
        assert seat is not None
        state = apply(state, heuristic[seat].act(view(state, seat), legal_actions(state)))
    seat = state.current_player
    assert seat is not None
    legal = legal_actions(state)
    choices = [SearchBot(seed=s, samples=4).act(view(state, seat), legal) for s in range(3)]
    for s in range(3):
        other = RULES.hidden_variant(state, seat, random.Random(s))
        assert view(other, seat) == view(state, seat)
        assert SearchBot(seed=s, samples=4).act(view(other, seat), legal) == choices[s]


def test_search_bot_bids_legally() -> None:
    state = _dealt(4, 3)
    for bid_samples in (0, 5):
        seat = state.current_player
        assert seat is not None
        bot = SearchBot(seed=2, samples=2, bid_samples=bid_samples)
        assert bot.act(view(state, seat), legal_actions(state)) in legal_actions(state)


def test_search_bot_refuses_bad_budgets_and_empty_choices() -> None:
    with pytest.raises(ValueError, match="samples"):
        SearchBot(samples=0)
    with pytest.raises(ValueError, match="bid_samples"):
        SearchBot(bid_samples=-1)
    with pytest.raises(ValueError, match="no legal action"):
        SearchBot(seed=0).act(None, [])
    assert SearchBot(seed=0).act(None, [Pass()]) == Pass()


def test_inference_explains_heuristic_bids() -> None:
    """The true hands explain heuristic bids exactly; with inference the bot
    still plays legally and is seeded."""
    from cardrules.back_alley.search import _misses

    state = _dealt(8, 5)
    heuristic = [HeuristicBot(s) for s in range(4)]
    while state.phase is Phase.BID or len(state.tricks) < 2:
        seat = state.current_player
        assert seat is not None
        state = apply(state, heuristic[seat].act(view(state, seat), legal_actions(state)))
    assert state.phase is Phase.PLAY
    for seat in range(4):
        assert _misses(state, seat) == 0
    variants = [RULES.hidden_variant(state, 0, random.Random(s)) for s in range(20)]
    assert any(_misses(v, 0) > 0 for v in variants)
    seat = state.current_player
    assert seat is not None
    legal = legal_actions(state)
    choice = SearchBot(seed=4, samples=3, inference=3).act(view(state, seat), legal)
    assert choice in legal
    assert SearchBot(seed=4, samples=3, inference=3).act(view(state, seat), legal) == choice


def test_inference_chain_keeps_the_view_and_favours_explaining_deals() -> None:
    """The chain's deals give the same view, keep every shown void (the state
    replays legally) and explain the heuristic bids and plays better than
    uniform draws do."""
    from cardrules.back_alley.determinize import Determinizer
    from cardrules.back_alley.search import _Chain, _misses

    state = _dealt(8, 5)
    heuristic = [HeuristicBot(s) for s in range(4)]
    while state.phase is Phase.BID or len(state.tricks) < 3:
        seat = state.current_player
        assert seat is not None
        state = apply(state, heuristic[seat].act(view(state, seat), legal_actions(state)))
    seat = state.current_player
    assert seat is not None
    mine = view(state, seat)
    sampler = Determinizer(mine)
    rng = random.Random(3)
    chained = _Chain(mine, sampler.sample(rng), rng).run(12, 3)
    uniform = [sampler.sample(rng) for _ in range(12)]
    for guess in chained:
        assert view(guess, seat) == mine
        check_invariants(guess)
    assert sum(_misses(g, seat) for g in chained) < sum(_misses(g, seat) for g in uniform)


def test_touching_cards_are_searched_once() -> None:
    """QC and JC with no unseen club between them win the same tricks: only
    the lower is tried; 2H and the lone 9C stay."""
    from cardrules import parse_card
    from cardrules.back_alley import Bid, ChooseDealer, Shuffle
    from cardrules.back_alley.actions import CARDS
    from cardrules.back_alley.search import distinct_plays

    mine = [parse_card(t) for t in ("QC", "JC", "2H", "9C")]
    turned = parse_card("5S")
    rest = [c for c in CARDS if c not in (*mine, turned)]
    order = []
    for k in range(16):   # seat 1 gets every fourth card from the first
        order.append(mine[k // 4] if k % 4 == 0 else rest.pop(0))
    order.append(turned)
    order.extend(rest)
    state = apply(apply(new_game(max_hand_size=4), ChooseDealer(0)), Shuffle(tuple(order)))
    for bid in (Bid(3), Pass(), Pass(), Pass()):   # seat 1 bids 3 and leads (BA-30)
        state = apply(state, bid)
    assert state.current_player == 1
    legal = legal_actions(state)
    kept = [str(a) for a in distinct_plays(view(state, 1), legal)]
    assert sorted(kept) == ["play 2H", "play 9C", "play JC"]


def test_bid_search_tries_the_bids_next_to_the_heuristic_one() -> None:
    from cardrules.back_alley import Bid, Board
    from cardrules.back_alley.game import BID_CHOICES
    from cardrules.back_alley.search import _near_bids

    legal = BID_CHOICES[6]   # pass, 1 to 5, board (BA-21)
    assert _near_bids(Bid(3), legal) == [Pass(), Bid(2), Bid(3), Bid(4)]
    assert _near_bids(Pass(), legal) == [Pass(), Bid(1)]
    assert _near_bids(Board(), legal) == [Pass(), Board()]
    assert _near_bids(Bid(5), legal) == [Pass(), Bid(4), Bid(5)]


def test_a_high_confidence_keeps_the_heuristic_card() -> None:
    """With an unreachable confidence the search never leaves the heuristic
    card; with confidence 0 it plays its best total (and the check is refused
    for a negative confidence)."""
    from cardrules.back_alley.search import distinct_plays

    state = _dealt(6, 21)
    while state.phase is Phase.BID:
        state = apply(state, legal_actions(state)[1])
    plays = 0
    while state.phase is Phase.PLAY:
        seat = state.current_player
        assert seat is not None
        legal = legal_actions(state)
        mine = view(state, seat)
        careful = SearchBot(seed=seat, samples=3, confidence=1e9)
        # the heuristic bot inside the search bot is seeded from its generator
        expected = HeuristicBot(random.Random(seat).randrange(1 << 32))
        if len(distinct_plays(mine, legal)) > 1:
            assert careful.act(mine, legal) == expected.act(mine, legal)
            plays += 1
        assert SearchBot(seed=seat, samples=3, confidence=0).act(mine, legal) in legal
        state = apply(state, legal[0])
    assert plays > 0
    with pytest.raises(ValueError, match="confidence"):
        SearchBot(confidence=-1)
