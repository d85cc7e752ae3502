"""The Down and Back reducer: :func:`new_game`, :func:`legal_actions`,
:func:`apply` and :func:`sample_chance` (DB-30 to DB-44).

Everything automatic happens inside :func:`apply`: antes, the deal, moving
the turn, the showdown with its tie-break draws, paying or carrying the pot
and passing the deal.  The caller supplies only decisions and chance events.

>>> import random
>>> from cardrules.down_and_back import new_game, apply, legal_actions, sample_chance
>>> rng = random.Random(3)
>>> state = new_game(3, rounds=1)
>>> while not state.is_terminal:
...     if state.is_chance:
...         action = sample_chance(state, rng)
...     else:
...         action = rng.choice(legal_actions(state))
...     state = apply(state, action)
>>> len(state.results), sum(state.net) + state.pot
(1, 0)

Every new state is built by :class:`~cardrules.down_and_back.GameState`'s own
constructor, each field named (never by position, so that adding or moving a
field cannot shift the others).  It is fast because a state has few fields,
and each action passes on the ones it does not change (the settings, the
books) as they are; ``attrs.evolve`` would cost more than the action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import attrgetter
from types import MappingProxyType

from cardrules._validate import check_seat, is_int
from cardrules.cards import DECK, Card
from cardrules.down_and_back._accel import hand_of_sorted
from cardrules.down_and_back._accel import split_actions as _split_actions
from cardrules.down_and_back.actions import (
    Action,
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    Shuffle,
    Split,
)
from cardrules.down_and_back.showdown import best_seats, draw_order, draw_winners, pot_winner
from cardrules.down_and_back.state import (
    DEFAULT_ROUNDS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURNS,
    GameState,
    History,
    Phase,
    RoundResult,
    Settings,
    Showdown,
    TieBreakDraw,
)
from cardrules.engine.chance import shuffled
from cardrules.errors import IllegalActionError
from cardrules.hand import Hand
from cardrules.i18n import lazy_gettext, lazy_ngettext

__all__ = [
    "DEFAULT_ROUNDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PHASE_RULES",
    "apply",
    "legal_actions",
    "new_game",
    "sample_chance",
    "seat_order",
    "turn_seat",
]

_DRAWS = (DrawStock(), DrawDiscard())
_DRAW_STOCK_ONLY = _DRAWS[:1]
_CUTS = tuple(Cut(n) for n in range(1, 52))
#: ``Discard(card)`` for every card, by card index.
_DISCARDS = tuple(Discard(card) for card in DECK)
_ACTION_TYPES = frozenset({ChooseDealer, Shuffle, Cut, DrawStock, DrawDiscard, Discard, Split})
_INDEX = attrgetter("index")
_ALL_52 = frozenset(range(52))
_EMPTY: Hand[Card] = Hand()
_of_sorted = hand_of_sorted
# The phases as module constants: reading ``Phase.DRAW`` goes through the enum
# class's attribute lookup, which costs more than the rest of a comparison.
_CHOOSE_DEALER = Phase.CHOOSE_DEALER
_SHUFFLE = Phase.SHUFFLE
_CUT = Phase.CUT
_DRAW = Phase.DRAW
_DISCARD = Phase.DISCARD
_RESHUFFLE = Phase.RESHUFFLE
_SPLIT = Phase.SPLIT
_GAME_OVER = Phase.GAME_OVER


def new_game(num_players: int, *, ante: int = 1,
             rounds: int | None = DEFAULT_ROUNDS) -> GameState:
    """The state before the first dealer is chosen (a chance point, DB-31).

    ``num_players`` is 2 to 5, ``ante`` a whole number of chips of at least 1
    (DB-30), ``rounds`` the number of rounds (:data:`DEFAULT_ROUNDS` unless
    given); ``rounds=None`` asks for an open-ended game, which never ends by
    itself (DB-44).  Bad settings raise :class:`ValueError`.

    >>> new_game(4, ante=5, rounds=3).phase
    <Phase.CHOOSE_DEALER: 'choose_dealer'>
    >>> new_game(4).rounds, new_game(4, rounds=None).rounds
    (10, None)
    >>> new_game(6)
    Traceback (most recent call last):
    ...
    ValueError: Down and Back is for 2 to 5 players, not 6
    """
    settings = Settings(num_players=num_players, ante=ante, rounds=rounds)
    n = settings.num_players
    history = History(round=1, dealer=None, pot=0, net=(0,) * n, results=())
    return _gathered(settings, history, _CHOOSE_DEALER)


def _new_state(*, settings: Settings, history: History, phase: Phase,
               current_player: int | None, hands: tuple[Hand[Card], ...],
               stock: tuple[Card, ...], discard: tuple[Card, ...], seen: tuple[Hand[Card], ...],
               turn: int, drawn: Card | None, splits: tuple[Split | None, ...],
               showdown: Showdown | None) -> GameState:
    """``GameState(settings=..., ...)``, each field named, at the cost of a call
    by position: calling a class with keywords makes a dict of them first, which
    costs the reducer about a tenth of an action, while a function takes its
    keywords as they are.  The one positional call is here, in the order of the
    fields; a test checks that this signature lists them in that order."""
    return GameState(settings, history, phase, current_player, hands, stock, discard, seen,
                     turn, drawn, splits, showdown)


def _gathered(settings: Settings, history: History, phase: Phase) -> GameState:
    """A state with every card in the stock, in :data:`~cardrules.DECK` order,
    between rounds (DB-31, DB-32, DB-44): nobody to act, nothing dealt."""
    n = settings.num_players
    return _new_state(settings=settings, history=history, phase=phase, current_player=None,
                      hands=(_EMPTY,) * n, stock=DECK, discard=(), seen=(_EMPTY,) * n, turn=0,
                      drawn=None, splits=(None,) * n, showdown=None)


def seat_order(state: GameState) -> tuple[int, ...]:
    """All seats clockwise starting left of the dealer (DB-33, DB-34, DB-42).

    >>> seat_order(apply(new_game(4), ChooseDealer(2)))
    (3, 0, 1, 2)
    """
    return draw_order(state.history.dealer or 0, state.settings.num_players)


def turn_seat(state: GameState) -> int:
    """The seat whose turn it is while drawing and discarding (DB-34).

    Turns go clockwise from the dealer's left, so after ``turn`` finished
    turns in all it is seat ``(dealer + 1 + turn) mod n``.

    >>> turn_seat(apply(new_game(3), ChooseDealer(0)))
    1
    """
    return ((state.history.dealer or 0) + 1 + state.turn) % state.settings.num_players


# -- legal actions -------------------------------------------------------------

def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player to act, in a stable order.

    Empty at a chance point and at the end.  Cuts come in increasing count,
    discards in the hand's (canonical) order and splits in the order of
    :func:`~cardrules.down_and_back.splits` over the hand.

    >>> s = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
    >>> legal_actions(s)[:2], len(legal_actions(s))
    ((Cut(count=1), Cut(count=2)), 51)
    """
    phase = state.phase
    if phase is _DISCARD:
        hand = state.hands[state.current_player]  # type: ignore[index]
        if len(hand) == HAND_SIZE + 1:  # always, once a card is drawn: spelt out for speed
            d = _DISCARDS
            a, b, c, e, f, g, h, i = hand
            return (d[a.index], d[b.index], d[c.index], d[e.index], d[f.index], d[g.index],
                    d[h.index], d[i.index])
        return tuple([_DISCARDS[card.index] for card in hand])
    if phase is _DRAW:
        return _DRAWS if state.discard else _DRAW_STOCK_ONLY
    if phase is _CUT:
        return _CUTS
    if phase is _SPLIT and state.current_player is not None:
        return split_actions(state.hands[state.current_player])
    return ()


