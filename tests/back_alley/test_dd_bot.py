"""The Back Alley double-dummy bot: registered, legal, seeded,
view-only, plays the double-dummy winner, bids from the solved tricks."""

from __future__ import annotations

import random

import pytest

from cardrules.back_alley import (
    RULES,
    DoubleDummyBot,
    GameState,
    HeuristicBot,
    Pass,
    Phase,
    apply,
    legal_actions,
    play_game,
    view,
)
from cardrules.back_alley.checks import check_invariants
from cardrules.back_alley.double_dummy import DEFAULT_SAMPLES, bid_misfit
from cardrules.cli import main
from cardrules.engine import Bot, rules_for
from support.ba_deals import dealt, opening, then
from support.gamecheck import check_who_acts


def _act(bot: DoubleDummyBot, state: GameState) -> str:
    seat = state.current_player
    assert seat is not None
    legal = legal_actions(state)
    action = bot.act(view(state, seat), legal)
    assert action in legal
    return str(action)


def test_dd_bot_is_registered_as_dd() -> None:
    assert RULES.bots["dd"] is DoubleDummyBot
    assert rules_for("back_alley").bots["dd"] is DoubleDummyBot
    assert DoubleDummyBot().samples == DEFAULT_SAMPLES


@pytest.mark.parametrize(("options", "message"), [
    ({"samples": 0}, "samples must be a whole number of at least 1, not 0"),
    ({"samples": True}, "samples must be a whole number of at least 1, not True"),
    ({"samples": 2.0}, "samples must be a whole number of at least 1, not 2.0"),
    ({"bid_samples": -1}, "bid_samples must be a whole number of at least 0, not -1"),
    ({"inference": -1}, "inference must be a number of at least 0, not -1"),
    ({"inference": "1"}, "inference must be a number of at least 0, not '1'"),
    ({"implementation": "fast"}, "implementation must be one of auto, c, python, not 'fast'"),
    ({"threads": 0}, "threads must be None or a whole number of at least 1, not 0"),
    ({"threads": True}, "threads must be None or a whole number of at least 1, not True"),
])
def test_dd_bot_checks_its_parameters(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DoubleDummyBot(1, **options)  # type: ignore[arg-type]


def test_dd_bot_plays_whole_short_games_legally() -> None:
    bots: list[Bot] = [DoubleDummyBot(1, samples=3), HeuristicBot(2),
                       DoubleDummyBot(3, samples=3, bid_samples=2),
                       DoubleDummyBot(4, samples=2, bid_samples=2, inference=0)]
    game = play_game(bots, max_hand_size=3, seed=9)
    assert game.state.is_terminal
    assert len(game.state.results) == 5
    states = list(RULES.replay(game.record))   # every action was legal
    assert states[-1] == game.state
    for state in states:
        check_invariants(state)
        check_who_acts(RULES, state)


def test_dd_bot_returns_a_legal_action_at_every_turn() -> None:
    state = opening(4, 3)
    heuristic = [HeuristicBot(s) for s in range(4)]
    bot = DoubleDummyBot(0, samples=2)
    while state.phase in (Phase.BID, Phase.PLAY):
        seat = state.current_player
        assert seat is not None
        _act(bot, state)
        state = apply(state, heuristic[seat].act(view(state, seat), legal_actions(state)))


def test_dd_bot_without_a_view_leaves_it_to_the_heuristic() -> None:
    assert DoubleDummyBot(0).act(None, [Pass()]) == Pass()
    assert DoubleDummyBot(0).act("no view", ["a", "b"]) in ("a", "b")
    with pytest.raises(ValueError, match="no legal action"):
        DoubleDummyBot(0).act(None, [])


def _midplay(seed: int) -> GameState:
    state = opening(4, seed)
    while state.phase is Phase.BID:
        state = apply(state, legal_actions(state)[1])
    heuristic = [HeuristicBot(s) for s in range(4)]
    for _ in range(5):   # into the play, so that some cards and voids are shown
        seat = state.current_player
        assert seat is not None
        state = apply(state, heuristic[seat].act(view(state, seat), legal_actions(state)))
    while len(legal_actions(state)) == 1 and state.phase is Phase.PLAY:
        seat = state.current_player
        assert seat is not None
        state = apply(state, heuristic[seat].act(view(state, seat), legal_actions(state)))
    return state


def test_dd_bot_is_deterministic_for_a_seed() -> None:
    state = _midplay(7)
    assert _act(DoubleDummyBot(5, samples=4), state) == _act(DoubleDummyBot(5, samples=4),
                                                            state)
    bots = [DoubleDummyBot(s, samples=2) for s in range(4)]
    again = [DoubleDummyBot(s, samples=2) for s in range(4)]
    first = play_game(bots, max_hand_size=2, seed=4).record
    assert play_game(again, max_hand_size=2, seed=4).record == first


def test_dd_bot_plays_the_same_on_one_thread_as_on_three() -> None:
    # The draws are solved across threads (solve_many); the choice is the same.
    for seed in (7, 9, 11):
        state = _midplay(seed)
        assert (_act(DoubleDummyBot(3, samples=6, threads=1), state)
                == _act(DoubleDummyBot(3, samples=6, threads=3), state))


def test_dd_bot_sees_only_its_view() -> None:
    for seed in (7, 8):
        state = _midplay(seed)
        seat = state.current_player
        assert seat is not None
        for s in range(3):
            other = RULES.hidden_variant(state, seat, random.Random(s))
            assert view(other, seat) == view(state, seat)
            assert _act(DoubleDummyBot(s, samples=4), other) == _act(
                DoubleDummyBot(s, samples=4), state)


def test_dd_bot_ruffs_the_trick_it_can_only_win_now() -> None:
    # Spades are trump; seat 0 bid 1 and led the ace of hearts, and its
    # partner and an opponent followed.  Seat 3 has no heart: its 3S wins the
    # trick at once, while its 4D can win only if no other seat has a diamond
    # and no trump is left, and the 3S may still be overtrumped later.
    state = dealt(["AH 5C", "2H 6C", "3H 7C", "3S 4D"], "9S")
    state = then(state, "bid 1", "pass", "pass", "pass", "play AH", "play 2H", "play 3H")
    for seed in range(3):
        assert _act(DoubleDummyBot(seed, samples=6), state) == "play 3S"


def test_dd_bot_cashes_its_master_trumps_when_leading() -> None:
    # Seat 0 claimed board with the two top trumps and the ace (BA-32 lets it
    # lead trump): every draw is solved the same way, so it leads a trump
    # (drawing the trumps out) rather than the plain card.
    state = dealt(["BB LB 2D", "2H 6C 8D", "3H 7C 9D", "4H 5D TD"], "9S")
    state = then(state, "board", "pass", "pass", "pass")
    assert state.current_player == 0
    assert _act(DoubleDummyBot(0, samples=6), state) in ("play BB", "play LB")


def test_dd_bot_bids_high_on_a_strong_hand_and_low_on_a_weak_one() -> None:
    strong = dealt(["BB LB AS", "2H 6C 8D", "3H 7C 9D", "4H 5D TD"], "9S")
    assert _act(DoubleDummyBot(0, bid_samples=8), strong) == "board"
    weak = dealt(["2H 3D 4C", "AS KS QS", "AH KH QH", "AD KD QD"], "9S")
    assert _act(DoubleDummyBot(0, bid_samples=8), weak) == "pass"


def test_dd_bot_with_no_bid_samples_bids_like_the_heuristic() -> None:
    for seed in range(4):
        state = opening(5, seed)
        seat = state.current_player
        assert seat is not None
        expected = HeuristicBot(0).act(view(state, seat), legal_actions(state))
        bot = DoubleDummyBot(seed)   # bid_samples=0 by default
        bot._heuristic = HeuristicBot(0)
        assert _act(bot, state) == str(expected)


def test_dd_bot_plays_from_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["play", "back-alley", "--bots", "dd,heuristic,dd,heuristic",
                   "--max-hand-size", "2", "--seed", "3"])
    assert status == 0
    assert "scores: team 0" in capsys.readouterr().out


