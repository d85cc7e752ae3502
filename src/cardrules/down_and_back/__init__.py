"""Down and Back: combination evaluators (DB-1 to DB-25) and the game (DB-30 to DB-44).

Evaluate hands:

>>> from cardrules import parse_cards
>>> from cardrules.down_and_back import best_splits
>>> best = best_splits(parse_cards("8S 8H 8D QH 5C 6C 7C"))
>>> str(best[0].down), str(best[0].back)
('prial of eights (8S 8H 8D QH)', 'bouncer, seven high (5C 6C 7C)')

Play a game with a pure reducer (see :mod:`cardrules.down_and_back.game`):

>>> import random
>>> from cardrules.down_and_back import new_game, apply, legal_actions, sample_chance
>>> rng = random.Random(0)
>>> state = new_game(4, rounds=2)
>>> while not state.is_terminal:
...     action = (sample_chance(state, rng) if state.is_chance
...               else rng.choice(legal_actions(state)))
...     state = apply(state, action)
>>> len(state.results), sum(state.net) + state.pot
(2, 0)

What each game's package holds, and what is reached through ``RULES``
instead: :doc:`/api/index`; every name: :doc:`/api/down_and_back`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cardrules.cards import DECK as _DECK
from cardrules.down_and_back import encoding as _encoding
from cardrules.down_and_back._accel import (
    ACCELERATED,
    best_splits,
    evaluate3,
    evaluate4,
    split_strengths,
    strength3,
    strength4,
)
from cardrules.down_and_back.actions import (
    Action,
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    Shuffle,
    Split,
    action_from_dict,
    action_to_dict,
    parse_action,
)
from cardrules.down_and_back.analysis import ActionOdds, SplitOdds, discard_advice, split_odds
from cardrules.down_and_back.batch import (
    best_splits_batch,
    evaluate3_batch,
    evaluate4_batch,
    split_strengths_batch,
)
from cardrules.down_and_back.bots import GreedyBot, hand_value
from cardrules.down_and_back.bounds import bounds as _bounds
from cardrules.down_and_back.categories import Category3, Category4
from cardrules.down_and_back.checks import check_invariants as _check_invariants
from cardrules.down_and_back.checks import probe_actions as _probe_actions
from cardrules.down_and_back.combos import Combo, SplitOption, splits
from cardrules.down_and_back.determinization import determinize
from cardrules.down_and_back.determinization import hidden_variant as _hidden_variant
from cardrules.down_and_back.events import events as _events
from cardrules.down_and_back.game import (
    apply,
    legal_actions,
    new_game,
    sample_chance,
)
from cardrules.down_and_back.game import chance_pile as _chance_pile
from cardrules.down_and_back.presenter import DownAndBackTable as _Table
from cardrules.down_and_back.search import SearchBot
from cardrules.down_and_back.serialize import state_from_dict, state_to_dict, view_to_dict
from cardrules.down_and_back.state import (
    DEFAULT_ROUNDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    History,
    Phase,
    RoundResult,
    Settings,
    Showdown,
    Stage,
    TieBreakDraw,
)
from cardrules.down_and_back.state import returns as _returns
from cardrules.down_and_back.summary import result_lines as _result_lines
from cardrules.down_and_back.summary import summarize
from cardrules.down_and_back.tally import DownAndBackTally as _Tally
from cardrules.down_and_back.views import View, view
from cardrules.down_and_back.views import public_view as _public_view
from cardrules.engine.bots import Bot as _Bot
from cardrules.engine.bots import RandomBot as _RandomBot
from cardrules.engine.registry import register as _register
from cardrules.engine.rules import Rules as _Rules
from cardrules.engine.selfplay import PlayedGame as _PlayedGame
from cardrules.engine.selfplay import play as _play
from cardrules.engine.tensors import Encoding as _Encoding

if TYPE_CHECKING:
    from cardrules.vector.base import VectorGame as _VectorGame

# One import path per name: engine names (Bot, RandomBot, GameRecord,
# PlayedGame) come from cardrules.engine.  The names below are grouped as
# the package docstring lists them; the ones shared with Back Alley are the
# same kind of thing under the same name there.  The batch evaluators are
# defined in cardrules.down_and_back.batch (numpy is imported only when one
# is called).  What RULES carries (returns, events,
# chance_pile, the encoding, the conformance hooks) is imported under
# private names for the RULES call below only.

__all__ = [  # noqa: RUF022 (grouped by purpose)
    # --- the same names as in cardrules.back_alley ---
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
    # --- Down and Back's own ---
    # evaluating hands (DB-1 to DB-25)
    "ACCELERATED",
    "Category3",
    "Category4",
    "Combo",
    "SplitOption",
    "best_splits",
    "evaluate3",
    "evaluate4",
    "split_strengths",
    "splits",
    "strength3",
    "strength4",
    # ... many at once, with numpy
    "best_splits_batch",
    "evaluate3_batch",
    "evaluate4_batch",
    "split_strengths_batch",
    # the game's settings, actions and the parts of its state (DB-30 to DB-44)
    "DEFAULT_ROUNDS",
    "Cut",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "Split",
    "RoundResult",
    "Showdown",
    "Stage",
    "TieBreakDraw",
    # bots and analysis
    "GreedyBot",
    "hand_value",
    "ActionOdds",
    "SplitOdds",
    "discard_advice",
    "split_odds",
]


def _settings_of(state: GameState) -> Mapping[str, int | None]:
    return {"num_players": state.num_players, "ante": state.ante, "rounds": state.rounds}


def _vector(num_games: int, seed: int, settings: Mapping[str, int | None]) -> _VectorGame:
    # The batch engine needs numpy: imported only when a batch is asked for.
    from cardrules.down_and_back.vector import DownAndBackVector

    num_players, ante, rounds = (settings.get(key) for key in ("num_players", "ante", "rounds"))
    if num_players is None or ante is None or rounds is None:
        raise ValueError("a batch of Down and Back games needs a number of players, an ante "
                         "and a number of rounds (a batch game must end, DB-44)")
    return DownAndBackVector(num_games, seed=seed, num_players=num_players, ante=ante,
                             rounds=rounds)


#: Down and Back's rules for the shared engine: records
#: (``RULES.record``, ``RULES.replay``), self-play (``RULES.play``), the
#: command line, and the conformance hooks ``RULES.check_invariants``,
#: ``RULES.hidden_variant`` and ``RULES.probe_actions`` used by
#: :func:`cardrules.engine.check_game`.
RULES: _Rules[GameState, Action] = _Rules(
    name="down_and_back", title="Down and Back", new_game=new_game,
    default_settings={"num_players": 4, "ante": 1, "rounds": DEFAULT_ROUNDS},
    settings_of=_settings_of, legal_actions=legal_actions, apply=apply,
    sample_chance=sample_chance, view=view, state_to_dict=state_to_dict,
    state_from_dict=state_from_dict, action_to_dict=action_to_dict,
    action_from_dict=action_from_dict, parse_action=parse_action,
    check_settings=tuple({"num_players": n, "ante": 1 + n % 2, "rounds": 2}
                         for n in range(2, 6)),
    probe_actions=_probe_actions, hidden_variant=_hidden_variant,
    check_invariants=_check_invariants,
    bots={"random": _RandomBot, "greedy": GreedyBot, "search": SearchBot}, summarize=summarize,
    returns=_returns, return_unit="net chips", chance_pile=_chance_pile,
    chance_cards=_DECK, events=_events, default_bot="greedy",
    presenter=_Table, result_lines=_result_lines, tally=_Tally,
    encoding=_Encoding(_encoding.NUM_ACTIONS, _encoding.action_id, _encoding.action_from_id,
                       _encoding.legal_action_ids, _encoding.OBSERVATION_SIZE,
                       _encoding.OBSERVATION_LAYOUT, _encoding.seat_tensor,
                       _encoding.seat_string, _encoding.observation_bounds,
                       _encoding.legal_actions_with_ids,
                       _encoding.information_state_layout,
                       _encoding.information_state_bits),
    bounds=_bounds, vector=_vector, view_to_dict=view_to_dict, public_view=_public_view)
_register(RULES)


def is_legal(state: GameState, action: Action, *, seat: int | None = None) -> bool:
    """True when :func:`apply` would accept ``action`` (from ``seat``) in ``state``.

    Only the game rules are asked: something that is not an action, or a
    ``seat`` that is not a seat at the table, still raises as in :func:`apply`.

    >>> state = new_game(3)
    >>> is_legal(state, ChooseDealer(2)), is_legal(state, ChooseDealer(3))
    (True, False)
    >>> is_legal(state, Cut(5))   # a cut before the first dealer is chosen (DB-31)
    False
    """
    return RULES.is_legal(state, action, seat=seat)


def play_game(bots: Sequence[_Bot], *, seed: int | None = None, max_actions: int | None = None,
              **settings: int | None) -> _PlayedGame[GameState]:
    """Play a whole game between ``bots`` (one per seat, 2 to 5); chance from ``seed``.

    ``settings`` are the game's (``ante``, ``rounds``; defaults for those
    left out, and ``num_players`` is ``len(bots)``).  Each bot sees only its
    own :func:`view`.  Returns the :class:`~cardrules.engine.PlayedGame`:
    the final ``state`` and the ``record`` that replays to it.  The same
    function as every game's ``play_game``: :func:`cardrules.engine.play`
    with :data:`RULES`.

    >>> from cardrules.engine import RandomBot
    >>> game = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], rounds=3, seed=4)
    >>> game.state.is_terminal, len(game.state.results), sum(game.state.net) + game.state.pot
    (True, 3, 0)
    >>> list(RULES.replay(game.record))[-1] == game.state
    True
    >>> play_game([RandomBot(1), RandomBot(2)], deals=3)
    Traceback (most recent call last):
    ...
    ValueError: unknown Down and Back setting 'deals' (known: num_players, ante, rounds)
    """
    return _play(RULES, bots, settings, seed=seed, max_actions=max_actions)
