"""Finding a game's :class:`~cardrules.engine.rules.Rules` by name.

Records name their game (``"down_and_back"``, ``"back_alley"``), so the
engine must find the rules from the name alone.  A game package registers
its ``RULES`` when it is imported; a name not yet registered is looked up
among the ``cardrules.games`` entry points (so other packages can add
games) and then as the built-in package ``cardrules.<name>``.

Every entry point that takes a game's name (the command, the server,
:func:`cardrules.simulate`, :func:`cardrules.vector.make`, the PettingZoo
environments) finds it here, so a name is read the same way everywhere: in
any case, with ``-`` or ``_`` (:func:`~cardrules.engine.rules_for`), and
shown to people as :func:`~cardrules.engine.display_name` spells it.

>>> rules_for("down_and_back").title
'Down and Back'
>>> rules_for("Down-And-Back") is rules_for("down_and_back")
True
>>> "down_and_back" in games()
True
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from cardrules.errors import ParseError
from cardrules.i18n import lazy_gettext

if TYPE_CHECKING:
    from cardrules.engine.rules import Rules

__all__ = ["ENTRY_POINT_GROUP", "display_name", "display_names", "games", "register",
           "rules_for"]

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


def _key(name: str) -> str:
    """A name as compared: case and ``-``/``_`` do not matter (ASCII names)."""
    name = name.strip()
    return name.lower().replace("-", "_") if name.isascii() else name


def _found(name: str) -> Rules[Any, Any] | None:
    """The rules registered, declared or built in under exactly ``name``."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    for point in entry_points(group=ENTRY_POINT_GROUP, name=name):
        return register(point.load())
    if name in BUILT_IN:
        importlib.import_module(f"cardrules.{name}")
        return _REGISTERED.get(name)
    return None


def rules_for(game: str | Rules[Any, Any]) -> Rules[Any, Any]:
    """The rules of the game called ``game``, its name in any case and with
    ``-`` or ``_`` (``"Down-And-Back"`` is ``"down_and_back"``); a
    :class:`~cardrules.engine.Rules` is returned as it is.
    :class:`~cardrules.ParseError` (a :class:`ValueError`) for a name no
    game has, listing the games there are.

    >>> rules_for("BACK-ALLEY").name
    'back_alley'
    >>> rules_for("go fish")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: unknown game (choose from down-and-back, back-alley...): 'go fish'
    """
    from cardrules.engine.rules import Rules

    if isinstance(game, Rules):
        return game
    if not isinstance(game, str):
        raise ParseError(lazy_gettext("a game name is text"), token=repr(game))
    for name in dict.fromkeys((game, _key(game))):
        found = _found(name)
        if found is not None:
            return found
    key = _key(game)
    for name in games():   # a game registered under a name in capitals or with dashes
        if _key(name) == key:
            return _REGISTERED[name] if name in _REGISTERED else _found_or_fail(name)
    raise ParseError(lazy_gettext("unknown game (choose from {games})",
                                  games=", ".join(display_names())), token=game)


def _found_or_fail(name: str) -> Rules[Any, Any]:
    found = _found(name)
    if found is None:   # pragma: no cover - games() lists only names that are found
        raise ParseError(lazy_gettext("unknown game"), token=name)
    return found


def games() -> tuple[str, ...]:
    """The names of every game that can be found, as records write them, sorted.

    >>> "down_and_back" in games()
    True
    """
    names = set(_REGISTERED) | {p.name for p in entry_points(group=ENTRY_POINT_GROUP)}
    for name in BUILT_IN:
        try:
            found = _found(name)
        except ImportError:
            continue
        if found is not None:
            names.add(name)
    return tuple(sorted(names))


def display_name(game: str | Rules[Any, Any]) -> str:
    """How people type and read a game's name: the registry name with ``-``
    for ``_`` (what the command, the server and error messages show).

    >>> display_name("down_and_back"), display_name(rules_for("back_alley"))
    ('down-and-back', 'back-alley')
    """
    name = game if isinstance(game, str) else game.name
    return name.replace("_", "-")


def display_names() -> tuple[str, ...]:
    """Every game that can be found, as :func:`display_name` spells it: the
    built-in games first, then the others by name.

    >>> display_names()[:2]
    ('down-and-back', 'back-alley')
    """
    found = games()
    ordered = [name for name in BUILT_IN if name in found]
    ordered += sorted(set(found) - set(BUILT_IN))
    return tuple(display_name(name) for name in ordered)
