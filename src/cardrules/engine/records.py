"""Game records: the settings and the list of actions, as JSON and as text.

A record replays to the identical state, because every random event is an
explicit chance action in the list.  The game is named in the record, and
its rules (:class:`~cardrules.engine.rules.Rules`) read and applies the
actions.

>>> import cardrules.down_and_back as db
>>> record = GameRecord("down_and_back", {"num_players": 2, "ante": 1, "rounds": 1},
...                     (db.ChooseDealer(1),))
>>> print(record.to_text())
# cardrules down_and_back
num_players 2
ante 1
rounds 1
<BLANKLINE>
dealer 1
>>> GameRecord.from_text(record.to_text()) == record
True

Loading trusts nothing: every bad line of a text record, every bad action of
a JSON record, unknown keys, settings the game refuses, numbers of absurd
length and JSON nested too deeply are a :class:`~cardrules.ParseError` that
says where (``line N`` or ``action N``).  :meth:`GameRecord.load` and
:meth:`GameRecord.dump` read and write files, like a PGN reader.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from cardrules._validate import is_int
from cardrules.engine.registry import rules_for
from cardrules.engine.rules import Rules
from cardrules.errors import ParseError, shorten

__all__ = ["GameRecord"]

_HEADER = "# cardrules "


def _settings(value: Mapping[str, int | None]) -> tuple[tuple[str, int | None], ...]:
    if not isinstance(value, Mapping):
        raise ParseError(f"settings are a mapping of names to whole numbers or null, "
                         f"not {type(value).__name__}")
    items = tuple(value.items())
    for key, item in items:
        if not isinstance(key, str):
            raise ParseError("setting names are text", token=repr(key))
        if not (item is None or is_int(item)):
            raise ParseError(f"setting {shorten(key)!r} must be a whole number or null",
                             token=repr(item))
    return items


def _actions(value: Iterable[object]) -> tuple[object, ...]:
    return tuple(value)


@attrs.frozen(slots=True)
class GameRecord:
    """A game as its settings plus every action, chance actions included.

    ``settings`` are the keyword arguments of the game's ``new_game`` (kept
    as a tuple of pairs so the record stays hashable); ``actions`` are the
    game's action objects.

    >>> GameRecord("down_and_back", {"num_players": 3}, ()).settings_dict
    {'num_players': 3}
    """

    game: str
    settings: tuple[tuple[str, int | None], ...] = attrs.field(converter=_settings)
    actions: tuple[object, ...] = attrs.field(converter=_actions)

    @property
    def settings_dict(self) -> dict[str, int | None]:
        """The settings as a dict.

        >>> GameRecord("down_and_back", {"num_players": 2, "rounds": None}, ()).settings_dict
        {'num_players': 2, 'rounds': None}
        """
        return dict(self.settings)

    @property
    def rules(self) -> Rules[Any, Any]:
        """The rules of this record's game.

        >>> GameRecord("down_and_back", {"num_players": 2}, ()).rules.name
        'down_and_back'
        """
        return rules_for(self.game)

    def to_dict(self) -> dict[str, object]:
        """The record as JSON-ready values.

        >>> GameRecord("down_and_back", {"num_players": 2}, ()).to_dict()
        {'game': 'down_and_back', 'settings': {'num_players': 2}, 'actions': []}
        """
        rules = self.rules
        return {"game": self.game, "settings": self.settings_dict,
                "actions": [rules.action_to_dict(a) for a in self.actions]}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> GameRecord:
        """Read a record from :meth:`to_dict`'s form.

        >>> GameRecord.from_dict({"game": "down_and_back", "settings": {"num_players": 2},
        ...                       "actions": [{"type": "dealer", "seat": 0}]}).actions
        (ChooseDealer(seat=0),)
        """
        if not isinstance(data, Mapping):
            raise ParseError("a record is a JSON object")
        game, settings, actions = data.get("game"), data.get("settings"), data.get("actions")
        if not isinstance(game, str) or not isinstance(settings, Mapping) \
                or not isinstance(actions, list):
            raise ParseError("a record has 'game', 'settings' and 'actions'",
                             token=repr(data)[:80])
        rules = rules_for(game)
        return cls(game, settings, tuple(rules.action_from_dict(a) for a in actions))

    def to_json(self, *, indent: int | None = None) -> str:
        """The record as JSON text.

        >>> GameRecord("down_and_back", {"num_players": 2}, ()).to_json()
        '{"game": "down_and_back", "settings": {"num_players": 2}, "actions": []}'
        """
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record from JSON text; malformed input raises ParseError.

        >>> GameRecord.from_json('{"game": "down_and_back"')
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: not valid JSON (Expecting ',' delimiter) at position 24
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ParseError(f"not valid JSON ({err.msg})", position=err.pos) from None
        return cls.from_dict(data)

    def to_text(self) -> str:
        """A readable form: a header, ``name value`` settings, a blank line,
        then one action per line in its text form.

        >>> print(GameRecord("down_and_back", {"num_players": 2, "rounds": None}, ()).to_text())
        # cardrules down_and_back
        num_players 2
        rounds open
        <BLANKLINE>
        """
        lines = [_HEADER + self.game]
        lines += [f"{k} {'open' if v is None else v}" for k, v in self.settings]
        lines.append("")
        lines += [str(a) for a in self.actions]
        return "\n".join(lines) + ("\n" if self.actions else "")

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read :meth:`to_text`'s form; ``#`` lines after the header are comments.

        >>> GameRecord.from_text("# cardrules down_and_back\\nnum_players 2\\n\\ncut x")
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: line 4: expected a whole number: 'x' at position 4
        """
        lines = text.splitlines()
        if not lines or not lines[0].startswith(_HEADER):
            raise ParseError("a record starts with '# cardrules GAME'",
                             token=lines[0] if lines else "", position=0)
        game = lines[0][len(_HEADER):].strip()
        rules = rules_for(game)
        settings: dict[str, int | None] = {}
        number = 1
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                break
            if line.lstrip().startswith("#"):
                continue
            parts = line.split()
            if len(parts) != 2 or not (parts[1] == "open" or parts[1].isdigit()):
                raise ParseError(f"line {number}: a setting is 'name number' or 'name open'",
                                 token=line, position=0)
            name, value = parts
            if name in settings:
                raise ParseError(f"line {number}: setting given twice", token=name,
                                 position=line.index(name))
            settings[name] = None if value == "open" else int(value)
        actions = []
        for offset, line in enumerate(lines[number:], start=number + 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                actions.append(rules.parse_action(line))
            except ParseError as err:
                raise ParseError(f"line {offset}: {err.message}", token=err.token,
                                 position=err.position) from None
        return cls(game, settings, tuple(actions))

    def replay(self) -> Iterator[object]:
        """Every state of the game, from the initial one to the last.

        >>> record = GameRecord("down_and_back", {"num_players": 2}, ())
        >>> [s.phase.name for s in record.replay()]
        ['CHOOSE_DEALER']
        """
        return self.rules.replay(self)
