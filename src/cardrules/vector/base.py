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
current after every :meth:`VectorGame.step` and :meth:`VectorGame.reset`:

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
    # One uniform draw per row picks the r-th legal action.  The mask's bytes
    # (0 or 1) are read eight at a time as 64-bit words: a word's bit count is
    # its number of legal actions, a running sum finds the word holding the
    # r-th, a multiplication gathers its eight bytes into one byte's bits, and
    # a table gives the place of that byte's k-th set bit.
    rows, width = mask.shape
    words = -(-width // 8)
    padded = np.zeros((rows, words * 8), dtype=np.uint8)
    padded[:, :width] = mask
    packed = padded.view("<u8")
    counts = np.bitwise_count(packed).T.astype(np.int32)      # (words, rows)
    running = np.empty_like(counts)
    running[0] = counts[0]
    for k in range(1, words):       # row by row: numpy's cumsum is slow on short rows
        np.add(running[k - 1], counts[k], out=running[k])
    total = running[-1]
    rank = (rng.random(rows) * total).astype(np.int32)
    word = np.zeros(rows, dtype=np.int32)
    passed = np.empty(rows, dtype=np.bool_)
    for k in range(words - 1):      # the words wholly before the r-th legal action
        np.less_equal(running[k], rank, out=passed)
        word += passed
    word = word.astype(np.intp)
    every = np.arange(rows)
    within = rank - running[word, every] + counts[word, every]
    with np.errstate(over="ignore"):
        byte = (packed[every, word] * _GATHER) >> _S56
    chosen: npt.NDArray[np.int64] = 8 * word + _SELECT[byte.astype(np.intp), within]
    chosen[total == 0] = 0
    return chosen


_GATHER = np.uint64(0x0102040810204080)
_S56 = np.uint64(56)
#: ``_SELECT[v, k]``: the place of the ``k``-th set bit of the byte ``v``.
_SELECT = np.zeros((256, 8), dtype=np.int64)
for _value in range(256):
    _places = [_bit for _bit in range(8) if _value >> _bit & 1]
    _SELECT[_value, :len(_places)] = _places
