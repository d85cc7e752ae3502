"""Bots: players driven by code, behind one small protocol.

A bot sees what its seat may know (the game's view) plus the legal actions,
and picks one.  Every bot takes a seed and keeps its own ``random.Random``,
so the same seed and game give the same choices.

>>> import random
>>> from cardrules.down_and_back import new_game, legal_actions, apply, sample_chance, view
>>> s = new_game(2)
>>> s = apply(s, sample_chance(s, random.Random(1)))
>>> s = apply(s, sample_chance(s, random.Random(2)))
>>> bot = RandomBot(seed=4)
>>> bot.act(view(s, s.current_player), legal_actions(s))
Cut(count=...)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Protocol, TypeVar

__all__ = ["Bot", "RandomBot", "is_quick"]

A = TypeVar("A")


class Bot(Protocol):
    """Anything with ``act(view, legal) -> action``.

    ``legal`` is never empty; the bot must return one of its items.

    >>> bot: Bot = RandomBot(seed=0)
    >>> bot.act(None, ["only"])
    'only'
    """

    def act(self, view: object, legal: Sequence[A]) -> A:
        """Choose one of ``legal`` knowing only ``view``.

        >>> RandomBot(seed=0).act(None, [1, 2]) in (1, 2)
        True
        """


def is_quick(bot: object) -> bool:
    """True when ``bot`` declares that it thinks quickly (a class attribute
    ``quick = True``): a fraction of a millisecond a move, cheap enough for a
    server to ask on its event loop.  Any other bot (a search) is asked on
    worker threads.

    >>> is_quick(RandomBot(0)), is_quick(object())
    (True, False)
    """
    return getattr(bot, "quick", False) is True


class RandomBot:
    """Picks a legal action uniformly at random from its own seeded generator.

    >>> RandomBot(seed=1).act(None, ["a", "b", "c"]) in ("a", "b", "c")
    True
    """

    #: A move takes microseconds (see :func:`~cardrules.engine.bots.is_quick`).
    quick: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: object, legal: Sequence[A]) -> A:
        """A uniformly random member of ``legal``.

        >>> RandomBot(seed=3).act(None, [7])
        7
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        return self.rng.choice(legal)
