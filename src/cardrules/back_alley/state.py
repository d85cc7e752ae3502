"""The Back Alley game state: an immutable record of everything at the table.

States are made by :func:`~cardrules.back_alley.new_game` and
:func:`~cardrules.back_alley.apply`; you never build one by hand (loading
from JSON validates everything, see :mod:`cardrules.back_alley.serialize`).

A state groups what changes rarely, so that each action copies only a few
fields: :class:`Settings` (fixed for the game), :class:`History` (finished
deals, scores, throw-ins) and :class:`Deal` (the cards and bids of the deal
in progress).  The rest changes trick by trick: whose turn it is, the hands,
the current trick and the tricks won.

Seats are 0 to 3 clockwise; team 0 is seats 0 and 2, team 1 seats 1 and 3
(BA-1).

>>> from cardrules.back_alley import new_game
>>> state = new_game()
>>> state.phase, state.is_chance, state.current_player, state.deal_number, state.hand_size
(<Phase.CHOOSE_DEALER: 'choose_dealer'>, True, None, 1, 13)
"""

from __future__ import annotations

import enum

import attrs

from cardrules._validate import check_seat, require_int
from cardrules.back_alley.actions import CARDS, BidAction, Board
from cardrules.back_alley.trick import TrumpTable, table_for
from cardrules.cards import Card, Joker, Suit
from cardrules.engine.presenter import pad, width
from cardrules.hand import Hand
from cardrules.i18n import N_, NP_, gettext, ngettext, pgettext

__all__ = [
    "NUM_PLAYERS",
    "Contract",
    "Deal",
    "DealResult",
    "GameState",
    "History",
    "Phase",
    "Settings",
    "Trick",
    "bid_name",
    "board_levels",
    "board_name",
    "cards_phrase",
    "contract_of",
    "describe",
    "hand_size_of",
    "phase_name",
    "score",
    "team_of",
    "tricks_phrase",
]

#: Back Alley is for exactly four players in two partnerships (BA-1).
NUM_PLAYERS = 4
#: The highest hand size, dealt in the first and the last deal (BA-10).
MAX_HAND_SIZE = 13

AnyCard = Card | Joker


def team_of(seat: int) -> int:
    """The team of ``seat``: seats 0 and 2 are team 0, seats 1 and 3 team 1 (BA-1).

    >>> [team_of(seat) for seat in range(4)]
    [0, 1, 0, 1]
    """
    return check_seat(seat, NUM_PLAYERS) & 1


def returns(state: GameState) -> tuple[int, int, int, int]:
    """What each seat has won so far: the points of its team (BA-40 to BA-43).

    >>> from cardrules.back_alley import new_game
    >>> returns(new_game())
    (0, 0, 0, 0)
    """
    first, second = state.scores
    return (first, second, first, second)


def hand_size_of(deal_number: int, max_hand_size: int = MAX_HAND_SIZE) -> int:
    """Cards per hand in deal ``deal_number``: 13, 12, ..., 1, ..., 13 (BA-10).

    With a smaller ``max_hand_size`` (a short game, see :class:`Settings`)
    the sizes run from it down to 1 and back up.

    >>> [hand_size_of(d) for d in (1, 2, 12, 13, 14, 25)]
    [13, 12, 2, 1, 2, 13]
    >>> [hand_size_of(d, 3) for d in range(1, 6)]
    [3, 2, 1, 2, 3]
    """
    require_int("max_hand_size", max_hand_size, minimum=1, maximum=MAX_HAND_SIZE)
    require_int("deal_number", deal_number, minimum=1, maximum=2 * max_hand_size - 1)
    return abs(max_hand_size - deal_number) + 1


class Phase(enum.Enum):
    """Where the game stands.

    >>> Phase.BID.value, Phase.SHUFFLE.is_chance
    ('bid', True)
    """

    CHOOSE_DEALER = "choose_dealer"  #: chance: the first dealer (BA-11)
    SHUFFLE = "shuffle"  #: chance: the dealer shuffles all 54 cards (BA-12)
    BID = "bid"  #: each player bids once (BA-20)
    PLAY = "play"  #: the tricks (BA-30)
    GAME_OVER = "game_over"  #: every deal has been played (BA-43)

    @property
    def is_chance(self) -> bool:
        """True for the phases where a chance action is due.

        >>> Phase.CHOOSE_DEALER.is_chance, Phase.PLAY.is_chance
        (True, False)
        """
        return self is Phase.CHOOSE_DEALER or self is Phase.SHUFFLE


