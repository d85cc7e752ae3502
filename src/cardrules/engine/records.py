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

Every action of a record is made by the player to act (or by chance),
except where a game lets another seat act: Down and Back's splits may be
made in any order (DB-40), and a split by a seat other than the player to
act is kept as a :class:`Seated` entry, ``seat 2: split ...`` in text and
``{"type": "seated", "seat": 2, "action": {...}}`` in JSON.

Loading trusts nothing: every bad line of a text record, every bad action of
a JSON record, unknown keys, settings the game refuses, numbers of absurd
length and JSON nested too deeply are a :class:`~cardrules.ParseError` that
says where (``line N`` or ``action N``).  :meth:`GameRecord.load` and
:meth:`GameRecord.dump` read and write files, like a PGN reader.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from cardrules._validate import is_int
from cardrules.engine.readers import (
    BLANKS,
    MAX_DIGITS,
    Fields,
    check_digits,
    check_numbers,
    int_token,
    split_verb,
)
from cardrules.engine.registry import rules_for
from cardrules.engine.rules import Rules
from cardrules.errors import ParseError, shorten

__all__ = ["MAX_RECORD_SIZE", "MAX_SETTINGS", "GameRecord", "Seated"]

#: The longest record the readers take by default: 4 MiB of text (a ten-round
#: game of Down and Back takes about 15 kB).  Longer text is refused before it
#: is read; pass ``max_size=None`` to lift the limit.
MAX_RECORD_SIZE = 4 * 1024 * 1024

#: The most settings a JSON record may list (every game has a handful).
MAX_SETTINGS = 64

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


