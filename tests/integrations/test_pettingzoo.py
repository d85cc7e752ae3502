"""The PettingZoo environments (cardrules.integrations.pettingzoo).

PettingZoo's own API and seed tests pass on both games and on a small game
defined here from nothing but its ``Rules``; an episode is a function of the
seed and the actions; the rewards of a whole episode add up to the net chips
(DB-43, DB-44) or the team scores (BA-40 to BA-43) of the same game played
with ``apply``; observations are the seats' views and do not change when
what a seat cannot see is dealt differently; illegal actions follow the
classic games' convention (the wrapped environment ends the game, the raw
one raises).
"""

from __future__ import annotations

import ast
import importlib
import logging
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardrules import IllegalActionError
from cardrules import back_alley as ba
from cardrules import down_and_back as db
from cardrules.engine.rules import Rules
from cardrules.engine.tensors import Encoding
from cardrules.integrations.pettingzoo import CardGameEnv, env, raw_env
from support import ROOT

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


@pytest.mark.parametrize("fixed_deals", [False, True])
@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_pettingzoo_api_test_passes(game: str, settings: dict[str, Any],
                                    fixed_deals: bool) -> None:
    api_test(env(game, fixed_deals=fixed_deals, **settings), num_cycles=200,
             verbose_progress=False)


@pytest.mark.parametrize("fixed_deals", [False, True])
@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_pettingzoo_seed_test_passes(game: str, settings: dict[str, Any],
                                     fixed_deals: bool) -> None:
    seed_test(lambda: env(game, fixed_deals=fixed_deals, **settings), num_cycles=100)


def test_fixed_deals_deal_alike_however_the_game_is_played() -> None:
    """BA-12, BA-25: reset with the same seed and fixed_deals, two games see
    the same first deal and, deal by deal, the same hands at the same places
    from the dealer, even when one throws a deal in."""
    from cardrules.back_alley import Pass
    from cardrules.back_alley import encoding as ba_encoding

    def deals(pass_first: bool) -> list[Any]:
        game = raw_env("back_alley", max_hand_size=3, fixed_deals=True)
        game.reset(seed=21)
        hands = []
        while game.agents:
            state = game.game_state
            if state.phase.value == "bid" and all(bid is None for bid in state.deal.bids):
                hands.append(state.hand_indexes[state.dealer:] + state.hand_indexes[:state.dealer])
            mask = game.observe(game.agent_selection)["action_mask"]
            legal = [int(i) for i in np.flatnonzero(mask)]
            if game.terminations[game.agent_selection]:
                game.step(None)
            elif pass_first and not state.history.results and state.history.throw_ins == 0:
                game.step(ba_encoding.action_id(Pass()))
            else:
                game.step(legal[1] if state.phase.value == "bid" else legal[0])
        return hands
    calm, thrown = deals(False), deals(True)
    assert thrown[0] == calm[0]
    assert thrown[2:] == calm[1:]
    with pytest.raises(ValueError, match="fixed_deals must be True or False"):
        raw_env("back_alley", fixed_deals=1)  # type: ignore[call-overload]


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
    """The same game played with the game's own reducer: chance from
    random.Random(seed), in the order the environment draws it, and the
    environment's action ids."""
    rng = random.Random(seed)
    if game == "down_and_back":
        state: db.GameState = db.new_game(settings["num_players"], rounds=settings["rounds"])
        todo = iter(actions)
        while not state.is_terminal:
            state = db.apply(state, db.sample_chance(state, rng) if state.is_chance
                             else db.encoding.action_from_id(state, next(todo)))
        return state
    other: ba.GameState = ba.new_game(max_hand_size=settings["max_hand_size"])
    todo = iter(actions)
    while not other.is_terminal:
        other = ba.apply(other, ba.sample_chance(other, rng) if other.is_chance
                         else ba.encoding.action_from_id(other, next(todo)))
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


