"""Down and Back states and views as plain JSON values, and states back with
full validation.

Writing is generic (:func:`cardrules.engine.json_out.attributes_to_json`):
cards are written as text (``"KS"``), enums by value (``"discard"``),
hands and tuples as lists, nested records as objects.  Reading is strict
and hand-written, because a saved state is untrusted input.

**The state format** (``"format": "cardrules/down_and_back/state/1"``) is one
flat JSON object with exactly these keys (the layout of
:class:`~cardrules.down_and_back.GameState` may change; this format does
not):

- ``num_players`` (2 to 5), ``ante`` (at least 1), ``rounds`` (at least 1,
  or ``null`` for an open-ended game): the settings;
- ``phase``: a :class:`~cardrules.down_and_back.Phase` value such as
  ``"draw"``; ``round`` (from 1); ``dealer`` (a seat, ``null`` before the
  first is chosen); ``current_player`` (a seat or ``null``); ``pot``;
  ``net`` (one whole number per seat);
- ``hands`` and ``seen`` (one list of cards per seat), ``stock`` (top
  first), ``discard`` (top last), ``drawn`` (a card or ``null``);
- ``turns``: turns finished this round, one count per seat;
- ``splits``: per seat ``null`` or ``{"down": [4 cards], "back": [3 cards]}``;
- ``showdown``: ``null``, or a tie-break waiting for a reshuffle:
  ``{"down_winner": seat or null, "contenders": [seats], "drawn": [draws],
  "log": [draws]}`` where a draw is ``{"stage": "down" or "back",
  "seat": seat, "card": card}``;
- ``results``: the finished rounds, each ``{"round", "dealer", "splits"
  (one split per seat), "down_winner", "back_winner", "tiebreaks" (draws),
  "pot", "pot_winner" (seat or null)}``.

Cards are one card text per list entry.  :func:`~cardrules.down_and_back.state_from_dict` refuses,
with a :class:`~cardrules.ParseError` naming the place (such as
``state.results[2].back_winner``): unknown or missing keys at any level,
values of the wrong type (a bool is not a number), seats out of range, a
card missing or repeated, money that does not add up, and any history the
rules could not have produced: showdown winners that do not hold the best
hands (DB-41), tie-break draws that are not exactly the draws DB-42 makes
(the tied seats, in seat order from the dealer's left, pass after pass
until one highest rank remains), a pot paid to anyone but a seat that won
both showdowns (DB-43), a paused showdown that does not match its splits,
a discard pile, cards seen and turns that do not agree (a pile of ``p``
cards needs ``p - 1`` draws from the stock, and each card seen a draw from
the pile by its holder, DB-33 to DB-37), a finished game whose dealer is
not the dealer of its last round (DB-44).

The view format (``"format": "cardrules/down_and_back/view/1"``) has one
key per field of :class:`~cardrules.down_and_back.View`, written the same
way; it is for sending to a player's client and is not read back.

>>> import json
>>> from cardrules.down_and_back import new_game
>>> s = new_game(3, ante=2)
>>> state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s
True
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cardrules._validate import is_int
from cardrules.cards import DECK, Card
from cardrules.down_and_back.actions import Split
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.showdown import best_seats, draw_order, draw_winners, pot_winner
from cardrules.down_and_back.state import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURNS,
    GameState,
    History,
    Phase,
    RoundResult,
    Settings,
    Showdown,
    Stage,
    TieBreakDraw,
)
from cardrules.down_and_back.views import PublicView, View
from cardrules.engine.json_out import attributes_to_json
from cardrules.engine.readers import Fields, check_length, read_card, safe_repr
from cardrules.errors import ParseError
from cardrules.hand import Hand

__all__ = ["FORMAT", "STATE_KEYS", "VIEW_FORMAT", "state_from_dict", "state_to_dict",
           "view_to_dict"]

#: The ``format`` tag of a serialised state.
FORMAT = "cardrules/down_and_back/state/1"
#: The ``format`` tag of a serialised view.
VIEW_FORMAT = "cardrules/down_and_back/view/1"
#: The keys of a serialised state after ``format``, in the order written: each is
#: an attribute (a field or a read-only property) of
#: :class:`~cardrules.down_and_back.GameState`.
STATE_KEYS = ("num_players", "ante", "rounds", "phase", "round", "dealer", "current_player",
              "pot", "net", "hands", "stock", "discard", "seen", "turns", "drawn", "splits",
              "showdown", "results")

_SPLIT_SIZES = {"down": 4, "back": 3}


# -- writing -----------------------------------------------------------------------

def state_to_dict(state: GameState) -> dict[str, object]:
    """``state`` as a dict of JSON values (cards as text such as ``"KS"``).

    >>> from cardrules.down_and_back import new_game
    >>> d = state_to_dict(new_game(2))
    >>> d["format"], d["phase"], d["stock"][:2], d["turns"]
    ('cardrules/down_and_back/state/1', 'choose_dealer', ['AS', 'AH'], [0, 0])
    """
    return {"format": FORMAT, **attributes_to_json(state, STATE_KEYS)}


def view_to_dict(seat_view: View | PublicView) -> dict[str, object]:
    """A seat's :class:`~cardrules.down_and_back.View` as JSON-ready values,
    ready to send to that player's client.  It holds nothing the view does not.

    A :class:`~cardrules.down_and_back.views.PublicView` (a spectator's)
    gives the same keys, with ``seat`` null, an empty ``hand`` and ``drawn``
    null.

    >>> from cardrules.down_and_back import new_game, view
    >>> from cardrules.down_and_back.views import public_view
    >>> d = view_to_dict(view(new_game(2), 1))
    >>> d["seat"], d["hand"], d["stock_size"], d["phase"]
    (1, [], 52, 'choose_dealer')
    >>> view_to_dict(public_view(new_game(2))).keys() == d.keys()
    True
    """
    if isinstance(seat_view, PublicView):
        public = attributes_to_json(seat_view)
        names = [field.name for field in attrs.fields(View)]
        fields: dict[str, object] = {name: public.get(name) for name in names}
        fields.update(hand=[])
        return {"format": VIEW_FORMAT, **fields}
    return {"format": VIEW_FORMAT, **attributes_to_json(seat_view)}


# -- reading: one value at a time ----------------------------------------------------

def _list(value: object, where: str, max_length: int | None = None) -> list[object]:
    if not isinstance(value, list):
        raise ParseError(f"{where} must be a list, not {type(value).__name__}",
                         token=safe_repr(value))
    check_length(value, max_length, where)
    return value


def _per_seat(value: object, where: str, n: int) -> list[object]:
    items = _list(value, where)
    if len(items) != n:
        raise ParseError(f"{where} must have one entry per seat ({n}), not {len(items)}")
    return items


def _whole(value: object, where: str, minimum: int | None = None,
           maximum: int | None = None) -> int:
    if not is_int(value):
        raise ParseError(f"{where} must be a whole number", token=safe_repr(value))
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
        raise ParseError(f"{where} must be {bounds}", token=safe_repr(value))
    return value


def _cards(value: object, where: str, max_length: int) -> tuple[Card, ...]:
    return tuple(read_card(item, f"{where}[{k}]")
                 for k, item in enumerate(_list(value, where, max_length)))


def _hand(value: object, where: str, max_length: int = HAND_SIZE + 1) -> Hand[Card]:
    """A hand of at most ``max_length`` cards: seven, and one drawn (DB-33, DB-34)."""
    cards = _cards(value, where, max_length)
    try:
        return Hand(cards)
    except ValueError as err:
        raise ParseError(f"{where}: {err}") from None


def _split(value: object, where: str) -> Split:
    f = Fields(value, where)
    sides: dict[str, Hand[Card]] = {}
    for side, size in _SPLIT_SIZES.items():
        sides[side] = _hand(f.get(side), f"{where}.{side}")
        if len(sides[side]) != size:
            raise ParseError(f"{where}.{side} must hold {size} cards, not {len(sides[side])} "
                             f"(DB-40)")
    f.done()
    return Split(sides["down"], sides["back"])


def _draw(value: object, where: str, n: int) -> TieBreakDraw:
    f = Fields(value, where)
    draw = TieBreakDraw(stage=f.enum("stage", Stage),
                        seat=f.integer("seat", minimum=0, maximum=n - 1), card=f.card("card"))
    f.done()
    return draw


def _draws(value: object, where: str, n: int,
           max_length: int | None = None) -> tuple[TieBreakDraw, ...]:
    return tuple(_draw(item, f"{where}[{k}]", n)
                 for k, item in enumerate(_list(value, where, max_length)))


def _showdown(value: object, where: str, n: int) -> Showdown | None:
    if value is None:
        return None
    f = Fields(value, where)
    down_winner = f.opt_integer("down_winner", minimum=0, maximum=n - 1)
    contenders = tuple(_whole(seat, f"{where}.contenders[{k}]", 0, n - 1)
                       for k, seat in enumerate(_list(f.get("contenders"),
                                                      f"{where}.contenders", n)))
    drawn = _draws(f.get("drawn"), f"{where}.drawn", n, n)
    log = _draws(f.get("log"), f"{where}.log", n)
    f.done()
    return Showdown(down_winner=down_winner, contenders=contenders, drawn=drawn, log=log)


def _result(value: object, where: str, n: int) -> RoundResult:
    f = Fields(value, where)
    round_no = f.integer("round", minimum=1)
    dealer = f.integer("dealer", minimum=0, maximum=n - 1)
    splits = tuple(_split(item, f"{where}.splits[{k}]")
                   for k, item in enumerate(_per_seat(f.get("splits"), f"{where}.splits", n)))
    down_winner = f.integer("down_winner", minimum=0, maximum=n - 1)
    back_winner = f.integer("back_winner", minimum=0, maximum=n - 1)
    tiebreaks = _draws(f.get("tiebreaks"), f"{where}.tiebreaks", n)
    pot = f.integer("pot", minimum=0)
    pot_winner = f.opt_integer("pot_winner", minimum=0, maximum=n - 1)
    f.done()
    return RoundResult(round=round_no, dealer=dealer, splits=splits, down_winner=down_winner,
                       back_winner=back_winner, tiebreaks=tiebreaks, pot=pot,
                       pot_winner=pot_winner)


# -- reading: the whole state ------------------------------------------------------

def state_from_dict(data: object) -> GameState:
    """Rebuild a state from :func:`state_to_dict`'s form, checking everything.

    Raises :class:`~cardrules.ParseError` (a :class:`ValueError`) for a
    malformed or tampered state, naming where the problem is: wrong types,
    unknown keys, a card missing or repeated, sizes that do not fit the
    phase, money that does not add up, a history the rules could not have
    produced (see the module documentation).  A state it accepts is one the
    rules can reach, so play can go on from it.

    >>> from cardrules.down_and_back import new_game
    >>> d = state_to_dict(new_game(2))
    >>> d["stock"][0] = "AH"
    >>> state_from_dict(d)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: inconsistent Down and Back state: every card exactly once
    >>> state_from_dict({**state_to_dict(new_game(2)), "comment": "hi"})
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: state: unknown key: 'comment'
    """
    root = Fields(data, "state")
    tag = root.get("format")
    if tag != FORMAT:
        raise ParseError(f"state: unknown format (expected {FORMAT!r})",
                         token=safe_repr(tag))
    n = root.integer("num_players", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    settings = Settings(num_players=n, ante=root.integer("ante", minimum=1),
                        rounds=root.opt_integer("rounds", minimum=1))
    phase = root.enum("phase", Phase)
    round_no = root.integer("round", minimum=1)
    dealer = root.opt_integer("dealer", minimum=0, maximum=n - 1)
    current = root.opt_integer("current_player", minimum=0, maximum=n - 1)
    pot = root.integer("pot", minimum=0)
    net = tuple(_whole(v, f"state.net[{s}]")
                for s, v in enumerate(_per_seat(root.get("net"), "state.net", n)))
    hands = tuple(_hand(v, f"state.hands[{s}]")
                  for s, v in enumerate(_per_seat(root.get("hands"), "state.hands", n)))
    stock = _cards(root.get("stock"), "state.stock", len(DECK))
    discard = _cards(root.get("discard"), "state.discard", len(DECK))
    seen = tuple(_hand(v, f"state.seen[{s}]")
                 for s, v in enumerate(_per_seat(root.get("seen"), "state.seen", n)))
    turns = tuple(_whole(v, f"state.turns[{s}]", 0, TURNS)
                  for s, v in enumerate(_per_seat(root.get("turns"), "state.turns", n)))
    drawn = root.opt_card("drawn")
    splits = tuple(None if v is None else _split(v, f"state.splits[{s}]")
                   for s, v in enumerate(_per_seat(root.get("splits"), "state.splits", n)))
    showdown = _showdown(root.get("showdown"), "state.showdown", n)
    # A state holds the rounds finished before the current one (all of them
    # at the end), and no more than the game's rounds: a longer list is
    # refused before any of its entries is read.
    most = round_no if settings.rounds is None else min(round_no, settings.rounds)
    results = tuple(_result(v, f"state.results[{k}]", n)
                    for k, v in enumerate(_list(root.get("results"), "state.results", most)))
    root.done()

    state = GameState(
        settings=settings, history=History(round=round_no, dealer=dealer, pot=pot, net=net,
                                           results=results), phase=phase,
        current_player=current, hands=hands, stock=stock, discard=discard, seen=seen,
        turn=sum(turns), drawn=drawn, splits=splits, showdown=showdown)
    if state.turns != turns:
        raise ParseError(f"state.turns: turns go clockwise from the dealer's left (DB-34), "
                         f"so {sum(turns)} turns in all are {list(state.turns)}, "
                         f"not {list(turns)}")
    for k, result in enumerate(results):
        _check_result(result, results[0].dealer, k, f"state.results[{k}]")
    if showdown is not None:
        _check_showdown(state, showdown, "state.showdown")
    try:
        check_invariants(state)
    except ValueError as err:
        raise ParseError(str(err)) from None
    return state


# -- reading: the history must be one the rules make ---------------------------------

def _check_result(result: RoundResult, first_dealer: int, k: int, where: str) -> None:
    """A finished round as DB-31 and DB-41 to DB-43 make it."""
    n = len(result.splits)
    if result.round != k + 1:
        raise ParseError(f"{where}.round must be {k + 1}, not {result.round}")
    if result.dealer != (first_dealer + k) % n:
        raise ParseError(f"{where}.dealer: the deal passes to the left each round (DB-31), "
                         f"so round {k + 1} is dealt by seat {(first_dealer + k) % n}, "
                         f"not seat {result.dealer}")
    cards = [c for split in result.splits for c in (*split.down, *split.back)]
    if len(set(cards)) != len(cards):
        raise ParseError(f"{where}.splits: a card is in two players' splits")
    winners, _ = _walk_ties(result.splits, result.dealer, result.tiebreaks,
                            f"{where}.tiebreaks", may_pause=False)
    for key, stage, winner, claimed in (
            ("down_winner", Stage.DOWN, winners[0], result.down_winner),
            ("back_winner", Stage.BACK, winners[1], result.back_winner)):
        if claimed != winner:
            raise ParseError(f"{where}.{key}: the {stage.value} showdown goes to seat "
                             f"{winner} (DB-41, DB-42), not seat {claimed}")
    both = pot_winner(winners[0], winners[1])
    if result.pot_winner != both:
        rule = (f"seat {both} won both showdowns" if both is not None
                else "nobody won both showdowns, so the pot carries")
        raise ParseError(f"{where}.pot_winner: {rule} (DB-43), not {result.pot_winner}")


def _check_showdown(state: GameState, showdown: Showdown, where: str) -> None:
    """A showdown paused because the stock ran out during a tie-break (DB-36, DB-42)."""
    if state.phase is not Phase.RESHUFFLE:
        raise ParseError(f"{where}: a showdown is kept only while it waits for a "
                         f"reshuffle (DB-36), not in phase {state.phase.value!r}")
    splits = tuple(s for s in state.splits if s is not None)
    if state.dealer is None or len(splits) != state.num_players:
        raise ParseError(f"{where}: the showdown starts once every player has split (DB-40)")
    winners, paused = _walk_ties(splits, state.dealer, showdown.log, f"{where}.log",
                                 may_pause=True)
    if paused is None:
        raise ParseError(f"{where}.log: the showdown pauses only when the stock runs out "
                         f"during a tie-break (DB-36), and these draws break every tie")
    contenders, drawn = paused
    down_winner = winners[0] if winners else None
    if showdown.down_winner != down_winner:
        raise ParseError(f"{where}.down_winner must be {down_winner} "
                         f"(DB-41, DB-42), not {showdown.down_winner}")
    if showdown.contenders != contenders:
        raise ParseError(f"{where}.contenders: the seats tied in this pass are "
                         f"{list(contenders)} (DB-42), not {list(showdown.contenders)}")
    if showdown.drawn != drawn:
        raise ParseError(f"{where}.drawn must be the draws of the pass under way, the last "
                         f"{len(drawn)} of the log")


def _walk_ties(splits: Sequence[Split], dealer: int, draws: Sequence[TieBreakDraw],
               where: str, *, may_pause: bool
               ) -> tuple[list[int], tuple[tuple[int, ...], tuple[TieBreakDraw, ...]] | None]:
    """Follow ``draws`` through the showdown DB-41 and DB-42 make of ``splits``
    (the rules as :mod:`~cardrules.down_and_back.showdown` writes them).

    Returns the winners of the stages decided and, if the draws stop within
    a pass (allowed only with ``may_pause``: the stock ran out), that pass's
    contenders and draws so far.  Any draw the rules would not make, or a
    missing or extra draw, is a :class:`ParseError`.
    """
    order = draw_order(dealer, len(splits))
    held = {c for split in splits for c in (*split.down, *split.back)}
    winners: list[int] = []
    at = 0
    for stage in (Stage.DOWN, Stage.BACK):
        contenders = best_seats(splits, stage, order)
        while len(contenders) > 1:
            this_pass: list[TieBreakDraw] = []
            for seat in contenders:
                if at == len(draws):
                    if this_pass and may_pause:
                        return winners, (contenders, tuple(this_pass))
                    raise ParseError(
                        f"{where}: seats {list(contenders)} tie for the {stage.value} "
                        f"showdown and seat {seat} must draw next (DB-42), but the draws end")
                draw = draws[at]
                if draw.stage is not stage or draw.seat != seat:
                    raise ParseError(
                        f"{where}[{at}]: seat {seat} draws next for the {stage.value} "
                        f"showdown (DB-42), not seat {draw.seat} for the "
                        f"{draw.stage.value} showdown")
                if draw.card in held:
                    raise ParseError(f"{where}[{at}]: {draw.card} is in a player's hand, "
                                     f"so it cannot be drawn from the stock")
                if any(d.card == draw.card for d in this_pass):
                    raise ParseError(f"{where}[{at}]: {draw.card} is drawn twice in one pass")
                this_pass.append(draw)
                at += 1
            if at == len(draws) and may_pause:
                return winners, (contenders, tuple(this_pass))
            contenders = draw_winners(this_pass)
        winners.append(contenders[0])
    if at != len(draws):
        raise ParseError(f"{where}[{at}]: both showdowns are decided; there is no tie "
                         f"left to draw for (DB-42)")
    return winners, None
