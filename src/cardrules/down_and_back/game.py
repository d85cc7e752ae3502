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
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import repeat
from operator import attrgetter

import attrs

from cardrules.cards import DECK, Card
from cardrules.down_and_back._accel import strength3, strength4
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
from cardrules.down_and_back.evaluate import SPLIT_GETTERS
from cardrules.down_and_back.state import (
    HAND_SIZE,
    TURNS,
    GameState,
    Phase,
    RoundResult,
    Showdown,
    TieBreakDraw,
)
from cardrules.engine.chance import shuffled
from cardrules.errors import IllegalActionError

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "apply",
    "legal_actions",
    "new_game",
    "sample_chance",
    "seat_order",
    "turn_seat",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 5
_DRAW_STOCK = DrawStock()
_DRAW_DISCARD = DrawDiscard()
_CUTS = tuple(Cut(n) for n in range(1, 52))
_DISCARDS = {card: Discard(card) for card in DECK}
_FIELDS = tuple(a.name for a in attrs.fields(GameState))
_FIELD_NO = {name: number for number, name in enumerate(_FIELDS)}
_get_fields = attrgetter(*_FIELDS)
_new_state = object.__new__
_set = object.__setattr__


def _evolve(state: GameState, **changes: object) -> GameState:
    """``attrs.evolve`` without re-running ``__init__``: the reducer only ever
    passes values of the right types, and this runs on every action, so the
    copying is done by C loops."""
    values = list(_get_fields(state))
    for name, value in changes.items():
        values[_FIELD_NO[name]] = value
    new = _new_state(GameState)
    deque(map(_set, repeat(new), _FIELDS, values), maxlen=0)
    return new


