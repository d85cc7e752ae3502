"""Full Back Alley states drawn from what one seat knows (determinization).

A seat's :class:`~cardrules.back_alley.View` leaves hidden the other three
hands and the undealt cards (BA-50).  :func:`determinize` draws a complete
:class:`~cardrules.back_alley.GameState` uniformly at random among all the
states that give that seat exactly this view, so that an analysis or a
search bot can play the rest of the deal out.

The draw keeps everything the table has shown: the cards seen, the
voids shown by a failure to follow (BA-31), what answering a Blooper or
leading a trump tells (BA-32, BA-33; :func:`known_absent`), the card taken
under BA-13 among its taker's cards.  It is exact: each card some seat may
not hold is placed with probability proportional to the ways the deal can
be completed.  :func:`hidden_variant` draws with this module and copies
the first dealer and the throw-ins of the deal in progress (BA-25), which
a view does not carry, from the state it starts from.  How the draw is
counted: :doc:`/analysis`.

>>> import random
>>> from cardrules.back_alley import apply, new_game, sample_chance, view
>>> rng = random.Random(2)
>>> state = new_game(max_hand_size=4)
>>> for _ in range(2):   # the first dealer and the shuffle
...     state = apply(state, sample_chance(state, rng))
>>> mine = view(state, 1)
>>> guess = determinize(mine, random.Random(0))
>>> view(guess, 1) == mine, guess.hands[1] == state.hands[1]
(True, True)
"""

from __future__ import annotations

import random
from math import factorial

import attrs

from cardrules.back_alley.actions import CARDS, Board
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    Deal,
    GameState,
    History,
    Phase,
)
from cardrules.back_alley.trick import TRUMP_CLASS
from cardrules.back_alley.views import View, view
from cardrules.cards import Card, Joker
from cardrules.hand import Hand

__all__ = ["Determinizer", "determinize", "hidden_variant", "known_absent"]

_BIG, _LITTLE = Joker.BIG.index, Joker.LITTLE.index
_FACTORIALS = tuple(factorial(k) for k in range(55))


