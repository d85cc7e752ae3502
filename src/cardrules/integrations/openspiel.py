"""Any cardrules game as an OpenSpiel game (needs ``cardrules[openspiel]``).

:func:`register_game` registers a game's :class:`~cardrules.engine.Rules`
with OpenSpiel as the Python game ``"cardrules_" + rules.name``, so that
``pyspiel.load_game`` and every OpenSpiel algorithm that works on Python
games can use it.  Importing this module registers the built-in games
(``cardrules.engine.registry.BUILT_IN``):

- ``cardrules_down_and_back``, parameters ``num_players`` (2 to 5, default
  4), ``ante`` (default 1) and ``rounds`` (default 10: an OpenSpiel game
  must end, so an open-ended game is refused, DB-44);
- ``cardrules_back_alley``, always 4 players, parameters ``max_hand_size``
  (13 by the rules, BA-10; smaller for short games) and ``max_throw_ins``
  (default 50, see below).

The adapter is written once over ``Rules``; everything about a game comes
from its fields.  The parameters are the game's settings
(``rules.default_settings``) and its ``rules.limit_settings``.  Each
OpenSpiel state holds a cardrules state and every step goes through
``rules.apply``.  Player actions are numbered by ``rules.encoding``, which
also gives the observations; ``rules.returns`` the returns;
``rules.bounds(settings)`` the length and utility bounds.  A game without
an encoding or bounds is refused (:class:`ValueError`).

**Chance.**  OpenSpiel lists the outcomes of a chance node, so a shuffle of
the pile ``rules.chance_pile(state)`` is split into card-by-card steps: each
step picks the next card of the pile (from the top) among the cards left,
each with probability ``1 / cards left``; the outcome's number is the card's
index (:attr:`cardrules.Card.index`, 52 and 53 for the jokers).  The last
card is forced and taken without a step, so a pile of ``k`` cards takes
``k - 1`` chance steps; then the whole order is applied as one
:class:`~cardrules.engine.Shuffle`.  Where ``chance_pile`` is None the
chance action is a :class:`~cardrules.engine.ChooseDealer`: one step whose
outcome is the seat, each with probability ``1 / players``.  This is
exactly the distribution of ``rules.sample_chance`` (a uniform dealer, a
uniform order).  Chance outcome numbers and player action numbers are
separate ranges in OpenSpiel (``max_chance_outcomes()``, the largest card
index or seat plus one, and ``num_distinct_actions()``), so they may overlap.

**Returns.**  ``returns()`` is ``rules.returns`` of the state: Down and Back
pays net chips (winnings minus antes, DB-44), Back Alley gives each player
the points of their team (BA-40 to BA-43).  Games are registered as
general-sum.  ``rewards()`` is the change of the returns since the previous
player decision (so antes taken at a chance step count in the reward of the
decision that follows).

**Length.**  ``rules.bounds(settings)`` gives ``max_game_length()`` (player
decisions) and ``max_chance_nodes_in_history()`` (chance steps).  A rule
that could repeat without end (Back Alley's throw-ins, BA-25; Down and
Back's tie-break draws with their reshuffles, DB-36, DB-42) is kept finite
by one rule for every game: a game whose chance step now due (a whole
shuffle, or a choice of dealer) would not fit in the chance steps left ends
there, with the returns as they stand.  Down and Back's bounds leave room
for every shuffle plus two whole-deck reshuffles of tie-break draws per
round; Back Alley's for ``max_throw_ins`` deals thrown in, so a game with at
most that many throw-ins is never cut short.  Neither happens in ordinary
play.

**Information.**  ``observation_string`` and ``observation_tensor`` are the
encoding's of the seat's view.  ``information_state_string`` adds
everything the seat has learnt since the start, in order: the part of each
of ``rules.events`` the seat sees (:meth:`~cardrules.engine.events.Event.seen_by`:
every public action, its own dealt hands, its own stock draws and splits).
``resample_from_infostate`` deals out what the seat cannot see afresh
(``rules.hidden_variant``, uniform over the states the seat's information
allows), at every node, a shuffle in progress redrawn, so OpenSpiel's
information-set MCTS works.

**Parameters** must fit OpenSpiel's C++ ``int``, and so must the bounds
they give (``max_game_length()``, ``max_chance_nodes_in_history()`` and
their sum): anything larger is a :class:`ValueError` that says so.

**Serialization.**  ``state.serialize()`` is OpenSpiel's text for a Python
state: the history, the move number and the state's attributes pickled (here
the adapter's JSON, with ``rules.state_to_dict``).  ``game.deserialize_state(text)``
reads that text strictly: the pickled part may hold only the adapter's JSON
(nothing else is unpickled), the JSON goes through the library's strict
readers (``rules.state_from_dict``) and must be of this game with its
settings, and replaying the history must lead to exactly that state; a
resampled state carries the state it was drawn from, which is checked the
same way.  Anything else is a :class:`~cardrules.ParseError`.  OpenSpiel's
own formats, pickling a state or a game and
``pyspiel.deserialize_game_and_state``, unpickle whatever they are given, by
design: never give them untrusted bytes (the adapter's JSON they reach is
still checked).

>>> import pyspiel
>>> from cardrules.integrations import openspiel
>>> game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 3, "rounds": 1})
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
from typing import TYPE_CHECKING, Any, cast

try:
    import numpy as np
    import pyspiel
except ImportError as _error:  # pragma: no cover - depends on the installation
    raise ImportError('cardrules.integrations.openspiel needs OpenSpiel and numpy: '
                      'pip install "cardrules[openspiel]"') from _error

from cardrules._validate import is_int
from cardrules.cards import Card, Joker
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.readers import MAX_DIGITS, Fields, safe_repr
from cardrules.engine.registry import BUILT_IN, rules_for
from cardrules.engine.rules import Rules, StateLike
from cardrules.errors import IllegalActionError, ParseError

if TYPE_CHECKING:
    import numpy.typing as npt


__all__ = ["CardrulesBot", "CardrulesGame", "CardrulesState", "bot", "register_game"]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

AnyCard = Card | Joker
#: Text pieces of one logged event, joined with spaces when shown.
_Parts = tuple[object, ...]
#: A game's rules, whatever its state and action types.
_AnyRules = Rules[Any, Any]


class _Entry:
    """One event of the log of a game, as a persistent list (newest first).

    ``owner`` is the seat the event is private to, or None for a public event;
    ``public`` is what everyone else learns (None: nothing), ``private`` what
    the owner learns (never None when there is an owner).  ``depth`` counts
    the entries up to this one.  Every :data:`_MARK_EVERY` entries one keeps,
    once asked, each seat's lines up to it joined (``marks``), so that an
    information state joins at most that many new lines to a kept prefix.
    """

    __slots__ = ("depth", "marks", "owner", "prev", "private", "public")

    def __init__(self, prev: _Entry | None, owner: int | None, public: _Parts | None,
                 private: _Parts | None) -> None:
        self.prev, self.owner, self.public, self.private = prev, owner, public, private
        self.depth: int = 1 if prev is None else prev.depth + 1
        self.marks: dict[int, str] | None = None

    def entries(self) -> list[_Entry]:
        """Every entry up to this one, oldest first."""
        out: list[_Entry] = []
        entry: _Entry | None = self
        while entry is not None:
            out.append(entry)
            entry = entry.prev
        out.reverse()
        return out

    def line(self, seat: int) -> str | None:
        """What ``seat`` learnt from this event (None: nothing)."""
        return _text(self.private if self.owner == seat else self.public)


#: How often a log entry keeps the lines up to it (see :class:`_Entry`).
_MARK_EVERY = 64


def _lines_to_mark(entry: _Entry | None, seat: int) -> tuple[_Entry | None, list[str]]:
    """The nearest marked entry at or before ``entry`` (None: the start) and
    ``seat``'s lines after it, newest first."""
    lines: list[str] = []
    while entry is not None and entry.depth % _MARK_EVERY:
        line = entry.line(seat)
        if line is not None:
            lines.append(line)
        entry = entry.prev
    return entry, lines


