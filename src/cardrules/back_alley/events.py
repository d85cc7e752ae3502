"""What every seat learns from each Back Alley step (BA-11 to BA-34).

Bids and plays are public.  A deal tells everyone the dealer, the turned
trump card and, when a joker is turned, the card the exchanger discards
(BA-13); each hand is seen only by its holder, and the exchanger alone sees
the card they took.

>>> from cardrules.back_alley import RULES, ChooseDealer, new_game
>>> s = new_game()
>>> [e.text_for(0) for e in events(s, ChooseDealer(3), RULES.apply(s, ChooseDealer(3)))]
['dealer 3']
"""

from __future__ import annotations

from typing import cast

from cardrules.back_alley.actions import Action
from cardrules.back_alley.state import GameState
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.events import Event, Parts

__all__ = ["events"]


def events(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """What each seat learns from ``apply(before, action) == after``.

    >>> from cardrules.back_alley import RULES, ChooseDealer, Shuffle, new_game
    >>> from cardrules.back_alley.actions import CARDS
    >>> s = RULES.apply(new_game(max_hand_size=1), ChooseDealer(0))
    >>> told = events(s, Shuffle(CARDS), RULES.apply(s, Shuffle(CARDS)))
    >>> told[0].text_for(2)
    'deal by 0 turned ...'
    >>> told[1].text_for(1) is None, told[1].text_for(0)
    (True, 'seat 0 dealt ...')
    """
    kind = type(action)
    if kind is ChooseDealer:
        return (Event(None, ("dealer", cast(ChooseDealer, action).seat)),)
    if kind is not Shuffle:
        return (Event(None, ("seat", before.current_player, action)),)
    deal = after.deal
    assert deal is not None
    public: Parts = ("deal by", after.dealer, "turned", deal.trump_card)
    if deal.joker_discard is not None:
        public += ("seat", deal.exchanger, "discards", deal.joker_discard)
    told = [Event(None, public)]
    hands = after.hands
    for seat in range(4):
        private: Parts = ("seat", seat, "dealt", hands[seat])
        if seat == deal.exchanger:
            private += ("took", deal.taken)
        told.append(Event(seat, None, private))
    return tuple(told)
