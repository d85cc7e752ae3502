"""A Back Alley bot that plays by solving sampled deals double dummy.

:class:`DoubleDummyBot` is perfect-information Monte Carlo, as the strong
bridge programs play: at each decision it draws full deals consistent with
its seat's :class:`~cardrules.back_alley.View`
(:class:`~cardrules.back_alley.Determinizer`), solves every drawn deal with
all hands open (:mod:`cardrules.back_alley.double_dummy.solver`) and
chooses the action with the best average points difference of the deal
(BA-40 to BA-42).  It bids as :class:`~cardrules.back_alley.HeuristicBot`
does unless ``bid_samples`` is set.  How it draws, values, bids, weighs
the draws by the bids (:func:`bid_misfit`) and what a decision costs:
:doc:`/double_dummy`.

>>> from cardrules.back_alley import HeuristicBot, play_game
>>> bots = [DoubleDummyBot(1, samples=4), HeuristicBot(2), DoubleDummyBot(3, samples=4),
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

from cardrules.back_alley.actions import Bid, BidAction, Board, Pass, Play
from cardrules.back_alley.bots import BackAlleyBot, HeuristicBot
from cardrules.back_alley.determinization import Determinizer
from cardrules.back_alley.double_dummy.solver import IMPLEMENTATIONS, max_tricks, solve_many
from cardrules.back_alley.game import BID_CHOICES, apply, legal_actions
from cardrules.back_alley.search import distinct_plays
from cardrules.back_alley.state import NUM_PLAYERS, GameState, Phase, contract_of, score
from cardrules.back_alley.trick import table_for
from cardrules.back_alley.views import View, view
from cardrules.cards import Card, Joker
from cardrules.hand import Hand

AnyCard = Card | Joker

__all__ = ["DEFAULT_INFERENCE", "DEFAULT_SAMPLES", "POOL", "DoubleDummyBot", "bid_misfit"]

A = TypeVar("A")

#: Deals drawn per decision unless told otherwise.
DEFAULT_SAMPLES = 16
#: How strongly the draws lean towards the deals that fit the bids seen,
#: unless told otherwise (see :func:`~cardrules.back_alley.double_dummy.bid_misfit`).
DEFAULT_INFERENCE = 1.0
#: With ``inference``, the deals drawn per deal kept.
POOL = 4


class DoubleDummyBot(BackAlleyBot):
    """Plays the card with the best average double-dummy result over deals
    drawn from its view; bids as :class:`~cardrules.back_alley.HeuristicBot` or, with
    ``bid_samples``, from the double-dummy tricks of drawn deals.

    ``seed`` seeds the bot's own ``random.Random`` (its draws and the seeds
    of the heuristic bidders it imagines), so a seed fixes its choices for
    the same views.  ``samples`` (default
    :data:`~cardrules.back_alley.double_dummy.DEFAULT_SAMPLES`) is the
    number of deals drawn per play; ``bid_samples`` (default 0: the
    :class:`~cardrules.back_alley.HeuristicBot` bid, which measured stronger) the number drawn
    per bid for the double-dummy bid; ``inference`` (default
    :data:`~cardrules.back_alley.double_dummy.DEFAULT_INFERENCE`) how
    strongly the draws lean towards deals that fit the bids seen (0:
    uniform); ``implementation`` is passed to the solver (one of
    :data:`cardrules.back_alley.double_dummy.solver.IMPLEMENTATIONS`);
    ``threads`` (default None: one per processor) is how many threads solve
    a play's draws at once
    (:func:`~cardrules.back_alley.double_dummy.solve_many`, a table of
    21.2 MB each, kept from draw to draw); the choice does not depend on it.  See the module
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
                 bid_samples: int = 0, inference: float = DEFAULT_INFERENCE,
                 implementation: str = "auto", threads: int | None = None) -> None:
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
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or threads < 1):
            raise ValueError(f"threads must be None or a whole number of at least 1, "
                             f"not {threads!r}")
        self.threads = threads
        if (isinstance(inference, bool) or not isinstance(inference, int | float)
                or not 0.0 <= inference < math.inf):
            raise ValueError(f"inference must be a number of at least 0, not {inference!r}")
        self.inference = float(inference)
        self._heuristic = HeuristicBot(self.rng.randrange(1 << 32))

    def _other(self, view: object, legal: Sequence[A]) -> A:
        # Anything but a Back Alley bid or play: the heuristic bot's choice
        # (a random one among ``legal``).
        return self._heuristic.act(view, legal)

    def _draws(self, view: View, count: int) -> list[GameState]:
        """``count`` deals drawn from ``view`` (one when the view leaves
        nothing hidden).  With ``inference``, :data:`POOL` times as many are
        drawn and ``count`` of them are picked, each with a chance
        proportional to its weight (see :func:`~cardrules.back_alley.double_dummy.bid_misfit`)."""
        sampler = Determinizer(view)
        rng = self.rng
        if sampler.count == 1:
            return [sampler.sample(rng)]
        if not self.inference or not any(
                b is not None for s, b in enumerate(view.bids) if s != view.seat):
            return [sampler.sample(rng) for _ in range(count)]
        pool = [sampler.sample(rng) for _ in range(POOL * count)]
        weights = [math.exp(-self.inference * bid_misfit(view, drawn)) for drawn in pool]
        return rng.choices(pool, weights=weights, k=count)

    # -- play ---------------------------------------------------------------------

    def _play(self, view: View, legal: Sequence[A]) -> A:
        distinct = distinct_plays(view, legal)
        if len(distinct) == 1:   # every card wins the same tricks: the lowest
            return distinct[0]
        # Ask the heuristic first, so that its generator moves the same way
        # at every decision whatever the draws say.
        default = self._heuristic.act(view, legal)
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
        draws = self._draws(view, self.samples)
        # A deal drawn twice (the draws weighed by the bids are picked with
        # replacement) is solved once and counted as often as it was drawn.
        slot: dict[GameState, int] = {}
        for drawn in draws:
            slot.setdefault(drawn, len(slot))
        solved = solve_many(list(slot), threads=self.threads, every_card=True,
                            implementation=self.implementation)
        for drawn in draws:
            values = solved[slot[drawn]]
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
        totals = [0] * len(bids)
        for drawn in self._draws(view, self.bid_samples):
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


