"""Back Alley bots: :class:`HeuristicBot` (the shared
:class:`~cardrules.engine.RandomBot` plays any game).

A bot sees only its seat's :class:`~cardrules.back_alley.View` and the legal
actions, and returns one of them.  :class:`HeuristicBot` bids from an
estimate of the tricks its hand will take (:func:`trick_chances`) and plays
with the usual trick-taking habits; everything it knows comes from the view
(BA-50): its own hand, the bids, the turned card, the cards played and who
could not follow suit.

>>> from cardrules.back_alley import play_game
>>> from cardrules.engine import RandomBot
>>> final = play_game([HeuristicBot(1), RandomBot(2), HeuristicBot(3), RandomBot(4)],
...                   max_hand_size=3, seed=7).state
>>> final.is_terminal, len(final.results)
(True, 5)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from math import comb, exp
from typing import Any, ClassVar, TypeVar

from cardrules.back_alley.actions import Bid, Board, Pass, Play
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    Contract,
    Phase,
    contract_of,
)
from cardrules.back_alley.trick import TRUMP_CLASS, table_for, trick_winner
from cardrules.back_alley.views import View
from cardrules.cards import Card, Joker, Suit

__all__ = ["BackAlleyBot", "HeuristicBot", "expected_tricks", "trick_chances"]

A = TypeVar("A")
AnyCard = Card | Joker

_BIG, _LITTLE = Joker.BIG.index, Joker.LITTLE.index


# How much a card still counts for when the opponents hold x higher cards of
# its class and it has g lower cards of its own class beside it: x = 0 wins,
# x <= g often wins later (the higher cards fall on the guards), one more
# higher card than guards rarely.
_GUARDED, _ONE_SHORT = 0.45, 0.15
# A spare trump in a hand short in a plain suit is worth about this much as a ruff.
_RUFF = 0.45
# In long deals a trump with higher trumps out is beaten more often than the
# count says.
_TRUMP_PLAY = 0.85
# The share of a plain card's chance left after the chance that its suit is
# never led while it is held: 0.2 + 0.047 per card in hand (0.81 with 13 cards).
# These factors were fitted to the bot's own games, deal by deal and card by card.
_ACCESS_BASE, _ACCESS_PER_CARD = 0.2, 0.047
# A card whose chance of being beaten later in the trick is below this is "safe".
_SAFE = 0.5
# Board only with an overwhelming hand: the chance of every trick at least this.
_BOARD_CHANCE = 0.75


def _binom(k: int, x: int, q: float) -> float:
    return comb(k, x) * q ** x * (1.0 - q) ** (k - x)


def _chances(mine: Sequence[int], trump: Suit | None, out: Sequence[int]) -> list[float]:
    """:func:`trick_chances` on card indexes; ``out`` holds the cards known to be
    out of play (the turned card and a discarded joker)."""
    size = len(mine)
    if not size:
        return []
    classes, powers = table_for(trump)
    seen = set(mine) | set(out)
    if trump is None:  # BA-13: no joker is in play in a no-trump deal
        seen |= {_BIG, _LITTLE}
    unknown = [i for i in range(54) if i not in seen]
    share = min(1.0, size / max(len(unknown), 1))  # P(one opponent holds a given unknown card)
    opponents = min(1.0, 2 * share)
    unknown_count = [0] * 5
    for i in unknown:
        unknown_count[classes[i]] += 1
    has_trump = 1.0 - (1.0 - share) ** unknown_count[TRUMP_CLASS] if trump is not None else 0.0
    by_class: list[list[int]] = [[], [], [], [], []]
    for i in mine:
        by_class[classes[i]].append(i)
    # A plain card takes a trick only if its suit is led while it is held,
    # which gets less likely the smaller the hands.
    access = min(1.0, _ACCESS_BASE + _ACCESS_PER_CARD * size)
    chance = {}
    for cls, cards in enumerate(by_class):
        cards.sort(key=powers.__getitem__, reverse=True)
        for at, card in enumerate(cards):
            higher = sum(1 for i in unknown if classes[i] == cls and powers[i] > powers[card])
            guards = len(cards) - 1 - at
            p = _binom(higher, 0, opponents)
            for x in range(1, min(higher, guards + 1) + 1):
                p += _binom(higher, x, opponents) * (_GUARDED if x <= guards else _ONE_SHORT)
            if cls == TRUMP_CLASS:
                if higher and size >= 8:
                    p *= _TRUMP_PLAY
            else:
                if trump is not None:
                    # Ruffed when an opponent has run out of the suit by this round.
                    short = sum(_binom(unknown_count[cls], x, share) for x in range(at + 1))
                    p *= (1.0 - short * has_trump) ** 2
                p *= access
            chance[card] = p
    trumps = by_class[TRUMP_CLASS]
    if trumps and size >= 3:
        # Spare trumps ruff in short plain suits.
        rounds = 2 if size >= 8 else 1
        shortness = sum(max(0, rounds - len(by_class[s])) for s in range(4))
        spare = sorted((c for c in trumps if chance[c] < _RUFF), key=chance.__getitem__)
        for card in spare[:shortness]:
            chance[card] = _RUFF
    return [chance[i] for i in mine]


def trick_chances(hand: Sequence[AnyCard], trump_card: AnyCard,
                  joker_discard: Joker | None = None) -> tuple[float, ...]:
    """Per card of ``hand`` (in hand order), a rough chance that it takes a trick.

    ``trump_card`` is the turned card (a joker means no trump, BA-13) and
    ``joker_discard`` the joker discarded under BA-13, if any.  The estimate
    counts the unseen cards of the card's class that outrank it and how
    likely the two opponents hold them, given the hand size; the lower cards
    of the same class held beside it act as guards.  A plain card loses
    value in the rounds where an opponent may be out of the suit and ruff;
    spare trumps gain value when a plain suit is short.

    >>> from cardrules import parse_card, parse_cards
    >>> chances = trick_chances(parse_cards("AS 2H BB", jokers=True), parse_card("9H"))
    >>> [round(p, 2) for p in chances]   # a plain ace in a 3-card deal is often ruffed or idle
    [0.19, 0.45, 1.0]
    """
    trump = trump_card.suit if isinstance(trump_card, Card) else None
    out = [trump_card.index] + ([] if joker_discard is None else [joker_discard.index])
    return tuple(_chances([c.index for c in hand], trump, out))


def expected_tricks(hand: Sequence[AnyCard], trump_card: AnyCard,
                    joker_discard: Joker | None = None) -> float:
    """The number of tricks ``hand`` should take: the sum of :func:`trick_chances`.

    >>> from cardrules import parse_card, parse_cards
    >>> round(expected_tricks(parse_cards("BB LB AS KS QS", jokers=True), parse_card("2S")), 1)
    5.0
    >>> round(expected_tricks(parse_cards("2H 3D 4C 5H 6D"), parse_card("2S")), 1)
    0.2
    """
    return sum(trick_chances(hand, trump_card, joker_discard))


def _distribution(chances: Sequence[float]) -> list[float]:
    """P(exactly t successes) for independent events with these chances."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for t, w in enumerate(dist):
            nxt[t] += w * (1.0 - p)
            nxt[t + 1] += w * p
        dist = nxt
    return dist