def _prefix(mark: _Entry | None, seat: int) -> str:
    """``seat``'s lines up to the marked entry ``mark``, joined (kept there)."""
    pending: list[_Entry] = []
    while mark is not None and (mark.marks is None or seat not in mark.marks):
        pending.append(mark)
        mark = mark.prev
        while mark is not None and mark.depth % _MARK_EVERY:
            mark = mark.prev
    text = "" if mark is None else cast(dict[int, str], mark.marks)[seat]
    for entry in reversed(pending):
        _, lines = _lines_to_mark(entry.prev, seat)
        own = entry.line(seat)
        if own is not None:
            lines.insert(0, own)
        lines.reverse()
        text = "\n".join([text, *lines] if text else lines)
        if entry.marks is None:
            entry.marks = {}
        entry.marks[seat] = text
    return text


def _text(parts: _Parts | None) -> str | None:
    return None if parts is None else " ".join(map(str, parts))


# -- registering games -----------------------------------------------------------

#: OpenSpiel keeps parameters, lengths and counts in a C++ ``int``.
_INT_MAX = 2 ** 31 - 1


class _Registered:
    """A game registered with OpenSpiel: its rules and what follows from them
    whatever the settings."""

    __slots__ = ("cards", "defaults", "game_type", "max_chance_outcomes", "rules")

    def __init__(self, rules: _AnyRules, game_type: pyspiel.GameType,
                 defaults: dict[str, int], max_players: int) -> None:
        self.rules, self.game_type, self.defaults = rules, game_type, defaults
        #: Cards by chance outcome number (their index).
        self.cards: dict[int, AnyCard] = {card.index: card for card in rules.chance_cards}
        self.max_chance_outcomes = max(max(self.cards, default=-1) + 1, max_players)


