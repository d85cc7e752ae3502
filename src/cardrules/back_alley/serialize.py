"""Back Alley states and views as plain JSON-ready dicts, and states back with
full validation.

Cards are written as text (``"KS"``, ``"BB"``), bids in the JSON form of
actions (``{"type": "bid", "tricks": 3}``).  Reading is strict: an unknown or
missing key, a value of the wrong type, a card missing or repeated among the
54, or bids, tricks and scores that do not fit together are a
:class:`~cardrules.ParseError`.

>>> import json
>>> from cardrules.back_alley import new_game
>>> s = new_game()
>>> state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from cardrules.back_alley.actions import (
    CARDS,
    Bid,
    BidAction,
    Board,
    Pass,
    action_from_dict,
    action_to_dict,
)
from cardrules.back_alley.checks import check_invariants
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    Contract,
    Deal,
    DealResult,
    GameState,
    History,
    Phase,
    Settings,
    Trick,
)
from cardrules.back_alley.views import PublicView, View
from cardrules.cards import Card, Joker
from cardrules.engine.json_out import JSON, attributes_to_json
from cardrules.engine.readers import Fields, safe_repr
from cardrules.errors import ParseError
from cardrules.hand import Hand

__all__ = ["FORMAT", "VIEW_FORMAT", "state_from_dict", "state_to_dict", "view_to_dict"]

#: The ``format`` tag of a serialised state.
FORMAT = "cardrules/back_alley/state/1"
#: The ``format`` tag of a serialised view.
VIEW_FORMAT = "cardrules/back_alley/view/1"

AnyCard = Card | Joker


def _bids(bids: Sequence[BidAction | None]) -> list[JSON]:
    return [None if b is None else cast(JSON, action_to_dict(b)) for b in bids]


def _result(r: DealResult) -> dict[str, JSON]:
    # Written out by hand (not through the generic encoder): a state carries up
    # to 25 of these and is written at every step of a conformance run.
    return {"deal_number": r.deal_number, "dealer": r.dealer, "hand_size": r.hand_size,
            "trump_card": str(r.trump_card), "throw_ins": r.throw_ins,
            "contracts": [{"tricks": c.tricks, "board": c.board} for c in r.contracts],
            "tricks": list(r.tricks), "points": list(r.points), "bids": _bids(r.bids)}


def _results(results: Sequence[DealResult]) -> list[JSON]:
    return [_result(r) for r in results]


# The view goes through the engine's generic encoder (all but the bids, which
# are actions with their own JSON form).  States are written out by hand: the
# generic encoder walks every card of every hand, trick and result, and a
# conformance run writes the state after every probe (about 5 times faster).
_VIEW_FIELDS = ("seat", "settings", "phase", "deal_number", "hand_size", "dealer",
                "current_player", "trump_card", "joker_discard", "exchanger", "hand", "taken",
                "hand_sizes", "leader", "trick", "tricks", "tricks_won", "trump_played",
                "scores")
_TEXT = tuple(str(card) for card in CARDS)


def _texts(indexes: Sequence[int]) -> list[JSON]:
    return list(map(_TEXT.__getitem__, indexes))


def _cards(cards: Sequence[AnyCard]) -> list[JSON]:
    return [str(card) for card in cards]


def state_to_dict(state: GameState) -> dict[str, object]:
    """``state`` as a dict of JSON values.

    >>> from cardrules.back_alley import new_game
    >>> d = state_to_dict(new_game())
    >>> d["format"], d["phase"], d["settings"], d["deal"]
    ('cardrules/back_alley/state/1', 'choose_dealer', {'max_hand_size': 13}, None)
    """
    history = state.history
    deal = state.deal
    return {
        "format": FORMAT,
        "settings": state.settings.to_dict(),
        "phase": state.phase.value,
        "dealer": state.dealer,
        "current_player": state.current_player,
        "leader": state.leader,
        "hands": [_texts(hand) for hand in state.hand_indexes],
        "trick": _texts(state.trick_indexes),
        "tricks_won": list(state.tricks_won),
        "tricks": [{"leader": t.leader, "cards": _cards(t.cards), "winner": t.winner}
                   for t in state.tricks],
        "trump_played": state.trump_played,
        "history": {"first_dealer": history.first_dealer, "throw_ins": history.throw_ins,
                    "scores": list(history.scores), "results": _results(history.results)},
        "deal": None if deal is None else {
            "hand_size": deal.hand_size, "trump_card": str(deal.trump_card),
            "joker_discard": None if deal.joker_discard is None else str(deal.joker_discard),
            "exchanger": deal.exchanger, "taken": None if deal.taken is None else str(deal.taken),
            "undealt": _cards(deal.undealt), "bids": _bids(deal.bids)},
    }


def view_to_dict(seat_view: View | PublicView) -> dict[str, object]:
    """A seat's :class:`~cardrules.back_alley.View` as JSON-ready values, ready
    to send to that player's client.  It holds nothing the view does not.

    A :class:`~cardrules.back_alley.views.PublicView` (a spectator's) gives
    the same keys, with ``seat`` null, an empty ``hand`` and ``taken`` null.

    >>> from cardrules.back_alley import new_game, view
    >>> from cardrules.back_alley.views import public_view
    >>> d = view_to_dict(view(new_game(), 1))
    >>> d["seat"], d["hand"], d["scores"]
    (1, [], [0, 0])
    >>> view_to_dict(public_view(new_game())).keys() == d.keys()
    True
    """
    if isinstance(seat_view, PublicView):
        public = attributes_to_json(seat_view, [n for n in _VIEW_FIELDS
                                                if n not in ("seat", "hand", "taken")])
        fields: dict[str, object] = {name: public.get(name) for name in _VIEW_FIELDS}
        fields.update(hand=[])
    else:
        fields = dict(attributes_to_json(seat_view, _VIEW_FIELDS))
    return {"format": VIEW_FORMAT, **fields,
            "bids": _bids(seat_view.bids), "results": _results(seat_view.results)}


# -- reading -----------------------------------------------------------------------

def _ints(fields: Fields, key: str, length: int, *, minimum: int | None = None) -> tuple[int, ...]:
    items = fields.array(key)
    if len(items) != length:
        raise ParseError(f"{fields.what}: {key!r} must list {length} numbers",
                         token=safe_repr(items))
    holder = Fields({str(k): v for k, v in enumerate(items)}, f"{fields.what}.{key}")
    return tuple(holder.integer(str(k), minimum=minimum) for k in range(length))


def _seat(fields: Fields, key: str) -> int:
    return fields.integer(key, minimum=0, maximum=NUM_PLAYERS - 1)


def _opt_seat(fields: Fields, key: str) -> int | None:
    return fields.opt_integer(key, minimum=0, maximum=NUM_PLAYERS - 1)


def _read_bids(fields: Fields, key: str, *, optional: bool) -> tuple[BidAction | None, ...]:
    items = fields.array(key)
    if len(items) != NUM_PLAYERS:
        raise ParseError(f"{fields.what}: {key!r} must hold one bid per seat",
                         token=safe_repr(items))
    out: list[BidAction | None] = []
    for seat, item in enumerate(items):
        if item is None and optional:
            out.append(None)
            continue
        if not isinstance(item, Mapping):
            raise ParseError(f"{fields.what}: {key!r}[{seat}] must be a bid", token=safe_repr(item))
        bid = action_from_dict(item)
        if not isinstance(bid, Pass | Bid | Board):
            raise ParseError(f"{fields.what}: {key!r}[{seat}] must be a bid", token=str(bid))
        out.append(bid)
    return tuple(out)


def _read_trick(data: object, what: str) -> Trick:
    f = Fields(data, what)
    trick = Trick(leader=_seat(f, "leader"),
                  cards=f.cards("cards", jokers=True, max_length=NUM_PLAYERS),
                  winner=_seat(f, "winner"))
    f.done()
    return trick


def _read_result(data: object, what: str) -> DealResult:
    f = Fields(data, what)
    contracts = []
    for number, item in enumerate(f.array("contracts", max_length=2)):
        c = Fields(item, f"{what}.contracts[{number}]")
        contracts.append(Contract(tricks=c.integer("tricks", minimum=0),
                                  board=c.integer("board", minimum=0, maximum=NUM_PLAYERS)))
        c.done()
    result = DealResult(
        deal_number=f.integer("deal_number", minimum=1), dealer=_seat(f, "dealer"),
        hand_size=f.integer("hand_size", minimum=1), trump_card=f.card("trump_card", jokers=True),
        throw_ins=f.integer("throw_ins", minimum=0),
        bids=_read_bids(f, "bids", optional=False),  # type: ignore[arg-type]
        contracts=tuple(contracts), tricks=_ints(f, "tricks", 2, minimum=0),
        points=_ints(f, "points", 2))
    f.done()
    return result


def _read_history(data: object, deals: int) -> History:
    f = Fields(data, "state.history")
    results = tuple(_read_result(item, f"state.history.results[{k}]")
                    for k, item in enumerate(f.array("results", max_length=deals)))
    scores = _ints(f, "scores", 2)
    history = History(first_dealer=_opt_seat(f, "first_dealer"),
                      throw_ins=f.integer("throw_ins", minimum=0), results=results,
                      scores=(scores[0], scores[1]))
    f.done()
    return history


def _read_deal(data: object) -> Deal | None:
    if data is None:
        return None
    f = Fields(data, "state.deal")
    discard = f.opt_card("joker_discard", jokers=True)
    if discard is not None and not isinstance(discard, Joker):
        raise ParseError("state.deal: 'joker_discard' must be a joker", token=str(discard))
    taken = f.opt_card("taken", jokers=True)
    if taken is not None and not isinstance(taken, Card):
        raise ParseError("state.deal: 'taken' cannot be a joker", token=str(taken))
    undealt_cards = f.cards("undealt", jokers=True, max_length=len(CARDS))
    try:
        undealt = Hand(undealt_cards, jokers=True)
    except ValueError as err:
        raise ParseError(f"state.deal: 'undealt': {err}") from None
    deal = Deal(hand_size=f.integer("hand_size", minimum=1, maximum=13),
                trump_card=f.card("trump_card", jokers=True), joker_discard=discard,
                exchanger=_opt_seat(f, "exchanger"), taken=taken, undealt=undealt,
                bids=_read_bids(f, "bids", optional=True))
    f.done()
    return deal


def _read_hand(data: object, what: str, max_length: int) -> tuple[int, ...]:
    cards = Fields({"hand": data}, what).cards("hand", jokers=True, max_length=max_length)
    try:
        hand = Hand(cards, jokers=True)
    except ValueError as err:
        raise ParseError(f"{what}: {err}") from None
    return tuple(card.index for card in hand)


def state_from_dict(data: Mapping[str, object]) -> GameState:
    """Rebuild a state from :func:`state_to_dict`'s form, checking everything.

    Raises :class:`~cardrules.ParseError` (a :class:`ValueError`) for a
    malformed or tampered state.

    >>> from cardrules.back_alley import new_game
    >>> d = state_to_dict(new_game())
    >>> d["history"]["scores"] = [5, 0]
    >>> state_from_dict(d)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: inconsistent Back Alley state: the scores are the sums of the ...
    """
    f = Fields(data, "state")
    if f.text("format") != FORMAT:
        raise ParseError(f"unknown state format (expected {FORMAT!r})",
                         token=repr(f.get("format")))
    s = Fields(f.obj("settings"), "state.settings")
    try:
        settings = Settings(max_hand_size=s.integer("max_hand_size"))
    except ValueError as err:
        raise ParseError(f"state.settings: {err}") from None
    s.done()
    hands = f.array("hands")
    if len(hands) != NUM_PLAYERS:
        raise ParseError("state: 'hands' must hold one hand per seat", token=safe_repr(hands))
    # Every list is checked for length before its entries are read (at most
    # 25 results, 13 cards a hand, 13 tricks): a huge list costs nothing.
    size = settings.max_hand_size
    trick = f.cards("trick", jokers=True, max_length=NUM_PLAYERS)
    state = GameState(
        settings=settings, history=_read_history(f.get("history"), settings.deals),
        phase=f.enum("phase", Phase), dealer=_opt_seat(f, "dealer"),
        deal=_read_deal(f.get("deal")), current_player=_opt_seat(f, "current_player"),
        leader=_opt_seat(f, "leader"),
        hand_indexes=tuple(_read_hand(h, f"state.hands[{k}]", size)
                           for k, h in enumerate(hands)),
        trick_indexes=tuple(card.index for card in trick),
        tricks_won=_ints(f, "tricks_won", NUM_PLAYERS, minimum=0),
        tricks=tuple(_read_trick(t, f"state.tricks[{k}]")
                     for k, t in enumerate(f.array("tricks", max_length=size))),
        trump_played=f.flag("trump_played"))
    f.done()
    try:
        check_invariants(state)
    except (ValueError, IndexError, TypeError, KeyError) as err:
        raise ParseError(str(err)) from None
    return state
