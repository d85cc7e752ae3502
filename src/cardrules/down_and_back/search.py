"""A determinized Monte Carlo search bot for Down and Back: :class:`SearchBot`.

For each decision it draws states that fit its view
(:func:`~cardrules.down_and_back.determinization.determinize`), tries each
candidate action in every one of them, plays the round out with greedy
players (:class:`~cardrules.down_and_back.GreedyBot`'s choices) and keeps
the action whose final hands would take the largest share of pots (DB-43).
It sees only its view.

>>> from cardrules.down_and_back import GreedyBot, play_game
>>> game = play_game([SearchBot(seed=1, rollouts=4), GreedyBot(seed=2)], rounds=1, seed=3)
>>> game.state.is_terminal
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import attrs

from cardrules.cards import DECK, Card
from cardrules.down_and_back._accel import split_strengths, strength3, strength4
from cardrules.down_and_back.actions import Discard, DrawDiscard, DrawStock, Split
from cardrules.down_and_back.analysis import greedy_split
from cardrules.down_and_back.bots import (
    greedy_measure,
    takes_discard,
    without_each,
)
from cardrules.down_and_back.determinization import determinize
from cardrules.down_and_back.rollout import play_out, undominated
from cardrules.down_and_back.showdown import pot_share, rivals_table
from cardrules.down_and_back.state import GameState, Phase
from cardrules.down_and_back.views import View
from cardrules.hand import Hand

__all__ = ["SearchBot"]

A = TypeVar("A")


def _keep_greedily(hand: list[Card], fixed: frozenset[Card], card: Card) -> Card:
    """Add ``card`` to ``hand`` (in place) and take out the card, not one of
    ``fixed``, whose loss leaves the best seven (GreedyBot's discard); returns it."""
    hand.append(card)
    best, out = -1, len(hand) - 1
    for n, rest in enumerate(without_each(hand)):
        if hand[n] in fixed:
            continue
        value = greedy_measure(rest)
        if value > best:
            best, out = value, n
    return hand.pop(out)


def _strengthen(state: GameState, view: View, rng: random.Random) -> GameState:
    """``state`` (drawn uniformly to fit ``view``) with each opponent's unseen
    cards replaced by what a greedy player would have kept.

    An opponent who has finished ``t`` turns drew ``t`` cards and each time
    threw away the card it valued least; uniform draws forget that and make
    opponents far too weak.  So the opponent's hand goes through
    ``3 t - 2 s`` greedy steps, ``s`` being the cards it holds that were
    seen taken from the discard pile: a random card of the stock joins the
    hand and :class:`~cardrules.down_and_back.GreedyBot`'s discard (never a
    seen card, which the view shows is still held) goes back in its place in
    the stock.  Three steps per turn is a calibration, not a derivation: a
    greedy player also chooses between the pile's top card and the stock,
    and with three steps per unseen draw the mean
    :func:`~cardrules.down_and_back.hand_value` of the drawn hands comes
    within about 0.4 of that of greedy players' real hands from the second
    turn to the showdown (uniform draws fall short by up to 3.5).  The view
    is unchanged: only unseen cards move between unseen places.

    >>> import random
    >>> from cardrules.down_and_back import new_game, view
    >>> fresh = new_game(3)
    >>> _strengthen(fresh, view(fresh, 0), random.Random(1)) is fresh
    True
    """
    if state.phase not in (Phase.DRAW, Phase.DISCARD, Phase.SPLIT):
        return state
    seat, stock = view.seat, list(state.stock)
    if not stock:
        return state
    hands = list(state.hands)
    splits = list(state.splits)
    moving = state.current_player if state.phase is Phase.DISCARD else None
    changed = False
    for other in range(view.num_players):
        if other in (seat, moving) or (splits[other] is not None and view.splits[other]):
            continue
        fixed = frozenset(view.seen[other])
        draws = 3 * view.turns[other] - 2 * len(fixed)
        if draws <= 0 or len(fixed) >= len(hands[other]):
            continue
        hand = list(hands[other])
        for _ in range(draws):
            place = rng.randrange(len(stock))
            stock[place] = _keep_greedily(hand, fixed, stock[place])
        hands[other] = Hand(hand)
        if splits[other] is not None:
            splits[other] = greedy_split(hands[other])
        changed = True
    if not changed:
        return state
    return attrs.evolve(state, hands=tuple(hands), stock=tuple(stock), splits=tuple(splits))


def _pot_share(hand: tuple[int, ...], tables: list[tuple[int, int, int, int]],
               cache: dict[tuple[int, ...], int]) -> int:
    """The largest total pot share (in units of ``SHARE ** 2``, DB-43) over
    the undominated splits of seven cards (card indices) against opponents'
    tables (:func:`~cardrules.down_and_back.showdown.rivals_table`)."""
    known = cache.get(hand)
    if known is not None:
        return known
    scores = split_strengths([DECK[i] for i in hand])
    best = 0
    for n in undominated(scores):
        d, b = scores[n]
        best = max(best, sum(pot_share(d, b, table) for table in tables))
    cache[hand] = best
    return best


class SearchBot:
    """Determinized Monte Carlo search (perfect-information Monte Carlo).

    For a draw or a discard it takes the candidates (both draws; the
    ``width`` discards :class:`~cardrules.down_and_back.GreedyBot` rates
    best).  For each of ``rollouts`` states drawn to fit its view it plays
    every candidate and then the round out with greedy players
    (:func:`~cardrules.down_and_back.rollout.play_out`), with the same state
    and chance for every candidate.  A rollout's own winner is one draw of
    many, so each rollout is scored by the seat's final seven cards instead:
    the share of pots (DB-43) their best undominated split takes against the
    final splits of the opponents of all the rollouts (ties shared as in
    :func:`~cardrules.down_and_back.analysis.split_odds`).  It keeps the
    candidate with the largest total; on a tie, the greedy choice.
    ``rollouts=0`` leaves draws and discards to the greedy choice.

    To split (DB-40) it rates every split no other split beats in both hands
    against the opponents' hands in ``split_samples`` states drawn to fit its
    view, each opponent splitting greedily
    (:func:`~cardrules.down_and_back.analysis.greedy_split`), and keeps the
    one with the largest share of pots (ties shared as in
    :func:`~cardrules.down_and_back.analysis.split_odds`; on equal shares
    the larger sum of strengths).  Cuts are random.

    With ``infer=True`` the states it draws are not uniform: each opponent's
    unseen cards are those a greedy player would have kept from the draws it
    has made (cards seen taken from the discard pile stay in the hand,
    DB-37), since uniform draws make the opponents' hands far weaker than
    greedy players' hands really are.  It costs about half as much time
    again and, in 300 trial games, did not play measurably better than
    uniform draws with the same rollouts, so it is off by default; the
    default spends the time on more rollouts instead (see the bot ladder in
    the analysis page of the docs).

    ``seed`` seeds its own generator, so a seed and a game give the same
    choices; its cuts (and any choice made without a view) come from a
    generator of their own, so they are those of a
    :class:`~cardrules.down_and_back.GreedyBot` with the same seed, which
    lets a ladder compare the two on the same deals.  It implements the
    engine's ``Bot`` protocol and is registered as ``"search"`` in
    ``RULES.bots``.

    >>> from cardrules.down_and_back import Cut
    >>> bot = SearchBot(seed=0, rollouts=8)
    >>> bot.act(None, [Cut(5)])
    Cut(count=5)
    """

    def __init__(self, seed: int | None = None, *, rollouts: int = 32, width: int = 3,
                 split_samples: int = 200, infer: bool = False) -> None:
        if rollouts < 0 or width < 1 or split_samples < 1:
            raise ValueError("rollouts must be at least 0, width and split_samples at least 1")
        self.rng = random.Random(seed)
        # Cuts and choices without a view draw from a generator of their own,
        # so that they match a GreedyBot's with the same seed.
        self._plain = random.Random(seed)
        self.rollouts = rollouts
        self.width = width
        self.split_samples = split_samples
        self.infer = infer

    def act(self, view: object, legal: Sequence[A]) -> A:
        """Choose one of ``legal`` for the seat that ``view`` belongs to.

        >>> SearchBot(seed=1).act(None, ["a"])
        'a'
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if not isinstance(view, View):
            return self._plain.choice(legal)
        first = legal[0]
        if isinstance(first, Split):
            return self._split(view, legal)
        if isinstance(first, DrawStock | DrawDiscard | Discard):
            return self._play(view, legal)
        return self._plain.choice(legal)

    def _candidates(self, view: View, legal: Sequence[A]) -> list[A]:
        if isinstance(legal[0], Discard):
            # legal discards come in the hand's order
            values = [greedy_measure(rest) for rest in without_each(view.hand)]
            ranked = sorted(range(len(legal)), key=lambda n: -values[n])
            return [legal[n] for n in ranked[:self.width]]
        greedy = DrawDiscard() if view.discard and takes_discard(view.hand, view.discard[-1]) \
            else DrawStock()
        return sorted(legal, key=lambda a: a != greedy)

    def _deal(self, view: View) -> GameState:
        """A state drawn to fit ``view``, opponents strengthened when inferring."""
        state = determinize(view, self.rng, split=greedy_split)
        return _strengthen(state, view, self.rng) if self.infer else state

    def _play(self, view: View, legal: Sequence[A]) -> A:
        candidates = self._candidates(view, legal)
        if len(candidates) == 1 or not self.rollouts:
            return candidates[0]
        seat, rng = view.seat, self.rng
        finals: list[list[tuple[int, ...]]] = [[] for _ in candidates]
        tables: list[tuple[int, int, int, int]] = []
        for _ in range(self.rollouts):
            state = self._deal(view)
            chance = rng.getrandbits(32)
            for n, action in enumerate(candidates):
                result = play_out(state, action, random.Random(chance))  # type: ignore[arg-type]
                mine = result.splits[seat]
                finals[n].append(tuple(sorted(c.index for c in (*mine.down, *mine.back))))
                downs = [strength4(s.down) for o, s in enumerate(result.splits) if o != seat]
                backs = [strength3(s.back) for o, s in enumerate(result.splits) if o != seat]
                tables.append(rivals_table(downs, backs))
        # A rollout's own outcome is one draw of many; the seat's final hand is
        # scored instead by its best split's share of pots against the final
        # hands of all the rollouts' opponents (the same yardstick for all
        # candidates: yardsticks of each candidate's own rollouts are noisier
        # and played worse in the ladder).
        cache: dict[tuple[int, ...], int] = {}
        totals = [sum(_pot_share(hand, tables, cache) for hand in hands) for hands in finals]
        return candidates[totals.index(max(totals))]

    def _split(self, view: View, legal: Sequence[A]) -> A:
        scores = split_strengths(view.hand)   # legal splits come in this order
        numbers = undominated(scores)
        if len(numbers) == 1:
            return legal[numbers[0]]
        shares = [0] * len(numbers)
        seat = view.seat
        for _ in range(self.split_samples):
            state = self._deal(view)
            downs, backs = [], []
            for other in range(view.num_players):
                if other == seat:
                    continue
                chosen = state.splits[other] or greedy_split(state.hands[other])
                downs.append(strength4(chosen.down))
                backs.append(strength3(chosen.back))
            table = rivals_table(downs, backs)
            for k, n in enumerate(numbers):
                d, b = scores[n]
                shares[k] += pot_share(d, b, table)
        # On equal shares, the greedy measure (sum of strengths) decides.
        best = max(range(len(numbers)),
                   key=lambda k: (shares[k], sum(scores[numbers[k]]), -numbers[k]))
        return legal[numbers[best]]