def _positive_int(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive int, not {value!r}")
    return value


def new_game(num_players: int, *, ante: int = 1, rounds: int | None = None) -> GameState:
    """The state before the first dealer is chosen (a chance point, DB-31).

    ``num_players`` is 2 to 5, ``ante`` a positive number of chips (DB-30),
    ``rounds`` a positive number of rounds or None for an open-ended game
    (DB-44).  Bad settings raise :class:`ValueError`.

    >>> new_game(4, ante=5, rounds=10).phase
    <Phase.CHOOSE_DEALER: 'choose_dealer'>
    >>> new_game(6)
    Traceback (most recent call last):
    ...
    ValueError: Down and Back is for 2 to 5 players, not 6
    """
    if (not isinstance(num_players, int) or isinstance(num_players, bool)
            or not MIN_PLAYERS <= num_players <= MAX_PLAYERS):
        raise ValueError(f"Down and Back is for 2 to 5 players, not {num_players!r}")
    _positive_int("ante", ante)
    if rounds is not None:
        _positive_int("rounds", rounds)
    n = num_players
    return GameState(
        num_players=n, ante=ante, rounds=rounds, phase=Phase.CHOOSE_DEALER, round=1,
        dealer=None, current_player=None, pot=0, net=(0,) * n, hands=((),) * n,
        stock=DECK, discard=(), seen=((),) * n, turns=(0,) * n, drawn=None,
        splits=(None,) * n, showdown=None, results=())


def seat_order(state: GameState) -> tuple[int, ...]:
    """All seats clockwise starting left of the dealer (DB-33, DB-34, DB-42).

    >>> seat_order(apply(new_game(4), ChooseDealer(2)))
    (3, 0, 1, 2)
    """
    n, dealer = state.num_players, state.dealer or 0
    return tuple((dealer + 1 + k) % n for k in range(n))


def turn_seat(state: GameState) -> int:
    """The seat whose turn it is while drawing and discarding (DB-34).

    Turns go clockwise from the dealer's left, so after ``k`` finished turns
    in all it is seat ``(dealer + 1 + k) mod n``.

    >>> turn_seat(apply(new_game(3), ChooseDealer(0)))
    1
    """
    return ((state.dealer or 0) + 1 + sum(state.turns)) % state.num_players


# -- legal actions -------------------------------------------------------------

def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player to act, in a stable order.

    Empty at a chance point and at the end.  Cuts come in increasing count,
    discards in hand order and splits in the order of
    ``itertools.combinations`` over the sorted hand.

    >>> s = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
    >>> legal_actions(s)[:2], len(legal_actions(s))
    ((Cut(count=1), Cut(count=2)), 51)
    """
    phase = state.phase
    if phase is Phase.CUT:
        return _CUTS
    if phase is Phase.DRAW:
        return (_DRAW_STOCK, _DRAW_DISCARD) if state.discard else (_DRAW_STOCK,)
    if phase is Phase.DISCARD:
        return tuple(_DISCARDS[card] for card in state.hands[turn_seat(state)])
    if phase is Phase.SPLIT and state.current_player is not None:
        return tuple(_all_splits(state.hands[state.current_player]))
    return ()


def _all_splits(hand: Sequence[Card]) -> Iterator[Split]:
    cards = tuple(sorted(hand))
    for down, back in SPLIT_GETTERS:
        yield Split._sorted(down(cards), back(cards))


# -- chance --------------------------------------------------------------------

def sample_chance(state: GameState, rng: random.Random) -> ChooseDealer | Shuffle:
    """The chance event due now, drawn uniformly from the caller's ``rng``.

    >>> s = sample_chance(new_game(4), random.Random(1))
    >>> isinstance(s, ChooseDealer) and 0 <= s.seat < 4
    True
    """
    if state.phase is Phase.CHOOSE_DEALER:
        return ChooseDealer(rng.randrange(state.num_players))
    if state.phase is Phase.SHUFFLE:
        return Shuffle(shuffled(DECK, rng))
    if state.phase is Phase.RESHUFFLE:
        return Shuffle(shuffled(state.discard, rng))
    raise IllegalActionError(_phase_rule(state.phase), "no chance event is due now")


def _phase_rule(phase: Phase) -> str:
    return {
        Phase.CHOOSE_DEALER: "DB-31", Phase.SHUFFLE: "DB-32", Phase.CUT: "DB-32",
        Phase.DRAW: "DB-34", Phase.DISCARD: "DB-34", Phase.RESHUFFLE: "DB-36",
        Phase.SPLIT: "DB-40", Phase.GAME_OVER: "DB-44",
    }[phase]


# -- apply ---------------------------------------------------------------------

def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action``; ``state`` itself is never changed.

    ``seat`` names who is acting; it defaults to ``state.current_player``.
    Servers should pass it: a player acting out of turn is refused.  During
    the split phase any seat that has not split yet may act (DB-40: the
    choices are made independently).  An illegal action raises
    :class:`~cardrules.IllegalActionError` naming the rule broken.

    >>> s = apply(new_game(3), ChooseDealer(1))
    >>> s.dealer, s.pot, s.net, s.phase
    (1, 3, (-1, -1, -1), <Phase.SHUFFLE: 'shuffle'>)
    >>> apply(s, DrawStock())
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: DB-32: the dealer must shuffle first (a chance action)
    """
    phase = state.phase
    if phase is Phase.GAME_OVER:
        raise IllegalActionError("DB-44", f"the game is over after {state.rounds} rounds")
    if phase.is_chance:
        if seat is not None:
            raise IllegalActionError(_phase_rule(phase), "a chance event is due, not a player")
        return _apply_chance(state, action)
    if isinstance(action, ChooseDealer | Shuffle):
        raise IllegalActionError(_phase_rule(phase), "no chance event is due now")
    if phase is Phase.SPLIT:
        return _split(state, action, state.current_player if seat is None else seat)
    actor = state.current_player
    if seat is not None and seat != actor:
        rule = _phase_rule(phase)
        raise IllegalActionError(rule, f"it is seat {actor}'s turn, not seat {seat}'s")
    if phase is Phase.CUT:
        return _cut(state, action)
    if phase is Phase.DRAW:
        return _draw(state, action)
    return _discard(state, action)


def _apply_chance(state: GameState, action: Action) -> GameState:
    phase = state.phase
    if phase is Phase.CHOOSE_DEALER:
        if not isinstance(action, ChooseDealer):
            raise IllegalActionError("DB-31", "the first dealer must be chosen first")
        if action.seat >= state.num_players:
            raise IllegalActionError("DB-31", f"there is no seat {action.seat}")
        return _start_round(_evolve(state, dealer=action.seat))
    if phase is Phase.SHUFFLE:
        if not isinstance(action, Shuffle):
            raise IllegalActionError("DB-32", "the dealer must shuffle first (a chance action)")
        if len(action.order) != 52 or set(action.order) != set(DECK):
            raise IllegalActionError("DB-32", "the shuffle must order all 52 cards")
        return _evolve(state, phase=Phase.CUT, stock=action.order,
                       current_player=(_dealer(state) - 1) % state.num_players)
    if not isinstance(action, Shuffle):
        raise IllegalActionError("DB-36", "the stock is empty: the discard pile is shuffled")
    if len(action.order) != len(state.discard) or set(action.order) != set(state.discard):
        raise IllegalActionError("DB-36", "the reshuffle must order exactly the discard pile")
    order = action.order
    assert all(isinstance(c, Card) for c in order)
    cards: tuple[Card, ...] = order  # type: ignore[assignment]
    state = _evolve(state, discard=cards[:1], stock=cards[1:])
    if state.showdown is not None:
        return _run_showdown(state, state.showdown)
    return _evolve(state, phase=Phase.DISCARD, current_player=turn_seat(state))


def _dealer(state: GameState) -> int:
    assert state.dealer is not None
    return state.dealer


def _start_round(state: GameState) -> GameState:
    """Collect the cards, take the antes (DB-30) and wait for the shuffle."""
    n, ante = state.num_players, state.ante
    return _evolve(
        state, phase=Phase.SHUFFLE, current_player=None, pot=state.pot + n * ante,
        net=tuple(v - ante for v in state.net), hands=((),) * n, stock=DECK, discard=(),
        seen=((),) * n, turns=(0,) * n, drawn=None, splits=(None,) * n, showdown=None)


def _cut(state: GameState, action: Action) -> GameState:
    if not isinstance(action, Cut):
        raise IllegalActionError("DB-32", f"seat {state.current_player} must cut the deck")
    count = action.count
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 51:
        raise IllegalActionError("DB-32", f"a cut lifts 1 to 51 cards, not {count!r}")
    deck = state.stock[count:] + state.stock[:count]
    # DB-33: one card at a time, clockwise from the dealer's left, then one face up.
    n = state.num_players
    dealt = HAND_SIZE * n
    order = seat_order(state)
    hands = tuple(deck[k:dealt:n] for k in range(n))
    by_seat: list[tuple[Card, ...]] = [()] * n
    for position, seat in enumerate(order):
        by_seat[seat] = hands[position]
    return _evolve(state, phase=Phase.DRAW, current_player=order[0],
                   hands=tuple(by_seat), discard=(deck[dealt],), stock=deck[dealt + 1:])


def _replace(items: tuple[tuple[Card, ...], ...], seat: int,
             value: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return (*items[:seat], value, *items[seat + 1:])


def _draw(state: GameState, action: Action) -> GameState:
    seat = _actor(state)
    if isinstance(action, DrawStock):
        card, stock = state.stock[0], state.stock[1:]
        state = _evolve(state, phase=Phase.DISCARD, stock=stock, drawn=card,
                        hands=_replace(state.hands, seat, (*state.hands[seat], card)))
        if not stock:  # DB-36: the stock ran out; the dealer reshuffles the discard pile
            return _evolve(state, phase=Phase.RESHUFFLE, current_player=None)
        return state
    if isinstance(action, DrawDiscard):
        if not state.discard:
            raise IllegalActionError("DB-34", "the discard pile is empty; draw from the stock")
        card = state.discard[-1]
        return _evolve(state, phase=Phase.DISCARD, discard=state.discard[:-1], drawn=card,
                       hands=_replace(state.hands, seat, (*state.hands[seat], card)),
                       seen=_replace(state.seen, seat, (*state.seen[seat], card)))
    raise IllegalActionError("DB-34", "a turn starts by drawing from the stock or the discard pile")


def _actor(state: GameState) -> int:
    assert state.current_player is not None
    return state.current_player


def _discard(state: GameState, action: Action) -> GameState:
    seat = _actor(state)
    if not isinstance(action, Discard):
        raise IllegalActionError("DB-34", "you have drawn; now discard one card")
    card = action.card
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalActionError("DB-34", f"seat {seat} does not hold {card}")
    turns = (*state.turns[:seat], state.turns[seat] + 1, *state.turns[seat + 1:])
    seen = state.seen
    if card in seen[seat]:
        seen = _replace(seen, seat, tuple(c for c in seen[seat] if c != card))
    n = state.num_players
    if sum(turns) == TURNS * n:  # DB-35: the dealer's sixth turn is over
        phase, next_player = Phase.SPLIT, (_dealer(state) + 1) % n
    else:
        phase, next_player = Phase.DRAW, (seat + 1) % n
    return _evolve(
        state, hands=_replace(state.hands, seat, tuple(c for c in hand if c != card)),
        seen=seen, discard=(*state.discard, card), drawn=None, turns=turns, phase=phase,
        current_player=next_player)


def _split(state: GameState, action: Action, seat: int | None) -> GameState:
    if not isinstance(action, Split):
        raise IllegalActionError("DB-40", "every player must now split their seven cards")
    if (seat is None or not isinstance(seat, int) or not 0 <= seat < state.num_players
            or state.splits[seat] is not None):
        raise IllegalActionError("DB-40", f"seat {seat} has no split to make")
    hand = state.hands[seat]
    if len(action.down) != 4 or len(action.back) != 3:
        raise IllegalActionError("DB-40", "a split is a 4-card down hand and a 3-card back hand")
    if sorted(action.down + action.back) != sorted(hand):
        raise IllegalActionError("DB-40", f"the split must use exactly seat {seat}'s seven cards")
    splits = (*state.splits[:seat], action, *state.splits[seat + 1:])
    waiting = [s for s in seat_order(state) if splits[s] is None]
    if waiting:
        return _evolve(state, splits=splits, current_player=waiting[0])
    start = Showdown(down_winner=None, contenders=(), drawn=(), log=())
    return _run_showdown(_evolve(state, splits=splits, current_player=None), start)


# -- showdown (DB-41 .. DB-43) -----------------------------------------------------

def _best_seats(state: GameState, stage: str) -> list[int]:
    splits = [s for s in state.splits if s is not None]
    assert len(splits) == state.num_players
    if stage == "down":
        strengths = [strength4(s.down) for s in splits]
    else:
        strengths = [strength3(s.back) for s in splits]
    best = max(strengths)
    return [seat for seat in seat_order(state) if strengths[seat] == best]


def _run_showdown(state: GameState, progress: Showdown) -> GameState:
    """Decide the down, then the back showdown, drawing to break ties (DB-42)."""
    down_winner, contenders = progress.down_winner, progress.contenders
    drawn, log = progress.drawn, progress.log
    stock, discard = state.stock, state.discard
    while True:
        stage = "down" if down_winner is None else "back"
        winner: int | None = None
        if not contenders:
            tied = _best_seats(state, stage)
            if len(tied) == 1:
                winner = tied[0]
            else:
                contenders = tuple(tied)
        else:
            pending = [s for s in contenders if s not in {d.seat for d in drawn}]
            if pending:
                card, stock = stock[0], stock[1:]
                draw = TieBreakDraw(stage, pending[0], card)
                drawn, log = (*drawn, draw), (*log, draw)
                if not stock:  # DB-36 during the tie-break
                    waiting = Showdown(down_winner, contenders, drawn, log)
                    return _evolve(state, phase=Phase.RESHUFFLE, current_player=None,
                                   stock=stock, discard=discard, showdown=waiting)
                continue
            top = max(d.card.rank for d in drawn)
            still = tuple(d.seat for d in drawn if d.card.rank == top)
            discard = discard + tuple(d.card for d in drawn)
            drawn = ()
            if len(still) == 1:
                winner = still[0]
            else:
                contenders = still
        if winner is None:
            continue
        contenders = ()
        if down_winner is None:
            down_winner = winner
            continue
        return _finish_round(_evolve(state, stock=stock, discard=discard), down_winner,
                             winner, log)


def _finish_round(state: GameState, down_winner: int, back_winner: int,
                  log: tuple[TieBreakDraw, ...]) -> GameState:
    """Pay or carry the pot (DB-43), record the round, pass the deal (DB-31)."""
    pot, net = state.pot, state.net
    pot_winner = down_winner if down_winner == back_winner else None
    if pot_winner is not None:
        net = (*net[:pot_winner], net[pot_winner] + pot, *net[pot_winner + 1:])
    splits = tuple(s for s in state.splits if s is not None)
    result = RoundResult(state.round, _dealer(state), splits, down_winner, back_winner, log,
                         pot, pot_winner)
    state = _evolve(state, pot=0 if pot_winner is not None else pot, net=net,
                    results=(*state.results, result), showdown=None)
    n = state.num_players
    if state.rounds is not None and state.round >= state.rounds:
        return _evolve(state, phase=Phase.GAME_OVER, current_player=None,
                       hands=((),) * n, stock=DECK, discard=(), seen=((),) * n,
                       turns=(0,) * n, drawn=None, splits=(None,) * n)
    return _start_round(_evolve(state, round=state.round + 1,
                                dealer=(_dealer(state) + 1) % n))
