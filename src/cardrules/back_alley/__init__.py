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
>>> game = play_game([RandomBot(seed) for seed in range(4)], max_hand_size=2, seed=1)
>>> game.state.is_terminal, len(game.state.results), RULES.replay(game.record) is not None
(True, 3, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardrules.back_alley import encoding as _encoding
from cardrules.back_alley.actions import CARDS as _CARDS
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
from cardrules.back_alley.analysis import BidValue, TrickEstimate, trick_estimate
from cardrules.back_alley.bots import HeuristicBot
from cardrules.back_alley.checks import check_invariants, hidden_variant, probe_actions
from cardrules.back_alley.determinize import Determinizer, determinize
from cardrules.back_alley.encoding import (
    NUM_ACTIONS,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    action_from_id,
    action_id,
    legal_action_ids,
    observation_string,
    observation_tensor,
)
from cardrules.back_alley.events import events as _events
from cardrules.back_alley.game import apply, first_leader, legal_actions, new_game, sample_chance
from cardrules.back_alley.game import chance_pile as _chance_pile
from cardrules.back_alley.search import SearchBot
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
from cardrules.back_alley.state import returns as _returns
from cardrules.back_alley.tally import BackAlleyTally as _Tally
from cardrules.back_alley.views import View, view
from cardrules.engine.bots import Bot as _Bot
from cardrules.engine.bots import RandomBot as _RandomBot
from cardrules.engine.play import PlayedGame as _PlayedGame
from cardrules.engine.registry import register
from cardrules.engine.rules import Rules
from cardrules.engine.tensors import Encoding as _Encoding

# The engine's Bot, RandomBot and PlayedGame are imported under private names:
# users import them from cardrules.engine, their one import path.  The
# conformance hooks (check_invariants, hidden_variant, probe_actions) and the
# record helpers are reached through RULES (or the checks module).

__all__ = [  # noqa: RUF022 (grouped by purpose)
    # the game
    "NUM_PLAYERS",
    "RULES",
    "apply",
    "is_legal",
    "legal_actions",
    "new_game",
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
    # numbers and tensors for learning libraries (OpenSpiel, PettingZoo, ...)
    "NUM_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "action_from_id",
    "action_id",
    "legal_action_ids",
    "observation_string",
    "observation_tensor",
    # bots, self-play and summaries
    "HeuristicBot",
    "SearchBot",
    "play_game",
    "summarize",
    # analysis (issue 10)
    "BidValue",
    "Determinizer",
    "TrickEstimate",
    "determinize",
    "trick_estimate",
]

#: Short games (5 and 3 deals) for conformance runs; full games are tested apart.
_CHECK_SETTINGS: tuple[Mapping[str, int | None], ...] = (
    {"max_hand_size": 3}, {"max_hand_size": 2})


def _settings_of(state: GameState) -> Mapping[str, int | None]:
    return state.settings.to_dict()


#: Back Alley's rules for the shared engine (records, replay, self-play, conformance).
RULES: Rules[GameState, Action] = Rules(
    name="back_alley", title="Back Alley", new_game=new_game,
    default_settings=Settings().to_dict(), settings_of=_settings_of,
    legal_actions=legal_actions, apply=apply, sample_chance=sample_chance, view=view,
    state_to_dict=state_to_dict, state_from_dict=state_from_dict,
    action_to_dict=action_to_dict, action_from_dict=action_from_dict,
    parse_action=parse_action, check_settings=_CHECK_SETTINGS, probe_actions=probe_actions,
    hidden_variant=hidden_variant, check_invariants=check_invariants,
    bots={"random": _RandomBot, "heuristic": HeuristicBot, "search": SearchBot},
    summarize=summarize,
    returns=_returns, return_unit="team points", chance_pile=_chance_pile,
    chance_cards=_CARDS, events=_events, default_bot="heuristic", tally=_Tally,
    encoding=_Encoding(NUM_ACTIONS, action_id, action_from_id, legal_action_ids,
                       OBSERVATION_SIZE, OBSERVATION_LAYOUT, _encoding.seat_tensor,
                       _encoding.seat_string))
register(RULES)


def is_legal(state: GameState, action: Action, *, seat: int | None = None) -> bool:
    """True when :func:`apply` would accept ``action`` (from ``seat``) in ``state``.

    Only the game rules are asked: something that is not an action, or a
    ``seat`` that is not a seat at the table, still raises as in :func:`apply`.

    >>> state = new_game()
    >>> is_legal(state, ChooseDealer(3)), is_legal(state, ChooseDealer(4))
    (True, False)
    >>> is_legal(state, Pass())   # no bidding before the deal (BA-11)
    False
    """
    return RULES.is_legal(state, action, seat=seat)


def play_game(bots: Sequence[_Bot], *, max_hand_size: int = 13,
              seed: int | None = None) -> _PlayedGame[GameState]:
    """Play a whole game between four ``bots`` (seats 0 to 3); chance from ``seed``.

    Each bot sees only its own :func:`view`.  Returns the
    :class:`~cardrules.engine.PlayedGame`: the final ``state`` and the
    ``record`` that replays to it.  A thin wrapper over
    :func:`cardrules.engine.play` with :data:`RULES`.

    >>> from cardrules.engine import RandomBot
    >>> game = play_game([RandomBot(1), RandomBot(2), RandomBot(3), RandomBot(4)], seed=5)
    >>> game.state.is_terminal, len(game.state.results), len(game.record.actions) > 500
    (True, 25, True)
    """
    return RULES.play(bots, {"max_hand_size": max_hand_size}, seed=seed)
