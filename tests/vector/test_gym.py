"""The Gymnasium-style wrapper ``cardrules.vector.gym.VectorEnv``: reset and step
return what its docstring promises (shapes, the action mask, terminations on
the step a game ends, batch autoreset to new games), on the toy batch engine
(``support.toy_vector``)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from cardrules.vector import make, random_actions
from cardrules.vector.gym import VectorEnv, batch_seed
from support.toy_vector import RULES


def test_reset_gives_observations_and_infos_of_the_first_batch() -> None:
    env = VectorEnv(RULES, 8, seed=4, num_players=4)
    observations, infos = env.reset()
    game = make(RULES, 8, seed=4, num_players=4)
    assert observations.shape == (8, game.observation_size)
    assert observations.dtype == np.float32
    np.testing.assert_array_equal(observations, game.observation())
    np.testing.assert_array_equal(infos["action_mask"], game.legal_action_mask)
    np.testing.assert_array_equal(infos["current_player"], game.current_player)
    np.testing.assert_array_equal(infos["rewards"], game.rewards)
    assert not infos["over"].any()
    assert (env.num_envs, env.num_players, env.num_actions) == (8, 4, 2)
    assert [env.game.record(i) for i in range(8)] == [game.record(i) for i in range(8)]


def test_step_returns_rewards_per_seat_and_terminations_on_the_ending_step_only() -> None:
    env = VectorEnv(RULES, 16, seed=1, num_players=3)
    _, infos = env.reset()
    totals = infos["rewards"].astype(np.int64)
    rng = np.random.default_rng(0)
    ended = np.zeros(16, dtype=np.int64)
    for _ in range(3):      # three seats: every toy game lasts three decisions
        observations, rewards, terminations, truncations, infos = env.step(
            random_actions(infos["action_mask"], rng))
        assert rewards.shape == (16, 3)
        assert rewards.dtype == np.float32
        assert not truncations.any()
        totals += rewards.astype(np.int64)
        ended += terminations
    assert (ended == 1).all()
    assert infos["over"].all()
    assert not infos["action_mask"].any()
    assert (infos["current_player"] == -1).all()
    assert not observations.any()     # no one to act: zeros
    assert [tuple(row) for row in totals.tolist()] == \
        [RULES.returns(env.game.state(i)) for i in range(16)]


def test_the_step_after_the_last_game_ends_starts_new_games() -> None:
    env = VectorEnv(RULES, 4, seed=7, num_players=2)
    _, infos = env.reset()
    first = [env.game.record(i) for i in range(4)]
    for _ in range(2):
        *_, infos = env.step(np.zeros(4, dtype=np.int64))
    assert infos["over"].all()
    observations, rewards, terminations, truncations, infos = env.step(np.zeros(4))
    assert not terminations.any()
    assert not truncations.any()
    assert not infos["over"].any()
    assert (rewards == -1).all()     # the antes of the new deal
    second = make(RULES, 4, seed=batch_seed(7, 1), num_players=2)
    assert [env.game.record(i) for i in range(4)] == [second.record(i) for i in range(4)]
    assert [env.game.record(i) for i in range(4)] != first
    np.testing.assert_array_equal(observations, second.observation())


def test_reset_with_a_seed_starts_over_and_without_one_plays_new_games() -> None:
    env = VectorEnv(RULES, 3, seed=2)
    env.reset()
    first = [env.game.record(i) for i in range(3)]
    env.reset()
    assert [env.game.record(i) for i in range(3)] != first
    env.reset(seed=2)
    assert [env.game.record(i) for i in range(3)] == first
    env.reset(seed=5)
    assert [env.game.record(i) for i in range(3)] == \
        [make(RULES, 3, seed=5).record(i) for i in range(3)]


def test_without_autoreset_a_finished_batch_waits_for_reset() -> None:
    env = VectorEnv(RULES, 2, seed=3, autoreset=False, num_players=2)
    env.reset()
    for _ in range(2):
        env.step([1, 1])
    records = [env.game.record(i) for i in range(2)]
    _, rewards, terminations, _, infos = env.step([1, 1])
    assert not rewards.any()
    assert not terminations.any()
    assert infos["over"].all()
    assert [env.game.record(i) for i in range(2)] == records


def test_misuse_is_refused() -> None:
    env = VectorEnv(RULES, 2, seed=0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step([0, 0])
    with pytest.raises(ValueError, match="takes no options"):
        env.reset(options={"x": 1})
    with pytest.raises(ValueError, match="seed must be a whole number or None"):
        env.reset(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="autoreset must be True or False"):
        VectorEnv(RULES, 2, seed=0, autoreset=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="has no batch engine"):
        VectorEnv("toy", 2, seed=0)
    with pytest.raises(ValueError, match="unknown High card setting"):
        VectorEnv(RULES, 2, seed=0, players=2)


def test_the_spaces_follow_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    env = VectorEnv(RULES, 5, seed=0)
    assert env.single_action_space == gymnasium.spaces.Discrete(2)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([2] * 5)
    box = env.single_observation_space
    assert box.shape == (env.game.observation_size,)
    assert box.dtype == np.float32
    assert env.observation_space.shape == (5, env.game.observation_size)
    observations, _ = env.reset()
    assert env.observation_space.contains(observations)
    env.close()


def test_a_later_batch_seed_is_the_documented_sha256_derivation() -> None:
    # The first 8 bytes, big-endian, of SHA-256 of "cardrules.vector.gym:{seed}:{batch}":
    # a 64-bit seed another implementation can derive alike.
    digest = hashlib.sha256(b"cardrules.vector.gym:7:3").digest()
    assert batch_seed(7, 3) == int.from_bytes(digest[:8], "big") < 2**64
    assert batch_seed(7, 0) == 7
