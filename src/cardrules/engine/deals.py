"""Deals fixed from a seed, for duplicate play.

Each chance action of a game is drawn from its own generator, seeded from
the seed and the chance action's place in the game: the deal it belongs to
(:func:`deal_number`) and how many chance actions that deal had before it.
Two games from the same seed therefore see the same cards deal by deal,
however differently they are played, and a deal thrown in is dealt again the
same way in both (see :doc:`/integrations`).

>>> import random
>>> from cardrules.back_alley import RULES, new_game, apply
>>> deals, again = FixedDeals(RULES, 7), FixedDeals(RULES, 7)
>>> state = new_game(max_hand_size=2)
>>> deals(state) == again(state)
True
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any

from cardrules._validate import require_int

if TYPE_CHECKING:
    from cardrules.engine.rules import Rules

__all__ = ["FixedDeals", "deal_number", "fixed_chance"]

#: Where a chance action sits in a game: (deal number, chance actions of
#: that deal before it).
Key = tuple[int, int]


def deal_number(state: object) -> int:
    """The number of deals (rounds) ``state``'s history records as finished:
    ``len(state.history.results)`` (0 for a state without one).

    >>> from cardrules.down_and_back import new_game
    >>> deal_number(new_game(2))
    0
    """
    history = getattr(state, "history", None)
    return len(getattr(history, "results", ()))


def next_key(state: object, key: Key | None) -> Key:
    """The key of the chance action due in ``state``, after the one keyed ``key``
    (None: the first of the game).

    >>> next_key(object(), None), next_key(object(), (0, 0))
    ((0, 0), (0, 1))
    """
    deal = deal_number(state)
    if key is None or key[0] != deal:
        return (deal, 0)
    return (deal, key[1] + 1)


def fixed_chance(rules: Rules[Any, Any], state: Any, seed: int, key: Key) -> Any:
    """The chance action of ``state`` fixed by ``seed`` at ``key``:
    ``rules.sample_chance`` with a :class:`random.Random` seeded by the first
    8 bytes (big-endian) of the SHA-256 of ``cardrules.deal:{seed}:{deal}:{k}``.

    >>> from cardrules.back_alley import RULES, new_game
    >>> fixed_chance(RULES, new_game(), 3, (0, 0)) == fixed_chance(RULES, new_game(), 3, (0, 0))
    True
    """
    require_int("seed", seed)
    digest = hashlib.sha256(f"cardrules.deal:{seed}:{key[0]}:{key[1]}".encode()).digest()
    return rules.sample_chance(state, random.Random(int.from_bytes(digest[:8], "big")))


class FixedDeals:
    """The chance actions of one game of ``rules``, fixed deal by deal from
    ``seed``: call it at each chance point of the game, in order.  Use a new
    one (or :meth:`restart`) for each game.

    >>> from cardrules.down_and_back import RULES, new_game
    >>> deals = FixedDeals(RULES, 1)
    >>> deals(new_game(3))
    ChooseDealer(seat=1)
    """

    def __init__(self, rules: Rules[Any, Any], seed: int) -> None:
        require_int("seed", seed)
        self.rules, self.seed = rules, seed
        self._key: Key | None = None

    def restart(self) -> None:
        """Start again for a new game.

        >>> from cardrules.down_and_back import RULES, new_game
        >>> deals = FixedDeals(RULES, 1)
        >>> first = deals(new_game(3)); deals.restart()
        >>> deals(new_game(3)) == first
        True
        """
        self._key = None

    def __call__(self, state: Any) -> Any:
        """The chance action due in ``state`` (a chance point of the game).

        >>> from cardrules.back_alley import RULES, new_game
        >>> FixedDeals(RULES, 5)(new_game())
        ChooseDealer(seat=...)
        """
        self._key = next_key(state, self._key)
        return fixed_chance(self.rules, state, self.seed, self._key)

    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        """``__call__`` in the shape of ``Rules.sample_chance`` (``rng`` is
        not used), so that ``attrs.evolve(rules, sample_chance=deals.sample_chance)``
        plays a game with these deals.

        >>> import attrs
        >>> from cardrules.back_alley import RULES
        >>> from cardrules.engine import RandomBot
        >>> games = [attrs.evolve(RULES, sample_chance=FixedDeals(RULES, 3).sample_chance)
        ...          .play([RandomBot(s + k) for s in range(4)], {"max_hand_size": 1}).record
        ...          for k in (0, 10)]
        >>> games[0].actions[:2] == games[1].actions[:2]   # the same dealer and first shuffle
        True
        """
        return self(state)
