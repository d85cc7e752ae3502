"""Any cardrules game as an OpenSpiel game (needs ``cardrules[openspiel]``).

Importing this module registers the built-in games as ``cardrules_down_and_back``
and ``cardrules_back_alley``; :func:`register_game` registers any other
:class:`~cardrules.engine.Rules`.  Each OpenSpiel state wraps a cardrules
state and every step goes through ``rules.apply``; actions and observations
are ``rules.encoding``'s, returns ``rules.returns``'s.  A shuffle is dealt
card by card (one chance step per card) unless the game is loaded with
``sampled_chance=1``; ``returns=1`` or ``2`` gives zero-sum returns and
``fixed_deals=1`` fixes the deals from ``seed``.  :func:`bot` makes any
registered bot an OpenSpiel bot; saved states are read by
:mod:`cardrules.integrations.openspiel_saved`.  The parameters and their
defaults, chance, returns, information states and saved states are
described in :doc:`/integrations`.

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

import random
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
from cardrules.engine.deals import fixed_chance, next_key
from cardrules.engine.registry import BUILT_IN, rules_for
from cardrules.engine.rules import Rules, StateLike
from cardrules.errors import IllegalActionError, ParseError
from cardrules.integrations.openspiel_saved import Resample, Saved, saved_from_json, screen

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


#: What one seat may learn of an event: (owner, public, private) parts, where
#: ``owner`` is the seat the event is private to (None: a public event),
#: ``public`` what everyone else learns (None: nothing) and ``private`` what
#: the owner learns (never None when there is an owner).
_Seen = tuple[int | None, _Parts | None, _Parts | None]
#: The entries of the history part of the information-state tensor one step
#: sets, as (index, value) pairs: ``(public, ((seat, private), ...))``
#: (``Encoding.information_state_bits``).
_Bits = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, tuple[tuple[int, int], ...]], ...]]


class _Entry:
    """One step of the log of a game, as a persistent list (newest first).

    The step's events are worked out only when an information state needs
    them (``rules.events`` of ``step``, the state before, the action and the
    state after), then kept as ``events``, with the entries of the
    information-state tensor it sets (``bits``: the game's
    ``information_state_bits``, None for a game without).  ``depth`` counts
    the entries up to this one.  Every :data:`_MARK_EVERY` entries one keeps,
    once asked, each seat's lines up to it joined (``marks``) and its tensor
    entries up to it (``bitmarks``), so that an information state joins at
    most that many steps to a kept prefix.
    """

    __slots__ = ("bitmarks", "bits", "depth", "events", "marks", "prev", "step")

    def __init__(self, prev: _Entry | None, step: tuple[Any, Any, Any, Any, Any] | None = None,
                 events: tuple[_Seen, ...] | None = None, bits: _Bits | None = None) -> None:
        self.prev, self.step, self.events, self.bits = prev, step, events, bits
        self.depth: int = 1 if prev is None else prev.depth + 1
        self.marks: dict[int, str] | None = None
        self.bitmarks: dict[int, npt.NDArray[np.intp]] | None = None

    def entries(self) -> list[_Entry]:
        """Every entry up to this one, oldest first."""
        out: list[_Entry] = []
        entry: _Entry | None = self
        while entry is not None:
            out.append(entry)
            entry = entry.prev
        out.reverse()
        return out

    def seen(self) -> tuple[_Seen, ...]:
        """The step's events as each seat may learn them."""
        events = self.events
        if events is None:
            assert self.step is not None
            events_of, bits_of, before, action, after = self.step
            if bits_of is not None:
                self.bits = bits_of(before, action, after)
            out: list[_Seen] = []
            for event in events_of(before, action, after):
                owner, public = event.owner, event.public
                if owner is None:
                    if public is not None:
                        out.append((None, public, None))
                else:
                    private = event.private
                    if private is None:   # the owner learns what everyone does
                        private = public
                    if private is not None:
                        out.append((owner, public, private))
            events = self.events = tuple(out)
            self.step = None
        return events

    def positions(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The entries of the history part of ``seat``'s information-state
        tensor that this step sets, as (index, value) pairs."""
        self.seen()
        bits = self.bits
        if bits is None:
            return ()
        public, private = bits
        for owner, own in private:
            if owner == seat:
                return public + own
        return public

    def lines(self, seat: int) -> list[str]:
        """What ``seat`` learnt from this step, one line an event."""
        out = []
        for owner, public, private in self.seen():
            text = _text(private if owner == seat else public)
            if text is not None:
                out.append(text)
        return out


#: How often a log entry keeps the lines up to it (see :class:`_Entry`).
_MARK_EVERY = 64


def _lines_to_mark(entry: _Entry | None, seat: int) -> tuple[_Entry | None, list[str]]:
    """The nearest marked entry at or before ``entry`` (None: the start) and
    ``seat``'s lines after it, newest first."""
    lines: list[str] = []
    while entry is not None and entry.depth % _MARK_EVERY:
        own = entry.lines(seat)
        if own:
            lines.extend(reversed(own))
        entry = entry.prev
    return entry, lines


def _unkept(mark: _Entry | None, kept: Callable[[_Entry], Mapping[int, object] | None],
            seat: int) -> tuple[list[_Entry], _Entry | None]:
    """From the marked entry ``mark`` back: the marked entries that keep
    nothing for ``seat`` in ``kept`` (newest first), and the first that does
    (None if none)."""
    pending: list[_Entry] = []
    while mark is not None and ((marks := kept(mark)) is None or seat not in marks):
        pending.append(mark)
        mark = mark.prev
        while mark is not None and mark.depth % _MARK_EVERY:
            mark = mark.prev
    return pending, mark


def _prefix(mark: _Entry | None, seat: int) -> str:
    """``seat``'s lines up to the marked entry ``mark``, joined (kept there)."""
    pending, mark = _unkept(mark, lambda entry: entry.marks, seat)
    text = "" if mark is None else cast(dict[int, str], mark.marks)[seat]
    for entry in reversed(pending):
        _, lines = _lines_to_mark(entry.prev, seat)
        lines.reverse()
        lines.extend(entry.lines(seat))
        text = "\n".join([text, *lines] if text else lines)
        if entry.marks is None:
            entry.marks = {}
        entry.marks[seat] = text
    return text


def _positions_to_mark(entry: _Entry | None, seat: int
                       ) -> tuple[_Entry | None, list[tuple[tuple[int, int], ...]]]:
    """As :func:`_lines_to_mark`, for the information-state tensor's entries
    (newest first)."""
    positions: list[tuple[tuple[int, int], ...]] = []
    while entry is not None and entry.depth % _MARK_EVERY:
        positions.append(entry.positions(seat))
        entry = entry.prev
    return entry, positions


def _positions_prefix(mark: _Entry | None, seat: int) -> npt.NDArray[np.intp]:
    """As :func:`_prefix`, for the information-state tensor's entries (kept
    at ``mark`` as one array of (index, value) rows, oldest first)."""
    pending, mark = _unkept(mark, lambda entry: entry.bitmarks, seat)
    held = _NO_POSITIONS if mark is None else cast(dict[int, Any], mark.bitmarks)[seat]
    for entry in reversed(pending):
        _, positions = _positions_to_mark(entry.prev, seat)
        positions.reverse()
        positions.append(entry.positions(seat))
        rows = [pair for step in positions for pair in step]
        if rows:
            held = np.concatenate([held, np.array(rows, np.intp)])
        if entry.bitmarks is None:
            entry.bitmarks = {}
        entry.bitmarks[seat] = held
    return held


_NO_POSITIONS: npt.NDArray[np.intp] = np.zeros((0, 2), np.intp)


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

#: The adapter's own parameters, beside each game's settings, with their
#: defaults and allowed values (see :doc:`/integrations`).
_OPTIONS: dict[str, tuple[int, range]] = {
    "sampled_chance": (0, range(2)),
    "returns": (0, range(3)),
    "fixed_deals": (0, range(2)),
    "seed": (0, range(-2 ** 31, 2 ** 31)),
}


def register_game(rules: _AnyRules) -> str:
    """Register ``rules`` with OpenSpiel as ``"cardrules_" + rules.name``; returns that name.

    The parameters are the game's settings (``rules.default_settings``) and
    its ``rules.limit_settings``, each with its default, which must be a
    whole number, and the adapter's own (``sampled_chance``, ``seed``,
    ``returns``, ``fixed_deals``, each 0 by default), whose names a game's
    settings may not take.  The game needs an ``encoding`` and ``bounds``, else
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
    >>> sorted(pyspiel.load_game("cardrules_down_and_back").get_parameters())
    ['ante', 'fixed_deals', 'num_players', 'returns', 'rounds', 'sampled_chance', 'seed']
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
    clash = (set(rules.default_settings) | set(rules.limit_settings)) & set(_OPTIONS)
    if clash:
        raise ValueError(f"{rules.title}: {', '.join(sorted(clash))} is a parameter of the "
                         f"adapter (see cardrules.integrations.openspiel)")
    defaults = {**rules.default_settings, **rules.limit_settings}
    for key, value in defaults.items():
        if type(value) is not int:
            raise ValueError(f"{rules.title} setting {key!r} defaults to {value!r}: an OpenSpiel "
                             f"parameter needs a whole number for its default")
    defaults.update({key: default for key, (default, _) in _OPTIONS.items()})
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
        provides_information_state_string=True,
        provides_information_state_tensor=(rules.encoding.information_state_layout is not None
                                           and rules.encoding.information_state_bits is not None),
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
        if key in _OPTIONS and value not in _OPTIONS[key][1]:
            allowed = _OPTIONS[key][1]
            raise ValueError(f"parameter {key!r} is {allowed.start} to {allowed.stop - 1}, "
                             f"not {value}")
        values[key] = value
    return values


class _Spec:
    """What the adapter needs from one game with given settings, read from its
    rules once (every field a plain attribute: the steps read them often)."""

    __slots__ = (
        "action_id",
        "action_of",
        "apply",
        "cards",
        "events",
        "fixed",
        "game_info",
        "history_size",
        "info_bits",
        "info_layout",
        "info_size",
        "initial",
        "legal_with_ids",
        "max_chance_nodes",
        "name",
        "num_players",
        "observation_size",
        "observation_string",
        "observation_tensor",
        "params",
        "pile",
        "returns_mode",
        "returns_of",
        "rules",
        "sample_chance",
        "sampled",
        "settings",
        "spread",
    )

    def __init__(self, entry: _Registered, settings: dict[str, int]) -> None:
        rules = entry.rules
        encoding, bounds_of = rules.encoding, rules.bounds
        assert encoding is not None   # register_game refuses a game without one
        assert bounds_of is not None
        self.name: str = entry.game_type.short_name
        self.rules = rules
        #: Every parameter; the game's settings and limit settings; the adapter's own.
        self.params = settings
        settings = {key: value for key, value in settings.items() if key not in _OPTIONS}
        self.settings = settings
        self.sampled: bool = self.params["sampled_chance"] == 1
        #: Every chance action fixed from ``seed`` deal by deal (cardrules.engine.deals).
        self.fixed: bool = self.params["fixed_deals"] == 1
        self.sample_chance: Callable[[Any, random.Random], Any] = rules.sample_chance
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
        self.action_of: Callable[[Any, int], Any] = encoding.action_from_id
        self.action_id: Callable[[Any], int] = encoding.action_id
        #: The legal action numbers, ascending, and the actions in that order.
        self.legal_with_ids: Callable[[Any], tuple[tuple[int, ...], tuple[Any, ...]]] = (
            encoding.legal_actions_with_ids or _numbered(rules.legal_actions, encoding.action_id))
        self.observation_string: Callable[[Any, int], str] = encoding.observation_string
        self.observation_tensor: Callable[[Any, int], npt.NDArray[np.float32]] = \
            encoding.observation_tensor
        self.observation_size: int = encoding.observation_size
        #: The information-state tensor: the seat (one-hot), the history part
        #: (the game's layout, None: no tensor), then the observation.
        self.info_bits: Callable[[Any, Any, Any], _Bits] | None = None
        self.info_layout: tuple[tuple[str, int, int], ...] = ()
        self.history_size = self.info_size = 0
        if encoding.information_state_layout is not None \
                and encoding.information_state_bits is not None:
            self.info_bits = encoding.information_state_bits
            self.info_layout = encoding.information_state_layout(settings)
            self.history_size = sum(length for _, _, length in self.info_layout)
            self.info_size = self.num_players + self.history_size + self.observation_size
        #: 0: the game's returns; 1: each minus the table's mean (zero-sum);
        #: 2: that divided by its bound (zero-sum, within -1 and 1).
        self.returns_mode: int = self.params["returns"]
        low, high = float(bounds.min_return), float(bounds.max_return)
        #: What a zero-sum return can reach: a seat's return minus the mean is
        #: (n - 1) / n times its return minus the others' mean.
        self.spread = (self.num_players - 1) / self.num_players * (high - low) or 1.0
        utility_sum: float | None = None
        if self.returns_mode == 1:
            low, high, utility_sum = -self.spread, self.spread, 0.0
        elif self.returns_mode == 2:
            low, high, utility_sum = -1.0, 1.0, 0.0
        self.game_info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=max(entry.max_chance_outcomes, self.num_players),
            num_players=self.num_players, min_utility=low, max_utility=high,
            utility_sum=utility_sum, max_game_length=max_length)

    def returns(self, state: Any) -> tuple[float, ...]:
        """The returns OpenSpiel is given (see ``returns_mode``)."""
        raw = self.returns_of(state)
        if not self.returns_mode:
            return tuple(map(float, raw))
        mean = sum(raw) / len(raw)
        scale = self.spread if self.returns_mode == 2 else 1.0
        return tuple((value - mean) / scale for value in raw)

    def game_type(self, registered: pyspiel.GameType) -> pyspiel.GameType:
        """The game's OpenSpiel type with these parameters."""
        if not self.sampled and not self.returns_mode:
            return registered
        fields = {name: getattr(registered, name) for name in (
            "short_name", "long_name", "dynamics", "information", "utility", "reward_model",
            "max_num_players", "min_num_players", "provides_information_state_string",
            "provides_information_state_tensor", "provides_observation_string",
            "provides_observation_tensor", "parameter_specification")}
        fields["chance_mode"] = (pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if self.sampled
                                 else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
        if self.returns_mode:
            fields["utility"] = pyspiel.GameType.Utility.ZERO_SUM
        return pyspiel.GameType(**fields)


def _numbered(legal_actions: Callable[[Any], tuple[Any, ...]], action_id: Callable[[Any], int]
              ) -> Callable[[Any], tuple[tuple[int, ...], tuple[Any, ...]]]:
    """``legal_actions_with_ids`` for an encoding without one."""
    def legal_with_ids(state: Any) -> tuple[tuple[int, ...], tuple[Any, ...]]:
        actions = {action_id(action): action for action in legal_actions(state)}
        ids = tuple(sorted(actions))
        return ids, tuple(actions[number] for number in ids)
    return legal_with_ids


_SPECS: dict[tuple[str, tuple[tuple[str, int], ...]], _Spec] = {}


def _spec(entry: _Registered, settings: dict[str, int]) -> _Spec:
    """The (cached) game description for ``entry`` with ``settings`` (every parameter)."""
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
    parts are immutable) and pickles as what the history cannot rebuild
    (:class:`~cardrules.integrations.openspiel_saved.Saved`).
    """

    __slots__ = ("base", "base_state", "chance_steps", "deal_key", "fixed", "legal", "log",
                 "pending", "picked", "player", "remaining", "resamples", "rng", "sampled", "spec",
                 "state", "truncated", "whole")

    spec: _Spec
    state: Any
    #: Card indexes of the shuffle in progress: drawn so far (top first), and left.
    picked: tuple[int, ...]
    remaining: tuple[int, ...]
    #: The log of the steps, whose entries are made when an information state
    #: is asked for: the entries made so far, and the steps since, as a
    #: persistent list ``(earlier, step)`` of tuples (cheaper to make in a
    #: rollout that never asks).
    log: _Entry | None
    pending: tuple[Any, tuple[Any, Any, Any, Any, Any]] | None
    #: The returns when the last player decision was made (for rewards()),
    #: or None: not read yet, they are the returns of ``base_state``.
    base: tuple[float, ...] | None
    base_state: Any
    chance_steps: int
    #: The game was cut short: the chance action due did not fit the bounds.
    truncated: bool
    #: The resamples this state went through (resample_from_infostate), whose
    #: OpenSpiel history stays the original's: saved with the state.
    resamples: tuple[Resample, ...]
    #: The shuffles the state sampled itself (sampled chance mode): the move
    #: of each chance step and its order of cards; saved (as card numbers) with the state.
    sampled: tuple[tuple[int, tuple[AnyCard, ...]], ...]
    #: OpenSpiel's current player (asked many times per step, so kept).
    player: int
    #: The legal action numbers here, ascending, and the actions in the same
    #: order (None: not worked out yet).
    legal: tuple[tuple[int, ...], tuple[Any, ...]] | None
    #: Sampled chance mode: the chance step due is a whole shuffle.
    whole: bool
    #: The game's own draws (sampled shuffles): one stream per loaded game.
    rng: random.Random
    #: Fixed deals: the key of the chance point now due (cardrules.engine.deals),
    #: and its fixed outcome (the dealer's seat, or the shuffle's order).
    deal_key: tuple[int, int] | None
    fixed: tuple[int, ...] | None

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

    # -- chance ---------------------------------------------------------------------

    def enter(self) -> None:
        """Set up the chance point the state is at, if any (a new shuffle), or
        cut the game short when its chance steps would not fit the bounds.
        (The chance steps are counted card by card in both chance modes, so
        a game is cut short at the same point in both.)"""
        state, spec = self.state, self.spec
        if not state.is_chance:
            return
        pile = spec.pile(state)
        cost = 1 if pile is None else max(len(pile) - 1, 0)
        if self.chance_steps + cost > spec.max_chance_nodes:
            self.truncated = True
            return
        if spec.fixed:
            self.deal_key = next_key(state, self.deal_key)
            action = fixed_chance(spec.rules, state, spec.params["seed"], self.deal_key)
            self.fixed = ((action.seat,) if isinstance(action, ChooseDealer)
                          else tuple(card.index for card in action.order))
        if pile is None:
            return
        if spec.sampled and len(pile) > 1:
            self.whole = True
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

    def apply_chance(self, number: int, move: int) -> None:
        """Apply chance outcome ``number`` as move ``move`` of the game."""
        state = self.state
        if not state.is_chance:
            raise ValueError("not a chance node")
        fixed = self.fixed
        if self.whole:
            if number != 0:
                raise ValueError(f"chance outcome {number}: a sampled shuffle has the one "
                                 f"outcome 0")
            if fixed is None:   # the game's own draw of this pile, applied as it is
                action = self.spec.sample_chance(state, self.rng)
                order = action.order
                self.whole = False
                self.chance_steps += len(order) - 1
                self.sampled = (*self.sampled, (move, order))
                self.step(action)
                return
            self.apply_sampled(0, fixed, move)
            return
        if fixed is not None and number != self.fixed_outcome():
            raise ValueError(f"chance outcome {number}: the deals are fixed (fixed_deals=1), "
                             f"the outcome here is {self.fixed_outcome()}")
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

    def apply_sampled(self, number: int, order: tuple[int, ...], move: int) -> None:
        """Apply the whole shuffle ``order`` (card numbers, top first) as the
        sampled chance step ``move`` (outcome ``number``, always 0)."""
        if not self.whole or number != 0:
            raise ValueError("not a sampled chance step")
        pile = self.spec.pile(self.state)
        assert pile is not None
        if sorted(order) != sorted(card.index for card in pile):
            raise ValueError("the sampled shuffle is not an order of the pile")
        if self.fixed is not None and tuple(order) != self.fixed:
            raise ValueError("the sampled shuffle is not the fixed deal")
        self.whole = False
        self.chance_steps += len(order) - 1
        cards = self.spec.cards
        shuffle = Shuffle(tuple(cards[i] for i in order))
        self.sampled = (*self.sampled, (move, shuffle.order))
        self.step(shuffle)

    def fixed_outcome(self) -> int:
        """The one outcome of this chance step when the deals are fixed: the
        dealer, or the first card of the fixed order not picked yet."""
        fixed = self.fixed
        assert fixed is not None
        if not self.remaining:
            return fixed[0]
        left = set(self.remaining)
        return next(card for card in fixed if card in left)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.whole:
            return [(0, 1.0)]
        if self.fixed is not None:
            return [(self.fixed_outcome(), 1.0)]
        remaining = self.remaining
        if remaining:
            chance = 1.0 / len(remaining)
            return [(i, chance) for i in remaining]
        n = self.state.num_players
        return [(seat, 1.0 / n) for seat in range(n)]

    # -- steps ------------------------------------------------------------------------

    def legal_actions(self) -> tuple[tuple[int, ...], tuple[Any, ...]]:
        """The legal action numbers (ascending) and the actions, in the same order."""
        legal = self.legal
        if legal is None:
            legal = self.legal = self.spec.legal_with_ids(self.state)
        return legal

    def apply_player(self, number: int) -> None:
        """Apply the player action numbered ``number`` (through :meth:`step`),
        keeping the state before it for the returns at the decision."""
        before = self.state
        if self.player < 0:
            raise ValueError("no player is to act")
        ids, actions = self.legal or self.legal_actions()
        try:
            action = actions[ids.index(number)]
        except ValueError:   # not legal: the game's own error, naming the rule
            action = self.spec.action_of(before, number)
        # The returns before the decision, read only if asked for (rewards()).
        self.base, self.base_state = None, before
        self.step(action)

    def base_returns(self) -> tuple[float, ...]:
        """The returns when the last player decision was made."""
        base = self.base
        if base is None:
            base = self.base = self.spec.returns(self.base_state)
        return base

    def step(self, action: object) -> None:
        """Apply ``action`` to the cardrules state, log the step (its events
        are worked out when an information state needs them), set up the
        next chance point and the player to move.  (A card picked
        mid-shuffle is no step: the chance player stays to move.)"""
        spec, before = self.spec, self.state
        after = self.state = spec.apply(before, action)
        self.pending = (self.pending, (spec.events, spec.info_bits, before, action, after))
        self.legal = None
        seat = after.current_player   # None at a chance point and at the end
        if seat is not None:
            self.player = seat
        elif after.is_chance:
            self.enter()
            self.update_player()
        else:
            self.player = _TERMINAL

    # -- what the players see --------------------------------------------------------

    def entries(self) -> _Entry | None:
        """The log's last entry, the steps since the last call made entries."""
        pending = self.pending
        if pending is None:
            return self.log
        steps = []
        while pending is not None:
            pending, step = pending
            steps.append(step)
        log = self.log
        for step in reversed(steps):
            log = _Entry(log, step)
        self.log, self.pending = log, None
        return log

    def information_string(self, seat: int) -> str:
        """``seat``'s information state: its lines of the log, then its observation."""
        mark, lines = _lines_to_mark(self.entries(), seat)
        prefix = _prefix(mark, seat)
        lines.reverse()
        head = [f"seat {seat}", prefix] if prefix else [f"seat {seat}"]
        return "\n".join([*head, *lines, self.spec.observation_string(self.state, seat)])

    def information_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s information-state tensor: the seat, the entries the log
        sets in the history part, then the observation."""
        spec = self.spec
        out = np.zeros(spec.info_size, np.float32)
        out[seat] = 1.0
        mark, positions = _positions_to_mark(self.entries(), seat)
        history = out[spec.num_players:spec.num_players + spec.history_size]
        prefix = _positions_prefix(mark, seat)
        history[prefix[:, 0]] = prefix[:, 1]
        for step in reversed(positions):
            for index, value in step:
                history[index] = value
        out[spec.num_players + spec.history_size:] = spec.observation_tensor(self.state, seat)
        return out

    def forget_others(self, seat: int) -> None:
        """Keep only ``seat``'s private events: the others' become their public
        part.  (``seat`` learns the same, so its kept lines and tensor entries
        stay.)"""
        log: _Entry | None = None
        last = self.entries()
        for entry in ([] if last is None else last.entries()):
            kept: list[_Seen] = []
            for owner, public, private in entry.seen():
                if owner is None or owner == seat:
                    kept.append((owner, public, private))
                elif public is not None:
                    kept.append((owner, public, public))
            bits = entry.bits
            if bits is not None:
                bits = (bits[0], tuple(item for item in bits[1] if item[0] == seat))
            log = _Entry(log, events=tuple(kept), bits=bits)
            if entry.marks is not None and seat in entry.marks:
                log.marks = {seat: entry.marks[seat]}
            if entry.bitmarks is not None and seat in entry.bitmarks:
                log.bitmarks = {seat: entry.bitmarks[seat]}
        self.log = log

    # -- saving ------------------------------------------------------------------------

    def saved(self) -> Saved:
        """What the history cannot rebuild (see :func:`_rebuild`)."""
        spec = self.spec
        sampled = tuple((move, tuple(card.index for card in order))
                        for move, order in self.sampled)
        return Saved(spec.name, dict(spec.params), self.resamples, sampled)

    def __reduce__(self) -> tuple[Callable[[object], Saved], tuple[str]]:
        return saved_from_json, (self.saved().to_json(),)


def _new_core(spec: _Spec, rng: random.Random) -> _Core:
    core = _Core.__new__(_Core)
    core.spec, core.state, core.rng = spec, spec.initial, rng
    core.picked = core.remaining = ()
    core.log = core.pending = None
    core.base, core.base_state = (0.0,) * spec.num_players, None
    core.chance_steps = 0
    core.truncated = False
    core.resamples = core.sampled = ()
    core.legal, core.whole = None, False
    core.deal_key = core.fixed = None
    core.enter()   # a game may start with a shuffle
    core.update_player()
    return core


def _history_of(state: pyspiel.State) -> list[tuple[int, int]]:
    return [(int(step.player), int(step.action)) for step in state.full_history()]


def _params(spec: _Spec) -> str:
    return ",".join(f"{key}={value}" for key, value in spec.params.items())


def _rebuild(state: CardrulesState, saved: Saved) -> _Core:
    """The core ``state``'s history leads to, with the resamples (and the
    sampled shuffles) ``saved`` holds, replayed once; anything that does not
    fit is a ParseError."""
    spec = state.get_game()._spec
    if saved.game != spec.name or dict(saved.settings) != spec.params:
        given = ",".join(f"{key}={value}" for key, value in saved.settings.items())
        raise ParseError(f"the OpenSpiel state is of {saved.game}({given}), "
                         f"not of {spec.name}({_params(spec)})")
    history = _history_of(state)
    if state.move_number() != len(history):
        raise ParseError(f"move_number {state.move_number()} is not the length of the "
                         f"history ({len(history)})")
    resamples = saved.resamples
    moves = [r.at for r in resamples]
    if moves != sorted(moves) or (moves and moves[-1] > len(history)):
        raise ParseError(f"resampled at moves {moves}: not in order within the history "
                         f"({len(history)} moves)")
    sampled = dict(saved.sampled)
    if len(sampled) != len(saved.sampled) or not set(sampled) <= set(range(len(history))):
        raise ParseError("the sampled shuffles do not name distinct moves of the history")
    core = _new_core(spec, state.get_game()._rng)
    next_resample = 0
    for at in range(len(history) + 1):
        while next_resample < len(resamples) and resamples[next_resample].at == at:
            core = _resampled(core, resamples[next_resample])
            next_resample += 1
        if at == len(history):
            break
        player, number = history[at]
        if player != core.player:
            raise ParseError(f"history step {at}: player {player} cannot move here "
                             f"(the player to move is {core.player})", token=f"{player}:{number}")
        try:
            if player != _CHANCE:
                if number not in core.legal_actions()[0]:
                    raise ValueError("not a legal action")
                core.apply_player(number)
            elif core.whole:
                if at not in sampled:
                    raise ValueError("a sampled shuffle that was not saved")
                core.apply_sampled(number, sampled.pop(at), at)
            else:
                core.apply_chance(number, at)
        except (IllegalActionError, ValueError) as error:
            raise ParseError(f"history step {at}: {error}", token=f"{player}:{number}") from None
    if sampled:
        raise ParseError(f"a sampled shuffle at move {min(sampled)}, which is no sampled "
                         f"chance step")
    return core


def _resampled(core: _Core, resample: Resample) -> _Core:
    """``core`` with the resample ``resample`` applied, checked (see
    :meth:`CardrulesState.resample_from_infostate`)."""
    spec = core.spec
    rules, seat = spec.rules, resample.seat
    if seat >= spec.num_players:
        raise ParseError(f"resampled for seat {seat}, not a seat of the game")
    try:
        drawn = rules.state_from_dict(resample.state)
    except ParseError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        # a game whose reader raises something else
        raise ParseError(f"the resampled state is not a state of the game ({error})") from None
    if rules.settings_of(drawn) != rules.settings_of(spec.initial):
        raise ParseError(f"the resampled state's settings are not the game's ({_params(spec)})")
    start = core.copy()
    start.state = drawn
    start.forget_others(seat)
    start.picked, start.remaining = resample.picked, resample.remaining
    pile = spec.pile(drawn) if drawn.is_chance and core.remaining else None
    if pile is None:
        if resample.picked or resample.remaining:
            raise ParseError("a shuffle in progress in a resample where none was under way")
    elif (sorted((*resample.picked, *resample.remaining)) != sorted(c.index for c in pile)
          or list(resample.remaining) != sorted(resample.remaining)
          or len(resample.picked) != len(core.picked)):
        raise ParseError("the shuffle in progress of a resample is not of its pile")
    start.update_player()
    if start.player != core.player or \
            start.information_string(seat) != core.information_string(seat):
        raise ParseError(f"the resampled state does not give seat {seat} the information "
                         f"of the state it was drawn from")
    start.resamples = (*core.resamples, resample)
    return start


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
        self._core = _new_core(game._spec, game._rng)

    def __reduce__(self) -> tuple[Callable[..., CardrulesState], tuple[str, dict[str, int], str]]:
        """Pickled as its game's name and parameters and ``serialize()``'s text,
        read back with ``deserialize_state`` (so in every chance mode).

        >>> import pickle, pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley", {"sampled_chance": 1})
        >>> state = game.new_initial_state()
        >>> state.apply_action(0); state.apply_action(0)   # a dealer, a whole shuffle
        >>> pickle.loads(pickle.dumps(state)).cardrules_state == state.cardrules_state
        True
        """
        spec = self._core.spec
        return _load_state, (spec.name, dict(spec.params), self.serialize())

    def __deepcopy__(self, memo: dict[int, object]) -> CardrulesState:
        return cast(CardrulesState, self.clone())

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
            if isinstance(value, Saved):
                value = _rebuild(self, value)
            elif not isinstance(value, _Core):
                raise ParseError("an OpenSpiel state of cardrules holds the adapter's data",
                                 token=type(value).__name__)
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

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to move) in
        increasing order; at a chance node, its outcomes.  (Answered here,
        without a round trip through OpenSpiel's C++ side; C++ callers get
        the same from ``_legal_actions``.)

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> state = pyspiel.load_game("cardrules_back_alley").new_initial_state()
        >>> state.legal_actions(), state.legal_actions(0)
        ([0, 1, 2, 3], [])
        """
        core = self._core
        if player is None:
            player = core.player
        if player != core.player or player == _TERMINAL:
            return []
        if player == _CHANCE:
            return [outcome for outcome, _ in core.chance_outcomes()]
        legal = core.legal
        if legal is None:
            legal = core.legal = core.spec.legal_with_ids(core.state)
        return list(legal[0])

    def is_chance_node(self) -> bool:
        """True at a chance node (answered without a round trip through C++).

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> pyspiel.load_game("cardrules_back_alley").new_initial_state().is_chance_node()
        True
        """
        return self._core.player == _CHANCE

    def is_player_node(self) -> bool:
        """True where a player is to act.

        >>> import pyspiel
        >>> from cardrules.integrations import openspiel
        >>> pyspiel.load_game("cardrules_back_alley").new_initial_state().is_player_node()
        False
        """
        return self._core.player >= 0

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if player != core.player or player < 0:
            return []
        return list(core.legal_actions()[0])

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
        if core.player == _CHANCE:
            core.apply_chance(int(action), self.move_number())
        else:
            core.apply_player(action)   # an int: pybind11 passes OpenSpiel's Action so

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == _CHANCE:
            state = core.state
            if core.whole:
                return "sampled shuffle"
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
        return self._core.player == _TERMINAL

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
        # Saved with the state: its history cannot rebuild the cards drawn.
        core.resamples = (*core.resamples, Resample(
            player_id, self.move_number(), spec.rules.state_to_dict(core.state),
            core.picked, core.remaining))
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


