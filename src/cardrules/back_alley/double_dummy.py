"""A Back Alley bot that plays by solving sampled deals double dummy.

:class:`DoubleDummyBot` is perfect-information Monte Carlo, as the strong
bridge programs play: at each decision it draws full deals consistent with
its seat's :class:`~cardrules.back_alley.View`
(:class:`~cardrules.back_alley.Determinizer`: uniform among the deals the
table allows, every void shown by a failure to follow kept, the card taken
under BA-13 drawn among the cards its taker was dealt), solves every drawn
deal with all hands open (:mod:`cardrules.back_alley.solver`) and chooses
the action that does best on average over the draws.

What it maximises.  A deal scores each team on its own contract (BA-40 to
BA-42), so the bot values a play by the points difference of the deal, its
team's score less the opponents', given the team's final tricks.  That
difference only grows with the team's tricks, and for a quantity that
grows with the tricks the best play of a deal with every hand open is the
play that takes the most tricks: so on one drawn deal the double-dummy
value of a card turned into points is exact.  The averaging over the
draws is done in points, not in tricks: a card that makes the contract on
more draws is preferred to one that takes more overtricks on average.

Bidding.  For each drawn deal the bot lets :class:`HeuristicBot` players
make the bids still to come (its own first, by the heuristic's choice), so
that the deal reaches its opening lead with the leader (BA-30) and the
board exception of BA-32 as the rules give them, and solves it
(:func:`~cardrules.back_alley.solver.max_tricks`): that gives a
distribution of the team's tricks.  Each legal bid is then valued by the
team's expected score (BA-40, BA-41) with the partner's bid as made, or,
when the partner bids later, as the heuristic partner would answer that
bid on that draw; a pass after three passes throws the deal in (BA-25) and
counts 0.  The best bid is kept (on a tie, the heuristic's bid if it is
among the best, else the first in the order pass, numbers, board).  The
tricks of every candidate are those of the one solved line, whose leader
follows from the heuristic bid: a different bid could change who leads.

Every other decision (Back Alley has none besides bids and plays; dealing,
the BA-13 exchange and throw-ins happen inside ``apply``) is left to
:class:`HeuristicBot`.

Cost per decision: ``samples`` draws and one solve per draw
(:func:`~cardrules.back_alley.solver.play_values` for a play,
:func:`~cardrules.back_alley.solver.max_tricks` for a bid); a forced play,
or a choice between cards that win the same tricks, costs nothing.

>>> from cardrules.back_alley import HeuristicBot, play_game
>>> bots = [DoubleDummyBot(1, samples=4), HeuristicBot(2), DoubleDummyBot(3, samples=4),
...         HeuristicBot(4)]
>>> final = play_game(bots, max_hand_size=2, seed=5).state
>>> final.is_terminal, len(final.results)
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from cardrules.back_alley.actions import Bid, BidAction, Board, Pass, Play
from cardrules.back_alley.bots import HeuristicBot
from cardrules.back_alley.determinize import Determinizer
from cardrules.back_alley.game import apply, legal_actions
from cardrules.back_alley.search import _distinct
from cardrules.back_alley.solver import IMPLEMENTATIONS, max_tricks, play_values
from cardrules.back_alley.state import NUM_PLAYERS, GameState, Phase, contract_of, score
from cardrules.back_alley.trick import table_for
from cardrules.back_alley.views import View, view

__all__ = ["DEFAULT_SAMPLES", "DoubleDummyBot"]

A = TypeVar("A")

#: Deals drawn per decision unless told otherwise.
DEFAULT_SAMPLES = 16


class DoubleDummyBot:
    """Plays the card with the best average double-dummy result over deals
    drawn from its view; bids from the double-dummy tricks of drawn deals.

    ``seed`` seeds the bot's own ``random.Random`` (its draws and the seeds
    of the heuristic bidders it imagines), so a seed fixes its choices for
    the same views.  ``samples`` (default :data:`DEFAULT_SAMPLES`) is the
    number of deals drawn per play and ``bid_samples`` (default: the same)
    per bid, 0 for the :class:`HeuristicBot` bid; ``implementation`` is passed to the solver (one of
    :data:`cardrules.back_alley.solver.IMPLEMENTATIONS`).  See the module
    ``cardrules.back_alley.double_dummy`` for what it maximises and how it
    bids.  The bot sees only the view it is given.

    >>> from cardrules.back_alley import apply, legal_actions, new_game, sample_chance, view
    >>> import random
    >>> rng = random.Random(2)
    >>> state = new_game(max_hand_size=3)
    >>> for _ in range(2):
    ...     state = apply(state, sample_chance(state, rng))
    >>> bot = DoubleDummyBot(seed=7, samples=6)
    >>> bid = bot.act(view(state, state.current_player), legal_actions(state))
    >>> bid in legal_actions(state)
    True
    >>> DoubleDummyBot(samples=0)
    Traceback (most recent call last):
    ...
    ValueError: samples must be a whole number of at least 1, not 0
    """

    def __init__(self, seed: int | None = None, *, samples: int = DEFAULT_SAMPLES,
                 bid_samples: int | None = None, implementation: str = "auto") -> None:
        if bid_samples is None:
            bid_samples = samples
        for name, value, least in (("samples", samples, 1), ("bid_samples", bid_samples, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number of at least {least}, "
                                 f"not {value!r}")
        if implementation not in IMPLEMENTATIONS:
            raise ValueError(f"implementation must be one of {', '.join(IMPLEMENTATIONS)}, "
                             f"not {implementation!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.bid_samples = bid_samples
        self.implementation = implementation
        self._heuristic = HeuristicBot(self.rng.randrange(1 << 32))

    def act(self, view: object, legal: Sequence[A]) -> A:
        """Choose one of ``legal`` for the seat of ``view``.

        Without a Back Alley view it leaves the choice to
        :class:`HeuristicBot` (which picks at random among ``legal``).

        >>> DoubleDummyBot(seed=0).act(None, [Pass()])
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
        return self._heuristic.act(view, legal)

    # -- play ---------------------------------------------------------------------

    def _play(self, view: View, legal: Sequence[A]) -> A:
        distinct = _distinct(view, legal)
        if len(distinct) == 1:   # every card wins the same tricks: the lowest
            return distinct[0]
        # Ask the heuristic first, so that its generator moves the same way
        # at every decision whatever the draws say.
        default = self._heuristic.act(view, legal)
        sampler = Determinizer(view)
        draws = 1 if sampler.count == 1 else self.samples
        team = view.seat & 1
        size = view.hand_size
        won = view.tricks_won[team] + view.tricks_won[team + 2]
        dealer = view.dealer
        assert dealer is not None
        ours = contract_of(view.bids, dealer, team)
        theirs = contract_of(view.bids, dealer, 1 - team)
        # The points difference of the deal for every final number of team tricks.
        worth = [score(ours, t, size) - score(theirs, size - t, size) for t in range(size + 1)]
        points = dict.fromkeys(distinct, 0)
        tricks = dict.fromkeys(distinct, 0)
        for _ in range(draws):
            values = play_values(sampler.sample(self.rng), implementation=self.implementation)
            for action in distinct:
                assert isinstance(action, Play)
                taken = values[action]
                points[action] += worth[won + taken]
                tricks[action] += taken
        best = max((points[a], tricks[a]) for a in distinct)
        tied = [a for a in distinct if (points[a], tricks[a]) == best]
        if default in tied:
            return default
        _, powers = table_for(view.trump)
        lowest = tied[0]
        for action in tied:   # else the lowest of the best cards (BA-3)
            assert isinstance(action, Play)
            assert isinstance(lowest, Play)
            if powers[action.card.index] < powers[lowest.card.index]:
                lowest = action
        return lowest

    # -- bidding ------------------------------------------------------------------

    def _bid(self, view: View, legal: Sequence[A]) -> A:
        team = view.seat & 1
        size = view.hand_size
        dealer = view.dealer
        assert dealer is not None
        reference = self._heuristic.act(view, legal)
        if not self.bid_samples:
            return reference
        bids: list[BidAction] = []
        for action in legal:
            assert isinstance(action, Pass | Bid | Board)
            bids.append(action)
        sampler = Determinizer(view)
        draws = 1 if sampler.count == 1 else self.bid_samples
        totals = [0] * len(bids)
        for _ in range(draws):
            drawn = sampler.sample(self.rng)
            seeds = [self.rng.randrange(1 << 32) for _ in range(NUM_PLAYERS)]
            start = _opening_lead(drawn, bids[legal.index(reference)], seeds)
            if start is None:   # the heuristic bids threw it in: the lowest number instead
                start = _opening_lead(drawn, bids[1], seeds)
            if start is None:   # pragma: no cover - a number or board is never thrown in
                continue
            leader = start.current_player
            assert leader is not None
            solved = max_tricks(start, implementation=self.implementation)
            taken = solved if leader & 1 == team else size - solved
            for k, bid in enumerate(bids):
                made = _bids_after(drawn, bid, seeds)
                if made is not None:   # else every seat passed: thrown in, 0 (BA-25)
                    totals[k] += score(contract_of(made, dealer, team), taken, size)
        best = max(totals)
        tied = [a for a, t in zip(legal, totals, strict=True) if t == best]
        return reference if reference in tied else tied[0]


