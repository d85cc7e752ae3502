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
    """The attributes every game state has."""

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None at a chance point or at the end."""

    @property
    def is_chance(self) -> bool:
        """True when a chance action is due."""

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @property
    def num_players(self) -> int:
        """The number of seats."""


S = TypeVar("S", bound=StateLike)
A = TypeVar("A")
V = TypeVar("V", covariant=True)


class Rules(Protocol[S, A]):
    """The functions a game module provides (see :mod:`cardrules.down_and_back`)."""

    NAME: str
    #: Settings for conformance runs (short games covering the table sizes).
    CHECK_SETTINGS: tuple[Settings, ...]

    def new_game_from_settings(self, settings: Settings) -> S:
        """The initial state for ``settings`` (as stored in a record)."""

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """Every legal action of the player to act, in a stable order."""

    def apply(self, state: S, action: A) -> S:
        """The next state; raises IllegalActionError and leaves ``state`` alone."""

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """The chance action due now, drawn uniformly from ``rng``."""

    def probe_actions(self, state: S) -> Iterable[A]:
        """Actions worth trying on ``state``: legal ones and likely illegal ones."""

    def view(self, state: S, seat: int) -> object:
        """What ``seat`` may know of ``state``."""

    def hidden_variant(self, state: S, seat: int, rng: random.Random) -> S:
        """``state`` with the cards ``seat`` cannot see dealt out differently."""

    def check_invariants(self, state: S) -> None:
        """Raise ValueError if ``state`` breaks an invariant of the game."""

    def state_to_dict(self, state: S) -> dict[str, object]:
        """``state`` as plain JSON-ready values."""

    def state_from_dict(self, data: Mapping[str, object]) -> S:
        """Inverse of :meth:`state_to_dict`, validating everything."""

    def action_to_dict(self, action: A) -> dict[str, object]:
        """``action`` as plain JSON-ready values."""

    def action_from_dict(self, data: Mapping[str, object]) -> A:
        """Inverse of :meth:`action_to_dict`."""

    def parse_action(self, text: str) -> A:
        """Read an action from its text form ``str(action)``."""
