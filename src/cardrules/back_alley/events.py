"""What every seat learns from each Back Alley step (BA-11 to BA-43).

Bids and plays are public, and so is what they settle: the contracts once
the bidding is over (BA-24), a thrown-in deal (BA-25), who won each trick
(BA-34), a finished deal's result and the scores (BA-40 to BA-42).  A deal
tells everyone the dealer, the turned trump card and, when a joker is
turned, the card the exchanger discards (BA-13); each hand is seen only by
its holder, and the exchanger alone sees the card they took (BA-50).

The texts read as narration (``seat N`` is turned into "you" for the person
in that seat, see :func:`cardrules.engine.presenter.narration`).

>>> from cardrules.back_alley import RULES, ChooseDealer, new_game
>>> s = new_game()
>>> [e.text_for(0) for e in events(s, ChooseDealer(3), RULES.apply(s, ChooseDealer(3)))]
['chance: seat 3 deals first (BA-11)']
"""

from __future__ import annotations

from typing import cast

import attrs

from cardrules.back_alley.actions import Action, Bid, Board, Pass, Play
from cardrules.back_alley.state import Contract, GameState, Phase, contract_of
from cardrules.back_alley.trick import table_for, trick_winner
from cardrules.cards import Card, Joker, Suit
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.events import Event, Told
from cardrules.engine.events import told as _told
from cardrules.engine.events import told_n as _told_n
from cardrules.hand import Hand
from cardrules.i18n import lazy_gettext

__all__ = ["events"]


@attrs.frozen
class _DealtHand:
    """A dealt hand as the table shows a hand: trumps first, suit by suit,
    highest first (so the narration and the table write it in one order).

    >>> str(_DealtHand(tuple(Hand.parse("5C BB TH 2H", jokers=True)), Suit.HEARTS))
    'BB TH 2H | 5C'
    """

    cards: tuple[Card | Joker, ...]
    trump: Suit | None

    def __str__(self) -> str:
        from cardrules.back_alley.presenter import hand_text

        return hand_text(self.cards, self.trump)


def _suit_name(suit: Suit) -> object:
    """The name of ``suit`` in the reader's language when shown ("spades").

    >>> str(_suit_name(Suit.CLUBS))
    'clubs'
    """
    return lazy_gettext(suit.name.lower())


def events(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """What each seat learns from ``apply(before, action) == after``.

    >>> from cardrules.back_alley import RULES, ChooseDealer, Shuffle, new_game
    >>> from cardrules.back_alley.actions import CARDS
    >>> s = RULES.apply(new_game(max_hand_size=1), ChooseDealer(0))
    >>> told = events(s, Shuffle(CARDS), RULES.apply(s, Shuffle(CARDS)))
    >>> told[0].text_for(2)
    'deal 1 of 1: seat 0 deals 1 card each; turned 2S: trump spades (BA-12, BA-13)'
    >>> told[1].text_for(1) is None, told[1].text_for(0)
    (True, 'seat 0 is dealt ...')
    """
    kind = type(action)
    if kind is ChooseDealer:
        return (Event(None, (_told("chance: {seat} deals first (BA-11)",
                                   seat=cast(ChooseDealer, action).seat),)),)
    if kind is Shuffle:
        return _deal(after)
    seat = before.current_player
    told: list[Event] = []
    if kind is Pass:
        told.append(Event(None, (_told("{seat} passes", seat=seat),)))
    elif kind is Bid:
        told.append(Event(None, (_told("{seat} bids {tricks}", seat=seat,
                                       tricks=cast(Bid, action).tricks),)))
    elif kind is Board:
        assert seat is not None
        level = after.board_levels[seat] or 1
        told.append(Event(None, (_told("{seat} claims {contract} (BA-23)", seat=seat,
                                       contract=Contract(board=level)),)))
    else:
        card = cast(Play, action).card
        told.append(Event(None, (_told("{seat} plays {card}", seat=seat, card=card),)))
        if len(before.trick) == 3 and before.leader is not None:
            winner = trick_winner(before.leader, [c.index for c in (*before.trick, card)],
                                  table_for(before.trump))
            told.append(Event(None, (_told("{seat} wins the trick (BA-34)", seat=winner),)))
    if before.phase is Phase.BID and after.phase is Phase.PLAY and after.dealer is not None:
        leader = after.leader if after.leader is not None else after.current_player
        told.append(Event(None, (_told(
            "contracts: team 0 {contract0}, team 1 {contract1}; {seat} leads (BA-24, BA-30)",
            contract0=contract_of(after.bids, after.dealer, 0),
            contract1=contract_of(after.bids, after.dealer, 1), seat=leader),)))
    elif before.phase is Phase.BID and after.phase is Phase.SHUFFLE:
        told.append(Event(None, (_told("all four passed: the cards are thrown in and the "
                                       "deal passes on (BA-25)"),)))
    for result in after.results[len(before.results):]:
        told.append(Event(None, (_told("{result}", result=result),)))
        told.append(Event(None, (_told("scores: team 0 {score0}, team 1 {score1}",
                                       score0=after.scores[0], score1=after.scores[1]),)))
    return tuple(told)


def _deal(after: GameState) -> tuple[Event, ...]:
    """A deal (BA-12, BA-13): the public deal, then each seat's own hand, as
    dealt, and the card the exchanger took for the joker."""
    deal = after.deal
    assert deal is not None
    size = deal.hand_size
    trump: Told = (_told("no trump") if deal.trump is None
                   else _told("trump {suit}", suit=_suit_name(deal.trump)))
    if deal.joker_discard is not None:
        trump = _told("{trump}; {exchanger_seat} discarded {card}", trump=trump,
                      exchanger_seat=deal.exchanger, card=deal.joker_discard)
    public = _told_n("deal {number} of {deals}: {seat} deals {n} card each; turned {card}: "
                     "{trump} (BA-12, BA-13)",
                     "deal {number} of {deals}: {seat} deals {n} cards each; turned {card}: "
                     "{trump} (BA-12, BA-13)", size, number=after.deal_number,
                     deals=after.settings.deals, seat=after.dealer, card=deal.trump_card,
                     trump=trump)
    told = [Event(None, (public,))]
    for seat, hand in enumerate(after.hands):
        if seat == deal.exchanger and deal.taken is not None and deal.joker_discard is not None:
            dealt: Hand[Card | Joker] = Hand(
                (*(c for c in hand if c != deal.taken), deal.joker_discard), jokers=True)
            told.append(Event(seat, None, (_told("{seat} is dealt {hand}", seat=seat,
                                                 hand=_DealtHand(dealt, deal.trump)),)))
            told.append(Event(seat, None, (_told("{seat} takes {card} for its joker (BA-13)",
                                                 seat=seat, card=deal.taken),)))
        else:
            told.append(Event(seat, None, (_told("{seat} is dealt {hand}", seat=seat,
                                                 hand=_DealtHand(tuple(hand), deal.trump)),)))
    return tuple(told)
