"""How many tricks a Back Alley hand takes, and what to bid with it.

:func:`trick_estimate` answers from one seat's
:class:`~cardrules.back_alley.View` alone: it draws full deals consistent
with the view (:func:`~cardrules.back_alley.determinize`), plays each to the
end of the deal with rollout bots (:class:`~cardrules.back_alley.HeuristicBot`
by default, for all four seats) and counts the tricks the seat's team takes.

The result (:class:`TrickEstimate`) holds the distribution of the team's
tricks for the whole deal (tricks already won included), its mean with a
standard error, and, when the seat has still to bid, the expected team
score of every legal bid under BA-40 and BA-41 and the best of them.

The bid model: in each rollout the bids still to come, the seat's own
included, are made by the rollout bots, so the partner's bid is known when
the partner has already bid and simulated otherwise.  A candidate bid is
then scored on each rollout by putting it in place of the seat's own bid,
with the other three bids and the team's tricks as they came out of that
rollout (board levels are renumbered, BA-23, and a pass after three passes
is a throw-in that scores 0, BA-25).  So the tricks are those of the play
that followed the rollout bot's own bid; a different bid could change who
leads (BA-30) and whether the seat may lead trumps (BA-32).  When the
rollout bot's pass would throw the deal in, the rollout is played with the
lowest other bid instead, so that it still yields tricks.

>>> import random
>>> from cardrules.back_alley import apply, new_game, sample_chance, view
>>> rng = random.Random(4)
>>> state = new_game(max_hand_size=3)
>>> for _ in range(2):   # the first dealer and the shuffle
...     state = apply(state, sample_chance(state, rng))
>>> estimate = trick_estimate(view(state, state.current_player), samples=40, seed=1)
>>> len(estimate.probabilities), round(sum(estimate.probabilities), 9)
(4, 1.0)
>>> [str(b.bid) for b in estimate.bids]
['pass', 'bid 1', 'bid 2', 'board']
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import attrs

from cardrules.back_alley.actions import PASS, BidAction
from cardrules.back_alley.bots import HeuristicBot
from cardrules.back_alley.determinization import Determinizer
from cardrules.back_alley.game import BID_CHOICES, apply, legal_actions
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    GameState,
    Phase,
    bid_name,
    contract_of,
    score,
)
from cardrules.back_alley.views import View, view
from cardrules.engine.bots import Bot
from cardrules.i18n import gettext

__all__ = ["BidValue", "TrickEstimate", "trick_estimate"]

#: Rollouts per estimate unless told otherwise.
DEFAULT_SAMPLES = 200

_BID, _PLAY = Phase.BID, Phase.PLAY


@attrs.frozen(slots=True)
class BidValue:
    """One candidate bid and the team score it is expected to bring (BA-40, BA-41).

    ``expected_score`` is the mean over the rollouts, ``stderr`` its
    standard error, ``made`` the share of rollouts in which the contract
    was made (a throw-in counts as not made, BA-25).

    >>> from cardrules.back_alley import Bid
    >>> str(BidValue(Bid(2), 9.5, 0.8, 0.75))
    'bid 2: 9.50 (+- 0.80), made 75%'
    """

    bid: BidAction
    expected_score: float
    stderr: float
    made: float

    def __str__(self) -> str:
        return gettext("{bid}: {score} (+- {stderr}), made {made}").format(
            bid=bid_name(self.bid), score=f"{self.expected_score:.2f}",
            stderr=f"{self.stderr:.2f}", made=f"{self.made:.0%}")


@attrs.frozen(slots=True)
class TrickEstimate:
    """The tricks a seat's team takes in this deal, from rollouts.

    ``probabilities[t]`` is the chance that the team (``seat`` and its
    partner, BA-1) ends the deal with ``t`` tricks, for ``t`` from 0 to
    ``hand_size``; ``mean`` and ``stderr`` are the mean number of tricks and
    its standard error over ``samples`` rollouts.  ``bids`` holds a
    :class:`BidValue` per legal bid when the seat has still to bid (else it
    is empty), ``suggested_bid`` the one with the best expected score (None
    when the seat has already bid) and ``expected_score`` the expected team
    score of the suggested bid, or of the bids as made.

    >>> e = TrickEstimate(seat=0, hand_size=1, samples=4, probabilities=(0.25, 0.75),
    ...                   mean=0.75, stderr=0.25, bids=(), suggested_bid=None,
    ...                   expected_score=0.75)
    >>> e.team, e.most_likely
    (0, 1)
    """

    seat: int
    hand_size: int
    samples: int
    probabilities: tuple[float, ...]
    mean: float
    stderr: float
    bids: tuple[BidValue, ...]
    suggested_bid: BidAction | None
    expected_score: float

    @property
    def team(self) -> int:
        """The seat's team (BA-1).

        >>> TrickEstimate(3, 1, 1, (1.0, 0.0), 0.0, 0.0, (), None, 0.0).team
        1
        """
        return self.seat & 1

    @property
    def most_likely(self) -> int:
        """The number of team tricks with the highest probability (the lowest on a tie).

        >>> TrickEstimate(0, 2, 4, (0.25, 0.5, 0.25), 1.0, 0.3, (), None, 1.0).most_likely
        1
        """
        return max(range(len(self.probabilities)), key=lambda t: (self.probabilities[t], -t))

    def to_dict(self) -> dict[str, object]:
        """The estimate as plain JSON values (bids in their text form).

        >>> TrickEstimate(0, 1, 2, (0.5, 0.5), 0.5, 0.5, (), None, 0.5).to_dict()["mean"]
        0.5
        """
        return {
            "seat": self.seat, "team": self.team, "hand_size": self.hand_size,
            "samples": self.samples, "probabilities": list(self.probabilities),
            "mean": self.mean, "stderr": self.stderr,
            "bid_values": [{"bid": str(b.bid), "expected_score": b.expected_score,
                      "stderr": b.stderr, "made": b.made} for b in self.bids],
            "suggested_bid": None if self.suggested_bid is None else str(self.suggested_bid),
            "expected_score": self.expected_score,
        }


@attrs.frozen(slots=True)
class _Outcome:
    """One rollout: the four bids, the team's tricks and whether the
    rollout bot's own pass would have thrown the deal in."""

    bids: tuple[BidAction, ...]
    tricks: int
    thrown_in: bool