def _partner_tricks(bid: object, size: int) -> list[float]:
    """The partner's tricks as this bot reads them from the partner's bid."""
    if isinstance(bid, Bid | Pass):
        return list(_implied(size)[bid.tricks if isinstance(bid, Bid) else 0])
    return [1.0] + [0.0] * size  # not bid yet: the partner will bid for its own cards


@cache
def _implied(size: int) -> tuple[tuple[float, ...], ...]:
    """Per first bid n (0 for a pass, then 1 to size - 1): the tricks of a
    partner who bid n by this bot's own rule, as a distribution over 0..size.

    A hand expecting mu tricks is modelled as Binomial(size, mu / size); mu
    runs over a grid weighted around size / 4 (a fair share).  Each mu goes to
    the bid the rule picks for it, and the distributions of each bid's hands
    are averaged.
    """
    numbers = size  # pass (0) and the bids 1 to size - 1
    mixtures = [[0.0] * (size + 1) for _ in range(numbers)]
    totals = [0.0] * numbers
    centre, spread = size / 4, 0.5 * size ** 0.5 + 0.2
    for step in range(41):
        mu = size * step / 40
        p = mu / size
        dist = [_binom(size, t, p) for t in range(size + 1)]
        values = [_numeric_value(n, dist) for n in range(numbers)]
        n = values.index(max(values))
        prior = exp(-0.5 * ((mu - centre) / spread) ** 2)
        totals[n] += prior
        for t, w in enumerate(dist):
            mixtures[n][t] += prior * w
    table = []
    for n in range(numbers):
        if totals[n] > 0:
            table.append(tuple(w / totals[n] for w in mixtures[n]))
        else:  # a bid the rule never makes: trust it as said, plus half a trick
            p = min(1.0, (n + 0.5) / size)
            table.append(tuple(_binom(size, t, p) for t in range(size + 1)))
    return tuple(table)


