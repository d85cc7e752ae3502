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
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

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
from cardrules.down_and_back.batch import (
    best_splits_batch,
    evaluate3_batch,
    evaluate4_batch,
    split_strengths_batch,
)
from cardrules.down_and_back.bots import GreedyBot, hand_value
from cardrules.down_and_back.categories import Category3, Category4
from cardrules.down_and_back.checks import check_invariants, hidden_variant, probe_actions
from cardrules.down_and_back.evaluate import Combo, SplitOption, splits
from cardrules.down_and_back.game import apply, legal_actions, new_game, sample_chance
from cardrules.down_and_back.serialize import state_from_dict, state_to_dict, view_to_dict
from cardrules.down_and_back.state import (
    DEFAULT_ROUNDS,
    GameSettings,
    GameState,
    Ledger,
    Phase,
    RoundResult,
    Showdown,
    Stage,
    TieBreakDraw,
)
from cardrules.down_and_back.summary import summarize
from cardrules.down_and_back.views import View, view
from cardrules.engine.bots import Bot, RandomBot
from cardrules.engine.records import GameRecord
from cardrules.engine.registry import register
from cardrules.engine.rules import Rules

__all__ = [
    "ACCELERATED",
    "CHECK_SETTINGS",
    "DEFAULT_ROUNDS",
    "NAME",
    "RULES",
    "Action",
    "Category3",
    "Category4",
    "ChooseDealer",
    "Combo",
    "Cut",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "GameRecord",
    "GameSettings",
    "GameState",
    "GreedyBot",
    "Ledger",
    "Phase",
    "RandomBot",
    "RoundResult",
    "Showdown",
    "Shuffle",
    "Split",
    "SplitOption",
    "Stage",
    "TieBreakDraw",
    "View",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "best_splits",
    "best_splits_batch",
    "check_invariants",
    "evaluate3",
    "evaluate3_batch",
    "evaluate4",
    "evaluate4_batch",
    "hand_value",
    "hidden_variant",
    "legal_actions",
    "new_game",
    "new_game_from_settings",
    "parse_action",
    "play_game",
    "probe_actions",
    "record",
    "replay",
    "sample_chance",
    "split_strengths",
    "split_strengths_batch",
    "splits",
    "state_from_dict",
    "state_to_dict",
    "strength3",
    "strength4",
    "view",
    "view_to_dict",
]

#: The game's name in records.
NAME = "down_and_back"
#: Settings :func:`cardrules.engine.check_game` cycles through by default.
CHECK_SETTINGS: tuple[Mapping[str, int | None], ...] = tuple(
    {"num_players": n, "ante": 1 + n % 2, "rounds": 2} for n in range(2, 6))


def _settings_of(state: GameState) -> Mapping[str, int | None]:
    return {"num_players": state.num_players, "ante": state.ante, "rounds": state.rounds}


#: Down and Back's rules for the shared engine (records, replay, self-play, conformance).
RULES: Rules[GameState, Action] = Rules(
    name=NAME, title="Down and Back", new_game=new_game,
    default_settings={"num_players": 4, "ante": 1, "rounds": DEFAULT_ROUNDS},
    settings_of=_settings_of, legal_actions=legal_actions, apply=apply,
    sample_chance=sample_chance, view=view, state_to_dict=state_to_dict,
    state_from_dict=state_from_dict, action_to_dict=action_to_dict,
    action_from_dict=action_from_dict, parse_action=parse_action,
    check_settings=CHECK_SETTINGS, probe_actions=probe_actions,
    hidden_variant=hidden_variant, check_invariants=check_invariants,
    bots={"random": RandomBot, "greedy": GreedyBot}, summarize=summarize)
register(RULES)


def new_game_from_settings(settings: Mapping[str, int | None]) -> GameState:
    """:func:`new_game` from a settings mapping, as stored in a :class:`GameRecord`.

    >>> new_game_from_settings({"num_players": 3, "ante": 2}).ante
    2
    """
    return RULES.new_game_from_settings(settings)


def record(state: GameState, actions: Sequence[Action]) -> GameRecord:
    """A :class:`GameRecord` of ``actions`` played from the settings of ``state``.

    >>> record(new_game(2, rounds=1), [ChooseDealer(0)]).to_text().splitlines()[-1]
    'dealer 0'
    """
    return RULES.record(state, actions)


def replay(game_record: GameRecord) -> Iterator[GameState]:
    """Every state of a recorded Down and Back game, from the first to the last.

    >>> r = record(new_game(2), [ChooseDealer(1)])
    >>> [s.dealer for s in replay(r)]
    [None, 1]
    """
    return RULES.replay(game_record)


def play_game(bots: Sequence[Bot], *, ante: int = 1, rounds: int = 1,
              seed: int | None = None) -> GameState:
    """Play a whole game between ``bots`` (one per seat); chance from ``seed``.

    Each bot sees only its own :func:`view`.

    >>> final = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], rounds=3, seed=4)
    >>> final.is_terminal, sum(final.net) + final.pot
    (True, 0)
    """
    return RULES.play(bots, {"ante": ante, "rounds": rounds}, seed=seed).state
