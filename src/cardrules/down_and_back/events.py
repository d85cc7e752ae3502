"""What every seat learns from each Down and Back step (DB-30 to DB-43).

Everything is public except a card drawn from the stock (DB-35), which only
its taker sees; each dealt hand, which only its holder sees (DB-32); and a
split (DB-40), kept face down until the showdown.  The step that ends a
round tells everyone its showdown: every split, the tie-break draws, the
winners and the money (DB-40 to DB-43).

The texts read as narration (``seat N`` is turned into "you" for the person
in that seat, see :func:`cardrules.engine.presenter.narration`).

>>> from cardrules.down_and_back import RULES, ChooseDealer, new_game
>>> s = new_game(2)
>>> [e.text_for(0) for e in events(s, ChooseDealer(1), RULES.apply(s, ChooseDealer(1)))]
['chance: seat 1 deals first (DB-31)']
"""

from __future__ import annotations

from typing import cast

from cardrules.down_and_back._accel import evaluate3, evaluate4
from cardrules.down_and_back.actions import Action, Cut, Discard, DrawDiscard, DrawStock, Split
from cardrules.down_and_back.state import GameState, Phase, RoundResult, Stage
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.events import Event
from cardrules.engine.events import told as _told

__all__ = ["events", "showdown_events"]


def events(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """What each seat learns from ``apply(before, action) == after``.

    A split is told as made by the seat whose split it is, which need not be
    the player to act (DB-40).

    >>> from cardrules.down_and_back import RULES, new_game
    >>> from cardrules.engine import Shuffle
    >>> from cardrules.cards import DECK
    >>> s = RULES.apply(new_game(2), ChooseDealer(0))
    >>> [e.text_for(1) for e in events(s, Shuffle(DECK), RULES.apply(s, Shuffle(DECK)))]
    ['round 1: seat 0 shuffles; everyone antes 1, the pot is 2 (DB-30, DB-32)']
    """
    told = list(_step(before, action, after))
    if after.phase is Phase.SPLIT and before.phase is not Phase.SPLIT:
        told.append(Event(None, (_told("the dealer's sixth turn is over: everyone splits "
                                       "(DB-35, DB-40)"),)))
    for result in after.results[len(before.results):]:
        told.extend(showdown_events(result, after.net))
    return tuple(told)


def _step(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """The events of the action itself."""
    kind = type(action)
    if kind is ChooseDealer:
        return (Event(None, (_told("chance: {seat} deals first (DB-31)",
                                   seat=cast(ChooseDealer, action).seat),)),)
    if kind is Shuffle:
        if before.phase is Phase.SHUFFLE:
            return (Event(None, (_told("round {round}: {seat} shuffles; everyone antes "
                                       "{ante}, the pot is {pot} (DB-30, DB-32)",
                                       round=after.round, seat=after.dealer, ante=after.ante,
                                       pot=after.pot),)),)
        # DB-36: the top card of the reshuffled pile is turned face up.
        return (Event(None, (_told("reshuffle, turned {card} (DB-36): the stock ran out; "
                                   "{seat} shuffles the discard pile into a new stock of "
                                   "{count}", card=cast(Shuffle, action).order[0],
                                   seat=after.dealer, count=len(after.stock)),)),)
    seat = before.current_player
    if kind is Discard:
        return (Event(None, (_told("{seat} discards {card}", seat=seat,
                                   card=cast(Discard, action).card),)),)
    if kind is DrawStock:
        return (Event(seat, (_told("{seat} draws from the stock", seat=seat),),
                      (_told("{seat} draws {card} from the stock", seat=seat,
                             card=after.drawn),)),)
    if kind is DrawDiscard:
        return (Event(None, (_told("{seat} takes {card} from the discard pile", seat=seat,
                                   card=before.discard[-1]),)),)
    if kind is Split:
        split = cast(Split, action)
        cards = {*split.down, *split.back}
        splitter = next((k for k, hand in enumerate(before.hands) if set(hand) == cards), seat)
        return (Event(splitter, (_told("{seat} splits", seat=splitter),),
                      (_told("{seat} split {down} / {back}", seat=splitter, down=split.down,
                             back=split.back),)),)
    assert isinstance(action, Cut)
    return (Event(None, (_told("{seat} cuts {count}; seven cards each are dealt; {card} "
                               "starts the discard pile", seat=seat, count=action.count,
                               card=after.discard[-1]),)),
            *(Event(other, None, (_told("{seat} is dealt {hand}", seat=other,
                                        hand=after.hands[other]),))
              for other in range(before.num_players)))


def showdown_events(result: RoundResult, net: tuple[int, ...]) -> tuple[Event, ...]:
    """The public account of a finished round (DB-40 to DB-43), one event a
    line: every seat's split with its combinations, the tie-break draws
    (DB-42), who won each hand and the pot, then every seat's net winnings
    (``net``, after the round).

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> game = RULES.play([RandomBot(1), RandomBot(2)], {"rounds": 1}, seed=3)
    >>> for e in showdown_events(game.state.results[0], game.state.net):
    ...     print(e.text_for(0))  # doctest: +ELLIPSIS
    round 1 showdown (DB-40 to DB-43):
      seat 0 shows ... / ...
      seat 1 shows ... / ...
      down hand: seat ...; back hand: seat ...; ...
      net: seat 0 ..., seat 1 ...
    """
    told = [Event(None, (_told("round {round} showdown (DB-40 to DB-43):",
                               round=result.round),))]
    for seat, split in enumerate(result.splits):
        told.append(Event(None, (_told("  {seat} shows {down} / {back}", seat=seat,
                                       down=evaluate4(split.down),
                                       back=evaluate3(split.back)),)))
    if result.tiebreaks:
        draws = tuple(_told("{stage}: {seat} drew {card}", seat=draw.seat, card=draw.card,
                            stage=_told("DOWN") if draw.stage is Stage.DOWN else _told("BACK"))
                      for draw in result.tiebreaks)
        told.append(Event(None, (_told("  tie-break draws (DB-42): {draws}", draws=draws),)))
    pot = (_told("the pot of {pot} carries over", pot=result.pot)
           if result.pot_winner is None
           else _told("{seat} takes the pot of {pot}", seat=result.pot_winner, pot=result.pot))
    told.append(Event(None, (_told("  down hand: {down_seat}; back hand: {back_seat}; {pot}",
                                   down_seat=result.down_winner,
                                   back_seat=result.back_winner, pot=pot),)))
    nets = tuple(_told("{seat} {value}", seat=seat, value=format(value, "+d"))
                 for seat, value in enumerate(net))
    told.append(Event(None, (_told("  net: {nets}", nets=nets),)))
    return tuple(told)
