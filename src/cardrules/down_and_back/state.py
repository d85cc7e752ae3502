"""The Down and Back game state: an immutable record of everything at the table.

States are made by :func:`~cardrules.down_and_back.new_game` and
:func:`~cardrules.down_and_back.apply`; you never build one by hand (loading
from JSON validates everything, see :mod:`cardrules.down_and_back.serialize`).

Piles are tuples of cards: ``stock[0]`` is the top of the stock and
``discard[-1]`` the top of the discard pile.  Between rounds all 52 cards
lie in the stock in :data:`~cardrules.DECK` order, waiting for the shuffle.

>>> from cardrules.down_and_back import new_game
>>> state = new_game(3)
>>> state.phase, state.is_chance, state.current_player, state.round
(<Phase.CHOOSE_DEALER: 'choose_dealer'>, True, None, 1)
"""

from __future__ import annotations

import enum

import attrs

from cardrules.cards import Card
from cardrules.down_and_back.actions import Split

__all__ = ["GameState", "Phase", "RoundResult", "Showdown", "TieBreakDraw"]

#: Cards dealt to each player (DB-33) and turns each player takes (DB-35).
HAND_SIZE = 7
TURNS = 6


class Phase(enum.Enum):
    """Where the game stands; the chance phases are marked in the docs of each.

    >>> Phase.DRAW.value
    'draw'
    """

    CHOOSE_DEALER = "choose_dealer"  #: chance: the first dealer (DB-31)
    SHUFFLE = "shuffle"  #: chance: the dealer shuffles the deck (DB-32)
    CUT = "cut"  #: the player right of the dealer cuts (DB-32)
    DRAW = "draw"  #: the player to act draws (DB-34)
    DISCARD = "discard"  #: the player to act discards (DB-34)
    RESHUFFLE = "reshuffle"  #: chance: the stock ran out; the discard pile is shuffled (DB-36)
    SPLIT = "split"  #: players choose their splits (DB-40)
    GAME_OVER = "game_over"  #: the set number of rounds has been played (DB-44)

    @property
    def is_chance(self) -> bool:
        """True for the phases where a chance action is due.

        >>> Phase.SHUFFLE.is_chance, Phase.CUT.is_chance
        (True, False)
        """
        return self in (Phase.CHOOSE_DEALER, Phase.SHUFFLE, Phase.RESHUFFLE)


@attrs.frozen(slots=True)
class TieBreakDraw:
    """One card drawn from the stock to break a tie (DB-42).

    ``stage`` is ``"down"`` or ``"back"``: the showdown being decided.

    >>> from cardrules import parse_card
    >>> TieBreakDraw("down", 2, parse_card("KS")).card.rank
    <Rank.KING: 13>
    """

    stage: str
    seat: int
    card: Card


@attrs.frozen(slots=True)
class Showdown:
    """Progress of a showdown that is waiting for a reshuffle mid tie-break.

    ``contenders`` are the seats still tied in the stage being decided, in
    draw order; ``drawn`` are this pass's draws so far (face up on the table
    until the pass ends, then on the discard pile); ``log`` is every
    tie-break draw of the round so far.

    >>> Showdown(down_winner=None, contenders=(0, 2), drawn=(), log=()).stage
    'down'
    """

    down_winner: int | None
    contenders: tuple[int, ...]
    drawn: tuple[TieBreakDraw, ...]
    log: tuple[TieBreakDraw, ...]

    @property
    def stage(self) -> str:
        """``"down"`` until the 4-card showdown is decided, then ``"back"``.

        >>> Showdown(down_winner=1, contenders=(0, 2), drawn=(), log=()).stage
        'back'
        """
        return "down" if self.down_winner is None else "back"


@attrs.frozen(slots=True)
class RoundResult:
    """The public outcome of a finished round.

    ``pot_winner`` is the player who won both showdowns and took ``pot``
    (DB-43), or None when the pot carried over.

    >>> RoundResult(1, 0, (), 2, 2, (), 4, 2).pot_winner
    2
    """

    round: int
    dealer: int
    splits: tuple[Split, ...]
    down_winner: int
    back_winner: int
    tiebreaks: tuple[TieBreakDraw, ...]
    pot: int
    pot_winner: int | None


@attrs.frozen(slots=True)
class GameState:
    """A complete, immutable Down and Back game state.

    Settings: ``num_players`` (2 to 5), ``ante`` (DB-30) and ``rounds`` (a
    number of rounds, or None for an open-ended game, DB-44).

    The table: ``phase``; ``round`` (1-based); ``dealer`` (None until
    chosen); ``current_player`` (None at chance points and at the end);
    ``pot``; ``net`` (per seat, winnings minus antes); ``hands`` (per seat, in
    the order the cards arrived); ``stock`` (``stock[0]`` on top);
    ``discard`` (``discard[-1]`` on top); ``seen`` (per seat, cards in that hand that
    everyone saw taken from the discard pile, DB-37); ``turns`` (turns each
    seat has finished this round); ``drawn`` (the card drawn this turn, until
    the discard); ``splits`` (per seat, once chosen); ``showdown`` (a
    tie-break waiting for a reshuffle); ``results`` (finished rounds).

    >>> from cardrules.down_and_back import new_game
    >>> s = new_game(4, ante=2, rounds=3)
    >>> s.num_players, s.ante, s.rounds, s.pot, s.net
    (4, 2, 3, 0, (0, 0, 0, 0))
    """

    num_players: int
    ante: int
    rounds: int | None
    phase: Phase
    round: int
    dealer: int | None
    current_player: int | None
    pot: int
    net: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    seen: tuple[tuple[Card, ...], ...]
    turns: tuple[int, ...]
    drawn: Card | None
    splits: tuple[Split | None, ...]
    showdown: Showdown | None
    results: tuple[RoundResult, ...]

    @property
    def is_chance(self) -> bool:
        """True when a chance action (a dealer choice or a shuffle) is due.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).is_chance
        True
        """
        return self.phase.is_chance

    @property
    def is_terminal(self) -> bool:
        """True once the set number of rounds has been played (DB-44).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2, rounds=1).is_terminal
        False
        """
        return self.phase is Phase.GAME_OVER

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the largest net winnings; ties share the lead (DB-44).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(3).leaders
        (0, 1, 2)
        """
        best = max(self.net)
        return tuple(seat for seat, value in enumerate(self.net) if value == best)