# The phases read at every step of a game, as module names: CPython 3.11 reads
# an enum member through its class with a descriptor call.
_CHOOSE_DEALER, _SHUFFLE, _GAME_OVER = Phase.CHOOSE_DEALER, Phase.SHUFFLE, Phase.GAME_OVER


@attrs.frozen(slots=True)
class Settings:
    """The game's settings; the defaults are the rules (BA-10).

    ``max_hand_size`` (1 to 13, default 13) is the hand size of the first and
    the last deal; a game has ``2 * max_hand_size - 1`` deals with sizes
    running down to 1 and back up.  A smaller value is an explicit short-game
    variant (for tests and quick games), not part of the rules.

    >>> Settings().deals, Settings(max_hand_size=3).deals
    (25, 5)
    >>> Settings(max_hand_size=14)
    Traceback (most recent call last):
    ...
    ValueError: max_hand_size must be a whole number from 1 to 13, not 14
    """

    max_hand_size: int = attrs.field(default=MAX_HAND_SIZE)

    def __attrs_post_init__(self) -> None:
        require_int("max_hand_size", self.max_hand_size, minimum=1, maximum=MAX_HAND_SIZE)

    @property
    def deals(self) -> int:
        """The number of deals in a game (25 by the rules, BA-10).

        >>> Settings(max_hand_size=2).deals
        3
        """
        return 2 * self.max_hand_size - 1

    def to_dict(self) -> dict[str, int | None]:
        """The settings as a plain mapping (the form game records store).

        >>> Settings().to_dict()
        {'max_hand_size': 13}
        """
        return {"max_hand_size": self.max_hand_size}


@attrs.frozen(slots=True)
class Contract:
    """A team's contract for one deal (BA-24).

    ``board`` is the board level 1 to 4 (BA-23) when a partner claimed
    board, else 0; ``tricks`` is then the sum of the partners' numbers (a
    pass counts 0; the sum may exceed the hand size and cannot be made).

    >>> str(Contract(tricks=5)), str(Contract(board=2)), Contract(board=1).is_board
    ('5', 'double board', True)

    ``str()`` is for people, in the current language (:func:`cardrules.language`):

    >>> from cardrules import language
    >>> with language("ja"):
    ...     str(Contract(board=2)), str(Contract(tricks=5))
    ('ダブルボード', '5')
    """

    tricks: int = 0
    board: int = 0

    @property
    def is_board(self) -> bool:
        """True for a board contract.

        >>> Contract(tricks=3).is_board
        False
        """
        return self.board > 0

    def __str__(self) -> str:
        if self.board:
            return board_name(self.board)
        return str(self.tricks)


_BOARD_NAMES = (NP_("bid", "board"), NP_("bid", "double board"), NP_("bid", "triple board"),
                NP_("bid", "quadruple board"))


def board_name(level: int) -> str:
    """The name of a board claim of ``level`` 1 to 4 (BA-23), in the current language.

    >>> from cardrules import language
    >>> board_name(1), board_name(4)
    ('board', 'quadruple board')
    >>> with language("uk"):
    ...     board_name(1), board_name(3)
    ('борд', 'потрійний борд')
    """
    return pgettext("bid", _BOARD_NAMES[level - 1])


def score(contract: Contract, tricks: int, hand_size: int) -> int:
    """What a team scores for a deal of ``hand_size`` cards (BA-40, BA-41).

    A numeric contract of B taken with T tricks scores ``5*B + (T - B)`` if
    ``T >= B`` and loses ``5*B`` otherwise; a board at level L scores
    ``10*N*L`` if the team takes all N tricks and loses as much otherwise.

    >>> score(Contract(tricks=3), 4, 6), score(Contract(tricks=3), 2, 6)
    (16, -15)
    >>> score(Contract(), 2, 6), score(Contract(board=2), 6, 6), score(Contract(board=2), 5, 6)
    (2, 120, -120)
    """
    if contract.board:
        stake = 10 * hand_size * contract.board
        return stake if tricks == hand_size else -stake
    bid = contract.tricks
    return 5 * bid + (tricks - bid) if tricks >= bid else -5 * bid