#: Every game registered by :func:`register_game`, by OpenSpiel name.
_GAMES: dict[str, _Registered] = {}


def register_game(rules: _AnyRules) -> str:
    """Register ``rules`` with OpenSpiel as ``"cardrules_" + rules.name``; returns that name.

    The parameters are the game's settings (``rules.default_settings``) and
    its ``rules.limit_settings``, each with its default, which must be a
    whole number.  The game needs an ``encoding`` and ``bounds``, else
    :class:`ValueError` says which is missing.  Registering the same rules
    again does nothing; other rules under a registered name (a game module
    loaded again) replace them for the games loaded afterwards, if their
    parameters are the same (OpenSpiel keeps the first), else
    :class:`ValueError`.  The table sizes OpenSpiel is told are those of the
    default settings and of ``rules.check_settings``.

    >>> import pyspiel
    >>> from cardrules.integrations import openspiel
    >>> from cardrules.down_and_back import RULES
    >>> openspiel.register_game(RULES)
    'cardrules_down_and_back'
    >>> pyspiel.load_game("cardrules_down_and_back").get_parameters()
    {'ante': 1, 'num_players': 4, 'rounds': 10}
    """
    name = "cardrules_" + rules.name
    known = _GAMES.get(name)
    if known is not None and known.rules is rules:
        return name
    if rules.encoding is None:
        raise ValueError(f"{rules.title} has no encoding (Rules.encoding): OpenSpiel needs "
                         f"numbered actions and observations")
    if rules.bounds is None:
        raise ValueError(f"{rules.title} gives no bounds (Rules.bounds): an OpenSpiel game "
                         f"must end, with known bounds on its length and returns")
    clash = set(rules.default_settings) & set(rules.limit_settings)
    if clash:
        raise ValueError(f"{rules.title}: {', '.join(sorted(clash))} is both a setting and a "
                         f"limit setting")
    defaults = {**rules.default_settings, **rules.limit_settings}
    for key, value in defaults.items():
        if type(value) is not int:
            raise ValueError(f"{rules.title} setting {key!r} defaults to {value!r}: an OpenSpiel "
                             f"parameter needs a whole number for its default")
    if known is not None and known.defaults != defaults:
        raise ValueError(f"{name} is registered with other parameters "
                         f"({', '.join(known.defaults)})")
    sizes = {rules.new_game_from_settings(settings).num_players
             for settings in (rules.default_settings, *rules.check_settings)}
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"cardrules {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=max(sizes), min_num_players=min(sizes),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=cast(dict[str, int], defaults))
    _GAMES[name] = _Registered(rules, game_type, cast(dict[str, int], defaults), max(sizes))
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, _creator(name))
    return name


def _creator(name: str) -> type[CardrulesGame]:
    """OpenSpiel's creator of the game registered as ``name``: a subclass of
    :class:`CardrulesGame` taking only the parameters.  (A class, not a
    closure: OpenSpiel drops its creators after Python has shut down, and a
    class, unlike a function, is never freed by that.)"""

    def __init__(self: CardrulesGame, params: Mapping[str, object] | None = None) -> None:
        CardrulesGame.__init__(self, _GAMES[name].rules, params)

    return type(f"CardrulesGame_{name}", (CardrulesGame,),
                {"__init__": __init__, "__module__": __name__, "__doc__": None})


