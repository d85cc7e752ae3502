"""Numbers for actions and tensors for views: Down and Back for learning libraries.

Reinforcement-learning frameworks (OpenSpiel, PettingZoo, ...) want each
player action as a whole number in ``range(NUM_ACTIONS)`` and each
observation as a flat vector of floats.  This module gives both, with no
dependency beyond numpy for the tensor (imported only when
:func:`observation_tensor` is called).

**Action numbers.**  Only player actions are numbered; chance actions
(:class:`~cardrules.down_and_back.ChooseDealer`,
:class:`~cardrules.down_and_back.Shuffle`) are not.  :data:`NUM_ACTIONS` is 140:

=========  =====================================  ==========================================
ids        action                                 number
=========  =====================================  ==========================================
0 - 50     ``Cut(count)`` (DB-32)                 ``count - 1``
51         ``DrawStock()`` (DB-34)                51
52         ``DrawDiscard()`` (DB-34)              52
53 - 104   ``Discard(card)`` (DB-34)              ``53 + card.index``
105 - 139  ``Split(down, back)`` (DB-40)          ``105 + k``
=========  =====================================  ==========================================

``card.index`` is :attr:`cardrules.Card.index` (AS 0, AH 1, AD 2, AC 3,
2S 4, ..., KC 51).  A split's number ``k`` (0 to 34) is found from its own
cards: put the seven cards of the split in canonical order (by
``card.index``, the order of a :class:`~cardrules.Hand`), number their
positions 0 to 6, and ``k`` is the place of the down hand's four positions
among the 35 sets of four positions listed in lexicographic order
(``itertools.combinations(range(7), 4)``): ``(0, 1, 2, 3)`` is 0,
``(0, 1, 2, 4)`` is 1, ..., ``(3, 4, 5, 6)`` is 34.  This is also the order of
the splits in :func:`~cardrules.down_and_back.legal_actions`.  So
:func:`action_id` needs no state, while :func:`action_from_id` reads the
hand of the player to act.

>>> from cardrules import Hand, parse_card
>>> from cardrules.down_and_back import Cut, Discard, Split
>>> action_id(Cut(1)), action_id(Discard(parse_card("KC")))
(0, 104)
>>> hand = Hand.parse("AS 2S 3S 4S 5S 6S 7S")
>>> action_id(Split(hand[:4], hand[4:])), action_id(Split(hand[3:], hand[:3]))
(105, 139)

**Observations.**  :func:`observation_tensor` turns a seat's
:class:`~cardrules.down_and_back.View` (never the full state) into a flat
float32 vector of :data:`OBSERVATION_SIZE` numbers, so it cannot hold a card
the seat may not see (DB-37, DB-40).  Seats are written relative to the
viewer: position ``p`` is seat ``(view.seat + p) % num_players``, so position
0 is always the viewer; positions from ``num_players`` to 4 stay zero.  Card
planes have 52 entries, one per ``card.index``.  :data:`OBSERVATION_LAYOUT`
lists the slices as ``(name, start, length)``:

==============  ======  ==================================================================
slice           length  content
==============  ======  ==================================================================
num_players     4       one-hot: 2, 3, 4 or 5 players
phase           8       one-hot :class:`~cardrules.down_and_back.Phase`, in its order
dealer          5       one-hot position of the dealer (zero before the first is chosen)
current_player  5       one-hot position of the player to act (zero at chance points)
round           1       the round being played (1, 2, ...)
rounds          1       the number of rounds of the game (0 for an open-ended game)
ante            1       the ante, in chips
pot             1       the chips in the pot
net             5       per position, net winnings in chips
hand            52      the viewer's cards
drawn           52      the card the viewer drew this turn (until the discard)
hand_sizes      5       per position, cards in hand
stock_size      1       cards in the stock
discard         52      the cards in the discard pile
discard_top     52      the top card of the discard pile
seen            5 x 52  per position, cards seen taken from the discard pile (DB-37)
turns           5       per position, turns finished this round (DB-35)
split_chosen    5       per position, 1 once that player has split
split_down      5 x 52  per position, the down hand of a split the viewer may see (DB-40)
split_back      5 x 52  per position, the back hand of that split
tiebreak        52      tie-break cards lying on the table while a showdown waits (DB-42)
==============  ======  ==================================================================

Counts and chips are plain numbers (not scaled).  :func:`observation_string`
is the text of the same view.  :func:`observation_bounds` gives the least and
the greatest value of every entry in a game with given settings (what a
learning library's observation space needs).

>>> OBSERVATION_SIZE, NUM_ACTIONS
(1087, 140)
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, SupportsIndex, cast

from cardrules._validate import require_int
from cardrules.cards import DECK, Card
from cardrules.down_and_back import game as _game
from cardrules.down_and_back.actions import (
    Action,
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    Shuffle,
    Split,
)
from cardrules.down_and_back.game import PHASE_RULES, apply, legal_actions, split_actions
from cardrules.down_and_back.state import (
    DEFAULT_ROUNDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURNS,
    GameState,
    Phase,
    Settings,
    Stage,
)
from cardrules.down_and_back.views import View, view
from cardrules.engine.tensors import (
    ObservationBounds,
    as_action_id,
    bounds_by_slice,
    layout,
    mark_cards,
    zeros,
)
from cardrules.errors import IllegalActionError, shorten
from cardrules.i18n import lazy_gettext

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "NUM_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "action_from_id",
    "action_id",
    "information_state_bits",
    "information_state_layout",
    "legal_action_ids",
    "legal_actions_with_ids",
    "observation_bounds",
    "observation_string",
    "observation_tensor",
    "seat_string",
    "seat_tensor",
]

_CUT, _DRAW_STOCK, _DRAW_DISCARD, _DISCARD, _SPLIT = 0, 51, 52, 53, 105
#: The number of player action ids: every id is in ``range(NUM_ACTIONS)``.
NUM_ACTIONS = 140

#: The sets of four positions (of seven) a split's down hand can take, in
#: lexicographic order: the split with number ``k`` takes ``_DOWN_POSITIONS[k]``.
_DOWN_POSITIONS: tuple[tuple[int, ...], ...] = tuple(combinations(range(7), 4))
#: ``k`` by the down hand's positions as a bit mask (bit ``p`` for position ``p``).
_SPLIT_NUMBER = {sum(1 << p for p in positions): k
                 for k, positions in enumerate(_DOWN_POSITIONS)}



def action_id(action: Action, state: GameState | None = None) -> int:
    """The number of a player action (see the table of the module).

    The number depends on the action alone: a split's number comes from its
    own seven cards.  Chance actions and actions no rule allows in any state
    (``Cut(0)``, a split of other than 4 and 3 cards) have no number:
    :class:`ValueError`; something that is not a Down and Back action is a
    :class:`TypeError`.  With ``state``, the action must also be legal for
    the player to act there, else :class:`~cardrules.IllegalActionError`
    (the error :func:`~cardrules.down_and_back.apply` would raise).

    >>> from cardrules.down_and_back import DrawStock, ChooseDealer, new_game
    >>> action_id(DrawStock())
    51
    >>> action_id(ChooseDealer(1))
    Traceback (most recent call last):
    ...
    ValueError: chance actions have no number: ChooseDealer(seat=1)
    >>> action_id(DrawStock(), new_game(2))
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: DB-31: the first dealer must be chosen first
    """
    number = _number(action)
    if state is not None and action not in legal_actions(state):
        _refuse(state, number, action)
    return number


def _number(action: Action) -> int:
    kind = type(action)
    if kind is Discard:
        return _DISCARD + action.card.index  # type: ignore[union-attr]
    if kind is DrawStock:
        return _DRAW_STOCK
    if kind is DrawDiscard:
        return _DRAW_DISCARD
    if kind is Cut:
        count: int = action.count  # type: ignore[union-attr]
        if not 1 <= count <= 51:
            raise ValueError(f"a cut lifts 1 to 51 cards (DB-32), so {action!r} has no number")
        return _CUT + count - 1
    if kind is Split:
        assert isinstance(action, Split)
        down, back = action.down, action.back
        if len(down) != 4 or len(back) != 3:
            raise ValueError(f"a split is 4 and 3 different cards (DB-40): {action}")
        # The seven cards as bits of a 52-bit set; a card's position among them
        # (in canonical order) is the number of them below it.
        a, b, c, d = down
        e, f, g = back
        ba, bb, bc, bd = 1 << a.index, 1 << b.index, 1 << c.index, 1 << d.index
        seven = ba | bb | bc | bd | 1 << e.index | 1 << f.index | 1 << g.index
        if seven.bit_count() != 7:
            raise ValueError(f"a split is 4 and 3 different cards (DB-40): {action}")
        mask = (1 << (seven & (ba - 1)).bit_count() | 1 << (seven & (bb - 1)).bit_count()
                | 1 << (seven & (bc - 1)).bit_count() | 1 << (seven & (bd - 1)).bit_count())
        return _SPLIT + _SPLIT_NUMBER[mask]
    if kind is ChooseDealer or kind is Shuffle:
        raise ValueError(f"chance actions have no number: {shorten(repr(action))}")
    raise TypeError(f"not a Down and Back action: {shorten(repr(action))}")


def legal_action_ids(state: GameState) -> tuple[int, ...]:
    """The numbers of :func:`~cardrules.down_and_back.legal_actions`, in increasing order.

    Each is :func:`action_id` of an action the reducer lists, in the
    reducer's order, which is increasing: cuts by count, the stock before
    the pile, discards and splits as the module's table numbers them.
    Empty at chance points and at the end.

    >>> from cardrules.down_and_back import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules import DECK
    >>> state = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
    >>> ids = legal_action_ids(state)
    >>> len(ids), ids[0], ids[-1]
    (51, 0, 50)
    """
    number = _number
    return tuple([number(action) for action in legal_actions(state)])


#: The numbers of the 35 splits of a hand, in the reducer's order (which is
#: the module's numbering: see :func:`legal_actions_with_ids`).
_SPLIT_IDS = tuple(range(_SPLIT, _SPLIT + len(_DOWN_POSITIONS)))
_SPLIT_PHASE = Phase.SPLIT


def legal_actions_with_ids(state: GameState) -> tuple[tuple[int, ...], tuple[Action, ...]]:
    """:func:`legal_action_ids` and :func:`~cardrules.down_and_back.legal_actions`
    together, in the same (increasing) order, for adapters that need both.

    The 35 splits of a hand are numbered in the reducer's order (DB-40), so
    their numbers are a table, not worked out split by split.

    >>> from cardrules.down_and_back import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules import DECK
    >>> state = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
    >>> ids, actions = legal_actions_with_ids(state)
    >>> ids[:2], actions[:2]
    ((0, 1), (Cut(count=1), Cut(count=2)))
    """
    actions = legal_actions(state)
    ids = _TABLE_IDS.get(id(actions))
    if ids is not None:   # one of the reducer's tables of actions
        return ids, actions
    if len(actions) == len(_SPLIT_IDS) and state.phase is _SPLIT_PHASE:
        return _SPLIT_IDS, actions
    try:
        return tuple(map(_INTERNED_IDS.__getitem__, map(id, actions))), actions
    except KeyError:   # an action the reducer did not take from its tables
        return tuple([_number(action) for action in actions]), actions


#: The number of each action the reducer takes from its tables (cuts, draws,
#: discards; they live as long as the module), by the object's ``id``: a
#: lookup that never hashes an action.
_TABLED: tuple[Action, ...] = (*_game._CUTS, *_game._DRAWS, *_game._DISCARDS)
_INTERNED_IDS: dict[int, int] = {id(action): _number(action) for action in _TABLED}
#: The numbers of the reducer's whole tables of legal actions (cuts, draws), by
#: the table's ``id``.
_TABLES: tuple[tuple[Action, ...], ...] = (_game._CUTS, _game._DRAWS, _game._DRAW_STOCK_ONLY)
_TABLE_IDS: dict[int, tuple[int, ...]] = {id(table): tuple(map(_number, table))
                                          for table in _TABLES}


def action_from_id(state: GameState, number: SupportsIndex) -> Action:
    """The legal action of the player to act in ``state`` whose number is ``number``.

    The inverse of :func:`action_id`: a split's number is read against the
    hand of the player to act.  ``number`` must be an ``int`` or
    an integer numpy scalar (:class:`TypeError` otherwise) in ``range(NUM_ACTIONS)``
    (:class:`ValueError` otherwise); a number whose action is not legal now
    raises :class:`~cardrules.IllegalActionError` (a ``ValueError`` too).

    >>> from cardrules.down_and_back import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules import DECK
    >>> state = apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK))
    >>> action_from_id(state, 19)
    Cut(count=20)
    >>> action_from_id(state, 51)
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: DB-32: seat 1 must cut the deck
    >>> action_from_id(state, 140)
    Traceback (most recent call last):
    ...
    ValueError: action ids are 0 to 139, not 140
    """
    number = as_action_id(number)
    if not 0 <= number < NUM_ACTIONS:
        raise ValueError(f"action ids are 0 to {NUM_ACTIONS - 1}, not {number}")
    action: Action | None
    if number >= _SPLIT:
        action = None
        if state.phase is Phase.SPLIT and state.current_player is not None:
            action = split_actions(state.hands[state.current_player])[number - _SPLIT]
    elif number >= _DISCARD:
        action = Discard(DECK[number - _DISCARD])
    elif number == _DRAW_DISCARD:
        action = DrawDiscard()
    elif number == _DRAW_STOCK:
        action = DrawStock()
    else:
        action = Cut(number - _CUT + 1)
    # Legal when the reducer lists it: the numbering is one to one, so this is
    # the same as ``number in legal_action_ids(state)``, without numbering them all.
    if action is None or action not in legal_actions(state):
        _refuse(state, number, action)
    assert action is not None
    return action




def _refuse(state: GameState, number: int, action: Action | None) -> None:
    """Raise the :class:`~cardrules.IllegalActionError` for an action id not legal now."""
    if action is not None:
        # apply() words the error with the rule broken; the state is not changed.
        apply(state, action, seat=state.current_player)
    raise IllegalActionError(PHASE_RULES[state.phase], lazy_gettext(
        "action id {number} is not legal now (phase {phase})", number=number,
        phase=state.phase))


# -- observations ------------------------------------------------------------------

_SPEC: tuple[tuple[str, int], ...] = (
    ("num_players", MAX_PLAYERS - MIN_PLAYERS + 1),
    ("phase", len(Phase)),
    ("dealer", MAX_PLAYERS),
    ("current_player", MAX_PLAYERS),
    ("round", 1),
    ("rounds", 1),
    ("ante", 1),
    ("pot", 1),
    ("net", MAX_PLAYERS),
    ("hand", 52),
    ("drawn", 52),
    ("hand_sizes", MAX_PLAYERS),
    ("stock_size", 1),
    ("discard", 52),
    ("discard_top", 52),
    ("seen", MAX_PLAYERS * 52),
    ("turns", MAX_PLAYERS),
    ("split_chosen", MAX_PLAYERS),
    ("split_down", MAX_PLAYERS * 52),
    ("split_back", MAX_PLAYERS * 52),
    ("tiebreak", 52),
)




#: The slices of :func:`observation_tensor` as ``(name, start, length)``, in order
#: (described in the table of the module).
OBSERVATION_LAYOUT: tuple[tuple[str, int, int], ...] = layout(_SPEC)
#: The length of :func:`observation_tensor`'s vector.
OBSERVATION_SIZE: int = sum(length for _, length in _SPEC)
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}
_PHASES = tuple(Phase)


def observation_tensor(view: View) -> npt.NDArray[np.float32]:
    """A flat float32 vector of :data:`OBSERVATION_SIZE` numbers describing ``view``.

    The layout is :data:`OBSERVATION_LAYOUT` (see the module's table); only
    the view is read, so the vector holds nothing the seat may not know.
    Needs numpy (``pip install "cardrules[numpy]"``).

    >>> from cardrules.down_and_back import new_game, view
    >>> tensor = observation_tensor(view(new_game(3), 0))
    >>> tensor.shape, str(tensor.dtype)
    ((1087,), 'float32')
    >>> start = dict((name, start) for name, start, _ in OBSERVATION_LAYOUT)
    >>> tensor[start["num_players"]:start["num_players"] + 4].tolist()
    [0.0, 1.0, 0.0, 0.0]
    """
    out = zeros(OBSERVATION_SIZE)
    at = _AT
    n, seat = view.num_players, view.seat

    def position(other: int) -> int:
        return (other - seat) % n

    out[at["num_players"] + n - MIN_PLAYERS] = 1
    out[at["phase"] + _PHASES.index(view.phase)] = 1
    if view.dealer is not None:
        out[at["dealer"] + position(view.dealer)] = 1
    if view.current_player is not None:
        out[at["current_player"] + position(view.current_player)] = 1
    out[at["round"]] = view.round
    out[at["rounds"]] = view.rounds or 0
    out[at["ante"]] = view.ante
    out[at["pot"]] = view.pot
    mark_cards(out, at["hand"], view.hand)
    if view.drawn is not None:
        out[at["drawn"] + view.drawn.index] = 1
    out[at["stock_size"]] = view.stock_size
    mark_cards(out, at["discard"], view.discard)
    if view.discard:
        out[at["discard_top"] + view.discard[-1].index] = 1
    if view.showdown is not None:
        mark_cards(out, at["tiebreak"], [draw.card for draw in view.showdown.drawn])
    for other in range(n):
        p = position(other)
        out[at["net"] + p] = view.net[other]
        out[at["hand_sizes"] + p] = view.hand_sizes[other]
        out[at["turns"] + p] = view.turns[other]
        out[at["split_chosen"] + p] = view.split_chosen[other]
        mark_cards(out, at["seen"] + 52 * p, view.seen[other])
        split = view.splits[other]
        if split is not None:
            mark_cards(out, at["split_down"] + 52 * p, split.down)
            mark_cards(out, at["split_back"] + 52 * p, split.back)
    return out




def observation_bounds(settings: Mapping[str, int | None]) -> ObservationBounds:
    """The least and the greatest value of each entry of :func:`observation_tensor`'s
    vector in a game with ``settings``, as two tuples of :data:`OBSERVATION_SIZE` floats.

    ``settings`` are the game's (``num_players``, ``ante``, ``rounds``; one
    left out takes its default, 4, 1 and 10).  Card planes and one-hot
    slices lie in 0 to 1; ``round`` and ``rounds`` in 0 to ``rounds``,
    ``ante`` in 0 to the ante, ``pot`` in 0 to every ante of the game
    (``num_players * ante * rounds`` chips), ``net`` from minus a seat's own
    antes (``ante * rounds``) to every ante of the game, ``hand_sizes`` in 0
    to 8 (seven cards and the one drawn), ``stock_size`` in 0 to 52 and
    ``turns`` in 0 to 6 (DB-35).  An open-ended game (``rounds`` None, DB-44)
    has no bound on its chips: :class:`ValueError`.

    >>> low, high = observation_bounds({"num_players": 5, "ante": 2, "rounds": 7})
    >>> start = dict((name, start) for name, start, _ in OBSERVATION_LAYOUT)
    >>> low[start["net"]], high[start["net"]], high[start["pot"]], high[start["hand"]]
    (-14.0, 70.0, 70.0, 1.0)
    >>> len(low) == len(high) == OBSERVATION_SIZE
    True
    >>> observation_bounds({"rounds": None})
    Traceback (most recent call last):
    ...
    ValueError: observation bounds need a finite number of rounds (DB-44)
    """
    unknown = set(settings) - {"num_players", "ante", "rounds"}
    if unknown:
        raise ValueError(f"unknown Down and Back setting {sorted(unknown)[0]!r}")
    rounds = settings.get("rounds", DEFAULT_ROUNDS)
    if rounds is None:
        raise ValueError("observation bounds need a finite number of rounds (DB-44)")
    checked = Settings(require_int("num_players", settings.get("num_players", 4)),
                       require_int("ante", settings.get("ante", 1)), rounds)
    ante, count = float(checked.ante), float(rounds)
    chips = checked.num_players * ante * count
    return bounds_by_slice(OBSERVATION_LAYOUT, {
        "round": (0.0, count), "rounds": (0.0, count), "ante": (0.0, ante),
        "pot": (0.0, chips), "net": (-ante * count, chips), "hand_sizes": (0.0, 8.0),
        "stock_size": (0.0, 52.0), "turns": (0.0, 6.0)})


def observation_string(view: View) -> str:
    """A readable text of ``view``: the table as its seat sees it (``str(view)``).

    >>> from cardrules.down_and_back import new_game, view
    >>> observation_string(view(new_game(2), 1)).splitlines()[0]
    'Down and Back: 2 players, ante 1, round 1 of 10, no dealer yet; you are seat 1'
    """
    return str(view)


def seat_tensor(state: GameState, seat: int) -> npt.NDArray[np.float32]:
    """:func:`observation_tensor` of the view of ``seat`` (what ``RULES.encoding`` gives).

    >>> from cardrules.down_and_back import new_game
    >>> len(seat_tensor(new_game(2), 0)) == OBSERVATION_SIZE
    True
    """
    return observation_tensor(view(state, seat))


def seat_string(state: GameState, seat: int) -> str:
    """:func:`observation_string` of the view of ``seat``.

    >>> from cardrules.down_and_back import new_game
    >>> seat_string(new_game(2), 0) == observation_string(view(new_game(2), 0))
    True
    """
    return observation_string(view(state, seat))


# -- the history part of an information-state tensor ----------------------------------

#: Tie-break draws of a round (DB-42) the history part keeps, in order.
_TIE_BREAK_DRAWS = 12
#: Entries of a turn: how the seat drew (1 stock, 2 pile), the card drawn, the
#: card discarded, the card turned by a reshuffle during the turn.
_KIND, _TAKEN, _DISCARDED, _RESHUFFLED, _TURN = 0, 1, 2, 3, 4
#: An entry of the history part: its index and its value.
_IndexValue = tuple[int, int]


def _round_spec(n: int) -> tuple[tuple[str, int], ...]:
    return (("dealer", 1), ("cut", 1), ("starter", 1), ("dealt", 52),
            ("turns", TURNS * n * _TURN), ("split_made", n), ("own_down", 52), ("own_back", 52),
            ("shown", n * 7), ("showdown_reshuffles", 52), ("tie_breaks", _TIE_BREAK_DRAWS * 3))


_ROUND_SPECS = {n: ({name: begin for name, begin, _ in layout(_round_spec(n))},
                    sum(length for _, length in _round_spec(n)))
                for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def information_state_layout(settings: Mapping[str, int | None]
                             ) -> tuple[tuple[str, int, int], ...]:
    """The blocks of the history part of an information-state tensor in a
    game with ``settings``, as ``(name, start, length)``; what
    :func:`information_state_bits` sets.  A seat or a card is written as its
    number plus 1 (0: none yet; cards as :attr:`cardrules.Card.index`), a
    set of cards as 52 entries of 0 or 1.  One block per round (``round 1``
    ...), each of:

    * ``dealer`` (1 to n, DB-31), ``cut`` (the count, 1 to 51, DB-32),
      ``starter`` (the card that starts the discard pile), ``dealt`` (52: the
      seat's own hand, seen only by it);
    * ``turns``: per turn (6 per seat, DB-35), four entries: how the seat
      drew (1 stock, 2 discard pile), the card drawn (from the pile, seen by
      all; from the stock, only by the drawer), the card discarded, the card
      turned by a reshuffle of the pile during that turn (DB-36);
    * ``split_made`` (n entries of 0 or 1: who has split), ``own_down`` and
      ``own_back`` (52 each: the seat's own split, DB-40), ``shown`` (n x 7:
      every seat's split at the showdown, the down hand's four cards then
      the back hand's three), ``showdown_reshuffles`` (52: the cards turned
      by reshuffles during the showdown's tie-breaks), ``tie_breaks`` (the
      first 12 tie-break draws of the round, DB-42, each three entries: the
      stage, 1 down or 2 back, the seat and the card).

    >>> information_state_layout({"num_players": 2, "rounds": 1})
    (('round 1', 0, 311),)
    """
    rounds = settings.get("rounds", DEFAULT_ROUNDS)
    if rounds is None:
        raise ValueError("an information-state tensor needs a finite number of rounds (DB-44)")
    n = require_int("num_players", settings.get("num_players", 4), minimum=MIN_PLAYERS,
                    maximum=MAX_PLAYERS)
    size = _ROUND_SPECS[n][1]
    return layout(tuple((f"round {r}", size) for r in range(1, require_int(
        "rounds", rounds, minimum=1) + 1)))


def information_state_bits(before: GameState, action: Action, after: GameState
                           ) -> tuple[tuple[_IndexValue, ...],
                                      tuple[tuple[int, tuple[_IndexValue, ...]], ...]]:
    """The entries of the history part (see :func:`information_state_layout`)
    that the step ``apply(before, action) == after`` sets, as ``(index,
    value)`` pairs: ``(public, private)``, where every seat learns ``public``
    and ``private`` is ``((seat, entries), ...)``, what only that seat learns
    (its hand, its stock draws, its split).

    >>> from cardrules.down_and_back import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules import DECK
    >>> s = apply(new_game(2), ChooseDealer(1))
    >>> information_state_bits(s, Shuffle(DECK), apply(s, Shuffle(DECK)))
    (((0, 2),), ())
    """
    kind = type(action)
    if kind is ChooseDealer:
        return (), ()   # the dealer is told with each round
    n = before.num_players
    start, size = _ROUND_SPECS[n]
    base = (before.round - 1) * size
    public: list[_IndexValue] = []
    private: list[tuple[int, tuple[_IndexValue, ...]]] = []
    turn = base + start["turns"] + before.turn * _TURN
    if kind is Shuffle:
        top = cast(Shuffle, action).order[0].index
        if before.phase is Phase.SHUFFLE:
            public.append((base, cast(int, after.dealer) + 1))
        elif before.showdown is None:
            public.append((turn + _RESHUFFLED, top + 1))
        else:
            public.append((base + start["showdown_reshuffles"] + top, 1))
    elif kind is Cut:
        public += ((base + 1, cast(Cut, action).count), (base + 2, after.discard[-1].index + 1))
        private += ((seat, tuple((base + start["dealt"] + card.index, 1) for card in hand))
                    for seat, hand in enumerate(after.hands))
    elif kind is DrawStock:
        public.append((turn + _KIND, 1))
        private.append((cast(int, before.current_player),
                        ((turn + _TAKEN, cast(Card, after.drawn).index + 1),)))
    elif kind is DrawDiscard:
        public += ((turn + _KIND, 2), (turn + _TAKEN, before.discard[-1].index + 1))
    elif kind is Discard:
        public.append((turn + _DISCARDED, cast(Discard, action).card.index + 1))
    elif kind is Split:
        split = cast(Split, action)
        cards = {*split.down, *split.back}
        splitter = next((k for k, hand in enumerate(before.hands) if set(hand) == cards),
                        cast(int, before.current_player))
        public.append((base + start["split_made"] + splitter, 1))
        private.append((splitter, (*((base + start["own_down"] + c.index, 1) for c in split.down),
                                   *((base + start["own_back"] + c.index, 1)
                                     for c in split.back))))
    for result in after.results[len(before.results):]:
        base = (result.round - 1) * size
        shown = base + start["shown"]
        for seat, made in enumerate(result.splits):
            public += ((shown + 7 * seat + k, card.index + 1)
                       for k, card in enumerate((*made.down, *made.back)))
        draw_at = base + start["tie_breaks"]
        for draw in result.tiebreaks[:_TIE_BREAK_DRAWS]:
            public += ((draw_at, 1 + (draw.stage is Stage.BACK)), (draw_at + 1, draw.seat + 1),
                       (draw_at + 2, draw.card.index + 1))
            draw_at += 3
    return tuple(public), tuple(private)