def test_down_and_back_charges_each_ante_when_paid_and_pays_the_pot_when_won() -> None:
    # Rewards are the change of the returns (the net chips): the first ante is
    # paid before the first decision and counts in the first step (DB-30); the
    # step that ends a round pays the pot to its winner (DB-43) and, unless the
    # game is over, charges the next round's ante, paid before its first deal.
    environment = raw_env("down_and_back", num_players=2, ante=3, rounds=3)
    environment.reset(seed=4)
    rng = np.random.default_rng(4)
    paid, first = [], True
    while environment.agents and not environment.terminations[environment.agent_selection]:
        before = len(environment.game_state.results)
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
        rewards = list(environment.rewards.values())
        if len(environment.game_state.results) == before:
            assert rewards == ([-3.0, -3.0] if first else [0.0, 0.0])
        else:
            result = environment.game_state.results[-1]
            ante = 0.0 if environment.game_state.is_terminal else -3.0
            expected = [ante, ante]
            if result.pot_winner is not None:
                expected[result.pot_winner] += result.pot
            assert rewards == expected
            paid.append(rewards)
        first = False
    assert len(paid) == 3


def test_back_alley_partners_share_their_teams_points() -> None:
    environment = raw_env("back_alley", max_hand_size=3)
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
            expected = module.encoding.observation_tensor(module.view(state, seat))
            assert np.array_equal(observation["observation"], expected)
            assert observation["observation"].dtype == np.float32
            mask = observation["action_mask"]
            assert mask.dtype == np.int8
            if agent == acting:
                assert tuple(np.flatnonzero(mask)) == module.encoding.legal_action_ids(state)
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


def test_human_render_mode_prints_the_table_after_each_step_and_no_other_mode_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    # PettingZoo's convention: "human" renders at every step, by itself.
    for mode in ("human", "ansi", None):
        environment = raw_env("down_and_back", render_mode=mode, num_players=2, rounds=1)
        environment.reset(seed=2)
        capsys.readouterr()
        agent = environment.agent_selection
        mask = environment.observe(agent)["action_mask"]
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # no render without a mode, so no warning
            environment.step(int(np.flatnonzero(mask)[0]))
        printed = capsys.readouterr().out
        assert printed == (str(environment.game_state) + "\n" if mode == "human" else ""), mode


def test_metadata_and_spaces() -> None:
    for environment, name, size, actions in (
            (raw_env("down_and_back", num_players=5), "down_and_back_v0",
             db.encoding.OBSERVATION_SIZE, 140),
            (raw_env("back_alley"), "back_alley_v0", ba.encoding.OBSERVATION_SIZE, 68)):
        assert environment.metadata["name"] == name
        assert environment.metadata["is_parallelizable"] is False
        assert "ansi" in environment.metadata["render_modes"]  # type: ignore[operator]
        agent = environment.possible_agents[-1]
        assert environment.action_space(agent).n == actions  # type: ignore[attr-defined]
        space = environment.observation_space(agent)
        assert space["observation"].shape == (size,)  # type: ignore[index]
        assert space["action_mask"].shape == (actions,)  # type: ignore[index]
    assert raw_env("down_and_back", num_players=5).possible_agents == \
        [f"player_{i}" for i in range(5)]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown game \(choose from .*back-alley.*\): 'poker'"):
        raw_env("poker")
    with pytest.raises(TypeError, match="a name or a Rules object"):
        raw_env(3)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="finite number of rounds"):
        raw_env("down_and_back", rounds=None)
    with pytest.raises(ValueError, match="2 to 5 players"):
        env("down_and_back", num_players=6)
    with pytest.raises(ValueError, match="unknown Back Alley setting 'rounds'"):
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


# -- one environment over Rules ------------------------------------------------------


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [4, 5])
def test_rewards_add_up_to_the_returns_of_the_final_state(game: str, settings: dict[str, Any],
                                                          seed: int) -> None:
    environment = raw_env(game, **settings)
    rules = environment.rules
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent, _, reward, _ in episode(environment, seed=seed):
        totals[agent] += reward
    final = environment.game_state
    assert final.is_terminal
    assert [totals[agent] for agent in environment.possible_agents] == \
        [float(value) for value in rules.returns(final)]


