"""PettingZoo environments of any game with an encoding (``pip install "cardrules[pettingzoo]"``).

:func:`env` makes an AEC environment of any game the registry finds (or of
a :class:`~cardrules.engine.rules.Rules` object), written once over its
rules and following the conventions of PettingZoo's classic games:

* agents ``player_0``, ``player_1``, ... are the seats 0, 1, ...;
* an observation is a dict: ``"observation"``, the seat's vector from
  ``rules.encoding.observation_tensor`` (a float32 ``Box`` bounded by
  ``rules.encoding.observation_bounds``, computed from that seat's view
  only), and ``"action_mask"``, an int8 ``Box`` of ``num_actions`` entries,
  1 for each legal action id of the agent to act (all zeros for the others
  and at the end);
* actions are ``Discrete(num_actions)``, numbered by the game's encoding
  (see :doc:`/integrations`);
* chance (the first dealer, every shuffle) is played inside the environment
  with ``rules.sample_chance``, drawn from a :class:`random.Random` seeded by
  ``reset(seed=...)`` (with ``fixed_deals=True``, fixed deal by deal from that
  seed, for duplicate play: :mod:`cardrules.engine.deals`);
* the reward of a step is the change of ``rules.returns`` it brought (for
  the first step, the change since the start of the game, the chance played
  before it included), so a game's rewards add up to its final returns: in
  Down and Back each seat pays its ante when it goes into the pot (DB-30:
  the first in the first step, each later one in the step that ends the
  round before) and the seat that wins a pot gets it in the step that ends
  the round (DB-43); in Back Alley both partners get their team's points at
  the end of each deal (BA-40 to BA-42);
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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypedDict, TypeVar, overload

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

from cardrules.engine.deals import FixedDeals
from cardrules.engine.registry import rules_for
from cardrules.engine.rules import Rules, StateLike
from cardrules.engine.tensors import as_action_id

if TYPE_CHECKING:
    import numpy.typing as npt

    from cardrules.engine.tensors import Encoding

__all__ = ["CardGameEnv", "Observation", "env", "raw_env"]

_S = TypeVar("_S", bound=StateLike)
_A = TypeVar("_A")


class Observation(TypedDict):
    """What :meth:`CardGameEnv.observe` returns for an agent.

    ``observation`` is the agent's view as a flat float32 tensor;
    ``action_mask`` holds 1 for each legal action id of the agent to act.

    >>> game = raw_env("back_alley", max_hand_size=1)
    >>> game.reset(seed=0)
    >>> sorted(game.observe("player_0"))
    ['action_mask', 'observation']
    """

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]


class CardGameEnv(AECEnv, Generic[_S, _A]):  # type: ignore[misc]  # PettingZoo has no type hints
    """The AEC environment of one game, built from its ``rules`` and ``settings``
    (see the module's conventions).

    Everything about the game comes from ``rules``: the initial state
    (``new_game_from_settings``; unknown or bad settings raise
    :class:`ValueError`), ``apply`` and ``sample_chance``, the rewards
    (``returns``) and the numbers and vectors (``encoding``; a game without
    one is refused with :class:`ValueError`).  The game as it stands is
    :attr:`game_state`; ``possible_agents`` are ``player_0`` up to
    ``player_{n-1}``; ``metadata["name"]`` is the game's name and ``_v0``.

    >>> from cardrules.down_and_back import RULES
    >>> game = CardGameEnv(RULES, {"num_players": 3, "rounds": 1})
    >>> game.reset(seed=1)
    >>> game.metadata["name"], game.agent_selection, game.game_state.phase
    ('down_and_back_v0', 'player_2', <Phase.CUT: 'cut'>)
    """

    def __init__(self, rules: Rules[_S, _A], settings: Mapping[str, int | None] | None = None,
                 *, render_mode: str | None = None, fixed_deals: bool = False) -> None:
        super().__init__()
        if not isinstance(fixed_deals, bool):
            raise ValueError(f"fixed_deals must be True or False, not {fixed_deals!r}")
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode is 'ansi', 'human' or None, not {render_mode!r}")
        encoding = rules.encoding
        if encoding is None:
            raise ValueError(f"{rules.title} has no encoding (Rules.encoding is None) "
                             "for PettingZoo to use")
        state = rules.new_game_from_settings(settings or {})
        low, high = _box_bounds(encoding, rules.settings_of(state))
        self.metadata: dict[str, object] = {
            "name": f"{rules.name}_v0", "render_modes": ["ansi", "human"],
            "is_parallelizable": False}
        self.render_mode = render_mode
        self._rules = rules
        self._encoding = encoding
        self._start = state
        self._state = state
        self._returns: tuple[int, ...] = rules.returns(state)
        self._rng: random.Random | None = None
        self._fixed_deals = fixed_deals
        self._deals: FixedDeals | None = None
        self._num_actions = num_actions = encoding.num_actions
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(state.num_players)]
        self.agents: list[str] = []
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
            }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(num_actions)
                              for agent in self.possible_agents}

    @property
    def rules(self) -> Rules[_S, _A]:
        """The rules of the game played.

        >>> raw_env("Back-Alley").rules.title
        'Back Alley'
        """
        return self._rules

    @property
    def game_state(self) -> _S:
        """The cardrules state of the game in progress (read it, never change it).

        >>> raw_env("back_alley").game_state.is_chance
        True
        """
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[object]:
        """The ``Dict`` space of ``agent``'s observations (the same object every time).

        >>> raw_env("back_alley").observation_space("player_0")["observation"].shape
        (698,)
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[object]:
        """``Discrete(num_actions)`` for every agent (the same object every time).

        >>> raw_env("back_alley").action_space("player_3")
        Discrete(68)
        """
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """Start a new game; chance is drawn from ``random.Random(seed)``.

        Without a seed the generator of the previous games goes on (a fresh
        unseeded one for the first game).  With ``fixed_deals``, the deals
        are fixed by ``seed`` deal by deal (without one, by a seed drawn from
        that generator), so two games reset with the same seed get the same
        cards however they are played.

        >>> game = raw_env("back_alley", max_hand_size=2)
        >>> game.reset(seed=5)
        >>> game.agents == game.possible_agents, game.game_state.is_chance
        (True, False)
        """
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        if self._fixed_deals:
            deal_seed = seed if seed is not None else self._rng.getrandbits(63)
            self._deals = FixedDeals(self._rules, deal_seed)
        state = self._state = self._advance(self._start)
        # The first step's rewards count from the start, chance before it included.
        self._returns = self._rules.returns(self._start)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, state.is_terminal)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0] if state.is_terminal else self._agent_to_act()

    def _advance(self, state: _S) -> _S:
        """Play chance until a player must act or the game is over."""
        rng = self._rng
        assert rng is not None
        apply, sample, deals = self._rules.apply, self._rules.sample_chance, self._deals
        while state.is_chance:
            state = apply(state, sample(state, rng) if deals is None else deals(state))
        return state

    def _agent_to_act(self) -> str:
        seat = self._state.current_player
        assert seat is not None
        return self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: its view's tensor and its action mask.

        >>> game = raw_env("down_and_back", num_players=2, rounds=1)
        >>> game.reset(seed=0)
        >>> int(game.observe(game.agent_selection)["action_mask"].sum())  # cut 1 to 51
        51
        """
        seat = self.possible_agents.index(agent)
        encoding = self._encoding
        mask = np.zeros(self._num_actions, dtype=np.int8)
        state = self._state
        if state.current_player == seat:
            mask[list(encoding.legal_action_ids(state))] = 1
        # float32 whatever the game gives (a no-op for the built-in games' vectors).
        tensor = np.asarray(encoding.observation_tensor(state, seat), dtype=np.float32)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the agent to act (None once it is terminated).

        An id that is not legal now raises :class:`~cardrules.IllegalActionError`
        and changes nothing (:func:`env` wraps this to end the game instead).
        The reward of each agent is the change of its seat's returns.

        >>> game = raw_env("down_and_back", num_players=2, rounds=1)
        >>> game.reset(seed=0)
        >>> game.step(51)  # drawing before the cut
        Traceback (most recent call last):
        ...
        cardrules.errors.IllegalActionError: DB-32: seat 0 must cut the deck
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        before = self._state
        # A plain int for the game (PettingZoo's wrappers hand on numpy integers).
        move = self._encoding.action_from_id(before, as_action_id(action))
        after = self._advance(self._rules.apply(before, move))
        self._state = after
        old, new = self._returns, self._rules.returns(after)
        self._returns = new
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        self.rewards = {name: float(new[seat] - old[seat])
                        for seat, name in enumerate(self.possible_agents) if name in rewards}
        if after.is_terminal:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The whole table as text (``str`` of the state, hidden cards too): returned
        with ``render_mode="ansi"``, printed with ``"human"``; without a render mode
        a warning and None.

        >>> game = raw_env("back_alley", render_mode="ansi")
        >>> game.reset(seed=0)
        >>> game.render() == str(game.game_state)
        True
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode 'ansi' or 'human'")
            return None
        text = str(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release.

        >>> raw_env("back_alley").close()
        """


