"""Down and Back states as plain JSON-ready dicts, and back with full validation.

>>> import json
>>> from cardrules.down_and_back import new_game
>>> s = new_game(3, ante=2)
>>> state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardrules.cards import Card, parse_card
from cardrules.down_and_back.actions import Split
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.state import (
    GameState,
    Phase,
    RoundResult,
    Showdown,
    TieBreakDraw,
)
from cardrules.down_and_back.views import View
from cardrules.errors import ParseError

__all__ = ["FORMAT", "VIEW_FORMAT", "state_from_dict", "state_to_dict", "view_to_dict"]

#: The ``format`` tag of a serialised state.
FORMAT = "cardrules/down_and_back/state/1"
#: The ``format`` tag of a serialised view.
VIEW_FORMAT = "cardrules/down_and_back/view/1"


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _split(split: Split | None) -> dict[str, list[str]] | None:
    return None if split is None else {"down": _cards(split.down), "back": _cards(split.back)}


def _draw(draw: TieBreakDraw) -> dict[str, object]:
    return {"stage": draw.stage, "seat": draw.seat, "card": str(draw.card)}


def state_to_dict(state: GameState) -> dict[str, object]:
    """``state`` as a dict of JSON values (cards as text such as ``"KS"``).

    >>> from cardrules.down_and_back import new_game
    >>> d = state_to_dict(new_game(2))
    >>> d["format"], d["phase"], d["stock"][:2]
    ('cardrules/down_and_back/state/1', 'choose_dealer', ['AS', 'AH'])
    """
    return {
        "format": FORMAT,
        "num_players": state.num_players,
        "ante": state.ante,
        "rounds": state.rounds,
        "phase": state.phase.value,
        "round": state.round,
        "dealer": state.dealer,
        "current_player": state.current_player,
        "pot": state.pot,
        "net": list(state.net),
        "hands": [_cards(h) for h in state.hands],
        "stock": _cards(state.stock),
        "discard": _cards(state.discard),
        "seen": [_cards(h) for h in state.seen],
        "turns": list(state.turns),
        "drawn": None if state.drawn is None else str(state.drawn),
        "splits": [_split(s) for s in state.splits],
        "showdown": _showdown(state.showdown),
        "results": [_result(r) for r in state.results],
    }


def view_to_dict(seat_view: View) -> dict[str, object]:
    """A seat's :class:`~cardrules.down_and_back.View` as JSON-ready values,
    ready to send to that player's client.  It holds nothing the view does not.

    >>> from cardrules.down_and_back import new_game, view
    >>> d = view_to_dict(view(new_game(2), 1))
    >>> d["seat"], d["hand"], d["stock_size"]
    (1, [], 52)
    """
    v = seat_view
    return {
        "format": VIEW_FORMAT, "seat": v.seat, "num_players": v.num_players, "ante": v.ante,
        "rounds": v.rounds, "phase": v.phase.value, "round": v.round, "dealer": v.dealer,
        "current_player": v.current_player, "pot": v.pot, "net": list(v.net),
        "hand": _cards(v.hand), "hand_sizes": list(v.hand_sizes), "stock_size": v.stock_size,
        "discard": _cards(v.discard), "seen": [_cards(h) for h in v.seen],
        "turns": list(v.turns), "drawn": None if v.drawn is None else str(v.drawn),
        "split_chosen": list(v.split_chosen), "splits": [_split(s) for s in v.splits],
        "showdown": _showdown(v.showdown), "results": [_result(r) for r in v.results],
    }


def _showdown(showdown: Showdown | None) -> dict[str, object] | None:
    if showdown is None:
        return None
    return {"down_winner": showdown.down_winner, "contenders": list(showdown.contenders),
            "drawn": [_draw(d) for d in showdown.drawn], "log": [_draw(d) for d in showdown.log]}


def _result(r: RoundResult) -> dict[str, object]:
    return {"round": r.round, "dealer": r.dealer, "splits": [_split(s) for s in r.splits],
            "down_winner": r.down_winner, "back_winner": r.back_winner,
            "tiebreaks": [_draw(d) for d in r.tiebreaks], "pot": r.pot,
            "pot_winner": r.pot_winner}


_KEYS = frozenset({
    "format", "num_players", "ante", "rounds", "phase", "round", "dealer", "current_player",
    "pot", "net", "hands", "stock", "discard", "seen", "turns", "drawn", "splits", "showdown",
    "results"})


class _Reader:
    """Typed access to untrusted JSON values, raising ParseError with a path."""

    def __init__(self, data: object, path: str) -> None:
        self.data, self.path = data, path

    def fail(self, message: str) -> ParseError:
        return ParseError(f"{self.path}: {message}", token=repr(self.data)[:80])

    def obj(self) -> Mapping[str, object]:
        if not isinstance(self.data, Mapping):
            raise self.fail("expected an object")
        return self.data

    def at(self, key: str) -> _Reader:
        data = self.obj()
        if key not in data:
            raise ParseError(f"{self.path}: missing field {key!r}")
        return _Reader(data[key], f"{self.path}.{key}")

    def integer(self, *, optional: bool = False) -> int | None:
        if optional and self.data is None:
            return None
        if not isinstance(self.data, int) or isinstance(self.data, bool):
            raise self.fail("expected an integer")
        return self.data

    def req_int(self) -> int:
        value = self.integer()
        assert value is not None
        return value

    def text(self) -> str:
        if not isinstance(self.data, str):
            raise self.fail("expected a string")
        return self.data

    def items(self) -> list[_Reader]:
        if not isinstance(self.data, list):
            raise self.fail("expected a list")
        return [_Reader(v, f"{self.path}[{i}]") for i, v in enumerate(self.data)]

    def card(self) -> Card:
        text = self.text()
        try:
            return parse_card(text)
        except ParseError as err:
            raise self.fail(err.message) from None

    def card_opt(self) -> Card | None:
        return None if self.data is None else self.card()

    def cards(self) -> tuple[Card, ...]:
        return tuple(r.card() for r in self.items())

    def ints(self) -> tuple[int, ...]:
        return tuple(r.req_int() for r in self.items())

    def split(self) -> Split | None:
        if self.data is None:
            return None
        return Split(self.at("down").cards(), self.at("back").cards())

    def draw(self) -> TieBreakDraw:
        stage = self.at("stage").text()
        if stage not in ("down", "back"):
            raise self.fail("stage is 'down' or 'back'")
        return TieBreakDraw(stage, self.at("seat").req_int(), self.at("card").card())


def state_from_dict(data: Mapping[str, object]) -> GameState:
    """Rebuild a state from :func:`state_to_dict`'s form, checking everything.

    Raises :class:`~cardrules.ParseError` (a :class:`ValueError`) for a
    malformed or tampered state: wrong types, a card missing or repeated,
    sizes that do not fit the phase, money that does not add up.

    >>> from cardrules.down_and_back import new_game
    >>> d = state_to_dict(new_game(2))
    >>> d["stock"][0] = "AH"
    >>> state_from_dict(d)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: inconsistent Down and Back state: every card exactly once
    """
    root = _Reader(data, "state")
    if root.at("format").text() != FORMAT:
        raise ParseError(f"unknown state format (expected {FORMAT!r})",
                         token=repr(root.obj().get("format")))
    unknown = set(root.obj()) - _KEYS
    if unknown:
        raise ParseError(f"state: unknown fields {sorted(unknown)}")
    phase_text = root.at("phase").text()
    try:
        phase = Phase(phase_text)
    except ValueError:
        raise root.at("phase").fail("unknown phase") from None
    showdown_reader = root.at("showdown")
    showdown = None if showdown_reader.data is None else Showdown(
        down_winner=showdown_reader.at("down_winner").integer(optional=True),
        contenders=showdown_reader.at("contenders").ints(),
        drawn=tuple(r.draw() for r in showdown_reader.at("drawn").items()),
        log=tuple(r.draw() for r in showdown_reader.at("log").items()))
    results = []
    for r in root.at("results").items():
        splits = tuple(r.at("splits").items())
        results.append(RoundResult(
            round=r.at("round").req_int(), dealer=r.at("dealer").req_int(),
            splits=tuple(s for s in (x.split() for x in splits) if s is not None),
            down_winner=r.at("down_winner").req_int(), back_winner=r.at("back_winner").req_int(),
            tiebreaks=tuple(d.draw() for d in r.at("tiebreaks").items()),
            pot=r.at("pot").req_int(), pot_winner=r.at("pot_winner").integer(optional=True)))
    state = GameState(
        num_players=root.at("num_players").req_int(), ante=root.at("ante").req_int(),
        rounds=root.at("rounds").integer(optional=True), phase=phase,
        round=root.at("round").req_int(), dealer=root.at("dealer").integer(optional=True),
        current_player=root.at("current_player").integer(optional=True),
        pot=root.at("pot").req_int(), net=root.at("net").ints(),
        hands=tuple(r.cards() for r in root.at("hands").items()),
        stock=root.at("stock").cards(), discard=root.at("discard").cards(),
        seen=tuple(r.cards() for r in root.at("seen").items()),
        turns=root.at("turns").ints(), drawn=root.at("drawn").card_opt(),
        splits=tuple(r.split() for r in root.at("splits").items()),
        showdown=showdown, results=tuple(results))
    try:
        check_invariants(state)
    except (ValueError, IndexError, TypeError) as err:
        raise ParseError(str(err)) from None
    return state
