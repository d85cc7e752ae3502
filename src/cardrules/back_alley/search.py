"""A Back Alley bot that searches: determinized Monte Carlo rollouts.

:class:`SearchBot` knows only its seat's :class:`~cardrules.back_alley.View`.
To play a card it draws full deals consistent with that view
(:class:`~cardrules.back_alley.Determinizer`, uniform among the deals the
table allows), plays each legal card in each drawn deal and lets four
:class:`~cardrules.back_alley.HeuristicBot` players finish the deal; it
keeps the card with the best mean score difference for its team (its
team's points for the deal minus the opponents', BA-40 to BA-42).  Every
card is tried on the same drawn deals with the same rollout seeds, so the
comparison is not blurred by luck.  For its bid it uses the
:class:`~cardrules.back_alley.HeuristicBot` bid by default, or, with
``bid_samples``, searches the bids next to it the same way.

>>> from cardrules.back_alley import HeuristicBot, play_game
>>> bots = [SearchBot(seed=1, samples=4), HeuristicBot(2), SearchBot(seed=3, samples=4),
...         HeuristicBot(4)]
>>> final = play_game(bots, max_hand_size=2, seed=5).state
>>> final.is_terminal, len(final.results)
(True, 3)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TypeVar

import attrs

from cardrules.back_alley.actions import CARDS, PLAYS, Bid, Board, Pass, Play
from cardrules.back_alley.analysis import finish_deal, rollout_bots
from cardrules.back_alley.bots import BackAlleyBot, HeuristicBot
from cardrules.back_alley.determinization import Determinizer, known_absent
from cardrules.back_alley.game import BID_CHOICES, apply, legal_actions
from cardrules.back_alley.state import NUM_PLAYERS, GameState, Phase
from cardrules.back_alley.trick import table_for
from cardrules.back_alley.views import View, view
from cardrules.cards import Card
from cardrules.hand import Hand

__all__ = ["SearchBot", "distinct_plays"]

A = TypeVar("A")
B = TypeVar("B")

#: Drawn deals per card decision unless told otherwise.
DEFAULT_SAMPLES = 12


class SearchBot(BackAlleyBot):
    """Plays by determinized Monte Carlo search; bids like :class:`HeuristicBot`.

    ``seed`` seeds the bot's own ``random.Random`` (the draws and the
    rollout bots' seeds), so a seed fixes its play.  ``samples`` is the
    number of deals drawn per card decision; each legal card is rolled out
    once per drawn deal, so a decision costs ``samples * len(legal)``
    rollouts to the end of the deal (a forced play costs none).
    Cards that touch (no unseen card of their class between them) win the
    same tricks, so only the lowest of them is tried.  ``confidence``
    (default 1.0) keeps the card :class:`HeuristicBot` would play unless the
    best card beats it on the same draws by more than that many standard
    errors of the mean gain, so that noise alone does not move the bot off
    a sound card; 0 plays the best total outright.  ``bid_samples``
    (default 0: the heuristic bid) searches the bid the same way: the
    heuristic bid, the numbers next to it and a pass are each tried on
    ``bid_samples`` drawn deals, the rest of the bidding and the play left
    to heuristic bots (a throw-in counts 0, BA-25).  ``inference`` (default 0: uniform draws)
    draws the deals instead from a Metropolis chain, ``inference`` swaps of
    hidden cards apart, that favours the deals in which a
    :class:`HeuristicBot` would have made the bids and plays the other
    seats made (each such choice it would not have made divides a deal's
    weight by e squared).  That models the other players as heuristic
    bots; in measurements it did not make the bot stronger against them.

    >>> import random
    >>> from cardrules.back_alley import apply, legal_actions, new_game, sample_chance, view
    >>> rng = random.Random(2)
    >>> state = new_game(max_hand_size=3)
    >>> for _ in range(2):
    ...     state = apply(state, sample_chance(state, rng))
    >>> while state.phase.value == "bid":
    ...     state = apply(state, legal_actions(state)[1])
    >>> seat = state.current_player
    >>> bot = SearchBot(seed=7, samples=6)
    >>> bot.act(view(state, seat), legal_actions(state)) in legal_actions(state)
    True
    """

    def __init__(self, seed: int | None = None, *, samples: int = DEFAULT_SAMPLES,
                 bid_samples: int = 0, inference: int = 0, confidence: float = 1.0) -> None:
        for name, value, least in (("samples", samples, 1), ("bid_samples", bid_samples, 0),
                                   ("inference", inference, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number of at least {least}, "
                                 f"not {value!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.bid_samples = bid_samples
        self.inference = inference
        if not isinstance(confidence, int | float) or isinstance(confidence, bool) or not (
                0.0 <= confidence < math.inf):
            raise ValueError(f"confidence must be a number of at least 0, not {confidence!r}")
        self.confidence = float(confidence)
        self._heuristic = HeuristicBot(self.rng.randrange(1 << 32))

    def _bid(self, view: View, legal: Sequence[A]) -> A:
        if not self.bid_samples:
            return self._heuristic.act(view, legal)
        heuristic = self._heuristic.act(view, legal)
        candidates = _near_bids(heuristic, legal)
        if len(candidates) == 1:
            return heuristic
        sampler = Determinizer(view)
        rng = self.rng
        team = view.seat & 1
        totals = [0] * len(candidates)
        for _ in range(self.bid_samples):
            state = sampler.sample(rng)
            seed = rng.randrange(1 << 32)
            dealt = len(state.results)
            for k, bid in enumerate(candidates):
                assert isinstance(bid, Pass | Bid | Board)
                final = finish_deal(apply(state, bid), rollout_bots(HeuristicBot,
                                                                    random.Random(seed)))
                if len(final.results) > dealt:   # else thrown in (BA-25): 0
                    points = final.results[dealt].points
                    totals[k] += points[team] - points[1 - team]
        best = max(totals)
        tied = [a for a, t in zip(candidates, totals, strict=True) if t == best]
        return heuristic if heuristic in tied else tied[0]

    def _play(self, view: View, legal: Sequence[A]) -> A:
        candidates = distinct_plays(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        default = self._heuristic.act(view, legal) if self.confidence else None
        if default is not None and default not in candidates:
            candidates.append(default)
        sampler = Determinizer(view)
        rng = self.rng
        team = view.seat & 1
        values: list[list[int]] = [[] for _ in candidates]
        for state in self._draw(view, sampler):
            seed = rng.randrange(1 << 32)  # the same rollout bots for every card
            dealt = len(state.results)
            for k, action in enumerate(candidates):
                bots = rollout_bots(HeuristicBot, random.Random(seed))
                assert isinstance(action, Play)
                final = finish_deal(apply(state, action), bots)
                points = final.results[dealt].points
                values[k].append(points[team] - points[1 - team])
        totals = [sum(v) for v in values]
        best = max(totals)
        tied = [a for a, t in zip(candidates, totals, strict=True) if t == best]
        if default is not None and default not in tied:
            # Leave the heuristic card only for a card that beats it clearly
            # on the same draws: a mean gain above ``confidence`` standard errors.
            choice = tied[0] if len(tied) == 1 else rng.choice(tied)
            gains = [b - d for b, d in zip(values[candidates.index(choice)],
                                            values[candidates.index(default)], strict=True)]
            mean = sum(gains) / len(gains)
            spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(len(gains) - 1, 1))
            return choice if mean > self.confidence * spread / math.sqrt(len(gains)) else default
        if default is not None:
            return default
        return tied[0] if len(tied) == 1 else rng.choice(tied)

    def _draw(self, view: View, sampler: Determinizer) -> list[GameState]:
        """The deals to search: ``samples`` uniform draws or, with
        ``inference``, draws from a Markov chain that favours the deals in
        which a heuristic player would have made the others' bids and plays."""
        rng = self.rng
        if not self.inference:
            return [sampler.sample(rng) for _ in range(self.samples)]
        return _Chain(view, sampler.sample(rng), rng).run(self.samples, self.inference)


