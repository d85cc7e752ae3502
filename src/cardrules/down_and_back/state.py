"""The Down and Back game state: an immutable record of everything at the table.

States are made by :func:`~cardrules.down_and_back.new_game` and
:func:`~cardrules.down_and_back.apply`; you never build one by hand (loading
from JSON validates everything, see :mod:`cardrules.down_and_back.serialize`).

A state has few fields, so that each action copies little: the settings
(:class:`Settings`, fixed for the game), the books (:class:`History`,
changed once a round), and the table as it is now.  The facts a seat's
:class:`~cardrules.down_and_back.View` holds as fields (``num_players``,
``ante``, ``rounds``, ``round``, ``dealer``, ``pot``, ``net``, ``results``,
``turns``) are read-only properties of the state, under the same names.

Each seat's hand is a :class:`~cardrules.Hand` (cards in canonical order).
Piles are tuples of cards: ``stock[0]`` is the top of the stock and
``discard[-1]`` the top of the discard pile.  Between rounds all 52 cards
lie in the stock in :data:`~cardrules.DECK` order, waiting for the shuffle.

>>> from cardrules.down_and_back import new_game
>>> state = new_game(3)
>>> state.phase, state.is_chance, state.current_player, state.round
(<Phase.CHOOSE_DEALER: 'choose_dealer'>, True, None, 1)
>>> print(state.phase)
CHOOSE_DEALER
"""

from __future__ import annotations

import enum
from typing import Protocol

import attrs

from cardrules._validate import require_int
from cardrules.cards import Card
from cardrules.down_and_back.actions import Split
from cardrules.hand import Hand
from cardrules.i18n import NP_, gettext, ngettext, pgettext

__all__ = [
    "DEFAULT_ROUNDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "GameState",
    "History",
    "Phase",
    "RoundResult",
    "Settings",
    "Showdown",
    "Stage",
    "TieBreakDraw",
    "phase_name",
    "stage_name",
]

#: Cards dealt to each player (DB-33) and turns each player takes (DB-35).
HAND_SIZE = 7
TURNS = 6
#: Table sizes Down and Back is played at.
MIN_PLAYERS = 2
MAX_PLAYERS = 5
#: The number of rounds of a game unless told otherwise; the one default shared by
#: :func:`~cardrules.down_and_back.new_game`, :func:`~cardrules.down_and_back.play_game`
#: and the ``cardrules play`` command.  An open-ended game (DB-44) is asked for with
#: ``rounds=None``.
DEFAULT_ROUNDS = 10