def board_levels(bids: tuple[BidAction | None, ...], dealer: int) -> tuple[int, ...]:
    """Per seat, the level of its board claim (1 to 4), or 0 (BA-23).

    Boards are numbered in the order claimed, by either team; the bidding
    goes clockwise from the dealer's left (BA-20).

    >>> from cardrules.back_alley import Pass
    >>> board_levels((Board(), Board(), Pass(), Board()), 0)
    (3, 1, 0, 2)
    """
    levels = [0] * NUM_PLAYERS
    claimed = 0
    for k in range(1, NUM_PLAYERS + 1):
        seat = (dealer + k) % NUM_PLAYERS
        if type(bids[seat]) is Board:
            claimed += 1
            levels[seat] = claimed
    return tuple(levels)


def contract_of(bids: tuple[BidAction | None, ...], dealer: int, team: int) -> Contract:
    """The contract of ``team`` from the four bids (BA-24).

    >>> from cardrules.back_alley import Bid
    >>> bids = (Bid(3), Board(), Bid(12), Board())
    >>> str(contract_of(bids, 0, 0)), str(contract_of(bids, 0, 1))
    ('15', 'double board')
    """
    levels = board_levels(bids, dealer)
    level = max(levels[team], levels[team + 2])
    if level:
        return Contract(board=level)
    return Contract(tricks=sum(getattr(bids[seat], "tricks", 0) for seat in (team, team + 2)))


@attrs.frozen(slots=True)
class Trick:
    """A finished trick: who led it, the cards in play order, who won it (BA-34).

    >>> from cardrules import parse_cards
    >>> t = Trick(leader=3, cards=parse_cards("KS AS 2H QS"), winner=1)
    >>> str(t)
    '3: KS AS 2H QS -> 1'
    """

    leader: int
    cards: tuple[AnyCard, ...]
    winner: int

    def __str__(self) -> str:
        return f"{self.leader}: {' '.join(map(str, self.cards))} -> {self.winner}"


@attrs.frozen(slots=True)
class DealResult:
    """The public outcome of a finished deal (BA-40 to BA-42).

    ``bids`` are per seat; ``contracts``, ``tricks`` (taken) and ``points``
    (scored, negative when the contract failed) per team.  ``throw_ins`` is
    how often this deal was thrown in before it was played (BA-25).

    >>> from cardrules.back_alley import Bid, Pass
    >>> r = DealResult(deal_number=1, dealer=0, hand_size=13, trump_card=Joker.BIG,
    ...                throw_ins=0, bids=(Bid(3), Pass(), Bid(2), Pass()),
    ...                contracts=(Contract(tricks=5), Contract()), tricks=(6, 7), points=(26, 7))
    >>> print(r)
    deal 1 (13 cards, dealer 0, turned BB): team 0 bid 5 took 6 scores 26;
    team 1 bid 0 took 7 scores 7
    """

    deal_number: int
    dealer: int
    hand_size: int
    trump_card: AnyCard
    throw_ins: int
    bids: tuple[BidAction, ...]
    contracts: tuple[Contract, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]

    def __str__(self) -> str:
        teams = gettext("; ").join(
            gettext("team {team} bid {contract} took {tricks} scores {points}").format(
                team=t, contract=self.contracts[t], tricks=self.tricks[t], points=self.points[t])
            for t in (0, 1))
        return gettext("deal {number} ({cards}, dealer {dealer}, turned {card}): {teams}").format(
            number=self.deal_number, cards=cards_phrase(self.hand_size), dealer=self.dealer,
            card=self.trump_card, teams=teams)


def cards_phrase(number: int) -> str:
    """``"1 card"`` or ``"5 cards"``, for the texts of deals, in the current language.

    >>> from cardrules import language
    >>> cards_phrase(1), cards_phrase(5)
    ('1 card', '5 cards')
    >>> with language("uk"):
    ...     [cards_phrase(n) for n in (1, 2, 5, 11, 21, 22)]
    ['1 карта', '2 карти', '5 карт', '11 карт', '21 карта', '22 карти']
    """
    return ngettext("{n} card", "{n} cards", number).format(n=number)


