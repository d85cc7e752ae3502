"""Down and Back odds: how often each split of seven cards wins (DB-40 to DB-43).

:func:`split_odds` estimates, for every way to split a 7-card hand into a
4-card *down* and a 3-card *back* hand, the chance of winning the down
showdown, the back showdown and both of them, which takes the pot (DB-43).
The opponents' cards are drawn at random from the cards the player cannot
see, and each opponent splits by a fixed policy (:func:`greedy_split`
unless told otherwise):

>>> from cardrules import parse_cards
>>> odds = split_odds(parse_cards("8S 8H 8D QH 5C 6C 7C"), 3, trials=400, seed=1)
>>> best = odds[0]
>>> print(best.split)
split 8S 8H 8D QH / 5C 6C 7C
>>> 0.5 < best.p_both <= 1 and best.se_both < 0.05
True

:func:`discard_advice` rates each legal draw or discard of the seat to act
by rolling the round out to its end from states drawn with
:func:`~cardrules.down_and_back.determinization.determinize`.

The model behind the odds (the unseen cards drawn uniformly, ties counted
as shares of a win since the tie-break draw of DB-42 is fair, standard
errors, exact answers when every deal can be listed, the same figures with
or without numpy): :doc:`/analysis`.
"""

from __future__ import annotations

import math
import random
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

import attrs

from cardrules._validate import require_int
from cardrules.cards import DECK, Card, parse_cards
from cardrules.down_and_back._accel import split_actions, split_strengths, strength3, strength4
from cardrules.down_and_back.actions import Discard, DrawDiscard, DrawStock, Split
from cardrules.down_and_back.bots import greedy_index
from cardrules.down_and_back.combos import Combo
from cardrules.down_and_back.rollout import legal_options, play_out, undominated
from cardrules.down_and_back.showdown import SHARE, rivals_table, showdown_share
from cardrules.down_and_back.state import HAND_SIZE, Phase
from cardrules.hand import Hand

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from cardrules.down_and_back.views import View
    from cardrules.engine.bots import Bot

__all__ = [
    "DEFAULT_TRIALS",
    "EXACT_LIMIT",
    "ActionOdds",
    "SplitOdds",
    "discard_advice",
    "greedy_split",
    "split_odds",
]

#: Deals sampled by :func:`split_odds` unless told otherwise: enough for a
#: standard error under 0.005 on every probability.
DEFAULT_TRIALS = 10_000
#: The most deals :func:`split_odds` lists one by one when asked for exact odds.
EXACT_LIMIT = 2_000_000
_CHUNK = 4096

#: How an opponent splits seven cards.
SplitPolicy = Callable[[Hand[Card]], Split]


@attrs.frozen(slots=True)
class SplitOdds:
    """The odds of one split: the chances of winning the down showdown
    (``p_down``), the back showdown (``p_back``) and both, the pot
    (``p_both``), each with its standard error (0 when ``exact``).

    ``trials`` is the number of deals behind the figures (every possible
    deal when ``exact``).  ``down`` and ``back`` give the two hands'
    combinations.

    >>> from cardrules import parse_cards
    >>> odds = split_odds(parse_cards("KS KH KD QC 2H 3H 4H"), 1, trials=200, seed=3)
    >>> top = odds[0]
    >>> top.down.description, top.back.description, top.trials, top.exact
    ('prial of kings', 'bouncer, four high', 200, False)
    """

    split: Split
    p_down: float
    p_back: float
    p_both: float
    se_down: float
    se_back: float
    se_both: float
    trials: int
    exact: bool

    @property
    def down(self) -> Combo:
        """The combination of the 4-card hand (DB-10 to DB-17).

        >>> from cardrules import Hand
        >>> SplitOdds(Split(Hand.parse("8S 8H 8D QH"), Hand.parse("5C 6C 7C")),
        ...           1, 1, 1, 0, 0, 0, 1, True).down.description
        'prial of eights'
        """
        from cardrules.down_and_back._accel import evaluate4

        return evaluate4(self.split.down)

    @property
    def back(self) -> Combo:
        """The combination of the 3-card hand (DB-20 to DB-25).

        >>> from cardrules import Hand
        >>> SplitOdds(Split(Hand.parse("8S 8H 8D QH"), Hand.parse("5C 6C 7C")),
        ...           1, 1, 1, 0, 0, 0, 1, True).back.description
        'bouncer, seven high'
        """
        from cardrules.down_and_back._accel import evaluate3

        return evaluate3(self.split.back)