def _fits_int(what: str, value: int, settings: Mapping[str, int]) -> int:
    """``value`` if OpenSpiel can hold it in a C++ int, else a clear ValueError."""
    if value > _INT_MAX:
        given = ", ".join(f"{key}={number}" for key, number in settings.items())
        raise ValueError(f"{given}: too large for OpenSpiel, whose {what} would be {value} "
                         f"(OpenSpiel counts in a C++ int, at most {_INT_MAX})")
    return value


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


class _Spec:
    """What the adapter needs from one game with given settings, read from its
    rules once (every field a plain attribute: the steps read them often)."""

    __slots__ = (
        "action_of",
        "apply",
        "cards",
        "events",
        "game_info",
        "initial",
        "legal_ids",
        "max_chance_nodes",
        "name",
        "num_players",
        "observation_size",
        "observation_string",
        "observation_tensor",
        "pile",
        "returns_of",
        "rules",
        "settings",
    )

    def __init__(self, entry: _Registered, settings: dict[str, int]) -> None:
        rules = entry.rules
        encoding, bounds_of = rules.encoding, rules.bounds
        assert encoding is not None   # register_game refuses a game without one
        assert bounds_of is not None
        self.name: str = entry.game_type.short_name
        self.rules = rules
        self.settings = settings
        self.initial: StateLike = rules.new_game_from_settings(
            {key: settings[key] for key in rules.default_settings})   # checks the settings
        self.num_players: int = self.initial.num_players
        bounds = bounds_of(settings)   # ValueError when the settings leave the game unbounded
        self.max_chance_nodes: int = _fits_int("max_chance_nodes_in_history()",
                                               bounds.max_chance_steps, settings)
        max_length = _fits_int("max_game_length()", bounds.max_decisions, settings)
        # OpenSpiel's longest history (max_move_number()) is the sum of the two.
        _fits_int("max_move_number()", max_length + self.max_chance_nodes, settings)
        self.cards = entry.cards
        self.apply: Callable[[Any, Any], Any] = rules.apply
        self.events: Callable[[Any, Any, Any], Any] = rules.events
        self.pile: Callable[[Any], tuple[AnyCard, ...] | None] = rules.chance_pile
        self.returns_of: Callable[[Any], tuple[int, ...]] = rules.returns
        self.legal_ids: Callable[[Any], tuple[int, ...]] = encoding.legal_action_ids
        self.action_of: Callable[[Any, int], Any] = encoding.action_from_id
        self.observation_string: Callable[[Any, int], str] = encoding.observation_string
        self.observation_tensor: Callable[[Any, int], npt.NDArray[np.float32]] = \
            encoding.observation_tensor
        self.observation_size: int = encoding.observation_size
        self.game_info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=max(entry.max_chance_outcomes, self.num_players),
            num_players=self.num_players, min_utility=float(bounds.min_return),
            max_utility=float(bounds.max_return), utility_sum=None, max_game_length=max_length)

    def returns(self, state: Any) -> tuple[float, ...]:
        return tuple(map(float, self.returns_of(state)))

    def chance_cost(self, state: Any) -> int:
        """The chance steps of the chance action due in ``state``."""
        pile = self.pile(state)
        return 1 if pile is None else max(len(pile) - 1, 0)


_SPECS: dict[tuple[str, tuple[tuple[str, int], ...]], _Spec] = {}


def _spec(entry: _Registered, settings: dict[str, int]) -> _Spec:
    """The (cached) game description for ``entry`` with ``settings``."""
    key = (entry.game_type.short_name, tuple(sorted(settings.items())))
    spec = _SPECS.get(key)
    if spec is None or spec.rules is not entry.rules:
        spec = _SPECS[key] = _Spec(entry, settings)
    return spec


# -- the state's data ------------------------------------------------------------