def tricks_phrase(number: int) -> str:
    """``"1 trick"`` or ``"5 tricks"``, in the current language.

    >>> from cardrules import language
    >>> tricks_phrase(1), tricks_phrase(0)
    ('1 trick', '0 tricks')
    >>> with language("uk"):
    ...     [tricks_phrase(n) for n in (1, 2, 5, 11, 21, 22)]
    ['1 взятка', '2 взятки', '5 взяток', '11 взяток', '21 взятка', '22 взятки']
    """
    return ngettext("{n} trick", "{n} tricks", number).format(n=number)


@attrs.frozen(slots=True)
class History:
    """What changes only between deals: the game so far.

    ``first_dealer`` (None until chosen, BA-11); ``throw_ins``: how often the
    deal now due has been thrown in (BA-25); ``results``: every finished
    deal; ``scores``: the cumulative total per team.

    >>> History(first_dealer=None, throw_ins=0, results=(), scores=(0, 0)).scores
    (0, 0)
    """

    first_dealer: int | None
    throw_ins: int
    results: tuple[DealResult, ...]
    scores: tuple[int, int]


def _trump_of(trump_card: AnyCard) -> Suit | None:
    """The trump suit a turned card makes: its suit, or None for a joker (BA-13)."""
    return trump_card.suit if isinstance(trump_card, Card) else None


@attrs.frozen(slots=True)
class Deal:
    """The cards and bids of the deal in progress (BA-12, BA-13, BA-20).

    ``hand_size``; ``trump_card`` (the turned card, out of play); ``trump``
    (its suit, or None when a joker was turned); ``joker_discard`` (the other
    joker, discarded face up under BA-13) and ``exchanger`` (who discarded
    it); ``taken`` (the card the exchanger took instead: private);
    ``undealt`` (the face-down rest, out of play: private); ``bids`` (per
    seat, None until made).

    >>> from cardrules import parse_card
    >>> d = Deal(hand_size=1, trump_card=parse_card("2H"), joker_discard=None, exchanger=None,
    ...          taken=None, undealt=Hand(), bids=(None,) * 4)
    >>> d.trump
    <Suit.HEARTS: 1>
    """

    hand_size: int
    trump_card: AnyCard
    joker_discard: Joker | None
    exchanger: int | None
    taken: Card | None
    undealt: Hand[AnyCard]
    bids: tuple[BidAction | None, ...]
    trump: Suit | None = attrs.field(
        init=False, default=attrs.Factory(lambda deal: _trump_of(deal.trump_card),
                                          takes_self=True))

    # The card order for this trump: the shared table of cardrules.back_alley.trick,
    # derived from the trump when the deal is made (see __reduce__).
    table: TrumpTable = attrs.field(
        init=False, eq=False, repr=False, hash=False,
        default=attrs.Factory(lambda deal: table_for(deal.trump), takes_self=True))

    def __reduce__(self) -> tuple[type[Deal], tuple[object, ...]]:
        """Pickle and copy a deal as its own fields only: the ``trump`` and the
        trump ``table`` are derived from the turned card again when it is read
        back, so they never travel and a copy holds the shared tables.

        >>> import pickle
        >>> from cardrules import parse_card
        >>> d = Deal(hand_size=1, trump_card=parse_card("2H"), joker_discard=None,
        ...          exchanger=None, taken=None, undealt=Hand(), bids=(None,) * 4)
        >>> again = pickle.loads(pickle.dumps(d))
        >>> again == d, again.table is d.table
        (True, True)
        """
        return Deal, tuple(getattr(self, field.name) for field in attrs.fields(Deal)
                           if field.init)


def _cards_repr(value: tuple[int, ...]) -> str:
    return repr(" ".join(str(CARDS[i]) for i in value))


def _hands_repr(value: tuple[tuple[int, ...], ...]) -> str:
    return "(" + ", ".join(_cards_repr(h) for h in value) + ")"


