"""Play at the terminal: a person in one seat, bots in the others
(``cardrules play GAME --human SEAT``).

The person sees the table as their seat sees it: everything shown is drawn
from the seat's view (:func:`cardrules.down_and_back.view`,
:func:`cardrules.back_alley.view`) and from the public part of each action,
so no other seat's hidden card is ever printed (DB-37, DB-40, BA-50).  At
each of their turns the table is printed, then the legal moves, numbered in
the order of the game's ``legal_actions``; the person answers with a number
or with the move in the library's text notation (``discard 7H``, ``bid 3``),
or with a command: ``help``, ``table``, ``save FILE`` or ``quit``.  Moves
are read line by line from standard input, so a game can be driven by a file
of answers; the end of the input leaves the game like ``quit``.

Between the person's turns one line tells each bot move (``seat 2 discards
7H``) and each chance event (the deal, a reshuffle), and the result of every
round or deal is printed when it ends.

>>> from cardrules.back_alley import RULES
>>> from cardrules.engine import RandomBot
>>> bots = {seat: RandomBot(seat) for seat in (1, 2, 3)}
>>> play_human(RULES, {"max_hand_size": 1}, 0, bots, seed=4,
...            read=lambda prompt: "1")  # doctest: +ELLIPSIS
Back Alley: you are seat 0 (team 0, with seat 2); type 'help' for help
the other seats: seat 1 RandomBot, seat 2 RandomBot, seat 3 RandomBot
chance: seat 1 deals first (BA-11)
...
game over
deal 1 (1 card, ...
scores: team 0 ..., team 1 ...
...
0
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardrules.cli import _common
from cardrules.engine.presenter import Presenter
from cardrules.errors import CardRulesError, IllegalActionError, ParseError

if TYPE_CHECKING:
    from cardrules import back_alley, down_and_back
    from cardrules.cards import Card, Joker
    from cardrules.engine.bots import Bot
    from cardrules.engine.rules import Rules, SettingValues

__all__ = ["BackAlleyTable", "DownAndBackTable", "Presenter", "listed_key", "numbered",
           "play_human", "presenter_for", "second_person"]

#: Width the move lists are laid out in.
WIDTH = 80
#: The prompt printed before each answer is read.
PROMPT = "move> "

_COMMANDS_HELP = """\
Answer with the number of a move from the list, or with the move itself:
{notation}
Cards: rank A 2 3 4 5 6 7 8 9 T J Q K (10 also works), suit S H D C
(or the symbols); either case.
Commands:
  help       this text
  table      show the table and your moves again
  save FILE  write the record of the game so far (text if FILE ends in .txt,
             JSON otherwise); 'cardrules replay FILE' replays it
  quit       leave the game unfinished (also 'exit', or the end of the input)"""


def _who(actor: int, you: int) -> str:
    """``you`` or ``seat N``."""
    return "you" if actor == you else f"seat {actor}"


def _verb(actor: int, you: int, plain: str, third: str) -> str:
    """``you cut`` or ``seat 2 cuts``."""
    return f"you {plain}" if actor == you else f"seat {actor} {third}"


def _seat_label(seat: int, you: int) -> str:
    """``seat 1`` or ``seat 0 (you)``."""
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


def _cards(cards: Sequence[object]) -> str:
    """Cards as text separated by spaces, or ``-``."""
    return " ".join(map(str, cards)) or "-"


def listed_key(text: str) -> str:
    """How typed text is matched against the texts the moves are listed by:
    runs of spaces and tabs count as one, and ASCII letters in either case.

    >>> listed_key("  9s 9C   QH QC / 8D jh KD ")
    '9S 9C QH QC / 8D JH KD'
    """
    joined = " ".join(part for part in re.split(r"[ \t]+", text) if part)
    return joined.upper() if joined.isascii() else joined


#: Phrases of the rules' refusals about "seat N" and how they read when
#: told to the person in that seat (after ``seat N`` became ``you``).
_SECOND_PERSON = ((" does not ", " do not "), (" has ", " have "), (" is ", " are "),
                  (" holds ", " hold "), (" its ", " your "))


def second_person(message: str, seat: int) -> str:
    """A refusal of the rules about ``seat`` worded to the person in it.

    >>> second_person("hearts were led: seat 0 must follow suit, not play 2S", 0)
    'hearts were led: you must follow suit, not play 2S'
    >>> second_person("seat 2 does not hold QH", 2)
    'you do not hold QH'
    >>> second_person("the split must use exactly seat 1's seven cards", 1)
    'the split must use exactly your seven cards'
    >>> second_person("it is seat 3's turn, not seat 1's", 1)
    "it is seat 3's turn, not yours"
    """
    me = re.escape(f"seat {seat}")
    text = re.sub(rf"\b{me}'s(?= \w)", "your", message)
    text = re.sub(rf"\b{me}'s\b", "yours", text)
    clauses = re.split(r"(?<=[;:,])", text)
    for k, clause in enumerate(clauses):
        mine = re.sub(rf"\b{me}\b", "you", clause)
        if mine != clause:
            rest = mine[mine.index("you"):]
            for third, second in _SECOND_PERSON:
                rest = rest.replace(third, second)
            mine = mine[:mine.index("you")] + rest
        clauses[k] = mine
    return "".join(clauses)


def numbered(actions: Sequence[object], width: int = WIDTH) -> list[str]:
    """The lines that list ``actions`` numbered from 1, in columns.

    Entries are padded to one width and laid out row by row, as many to a
    line as fit in ``width`` characters.

    >>> for line in numbered(["draw stock", "draw discard"]):
    ...     print(line)
     1) draw stock     2) draw discard
    >>> for line in numbered([f"bid {n}" for n in range(1, 7)], width=40):
    ...     print(line)
     1) bid 1    2) bid 2    3) bid 3
     4) bid 4    5) bid 5    6) bid 6
    """
    entries = [f"{number:>2}) {action}" for number, action in enumerate(actions, start=1)]
    size = max(map(len, entries), default=0) + 2
    per_line = max(1, (width + 2) // size)  # the last column needs no gap
    return ["".join(entry.ljust(size) for entry in entries[row:row + per_line]).rstrip()
            for row in range(0, len(entries), per_line)]


# -- Down and Back ------------------------------------------------------------------------

class DownAndBackTable:
    """The Down and Back table and narration for the person at seat ``you``.

    >>> from cardrules.down_and_back import new_game, view
    >>> print("\\n".join(DownAndBackTable(1).table(view(new_game(2), 1))))
    == Down and Back: round 1 of 10, no dealer yet, pot 0 (ante 1) ==
    seat 0         net +0  turns 0  0 cards
    seat 1 (you)   net +0  turns 0
    stock 52 cards;  discard pile 0 cards
    your hand: -
    """

    notation = ("  cut 20          lift 20 cards when you cut (DB-32)\n"
                "  draw stock      take the top card of the stock (DB-34)\n"
                "  draw discard    take the top card of the discard pile\n"
                "  discard 7H      discard a card, ending your turn\n"
                "  split 8S 8H 8D QH / 5C 6C 7C   your 4-card down / 3-card back hands"
                " (DB-40)")

    def __init__(self, you: int) -> None:
        self.you = you

    def intro(self, view: down_and_back.View) -> str:
        """The first line of the game.

        >>> from cardrules.down_and_back import new_game, view
        >>> DownAndBackTable(0).intro(view(new_game(3), 0))
        "Down and Back: 3 players, you are seat 0; type 'help' for help"
        """
        return (f"Down and Back: {view.num_players} players, you are seat {self.you}; "
                "type 'help' for help")

    def table(self, view: down_and_back.View) -> list[str]:
        """The table: money, turns, what everyone saw, the piles, your hand (DB-37).

        >>> from cardrules.down_and_back import new_game, view
        >>> DownAndBackTable(0).table(view(new_game(3), 0))[-1]
        'your hand: -'
        """
        rounds = "open-ended" if view.rounds is None else f"of {view.rounds}"
        dealer = "no dealer yet" if view.dealer is None else f"dealer seat {view.dealer}"
        lines = [f"== Down and Back: round {view.round} {rounds}, {dealer}, pot {view.pot} "
                 f"(ante {view.ante}) =="]
        for seat in range(view.num_players):
            text = f"{_seat_label(seat, self.you):<14} net {view.net[seat]:+d}  " \
                   f"turns {view.turns[seat]}"
            if seat != self.you:
                size = view.hand_sizes[seat]
                text += f"  {size} card{'' if size == 1 else 's'}"
            if view.seen[seat]:
                text += f"  took {_cards(view.seen[seat])} from the discard pile"
            if view.split_chosen[seat] and seat != self.you:
                text += "  (has split)"
            lines.append(text)
        discard = view.discard
        top = f", top {discard[-1]}" if discard else ""
        lines.append(f"stock {view.stock_size} cards;  discard pile {len(discard)} "
                     f"card{'' if len(discard) == 1 else 's'}{top}")
        mine = f"your hand: {_cards(view.hand)}"
        if view.drawn is not None:
            mine += f"   (you drew {view.drawn})"
        lines.append(mine)
        return lines

    def moves(self, view: down_and_back.View, legal: Sequence[Any]) -> list[str]:
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
        from cardrules.down_and_back import Cut, Split

        phase = {"CUT": "cut the deck (DB-32)", "DRAW": "draw a card (DB-34)",
                 "DISCARD": "discard a card (DB-34)",
                 "SPLIT": "split your hand into a 4-card down and a 3-card back hand "
                          "(DB-40)"}.get(str(view.phase), str(view.phase))
        lines = [f"your turn: {phase}", "moves:"]
        if legal and all(isinstance(action, Cut) for action in legal):
            counts = [action.count for action in legal]
            lines.append(f" {counts[0]}-{counts[-1]}) cut 1 ... cut {counts[-1]}: "
                         "the number is how many cards you lift")
            return lines
        if legal and all(isinstance(action, Split) for action in legal):
            lines.extend(numbered([self._listed(a) for a in legal]))
            number = {(a.down, a.back): n for n, a in enumerate(legal, start=1)}
            lines.append("best splits (no other split is as strong in both hands):")
            for hint, split in self._best(view, legal):
                lines.append(f" {number[split.down, split.back]:>2}) {hint}")
            return lines
        lines.extend(numbered([self._listed(a) for a in legal]))
        return lines

    @staticmethod
    def _listed(action: Any) -> str:
        """The text a move is listed by: a split as ``down / back``, else ``str``."""
        from cardrules.down_and_back import Split

        return f"{action.down} / {action.back}" if isinstance(action, Split) else str(action)

    @classmethod
    def _best(cls, view: down_and_back.View, legal: Sequence[Any]) -> list[tuple[str, Any]]:
        """The best splits' hint lines (``8S 8H 8D QH / 5C 6C 7C: prial of eights /
        bouncer, seven high``: the split as listed, then its combinations) with
        the split each stands for."""
        from cardrules.down_and_back import Split, best_splits
        from cardrules.hand import Hand

        if not (legal and all(isinstance(action, Split) for action in legal)):
            return []
        found = []
        for option in best_splits(view.hand):
            split = Split(Hand(option.down.cards), Hand(option.back.cards))
            found.append((f"{cls._listed(split)}: {option.down.description} / "
                          f"{option.back.description}", split))
        return found

    def labels(self, view: down_and_back.View, legal: Sequence[Any]) -> dict[str, Any]:
        """Every text the moves are listed by, keyed by :func:`listed_key`: the
        numbered entries (``9S 9C QH QC / 8D JH KD``, ``draw stock``), each
        cut (``cut 20``) and each best split's whole hint line.

        >>> from cardrules import DECK
        >>> from cardrules.down_and_back import (ChooseDealer, Shuffle, apply, legal_actions,
        ...                                      new_game, view)
        >>> s = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
        >>> DownAndBackTable(1).labels(view(s, 1), legal_actions(s))["CUT 20"]
        Cut(count=20)
        """
        found = {listed_key(self._listed(action)): action for action in legal}
        for text, split in self._best(view, legal):
            found[listed_key(text)] = split
        return found

    def read(self, text: str) -> Any:
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
        from cardrules.down_and_back import parse_action

        words = text.split(maxsplit=1)
        if "/" in text and words and words[0].lower() != "split":
            prefix = "split "
            try:
                return parse_action(prefix + text)
            except ParseError as err:
                raise err.within(offset=-len(prefix)) from None
        return parse_action(text)

    def narrate(self, actor: int | None, action: Any,
                before: down_and_back.View, after: down_and_back.View) -> list[str]:
        """One line for the move, as the table saw it, then what it ended.

        ``actor`` is None for chance; ``before`` and ``after`` are the
        person's views around the move.

        >>> from cardrules.down_and_back import ChooseDealer, apply, new_game, view
        >>> s = new_game(2)
        >>> DownAndBackTable(0).narrate(None, ChooseDealer(1), view(s, 0),
        ...                             view(apply(s, ChooseDealer(1)), 0))
        ['chance: seat 1 deals first (DB-31)']
        """
        from cardrules.down_and_back import (
            ChooseDealer,
            Cut,
            Discard,
            DrawDiscard,
            DrawStock,
            Phase,
            Split,
        )

        you = self.you
        lines: list[str] = []
        if actor is None:
            if isinstance(action, ChooseDealer):
                lines.append(f"chance: seat {action.seat} deals first (DB-31)")
            elif before.phase is Phase.SHUFFLE:
                lines.append(f"round {after.round}: seat {after.dealer} shuffles; everyone "
                             f"antes {after.ante}, the pot is {after.pot} (DB-30, DB-32)")
            else:
                top = f", {after.discard[-1]} turned up" if after.discard else ""
                lines.append(f"chance: the stock ran out; seat {after.dealer} shuffles the "
                             f"discard pile into a new stock of {after.stock_size}{top} "
                             "(DB-36)")
        elif isinstance(action, Cut):
            top = f"; {after.discard[-1]} starts the discard pile" if after.discard else ""
            lines.append(f"{_verb(actor, you, 'cut', 'cuts')} {action.count}; seven cards "
                         f"each are dealt{top}")
        elif isinstance(action, DrawStock):
            seen = f" {after.drawn}" if actor == you and after.drawn is not None else ""
            lines.append(f"{_verb(actor, you, 'draw', 'draws')}{seen} from the stock")
        elif isinstance(action, DrawDiscard):
            lines.append(f"{_verb(actor, you, 'take', 'takes')} {before.discard[-1]} "
                         "from the discard pile")
        elif isinstance(action, Discard):
            lines.append(f"{_verb(actor, you, 'discard', 'discards')} {action.card}")
        elif isinstance(action, Split):
            lines.append(f"you split {action.down} / {action.back}" if actor == you
                         else f"seat {actor} has split")
        if after.phase is Phase.SPLIT and before.phase is not Phase.SPLIT:
            lines.append("the dealer's sixth turn is over: everyone splits (DB-35, DB-40)")
        if len(after.results) > len(before.results):
            lines.extend(self._result(after, after.results[-1]))
        return lines

    def _result(self, view: down_and_back.View, result: down_and_back.RoundResult) -> list[str]:
        """The lines of a finished round: the splits, tie-breaks, winners and money."""
        from cardrules.down_and_back import evaluate3, evaluate4

        lines = [f"round {result.round} showdown (DB-40 to DB-43):"]
        for seat, split in enumerate(result.splits):
            lines.append(f"  {_seat_label(seat, self.you):<14} {evaluate4(split.down)} / "
                         f"{evaluate3(split.back)}")
        if result.tiebreaks:
            lines.append("  tie-break draws (DB-42): "
                         + ", ".join(map(str, result.tiebreaks)))
        winners = (f"  down hand: {_who(result.down_winner, self.you)}; "
                   f"back hand: {_who(result.back_winner, self.you)}; ")
        if result.pot_winner is None:
            winners += f"the pot of {result.pot} carries over"
        else:
            winners += f"{_verb(result.pot_winner, self.you, 'take', 'takes')} " \
                       f"the pot of {result.pot}"
        lines.append(winners)
        lines.append("  net: " + ", ".join(f"{_who(seat, self.you)} {value:+d}"
                                           for seat, value in enumerate(view.net)))
        return lines

    def outcome(self, view: down_and_back.View) -> list[str]:
        """Your net winnings and whether you lead (DB-44).

        >>> from cardrules.down_and_back import new_game, view
        >>> DownAndBackTable(0).outcome(view(new_game(2), 0))
        ['you (seat 0) finish with net +0: you share the lead']
        """
        best = max(view.net)
        leaders = [seat for seat, value in enumerate(view.net) if value == best]
        mine = view.net[self.you]
        if leaders == [self.you]:
            verdict = "you win"
        elif self.you in leaders:
            verdict = "you share the lead"
        else:
            verdict = "you lose"
        return [f"you (seat {self.you}) finish with net {mine:+d}: {verdict}"]


# -- Back Alley ---------------------------------------------------------------------------

class BackAlleyTable:
    """The Back Alley table and narration for the person at seat ``you``.

    >>> from cardrules.back_alley import new_game, view
    >>> print("\\n".join(BackAlleyTable(2).table(view(new_game(), 2))))
    == Back Alley: deal 1 of 25 (13 cards each), no dealer yet ==
    scores: team 0 (yours) 0, team 1 0
    your hand: -
    """

    notation = ("  pass            bid nothing (BA-21)\n"
                "  bid 3           bid a number of tricks, 1 to the hand size - 1\n"
                "  board           claim every trick for your team\n"
                "  play QH         play a card (play BB, play LB for the jokers)")

    def __init__(self, you: int) -> None:
        self.you = you

    def intro(self, view: back_alley.View) -> str:
        """The first line of the game.

        >>> from cardrules.back_alley import new_game, view
        >>> BackAlleyTable(3).intro(view(new_game(), 3))
        "Back Alley: you are seat 3 (team 1, with seat 1); type 'help' for help"
        """
        return (f"Back Alley: you are seat {self.you} (team {self.you & 1}, with seat "
                f"{(self.you + 2) % 4}); type 'help' for help")

    def _hand(self, view: back_alley.View) -> str:
        """The hand by suit, trump (with the jokers on top) first, highest card
        first (BA-2, BA-3; see :func:`cardrules.cli._common.back_alley_hand`)."""
        return _common.back_alley_hand(view.hand, view.trump)

    def table(self, view: back_alley.View) -> list[str]:
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
        from cardrules.back_alley.state import contract_of

        dealer = "no dealer yet" if view.dealer is None else f"dealer seat {view.dealer}"
        size = view.hand_size
        lines = [f"== Back Alley: deal {view.deal_number} of {view.settings.deals} "
                 f"({size} card{'' if size == 1 else 's'} each), {dealer} =="]
        if view.trump_card is not None:
            lines.append(self._turned(view))
            levels = view.board_levels
            for seat in range(4):
                bid = view.bids[seat]
                shown = "no bid yet" if bid is None else str(bid)
                if levels[seat] > 1:
                    shown += f" (level {levels[seat]})"
                size = view.hand_sizes[seat]
                lines.append(f"{_seat_label(seat, self.you):<14} team {seat & 1}  "
                             f"{shown:<17} tricks {view.tricks_won[seat]}  "
                             f"{size} card{'' if size == 1 else 's'}")
            if view.dealer is not None and all(bid is not None for bid in view.bids):
                lines.append("contracts: " + ", ".join(
                    f"team {team} {contract_of(view.bids, view.dealer, team)}"
                    for team in (0, 1)))
            if view.tricks:
                last = view.tricks[-1]
                lines.append(f"last trick: {self._played(last.leader, last.cards)}; "
                             f"won by {_who(last.winner, self.you)}")
            if view.leader is not None:
                lines.append(f"trick: {self._played(view.leader, view.trick) or 'nothing yet'}"
                             f" (led by {_who(view.leader, self.you)})")
        s0, s1 = view.scores
        mine = view.seat & 1
        lines.append(f"scores: team 0{' (yours)' if mine == 0 else ''} {s0}, "
                     f"team 1{' (yours)' if mine == 1 else ''} {s1}")
        taken = f"   (you took {view.taken})" if view.taken is not None else ""
        lines.append(f"your hand: {self._hand(view)}{taken}")
        return lines

    def _played(self, leader: int, cards: Sequence[Card | Joker]) -> str:
        """``seat 1 5S, you KS``: the cards of a trick with who played them."""
        return ", ".join(f"{_who((leader + k) % 4, self.you)} {card}"
                         for k, card in enumerate(cards))

    @staticmethod
    def _turned(view: back_alley.View, played: bool = True) -> str:
        """The turned card and what it makes trump (BA-12, BA-13), and whether
        trump has been played (BA-32) when ``played``."""
        trump = "no trump" if view.trump is None else f"trump {view.trump.name.lower()}"
        line = f"turned {view.trump_card}: {trump}"
        if view.joker_discard is not None:
            line += f"; seat {view.exchanger} discarded {view.joker_discard}"
        if played and view.trump is not None:
            line += "; trump played" if view.trump_played else "; trump not played yet"
        return line

    def moves(self, view: back_alley.View, legal: Sequence[Any]) -> list[str]:
        """The numbered moves (bids or cards).

        >>> from cardrules.back_alley import (ChooseDealer, Shuffle, apply, legal_actions,
        ...                                   new_game, view)
        >>> from cardrules.back_alley.actions import CARDS
        >>> s = apply(apply(new_game(max_hand_size=1), ChooseDealer(3)), Shuffle(CARDS))
        >>> BackAlleyTable(0).moves(view(s, 0), legal_actions(s))
        ['your turn: bid (BA-20, BA-21)', 'moves:', ' 1) pass    2) board']
        """
        doing = "bid (BA-20, BA-21)" if view.phase.value == "bid" else \
            "play a card (BA-31 to BA-33)"
        return [f"your turn: {doing}", "moves:", *numbered([str(a) for a in legal])]

    def labels(self, view: back_alley.View, legal: Sequence[Any]) -> dict[str, Any]:
        """Every text the moves are listed by (``pass``, ``bid 3``, ``play BB``),
        keyed by :func:`listed_key`.

        >>> from cardrules.back_alley import Pass
        >>> BackAlleyTable(0).labels(None, [Pass()])
        {'PASS': Pass()}
        """
        return {listed_key(str(action)): action for action in legal}

    def read(self, text: str) -> Any:
        """The move ``text`` names (:func:`~cardrules.back_alley.parse_action`).

        >>> BackAlleyTable(0).read("play BB")
        Play(card=<Joker.BIG: 'BB'>)
        """
        from cardrules.back_alley import parse_action

        return parse_action(text)

    def narrate(self, actor: int | None, action: Any,
                before: back_alley.View, after: back_alley.View) -> list[str]:
        """One line for the move, then a finished trick, bidding or deal.

        >>> from cardrules.back_alley import ChooseDealer, Shuffle, apply, new_game, view
        >>> from cardrules.back_alley.actions import CARDS
        >>> s = apply(new_game(max_hand_size=1), ChooseDealer(3))
        >>> BackAlleyTable(0).narrate(None, Shuffle(CARDS), view(s, 0),
        ...                           view(apply(s, Shuffle(CARDS)), 0))
        ['deal 1 of 1: seat 3 deals 1 card each; turned 2S: trump spades (BA-12, BA-13)']
        """
        from cardrules.back_alley import Bid, Board, ChooseDealer, Pass, Play
        from cardrules.back_alley.state import Contract, contract_of
        from cardrules.back_alley.trick import table_for, trick_winner

        you = self.you
        lines: list[str] = []
        if actor is None:
            if isinstance(action, ChooseDealer):
                lines.append(f"chance: seat {action.seat} deals first (BA-11)")
            else:
                lines.append(f"deal {after.deal_number} of {after.settings.deals}: seat "
                             f"{after.dealer} deals {after.hand_size} card"
                             f"{'' if after.hand_size == 1 else 's'} each; "
                             f"{self._turned(after, played=False)} (BA-12, BA-13)")
                if after.taken is not None:
                    lines.append(f"you take {after.taken} for your joker (BA-13)")
            return lines
        if isinstance(action, Pass):
            lines.append(_verb(actor, you, "pass", "passes"))
        elif isinstance(action, Bid):
            lines.append(f"{_verb(actor, you, 'bid', 'bids')} {action.tricks}")
        elif isinstance(action, Board):
            level = after.board_levels[actor] or 1
            lines.append(f"{_verb(actor, you, 'claim', 'claims')} "
                         f"{Contract(board=level)} (BA-23)")
        elif isinstance(action, Play):
            lines.append(f"{_verb(actor, you, 'play', 'plays')} {action.card}")
            if len(before.trick) == 3 and before.leader is not None:
                if len(after.tricks) > len(before.tricks):
                    winner = after.tricks[-1].winner
                else:
                    winner = trick_winner(before.leader,
                                          [c.index for c in (*before.trick, action.card)],
                                          table_for(before.trump))
                lines.append(f"{_verb(winner, you, 'win', 'wins')} the trick (BA-34)")
        if before.phase.value == "bid":
            if after.phase.value == "play" and after.dealer is not None:
                contracts = ", ".join(f"team {team} {contract_of(after.bids, after.dealer, team)}"
                                      for team in (0, 1))
                leader = after.leader if after.leader is not None else after.current_player
                lead = "" if leader is None else f"; {_who(leader, you)} lead" + \
                    ("" if leader == you else "s")
                lines.append(f"contracts: {contracts}{lead} (BA-24, BA-30)")
            elif after.phase.value == "shuffle":
                lines.append("all four passed: the cards are thrown in and the deal "
                             "passes on (BA-25)")
        if len(after.results) > len(before.results):
            result = after.results[-1]
            lines.append(f"{result}")
            lines.append(f"scores: team 0 {after.scores[0]}, team 1 {after.scores[1]}")
        return lines

    def outcome(self, view: back_alley.View) -> list[str]:
        """Your team's result (BA-43).

        >>> from cardrules.back_alley import new_game, view
        >>> BackAlleyTable(1).outcome(view(new_game(), 1))
        ['your team (team 1) draws, 0 to 0']
        """
        mine, theirs = view.scores[view.team], view.scores[1 - view.team]
        verdict = "wins" if mine > theirs else "loses" if mine < theirs else "draws"
        return [f"your team (team {view.team}) {verdict}, {mine} to {theirs}"]


def presenter_for(rules: Rules[Any, Any], you: int = 0) -> Presenter:
    """The table and narration of ``rules``' game for the person at seat ``you``.

    >>> from cardrules.down_and_back import RULES
    >>> type(presenter_for(RULES, 1)).__name__
    'DownAndBackTable'
    """
    if rules.name == "down_and_back":
        return DownAndBackTable(you)
    if rules.name == "back_alley":
        return BackAlleyTable(you)
    raise ValueError(f"{rules.title} cannot be played at the terminal yet")


class _Left(Exception):
    """The person left the game (``quit`` or the end of the input)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _read(prompt: str) -> str | None:
    """One line of input without its line end, or None at the end of the input.

    When the input is not a terminal the line is echoed, so that a transcript
    shows the answers.
    """
    try:
        line = input(prompt)
    except EOFError:
        print()
        return None
    stream = sys.stdin
    if stream is not None and not stream.isatty():
        print(line)
    return line


