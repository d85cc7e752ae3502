"""Down and Back and Back Alley as OpenSpiel games (needs ``cardrules[openspiel]``).

Importing this module registers two Python games with OpenSpiel, so that
``pyspiel.load_game`` and every OpenSpiel algorithm that works on Python
games can use them:

- ``cardrules_down_and_back`` (:data:`DOWN_AND_BACK`), parameters ``players``
  (2 to 5, default 4), ``ante`` (default 1) and ``rounds`` (default 10: an
  OpenSpiel game must end, so there is no open-ended game here, DB-44);
- ``cardrules_back_alley`` (:data:`BACK_ALLEY`), always 4 players, parameters
  ``max_hand_size`` (13 by the rules, BA-10; smaller for short games) and
  ``max_throw_ins`` (default 50, see below).

The rules are the library's: each OpenSpiel state holds a cardrules state and
every step goes through the game's ``apply``.  Player actions are numbered by
the game's ``encoding`` module (:data:`cardrules.down_and_back.NUM_ACTIONS`,
:data:`cardrules.back_alley.NUM_ACTIONS`).

**Chance.**  OpenSpiel lists the outcomes of a chance node, so a shuffle of
52 or 54 cards is split into card-by-card steps: each step picks the next
card of the pile (from the top) among the cards left, each with probability
``1 / cards left``; the outcome's number is the card's index
(:attr:`cardrules.Card.index`, 52 and 53 for Back Alley's jokers).  The last
card is forced and taken without a step, so a pile of ``k`` cards takes
``k - 1`` chance steps; then the whole order is applied as one
:class:`~cardrules.engine.Shuffle`.  Down and Back's reshuffles of the
discard pile (DB-36) work the same way.  The first dealer (DB-31, BA-11) is
one step whose outcome is the seat, each with probability ``1 / players``.
This is exactly the distribution of the games' ``sample_chance`` (a uniform
dealer, a uniform order).  Chance outcome numbers and player action numbers
are separate ranges in OpenSpiel (``max_chance_outcomes()`` and
``num_distinct_actions()``), so they may overlap.

**Returns.**  Down and Back pays net chips (winnings minus antes, DB-44);
Back Alley gives each player the points of their team (BA-40 to BA-43).
Both are general-sum: in Down and Back a pot not won by the end stays
unpaid (DB-43), and in Back Alley both teams can score.  ``rewards()`` is
the change of the returns since the previous player decision (so antes
taken at a chance step count in the reward of the decision that follows).

**Length.**  Player decisions per game are bounded exactly in Down and Back
(a round is always ``13 * players + 1`` decisions).  Two rules can in
principle repeat without end: Back Alley's throw-ins (BA-25) and Down and
Back's tie-break draws (DB-42) with their reshuffles.  To keep the game
finite, a Back Alley game with more than ``max_throw_ins`` throw-ins, and a
Down and Back game whose chance steps would pass ``max_chance_nodes_in_history()``
(room for every shuffle plus two whole-deck reshuffles of tie-break draws per
round), ends there, with the returns as they stand.  Neither happens in
ordinary play.

**Information.**  ``observation_string`` and ``observation_tensor`` describe
the seat's :func:`~cardrules.down_and_back.view` (the encoding module's
``observation_string`` and ``observation_tensor``).  ``information_state_string``
adds everything the seat has seen since the start, in order: every public
action, its own dealt hands, its own stock draws and splits.
``resample_from_infostate`` deals out what the seat cannot see afresh (the
game's ``RULES.hidden_variant``, uniform over the states the seat's
information allows), at every node, a shuffle in progress redrawn, so
OpenSpiel's information-set MCTS works.

**Parameters** must fit OpenSpiel's C++ ``int``, and so must the bounds
they give (``max_game_length()``, ``max_chance_nodes_in_history()`` and
their sum): anything larger is a :class:`ValueError` that says so.

**Serialization.**  ``state.serialize()`` is OpenSpiel's text for a Python
state: the history, the move number and the state's attributes pickled (here
the adapter's JSON).  ``game.deserialize_state(text)`` reads that text
strictly: the pickled part may hold only the adapter's JSON (nothing else is
unpickled), the JSON goes through the library's strict readers and must be
of this game with its settings, and replaying the history must lead to
exactly that state; a resampled state carries the state it was drawn from,
which is checked the same way.  Anything else is a
:class:`~cardrules.ParseError`.  OpenSpiel's own formats, pickling a state or
a game and ``pyspiel.deserialize_game_and_state``, unpickle whatever they are
given, by design: never give them untrusted bytes (the adapter's JSON they
reach is still checked).

>>> import pyspiel
>>> from cardrules.integrations import openspiel
>>> game = pyspiel.load_game("cardrules_down_and_back", {"players": 3, "rounds": 1})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 140, 52)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0]
(True, (0, 0.3333333333333333))
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import pickle
import pickletools
import random
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Generic, TypeVar, cast

try:
    import numpy as np
    import pyspiel
except ImportError as _error:  # pragma: no cover - depends on the installation
    raise ImportError('cardrules.integrations.openspiel needs OpenSpiel and numpy: '
                      'pip install "cardrules[openspiel]"') from _error

from cardrules import back_alley as _ba
from cardrules import down_and_back as _db
from cardrules._validate import is_int
from cardrules.back_alley import encoding as _ba_encoding
from cardrules.back_alley.actions import CARDS as _BA_CARDS
from cardrules.cards import DECK, Card, Joker
from cardrules.down_and_back import encoding as _db_encoding
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.readers import MAX_DIGITS, Fields, safe_repr
from cardrules.engine.rules import Rules
from cardrules.errors import IllegalActionError, ParseError

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "BACK_ALLEY",
    "DOWN_AND_BACK",
    "BackAlleyGame",
    "CardrulesGame",
    "CardrulesState",
    "DownAndBackGame",
]

#: The OpenSpiel name of Down and Back.
DOWN_AND_BACK = "cardrules_down_and_back"
#: The OpenSpiel name of Back Alley.
BACK_ALLEY = "cardrules_back_alley"

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

S = TypeVar("S", _db.GameState, _ba.GameState)
A = TypeVar("A", _db.Action, _ba.Action)
AnyCard = Card | Joker
#: Text pieces of one logged event, joined with spaces when shown.
_Parts = tuple[object, ...]


class _Entry:
    """One event of the log of a game, as a persistent list (newest first).

    ``owner`` is the seat the event is private to, or None for a public event;
    ``public`` is what everyone else learns (None: nothing), ``private`` what
    the owner learns.
    """

    __slots__ = ("owner", "prev", "private", "public")

    def __init__(self, prev: _Entry | None, owner: int | None, public: _Parts | None,
                 private: _Parts | None) -> None:
        self.prev, self.owner, self.public, self.private = prev, owner, public, private

    def entries(self) -> list[_Entry]:
        """Every entry up to this one, oldest first."""
        out: list[_Entry] = []
        entry: _Entry | None = self
        while entry is not None:
            out.append(entry)
            entry = entry.prev
        out.reverse()
        return out


def _text(parts: _Parts | None) -> str | None:
    return None if parts is None else " ".join(map(str, parts))


# -- the two games -------------------------------------------------------------

class _Spec(Generic[S, A]):
    """What the adapter needs from one game with given settings."""

    name: str
    #: The game's rules; ``resample_from_infostate`` draws with their
    #: ``hidden_variant``.
    rules: Rules[S, A]
    num_players: int
    #: Cards by chance outcome number (their index).
    cards: tuple[AnyCard, ...]
    max_chance_nodes: int
    settings: dict[str, int]

    def new_state(self) -> S:
        raise NotImplementedError

    def apply(self, state: S, action: A) -> S:
        raise NotImplementedError

    def pile(self, state: S) -> tuple[AnyCard, ...] | None:
        """The pile to shuffle at a chance point; None for the choice of dealer."""
        raise NotImplementedError

    def returns(self, state: S) -> tuple[float, ...]:
        raise NotImplementedError

    def legal_ids(self, state: S) -> tuple[int, ...]:
        raise NotImplementedError

    def action_of(self, state: S, number: int) -> A:
        raise NotImplementedError

    def events(self, before: S, action: A, after: S) -> list[tuple[int | None, _Parts | None,
                                                                   _Parts | None]]:
        raise NotImplementedError

    def is_throw_in(self, before: S, after: S) -> bool:
        return False

    def observation_string(self, state: S, seat: int) -> str:
        raise NotImplementedError

    def observation_tensor(self, state: S, seat: int) -> npt.NDArray[np.float32]:
        raise NotImplementedError

    def state_to_json(self, state: S) -> object:
        raise NotImplementedError

    def state_from_json(self, data: Mapping[str, object]) -> S:
        raise NotImplementedError

    observation_size: int
    game_info: pyspiel.GameInfo


class _DownAndBack(_Spec[_db.GameState, _db.Action]):
    name = DOWN_AND_BACK
    rules = _db.RULES
    cards = DECK

    def __init__(self, players: int, ante: int, rounds: int) -> None:
        if rounds is None:
            raise ValueError("an OpenSpiel game needs a number of rounds")
        _db.new_game(players, ante=ante, rounds=rounds)  # checks the settings
        self.settings = {"players": players, "ante": ante, "rounds": rounds}
        self.num_players, self.ante, self.rounds = players, ante, rounds
        # Per round: the deal's shuffle (51 steps), reshuffles while playing (at
        # most the stock draws plus one stock: 6n + 52) and room for two
        # whole-deck reshuffles of tie-break draws (DB-42).
        self.max_chance_nodes = _fits_int(
            "max_chance_nodes_in_history()", 1 + rounds * (51 + 6 * players + 52 + 2 * 51),
            self.settings)
        self.observation_size = _db_encoding.OBSERVATION_SIZE
        self.game_info = pyspiel.GameInfo(
            num_distinct_actions=_db_encoding.NUM_ACTIONS, max_chance_outcomes=52,
            num_players=players, min_utility=float(-ante * rounds),
            max_utility=float((players - 1) * ante * rounds), utility_sum=None,
            max_game_length=_fits_int("max_game_length()", rounds * (13 * players + 1),
                                      self.settings))
        _fits_moves(self)

    def new_state(self) -> _db.GameState:
        return _db.new_game(self.num_players, ante=self.ante, rounds=self.rounds)

    def apply(self, state: _db.GameState, action: _db.Action) -> _db.GameState:
        return _db.apply(state, action)

    def pile(self, state: _db.GameState) -> tuple[AnyCard, ...] | None:
        phase = state.phase
        if phase is _db.Phase.SHUFFLE:
            return DECK
        if phase is _db.Phase.RESHUFFLE:
            return state.discard
        return None

    def returns(self, state: _db.GameState) -> tuple[float, ...]:
        return tuple(map(float, state.net))

    def legal_ids(self, state: _db.GameState) -> tuple[int, ...]:
        return _db_encoding.legal_action_ids(state)

    def action_of(self, state: _db.GameState, number: int) -> _db.Action:
        return _db_encoding.action_from_id(state, number)

    def events(self, before: _db.GameState, action: _db.Action, after: _db.GameState
               ) -> list[tuple[int | None, _Parts | None, _Parts | None]]:
        kind = type(action)
        if kind is ChooseDealer:
            return [(None, ("dealer", cast(ChooseDealer, action).seat), None)]
        if kind is Shuffle:
            if before.phase is _db.Phase.SHUFFLE:
                return [(None, ("shuffle",), None)]
            # DB-36: the top card of the reshuffled pile is turned face up.
            return [(None, ("reshuffle, turned", cast(Shuffle, action).order[0]), None)]
        seat = before.current_player
        if kind is _db.Discard:
            return [(None, ("seat", seat, "discards", cast(_db.Discard, action).card), None)]
        if kind is _db.DrawStock:
            return [(seat, ("seat", seat, "draws from the stock"),
                     ("seat", seat, "draws", after.drawn, "from the stock"))]
        if kind is _db.DrawDiscard:
            return [(None, ("seat", seat, "takes", before.discard[-1]), None)]
        if kind is _db.Split:
            return [(seat, ("seat", seat, "splits"), ("seat", seat, action))]
        assert isinstance(action, _db.Cut)
        dealt: list[tuple[int | None, _Parts | None, _Parts | None]] = [
            (None, ("seat", seat, action, "turned", after.discard[-1]), None)]
        dealt.extend((other, None, ("seat", other, "dealt", after.hands[other]))
                     for other in range(self.num_players))
        return dealt

    def observation_string(self, state: _db.GameState, seat: int) -> str:
        return _db_encoding.observation_string(_db.view(state, seat))

    def observation_tensor(self, state: _db.GameState, seat: int) -> npt.NDArray[np.float32]:
        return _db_encoding.observation_tensor(_db.view(state, seat))

    def state_to_json(self, state: _db.GameState) -> object:
        return _db.state_to_dict(state)

    def state_from_json(self, data: Mapping[str, object]) -> _db.GameState:
        return _db.state_from_dict(data)


class _BackAlley(_Spec[_ba.GameState, _ba.Action]):
    name = BACK_ALLEY
    rules = _ba.RULES
    num_players = _ba.NUM_PLAYERS
    cards = _BA_CARDS

    def __init__(self, max_hand_size: int, max_throw_ins: int) -> None:
        settings = _ba.Settings(max_hand_size=max_hand_size)  # checks the value
        if type(max_throw_ins) is not int or max_throw_ins < 0:
            raise ValueError(f"max_throw_ins must be a whole number of at least 0, "
                             f"not {max_throw_ins!r}")
        self.settings = {"max_hand_size": max_hand_size, "max_throw_ins": max_throw_ins}
        self.max_hand_size, self.max_throw_ins = max_hand_size, max_throw_ins
        deals = settings.deals
        sizes = [_ba.hand_size_of(d, max_hand_size) for d in range(1, deals + 1)]
        # One step for the dealer, 53 per shuffle of 54 cards, one shuffle per
        # deal and per throw-in allowed.
        self.max_chance_nodes = _fits_int("max_chance_nodes_in_history()",
                                          1 + 53 * (deals + max_throw_ins), self.settings)
        # A deal scores at most +-40 points per card (a made or failed quadruple
        # board, BA-41); the hand sizes add up to max_hand_size ** 2.
        bound = 40.0 * sum(sizes)
        self.observation_size = _ba_encoding.OBSERVATION_SIZE
        self.game_info = pyspiel.GameInfo(
            num_distinct_actions=_ba_encoding.NUM_ACTIONS, max_chance_outcomes=54,
            num_players=4, min_utility=-bound, max_utility=bound, utility_sum=None,
            max_game_length=_fits_int(
                "max_game_length()",
                sum(4 + 4 * size for size in sizes) + 4 * (max_throw_ins + 1), self.settings))
        _fits_moves(self)

    def new_state(self) -> _ba.GameState:
        return _ba.new_game(max_hand_size=self.max_hand_size)

    def apply(self, state: _ba.GameState, action: _ba.Action) -> _ba.GameState:
        return _ba.apply(state, action)

    def pile(self, state: _ba.GameState) -> tuple[AnyCard, ...] | None:
        return _BA_CARDS if state.phase is _ba.Phase.SHUFFLE else None

    def returns(self, state: _ba.GameState) -> tuple[float, ...]:
        first, second = state.scores
        return (float(first), float(second), float(first), float(second))

    def legal_ids(self, state: _ba.GameState) -> tuple[int, ...]:
        return _ba_encoding.legal_action_ids(state)

    def action_of(self, state: _ba.GameState, number: int) -> _ba.Action:
        return _ba_encoding.action_from_id(state, number)

    def is_throw_in(self, before: _ba.GameState, after: _ba.GameState) -> bool:
        return before.phase is _ba.Phase.BID and after.phase is _ba.Phase.SHUFFLE

    def events(self, before: _ba.GameState, action: _ba.Action, after: _ba.GameState
               ) -> list[tuple[int | None, _Parts | None, _Parts | None]]:
        kind = type(action)
        if kind is ChooseDealer:
            return [(None, ("dealer", cast(ChooseDealer, action).seat), None)]
        if kind is not Shuffle:
            return [(None, ("seat", before.current_player, action), None)]
        deal = after.deal
        assert deal is not None
        public: _Parts = ("deal by", after.dealer, "turned", deal.trump_card)
        if deal.joker_discard is not None:
            public += ("seat", deal.exchanger, "discards", deal.joker_discard)
        dealt: list[tuple[int | None, _Parts | None, _Parts | None]] = [(None, public, None)]
        hands = after.hands
        for seat in range(4):
            private: _Parts = ("seat", seat, "dealt", hands[seat])
            if seat == deal.exchanger:
                private += ("took", deal.taken)
            dealt.append((seat, None, private))
        return dealt

    def observation_string(self, state: _ba.GameState, seat: int) -> str:
        return _ba_encoding.observation_string(_ba.view(state, seat))

    def observation_tensor(self, state: _ba.GameState, seat: int) -> npt.NDArray[np.float32]:
        return _ba_encoding.observation_tensor(_ba.view(state, seat))

    def state_to_json(self, state: _ba.GameState) -> object:
        return _ba.state_to_dict(state)

    def state_from_json(self, data: Mapping[str, object]) -> _ba.GameState:
        return _ba.state_from_dict(data)


#: OpenSpiel keeps parameters, lengths and counts in a C++ ``int``.
_INT_MAX = 2 ** 31 - 1


def _fits_int(what: str, value: int, settings: Mapping[str, int]) -> int:
    """``value`` if OpenSpiel can hold it in a C++ int, else a clear ValueError."""
    if value > _INT_MAX:
        given = ", ".join(f"{key}={number}" for key, number in settings.items())
        raise ValueError(f"{given}: too large for OpenSpiel, whose {what} would be {value} "
                         f"(OpenSpiel counts in a C++ int, at most {_INT_MAX})")
    return value


def _fits_moves(spec: _Spec[_db.GameState, _db.Action] | _Spec[_ba.GameState, _ba.Action]
                ) -> None:
    """OpenSpiel's longest history (``max_move_number()``) is the sum of the two bounds."""
    _fits_int("max_move_number()",
              spec.game_info.max_game_length + spec.max_chance_nodes, spec.settings)


