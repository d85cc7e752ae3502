"""What every batch game offers: the :class:`VectorGame` base class.

A batch game plays ``num_games`` games of one kind side by side, each in
its own rows of numpy arrays (pgx style).  Chance happens inside
:meth:`VectorGame.step` from each game's own stream
(:mod:`cardrules.vector.streams`), so game ``i`` is the same game whatever
``num_games`` is.  Player actions are the game's ``encoding`` numbers, the
same as :data:`cardrules.down_and_back.encoding.NUM_ACTIONS` and
:data:`cardrules.back_alley.encoding.NUM_ACTIONS` count.

Each game's engine (:mod:`cardrules.down_and_back.vector`,
:mod:`cardrules.back_alley.vector`) subclasses this and keeps these arrays
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
    # its number of legal actions, running sums of the counts before each word
    # find the word holding the r-th, a multiplication gathers its eight bytes
    # into one byte's bits, and a table gives the place of that byte's k-th
    # set bit.  The arrays are laid out word by word (rows contiguous) so each
    # step of the short loops is one pass over the rows.
    rows, width = mask.shape
    words = -(-width // 8)
    padded = np.empty((rows, words * 8), dtype=np.uint8)
    padded[:, :width] = mask
    padded[:, width:] = 0
    packed = padded.view("<u8")
    counts = np.empty((words, rows), dtype=np.int32)
    np.bitwise_count(packed.T, out=counts)
    before = np.empty_like(counts)          # the legal actions before each word
    before[0] = 0
    for k in range(1, words):       # word by word: numpy's cumsum is slow on short rows
        np.add(before[k - 1], counts[k - 1], out=before[k])
    total = before[-1] + counts[-1]
    draw = rng.random(rows)
    draw *= total
    rank = draw.astype(np.int32)
    # the words wholly before the r-th legal action (summed down the rows)
    word = (before[1:] <= rank).sum(axis=0, dtype=np.int32)
    every = np.arange(rows)
    within = rank - before.reshape(-1)[word * rows + every]
    with np.errstate(over="ignore"):
        byte = packed.reshape(-1)[every * words + word] * _GATHER
    byte >>= _S56
    byte <<= _S3
    chosen: npt.NDArray[np.int64] = _SELECT_FLAT[byte.astype(np.intp) + within]
    chosen += 8 * word
    chosen[total == 0] = 0
    return chosen


_GATHER = np.uint64(0x0102040810204080)
_S56 = np.uint64(56)
_S3 = np.uint64(3)
#: ``_SELECT[v, k]``: the place of the ``k``-th set bit of the byte ``v``.
_SELECT = np.zeros((256, 8), dtype=np.int64)
for _value in range(256):
    _places = [_bit for _bit in range(8) if _value >> _bit & 1]
    _SELECT[_value, :len(_places)] = _places
#: ``_SELECT`` flat: ``[8 * v + k]``.
_SELECT_FLAT = _SELECT.reshape(-1)
