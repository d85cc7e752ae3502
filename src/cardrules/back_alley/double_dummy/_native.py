"""The bridge between :mod:`cardrules.back_alley.double_dummy.solver` and the
C double-dummy solver, the extension module ``_solver`` built from
``_solver.c`` beside this file.

A :class:`~cardrules.back_alley.GameState` in the play phase becomes four
64-bit card masks (a 16-bit slot per suit, the rank as the bit, the two
Bloopers above the ace of the trump suit), the bit numbers of the trick in
progress, the leader, the trump suit, whether trump has been played and
which seats claimed board; the C code checks them again and searches with
the GIL released.

:func:`play_values` and :func:`max_tricks` answer None when the extension
is missing or lacks the solver, when ``CARDRULES_PURE_PYTHON`` asks for
the Python code (see :mod:`cardrules._native`), and for a
position the card masks cannot hold: a joker in play in a deal with no
trump suit, which no deal reaches (BA-13 takes the jokers out of it).  The
solver then uses its pure-Python search.

>>> available() in (True, False)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from cardrules._native import load
from cardrules.back_alley.actions import PLAYS, Board, Play
from cardrules.back_alley.game import legal_actions
from cardrules.back_alley.state import GameState, Phase

__all__ = ["Table", "available", "max_tricks", "new_table", "play_values"]

_Solve = Callable[[tuple[int, int, int, int], tuple[int, ...], int, int, bool, int], object]


def _bit_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[dict[int, int], ...]]:
    """Per trump slot (0 to 3, then 4 for no trump): the bit of every card
    index (-1 for a joker with no trump), and the card index of every bit."""
    bits: list[tuple[int, ...]] = []
    for trump in (0, 1, 2, 3, None):
        row = []
        for index in range(54):
            if index >= 52:
                row.append(-1 if trump is None else 16 * trump + (14 if index == 52 else 13))
            else:
                rank = index >> 2
                row.append(16 * (index & 3) + (12 if rank == 0 else rank - 1))
        bits.append(tuple(row))
    back = tuple({bit: index for index, bit in enumerate(row) if bit >= 0} for row in bits)
    return tuple(bits), back


class Table(Protocol):
    """A transposition table of the C solver that one thread searches with
    at a time (``_solver.Table``): ``entries`` of 40 bytes each, and a hint
    of 4 bytes for each of the first 65,536."""

    @property
    def entries(self) -> int:
        """The entries it holds."""

    @property
    def nbytes(self) -> int:
        """Its memory in bytes."""


_BITS, _INDEXES = _bit_tables()
_loaded = False
_max_tricks: Callable[..., int] | None = None
_play_values: Callable[..., tuple[tuple[int, int], ...]] | None = None
_new_table: Callable[[int], Table] | None = None


def _load() -> None:
    global _loaded, _max_tricks, _play_values, _new_table
    _loaded = True
    solver = load("cardrules.back_alley.double_dummy._solver")
    if solver is not None:
        _max_tricks = solver.max_tricks
        _play_values = solver.play_values
        _new_table = solver.Table


def new_table(entries: int) -> Table | None:
    """A new table of ``entries`` entries (a power of two, 64 to 2**26), or
    None when the C solver is not in use.

    >>> table = new_table(1024)
    >>> table is None or (table.entries, table.nbytes) == (1024, 1024 * (40 + 4))
    True
    """
    if not available():
        return None
    assert _new_table is not None
    return _new_table(entries)


def available() -> bool:
    """True when the C solver is built and in use.

    >>> available() in (True, False)
    True
    """
    if not _loaded:
        _load()
    return _play_values is not None


def _arguments(state: GameState) -> tuple[int, tuple[tuple[int, int, int, int], tuple[int, ...],
                                                     int, int, bool, int]] | None:
    """The slot table row and the C solver's arguments for ``state``, or None
    when the C solver is not in use or the cards do not fit its masks."""
    if not available():
        return None
    deal = state.deal
    if state.phase is not Phase.PLAY or deal is None or state.leader is None:
        raise ValueError(f"the solver needs a state in the play phase, not {state.phase.value}")
    trump = -1 if deal.trump is None else int(deal.trump)
    row = _BITS[trump]
    masks = []
    for indexes in state.hand_indexes:
        mask = 0
        for index in indexes:
            bit = row[index]
            if bit < 0:
                return None
            mask |= 1 << bit
        masks.append(mask)
    trick = tuple(row[index] for index in state.trick_indexes)
    if -1 in trick:
        return None
    board = sum(1 << seat for seat, bid in enumerate(deal.bids) if bid.__class__ is Board)
    hands = (masks[0], masks[1], masks[2], masks[3])
    return trump, (hands, trick, state.leader, trump, state.trump_played, board)


def max_tricks(state: GameState, table: Table | None = None, keep: bool = False) -> int | None:
    """The most tricks the team of the seat to act takes from here (the
    current trick included) with best play by both teams, computed in C;
    None when the C solver is not available for it (see the module).
    ``table``: a :func:`new_table` to search with (else the module's own);
    ``keep``: keep what earlier calls stored in it (they hold when the trump
    suit and board claims are the same, which the C code checks).

    >>> from cardrules.back_alley import apply, new_game, ChooseDealer, Shuffle, Bid
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(CARDS))
    >>> for bid in (Bid(1), Bid(1), Bid(1), Bid(1)):
    ...     state = apply(state, bid)
    >>> max_tricks(state) in (None, 0, 1, 2)
    True
    """
    arguments = _arguments(state)
    if arguments is None:
        return None
    assert _max_tricks is not None
    if table is None:
        return _max_tricks(*arguments[1])
    return _max_tricks(*arguments[1], table, keep)


def play_values(state: GameState, table: Table | None = None,
                keep: bool = False) -> dict[Play, int] | None:
    """Every legal play of the seat to act (in :func:`legal_actions` order)
    with the tricks its team takes from here with best play, computed in C;
    None when the C solver is not available for it (see the module).
    ``table`` and ``keep`` as for :func:`max_tricks`.

    >>> from cardrules.back_alley import apply, new_game, ChooseDealer, Shuffle, Bid
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(CARDS))
    >>> for bid in (Bid(1), Bid(1), Bid(1), Bid(1)):
    ...     state = apply(state, bid)
    >>> values = play_values(state)
    >>> values is None or list(values) == list(legal_actions(state))
    True
    """
    arguments = _arguments(state)
    if arguments is None:
        return None
    assert _play_values is not None
    if table is None:
        found = dict(_play_values(*arguments[1]))
    else:
        found = dict(_play_values(*arguments[1], table, keep))
    back = _INDEXES[arguments[0]]
    values: dict[Play, int] = {}
    for action in legal_actions(state):
        assert isinstance(action, Play)
        value = found.pop(_BITS[arguments[0]][action.index], None)
        if value is None:
            raise RuntimeError(f"the C solver missed the legal play {action}")
        values[action] = value
    if found:  # the C rules and the reducer disagree: a bug, never a user error
        raise RuntimeError(f"the C solver found plays the reducer refuses: "
                           f"{[str(PLAYS[back[bit]]) for bit in found]}")
    return values