def split_actions(hand: Hand[Card]) -> tuple[Split, ...]:
    """The 35 :class:`~cardrules.down_and_back.Split` actions of a 7-card hand,
    in :func:`~cardrules.down_and_back.splits` order (DB-40); each split's
    sides are in canonical order.

    Built by the C speed-ups where they are installed (about 35 times
    cheaper than 35 Python constructions); not cached, since hashing a hand
    costs more than building its splits again.

    >>> from cardrules import Hand
    >>> actions = split_actions(Hand.parse("AS 2S 3S 4S 5S 6S 7S"))
    >>> len(actions), str(actions[0])
    (35, 'split AS 2S 3S 4S / 5S 6S 7S')
    """
    return _split_actions(hand)


# -- chance --------------------------------------------------------------------

def sample_chance(state: GameState, rng: random.Random) -> ChooseDealer | Shuffle:
    """The chance event due now, drawn uniformly from the caller's ``rng``.

    >>> s = sample_chance(new_game(4), random.Random(1))
    >>> isinstance(s, ChooseDealer) and 0 <= s.seat < 4
    True
    """
    if state.phase is _CHOOSE_DEALER:
        return ChooseDealer(rng.randrange(state.settings.num_players))
    if state.phase is _SHUFFLE:
        return Shuffle(shuffled(DECK, rng))
    if state.phase is _RESHUFFLE:
        return Shuffle(shuffled(state.discard, rng))
    raise IllegalActionError(PHASE_RULES[state.phase], lazy_gettext("no chance event is due now"))


