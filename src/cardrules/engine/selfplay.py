"""Self-play: bots play a whole game, chance comes from one seed.

:func:`~cardrules.engine.play` is the one game loop: :meth:`Rules.play
<cardrules.engine.rules.Rules.play>`, each game's ``play_game`` (the same
signature in every game: ``play_game(bots, *, seed=None, max_actions=None,
**settings)``) and the ``cardrules play`` command call it.  Each bot sees
only its own seat's view; chance actions are sampled from
``random.Random(seed)``; the result holds the final state and the record
that replays to it (:meth:`Rules.replay <cardrules.engine.rules.Rules.replay>`,
or :meth:`GameRecord.replay <cardrules.engine.GameRecord.replay>`, its
thin wrapper).

>>> from cardrules.down_and_back import RULES
>>> from cardrules.engine import RandomBot
>>> game = play(RULES, [RandomBot(1), RandomBot(2), RandomBot(3)], {"rounds": 2}, seed=4)
>>> game.state.is_terminal, list(game.record.replay())[-1] == game.state
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

import attrs

from cardrules.engine.records import GameRecord

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.rules import Rules, SettingValues, StateLike

__all__ = ["PlayedGame", "Step", "play", "steps"]

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


@attrs.frozen(slots=True)
class Step(Generic[S, A]):
    """One action of a game :func:`~cardrules.engine.selfplay.steps` plays: the
    state ``before`` it, the ``seat`` that acted (None for chance), the
    ``action`` and the state ``after`` it.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> first = next(steps(RULES, [RandomBot(1), RandomBot(2)], seed=3))
    >>> first.seat, str(first.action), first.after.dealer
    (None, 'dealer 0', 0)
    """

    before: S
    seat: int | None
    action: A
    after: S


def steps(rules: Rules[S, A], bots: Sequence[Bot], settings: SettingValues | None = None, *,
          seed: int | None = None, max_actions: int | None = None) -> Iterator[Step[S, A]]:
    """The game loop: play a game of ``rules`` between ``bots`` (one per
    seat), one :class:`~cardrules.engine.selfplay.Step` per action, to the end.

    ``settings`` are the game's settings (defaults for those left out; a
    game with a ``num_players`` setting gets ``len(bots)``).  ``seed`` seeds
    the chance events; the bots have their own seeds.  Each bot is asked
    with its own seat's view only.  ``max_actions`` stops a game that would
    never end (such as an open-ended one) with :class:`RuntimeError`.  The
    settings and the number of bots are checked when this is called, before
    any step; the steps are played as they are asked for.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> game = list(steps(RULES, [RandomBot(1), RandomBot(2)], {"rounds": 1}, seed=3))
    >>> game[-1].after.is_terminal, game[0].before == RULES.new_game_from_settings(
    ...     {"num_players": 2, "rounds": 1})
    (True, True)
    >>> steps(RULES, [RandomBot(1)], seed=1)
    Traceback (most recent call last):
    ...
    ValueError: Down and Back is for 2 to 5 players, not 1
    """
    loop = _loop(rules, bots, _start(rules, bots, settings), random.Random(seed), max_actions)
    return (Step(*step) for step in loop)


def _start(rules: Rules[S, A], bots: Sequence[Bot], settings: SettingValues | None) -> S:
    """The first state of a game of ``rules`` for ``bots``, the table checked."""
    values = dict(settings or {})
    if "num_players" in rules.default_settings and "num_players" not in values:
        values["num_players"] = len(bots)
    state = rules.new_game_from_settings(values)
    if len(bots) != state.num_players:
        raise ValueError(f"{rules.title} needs {state.num_players} bots here, "
                         f"not {len(bots)}")
    return state


def _loop(rules: Rules[S, A], bots: Sequence[Bot], state: S, rng: random.Random,
          max_actions: int | None) -> Iterator[tuple[S, int | None, A, S]]:
    """The game loop itself, once the table is checked: each step as a plain
    tuple (what a :class:`Step` holds), which :func:`play` reads without
    building a Step per action."""
    apply, sample_chance, view, legal_actions = \
        rules.apply, rules.sample_chance, rules.view, rules.legal_actions
    count = 0
    while not state.is_terminal:
        if max_actions is not None and count >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        if state.is_chance:
            action = sample_chance(state, rng)
            after = apply(state, action)
            yield state, None, action, after
        else:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(view(state, seat), legal_actions(state))
            after = apply(state, action, seat=seat)
            yield state, seat, action, after
        state = after
        count += 1


def play(rules: Rules[S, A], bots: Sequence[Bot], settings: SettingValues | None = None, *,
         seed: int | None = None, max_actions: int | None = None) -> PlayedGame[S]:
    """Play a game of ``rules`` between ``bots`` (one per seat) to its end:
    :func:`~cardrules.engine.selfplay.steps` played out, as a :class:`PlayedGame`.

    The arguments are those of :func:`~cardrules.engine.selfplay.steps` (a
    game with a ``num_players`` setting gets ``len(bots)``; ``max_actions``
    stops a game that would never end with :class:`RuntimeError`).  :meth:`Rules.play
    <cardrules.engine.rules.Rules.play>` and each game's ``play_game`` are
    this function with the game's rules.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> play(RULES, [RandomBot(1)], seed=1)
    Traceback (most recent call last):
    ...
    ValueError: Down and Back is for 2 to 5 players, not 1
    """
    start = final = _start(rules, bots, settings)
    actions: list[A] = []
    for _, _, action, after in _loop(rules, bots, start, random.Random(seed), max_actions):
        actions.append(action)
        final = after
    return PlayedGame(final, rules.record(start, actions))
