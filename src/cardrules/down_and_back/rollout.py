"""The rollout pieces that the odds and the search bot share (DB-34 to DB-43).

:func:`~cardrules.down_and_back.analysis.discard_advice` and
:class:`~cardrules.down_and_back.SearchBot` both rate a draw or a discard by
playing the round out from states drawn to fit a view: the options a view
allows (:func:`legal_options`), the fast greedy policy
(:func:`greedy_action`), the play to the end of the round (:func:`play_out`)
and the splits worth rating (:func:`undominated`) live here, so that
neither module reaches into the other.

>>> import random
>>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut, DrawStock
>>> rng = random.Random(2)
>>> s = new_game(2)
>>> s = apply(s, sample_chance(s, rng))
>>> s = apply(apply(s, sample_chance(s, rng)), Cut(12))
>>> play_out(s, DrawStock(), rng).round
1
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cardrules.down_and_back._accel import split_actions, split_strengths
from cardrules.down_and_back.actions import Action, Discard, DrawDiscard, DrawStock
from cardrules.down_and_back.bots import greedy_discard, greedy_index, takes_discard
from cardrules.down_and_back.game import apply, legal_actions, sample_chance
from cardrules.down_and_back.state import GameState, Phase, RoundResult
from cardrules.down_and_back.views import View, view

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot

__all__ = ["greedy_action", "legal_options", "play_out", "undominated"]


def undominated(scores: Sequence[tuple[int, int]]) -> list[int]:
    """The numbers of the splits that no other split beats in one hand and
    matches or beats in the other, from their ``(down, back)`` strengths (as
    :func:`~cardrules.down_and_back.split_strengths` gives them): the
    splits :func:`~cardrules.down_and_back.best_splits` keeps.  Only these
    can take a larger share of pots (DB-43).

    >>> undominated([(5, 5), (6, 4), (4, 4), (6, 5)])
    [3]
    >>> undominated([(5, 5), (6, 4), (4, 4)])
    [0, 1]
    """
    return [n for n, (d, b) in enumerate(scores)
            if not any(d2 >= d and b2 >= b and (d2, b2) != (d, b) for d2, b2 in scores)]


def greedy_action(state: GameState) -> Action:
    """What :class:`~cardrules.down_and_back.GreedyBot` does in ``state`` (not a
    cut), read straight from the state: the fast policy of rollouts.

    It takes the discard pile's top card when that makes a better hand,
    discards the card whose loss hurts least and splits to maximise the sum
    of the two hands' strengths; the measure is exactly GreedyBot's.

    >>> import random
    >>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut
    >>> rng = random.Random(1)
    >>> s = new_game(2)
    >>> s = apply(s, sample_chance(s, rng))
    >>> s = apply(apply(s, sample_chance(s, rng)), Cut(9))
    >>> greedy_action(s) in (DrawStock(), DrawDiscard())
    True
    """
    seat = state.current_player
    if seat is None:
        raise ValueError("nobody is to act (a chance point or the end of the game)")
    hand = state.hands[seat]
    phase = state.phase
    if phase is Phase.DRAW:
        if not state.discard:
            return DrawStock()
        return DrawDiscard() if takes_discard(hand, state.discard[-1]) else DrawStock()
    if phase is Phase.DISCARD:
        return Discard(greedy_discard(hand))
    if phase is Phase.SPLIT:
        return split_actions(hand)[greedy_index(split_strengths(hand))]
    raise ValueError(f"greedy_action plays draws, discards and splits, not {phase}")


def legal_options(view: View) -> tuple[DrawStock | DrawDiscard | Discard, ...]:
    """The legal draws (DB-34: stock, or the discard pile's top card when there
    is one) or discards (any card held) of the view's seat, in
    :func:`~cardrules.down_and_back.legal_actions` order.

    >>> from cardrules.down_and_back import new_game
    >>> legal_options(view(new_game(2), 0))
    Traceback (most recent call last):
    ...
    ValueError: seat 0 has no draw or discard to make in CHOOSE_DEALER
    """
    if view.current_player == view.seat and view.phase is Phase.DRAW:
        return (DrawStock(), DrawDiscard()) if view.discard else (DrawStock(),)
    if view.current_player == view.seat and view.phase is Phase.DISCARD:
        return tuple(Discard(c) for c in view.hand)
    raise ValueError(f"seat {view.seat} has no draw or discard to make in {view.phase}")


def play_out(state: GameState, action: Action, rng: random.Random, *,
             bot: Callable[[int | None], Bot] | None = None,
             bot_seed: int = 0) -> RoundResult:
    """Apply ``action`` for the player to act, then play to the end of the round.

    Every seat then plays with bots made by ``bot(bot_seed + seat)``, each
    seeing its own view, or, by default, with :func:`greedy_action`;
    chance events (reshuffles, DB-36) come from ``rng``.  Returns the
    round's :class:`~cardrules.down_and_back.RoundResult`.

    >>> import random
    >>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut
    >>> rng = random.Random(4)
    >>> s = new_game(3)
    >>> s = apply(s, sample_chance(s, rng))
    >>> s = apply(apply(s, sample_chance(s, rng)), Cut(30))
    >>> result = play_out(s, DrawStock(), rng)
    >>> result.round, result.pot
    (1, 3)
    """
    done = len(state.results)
    state = apply(state, action, seat=state.current_player)
    bots = None if bot is None else [bot(bot_seed + seat) for seat in range(state.num_players)]
    while len(state.results) == done:
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
        elif bots is None:
            state = apply(state, greedy_action(state))
        else:
            seat = state.current_player
            assert seat is not None
            state = apply(state, bots[seat].act(view(state, seat), legal_actions(state)),
                          seat=seat)
    return state.results[done]