def _near_bids(heuristic: B, legal: Sequence[B]) -> list[B]:
    """The bids worth searching: the heuristic bid, the numbers next to it
    and a pass (a board only when the heuristic bid is one)."""
    board = isinstance(heuristic, Board)
    number = heuristic.tricks if isinstance(heuristic, Bid) else 0
    wanted = {0} if board else {0, number - 1, number, number + 1}
    out: list[B] = []
    for bid in legal:
        if isinstance(bid, Board):
            if board:
                out.append(bid)
        elif (bid.tricks if isinstance(bid, Bid) else 0) in wanted:
            out.append(bid)
    return out


def distinct_plays(view: View, legal: Sequence[A]) -> list[A]:
    """``legal`` less the cards that are equivalent to a lower one: two cards
    of a class with no unseen card between them in rank (only cards of the
    seat's own hand or cards already played) win and lose the same tricks.
    The lowest of each such run is kept.  The searching bots try only these.

    Seat 0 holds the ace to the four of the trump suit: 2S, 3S and 4S
    touch, so only the 2 of them is kept, and the ace (the 5 to the king
    lie between) stays:

    >>> from cardrules.back_alley import (Bid, ChooseDealer, Pass, Shuffle, apply,
    ...                                   legal_actions, new_game, view)
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=4), ChooseDealer(3)), Shuffle(CARDS))
    >>> for bid in (Bid(3), Pass(), Pass(), Pass()):
    ...     state = apply(state, bid)
    >>> [str(play) for play in distinct_plays(view(state, 0), legal_actions(state))]
    ['play 2S', 'play AS']
    """
    trump = view.trump
    classes, powers = table_for(trump)
    played = {c.index for t in view.tricks for c in t.cards}
    played.update(c.index for c in view.trick)
    held = {c.index for c in view.hand}
    kept: list[A] = []
    by_index: dict[int, A] = {}
    for action in legal:
        assert isinstance(action, Play)
        by_index[action.card.index] = action
    for index in sorted(by_index, key=powers.__getitem__):
        cls = classes[index]
        lower = [i for i in range(54) if classes[i] == cls and powers[i] < powers[index]
                 and i not in played]
        below = max(lower, key=powers.__getitem__, default=None)
        if below is not None and below in held and below in by_index:
            continue   # the next live card below is ours and playable: equivalent
        kept.append(by_index[index])
    return kept