def greedy_split(hand: Sequence[Card]) -> Split:
    """The default opponent policy: the split of seven cards with the largest
    sum of down and back strengths, the first in
    :func:`~cardrules.down_and_back.splits` order of the sorted hand on a tie.

    A strength is the combination's category followed by its rank within the
    category, so the sum weighs both hands alike; this is exactly the split
    :class:`~cardrules.down_and_back.GreedyBot` chooses.

    >>> from cardrules import parse_cards
    >>> print(greedy_split(parse_cards("9S 9H 9D 2C 3C 4C 8D")))
    split 2C 9S 9H 9D / 3C 4C 8D
    """
    cards = Hand(hand)
    scores = split_strengths(cards)
    return split_actions(cards)[greedy_index(scores)]


# -- split odds ----------------------------------------------------------------------


def split_odds(hand: Sequence[Card] | str, opponents: int, *,
               dead: Sequence[Card] | str = (), trials: int = DEFAULT_TRIALS,
               seed: int | None = None, opponent_split: SplitPolicy | None = None,
               pareto: bool = False, exact: bool | None = None,
               vectorized: bool | None = None) -> tuple[SplitOdds, ...]:
    """The odds of every split of ``hand`` against ``opponents`` players, best first.

    ``hand`` is seven cards (or their text); ``opponents`` is 1 to 4 (a
    table of 2 to 5 players).  ``dead`` are cards the player knows are not
    in an opponent's hand.  With ``pareto=True`` only the splits that no
    other split beats in one hand and matches in the other are rated (see
    :func:`~cardrules.down_and_back.best_splits`; the others can never do
    better).

    The splits come best first: by ``p_both``, then ``p_down``, then
    ``p_back`` (compared exactly, as counts), then in
    :func:`~cardrules.down_and_back.splits` order of the sorted hand.

    ``trials`` deals are sampled from ``random.Random(seed)``.  ``exact``
    asks to list every deal instead (an error beyond :data:`EXACT_LIMIT`
    deals); by default that is done when there are no more possible deals
    than ``trials``, as with one opponent and many ``dead`` cards.
    ``vectorized`` chooses numpy (the default when it is installed) or the
    plain Python path; both give the same numbers.

    >>> from cardrules import parse_cards
    >>> hand = parse_cards("AS 2S 3S 4S 5H 6H 7H")
    >>> dead = parse_cards("KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC 9S 9H "
    ...                    "9D 9C 8S 8H 8D 8C 7S 7D 7C 6S 6D 6C 5S 5D 5C")
    >>> odds = split_odds(hand, 1, dead=dead)     # 12 unseen cards: 792 deals, listed
    >>> odds[0].exact, odds[0].trials, odds[0].se_both
    (True, 792, 0.0)
    >>> print(odds[0].split, round(odds[0].p_both, 3))
    split AS 2S 3S 4S / 5H 6H 7H 0.644
    """
    cards = _seven(hand)
    require_int("opponents", opponents, minimum=1)
    if opponents > 4:
        raise ValueError(f"Down and Back has 2 to 5 players: 1 to 4 opponents, not {opponents}")
    require_int("trials", trials, minimum=2)
    out = _dead(dead, cards)
    known = {c.index for c in cards} | out
    unseen = [i for i in range(52) if i not in known]
    need = HAND_SIZE * opponents
    if len(unseen) < need:
        raise ValueError(f"{opponents} opponents need {need} unseen cards; only "
                         f"{len(unseen)} are left")
    count = _deal_count(len(unseen), opponents)
    if exact is None:
        exact = count <= trials
    if exact and count > EXACT_LIMIT:
        raise ValueError(f"{count} possible deals are too many to list (at most "
                         f"{EXACT_LIMIT}); sample them instead")
    if vectorized is None:
        vectorized = _have_numpy()
    scores = split_strengths(cards)
    numbers = undominated(scores) if pareto else list(range(35))
    ours = [scores[n] for n in numbers]
    total = count if exact else trials
    rng = random.Random(seed)
    if vectorized:
        arrays = (_lists_as_arrays(_all_deals(unseen, opponents), need) if exact
                  else _sampled_arrays(rng, unseen, need, trials))
        tally = _tally_numpy(arrays, opponents, ours, opponent_split)
    else:
        lists = (_all_deals(unseen, opponents) if exact
                 else _sampled_lists(rng, unseen, need, trials))
        tally = _tally_python(lists, opponents, ours, opponent_split)
    actions = split_actions(cards)
    return _results([actions[n] for n in numbers], tally, total, exact)


