"""Pieces both games' ``encoding`` modules share: reading an action id, laying
out an observation vector, bounding its entries, and filling it.

The numbering and the layouts themselves belong to each game (see
``cardrules.down_and_back.encoding`` and ``cardrules.back_alley.encoding``).

>>> layout((("phase", 3), ("hand", 52)))
(('phase', 0, 3), ('hand', 3, 52))
>>> as_action_id(7)
7
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Generic, TypeVar

import attrs

from cardrules.cards import Card, Joker

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from cardrules.engine.rules import SettingValues

_S = TypeVar("_S")
_A = TypeVar("_A")

#: The least and the greatest value of every entry of an observation vector,
#: as two tuples of floats as long as the vector (``float("inf")`` for no bound).
ObservationBounds = tuple[tuple[float, ...], tuple[float, ...]]


#: What one step sets in the history part of an information-state tensor:
#: ``(public, ((seat, private), ...))``, each a tuple of ``(index, value)``.
_StepEntries = tuple[tuple[tuple[int, int], ...],
                     tuple[tuple[int, tuple[tuple[int, int], ...]], ...]]


@attrs.frozen(slots=True)
class Encoding(Generic[_S, _A]):
    """A game's numbers for actions and vectors for views, for learning libraries.

    Player actions are numbered ``0`` to ``num_actions - 1`` (chance actions
    are not numbered here; see ``Rules.chance_pile``).  An observation is
    read from a seat's view only, so it can never leak a hidden card.

    >>> from cardrules.back_alley import RULES
    >>> RULES.encoding.num_actions, RULES.encoding.observation_size
    (68, 698)
    >>> low, high = RULES.encoding.observation_bounds({"max_hand_size": 13})
    >>> len(high), max(high)  # the scores: 40 points a card over 25 deals
    (698, 7240.0)
    """

    #: How many action numbers there are.
    num_actions: int
    #: ``action_id(action, state=None)``: the number of an action.
    action_id: Callable[..., int]
    #: ``action_from_id(state, number)``: the action a number stands for in
    #: ``state``; :class:`~cardrules.IllegalActionError` if it is not legal there.
    action_from_id: Callable[[_S, int], _A]
    #: ``legal_action_ids(state)``: the numbers of the legal actions, ascending.
    legal_action_ids: Callable[[_S], tuple[int, ...]]
    #: The length of an observation vector.
    observation_size: int
    #: ``(name, start, length)`` of each part of the vector.
    observation_layout: tuple[tuple[str, int, int], ...]
    #: ``observation_tensor(state, seat)``: what ``seat`` sees of ``state``
    #: (read from its view only) as a float32 vector (needs numpy).
    observation_tensor: Callable[[_S, int], npt.NDArray[np.float32]]
    #: ``observation_string(state, seat)``: the same information as text.
    observation_string: Callable[[_S, int], str]
    #: ``observation_bounds(settings)``: the least and greatest value of each
    #: entry of the vector in a game with ``settings`` (a
    #: :data:`ObservationBounds`); ValueError for settings that leave an entry
    #: unbounded.  None: no bounds are known (an adapter then uses -inf to inf).
    observation_bounds: Callable[[SettingValues], ObservationBounds] | None = None
    #: ``legal_actions_with_ids(state)``: the numbers of the legal actions,
    #: ascending, and those actions in the same order (two tuples of one
    #: length), in one pass and with the game's own shortcuts.  None: an
    #: adapter numbers ``legal_actions`` with ``action_id`` itself.
    legal_actions_with_ids: Callable[[_S], tuple[tuple[int, ...], tuple[_A, ...]]] | None = None
    #: ``information_state_layout(settings)``: the blocks ``(name, start,
    #: length)`` of the history part of an information-state tensor, whose
    #: entries are whole numbers of at least 0.  None (or no
    #: ``information_state_bits``): the game gives no information-state tensor.
    information_state_layout: Callable[[SettingValues], tuple[tuple[str, int, int], ...]] | None \
        = None
    #: ``information_state_bits(before, action, after)``: the entries of that
    #: history part a step sets, as ``(index, value)`` pairs, in the form
    #: ``(public, ((seat, private), ...))``: what every seat learns, and what
    #: only that seat learns.
    information_state_bits: Callable[[_S, _A, _S], _StepEntries] | None = None


__all__ = ["Encoding", "ObservationBounds", "as_action_id", "bounds_by_slice", "layout",
           "mark_cards", "zeros"]


def as_action_id(number: object) -> int:
    """``number`` as a plain int: an ``int`` or an integer numpy scalar, not a bool.

    >>> as_action_id(True)
    Traceback (most recent call last):
    ...
    TypeError: an action id is an int, not bool
    """
    if type(number) is int:
        return number
    if not isinstance(number, bool):
        try:
            return operator.index(number)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise TypeError(f"an action id is an int, not {type(number).__name__}")


def layout(spec: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int, int], ...]:
    """``(name, length)`` pairs laid end to end as ``(name, start, length)``.

    >>> layout((("a", 2), ("b", 1)))[-1]
    ('b', 2, 1)
    """
    slices, start = [], 0
    for name, length in spec:
        slices.append((name, start, length))
        start += length
    return tuple(slices)


def bounds_by_slice(layout: tuple[tuple[str, int, int], ...],
                    ranges: Mapping[str, tuple[float, float]]) -> ObservationBounds:
    """The :data:`ObservationBounds` of a vector laid out as ``layout`` (slices
    end to end, as :func:`layout` gives them): the entries of each slice that
    ``ranges`` names lie in its ``(low, high)``, every other entry in 0 to 1.

    >>> bounds_by_slice((("flag", 0, 2), ("count", 2, 1)), {"count": (0, 13)})
    ((0.0, 0.0, 0.0), (1.0, 1.0, 13.0))
    >>> bounds_by_slice((("flag", 0, 2),), {"score": (-1, 1)})
    Traceback (most recent call last):
    ...
    ValueError: no slice of the layout is called 'score'
    """
    unknown = set(ranges) - {name for name, _, _ in layout}
    if unknown:
        raise ValueError(f"no slice of the layout is called {sorted(unknown)[0]!r}")
    low: list[float] = []
    high: list[float] = []
    for name, _, length in layout:
        lo, hi = ranges.get(name, (0.0, 1.0))
        low += [float(lo)] * length
        high += [float(hi)] * length
    return tuple(low), tuple(high)


def zeros(size: int) -> npt.NDArray[np.float32]:
    """A float32 vector of ``size`` zeros; a clear :class:`ImportError` without numpy.

    >>> zeros(3).tolist()
    [0.0, 0.0, 0.0]
    """
    try:
        import numpy as np
    except ImportError:
        raise ImportError('observation_tensor needs numpy: pip install "cardrules[numpy]"') \
            from None
    return np.zeros(size, dtype=np.float32)


def mark_cards(out: npt.NDArray[np.float32], start: int, cards: Iterable[Card | Joker]) -> None:
    """Set ``out[start + card.index]`` to 1 for every card.

    >>> from cardrules import parse_cards
    >>> out = zeros(54)
    >>> mark_cards(out, 2, parse_cards("AS AH"))  # card indexes 0 and 1
    >>> out[:5].tolist()
    [0.0, 0.0, 1.0, 1.0, 0.0]
    """
    for card in cards:
        out[start + card.index] = 1
