"""The PettingZoo environments (cardrules.integrations.pettingzoo).

PettingZoo's own API and seed tests pass on both games; an episode is a
function of the seed and the actions; the rewards of a whole episode add up
to the net chips (DB-43, DB-44) or the team scores (BA-40 to BA-43) of the
same game played with ``apply``; illegal actions follow the classic games'
convention (the wrapped environment ends the game, the raw one raises).
"""

from __future__ import annotations

import importlib
import logging
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardrules import IllegalActionError
from cardrules import back_alley as ba
from cardrules import down_and_back as db
from cardrules.integrations.pettingzoo import (
    BackAlleyEnv,
    DownAndBackEnv,
    env,
    raw_env,
)

# The classic games' dict observations make PettingZoo's API test warn that
# observations "should be" arrays; those warnings say nothing about correctness.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be",
    "ignore:Observation is not a NumPy array")

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("down_and_back", {"num_players": 3, "rounds": 2}),
    ("back_alley", {"max_hand_size": 2}),
]
IDS = [game for game, _ in GAMES]


def episode(game: object, seed: int | None,
            action_seed: int = 0) -> Iterator[tuple[str, int | None, float, bool]]:
    """Play a whole episode (chance from ``seed``) with actions drawn from the masks
    by a seeded rng; yield (agent, action, reward from last(), terminated) each turn."""
    rng = np.random.default_rng(action_seed if seed is None else seed)
    game.reset(seed=seed)  # type: ignore[attr-defined]
    for agent in game.agent_iter():  # type: ignore[attr-defined]
        observation, reward, terminated, truncated, _ = game.last()  # type: ignore[attr-defined]
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        yield agent, action, float(reward), bool(terminated)
        game.step(action)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_pettingzoo_api_test_passes(game: str, settings: dict[str, Any]) -> None:
    api_test(env(game, **settings), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_pettingzoo_seed_test_passes(game: str, settings: dict[str, Any]) -> None:
    seed_test(lambda: env(game, **settings), num_cycles=100)


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_the_same_seed_plays_the_same_episode(game: str, settings: dict[str, Any]) -> None:
    first = list(episode(env(game, **settings), seed=11))
    again = list(episode(env(game, **settings), seed=11))
    other = list(episode(env(game, **settings), seed=12))
    assert first == again
    assert first != other
    assert first[-1][3]   # the episode ran to the end


def replay(game: str, settings: dict[str, Any], seed: int,
           actions: list[int]) -> db.GameState | ba.GameState:
    """The same game played with the reducer: chance from random.Random(seed), in the
    order the environment draws it, and the environment's action ids."""
    rng = random.Random(seed)
    if game == "down_and_back":
        state: db.GameState = db.new_game(settings["num_players"], rounds=settings["rounds"])
        todo = iter(actions)
        while not state.is_terminal:
            state = db.apply(state, db.sample_chance(state, rng) if state.is_chance
                             else db.action_from_id(state, next(todo)))
        return state
    other: ba.GameState = ba.new_game(max_hand_size=settings["max_hand_size"])
    todo = iter(actions)
    while not other.is_terminal:
        other = ba.apply(other, ba.sample_chance(other, rng) if other.is_chance
                         else ba.action_from_id(other, next(todo)))
    return other


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_episode_rewards_add_up_to_the_games_result(game: str, settings: dict[str, Any],
                                                    seed: int) -> None:
    environment = raw_env(game, **settings)
    environment.reset(seed=seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    actions: list[int] = []
    nonzero = 0
    rng = np.random.default_rng(seed)
    for agent in environment.agent_iter():
        observation, _, terminated, _, _ = environment.last()
        action = None
        if not terminated:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            actions.append(action)
        environment.step(action)
        for name, reward in environment.rewards.items():
            totals[name] += reward
            nonzero += reward != 0
        assert agent in environment.possible_agents
    final = replay(game, settings, seed, actions)
    assert final == environment.game_state
    assert final.is_terminal
    assert nonzero > 0
    if isinstance(final, db.GameState):
        assert [totals[f"player_{seat}"] for seat in range(final.num_players)] == \
            list(final.net)
    else:
        assert [totals[f"player_{seat}"] for seat in range(4)] == \
            [final.scores[seat & 1] for seat in range(4)]


def test_down_and_back_pays_each_round_when_it_ends() -> None:
    environment = DownAndBackEnv(num_players=2, ante=3, rounds=3)
    environment.reset(seed=4)
    rng = np.random.default_rng(4)
    paid = []
    while environment.agents and not environment.terminations[environment.agent_selection]:
        before = len(environment.game_state.results)
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
        rewards = list(environment.rewards.values())
        if len(environment.game_state.results) == before:
            assert rewards == [0.0, 0.0]
        else:
            result = environment.game_state.results[-1]
            expected = [-3.0, -3.0]
            if result.pot_winner is not None:
                expected[result.pot_winner] += result.pot
            assert rewards == expected
            paid.append(rewards)
    assert len(paid) == 3


def test_back_alley_partners_share_their_teams_points() -> None:
    environment = BackAlleyEnv(max_hand_size=3)
    environment.reset(seed=8)
    rng = np.random.default_rng(8)
    deals = 0
    while not environment.terminations[environment.agent_selection]:
        before = environment.game_state.scores
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
        after = environment.game_state.scores
        rewards = environment.rewards
        assert rewards["player_0"] == rewards["player_2"] == after[0] - before[0]
        assert rewards["player_1"] == rewards["player_3"] == after[1] - before[1]
        deals += after != before
    assert deals >= 1


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_observations_are_the_seats_views(game: str, settings: dict[str, Any]) -> None:
    environment = raw_env(game, **settings)
    environment.reset(seed=5)
    module = db if game == "down_and_back" else ba
    for _ in range(6):
        state = environment.game_state
        acting = environment.agent_selection
        for seat, agent in enumerate(environment.possible_agents):
            observation = environment.observe(agent)
            expected = module.observation_tensor(module.view(state, seat))
            assert np.array_equal(observation["observation"], expected)
            assert observation["observation"].dtype == np.float32
            mask = observation["action_mask"]
            assert mask.dtype == np.int8
            if agent == acting:
                assert tuple(np.flatnonzero(mask)) == module.legal_action_ids(state)
            else:
                assert not mask.any()
            assert environment.observation_space(agent).contains(observation)
        mask = environment.observe(acting)["action_mask"]
        environment.step(int(np.flatnonzero(mask)[-1]))


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_the_raw_environment_refuses_an_illegal_action(game: str,
                                                       settings: dict[str, Any]) -> None:
    environment = raw_env(game, **settings)
    environment.reset(seed=9)
    state, agent = environment.game_state, environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        environment.step(illegal)
    with pytest.raises(ValueError, match="action ids are 0 to"):
        environment.step(10_000)
    assert environment.game_state is state
    assert environment.agent_selection == agent
    assert not any(environment.terminations.values())


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_the_wrapped_environment_ends_the_game_on_an_illegal_action(
        game: str, settings: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    environment = env(game, illegal_reward=-5, **settings)
    environment.reset(seed=9)
    agent = environment.agent_selection
    mask = environment.observe(agent)["action_mask"]
    with caplog.at_level(logging.WARNING):
        environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert "Illegal move" in caplog.text
    assert all(environment.terminations.values())
    finals = {}
    for name in environment.agent_iter():
        _, reward, terminated, _, _ = environment.last()
        assert terminated
        finals[name] = reward
        environment.step(None)
    assert finals[agent] == -5
    assert all(reward == 0 for name, reward in finals.items() if name != agent)
    assert environment.agents == []


def test_render_modes() -> None:
    environment = raw_env("back_alley", render_mode="ansi", max_hand_size=2)
    environment.reset(seed=1)
    assert environment.render() == str(environment.game_state)
    quiet = raw_env("back_alley", max_hand_size=2)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("back_alley", render_mode="rgb_array")


def test_human_render_mode_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    environment = raw_env("down_and_back", render_mode="human", num_players=2, rounds=1)
    environment.reset(seed=2)
    assert environment.render() is None
    assert capsys.readouterr().out == str(environment.game_state) + "\n"


def test_metadata_and_spaces() -> None:
    for environment, name, size, actions in (
            (DownAndBackEnv(num_players=5), "down_and_back_v0", db.OBSERVATION_SIZE, 140),
            (BackAlleyEnv(), "back_alley_v0", ba.OBSERVATION_SIZE, 68)):
        assert environment.metadata["name"] == name
        assert environment.metadata["is_parallelizable"] is False
        assert "ansi" in environment.metadata["render_modes"]  # type: ignore[operator]
        agent = environment.possible_agents[-1]
        assert environment.action_space(agent).n == actions  # type: ignore[attr-defined]
        space = environment.observation_space(agent)
        assert space["observation"].shape == (size,)  # type: ignore[index]
        assert space["action_mask"].shape == (actions,)  # type: ignore[index]
    assert DownAndBackEnv(num_players=5).possible_agents == [f"player_{i}" for i in range(5)]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        raw_env("poker")
    with pytest.raises(ValueError, match="finite number of rounds"):
        DownAndBackEnv(rounds=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2 to 5 players"):
        env("down_and_back", num_players=6)
    with pytest.raises(TypeError):
        raw_env("back_alley", rounds=3)


def test_reset_without_a_seed_goes_on_with_the_same_generator() -> None:
    def two_episodes() -> tuple[list[object], list[object]]:
        environment = env("back_alley", max_hand_size=1)
        return list(episode(environment, seed=21)), list(episode(environment, seed=None))
    first, second = two_episodes()
    assert (first, second) == two_episodes()
    assert first != second


def test_the_extra_is_named_when_pettingzoo_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "cardrules.integrations.pettingzoo")
    with pytest.raises(ImportError, match=r'pip install "cardrules\[pettingzoo\]"'):
        importlib.import_module("cardrules.integrations.pettingzoo")


def test_importing_the_integrations_package_imports_no_extra() -> None:
    code = ("import sys, cardrules.integrations; "
            "print([m for m in ('pettingzoo', 'gymnasium', 'pyspiel', 'numpy') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
