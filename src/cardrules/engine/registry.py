"""Finding a game's :class:`~cardrules.engine.rules.Rules` by name.

Records name their game (``"down_and_back"``, ``"back_alley"``), so the
engine must find the rules from the name alone.  A game package registers
its ``RULES`` when it is imported; a name not yet registered is looked up
among the ``cardrules.games`` entry points (so other packages can add
games) and then as the built-in package ``cardrules.<name>``.

>>> rules_for("down_and_back").title
'Down and Back'
>>> "down_and_back" in games()
True
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from cardrules.errors import ParseError

if TYPE_CHECKING:
    from cardrules.engine.rules import Rules

__all__ = ["ENTRY_POINT_GROUP", "games", "register", "rules_for"]

#: The entry-point group where other packages can declare games.
ENTRY_POINT_GROUP = "cardrules.games"
#: The games that ship with cardrules (each is the package ``cardrules.<name>``).
BUILT_IN = ("down_and_back", "back_alley")

_REGISTERED: dict[str, Rules[Any, Any]] = {}


def register(rules: Rules[Any, Any]) -> Rules[Any, Any]:
    """Make ``rules`` findable by its name; returns it unchanged.

    >>> from cardrules.down_and_back import RULES
    >>> register(RULES) is RULES
    True
    """
    _REGISTERED[rules.name] = rules
    return rules


def rules_for(game: str) -> Rules[Any, Any]:
    """The rules of the game called ``game``; :class:`~cardrules.ParseError`
    for a name no game has.

    >>> rules_for("go fish")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown game: 'go fish'
    """
    if not isinstance(game, str):
        raise ParseError("a game name is text", token=repr(game))
    if game in _REGISTERED:
        return _REGISTERED[game]
    for point in entry_points(group=ENTRY_POINT_GROUP, name=game):
        return register(point.load())
    if game in BUILT_IN:
        importlib.import_module(f"cardrules.{game}")
        if game in _REGISTERED:
            return _REGISTERED[game]
    raise ParseError("unknown game", token=game)


def games() -> tuple[str, ...]:
    """The names of every game that can be found, sorted.

    >>> "down_and_back" in games()
    True
    """
    names = set(_REGISTERED) | {p.name for p in entry_points(group=ENTRY_POINT_GROUP)}
    for name in BUILT_IN:
        try:
            rules_for(name)
        except (ImportError, ParseError):
            continue
        names.add(name)
    return tuple(sorted(names))
