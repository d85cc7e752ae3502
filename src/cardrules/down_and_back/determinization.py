"""Determinization: a full Down and Back state drawn to fit what one seat knows.

:func:`determinize` turns a seat's :class:`~cardrules.down_and_back.View`
into a :class:`~cardrules.down_and_back.GameState` that gives exactly that
view, with everything the seat cannot see (the other hands' unseen cards,
the order of the stock) dealt at random.  Search bots and
:func:`~cardrules.down_and_back.analysis.discard_advice` play on from such
states.

>>> import random
>>> from cardrules.down_and_back import new_game, apply, sample_chance, view, Cut
>>> rng = random.Random(2)
>>> s = new_game(3)
>>> s = apply(s, sample_chance(s, rng))
>>> s = apply(apply(s, sample_chance(s, rng)), Cut(11))
>>> v = view(s, 0)
>>> guess = determinize(v, random.Random(7))
>>> view(guess, 0) == v, guess.hands[0] == s.hands[0]
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs

from cardrules.cards import DECK, Card
from cardrules.down_and_back._accel import split_actions
from cardrules.down_and_back.actions import Split
from cardrules.down_and_back.checks import check_counts
from cardrules.down_and_back.state import GameState, History, Phase, Settings
from cardrules.down_and_back.views import View, view
from cardrules.hand import Hand

__all__ = ["determinize", "hidden_variant"]

_EMPTY: Hand[Card] = Hand()


def determinize(view: View, rng: random.Random, *,
                split: Callable[[Hand[Card]], Split] | None = None) -> GameState:
    """A state drawn uniformly from those in which ``view``'s seat sees ``view``.

    Known cards stay where the seat knows them to be: its own hand, the
    discard pile, the cards each player was seen taking from the discard
    pile (DB-37), splits once revealed (DB-40) and tie-break draws on the
    table (DB-42).  Every other card (the rest of the other hands and the
    stock) is dealt among those places uniformly at random with ``rng``.

    What the view cannot tell is filled in as follows: a player who has
    split but whose split is not yet revealed gets ``split(hand)`` (by
    default one of the 35 splits uniformly at random); the card drawn by
    another player in the middle of their turn is a uniformly random one of
    their unseen cards, or, when the pile and the cards seen show that they
    drew from the pile, one of the cards seen taken (which one the view
    does not say).  The view keeps no history, so the state is uniform
    among those matching the view, not weighted by how likely the players'
    past choices made it.  Between rounds and at the end nothing is hidden:
    the state is the one the view describes.
    :func:`hidden_variant` draws with this function from a state's view.

    >>> import random
    >>> from cardrules.down_and_back import new_game, view
    >>> determinize(view(new_game(2), 1), random.Random(0)) == new_game(2)
    True
    """
    n = view.num_players
    settings = Settings(num_players=n, ante=view.ante, rounds=view.rounds)
    history = History(round=view.round, dealer=view.dealer, pot=view.pot, net=view.net,
                      results=view.results)
    phase = view.phase
    if phase in (Phase.CHOOSE_DEALER, Phase.SHUFFLE, Phase.GAME_OVER, Phase.CUT):
        stock = DECK
        if phase is Phase.CUT:   # the shuffled deck is hidden from everyone
            order = list(DECK)
            rng.shuffle(order)
            stock = tuple(order)
        return GameState(settings=settings, history=history, phase=phase,
                         current_player=view.current_player, hands=(_EMPTY,) * n,
                         stock=stock, discard=(), seen=(_EMPTY,) * n, turn=0, drawn=None,
                         splits=(None,) * n, showdown=None)
    seat = view.seat
    revealed = all(s is not None for s in view.splits)
    known: set[Card] = {*view.hand, *view.discard}
    for seen in view.seen:
        known.update(seen)
    if view.showdown is not None:
        known.update(d.card for d in view.showdown.drawn)
    if revealed:
        for s in view.splits:
            assert s is not None
            known.update((*s.down, *s.back))
    pool = [c for c in DECK if c not in known]
    rng.shuffle(pool)   # each unseen card to a uniformly random place
    hands: list[Hand[Card]] = []
    fresh: list[list[Card]] = []   # per seat, the unseen cards it was given
    for other in range(n):
        given: list[Card] = []
        if other == seat:
            hands.append(view.hand)
        elif revealed:
            own = view.splits[other]
            assert own is not None
            hands.append(Hand((*own.down, *own.back)))
        else:
            missing = view.hand_sizes[other] - len(view.seen[other])
            given = pool[:missing]
            hands.append(Hand((*view.seen[other], *given)))
            del pool[:missing]
        fresh.append(given)
    if len(pool) != view.stock_size:
        raise ValueError(f"the view does not add up: {len(pool)} unseen cards are left "
                         f"for a stock of {view.stock_size}")
    turn = sum(view.turns)
    drawn = view.drawn
    mid_turn = phase is Phase.DISCARD or (phase is Phase.RESHUFFLE and view.showdown is None)
    mover = ((view.dealer or 0) + 1 + turn) % n
    guessing = drawn is None and mid_turn
    if guessing:
        # Another player is between drawing and discarding; which card came
        # last is hidden from this seat, so any unseen card of theirs will do
        # (a draw from the stock), unless the pile and the cards seen show
        # that the draw was from the pile (DB-34, DB-37): then one of the
        # cards seen taken.
        # (The unseen cards it was given are in random order: the first is a
        # uniformly random one of them.)
        drawn = fresh[mover][0] if fresh[mover] else None
    state = GameState(settings=settings, history=history, phase=phase,
                      current_player=view.current_player, hands=tuple(hands),
                      stock=tuple(pool), discard=view.discard, seen=view.seen, turn=turn,
                      drawn=drawn, splits=view.splits, showdown=view.showdown)
    if guessing and view.seen[mover] and (drawn is None or not _counts_fit(state)):
        state = attrs.evolve(state, drawn=rng.choice(view.seen[mover]))
    if revealed or not any(view.split_chosen):
        return state
    choose = split if split is not None else (lambda hand: rng.choice(split_actions(hand)))
    chosen = tuple(choose(state.hands[o]) if made and o != seat else state.splits[o]
                   for o, made in enumerate(view.split_chosen))
    return attrs.evolve(state, splits=chosen)


def _counts_fit(state: GameState) -> bool:
    """True when the pile, the cards seen and the turns of ``state`` agree
    (DB-33 to DB-37, see :func:`~cardrules.down_and_back.checks.check_invariants`)."""
    try:
        check_counts(state)
    except ValueError:
        return False
    return True


def hidden_variant(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state drawn uniformly among those ``seat`` cannot tell from ``state``.

    Hidden are the order of the stock, the cards of other hands that were
    not seen taken from the discard pile (DB-37), the card another player
    just drew from the stock, and splits chosen but not yet revealed (all
    hands are open once every split is, DB-40).  The draw is
    :func:`~cardrules.down_and_back.determinization.determinize` of the seat's
    view, so it is exactly uniform over those; an unrevealed split is any
    split of its hand, each equally likely.  The one public fact a view does
    not carry, which of the cards seen taken another player has just drawn
    from the pile (DB-34, DB-37), is copied from ``state``.  Between rounds
    and at the end nothing is hidden, and the variant equals ``state``.

    >>> import random
    >>> from cardrules.down_and_back import Cut, apply, new_game, sample_chance, view
    >>> s = new_game(2)
    >>> hidden_variant(s, 0, random.Random(1)) == s   # nothing dealt yet
    True
    >>> rng = random.Random(4)
    >>> for _ in range(2):   # the first dealer and the shuffle
    ...     s = apply(s, sample_chance(s, rng))
    >>> s = apply(s, Cut(20))
    >>> other = hidden_variant(s, 0, random.Random(1))
    >>> view(other, 0) == view(s, 0), other.hands[1] == s.hands[1]
    (True, False)
    """
    guess = determinize(view(state, seat), rng)
    drawn = state.drawn
    if drawn is not None and guess.drawn != drawn and any(drawn in s for s in state.seen):
        guess = attrs.evolve(guess, drawn=drawn)
    return guess
