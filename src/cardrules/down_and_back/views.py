"""Per-seat views: what one player may know of a game (DB-37, DB-40).

A :class:`View` holds the seat's own hand, the whole discard pile, the cards
each player was seen taking from it, hand and stock sizes, the money, whose
turn it is and, once every player has split, the splits.  It never holds
another player's hidden cards, the order of the stock, a card someone else
drew from the stock, or a split not yet revealed.  Two states that differ
only in what a seat cannot see give that seat equal views.

>>> import random
>>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut
>>> rng = random.Random(0)
>>> s = new_game(3)
>>> s = apply(apply(s, sample_chance(s, rng)), sample_chance(apply(s, sample_chance(s, rng)), rng))
>>> v = view(apply(s, Cut(10)), 0)
>>> len(v.hand), v.hand_sizes, v.stock_size, len(v.discard)
(7, (7, 7, 7), 30, 1)

``str()`` of a view is the table as that seat sees it:

>>> print(v)  # doctest: +ELLIPSIS
Down and Back: 3 players, ante 1, round 1 of 10, dealer seat ...; you are seat 0
phase DRAW, seat ... to act, pot 3
seat 0  net -1  turns 0  hand ...
seat 1  net -1  turns 0  hand 7 cards
seat 2  net -1  turns 0  hand 7 cards
stock 30 cards;  discard 1 card, top ...
"""

from __future__ import annotations

import attrs

from cardrules._validate import check_seat
from cardrules.cards import Card
from cardrules.down_and_back.actions import Split
from cardrules.down_and_back.state import (
    GameState,
    Phase,
    RoundResult,
    Showdown,
    table_lines,
)
from cardrules.hand import Hand
from cardrules.i18n import gettext, ngettext

__all__ = ["View", "view"]


@attrs.frozen(slots=True, repr=False)
class View:
    """What ``seat`` may know of a game: a public part plus its own cards.

    ``drawn`` is the card this seat drew in its current turn (None otherwise).
    ``split_chosen`` tells who has split; ``splits`` holds this seat's own
    split and, once every player has split, everyone's.

    ``hand`` and each entry of ``seen`` are :class:`~cardrules.Hand` objects.

    >>> from cardrules.down_and_back import new_game
    >>> view(new_game(2), 1).hand
    Hand.parse('')
    """

    seat: int
    num_players: int
    ante: int
    rounds: int | None
    phase: Phase
    round: int
    dealer: int | None
    current_player: int | None
    pot: int
    net: tuple[int, ...]
    hand: Hand[Card]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard: tuple[Card, ...]
    seen: tuple[Hand[Card], ...]
    turns: tuple[int, ...]
    drawn: Card | None
    split_chosen: tuple[bool, ...]
    splits: tuple[Split | None, ...]
    showdown: Showdown | None
    results: tuple[RoundResult, ...]

    def __repr__(self) -> str:
        return (f"<View of seat {self.seat}: round {self.round}, {self.phase}, "
                f"hand {self.hand or '-'}>")

    def __str__(self) -> str:
        shown = []
        for other, size in enumerate(self.hand_sizes):
            if other == self.seat:
                text = gettext("hand {cards}").format(cards=self.hand or "-")
                if self.drawn is not None:
                    text += gettext("  drew {card}").format(card=self.drawn)
            else:
                text = ngettext("hand {n} card", "hand {n} cards", size).format(n=size)
            shown.append(text)
        return "\n".join(table_lines(self, self.seat, shown, self.stock_size, None,
                                     self.split_chosen))

    def _repr_svg_(self) -> str:
        """An SVG picture of the table for notebooks; imports the pictures lazily."""
        from cardrules.down_and_back.pictures import view_svg
        return view_svg(self)

    def _repr_html_(self) -> str:
        """The SVG picture in HTML, for notebooks."""
        from cardrules.down_and_back.pictures import view_html
        return view_html(self)


def view(state: GameState, seat: int) -> View:
    """The view of ``state`` from ``seat`` (0 to ``num_players - 1``).

    >>> from cardrules.down_and_back import new_game
    >>> view(new_game(3), 2).net
    (0, 0, 0)
    """
    check_seat(seat, state.num_players)
    revealed = all(s is not None for s in state.splits)
    splits = state.splits if revealed else tuple(
        s if i == seat else None for i, s in enumerate(state.splits))
    own_turn = state.phase in (Phase.DISCARD, Phase.RESHUFFLE) and state.showdown is None \
        and state.drawn is not None and state.drawn in state.hands[seat]
    return View(
        seat=seat, num_players=state.num_players, ante=state.ante, rounds=state.rounds,
        phase=state.phase, round=state.round, dealer=state.dealer,
        current_player=state.current_player, pot=state.pot, net=state.net,
        hand=state.hands[seat], hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock), discard=state.discard, seen=state.seen,
        turns=state.turns, drawn=state.drawn if own_turn else None,
        split_chosen=tuple(s is not None for s in state.splits), splits=splits,
        showdown=state.showdown, results=state.results)
