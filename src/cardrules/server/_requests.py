"""What the lobby accepts: every request body read and checked here, in one place.

:func:`read_json` reads a request's body (its size limited before it is
read whole, its content type and nesting checked) and the checkers turn the
JSON into what the server acts on: :func:`new_table` for ``POST
/api/tables``, :func:`wanted_seat` for ``POST /api/tables/{id}/join``.  A
mistake raises :class:`BadRequest` with the status and a sentence naming it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs
from starlette.requests import ClientDisconnect, Request

from cardrules._validate import is_int
from cardrules.engine.registry import display_names, rules_for
from cardrules.engine.rules import Rules
from cardrules.errors import CardRulesError

__all__: list[str] = []

#: The largest whole number every client reads exactly (JavaScript's
#: ``Number.MAX_SAFE_INTEGER``): no setting, and no bound of a game's
#: returns, may pass it.
SAFE_INTEGER = 2 ** 53 - 1

#: How deep a JSON body or message may nest (the lobby's deepest is 3).
MAX_DEPTH = 16

#: The largest seed a table may be given.
SEEDS = 2 ** 62


class BadRequest(Exception):
    """A request refused: ``status`` is the HTTP status, the message says why."""

    def __init__(self, message: str, status: int = 400, *,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        #: Seconds the client should wait before asking again (429, 503).
        self.retry_after = retry_after


def too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """True when the JSON ``text`` nests more than ``limit`` arrays or objects
    (read without parsing it, outside strings), so a deep document is refused
    before the parser recurses into it."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:       # backslash
                escaped = True
            elif byte == 0x22:       # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):   # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):   # ] }
            depth -= 1
    return False


def parse_json(text: str | bytes) -> object:
    """JSON text read, or :class:`ValueError` (not JSON, or nested too deeply)."""
    if too_deep(text):
        raise ValueError(f"JSON nested more than {MAX_DEPTH} levels deep")
    return json.loads(text)


def _is_json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/")
                                          and kind.endswith("+json"))


async def read_json(request: Request, limit: int) -> object:
    """The JSON body of ``request`` ({} when empty): 413 when it is longer than
    ``limit`` bytes (refused from its Content-Length, or as soon as more
    arrives, never read whole), 415 when it is not declared JSON, 400 when it
    is not JSON or nests too deeply."""
    content_type = request.headers.get("content-type")
    if content_type is not None and not _is_json(content_type):
        raise BadRequest(f"the body must be JSON (Content-Type: application/json), not "
                         f"{content_type[:60]!r}", 415)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BadRequest(f"the body is longer than {limit} bytes", 413)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise BadRequest(f"the body is longer than {limit} bytes", 413)
            chunks.append(chunk)
    except ClientDisconnect:
        raise BadRequest("the client left before its body was read", 400) from None
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    if content_type is None:
        raise BadRequest("the body must be JSON (Content-Type: application/json)", 415)
    try:
        return parse_json(raw)
    except ValueError as err:   # UnicodeDecodeError and JSONDecodeError are ValueErrors
        detail = str(err) if str(err).startswith("JSON nested") else "the body is not JSON"
        raise BadRequest(detail) from None


def _object(body: object, known: tuple[str, ...]) -> Mapping[str, object]:
    if not isinstance(body, Mapping):
        raise BadRequest("the body must be a JSON object")
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r} (known: {', '.join(known)})")
    return body


def game_rules(name: object) -> Rules[Any, Any]:
    """The rules of the game ``name`` names (any case, ``-`` or ``_``)."""
    if not isinstance(name, str):
        raise BadRequest("'game' must name a game")
    try:
        return rules_for(name)
    except CardRulesError:
        known = ", ".join(display_names())
        raise BadRequest(f"unknown game {name[:40]!r} (known: {known})") from None