def _check_entry_seat(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if not is_int(value):
        raise TypeError(f"Seated needs an int seat, not {type(value).__name__} "
                        f"{shorten(repr(value))}")
    if value < 0:
        raise ValueError(f"a seat is a whole number from 0, not {value}")


def _check_entry_action(instance: object, attribute: attrs.Attribute[object],
                        value: object) -> None:
    if isinstance(value, Seated):
        raise TypeError("a Seated entry holds an action, not another Seated entry")
    if isinstance(value, str):
        raise TypeError(f"Seated holds an action object, not text: read "
                        f"{shorten(value)!r} with the game's parse_action() first")


@attrs.frozen(slots=True)
class Seated:
    """A record entry: ``action`` made by ``seat``, who is not the player to act.

    A record's actions are the player to act's (or chance's), as
    ``apply(state, action)`` takes them.  Where a game lets another seat act,
    the record must say who did: in Down and Back any seat that has not split
    yet may split, in any order (DB-40), so a server that accepted
    ``apply(state, split, seat=2)`` while seat 0 was first to split records
    ``Seated(2, split)`` (:meth:`~cardrules.engine.rules.Rules.entry` picks
    the right form).  Replay applies it as
    ``apply(state, entry.action, seat=entry.seat)``.  Its text form is
    ``seat N: action`` and its JSON form ``{"type": "seated", "seat": N,
    "action": {...}}``; ``seat`` is a whole number (a seat of the game's
    table, checked when a record is read) and ``action`` an action object.

    >>> from cardrules import parse_cards
    >>> from cardrules.down_and_back import Split
    >>> entry = Seated(2, Split(parse_cards("8S 8H 8D QH"), parse_cards("5C 6C 7C")))
    >>> print(entry)
    seat 2: split 8S 8H 8D QH / 5C 6C 7C
    >>> Seated(True, entry.action)
    Traceback (most recent call last):
    ...
    TypeError: Seated needs an int seat, not bool True
    """

    seat: int = attrs.field(validator=_check_entry_seat)
    action: object = attrs.field(validator=_check_entry_action)

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.action}"


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
                "actions": [_entry_to_dict(rules, a) for a in self.actions]}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> GameRecord:
        """Read a record from :meth:`to_dict`'s form, checking everything.

        Unknown keys, settings the game refuses and bad actions are a
        :class:`~cardrules.ParseError`; a bad action is named by its number,
        counting from 1.  A number of more than
        :data:`~cardrules.engine.readers.MAX_DIGITS` digits anywhere is refused,
        as :meth:`from_text` and :meth:`from_json` refuse it
        (:func:`~cardrules.engine.readers.check_digits` is the one rule of all three).

        >>> GameRecord.from_dict({"game": "down_and_back", "settings": {"num_players": 2},
        ...                       "actions": [{"type": "dealer", "seat": 0}]}).actions
        (ChooseDealer(seat=0),)
        >>> GameRecord.from_dict({"game": "down_and_back", "settings": {"num_players": 2},
        ...                       "actions": [], "comment": "hi"})
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: record: unknown key: 'comment'
        """
        fields = Fields(data, "record")
        game = fields.text("game")
        raw = fields.obj("settings")
        if len(raw) > MAX_SETTINGS:
            raise ParseError(f"record: 'settings': more than {MAX_SETTINGS} settings "
                             f"({len(raw)})")
        settings_fields = Fields(raw, "record: 'settings'")
        settings = {name: settings_fields.opt_integer(name) for name in raw}
        actions = fields.array("actions")
        fields.done()
        for name, value in settings.items():   # the limit of from_text and from_json
            try:
                check_numbers(value)
            except ParseError as err:
                raise err.within(f"record: 'settings': {name!r}: ") from None
        rules = rules_for(game)
        players = _check_settings(rules, settings, "record: 'settings'")
        return cls(rules.name, settings, tuple(_entry_from_dict(rules, action, number, players)
                                         for number, action in enumerate(actions, start=1)))

    def to_json(self, *, indent: int | None = None) -> str:
        """The record as JSON text.

        >>> GameRecord("down_and_back", {"num_players": 2}, ()).to_json()
        '{"game": "down_and_back", "settings": {"num_players": 2}, "actions": []}'
        """
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str, *, max_size: int | None = MAX_RECORD_SIZE) -> GameRecord:
        """Read a record from JSON text; malformed input raises ParseError.

        Strict JSON only (no ``NaN`` or ``Infinity``), numbers of at most
        :data:`~cardrules.engine.readers.MAX_DIGITS` digits, a sane nesting
        depth, at most :data:`~cardrules.engine.records.MAX_SETTINGS` settings and ``max_size``
        characters (:data:`~cardrules.engine.records.MAX_RECORD_SIZE`; None: no
        limit): anything else is a :class:`~cardrules.ParseError`, never a
        ``RecursionError`` or a
        bare ``ValueError``.

        >>> GameRecord.from_json('{"game": "down_and_back"')
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: not valid JSON (Expecting ',' delimiter) at position 24
        >>> GameRecord.from_json("[" * 100_000)
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: not valid JSON (nested too deeply)
        """
        if not isinstance(text, str):
            raise ParseError(f"expected JSON text, not {type(text).__name__}")
        _check_size(len(text), max_size)
        try:
            data = json.loads(text, parse_int=_json_int, parse_constant=_json_constant)
        except json.JSONDecodeError as err:
            raise ParseError(f"not valid JSON ({err.msg})", position=err.pos) from None
        except RecursionError:
            raise ParseError("not valid JSON (nested too deeply)") from None
        except ParseError:
            raise
        except ValueError as err:  # any other complaint of the decoder
            raise ParseError(f"not valid JSON ({err})") from None
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
    def from_text(cls, text: str, *, max_size: int | None = MAX_RECORD_SIZE) -> GameRecord:
        """Read :meth:`to_text`'s form; ``#`` lines after the header are comments.

        Every bad line is a :class:`~cardrules.ParseError` whose message starts
        with ``line N:`` (lines counted from 1, split at ``\\n``); its
        ``position`` is the offset of the bad token within that line.
        Numbers are ASCII digits only, at most
        :data:`~cardrules.engine.readers.MAX_DIGITS` of them, and the settings
        must be ones the game accepts.  Text longer than ``max_size``
        characters (:data:`~cardrules.engine.records.MAX_RECORD_SIZE`; None: no
        limit) is refused unread.

        >>> GameRecord.from_text("# cardrules down_and_back\\nnum_players 2\\n\\ncut x")
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: line 4: expected a whole number: 'x' at position 4
        >>> GameRecord.from_text("# cardrules down_and_back\\nnum_players 9\\n")
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: line 2: settings refused by the game: Down and Back is ...
        """
        if not isinstance(text, str):
            raise ParseError(f"expected record text, not {type(text).__name__}")
        _check_size(len(text), max_size)
        lines = [line.removesuffix("\r") for line in text.split("\n")]
        header = lines[0]
        if not header.startswith(_HEADER):
            raise ParseError("line 1: a record starts with '# cardrules GAME'",
                             token=header, position=0)
        game = header[len(_HEADER):].strip(BLANKS)
        try:
            rules = rules_for(game)
        except ParseError as err:
            raise ParseError(f"line 1: {err.message}", token=err.token,
                             token_length=err.token_length,
                             position=header.index(game, len(_HEADER))) from None
        settings: dict[str, int | None] = {}
        numbered: list[int] = []   # the line numbers of the settings
        body = len(lines)          # the index of the first line after the settings
        for index in range(1, len(lines)):
            line, number = lines[index], index + 1
            if not line.strip(BLANKS):
                body = index + 1
                break
            if line.lstrip(BLANKS).startswith("#"):
                continue
            name, value = _setting_line(line, number)
            if name in settings:
                raise ParseError(f"line {number}: setting given twice", token=name,
                                 position=line.index(name))
            settings[name] = value
            numbered.append(number)
        where = (f"line {numbered[0]}" if len(set(numbered)) == 1 else
                 f"lines {numbered[0]}-{numbered[-1]}") if numbered else "line 2"
        players = _check_settings(rules, settings, where)
        actions = []
        for index in range(body, len(lines)):
            line, number = lines[index], index + 1
            stripped = line.strip(BLANKS)
            if not stripped or stripped.startswith("#"):
                continue
            actions.append(_entry_from_text(rules, line, number, players))
        return cls(rules.name, settings, tuple(actions))

    @classmethod
    def read(cls, text: str, *, max_size: int | None = MAX_RECORD_SIZE) -> GameRecord:
        """Read a record in either form: JSON when it starts with ``{`` (after
        any blanks and a byte-order mark), else text.

        >>> GameRecord.read('{"game": "down_and_back", "settings": {"num_players": 2}, '
        ...                 '"actions": []}').settings_dict
        {'num_players': 2}
        >>> GameRecord.read("# cardrules down_and_back\\nnum_players 3\\n").settings_dict
        {'num_players': 3}
        """
        if not isinstance(text, str):
            raise ParseError(f"expected record text, not {type(text).__name__}")
        text = text.removeprefix("\ufeff")   # a byte-order mark left by an editor
        _check_size(len(text), max_size)
        if text.lstrip(BLANKS)[:1] == "{":
            return cls.from_json(text, max_size=max_size)
        return cls.from_text(text, max_size=max_size)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *,
             max_size: int | None = MAX_RECORD_SIZE) -> GameRecord:
        """Read a record file: text if its name ends in ``.txt``, JSON if in
        ``.json``, and whichever it looks like otherwise (see :meth:`read`).

        The file is UTF-8 (a byte-order mark is allowed).  Errors in it are a
        :class:`~cardrules.ParseError` whose message starts with the path;
        a missing file raises :class:`FileNotFoundError` as usual.  A file of
        more than ``max_size`` bytes (:data:`~cardrules.engine.records.MAX_RECORD_SIZE`; None: no
        limit) is refused before it is read.

        >>> import pathlib, tempfile
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> record = GameRecord("down_and_back", {"num_players": 2}, ())
        >>> record.dump(folder / "game.txt")
        >>> GameRecord.load(folder / "game.txt") == record
        True
        >>> _ = (folder / "bad.json").write_text('{"game": 1}')
        >>> GameRecord.load(folder / "bad.json")
        Traceback (most recent call last):
        ...
        cardrules.errors.ParseError: .../bad.json: record: 'game' must be text: '1'
        """
        path = Path(path)
        with path.open("rb") as file:
            data = file.read() if max_size is None else file.read(max_size + 1)
        try:
            _check_size(len(data), max_size, "bytes")
        except ParseError as err:
            raise err.within(f"{path}: ") from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise ParseError(f"{path}: not UTF-8 text", position=err.start) from None
        suffix = path.suffix.lower()
        reader = cls.from_text if suffix == ".txt" else cls.from_json if suffix == ".json" \
            else cls.read
        try:
            return reader(text, max_size=max_size)
        except ParseError as err:
            raise err.within(f"{path}: ") from None

    def dump(self, path: str | os.PathLike[str]) -> None:
        """Write the record to a file: as text (:meth:`to_text`) if its name
        ends in ``.txt``, else as indented JSON (:meth:`to_json`).

        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
        >>> GameRecord("down_and_back", {"num_players": 2}, ()).dump(path)
        >>> print(path.read_text())
        {
          "game": "down_and_back",
          "settings": {
            "num_players": 2
          },
          "actions": []
        }
        <BLANKLINE>
        """
        path = Path(path)
        text = self.to_text() if path.suffix.lower() == ".txt" else self.to_json(indent=2) + "\n"
        path.write_text(text, encoding="utf-8")

    def replay(self) -> Iterator[object]:
        """Every state of the game, from the initial one to the last: the
        :meth:`~cardrules.engine.rules.Rules.replay` of the rules the record
        names, with the same checks, made when this is called (an unknown
        game, settings the game refuses, a seat the table does not have).

        >>> record = GameRecord("down_and_back", {"num_players": 2}, ())
        >>> [s.phase.name for s in record.replay()]
        ['CHOOSE_DEALER']
        >>> GameRecord("down_and_back", {"num_players": 9}, ()).replay()
        Traceback (most recent call last):
        ...
        ValueError: Down and Back is for 2 to 5 players, not 9
        """
        return self.rules.replay(self)


