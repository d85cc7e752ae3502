"""What every seat learns from each Down and Back step (DB-31 to DB-40).

Everything is public except a card drawn from the stock (DB-35), which only
its taker sees; each dealt hand, which only its holder sees (DB-32); and a
split (DB-40), kept face down until the showdown.

>>> from cardrules.down_and_back import RULES, ChooseDealer, new_game
>>> s = new_game(2)
>>> [e.text_for(0) for e in events(s, ChooseDealer(1), RULES.apply(s, ChooseDealer(1)))]
['dealer 1']
"""

from __future__ import annotations

from typing import cast

from cardrules.down_and_back.actions import Action, Cut, Discard, DrawDiscard, DrawStock, Split
from cardrules.down_and_back.state import GameState, Phase
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.events import Event

__all__ = ["events"]


def events(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """What each seat learns from ``apply(before, action) == after``.

    A split is told as made by the seat whose split it is, which need not be
    the player to act (DB-40).

    >>> from cardrules.down_and_back import RULES, new_game
    >>> from cardrules.engine import Shuffle
    >>> from cardrules.cards import DECK
    >>> s = RULES.apply(new_game(2), ChooseDealer(0))
    >>> [e.text_for(1) for e in events(s, Shuffle(DECK), RULES.apply(s, Shuffle(DECK)))]
    ['shuffle']
    """
    kind = type(action)
    if kind is ChooseDealer:
        return (Event(None, ("dealer", cast(ChooseDealer, action).seat)),)
    if kind is Shuffle:
        if before.phase is Phase.SHUFFLE:
            return (Event(None, ("shuffle",)),)
        # DB-36: the top card of the reshuffled pile is turned face up.
        return (Event(None, ("reshuffle, turned", cast(Shuffle, action).order[0])),)
    seat = before.current_player
    if kind is Discard:
        return (Event(None, ("seat", seat, "discards", cast(Discard, action).card)),)
    if kind is DrawStock:
        return (Event(seat, ("seat", seat, "draws from the stock"),
                      ("seat", seat, "draws", after.drawn, "from the stock")),)
    if kind is DrawDiscard:
        return (Event(None, ("seat", seat, "takes", before.discard[-1])),)
    if kind is Split:
        split = cast(Split, action)
        cards = {*split.down, *split.back}
        splitter = next((k for k, hand in enumerate(before.hands) if set(hand) == cards), seat)
        return (Event(splitter, ("seat", splitter, "splits"), ("seat", splitter, action)),)
    assert isinstance(action, Cut)
    return (Event(None, ("seat", seat, action, "turned", after.discard[-1])),
            *(Event(other, None, ("seat", other, "dealt", after.hands[other]))
              for other in range(before.num_players)))