_SPECS: dict[tuple[str, tuple[tuple[str, int], ...]], _Spec[_db.GameState, _db.Action]
             | _Spec[_ba.GameState, _ba.Action]] = {}


def _spec(name: str, settings: Mapping[str, int]
          ) -> _Spec[_db.GameState, _db.Action] | _Spec[_ba.GameState, _ba.Action]:
    """The (cached) game description for ``name`` with ``settings``."""
    key = (name, tuple(sorted(settings.items())))
    spec = _SPECS.get(key)
    if spec is None:
        if name == DOWN_AND_BACK:
            spec = _DownAndBack(settings["players"], settings["ante"], settings["rounds"])
        else:
            spec = _BackAlley(settings["max_hand_size"], settings["max_throw_ins"])
        _SPECS[key] = spec
    return spec


# -- the state's data ------------------------------------------------------------

class _Core:
    """Everything an OpenSpiel state holds, in one object.

    OpenSpiel copies a Python state by deep-copying each attribute and
    serializes it by pickling them; this object copies itself cheaply (its
    parts are immutable) and pickles as JSON text (the library's state form).
    """

    __slots__ = ("base", "chance_steps", "log", "origin", "picked", "player", "remaining",
                 "spec", "state", "throw_ins", "truncated", "unchecked")

    spec: _Spec[_db.GameState, _db.Action] | _Spec[_ba.GameState, _ba.Action]
    state: _db.GameState | _ba.GameState
    #: Card indexes of the shuffle in progress: drawn so far (top first), and left.
    picked: tuple[int, ...]
    remaining: tuple[int, ...]
    log: _Entry | None
    #: The returns when the last player decision was made (for rewards()).
    base: tuple[float, ...]
    chance_steps: int
    throw_ins: int
    truncated: bool
    #: Made by resample_from_infostate (or played on from such a state), whose
    #: OpenSpiel history is the original's: the seat it was drawn for, the
    #: history's length then, the core it was drawn from and the core drawn.
    origin: _Origin | None
    #: Read from JSON and not yet checked against a state's history (not saved).
    unchecked: bool
    #: OpenSpiel's current player (asked many times per step, so kept).
    player: int

    def update_player(self) -> None:
        state = self.state
        if self.truncated or state.is_terminal:
            self.player = _TERMINAL
        else:
            seat = state.current_player
            self.player = _CHANCE if seat is None else seat

    def copy(self) -> _Core:
        other = _Core.__new__(_Core)
        for name in _Core.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    def __copy__(self) -> _Core:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> _Core:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[[str], _Core], tuple[str]]:
        return _core_from_json, (self.to_json(),)

    # -- chance ---------------------------------------------------------------------

    def enter(self) -> None:
        """Set up the chance point the state is at, if any (a new shuffle)."""
        state, spec = self.state, self.spec
        if not state.is_chance:
            return
        pile = spec.pile(state)  # type: ignore[arg-type]
        if pile is None:
            return
        if self.chance_steps + len(pile) - 1 > spec.max_chance_nodes:
            self.truncated = True
            return
        self.picked = ()
        self.remaining = tuple(sorted(card.index for card in pile))
        if len(self.remaining) <= 1:
            self.finish_shuffle()

    def finish_shuffle(self) -> None:
        order = (*self.picked, *self.remaining)
        cards = self.spec.cards
        self.picked, self.remaining = (), ()
        self.step(Shuffle(tuple(cards[i] for i in order)))

    def apply_chance(self, number: int) -> None:
        state = self.state
        if not state.is_chance:
            raise ValueError("not a chance node")
        if not self.remaining:  # the first dealer
            if not 0 <= number < state.num_players:
                raise ValueError(f"chance outcome {number}: the dealer is a seat, 0 to "
                                 f"{state.num_players - 1}")
            self.chance_steps += 1
            self.step(ChooseDealer(number))
            return
        remaining = self.remaining
        if number not in remaining:
            raise ValueError(f"chance outcome {number} is not a card left in the shuffle")
        self.chance_steps += 1
        self.picked = (*self.picked, number)
        at = remaining.index(number)
        self.remaining = remaining[:at] + remaining[at + 1:]
        if len(self.remaining) == 1:
            self.finish_shuffle()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        remaining = self.remaining
        if remaining:
            chance = 1.0 / len(remaining)
            return [(i, chance) for i in remaining]
        n = self.state.num_players
        return [(seat, 1.0 / n) for seat in range(n)]

    # -- steps ------------------------------------------------------------------------

    def apply_player(self, number: int) -> None:
        state = self.state
        if state.is_chance or state.is_terminal or self.truncated:
            raise ValueError("no player is to act")
        action = self.spec.action_of(state, number)  # type: ignore[arg-type]
        self.base = self.spec.returns(state)  # type: ignore[arg-type]
        self.step(action)

    def step(self, action: _db.Action | _ba.Action) -> None:
        """Apply ``action`` to the cardrules state, log what each seat learns,
        count throw-ins and set up the next chance point."""
        spec, before = self.spec, self.state
        after = spec.apply(before, action)  # type: ignore[arg-type]
        self.state = after
        log = self.log
        for owner, public, private in spec.events(before, action, after):  # type: ignore[arg-type]
            log = _Entry(log, owner, public, private)
        self.log = log
        if spec.is_throw_in(before, after):  # type: ignore[arg-type]
            self.throw_ins += 1
            if self.throw_ins > cast(_BackAlley, spec).max_throw_ins:
                self.truncated = True
                return
        self.enter()

    # -- what the players see --------------------------------------------------------

    def information_string(self, seat: int) -> str:
        lines = [f"seat {seat}"]
        if self.log is not None:
            for entry in self.log.entries():
                text = _text(entry.private if entry.owner == seat else entry.public)
                if text is not None:
                    lines.append(text)
        lines.append(self.spec.observation_string(self.state, seat))  # type: ignore[arg-type]
        return "\n".join(lines)

    def forget_others(self, seat: int) -> None:
        """Keep only ``seat``'s private events: the others' become their public part."""
        log: _Entry | None = None
        for entry in ([] if self.log is None else self.log.entries()):
            if entry.owner is None or entry.owner == seat:
                log = _Entry(log, entry.owner, entry.public, entry.private)
            elif entry.public is not None:
                log = _Entry(log, entry.owner, entry.public, entry.public)
        self.log = log

    # -- JSON ---------------------------------------------------------------------------

    def to_data(self, *, origin: bool = True) -> dict[str, object]:
        """The JSON object of this core (``origin=False``: as if never resampled)."""
        spec = self.spec
        entries = [] if self.log is None else self.log.entries()
        resampled: dict[str, object] | None = None
        if origin and self.origin is not None:
            seat, at, source, start = self.origin
            resampled = {"seat": seat, "at": at, "source": source.to_data(),
                         "start": start.to_data()}
        return {
            "game": spec.name, "settings": spec.settings,
            "state": spec.state_to_json(self.state),  # type: ignore[arg-type]
            "picked": list(self.picked), "remaining": list(self.remaining),
            "log": [[e.owner, _text(e.public), _text(e.private)] for e in entries],
            "base": list(self.base), "chance_steps": self.chance_steps,
            "throw_ins": self.throw_ins, "truncated": self.truncated,
            "resampled": resampled,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_data(), separators=(",", ":"))


