"""Back Alley: four players in two partnerships, 54 cards, 25 deals of bidding
and tricks (rules BA-1 to BA-50).

The game is a pure reducer over immutable states: :func:`new_game` gives the
first state, :func:`legal_actions` what the player to act may do,
:func:`apply` the next state, and :func:`sample_chance` the chance events
(the first dealer and each shuffle) from your own ``random.Random``.
Dealing, the BA-13 joker exchange, throw-ins, tricks, scoring and the next
deal all happen inside :func:`apply`.

>>> import random
>>> from cardrules.back_alley import new_game, apply, legal_actions, sample_chance
>>> rng = random.Random(0)
>>> state = new_game()
>>> while not state.is_terminal:
...     action = (sample_chance(state, rng) if state.is_chance
...               else rng.choice(legal_actions(state)))
...     state = apply(state, action)
>>> len(state.results), state.scores == tuple(sum(r.points[t] for r in state.results)
...                                          for t in (0, 1))
(25, True)

Each player sees only their :func:`view`; :data:`RULES` plugs the game into
the shared engine (records, replay, self-play, conformance checks):

>>> from cardrules.engine import RandomBot
>>> final = play_game([RandomBot(seed) for seed in range(4)], max_hand_size=2, seed=1)
>>> final.is_terminal, len(final.results)
(True, 3)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from cardrules.back_alley.actions import (
    Action,
    Bid,
    BidAction,
    Board,
    ChooseDealer,
    Pass,
    Play,
    Shuffle,
    action_from_dict,
    action_to_dict,
    parse_action,
)
from cardrules.back_alley.bots import HeuristicBot
from cardrules.back_alley.checks import check_invariants, hidden_variant, probe_actions
from cardrules.back_alley.game import apply, first_leader, legal_actions, new_game, sample_chance
from cardrules.back_alley.serialize import state_from_dict, state_to_dict, view_to_dict
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    Contract,
    Deal,
    DealResult,
    GameState,
    History,
    Phase,
    Settings,
    Trick,
    board_levels,
    contract_of,
    hand_size_of,
    score,
    summarize,
    team_of,
)
from cardrules.back_alley.views import View, view
from cardrules.engine.bots import Bot as _Bot
from cardrules.engine.bots import RandomBot as _RandomBot
from cardrules.engine.records import GameRecord as _GameRecord
from cardrules.engine.registry import register
from cardrules.engine.rules import Rules

# The engine's Bot, RandomBot and GameRecord are imported under private names:
# users import them from cardrules.engine, their one import path.

__all__ = [  # noqa: RUF022 (grouped by purpose)
    # the game
    "NAME",
    "NUM_PLAYERS",
    "RULES",
    "apply",
    "legal_actions",
    "new_game",
    "new_game_from_settings",
    "sample_chance",
    # actions (ChooseDealer and Shuffle are the engine's chance actions, part of Action)
    "Action",
    "Bid",
    "BidAction",
    "Board",
    "ChooseDealer",
    "Pass",
    "Play",
    "Shuffle",
    "action_from_dict",
    "action_to_dict",
    "parse_action",
    # the state and its parts
    "Contract",
    "Deal",
    "DealResult",
    "GameState",
    "History",
    "Phase",
    "Settings",
    "Trick",
    # rule helpers
    "board_levels",
    "contract_of",
    "first_leader",
    "hand_size_of",
    "score",
    "team_of",
    # views and JSON
    "View",
    "state_from_dict",
    "state_to_dict",
    "view",
    "view_to_dict",
    # records, self-play, conformance hooks
    "HeuristicBot",
    "check_invariants",
    "hidden_variant",
    "play_game",
    "probe_actions",
    "record",
    "replay",
    "summarize",
]

#: The game's name in records and on the command line.
NAME = "back_alley"
#: Short games (5 and 3 deals) for conformance runs; full games are tested apart.
CHECK_SETTINGS: tuple[Mapping[str, int | None], ...] = (
    {"max_hand_size": 3}, {"max_hand_size": 2})


def _settings_of(state: GameState) -> Mapping[str, int | None]:
    return state.settings.to_dict()


#: Back Alley's rules for the shared engine (records, replay, self-play, conformance).
RULES: Rules[GameState, Action] = Rules(
    name=NAME, title="Back Alley", new_game=new_game,
    default_settings=Settings().to_dict(), settings_of=_settings_of,
    legal_actions=legal_actions, apply=apply, sample_chance=sample_chance, view=view,
    state_to_dict=state_to_dict, state_from_dict=state_from_dict,
    action_to_dict=action_to_dict, action_from_dict=action_from_dict,
    parse_action=parse_action, check_settings=CHECK_SETTINGS, probe_actions=probe_actions,
    hidden_variant=hidden_variant, check_invariants=check_invariants,
    bots={"random": _RandomBot, "heuristic": HeuristicBot}, summarize=summarize)
register(RULES)


def new_game_from_settings(settings: Mapping[str, int | None]) -> GameState:
    """:func:`new_game` from a settings mapping, as stored in a
    :class:`~cardrules.engine.GameRecord`.

    >>> new_game_from_settings({"max_hand_size": 4}).settings.deals
    7
    """
    return RULES.new_game_from_settings(settings)


def record(state: GameState, actions: Sequence[Action]) -> _GameRecord:
    """A :class:`~cardrules.engine.GameRecord` of ``actions`` played from the
    settings of ``state``.

    >>> print(record(new_game(), [ChooseDealer(3)]).to_text())
    # cardrules back_alley
    max_hand_size 13
    <BLANKLINE>
    dealer 3
    """
    return RULES.record(state, actions)


def replay(game_record: _GameRecord) -> Iterator[GameState]:
    """Every state of a recorded Back Alley game, from the first to the last.

    >>> r = record(new_game(), [ChooseDealer(1)])
    >>> [s.dealer for s in replay(r)]
    [None, 1]
    """
    return RULES.replay(game_record)


def play_game(bots: Sequence[_Bot], *, max_hand_size: int = 13,
              seed: int | None = None) -> GameState:
    """Play a whole game between four ``bots`` (seats 0 to 3); chance from ``seed``.

    Each bot sees only its own :func:`view`.  A thin wrapper over
    :func:`cardrules.engine.play`.

    >>> from cardrules.engine import RandomBot
    >>> final = play_game([RandomBot(1), RandomBot(2), RandomBot(3), RandomBot(4)], seed=5)
    >>> final.is_terminal, len(final.results)
    (True, 25)
    """
    return RULES.play(bots, {"max_hand_size": max_hand_size}, seed=seed).state