@pytest.mark.parametrize(("game", "settings"), GAMES, ids=IDS)
def test_an_observation_holds_nothing_its_seat_cannot_see(game: str,
                                                          settings: dict[str, Any]) -> None:
    # Dealing differently every card a seat cannot see leaves its observation alone.
    environment = raw_env(game, **settings)
    rules, encoding = environment.rules, environment.rules.encoding
    assert encoding is not None
    rng = random.Random(3)
    played = changed = 0
    for _, _, _, terminated in episode(environment, seed=13):
        state = environment.game_state
        for seat, name in enumerate(environment.possible_agents):
            variant = rules.hidden_variant(state, seat, rng)
            changed += variant != state
            assert np.array_equal(environment.observe(name)["observation"],
                                  encoding.observation_tensor(variant, seat))
        played += 1
        if played == 40 or terminated:
            break
    assert played >= 30
    assert changed >= 2 * played   # most variants really deal differently


@pytest.mark.parametrize(("game", "settings"), [
    ("down_and_back", {"num_players": 5, "ante": 2, "rounds": 2}),
    ("down_and_back", {"num_players": 2, "rounds": 3}),
    ("back_alley", {"max_hand_size": 3}),
], ids=["db5", "db2", "ba3"])
def test_every_observation_lies_in_its_box_to_the_end(game: str,
                                                      settings: dict[str, Any]) -> None:
    environment = raw_env(game, **settings)
    for seed in (1, 2):
        for _ in episode(environment, seed=seed):
            for agent in environment.possible_agents:
                assert environment.observation_space(agent).contains(environment.observe(agent))
        assert environment.game_state.is_terminal
        for agent in environment.possible_agents:
            assert environment.observation_space(agent).contains(environment.observe(agent))


def test_a_game_is_found_by_name_in_any_case_or_by_its_rules() -> None:
    for game in ("Down-And-Back", "DOWN_AND_BACK", db.RULES):
        environment = raw_env(game, num_players=2, rounds=1)
        assert environment.rules is db.RULES
        assert environment.metadata["name"] == "down_and_back_v0"
    wrapped = env("back-alley", max_hand_size=1)
    assert wrapped.unwrapped.rules is ba.RULES
    assert wrapped.metadata["name"] == "back_alley_v0"
    assert isinstance(wrapped.unwrapped, CardGameEnv)


def test_a_game_without_an_encoding_is_refused() -> None:
    with pytest.raises(ValueError, match=r"Back Alley has no encoding \(Rules.encoding is None\)"):
        env(attrs.evolve(ba.RULES, encoding=None))


def test_the_observation_box_takes_the_games_bounds() -> None:
    environment = raw_env("back_alley", max_hand_size=2)
    box = environment.observation_space("player_0")["observation"]  # type: ignore[index]
    low, high = ba.RULES.encoding.observation_bounds({"max_hand_size": 2})  # type: ignore[union-attr, misc]
    assert box.low.tolist() == list(low)
    assert box.high.tolist() == list(high)


def test_a_game_without_observation_bounds_gets_an_unbounded_box() -> None:
    encoding = attrs.evolve(db.RULES.encoding, observation_bounds=None)  # type: ignore[misc]
    environment = raw_env(attrs.evolve(db.RULES, encoding=encoding), num_players=2, rounds=1)
    box = environment.observation_space("player_1")["observation"]  # type: ignore[index]
    assert np.all(box.low == -np.inf)
    assert np.all(box.high == np.inf)
    api_test(env(attrs.evolve(db.RULES, encoding=encoding), num_players=2, rounds=1),
             num_cycles=50, verbose_progress=False)


def test_bounds_of_the_wrong_length_are_refused() -> None:
    def short(settings: Mapping[str, int | None]) -> tuple[tuple[float, ...], tuple[float, ...]]:
        return (0.0,), (1.0,)
    encoding = attrs.evolve(ba.RULES.encoding, observation_bounds=short)  # type: ignore[misc]
    with pytest.raises(ValueError, match="gave 1 and 1 values for a vector of 698"):
        raw_env(attrs.evolve(ba.RULES, encoding=encoding))