def _load_state(name: str, params: dict[str, int], text: str) -> CardrulesState:
    """A pickled state read back (see :meth:`CardrulesState.__reduce__`)."""
    game = pyspiel.load_game(name, params)
    return cast(CardrulesState, game.deserialize_state(text))


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
        if perfect_recall and not spec.info_size:
            self.tensor, self.dict = None, {}
        elif perfect_recall:
            self.tensor = np.zeros(spec.info_size, np.float32)
            self.dict = {"info_state": self.tensor}
        else:
            self.tensor = np.zeros(spec.observation_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CardrulesState, player: int) -> None:
        if self.tensor is not None:
            core = state._core
            if self.perfect_recall:
                self.tensor[:] = core.information_tensor(player)
            else:
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
    _rng: random.Random

    def __init__(self, rules: _AnyRules, params: Mapping[str, object] | None = None) -> None:
        entry = _GAMES[register_game(rules)]
        settings = _settings(params, entry.defaults)
        spec = _spec(entry, settings)
        super().__init__(spec.game_type(entry.game_type), spec.game_info, settings)
        self._spec = spec
        self._rng = random.Random(spec.params["seed"])

    def __reduce__(self) -> tuple[Callable[..., pyspiel.Game], tuple[str, dict[str, int]]]:
        """Pickled as its OpenSpiel name and parameters (loaded back with
        ``pyspiel.load_game``).

        >>> import pickle, pyspiel
        >>> from cardrules.integrations import openspiel
        >>> game = pyspiel.load_game("cardrules_back_alley", {"max_hand_size": 2})
        >>> pickle.loads(pickle.dumps(game)).get_parameters()["max_hand_size"]
        2
        """
        return pyspiel.load_game, (self._spec.name, dict(self._spec.params))

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
        >>> game.deserialize_state(state.serialize().replace("-1:3", "-1:7"))
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: history step 0: chance outcome 7: the dealer is a seat, ...
        """
        spec = self._spec
        screen(text, num_players=spec.num_players,
               max_moves=spec.game_info.max_game_length + spec.max_chance_nodes)
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
        if spec.rules is not self._spec.rules or spec.params != self._spec.params:
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