class _Core:
    """Everything an OpenSpiel state holds, in one object.

    OpenSpiel copies a Python state by deep-copying each attribute and
    serializes it by pickling them; this object copies itself cheaply (its
    parts are immutable) and pickles as JSON text (the library's state form).
    """

    __slots__ = ("base", "base_state", "chance_steps", "log", "origin", "picked", "player",
                 "remaining", "spec", "state", "truncated", "unchecked")

    spec: _Spec
    state: Any
    #: Card indexes of the shuffle in progress: drawn so far (top first), and left.
    picked: tuple[int, ...]
    remaining: tuple[int, ...]
    log: _Entry | None
    #: The returns when the last player decision was made (for rewards()),
    #: or None: not read yet, they are the returns of ``base_state``.
    base: tuple[float, ...] | None
    base_state: Any
    chance_steps: int
    #: The game was cut short: the chance action due did not fit the bounds.
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
        """Set up the chance point the state is at, if any (a new shuffle), or
        cut the game short when its chance steps would not fit the bounds."""
        state, spec = self.state, self.spec
        if not state.is_chance:
            return
        pile = spec.pile(state)
        cost = 1 if pile is None else max(len(pile) - 1, 0)
        if self.chance_steps + cost > spec.max_chance_nodes:
            self.truncated = True
            return
        if pile is None:
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
        if not self.remaining:  # the choice of a dealer
            if not 0 <= number < state.num_players:
                raise ValueError(f"chance outcome {number}: the dealer is a seat, 0 to "
                                 f"{state.num_players - 1}")
            self.chance_steps += 1
            self.step(ChooseDealer(number))
            return
        remaining = self.remaining
        try:
            at = remaining.index(number)
        except ValueError:
            raise ValueError(f"chance outcome {number} is not a card left in the shuffle") \
                from None
        self.chance_steps += 1
        self.picked = (*self.picked, number)
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
        action = self.spec.action_of(state, number)
        # The returns before the decision, read only if asked for (rewards()).
        self.base, self.base_state = None, state
        self.step(action)

    def base_returns(self) -> tuple[float, ...]:
        """The returns when the last player decision was made."""
        base = self.base
        if base is None:
            base = self.base = self.spec.returns(self.base_state)
        return base

    def step(self, action: object) -> None:
        """Apply ``action`` to the cardrules state, log what each seat learns,
        set up the next chance point and the player to move.  (A card picked
        mid-shuffle is no step: the chance player stays to move.)"""
        spec, before = self.spec, self.state
        after = spec.apply(before, action)
        self.state = after
        log = self.log
        for event in spec.events(before, action, after):
            owner, public = event.owner, event.public
            if owner is None:
                if public is not None:
                    log = _Entry(log, None, public, None)
            else:
                private = event.private
                if private is None:   # the owner learns what everyone does
                    private = public
                if private is not None:
                    log = _Entry(log, owner, public, private)
        self.log = log
        self.enter()
        self.update_player()

    # -- what the players see --------------------------------------------------------

    def information_string(self, seat: int) -> str:
        """``seat``'s information state: its lines of the log, then its observation."""
        mark, lines = _lines_to_mark(self.log, seat)
        prefix = _prefix(mark, seat)
        lines.reverse()
        head = [f"seat {seat}", prefix] if prefix else [f"seat {seat}"]
        return "\n".join([*head, *lines, self.spec.observation_string(self.state, seat)])

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
            "state": spec.rules.state_to_dict(self.state),
            "picked": list(self.picked), "remaining": list(self.remaining),
            "log": [[e.owner, _text(e.public), _text(e.private)] for e in entries],
            "base": list(self.base_returns()), "chance_steps": self.chance_steps,
            "truncated": self.truncated, "resampled": resampled,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_data(), separators=(",", ":"))


#: Where a resampled core comes from: (seat, history length, source core, drawn core).
_Origin = tuple[int, int, _Core, _Core]
#: How deep resamples of resamples may nest in a serialized state.
_MAX_RESAMPLES = 32


def _new_core(spec: _Spec) -> _Core:
    core = _Core.__new__(_Core)
    core.spec, core.state = spec, spec.initial
    core.picked = core.remaining = ()
    core.log = None
    core.base, core.base_state = (0.0,) * spec.num_players, None
    core.chance_steps = 0
    core.truncated = core.unchecked = False
    core.origin = None
    core.enter()   # a game may start with a shuffle
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


def _card_indexes(f: Fields, key: str, cards: Mapping[int, AnyCard]) -> tuple[int, ...]:
    """A list of distinct card numbers (:attr:`Card.index`) of ``cards``."""
    values = f.array(key)
    if len(values) > len(cards):
        raise ParseError(f"{f.what}: {key!r} lists more than {len(cards)} cards")
    out: list[int] = []
    for at, value in enumerate(values):
        if not is_int(value) or value not in cards:
            raise ParseError(f"{f.what}: {key}[{at}] is not a card number of the game",
                             token=safe_repr(value))
        out.append(value)
    if len(set(out)) != len(out):
        raise ParseError(f"{f.what}: {key!r} lists a card twice")
    return tuple(out)


