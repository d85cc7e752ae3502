"""Per-seat views: what one player may know of a Back Alley game (BA-50).

Public: every bid, the turned trump card, a joker discarded under BA-13 (and
who discarded it), every card played, who won each trick, the tricks won and
the scores.  Private: each hand, the card taken under BA-13 and the undealt
cards.  A :class:`View` holds the public part plus the seat's own hand (and,
for the player who made the BA-13 exchange, the card taken); it never holds
another seat's card, the card another seat took under BA-13, or an undealt
card.  Two states that differ only in what a seat cannot see give that seat
equal views.

>>> import random
>>> from cardrules.back_alley import new_game, apply, sample_chance
>>> rng = random.Random(0)
>>> s = new_game()
>>> s = apply(s, sample_chance(s, rng))
>>> s = apply(s, sample_chance(s, rng))
>>> v = view(s, 2)
>>> len(v.hand), v.hand_sizes, v.bids
(13, (13, 13, 13, 13), (None, None, None, None))
"""

from __future__ import annotations

import attrs

from cardrules._validate import check_seat
from cardrules.back_alley.actions import BidAction
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    DealResult,
    GameState,
    Phase,
    Settings,
    Trick,
    _turned_line,
    bid_name,
    board_levels,
    cards_phrase,
    phase_name,
)
from cardrules.cards import Card, Joker, Suit
from cardrules.hand import Hand
from cardrules.i18n import gettext

__all__ = ["View", "view"]

AnyCard = Card | Joker


@attrs.frozen(slots=True)
class View:
    """What ``seat`` may know of a game: the public table plus its own cards.

    ``hand`` is the seat's own hand; ``taken`` the card this seat took under
    BA-13 this deal (None for every other seat); ``hand_sizes`` how many
    cards each seat still holds.  The other fields mirror
    :class:`~cardrules.back_alley.GameState`: ``trick`` holds the cards of
    the current trick from ``leader`` on, ``tricks`` the finished tricks of
    this deal with their winners.

    >>> from cardrules.back_alley import new_game
    >>> v = view(new_game(), 1)
    >>> v.seat, v.hand, v.scores
    (1, Hand.parse(''), (0, 0))
    """

    seat: int
    settings: Settings
    phase: Phase
    deal_number: int
    hand_size: int
    dealer: int | None
    current_player: int | None
    trump_card: AnyCard | None
    trump: Suit | None
    joker_discard: Joker | None
    exchanger: int | None
    hand: Hand[AnyCard]
    taken: Card | None
    hand_sizes: tuple[int, ...]
    bids: tuple[BidAction | None, ...]
    leader: int | None
    trick: tuple[AnyCard, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    trump_played: bool
    scores: tuple[int, int]
    results: tuple[DealResult, ...]

    @property
    def team(self) -> int:
        """The team of this view's seat (BA-1).

        >>> from cardrules.back_alley import new_game
        >>> view(new_game(), 3).team
        1
        """
        return self.seat & 1

    @property
    def board_levels(self) -> tuple[int, ...]:
        """Per seat, the level of its board claim this deal, or 0 (BA-23).

        >>> from cardrules.back_alley import new_game
        >>> view(new_game(), 0).board_levels
        (0, 0, 0, 0)
        """
        return board_levels(self.bids, self.dealer or 0)

    def __str__(self) -> str:
        lines = [gettext("seat {seat} (team {team}), deal {number} of {deals} ({cards}), "
                         "{phase}").format(seat=self.seat, team=self.team,
                                           number=self.deal_number, deals=self.settings.deals,
                                           cards=cards_phrase(self.hand_size),
                                           phase=phase_name(self.phase))]
        if self.trump_card is not None:
            lines.append(_turned_line(self.trump_card, self.joker_discard, self.exchanger,
                                     self.trump_played))
            hand = gettext("hand: {cards}").format(cards=self.hand)
            if self.taken:
                hand += gettext(" (took {card})").format(card=self.taken)
            lines.append(hand)
            bids = ", ".join(f"{s}: {'-' if b is None else bid_name(b)}"
                             for s, b in enumerate(self.bids))
            lines.append(gettext("bids: {bids}").format(bids=bids))
            won = ", ".join(f"{s}: {w}" for s, w in enumerate(self.tricks_won))
            lines.append(gettext("tricks won: {tricks}").format(tricks=won))
        if self.leader is not None:
            played = " ".join(map(str, self.trick))
            lines.append(gettext("trick led by {seat}: {cards}").format(
                seat=self.leader, cards=played).rstrip())
        if self.current_player is not None:
            lines.append(gettext("seat {seat} to act").format(seat=self.current_player))
        lines.append(gettext("scores: team 0 {first}, team 1 {second}").format(
            first=self.scores[0], second=self.scores[1]))
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """An SVG picture of the table for notebooks; imports the pictures lazily."""
        from cardrules.back_alley.pictures import view_svg
        return view_svg(self)

    def _repr_html_(self) -> str:
        """The SVG picture in HTML, for notebooks."""
        from cardrules.back_alley.pictures import view_html
        return view_html(self)


def view(state: GameState, seat: int) -> View:
    """The view of ``state`` from ``seat`` (0 to 3; anything else is a ValueError).

    >>> from cardrules.back_alley import new_game
    >>> print(view(new_game(), 2))
    seat 2 (team 0), deal 1 of 25 (13 cards), choose_dealer
    scores: team 0 0, team 1 0
    """
    check_seat(seat, NUM_PLAYERS)
    deal = state.deal
    hands = state.hands
    taken = None
    if deal is not None and deal.exchanger == seat:
        taken = deal.taken
    return View(
        seat=seat, settings=state.settings, phase=state.phase, deal_number=state.deal_number,
        hand_size=state.hand_size, dealer=state.dealer, current_player=state.current_player,
        trump_card=state.trump_card, trump=state.trump, joker_discard=state.joker_discard,
        exchanger=None if deal is None else deal.exchanger, hand=hands[seat], taken=taken,
        hand_sizes=tuple(len(h) for h in hands), bids=state.bids, leader=state.leader,
        trick=state.trick, tricks=state.tricks, tricks_won=state.tricks_won,
        trump_played=state.trump_played, scores=state.scores, results=state.results)
