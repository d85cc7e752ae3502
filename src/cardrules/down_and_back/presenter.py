"""The Down and Back table at the terminal (``cardrules play down-and-back
--human SEAT``): :class:`DownAndBackTable`, this game's
:class:`~cardrules.engine.presenter.Presenter` (``RULES.presenter``).

Everything shown is read from the person's view (DB-37, DB-40); what they
are told of each move comes from :func:`cardrules.down_and_back.events.events`.

>>> from cardrules.down_and_back import RULES, new_game
>>> RULES.presenter(0).intro(RULES.view(new_game(2), 0))
"Down and Back: 2 players, you are seat 0; type 'help' for help"
"""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.down_and_back._accel import best_splits
from cardrules.down_and_back.actions import Action, Cut, Split, parse_action
from cardrules.down_and_back.state import Phase
from cardrules.down_and_back.views import View
from cardrules.engine.presenter import (
    CARD_NOTATION,
    listed_key,
    numbered,
    pad,
    seat_label,
    verdict,
)
from cardrules.errors import ParseError
from cardrules.hand import Hand
from cardrules.i18n import N_, gettext, ngettext, npgettext

__all__ = ["DownAndBackTable"]

#: What each phase asks of the person at their turn (through ``gettext``).
_DOING = {Phase.CUT: N_("your turn: cut the deck (DB-32)"),
          Phase.DRAW: N_("your turn: draw a card (DB-34)"),
          Phase.DISCARD: N_("your turn: discard a card (DB-34)"),
          Phase.SPLIT: N_("your turn: split your hand into a 4-card down and a 3-card "
                          "back hand (DB-40)")}
#: The game's title and its unit, for the catalog.
_WORDS = (N_("Down and Back"), N_("net chips"))


def _cards(cards: Sequence[object]) -> str:
    """Cards as text separated by spaces, or ``-``."""
    return " ".join(map(str, cards)) or "-"