def play_human(rules: Rules[Any, Any], settings: SettingValues, you: int,
               bots: Mapping[int, Bot], seed: int | None = None, *,
               record_path: str | None = None,
               read: Callable[[str], str | None] = _read) -> int:
    """Play a game of ``rules`` with a person at seat ``you`` and ``bots`` in
    the other seats; return the exit status (0, also when the person leaves).

    Chance comes from ``random.Random(seed)`` as in
    :func:`cardrules.engine.play`; each bot sees its own view only.  Answers
    are read with ``read(prompt)`` (None for the end of the input).  When
    ``record_path`` is given the record is written there at the end, or
    when the person leaves.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> answers = iter(["help", "quit"])
    >>> play_human(RULES, {"num_players": 2}, 1, {0: RandomBot(0)}, seed=2,
    ...            read=lambda prompt: next(answers))  # doctest: +ELLIPSIS
    Down and Back: 2 players, you are seat 1; type 'help' for help
    ...
    you left the game unfinished after ... actions
    0
    """
    state = rules.new_game_from_settings(settings)
    if not (isinstance(you, int) and 0 <= you < state.num_players):
        raise ValueError(f"--human is a seat from 0 to {state.num_players - 1}")
    missing = set(range(state.num_players)) - {you} - set(bots)
    if missing:
        raise ValueError(f"no bot for seat {min(missing)}")
    show = presenter_for(rules, you)
    start, rng = state, random.Random(seed)
    actions: list[Any] = []
    print(show.intro(rules.view(state, you)))
    print("the other seats: " + ", ".join(f"seat {seat} {type(bot).__name__}"
                                          for seat, bot in sorted(bots.items())))
    try:
        while not state.is_terminal:
            actor = None if state.is_chance else state.current_player
            if actor is None:
                action = rules.sample_chance(state, rng)
            elif actor == you:
                action = _ask(rules, show, state, you, start, actions, read)
            else:
                action = bots[actor].act(rules.view(state, actor), rules.legal_actions(state))
            after = rules.apply(state, action) if actor is None else \
                rules.apply(state, action, seat=actor)
            actions.append(action)
            for line in show.narrate(actor, action, rules.view(state, you),
                                     rules.view(after, you)):
                print(line)
            state = after
    except _Left as left:
        print(f"{left.why}: you left the game unfinished after {len(actions)} actions")
        _write(rules, start, actions, record_path)
        return 0
    print("game over")
    print(rules.summarize(state))
    for line in show.outcome(rules.view(state, you)):
        print(line)
    _write(rules, start, actions, record_path)
    return 0


