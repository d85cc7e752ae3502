"""What a game offers the shared engine: one :class:`Rules` object per game.

Each game package builds a single ``RULES`` (for example
``cardrules.down_and_back.RULES``) holding its functions: new states, legal
actions, the reducer, chance sampling, views, the JSON and text codecs, the
conformance hooks and its bots.  Everything game-independent (records,
replay, self-play, conformance runs, the command line) is written once
against this object, and :func:`~cardrules.engine.registry.rules_for` finds
a game's rules by name.

>>> from cardrules.down_and_back import RULES
>>> RULES.name, RULES.title
('down_and_back', 'Down and Back')
>>> RULES.new_game_from_settings({"num_players": 3}).num_players
3
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import attrs

from cardrules._validate import is_int
from cardrules.errors import CardRulesError, IllegalActionError, ParseError
from cardrules.i18n import concat, lazy_gettext

if TYPE_CHECKING:
    from cardrules.cards import Card, Joker
    from cardrules.engine.batch import BatchEngine
    from cardrules.engine.bots import Bot
    from cardrules.engine.bounds import Bounds
    from cardrules.engine.chance import ChooseDealer, Shuffle
    from cardrules.engine.events import Event
    from cardrules.engine.presenter import Presenter
    from cardrules.engine.records import GameRecord, Seated
    from cardrules.engine.selfplay import PlayedGame
    from cardrules.engine.tally import Tally
    from cardrules.engine.tensors import Encoding

__all__ = ["ApplyFunction", "Rules", "SampleFromPile", "SettingValues", "StateLike",
           "no_invariants"]

#: Game settings as plain JSON values, for example ``{"num_players": 4, "ante": 1}``.
SettingValues = Mapping[str, int | None]


class StateLike(Protocol):
    """The attributes every game state has.

    >>> from cardrules.down_and_back import new_game
    >>> s = new_game(2)
    >>> s.current_player, s.is_chance, s.is_terminal, s.num_players
    (None, True, False, 2)
    """

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None at a chance point or at the end.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).current_player is None
        True
        """

    @property
    def is_chance(self) -> bool:
        """True when a chance action is due.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).is_chance
        True
        """

    @property
    def is_terminal(self) -> bool:
        """True when the game is over.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(2).is_terminal
        False
        """

    @property
    def num_players(self) -> int:
        """The number of seats.

        >>> from cardrules.down_and_back import new_game
        >>> new_game(5).num_players
        5
        """


S = TypeVar("S", bound=StateLike)
A = TypeVar("A")
S_co = TypeVar("S_co", bound=StateLike)
A_contra = TypeVar("A_contra", contravariant=True)
_StateT = TypeVar("_StateT")


class ApplyFunction(Protocol[_StateT, A_contra]):
    """The shape of a game's ``apply``: ``apply(state, action, *, seat=None)``.

    >>> from cardrules.down_and_back import RULES, new_game, ChooseDealer
    >>> RULES.apply(new_game(2), ChooseDealer(0)).dealer
    0
    """

    def __call__(self, state: _StateT, action: A_contra, *,
                 seat: int | None = None) -> _StateT:
        """The state after ``action``; ``state`` is left unchanged.

        >>> from cardrules.down_and_back import RULES, new_game, ChooseDealer
        >>> RULES.apply(new_game(2), ChooseDealer(1)).dealer
        1
        """


def no_invariants(state: object) -> None:
    """The default ``Rules.check_invariants``: checks nothing.

    >>> no_invariants(object()) is None
    True
    """


def _random_bot(seed: int | None) -> Bot:
    from cardrules.engine.bots import RandomBot

    return RandomBot(seed)


