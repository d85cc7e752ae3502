"""A determinized Monte Carlo search bot for Down and Back: :class:`SearchBot`.

For each decision it draws states that fit its view
(:func:`~cardrules.down_and_back.determinize.determinize`), tries each
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
from collections.abc import Callable, Sequence
from typing import TypeVar

from cardrules.cards import DECK, Card
from cardrules.down_and_back._accel import split_actions, split_strengths, strength3, strength4
from cardrules.down_and_back.actions import Action, Discard, DrawDiscard, DrawStock, Split
from cardrules.down_and_back.analysis import _SHARE, _pareto, greedy_split
from cardrules.down_and_back.bots import (
    greedy_discard,
    greedy_index,
    greedy_measure,
    takes_discard,
    without_each,
)
from cardrules.down_and_back.determinize import determinize
from cardrules.down_and_back.game import apply, legal_actions, sample_chance
from cardrules.down_and_back.state import GameState, Phase, RoundResult
from cardrules.down_and_back.views import View, view
from cardrules.engine.bots import Bot
from cardrules.hand import Hand

__all__ = ["SearchBot", "greedy_action", "legal_options", "play_out"]

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
    return GameState(state.settings, state.ledger, state.phase, state.current_player,
                     tuple(hands), tuple(stock), state.discard, state.seen, state.turn,
                     state.drawn, tuple(splits), state.showdown)


def _pot_share(hand: tuple[int, ...], tables: list[tuple[int, int, int, int]],
               cache: dict[tuple[int, ...], int]) -> int:
    """The largest total pot share (in 1/3600 units) over the undominated
    splits of seven cards (card indices) against opponents' tables given as
    (best down, how many hold it, best back, how many hold it)."""
    known = cache.get(hand)
    if known is not None:
        return known
    scores = split_strengths([DECK[i] for i in hand])
    best = 0
    for n in _pareto(scores):
        d, b = scores[n]
        total = 0
        for top_d, many_d, top_b, many_b in tables:
            sd = _SHARE if d > top_d else _SHARE // (many_d + 1) if d == top_d else 0
            if sd:
                total += sd * (_SHARE if b > top_b else _SHARE // (many_b + 1)
                               if b == top_b else 0)
        best = max(best, total)
    cache[hand] = best
    return best


def greedy_action(state: GameState) -> Action:
    """What :class:`~cardrules.down_and_back.GreedyBot` does in ``state`` (not a
    cut), read straight from the state: the fast policy of rollouts.

    It takes the discard pile's top card when that makes a better hand,
    discards the card whose loss hurts least and splits to maximise the sum
    of the two hands' strengths; the measure is exactly GreedyBot's.

    >>> import random
    >>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut
    >>> rng = random.Random(1)
    >>> s = new_game(2)
    >>> s = apply(s, sample_chance(s, rng))
    >>> s = apply(apply(s, sample_chance(s, rng)), Cut(9))
    >>> greedy_action(s) in (DrawStock(), DrawDiscard())
    True
    """
    seat = state.current_player
    if seat is None:
        raise ValueError("nobody is to act (a chance point or the end of the game)")
    hand = state.hands[seat]
    phase = state.phase
    if phase is Phase.DRAW:
        if not state.discard:
            return DrawStock()
        return DrawDiscard() if takes_discard(hand, state.discard[-1]) else DrawStock()
    if phase is Phase.DISCARD:
        return Discard(greedy_discard(hand))
    if phase is Phase.SPLIT:
        return split_actions(hand)[greedy_index(split_strengths(hand))]
    raise ValueError(f"greedy_action plays draws, discards and splits, not {phase}")


def legal_options(view: View) -> tuple[DrawStock | DrawDiscard | Discard, ...]:
    """The legal draws (DB-34: stock, or the discard pile's top card when there
    is one) or discards (any card held) of the view's seat, in
    :func:`~cardrules.down_and_back.legal_actions` order.

    >>> from cardrules.down_and_back import new_game
    >>> legal_options(view(new_game(2), 0))
    Traceback (most recent call last):
    ...
    ValueError: seat 0 has no draw or discard to make in CHOOSE_DEALER
    """
    if view.current_player == view.seat and view.phase is Phase.DRAW:
        return (DrawStock(), DrawDiscard()) if view.discard else (DrawStock(),)
    if view.current_player == view.seat and view.phase is Phase.DISCARD:
        return tuple(Discard(c) for c in view.hand)
    raise ValueError(f"seat {view.seat} has no draw or discard to make in {view.phase}")


def play_out(state: GameState, action: Action, rng: random.Random, *,
             bot: Callable[[int | None], Bot] | None = None,
             bot_seed: int = 0) -> RoundResult:
    """Apply ``action`` for the player to act, then play to the end of the round.

    Every seat then plays with bots made by ``bot(bot_seed + seat)``, each
    seeing its own view, or, by default, with :func:`greedy_action`;
    chance events (reshuffles, DB-36) come from ``rng``.  Returns the
    round's :class:`~cardrules.down_and_back.RoundResult`.

    >>> import random
    >>> from cardrules.down_and_back import new_game, apply, sample_chance, Cut
    >>> rng = random.Random(4)
    >>> s = new_game(3)
    >>> s = apply(s, sample_chance(s, rng))
    >>> s = apply(apply(s, sample_chance(s, rng)), Cut(30))
    >>> result = play_out(s, DrawStock(), rng)
    >>> result.round, result.pot
    (1, 3)
    """
    done = len(state.results)
    state = apply(state, action, seat=state.current_player)
    bots = None if bot is None else [bot(bot_seed + seat) for seat in range(state.num_players)]
    while len(state.results) == done:
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
        elif bots is None:
            state = apply(state, greedy_action(state))
        else:
            seat = state.current_player
            assert seat is not None
            state = apply(state, bots[seat].act(view(state, seat), legal_actions(state)),
                          seat=seat)
    return state.results[done]


class SearchBot:
    """Determinized Monte Carlo search (perfect-information Monte Carlo).

    For a draw or a discard it takes the candidates (both draws; the
    ``width`` discards :class:`~cardrules.down_and_back.GreedyBot` rates
    best).  For each of ``rollouts`` states drawn to fit its view it plays
    every candidate and then the round out with greedy players
    (:func:`~cardrules.down_and_back.search.play_out`), with the same state
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
                top_d, top_b = max(downs), max(backs)
                tables.append((top_d, downs.count(top_d), top_b, backs.count(top_b)))
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
        numbers = _pareto(scores)
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
            top_d, top_b = max(downs), max(backs)
            for k, n in enumerate(numbers):
                d, b = scores[n]
                sd = _SHARE if d > top_d else _SHARE // (downs.count(d) + 1) if d == top_d else 0
                sb = _SHARE if b > top_b else _SHARE // (backs.count(b) + 1) if b == top_b else 0
                shares[k] += sd * sb
        # On equal shares, the greedy measure (sum of strengths) decides.
        best = max(range(len(numbers)),
                   key=lambda k: (shares[k], sum(scores[numbers[k]]), -numbers[k]))
        return legal[numbers[best]]
