"""The games and bots as the ``cardrules`` command names them: the built-in
games first (a game's name is read by the registry,
:func:`cardrules.engine.rules_for`), and the bots ``--bots`` names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardrules.engine.presenter import game_title
from cardrules.engine.registry import BUILT_IN, display_name
from cardrules.i18n import gettext, pgettext

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.rules import Rules

#: The built-in games as the command spells them.  Every game the registry
#: finds is accepted (:func:`cardrules.engine.rules_for` reads a name in any
#: case, with ``-`` or ``_``).
GAME_NAMES = tuple(display_name(name) for name in BUILT_IN)
#: The game ``play`` and ``simulate`` play when none is named: the first built-in game.
DEFAULT_GAME = GAME_NAMES[0]


def registered_bots() -> str:
    """Every registered game with the names of its bots, for ``--help``.

    >>> "Back Alley: dd, heuristic, random, search; Down and Back: greedy" in registered_bots()
    True
    """
    from cardrules.engine.registry import games, rules_for

    found = [rules_for(name) for name in games()]
    return "; ".join(f"{game_title(rules)}: {', '.join(sorted(rules.bots))}"
                     for rules in found)


def default_bots() -> str:
    """Every registered game's default bot (``Rules.default_bot``), for ``--help``.

    >>> "heuristic for Back Alley, greedy for Down and Back" in default_bots()
    True
    """
    from cardrules.engine.registry import games, rules_for

    found = [rules_for(name) for name in games()]
    return pgettext("list", ", ").join(gettext("{bot} for {game}").format(
        bot=rules.default_bot, game=game_title(rules)) for rules in found)


def bot_kinds(rules: Rules[Any, Any], spec: str, seats: int,
              human: int | None = None) -> list[str]:
    """One bot name per seat from ``--bots`` (one name, or one per seat).

    With a person at seat ``human`` that seat's entry is not used (it may
    be written ``human``).
    """
    kinds = spec.split(",")
    if len(kinds) == 1:
        kinds *= seats
    names = ", ".join(rules.bots)
    allowed = set(rules.bots)
    if len(kinds) != seats or not all(
            kind in allowed or (seat == human and kind == "human")
            for seat, kind in enumerate(kinds)):
        raise ValueError(gettext("--bots is one of {names}, or one name per seat ({seats} seats), "
                                 "separated by commas").format(names=names, seats=seats))
    return kinds


def bots(rules: Rules[Any, Any], spec: str, seats: int, seed: int) -> list[Bot]:
    """Seeded bots for every seat from ``--bots``."""
    return [rules.bots[kind](seed + seat)
            for seat, kind in enumerate(bot_kinds(rules, spec, seats))]


def bots_around(rules: Rules[Any, Any], spec: str | None, seats: int, seed: int,
                human: int) -> dict[int, Bot]:
    """Seeded bots for every seat but ``human``'s (the game's
    ``Rules.default_bot`` unless ``spec`` names others); seat ``s`` gets seed
    ``seed + s``.

    >>> from cardrules.back_alley import RULES
    >>> {seat: type(bot).__name__ for seat, bot in bots_around(RULES, None, 4, 1, 2).items()}
    {0: 'HeuristicBot', 1: 'HeuristicBot', 3: 'HeuristicBot'}
    """
    kinds = bot_kinds(rules, rules.default_bot if spec is None else spec, seats, human)
    return {seat: rules.bots[kind](seed + seat)
            for seat, kind in enumerate(kinds) if seat != human}
