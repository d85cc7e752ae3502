"""Random-playout conformance checks for any game module (OpenSpiel-style).

:func:`check_game` plays random games to the end and checks, at every step,
that the game keeps its promises: the state survives a JSON round trip,
its invariants hold, every legal action is accepted, probed illegal actions
are refused with :class:`~cardrules.IllegalActionError` and the state left
unchanged, views do not change when hidden cards are dealt differently, and
replaying the actions gives the same game.

>>> from cardrules.down_and_back import RULES as db
>>> report = check_game(db, games=1, seed=5, settings={"num_players": 2, "rounds": 1})
>>> report.games, report.actions > 20
(1, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any, cast

import attrs

from cardrules.engine.rules import Rules
from cardrules.errors import ConformanceError, IllegalActionError

__all__ = ["ConformanceReport", "check_game"]


@attrs.frozen(slots=True)
class ConformanceReport:
    """What :func:`check_game` did: games played, actions applied, probes refused.

    >>> ConformanceReport(games=1, actions=10, refused=3).refused
    3
    """

    games: int
    actions: int
    refused: int


def _fail(game: int, step: int, message: str) -> ConformanceError:
    return ConformanceError(f"game {game}, step {step}: {message}")


def check_game(rules: Rules[Any, Any] | ModuleType, *, games: int = 10, seed: int = 0,
               settings: Mapping[str, int | None] | None = None,
               max_legal: int = 8) -> ConformanceReport:
    """Play ``games`` random games of ``rules`` and check every step.

    ``rules`` is a game's :class:`~cardrules.engine.rules.Rules`, or its
    package (such as ``cardrules.back_alley``), whose ``RULES`` is used.
    ``settings`` are passed to the game's ``new_game_from_settings`` (they
    should end the game, for example a number of rounds); by default the
    games cycle through the game's own ``check_settings``, short games at
    every table size.  At most ``max_legal`` legal actions are tried per
    step.  Raises :class:`~cardrules.errors.ConformanceError` on the first
    broken promise.

    >>> from cardrules.down_and_back import RULES as db
    >>> check_game(db, games=4, seed=1).games   # 2, 3, 4 and 5 players
    4
    """
    if isinstance(rules, ModuleType):
        rules = cast(Rules[Any, Any], rules.RULES)
    rng = random.Random(seed)
    cycle = [dict(settings)] if settings is not None else [dict(s) for s in rules.check_settings]
    actions = refused = 0
    for game in range(games):
        start_settings = cycle[game % len(cycle)]
        state = rules.new_game_from_settings(start_settings)
        history: list[object] = []
        step = 0
        while True:
            _check_state(rules, state, game, step, rng)
            if state.is_terminal:
                break
            legal = rules.legal_actions(state)
            if state.is_chance:
                if legal:
                    raise _fail(game, step, "legal_actions must be empty at a chance point")
                action = rules.sample_chance(state, rng)
            else:
                if not legal:
                    raise _fail(game, step, "the player to act has no legal action")
                for candidate in rng.sample(legal, min(max_legal, len(legal))):
                    rules.apply(state, candidate)
                action = rng.choice(legal)
            refused += _probe(rules, state, legal, game, step)
            state = rules.apply(state, action)
            history.append(action)
            actions += 1
            step += 1
        replayed = rules.new_game_from_settings(start_settings)
        for action in history:
            replayed = rules.apply(replayed, action)
        if replayed != state:
            raise _fail(game, step, "replaying the actions gave a different state")
    return ConformanceReport(games=games, actions=actions, refused=refused)


def _check_state(rules: Rules[Any, Any], state: Any, game: int, step: int,
                 rng: random.Random) -> None:
    try:
        rules.check_invariants(state)
    except ValueError as err:
        raise _fail(game, step, f"invariant broken: {err}") from None
    data = json.loads(json.dumps(rules.state_to_dict(state)))
    if rules.state_from_dict(data) != state:
        raise _fail(game, step, "the state did not survive a JSON round trip")
    for seat in range(state.num_players):
        other = rules.hidden_variant(state, seat, rng)
        if rules.view(other, seat) != rules.view(state, seat):
            raise _fail(game, step, f"seat {seat}'s view depends on cards it cannot see")


def _probe(rules: Rules[Any, Any], state: Any, legal: tuple[Any, ...], game: int,
           step: int) -> int:
    before = json.dumps(rules.state_to_dict(state))
    refused = 0
    for probe in rules.probe_actions(state):
        try:
            rules.apply(state, probe)
        except IllegalActionError:
            refused += 1
        else:
            if not state.is_chance and probe not in legal:
                raise _fail(game, step, f"illegal action {probe} was accepted")
        if json.dumps(rules.state_to_dict(state)) != before:
            raise _fail(game, step, f"applying {probe} changed the original state")
    return refused
