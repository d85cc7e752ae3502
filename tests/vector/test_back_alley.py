"""The Back Alley batch engine in lockstep with the reducer, move for move.

Every game of a batch is shadowed by a reducer state: at every step the mask
row equals ``legal_action_ids``, the player to act and ``terminated`` agree,
the rewards are the change of ``RULES.returns``, and the observation rows
equal ``observation_tensor`` of the view; at the end replaying ``record(i)``
gives ``state(i)`` and the shadow.  The rare paths (throw-ins, boards, joker
leads, no-trump deals and joker exchanges, tricks won by a joker) are counted
and must have happened.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from cardrules.back_alley import (
    RULES,
    GameState,
    HeuristicBot,
    Phase,
    apply,
    legal_actions,
    new_game,
    view,
)
from cardrules.back_alley.encoding import (
    action_from_id,
    action_id,
    legal_action_ids,
    observation_tensor,
)
from cardrules.back_alley.vector import BackAlleyVector
from cardrules.cards import Joker
from cardrules.errors import IllegalActionError
from cardrules.vector import random_actions


def _returns(state: GameState) -> np.ndarray:
    return np.array(RULES.returns(state), dtype=np.float32)


def _lockstep(num_games: int, seed: int, max_hand_size: int, *, heuristic: int = 0,
              observe_every: int = 1) -> Counter[str]:
    """Play ``num_games`` games to the end in both engines; the first
    ``heuristic`` games choose with HeuristicBot, the others at random."""
    games = BackAlleyVector(num_games, seed=seed, max_hand_size=max_hand_size)
    rng = np.random.default_rng(seed)
    bots = [HeuristicBot(seed=i) for i in range(heuristic)]
    shadows: list[GameState] = []
    seen = [0] * num_games
    for i in range(num_games):
        state = new_game(max_hand_size=max_hand_size)
        for action in games.actions(i):
            state = apply(state, action)
        seen[i] = int(games._log_len[i])
        shadows.append(state)
    counts: Counter[str] = Counter()
    step = 0
    while True:
        live = (~games.terminated).nonzero()[0]
        observations = games.observation() if step % observe_every == 0 else None
        for i in live.tolist():
            state = shadows[i]
            assert games.current_player[i] == state.current_player
            assert tuple(games.legal_action_mask[i].nonzero()[0].tolist()) == \
                legal_action_ids(state)
            if observations is not None:
                seat = state.current_player
                assert seat is not None
                assert (observations[i] == observation_tensor(view(state, seat))).all()
        for i in (games.terminated).nonzero()[0].tolist():
            assert shadows[i].is_terminal
            assert games.current_player[i] == -1
            assert not games.legal_action_mask[i].any()
        if not len(live):
            break
        chosen = random_actions(games.legal_action_mask, rng)
        for i in live.tolist():
            if i < heuristic:
                state = shadows[i]
                seat = state.current_player
                assert seat is not None
                chosen[i] = action_id(bots[i].act(view(state, seat), legal_actions(state)))
        before = [_returns(shadows[i]) for i in range(num_games)]
        rewards, terminated = games.step(chosen)
        step += 1
        for i in live.tolist():
            state = shadows[i]
            number = int(chosen[i])
            if state.phase is Phase.PLAY and not state.trick_indexes and number - 14 >= 52:
                counts["joker leads"] += 1
            if number == 13:
                counts["boards"] += 1
            thrown = state.history.throw_ins
            state = apply(state, action_from_id(state, number))
            if state.history.throw_ins > thrown:
                counts["throw-ins"] += 1
            if state.tricks and not state.trick_indexes:
                trick = state.tricks[-1]
                if isinstance(trick.cards[(trick.winner - trick.leader) % 4], Joker):
                    counts["tricks won by a joker"] += 1
            new = games.actions(i, seen[i] + 1)
            seen[i] += 1 + len(new)
            for action in new:
                state = apply(state, action)
                if state.deal is not None and state.deal.trump is None:
                    counts["no-trump deals"] += 1
                    if state.deal.exchanger is not None:
                        counts["joker exchanges"] += 1
            shadows[i] = state
            assert (rewards[i] == _returns(state) - before[i]).all()
            assert terminated[i] == state.is_terminal
    for i in range(0, num_games, max(1, num_games // 20)):
        replayed = list(RULES.replay(games.record(i)))[-1]
        assert replayed == shadows[i] == games.state(i)
        assert tuple(games.scores[i]) == shadows[i].scores
    counts["games"] = num_games
    return counts


def test_short_games_in_lockstep_with_random_choices() -> None:
    counts = Counter[str]()
    for size, games in ((1, 1500), (2, 1000), (3, 600)):
        counts += _lockstep(games, seed=10 + size, max_hand_size=size)
    for rare in ("throw-ins", "boards", "joker leads", "no-trump deals", "joker exchanges",
                 "tricks won by a joker"):
        assert counts[rare] > 0, (rare, counts)


def test_short_games_in_lockstep_with_heuristic_choices() -> None:
    counts = _lockstep(300, seed=5, max_hand_size=3, heuristic=200)
    assert counts["games"] == 300


def test_full_games_in_lockstep() -> None:
    counts = _lockstep(24, seed=99, max_hand_size=13, heuristic=6, observe_every=3)
    assert counts["no-trump deals"] > 0


def test_game_i_is_the_same_whatever_the_number_of_games() -> None:
    small = BackAlleyVector(3, seed=4, max_hand_size=2)
    large = BackAlleyVector(50, seed=4, max_hand_size=2)
    assert small.record(2) == large.record(2)
    assert (small.legal_action_mask == large.legal_action_mask[:3]).all()


def test_an_illegal_action_names_the_rule_and_changes_no_game() -> None:
    games = BackAlleyVector(4, seed=8, max_hand_size=3)
    rng = np.random.default_rng(0)
    for _ in range(6):
        games.step(random_actions(games.legal_action_mask, rng))
    records = [games.record(i) for i in range(4)]
    mask = games.legal_action_mask.copy()
    chosen = random_actions(mask, rng)
    illegal = int((~mask[2]).nonzero()[0][0])
    chosen[2] = illegal
    with pytest.raises(IllegalActionError, match=r"^BA-\d+: game 2: "):
        games.step(chosen)
    chosen[2] = 99
    with pytest.raises(IllegalActionError, match="game 2: action ids are 0 to 67, not 99"):
        games.step(chosen)
    assert [games.record(i) for i in range(4)] == records
    assert (games.legal_action_mask == mask).all()


def test_an_illegal_action_id_0_is_refused_as_illegal_not_as_out_of_range() -> None:
    # Id 0 is a pass (a bid, BA-21): it is an action id, illegal once the cards
    # are played, so the message says so; -1 and 68 are no action ids at all.
    games = BackAlleyVector(4, seed=8, max_hand_size=3)
    rng = np.random.default_rng(0)
    while games.state(2).phase != Phase.PLAY:
        games.step(random_actions(games.legal_action_mask, rng))
    assert not games.legal_action_mask[2, 0]
    chosen = random_actions(games.legal_action_mask, rng)
    chosen[2] = 0
    with pytest.raises(IllegalActionError, match=r"^BA-\d+: game 2: action id 0 is not legal: "):
        games.step(chosen)
    for number in (-1, 68):
        chosen[2] = number
        with pytest.raises(IllegalActionError,
                           match=f"^BA-\\d+: game 2: action ids are 0 to 67, not {number}$"):
            games.step(chosen)


def test_observation_of_a_given_seat_and_of_finished_games() -> None:
    games = BackAlleyVector(40, seed=3, max_hand_size=1)
    rng = np.random.default_rng(1)
    while not games.terminated.all():
        for seat in range(4):
            rows = games.observation(seat)
            for i in range(0, 40, 7):
                assert (rows[i] == observation_tensor(view(games.state(i), seat))).all()
        games.step(random_actions(games.legal_action_mask, rng))
    assert not games.observation().any()
    assert (games.observation(1)[0] == observation_tensor(view(games.state(0), 1))).all()


def test_random_actions_are_uniform_among_the_legal_ones() -> None:
    # random masks of every width up to 80: each pick is legal, an empty row
    # gives 0, and over many rows each legal entry comes up about equally often
    rng = np.random.default_rng(7)
    for width in (1, 7, 8, 9, 63, 64, 65, 68, 80):
        mask = rng.random((500, width)) < 0.3
        mask[0] = False
        chosen = random_actions(mask, rng)
        assert chosen[0] == 0
        assert mask[np.arange(1, 500), chosen[1:]][mask[1:].any(axis=1)].all()
    mask = np.zeros((60000, 68), dtype=np.bool_)
    mask[:, [0, 9, 30, 67]] = True
    tally = np.bincount(random_actions(mask, rng), minlength=68)
    assert tally.sum() == 60000
    assert set(tally.nonzero()[0].tolist()) == {0, 9, 30, 67}
    assert (abs(tally[[0, 9, 30, 67]] - 15000) < 600).all()   # about 5.5 sigma



def test_rules_vector_without_a_hand_size_plays_the_default_one() -> None:
    # Rules.vector is given complete settings by make(); alone, it takes the
    # game's default for a setting left out, as new_game does.
    from cardrules.back_alley import RULES, Settings

    assert RULES.vector is not None
    engine = RULES.vector(2, 1, {})
    assert isinstance(engine, BackAlleyVector)
    assert engine.state(0).settings == Settings()