@attrs.frozen(slots=True)
class GameState:
    """A complete, immutable Back Alley game state.

    Fields: ``settings``; ``history`` (finished deals and scores);
    ``phase``; ``dealer`` (None until chosen); ``deal`` (the deal in
    progress, None between deals); ``current_player`` (None at chance
    points and at the end); ``leader`` (who leads the current trick, during
    play); ``hand_indexes`` (per seat, the indexes 0 to 53 of the cards
    held, ascending, as in ``cardrules.back_alley.actions.CARDS``);
    ``trick_indexes`` (the indexes of the current trick's cards in play
    order, from the leader's); ``tricks_won`` (per seat, this deal);
    ``tricks`` (the finished tricks of this deal); ``trump_played`` (a trump
    has been played this deal, BA-32).  The same hands and trick as cards
    are the properties :attr:`hands` and :attr:`trick`, which are not
    fields: ``attrs.evolve(state, hand_indexes=...)`` makes a state with
    other hands, ``attrs.evolve(state, hands=...)`` is refused.  Everything
    else is a property.

    >>> from cardrules.back_alley import new_game
    >>> s = new_game()
    >>> s.num_players, s.scores, s.results, s.winner
    (4, (0, 0), (), None)
    >>> import attrs
    >>> attrs.evolve(s, hands=s.hands)
    Traceback (most recent call last):
    ...
    TypeError: GameState.__init__() got an unexpected keyword argument 'hands'
    """

    settings: Settings
    history: History
    phase: Phase
    dealer: int | None
    deal: Deal | None
    current_player: int | None
    #: The seat that leads (or led) the current trick; None outside play.
    leader: int | None
    #: Per seat, the indexes of the cards held (ascending, so in Hand order).
    hand_indexes: tuple[tuple[int, ...], ...] = attrs.field(repr=_hands_repr)
    #: The indexes of the current trick's cards in play order (from the leader).
    trick_indexes: tuple[int, ...] = attrs.field(repr=_cards_repr)
    tricks_won: tuple[int, ...]
    tricks: tuple[Trick, ...]
    trump_played: bool

    # -- the table -------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Always 4 (BA-1).

        >>> from cardrules.back_alley import new_game
        >>> new_game().num_players
        4
        """
        return NUM_PLAYERS

    @property
    def is_chance(self) -> bool:
        """True when a chance action is due (the first dealer or a shuffle).

        >>> from cardrules.back_alley import new_game
        >>> new_game().is_chance
        True
        """
        phase = self.phase
        return phase is _CHOOSE_DEALER or phase is _SHUFFLE

    @property
    def is_terminal(self) -> bool:
        """True once every deal has been played (BA-43).

        >>> from cardrules.back_alley import new_game
        >>> new_game().is_terminal
        False
        """
        return self.phase is _GAME_OVER

    @staticmethod
    def team_of(seat: int) -> int:
        """The team of ``seat`` (0 for seats 0 and 2, 1 for seats 1 and 3, BA-1).

        >>> from cardrules.back_alley import new_game
        >>> new_game().team_of(3)
        1
        """
        return team_of(seat)

    # -- the game so far -----------------------------------------------------

    @property
    def scores(self) -> tuple[int, int]:
        """The cumulative score per team (BA-40 to BA-42).

        >>> from cardrules.back_alley import new_game
        >>> new_game().scores
        (0, 0)
        """
        return self.history.scores

    @property
    def results(self) -> tuple[DealResult, ...]:
        """Every finished deal, in order.

        >>> from cardrules.back_alley import new_game
        >>> new_game().results
        ()
        """
        return self.history.results

    @property
    def deal_number(self) -> int:
        """The deal in progress or due next, 1 to 25 (the last one at the end);
        thrown-in deals are not counted (BA-25).

        >>> from cardrules.back_alley import new_game
        >>> new_game().deal_number
        1
        """
        return min(len(self.history.results) + 1, self.settings.deals)

    @property
    def hand_size(self) -> int:
        """Cards per hand in the deal in progress or due next (BA-10).

        >>> from cardrules.back_alley import new_game
        >>> new_game(max_hand_size=5).hand_size
        5
        """
        return abs(self.settings.max_hand_size - self.deal_number) + 1

    @property
    def winner(self) -> int | None:
        """The winning team at the end, or None for a draw or an unfinished game (BA-43).

        >>> from cardrules.back_alley import new_game
        >>> new_game().winner is None
        True
        """
        if self.phase is not Phase.GAME_OVER:
            return None
        first, second = self.history.scores
        return 0 if first > second else 1 if second > first else None

    # -- the deal in progress ------------------------------------------------

    @property
    def trump(self) -> Suit | None:
        """The trump suit of the deal in progress; None for a no-trump deal
        (a joker turned, BA-13) or when no deal is in progress.

        >>> from cardrules.back_alley import new_game
        >>> new_game().trump is None
        True
        """
        return None if self.deal is None else self.deal.trump

    @property
    def trump_card(self) -> AnyCard | None:
        """The turned card of the deal in progress (BA-12), None between deals.

        >>> from cardrules.back_alley import new_game
        >>> new_game().trump_card is None
        True
        """
        return None if self.deal is None else self.deal.trump_card

    @property
    def joker_discard(self) -> Joker | None:
        """The joker discarded face up under BA-13 this deal, if any.

        >>> from cardrules.back_alley import new_game
        >>> new_game().joker_discard is None
        True
        """
        return None if self.deal is None else self.deal.joker_discard

    @property
    def bids(self) -> tuple[BidAction | None, ...]:
        """Per seat, the bid made this deal or None (BA-20, BA-21).

        >>> from cardrules.back_alley import new_game
        >>> new_game().bids
        (None, None, None, None)
        """
        return (None,) * NUM_PLAYERS if self.deal is None else self.deal.bids

    @property
    def board_levels(self) -> tuple[int, ...]:
        """Per seat, the level of its board claim this deal, or 0 (BA-23).

        >>> from cardrules.back_alley import new_game
        >>> new_game().board_levels
        (0, 0, 0, 0)
        """
        return board_levels(self.bids, self.dealer or 0)

    @property
    def contracts(self) -> tuple[Contract, Contract] | None:
        """Each team's contract once all four have bid (BA-24), else None.

        >>> from cardrules.back_alley import new_game
        >>> new_game().contracts is None
        True
        """
        bids, dealer = self.bids, self.dealer
        if dealer is None or any(b is None for b in bids):
            return None
        return contract_of(bids, dealer, 0), contract_of(bids, dealer, 1)

    @property
    def hands(self) -> tuple[Hand[AnyCard], ...]:
        """One :class:`~cardrules.Hand` per seat (empty between deals): the cards
        of :attr:`hand_indexes`.

        >>> from cardrules.back_alley import new_game
        >>> new_game().hands
        (Hand.parse(''), Hand.parse(''), Hand.parse(''), Hand.parse(''))
        """
        return tuple(Hand.of_sorted(tuple(CARDS[i] for i in indexes))
                     for indexes in self.hand_indexes)

    @property
    def trick(self) -> tuple[AnyCard, ...]:
        """The cards of the current trick in play order, starting with :attr:`leader`'s
        (the cards of :attr:`trick_indexes`).

        >>> from cardrules.back_alley import new_game
        >>> new_game().trick
        ()
        """
        return tuple(CARDS[i] for i in self.trick_indexes)

    @property
    def undealt(self) -> Hand[AnyCard]:
        """The face-down cards out of play this deal (private, BA-12, BA-50).

        >>> from cardrules.back_alley import new_game
        >>> new_game().undealt
        Hand.parse('')
        """
        return Hand() if self.deal is None else self.deal.undealt

    def __str__(self) -> str:
        return describe(self)

    def _repr_svg_(self) -> str:
        """An SVG picture of the table for notebooks; imports the pictures lazily."""
        from cardrules.back_alley.pictures import state_svg
        return state_svg(self)

    def _repr_html_(self) -> str:
        """The SVG picture in HTML, for notebooks."""
        from cardrules.back_alley.pictures import state_html
        return state_html(self)


def _turned_line(trump_card: AnyCard, joker_discard: Joker | None, exchanger: int | None,
                trump_played: bool) -> str:
    """The public facts of a deal's trump in one line (BA-12, BA-13, BA-32).

    >>> _turned_line(Joker.BIG, Joker.LITTLE, 2, False)
    'turned BB: no trump; seat 2 discarded LB'
    """
    if isinstance(trump_card, Card):
        line = gettext(_TRUMP_LINES[trump_card.suit]).format(card=trump_card)
    else:
        line = gettext("turned {card}: no trump").format(card=trump_card)
    if joker_discard is not None:
        line += gettext("; seat {seat} discarded {card}").format(seat=exchanger,
                                                                card=joker_discard)
    if trump_played:
        line += pgettext("summary", "; trump played")
    return line


# One message per suit: the suit is a letter in English and a word elsewhere.
_TRUMP_LINES = (N_("turned {card}: trump S"), N_("turned {card}: trump H"),
                N_("turned {card}: trump D"), N_("turned {card}: trump C"))


def bid_name(bid: BidAction) -> str:
    """A bid for people, in the current language; in English its action text.

    >>> from cardrules import language
    >>> from cardrules.back_alley import Bid, Pass
    >>> bid_name(Bid(3)), bid_name(Board()), bid_name(Pass())
    ('bid 3', 'board', 'pass')
    >>> with language("uk"):
    ...     bid_name(Bid(3)), bid_name(Board()), bid_name(Pass())
    ('заявка 3', 'борд', 'пас')
    """
    if bid.__class__ is Board:
        return pgettext("bid", "board")
    tricks = getattr(bid, "tricks", None)
    if tricks is None:
        return pgettext("bid", "pass")
    return pgettext("bid", "bid {tricks}").format(tricks=tricks)


def phase_name(phase: Phase) -> str:
    """The name of ``phase`` for people, in the current language (its value in English).

    >>> from cardrules import language
    >>> phase_name(Phase.BID)
    'bid'
    >>> with language("ja"):
    ...     phase_name(Phase.GAME_OVER)
    'ゲーム終了'
    """
    return pgettext("phase", _PHASE_NAMES[phase])


_PHASE_NAMES = {Phase.CHOOSE_DEALER: NP_("phase", "choose_dealer"),
                Phase.SHUFFLE: NP_("phase", "shuffle"), Phase.BID: NP_("phase", "bid"),
                Phase.PLAY: NP_("phase", "play"), Phase.GAME_OVER: NP_("phase", "game_over")}


def _result_line(s0: int, s1: int, over: bool) -> str:
    if over:
        if s0 == s1:
            return gettext("a draw")
        return gettext("team {team} wins").format(team=0 if s0 > s1 else 1)
    if s0 == s1:
        return gettext("level")
    return gettext("team {team} leads").format(team=0 if s0 > s1 else 1)


def describe(state: GameState) -> str:
    """A compact table of ``state`` (also ``str(state)``).

    >>> from cardrules.back_alley import new_game
    >>> print(new_game())
    Back Alley, deal 1 of 25 (13 cards), choose_dealer
    scores: team 0 (seats 0, 2) 0, team 1 (seats 1, 3) 0
    """
    settings, deal = state.settings, state.deal
    head = gettext("Back Alley, deal {number} of {deals} ({cards}), {phase}").format(
        number=state.deal_number, deals=settings.deals, cards=cards_phrase(state.hand_size),
        phase=phase_name(state.phase))
    if state.dealer is not None:
        head += gettext(", dealer {seat}").format(seat=state.dealer)
    if state.current_player is not None:
        head += gettext(", seat {seat} to act").format(seat=state.current_player)
    lines = [head]
    if deal is not None:
        lines.append(_turned_line(deal.trump_card, deal.joker_discard, deal.exchanger,
                                 state.trump_played))
        names = (pgettext("table column", "seat"), pgettext("table column", "team"),
                 pgettext("table column", "bid"), pgettext("table column", "won"),
                 pgettext("table column", "hand"))
        # The columns are as wide as their names, and at least as in English.
        widths = [max(least, width(name) + extra) for least, name, extra in
                  zip((4, 4, 7, 3), names, (0, 0, 1, 0), strict=False)]
        lines.append(" ".join((pad(names[0], widths[0], right=True),
                               pad(names[1], widths[1], right=True),
                               pad(names[2], widths[2]) + pad(names[3], widths[3], right=True),
                               names[4])))
        levels = state.board_levels
        for seat in range(NUM_PLAYERS):
            bid = deal.bids[seat]
            shown = "-" if bid is None else bid_name(bid) + (
                f" {levels[seat]}" if levels[seat] else "")
            hand = " ".join(str(CARDS[i]) for i in state.hand_indexes[seat])
            lines.append(f"{seat:>{widths[0]}} {seat & 1:>{widths[1]}} "
                         f"{pad(shown, widths[2])}{state.tricks_won[seat]:>{widths[3]}} {hand}")
        if state.leader is not None:
            played = " ".join(str(CARDS[i]) for i in state.trick_indexes)
            lines.append(gettext("trick led by {seat}: {cards}").format(
                seat=state.leader, cards=played).rstrip())
    s0, s1 = state.history.scores
    lines.append(gettext("scores: team 0 (seats 0, 2) {first}, team 1 (seats 1, 3) {second}")
                 .format(first=s0, second=s1))
    if state.phase is Phase.GAME_OVER:
        lines.append(_result_line(s0, s1, True))
    return "\n".join(lines)