def _box_bounds(encoding: Encoding[Any, Any], settings: Mapping[str, int | None]
                ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The observation box's lowest and highest entries, from the game's
    ``observation_bounds`` (-inf to inf without them)."""
    size = encoding.observation_size
    if encoding.observation_bounds is None:
        return (np.full(size, -np.inf, dtype=np.float32),
                np.full(size, np.inf, dtype=np.float32))
    low, high = encoding.observation_bounds(settings)
    box = np.asarray(low, dtype=np.float32), np.asarray(high, dtype=np.float32)
    if box[0].shape != (size,) or box[1].shape != (size,):
        raise ValueError(f"observation_bounds gave {len(low)} and {len(high)} values "
                         f"for a vector of {size}")
    return box


def _find(game: object) -> Rules[Any, Any]:
    """The rules ``game`` names (any case, ``-`` or ``_``), or ``game`` itself."""
    if not isinstance(game, str | Rules):
        raise TypeError(f"a game is a name or a Rules object, not {type(game).__name__}")
    return rules_for(game)


@overload
def raw_env(game: Rules[_S, _A], *, render_mode: str | None = None,
            fixed_deals: bool = False, **settings: int | None) -> CardGameEnv[_S, _A]: ...


@overload
def raw_env(game: str, *, render_mode: str | None = None,
            fixed_deals: bool = False, **settings: int | None) -> CardGameEnv[Any, Any]: ...


def raw_env(game: str | Rules[Any, Any], *, render_mode: str | None = None,
            fixed_deals: bool = False, **settings: int | None) -> CardGameEnv[Any, Any]:
    """The unwrapped environment of ``game``: a registered name (any case,
    ``-`` or ``_``, such as ``"down_and_back"``) or a game's rules.

    ``settings`` are the game's (``RULES.default_settings``): ``num_players``,
    ``ante`` and ``rounds`` for Down and Back (default 4, 1 and 10),
    ``max_hand_size`` for Back Alley (default 13); one the game does not
    have raises :class:`ValueError`.  An illegal action id raises
    :class:`~cardrules.IllegalActionError` and changes nothing.
    ``fixed_deals=True`` fixes the deals by ``reset``'s seed (see :meth:`CardGameEnv.reset`).

    >>> game = raw_env("down_and_back", num_players=2, rounds=1)
    >>> game.reset(seed=0)
    >>> game.step(999)
    Traceback (most recent call last):
    ...
    ValueError: action ids are 0 to 139, not 999
    >>> import attrs
    >>> from cardrules.back_alley import RULES
    >>> raw_env(attrs.evolve(RULES, encoding=None))
    Traceback (most recent call last):
    ...
    ValueError: Back Alley has no encoding (Rules.encoding is None) for PettingZoo to use
    """
    return CardGameEnv(_find(game), settings, render_mode=render_mode, fixed_deals=fixed_deals)


def env(game: str | Rules[Any, Any], *, render_mode: str | None = None,
        illegal_reward: float = -1.0, fixed_deals: bool = False,
        **settings: int | None) -> AECEnv:
    """The PettingZoo AEC environment of ``game``, wrapped as PettingZoo's classic games are.

    The wrappers end the game on an action outside the mask
    (``illegal_reward`` to its player, 0 to the others), check that actions
    are in the action space, and enforce the calling order (``reset`` first).
    ``game``, ``fixed_deals`` and ``settings`` are as for :func:`raw_env`.

    >>> game = env("down_and_back", num_players=3, rounds=2)
    >>> game.reset(seed=7)
    >>> game.possible_agents, game.action_space("player_0")
    (['player_0', 'player_1', 'player_2'], Discrete(140))
    >>> observation = game.observe(game.agent_selection)
    >>> observation["observation"].shape, int(observation["action_mask"].sum())
    ((1087,), 51)
    """
    wrapped = raw_env(game, render_mode=render_mode, fixed_deals=fixed_deals, **settings)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