#: The weight of a deal in the inference chain falls by this factor for every
#: bid or play of another seat that a heuristic player would not have made.
_MISS_FACTOR = math.exp(-2.0)


class _Chain:
    """Metropolis sampling over the hidden cards of one view: swap a card of
    one other seat with a card of another seat or an undealt card (keeping
    every shown void), accept by the change in the number of misses."""

    def __init__(self, view: View, start: GameState, rng: random.Random) -> None:
        self.seat = view.seat
        self.rng = rng
        deal = start.deal
        assert deal is not None
        self.absent = known_absent(start)
        no_jokers = deal.trump is None
        self.fixed = {52, 53} if no_jokers else set()
        self.others = [s for s in range(NUM_PLAYERS) if s != view.seat]
        self.hands = [list(h) for h in start.hand_indexes]
        self.undealt = [c.index for c in deal.undealt if c.index not in self.fixed]
        self.start = start
        self.misses = _seat_misses(start, view.seat, self.others)

    def _state(self) -> GameState:
        start = self.start
        deal = start.deal
        assert deal is not None
        hands = tuple(tuple(sorted(h)) for h in self.hands)
        undealt = sorted([*self.undealt, *(c.index for c in deal.undealt
                                           if c.index in self.fixed)])
        taken = deal.taken
        if deal.exchanger is not None and deal.exchanger != self.seat:
            dealt = list(hands[deal.exchanger])
            for trick in start.tricks:
                dealt.extend(c.index for k, c in enumerate(trick.cards)
                             if (trick.leader + k) % NUM_PLAYERS == deal.exchanger)
            leader = start.leader or 0
            dealt.extend(i for k, i in enumerate(start.trick_indexes)
                         if (leader + k) % NUM_PLAYERS == deal.exchanger)
            card = CARDS[self.rng.choice(sorted(dealt))]
            assert isinstance(card, Card)
            taken = card
        new_deal = attrs.evolve(deal, taken=taken, undealt=Hand.of_sorted(
            tuple(CARDS[i] for i in undealt)))
        return attrs.evolve(start, hand_indexes=hands, deal=new_deal)

    def _step(self) -> None:
        rng = self.rng
        holders = [s for s in self.others if self.hands[s]]
        if not holders:
            return
        a = rng.choice(holders)
        piles = [s for s in holders if s != a] + [-1]
        b = rng.choice(piles)
        pile_b = self.undealt if b < 0 else self.hands[b]
        if not pile_b:
            return
        i, j = rng.randrange(len(self.hands[a])), rng.randrange(len(pile_b))
        card_a, card_b = self.hands[a][i], pile_b[j]
        if card_b in self.absent[a] or (b >= 0 and card_a in self.absent[b]):
            return
        self.hands[a][i], pile_b[j] = card_b, card_a
        changed = [a] if b < 0 else [a, b]
        trial = _seat_misses(self._state(), self.seat, changed)
        delta = sum(trial[s] - self.misses[s] for s in changed)
        if delta <= 0 or rng.random() < _MISS_FACTOR ** delta:
            for s in changed:
                self.misses[s] = trial[s]
        else:
            self.hands[a][i], pile_b[j] = card_a, card_b

    def run(self, samples: int, every: int) -> list[GameState]:
        for _ in range(4 * every):   # burn in
            self._step()
        states = []
        for _ in range(samples):
            for _ in range(every):
                self._step()
            states.append(self._state())
        return states


