"""What a game's batch engine offers, named without importing one.

A game's :class:`~cardrules.engine.Rules` may carry ``vector``, a function
that builds its batch engine: many games stepped together on numpy arrays.
:class:`BatchEngine` is the shape the shared parts rely on;
:class:`cardrules.vector.VectorGame` is the base class the games' engines
derive from (it needs numpy, which the engine itself does not).

A game's batch engine, built through its rules, offers all of it:

>>> from cardrules.vector import make
>>> engine: BatchEngine = make("down-and-back", 2, seed=0, num_players=2, rounds=1)
>>> engine.num_games, engine.legal_action_mask.shape, engine.terminated.tolist()
(2, (2, 140), [False, False])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from cardrules.engine.records import GameRecord

__all__ = ["BatchEngine"]


class BatchEngine(Protocol):
    """``num_games`` games of one kind stepped together: the four arrays
    (``current_player``, ``legal_action_mask``, ``rewards``, ``terminated``)
    and ``step``, ``observation``, ``reset``, ``state`` and
    ``record``, as :class:`cardrules.vector.VectorGame` documents them.

    >>> sorted(name for name in vars(BatchEngine) if not name.startswith("_"))
    ['observation', 'record', 'reset', 'state', 'step']
    """

    num_games: int
    num_players: int
    num_actions: int
    observation_size: int
    current_player: npt.NDArray[np.int64]
    legal_action_mask: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_]]: ...

    def observation(self, seat: int | None = None) -> npt.NDArray[np.float32]: ...

    def reset(self) -> None: ...

    def state(self, index: int) -> object: ...

    def record(self, index: int) -> GameRecord: ...