def _level(bid: object, size: int) -> int:
    """A bid on one scale: pass 0, a number its tricks, board the hand size."""
    if isinstance(bid, Bid):
        return bid.tricks
    return size if isinstance(bid, Board) else 0


def bid_misfit(seen: View, drawn: GameState) -> int:
    """How far the bids of the other seats in ``seen`` are from the bids a
    :class:`~cardrules.back_alley.HeuristicBot` would have made with the cards ``drawn`` gives
    them: the sum over those seats of the distance between the two bids
    (pass 0, a number its tricks, board the hand size).

    A seat's hand at its bid is its hand in ``drawn`` and the cards it has
    played since; it bid after the seats before it in the bidding order
    (BA-20), seeing their bids.  :class:`DoubleDummyBot` with
    ``inference=k`` keeps a drawn deal with a weight of ``exp(-k * misfit)``,
    so that the deals it solves fit what the bids said about the hands.

    >>> import random
    >>> from cardrules.back_alley import apply, legal_actions, new_game, sample_chance, view
    >>> state = new_game(max_hand_size=3)
    >>> rng = random.Random(1)
    >>> for _ in range(2):
    ...     state = apply(state, sample_chance(state, rng))
    >>> bots = [HeuristicBot(s) for s in range(4)]
    >>> while state.phase is Phase.BID:   # heuristic bids all round
    ...     seat = state.current_player
    ...     state = apply(state, bots[seat].act(view(state, seat), legal_actions(state)))
    >>> bid_misfit(view(state, 0), state)   # the real deal fits them exactly
    0
    """
    deal = drawn.deal
    dealer = seen.dealer
    assert deal is not None
    assert dealer is not None
    size = seen.hand_size
    played: list[list[AnyCard]] = [[], [], [], []]
    for trick in seen.tricks:
        for k, card in enumerate(trick.cards):
            played[(trick.leader + k) % NUM_PLAYERS].append(card)
    if seen.leader is not None:
        for k, card in enumerate(seen.trick):
            played[(seen.leader + k) % NUM_PLAYERS].append(card)
    hands = drawn.hands
    judge = HeuristicBot(0)
    before: list[BidAction | None] = [None] * NUM_PLAYERS
    misfit = 0
    for k in range(1, NUM_PLAYERS + 1):
        seat = (dealer + k) % NUM_PLAYERS
        made = seen.bids[seat]
        if made is None:
            break
        if seat != seen.seat:
            hand = Hand(tuple(hands[seat]) + tuple(played[seat]), jokers=True)
            asked = attrs.evolve(seen, seat=seat, phase=Phase.BID, current_player=seat,
                                 hand=hand, bids=tuple(before), leader=None, trick=(),
                                 tricks=())
            guess = judge.act(asked, BID_CHOICES[size])
            misfit += abs(_level(guess, size) - _level(made, size))
        before[seat] = made
    return misfit
