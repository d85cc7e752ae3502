"""The Back Alley table at the terminal (``cardrules play back-alley --human
SEAT``): :class:`BackAlleyTable`, this game's
:class:`~cardrules.engine.presenter.Presenter` (``RULES.presenter``), and a
hand laid out as a player holds it (:func:`by_suit`, :func:`hand_text`).

Everything shown is read from the person's view (BA-50); what they are told
of each move comes from :func:`cardrules.back_alley.events.events`.

>>> from cardrules.back_alley import RULES, new_game
>>> RULES.presenter(1).intro(RULES.view(new_game(), 1))
"Back Alley: you are seat 1 (team 1, with seat 3); type 'help' for help"
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardrules.back_alley.actions import Action, parse_action
from cardrules.back_alley.state import Phase, bid_name, contract_of
from cardrules.back_alley.trick import TRUMP_CLASS, table_for
from cardrules.back_alley.views import View
from cardrules.cards import Card, Joker, Suit
from cardrules.engine.presenter import (
    CARD_NOTATION,
    listed_key,
    numbered,
    pad,
    seat_label,
    shown,
    who,
)
from cardrules.i18n import N_, gettext, ngettext, pgettext

__all__ = ["BackAlleyTable", "by_suit", "hand_text"]


def by_suit(cards: Iterable[Card | Joker], trump: Suit | None) -> list[list[Card | Joker]]:
    """Back Alley cards as a player holds them: by suit, trump first with the
    jokers at its top (BA-2), then the other suits in the order spades,
    hearts, diamonds, clubs; highest card first in each (BA-3).

    >>> from cardrules import parse_cards
    >>> cards = parse_cards("2S AH LB 9S BB KS 3C", jokers=True)
    >>> [" ".join(map(str, suit)) for suit in by_suit(cards, Suit.SPADES)]
    ['BB LB KS 9S 2S', 'AH', '3C']
    """
    classes, powers = table_for(trump)
    groups: dict[int, list[Card | Joker]] = {}
    for card in cards:
        groups.setdefault(classes[card.index], []).append(card)
    order = (TRUMP_CLASS, *range(4))
    return [sorted(groups[k], key=lambda card: powers[card.index], reverse=True)
            for k in order if k in groups]


def hand_text(cards: Iterable[Card | Joker], trump: Suit | None) -> str:
    """A Back Alley hand as text in the order of :func:`by_suit`, the suits
    separated by ``|`` (``-`` for no cards).

    >>> from cardrules import parse_cards
    >>> hand_text(parse_cards("AS 2S 3H KS BB", jokers=True), Suit.SPADES)
    'BB AS KS 2S | 3H'
    """
    return " | ".join(" ".join(map(str, suit)) for suit in by_suit(cards, trump)) or "-"


#: The game's title and its unit, for the catalog (shown through ``gettext``).
_WORDS = (N_("Back Alley"), N_("team points"))


class BackAlleyTable:
    """The Back Alley table for the person at seat ``you``.

    >>> from cardrules.back_alley import new_game, view
    >>> print("\\n".join(BackAlleyTable(2).table(view(new_game(), 2))))
    == Back Alley: deal 1 of 25 (13 cards each), no dealer yet ==
    scores: team 0 (yours) 0, team 1 0
    your hand: -
    """

    def __init__(self, you: int) -> None:
        self.you = you

    @property
    def notation(self) -> str:
        """The moves as they are typed (in English in every language), for ``help``."""
        return (gettext("  pass            bid nothing (BA-21)\n"
                        "  bid 3           bid a number of tricks, 1 to the hand size - 1\n"
                        "  board           claim every trick for your team\n"
                        "  play QH         play a card (play BB, play LB for the jokers)\n")
                + gettext(CARD_NOTATION))

    def intro(self, view: View) -> str:
        """The first line of the game.

        >>> from cardrules.back_alley import new_game, view
        >>> BackAlleyTable(3).intro(view(new_game(), 3))
        "Back Alley: you are seat 3 (team 1, with seat 1); type 'help' for help"
        """
        return gettext("Back Alley: you are seat {number} (team {team}, with seat {partner}); "
                       "type 'help' for help").format(number=self.you, team=self.you & 1,
                                                  partner=(self.you + 2) % 4)

    def table(self, view: View) -> list[str]:
        """The table: trump, bids, tricks, the trick on the table, scores, your hand.

        >>> from cardrules.back_alley import ChooseDealer, Shuffle, apply, new_game, view
        >>> from cardrules.back_alley.actions import CARDS
        >>> s = apply(apply(new_game(max_hand_size=1), ChooseDealer(3)), Shuffle(CARDS))
        >>> print("\\n".join(BackAlleyTable(0).table(view(s, 0))))
        == Back Alley: deal 1 of 1 (1 card each), dealer seat 3 ==
        turned 2S: trump spades; trump not played yet
        seat 0 (you)   team 0  no bid yet        tricks 0  1 card
        seat 1         team 1  no bid yet        tricks 0  1 card
        seat 2         team 0  no bid yet        tricks 0  1 card
        seat 3         team 1  no bid yet        tricks 0  1 card
        scores: team 0 (yours) 0, team 1 0
        your hand: AS
        """
        dealer = (gettext("no dealer yet") if view.dealer is None
                  else gettext("dealer seat {number}").format(number=view.dealer))
        size = view.hand_size
        lines = ["== " + ngettext("Back Alley: deal {number} of {deals} ({n} card each), {dealer}",
                                  "Back Alley: deal {number} of {deals} ({n} cards each), {dealer}",
                                  size).format(number=view.deal_number, deals=view.settings.deals,
                                            n=size, dealer=dealer) + " =="]
        if view.trump_card is not None:
            lines.append(self._turned(view))
            levels = view.board_levels
            for seat in range(4):
                bid = view.bids[seat]
                shown_bid = gettext("no bid yet") if bid is None else bid_name(bid)
                if levels[seat] > 1:
                    shown_bid += gettext(" (level {level})").format(level=levels[seat])
                size = view.hand_sizes[seat]
                lines.append(gettext("{label} team {team}  {bid} tricks {tricks}  {cards}").format(
                    label=pad(seat_label(seat, self.you), 14), team=seat & 1,
                    bid=pad(shown_bid, 17), tricks=view.tricks_won[seat],
                    cards=ngettext("{n} card", "{n} cards", size).format(n=size)))
            if view.dealer is not None and all(bid is not None for bid in view.bids):
                lines.append(gettext("contracts: team 0 {contract0}, team 1 {contract1}").format(
                    contract0=shown(contract_of(view.bids, view.dealer, 0)),
                    contract1=shown(contract_of(view.bids, view.dealer, 1))))
            if view.tricks:
                last = view.tricks[-1]
                lines.append(gettext("last trick: {cards}; won by {winner}").format(
                    cards=self._played(last.leader, last.cards),
                    winner=who(last.winner, self.you)))
            if view.leader is not None:
                lines.append(gettext("trick: {cards} (led by {leader})").format(
                    cards=self._played(view.leader, view.trick) or gettext("nothing yet"),
                    leader=who(view.leader, self.you)))
        s0, s1 = view.scores
        mine = view.seat & 1
        lines.append((gettext("scores: team 0 (yours) {score0}, team 1 {score1}") if mine == 0
                      else gettext("scores: team 0 {score0}, team 1 (yours) {score1}")).format(
                          score0=s0, score1=s1))
        hand = hand_text(view.hand, view.trump)
        if view.taken is not None:
            lines.append(gettext("your hand: {hand}   (you took {card})").format(
                hand=hand, card=view.taken))
        else:
            lines.append(gettext("your hand: {hand}").format(hand=hand))
        return lines

    def _played(self, leader: int, cards: Sequence[Card | Joker]) -> str:
        """``seat 1 5S, you KS``: the cards of a trick with who played them."""
        return pgettext("list", ", ").join(
            gettext("{who} {card}").format(who=who((leader + k) % 4, self.you), card=card)
            for k, card in enumerate(cards))

    def _turned(self, view: View) -> str:
        """The turned card and what it makes trump (BA-12, BA-13), and whether
        trump has been played (BA-32)."""
        trump = (gettext("no trump") if view.trump is None
                 # the suit's name in the reader's language ("spades"), as the narration says it
                 else gettext("trump {suit}").format(suit=gettext(view.trump.name.lower())))
        line = gettext("turned {card}: {trump}").format(card=view.trump_card, trump=trump)
        if view.joker_discard is not None:
            line += gettext("; seat {number} discarded {card}").format(
                number=view.exchanger, card=view.joker_discard)
        if view.trump is not None:
            line += (gettext("; trump played") if view.trump_played
                     else gettext("; trump not played yet"))
        return line

    def moves(self, view: View, legal: Sequence[Action]) -> list[str]:
        """The numbered moves (bids or cards).

        >>> from cardrules.back_alley import (ChooseDealer, Shuffle, apply, legal_actions,
        ...                                   new_game, view)
        >>> from cardrules.back_alley.actions import CARDS
        >>> s = apply(apply(new_game(max_hand_size=1), ChooseDealer(3)), Shuffle(CARDS))
        >>> BackAlleyTable(0).moves(view(s, 0), legal_actions(s))
        ['your turn: bid (BA-20, BA-21)', 'moves:', ' 1) pass    2) board']
        """
        doing = (gettext("your turn: bid (BA-20, BA-21)") if view.phase is Phase.BID
                 else gettext("your turn: play a card (BA-31 to BA-33)"))
        return [doing, gettext("moves:"), *numbered([str(a) for a in legal])]

    def labels(self, view: View, legal: Sequence[Action]) -> dict[str, Action]:
        """Every text the moves are listed by (``pass``, ``bid 3``, ``play BB``),
        keyed by :func:`~cardrules.engine.presenter.listed_key`.

        >>> from cardrules.back_alley import Pass, new_game, view
        >>> BackAlleyTable(0).labels(view(new_game(), 0), [Pass()])
        {'PASS': Pass()}
        """
        return {listed_key(str(action)): action for action in legal}

    def read(self, text: str) -> Action:
        """The move ``text`` names (:func:`~cardrules.back_alley.parse_action`).

        >>> BackAlleyTable(0).read("play BB")
        Play(card=<Joker.BIG: 'BB'>)
        """
        return parse_action(text)

    def outcome(self, view: View, returns: Sequence[int]) -> list[str]:
        """Your team's result (BA-43).

        >>> from cardrules.back_alley import new_game, view
        >>> BackAlleyTable(1).outcome(view(new_game(), 1), (0, 0, 0, 0))
        ['your team (team 1) draws, 0 to 0']
        """
        mine, theirs = view.scores[view.team], view.scores[1 - view.team]
        verdict = (gettext("your team (team {team}) wins, {mine} to {theirs}") if mine > theirs
                   else gettext("your team (team {team}) loses, {mine} to {theirs}")
                   if mine < theirs
                   else gettext("your team (team {team}) draws, {mine} to {theirs}"))
        return [verdict.format(team=view.team, mine=mine, theirs=theirs)]