def _stats(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (0 for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def rollout_bots(factory: Callable[[int], Bot], rng: random.Random) -> list[Bot]:
    """Four rollout bots made by ``factory`` with seeds drawn from ``rng``.

    >>> bots = rollout_bots(HeuristicBot, random.Random(0))
    >>> len(bots), type(bots[0]).__name__
    (4, 'HeuristicBot')
    """
    return [factory(rng.randrange(1 << 32)) for _ in range(NUM_PLAYERS)]


def finish_deal(state: GameState, bots: Sequence[Bot]) -> GameState:
    """Let ``bots`` (one per seat) bid and play until the deal in progress is
    scored or thrown in (BA-25, BA-40); the state after that.

    >>> import random
    >>> from cardrules.back_alley import apply, new_game, sample_chance
    >>> rng = random.Random(1)
    >>> state = new_game(max_hand_size=2)
    >>> for _ in range(2):
    ...     state = apply(state, sample_chance(state, rng))
    >>> after = finish_deal(state, rollout_bots(HeuristicBot, rng))
    >>> after.phase.value, len(after.results) in (0, 1)
    ('shuffle', True)
    """
    phase = state.phase
    while phase is _BID or phase is _PLAY:
        seat = state.current_player
        assert seat is not None
        legal = legal_actions(state)
        action = legal[0] if len(legal) == 1 else bots[seat].act(view(state, seat), legal)
        state = apply(state, action)
        phase = state.phase
    return state


def _roll(state: GameState, seat: int, bots: Sequence[Bot]) -> _Outcome:
    """Play the deal of ``state`` out; see the module's bid model."""
    dealt = len(state.results)
    mine: GameState | None = None
    last = state
    while state.phase is _BID:
        actor = state.current_player
        assert actor is not None
        last = state
        if actor == seat:
            mine = state
        legal = legal_actions(state)
        state = apply(state, bots[actor].act(view(state, actor), legal))
    thrown_in = False
    if state.phase is not _PLAY:
        # All four passed (BA-25): the seat (or, when it had passed already,
        # the dealer) bids the lowest other bid instead.
        thrown_in = True
        again = last if mine is None else mine
        state = apply(again, legal_actions(again)[1])
        while state.phase is _BID:
            actor = state.current_player
            assert actor is not None
            state = apply(state, bots[actor].act(view(state, actor), legal_actions(state)))
    deal = state.deal
    assert deal is not None
    bids = tuple(b for b in deal.bids if b is not None)
    final = finish_deal(state, bots)
    result = final.results[dealt]
    return _Outcome(bids=bids, tricks=result.tricks[seat & 1], thrown_in=thrown_in)


def _bid_value(bid: BidAction, outcomes: Sequence[_Outcome], seat: int, dealer: int,
               size: int) -> BidValue:
    team = seat & 1
    scores: list[float] = []
    made = 0
    for outcome in outcomes:
        bids = (*outcome.bids[:seat], bid, *outcome.bids[seat + 1:])
        if bid is PASS and (outcome.thrown_in or all(b is PASS for b in bids)):
            scores.append(0.0)
            continue
        points = score(contract_of(bids, dealer, team), outcome.tricks, size)
        scores.append(float(points))
        made += points >= 0
    mean, err = _stats(scores)
    return BidValue(bid=bid, expected_score=mean, stderr=err, made=made / len(outcomes))


def trick_estimate(view: View, *, samples: int = DEFAULT_SAMPLES, seed: int | None = None,
                   bot: Callable[[int], Bot] | None = None) -> TrickEstimate:
    """The distribution of the tricks ``view.seat``'s team takes this deal, by
    ``samples`` rollouts over states drawn from the view (see
    the module ``cardrules.back_alley.analysis`` for the bid model).

    ``bot`` makes a rollout bot from a seed (default
    :class:`~cardrules.back_alley.HeuristicBot`); ``seed`` fixes the draws
    and the rollout bots' seeds.  Works from the first bid to the last
    trick; any other phase is a :class:`ValueError`.

    >>> import random
    >>> from cardrules.back_alley import apply, legal_actions, new_game, sample_chance, view
    >>> rng = random.Random(6)
    >>> state = new_game(max_hand_size=2)
    >>> for _ in range(2):
    ...     state = apply(state, sample_chance(state, rng))
    >>> while state.phase.value == "bid":
    ...     state = apply(state, legal_actions(state)[1])    # everyone bids 1
    >>> e = trick_estimate(view(state, 0), samples=30, seed=2)
    >>> e.hand_size, e.samples, e.suggested_bid, 0.0 <= e.mean <= 2.0
    (2, 30, None, True)
    >>> trick_estimate(view(state, 0), samples=30, seed=2) == e   # seeded
    True
    """
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a whole number of at least 1, not {samples!r}")
    factory = HeuristicBot if bot is None else bot
    sampler = Determinizer(view)
    rng = random.Random(seed)
    seat = view.seat
    outcomes = [_roll(sampler.sample(rng), seat, rollout_bots(factory, rng))
                for _ in range(samples)]
    size = view.hand_size
    counts = [0] * (size + 1)
    for outcome in outcomes:
        counts[outcome.tricks] += 1
    mean, err = _stats([float(o.tricks) for o in outcomes])
    dealer = view.dealer
    assert dealer is not None
    values: tuple[BidValue, ...] = ()
    suggested: BidAction | None = None
    if view.phase is _BID and view.bids[seat] is None:
        values = tuple(_bid_value(b, outcomes, seat, dealer, size) for b in BID_CHOICES[size])
        best = max(values, key=lambda v: v.expected_score)  # the first of equals
        suggested, expected = best.bid, best.expected_score
    else:
        team = seat & 1
        expected = _stats([0.0 if o.thrown_in else
                           float(score(contract_of(o.bids, dealer, team), o.tricks, size))
                           for o in outcomes])[0]
    return TrickEstimate(seat=seat, hand_size=size, samples=samples,
                         probabilities=tuple(c / samples for c in counts), mean=mean,
                         stderr=err, bids=values, suggested_bid=suggested,
                         expected_score=expected)
