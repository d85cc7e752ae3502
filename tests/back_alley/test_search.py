"""The Back Alley search bot: legal, seeded, view-only, registered."""

from __future__ import annotations

import hashlib
import random

import pytest

from cardrules import Card, Joker, parse_card
from cardrules.back_alley import (
    RULES,
    Bid,
    GameState,
    HeuristicBot,
    Pass,
    Phase,
    SearchBot,
    apply,
    legal_actions,
    new_game,
    parse_action,
    play_game,
    view,
)
from cardrules.back_alley.checks import check_invariants
from cardrules.back_alley.determinization import Determinizer
from cardrules.back_alley.search import _Chain, _seat_misses, distinct_plays
from cardrules.engine import Bot, rules_for
from support.ba_deals import dealt, joker_turned_with_exchange, then
from support.ba_deals import opening as _dealt
from support.ba_deals import opening as _opening


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
    from cardrules.back_alley.determinization import Determinizer
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


# -- the inference chain, seeds and pins ---------------------------------------------------


def _randomly_played(seed: int) -> GameState:
    """A 6-card deal bid and played (two tricks) by random legal moves."""
    rng = random.Random(seed)
    state = _opening(6, seed)
    while state.phase is Phase.BID or len(state.tricks) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_search_counts_unexplained_choices_only_for_the_seats_asked_for() -> None:
    # Random bids and plays: a heuristic player would have chosen otherwise
    # for every other seat.  Each seat's count depends on its own cards only,
    # so asking for one seat gives its count and 0 for every other seat (the
    # viewer's own choices are never counted).
    state = _randomly_played(0)
    full = _seat_misses(state, 0, [1, 2, 3])
    assert full[0] == 0
    assert all(full[s] > 0 for s in (1, 2, 3))
    for s in (1, 2, 3):
        assert _seat_misses(state, 0, [s]) == [full[k] if k == s else 0 for k in range(4)]
    assert _seat_misses(state, 2, [0, 1, 3])[2] == 0


def test_the_inference_chain_is_pinned() -> None:
    """A regression pin, not a rule: the Metropolis chain of
    ``SearchBot(inference=...)`` seen from seat 2 (so that seat 0's hand is
    one of the hidden ones) draws exactly these deals from a seeded
    generator.  A deliberate change of the chain updates the digest."""
    state = _randomly_played(0)
    seat = state.current_player
    assert seat == 2
    mine = view(state, seat)
    rng = random.Random(9)
    chained = _Chain(mine, Determinizer(mine).sample(rng), rng).run(6, 4)
    for guess in chained:
        assert view(guess, seat) == mine
    text = "\n".join(" | ".join(str(h) for h in g.hands) + f" | {g.undealt}" for g in chained)
    assert hashlib.sha256(text.encode()).hexdigest() == (
        "e1ef8aa47d32c139950ef7f4cdeb2846c565ed357b7c35921c028afef44f35fb")


def test_bid_search_leaves_the_heuristic_bid_for_a_better_one() -> None:
    # Three cards each, seat 1 to bid first: the heuristic passes, but on the
    # eight drawn deals bidding 1 scores better for the team (BA-40), so the
    # bid search bids 1.
    state = _opening(3, 2)
    seat = state.current_player
    assert seat == 1
    seen, legal = view(state, seat), legal_actions(state)
    assert HeuristicBot(0).act(seen, legal) == Pass()
    assert SearchBot(seed=1, bid_samples=8).act(seen, legal) == Bid(1)


def test_bid_search_seeds_each_sample_with_a_32_bit_rollout_seed() -> None:
    # Each drawn deal gets one rollout seed (the same for every candidate
    # bid, so candidates are compared on the same play), drawn as 32 bits
    # from the bot's own stream: over 32 samples the seeds use the whole range.
    drawn: list[tuple[tuple[int, ...], int]] = []

    class Recording(random.Random):
        def randrange(self, *args: int) -> int:  # type: ignore[override]
            value = super().randrange(*args)
            drawn.append((args, value))
            return value

    state = _opening(3, 2)
    assert state.current_player is not None
    seen, legal = view(state, state.current_player), legal_actions(state)
    bot = SearchBot(seed=1, bid_samples=32)
    spy = Recording()
    spy.setstate(bot.rng.getstate())
    bot.rng = spy
    bot.act(seen, legal)
    seeds = [value for args, value in drawn if args == (1 << 32,)]
    assert len(seeds) == 32                         # one seed per drawn deal
    assert all(0 <= s < 1 << 32 for s in seeds)
    assert max(seeds) >= 1 << 31                    # all 32 bits are used


def _bid_by_heuristics(state: GameState) -> GameState:
    bots = [HeuristicBot(seat) for seat in range(4)]
    while state.phase is Phase.BID:
        seat = state.current_player
        assert seat is not None
        state = apply(state, bots[seat].act(view(state, seat), legal_actions(state)))
    return state


def test_search_leaves_the_heuristic_card_for_one_that_clearly_scores_more() -> None:
    # The first card of a seeded 4-card deal: the heuristic would lead 4H, but
    # on the eight drawn deals 4C gains clearly more (above one standard
    # error), so the search bot leads 4C.
    state = _bid_by_heuristics(_opening(4, 4))
    assert state.current_player == 0
    seen, legal = view(state, 0), legal_actions(state)
    assert str(HeuristicBot(0).act(seen, legal)) == "play 4H"
    bot = SearchBot(seed=1, samples=8)
    assert str(bot.act(seen, legal)) == "play 4C"
    # A regression pin of the generator's use: with a single best card no
    # tie is drawn, so the bot's next draw is exactly this one.
    assert bot.rng.random() == 0.3167351468856021