def test_the_adapter_names_no_game() -> None:
    # Written once over Rules: no game package imported, no game's name in the code
    # (docstrings and their examples aside).
    path = ROOT / "src/cardrules/integrations/pettingzoo.py"
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.module is not None
            assert not node.module.startswith(("cardrules.down_and_back",
                                               "cardrules.back_alley")), node.module
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            assert "down_and_back" not in node.value, node.value
            assert "back_alley" not in node.value, node.value
    code = ("import sys, cardrules.integrations.pettingzoo; "
            "print([m for m in sys.modules if m.startswith(('cardrules.down_and_back', "
            "'cardrules.back_alley'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# -- a game made of nothing but its Rules ----------------------------------------------
#
# Race to ten: two players add 1 or 2 in turn to a running total, starting from
# 0; a coin toss (chance) picks who starts; whoever brings the total to the
# target wins 1 and the other loses 1.


@attrs.frozen
class RaceState:
    target: int
    total: int = 0
    to_act: int | None = None
    winner: int | None = None

    @property
    def current_player(self) -> int | None:
        return self.to_act

    @property
    def is_chance(self) -> bool:
        return self.to_act is None and self.winner is None

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None

    @property
    def num_players(self) -> int:
        return 2


@attrs.frozen
class Toss:
    seat: int


def race_legal(state: RaceState) -> tuple[int, ...]:
    if state.to_act is None:
        return ()
    return tuple(step for step in (1, 2) if state.total + step <= state.target)


def race_apply(state: RaceState, action: object, *, seat: int | None = None) -> RaceState:
    if state.is_chance:
        if not isinstance(action, Toss) or action.seat not in (0, 1):
            raise IllegalActionError("RACE-1", "a coin toss picks who starts")
        return attrs.evolve(state, to_act=action.seat)
    if action not in race_legal(state) or seat not in (None, state.to_act):
        raise IllegalActionError("RACE-2", f"{action!r} is not 1 or 2 within the target")
    assert isinstance(action, int)
    assert state.to_act is not None
    total = state.total + action
    if total == state.target:
        return attrs.evolve(state, total=total, to_act=None, winner=state.to_act)
    return attrs.evolve(state, total=total, to_act=1 - state.to_act)


def race_returns(state: RaceState) -> tuple[int, ...]:
    if state.winner is None:
        return (0, 0)
    return (1, -1) if state.winner == 0 else (-1, 1)


def race_from_id(state: RaceState, number: int) -> int:
    if not 0 <= number < 2:
        raise ValueError(f"action ids are 0 and 1, not {number}")
    if number + 1 not in race_legal(state):
        raise IllegalActionError("RACE-2", f"action id {number} is not legal now")
    return number + 1


def race_tensor(state: RaceState, seat: int) -> np.typing.NDArray[np.float32]:
    return np.array([state.total, state.target, state.to_act == seat], dtype=np.float32)


def _unused(*args: object, **kwargs: object) -> Any:
    raise NotImplementedError("not needed by PettingZoo")


RACE: Rules[RaceState, Any] = Rules(
    name="race_to_ten", title="Race to ten",
    new_game=lambda target=10: RaceState(target),
    default_settings={"target": 10}, settings_of=lambda state: {"target": state.target},
    legal_actions=race_legal, apply=race_apply,
    sample_chance=lambda state, rng: Toss(rng.randrange(2)), view=_unused,
    state_to_dict=_unused, state_from_dict=_unused, action_to_dict=_unused,
    action_from_dict=_unused, parse_action=_unused, check_settings=(), probe_actions=_unused,
    hidden_variant=_unused, check_invariants=_unused, bots={}, summarize=_unused,
    returns=race_returns, return_unit="wins", chance_pile=lambda state: None, chance_cards=(),
    events=_unused,
    encoding=Encoding(2, lambda action, state=None: action - 1, race_from_id,
                      lambda state: tuple(step - 1 for step in race_legal(state)),
                      3, (("total", 0, 1), ("target", 1, 1), ("to_act", 2, 1)),
                      race_tensor, lambda state, seat: str(race_tensor(state, seat))))


def test_a_game_made_only_of_rules_passes_pettingzoos_tests(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.engine import registry
    monkeypatch.setitem(registry._REGISTERED, RACE.name, RACE)
    api_test(env("Race-To-Ten"), num_cycles=100, verbose_progress=False)
    seed_test(lambda: env(RACE, target=7), num_cycles=50)
    environment = raw_env("race_to_ten", target=5)
    assert environment.metadata["name"] == "race_to_ten_v0"
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent, _, reward, _ in episode(environment, seed=2):
        totals[agent] += reward
    assert environment.game_state.total == 5
    assert sorted(totals.values()) == [-1.0, 1.0]
    with pytest.raises(ValueError, match="unknown Race to ten setting"):
        raw_env(RACE, players=3)


# -- the observation spaces' bounds --------------------------------------------------------


def test_down_and_back_space_admits_an_empty_stock_and_empty_hands() -> None:
    # The stock can run out (DB tie-breaks with five players) and a seat's
    # hand is empty between rounds: both counts start at 0 in the space.
    environment = raw_env("down_and_back", num_players=5)
    agent = environment.possible_agents[0]
    box = environment.observation_space(agent)["observation"]  # type: ignore[index]
    start = {name: (at, length) for name, at, length in db.encoding.OBSERVATION_LAYOUT}
    for name, top in (("stock_size", 52), ("hand_sizes", 8)):
        at, length = start[name]
        assert list(box.low[at:at + length]) == [0.0] * length, name
        assert list(box.high[at:at + length]) == [float(top)] * length, name
    environment.reset(seed=1)
    observation = environment.observe(agent)
    empty = observation["observation"].copy()
    at, _ = start["stock_size"]
    empty[at] = 0.0
    assert environment.observation_space(agent).contains(
        {"observation": empty.astype(np.float32), "action_mask": observation["action_mask"]})


def _box_ranges(environment: object, layout: tuple[tuple[str, int, int], ...]
                ) -> dict[str, set[tuple[float, float]]]:
    """Per named block of ``layout``, the (low, high) pairs of the observation box."""
    agent = environment.possible_agents[0]  # type: ignore[attr-defined]
    box = environment.observation_space(agent)["observation"]  # type: ignore[attr-defined]
    return {name: {(float(lo), float(hi)) for lo, hi in
                   zip(box.low[at:at + n], box.high[at:at + n], strict=True)}
            for name, at, n in layout}


def test_back_alley_space_bounds_every_count_and_score() -> None:
    # Default game: 25 deals (BA-10) of 13, 12, ..., 1, 2, ..., 13 cards, 181
    # cards in all, each worth at most 40 points either way (a quadruple
    # board, BA-41); counts of cards and tricks at most 13; board levels at
    # most 4 (BA-23); everything else is a 0/1 flag.
    ranges = _box_ranges(raw_env("back_alley"), ba.encoding.OBSERVATION_LAYOUT)
    assert ranges.pop("deal") == {(0.0, 25.0)}
    assert ranges.pop("hand_sizes") == {(0.0, 13.0)}
    assert ranges.pop("board_levels") == {(0.0, 4.0)}
    assert ranges.pop("tricks_won") == {(0.0, 13.0)}
    assert ranges.pop("scores") == {(-7240.0, 7240.0)}
    assert all(pairs == {(0.0, 1.0)} for pairs in ranges.values()), ranges
    # Three deals of 2, 1 and 2 cards: at most 40 * 5 points.
    short = raw_env("back_alley", max_hand_size=2)
    assert _box_ranges(short, ba.encoding.OBSERVATION_LAYOUT)["scores"] == {(-200.0, 200.0)}


def test_down_and_back_space_bounds_every_count_and_chip() -> None:
    # Five players, ante 2, 7 rounds: at most 5 * 2 * 7 = 70 chips in a pot,
    # a seat loses at most its antes (2 * 7) and wins at most every chip.
    ranges = _box_ranges(raw_env("down_and_back", num_players=5, ante=2, rounds=7),
                         db.encoding.OBSERVATION_LAYOUT)
    expected = {"round": (0.0, 7.0), "rounds": (0.0, 7.0), "ante": (0.0, 2.0),
                "pot": (0.0, 70.0), "net": (-14.0, 70.0), "hand_sizes": (0.0, 8.0),
                "stock_size": (0.0, 52.0), "turns": (0.0, 6.0)}
    for name, pair in expected.items():
        assert ranges.pop(name) == {pair}, name
    assert all(pairs == {(0.0, 1.0)} for pairs in ranges.values()), ranges