def _write(rules: Rules[Any, Any], start: Any, actions: Sequence[Any],
           path: str | None) -> None:
    """Write the record of ``actions`` to ``path`` if one was given."""
    if path is not None:
        rules.record(start, actions).dump(path)
        print(f"record written to {path}")


def _ask(rules: Rules[Any, Any], show: Presenter, state: Any, you: int, start: Any,
         actions: Sequence[Any], read: Callable[[str], str | None]) -> Any:
    """Show the table and the moves, then read answers until one is a legal move.

    Raises :class:`_Left` on ``quit`` or at the end of the input.
    """
    legal = rules.legal_actions(state)
    view = rules.view(state, you)

    def show_table() -> None:
        for line in (*show.table(view), *show.moves(view, legal)):
            print(line)

    show_table()
    while True:
        line = read(PROMPT)
        if line is None:
            raise _Left("end of input")
        text = line.strip()
        word, _, rest = text.partition(" ")
        command = word.lower()
        if not text:
            print(f"type a move or its number (1 to {len(legal)}); 'help' lists the commands")
        elif command in ("help", "?") and not rest:
            print(_COMMANDS_HELP.format(notation=show.notation))
        elif command == "table" and not rest:
            show_table()
        elif command in ("quit", "exit") and not rest:
            raise _Left("quit")
        elif command == "save":
            _save(rules, start, actions, rest.strip())
        elif text.isascii() and text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            print(f"no move numbered {number}: choose 1 to {len(legal)}")
        else:
            action = _parse(rules, show, state, you, legal, text)
            if action is not None:
                return action


