"""The Down and Back showdown as pure functions (DB-41 to DB-43).

This module is the one place the showdown rules are written.  The reducer
(:mod:`~cardrules.down_and_back.game`) plays the showdown with them, the
strict reader (:mod:`~cardrules.down_and_back.serialize`) and the invariant
checks (:func:`~cardrules.down_and_back.checks.check_invariants`) check a history against
them, and the odds and the search bot
(:mod:`~cardrules.down_and_back.analysis`,
:mod:`~cardrules.down_and_back.search`) count a seat's share of pots with
them.  Nothing here reads or builds a state: the functions take splits,
seats and draws and return seats or numbers.

>>> from cardrules import Hand
>>> from cardrules.down_and_back import Split, Stage
>>> splits = (Split(Hand.parse("KS KH KD 2C"), Hand.parse("3C 4C 5C")),
...           Split(Hand.parse("QS QH QD 2D"), Hand.parse("3D 4D 5D")))
>>> best_seats(splits, Stage.DOWN, (1, 0)), best_seats(splits, Stage.BACK, (1, 0))
((0,), (1, 0))
>>> pot_winner(0, 1) is None      # DB-43: nobody won both, the pot carries
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardrules.down_and_back._accel import strength3, strength4
from cardrules.down_and_back.actions import Split
from cardrules.down_and_back.state import Stage, TieBreakDraw

__all__ = [
    "SHARE",
    "best_seats",
    "draw_order",
    "draw_winners",
    "pot_share",
    "pot_winner",
    "rivals_table",
    "showdown_share",
    "stage_strengths",
]

#: The unit of a showdown share: a tie between ``k`` players (at most five,
#: DB-42) gives each ``SHARE // k``, a whole number since 60 is a multiple of
#: 1 to 5.  A pot share (both showdowns, DB-43) is in units of ``SHARE ** 2``.
SHARE = 60


def draw_order(dealer: int, num_players: int) -> tuple[int, ...]:
    """Every seat clockwise from the dealer's left: the order of the deal
    (DB-33), the turns (DB-34) and the tie-break draws (DB-42).

    >>> draw_order(2, 4)
    (3, 0, 1, 2)
    """
    return tuple((dealer + 1 + k) % num_players for k in range(num_players))


def stage_strengths(splits: Sequence[Split], stage: Stage) -> list[int]:
    """Per seat, the strength of the hand ``stage`` compares (DB-41): the
    4-card down hand for ``Stage.DOWN``, the 3-card back hand for
    ``Stage.BACK``; a larger strength is a better hand.

    >>> from cardrules import Hand
    >>> from cardrules.down_and_back import Split, Stage
    >>> splits = (Split(Hand.parse("KS KH KD 2C"), Hand.parse("3C 4C 5C")),
    ...           Split(Hand.parse("QS QH QD 2D"), Hand.parse("3D 4D 5D")))
    >>> down = stage_strengths(splits, Stage.DOWN)
    >>> back = stage_strengths(splits, Stage.BACK)
    >>> down[0] > down[1], back[0] == back[1]
    (True, True)
    """
    if stage is Stage.DOWN:
        return [strength4(split.down) for split in splits]
    return [strength3(split.back) for split in splits]


def best_seats(splits: Sequence[Split], stage: Stage,
               order: Iterable[int]) -> tuple[int, ...]:
    """The seats of ``order`` holding the best hand of ``stage`` (DB-41), in
    that order: one seat wins outright, more must break the tie (DB-42).

    ``splits`` holds one split per seat; pass :func:`draw_order` as
    ``order`` to get the tied seats in the order they draw.

    >>> from cardrules import Hand
    >>> from cardrules.down_and_back import Split, Stage
    >>> splits = (Split(Hand.parse("KS KH KD 2C"), Hand.parse("3C 4C 5C")),
    ...           Split(Hand.parse("QS QH QD 2D"), Hand.parse("3D 4D 5D")),
    ...           Split(Hand.parse("AS 2S 3S 4S"), Hand.parse("6H 7H 9D")))
    >>> best_seats(splits, Stage.DOWN, draw_order(0, 3))
    (0,)
    >>> best_seats(splits, Stage.BACK, draw_order(0, 3))
    (1, 0)
    """
    strengths = stage_strengths(splits, stage)
    best = max(strengths)
    return tuple(seat for seat in order if strengths[seat] == best)


def draw_winners(draws: Iterable[TieBreakDraw]) -> tuple[int, ...]:
    """The seats of a finished pass of tie-break draws whose card has the
    highest rank (DB-42: King high, Ace low), in the order they drew.  One
    seat has won the showdown; more draw again.

    >>> from cardrules import parse_card
    >>> from cardrules.down_and_back import Stage, TieBreakDraw
    >>> def draw(seat, card):
    ...     return TieBreakDraw(Stage.DOWN, seat, parse_card(card))
    >>> draw_winners([draw(1, "KS"), draw(2, "AH")])       # the King beats the Ace
    (1,)
    >>> draw_winners([draw(2, "9S"), draw(0, "9H"), draw(1, "3D")])
    (2, 0)
    """
    pass_ = tuple(draws)
    top = max(draw.card.rank for draw in pass_)
    return tuple(draw.seat for draw in pass_ if draw.card.rank == top)


def pot_winner(down_winner: int, back_winner: int) -> int | None:
    """Who takes the pot (DB-43): the seat that won both showdowns, or
    ``None`` when the two showdowns went to different seats and the pot
    carries into the next round.

    >>> pot_winner(2, 2), pot_winner(2, 0)
    (2, None)
    """
    return down_winner if down_winner == back_winner else None


def showdown_share(ours: int, top: int, holders: int) -> int:
    """A hand's share of one showdown in units of :data:`SHARE`, against
    rivals whose best strength is ``top``, held by ``holders`` of them.

    A better hand wins it all, a worse one nothing; a hand equal to the
    rivals' best ties with them, and the fair tie-break draw (DB-42) gives
    each of the ``holders + 1`` tied players an equal part.

    >>> showdown_share(9, 5, 1), showdown_share(5, 5, 2), showdown_share(4, 5, 1)
    (60, 20, 0)
    """
    if ours > top:
        return SHARE
    if ours == top:
        return SHARE // (holders + 1)
    return 0


def pot_share(down: int, back: int, table: tuple[int, int, int, int]) -> int:
    """A split's share of the pot (DB-43) in units of ``SHARE ** 2``: the
    product of its two showdown shares (:func:`showdown_share`), the down
    and back tie-breaks being separate draws.

    ``down`` and ``back`` are the split's strengths and ``table`` the
    rivals' as :func:`rivals_table` gives it.

    >>> pot_share(9, 7, (5, 1, 7, 1))       # wins the down, ties the back with one
    1800
    >>> pot_share(4, 9, (5, 1, 7, 1))       # loses the down: no pot
    0
    """
    top_d, many_d, top_b, many_b = table
    down_share = showdown_share(down, top_d, many_d)
    if not down_share:
        return 0
    return down_share * showdown_share(back, top_b, many_b)


def rivals_table(downs: Sequence[int], backs: Sequence[int]) -> tuple[int, int, int, int]:
    """The rivals' showdown in brief: ``(best down strength, how many hold
    it, best back strength, how many hold it)``, from their strengths.

    >>> rivals_table([5, 9, 9], [3, 8, 2])
    (9, 2, 8, 1)
    """
    top_d, top_b = max(downs), max(backs)
    return top_d, downs.count(top_d), top_b, backs.count(top_b)
