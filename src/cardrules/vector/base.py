"""What every batch game offers: the :class:`VectorGame` base class.

A batch game plays ``num_games`` games of one kind side by side, each in
its own rows of numpy arrays (pgx style).  Chance happens inside
:meth:`VectorGame.step` from each game's own stream
(:mod:`cardrules.vector.streams`), so game ``i`` is the same game whatever
``num_games`` is.  Player actions are the game's ``encoding`` numbers, the
same as :data:`cardrules.down_and_back.NUM_ACTIONS` and
:data:`cardrules.back_alley.NUM_ACTIONS` count.

Each game's engine (:mod:`cardrules.vector.down_and_back`,
:mod:`cardrules.vector.back_alley`) subclasses this and keeps these arrays
current after every :meth:`step` and :meth:`reset`:

- ``current_player`` (``num_games``,) int: the seat to decide, -1 once a
  game is over (chance never waits: it is played inside ``step``);
- ``legal_action_mask`` (``num_games``, ``num_actions``) bool: the legal
  action numbers of each game's player to act (all False once over);
- ``rewards`` (``num_games``, ``num_players``) float32: what each seat
  gained in the last step (the change of ``RULES.returns``);
- ``terminated`` (``num_games``,) bool.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from cardrules.engine.records import GameRecord
    from cardrules.engine.rules import Rules

__all__ = ["VectorGame", "random_actions"]


class VectorGame(ABC):
    """``num_games`` games of one kind, stepped together.

    Subclasses set the four arrays and implement :meth:`step`,
    :meth:`observation`, :meth:`reset`, :meth:`state` and :meth:`record`.
    """

    #: The game's rules (the reducer this engine is exact to).
    rules: Rules[Any, Any]
    #: How many games are played side by side.
    num_games: int
    #: Seats per game.
    num_players: int
    #: Player action numbers per game (the game's ``encoding.num_actions``).
    num_actions: int
    #: Length of one observation vector.
    observation_size: int
    current_player: npt.NDArray[np.int64]
    legal_action_mask: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]

    @abstractmethod
    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_]]:
        """Apply one action number per game (ignored where a game is over),
        play the chance that follows, and return ``(rewards, terminated)``.

        An action a game's mask does not allow raises
        :class:`~cardrules.IllegalActionError` naming the game and the rule,
        and no game is changed."""

    @abstractmethod
    def observation(self, seat: int | None = None) -> npt.NDArray[np.float32]:
        """``(num_games, observation_size)`` float32: each game's
        ``encoding.observation_tensor`` of the view of ``seat`` (of the seat
        to act when None; zeros for a finished game)."""

    @abstractmethod
    def reset(self) -> None:
        """Start every game again from its first state (the same games as
        at creation: the streams start over)."""

    @abstractmethod
    def state(self, index: int) -> Any:
        """Game ``index`` as the reducer's ``GameState``."""

    @abstractmethod
    def record(self, index: int) -> GameRecord:
        """Game ``index`` so far as a :class:`~cardrules.engine.GameRecord`
        (chance actions included) that the reducer replays to
        :meth:`state`."""


def random_actions(mask: npt.NDArray[np.bool_], rng: np.random.Generator
                   ) -> npt.NDArray[np.int64]:
    """One uniformly random legal action number per row of ``mask`` (0 for a
    row with no legal action).

    >>> import numpy as np
    >>> mask = np.array([[False, True, True], [False, False, False]])
    >>> a = random_actions(mask, np.random.default_rng(1))
    >>> a[0] in (1, 2), int(a[1])
    (True, 0)
    """
    # One uniform rank among the row's legal actions, then the legal action of
    # that rank: the mask packed in 64-bit words, the lowest set bit cleared
    # rank times (a few steps: a row has at most a few dozen legal actions).
    n, width = mask.shape
    count_words = (width + 63) // 64
    packed = np.zeros((n, 8 * count_words), dtype=np.uint8)
    packed[:, :(width + 7) // 8] = np.packbits(mask, axis=1, bitorder="little")
    bits = packed.view(np.uint64)
    counts = np.bitwise_count(bits).astype(np.int64)
    left = (rng.random(n) * counts.sum(axis=1)).astype(np.int64)
    chosen: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)
    one = np.uint64(1)
    for j in range(count_words):
        word = bits[:, j]
        here = (left >= 0) & (left < counts[:, j])
        skip = np.where(here, left, 0)
        for k in range(int(skip.max(initial=0))):
            word = np.where(skip > k, word & (word - one), word)
        lowest = np.bitwise_count((word & (~word + one)) - one).astype(np.int64)
        chosen = np.where(here, 64 * j + lowest, chosen)
        left -= counts[:, j]
    return chosen