class Determinizer:
    """Draws full states consistent with one :class:`~cardrules.back_alley.View`.

    The counting work is done once, in the constructor; :meth:`sample` then
    draws as many states as wanted (each uniform among the consistent
    states, see the module ``cardrules.back_alley.determinization``).  ``count`` is
    the number of ways the hidden cards can lie: the number of distinct
    states the view allows (1 between deals and at the end, where nothing
    is hidden).  A view whose hand sizes do not fit the unseen cards is a
    :class:`ValueError`.

    >>> import random
    >>> from cardrules.back_alley import apply, new_game, sample_chance, view
    >>> rng = random.Random(5)
    >>> state = new_game(max_hand_size=1)
    >>> for _ in range(2):   # the first dealer and the shuffle
    ...     state = apply(state, sample_chance(state, rng))
    >>> sampler = Determinizer(view(state, 0))
    >>> sampler.count == 52 * 51 * 50   # 1-card hands for seats 1, 2 and 3 from 52 unseen
    True
    >>> sampler.sample(random.Random(1)).hands[0] == state.hands[0]
    True
    """

    __slots__ = ("_constrained", "_free", "_others", "_skeleton", "_strides", "_tables",
                 "_view", "count")

    def __init__(self, view: View) -> None:
        self._view = view
        seat = view.seat
        skeleton = _skeleton(view)
        self._skeleton = skeleton
        self._others = tuple(s for s in range(NUM_PLAYERS) if s != seat)
        self._constrained: tuple[tuple[int, tuple[int, ...]], ...] = ()
        self._free: tuple[int, ...] = ()
        deal = skeleton.deal
        if deal is None:
            # No deal in progress (BA-11, BA-12, BA-43): no card is hidden.
            self._strides, self._tables = (1, 1, 1), [{0: 1}]
            self.count = 1
            return
        absent = known_absent(skeleton)
        known = {c.index for c in view.hand}
        known.update(c.index for t in view.tricks for c in t.cards)
        known.update(c.index for c in view.trick)
        known.add(deal.trump_card.index)
        if deal.trump is None:  # BA-13: no joker is in play without trump
            known.update((_BIG, _LITTLE))
        pool = [i for i in range(54) if i not in known]
        needs = tuple(view.hand_sizes[s] for s in self._others)
        if sum(needs) > len(pool):
            raise ValueError("the view's hand sizes do not fit the unseen cards")
        # Cards some other seat is known not to hold, each with the positions
        # (0 to 2 in self._others) that may take it; the rest are free.
        constrained: list[tuple[int, tuple[int, ...]]] = []
        free: list[int] = []
        lacking = [absent[s] for s in self._others]
        blocked = lacking[0] | lacking[1] | lacking[2]
        for card in pool:
            if card in blocked:
                constrained.append((card, tuple(k for k in range(3) if card not in lacking[k])))
            else:
                free.append(card)
        self._constrained = tuple(constrained)
        self._free = tuple(free)
        dims = [n + 1 for n in needs]
        self._strides = (dims[1] * dims[2], dims[2], 1)
        self._tables = _count_tables(needs, self._strides, constrained, len(free))
        self.count = self._tables[0][_flat(needs, self._strides)]
        if self.count == 0:
            raise ValueError("no deal of the unseen cards fits this view")

    def sample(self, rng: random.Random) -> GameState:
        """One full state drawn uniformly among those consistent with the view.

        Only ``rng`` is drawn from, so a seeded generator gives a
        reproducible state.

        >>> import random
        >>> from cardrules.back_alley import apply, new_game, sample_chance, view
        >>> rng = random.Random(8)
        >>> state = new_game(max_hand_size=2)
        >>> for _ in range(2):   # the first dealer and the shuffle
        ...     state = apply(state, sample_chance(state, rng))
        >>> sampler = Determinizer(view(state, 3))
        >>> sampler.sample(random.Random(4)) == sampler.sample(random.Random(4))
        True
        """
        if self._skeleton.deal is None:
            return self._skeleton
        view = self._view
        strides = self._strides
        tables = self._tables
        needs = [view.hand_sizes[s] for s in self._others]
        piles: list[list[int]] = [[], [], []]
        undealt: list[int] = []
        for j, (card, allowed) in enumerate(self._constrained):
            following = tables[j + 1]
            at = _flat(needs, strides)
            pick = rng.randrange(tables[j][at])
            weight = following[at]  # the card stays undealt
            if pick < weight:
                undealt.append(card)
                continue
            for k in allowed:
                if needs[k]:
                    weight += following[at - strides[k]]
                    if pick < weight:
                        piles[k].append(card)
                        needs[k] -= 1
                        break
            else:  # pragma: no cover - the weights add up to the table entry
                raise AssertionError("determinize: inconsistent counts")
        free = list(self._free)
        rng.shuffle(free)
        start = 0
        for k in range(len(piles)):
            piles[k].extend(free[start:start + needs[k]])
            start += needs[k]
        undealt.extend(free[start:])
        return self._build(piles, undealt, rng)

    def _build(self, piles: list[list[int]], undealt: list[int],
               rng: random.Random) -> GameState:
        skeleton, view = self._skeleton, self._view
        deal = skeleton.deal
        assert deal is not None
        hands: list[tuple[int, ...]] = [(), (), (), ()]
        hands[view.seat] = tuple(c.index for c in view.hand)
        for k, s in enumerate(self._others):
            hands[s] = tuple(sorted(piles[k]))
        if deal.trump is None:  # BA-13: the other joker is undealt unless discarded
            other = _BIG + _LITTLE - deal.trump_card.index
            if deal.joker_discard is None:
                undealt.append(other)
        taken = deal.taken
        exchanger = deal.exchanger
        if exchanger is not None and exchanger != view.seat:
            # The card taken is equally likely any card that seat was dealt.
            dealt = list(hands[exchanger])
            dealt.extend(c.index for t in view.tricks for k, c in enumerate(t.cards)
                         if (t.leader + k) % NUM_PLAYERS == exchanger)
            dealt.extend(c.index for k, c in enumerate(view.trick)
                         if ((view.leader or 0) + k) % NUM_PLAYERS == exchanger)
            card = CARDS[rng.choice(sorted(dealt))]
            assert isinstance(card, Card)
            taken = card
        new_deal = Deal(hand_size=deal.hand_size, trump_card=deal.trump_card,
                        joker_discard=deal.joker_discard, exchanger=exchanger, taken=taken,
                        undealt=Hand.of_sorted(tuple(CARDS[i] for i in sorted(undealt))),
                        bids=deal.bids)
        return attrs.evolve(skeleton, deal=new_deal, hand_indexes=tuple(hands))


