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
``bid_samples``, the best expected score of
:func:`~cardrules.back_alley.trick_estimate`.

>>> from cardrules.back_alley import HeuristicBot, play_game
>>> bots = [SearchBot(seed=1, samples=4), HeuristicBot(2), SearchBot(seed=3, samples=4),
...         HeuristicBot(4)]
>>> final = play_game(bots, max_hand_size=2, seed=5).state
>>> final.is_terminal, len(final.results)
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from cardrules.back_alley.actions import Bid, Board, Pass, Play
from cardrules.back_alley.analysis import finish_deal, rollout_bots, trick_estimate
from cardrules.back_alley.bots import HeuristicBot
from cardrules.back_alley.determinize import Determinizer
from cardrules.back_alley.game import apply
from cardrules.back_alley.state import Phase
from cardrules.back_alley.views import View

__all__ = ["SearchBot"]

A = TypeVar("A")

#: Drawn deals per card decision unless told otherwise.
DEFAULT_SAMPLES = 12


class SearchBot:
    """Plays by determinized Monte Carlo search; bids like :class:`HeuristicBot`.

    ``seed`` seeds the bot's own ``random.Random`` (the draws and the
    rollout bots' seeds), so a seed fixes its play.  ``samples`` is the
    number of deals drawn per card decision; each legal card is rolled out
    once per drawn deal, so a decision costs ``samples * len(legal)``
    rollouts to the end of the deal (a forced play costs none).
    ``bid_samples`` (default 0) makes the bot bid by
    :func:`~cardrules.back_alley.trick_estimate` with that many rollouts
    instead of the heuristic bid.

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
                 bid_samples: int = 0) -> None:
        for name, value, least in (("samples", samples, 1), ("bid_samples", bid_samples, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be a whole number of at least {least}, "
                                 f"not {value!r}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.bid_samples = bid_samples
        self._heuristic = HeuristicBot(self.rng.randrange(1 << 32))

    def act(self, view: object, legal: Sequence[A]) -> A:
        """Choose one of ``legal`` for the seat of ``view``.

        Without a Back Alley view it picks at random among ``legal``.

        >>> SearchBot(seed=0).act(None, [Pass()])
        Pass()
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if not isinstance(view, View):
            return self.rng.choice(legal)
        if view.phase is Phase.PLAY and isinstance(legal[0], Play):
            return self._search(view, legal)
        if view.phase is Phase.BID and isinstance(legal[0], Pass | Bid | Board):
            return self._bid(view, legal)
        return self.rng.choice(legal)

    def _bid(self, view: View, legal: Sequence[A]) -> A:
        if not self.bid_samples:
            return self._heuristic.act(view, legal)
        estimate = trick_estimate(view, samples=self.bid_samples,
                                  seed=self.rng.randrange(1 << 32))
        best = estimate.suggested_bid
        return next((a for a in legal if a == best), legal[0])

    def _search(self, view: View, legal: Sequence[A]) -> A:
        sampler = Determinizer(view)
        rng = self.rng
        team = view.seat & 1
        totals = [0] * len(legal)
        for _ in range(self.samples):
            state = sampler.sample(rng)
            seed = rng.randrange(1 << 32)  # the same rollout bots for every card
            dealt = len(state.results)
            for k, action in enumerate(legal):
                bots = rollout_bots(HeuristicBot, random.Random(seed))
                assert isinstance(action, Play)
                final = finish_deal(apply(state, action), bots)
                points = final.results[dealt].points
                totals[k] += points[team] - points[1 - team]
        best = max(totals)
        tied = [a for a, t in zip(legal, totals, strict=True) if t == best]
        return tied[0] if len(tied) == 1 else rng.choice(tied)