@attrs.frozen
class NewTable:
    """A checked request for a new table: the game, its first state, each
    seat's kind (``"human"`` or ``"bot:NAME"``), the seats whose tokens go to
    the creator, the seed and whether the creator chose it."""

    rules: Rules[Any, Any]
    start: Any
    kinds: tuple[str, ...]
    humans: tuple[int, ...]
    seed: int | None
    chosen_seed: bool


def _settings_within_bounds(rules: Rules[Any, Any], start: object,
                            bots_only: bool) -> dict[str, Any]:
    """The table's settings, every number a client can read exactly, the
    game's bounds (where it has them) too; a table of bots alone must be finite."""
    settings = dict(rules.settings_of(start))
    for name, value in settings.items():
        if is_int(value) and not -SAFE_INTEGER <= value <= SAFE_INTEGER:
            raise BadRequest(f"'{name}' must be from {-SAFE_INTEGER} to {SAFE_INTEGER} "
                             "here")
    bounded = None
    if rules.bounds is not None:
        try:
            bounded = rules.bounds({**rules.limit_settings, **settings})
        except (CardRulesError, ValueError):
            bounded = None
    if bounded is not None and not (bounded.min_return >= -SAFE_INTEGER
                                    and bounded.max_return <= SAFE_INTEGER):
        raise BadRequest(f"these settings let a seat win or lose more than {SAFE_INTEGER}")
    if bots_only and bounded is None:
        raise BadRequest(f"a table of bots alone must end: these settings of "
                         f"{rules.title} make a game without end")
    return settings


def new_table(body: object) -> NewTable:
    """Check the body of ``POST /api/tables`` (see the module of the app)."""
    body = _object(body, ("game", "settings", "seats", "seed"))
    rules = game_rules(body.get("game"))
    settings = body.get("settings", {})
    if not isinstance(settings, Mapping):
        raise BadRequest("'settings' must be a JSON object")
    settings = dict(settings)
    seats = body.get("seats")
    if seats is not None and (not isinstance(seats, list)
                              or not all(isinstance(s, str) for s in seats)):
        raise BadRequest("'seats' must be a list of seat kinds "
                         "(\"human\", \"open\" or \"bot:NAME\")")
    if seats is not None and "num_players" in rules.default_settings \
            and "num_players" not in settings:
        settings["num_players"] = len(seats)
    try:
        start = rules.new_game_from_settings(settings)
    except (CardRulesError, ValueError, TypeError) as err:
        raise BadRequest(str(err)[:300]) from None
    if seats is None:
        seats = ["human"] + [f"bot:{rules.default_bot}"] * (start.num_players - 1)
    if len(seats) != start.num_players:
        raise BadRequest(f"{rules.title} is played by {start.num_players} here: "
                         f"'seats' lists {len(seats)}")
    kinds = []
    for kind in seats:
        if kind in ("human", "open"):
            kinds.append("human")
        elif kind.startswith("bot:") and kind[4:] in rules.bots:
            kinds.append(kind)
        else:
            bots = ", ".join(f"bot:{name}" for name in rules.bots)
            raise BadRequest(f"unknown seat kind {kind[:40]!r} (known: human, open, {bots})")
    _settings_within_bounds(rules, start, "human" not in kinds)
    seed = body.get("seed")
    if seed is not None and (not is_int(seed) or not 0 <= seed < SEEDS):
        raise BadRequest("'seed' must be a whole number from 0 to 2**62 - 1")
    return NewTable(rules=rules, start=start, kinds=tuple(kinds),
                    humans=tuple(seat for seat, kind in enumerate(seats) if kind == "human"),
                    seed=seed, chosen_seed=seed is not None)


def wanted_seat(body: object, seats: int) -> int | None:
    """Check the body of ``POST /api/tables/{id}/join``: the seat asked for, or None."""
    body = _object(body, ("seat",))
    wanted = body.get("seat")
    if wanted is not None and (not is_int(wanted) or not 0 <= wanted < seats):
        raise BadRequest(f"'seat' must be a seat of this table (0 to {seats - 1})")
    return wanted