def chance_pile(state: GameState) -> tuple[Card, ...] | None:
    """The cards the chance action due now shuffles: the whole deck before a
    deal (DB-32), the discard pile when the stock runs out (DB-36); None when
    the chance action due is the choice of the first dealer (DB-31).

    >>> chance_pile(new_game(3)) is None
    True
    """
    if state.phase is _CHOOSE_DEALER:
        return None
    if state.phase is _SHUFFLE:
        return DECK
    if state.phase is _RESHUFFLE:
        return state.discard
    raise IllegalActionError(PHASE_RULES[state.phase], lazy_gettext("no chance event is due now"))


#: The rule that governs what may happen in each phase: the id an
#: :class:`~cardrules.IllegalActionError` names when an action does not fit
#: the phase (a read-only mapping).
#:
#: >>> PHASE_RULES[Phase.DRAW]
#: 'DB-34'
PHASE_RULES: Mapping[Phase, str] = MappingProxyType({
    Phase.CHOOSE_DEALER: "DB-31", Phase.SHUFFLE: "DB-32", Phase.CUT: "DB-32",
    Phase.DRAW: "DB-34", Phase.DISCARD: "DB-34", Phase.RESHUFFLE: "DB-36",
    Phase.SPLIT: "DB-40", Phase.GAME_OVER: "DB-44",
})


# -- apply ---------------------------------------------------------------------