def test_bid_misfit_measures_how_far_the_bids_are_from_the_heuristic_ones() -> None:
    # Seat 0 passed with the three top trumps, on which the heuristic claims
    # board, and seat 1 claimed board with nothing: each misfits by the hand
    # size (board 3 against pass 0); seat 2 passed as the heuristic would.
    state = dealt(["BB LB AS", "2H 3D 4C", "AH KH QH", "AD KD QD"], "9S")
    state = then(state, "pass", "board", "pass")
    assert bid_misfit(view(state, 3), state) == 3 + 3 + 0
    honest = dealt(["2H 3D 4C", "AH KH QH", "AD KD QD", "BB LB AS"], "9S")
    heuristic = [HeuristicBot(s) for s in range(4)]
    while honest.phase is Phase.BID and honest.current_player != 3:
        actor = honest.current_player
        assert actor is not None
        honest = apply(honest, heuristic[actor].act(view(honest, actor), legal_actions(honest)))
    assert bid_misfit(view(honest, 3), honest) == 0


def test_dd_bot_with_inference_still_plays_legally_and_deterministically() -> None:
    state = _midplay(9)
    for inference in (0.0, 1.0, 3.0):
        first = _act(DoubleDummyBot(2, samples=3, inference=inference), state)
        assert first == _act(DoubleDummyBot(2, samples=3, inference=inference), state)