def _numeric_value(contract: int, team: Sequence[float]) -> float:
    """The expected score of a numeric contract (BA-40) for a tricks distribution."""
    return sum(w * (4 * contract + t if t >= contract else -5 * contract)
               for t, w in enumerate(team))


class _Table:
    """What one seat knows during the play of a deal, from its view alone."""

    __slots__ = ("classes", "opp_seats", "powers", "seat", "sizes", "table", "unknown",
                 "unknown_count", "void")

    def __init__(self, view: View) -> None:
        trump = view.trump
        self.table = table_for(trump)
        self.classes, self.powers = self.table
        self.seat = view.seat
        self.sizes = view.hand_sizes
        self.opp_seats = ((view.seat + 1) % NUM_PLAYERS, (view.seat + 3) % NUM_PLAYERS)
        seen = {c.index for c in view.hand}
        if view.trump_card is not None:
            seen.add(view.trump_card.index)
        if view.joker_discard is not None:
            seen.add(view.joker_discard.index)
        if trump is None:
            seen |= {_BIG, _LITTLE}
        void = [[False] * 5 for _ in range(NUM_PLAYERS)]
        classes = self.classes
        done = [(t.leader, t.cards) for t in view.tricks]
        if view.leader is not None and view.trick:
            done.append((view.leader, view.trick))
        for leader, cards in done:
            led = classes[cards[0].index]
            for k, card in enumerate(cards):
                seen.add(card.index)
                if k and classes[card.index] != led:  # BA-31: could not follow
                    void[(leader + k) % NUM_PLAYERS][led] = True
        self.void = void
        self.unknown = [i for i in range(54) if i not in seen]
        self.unknown_count = [0] * 5
        for i in self.unknown:
            self.unknown_count[classes[i]] += 1

    def _share(self, seat: int) -> float:
        return min(1.0, self.sizes[seat] / max(len(self.unknown), 1))

    def risk(self, card: int, led: int, later: Sequence[int]) -> float:
        """The chance that an opponent among ``later`` beats ``card`` in a trick
        led with ``led`` (BA-33, BA-34)."""
        classes, powers = self.classes, self.powers
        if led == _BIG or (led == _LITTLE and card == _LITTLE):
            # BA-33: nothing beats BB; on an LB lead the others play their lowest trump.
            return 0.0
        led_class, cls, power = classes[led], classes[card], powers[card]
        higher = sum(1 for i in self.unknown if classes[i] == cls and powers[i] > power)
        trumps = self.unknown_count[TRUMP_CLASS]
        safe = 1.0
        for seat in later:
            if seat & 1 == self.seat & 1:
                continue
            share = self._share(seat)
            void = self.void[seat]
            out_of_led = 1.0 if void[led_class] else (1.0 - share) ** self.unknown_count[led_class]
            holds_higher = 0.0 if void[cls] else 1.0 - (1.0 - share) ** higher
            if cls == led_class:
                beat = holds_higher * (1.0 - out_of_led)
                if cls != TRUMP_CLASS and not void[TRUMP_CLASS]:
                    beat += out_of_led * (1.0 - (1.0 - share) ** trumps)
            else:  # a trump on a plain lead: over-ruffed by a higher trump
                beat = out_of_led * holds_higher
            safe *= 1.0 - min(beat, 1.0)
        return 1.0 - safe


