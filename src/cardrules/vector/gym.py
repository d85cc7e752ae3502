"""A Gymnasium-style vector environment over a batch game: :class:`VectorEnv`.

It follows ``gymnasium.vector.VectorEnv`` where the conventions fit a
game of several players:

- ``reset(seed=None, options=None) -> (observations, infos)`` and
  ``step(actions) -> (observations, rewards, terminations, truncations,
  infos)``, with ``num_envs``, ``close()`` and (with gymnasium installed)
  ``single_observation_space``, ``single_action_space``,
  ``observation_space`` and ``action_space``;
- ``infos`` is one dict of arrays, one row per game: ``"action_mask"``
  (the legal action numbers, bool), ``"current_player"`` (the seat whose
  view the observation is, -1 for a game over) and ``"over"`` (the games
  that have ended);
- autoreset in Gymnasium's "next step" manner: the step after the last
  game of the batch ended ignores the actions and starts new games.

Where it does not follow them:

- ``rewards`` is ``(num_envs, num_players)``, every seat's gain of the
  step (as pgx gives it), not one number per game: the games have several
  players, and a learner picks the seat it plays;
- the games are reset **together**, not one by one: the batch engines
  restart a whole batch.  A game that ends early waits (``"over"`` True,
  no legal action, a zero observation, zero rewards) until every game of
  the batch has ended; ``terminations[i]`` is True on the step game ``i``
  ended only.  Each new batch is a batch of new games: batch ``k`` after a
  reset with seed ``s`` is ``make(game, num_envs, seed=...)`` with a seed
  derived from ``(s, k)`` (``s`` itself for ``k = 0``);
- ``truncations`` is always False (every game ends by its rules);
- the rewards of the chance that starts a batch (Down and Back's antes)
  are ``infos["rewards"]`` after :meth:`VectorEnv.reset`, and the rewards
  of the step that autoresets; so the rewards of a game, summed, are its
  final ``Rules.returns``.

A random player's loop (``RandomVectorBot`` reads the mask of a
``VectorGame``, so here the mask of ``infos`` is drawn from directly)::

    env = VectorEnv("back-alley", 4096, seed=1)
    observations, infos = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(1000):
        actions = random_actions(infos["action_mask"], rng)
        observations, rewards, terminations, truncations, infos = env.step(actions)

>>> VectorEnv("back-alley", 0, seed=1)
Traceback (most recent call last):
...
ValueError: num_games must be a whole number from 1 to 16777216, not 0
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cardrules._validate import is_int

if TYPE_CHECKING:
    from cardrules.engine.rules import Rules
    from cardrules.vector.base import VectorGame

__all__ = ["Infos", "VectorEnv", "batch_seed"]

#: What ``reset`` and ``step`` return as infos: arrays by name, one row per game.
Infos = dict[str, npt.NDArray[Any]]


def batch_seed(seed: int, batch: int) -> int:
    """The seed of batch ``batch`` of a :class:`VectorEnv` reset with ``seed``:
    ``seed`` itself for batch 0, else the first 8 bytes (big-endian) of the
    SHA-256 digest of ``cardrules.vector.gym:{seed}:{batch}``.

    >>> batch_seed(7, 0), batch_seed(7, 1) == batch_seed(7, 1) != batch_seed(7, 2)
    (7, True)
    """
    if batch == 0:
        return seed
    text = f"cardrules.vector.gym:{seed}:{batch}".encode("ascii")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class VectorEnv:
    """``num_envs`` games of ``game`` as one Gymnasium-style vector environment.

    ``game`` and ``settings`` are those of :func:`cardrules.vector.make`;
    ``seed`` seeds the first batch (and, derived, the later ones: see
    :func:`batch_seed`).  The observation is the view of the seat to act.

    >>> from cardrules.vector.gym import VectorEnv
    >>> VectorEnv("go fish", 4, seed=0)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown game (choose from down-and-back, back-alley...): 'go fish'
    """

    def __init__(self, game: str | Rules[Any, Any], num_envs: int, *, seed: int,
                 autoreset: bool = True, **settings: int | None) -> None:
        from cardrules.vector import vector_rules

        self.rules = vector_rules(game)
        if not isinstance(autoreset, bool):
            raise ValueError(f"autoreset must be True or False, not {autoreset!r}")
        if not is_int(seed):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        self.num_envs = num_envs
        self.autoreset = autoreset
        self.settings = dict(self.rules.settings_of(
            self.rules.new_game_from_settings(settings)))
        self._seed = seed
        self._batch = 0
        self.game: VectorGame = self._make()
        self.num_players = self.game.num_players
        self.num_actions = self.game.num_actions
        self._started = False

    def _make(self) -> VectorGame:
        from cardrules.vector import make

        return make(self.rules, self.num_envs, seed=batch_seed(self._seed, self._batch),
                    **self.settings)

    # -- the spaces (gymnasium's types: needs gymnasium)

    @property
    def single_action_space(self) -> Any:
        """``Discrete(num_actions)`` (needs gymnasium).

        >>> env = VectorEnv("down-and-back", 3, seed=0, num_players=2, rounds=1)
        >>> env.single_action_space
        Discrete(140)
        """
        return _gymnasium().spaces.Discrete(self.num_actions)

    @property
    def single_observation_space(self) -> Any:
        """A ``Box`` of the observation vector, bounded by the game's
        ``encoding.observation_bounds`` when it has them (needs gymnasium).

        >>> env = VectorEnv("down-and-back", 3, seed=0, num_players=2, rounds=1)
        >>> space = env.single_observation_space
        >>> space.shape, float(space.high.max())   # bounded: at most the 52 cards of the stock
        ((1087,), 52.0)
        """
        gym = _gymnasium()
        size = self.game.observation_size
        encoding = self.rules.encoding
        low: Any = -np.inf
        high: Any = np.inf
        if encoding is not None and encoding.observation_bounds is not None:
            try:
                bounds = encoding.observation_bounds(self.settings)
            except ValueError:
                pass
            else:
                low = np.array(bounds[0], dtype=np.float32)
                high = np.array(bounds[1], dtype=np.float32)
        return gym.spaces.Box(low, high, shape=(size,), dtype=np.float32)

    @property
    def action_space(self) -> Any:
        """``MultiDiscrete`` of ``num_envs`` actions (needs gymnasium).

        >>> env = VectorEnv("down-and-back", 3, seed=0, num_players=2, rounds=1)
        >>> env.action_space
        MultiDiscrete([140 140 140])
        """
        gym = _gymnasium()
        return gym.vector.utils.batch_space(self.single_action_space, self.num_envs)

    @property
    def observation_space(self) -> Any:
        """The ``Box`` of ``num_envs`` observations (needs gymnasium).

        >>> env = VectorEnv("down-and-back", 3, seed=0, num_players=2, rounds=1)
        >>> env.observation_space.shape
        (3, 1087)
        """
        gym = _gymnasium()
        return gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)

    # -- playing

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.float32], Infos]:
        """Start a batch of games; ``(observations, infos)``.

        With ``seed``, the batches start again from that seed (the first is
        ``make(..., seed=seed)``); without it, the first call plays the
        constructor's first batch and later calls a batch of new games.
        ``options`` is accepted for Gymnasium's signature and must be empty.
        ``infos["rewards"]`` holds the rewards of the chance dealt before the
        first decisions.

        >>> env = VectorEnv("down-and-back", 3, seed=0, num_players=2, rounds=1)
        >>> observations, infos = env.reset()
        >>> observations.shape, sorted(infos)
        ((3, 1087), ['action_mask', 'current_player', 'over', 'rewards'])
        """
        if options:
            raise ValueError(f"VectorEnv.reset takes no options, not {options!r}")
        if seed is not None:
            if not is_int(seed):
                raise ValueError(f"seed must be a whole number or None, not {seed!r}")
            self._seed, self._batch = seed, 0
            self.game = self._make()
        elif self._started:
            self._batch += 1
            self.game = self._make()
        else:
            self.game.reset()
        self._started = True
        infos = self._infos()
        infos["rewards"] = self.game.rewards.copy()
        return self.game.observation(), infos

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_],
            npt.NDArray[np.bool_], Infos]:
        """Play one action number per game (ignored where a game is over);
        ``(observations, rewards, terminations, truncations, infos)``.

        After the step in which the last game of the batch ended, the next
        step ignores ``actions`` and starts a batch of new games (with
        ``autoreset``; without it, that step changes nothing and returns zero
        rewards until :meth:`reset`).

        >>> env = VectorEnv("down-and-back", 3, seed=0, num_players=2, rounds=1)
        >>> _, infos = env.reset()
        >>> legal = infos["action_mask"].argmax(axis=1)   # a legal action in each game
        >>> observations, rewards, terminations, truncations, infos = env.step(legal)
        >>> rewards.shape, terminations.tolist(), truncations.tolist()
        ((3, 2), [False, False, False], [False, False, False])
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        game = self.game
        none = np.zeros(self.num_envs, dtype=bool)
        if game.terminated.all():
            if self.autoreset:
                self._batch += 1
                self.game = self._make()
                return (self.game.observation(), self.game.rewards.copy(), none, none.copy(),
                        self._infos())
            zero = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
            return game.observation(), zero, none, none.copy(), self._infos()
        before = game.terminated.copy()
        rewards, terminated = game.step(actions)
        return (game.observation(), rewards.copy(), terminated & ~before, none,
                self._infos())

    def _infos(self) -> Infos:
        game = self.game
        return {"action_mask": game.legal_action_mask.copy(),
                "current_player": game.current_player.copy(),
                "over": game.terminated.copy()}

    def close(self) -> None:
        """Nothing to release (Gymnasium's signature).

        >>> VectorEnv("down-and-back", 3, seed=0, num_players=2, rounds=1).close()
        """


def _gymnasium() -> Any:
    try:
        import gymnasium
        import gymnasium.vector.utils
    except ImportError:  # pragma: no cover - depends on the installation
        raise ImportError('the spaces need gymnasium: pip install "cardrules[pettingzoo]"') \
            from None
    return gymnasium
