"""Numbers for actions and tensors for views: Back Alley for learning libraries.

Reinforcement-learning frameworks (OpenSpiel, PettingZoo, ...) want each
player action as a whole number in ``range(NUM_ACTIONS)`` and each
observation as a flat vector of floats.  This module gives both, with no
dependency beyond numpy for the tensor (imported only when
:func:`observation_tensor` is called).

**Action numbers.**  Only player actions are numbered; chance actions
(:class:`~cardrules.back_alley.ChooseDealer`,
:class:`~cardrules.back_alley.Shuffle`) are not.  :data:`NUM_ACTIONS` is 68:

=========  ==============================  ==============================
ids        action                          number
=========  ==============================  ==============================
0          ``Pass()`` (BA-21)              0
1 - 12     ``Bid(tricks)`` (BA-21)         ``tricks``
13         ``Board()`` (BA-21, BA-23)      13
14 - 67    ``Play(card)`` (BA-31)          ``14 + card.index``
=========  ==============================  ==============================

``card.index`` is :attr:`cardrules.Card.index` for the 52 cards (AS 0, AH 1,
AD 2, AC 3, 2S 4, ..., KC 51) and :attr:`cardrules.Joker.index` for the
jokers (BB 52, LB 53).  A bid is at most 12 (hand size - 1 in a 13-card deal),
so ``Bid(13)`` and above have no number.

>>> from cardrules import Joker, parse_card
>>> from cardrules.back_alley import Bid, Board, Pass, Play
>>> [action_id(a) for a in (Pass(), Bid(3), Board(), Play(parse_card("AS")), Play(Joker.LITTLE))]
[0, 3, 13, 14, 67]

**Observations.**  :func:`observation_tensor` turns a seat's
:class:`~cardrules.back_alley.View` (never the full state) into a flat
float32 vector of :data:`OBSERVATION_SIZE` numbers, so it cannot hold a card
the seat may not see (BA-50).  Seats are written relative to the viewer:
position ``p`` is seat ``(view.seat + p) % 4``, so position 0 is the viewer
and position 2 the partner.  Card planes have 54 entries, one per card index
(the taken card, never a joker, has 52).  :data:`OBSERVATION_LAYOUT` lists the
slices as ``(name, start, length)``:

==============  ======  ==================================================================
slice           length  content
==============  ======  ==================================================================
phase           5       one-hot :class:`~cardrules.back_alley.Phase`, in its order
deal            3       the deal number, the number of deals, the hand size of this deal
dealer          4       one-hot position of the dealer (zero before the first is chosen)
current_player  4       one-hot position of the player to act (zero at chance points)
trump_card      54      the turned card (BA-12)
trump_suit      5       one-hot trump suit (spades, hearts, diamonds, clubs), or the
                        fifth entry for a deal without trump (BA-13)
joker_discard   2       the joker discarded under BA-13: BB, LB
exchanger       4       one-hot position of the player who made the BA-13 exchange
hand            54      the viewer's cards
taken           52      the card the viewer took under BA-13
hand_sizes      4       per position, cards in hand
bids            4 x 15  per position, one-hot: no bid yet, pass, bid 1 to 12, board
board_levels    4       per position, the level of its board claim (BA-23), or 0
leader          4       one-hot position of the leader of the current trick
trick           4 x 54  per position, the card it played to the current trick
played          4 x 54  per position, the cards it played to the finished tricks of this deal
tricks_won      4       per position, tricks won this deal
trump_played    1       1 once trump has been played to a trick of this deal (BA-32)
scores          2       the viewer's team's score, then the other team's
==============  ======  ==================================================================

Counts and scores are plain numbers (not scaled).  :func:`observation_string`
is the text of the same view.  :func:`observation_bounds` gives the least and
the greatest value of every entry in a game with given settings (what a
learning library's observation space needs).

>>> OBSERVATION_SIZE, NUM_ACTIONS
(698, 68)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, SupportsIndex, cast

from cardrules._validate import require_int
from cardrules.back_alley.actions import (
    BIDS,
    BOARD,
    CARDS,
    PASS,
    PLAYS,
    Action,
    Bid,
    Board,
    ChooseDealer,
    Pass,
    Play,
    Shuffle,
)
from cardrules.back_alley.bounds import MAX_THROW_INS as _MAX_THROW_INS
from cardrules.back_alley.game import BID_CHOICES, PHASE_RULES, apply, legal_actions
from cardrules.back_alley.state import NUM_PLAYERS, GameState, Phase, Settings, hand_size_of
from cardrules.back_alley.views import View, view
from cardrules.cards import Joker, Suit
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

_PASS, _BOARD, _PLAY = 0, 13, 14
_MAX_BID = 12
#: The number of player action ids: every id is in ``range(NUM_ACTIONS)``.
NUM_ACTIONS = 68



def action_id(action: Action, state: GameState | None = None) -> int:
    """The number of a player action (see the table of the module).

    Chance actions and bids no deal allows (``Bid(13)`` and above, BA-21)
    have no number: :class:`ValueError`; something that is not a Back Alley
    action is a :class:`TypeError`.  With ``state``, the action must also be
    legal for the player to act there, else
    :class:`~cardrules.IllegalActionError` (the error
    :func:`~cardrules.back_alley.apply` would raise).

    >>> from cardrules.back_alley import Bid, ChooseDealer, new_game
    >>> action_id(Bid(12))
    12
    >>> action_id(Bid(13))
    Traceback (most recent call last):
    ...
    ValueError: a bid is 1 to 12 tricks (BA-21), so Bid(tricks=13) has no number
    >>> action_id(ChooseDealer(0))
    Traceback (most recent call last):
    ...
    ValueError: chance actions have no number: ChooseDealer(seat=0)
    >>> action_id(Bid(2), new_game())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: BA-11: the first dealer must be chosen first ...
    """
    number = _number(action)
    if state is not None and number not in legal_action_ids(state):
        _refuse(state, number, action)
    return number


def _number(action: Action) -> int:
    kind = type(action)
    if kind is Play:
        assert isinstance(action, Play)
        return _PLAY + action.card.index
    if kind is Bid:
        assert isinstance(action, Bid)
        if action.tricks > _MAX_BID:
            raise ValueError(f"a bid is 1 to {_MAX_BID} tricks (BA-21), so {action!r} "
                             "has no number")
        return action.tricks
    if kind is Pass:
        return _PASS
    if kind is Board:
        return _BOARD
    if kind is ChooseDealer or kind is Shuffle:
        raise ValueError(f"chance actions have no number: {shorten(repr(action))}")
    raise TypeError(f"not a Back Alley action: {shorten(repr(action))}")


def legal_action_ids(state: GameState) -> tuple[int, ...]:
    """The numbers of :func:`~cardrules.back_alley.legal_actions`, in increasing order.

    Empty at chance points and at the end.

    >>> from cardrules.back_alley import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=3), ChooseDealer(0)), Shuffle(CARDS))
    >>> legal_action_ids(state)
    (0, 1, 2, 13)
    """
    return tuple(sorted(_number(action) for action in legal_actions(state)))


def legal_actions_with_ids(state: GameState) -> tuple[tuple[int, ...], tuple[Action, ...]]:
    """:func:`legal_action_ids` and :func:`~cardrules.back_alley.legal_actions`
    together, in the same (increasing) order, for adapters that need both.
    (The reducer lists them in the order of their numbers: pass, the bids,
    board, then the plays in the hand's canonical order.)

    >>> from cardrules.back_alley import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=3), ChooseDealer(0)), Shuffle(CARDS))
    >>> legal_actions_with_ids(state)
    ((0, 1, 2, 13), (Pass(), Bid(tricks=1), Bid(tricks=2), Board()))
    """
    actions = legal_actions(state)   # pass, bids, board, then plays in the hand's order
    ids = _TABLE_IDS.get(id(actions))
    if ids is not None:   # one of the reducer's tables of bids
        return ids, actions
    try:
        return tuple(map(_INTERNED_IDS.__getitem__, map(id, actions))), actions
    except KeyError:   # an action the reducer did not take from its tables
        return tuple([_number(action) for action in actions]), actions


#: The number of each action the reducer lists (``PASS``, ``BOARD`` and the
#: ``BIDS`` and ``PLAYS`` tables, which live as long as the module), by the
#: object's ``id``: a lookup that never hashes an action.
_TABLED: tuple[Action, ...] = (PASS, BOARD, *BIDS[:_MAX_BID], *PLAYS)
_INTERNED_IDS: dict[int, int] = {id(action): _number(action) for action in _TABLED}
#: The numbers of the reducer's tables of bids (one per hand size), by the
#: table's ``id``.
_TABLE_IDS: dict[int, tuple[int, ...]] = {id(table): tuple(map(_number, table))
                                          for table in BID_CHOICES}


def action_from_id(state: GameState, number: SupportsIndex) -> Action:
    """The legal action of the player to act in ``state`` whose number is ``number``.

    The inverse of :func:`action_id`.  ``number`` must be an ``int`` or
    an integer numpy scalar (:class:`TypeError` otherwise) in ``range(NUM_ACTIONS)``
    (:class:`ValueError` otherwise); a number whose action is not legal now
    raises :class:`~cardrules.IllegalActionError` (a ``ValueError`` too).

    >>> from cardrules.back_alley import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules.back_alley.actions import CARDS
    >>> state = apply(apply(new_game(max_hand_size=3), ChooseDealer(0)), Shuffle(CARDS))
    >>> action_from_id(state, 13)
    Board()
    >>> action_from_id(state, 3)
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: BA-21: a bid is 1 to 2 with 3 cards, not 3
    >>> action_from_id(state, -1)
    Traceback (most recent call last):
    ...
    ValueError: action ids are 0 to 67, not -1
    """
    number = as_action_id(number)
    if not 0 <= number < NUM_ACTIONS:
        raise ValueError(f"action ids are 0 to {NUM_ACTIONS - 1}, not {number}")
    action: Action
    if number >= _PLAY:
        action = PLAYS[number - _PLAY]
    elif number == _BOARD:
        action = BOARD
    elif number == _PASS:
        action = PASS
    else:
        action = BIDS[number - 1]
    if number not in legal_action_ids(state):
        _refuse(state, number, action)
    return action




def _refuse(state: GameState, number: int, action: Action) -> None:
    """Raise the :class:`~cardrules.IllegalActionError` for an action id not legal now."""
    # apply() words the error with the rule broken; the state is not changed.
    apply(state, action, seat=state.current_player)
    raise IllegalActionError(PHASE_RULES[state.phase], lazy_gettext(
        "action id {number} is not legal now (phase {phase})", number=number,
        phase=state.phase.value))


# -- observations ------------------------------------------------------------------

_BID_SLOTS = _MAX_BID + 3  # no bid yet, pass, 1 to 12, board
_SPEC: tuple[tuple[str, int], ...] = (
    ("phase", len(Phase)),
    ("deal", 3),
    ("dealer", NUM_PLAYERS),
    ("current_player", NUM_PLAYERS),
    ("trump_card", 54),
    ("trump_suit", 5),
    ("joker_discard", 2),
    ("exchanger", NUM_PLAYERS),
    ("hand", 54),
    ("taken", 52),
    ("hand_sizes", NUM_PLAYERS),
    ("bids", NUM_PLAYERS * _BID_SLOTS),
    ("board_levels", NUM_PLAYERS),
    ("leader", NUM_PLAYERS),
    ("trick", NUM_PLAYERS * 54),
    ("played", NUM_PLAYERS * 54),
    ("tricks_won", NUM_PLAYERS),
    ("trump_played", 1),
    ("scores", 2),
)




#: The slices of :func:`observation_tensor` as ``(name, start, length)``, in order
#: (described in the table of the module).
OBSERVATION_LAYOUT: tuple[tuple[str, int, int], ...] = layout(_SPEC)
#: The length of :func:`observation_tensor`'s vector.
OBSERVATION_SIZE: int = sum(length for _, length in _SPEC)
_AT = {name: start for name, start, _ in OBSERVATION_LAYOUT}
_PHASES = tuple(Phase)
_SUITS = tuple(Suit)
assert len(CARDS) == 54


def observation_tensor(view: View) -> npt.NDArray[np.float32]:
    """A flat float32 vector of :data:`OBSERVATION_SIZE` numbers describing ``view``.

    The layout is :data:`OBSERVATION_LAYOUT` (see the module's table); only
    the view is read, so the vector holds nothing the seat may not know.
    Needs numpy (``pip install "cardrules[numpy]"``).

    >>> from cardrules.back_alley import new_game, view
    >>> tensor = observation_tensor(view(new_game(), 0))
    >>> tensor.shape, str(tensor.dtype)
    ((698,), 'float32')
    >>> start = dict((name, start) for name, start, _ in OBSERVATION_LAYOUT)
    >>> tensor[start["deal"]:start["deal"] + 3].tolist()
    [1.0, 25.0, 13.0]
    """
    out = zeros(OBSERVATION_SIZE)
    at = _AT
    seat = view.seat

    def position(other: int) -> int:
        return (other - seat) % NUM_PLAYERS

    out[at["phase"] + _PHASES.index(view.phase)] = 1
    deal = at["deal"]
    out[deal] = view.deal_number
    out[deal + 1] = view.settings.deals
    out[deal + 2] = view.hand_size
    if view.dealer is not None:
        out[at["dealer"] + position(view.dealer)] = 1
    if view.current_player is not None:
        out[at["current_player"] + position(view.current_player)] = 1
    if view.trump_card is not None:
        out[at["trump_card"] + view.trump_card.index] = 1
        suit = 4 if view.trump is None else _SUITS.index(view.trump)
        out[at["trump_suit"] + suit] = 1
    if view.joker_discard is not None:
        out[at["joker_discard"] + (view.joker_discard is Joker.LITTLE)] = 1
    if view.exchanger is not None:
        out[at["exchanger"] + position(view.exchanger)] = 1
    mark_cards(out, at["hand"], view.hand)
    if view.taken is not None:
        out[at["taken"] + view.taken.index] = 1
    for other in range(NUM_PLAYERS):
        p = position(other)
        out[at["hand_sizes"] + p] = view.hand_sizes[other]
        out[at["bids"] + _BID_SLOTS * p + _bid_slot(view.bids[other])] = 1
        out[at["tricks_won"] + p] = view.tricks_won[other]
    for other, level in enumerate(view.board_levels):
        out[at["board_levels"] + position(other)] = level
    if view.leader is not None:
        out[at["leader"] + position(view.leader)] = 1
        for k, card in enumerate(view.trick):
            out[at["trick"] + 54 * position(view.leader + k) + card.index] = 1
    for trick in view.tricks:
        for k, card in enumerate(trick.cards):
            out[at["played"] + 54 * position(trick.leader + k) + card.index] = 1
    out[at["trump_played"]] = view.trump_played
    team = view.team
    out[at["scores"]] = view.scores[team]
    out[at["scores"] + 1] = view.scores[1 - team]
    return out


def _bid_slot(bid: Pass | Bid | Board | None) -> int:
    if bid is None:
        return 0
    if isinstance(bid, Bid):
        return 1 + bid.tricks
    return 1 if isinstance(bid, Pass) else _BID_SLOTS - 1




def observation_bounds(settings: Mapping[str, int | None]) -> ObservationBounds:
    """The least and the greatest value of each entry of :func:`observation_tensor`'s
    vector in a game with ``settings``, as two tuples of :data:`OBSERVATION_SIZE` floats.

    ``settings`` are the game's (``max_hand_size``, default 13).  Card planes
    and one-hot slices lie in 0 to 1; ``deal`` in 0 to 25, ``hand_sizes`` and
    ``tricks_won`` in 0 to 13, ``board_levels`` in 0 to 4 (BA-23), and each
    score within the most a team can win or lose: 40 points a card dealt to a
    hand over the whole game (a quadruple board, BA-41).

    >>> low, high = observation_bounds({"max_hand_size": 2})  # deals of 2, 1, 2 cards
    >>> start = dict((name, start) for name, start, _ in OBSERVATION_LAYOUT)
    >>> low[start["scores"]], high[start["scores"]], high[start["deal"]], high[start["hand"]]
    (-200.0, 200.0, 25.0, 1.0)
    >>> len(low) == len(high) == OBSERVATION_SIZE
    True
    """
    unknown = set(settings) - {"max_hand_size"}
    if unknown:
        raise ValueError(f"unknown Back Alley setting {sorted(unknown)[0]!r}")
    size = settings.get("max_hand_size", Settings().max_hand_size)
    checked = Settings(max_hand_size=require_int("max_hand_size", size))
    points = 40.0 * sum(hand_size_of(deal, checked.max_hand_size)
                        for deal in range(1, checked.deals + 1))
    return bounds_by_slice(OBSERVATION_LAYOUT, {
        "deal": (0.0, 25.0), "hand_sizes": (0.0, 13.0), "board_levels": (0.0, 4.0),
        "tricks_won": (0.0, 13.0), "scores": (-points, points)})


def observation_string(view: View) -> str:
    """A readable text of ``view``: the table as its seat sees it (``str(view)``).

    >>> from cardrules.back_alley import new_game, view
    >>> print(observation_string(view(new_game(), 3)))
    seat 3 (team 1), deal 1 of 25 (13 cards), choose_dealer
    scores: team 0 0, team 1 0
    """
    return str(view)


def seat_tensor(state: GameState, seat: int) -> npt.NDArray[np.float32]:
    """:func:`observation_tensor` of the view of ``seat`` (what ``RULES.encoding`` gives).

    >>> from cardrules.back_alley import new_game
    >>> len(seat_tensor(new_game(), 0)) == OBSERVATION_SIZE
    True
    """
    return observation_tensor(view(state, seat))


def seat_string(state: GameState, seat: int) -> str:
    """:func:`observation_string` of the view of ``seat``.

    >>> from cardrules.back_alley import new_game
    >>> seat_string(new_game(), 0) == observation_string(view(new_game(), 0))
    True
    """
    return observation_string(view(state, seat))


# -- the history part of an information-state tensor ----------------------------------

#: The entries of one deal dealt (thrown in or not) in the history part of an
#: information-state tensor (see information_state_layout).
_ATTEMPT_SPEC: tuple[tuple[str, int], ...] = (
    ("dealer", 1), ("trump_card", 1), ("exchanger", 1), ("dealt", 54), ("taken", 1),
    ("bids", 4))
_ATTEMPT_AT = {name: start for name, start, _ in layout(_ATTEMPT_SPEC)}
_ATTEMPT = sum(length for _, length in _ATTEMPT_SPEC)

#: An entry of the history part: its index and its value.
_IndexValue = tuple[int, int]


def information_state_layout(settings: Mapping[str, int | None]
                             ) -> tuple[tuple[str, int, int], ...]:
    """The blocks of the history part of an information-state tensor in a
    game with ``settings``, as ``(name, start, length)``; what
    :func:`information_state_bits` sets.  A seat, card, trick or bid is
    written as its number plus 1 (0: none yet), a set of cards as 54 entries
    of 0 or 1 (card indexes as in the module's table).

    * ``plays``: per deal (``2 * max_hand_size - 1``), per card (54), two
      entries: the trick of the deal it was played to (1 to
      ``max_hand_size``) and the seat that played it (1 to 4).  The order
      of play follows (BA-30, BA-34).
    * ``deals``: per deal dealt, thrown-in deals counted (BA-25), room for
      the deals plus ``max_throw_ins``, 62 entries: the dealer (1 to 4), the
      turned card (1 to 54), the seat that made the BA-13 joker exchange (1
      to 4), the seat's own hand as dealt (54 entries of 0 or 1) and the
      card it took for the joker (1 to 52), both seen only by that seat,
      and each seat's bid (4 entries: 1 pass, 2 to 13 bid 1 to 12, 14 board).

    Seats here are absolute (seat 0 is 1), unlike the observation's.

    >>> information_state_layout({"max_hand_size": 2, "max_throw_ins": 1})
    (('plays', 0, 324), ('deals', 324, 248))
    """
    size = settings.get("max_hand_size", Settings().max_hand_size)
    checked = Settings(max_hand_size=require_int("max_hand_size", size))
    throw_ins = require_int("max_throw_ins", settings.get("max_throw_ins", _MAX_THROW_INS),
                            minimum=0)
    return layout((("plays", checked.deals * 54 * 2),
                   ("deals", (checked.deals + throw_ins) * _ATTEMPT)))


def information_state_bits(before: GameState, action: Action, after: GameState
                           ) -> tuple[tuple[_IndexValue, ...],
                                      tuple[tuple[int, tuple[_IndexValue, ...]], ...]]:
    """The entries of the history part (see :func:`information_state_layout`)
    that the step ``apply(before, action) == after`` sets, as ``(index,
    value)`` pairs: ``(public, private)``, where every seat learns ``public``
    and ``private`` is ``((seat, entries), ...)``, what only that seat learns
    (its hand as dealt, BA-50).

    >>> from cardrules.back_alley import new_game, ChooseDealer, Shuffle, apply
    >>> from cardrules.back_alley.actions import CARDS
    >>> s = apply(new_game(max_hand_size=1), ChooseDealer(0))
    >>> public, private = information_state_bits(s, Shuffle(CARDS), apply(s, Shuffle(CARDS)))
    >>> public, private[1]
    (((108, 1), (109, 5)), (1, ((111, 1),)))
    """
    kind = type(action)
    if kind is ChooseDealer:
        return (), ()   # the dealer is told with each deal
    plays = before.settings.deals * 108
    if kind is Play:
        at = (len(before.history.results) * 54 + cast(Play, action).card.index) * 2
        return ((at, len(before.tricks) + 1), (at + 1, cast(int, before.current_player) + 1)), ()
    history = (before if kind is not Shuffle else after).history
    attempt = (len(history.results) + history.throw_ins
               + sum(result.throw_ins for result in history.results))
    base = plays + attempt * _ATTEMPT
    if kind is Shuffle:
        deal = after.deal
        assert deal is not None
        assert after.dealer is not None
        public = [(base, after.dealer + 1),
                  (base + _ATTEMPT_AT["trump_card"], deal.trump_card.index + 1)]
        exchanged = deal.exchanger is not None and deal.joker_discard is not None
        if exchanged:
            public.append((base + _ATTEMPT_AT["exchanger"], cast(int, deal.exchanger) + 1))
        dealt_at = base + _ATTEMPT_AT["dealt"]
        private = []
        for seat, hand in enumerate(after.hand_indexes):
            if exchanged and seat == deal.exchanger and deal.taken is not None:
                taken = deal.taken.index
                own = [(dealt_at + i, 1) for i in hand if i != taken]
                own += [(dealt_at + cast(Joker, deal.joker_discard).index, 1),
                        (base + _ATTEMPT_AT["taken"], taken + 1)]
            else:
                own = [(dealt_at + i, 1) for i in hand]
            private.append((seat, tuple(own)))
        return tuple(public), tuple(private)
    seat = cast(int, before.current_player)
    return ((base + _ATTEMPT_AT["bids"] + seat, _number(action) + 1),), ()