class BackAlleyBot:
    """The opening every Back Alley bot's :meth:`act` shares, written once.

    With no legal action it raises :class:`ValueError`; with one it plays
    it; with a Back Alley :class:`~cardrules.back_alley.View` of the bidding
    (BA-20 to BA-24) or of the play (BA-30 to BA-34) it asks the bot's
    ``_bid`` or ``_play``; anything else goes to ``_other``, by default a
    choice among ``legal`` with the bot's own ``rng``.
    :class:`HeuristicBot`, :class:`~cardrules.back_alley.SearchBot` and
    :class:`~cardrules.back_alley.DoubleDummyBot` are built on it.

    >>> class LastBot(BackAlleyBot):
    ...     def __init__(self) -> None:
    ...         self.rng = random.Random(0)
    ...     def _bid(self, view, legal):
    ...         return legal[-1]
    >>> LastBot().act(None, [Pass()])
    Pass()
    """

    rng: random.Random

    def act(self, view: object, legal: Sequence[A]) -> A:
        """Choose one of ``legal`` for the seat of ``view``.

        Without a Back Alley view the choice is the bot's ``_other``.

        >>> HeuristicBot(seed=0).act(None, [Pass()])
        Pass()
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if isinstance(view, View):
            if view.phase is Phase.PLAY and isinstance(legal[0], Play):
                return self._play(view, legal)
            if view.phase is Phase.BID and isinstance(legal[0], Pass | Bid | Board):
                return self._bid(view, legal)
        return self._other(view, legal)

    def _bid(self, view: View, legal: Sequence[A]) -> A:
        raise NotImplementedError

    def _play(self, view: View, legal: Sequence[A]) -> A:
        raise NotImplementedError

    def _other(self, view: object, legal: Sequence[A]) -> A:
        return self.rng.choice(legal)


class HeuristicBot(BackAlleyBot):
    """Bids from an estimate of its tricks and plays sound trick-taking habits.

    **Bidding** (BA-20 to BA-24).  The bot estimates each card's chance of
    taking a trick (:func:`~cardrules.back_alley.bots.trick_chances`) and
    turns these into a distribution of its tricks.  It then picks the legal bid with the best
    expected team score under BA-40, counting the partner's bid when the
    partner has already bid (the contract is the sum).  It passes when the
    partner claimed board (a second board would only raise the stake,
    BA-23), and bids board only with an overwhelming hand (every trick at
    least 75% likely) that scores better than any number.  When the three
    others passed, passing throws the deal in (BA-25), so it counts as 0.

    **Play** (BA-30 to BA-34).  The legal list enforces following suit, the
    trump-lead restriction and the Blooper leads; among the legal cards the
    bot

    * ducks (plays its lowest card) when its partner is winning the trick
      and no opponent still to play is likely to beat the partner's card;
    * wins cheaply: of the cards that beat the trick so far, it plays the
      lowest one that the opponents still to play are more likely than not
      unable to beat (it tracks the cards played and who showed out of a
      suit);
    * as second player plays low unless it holds such a safe winner (its
      partner plays last); as third player plays its cheapest winner even
      when it might be beaten;
    * leads winners: master trumps first while the opponents may still hold
      trumps (drawing them), then the safest plain winner, else a low card
      of its longest plain suit;
    * saves trumps: it does not ruff a trick its partner is winning, ruffs
      with its lowest winning trump, and never throws away a trump or a
      master card while it holds anything else (it discards from its
      shortest suit first).

    With ``duck_when_made=True`` it also stops spending once its team's
    contract is made and the opponents' contract can no longer fail: it
    then wins only with a safe winner that is not a trump and leads low.
    This is off by default: every extra trick still scores a point (BA-40),
    and in paired self-play the habit cost its team points.

    Ties between equally good cards are broken by the bot's own
    ``random.Random(seed)``, so a seed fixes its play.

    >>> from cardrules.back_alley import ChooseDealer, Shuffle, apply, legal_actions, new_game, view
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=3), ChooseDealer(3)), Shuffle(CARDS))
    >>> str(view(state, 0).hand), str(state.trump_card)   # the ace, 2 and 3 of trumps
    ('AS 2S 3S', '4S')
    >>> str(HeuristicBot(seed=0).act(view(state, 0), legal_actions(state)))
    'bid 1'
    """

    #: A move takes a fraction of a millisecond: a server asks it on its event
    #: loop (:func:`cardrules.engine.bots.is_quick`).
    quick: ClassVar[bool] = True

    def __init__(self, seed: int | None = None, *, duck_when_made: bool = False) -> None:
        self.rng = random.Random(seed)
        self.duck_when_made = duck_when_made

    # -- bidding ------------------------------------------------------------------

    def _bid(self, view: View, legal: Sequence[A]) -> A:
        size = len(view.hand)
        partner = view.bids[(view.seat + 2) % NUM_PLAYERS]
        passes = [a for a in legal if isinstance(a, Pass)]
        if isinstance(partner, Board) and passes:
            return passes[0]
        assert view.trump_card is not None
        chances = trick_chances(view.hand, view.trump_card, view.joker_discard)
        mine = _distribution(chances)
        theirs = _partner_tricks(partner, size)
        team = [0.0] * (size + 1)
        for a, wa in enumerate(mine):
            for b, wb in enumerate(theirs):
                team[min(a + b, size)] += wa * wb
        base = partner.tricks if isinstance(partner, Bid) else 0
        others = [view.bids[(view.seat + k) % NUM_PLAYERS] for k in (1, 2, 3)]
        throw_in = all(isinstance(b, Pass) for b in others)  # BA-25: my pass throws it in
        best: A | None = None
        best_value = float("-inf")
        for action in legal:
            if isinstance(action, Board):
                continue
            number = action.tricks if isinstance(action, Bid) else 0
            if isinstance(action, Pass) and throw_in:
                value = 0.0
            else:
                value = _numeric_value(base + number, team)
            if value > best_value + 1e-9:
                best, best_value = action, value
        board = next((a for a in legal if isinstance(a, Board)), None)
        if board is not None:
            every = 1.0
            for p in chances:
                every *= p
            level = sum(isinstance(b, Board) for b in view.bids) + 1
            value = 10 * size * level * (2 * every - 1)
            if every >= _BOARD_CHANCE and value > best_value:
                return board
        assert best is not None  # pass is always legal (BA-21)
        return best

    # -- play ---------------------------------------------------------------------

    def _urgent(self, view: View) -> bool:
        """True while tricks still matter: the team's contract is open (or a
        board), or the opponents' contract can still be set (BA-40, BA-41)."""
        assert view.dealer is not None
        team = view.team
        ours = contract_of(view.bids, view.dealer, team)
        theirs = contract_of(view.bids, view.dealer, 1 - team)
        won = view.tricks_won[team] + view.tricks_won[team + 2]
        lost = view.tricks_won[1 - team] + view.tricks_won[3 - team]
        left = len(view.hand)
        if ours.is_board:
            if lost == 0:
                return True
        elif 0 < ours.tricks - won <= left:
            return True
        return _settable(theirs, lost, won, left)

    def _play(self, view: View, legal: Sequence[A]) -> A:
        table = _Table(view)
        cards: dict[int, A] = {}
        for action in legal:
            assert isinstance(action, Play)
            cards[action.card.index] = action
        urgent = not self.duck_when_made or self._urgent(view)
        if not view.trick:
            return cards[self._lead(view, table, list(cards), urgent)]
        return cards[self._follow(view, table, list(cards), urgent)]

    def _pick(self, options: Sequence[int], key: Callable[[int], Any]) -> int:
        """The option with the smallest key; ties by the bot's generator."""
        keyed = [(key(o), o) for o in options]
        low = min(k for k, _ in keyed)
        tied = [o for k, o in keyed if k == low]
        return tied[0] if len(tied) == 1 else self.rng.choice(tied)

    def _low(self, view: View, table: _Table, options: Sequence[int]) -> int:
        """The card to throw away: no trump or master while anything else is
        held, then the lowest, from the shortest suit."""
        classes, powers = table.classes, table.powers
        length = [0] * 5
        for card in view.hand:
            length[classes[card.index]] += 1
        later = table.opp_seats

        def key(card: int) -> tuple[bool, bool, int, int]:
            master = table.risk(card, card, later) < _SAFE
            return classes[card] == TRUMP_CLASS, master, powers[card], length[classes[card]]

        return self._pick(options, key)

    def _lead(self, view: View, table: _Table, options: list[int], urgent: bool) -> int:
        classes, powers = table.classes, table.powers
        if urgent:
            later = table.opp_seats
            risks = {c: table.risk(c, c, later) for c in options}
            masters = [c for c in options if risks[c] < _SAFE]
            trump_masters = [c for c in masters if classes[c] == TRUMP_CLASS]
            opponents_trumps = table.unknown_count[TRUMP_CLASS] > 0 and not all(
                table.void[s][TRUMP_CLASS] for s in later)
            if trump_masters and opponents_trumps:
                return self._pick(trump_masters, powers.__getitem__)
            plain = [c for c in masters if classes[c] != TRUMP_CLASS]
            if plain:
                return self._pick(plain, lambda c: (risks[c], powers[c]))
            if trump_masters:
                return self._pick(trump_masters, powers.__getitem__)
        length = [0] * 5
        for card in view.hand:
            length[classes[card.index]] += 1
        plain_options = [c for c in options if classes[c] != TRUMP_CLASS] or options
        return self._pick(plain_options, lambda c: (-length[classes[c]], powers[c]))

    def _follow(self, view: View, table: _Table, options: list[int], urgent: bool) -> int:
        classes, powers = table.classes, table.powers
        trick = [c.index for c in view.trick]
        led = trick[0]
        led_class = classes[led]
        leader = view.leader
        assert leader is not None
        best_seat = trick_winner(leader, trick, table.table)  # so far (BA-34)
        best_at = (best_seat - leader) % NUM_PLAYERS
        best_power = powers[trick[best_at]]
        later = [(leader + k) % NUM_PLAYERS for k in range(len(trick) + 1, NUM_PLAYERS)]
        winners = [c for c in options
                   if classes[c] in (TRUMP_CLASS, led_class) and powers[c] > best_power]
        safe = [c for c in winners if table.risk(c, led, later) < _SAFE]
        if best_seat & 1 == view.seat & 1:  # the partner is winning
            if table.risk(trick[best_at], led, later) < _SAFE or not urgent or not safe:
                return self._low(view, table, options)
            return self._pick(safe, powers.__getitem__)
        if not winners:
            return self._low(view, table, options)
        if not urgent:
            cheap = [c for c in safe if classes[c] != TRUMP_CLASS]
            return (self._pick(cheap, powers.__getitem__) if cheap
                    else self._low(view, table, options))
        if safe:
            return self._pick(safe, powers.__getitem__)
        if len(trick) == 1:  # second to play: low, the partner plays last
            return self._low(view, table, options)
        return self._pick(winners, powers.__getitem__)


def _settable(contract: Contract, taken: int, against: int, left: int) -> bool:
    """True when ``contract`` (of the team that has ``taken`` tricks, while the
    other team has ``against``) can still fail with ``left`` tricks to play."""
    if contract.is_board:
        return against == 0
    need = contract.tricks - taken
    return 0 < need <= left
