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

What each game's package holds, and what is reached through ``RULES``
instead: :doc:`/api/index`; every name: :doc:`/api/back_alley`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

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
from cardrules.back_alley.bounds import MAX_THROW_INS as _MAX_THROW_INS
from cardrules.back_alley.bounds import bounds as _bounds
from cardrules.back_alley.checks import check_invariants as _check_invariants
from cardrules.back_alley.checks import probe_actions as _probe_actions
from cardrules.back_alley.determinization import Determinizer, determinize
from cardrules.back_alley.determinization import hidden_variant as _hidden_variant
from cardrules.back_alley.double_dummy import DoubleDummyBot, max_tricks, play_values
from cardrules.back_alley.double_dummy import double_dummy_text as _double_dummy_text
from cardrules.back_alley.events import events as _events
from cardrules.back_alley.game import (
    apply,
    first_leader,
    legal_actions,
    new_game,
    sample_chance,
)
from cardrules.back_alley.game import chance_pile as _chance_pile
from cardrules.back_alley.presenter import BackAlleyTable as _Table
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
    team_of,
)
from cardrules.back_alley.state import returns as _returns
from cardrules.back_alley.summary import result_lines as _result_lines
from cardrules.back_alley.summary import summarize
from cardrules.back_alley.tally import BackAlleyTally as _Tally
from cardrules.back_alley.views import View, view
from cardrules.back_alley.views import public_view as _public_view
from cardrules.engine.bots import Bot as _Bot
from cardrules.engine.bots import RandomBot as _RandomBot
from cardrules.engine.registry import register as _register
from cardrules.engine.rules import Rules as _Rules
from cardrules.engine.selfplay import PlayedGame as _PlayedGame
from cardrules.engine.selfplay import play as _play
from cardrules.engine.tensors import Encoding as _Encoding

if TYPE_CHECKING:
    from cardrules.vector.base import VectorGame as _VectorGame

# The engine's Bot, RandomBot and PlayedGame are imported under private names:
# users import them from cardrules.engine, their one import path.  The names
# below are grouped as the package docstring lists them; the ones shared with
# Down and Back are the same kind of thing under the same name there.  What
# RULES carries (returns, events, chance_pile, the encoding, the conformance
# hooks) is imported under private names for the RULES call below only.

__all__ = [  # noqa: RUF022 (grouped by purpose)
    # --- the same names as in cardrules.down_and_back ---
    # the rules, for the shared engine: records, replay, self-play, conformance
    "RULES",
    # playing
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "apply",
    "is_legal",
    "legal_actions",
    "new_game",
    "play_game",
    "sample_chance",
    # actions (ChooseDealer and Shuffle are the engine's chance actions, part of Action)
    "Action",
    "ChooseDealer",
    "Shuffle",
    "action_from_dict",
    "action_to_dict",
    "parse_action",
    # the state
    "GameState",
    "History",
    "Phase",
    "Settings",
    # how the game stands, in a few lines for people
    "summarize",
    # what one seat may know, JSON, and full states drawn to fit a view
    "View",
    "determinize",
    "state_from_dict",
    "state_to_dict",
    "view",
    "view_to_dict",
    # bots
    "SearchBot",
    # --- Back Alley's own ---
    # a table of exactly four (BA-1)
    "NUM_PLAYERS",
    # the game's actions and the parts of its state
    "Bid",
    "BidAction",
    "Board",
    "Pass",
    "Play",
    "Contract",
    "Deal",
    "DealResult",
    "Trick",
    # rule helpers
    "board_levels",
    "contract_of",
    "first_leader",
    "hand_size_of",
    "score",
    "team_of",
    # bots and analysis
    "HeuristicBot",
    "BidValue",
    "Determinizer",
    "TrickEstimate",
    "trick_estimate",
    # the double-dummy solver and bot
    "max_tricks",
    "play_values",
    "DoubleDummyBot",
]

#: The smallest table Back Alley is played at: four, :data:`NUM_PLAYERS` (BA-1).
MIN_PLAYERS = NUM_PLAYERS
#: The largest table Back Alley is played at: four, :data:`NUM_PLAYERS` (BA-1).
MAX_PLAYERS = NUM_PLAYERS

#: Short games (5 and 3 deals) for conformance runs; full games are tested apart.
_CHECK_SETTINGS: tuple[Mapping[str, int | None], ...] = (
    {"max_hand_size": 3}, {"max_hand_size": 2})


def _settings_of(state: GameState) -> Mapping[str, int | None]:
    return state.settings.to_dict()


def _vector(num_games: int, seed: int, settings: Mapping[str, int | None]) -> _VectorGame:
    # The batch engine needs numpy: imported only when a batch is asked for.
    from cardrules.back_alley.vector import BackAlleyVector

    size = settings.get("max_hand_size")
    return BackAlleyVector(num_games, seed=seed,
                           max_hand_size=Settings().max_hand_size if size is None else size)


#: Back Alley's rules for the shared engine (records, replay, self-play, conformance).
RULES: _Rules[GameState, Action] = _Rules(
    name="back_alley", title="Back Alley", new_game=new_game,
    default_settings=Settings().to_dict(), settings_of=_settings_of,
    legal_actions=legal_actions, apply=apply, sample_chance=sample_chance, view=view,
    state_to_dict=state_to_dict, state_from_dict=state_from_dict,
    action_to_dict=action_to_dict, action_from_dict=action_from_dict,
    parse_action=parse_action, check_settings=_CHECK_SETTINGS, probe_actions=_probe_actions,
    hidden_variant=_hidden_variant, check_invariants=_check_invariants,
    bots={"random": _RandomBot, "heuristic": HeuristicBot, "search": SearchBot,
          "dd": DoubleDummyBot},
    summarize=summarize,
    returns=_returns, return_unit="team points", chance_pile=_chance_pile,
    chance_cards=_CARDS, events=_events, default_bot="heuristic",
    presenter=_Table, result_lines=_result_lines, tally=_Tally,
    encoding=_Encoding(_encoding.NUM_ACTIONS, _encoding.action_id, _encoding.action_from_id,
                       _encoding.legal_action_ids, _encoding.OBSERVATION_SIZE,
                       _encoding.OBSERVATION_LAYOUT, _encoding.seat_tensor,
                       _encoding.seat_string, _encoding.observation_bounds,
                       _encoding.legal_actions_with_ids,
                       _encoding.information_state_layout,
                       _encoding.information_state_bits),
    bounds=_bounds, limit_settings={"max_throw_ins": _MAX_THROW_INS}, vector=_vector,
    view_to_dict=view_to_dict, public_view=_public_view,
    double_dummy=_double_dummy_text)
_register(RULES)


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


def play_game(bots: Sequence[_Bot], *, seed: int | None = None, max_actions: int | None = None,
              **settings: int | None) -> _PlayedGame[GameState]:
    """Play a whole game between four ``bots`` (seats 0 to 3); chance from ``seed``.

    ``settings`` are the game's (``max_hand_size``, 13 unless told
    otherwise).  Each bot sees only its own :func:`view`.  Returns the
    :class:`~cardrules.engine.PlayedGame`: the final ``state`` and the
    ``record`` that replays to it.  The same function as every game's
    ``play_game``: :func:`cardrules.engine.play` with :data:`RULES`.

    >>> from cardrules.engine import RandomBot
    >>> game = play_game([RandomBot(1), RandomBot(2), RandomBot(3), RandomBot(4)], seed=5)
    >>> game.state.is_terminal, len(game.state.results), len(game.record.actions) > 500
    (True, 25, True)
    """
    return _play(RULES, bots, settings, seed=seed, max_actions=max_actions)