def _bid_out(state: GameState, bid: BidAction,
             seeds: Sequence[int]) -> tuple[GameState, tuple[BidAction, ...]]:
    """``state`` (the bot to bid) after ``bid`` and the bids of heuristic
    bidders (seeded by ``seeds``, one per seat) for the seats still to bid,
    with the four bids."""
    deal = state.deal
    assert deal is not None
    bids = list(deal.bids)
    actor = state.current_player
    bots = [HeuristicBot(s) for s in seeds]
    choice: BidAction = bid
    while True:
        assert actor is not None
        bids[actor] = choice
        state = apply(state, choice)
        if state.phase is not Phase.BID:
            break
        actor = state.current_player
        assert actor is not None
        picked = bots[actor].act(view(state, actor), legal_actions(state))
        assert isinstance(picked, Pass | Bid | Board)
        choice = picked
    made: list[BidAction] = []
    for b in bids:
        assert b is not None
        made.append(b)
    return state, tuple(made)


def _opening_lead(state: GameState, bid: BidAction, seeds: Sequence[int]) -> GameState | None:
    """The state at the opening lead after :func:`_bid_out`, or None when every
    seat passed and the deal was thrown in (BA-25)."""
    after, bids = _bid_out(state, bid, seeds)
    if all(isinstance(b, Pass) for b in bids):
        return None
    return after


def _bids_after(state: GameState, bid: BidAction,
                seeds: Sequence[int]) -> tuple[BidAction, ...] | None:
    """The four bids of :func:`_bid_out`, or None when all are passes (BA-25)."""
    bids = _bid_out(state, bid, seeds)[1]
    return None if all(isinstance(b, Pass) for b in bids) else bids
