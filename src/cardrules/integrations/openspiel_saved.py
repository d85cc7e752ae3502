"""The reader of saved OpenSpiel states of cardrules games, bounded and strict.

A saved state (``state.serialize()``) is OpenSpiel's three lines: the
history, the move number and the state's attributes pickled.  The adapter's
only attribute pickles as a small JSON object, :class:`Saved`: what the
history cannot rebuild (see :doc:`/integrations`).  :func:`screen` checks
the text before anything is decoded; :func:`saved_from_json` reads the JSON.
Anything wrong is a :class:`~cardrules.ParseError`.

>>> screen("history=-1:0\\nmove_number=1\\n__dict__=!", num_players=4, max_moves=10)
Traceback (most recent call last):
...
cardrules.errors.ParseError: __dict__= is not the adapter's data (Only base64 data is allowed)
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import pickle
import pickletools
import re
from collections.abc import Mapping

import attrs

from cardrules._validate import is_int
from cardrules.engine.readers import MAX_DIGITS, Fields, safe_repr
from cardrules.errors import ParseError

__all__ = ["Resample", "Saved", "max_saved_chars", "saved_from_json", "screen"]

#: OpenSpiel keeps parameters, lengths and counts in a C++ ``int``.
INT_MAX = 2 ** 31 - 1
#: How many resamples (of resamples) one saved state may carry.
MAX_RESAMPLES = 32
#: The longest ``history=`` pair, ``-1:2147483647,``.
_PAIR_CHARS = 14


def max_saved_chars(max_moves: int) -> int:
    """The longest JSON a saved state of a game of at most ``max_moves``
    moves may have: up to ``MAX_RESAMPLES`` cardrules states (each at
    most 16 kB plus 64 characters a move: a state's record grows with the
    game) and, in sampled chance mode, at most 256 characters of cards a move.

    >>> max_saved_chars(0)
    528384
    """
    return 4096 + MAX_RESAMPLES * (16_384 + 64 * max_moves) + 256 * max_moves


@attrs.frozen
class Resample:
    """One resample a saved state went through: at move ``at`` the state was
    drawn for ``seat``; ``state`` is the JSON of the cardrules state drawn,
    ``picked`` and ``remaining`` the shuffle in progress then (card numbers).

    >>> Resample(0, 3, {}, (), ()).at
    3
    """

    seat: int
    at: int
    state: Mapping[str, object]
    picked: tuple[int, ...]
    remaining: tuple[int, ...]


@attrs.frozen
class Saved:
    """What a saved state holds beside its history: the ``game`` and its
    ``settings``, the ``resamples`` it went through (in order), and the
    shuffles sampled in sampled chance mode, each as the move number of its
    chance step and the order of its card numbers (top first).

    >>> Saved("cardrules_back_alley", {"max_hand_size": 1}, (), ()).game
    'cardrules_back_alley'
    """

    game: str
    settings: Mapping[str, int]
    resamples: tuple[Resample, ...]
    sampled: tuple[tuple[int, tuple[int, ...]], ...]

    def to_json(self) -> str:
        """The JSON text :func:`saved_from_json` reads back.

        >>> Saved("g", {"a": 1}, (), ()).to_json()
        '{"game":"g","settings":{"a":1},"resamples":[],"sampled":[]}'
        """
        return json.dumps({
            "game": self.game, "settings": dict(self.settings),
            "resamples": [{"seat": r.seat, "at": r.at, "state": r.state,
                           "picked": list(r.picked), "remaining": list(r.remaining)}
                          for r in self.resamples],
            "sampled": [[at, list(order)] for at, order in self.sampled]},
            separators=(",", ":"))

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return saved_from_json, (self.to_json(),)


def _json_number(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise ParseError(f"number too long ({digits} digits)", token=text[:40])
    return int(text)


def _json_constant(name: str) -> object:
    raise ParseError("not valid JSON (NaN and Infinity are not JSON numbers)", token=name)


def _no_float(text: str) -> object:
    raise ParseError("not valid JSON here (a saved state holds whole numbers only)",
                     token=text[:40])


def _card_numbers(values: list[object], what: str) -> tuple[int, ...]:
    out = []
    for at, value in enumerate(values):
        if not (is_int(value) and 0 <= value < 64):
            raise ParseError(f"{what}[{at}] is not a card number", token=safe_repr(value))
        out.append(value)
    if len(set(out)) != len(out):
        raise ParseError(f"{what} lists a card twice")
    return tuple(out)


def saved_from_json(text: object) -> Saved:
    """Read :meth:`Saved.to_json`'s text strictly (what unpickling a saved
    state calls): bounded in length, whole numbers only, every key checked.
    Whether the game, the resamples and the shuffles fit the history is
    checked when a state takes the data.

    >>> saved_from_json('{"game":"g","settings":{"a":1},"resamples":[],"sampled":[]}').settings
    {'a': 1}
    >>> saved_from_json('{"game":"g","settings":{},"resamples":[],"sampled":[],"log":[]}')
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: OpenSpiel state: unknown key: 'log'
    """
    what = "OpenSpiel state"
    if not isinstance(text, str):
        raise ParseError(f"{what}: expected JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text, parse_int=_json_number, parse_constant=_json_constant,
                          parse_float=_no_float)
    except json.JSONDecodeError as error:
        raise ParseError(f"{what}: not valid JSON ({error.msg})", position=error.pos) from None
    except RecursionError:
        raise ParseError(f"{what}: not valid JSON (nested too deeply)") from None
    f = Fields(data, what)
    game = f.text("game")
    raw_settings = f.obj("settings")
    given = Fields(raw_settings, f"{what}: settings")
    settings = {key: given.integer(key, minimum=-INT_MAX - 1, maximum=INT_MAX)
                for key in sorted(raw_settings)}
    resamples = []
    for at, item in enumerate(f.array("resamples", max_length=MAX_RESAMPLES)):
        r = Fields(item, f"{what}: resamples[{at}]")
        state = r.obj("state")
        resamples.append(Resample(
            r.integer("seat", minimum=0, maximum=INT_MAX),
            r.integer("at", minimum=0, maximum=INT_MAX), state,
            _card_numbers(r.array("picked", max_length=64), f"{r.what}.picked"),
            _card_numbers(r.array("remaining", max_length=64), f"{r.what}.remaining")))
        r.done()
    sampled = []
    for at, item in enumerate(f.array("sampled")):
        if not (isinstance(item, list) and len(item) == 2 and is_int(item[0])
                and isinstance(item[1], list) and len(item[1]) <= 64):
            raise ParseError(f"{what}: sampled[{at}] must be [move, [cards]]",
                             token=safe_repr(item))
        if not 0 <= item[0] <= INT_MAX:
            raise ParseError(f"{what}: sampled[{at}]: not a move number", token=safe_repr(item[0]))
        sampled.append((item[0], _card_numbers(item[1], f"{what}: sampled[{at}]")))
    f.done()
    return Saved(game, settings, tuple(resamples), tuple(sampled))


#: ``player:action`` pairs as OpenSpiel writes them (chance is -1; no sign, no leading 0).
_PAIR = r"(?:-1|0|[1-9][0-9]{0,9}):(?:0|[1-9][0-9]{0,9})"
_HISTORY = re.compile(rf"(?:{_PAIR}(?:,{_PAIR})*)?")
#: The only pickle opcodes of the ``__dict__`` part the adapter writes: a dict,
#: text, and one call of saved_from_json (no BUILD, no other object).
_SAFE_OPCODES = frozenset({
    "PROTO", "FRAME", "STOP", "MARK", "EMPTY_DICT", "DICT", "EMPTY_TUPLE", "TUPLE", "TUPLE1",
    "SETITEM", "SETITEMS", "MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT", "GET", "BINGET",
    "LONG_BINGET", "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE",
    "GLOBAL", "STACK_GLOBAL", "REDUCE"})


class _DictUnpickler(pickle.Unpickler):
    """Reads the ``__dict__`` part of a saved state, allowing no global but
    :func:`saved_from_json` (the pickle docs' "restricting globals")."""

    def find_class(self, module: str, name: str) -> object:
        if module == __name__ and name == "saved_from_json":
            return saved_from_json
        raise ParseError("a serialized state may call nothing but the adapter's reader",
                         token=f"{module}.{name}")


def screen(text: object, *, num_players: int, max_moves: int) -> Saved:
    """Check ``deserialize_state``'s text before OpenSpiel reads it, each
    line's length first: the ``history=`` (at most ``max_moves`` pairs of
    a player and an action), ``move_number=`` and ``__dict__=`` lines, the
    pickle inside holding only the adapter's JSON; returns that JSON read.

    >>> screen("history=" + "-1:0," * 10 ** 6, num_players=4, max_moves=100)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: history= is longer than 100 moves can be
    """
    if not isinstance(text, str):
        raise ParseError(f"a serialized state is text, not {type(text).__name__}")
    tags = ("history=", "move_number=", "__dict__=")
    first = text.find("\n")
    if not text.startswith(tags[0]):
        raise ParseError("a serialized state has three lines: history=, move_number= "
                         "and __dict__=")
    history_chars = (len(text) if first < 0 else first) - len(tags[0])
    if history_chars > _PAIR_CHARS * max_moves:
        raise ParseError(f"history= is longer than {max_moves} moves can be")
    data_chars = len(text) - max(first, 0) - 64
    if data_chars > 4 * max_saved_chars(max_moves) // 3 + 1024:
        raise ParseError("__dict__= is longer than any saved state of the game")
    pieces = text.split("\n", 2)
    if len(pieces) != 3 or not all(p.startswith(t) for p, t in zip(pieces, tags, strict=True)):
        raise ParseError("a serialized state has three lines: history=, move_number= "
                         "and __dict__=")
    history, moves, data = (p[len(t):] for p, t in zip(pieces, tags, strict=True))
    if not _HISTORY.fullmatch(history):
        raise ParseError("history= must list player:action pairs", token=history[:80])
    pairs = history.split(",") if history else []
    if len(pairs) > max_moves:
        raise ParseError(f"history= lists {len(pairs)} moves, more than a game has "
                         f"({max_moves})")
    for pair in pairs:
        player, action = map(int, pair.split(":"))
        if not (-1 <= player < num_players and 0 <= action <= INT_MAX):
            raise ParseError("history=: not a player and an action", token=pair)
    if not re.fullmatch(r"0|[1-9][0-9]{0,9}", moves) or int(moves) > INT_MAX:
        raise ParseError("move_number= must be a whole number", token=moves[:80])
    try:
        raw = base64.b64decode(data, validate=True)
        for opcode, _, _ in pickletools.genops(raw):
            if opcode.name not in _SAFE_OPCODES:
                raise ParseError("__dict__= holds more than the adapter's data",
                                 token=opcode.name)
        loaded = _DictUnpickler(io.BytesIO(raw)).load()
    except ParseError:
        raise
    except (binascii.Error, pickle.UnpicklingError, ValueError, TypeError, EOFError,
            IndexError, KeyError, RecursionError) as error:
        raise ParseError(f"__dict__= is not the adapter's data ({error})") from None
    if not (isinstance(loaded, dict) and loaded.keys() == {"_core"}
            and isinstance(loaded["_core"], Saved)):
        raise ParseError("__dict__= must hold the adapter's state and nothing else")
    return loaded["_core"]
