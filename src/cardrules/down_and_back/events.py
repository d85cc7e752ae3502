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
from cardrules.down_and_back.state import GameState, Phase, RoundResult
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.events import Event

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
        told.append(Event(None, ("the dealer's sixth turn is over: everyone splits "
                                 "(DB-35, DB-40)",)))
    for result in after.results[len(before.results):]:
        told.extend(showdown_events(result, after.net))
    return tuple(told)


def _step(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """The events of the action itself."""
    kind = type(action)
    if kind is ChooseDealer:
        return (Event(None, ("chance:", "seat", cast(ChooseDealer, action).seat,
                             "deals first (DB-31)")),)
    if kind is Shuffle:
        if before.phase is Phase.SHUFFLE:
            return (Event(None, (f"round {after.round}:", "seat", after.dealer,
                                 f"shuffles; everyone antes {after.ante}, the pot is "
                                 f"{after.pot} (DB-30, DB-32)")),)
        # DB-36: the top card of the reshuffled pile is turned face up.
        return (Event(None, ("reshuffle, turned", cast(Shuffle, action).order[0],
                             "(DB-36): the stock ran out;", "seat", after.dealer,
                             "shuffles the discard pile into a new stock of",
                             len(after.stock))),)
    seat = before.current_player
    if kind is Discard:
        return (Event(None, ("seat", seat, "discards", cast(Discard, action).card)),)
    if kind is DrawStock:
        return (Event(seat, ("seat", seat, "draws from the stock"),
                      ("seat", seat, "draws", after.drawn, "from the stock")),)
    if kind is DrawDiscard:
        return (Event(None, ("seat", seat, "takes", before.discard[-1],
                             "from the discard pile")),)
    if kind is Split:
        split = cast(Split, action)
        cards = {*split.down, *split.back}
        splitter = next((k for k, hand in enumerate(before.hands) if set(hand) == cards), seat)
        return (Event(splitter, ("seat", splitter, "splits"), ("seat", splitter, action)),)
    assert isinstance(action, Cut)
    return (Event(None, ("seat", seat, "cuts", f"{action.count}; seven cards each are dealt;",
                         after.discard[-1], "starts the discard pile")),
            *(Event(other, None, ("seat", other, "is dealt", after.hands[other]))
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
    told = [Event(None, (f"round {result.round} showdown (DB-40 to DB-43):",))]
    for seat, split in enumerate(result.splits):
        told.append(Event(None, ("  seat", seat, "shows", evaluate4(split.down), "/",
                                 evaluate3(split.back))))
    if result.tiebreaks:
        told.append(Event(None, ("  tie-break draws (DB-42):",
                                 ", ".join(map(str, result.tiebreaks)))))
    pot = (f"the pot of {result.pot} carries over" if result.pot_winner is None
           else f"seat {result.pot_winner} takes the pot of {result.pot}")
    told.append(Event(None, ("  down hand:", "seat", f"{result.down_winner}; back hand:",
                             "seat", f"{result.back_winner};", pot)))
    told.append(Event(None, ("  net:", ", ".join(f"seat {seat} {value:+d}"
                                                 for seat, value in enumerate(net)))))
    return tuple(told)