_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_DIGITS + 1},}}")


def _json_int(text: str) -> int:
    check_digits(len(text) - text.startswith("-"), text)
    return int(text)


def _json_constant(name: str) -> object:
    raise ParseError("not valid JSON (NaN and Infinity are not JSON numbers)", token=name)


def _check_long_number(line: str, number: int) -> None:
    """Refuse a run of more digits than any number a record holds, wherever it is."""
    found = _LONG_NUMBER.search(line)
    if found is not None:
        try:
            check_digits(len(found.group()), found.group(), found.start())
        except ParseError as err:
            raise err.within(f"line {number}: ") from None


def _setting_line(line: str, number: int) -> tuple[str, int | None]:
    """The name and value of one ``name number`` or ``name open`` line."""
    _check_long_number(line, number)
    parts = line.split()
    if len(parts) != 2 or not (parts[1] == "open" or (parts[1].isascii()
                                                        and parts[1].isdigit())):
        raise ParseError(f"line {number}: a setting is 'name number' or 'name open'",
                         token=line, position=0)
    name, value = parts
    if not (name.isascii() and name.isidentifier()):
        raise ParseError(f"line {number}: a setting name is a word of letters, digits and _",
                         token=name, position=line.index(name))
    return name, None if value == "open" else int(value)


def _check_size(size: int, max_size: int | None, unit: str = "characters") -> None:
    """Refuse a record longer than ``max_size`` (None: any length)."""
    if max_size is not None and size > max_size:
        raise ParseError(f"a record is at most {max_size} {unit} long; this one is longer")


