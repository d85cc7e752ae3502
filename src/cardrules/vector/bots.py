"""Bots for the batch engine: one action number per game from the arrays alone.

A batch bot is a :class:`VectorBot`: given a
:class:`~cardrules.vector.base.VectorGame`, it returns one action number
per game (any number for a game that is over; ``step`` ignores it).
:class:`RandomVectorBot` is the reducer's ``random`` bot for a whole batch:
a uniform legal action per game, drawn from the mask.

Only bots that the common arrays (the mask, the observations) are enough
for are written here.  A greedy bot needs a game's internals (its hands
and piles, which only that game's engine holds), so it belongs beside that
engine; the hook is :data:`BOTS`: a batch bot written against one engine
is added there under the name of the reducer bot it plays like, and
:func:`cardrules.simulate` with ``engine="vector"`` then plays it (a bot
must refuse, with :class:`TypeError`, an engine it cannot read).

>>> sorted(BOTS)
['greedy', 'random']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from cardrules.vector.base import random_actions

if TYPE_CHECKING:
    from cardrules.vector.base import VectorGame

__all__ = ["BOTS", "GreedyVectorBot", "RandomVectorBot", "VectorBot"]


class VectorBot(Protocol):
    """What a batch bot does: one action number per game of a batch.

    >>> bot: VectorBot = RandomVectorBot(1)
    >>> callable(bot.act)
    True
    """

    def act(self, game: VectorGame) -> npt.NDArray[np.int64]:
        """``(game.num_games,)`` action numbers, legal in every game not over.

        >>> from cardrules.vector import make
        >>> games = make("down-and-back", 3, seed=1, num_players=2, rounds=1)
        >>> chosen = RandomVectorBot(0).act(games)
        >>> bool(games.legal_action_mask[range(3), chosen].all())
        True
        """


class RandomVectorBot:
    """A uniform legal action in every game, from the mask
    (:func:`~cardrules.vector.random_actions`), drawn from a numpy
    generator seeded with ``seed`` (None: fresh entropy).

    The choices are uniform like :class:`~cardrules.engine.RandomBot`'s
    but from another random stream: a batch played with it equals a
    reducer simulation in distribution, not game for game.

    >>> import numpy as np
    >>> class Two:  # any object with a legal_action_mask
    ...     legal_action_mask = np.array([[True, False], [False, True]])
    >>> RandomVectorBot(3).act(Two()).tolist()   # type: ignore[arg-type]
    [0, 1]
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: VectorGame) -> npt.NDArray[np.int64]:
        """One uniformly random legal action number per game (0 where none).

        >>> import numpy as np
        >>> class Over:
        ...     legal_action_mask = np.zeros((2, 3), dtype=bool)
        >>> RandomVectorBot(1).act(Over()).tolist()   # type: ignore[arg-type]
        [0, 0]
        """
        return random_actions(game.legal_action_mask, self.rng)


class GreedyVectorBot:
    """Down and Back's :class:`~cardrules.down_and_back.GreedyBot` in every
    game of a batch: the engine's ``greedy_actions`` (random cuts drawn from
    a numpy generator seeded with ``seed``, then the greedy draws, discards
    and splits, equal to the reducer's
    :func:`~cardrules.down_and_back.rollout.greedy_action` at every
    decision).  An engine without ``greedy_actions`` is refused with
    :class:`TypeError`.

    >>> import numpy as np
    >>> from cardrules.vector import make
    >>> games = make("down-and-back", 2, seed=1, num_players=2, rounds=1)
    >>> GreedyVectorBot(0).act(games).shape
    (2,)
    >>> GreedyVectorBot(0).act(make("back-alley", 2, seed=1, max_hand_size=1))
    Traceback (most recent call last):
    ...
    TypeError: the greedy batch bot plays Down and Back's batch engine, not BackAlleyVector
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: VectorGame) -> npt.NDArray[np.int64]:
        """GreedyBot's action number in every game (0 where a game is over).

        >>> from cardrules.vector import make
        >>> games = make("down-and-back", 3, seed=2, num_players=3, rounds=1)
        >>> bool(games.legal_action_mask[range(3), GreedyVectorBot(1).act(games)].all())
        True
        """
        greedy = getattr(game, "greedy_actions", None)
        if greedy is None:
            raise TypeError(f"the greedy batch bot plays Down and Back's batch engine, "
                            f"not {type(game).__name__}")
        chosen: npt.NDArray[np.int64] = greedy(self.rng)
        return chosen


#: The batch bots by the name of the reducer bot each plays like, each
#: built from a seed: what ``simulate(..., engine="vector")`` can play.
BOTS: Mapping[str, Callable[[int | None], VectorBot]] = {
    "random": RandomVectorBot, "greedy": GreedyVectorBot}
