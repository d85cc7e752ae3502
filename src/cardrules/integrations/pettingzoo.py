"""PettingZoo environments for both games (``pip install "cardrules[pettingzoo]"``).

:func:`env` makes an AEC environment that follows the conventions of
PettingZoo's classic games:

* agents ``player_0``, ``player_1``, ... are the seats 0, 1, ...;
* an observation is a dict: ``"observation"``, the acting seat's
  :func:`~cardrules.down_and_back.observation_tensor` (a float32 ``Box``,
  computed from that seat's view only), and ``"action_mask"``, an int8 ``Box``
  of ``NUM_ACTIONS`` entries, 1 for each legal action id of the agent to act
  (all zeros for the others and at the end);
* actions are ``Discrete(NUM_ACTIONS)``, numbered as in
  :func:`~cardrules.down_and_back.action_id` (see :doc:`/integrations`);
* chance (the first dealer, every shuffle) is played inside the environment,
  drawn from a :class:`random.Random` seeded by ``reset(seed=...)``;
* rewards come when chips or points change hands: at the end of each Down
  and Back round, each seat gets the chips it won in that round minus its
  ante (DB-30, DB-43), so a game's rewards add up to its net winnings; at
  the end of each Back Alley deal both partners get their team's points for
  the deal (BA-40 to BA-42), so they add up to the team's score;
* every agent is terminated when the game ends (DB-44, BA-43); nothing is
  truncated (a Down and Back environment needs a finite number of rounds).

Illegal actions follow the classic convention: :func:`env` wraps the raw
environment in PettingZoo's ``TerminateIllegalWrapper``, so an action outside
the mask ends the game with ``illegal_reward`` (default -1) for the player
who made it and 0 for the others; :func:`raw_env` instead raises
:class:`~cardrules.IllegalActionError` and leaves the game unchanged.

>>> import numpy as np
>>> game = env("back_alley", max_hand_size=1)
>>> game.reset(seed=3)
>>> rng = np.random.default_rng(3)
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     action = None
...     if not (terminated or truncated):
...         action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
...     game.step(action)
>>> game.agents
[]
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, Generic, TypedDict, TypeVar

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _missing:  # pragma: no cover - the extra is installed in development
    raise ImportError(
        "cardrules.integrations.pettingzoo needs PettingZoo, gymnasium and numpy: "
        'pip install "cardrules[pettingzoo]"') from _missing

from cardrules import back_alley as _ba
from cardrules import down_and_back as _db
from cardrules.back_alley.state import hand_size_of
from cardrules.engine.rules import StateLike

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["BackAlleyEnv", "CardGameEnv", "DownAndBackEnv", "Observation", "env", "raw_env"]

_S = TypeVar("_S", bound=StateLike)


class Observation(TypedDict):
    """What :meth:`CardGameEnv.observe` returns for an agent.

    ``observation`` is the agent's view as a flat float32 tensor;
    ``action_mask`` holds 1 for each legal action id of the agent to act.
    """

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]


class CardGameEnv(AECEnv, Generic[_S]):  # type: ignore[misc]  # PettingZoo has no type hints
    """The AEC environment shared by both games (see the module's conventions).

    The game as it stands is :attr:`game_state`, a cardrules state;
    ``possible_agents`` are ``player_0`` up to ``player_{n-1}``.
    """

    metadata: ClassVar[dict[str, object]]

    def __init__(self, state: _S, num_actions: int, low: npt.NDArray[np.float32],
                 high: npt.NDArray[np.float32], render_mode: str | None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self._start = state
        self._state = state
        self._rng: random.Random | None = None
        self._num_actions = num_actions
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(state.num_players)]
        self.agents: list[str] = []
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
            }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(num_actions)
                              for agent in self.possible_agents}

    # -- what each game supplies ---------------------------------------------------

    def _apply(self, state: _S, number: object) -> _S:
        raise NotImplementedError

    def _sample_chance(self, state: _S, rng: random.Random) -> _S:
        raise NotImplementedError

    def _legal_ids(self, state: _S) -> tuple[int, ...]:
        raise NotImplementedError

    def _tensor(self, state: _S, seat: int) -> npt.NDArray[np.float32]:
        raise NotImplementedError

    def _gains(self, before: _S, after: _S) -> list[float]:
        raise NotImplementedError

    # -- the AEC interface ---------------------------------------------------------

    @property
    def game_state(self) -> _S:
        """The cardrules state of the game in progress (read it, never change it)."""
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[object]:
        """The ``Dict`` space of ``agent``'s observations (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[object]:
        """``Discrete(NUM_ACTIONS)`` for every agent (the same object every time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """Start a new game; chance is drawn from ``random.Random(seed)``.

        Without a seed the generator of the previous games goes on (a fresh
        unseeded one for the first game).
        """
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self._state = self._advance(self._start)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._agent_to_act()

    def _advance(self, state: _S) -> _S:
        """Play chance until a player must act or the game is over."""
        rng = self._rng
        assert rng is not None
        while state.is_chance:
            state = self._sample_chance(state, rng)
        return state

    def _agent_to_act(self) -> str:
        seat = self._state.current_player
        assert seat is not None
        return self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its view's tensor and its action mask."""
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        state = self._state
        if state.current_player == seat:
            mask[list(self._legal_ids(state))] = 1
        return {"observation": self._tensor(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the agent to act (None once it is terminated).

        An id that is not legal now raises :class:`~cardrules.IllegalActionError`
        and changes nothing (:func:`env` wraps this to end the game instead).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        before = self._state
        after = self._advance(self._apply(before, action))
        self._state = after
        self._cumulative_rewards[agent] = 0.0
        gains = self._gains(before, after)
        self.rewards = {name: gains[seat] for seat, name in enumerate(self.possible_agents)
                        if name in self.rewards}
        if after.is_terminal:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The whole table as text (hidden cards too): returned with ``render_mode="ansi"``,
        printed with ``"human"``; without a render mode a warning and None."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode 'ansi' or 'human'")
            return None
        text = str(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class DownAndBackEnv(CardGameEnv[_db.GameState]):
    """Down and Back for 2 to 5 agents (DB-30 to DB-44); ``rounds`` must be a number.

    >>> game = DownAndBackEnv(num_players=3, rounds=1)
    >>> game.reset(seed=1)
    >>> game.agent_selection, game.game_state.phase
    ('player_2', <Phase.CUT: 'cut'>)
    """

    metadata: ClassVar[dict[str, object]] = {
        "name": "down_and_back_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, *, num_players: int = 4, ante: int = 1,
                 rounds: int = _db.DEFAULT_ROUNDS, render_mode: str | None = None) -> None:
        if rounds is None:
            raise ValueError("the PettingZoo environment needs a finite number of rounds")
        state = _db.new_game(num_players, ante=ante, rounds=rounds)
        low, high = _db_bounds(num_players, ante, rounds)
        super().__init__(state, _db.NUM_ACTIONS, low, high, render_mode)

    def _apply(self, state: _db.GameState, number: object) -> _db.GameState:
        return _db.apply(state, _db.action_from_id(state, number))  # type: ignore[arg-type]

    def _sample_chance(self, state: _db.GameState, rng: random.Random) -> _db.GameState:
        return _db.apply(state, _db.sample_chance(state, rng))

    def _legal_ids(self, state: _db.GameState) -> tuple[int, ...]:
        return _db.legal_action_ids(state)

    def _tensor(self, state: _db.GameState, seat: int) -> npt.NDArray[np.float32]:
        return _db.observation_tensor(_db.view(state, seat))

    def _gains(self, before: _db.GameState, after: _db.GameState) -> list[float]:
        gains = [0.0] * before.num_players
        for result in after.results[len(before.results):]:
            for seat in range(before.num_players):
                gains[seat] -= before.ante
            if result.pot_winner is not None:
                gains[result.pot_winner] += result.pot
        return gains


class BackAlleyEnv(CardGameEnv[_ba.GameState]):
    """Back Alley for four agents in two teams (BA-1 to BA-50).

    >>> game = BackAlleyEnv(max_hand_size=2)
    >>> game.reset(seed=1)
    >>> game.possible_agents, game.game_state.phase
    (['player_0', 'player_1', 'player_2', 'player_3'], <Phase.BID: 'bid'>)
    """

    metadata: ClassVar[dict[str, object]] = {
        "name": "back_alley_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, *, max_hand_size: int = 13, render_mode: str | None = None) -> None:
        state = _ba.new_game(max_hand_size=max_hand_size)
        low, high = _ba_bounds(state.settings)
        super().__init__(state, _ba.NUM_ACTIONS, low, high, render_mode)

    def _apply(self, state: _ba.GameState, number: object) -> _ba.GameState:
        return _ba.apply(state, _ba.action_from_id(state, number))  # type: ignore[arg-type]

    def _sample_chance(self, state: _ba.GameState, rng: random.Random) -> _ba.GameState:
        return _ba.apply(state, _ba.sample_chance(state, rng))

    def _legal_ids(self, state: _ba.GameState) -> tuple[int, ...]:
        return _ba.legal_action_ids(state)

    def _tensor(self, state: _ba.GameState, seat: int) -> npt.NDArray[np.float32]:
        return _ba.observation_tensor(_ba.view(state, seat))

    def _gains(self, before: _ba.GameState, after: _ba.GameState) -> list[float]:
        return [float(after.scores[seat & 1] - before.scores[seat & 1]) for seat in range(4)]


def _bounds(layout: tuple[tuple[str, int, int], ...], size: int,
            ranges: dict[str, tuple[float, float]]
            ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Per entry of the tensor, its lowest and highest value: 0 and 1 unless
    ``ranges`` names the slice."""
    low = np.zeros(size, dtype=np.float32)
    high = np.ones(size, dtype=np.float32)
    for name, start, length in layout:
        if name in ranges:
            low[start:start + length], high[start:start + length] = ranges[name]
    return low, high


def _db_bounds(num_players: int, ante: int, rounds: int
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    chips = float(num_players * ante * rounds)
    return _bounds(_db.OBSERVATION_LAYOUT, _db.OBSERVATION_SIZE, {
        "round": (0, rounds), "rounds": (0, rounds), "ante": (0, ante), "pot": (0, chips),
        "net": (-float(ante * rounds), chips), "hand_sizes": (0, 8), "stock_size": (0, 52),
        "turns": (0, 6)})


def _ba_bounds(settings: _ba.Settings
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    # A deal of N cards scores at most 40 * N either way (a quadruple board, BA-41).
    points = 40.0 * sum(hand_size_of(deal, settings.max_hand_size)
                        for deal in range(1, settings.deals + 1))
    return _bounds(_ba.OBSERVATION_LAYOUT, _ba.OBSERVATION_SIZE, {
        "deal": (0, 25), "hand_sizes": (0, 13), "board_levels": (0, 4),
        "tricks_won": (0, 13), "scores": (-points, points)})


_GAMES: dict[str, type[DownAndBackEnv] | type[BackAlleyEnv]] = {
    "down_and_back": DownAndBackEnv, "back_alley": BackAlleyEnv}


def raw_env(game: str, *, render_mode: str | None = None,
            **settings: int) -> DownAndBackEnv | BackAlleyEnv:
    """The unwrapped environment of ``game`` (``"down_and_back"`` or ``"back_alley"``).

    ``settings`` are the game's: ``num_players``, ``ante`` and ``rounds`` for
    Down and Back (default 4, 1 and 10), ``max_hand_size`` for Back Alley
    (default 13).  An illegal action id raises
    :class:`~cardrules.IllegalActionError` and changes nothing.

    >>> game = raw_env("down_and_back", num_players=2, rounds=1)
    >>> game.reset(seed=0)
    >>> game.step(999)
    Traceback (most recent call last):
    ...
    ValueError: action ids are 0 to 139, not 999
    """
    try:
        kind = _GAMES[game]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game!r}: choose from {sorted(_GAMES)}") from None
    return kind(render_mode=render_mode, **settings)


def env(game: str, *, render_mode: str | None = None, illegal_reward: float = -1.0,
        **settings: int) -> AECEnv:
    """The PettingZoo AEC environment of ``game``, wrapped as PettingZoo's classic games are.

    The wrappers end the game on an action outside the mask
    (``illegal_reward`` to its player, 0 to the others), check that actions
    are in the action space, and enforce the calling order (``reset`` first).
    ``game`` and ``settings`` are as for :func:`raw_env`.

    >>> game = env("down_and_back", num_players=3, rounds=2)
    >>> game.reset(seed=7)
    >>> game.possible_agents, game.action_space("player_0")
    (['player_0', 'player_1', 'player_2'], Discrete(140))
    >>> observation = game.observe(game.agent_selection)
    >>> observation["observation"].shape, int(observation["action_mask"].sum())
    ((1087,), 51)
    """
    wrapped = raw_env(game, render_mode=render_mode, **settings)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
