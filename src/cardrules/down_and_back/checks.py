"""Invariants of a Down and Back state, and the hooks the conformance checks use.

:func:`check_invariants` is what loading a state from JSON relies on: it
raises :class:`ValueError` for any state the reducer could not have produced
(a card missing or repeated, sizes that do not fit the phase, money not
conserved).  :func:`probe_actions` feeds :func:`cardrules.engine.check_game`,
with ``hidden_variant`` from :mod:`cardrules.down_and_back.determinization`.

>>> from cardrules.down_and_back import new_game
>>> check_invariants(new_game(4))   # passes silently
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from cardrules._validate import is_int
from cardrules.cards import DECK, Card
from cardrules.down_and_back.actions import (
    Action,
    ChooseDealer,
    Cut,
    Discard,
    DrawDiscard,
    DrawStock,
    Shuffle,
    Split,
)
from cardrules.down_and_back.game import legal_actions, seat_order, turn_seat
from cardrules.down_and_back.showdown import best_seats, draw_winners, pot_winner
from cardrules.down_and_back.state import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TURNS,
    GameState,
    Phase,
    RoundResult,
    Stage,
    TieBreakDraw,
)
from cardrules.hand import Hand

__all__ = ["check_counts", "check_invariants", "probe_actions"]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(f"inconsistent Down and Back state: {message}")


def check_invariants(state: GameState) -> None:
    """Raise :class:`ValueError` unless ``state`` is one the rules can reach.

    >>> import attrs
    >>> from cardrules.down_and_back import new_game
    >>> s = new_game(2)
    >>> check_invariants(attrs.evolve(s, history=attrs.evolve(s.history, pot=5)))
    Traceback (most recent call last):
    ...
    ValueError: inconsistent Down and Back state: money is not conserved
    """
    settings, history = state.settings, state.history
    n = settings.num_players
    _require(is_int(n) and MIN_PLAYERS <= n <= MAX_PLAYERS, "2 to 5 players")
    _require(is_int(settings.ante) and settings.ante >= 1 and (
        settings.rounds is None or (is_int(settings.rounds) and settings.rounds >= 1)),
        "bad settings")
    for name, items in (("net", history.net), ("hands", state.hands), ("seen", state.seen),
                        ("splits", state.splits)):
        _require(len(items) == n, f"{name} must have one entry per seat")
    for pile in (*state.hands, *state.seen):
        _require(isinstance(pile, Hand) and all(isinstance(c, Card) for c in pile)
                 and all(a.index < b.index for a, b in pairwise(pile)),
                 "hands are Hand objects of distinct cards in canonical order")
    phase = state.phase
    _require(isinstance(phase, Phase), "unknown phase")
    on_table = tuple(d.card for d in state.showdown.drawn) if state.showdown else ()
    cards = [c for h in state.hands for c in h] + [*state.stock, *state.discard, *on_table]
    _require(len(cards) == 52 and set(cards) == set(DECK), "every card exactly once")
    for seat in range(n):
        _require(set(state.seen[seat]) <= set(state.hands[seat]), "seen cards must be held")
    _check_money(state)
    if phase is Phase.CHOOSE_DEALER:
        _require(history.dealer is None and not history.results, "no dealer before the first deal")
    else:
        _require(is_int(history.dealer) and 0 <= history.dealer < n, "dealer seat")
        first = history.results[0].dealer if history.results else (history.dealer or 0)
        for k, result in enumerate(history.results):
            _require(result.dealer == (first + k) % n and result.round == k + 1,
                     "the deal passes to the left each round")
        if history.results and phase is not Phase.GAME_OVER:
            _require(history.dealer == (first + len(history.results)) % n, "dealer order")
        if phase is Phase.GAME_OVER:
            _require(bool(history.results) and history.dealer == history.results[-1].dealer,
                     "a finished game keeps the dealer of its last round (DB-31, DB-44)")
    gathered = phase in (Phase.CHOOSE_DEALER, Phase.SHUFFLE, Phase.GAME_OVER)
    dealt = phase in (Phase.DRAW, Phase.DISCARD, Phase.RESHUFFLE, Phase.SPLIT)
    if gathered:
        _require(state.stock == DECK and not any(state.hands), "cards gathered between rounds")
    if phase is Phase.CUT:
        _require(not any(state.hands) and len(state.stock) == 52, "the deck awaits the cut")
    _require(state.current_player is None if phase.is_chance or phase is Phase.GAME_OVER
             else is_int(state.current_player), "who acts must match the phase")
    if phase is Phase.CUT:
        _require(state.current_player == ((history.dealer or 0) - 1) % n, "the cutter")
    if dealt:
        _check_dealt(state)
    else:
        _require(state.drawn is None and state.showdown is None and state.turn == 0
                 and all(s is None for s in state.splits), "no play between rounds")


def _check_money(state: GameState) -> None:
    """Antes of every round started (DB-30), pots paid to winners (DB-43)."""
    settings, history, phase = state.settings, state.history, state.phase
    n, ante = settings.num_players, settings.ante
    results = history.results
    started = len(results) + (0 if phase in (Phase.CHOOSE_DEALER, Phase.GAME_OVER) else 1)
    _require(history.round == max(1, len(results) + (phase is not Phase.GAME_OVER)),
             "round number does not match the finished rounds")
    _require(phase is not Phase.GAME_OVER or len(results) == settings.rounds,
             "the game ends after the set number of rounds")
    _require(settings.rounds is None or history.round <= settings.rounds,
             "no round beyond the set number of rounds")
    for result in results:
        _require(is_int(result.pot_winner) and 0 <= result.pot_winner < n
                 if result.pot_winner is not None else True, "pot winner seat")
    won = [sum(r.pot for r in results if r.pot_winner == s) for s in range(n)]
    expected_net = tuple(w - ante * started for w in won)
    _require(history.net == expected_net and sum(history.net) + history.pot == 0,
             "money is not conserved")
    carry = 0
    for result in results:
        _check_result(state, result)
        _require(result.pot == carry + ante * n, "each pot is the antes plus what carried")
        carry = 0 if result.pot_winner is not None else result.pot
    in_round = phase not in (Phase.CHOOSE_DEALER, Phase.GAME_OVER)
    _require(history.pot == carry + (ante * n if in_round else 0), "the pot")


def _check_result(state: GameState, result: RoundResult) -> None:
    """A finished round must be one the showdown rules (DB-41 to DB-43) produce."""
    n = state.num_players
    _require(len(result.splits) == n, "a result holds every player's split")
    cards = [c for s in result.splits for c in (*s.down, *s.back)]
    _require(all(len(s.down) == 4 and len(s.back) == 3 for s in result.splits)
             and len(set(cards)) == 7 * n, "the splits of a result")
    seats = range(n)
    _require(is_int(result.down_winner)
             and result.down_winner in best_seats(result.splits, Stage.DOWN, seats),
             "the down showdown goes to a best 4-card hand")
    _require(is_int(result.back_winner)
             and result.back_winner in best_seats(result.splits, Stage.BACK, seats),
             "the back showdown goes to a best 3-card hand")
    _require(all(isinstance(d.stage, Stage) and is_int(d.seat) and 0 <= d.seat < n
                 for d in result.tiebreaks), "tie-break draws name a stage and a seat")
    _require(result.pot_winner == pot_winner(result.down_winner, result.back_winner),
             "only a player who wins both takes the pot")


def _check_dealt(state: GameState) -> None:
    n, phase = state.num_players, state.phase
    in_showdown = state.showdown is not None
    total = state.turn
    _require(is_int(total) and 0 <= total <= TURNS * n, "turn count")
    sizes = [len(h) for h in state.hands]
    drawing = phase is Phase.DISCARD or (phase is Phase.RESHUFFLE and not in_showdown)
    if drawing:
        seat = turn_seat(state)
        _require(state.drawn is not None and state.drawn in state.hands[seat], "drawn card")
        _require(sizes == [HAND_SIZE + (s == seat) for s in range(n)], "hand sizes")
    else:
        _require(state.drawn is None and sizes == [HAND_SIZE] * n, "hand sizes")
    if phase is Phase.RESHUFFLE:
        _require(not state.stock and len(state.discard) >= 1, "reshuffle when the stock is out")
    else:
        _require(bool(state.stock), "the stock is never left empty")
        _require(not in_showdown, "a showdown pauses only for a reshuffle")
    if phase is Phase.DRAW or phase is Phase.SPLIT:
        # DB-33 turns a card up and every turn ends with a discard (DB-34), so
        # the pile is empty only between taking its top card and discarding.
        _require(bool(state.discard), "a card lies face up on the discard pile")
    if phase in (Phase.DRAW, Phase.DISCARD) or drawing:
        _require(total < TURNS * n and all(s is None for s in state.splits), "turns remain")
        if phase is not Phase.RESHUFFLE:
            _require(state.current_player == turn_seat(state), "whose turn it is")
    if phase is Phase.SPLIT or in_showdown:
        _require(total == TURNS * n, "everyone has had six turns")
        for seat, split in enumerate(state.splits):
            if split is not None:
                _require(len(split.down) == 4 and len(split.back) == 3 and
                         sorted(split.down + split.back) == list(state.hands[seat]),
                         "a split uses the player's seven cards")
    if phase is Phase.SPLIT:
        waiting = [s for s in seat_order(state) if state.splits[s] is None]
        _require(bool(waiting) and state.current_player == waiting[0], "who splits next")
    if in_showdown:
        _check_showdown(state)
    check_counts(state)


def _check_showdown(state: GameState) -> None:
    """A showdown paused for a reshuffle (DB-36, DB-42)."""
    _require(all(s is not None for s in state.splits), "showdown after every split")


def check_counts(state: GameState) -> None:
    """Raise :class:`ValueError` unless the discard pile, the cards seen and
    the turns of ``state`` agree (DB-33 to DB-37); a part of
    :func:`~cardrules.down_and_back.checks.check_invariants`, which the
    determinizer uses alone to test a guess at the card another player drew.

    The dealt cards outside the hands are always the same number ``C``
    (``52 - 7n``): the stock, the discard pile and (mid-turn) the card
    drawn.  Of all the histories that lead to a pile of ``p`` cards, the one
    without a reshuffle uses the fewest draws from the stock: ``p - 1``
    (the pile starts with one card, DB-33, and grows by one each turn whose
    draw came from the stock), or ``p`` mid-turn, counting the draw just
    made.  Every other draw came from the pile, and a card in a seat's
    ``seen`` is one that seat took from the pile and still holds (DB-37),
    so the seen cards are at most those draws, and a seat's seen cards at
    most its own draws from the pile.  A showdown paused for a reshuffle
    (DB-36, DB-42) is checked against the pile it started from: the stock
    ran out after exactly as many tie-break draws as it held.

    >>> import attrs
    >>> from cardrules.down_and_back import Cut, DrawStock, Discard, ChooseDealer, Shuffle
    >>> from cardrules.down_and_back import apply, new_game
    >>> from cardrules import DECK
    >>> s = apply(apply(apply(new_game(2), ChooseDealer(0)), Shuffle(DECK)), Cut(1))
    >>> s = apply(s, DrawStock())
    >>> check_counts(s)   # passes silently
    >>> check_counts(attrs.evolve(s, discard=()))
    Traceback (most recent call last):
    ...
    ValueError: inconsistent Down and Back state: a draw from the stock leaves the discard ...
    """
    phase, turn = state.phase, state.turn
    seen = [len(cards) for cards in state.seen]
    showdown = state.showdown
    mid = phase is Phase.DISCARD or (phase is Phase.RESHUFFLE and showdown is None)
    from_pile = mid and state.drawn is not None and state.drawn in state.seen[turn_seat(state)]
    pile = len(state.discard) if showdown is None else _pile_at_showdown(state, showdown.log)
    if phase is Phase.RESHUFFLE and showdown is None:
        _require(not from_pile, "the stock ran out on a draw from the stock, so the card drawn "
                                "was not taken from the discard pile (DB-36, DB-37)")
    if mid and not from_pile:
        _require(pile >= 1, "a draw from the stock leaves the discard pile as it was, and every "
                            "turn starts with a card on it (DB-33, DB-34)")
    draws = turn + mid
    from_stock = pile if mid else pile - 1
    current = turn_seat(state) if mid else None
    for seat, (count, done) in enumerate(zip(seen, state.turns, strict=True)):
        own_draws = done + (seat == current and from_pile)
        _require(count <= own_draws,
                 f"seat {seat} holds {count} cards seen taken from the discard pile, "
                 f"but has drawn only {own_draws} times (DB-34, DB-37)")
    _require(from_stock + sum(seen) <= draws,
             f"a discard pile of {pile} cards{' at the showdown' if showdown else ''} needs "
             f"{from_stock} draws from the stock and "
             f"{sum(seen)} cards seen need as many draws from the pile, more than the "
             f"{draws} draws of {turn} turns (DB-33, DB-34, DB-37)")


def _pile_at_showdown(state: GameState, log: tuple[TieBreakDraw, ...]) -> int:
    """The smallest discard pile the showdown of a state paused for a
    reshuffle can have started with (DB-36, DB-42).

    The stock ran out after as many tie-break draws as it held, then after
    as many as each reshuffle put back (the pile, less the top card turned
    up and the cards of the pass on the table), and the last of these
    stock-outs is this pause.
    """
    spare = 52 - HAND_SIZE * state.num_players
    on_table = _on_table(state, log)
    _require(len(on_table) == len(log) >= 1, "tie-break draws follow DB-42")
    for first in range(min(len(log), spare - 1), 0, -1):
        at = first
        while at < len(log):
            at += spare - on_table[at - 1] - 1
        if at == len(log):
            return spare - first
    raise ValueError("inconsistent Down and Back state: the showdown pauses when the stock "
                     "runs out (DB-36), which these tie-break draws do not fit")


def _on_table(state: GameState, log: tuple[TieBreakDraw, ...]) -> list[int]:
    """After each draw of ``log``, how many draws of its pass are on the table (DB-42)."""
    counts: list[int] = []
    at = 0
    splits = [s for s in state.splits if s is not None]
    for stage in (Stage.DOWN, Stage.BACK):
        tied = len(best_seats(splits, stage, range(len(splits))))
        while tied > 1:
            start = at
            for _ in range(tied):
                if at == len(log):
                    return counts
                at += 1
                counts.append(at - start)
            tied = len(draw_winners(log[start:at]))
    return counts


def probe_actions(state: GameState) -> Iterator[Action]:
    """Legal actions followed by a spread of likely illegal ones, for testing.

    >>> from cardrules.down_and_back import new_game
    >>> any(isinstance(a, Shuffle) for a in probe_actions(new_game(2)))
    True
    """
    yield from legal_actions(state)
    n = state.num_players
    yield ChooseDealer(0)
    yield ChooseDealer(n)
    yield Shuffle(DECK)
    yield Shuffle(DECK[:10])
    if state.discard:
        yield Shuffle(tuple(reversed(state.discard)))
    yield Cut(0)
    yield Cut(52)
    yield Cut(1)
    yield DrawStock()
    yield DrawDiscard()
    held = set(state.hands[state.current_player]) if state.current_player is not None else set()
    outside = [c for c in DECK if c not in held]
    yield Discard(outside[0])
    if state.current_player is not None and state.hands[state.current_player]:
        hand = state.hands[state.current_player]
        yield Discard(hand[0])
        yield Split(hand[:3], hand[3:])
        yield Split(hand[:4], (*hand[4:6], outside[0]))
        yield Split(hand[:4], hand[4:])