@attrs.frozen(slots=True)
class SampleFromPile(Generic[S]):
    """The default ``Rules.sample_chance``: what ``chance_pile`` says is due,
    drawn uniformly from the caller's ``rng``: a seat for a
    :class:`~cardrules.engine.ChooseDealer` when the pile is None, else a
    :class:`~cardrules.engine.Shuffle` of the pile
    (:func:`~cardrules.engine.chance.shuffled`).

    >>> import random
    >>> from cardrules import parse_cards
    >>> from cardrules.down_and_back import new_game
    >>> pick = SampleFromPile(lambda state: tuple(parse_cards("AS KS")))
    >>> str(pick(new_game(2), random.Random(1)))
    'shuffle ...'
    """

    #: The game's ``chance_pile``.
    chance_pile: Callable[[S], tuple[Card | Joker, ...] | None]

    def __call__(self, state: S, rng: random.Random) -> ChooseDealer | Shuffle:
        """The chance action due in ``state``, drawn from ``rng``.

        >>> import random
        >>> from cardrules.down_and_back import RULES, new_game
        >>> SampleFromPile(RULES.chance_pile)(new_game(3), random.Random(2))
        ChooseDealer(seat=...)
        """
        from cardrules.engine.chance import ChooseDealer, Shuffle, shuffled

        pile = self.chance_pile(state)
        if pile is None:
            return ChooseDealer(rng.randrange(state.num_players))
        return Shuffle(shuffled(pile, rng))


