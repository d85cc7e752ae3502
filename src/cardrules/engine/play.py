"""Self-play: bots play a whole game, chance comes from one seed.

:func:`~cardrules.engine.play` is the one game loop behind every game's
``play_game`` and the ``cardrules play`` command.  Each bot sees only its own seat's view; chance
actions are sampled from ``random.Random(seed)``; the result holds the final
state and the record that replays to it.

>>> from cardrules.down_and_back import RULES
>>> from cardrules.engine import RandomBot
>>> game = play(RULES, [RandomBot(1), RandomBot(2), RandomBot(3)], {"rounds": 2}, seed=4)
>>> game.state.is_terminal, list(game.record.replay())[-1] == game.state
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

import attrs

from cardrules.engine.records import GameRecord

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.rules import Rules, SettingValues, StateLike

__all__ = ["PlayedGame", "play"]

S = TypeVar("S", bound="StateLike")
A = TypeVar("A")


@attrs.frozen(slots=True)
class PlayedGame(Generic[S]):
    """A finished self-play game: the final ``state`` and its ``record``.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> game = play(RULES, [RandomBot(5), RandomBot(6)], {"rounds": 1}, seed=1)
    >>> game.record.game, game.state.is_terminal
    ('down_and_back', True)
    """

    state: S
    record: GameRecord


def play(rules: Rules[S, A], bots: Sequence[Bot], settings: SettingValues | None = None, *,
         seed: int | None = None, max_actions: int | None = None) -> PlayedGame[S]:
    """Play a game of ``rules`` between ``bots`` (one per seat) to its end.

    ``settings`` are the game's settings (defaults for those left out; a
    game with a ``num_players`` setting gets ``len(bots)``).  ``seed`` seeds
    the chance events; the bots have their own seeds.  ``max_actions``
    stops a game that would never end (such as an open-ended one) with
    :class:`RuntimeError`.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> play(RULES, [RandomBot(1)], seed=1)
    Traceback (most recent call last):
    ...
    ValueError: Down and Back is for 2 to 5 players, not 1
    """
    values = dict(settings or {})
    if "num_players" in rules.default_settings and "num_players" not in values:
        values["num_players"] = len(bots)
    state = rules.new_game_from_settings(values)
    if len(bots) != state.num_players:
        raise ValueError(f"{rules.title} needs {state.num_players} bots here, "
                         f"not {len(bots)}")
    start = state
    rng = random.Random(seed)
    actions: list[A] = []
    while not state.is_terminal:
        if max_actions is not None and len(actions) >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        if state.is_chance:
            action = rules.sample_chance(state, rng)
            state = rules.apply(state, action)
        else:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(rules.view(state, seat), rules.legal_actions(state))
            state = rules.apply(state, action, seat=seat)
        actions.append(action)
    return PlayedGame(state, rules.record(start, actions))