def determinize(view: View, rng: random.Random) -> GameState:
    """A full state drawn uniformly among those that give ``view`` to its seat.

    The seat's own cards, every public fact and every void the play has
    shown are kept (see the module ``cardrules.back_alley.determinization``); only
    ``rng`` is drawn from.  To draw many states from one view, build a
    :class:`Determinizer` once and call its :meth:`~Determinizer.sample`.

    >>> import random
    >>> from cardrules.back_alley import apply, legal_actions, new_game, sample_chance, view
    >>> rng = random.Random(11)
    >>> state = new_game(max_hand_size=3)
    >>> for _ in range(2):   # the first dealer and the shuffle
    ...     state = apply(state, sample_chance(state, rng))
    >>> while state.phase.value == "bid" or len(state.tricks) < 2:
    ...     state = apply(state, legal_actions(state)[-1])
    >>> seat = state.current_player
    >>> guess = determinize(view(state, seat), random.Random(3))
    >>> view(guess, seat) == view(state, seat), legal_actions(guess) == legal_actions(state)
    (True, True)
    """
    return Determinizer(view).sample(rng)


def _flat(needs: tuple[int, ...] | list[int], strides: tuple[int, ...]) -> int:
    return needs[0] * strides[0] + needs[1] * strides[1] + needs[2] * strides[2]