def test_dd_bot_weighs_its_bid_draws_by_the_bids_the_others_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # With inference, a draw is weighed by how far the other seats' bids are
    # from the heuristic's on its cards: POOL times as many deals are drawn
    # and each is measured, as soon as another seat has bid (the bot's own
    # bid is still to come), and none when nobody else has bid yet.
    import cardrules.back_alley.double_dummy.bot as bot_module

    measured: list[int] = []

    def counting(seat_view: object, drawn: GameState) -> float:
        measured.append(1)
        return bid_misfit(seat_view, drawn)  # type: ignore[arg-type]

    monkeypatch.setattr(bot_module, "bid_misfit", counting)
    state = dealt(["BB LB AS", "2H 3D 4C", "AH KH QH", "AD KD QD"], "9S")
    _act(DoubleDummyBot(0, bid_samples=2, inference=1.0), state)   # seat 0 bids first
    assert measured == []
    _act(DoubleDummyBot(0, bid_samples=2, inference=1.0), then(state, "pass", "board"))
    assert len(measured) == bot_module.POOL * 2


def test_dd_bot_solves_each_bid_draw_once_from_the_heuristic_bids_lead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The tricks of every candidate bid are those of one solved line, whose
    # opening lead follows from the heuristic's bid; the lowest number is
    # tried instead only when the heuristic's bids throw the deal in.
    import cardrules.back_alley.double_dummy.bot as bot_module

    leads: list[str] = []
    opening_lead = bot_module._opening_lead

    def counting(drawn: GameState, bid: object, seeds: object) -> GameState | None:
        leads.append(str(bid))
        return opening_lead(drawn, bid, seeds)  # type: ignore[arg-type]

    monkeypatch.setattr(bot_module, "_opening_lead", counting)
    state = dealt(["BB LB AS", "2H 6C 8D", "3H 7C 9D", "4H 5D TD"], "9S")
    reference = HeuristicBot(0).act(view(state, 0), legal_actions(state))
    assert str(reference) != "pass"   # a hand the heuristic bids on: never thrown in
    _act(DoubleDummyBot(0, bid_samples=3, inference=0), state)
    assert len(leads) == 3


def test_dd_bot_solves_a_deal_drawn_twice_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # With inference the kept draws are picked with replacement, so a deal
    # may come twice: it is solved once, and counted twice all the same.
    import cardrules.back_alley.double_dummy.bot as bot_module
    from cardrules.back_alley.double_dummy.solver import solve_many as real

    solved: list[list[GameState]] = []

    def spy(states: list[GameState], **options: object) -> object:
        solved.append(list(states))
        return real(states, **options)  # type: ignore[call-overload]

    monkeypatch.setattr(bot_module, "solve_many", spy)
    state = _midplay(9)
    bot = DoubleDummyBot(2, samples=24, inference=3.0)
    seat = state.current_player
    assert seat is not None
    drawn = bot._draws(view(state, seat), 24)   # what the same seed draws next
    assert len(set(drawn)) < len(drawn)
    _act(DoubleDummyBot(2, samples=24, inference=3.0), state)
    assert solved[-1] == list(dict.fromkeys(drawn))