class Phase(enum.Enum):
    """Where the game stands; the chance phases are marked in the docs of each.

    ``str()`` gives the name.

    >>> Phase.DRAW.value, str(Phase.DRAW)
    ('draw', 'DRAW')
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
        return self in _CHANCE_PHASES

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)


_CHANCE_PHASES = (Phase.CHOOSE_DEALER, Phase.SHUFFLE, Phase.RESHUFFLE)
_GAME_OVER = Phase.GAME_OVER  # a module constant is read faster than the enum attribute


class Stage(enum.Enum):
    """The two showdowns of a round, decided in this order (DB-41).

    >>> [str(stage) for stage in Stage], Stage("back")
    (['DOWN', 'BACK'], <Stage.BACK: 'back'>)
    """

    DOWN = "down"  #: the 4-card hands
    BACK = "back"  #: the 3-card hands

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)


@attrs.frozen(slots=True)
class TieBreakDraw:
    """One card drawn from the stock to break a tie (DB-42) in ``stage``.

    >>> from cardrules import parse_card
    >>> draw = TieBreakDraw(Stage.DOWN, 2, parse_card("KS"))
    >>> draw.card.rank, str(draw)
    (<Rank.KING: 13>, 'DOWN: seat 2 drew KS')
    """

    stage: Stage
    seat: int
    card: Card

    def __str__(self) -> str:
        return gettext("{stage}: seat {seat} drew {card}").format(
            stage=stage_name(self.stage), seat=self.seat, card=self.card)


@attrs.frozen(slots=True)
class Showdown:
    """Progress of a showdown that is waiting for a reshuffle mid tie-break.

    ``contenders`` are the seats still tied in the stage being decided, in
    draw order; ``drawn`` are this pass's draws so far (face up on the table
    until the pass ends, then on the discard pile); ``log`` is every
    tie-break draw of the round so far.

    >>> Showdown(down_winner=None, contenders=(0, 2), drawn=(), log=()).stage
    <Stage.DOWN: 'down'>
    """

    down_winner: int | None
    contenders: tuple[int, ...]
    drawn: tuple[TieBreakDraw, ...]
    log: tuple[TieBreakDraw, ...]

    @property
    def stage(self) -> Stage:
        """:attr:`Stage.DOWN` until the 4-card showdown is decided, then :attr:`Stage.BACK`.

        >>> Showdown(down_winner=1, contenders=(0, 2), drawn=(), log=()).stage
        <Stage.BACK: 'back'>
        """
        return Stage.DOWN if self.down_winner is None else Stage.BACK


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


def _check_players(instance: object, attribute: object, value: int) -> None:
    require_int("the number of players", value)
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise ValueError(f"Down and Back is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {value!r}")


def _check_ante(instance: object, attribute: object, value: int) -> None:
    require_int("ante", value, minimum=1)


def _check_rounds(instance: object, attribute: object, value: int | None) -> None:
    if value is not None:
        require_int("rounds", value, minimum=1)


def returns(state: GameState) -> tuple[int, ...]:
    """What each seat has won so far: its net chips, winnings minus antes (DB-44).

    >>> from cardrules.down_and_back import new_game
    >>> returns(new_game(3))
    (0, 0, 0)
    """
    return state.history.net


@attrs.frozen(slots=True)
class Settings:
    """A game's settings, fixed from start to end.

    ``num_players`` is 2 to 5, ``ante`` a whole number of chips of at least 1
    (DB-30), ``rounds`` a number of rounds of at least 1, or None for an
    open-ended game (DB-44).  Bad values raise :class:`ValueError`.

    >>> Settings(4, 1, 10).rounds
    10
    >>> Settings(6, 1, 10)
    Traceback (most recent call last):
    ...
    ValueError: Down and Back is for 2 to 5 players, not 6
    >>> Settings(2, True, 10)
    Traceback (most recent call last):
    ...
    ValueError: ante must be a whole number of at least 1, not True
    """

    num_players: int = attrs.field(validator=_check_players)
    ante: int = attrs.field(validator=_check_ante)
    rounds: int | None = attrs.field(validator=_check_rounds)


@attrs.frozen(slots=True)
class History:
    """The game's books: the round being played (1-based), its dealer (None
    until chosen), the ``pot``, each seat's ``net`` winnings (winnings minus
    antes) and the ``results`` of the finished rounds.

    >>> History(1, None, 0, (0, 0), ()).pot
    0
    """

    round: int
    dealer: int | None
    pot: int
    net: tuple[int, ...]
    results: tuple[RoundResult, ...]


@attrs.frozen(slots=True, repr=False)
class GameState:
    """A complete, immutable Down and Back game state.

    Fields: ``settings`` (:class:`Settings`); ``history``
    (:class:`History`); ``phase``; ``current_player`` (None at chance points
    and at the end); ``hands`` (one :class:`~cardrules.Hand` per seat);
    ``stock`` (``stock[0]`` on top); ``discard`` (``discard[-1]`` on top);
    ``seen`` (per seat, the cards in that hand that everyone saw taken from
    the discard pile, DB-37, as a :class:`~cardrules.Hand`); ``turn`` (turns
    finished this round by all seats together); ``drawn`` (the card drawn
    this turn, until the discard); ``splits`` (per seat, once chosen);
    ``showdown`` (a tie-break waiting for a reshuffle).

    The settings and the books are also read directly: ``num_players``,
    ``ante``, ``rounds``, ``round``, ``dealer``, ``pot``, ``net``,
    ``results``; ``turns`` gives the turns finished per seat.

    ``str(state)`` is a compact table of everything, hidden cards included
    (a player's picture is ``str(view(state, seat))``).

    >>> from cardrules.down_and_back import new_game
    >>> s = new_game(4, ante=2, rounds=3)
    >>> s.num_players, s.ante, s.rounds, s.pot, s.net
    (4, 2, 3, 0, (0, 0, 0, 0))
    >>> print(s)
    Down and Back: 4 players, ante 2, round 1 of 3, no dealer yet
    phase CHOOSE_DEALER (chance), pot 0
    seat 0  net +0  turns 0  hand -
    seat 1  net +0  turns 0  hand -
    seat 2  net +0  turns 0  hand -
    seat 3  net +0  turns 0  hand -
    stock 52 cards, top AS;  discard 0 cards
    """

    settings: Settings
    history: History
    phase: Phase
    current_player: int | None
    hands: tuple[Hand[Card], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    seen: tuple[Hand[Card], ...]
    turn: int
    drawn: Card | None
    splits: tuple[Split | None, ...]
    showdown: Showdown | None

    # -- settings and books ------------------------------------------------------

    @property
    def num_players(self) -> int:
        """The number of seats (2 to 5).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(5).num_players
        5
        """
        return self.settings.num_players

    @property
    def ante(self) -> int:
        """The chips each player puts in before each deal (DB-30).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2, ante=3).ante
        3
        """
        return self.settings.ante

    @property
    def rounds(self) -> int | None:
        """The number of rounds, or None for an open-ended game (DB-44).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).rounds, new_game(2, rounds=None).rounds
        (10, None)
        """
        return self.settings.rounds

    @property
    def round(self) -> int:
        """The round being played, from 1.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).round
        1
        """
        return self.history.round

    @property
    def dealer(self) -> int | None:
        """This round's dealer, or None before the first is chosen (DB-31).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).dealer is None
        True
        """
        return self.history.dealer

    @property
    def pot(self) -> int:
        """The chips in the pot (DB-30, DB-43).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).pot
        0
        """
        return self.history.pot

    @property
    def net(self) -> tuple[int, ...]:
        """Each seat's winnings minus antes paid (DB-44).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(3).net
        (0, 0, 0)
        """
        return self.history.net

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The finished rounds, oldest first.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(3).results
        ()
        """
        return self.history.results

    @property
    def turns(self) -> tuple[int, ...]:
        """Turns each seat has finished this round (DB-35).

        Turns go clockwise from the dealer's left, so the first
        ``turn mod n`` seats in that order have had one turn more.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(3).turns
        (0, 0, 0)
        """
        n, turn = self.settings.num_players, self.turn
        first = ((self.history.dealer or 0) + 1) % n
        laps, extra = divmod(turn, n)
        return tuple(laps + ((seat - first) % n < extra) for seat in range(n))

    # -- where the game stands -----------------------------------------------------

    @property
    def is_chance(self) -> bool:
        """True when a chance action (a dealer choice or a shuffle) is due.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).is_chance
        True
        """
        # Nobody acts exactly at chance points and at the end (an invariant).
        return self.current_player is None and self.phase is not _GAME_OVER

    @property
    def is_terminal(self) -> bool:
        """True once the set number of rounds has been played (DB-44).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2, rounds=1).is_terminal
        False
        """
        return self.phase is _GAME_OVER

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the largest net winnings; ties share the lead (DB-44).

        >>> from cardrules.down_and_back import new_game
        >>> new_game(3).leaders
        (0, 1, 2)
        """
        net = self.history.net
        best = max(net)
        return tuple(seat for seat, value in enumerate(net) if value == best)

    def __repr__(self) -> str:
        return (f"<GameState round {self.round}, {self.phase}, "
                f"{self.num_players} players, pot {self.pot}>")

    def __str__(self) -> str:
        shown = []
        for hand in self.hands:
            text = gettext("hand {cards}").format(cards=_cards(hand))
            if self.drawn is not None and self.drawn in hand:
                text += gettext("  drew {card}").format(card=self.drawn)
            shown.append(text)
        stock = self.stock
        return "\n".join(table_lines(self, None, shown, len(stock), stock[0] if stock else None,
                                     tuple(split is not None for split in self.splits)))

    def _repr_svg_(self) -> str:
        """An SVG picture of the table for notebooks; imports the pictures lazily."""
        from cardrules.down_and_back.pictures import state_svg
        return state_svg(self)

    def _repr_html_(self) -> str:
        """The SVG picture in HTML, for notebooks."""
        from cardrules.down_and_back.pictures import state_html
        return state_html(self)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards)) or "-"


def _pile(stock: bool, size: int, top: Card | None) -> str:
    text = (ngettext("stock {n} card", "stock {n} cards", size) if stock
            else ngettext("discard {n} card", "discard {n} cards", size)).format(n=size)
    return text if top is None else text + pgettext("summary", ", top {card}").format(card=top)


def stage_name(stage: Stage) -> str:
    """The name of a showdown stage for people (``DOWN``, ``BACK`` in English).

    >>> from cardrules import language
    >>> stage_name(Stage.DOWN)
    'DOWN'
    >>> with language("ja"):
    ...     stage_name(Stage.BACK)
    'バック'
    """
    if stage is Stage.DOWN:
        return pgettext("showdown stage", "DOWN")
    return pgettext("showdown stage", "BACK")


def phase_name(phase: Phase) -> str:
    """The name of ``phase`` for people (``str(phase)`` in English).

    >>> from cardrules import language
    >>> phase_name(Phase.SPLIT)
    'SPLIT'
    >>> with language("uk"):
    ...     phase_name(Phase.SPLIT)
    'розклад'
    """
    return pgettext("phase, in a picture", _PHASE_NAMES[phase])


_PHASE_NAMES = {Phase.CHOOSE_DEALER: NP_("phase, in a picture", "CHOOSE_DEALER"),
                Phase.SHUFFLE: NP_("phase, in a picture", "SHUFFLE"),
                Phase.CUT: NP_("phase, in a picture", "CUT"),
                Phase.DRAW: NP_("phase, in a picture", "DRAW"),
                Phase.DISCARD: NP_("phase, in a picture", "DISCARD"),
                Phase.RESHUFFLE: NP_("phase, in a picture", "RESHUFFLE"),
                Phase.SPLIT: NP_("phase, in a picture", "SPLIT"),
                Phase.GAME_OVER: NP_("phase, in a picture", "GAME_OVER")}


def table_lines(facts: GameState | _TableFacts, seat: int | None, shown: list[str],
                stock_size: int, stock_top: Card | None,
                split_chosen: tuple[bool, ...]) -> list[str]:
    """The lines of ``str()`` of a state (``seat`` None) or of a seat's view.

    ``facts`` is the state or the view (the attributes both have); ``shown``
    is what the reader may see of each seat's hand, and ``split_chosen``
    who has split.  Cards seen taken from the discard pile (DB-37), splits
    once revealed (DB-40), the discard pile and the money are public.

    >>> from cardrules.down_and_back import new_game
    >>> table_lines(new_game(2), 1, ["-", "-"], 52, None, (False, False))[-1]
    'stock 52 cards;  discard 0 cards'
    """
    n = facts.num_players
    dealer = gettext("no dealer yet") if facts.dealer is None else gettext(
        "dealer seat {seat}").format(seat=facts.dealer)
    fields = {"ante": facts.ante, "round": facts.round, "dealer": dealer}
    if facts.rounds is None:
        head = ngettext("Down and Back: {n} player, ante {ante}, round {round} open-ended, "
                        "{dealer}", "Down and Back: {n} players, ante {ante}, round {round} "
                        "open-ended, {dealer}", n).format(n=n, **fields)
    else:
        head = ngettext("Down and Back: {n} player, ante {ante}, round {round} of {rounds}, "
                        "{dealer}", "Down and Back: {n} players, ante {ante}, round {round} of "
                        "{rounds}, {dealer}", n).format(n=n, rounds=facts.rounds, **fields)
    if seat is not None:
        head += gettext("; you are seat {seat}").format(seat=seat)
    phase = phase_name(facts.phase)
    if facts.current_player is not None:
        state = gettext("phase {phase}, seat {seat} to act, pot {pot}").format(
            phase=phase, seat=facts.current_player, pot=facts.pot)
    elif facts.phase.is_chance:
        state = gettext("phase {phase} (chance), pot {pot}").format(phase=phase, pot=facts.pot)
    else:
        state = gettext("phase {phase}, pot {pot}").format(phase=phase, pot=facts.pot)
    lines = [head, state]
    for other in range(n):
        text = shown[other]
        split = facts.splits[other]
        if split is not None:
            text += gettext("  split {down} / {back}").format(down=_cards(split.down),
                                                             back=_cards(split.back))
        elif split_chosen[other]:
            text += gettext("  (has split)")
        if facts.seen[other]:
            text += gettext("  seen {cards}").format(cards=_cards(facts.seen[other]))
        lines.append(gettext("seat {seat}  net {net}  turns {turns}  {text}").format(
            seat=other, net=f"{facts.net[other]:+d}", turns=facts.turns[other], text=text))
    discard = facts.discard
    lines.append(f"{_pile(True, stock_size, stock_top)};  "
                 f"{_pile(False, len(discard), discard[-1] if discard else None)}")
    showdown = facts.showdown
    if showdown is not None:
        draws = ", ".join(str(d) for d in showdown.drawn) or gettext("none yet")
        lines.append(gettext("tie-break {stage}: seats {seats}; on the table: {draws}").format(
            stage=stage_name(showdown.stage), seats=", ".join(map(str, showdown.contenders)),
            draws=draws))
    return lines


class _TableFacts(Protocol):
    """What :func:`table_lines` reads: attributes a state and a view share."""

    @property
    def num_players(self) -> int: ...

    @property
    def ante(self) -> int: ...

    @property
    def rounds(self) -> int | None: ...

    @property
    def round(self) -> int: ...

    @property
    def dealer(self) -> int | None: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def pot(self) -> int: ...

    @property
    def net(self) -> tuple[int, ...]: ...

    @property
    def turns(self) -> tuple[int, ...]: ...

    @property
    def seen(self) -> tuple[Hand[Card], ...]: ...

    @property
    def splits(self) -> tuple[Split | None, ...]: ...

    @property
    def discard(self) -> tuple[Card, ...]: ...

    @property
    def showdown(self) -> Showdown | None: ...