#: Where a resampled core comes from: (seat, history length, source core, drawn core).
_Origin = tuple[int, int, _Core, _Core]
#: How deep resamples of resamples may nest in a serialized state.
_MAX_RESAMPLES = 32


def _new_core(spec: _Spec[_db.GameState, _db.Action] | _Spec[_ba.GameState, _ba.Action]
              ) -> _Core:
    core = _Core.__new__(_Core)
    core.spec, core.state = spec, spec.new_state()
    core.picked = core.remaining = ()
    core.log = None
    core.base = (0.0,) * spec.num_players
    core.chance_steps = core.throw_ins = 0
    core.truncated = core.unchecked = False
    core.origin = None
    core.update_player()
    return core


def _json_number(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise ParseError(f"number too long ({digits} digits)", token=text)
    return int(text)


def _json_constant(name: str) -> object:
    raise ParseError("not valid JSON (NaN and Infinity are not JSON numbers)", token=name)


def _read_json(text: object, what: str) -> object:
    """Strict JSON: no NaN or Infinity, no overlong numbers, a sane depth."""
    if not isinstance(text, str):
        raise ParseError(f"{what}: expected JSON text, not {type(text).__name__}")
    try:
        return json.loads(text, parse_int=_json_number, parse_constant=_json_constant)
    except json.JSONDecodeError as error:
        raise ParseError(f"{what}: not valid JSON ({error.msg})", position=error.pos) from None
    except RecursionError:
        raise ParseError(f"{what}: not valid JSON (nested too deeply)") from None


def _card_indexes(f: Fields, key: str, cards: tuple[AnyCard, ...]) -> tuple[int, ...]:
    """A list of distinct card numbers (:attr:`Card.index`) of ``cards``."""
    values = f.array(key)
    if len(values) > len(cards):
        raise ParseError(f"{f.what}: {key!r} lists more than {len(cards)} cards")
    out: list[int] = []
    for at, value in enumerate(values):
        if not is_int(value) or not 0 <= value < len(cards):
            raise ParseError(f"{f.what}: {key}[{at}] is not a card number "
                             f"(0 to {len(cards) - 1})", token=safe_repr(value))
        out.append(value)
    if len(set(out)) != len(out):
        raise ParseError(f"{f.what}: {key!r} lists a card twice")
    return tuple(out)


def _core_from_json(text: str) -> _Core:
    """Read back :meth:`_Core.to_json` (what unpickling a state calls), strictly.

    Every key is checked (types, ranges, the game's settings, the library's
    ``state_from_dict``, the shuffle in progress against the pile, the
    counters against the settings); anything wrong is a ParseError.  The core
    is then still ``unchecked``: a state checks it against its own OpenSpiel
    history when it takes it (:meth:`CardrulesState.__setattr__`).
    """
    core = _core_from_data(_read_json(text, "OpenSpiel state"), "OpenSpiel state", 0)
    core.unchecked = True
    return core


def _core_from_data(data: object, what: str, depth: int) -> _Core:
    """One core from its JSON object (see :func:`_core_from_json`)."""
    f = Fields(data, what)
    name = f.text("game")
    defaults = _GAME_DEFAULTS.get(name)
    if defaults is None:
        raise ParseError(f"{what}: unknown game", token=safe_repr(name))
    given = Fields(f.obj("settings"), f"{what}: settings")
    settings = {key: given.integer(key) for key in defaults}
    given.done()
    spec = _SPECS.get((name, tuple(sorted(settings.items()))))
    if spec is None:  # every game makes its spec before any of its states
        raise ParseError(f"{what}: no game {name} with these settings is loaded",
                         token=safe_repr(settings))
    core = _new_core(spec)
    state = spec.state_from_json(f.obj("state"))
    if state.settings != core.state.settings:
        raise ParseError(f"{what}: the cardrules state's settings are not the game's "
                         f"({', '.join(f'{k}={v}' for k, v in settings.items())})")
    core.state = state
    core.picked = _card_indexes(f, "picked", spec.cards)
    core.remaining = _card_indexes(f, "remaining", spec.cards)
    n = spec.num_players
    log: _Entry | None = None
    for at, item in enumerate(f.array("log")):
        if not isinstance(item, list) or len(item) != 3:
            raise ParseError(f"{what}: log[{at}] must be [owner, public, private]",
                             token=safe_repr(item))
        owner, public, private = item
        if owner is not None and not (is_int(owner) and 0 <= owner < n):
            raise ParseError(f"{what}: log[{at}]: the owner must be a seat or null",
                             token=safe_repr(owner))
        if (public is not None and not isinstance(public, str)) or (
                private is not None and not isinstance(private, str)):
            raise ParseError(f"{what}: log[{at}]: the texts must be text or null",
                             token=safe_repr(item))
        if (owner is None) != (private is None) or (owner is None and public is None):
            raise ParseError(f"{what}: log[{at}]: a public event has a public text only, "
                             f"a private one its owner and private text", token=safe_repr(item))
        log = _Entry(log, owner, None if public is None else (public,),
                     None if private is None else (private,))
    core.log = log
    base = f.array("base")
    if len(base) != n or not all(
            type(v) in (int, float) and math.isfinite(cast(float, v)) for v in base):
        raise ParseError(f"{what}: 'base' must be {n} numbers", token=safe_repr(base))
    core.base = tuple(float(cast(float, v)) for v in base)
    core.chance_steps = f.integer("chance_steps", minimum=0, maximum=spec.max_chance_nodes)
    # Down and Back has no throw-ins; Back Alley stops at one too many.
    max_throw_ins = cast(_BackAlley, spec).max_throw_ins if name == BACK_ALLEY else None
    core.throw_ins = f.integer("throw_ins", minimum=0,
                               maximum=0 if max_throw_ins is None else max_throw_ins + 1)
    core.truncated = f.flag("truncated")
    # Written before resampled states were saved with their origin: absent.
    origin = f.obj("resampled") if f.has("resampled") and f.get("resampled") is not None else None
    f.done()
    _check_core(core, max_throw_ins)
    core.update_player()
    if origin is not None:
        if depth >= _MAX_RESAMPLES:
            raise ParseError(f"{what}: resampled more than {_MAX_RESAMPLES} times over")
        o = Fields(origin, f"{what}: resampled")
        seat = o.integer("seat", minimum=0, maximum=n - 1)
        at = o.integer("at", minimum=0, maximum=_INT_MAX)
        source = _core_from_data(o.obj("source"), f"{what}: resampled.source", depth + 1)
        start = _core_from_data(o.obj("start"), f"{what}: resampled.start", depth + 1)
        o.done()
        if source.spec is not spec or start.spec is not spec:
            raise ParseError(f"{what}: resampled from a state of another game")
        if start.origin is not None:
            raise ParseError(f"{what}: the state drawn by a resample has no origin of its own")
        core.origin = (seat, at, source, start)
    return core


def _check_core(core: _Core, max_throw_ins: int | None) -> None:
    """The parts of a core read from JSON agree with each other."""
    what = "OpenSpiel state"
    spec, state = core.spec, core.state
    pile = spec.pile(state) if state.is_chance else None  # type: ignore[arg-type]
    # A game is cut short by one throw-in too many, or at a shuffle that
    # would pass the cap on chance steps (_Core.step and _Core.enter).
    at_cap = (pile is not None and not core.picked
              and core.chance_steps + len(pile) - 1 > spec.max_chance_nodes)
    too_many = max_throw_ins is not None and core.throw_ins > max_throw_ins
    if core.truncated != (too_many or at_cap):
        raise ParseError(f"{what}: 'truncated' does not agree with the counters and the state",
                         token=safe_repr(core.truncated))
    if pile is None or core.truncated:
        if core.picked or core.remaining:
            raise ParseError(f"{what}: a shuffle in progress where no pile is being shuffled")
        return
    if sorted((*core.picked, *core.remaining)) != sorted(card.index for card in pile):
        raise ParseError(f"{what}: the shuffle in progress is not of the pile being shuffled")
    if list(core.remaining) != sorted(core.remaining) or len(core.remaining) < 2:
        raise ParseError(f"{what}: 'remaining' must list at least two cards in order")


def _history_of(state: pyspiel.State) -> list[tuple[int, int]]:
    return [(int(step.player), int(step.action)) for step in state.full_history()]


def _replay(start: _Core, history: list[tuple[int, int]], offset: int) -> _Core:
    """The core ``history`` (from move ``offset`` on) leads to from ``start``."""
    core = start.copy()
    core.origin = None
    for at, (player, number) in enumerate(history, offset):
        if player != core.player:
            raise ParseError(f"history step {at}: player {player} cannot move here "
                             f"(the player to move is {core.player})", token=f"{player}:{number}")
        try:
            if player == _CHANCE:
                core.apply_chance(number)
            elif number in core.spec.legal_ids(core.state):  # type: ignore[arg-type]
                core.apply_player(number)
            else:
                raise ValueError("not a legal action")
        except (IllegalActionError, ValueError) as error:
            raise ParseError(f"history step {at}: {error}", token=f"{player}:{number}") from None
        core.update_player()
    return core


def _check_history(state: CardrulesState, core: _Core) -> _Core:
    """``core`` (read from JSON) checked against ``state``'s game and history;
    a checked copy (see :func:`_verify`)."""
    spec = state.get_game()._spec
    if core.spec is not spec:
        raise ParseError(f"the OpenSpiel state is of {core.spec.name}({_params(core.spec)}), "
                         f"not of {spec.name}({_params(spec)})")
    history = _history_of(state)
    if state.move_number() != len(history):
        raise ParseError(f"move_number {state.move_number()} is not the length of the "
                         f"history ({len(history)})")
    _verify(core, history)
    checked = core.copy()
    checked.unchecked = False
    return checked


def _verify(core: _Core, history: list[tuple[int, int]]) -> None:
    """Replaying ``history`` must lead to exactly ``core``.

    A resampled core's history is the original's up to the resample (see
    :meth:`CardrulesState.resample_from_infostate`), then its own: so the
    core it was drawn from is checked against the history up to then, the
    core drawn must give that seat the same information, and the rest of the
    history replayed from the core drawn must lead to this one.
    """
    if core.origin is None:
        replayed = _replay(_new_core(core.spec), history, 0)
    else:
        seat, at, source, start = core.origin
        if at > len(history):
            raise ParseError(f"resampled at move {at}, after the end of the history "
                             f"({len(history)} moves)")
        _verify(source, history[:at])
        if not (start.information_string(seat) == source.information_string(seat)
                and (start.player, start.base, start.chance_steps, start.throw_ins,
                     start.truncated, len(start.picked))
                == (source.player, source.base, source.chance_steps, source.throw_ins,
                    source.truncated, len(source.picked))):
            raise ParseError(f"the resampled state does not give seat {seat} the "
                             f"information of the state it was drawn from")
        replayed = _replay(start, history[at:], at)
    if replayed.to_data() != core.to_data(origin=False):
        raise ParseError("the history does not lead to the state written with it")


def _params(spec: _Spec[_db.GameState, _db.Action] | _Spec[_ba.GameState, _ba.Action]) -> str:
    return ",".join(f"{key}={value}" for key, value in spec.settings.items())


#: ``player:action`` pairs as OpenSpiel writes them (chance is -1; no sign, no leading 0).
_PAIR = r"(?:-1|0|[1-9][0-9]{0,9}):(?:0|[1-9][0-9]{0,9})"
_HISTORY = re.compile(rf"(?:{_PAIR}(?:,{_PAIR})*)?")
#: The only pickle opcodes of the ``__dict__`` part the adapter writes: a dict,
#: text, and one call of _core_from_json (no BUILD, no other object).
_SAFE_OPCODES = frozenset({
    "PROTO", "FRAME", "STOP", "MARK", "EMPTY_DICT", "DICT", "EMPTY_TUPLE", "TUPLE", "TUPLE1",
    "SETITEM", "SETITEMS", "MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT", "GET", "BINGET",
    "LONG_BINGET", "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE",
    "GLOBAL", "STACK_GLOBAL", "REDUCE"})


class _DictUnpickler(pickle.Unpickler):
    """Reads the ``__dict__`` part of a serialized state, allowing no global
    but :func:`_core_from_json` (the pickle docs' "restricting globals")."""

    def find_class(self, module: str, name: str) -> object:
        if module == __name__ and name == "_core_from_json":
            return _core_from_json
        raise ParseError("a serialized state may call nothing but the adapter's reader",
                         token=f"{module}.{name}")


def _screen_serialized(text: object, num_players: int, max_moves: int) -> None:
    """Check ``deserialize_state``'s text before OpenSpiel reads it: the
    ``history=``, ``move_number=`` and ``__dict__=`` lines, the pickle inside
    holding only the adapter's JSON."""
    if not isinstance(text, str):
        raise ParseError(f"a serialized state is text, not {type(text).__name__}")
    pieces = text.split("\n", 2)
    tags = ("history=", "move_number=", "__dict__=")
    if len(pieces) != 3 or not all(p.startswith(t) for p, t in zip(pieces, tags, strict=True)):
        raise ParseError("a serialized state has three lines: history=, move_number= "
                         "and __dict__=")
    history, moves, data = (p[len(t):] for p, t in zip(pieces, tags, strict=True))
    if not _HISTORY.fullmatch(history):
        raise ParseError("history= must list player:action pairs", token=history[:80])
    pairs = history.split(",") if history else []
    if len(pairs) > max_moves:
        raise ParseError(f"history= lists {len(pairs)} moves, more than a game has "
                         f"({max_moves})")
    for pair in pairs:
        player, action = map(int, pair.split(":"))
        if not (-1 <= player < num_players and 0 <= action <= _INT_MAX):
            raise ParseError("history=: not a player and an action", token=pair)
    if not re.fullmatch(r"0|[1-9][0-9]{0,9}", moves) or int(moves) > _INT_MAX:
        raise ParseError("move_number= must be a whole number", token=moves[:80])
    try:
        raw = base64.b64decode(data, validate=True)
        for opcode, _, _ in pickletools.genops(raw):
            if opcode.name not in _SAFE_OPCODES:
                raise ParseError("__dict__= holds more than the adapter's data",
                                 token=opcode.name)
        loaded = _DictUnpickler(io.BytesIO(raw)).load()
    except ParseError:
        raise
    except (binascii.Error, pickle.UnpicklingError, ValueError, TypeError, EOFError,
            IndexError, KeyError, RecursionError) as error:
        raise ParseError(f"__dict__= is not the adapter's data ({error})") from None
    if not (isinstance(loaded, dict) and loaded.keys() == {"_core"}
            and isinstance(loaded["_core"], _Core)):
        raise ParseError("__dict__= must hold the adapter's state and nothing else")


# -- OpenSpiel classes ---------------------------------------------------------------

class CardrulesState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state of either game, wrapping a cardrules state.

    Use it as any OpenSpiel state; :attr:`cardrules_state` is the library's
    own state underneath (complete only between the card-by-card steps of a
    shuffle: mid-shuffle it is the state before the shuffle).

    >>> import pyspiel
    >>> from cardrules.integrations import openspiel
    >>> state = pyspiel.load_game("cardrules_back_alley").new_initial_state()
    >>> state.apply_action(2)                      # chance: seat 2 deals first
    >>> state.cardrules_state.dealer, len(state.chance_outcomes())
    (2, 54)
    """

    def __init__(self, game: CardrulesGame) -> None:
        super().__init__(game)
        self._core = _new_core(game._spec)

    def __setattr__(self, name: str, value: object) -> None:
        """Set an attribute; the adapter's data (``_core``) is checked on the way.

        OpenSpiel deserializes a state by setting its attributes after its
        history, so the adapter's data read from JSON is checked here against
        the game and the history (:class:`~cardrules.ParseError` if it does
        not fit).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> state = pyspiel.load_game("cardrules_back_alley").new_initial_state()
        >>> state._core = "not the adapter's data"
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: an OpenSpiel state of cardrules holds the adapter's data: 'str'
        """
        if name == "_core":
            if not isinstance(value, _Core):
                raise ParseError("an OpenSpiel state of cardrules holds the adapter's data",
                                 token=type(value).__name__)
            if value.unchecked:
                value = _check_history(self, value)
        super().__setattr__(name, value)

    @property
    def cardrules_state(self) -> _db.GameState | _ba.GameState:
        """The cardrules state underneath (see the class).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_down_and_back", {"players": 2})
        >>> game.new_initial_state().cardrules_state.phase
        <Phase.CHOOSE_DEALER: 'choose_dealer'>
        """
        return self._core.state

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal player id.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> pyspiel.load_game("cardrules_back_alley").new_initial_state().current_player()
        -1
        """
        return self._core.player

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if player != self.current_player() or player < 0:
            return []
        return list(core.spec.legal_ids(core.state))  # type: ignore[arg-type]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes here with their probabilities (see the module).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> state = pyspiel.load_game("cardrules_back_alley").new_initial_state()
        >>> state.apply_action(0)
        >>> outcomes = state.chance_outcomes()
        >>> len(outcomes), outcomes[-1], round(sum(p for _, p in outcomes), 12)
        (54, (53, 0.018518518518518517), 1.0)
        """
        if not self.is_chance_node():
            return []
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.state.is_chance and not core.truncated:
            core.apply_chance(int(action))
        else:
            core.apply_player(int(action))
        core.update_player()

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == _CHANCE:
            if core.remaining or core.state.phase.value != "choose_dealer":
                return f"card {core.spec.cards[action]}"
            return f"dealer {action}"
        try:
            return str(core.spec.action_of(core.state, int(action)))  # type: ignore[arg-type]
        except (IllegalActionError, ValueError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        """True when the game is over (or cut short, see the module).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> pyspiel.load_game("cardrules_back_alley").new_initial_state().is_terminal()
        False
        """
        core = self._core
        return core.truncated or core.state.is_terminal

    def returns(self) -> list[float]:
        """Each player's total so far: net chips (Down and Back) or the team's
        points (Back Alley).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> state = pyspiel.load_game("cardrules_down_and_back", {"players": 2}).new_initial_state()
        >>> state.apply_action(1)                  # seat 1 deals: both ante 1 (DB-30)
        >>> state.returns()
        [-1.0, -1.0]
        """
        core = self._core
        return list(core.spec.returns(core.state))  # type: ignore[arg-type]

    def rewards(self) -> list[float]:
        """The change of :meth:`returns` since the last player decision.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> state = pyspiel.load_game("cardrules_down_and_back", {"players": 2}).new_initial_state()
        >>> state.apply_action(1)
        >>> state.rewards()
        [-1.0, -1.0]
        """
        core = self._core
        now = core.spec.returns(core.state)  # type: ignore[arg-type]
        return [a - b for a, b in zip(now, core.base, strict=True)]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> CardrulesState:
        """A state ``player_id`` cannot tell from this one, drawn at random.

        Works at every node.  The cards the seat cannot see are dealt out
        afresh (seeded from ``probability_sampler()``) with the game's
        ``RULES.hidden_variant``, uniformly among the states the seat's
        information allows (its view and every void the play has shown
        kept).  The cards of a shuffle in progress, seen by no one, are
        redrawn.  The other seats
        keep only the public part of their earlier private events;
        ``history()`` stays this state's (OpenSpiel keeps it as a record
        only), and the new state remembers where it was drawn from, so that
        its serialization can be checked (``game.deserialize_state``).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> state = pyspiel.load_game("cardrules_back_alley").new_initial_state()
        >>> for outcome in [0, *range(53)]:
        ...     state.apply_action(outcome)
        >>> other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
        >>> other.information_state_string(1) == state.information_state_string(1)
        True
        """
        rng = random.Random(int(probability_sampler() * 2 ** 52))
        clone = cast(CardrulesState, self.clone())
        core = clone._core.copy()
        spec = core.spec
        core.state = spec.rules.hidden_variant(core.state, player_id, rng)  # type: ignore[arg-type]
        core.forget_others(player_id)
        if core.picked:
            # The cards picked so far are seen by no one: redraw them from the
            # pile being shuffled (the new state's, the same cards).
            pile = sorted(card.index for card in spec.pile(core.state) or ())  # type: ignore[arg-type]
            rng.shuffle(pile)
            core.picked = tuple(pile[:len(core.picked)])
            core.remaining = tuple(sorted(pile[len(core.picked):]))
        # Kept so that a serialized resample can be checked (_verify).
        source, start = self._core.copy(), core.copy()
        source.unchecked = start.unchecked = False
        start.origin = None
        core.origin = (player_id, len(self.history()), source, start)
        clone._core = core
        return clone

    def __str__(self) -> str:
        core = self._core
        text = str(core.state)
        if core.picked:
            text += "\nshuffle so far: " + " ".join(str(core.spec.cards[i]) for i in core.picked)
        if core.truncated:
            text += "\ncut short (see cardrules.integrations.openspiel)"
        return text


class _Observer:
    """OpenSpiel's Python observer: a seat's observation, or its information state."""

    def __init__(self, spec: _Spec[_db.GameState, _db.Action] | _Spec[_ba.GameState, _ba.Action],
                 iig_obs_type: object, params: Mapping[str, object] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {dict(params)}")
        perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        if iig_obs_type is not None and (
                not getattr(iig_obs_type, "public_info", True)
                or getattr(iig_obs_type, "private_info", None)
                != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("only a single player's observation (public and own private "
                             "information) is supported")
        self.perfect_recall = perfect_recall
        self.tensor: npt.NDArray[np.float32] | None
        if perfect_recall:
            self.tensor, self.dict = None, {}
        else:
            self.tensor = np.zeros(spec.observation_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CardrulesState, player: int) -> None:
        if self.tensor is not None:
            core = state._core
            self.tensor[:] = core.spec.observation_tensor(core.state, player)  # type: ignore[arg-type]

    def string_from(self, state: CardrulesState, player: int) -> str:
        core = state._core
        if self.perfect_recall:
            return core.information_string(player)
        return core.spec.observation_string(core.state, player)  # type: ignore[arg-type]


class CardrulesGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of either cardrules game: the base class of
    :class:`DownAndBackGame` and :class:`BackAlleyGame`.

    >>> import pyspiel
    >>> from cardrules.integrations import openspiel
    >>> isinstance(pyspiel.load_game("cardrules_back_alley"), openspiel.CardrulesGame)
    True
    """

    _spec: _Spec[_db.GameState, _db.Action] | _Spec[_ba.GameState, _ba.Action]
    #: Set by each game: its OpenSpiel name, type and parameter defaults.
    _name: str
    _game_type: pyspiel.GameType
    _defaults: Mapping[str, int]

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        settings = _settings(params, self._defaults)
        spec = _spec(self._name, settings)
        super().__init__(self._game_type, spec.game_info, settings)
        self._spec = spec

    def new_initial_state(self) -> CardrulesState:
        """The state before the first dealer is chosen (a chance node).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> pyspiel.load_game("cardrules_back_alley").new_initial_state().is_chance_node()
        True
        """
        return CardrulesState(self)

    def deserialize_state(self, text: str) -> CardrulesState:
        """A state of this game from ``state.serialize()``'s text, checked.

        The three lines are read strictly, the pickled part may hold nothing
        but the adapter's JSON (no other object is unpickled), the JSON is
        read with the library's strict readers, and replaying the history must
        lead to exactly that state (a resampled state: see the module).
        Anything else is a :class:`~cardrules.ParseError`.  (OpenSpiel's own
        ``pyspiel.deserialize_game_and_state`` and pickle unpickle whatever
        they are given: never feed them untrusted data.)

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley")
        >>> state = game.new_initial_state()
        >>> state.apply_action(3)
        >>> game.deserialize_state(state.serialize()).cardrules_state.dealer
        3
        >>> game.deserialize_state(state.serialize().replace("-1:3", "-1:2"))
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: the history does not lead to the state written with it
        """
        spec = self._spec
        _screen_serialized(text, spec.num_players,
                           spec.game_info.max_game_length + spec.max_chance_nodes)
        return cast(CardrulesState, super().deserialize_state(text))

    def make_py_observer(self, iig_obs_type: object = None,
                         params: Mapping[str, object] | None = None) -> _Observer:
        """OpenSpiel's hook for observations and information states.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley")
        >>> game.make_py_observer().tensor.shape == (game.observation_tensor_size(),)
        True
        """
        if isinstance(iig_obs_type, Mapping):  # called as make_py_observer(params)
            iig_obs_type, params = None, iig_obs_type
        return _Observer(self._spec, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        """The most chance steps a game can have (see the module on length).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley",
        ...                          {"max_hand_size": 1, "max_throw_ins": 0})
        >>> game.max_chance_nodes_in_history()
        54
        """
        return self._spec.max_chance_nodes


def _game_type(short_name: str, long_name: str, players: tuple[int, int],
               parameters: Mapping[str, int]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=players[1], min_num_players=players[0],
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(parameters))


_DB_DEFAULTS = {"players": 4, "ante": 1, "rounds": _db.DEFAULT_ROUNDS}
_BA_DEFAULTS = {"max_hand_size": 13, "max_throw_ins": 50}
_GAME_DEFAULTS = {DOWN_AND_BACK: _DB_DEFAULTS, BACK_ALLEY: _BA_DEFAULTS}
_DB_TYPE = _game_type(DOWN_AND_BACK, "cardrules Down and Back", (2, 5), _DB_DEFAULTS)
_BA_TYPE = _game_type(BACK_ALLEY, "cardrules Back Alley", (4, 4), _BA_DEFAULTS)


def _settings(params: Mapping[str, object] | None, defaults: Mapping[str, int]
              ) -> dict[str, int]:
    values = dict(defaults)
    for key, value in (params or {}).items():
        if key not in values:
            raise ValueError(f"unknown parameter {key!r} (known: {', '.join(defaults)})")
        if type(value) is not int:
            raise ValueError(f"parameter {key!r} must be a whole number, not {value!r}")
        if not -_INT_MAX - 1 <= value <= _INT_MAX:
            raise ValueError(f"parameter {key!r} = {value} does not fit OpenSpiel, which "
                             f"keeps parameters in a C++ int ({-_INT_MAX - 1} to {_INT_MAX})")
        values[key] = value
    return values


class DownAndBackGame(CardrulesGame):
    """Down and Back for OpenSpiel: ``pyspiel.load_game("cardrules_down_and_back",
    {"players": 4, "ante": 1, "rounds": 10})`` (these are the defaults).

    >>> game = DownAndBackGame({"players": 2, "rounds": 3})
    >>> game.max_game_length(), game.min_utility(), game.max_utility()
    (81, -3.0, 3.0)
    """

    _name, _game_type, _defaults = DOWN_AND_BACK, _DB_TYPE, _DB_DEFAULTS


class BackAlleyGame(CardrulesGame):
    """Back Alley for OpenSpiel: ``pyspiel.load_game("cardrules_back_alley",
    {"max_hand_size": 13, "max_throw_ins": 50})`` (these are the defaults).

    >>> game = BackAlleyGame({"max_hand_size": 2})
    >>> game.num_players(), game.max_utility(), game.max_game_length()
    (4, 200.0, 236)
    """

    _name, _game_type, _defaults = BACK_ALLEY, _BA_TYPE, _BA_DEFAULTS


def _register(game_type: pyspiel.GameType, creator: Callable[..., CardrulesGame]) -> None:
    if game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, creator)


_register(_DB_TYPE, DownAndBackGame)
_register(_BA_TYPE, BackAlleyGame)