def _seat_misses(state: GameState, seat: int, seats: Sequence[int]) -> list[int]:
    """Per seat of ``seats`` (other than ``seat``), how many of its bids and
    plays this deal a :class:`HeuristicBot` would not have made with its hand
    in ``state`` (the hand as dealt: held plus played); 0 for the others.

    Each seat's choices depend only on its own cards and the public table,
    so a seat's count does not change when other hands change."""
    deal, dealer = state.deal, state.dealer
    assert deal is not None
    assert dealer is not None
    dealt: list[list[int]] = [list(h) for h in state.hand_indexes]
    played: list[int] = []
    for trick in state.tricks:
        for k, card in enumerate(trick.cards):
            dealt[(trick.leader + k) % NUM_PLAYERS].append(card.index)
            played.append(card.index)
    leader = state.leader or 0
    for k, index in enumerate(state.trick_indexes):
        dealt[(leader + k) % NUM_PLAYERS].append(index)
        played.append(index)
    hands = tuple(tuple(sorted(h)) for h in dealt)
    watched = [s != seat and s in seats for s in range(NUM_PLAYERS)]
    bot = HeuristicBot(0)
    misses = [0] * NUM_PLAYERS
    replay = GameState(settings=state.settings, history=state.history, phase=Phase.BID,
                       dealer=dealer, deal=attrs.evolve(deal, bids=(None,) * NUM_PLAYERS),
                       current_player=(dealer + 1) % NUM_PLAYERS, leader=None,
                       hand_indexes=hands, trick_indexes=(), tricks_won=(0,) * NUM_PLAYERS,
                       tricks=(), trump_played=False)
    for k in range(1, NUM_PLAYERS + 1):
        bidder = (dealer + k) % NUM_PLAYERS
        made = deal.bids[bidder]
        if made is None:
            return misses
        if watched[bidder]:
            misses[bidder] += bot.act(view(replay, bidder), BID_CHOICES[deal.hand_size]) != made
        replay = apply(replay, made)
    for index in played:
        actor = replay.current_player
        assert actor is not None
        action = PLAYS[index]
        if watched[actor]:
            legal = legal_actions(replay)
            if len(legal) > 1:
                misses[actor] += bot.act(view(replay, actor), legal) != action
        replay = apply(replay, action)
    return misses


def _misses(state: GameState, seat: int) -> int:
    """How many of the other seats' bids and plays this deal a
    :class:`HeuristicBot` would not have made with the hands of ``state``."""
    return sum(_seat_misses(state, seat, range(NUM_PLAYERS)))