@attrs.frozen(slots=True, eq=False, kw_only=True)
class Rules(Generic[S, A]):
    """A game's rules as one object: its functions and its metadata.

    The fields are the game's own functions; the methods (settings,
    legality, records, replay, self-play) are written once here for every
    game.

    >>> from cardrules.down_and_back import RULES, new_game
    >>> state = new_game(2)
    >>> RULES.is_chance_due(state), RULES.legal_actions(state)
    (True, ())
    """

    #: The name used in records and on the command line, such as ``"down_and_back"``.
    name: str
    #: The game's name for people, such as ``"Down and Back"``.
    title: str
    #: ``new_game(**settings)``: the initial state.
    new_game: Callable[..., S]
    #: Every setting the game accepts, with its default.
    default_settings: SettingValues
    #: The settings a state was created with (what a record stores).
    settings_of: Callable[[S], SettingValues]
    #: ``legal_actions(state)``: what the player to act may do (empty at a
    #: chance point and at the end).
    legal_actions: Callable[[S], tuple[A, ...]]
    #: ``apply(state, action, *, seat=None)``: the next state (the reducer).
    apply: ApplyFunction[S, A]
    #: ``view(state, seat)``: what one seat may know.
    view: Callable[[S, int], object]
    #: ``state_to_dict(state)``: the state as plain JSON values.
    state_to_dict: Callable[[S], dict[str, object]]
    #: ``state_from_dict(data)``: a state read back, every value checked.
    state_from_dict: Callable[[Mapping[str, object]], S]
    #: ``action_to_dict(action)``: an action as plain JSON values.
    action_to_dict: Callable[[A], dict[str, object]]
    #: ``action_from_dict(data)``: an action read back from JSON values.
    action_from_dict: Callable[[Mapping[str, object]], A]
    #: ``parse_action(text)``: an action from its text form (``"cut 5"``).
    parse_action: Callable[[str], A]
    #: Bots by name (``"random"``, ...), each built from a seed.
    bots: Mapping[str, Callable[[int | None], Bot]] = attrs.field(
        factory=lambda: {"random": _random_bot})
    #: A few lines of text on how the game stands: results so far, scores, leaders.
    summarize: Callable[[S], str]
    #: ``returns(state)``: what each seat has won so far (Down and Back's net
    #: chips, Back Alley's team points), one whole number per seat.
    returns: Callable[[S], tuple[int, ...]]
    #: What :attr:`returns` counts, for people: ``"net chips"``.
    return_unit: str
    #: ``chance_pile(state)``: at a chance point, the cards the due
    #: :class:`~cardrules.engine.Shuffle` orders, or None when the chance
    #: action due is a :class:`~cardrules.engine.ChooseDealer`.
    chance_pile: Callable[[S], tuple[Card | Joker, ...] | None]
    #: Every card a shuffle of this game can hold, by :attr:`~cardrules.Card.index`.
    chance_cards: tuple[Card | Joker, ...]
    #: ``events(before, action, after)``: what every seat learns from a step.
    events: Callable[[S, A, S], tuple[Event, ...]]
    #: ``sample_chance(state, rng)``: a chance action drawn from ``rng``.  By
    #: default a uniform :class:`~cardrules.engine.ChooseDealer` when
    #: :attr:`chance_pile` is None, else a uniform
    #: :class:`~cardrules.engine.Shuffle` of the pile.
    sample_chance: Callable[[S, random.Random], A] = attrs.field(
        default=attrs.Factory(lambda self: SampleFromPile(self.chance_pile), takes_self=True))
    #: Settings for conformance runs: short games that cover the table sizes
    #: (by default the default settings alone).
    check_settings: tuple[SettingValues, ...] = attrs.field(
        default=attrs.Factory(lambda self: (self.default_settings,), takes_self=True))
    #: Conformance hook: legal actions and likely illegal ones worth trying
    #: (by default the legal actions).
    probe_actions: Callable[[S], Iterable[A]] = attrs.field(
        default=attrs.Factory(lambda self: self.legal_actions, takes_self=True))
    #: Conformance hook: ``state`` with what ``seat`` cannot see dealt differently.
    hidden_variant: Callable[[S, int, random.Random], S]
    #: Conformance hook: raise ValueError if a state breaks an invariant (by
    #: default nothing is checked beyond what the conformance run checks itself).
    check_invariants: Callable[[S], None] = no_invariants
    #: The bot a person plays against by default, and the command's default.
    default_bot: str = "random"
    #: Action numbers and observation vectors (None: the game has none, and
    #: the learning adapters refuse it).
    encoding: Encoding[S, A] | None = None
    #: ``bounds(settings)``: how long a game can last and what it can pay;
    #: None when the game gives no bounds (OpenSpiel then refuses it).
    bounds: Callable[[SettingValues], Bounds] | None = None
    #: Settings only a bounded adapter takes, with their defaults: caps on
    #: rules that could repeat without end (Back Alley's ``max_throw_ins``).
    limit_settings: SettingValues = attrs.field(factory=dict)
    #: ``presenter(seat)``: the game's text table for a person at ``seat``
    #: (None: :class:`~cardrules.engine.presenter.PlainPresenter`).
    presenter: Callable[[int], Presenter[A]] | None = None
    #: ``result_lines(before, after)``: the line of each round (or deal) the
    #: step from ``before`` to ``after`` finished, as :attr:`summarize` starts
    #: with them, so that a long game can be followed as it is played (None:
    #: nothing is shown until the summary at the end).
    result_lines: Callable[[S, S], tuple[str, ...]] | None = None
    #: The game's own simulation counts (None: only what every game counts).
    tally: type[Tally] | None = None
    #: ``vector(num_games, seed, settings)``: the game's batch engine, a
    #: :class:`~cardrules.engine.batch.BatchEngine` of ``num_games`` games with
    #: complete ``settings`` (None: the game has none, and
    #: :func:`cardrules.vector.make` refuses it).  A game package sets it to a
    #: function that imports its engine (and numpy) only when called.
    vector: Callable[[int, int, SettingValues], BatchEngine] | None = None
    #: ``view_to_dict(view)``: a view made by :attr:`view` or :attr:`public_view`
    #: as plain JSON values, ready to send to a client (None: the engine's
    #: generic encoder, :func:`~cardrules.engine.json_out.attributes_to_json`).
    #: It takes the game's own view classes, hence ``Any``.
    view_to_dict: Callable[[Any], dict[str, object]] | None = None
    #: ``public_view(state)``: what anyone watching may know, no seat's hidden
    #: cards (None: the game has no such view, and a server admits no spectator).
    public_view: Callable[[S], object] | None = None
    #: ``double_dummy(states)``: the game's double-dummy analysis of a game
    #: given as its states from the first to the last (a replayed record), as
    #: text for people: what each side could have taken with every hand open
    #: beside what it took (None: the game has none, and ``cardrules replay
    #: --double-dummy`` refuses it).
    double_dummy: Callable[[Iterable[S]], str] | None = None

    def new_game_from_settings(self, settings: SettingValues) -> S:
        """The initial state for ``settings`` (as stored in a record); settings
        left out take their defaults, unknown ones are refused.

        >>> from cardrules.down_and_back import RULES
        >>> RULES.new_game_from_settings({"num_players": 3, "ante": 2}).ante
        2
        >>> RULES.new_game_from_settings({"players": 3})
        Traceback (most recent call last):
        ...
        ValueError: unknown Down and Back setting 'players' (known: num_players, ante, rounds)
        """
        values = dict(self.default_settings)
        for key, value in settings.items():
            if key not in values:
                known = ", ".join(self.default_settings)
                raise ValueError(f"unknown {self.title} setting {key!r} (known: {known})")
            if value is not None and not is_int(value):
                raise ValueError(f"setting {key!r} must be a whole number or null, "
                                 f"not {value!r}")
            values[key] = value
        return self.new_game(**values)

    def is_chance_due(self, state: S) -> bool:
        """True when the next action must be a chance action.

        >>> from cardrules.down_and_back import RULES, new_game
        >>> RULES.is_chance_due(new_game(2))
        True
        """
        return state.is_chance

    def is_legal(self, state: S, action: A, *, seat: int | None = None) -> bool:
        """True when ``apply(state, action, seat=seat)`` would be accepted.

        Without ``seat`` the action is the player to act's, so at a decision
        ``is_legal(state, a)`` is ``a in legal_actions(state)`` for every
        action ``a`` of the game; at a chance point it answers for the chance
        action due (which :attr:`legal_actions` never lists).  A Down and
        Back split of a seat other than the player to act is legal only with
        that ``seat`` named (DB-40).

        >>> from cardrules.down_and_back import RULES, new_game, ChooseDealer, DrawStock
        >>> s = new_game(2)
        >>> RULES.is_legal(s, ChooseDealer(1)), RULES.is_legal(s, DrawStock())
        (True, False)
        """
        try:
            self.apply(state, action, seat=seat)
        except IllegalActionError:
            return False
        return True

    def record(self, state: S, actions: Sequence[A | Seated]) -> GameRecord:
        """A record of ``actions`` played from the settings of ``state``.

        Each entry is an action of the player to act (or of chance), or a
        :class:`~cardrules.engine.records.Seated` entry for an action made by
        another seat (see :meth:`entry`).

        >>> from cardrules.down_and_back import RULES, new_game, ChooseDealer
        >>> RULES.record(new_game(2, rounds=1), [ChooseDealer(0)]).to_text().splitlines()[-1]
        'dealer 0'
        """
        from cardrules.engine.records import GameRecord

        return GameRecord(self.name, self.settings_of(state), tuple(actions))

    def entry(self, state: S, action: A, seat: int | None = None) -> A | Seated:
        """What a record keeps of ``apply(state, action, seat=seat)``: the action
        itself when the player to act (or chance) made it, else a
        :class:`~cardrules.engine.records.Seated` entry naming ``seat``, so
        that the record replays however the seats took turns (DB-40).

        >>> import random
        >>> from cardrules.down_and_back import RULES, Phase
        >>> from cardrules.down_and_back.game import split_actions
        >>> state, rng = RULES.new_game_from_settings({"num_players": 2}), random.Random(1)
        >>> while state.phase is not Phase.SPLIT:
        ...     state = RULES.apply(state, RULES.sample_chance(state, rng) if state.is_chance
        ...                         else RULES.legal_actions(state)[0])
        >>> mine = RULES.legal_actions(state)[0]
        >>> RULES.entry(state, mine, state.current_player) is mine
        True
        >>> other = 1 - state.current_player
        >>> print(RULES.entry(state, split_actions(state.hands[other])[0], other))
        seat ...: split ... / ...
        """
        if seat is None or seat == state.current_player:
            return action
        from cardrules.engine.records import Seated

        return Seated(seat, action)

    def replay(self, record: GameRecord) -> Iterator[S]:
        """Every state of a recorded game of this kind, from the first to the last.

        The record is checked when ``replay`` is called, before any state is
        made: something that is not a :class:`~cardrules.engine.GameRecord`
        is a :class:`TypeError`; a record of another game, settings the game
        refuses and a :class:`~cardrules.engine.records.Seated` entry for a
        seat the table does not have are a :class:`ValueError`.  The actions
        are then applied one by one as the states are asked for: an action
        the rules refuse raises :class:`~cardrules.IllegalActionError`
        naming the action's number (a :class:`~cardrules.ParseError` keeps
        its ``token`` and ``position``).

        An action is the player to act's, and a ``Seated`` entry is applied
        for its seat.  Records written before ``Seated`` existed hold Down
        and Back splits made out of order without a seat: an action the
        player to act cannot make, but exactly one other seat can, is
        applied for that seat (for a split, the one seat holding its seven
        cards, DB-40).  :meth:`GameRecord.replay
        <cardrules.engine.GameRecord.replay>` is this method with the
        rules the record names.

        >>> from cardrules.down_and_back import RULES, new_game, ChooseDealer
        >>> r = RULES.record(new_game(2), [ChooseDealer(1)])
        >>> [s.dealer for s in RULES.replay(r)]
        [None, 1]
        >>> from cardrules.engine import GameRecord
        >>> RULES.replay(GameRecord("back_alley", {}, ()))   # refused at once, not on next()
        Traceback (most recent call last):
        ...
        ValueError: not a Down and Back record: 'back_alley'
        """
        from cardrules.engine.records import GameRecord, Seated

        if not isinstance(record, GameRecord):
            raise TypeError(f"replay takes a GameRecord, not {type(record).__name__}")
        if record.game != self.name:
            raise ValueError(f"not a {self.title} record: {record.game!r}")
        start = self.new_game_from_settings(record.settings_dict)
        for number, entry in enumerate(record.actions, start=1):
            if isinstance(entry, Seated) and entry.seat >= start.num_players:
                raise ValueError(f"action {number} ({entry}): there is no seat {entry.seat} "
                                 f"at a table of {start.num_players}")
        return self._states(start, record.actions)

    def _states(self, state: S, entries: Sequence[object]) -> Iterator[S]:
        """``state``, then the state after each record entry in turn (the
        lazy half of :meth:`replay`, which has checked the record)."""
        from cardrules.engine.records import Seated

        yield state
        for number, entry in enumerate(entries, start=1):
            action, seat = (entry.action, entry.seat) if isinstance(entry, Seated) \
                else (entry, None)
            where = lazy_gettext("action {number} ({entry}): ", number=number, entry=entry)
            try:
                try:
                    state = self.apply(state, action, seat=seat)  # type: ignore[arg-type]
                except IllegalActionError:
                    other = None if seat is not None else self._only_seat(state, action)
                    if other is None:
                        raise
                    state = self.apply(state, action, seat=other)  # type: ignore[arg-type]
            except IllegalActionError as err:
                raise IllegalActionError(err.rule, concat(where, err.text)) from None
            except ParseError as err:   # keeps the token and its position
                raise err.within(where) from None
            except CardRulesError as err:
                raise type(err)(str(where) + str(err)) from None
            except ValueError as err:
                raise ValueError(str(where) + str(err)) from None
            yield state

    def _only_seat(self, state: S, action: object) -> int | None:
        """The one seat other than the player to act that may make ``action``
        now, or None (none, or more than one): how replay reads the seatless
        out-of-order splits of older Down and Back records."""
        if state.is_chance or state.is_terminal:
            return None
        seats = [seat for seat in range(state.num_players) if seat != state.current_player
                 and self.is_legal(state, action, seat=seat)]  # type: ignore[arg-type]
        return seats[0] if len(seats) == 1 else None

    def play(self, bots: Sequence[Bot], settings: SettingValues | None = None, *,
             seed: int | None = None, max_actions: int | None = None) -> PlayedGame[S]:
        """Play a whole game between ``bots`` (one per seat): the game loop
        :func:`cardrules.engine.play` with these rules, which each game's
        ``play_game`` calls too.

        >>> from cardrules.down_and_back import RULES
        >>> from cardrules.engine import RandomBot
        >>> game = RULES.play([RandomBot(1), RandomBot(2)], {"rounds": 1}, seed=3)
        >>> game.state.is_terminal, len(game.record.actions) > 20
        (True, True)
        """
        from cardrules.engine.selfplay import play

        return play(self, bots, settings, seed=seed, max_actions=max_actions)
