"""An independent, deliberately simple reference implementation of Back Alley.

This module is test scaffolding only.  It is an oracle for the real engine in
``cardrules.back_alley`` and is written straight from the rule book (rules
BA-1 to BA-50) and the team's interpretation notes, without importing
anything from ``cardrules``: the point is that the two implementations share
no code.  Clarity wins over speed everywhere; each rule is a short function
whose body reads like the sentence it implements.

Cards are plain strings: ``"AS"``, ``"TD"``, ``"2C"``, and the jokers
``"BB"`` (Big Blooper) and ``"LB"`` (Little Blooper).  Actions are plain
strings too, exactly as in the engine's text form:

* chance actions ``"dealer N"`` (BA-11) and ``"shuffle C1 C2 ... C54"``
  (all 54 cards, the first listed is the top card);
* player actions ``"pass"``, ``"bid N"``, ``"board"`` and ``"play C"``.

:class:`RefGame` is a mutable game; :meth:`RefGame.act` applies one action
and performs every automatic step (dealing, turning trump, the BA-13 joker
exchange, throw-ins, trick resolution, scoring, the next deal, the end).

>>> game = RefGame()
>>> game.phase, sorted(game.legal())
('dealer', [])
>>> game.act("dealer 3")
>>> game.phase, game.dealer, game.deal_number, game.hand_size
('shuffle', 3, 1, 13)
>>> game.act(shuffle_text(DECK))
>>> game.phase, game.current_player, game.trump_card, game.trump
('bid', 0, 'BB', None)
>>> game.joker_discard, game.turned_joker_taker, game.exchange_card
(None, None, None)
>>> sorted(game.hands[0])[:3]
['2S', '3C', '4D']
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import TypedDict

__all__ = [
    "DECK",
    "JOKERS",
    "NUM_DEALS",
    "PHASES",
    "RANKS",
    "SEATS",
    "SUITS",
    "Contract",
    "DealResult",
    "RefGame",
    "bidding_order",
    "board_levels",
    "first_leader",
    "hand_size_for",
    "is_trump",
    "legal_bids",
    "plain_rank",
    "score",
    "shuffle_text",
    "suit_of",
    "team_contract",
    "team_of",
    "trick_winner",
    "trump_rank",
    "winner_of",
]

SEATS = 4
"""Number of seats (BA-1)."""

SUITS = "SHDC"
"""Suit letters."""

RANKS = "23456789TJQKA"
"""Rank letters, lowest first (BA-3)."""

JOKERS = ("BB", "LB")
"""The Big Blooper and the Little Blooper (BA-2)."""

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS) + JOKERS
"""All 54 cards: spades 2..A, hearts, diamonds, clubs, then BB and LB (BA-2)."""

NUM_DEALS = 25
"""Number of counted deals in a game (BA-10)."""

PHASES = ("dealer", "shuffle", "bid", "play", "over")
"""The values :attr:`RefGame.phase` can take."""

Contract = int | str
"""A team contract: an ``int`` for a numeric contract, ``"board1"`` .. ``"board4"`` for a board."""


class DealResult(TypedDict):
    """The record of one finished (counted) deal, see :attr:`RefGame.deal_results`."""

    deal: int
    hand_size: int
    dealer: int
    contracts: list[Contract]
    tricks: list[int]
    points: list[int]


# ---------------------------------------------------------------------------
# Pure helpers
# ---------------------------------------------------------------------------


def team_of(seat: int) -> int:
    """The team of a seat: seats 0 and 2 are team 0, seats 1 and 3 team 1 (BA-1).

    >>> [team_of(seat) for seat in range(4)]
    [0, 1, 0, 1]
    """
    if seat not in range(SEATS):
        raise ValueError(f"BA-1: no seat {seat}")
    return seat % 2


def hand_size_for(deal_number: int) -> int:
    """Cards per hand in deal ``deal_number`` (1..25): 13, 12, ..., 1, ..., 13 (BA-10).

    >>> [hand_size_for(d) for d in (1, 2, 12, 13, 14, 25)]
    [13, 12, 2, 1, 2, 13]
    """
    if deal_number not in range(1, NUM_DEALS + 1):
        raise ValueError(f"BA-10: no deal number {deal_number}")
    return abs(13 - deal_number) + 1


def suit_of(card: str) -> str | None:
    """The suit letter of a card; ``None`` for a joker.

    >>> suit_of("TD"), suit_of("BB")
    ('D', None)
    """
    if card in JOKERS:
        return None
    return card[1]


def is_trump(card: str, trump: str | None) -> bool:
    """Whether ``card`` is a trump when ``trump`` is the trump suit (BA-2, BA-13).

    Both jokers are trumps whenever there is a trump suit; with no trump suit
    (``trump is None``) nothing is a trump.

    >>> is_trump("BB", "H"), is_trump("3H", "H"), is_trump("AS", "H"), is_trump("LB", None)
    (True, True, False, False)
    """
    if trump is None:
        return False
    return card in JOKERS or suit_of(card) == trump


def plain_rank(card: str) -> int:
    """Rank of a suit card, 2 (deuce) .. 14 (ace) (BA-3).

    >>> plain_rank("2S"), plain_rank("TD"), plain_rank("AC")
    (2, 10, 14)
    """
    if card in JOKERS:
        raise ValueError(f"a joker has no plain rank: {card}")
    return RANKS.index(card[0]) + 2


def trump_rank(card: str) -> int:
    """Rank of a trump: BB (16) > LB (15) > A (14) > ... > 2 (2) (BA-3).

    >>> trump_rank("BB"), trump_rank("LB"), trump_rank("AH"), trump_rank("2H")
    (16, 15, 14, 2)
    """
    if card == "BB":
        return 16
    if card == "LB":
        return 15
    return plain_rank(card)


def bidding_order(dealer: int) -> list[int]:
    """Seats in the order they bid: from the dealer's left, clockwise (BA-20).

    >>> bidding_order(2)
    [3, 0, 1, 2]
    """
    return [(dealer + 1 + i) % SEATS for i in range(SEATS)]


def legal_bids(hand_size: int) -> set[str]:
    """The bids allowed with ``hand_size`` cards: pass, 1 .. size-1, board (BA-21).

    >>> sorted(legal_bids(1))
    ['board', 'pass']
    >>> sorted(legal_bids(3))
    ['bid 1', 'bid 2', 'board', 'pass']
    """
    return {"pass", "board"} | {f"bid {n}" for n in range(1, hand_size)}


def board_levels(dealer: int, bids: Sequence[str | None]) -> list[int | None]:
    """Per seat, the level of that seat's board claim, or ``None`` (BA-23).

    Boards are numbered 1, 2, 3, 4 in the order they were claimed, by either
    team, and the bidding order starts left of the dealer.

    >>> board_levels(0, ["board", "board", "pass", "board"])
    [3, 1, None, 2]
    """
    levels: list[int | None] = [None] * SEATS
    boards_so_far = 0
    for seat in bidding_order(dealer):
        if bids[seat] == "board":
            boards_so_far += 1
            levels[seat] = boards_so_far
    return levels


def _bid_number(bid: str) -> int:
    """The number a non-board bid counts for: ``"pass"`` is 0, ``"bid N"`` is N."""
    if bid == "pass":
        return 0
    return int(bid.split(" ")[1])


def team_contract(dealer: int, bids: Sequence[str | None], team: int) -> Contract:
    """The contract of ``team`` from the four bids (BA-24).

    If a partner claimed board, the contract is a board at the highest level the
    partners claimed; otherwise it is the sum of the partners' numbers (pass = 0).

    >>> team_contract(0, ["bid 3", "board", "bid 2", "board"], 1)
    'board2'
    >>> team_contract(0, ["bid 3", "board", "bid 2", "board"], 0)
    5
    """
    levels = board_levels(dealer, bids)
    partners = [seat for seat in range(SEATS) if team_of(seat) == team]
    partner_levels = [level for seat in partners if (level := levels[seat]) is not None]
    if partner_levels:
        return f"board{max(partner_levels)}"
    total = 0
    for seat in partners:
        bid = bids[seat]
        if bid is None:
            raise ValueError(f"seat {seat} has not bid")
        total += _bid_number(bid)
    return total


def first_leader(dealer: int, bids: Sequence[str | None]) -> int:
    """The seat that leads the first trick: the highest bidder (BA-30).

    Any board beats any number, a higher board level beats a lower one, a
    higher number beats a lower one, and between equal numbers the earlier
    bidder wins.

    >>> first_leader(0, ["bid 2", "bid 3", "pass", "bid 3"])
    1
    >>> first_leader(2, ["bid 2", "bid 3", "pass", "bid 3"])
    3
    >>> first_leader(3, ["board", "bid 3", "board", "pass"])
    2
    >>> first_leader(0, ["board", "bid 3", "board", "pass"])
    0
    """
    levels = board_levels(dealer, bids)
    best_seat: int | None = None
    best_key: tuple[int, int] | None = None
    for seat in bidding_order(dealer):  # earlier bidders first, so ties keep them
        bid = bids[seat]
        if bid is None:
            raise ValueError(f"seat {seat} has not bid")
        level = levels[seat]
        key = (1, level) if level is not None else (0, _bid_number(bid))
        if best_key is None or key > best_key:
            best_seat, best_key = seat, key
    assert best_seat is not None
    return best_seat


def score(contract: Contract, tricks: int, hand_size: int) -> int:
    """Points a team scores for one deal (BA-40, BA-41).

    A numeric contract B taken with T tricks: T >= B scores 5*B + (T - B),
    otherwise -5*B.  A board at level L in a deal of N cards: all N tricks
    score 10*N*L, anything less loses 10*N*L.

    >>> score(3, 4, 6), score(3, 2, 6), score(0, 2, 6)
    (16, -15, 2)
    >>> score("board2", 6, 6), score("board2", 5, 6)
    (120, -120)
    """
    if tricks not in range(hand_size + 1):
        raise ValueError(f"{tricks} tricks is impossible with {hand_size} cards")
    if isinstance(contract, str):
        if contract not in {"board1", "board2", "board3", "board4"}:
            raise ValueError(f"BA-23: bad board contract {contract!r}")
        level = int(contract[len("board"):])
        stake = 10 * hand_size * level
        return stake if tricks == hand_size else -stake
    if contract < 0:
        raise ValueError(f"BA-24: negative contract {contract}")
    if tricks >= contract:
        return 5 * contract + (tricks - contract)
    return -5 * contract


def trick_winner(cards: Sequence[str], trump: str | None) -> int:
    """Index (in play order) of the card that wins a trick (BA-34).

    The highest trump wins; with no trump in the trick, the highest card of the
    suit led.  ``trump`` is the trump suit letter or ``None`` for a no-trump deal.

    >>> trick_winner(["KS", "AS", "2H", "QS"], "H")
    2
    >>> trick_winner(["KS", "AS", "2H", "QS"], "D")
    1
    >>> trick_winner(["AH", "LB", "BB", "KH"], "H")
    2
    """
    if not cards:
        raise ValueError("an empty trick has no winner")
    if trump is None and any(card in JOKERS for card in cards):
        raise ValueError("BA-13: no joker is in play in a no-trump deal")
    trump_indexes = [i for i, card in enumerate(cards) if is_trump(card, trump)]
    if trump_indexes:
        return max(trump_indexes, key=lambda i: trump_rank(cards[i]))
    led_suit = suit_of(cards[0])
    following = [i for i, card in enumerate(cards) if suit_of(card) == led_suit]
    return max(following, key=lambda i: plain_rank(cards[i]))


def winner_of(scores: Sequence[int]) -> int | None:
    """The winning team for final totals, ``None`` for a draw (BA-43).

    >>> winner_of([10, -5]), winner_of([-5, 10]), winner_of([7, 7])
    (0, 1, None)
    """
    if scores[0] > scores[1]:
        return 0
    if scores[1] > scores[0]:
        return 1
    return None


def shuffle_text(order: Iterable[str]) -> str:
    """The text of the chance action that shuffles the deck into ``order`` (top first).

    >>> shuffle_text(DECK).split()[:3]
    ['shuffle', '2S', '3S']
    """
    return " ".join(["shuffle", *order])


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


class RefGame:
    """A mutable Back Alley game, driven one text action at a time.

    Public attributes (read them; change them only through :meth:`act`):

    * ``phase``: ``"dealer"`` (first dealer not chosen yet), ``"shuffle"``
      (waiting for the shuffle of a deal or re-deal), ``"bid"``, ``"play"``,
      ``"over"``.
    * ``dealer``: dealer of the current (or upcoming) deal, ``None`` before BA-11.
    * ``deal_number`` (1..25) and ``hand_size``: of the current or upcoming deal.
    * ``trump``: trump suit letter, ``None`` when no deal is on or when a joker
      was turned (BA-13); ``trump_card``: the turned card.
    * ``hands``: four sets of cards (private information).
    * ``bids``: per seat, the bid text this deal or ``None``; ``board_levels``:
      per seat, the BA-23 level of its board claim or ``None``.
    * ``current_player``: seat to act, ``None`` at chance points and at the end.
    * ``leader``: seat that led (or is to lead) the current trick, ``None``
      outside play; ``trick``: ``(seat, card)`` pairs of the current trick.
    * ``tricks_won``: tricks per seat this deal; ``tricks_played`` and
      ``trick_winners``: the completed tricks of this deal and who won them.
    * ``trump_played``: a trump has been played in this deal (BA-32).
    * ``joker_discard``: the joker discarded face up under BA-13, or ``None``;
      ``turned_joker_taker``: the seat that discarded it; ``exchange_card``:
      the card that seat took instead (private).
    * ``undealt``: the cards that stay face down this deal (private), in
      shuffle order; it excludes the turned card and any BA-13 replacement.
    * ``scores``: ``[team0, team1]`` cumulative; ``deal_results``: one
      :class:`DealResult` per counted deal; ``throw_ins``: number of BA-25
      throw-ins so far; ``history``: every action applied, in order.

    When a deal is scored (and after a throw-in) its cards are collected: the
    per-deal attributes are reset before the next shuffle, and at the end.

    >>> game = RefGame.starting_at(13, dealer=0)
    >>> game.act(shuffle_text(["AS", "KS", "QS", "JS", "2H", *DECK[14:], *DECK[:9]]))
    >>> game.hands, game.trump_card, game.trump, game.current_player
    ([{'JS'}, {'AS'}, {'KS'}, {'QS'}], '2H', 'H', 1)
    >>> game.act("bid 1")
    Traceback (most recent call last):
    ...
    ValueError: BA-21: 'bid 1' is not legal now
    >>> for action in ["board", "pass", "pass", "pass", "play AS", "play KS", "play QS",
    ...                "play JS"]:
    ...     game.act(action)
    >>> game.deal_results
    [{'deal': 13, 'hand_size': 1, 'dealer': 0, 'contracts': [0, 'board1'], 'tricks': [0, 1],
      'points': [0, 10]}]
    >>> game.phase, game.deal_number, game.dealer, game.hand_size
    ('shuffle', 14, 1, 2)
    """

    def __init__(self) -> None:
        """A new game, before the first dealer is chosen (BA-11).

        >>> RefGame().phase
        'dealer'
        """
        self.phase: str = "dealer"
        self.dealer: int | None = None
        self.deal_number: int = 1
        self.hand_size: int = hand_size_for(1)
        self.scores: list[int] = [0, 0]
        self.deal_results: list[DealResult] = []
        self.throw_ins: int = 0
        self.history: list[str] = []
        # Per-deal state, set properly by _collect_cards.
        self.hands: list[set[str]] = []
        self.trump: str | None = None
        self.trump_card: str | None = None
        self.joker_discard: str | None = None
        self.turned_joker_taker: int | None = None
        self.exchange_card: str | None = None
        self.undealt: list[str] = []
        self.bids: list[str | None] = []
        self.board_levels: list[int | None] = []
        self.current_player: int | None = None
        self.leader: int | None = None
        self.trick: list[tuple[int, str]] = []
        self.tricks_won: list[int] = []
        self.tricks_played: list[list[tuple[int, str]]] = []
        self.trick_winners: list[int] = []
        self.trump_played: bool = False
        self._collect_cards()

    @classmethod
    def starting_at(cls, deal_number: int, dealer: int,
                    scores: Sequence[int] = (0, 0)) -> RefGame:
        """A game fragment waiting for the shuffle of deal ``deal_number``.

        For tests that want a particular hand size without playing the earlier
        deals.  ``deal_results`` is empty; the game still ends after deal 25.

        >>> game = RefGame.starting_at(12, dealer=1, scores=[5, -3])
        >>> game.phase, game.deal_number, game.hand_size, game.dealer, game.scores
        ('shuffle', 12, 2, 1, [5, -3])
        """
        if dealer not in range(SEATS):
            raise ValueError(f"BA-11: no seat {dealer}")
        game = cls()
        game.phase = "shuffle"
        game.dealer = dealer
        game.deal_number = deal_number
        game.hand_size = hand_size_for(deal_number)
        game.scores = list(scores)
        return game

    def clone(self) -> RefGame:
        """An independent deep copy of the game.

        >>> game = RefGame()
        >>> other = game.clone()
        >>> other.act("dealer 1")
        >>> game.phase, other.phase
        ('dealer', 'shuffle')
        """
        return copy.deepcopy(self)

    @property
    def winner(self) -> int | None:
        """The winning team once the game is over, ``None`` for a draw or before the end (BA-43).

        >>> RefGame().winner is None
        True
        """
        if self.phase != "over":
            return None
        return winner_of(self.scores)

    # -- legal actions -------------------------------------------------------

    def legal(self) -> set[str]:
        """The legal player actions in text form; empty at chance points and at the end.

        >>> RefGame().legal()
        set()
        """
        if self.phase == "bid":
            return legal_bids(self.hand_size)
        if self.phase == "play":
            return {f"play {card}" for card in self._playable_cards()}
        return set()

    def _playable_cards(self) -> set[str]:
        """The cards the current player may play (BA-31, BA-32, BA-33)."""
        seat = self.current_player
        assert seat is not None
        hand = self.hands[seat]
        trumps = {card for card in hand if is_trump(card, self.trump)}

        if not self.trick:
            # BA-32: leading a trump (a joker lead is a trump lead) needs one of
            # three excuses; otherwise the leader must lead a plain card.
            trump_broken = self.trump_played
            claimed_board = self.board_levels[seat] is not None
            only_trumps = trumps == hand
            if trump_broken or claimed_board or only_trumps:
                return set(hand)
            return hand - trumps

        led = self.trick[0][1]
        # BA-33: a led Blooper forces the highest / lowest trump.
        if led == "BB" and trumps:
            return {max(trumps, key=trump_rank)}
        if led == "LB" and trumps:
            return {min(trumps, key=trump_rank)}
        # BA-31: follow a trump lead with a trump, a plain lead with that suit.
        if is_trump(led, self.trump):
            return trumps if trumps else set(hand)
        same_suit = {card for card in hand if suit_of(card) == suit_of(led)}
        return same_suit if same_suit else set(hand)

    # -- applying actions ----------------------------------------------------

    def act(self, text: str) -> None:
        """Apply one action in text form; raise ``ValueError`` if it is illegal.

        An illegal action leaves the game exactly as it was.

        >>> game = RefGame()
        >>> game.act("pass")
        Traceback (most recent call last):
        ...
        ValueError: BA-11: expected 'dealer N', got 'pass'
        """
        if self.phase == "dealer":
            self._choose_dealer(text)
        elif self.phase == "shuffle":
            self._shuffle_and_deal(text)
        elif self.phase == "bid":
            if text not in self.legal():
                raise ValueError(f"BA-21: {text!r} is not legal now")
            self._bid(text)
        elif self.phase == "play":
            if text not in self.legal():
                raise ValueError(f"BA-31: {text!r} is not legal now")
            self._play(text[len("play "):])
        else:
            raise ValueError(f"BA-43: the game is over, {text!r} is not legal")
        self.history.append(text)

    def _choose_dealer(self, text: str) -> None:
        """BA-11: the chance action ``dealer N`` picks the first dealer."""
        tokens = text.split(" ")
        if len(tokens) != 2 or tokens[0] != "dealer" or tokens[1] not in {"0", "1", "2", "3"}:
            raise ValueError(f"BA-11: expected 'dealer N', got {text!r}")
        self.dealer = int(tokens[1])
        self.phase = "shuffle"

    def _shuffle_and_deal(self, text: str) -> None:
        """BA-12 and BA-13: shuffle, deal, turn trump, exchange a joker if needed."""
        tokens = text.split(" ")
        order = tokens[1:]
        if tokens[0] != "shuffle" or len(order) != len(DECK) or set(order) != set(DECK):
            raise ValueError(f"BA-12: expected 'shuffle' and all 54 cards once, got {text!r}")
        assert self.dealer is not None
        size = self.hand_size

        # BA-12: one card at a time, clockwise from the dealer's left.
        for k in range(SEATS * size):
            self.hands[(self.dealer + 1 + k) % SEATS].add(order[k])
        # BA-12: the next card is turned; its suit is trump.  It is out of play.
        turned = order[SEATS * size]
        self.trump_card = turned
        rest = order[SEATS * size + 1:]

        if turned in JOKERS:
            # BA-13: no trump suit; the other joker, if held, is swapped for the next card.
            self.trump = None
            other_joker = "LB" if turned == "BB" else "BB"
            for seat in range(SEATS):
                if other_joker in self.hands[seat]:
                    self.hands[seat].remove(other_joker)
                    self.joker_discard = other_joker
                    self.turned_joker_taker = seat
                    self.exchange_card = rest[0]
                    self.hands[seat].add(rest[0])
                    rest = rest[1:]
        else:
            self.trump = suit_of(turned)
        self.undealt = rest

        self.phase = "bid"
        self.current_player = bidding_order(self.dealer)[0]

    def _bid(self, bid: str) -> None:
        """BA-20 .. BA-25: record one bid; after the fourth, throw in or start play."""
        assert self.dealer is not None
        assert self.current_player is not None
        seat = self.current_player
        self.bids[seat] = bid
        if bid == "board":
            self.board_levels[seat] = 1 + sum(level is not None for level in self.board_levels)

        bids_made = sum(b is not None for b in self.bids)
        if bids_made < SEATS:
            self.current_player = bidding_order(self.dealer)[bids_made]
            return
        if all(b == "pass" for b in self.bids):
            # BA-25: throw-in; next dealer, same hand size, the deal does not count.
            self.throw_ins += 1
            self.dealer = (self.dealer + 1) % SEATS
            self._collect_cards()
            self.phase = "shuffle"
            return
        self.phase = "play"
        self.leader = first_leader(self.dealer, self.bids)
        self.current_player = self.leader

    def _play(self, card: str) -> None:
        """Play one card; resolve the trick after the fourth card (BA-34)."""
        seat = self.current_player
        assert seat is not None
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if is_trump(card, self.trump):
            self.trump_played = True

        if len(self.trick) < SEATS:
            self.current_player = (seat + 1) % SEATS
            return

        winning_index = trick_winner([c for _, c in self.trick], self.trump)
        winner = self.trick[winning_index][0]
        self.tricks_won[winner] += 1
        self.tricks_played.append(self.trick)
        self.trick_winners.append(winner)
        self.trick = []
        self.leader = winner
        self.current_player = winner
        if not any(self.hands):
            self._score_deal()

    def _score_deal(self) -> None:
        """BA-40 .. BA-43: score both teams, then move on to the next deal or the end."""
        assert self.dealer is not None
        contracts = [team_contract(self.dealer, self.bids, team) for team in (0, 1)]
        tricks = [self.tricks_won[team] + self.tricks_won[team + 2] for team in (0, 1)]
        points = [score(contracts[team], tricks[team], self.hand_size) for team in (0, 1)]
        for team in (0, 1):
            self.scores[team] += points[team]
        self.deal_results.append(DealResult(
            deal=self.deal_number, hand_size=self.hand_size, dealer=self.dealer,
            contracts=contracts, tricks=tricks, points=points))
        self._collect_cards()
        if self.deal_number == NUM_DEALS:
            self.phase = "over"
            return
        self.deal_number += 1
        self.hand_size = hand_size_for(self.deal_number)
        self.dealer = (self.dealer + 1) % SEATS
        self.phase = "shuffle"

    def _collect_cards(self) -> None:
        """Reset everything that belongs to a single deal."""
        self.hands = [set() for _ in range(SEATS)]
        self.trump = None
        self.trump_card = None
        self.joker_discard = None
        self.turned_joker_taker = None
        self.exchange_card = None
        self.undealt = []
        self.bids = [None] * SEATS
        self.board_levels = [None] * SEATS
        self.current_player = None
        self.leader = None
        self.trick = []
        self.tricks_won = [0] * SEATS
        self.tricks_played = []
        self.trick_winners = []
        self.trump_played = False
