"""What a game module offers the shared engine: the :class:`Rules` protocol.

A game subpackage (such as :mod:`cardrules.down_and_back`) satisfies this
protocol with plain module-level functions, so the module itself can be
handed to :func:`~cardrules.engine.check_game` or
:func:`~cardrules.engine.records.replay_states`.

>>> import cardrules.down_and_back as game
>>> game.NAME
'down_and_back'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Protocol, TypeVar

__all__ = ["Rules", "Settings", "StateLike"]

#: Game settings as plain JSON values, for example ``{"num_players": 4, "ante": 1}``.
Settings = Mapping[str, int | None]


class StateLike(Protocol):
    """The attributes every game state has.

    >>> from cardrules.down_and_back import new_game
    >>> s = new_game(2)
    >>> s.current_player, s.is_chance, s.is_terminal, s.num_players
    (None, True, False, 2)
    """

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None at a chance point or at the end.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).current_player is None
        True
        """

    @property
    def is_chance(self) -> bool:
        """True when a chance action is due.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).is_chance
        True
        """

    @property
    def is_terminal(self) -> bool:
        """True when the game is over.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).is_terminal
        False
        """

    @property
    def num_players(self) -> int:
        """The number of seats.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(5).num_players
        5
        """


S = TypeVar("S", bound=StateLike)
A = TypeVar("A")


class Rules(Protocol[S, A]):
    """The functions a game module provides (see :mod:`cardrules.down_and_back`).

    Each method below is a module-level function of the game's package; the
    examples use Down and Back's.

    >>> import cardrules.down_and_back as db
    >>> db.NAME, len(db.CHECK_SETTINGS)
    ('down_and_back', 4)
    """

    NAME: str
    #: Settings for conformance runs (short games covering the table sizes).
    CHECK_SETTINGS: tuple[Settings, ...]

    def new_game_from_settings(self, settings: Settings) -> S:
        """The initial state for ``settings`` (as stored in a record).

        >>> import cardrules.down_and_back as db
        >>> db.new_game_from_settings({"num_players": 3}).num_players
        3
        """

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """Every legal action of the player to act, in a stable order.

        >>> import cardrules.down_and_back as db
        >>> db.legal_actions(db.new_game(2))   # a chance point: none
        ()
        """

    def apply(self, state: S, action: A) -> S:
        """The next state; raises IllegalActionError and leaves ``state`` alone.

        >>> import cardrules.down_and_back as db
        >>> db.apply(db.new_game(2), db.ChooseDealer(1)).dealer
        1
        """

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """The chance action due now, drawn uniformly from ``rng``.

        >>> import random, cardrules.down_and_back as db
        >>> type(db.sample_chance(db.new_game(2), random.Random(0))).__name__
        'ChooseDealer'
        """

    def probe_actions(self, state: S) -> Iterable[A]:
        """Actions worth trying on ``state``: legal ones and likely illegal ones.

        >>> import cardrules.down_and_back as db
        >>> len(list(db.probe_actions(db.new_game(2)))) > 5
        True
        """

    def view(self, state: S, seat: int) -> object:
        """What ``seat`` may know of ``state``.

        >>> import cardrules.down_and_back as db
        >>> db.view(db.new_game(2), 0).seat
        0
        """

    def hidden_variant(self, state: S, seat: int, rng: random.Random) -> S:
        """``state`` with the cards ``seat`` cannot see dealt out differently.

        >>> import random, cardrules.down_and_back as db
        >>> s = db.new_game(2)
        >>> db.hidden_variant(s, 0, random.Random(0)) == s   # nothing dealt yet
        True
        """

    def check_invariants(self, state: S) -> None:
        """Raise ValueError if ``state`` breaks an invariant of the game.

        >>> import cardrules.down_and_back as db
        >>> db.check_invariants(db.new_game(2)) is None
        True
        """

    def state_to_dict(self, state: S) -> dict[str, object]:
        """``state`` as plain JSON-ready values.

        >>> import cardrules.down_and_back as db
        >>> db.state_to_dict(db.new_game(2))["num_players"]
        2
        """

    def state_from_dict(self, data: Mapping[str, object]) -> S:
        """Inverse of :meth:`state_to_dict`, validating everything.

        >>> import cardrules.down_and_back as db
        >>> s = db.new_game(2)
        >>> db.state_from_dict(db.state_to_dict(s)) == s
        True
        """

    def action_to_dict(self, action: A) -> dict[str, object]:
        """``action`` as plain JSON-ready values.

        >>> import cardrules.down_and_back as db
        >>> db.action_to_dict(db.DrawStock())
        {'type': 'draw_stock'}
        """

    def action_from_dict(self, data: Mapping[str, object]) -> A:
        """Inverse of :meth:`action_to_dict`.

        >>> import cardrules.down_and_back as db
        >>> db.action_from_dict({"type": "cut", "count": 3})
        Cut(count=3)
        """

    def parse_action(self, text: str) -> A:
        """Read an action from its text form ``str(action)``.

        >>> import cardrules.down_and_back as db
        >>> db.parse_action("draw discard")
        DrawDiscard()
        """