def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action``; ``state`` itself is never changed.

    ``seat`` names who is acting; without it the action is
    ``state.current_player``'s, in every phase, so ``apply`` accepts exactly
    the actions :func:`legal_actions` lists.  Servers should pass it: a
    player acting out of turn is refused.  During the split phase any seat
    that has not split yet may act when named (DB-40: the choices are made
    independently, in any order); a record keeps such a split with its seat
    (:class:`~cardrules.engine.records.Seated`).

    An action the rules do not allow now raises
    :class:`~cardrules.IllegalActionError` naming the rule broken.  Input
    that is not an action at all raises :class:`TypeError` (text is read
    with :func:`~cardrules.down_and_back.parse_action` first), and a ``seat``
    that is not a seat at the table (a bool, a float, out of range) raises
    :class:`ValueError`, as :func:`~cardrules.down_and_back.view` does.

    >>> s = apply(new_game(3), ChooseDealer(1))
    >>> s.dealer, s.pot, s.net, s.phase
    (1, 3, (-1, -1, -1), <Phase.SHUFFLE: 'shuffle'>)
    >>> apply(s, DrawStock())
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: DB-32: the dealer must shuffle first (a chance action)
    >>> apply(s, "shuffle")
    Traceback (most recent call last):
    ...
    TypeError: apply() takes an action object, not text: read 'shuffle' with parse_action() first
    """
    if type(action) not in _ACTION_TYPES and not isinstance(action, _ACTION_CLASSES):
        _not_an_action(action)
    phase = state.phase
    if seat is not None:
        check_seat(seat, state.settings.num_players)
        if phase is _DISCARD or phase is _DRAW or phase is _CUT:
            _check_actor(state, seat)
    if phase is _DISCARD:
        return _discard(state, action)
    if phase is _DRAW:
        return _draw(state, action)
    if phase is _GAME_OVER:
        raise IllegalActionError("DB-44", lazy_ngettext(
            "the game is over after {n} round", "the game is over after {n} rounds",
            state.rounds or 0))
    if phase in _CHANCE:
        if seat is not None:
            raise IllegalActionError(PHASE_RULES[phase], lazy_gettext(
                "a chance event is due, not a player"))
        return _apply_chance(state, action)
    if isinstance(action, ChooseDealer | Shuffle):
        raise IllegalActionError(PHASE_RULES[phase], lazy_gettext("no chance event is due now"))
    if phase is _SPLIT:
        return _split(state, action, state.current_player if seat is None else seat)
    return _cut(state, action)


_CHANCE = (_CHOOSE_DEALER, _SHUFFLE, _RESHUFFLE)
_ACTION_CLASSES = tuple(_ACTION_TYPES)


def _not_an_action(action: object) -> None:
    if isinstance(action, str):
        raise TypeError(f"apply() takes an action object, not text: read {action[:40]!r} "
                        "with parse_action() first")
    raise TypeError(f"apply() takes a Down and Back action, not {type(action).__name__}")


def _check_actor(state: GameState, seat: int) -> None:
    """DB-32/DB-34: only the player whose turn it is may act."""
    if seat != state.current_player:
        raise IllegalActionError(PHASE_RULES[state.phase], lazy_gettext(
            "it is seat {actor}'s turn, not seat {seat}'s", actor=state.current_player,
            seat=seat))


def _apply_chance(state: GameState, action: Action) -> GameState:
    phase = state.phase
    if phase is _CHOOSE_DEALER:
        if not isinstance(action, ChooseDealer):
            raise IllegalActionError("DB-31", lazy_gettext("the first dealer must be chosen first"))
        if action.seat >= state.settings.num_players:
            raise IllegalActionError("DB-31", lazy_gettext("there is no seat {seat}",
                                                            seat=action.seat))
        return _start_round(state.settings, state.history, state.history.round, action.seat)
    if phase is _SHUFFLE:
        if not isinstance(action, Shuffle):
            raise IllegalActionError("DB-32", lazy_gettext(
                "the dealer must shuffle first (a chance action)"))
        if len(action.order) != 52 or {card.index for card in action.order} != _ALL_52:
            raise IllegalActionError("DB-32", lazy_gettext("the shuffle must order all 52 cards"))
        cutter = (_dealer(state) - 1) % state.settings.num_players
        return _new_state(settings=state.settings, history=state.history, phase=_CUT,
                          current_player=cutter, hands=state.hands,
                          stock=action.order, discard=(),  # type: ignore[arg-type]
                          seen=state.seen, turn=0, drawn=None, splits=state.splits,
                          showdown=None)
    if not isinstance(action, Shuffle):
        raise IllegalActionError("DB-36", lazy_gettext(
            "the stock is empty: the discard pile is shuffled"))
    if len(action.order) != len(state.discard) or \
            {card.index for card in action.order} != {card.index for card in state.discard}:
        raise IllegalActionError("DB-36", lazy_gettext(
            "the reshuffle must order exactly the discard pile"))
    order: tuple[Card, ...] = action.order  # type: ignore[assignment]
    if state.showdown is not None:
        return _run_showdown(state, state.showdown, order[1:], order[:1])
    return _new_state(settings=state.settings, history=state.history, phase=_DISCARD,
                      current_player=turn_seat(state), hands=state.hands, stock=order[1:],
                      discard=order[:1], seen=state.seen, turn=state.turn, drawn=state.drawn,
                      splits=state.splits, showdown=None)


def _dealer(state: GameState) -> int:
    dealer = state.history.dealer
    assert dealer is not None
    return dealer


def _start_round(settings: Settings, history: History, round_number: int,
                 dealer: int) -> GameState:
    """Round ``round_number`` dealt by ``dealer``: the cards gathered, the antes
    taken (DB-30), the dealer about to shuffle."""
    n, ante = settings.num_players, settings.ante
    books = History(round=round_number, dealer=dealer, pot=history.pot + n * ante,
                    net=tuple(v - ante for v in history.net), results=history.results)
    return _gathered(settings, books, _SHUFFLE)


def _cut(state: GameState, action: Action) -> GameState:
    if not isinstance(action, Cut):
        raise IllegalActionError("DB-32", lazy_gettext("seat {seat} must cut the deck",
                                                          seat=state.current_player))
    count = action.count
    if not is_int(count) or not 1 <= count <= 51:
        raise IllegalActionError("DB-32", lazy_gettext("a cut lifts 1 to 51 cards, not {count}",
                                                          count=repr(count)))
    deck = state.stock[count:] + state.stock[:count]
    # DB-33: one card at a time, clockwise from the dealer's left, then one face up.
    n = state.settings.num_players
    dealt = HAND_SIZE * n
    order = seat_order(state)
    hands: list[Hand[Card]] = [_EMPTY] * n
    for position, seat in enumerate(order):
        hands[seat] = _of_sorted(sorted(deck[position:dealt:n], key=_INDEX))
    return _new_state(settings=state.settings, history=state.history, phase=_DRAW,
                      current_player=order[0], hands=tuple(hands), stock=deck[dealt + 1:],
                      discard=(deck[dealt],), seen=state.seen, turn=0, drawn=None,
                      splits=state.splits, showdown=None)


def _place(cards: tuple[Card, ...], key: int) -> int:
    """Where the card with index ``key`` is, or would go, among ``cards`` (in
    canonical order).  A plain scan: hands hold at most eight cards."""
    place = 0
    for card in cards:
        if card.index >= key:
            return place
        place += 1
    return place


def _draw(state: GameState, action: Action) -> GameState:
    seat: int = state.current_player  # type: ignore[assignment]
    hands = state.hands
    kind = type(action)
    if kind is DrawStock:
        stock = state.stock
        card = stock[0]
        hand = hands[seat]
        place = _place(hand, card.index)
        hands = (*hands[:seat], _of_sorted((*hand[:place], card, *hand[place:])),
                 *hands[seat + 1:])
        if len(stock) > 1:
            return _new_state(settings=state.settings, history=state.history, phase=_DISCARD,
                              current_player=seat, hands=hands, stock=stock[1:],
                              discard=state.discard, seen=state.seen, turn=state.turn,
                              drawn=card, splits=state.splits, showdown=None)
        # DB-36: the stock ran out; the dealer reshuffles the discard pile.
        return _new_state(settings=state.settings, history=state.history, phase=_RESHUFFLE,
                          current_player=None, hands=hands, stock=(), discard=state.discard,
                          seen=state.seen, turn=state.turn, drawn=card, splits=state.splits,
                          showdown=None)
    if kind is DrawDiscard:
        discard = state.discard
        if not discard:
            raise IllegalActionError("DB-34", lazy_gettext(
                "the discard pile is empty; draw from the stock"))
        card = discard[-1]
        key = card.index
        hand, seen = hands[seat], state.seen
        place = _place(hand, key)
        hands = (*hands[:seat], _of_sorted((*hand[:place], card, *hand[place:])),
                 *hands[seat + 1:])
        own = seen[seat]
        place = _place(own, key)
        seen = (*seen[:seat], _of_sorted((*own[:place], card, *own[place:])), *seen[seat + 1:])
        return _new_state(settings=state.settings, history=state.history, phase=_DISCARD,
                          current_player=seat, hands=hands, stock=state.stock,
                          discard=discard[:-1], seen=seen, turn=state.turn, drawn=card,
                          splits=state.splits, showdown=None)
    raise IllegalActionError("DB-34", lazy_gettext(
        "a turn starts by drawing from the stock or the discard pile"))


def _discard(state: GameState, action: Action) -> GameState:
    seat: int = state.current_player  # type: ignore[assignment]
    if type(action) is not Discard:
        raise IllegalActionError("DB-34", lazy_gettext("you have drawn; now discard one card"))
    card = action.card
    key = card.index
    hands = state.hands
    hand = hands[seat]
    place = _place(hand, key)
    if place == len(hand) or hand[place].index != key:
        raise IllegalActionError("DB-34", lazy_gettext("seat {seat} does not hold {card}",
                                                          seat=seat, card=card))
    hands = (*hands[:seat], _of_sorted((*hand[:place], *hand[place + 1:])), *hands[seat + 1:])
    seen = state.seen
    own = seen[seat]
    if own:  # DB-37: a seen card that leaves the hand is no longer "seen in it"
        at = _place(own, key)
        if at < len(own) and own[at].index == key:
            seen = (*seen[:seat], _of_sorted((*own[:at], *own[at + 1:])), *seen[seat + 1:])
    turn = state.turn + 1
    n = state.settings.num_players
    if turn == TURNS * n:  # DB-35: the dealer's sixth turn is over
        phase, next_player = _SPLIT, (_dealer(state) + 1) % n
    else:
        phase, next_player = _DRAW, (seat + 1) % n
    return _new_state(settings=state.settings, history=state.history, phase=phase,
                      current_player=next_player, hands=hands, stock=state.stock,
                      discard=(*state.discard, hand[place]), seen=seen, turn=turn, drawn=None,
                      splits=state.splits, showdown=None)


def _split(state: GameState, action: Action, seat: int | None) -> GameState:
    if not isinstance(action, Split):
        raise IllegalActionError("DB-40", lazy_gettext(
            "every player must now split their seven cards"))
    if seat is None or state.splits[seat] is not None:
        raise IllegalActionError("DB-40", lazy_gettext("seat {seat} has no split to make",
                                                          seat=seat))
    if len(action.down) != 4 or len(action.back) != 3:
        raise IllegalActionError("DB-40", lazy_gettext(
            "a split is a 4-card down hand and a 3-card back hand"))
    if sorted([card.index for card in (*action.down, *action.back)]) != \
            [card.index for card in state.hands[seat]]:
        raise IllegalActionError("DB-40", lazy_gettext(
            "the split must use exactly seat {seat}'s seven cards", seat=seat))
    splits = (*state.splits[:seat], action, *state.splits[seat + 1:])
    waiting = [s for s in seat_order(state) if splits[s] is None]
    revealed = _new_state(settings=state.settings, history=state.history, phase=_SPLIT,
                          current_player=waiting[0] if waiting else None, hands=state.hands,
                          stock=state.stock, discard=state.discard, seen=state.seen,
                          turn=state.turn, drawn=None, splits=splits, showdown=None)
    if waiting:
        return revealed
    start = Showdown(down_winner=None, contenders=(), drawn=(), log=())
    return _run_showdown(revealed, start, state.stock, state.discard)


# -- showdown (DB-41 .. DB-43) -----------------------------------------------------

def _run_showdown(state: GameState, progress: Showdown, stock: tuple[Card, ...],
                  discard: tuple[Card, ...]) -> GameState:
    """Decide the down, then the back showdown (DB-41), then finish the round.

    ``progress`` says where the showdown stands (at its start, or where it
    paused); ``stock`` and ``discard`` are the piles now.  Each stage is
    decided by :func:`_decide_stage`, which stops early when the stock runs
    out during a tie-break: the showdown then pauses for a reshuffle.
    """
    while True:
        winner, progress, stock, discard = _decide_stage(state, progress, stock, discard)
        if winner is None:
            return _pause_for_reshuffle(state, progress, discard)
        if progress.down_winner is None:
            progress = Showdown(down_winner=winner, contenders=(), drawn=(), log=progress.log)
            continue
        return _finish_round(state, progress.down_winner, winner, progress.log)


def _decide_stage(state: GameState, progress: Showdown, stock: tuple[Card, ...],
                  discard: tuple[Card, ...]
                  ) -> tuple[int | None, Showdown, tuple[Card, ...], tuple[Card, ...]]:
    """Decide the stage ``progress`` is in: ``(winner, progress, stock, discard)``.

    The best hand wins (DB-41); players tied for it draw the top card of
    the stock in turn, in seat order from the dealer's left, the highest
    rank winning and the still tied drawing again (DB-42), as the functions
    of :mod:`~cardrules.down_and_back.showdown` say; each finished pass of
    draws goes onto the discard pile.  If a draw empties the stock
    the winner is None and ``progress`` holds the tie-break as it stands,
    to resume after the reshuffle (DB-36).
    """
    stage = progress.stage
    contenders, drawn, log = progress.contenders, progress.drawn, progress.log
    if not contenders:
        splits: tuple[Split, ...] = state.splits  # type: ignore[assignment]
        tied = best_seats(splits, stage, seat_order(state))
        if len(tied) == 1:
            return tied[0], progress, stock, discard
        contenders = tied
    while True:
        done = {draw.seat for draw in drawn}
        pending = [seat for seat in contenders if seat not in done]
        if pending:
            draw = TieBreakDraw(stage=stage, seat=pending[0], card=stock[0])
            stock = stock[1:]
            drawn, log = (*drawn, draw), (*log, draw)
            if not stock:
                waiting = Showdown(down_winner=progress.down_winner, contenders=contenders,
                                   drawn=drawn, log=log)
                return None, waiting, stock, discard
            continue
        still = draw_winners(drawn)
        discard = discard + tuple(draw.card for draw in drawn)
        drawn = ()
        if len(still) == 1:
            decided = Showdown(down_winner=progress.down_winner, contenders=(), drawn=(), log=log)
            return still[0], decided, stock, discard
        contenders = still


def _pause_for_reshuffle(state: GameState, waiting: Showdown,
                         discard: tuple[Card, ...]) -> GameState:
    """DB-36 during a tie-break: the dealer shuffles the discard pile (a chance
    event); the cards of the unfinished pass stay on the table in ``waiting``."""
    return _new_state(settings=state.settings, history=state.history, phase=_RESHUFFLE,
                      current_player=None, hands=state.hands, stock=(), discard=discard,
                      seen=state.seen, turn=state.turn, drawn=None, splits=state.splits,
                      showdown=waiting)


def _finish_round(state: GameState, down_winner: int, back_winner: int,
                  log: tuple[TieBreakDraw, ...]) -> GameState:
    """Pay or carry the pot (DB-43), record the round, then gather the cards and
    either end the game (DB-44) or pass the deal and start the next round (DB-31)."""
    settings, history = state.settings, state.history
    pot, net = history.pot, history.net
    taker = pot_winner(down_winner, back_winner)
    if taker is not None:
        net = (*net[:taker], net[taker] + pot, *net[taker + 1:])
    splits: tuple[Split, ...] = state.splits  # type: ignore[assignment]
    result = RoundResult(round=history.round, dealer=_dealer(state), splits=splits,
                         down_winner=down_winner, back_winner=back_winner, tiebreaks=log,
                         pot=pot, pot_winner=taker)
    books = History(round=history.round, dealer=history.dealer,
                    pot=0 if taker is not None else pot, net=net,
                    results=(*history.results, result))
    if settings.rounds is not None and history.round >= settings.rounds:
        return _gathered(settings, books, _GAME_OVER)
    return _start_round(settings, books, history.round + 1,
                        (_dealer(state) + 1) % settings.num_players)