def _core_from_json(text: str) -> _Core:
    """Read back :meth:`_Core.to_json` (what unpickling a state calls), strictly.

    Every key is checked (types, ranges, the game's settings, the game's
    ``state_from_dict``, the shuffle in progress against the pile, the
    counters against the bounds); anything wrong is a ParseError.  The core
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
    entry = _GAMES.get(name)
    if entry is None:
        raise ParseError(f"{what}: unknown game", token=safe_repr(name))
    given = Fields(f.obj("settings"), f"{what}: settings")
    settings = {key: given.integer(key) for key in entry.defaults}
    given.done()
    spec = _SPECS.get((name, tuple(sorted(settings.items()))))
    if spec is None or spec.rules is not entry.rules:  # a game makes its spec before its states
        raise ParseError(f"{what}: no game {name} with these settings is loaded",
                         token=safe_repr(settings))
    rules = spec.rules
    core = _new_core(spec)
    try:
        state = rules.state_from_dict(f.obj("state"))
    except ParseError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        # a game whose reader raises something else
        raise ParseError(f"{what}: 'state' is not a state of the game ({error})") from None
    if rules.settings_of(state) != rules.settings_of(spec.initial):
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
    core.base_state = None
    core.chance_steps = f.integer("chance_steps", minimum=0, maximum=spec.max_chance_nodes)
    core.truncated = f.flag("truncated")
    # Written before resampled states were saved with their origin: absent.
    origin = f.obj("resampled") if f.has("resampled") and f.get("resampled") is not None else None
    f.done()
    _check_core(core)
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


def _check_core(core: _Core) -> None:
    """The parts of a core read from JSON agree with each other."""
    what = "OpenSpiel state"
    spec, state = core.spec, core.state
    pile = spec.pile(state) if state.is_chance else None
    # A game is cut short at a chance action that would pass the bounds
    # (_Core.enter); a shuffle under way had room when it began.
    at_cap = (state.is_chance and not core.picked
              and core.chance_steps + spec.chance_cost(state) > spec.max_chance_nodes)
    if core.truncated != at_cap:
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
            elif number in core.spec.legal_ids(core.state):
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
                and (start.player, start.base_returns(), start.chance_steps, start.truncated,
                     len(start.picked))
                == (source.player, source.base_returns(), source.chance_steps, source.truncated,
                    len(source.picked))):
            raise ParseError(f"the resampled state does not give seat {seat} the "
                             f"information of the state it was drawn from")
        replayed = _replay(start, history[at:], at)
    if replayed.to_data() != core.to_data(origin=False):
        raise ParseError("the history does not lead to the state written with it")


def _params(spec: _Spec) -> str:
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
    """An OpenSpiel state of a cardrules game, wrapping a cardrules state.

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
    def cardrules_state(self) -> StateLike:
        """The cardrules state underneath (see the class).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 2})
        >>> game.new_initial_state().cardrules_state.phase
        <Phase.CHOOSE_DEALER: 'choose_dealer'>
        """
        return cast(StateLike, self._core.state)

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
        return list(core.spec.legal_ids(core.state))

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

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == _CHANCE:
            state = core.state
            if not core.remaining and state.is_chance and core.spec.pile(state) is None:
                return f"dealer {action}"
            card = core.spec.cards.get(action)
            return f"chance {action}" if card is None else f"card {card}"
        try:
            return str(core.spec.action_of(core.state, int(action)))
        except (IllegalActionError, ValueError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        """True when the game is over (or cut short, see the module on length).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> pyspiel.load_game("cardrules_back_alley").new_initial_state().is_terminal()
        False
        """
        core = self._core
        return core.truncated or core.state.is_terminal

    def returns(self) -> list[float]:
        """Each player's total so far (the game's ``rules.returns``): net chips
        in Down and Back, the team's points in Back Alley.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 2})
        >>> state = game.new_initial_state()
        >>> state.apply_action(1)                  # seat 1 deals: both ante 1 (DB-30)
        >>> state.returns()
        [-1.0, -1.0]
        """
        core = self._core
        return list(core.spec.returns(core.state))

    def rewards(self) -> list[float]:
        """The change of :meth:`returns` since the last player decision.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 2})
        >>> state = game.new_initial_state()
        >>> state.apply_action(1)
        >>> state.rewards()
        [-1.0, -1.0]
        """
        core = self._core
        now = core.spec.returns(core.state)
        return [a - b for a, b in zip(now, core.base_returns(), strict=True)]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> CardrulesState:
        """A state ``player_id`` cannot tell from this one, drawn at random.

        Works at every node.  The cards the seat cannot see are dealt out
        afresh (seeded from ``probability_sampler()``) with the game's
        ``rules.hidden_variant``, uniformly among the states the seat's
        information allows (in Back Alley every void the play has shown
        kept).  The cards of a shuffle in progress, seen by no one, are
        redrawn.  The other seats keep only the public part of their earlier
        private events.

        ``history()`` stays this state's, the true deal: ``hidden_variant``
        gives the state drawn, not the shuffles (and the hidden choices,
        such as Down and Back splits) that would lead to it, and which order
        of a pile deals which hand is each game's own rule (cuts, draws,
        reshuffles, the joker exchange), so no history of the new deal can
        be written here.  Instead the new state remembers where it was drawn
        from, so that its serialization can be checked
        (``game.deserialize_state``).

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
        core.state = spec.rules.hidden_variant(core.state, player_id, rng)
        core.forget_others(player_id)
        if core.remaining:
            # A shuffle under way: the cards picked so far are seen by no one,
            # so they are redrawn from the pile being shuffled, the new state's
            # (the same cards in both games here: the deck, or the public
            # discard pile; another game's pile may hold hidden cards).
            pile = sorted(card.index for card in spec.pile(core.state) or ())
            picked = len(core.picked)
            if picked:
                rng.shuffle(pile)
            core.picked = tuple(pile[:picked])
            core.remaining = tuple(sorted(pile[picked:]))
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

    def __init__(self, spec: _Spec, iig_obs_type: object,
                 params: Mapping[str, object] | None) -> None:
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
            self.tensor[:] = core.spec.observation_tensor(core.state, player)

    def string_from(self, state: CardrulesState, player: int) -> str:
        core = state._core
        if self.perfect_recall:
            return core.information_string(player)
        return core.spec.observation_string(core.state, player)


class CardrulesGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of a cardrules game's ``rules`` with OpenSpiel
    parameters ``params`` (the game's settings and limit settings; those left
    out take their defaults).

    ``pyspiel.load_game("cardrules_" + rules.name, params)`` makes one of a
    registered game (see :func:`register_game`, which this calls too).  Bad
    settings, and settings whose bounds do not fit OpenSpiel, are a
    :class:`ValueError`.

    >>> import pyspiel
    >>> from cardrules.integrations import openspiel
    >>> from cardrules.down_and_back import RULES
    >>> game = openspiel.CardrulesGame(RULES, {"num_players": 2, "rounds": 3})
    >>> game.max_game_length(), game.min_utility(), game.max_utility()
    (81, -3.0, 3.0)
    >>> isinstance(pyspiel.load_game("cardrules_back_alley"), openspiel.CardrulesGame)
    True
    """

    _spec: _Spec

    def __init__(self, rules: _AnyRules, params: Mapping[str, object] | None = None) -> None:
        entry = _GAMES[register_game(rules)]
        settings = _settings(params, entry.defaults)
        spec = _spec(entry, settings)
        super().__init__(entry.game_type, spec.game_info, settings)
        self._spec = spec

    def __reduce__(self) -> tuple[Callable[..., pyspiel.Game], tuple[str, dict[str, int]]]:
        """Pickled as its OpenSpiel name and parameters (loaded back with
        ``pyspiel.load_game``).

        >>> import pickle, pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley", {"max_hand_size": 2})
        >>> pickle.loads(pickle.dumps(game)).get_parameters()["max_hand_size"]
        2
        """
        return pyspiel.load_game, (self._spec.name, dict(self._spec.settings))

    @property
    def rules(self) -> _AnyRules:
        """The game's rules.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> pyspiel.load_game("cardrules_back_alley").rules.title
        'Back Alley'
        """
        return self._spec.rules

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
        """The most chance steps a game can have (``rules.bounds``; see the module on length).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley",
        ...                          {"max_hand_size": 1, "max_throw_ins": 0})
        >>> game.max_chance_nodes_in_history()
        54
        """
        return self._spec.max_chance_nodes


class CardrulesBot(pyspiel.Bot):  # type: ignore[misc]
    """One of a game's registered bots (``rules.bots``) as an OpenSpiel bot;
    made by :func:`bot`.

    ``step(state)`` shows the bot the view of the seat to act and its legal
    actions and returns the action's number.  The bot plays whichever seat
    is to act; its seeded generator runs on from game to game
    (``restart_at`` and ``inform_action`` change nothing).

    >>> import pyspiel
    >>> from cardrules.integrations import openspiel
    >>> game = pyspiel.load_game("cardrules_back_alley", {"max_hand_size": 1})
    >>> player = openspiel.bot(game, "heuristic", seed=1)
    >>> player.player_id(), player.provides_policy()
    (-1, False)
    """

    def __init__(self, game: CardrulesGame, name: str, seed: int | None,
                 player_id: int | None) -> None:
        pyspiel.Bot.__init__(self)
        spec = game._spec
        factories = spec.rules.bots
        if name not in factories:
            raise ValueError(f"{spec.rules.title} has no bot {name!r} "
                             f"(its bots: {', '.join(factories)})")
        if player_id is not None and not (is_int(player_id)
                                          and 0 <= player_id < spec.num_players):
            raise ValueError(f"player_id must be a seat, 0 to {spec.num_players - 1}, "
                             f"not {player_id!r}")
        self.name = name
        self._spec = spec
        self._player_id = -1 if player_id is None else int(player_id)
        self._bot = factories[name](seed)

    def player_id(self) -> int:
        """The seat given to :func:`bot`, or -1 (any seat).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley")
        >>> openspiel.bot(game, "random", seed=0, player_id=2).player_id()
        2
        """
        return self._player_id

    def provides_policy(self) -> bool:
        """False: a cardrules bot gives an action, not a policy.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> openspiel.bot(pyspiel.load_game("cardrules_back_alley"), "random").provides_policy()
        False
        """
        return False

    def restart_at(self, state: CardrulesState) -> None:
        """Nothing to do: the bot reads everything from the state it is asked at.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley")
        >>> openspiel.bot(game, "random").restart_at(game.new_initial_state())
        """

    def inform_action(self, state: CardrulesState, player_id: int, action: int) -> None:
        """Nothing to do (see :meth:`restart_at`).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley")
        >>> openspiel.bot(game, "random").inform_action(game.new_initial_state(), -1, 0)
        """

    def step(self, state: CardrulesState) -> int:
        """The number of the action the bot chooses for the seat to act.

        A chance node or the end of the game is a :class:`ValueError`, and
        so is a state of another game.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley", {"max_hand_size": 1})
        >>> state = game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> openspiel.bot(game, "heuristic", seed=0).step(state) in state.legal_actions()
        True
        """
        core = state._core
        spec = core.spec
        if spec.rules is not self._spec.rules or spec.settings != self._spec.settings:
            raise ValueError(f"this bot plays {self._spec.name}({_params(self._spec)}), "
                             f"not {spec.name}({_params(spec)})")
        seat = core.player
        if seat < 0:
            raise ValueError("no player is to act here (a chance node or the end)")
        rules, game_state = spec.rules, core.state
        action = self._bot.act(rules.view(game_state, seat), rules.legal_actions(game_state))
        assert rules.encoding is not None
        return int(rules.encoding.action_id(action, game_state))


def bot(game: CardrulesGame, name: str, seed: int | None = None, *,
        player_id: int | None = None) -> CardrulesBot:
    """The game's registered bot ``name`` (one of ``game.rules.bots``),
    seeded with ``seed``, as a ``pyspiel.Bot`` for OpenSpiel's evaluation
    and training loops (such as ``evaluate_bots``).

    The bot sees only the view of the seat to act (``rules.view``).
    ``player_id`` is what the bot's ``player_id()`` answers (-1 when not
    given); the bot plays any seat it is asked for.  An unknown name is a
    :class:`ValueError` listing the game's bots.

    >>> import numpy as np, pyspiel
    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> from cardrules.integrations import openspiel
    >>> game = pyspiel.load_game("cardrules_back_alley", {"max_hand_size": 1})
    >>> bots = [openspiel.bot(game, name, seed=seat)
    ...         for seat, name in enumerate(["search", "random", "heuristic", "random"])]
    >>> returns = evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))
    >>> returns[0] == returns[2] and returns[1] == returns[3]
    True
    """
    if not isinstance(game, CardrulesGame):
        raise ValueError(f"bot() needs a cardrules game loaded with pyspiel.load_game, "
                         f"not {type(game).__name__}")
    return CardrulesBot(game, name, seed, player_id)


def _register_built_in() -> None:
    for name in BUILT_IN:
        register_game(rules_for(name))


_register_built_in()