def _check_settings(rules: Rules[Any, Any], settings: Mapping[str, int | None],
                    where: str) -> int:
    """Refuse settings the game would refuse when the record is replayed;
    return the number of seats they make."""
    try:
        players: int = rules.new_game_from_settings(settings).num_players
    except ValueError as err:   # (a TypeError here would be a bug of the game: let it show)
        message = err.message if isinstance(err, ParseError) else str(err)
        raise ParseError(f"{where}: settings refused by the game: {message}") from None
    return players


def _entry_to_dict(rules: Rules[Any, Any], entry: object) -> dict[str, object]:
    """One record entry as JSON values: the action's dict, or a seated one."""
    if isinstance(entry, Seated):
        return {"type": "seated", "seat": entry.seat,
                "action": rules.action_to_dict(entry.action)}
    return rules.action_to_dict(entry)


def _entry_from_text(rules: Rules[Any, Any], line: str, number: int, players: int) -> object:
    """One record line: ``seat N: action`` (a :class:`Seated` entry) or an action."""
    try:
        verb, _, rest, rest_at = split_verb(line)
    except ParseError as err:
        raise err.within(f"line {number}: ") from None
    if verb != "seat":
        return _action_from_text(rules, line, number)
    _check_long_number(line, number)
    seat_text, colon, action_text = rest.partition(":")
    if not colon:
        raise ParseError(f"line {number}: a seated entry is 'seat N: action'", token=rest,
                         position=rest_at)
    token = seat_text.strip(BLANKS)
    at = rest_at + (seat_text.index(token) if token else 0)
    try:
        seat = int_token(token, at)
    except ParseError as err:
        raise err.within(f"line {number}: ") from None
    if seat >= players:
        raise ParseError(f"line {number}: there is no seat {seat} at a table of {players}",
                         token=token, position=at)
    start = rest_at + len(seat_text) + 1
    action = _action_from_text(rules, action_text, number, start)
    return Seated(seat, action)