class DownAndBackTable:
    """The Down and Back table for the person at seat ``you``.

    >>> from cardrules.down_and_back import new_game, view
    >>> print("\\n".join(DownAndBackTable(1).table(view(new_game(2), 1))))
    == Down and Back: round 1 of 10, no dealer yet, pot 0 (ante 1) ==
    seat 0         net +0  turns 0  0 cards
    seat 1 (you)   net +0  turns 0
    stock 52 cards;  discard pile 0 cards
    your hand: -
    """

    def __init__(self, you: int) -> None:
        self.you = you

    @property
    def notation(self) -> str:
        """The moves as they are typed (in English in every language), for ``help``."""
        return (gettext("  cut 20          lift 20 cards when you cut (DB-32)\n"
                        "  draw stock      take the top card of the stock (DB-34)\n"
                        "  draw discard    take the top card of the discard pile\n"
                        "  discard 7H      discard a card, ending your turn\n"
                        "  split 8S 8H 8D QH / 5C 6C 7C   your 4-card down / 3-card back hands"
                        " (DB-40)\n") + gettext(CARD_NOTATION))

    def intro(self, view: View) -> str:
        """The first line of the game.

        >>> from cardrules.down_and_back import new_game, view
        >>> DownAndBackTable(0).intro(view(new_game(3), 0))
        "Down and Back: 3 players, you are seat 0; type 'help' for help"
        """
        return ngettext("Down and Back: {n} players, you are seat {number}; type 'help' for help",
                        "Down and Back: {n} players, you are seat {number}; type 'help' for help",
                        view.num_players).format(n=view.num_players, number=self.you)

    def table(self, view: View) -> list[str]:
        """The table: money, turns, what everyone saw, the piles, your hand (DB-37).

        >>> from cardrules.down_and_back import new_game, view
        >>> DownAndBackTable(0).table(view(new_game(3), 0))[-1]
        'your hand: -'
        """
        dealer = (gettext("no dealer yet") if view.dealer is None
                  else gettext("dealer seat {number}").format(number=view.dealer))
        head = (gettext("Down and Back: round {round} open-ended, {dealer}, pot {pot} "
                        "(ante {ante})")
                if view.rounds is None else
                gettext("Down and Back: round {round} of {rounds}, {dealer}, pot {pot} "
                        "(ante {ante})"))
        lines = ["== " + head.format(round=view.round, rounds=view.rounds, dealer=dealer,
                                     pot=view.pot, ante=view.ante) + " =="]
        for seat in range(view.num_players):
            text = gettext("{label} net {net}  turns {turns}").format(
                label=pad(seat_label(seat, self.you), 14), net=f"{view.net[seat]:+d}",
                turns=view.turns[seat])
            if seat != self.you:
                size = view.hand_sizes[seat]
                text += "  " + ngettext("{n} card", "{n} cards", size).format(n=size)
            if view.seen[seat]:
                text += "  " + gettext("took {cards} from the discard pile").format(
                    cards=_cards(view.seen[seat]))
            if view.split_chosen[seat] and seat != self.you:
                text += "  " + gettext("(has split)")
            lines.append(text)
        discard = view.discard
        # (English says "cards" of the stock whatever the number, as it always has.)
        piles = gettext("stock {stock};  discard pile {pile}").format(
            stock=npgettext("stock", "{n} cards", "{n} cards", view.stock_size).format(
                n=view.stock_size),
            pile=ngettext("{n} card", "{n} cards", len(discard)).format(n=len(discard)))
        if discard:
            piles += gettext(", top {card}").format(card=discard[-1])
        lines.append(piles)
        mine = gettext("your hand: {hand}").format(hand=_cards(view.hand))
        if view.drawn is not None:
            mine += gettext("   (you drew {card})").format(card=view.drawn)
        lines.append(mine)
        return lines

    def moves(self, view: View, legal: Sequence[Action]) -> list[str]:
        """The numbered moves; cuts in one line, splits with the best ones named.

        >>> from cardrules import DECK
        >>> from cardrules.down_and_back import (ChooseDealer, Shuffle, apply, legal_actions,
        ...                                      new_game, view)
        >>> s = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
        >>> for line in DownAndBackTable(1).moves(view(s, 1), legal_actions(s)):
        ...     print(line)
        your turn: cut the deck (DB-32)
        moves:
         1-51) cut 1 ... cut 51: the number is how many cards you lift
        """
        doing = _DOING.get(view.phase)
        lines = [gettext(doing) if doing is not None else
                 gettext("your turn: {doing}").format(doing=view.phase), gettext("moves:")]
        cuts = [action.count for action in legal if isinstance(action, Cut)]
        if legal and len(cuts) == len(legal):
            lines.append(f" {cuts[0]}-{cuts[-1]}) " + gettext(
                "cut 1 ... cut {last}: the number is how many cards you lift").format(
                    last=cuts[-1]))
            return lines
        lines.extend(numbered([self._listed(a) for a in legal]))
        best = self._best(view, legal)
        if best:
            number = {(a.down, a.back): n for n, a in enumerate(legal, start=1)
                      if isinstance(a, Split)}
            lines.append(gettext("best splits (no other split is as strong in both hands):"))
            for hint, split in best:
                lines.append(f" {number[split.down, split.back]:>2}) {hint}")
        return lines

    @staticmethod
    def _listed(action: Action) -> str:
        """The text a move is listed by: a split as ``down / back``, else ``str``."""
        return f"{action.down} / {action.back}" if isinstance(action, Split) else str(action)

    @classmethod
    def _best(cls, view: View, legal: Sequence[Action]) -> list[tuple[str, Split]]:
        """The best splits' hint lines (``8S 8H 8D QH / 5C 6C 7C: prial of eights /
        bouncer, seven high``: the split as listed, then its combinations) with
        the split each stands for; none unless every move is a split."""
        if not (legal and all(isinstance(action, Split) for action in legal)):
            return []
        found = []
        for option in best_splits(view.hand):
            split = Split(Hand(option.down.cards), Hand(option.back.cards))
            found.append((f"{cls._listed(split)}: {option.down.description} / "
                          f"{option.back.description}", split))
        return found

    def labels(self, view: View, legal: Sequence[Action]) -> dict[str, Action]:
        """Every text the moves are listed by, keyed by
        :func:`~cardrules.engine.presenter.listed_key`: the numbered entries
        (``9S 9C QH QC / 8D JH KD``, ``draw stock``), each cut (``cut 20``)
        and each best split's whole hint line.

        >>> from cardrules import DECK
        >>> from cardrules.down_and_back import (ChooseDealer, Shuffle, apply, legal_actions,
        ...                                      new_game, view)
        >>> s = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
        >>> DownAndBackTable(1).labels(view(s, 1), legal_actions(s))["CUT 20"]
        Cut(count=20)
        """
        found: dict[str, Action] = {listed_key(self._listed(action)): action
                                    for action in legal}
        for text, split in self._best(view, legal):
            found[listed_key(text)] = split
        return found

    def read(self, text: str) -> Action:
        """The move ``text`` names: the notation of
        :func:`~cardrules.down_and_back.parse_action`, or a split written as
        it is listed, ``down / back`` without the word ``split`` (DB-40).

        >>> DownAndBackTable(0).read("9S 9C QH QC / 8D JH KD").back
        Hand.parse('8D JH KD')
        >>> DownAndBackTable(0).read("9S 9C QH QX / 8D JH KD")
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: not a card: 'QX' at position 9
        """
        words = text.split(maxsplit=1)
        if "/" in text and words and words[0].lower() != "split":
            prefix = "split "
            try:
                return parse_action(prefix + text)
            except ParseError as err:
                raise err.within(offset=-len(prefix)) from None
        return parse_action(text)

    def outcome(self, view: View, returns: Sequence[int]) -> list[str]:
        """Your net winnings and whether you lead (DB-44).

        >>> from cardrules.down_and_back import new_game, view
        >>> DownAndBackTable(0).outcome(view(new_game(2), 0), (0, 0))
        ['you (seat 0) finish with net +0: you share the lead']
        """
        you = self.you
        return [gettext("you (seat {number}) finish with net {net}: {verdict}").format(
            number=you, net=f"{view.net[you]:+d}", verdict=verdict(you, view.net))]
