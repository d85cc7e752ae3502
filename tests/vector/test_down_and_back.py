"""The Down and Back batch engine against the reducer, move for move (DB-30 to DB-44).

Each test plays a batch and, beside it, every game with the reducer: the
reducer's chance actions are drawn here from each game's stream, written
from the stream's description (:mod:`cardrules.vector.streams`, the module
docstring of :mod:`cardrules.down_and_back.vector`), not by the engine.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from cardrules import DECK, IllegalActionError
from cardrules.down_and_back import (
    RULES,
    ChooseDealer,
    GameState,
    Phase,
    Shuffle,
    apply,
    new_game,
    view,
)
from cardrules.down_and_back.encoding import (
    action_from_id,
    action_id,
    legal_action_ids,
    observation_tensor,
)
from cardrules.down_and_back.rollout import greedy_action
from cardrules.down_and_back.state import returns
from cardrules.down_and_back.vector import DownAndBackVector
from cardrules.vector.streams import below, game_keys, shuffle_orders, words


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action per row, drawn here (not by the engine's
    sampler, so that the games the seeds give stay fixed)."""
    scores = rng.random(mask.shape)
    scores[~mask] = -1.0
    chosen: np.ndarray = np.argmax(scores, axis=1)
    return chosen


def _chance(state: GameState, key: np.ndarray, counter: np.ndarray) -> tuple[GameState, int]:
    """Play the chance due in ``state`` from one game's stream; count reshuffles
    (those of a tie-break, DB-42, count 1000)."""
    reshuffles = 0
    while state.is_chance:
        action: ChooseDealer | Shuffle
        if state.phase is Phase.CHOOSE_DEALER:
            action = ChooseDealer(int(below(key, counter, state.num_players)[0]))
        elif state.phase is Phase.SHUFFLE:
            action = Shuffle(tuple(DECK[j] for j in shuffle_orders(key, counter, 52)[0]))
        else:
            pile = state.discard
            drawn = words(key, counter, 52)[0, :len(pile)] >> np.uint64(6)
            order = np.argsort(drawn, kind="stable")   # the top 58 bits, ties by position
            action = Shuffle(tuple(pile[j] for j in order))
            reshuffles += 1001 if state.showdown is not None else 1
        state = apply(state, action)
    return state, reshuffles


class Lockstep:
    """A batch and its games in the reducer, checked after every step."""

    def __init__(self, num_games: int, seed: int, num_players: int, rounds: int,
                 observe: int) -> None:
        self.games = DownAndBackVector(num_games, seed=seed, num_players=num_players,
                                       rounds=rounds)
        self.keys = game_keys(seed, 0, num_games)
        self.counters = [np.zeros(1, dtype=np.uint64) for _ in range(num_games)]
        self.states = []
        self.reshuffles = 0
        self.tiebreaks = 0
        self.tie_reshuffles = 0
        self.observe = observe          # games whose observations are compared
        for i in range(num_games):
            state, _ = _chance(new_game(num_players, rounds=rounds), self.keys[i:i + 1],
                               self.counters[i])
            self.states.append(state)
        self.check(np.zeros((num_games, num_players)))

    def check(self, rewards: np.ndarray) -> None:
        games = self.games
        for i, state in enumerate(self.states):
            ids = np.zeros(140, dtype=bool)
            ids[list(legal_action_ids(state))] = True
            assert (games.legal_action_mask[i] == ids).all(), i
            expected = -1 if state.current_player is None else state.current_player
            assert games.current_player[i] == expected, i
            assert games.terminated[i] == state.is_terminal, i
            assert (games.rewards[i] == rewards[i]).all(), i
        for i in range(self.observe):
            state = self.states[i]
            if state.current_player is not None:
                row = observation_tensor(view(state, state.current_player))
                assert (games.observation()[i] == row).all(), i
            seat = i % state.num_players
            assert (games.observation(seat)[i] == observation_tensor(view(state, seat))).all()

    def step(self, chosen: np.ndarray) -> None:
        self.games.step(chosen)
        rewards = np.zeros((len(self.states), self.games.num_players))
        for i, state in enumerate(self.states):
            before = returns(state)
            done = len(state.results)
            state = apply(state, action_from_id(state, int(chosen[i])))
            state, reshuffles = _chance(state, self.keys[i:i + 1], self.counters[i])
            self.reshuffles += reshuffles % 1000
            self.tie_reshuffles += reshuffles // 1000
            if len(state.results) > done:
                self.tiebreaks += len({d.stage for d in state.results[-1].tiebreaks})
            rewards[i] = np.subtract(returns(state), before)
            self.states[i] = state
        self.check(rewards)

    def finish(self) -> None:
        for i, state in enumerate(self.states):
            assert self.games.state(i) == state
            assert list(RULES.replay(self.games.record(i)))[-1] == state
        assert self.games.reshuffles == self.reshuffles
        assert self.games.tiebreaks == self.tiebreaks