def _entry_from_dict(rules: Rules[Any, Any], data: object, number: int, players: int) -> object:
    """One JSON record entry: a seated one (a :class:`Seated`) or an action."""
    if not (isinstance(data, Mapping) and data.get("type") == "seated"):
        return _action_from_dict(rules, data, number)
    try:
        check_numbers(data)   # the digit limit of every reader, the seat included
    except ParseError as err:
        raise err.within(f"action {number}: ") from None
    fields = Fields(data, f"action {number}")
    fields.text("type")
    seat = fields.integer("seat", minimum=0, maximum=players - 1)
    action = _action_from_dict(rules, fields.get("action"), number)
    fields.done()
    return Seated(seat, action)


def _action_from_text(rules: Rules[Any, Any], line: str, number: int, start: int = 0) -> object:
    """The game's action in ``line`` (which starts at ``start`` in the record's
    line ``number``); any complaint is a ParseError naming the line."""
    _check_long_number(line, number)
    try:
        return rules.parse_action(line)
    except ParseError as err:
        raise err.within(f"line {number}: ", start) from None
    except (ValueError, TypeError) as err:   # an action constructor refused the values
        stripped = line.strip(BLANKS)
        raise ParseError(f"line {number}: {err}", token=stripped,
                         position=start + line.index(stripped)) from None


def _action_from_dict(rules: Rules[Any, Any], data: object, number: int) -> object:
    """The game's action from one JSON value; any complaint is a ParseError naming it."""
    try:
        check_numbers(data)   # the limit of from_text and from_json, in any field
        return rules.action_from_dict(data)  # type: ignore[arg-type]
    except ParseError as err:
        raise err.within(f"action {number}: ") from None
    except (ValueError, TypeError, RecursionError) as err:
        raise ParseError(f"action {number}: {err}", token=_brief(data)) from None


def _brief(value: object) -> str:
    """A short ``repr`` of a JSON value, safe for any nesting."""
    try:
        return shorten(repr(value))
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply>"