def test_ba13_the_inference_chain_redraws_the_card_taken_among_the_exchangers_cards() -> None:
    # After a full trick, seat 1 leads AC and seat 2, the exchanger, plays KC.
    # Every deal of the chain keeps the view and the card seat 2 took is one
    # of its own cards, held or played (KC included, never seat 1's AC);
    # seen by seat 2 itself it stays the card it really took.
    state = then(joker_turned_with_exchange(), "bid 1", "pass", "pass", "pass")
    while len(state.tricks) < 1 or len(state.trick) < 2:
        state = apply(state, legal_actions(state)[0])
    deal = state.deal
    assert deal is not None
    assert deal.exchanger == 2
    assert state.leader == 1
    assert [str(c) for c in state.trick] == ["AC", "KC"]
    others: set[Card | Joker | None] = set()
    for seat in range(4):
        mine = view(state, seat)
        rng = random.Random(seat)
        taken = set()
        for guess in _Chain(mine, Determinizer(mine).sample(rng), rng).run(40, 1):
            assert view(guess, seat) == mine
            assert guess.deal is not None
            card = guess.deal.taken
            played = [c for t in guess.tricks for k, c in enumerate(t.cards)
                      if (t.leader + k) % 4 == 2]
            assert card in guess.hands[2] or card in played or str(card) == "KC"
            taken.add(card)
        if seat == 2:
            assert taken == {deal.taken}
        else:
            others |= taken
    assert parse_card("KC") in others
    assert parse_card("AC") not in others


def test_seeded_search_bots_play_a_pinned_game() -> None:
    """A regression pin, not a rule: two search bots and two heuristic bots
    on a seeded game of deals of 1 to 4 cards make exactly these 112 moves
    (chance events included) and score 40 to 32.  A deliberate change of the
    search (or of how it draws from its generator) updates the digest."""
    game = play_game([SearchBot(seed=1, samples=8), HeuristicBot(2), SearchBot(seed=3, samples=8),
                      HeuristicBot(4)], max_hand_size=4, seed=4)
    moves = " ".join(str(a) for a in game.record.actions)
    assert len(game.record.actions) == 112
    assert game.state.scores == (40, 32)
    assert hashlib.sha256(moves.encode()).hexdigest() == (
        "aa0c5ccb5846331ece23ce130971c698d7368e047cab54ecb18cb8d3418b9ff9")
    # The inner heuristic bot (the default card) is seeded from the bot's
    # own generator: a pin of that seed's first draw.
    assert SearchBot(seed=4)._heuristic.rng.random() == 0.14669850747419166


def test_search_reads_the_cards_of_a_trick_in_progress_by_seat() -> None:
    # Heuristic bots in mid-trick, led by a seat other than 0: with the true
    # hands a heuristic player explains every bid and play (the cards of the
    # trick in progress are each seat's own), so nothing is unexplained.
    state = _bid_by_heuristics(_opening(6, 3))
    bots = [HeuristicBot(seat) for seat in range(4)]
    while not (len(state.trick) == 2 and state.leader not in (None, 0)):
        seat = state.current_player
        assert seat is not None
        state = apply(state, bots[seat].act(view(state, seat), legal_actions(state)))
    for seat in range(4):
        assert _seat_misses(state, seat, range(4)) == [0, 0, 0, 0]


def test_search_reads_the_cards_of_a_trick_led_by_seat_0_as_seat_0s_first() -> None:
    # The same when seat 0 leads the trick in progress (a leader of 0 is a seat).
    found = 0
    for seed in range(3, 12):
        state = _bid_by_heuristics(_opening(6, seed))
        bots = [HeuristicBot(seat) for seat in range(4)]
        while state.phase is Phase.PLAY and not (len(state.trick) == 2 and state.leader == 0):
            seat = state.current_player
            assert seat is not None
            state = apply(state, bots[seat].act(view(state, seat), legal_actions(state)))
        if state.phase is not Phase.PLAY:
            continue
        found += 1
        for seat in range(4):
            assert _seat_misses(state, seat, range(4)) == [0, 0, 0, 0]
    assert found


def test_search_bot_weighs_the_heuristic_card_even_when_it_is_not_a_distinct_play() -> None:
    # distinct_plays keeps one card of each run of equals; the heuristic may
    # choose another of them, which is then searched beside them.
    state = _opening(6, 8)
    bots = [HeuristicBot(seat) for seat in range(4)]
    while True:
        seat = state.current_player
        assert seat is not None
        seen, legal = view(state, seat), legal_actions(state)
        if state.phase is Phase.PLAY:
            choice = HeuristicBot(0).act(seen, legal)
            if choice not in distinct_plays(seen, legal):
                break
        state = apply(state, bots[seat].act(seen, legal))
    for seed in range(6):
        bot = SearchBot(seed, samples=4)
        bot._heuristic = HeuristicBot(0)
        assert bot.act(seen, legal) in legal


def test_search_bot_picks_at_random_from_another_phases_actions() -> None:
    # A play-phase view with a list of bids, and a bidding view with a list
    # of plays: the search bot does not search them, it picks among them.
    state = then(dealt(["2S 5D 6D", "QH KC KD", "3H 7C 8C", "4H 9C TC"], "9S"),
                 "pass", "board", "pass", "pass")
    bot = SearchBot(seed=3, samples=2)
    assert {str(bot.act(view(state, 1), [Pass(), Bid(1)])) for _ in range(60)} == {
        "pass", "bid 1"}
    bidding = dealt(["2S 5D 6D", "QH KC KD", "3H 7C 8C", "4H 9C TC"], "9S")
    plays = [parse_action("play 2S"), parse_action("play 5D")]
    assert {str(bot.act(view(bidding, 0), plays)) for _ in range(60)} == {"play 2S", "play 5D"}