@pytest.mark.parametrize(("num_players", "seed"), [(2, 11), (3, 12), (4, 13), (5, 14)])
def test_random_play_is_move_for_move_the_reducers(num_players: int, seed: int) -> None:
    # Random legal actions, the stock drawn nine times in ten so that four and
    # five players run it out (DB-36; two and three players never can in a round).
    rng = np.random.default_rng(seed)
    lock = Lockstep(500, seed, num_players, rounds=2, observe=40)
    while not lock.games.terminated.all():
        chosen = random_actions(lock.games.legal_action_mask, rng)
        chosen[(chosen == 52) & (rng.random(len(chosen)) < 0.8)] = 51
        lock.step(chosen)
    lock.finish()
    assert (lock.reshuffles > 0) == (num_players >= 4)
    assert lock.tiebreaks > 0           # DB-42 was played


def _greedy(lock: Lockstep, rng: np.random.Generator) -> np.ndarray:
    chosen = random_actions(lock.games.legal_action_mask, rng)
    for i, state in enumerate(lock.states):
        if state.phase in (Phase.DRAW, Phase.DISCARD, Phase.SPLIT):
            chosen[i] = action_id(greedy_action(state))
    return chosen


@pytest.mark.parametrize(("num_players", "seed"), [(2, 21), (4, 22), (5, 23)])
def test_greedy_play_is_move_for_move_the_reducers(num_players: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    lock = Lockstep(300, seed, num_players, rounds=2, observe=30)
    while not lock.games.terminated.all():
        lock.step(_greedy(lock, rng))
    lock.finish()
    assert lock.tiebreaks > 0


def test_a_reshuffle_during_a_tie_break_is_played() -> None:
    # Five players always drawing from the stock leave little of it for a
    # tie-break, which then runs it out (DB-42, DB-36); seed 3 has three.
    rng = np.random.default_rng(3)
    lock = Lockstep(60, 3, 5, rounds=6, observe=10)
    while not lock.games.terminated.all():
        chosen = random_actions(lock.games.legal_action_mask, rng)
        chosen[chosen == 52] = 51
        lock.step(chosen)
    lock.finish()
    assert lock.tie_reshuffles == 3
    assert lock.tiebreaks >= 3


def test_game_i_is_the_same_whatever_the_batch() -> None:
    small = DownAndBackVector(3, seed=9, num_players=3, rounds=1)
    large = DownAndBackVector(50, seed=9, num_players=3, rounds=1)
    rng = np.random.default_rng(0)
    while not small.terminated.all():
        chosen = random_actions(large.legal_action_mask, rng)
        assert (small.legal_action_mask == large.legal_action_mask[:3]).all()
        small.step(chosen[:3])
        large.step(chosen)
        assert (small.observation() == large.observation()[:3]).all()
    assert small.record(2) == large.record(2)


def test_an_illegal_action_names_the_rule_and_changes_no_game() -> None:
    games = DownAndBackVector(4, seed=3, num_players=2, rounds=1)
    games.step(np.zeros(4, dtype=np.int64))           # cut: now everyone draws
    before = [games.record(i) for i in range(4)], games.observation().copy()
    mask = games.legal_action_mask.copy()
    for bad in ([51, 51, 7, 51], [51, 51, 51, 140], [51, -1, 51, 51]):
        with pytest.raises(IllegalActionError, match="DB-34"):
            games.step(np.array(bad))
    assert [games.record(i) for i in range(4)] == before[0]
    assert (games.observation() == before[1]).all()
    assert (games.legal_action_mask == mask).all()


@pytest.mark.parametrize("seat", [-1, 3, 7, True, 1.0, "1", None])
def test_observation_of_a_seat_that_is_not_at_the_table_is_refused(seat: object) -> None:
    # three players: seats 0, 1 and 2; None is the player to act, not an error
    games = DownAndBackVector(2, seed=5, num_players=3, rounds=1)
    if seat is None:
        assert games.observation(seat).shape == (2, games.observation(0).shape[1])
        return
    with pytest.raises(ValueError, match=f"seat must be a whole number from 0 to 2, not {seat!r}"):
        games.observation(seat)  # type: ignore[arg-type]


def test_observation_of_each_seat_at_the_table_is_its_view() -> None:
    games = DownAndBackVector(2, seed=5, num_players=3, rounds=1)
    for seat in (0, 1, 2, np.int64(2)):
        row = observation_tensor(view(games.state(1), int(seat)))
        assert (games.observation(seat)[1] == row).all()  # type: ignore[arg-type]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="DB-44"):
        DownAndBackVector(2, seed=0, rounds=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2 to 5"):
        DownAndBackVector(2, seed=0, num_players=6)
    with pytest.raises(ValueError, match="num_games"):
        DownAndBackVector(0, seed=0)


def test_rules_vector_builds_the_batch_of_the_settings_given() -> None:
    from cardrules.down_and_back import RULES

    assert RULES.vector is not None
    engine = RULES.vector(2, 1, {"num_players": 3, "ante": 2, "rounds": 1})
    assert isinstance(engine, DownAndBackVector)
    assert (engine.num_players, engine.ante, engine.rounds) == (3, 2, 1)


@pytest.mark.parametrize("left_out", ["num_players", "ante", "rounds"])
def test_rules_vector_refuses_settings_left_out(left_out: str) -> None:
    # make() always passes all three; Rules.vector alone names what a batch needs
    # (a batch game must end, DB-44).
    from cardrules.down_and_back import RULES

    assert RULES.vector is not None
    settings: dict[str, int | None] = {"num_players": 3, "ante": 2, "rounds": 1}
    settings[left_out] = None
    with pytest.raises(ValueError, match=re.escape(
            "needs a number of players, an ante and a number of rounds (a batch game must "
            "end, DB-44)")):
        RULES.vector(2, 1, settings)


def test_a_finished_batch_ignores_actions_and_observes_zeros_for_the_player_to_act() -> None:
    games = DownAndBackVector(2, seed=1, num_players=2, rounds=1)
    rng = np.random.default_rng(1)
    while not games.terminated.all():
        games.step(random_actions(games.legal_action_mask, rng))
    rewards, terminated = games.step(np.array([999, -5]))
    assert terminated.all()
    assert not rewards.any()
    assert not games.observation().any()
    state = games.state(0)
    assert (games.observation(1)[0] == observation_tensor(view(state, 1))).all()


def test_greedy_actions_are_greedy_action_of_every_game() -> None:
    """The batch greedy choice equals the reducer's ``greedy_action`` (GreedyBot's
    measure) in every game at every decision but the cut, over whole games of
    two to five players, the batch played by its own greedy choices."""
    from cardrules.down_and_back import RULES as DB
    from cardrules.down_and_back.encoding import action_id
    from cardrules.down_and_back.rollout import greedy_action
    from cardrules.down_and_back.vector import DownAndBackVector

    checked = taken = 0
    for players in (2, 3, 4, 5):
        games = DownAndBackVector(40, seed=players, num_players=players, rounds=1)
        rng = np.random.default_rng(players)
        while not games.terminated.all():
            chosen = games.greedy_actions(rng)
            for i in range(games.num_games):
                state = [*DB.replay(games.record(i))][-1]   # the reducer's game i now
                if state.is_terminal or state.phase.name == "CUT":
                    continue
                assert int(chosen[i]) == action_id(greedy_action(state), state), (players, i)
                checked += 1
                taken += int(chosen[i]) == 52
            games.step(chosen)
    assert checked > 5_000
    assert taken > 100   # the discard pile's top card is taken often enough to matter