def _parse(rules: Rules[Any, Any], show: Presenter, state: Any, you: int,
           legal: Sequence[Any], text: str) -> Any:
    """The legal move ``text`` names, or None after printing why it is refused.

    Every text a move is listed by is taken as typed (:meth:`Presenter.labels`),
    then the game's notation (:meth:`Presenter.read`).  A refusal quotes the
    answer as typed, and the rules' reasons are worded to the person ("you
    must follow suit"), with the rule id.
    """
    view = rules.view(state, you)
    action = show.labels(view, legal).get(listed_key(text))
    if action is not None:
        return action
    try:
        action = show.read(text)
    except (CardRulesError, ValueError) as err:
        print(f"not a move: {err} (type 'help' for the notation)")
        return None
    if action in legal:
        return action
    try:
        rules.apply(state, action, seat=you)
    except IllegalActionError as err:
        print(f"not allowed now: {err.rule}: {second_person(err.message, you)}")
        return None
    except (CardRulesError, ValueError, TypeError) as err:
        print(f"not allowed now: {err}")
        return None
    return action  # legal_actions lists every legal move; kept for safety


def _save(rules: Rules[Any, Any], start: Any, actions: Sequence[Any], path: str) -> None:
    """``save FILE``: write the record so far, or say in one line why not."""
    if not path:
        print("save needs a file name, such as: save game.json")
        return
    path = os.path.expanduser(path)
    try:
        _common.check_record_path(path, "save")
        rules.record(start, actions).dump(path)
    except (CardRulesError, ValueError, OSError) as err:
        print(f"cannot save: {err}")
        return
    print(f"record so far ({len(actions)} actions) written to {path}")