def _seven(hand: Sequence[Card] | str) -> Hand[Card]:
    cards = Hand(parse_cards(hand) if isinstance(hand, str) else hand)
    if len(cards) != HAND_SIZE:
        raise ValueError(f"a Down and Back hand has 7 cards, not {len(cards)}")
    return cards


def _dead(dead: Sequence[Card] | str, hand: Hand[Card]) -> set[int]:
    cards = Hand(parse_cards(dead) if isinstance(dead, str) else dead)
    clash = [str(c) for c in cards if c in hand]
    if clash:
        raise ValueError(f"dead cards cannot be in the hand: {' '.join(clash)}")
    return {c.index for c in cards}


def _deal_count(unseen: int, opponents: int) -> int:
    """Ordered deals of seven cards to each opponent out of ``unseen`` cards."""
    count = 1
    for k in range(opponents):
        count *= math.comb(unseen - HAND_SIZE * k, HAND_SIZE)
    return count


def _all_deals(unseen: list[int], opponents: int) -> Iterator[list[int]]:
    if opponents == 0:
        yield []
        return
    for first in combinations(unseen, HAND_SIZE):
        rest = [i for i in unseen if i not in first]
        for others in _all_deals(rest, opponents - 1):
            yield [*first, *others]


def _key_chunks(rng: random.Random, size: int, trials: int) -> Iterator[tuple[int, bytes]]:
    """Random sort keys for ``trials`` deals, chunk by chunk: ``(rows, data)``,
    ``data`` holding ``rows * size`` little-endian 64-bit keys.

    Both paths read the same keys, so a seed gives the same deals with or
    without numpy.  Sorting a deal's ``size`` unseen cards by their keys
    shuffles them uniformly (two equal keys, which would favour the first
    card, turn up less than once in 10**15 deals).
    """
    for start in range(0, trials, _CHUNK):
        rows = min(_CHUNK, trials - start)
        bits = 64 * size * rows
        yield rows, rng.getrandbits(bits).to_bytes(bits // 8, "little")


def _sampled_lists(rng: random.Random, unseen: list[int], need: int,
                   trials: int) -> Iterator[list[int]]:
    size = len(unseen)
    positions = range(size)
    for rows, data in _key_chunks(rng, size, trials):
        keys = array("Q")
        keys.frombytes(data)
        if sys.byteorder == "big":  # pragma: no cover - depends on the machine
            keys.byteswap()
        for row in range(rows):
            mine = keys[row * size:(row + 1) * size]
            order = sorted(positions, key=mine.__getitem__)[:need]
            yield [unseen[i] for i in order]


def _sampled_arrays(rng: random.Random, unseen: list[int], need: int,
                    trials: int) -> Iterator[npt.NDArray[np.intp]]:
    import numpy as np

    cards = np.array(unseen, dtype=np.intp)
    for rows, data in _key_chunks(rng, len(unseen), trials):
        keys = np.frombuffer(data, dtype="<u8").reshape(rows, len(unseen))
        yield cards[np.argsort(keys, axis=1, kind="stable")[:, :need]]


def _lists_as_arrays(deals: Iterable[list[int]], need: int) -> Iterator[npt.NDArray[np.intp]]:
    import numpy as np

    flat: list[int] = []
    for deal in deals:
        flat += deal
        if len(flat) == need * _CHUNK:
            yield np.array(flat, dtype=np.intp).reshape(-1, need)
            flat = []
    if flat:
        yield np.array(flat, dtype=np.intp).reshape(-1, need)


def _have_numpy() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


#: Per rated split: sums of the down, back and both shares and of their squares.
_Tally = list[list[int]]


def _tally_python(deals: Iterable[list[int]], opponents: int, ours: list[tuple[int, int]],
                  policy: SplitPolicy | None) -> _Tally:
    tally = [[0] * 6 for _ in ours]
    for deal in deals:
        downs, backs = [], []
        for k in range(opponents):
            seven = Hand.of_sorted([DECK[i] for i in sorted(deal[7 * k:7 * k + 7])])
            down, back = _opponent(seven, policy)
            downs.append(down)
            backs.append(back)
        top_d, many_d, top_b, many_b = rivals_table(downs, backs)
        for row, (d, b) in zip(tally, ours, strict=True):
            sd = showdown_share(d, top_d, many_d)
            sb = showdown_share(b, top_b, many_b)
            both = sd * sb
            row[0] += sd
            row[1] += sd * sd
            row[2] += sb
            row[3] += sb * sb
            row[4] += both
            row[5] += both * both
    return tally


def _opponent(seven: Hand[Card], policy: SplitPolicy | None) -> tuple[int, int]:
    if policy is None:
        scores = split_strengths(seven)
        return scores[greedy_index(scores)]
    split = policy(seven)
    return strength4(split.down), strength3(split.back)


def _tally_numpy(deals: Iterable[npt.NDArray[np.intp]], opponents: int,
                 ours: list[tuple[int, int]], policy: SplitPolicy | None) -> _Tally:
    import numpy as np

    from cardrules.down_and_back.batch import split_strengths_batch

    our_d = np.array([d for d, _ in ours], dtype=np.int64)
    our_b = np.array([b for _, b in ours], dtype=np.int64)
    sums = np.zeros((len(ours), 6), dtype=np.int64)
    for chunk in deals:
        rows = chunk.shape[0]
        hands = np.sort(chunk.reshape(rows * opponents, HAND_SIZE), axis=1)
        if policy is None:
            scores = split_strengths_batch(hands).astype(np.int64)
            pick = (scores[:, :, 0] + scores[:, :, 1]).argmax(axis=1)
            chosen = scores[np.arange(len(pick)), pick]
            downs, backs = chosen[:, 0], chosen[:, 1]
        else:
            pairs = [_opponent(Hand.of_sorted([DECK[i] for i in row]), policy)
                     for row in hands.tolist()]
            downs = np.array([d for d, _ in pairs], dtype=np.int64)
            backs = np.array([b for _, b in pairs], dtype=np.int64)
        sd = _shares(downs.reshape(rows, opponents), our_d)
        sb = _shares(backs.reshape(rows, opponents), our_b)
        both = sd * sb
        for column, values in enumerate((sd, sd * sd, sb, sb * sb, both, both * both)):
            sums[:, column] += values.sum(axis=0)
    return [[int(v) for v in row] for row in sums]


def _shares(theirs: npt.NDArray[np.int64], ours: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Per deal (rows) and rated split (columns), the player's share of one
    showdown: :func:`~cardrules.down_and_back.showdown.showdown_share`, many
    at a time."""
    import numpy as np

    top = theirs.max(axis=1)
    tie = SHARE // ((theirs == top[:, None]).sum(axis=1) + 1)
    above = ours[None, :] > top[:, None]
    level = ours[None, :] == top[:, None]
    out: npt.NDArray[np.int64] = np.where(above, SHARE, np.where(level, tie[:, None], 0))
    return out.astype(np.int64)


def _results(actions: list[Split], tally: _Tally, total: int,
             exact: bool) -> tuple[SplitOdds, ...]:
    order = sorted(range(len(actions)),
                   key=lambda n: (-tally[n][4], -tally[n][0], -tally[n][2], n))
    out = []
    for n in order:
        s_d, q_d, s_b, q_b, s_both, q_both = tally[n]
        out.append(SplitOdds(
            actions[n], s_d / (SHARE * total), s_b / (SHARE * total),
            s_both / (SHARE * SHARE * total),
            _se(s_d, q_d, total, SHARE, exact), _se(s_b, q_b, total, SHARE, exact),
            _se(s_both, q_both, total, SHARE * SHARE, exact), total, exact))
    return tuple(out)


def _se(total_sum: int, squares: int, count: int, scale: int, exact: bool) -> float:
    """The standard error of a mean of ``count`` values (each a whole multiple of
    ``1/scale``), from their sum and sum of squares, computed exactly."""
    if exact:
        return 0.0
    spread = squares * count - total_sum * total_sum   # count**2 times the variance
    return math.sqrt(max(spread, 0) / (scale * scale * count * count * (count - 1)))


# -- advice during play -------------------------------------------------------------


@attrs.frozen(slots=True)
class ActionOdds:
    """The estimated chance ``p_win`` (with standard error ``se``) that the
    seat takes this round's pot (DB-43) after ``action``, from ``rollouts``
    rollouts to the end of the round.

    >>> ActionOdds(DrawStock(), 0.25, 0.05, 40).p_win
    0.25
    """

    action: DrawStock | DrawDiscard | Discard
    p_win: float
    se: float
    rollouts: int


def discard_advice(view: View, *, rollouts: int = 200, seed: int | None = None,
                   bot: Callable[[int | None], Bot] | None = None) -> tuple[ActionOdds, ...]:
    """Rate each legal draw or discard of the seat to act, best first.

    ``view`` is the acting seat's view in the draw or discard phase (DB-34).
    For each of ``rollouts`` states drawn by
    :func:`~cardrules.down_and_back.determinization.determinize` (the same
    states for every option, so that options are compared on equal terms),
    the option is played and the round is played out by bots made with
    ``bot(seed)`` for every seat, the advised seat included (default
    :class:`~cardrules.down_and_back.GreedyBot`), with chance from the same
    seeded generator.  ``p_win`` is the share of rollouts in which the seat
    wins both showdowns and so the pot.  Options come by ``p_win``, then in
    the order of :func:`~cardrules.down_and_back.legal_actions`.

    >>> import random
    >>> from cardrules.down_and_back import new_game, apply, sample_chance, view, Cut
    >>> rng = random.Random(5)
    >>> s = new_game(3)
    >>> s = apply(s, sample_chance(s, rng))
    >>> s = apply(apply(s, sample_chance(s, rng)), Cut(20))
    >>> advice = discard_advice(view(s, s.current_player), rollouts=20, seed=1)
    >>> sorted(str(a.action) for a in advice)
    ['draw discard', 'draw stock']
    >>> all(0 <= a.p_win <= 1 and a.rollouts == 20 for a in advice)
    True
    """
    from cardrules.down_and_back.determinization import determinize

    require_int("rollouts", rollouts, minimum=2)
    if view.phase not in (Phase.DRAW, Phase.DISCARD) or view.current_player != view.seat:
        raise ValueError("discard_advice needs the view of the seat to act in the draw or "
                         f"discard phase (DB-34), not {view.phase} for seat {view.seat}")
    options = legal_options(view)
    rng = random.Random(seed)
    wins = [0] * len(options)
    for _ in range(rollouts):
        state = determinize(view, rng)
        bot_seed = rng.getrandbits(32)
        chance_seed = rng.getrandbits(32)
        for n, option in enumerate(options):
            result = play_out(state, option, random.Random(chance_seed), bot=bot,
                              bot_seed=bot_seed)
            wins[n] += result.pot_winner == view.seat
    rated = []
    for option, won in zip(options, wins, strict=True):
        p = won / rollouts
        rated.append(ActionOdds(option, p, math.sqrt(p * (1 - p) / (rollouts - 1)), rollouts))
    order = sorted(range(len(options)), key=lambda n: (-wins[n], n))
    return tuple(rated[n] for n in order)