def _count_tables(needs: tuple[int, ...], strides: tuple[int, int, int],
                  constrained: list[tuple[int, tuple[int, ...]]],
                  free: int) -> list[dict[int, int]]:
    """``tables[j][r]``: the number of ways to place the constrained cards j, j+1,
    ... and then the ``free`` cards so that the three seats get exactly ``r``
    (flattened) more cards, the rest staying undealt.  Only the ``r`` a draw
    can reach after placing cards 0 to j-1 are counted."""
    sizes = [n + 1 for n in needs]
    reach: list[set[int]] = [{_flat(needs, strides)}]
    for _card, allowed in constrained:
        now = reach[-1]
        step = set(now)
        for k in allowed:
            stride, size = strides[k], sizes[k]
            step.update(at - stride for at in now if (at // stride) % size)
        reach.append(step)
    fact = _FACTORIALS
    last: dict[int, int] = {}
    for at in reach[-1]:
        a, b, c = at // strides[0], (at // strides[1]) % sizes[1], at % sizes[2]
        rest = free - a - b - c
        last[at] = (fact[free] // (fact[a] * fact[b] * fact[c] * fact[rest])
                    if rest >= 0 else 0)
    tables = [last]
    for j in range(len(constrained) - 1, -1, -1):
        allowed = constrained[j][1]
        following = tables[-1]
        table: dict[int, int] = {}
        for at in reach[j]:
            ways = following[at]  # the card stays undealt
            for k in allowed:
                if (at // strides[k]) % sizes[k]:  # this seat still needs a card
                    ways += following[at - strides[k]]
            table[at] = ways
        tables.append(table)
    tables.reverse()
    return tables


def _skeleton(view: View) -> GameState:
    """The public part of ``view`` as a state: every seat's hand empty but
    the viewer's, nothing undealt; between deals and at the end, the whole
    state."""
    history = _history(view)
    hands: list[tuple[int, ...]] = [(), (), (), ()]
    hands[view.seat] = tuple(c.index for c in view.hand)
    deal = None
    if view.phase is Phase.BID or view.phase is Phase.PLAY:
        if view.trump_card is None or view.dealer is None:
            raise ValueError(f"a view of the {view.phase.value} phase shows a turned card "
                             f"and a dealer (BA-12)")
        deal = Deal(hand_size=view.hand_size, trump_card=view.trump_card,
                    joker_discard=view.joker_discard, exchanger=view.exchanger,
                    taken=view.taken, undealt=Hand(), bids=view.bids)
    elif view.trump_card is not None or any(view.hand_sizes):
        raise ValueError(f"no card is dealt in the {view.phase.value} phase, "
                         f"but the view shows some (BA-12)")
    return GameState(settings=view.settings, history=history, phase=view.phase,
                     dealer=view.dealer, deal=deal, current_player=view.current_player,
                     leader=view.leader, hand_indexes=tuple(hands),
                     trick_indexes=tuple(c.index for c in view.trick),
                     tricks_won=view.tricks_won, tricks=view.tricks,
                     trump_played=view.trump_played)


def _history(view: View) -> History:
    """The game so far as ``view`` shows it.  The view does not carry the
    first dealer nor how often the deal now due was thrown in (BA-11,
    BA-25): the first dealer is read off the first result (less its
    throw-ins), and the throw-ins are the fewest that bring the deal to this
    dealer (none at the end of the game, whose dealer dealt the last deal)."""
    results, dealer = view.results, view.dealer
    if dealer is None:  # the first dealer is still to be chosen (BA-11)
        return History(first_dealer=None, throw_ins=0, results=results, scores=view.scores)
    if not results:
        return History(first_dealer=dealer, throw_ins=0, results=(), scores=view.scores)
    first = (results[0].dealer - results[0].throw_ins) % NUM_PLAYERS
    throw_ins = 0
    if view.phase is not Phase.GAME_OVER:
        throw_ins = (dealer - results[-1].dealer - 1) % NUM_PLAYERS
    return History(first_dealer=first, throw_ins=throw_ins, results=results,
                   scores=view.scores)


def known_absent(state: GameState) -> tuple[frozenset[int], ...]:
    """Per seat, the card indexes everyone knows that seat does not hold,
    inferred from the play of this deal (BA-31 to BA-33).

    A seat that did not follow the class led (a plain suit, or trumps) holds
    none of it; a seat that answered a Big (Little) Blooper with a trump holds
    no higher (lower) trump; a seat that led a trump while BA-32 forbade it
    to anyone holding a plain card holds only trumps.

    >>> from cardrules.back_alley import new_game
    >>> known_absent(new_game())
    (frozenset(), frozenset(), frozenset(), frozenset())
    """
    absent: list[set[int]] = [set(), set(), set(), set()]
    deal = state.deal
    if deal is None or state.leader is None:
        return tuple(frozenset(a) for a in absent)
    classes, powers = deal.table
    of_class = [{i for i in range(54) if classes[i] == c} for c in range(5)]
    plain = set(range(54)) - of_class[TRUMP_CLASS]
    trump_played = False
    plays = [(t.leader, [card.index for card in t.cards]) for t in state.tricks]
    plays.append((state.leader, list(state.trick_indexes)))
    for leader, cards in plays:
        if not cards:
            continue
        led = cards[0]
        led_class = classes[led]
        if (led_class == TRUMP_CLASS and not trump_played
                and deal.bids[leader].__class__ is not Board):
            absent[leader] |= plain
        for k, index in enumerate(cards[1:], start=1):
            seat = (leader + k) % NUM_PLAYERS
            if classes[index] != led_class:
                absent[seat] |= of_class[led_class]
            elif led == _BIG:
                absent[seat] |= {i for i in of_class[TRUMP_CLASS] if powers[i] > powers[index]}
            elif led == _LITTLE:
                absent[seat] |= {i for i in of_class[TRUMP_CLASS] if powers[i] < powers[index]}
        trump_played = trump_played or any(classes[i] == TRUMP_CLASS for i in cards)
    return tuple(frozenset(a) for a in absent)


def hidden_variant(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state drawn uniformly among those ``seat`` cannot tell from ``state``.

    Hidden are the other seats' hands, the card another seat took under
    BA-13 and the undealt cards (BA-50).  The draw is
    :func:`~cardrules.back_alley.determinize` of the seat's view, so it is
    exactly uniform over the deals of the unseen cards that fit every
    public fact: a void or a forced trump the play has shown is kept
    (:func:`~cardrules.back_alley.determinization.known_absent`), and in a no-trump
    deal no joker is in play.  The two public facts a view does not carry,
    the first dealer and how often the deal now due was thrown in (BA-11,
    BA-25), are copied from ``state``.  Between deals and at the end nothing
    is hidden, and the variant equals ``state``.

    >>> import random
    >>> from cardrules.back_alley import apply, new_game, sample_chance, view
    >>> s = new_game()
    >>> hidden_variant(s, 0, random.Random(1)) == s   # nothing dealt yet
    True
    >>> rng = random.Random(3)
    >>> for _ in range(2):   # the first dealer and the shuffle
    ...     s = apply(s, sample_chance(s, rng))
    >>> other = hidden_variant(s, 2, random.Random(1))
    >>> view(other, 2) == view(s, 2), other.hands[0] == s.hands[0]
    (True, False)
    """
    guess = determinize(view(state, seat), rng)
    history, known = guess.history, state.history
    if history.first_dealer != known.first_dealer or history.throw_ins != known.throw_ins:
        history = attrs.evolve(history, first_dealer=known.first_dealer,
                               throw_ins=known.throw_ins)
        guess = attrs.evolve(guess, history=history)
    return guess
