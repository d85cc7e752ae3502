"""Invariants of a Back Alley state, and the hooks the conformance checks use.

:func:`check_invariants` is what loading a state from JSON relies on: it
raises :class:`ValueError` for any state the rules could not have produced
(a card missing or repeated, bids out of order, a play that breaks BA-31 to
BA-33, a trick given to the wrong seat, scores that do not follow from the
results).  :func:`probe_actions` feeds :func:`cardrules.engine.check_game`,
with ``hidden_variant`` from :mod:`cardrules.back_alley.determinization`.

>>> from cardrules.back_alley import new_game
>>> check_invariants(new_game())   # passes silently
"""

from __future__ import annotations

from collections.abc import Iterator

from cardrules.back_alley.actions import BIDS, BOARD, CARDS, PASS, PLAYS, Action, Bid, Board
from cardrules.back_alley.game import (
    BID_CHOICES,
    first_leader,
    legal_actions,
)
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    Deal,
    DealResult,
    GameState,
    History,
    Phase,
    Trick,
    contract_of,
    hand_size_of,
    score,
)
from cardrules.back_alley.trick import TRUMP_CLASS, legal_plays, table_for, trick_winner
from cardrules.cards import DECK, Card, Joker
from cardrules.engine.chance import ChooseDealer, Shuffle

__all__ = ["check_invariants", "probe_actions"]

_SEATS = range(NUM_PLAYERS)
_NO_TRICKS = (0,) * NUM_PLAYERS


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(f"inconsistent Back Alley state: {message}")


def check_invariants(state: GameState) -> None:
    """Raise :class:`ValueError` unless ``state`` is one the rules can reach.

    >>> import attrs
    >>> from cardrules.back_alley import new_game
    >>> check_invariants(attrs.evolve(new_game(), dealer=2))
    Traceback (most recent call last):
    ...
    ValueError: inconsistent Back Alley state: no dealer before the first dealer is chosen
    """
    settings, history, phase = state.settings, state.history, state.phase
    _require(isinstance(phase, Phase), "phase")
    _check_history(history, settings.max_hand_size)
    results = history.results
    _require(len(state.hand_indexes) == NUM_PLAYERS and len(state.tricks_won) == NUM_PLAYERS,
             "one hand and one trick count per seat")
    if phase is Phase.CHOOSE_DEALER:
        _require(state.dealer is None and history.first_dealer is None,
                 "no dealer before the first dealer is chosen")
        _require(not results and history.throw_ins == 0, "no deal before the first dealer")
    else:
        _require(history.first_dealer is not None and state.dealer is not None,
                 "a dealer once chosen (BA-11)")
        if phase is Phase.GAME_OVER:
            _require(len(results) == settings.deals, "the game ends after the last deal (BA-10)")
            _require(history.throw_ins == 0, "no throw-in after the last deal")
            _require(state.dealer == results[-1].dealer, "the last dealer")
        else:
            _require(len(results) < settings.deals, "no deal after the last (BA-10)")
            start = results[-1].dealer + 1 if results else history.first_dealer or 0
            _require(state.dealer == (start + history.throw_ins) % NUM_PLAYERS,
                     "the deal passes clockwise after every deal and throw-in (BA-11, BA-25)")
    if phase in (Phase.BID, Phase.PLAY):
        _check_deal(state)
        return
    _require(state.deal is None and state.current_player is None and state.leader is None,
             "no deal in progress between deals")
    _require(not any(state.hand_indexes) and not state.trick_indexes and not state.tricks
             and state.tricks_won == _NO_TRICKS and not state.trump_played,
             "the cards are collected between deals")


def _check_history(history: History, max_hand_size: int) -> None:
    _require(history.first_dealer is None or history.first_dealer in _SEATS, "first dealer")
    _require(history.throw_ins >= 0, "throw-in count")
    totals = [0, 0]
    dealer = history.first_dealer
    for number, result in enumerate(history.results, start=1):
        _check_result(result, number, max_hand_size)
        expected = ((dealer or 0) + result.throw_ins) % NUM_PLAYERS
        _require(result.dealer == expected,
                 f"deal {number} was dealt by the wrong seat (BA-11, BA-25)")
        dealer = result.dealer + 1
        totals[0] += result.points[0]
        totals[1] += result.points[1]
    _require(len(history.scores) == 2 and list(history.scores) == totals,
             "the scores are the sums of the points of every deal")


def _check_result(result: DealResult, number: int, max_hand_size: int) -> None:
    where = f"deal {number}"
    _require(result.deal_number == number, f"{where}: deal numbers run 1, 2, ...")
    size = hand_size_of(number, max_hand_size)
    _require(result.hand_size == size, f"{where}: hand size (BA-10)")
    _require(result.dealer in _SEATS and result.throw_ins >= 0, f"{where}: dealer")
    _require(isinstance(result.trump_card, Card | Joker), f"{where}: the turned card")
    bids = result.bids
    _require(len(bids) == NUM_PLAYERS and all(b in BID_CHOICES[size] for b in bids),
             f"{where}: every bid is legal for {size} cards (BA-21)")
    _require(any(b != PASS for b in bids), f"{where}: four passes are thrown in (BA-25)")
    contracts = (contract_of(bids, result.dealer, 0), contract_of(bids, result.dealer, 1))
    _require(result.contracts == contracts, f"{where}: contracts follow the bids (BA-24)")
    tricks = result.tricks
    _require(len(tricks) == 2 and min(tricks) >= 0 and sum(tricks) == size,
             f"{where}: the tricks taken add up to the hand size")
    points = (score(contracts[0], tricks[0], size), score(contracts[1], tricks[1], size))
    _require(result.points == points, f"{where}: points follow BA-40 to BA-42")


def _check_deal(state: GameState) -> None:
    deal, dealer = state.deal, state.dealer
    _require(deal is not None and dealer is not None, "a deal in progress")
    assert deal is not None
    assert dealer is not None
    size = deal.hand_size
    _require(size == state.hand_size, "the hand size of this deal (BA-10)")
    turned = deal.trump_card
    _require(deal.trump == (turned.suit if isinstance(turned, Card) else None),
             "the trump is the turned card's suit (BA-13)")
    # compared by value: a deal read back by pickle or copy has equal tables
    _require(deal.table == table_for(deal.trump), "trump tables")
    _check_exchange(deal)
    played = [i for t in state.tricks for i in _indexes(t.cards)] + list(state.trick_indexes)
    for hand in state.hand_indexes:
        _require(list(hand) == sorted(set(hand)) and all(0 <= i < 54 for i in hand),
                 "a hand holds distinct cards")
    everything = [i for hand in state.hand_indexes for i in hand] + played + _indexes(deal.undealt)
    everything.append(deal.trump_card.index)
    if deal.joker_discard is not None:
        everything.append(deal.joker_discard.index)
    _require(sorted(everything) == list(range(54)),
             "every one of the 54 cards is in exactly one place")
    if deal.trump is None:
        in_play = [i for hand in state.hand_indexes for i in hand] + played
        _require(all(i < 52 for i in in_play), "no joker is in play without trump (BA-13)")
    _check_bids(state, deal, dealer)
    if state.phase is Phase.BID:
        _require(all(len(h) == size for h in state.hand_indexes),
                 "every hand is full while bidding")
        # While bidding the hands are still the hands as dealt (after the
        # exchange), so the card taken is in the exchanger's hand: else that
        # seat's view would show a card of another seat or of the undealt rest.
        if deal.exchanger is not None and deal.taken is not None:
            _require(deal.taken.index in state.hand_indexes[deal.exchanger],
                     "the exchanger holds the card taken (BA-13)")
        _require(not played and not state.tricks and state.leader is None
                 and state.tricks_won == _NO_TRICKS and not state.trump_played,
                 "no card is played while bidding")
        return
    _check_play(state, deal, dealer)


def _indexes(cards: tuple[Card | Joker, ...]) -> list[int]:
    return [card.index for card in cards]


def _check_exchange(deal: Deal) -> None:
    """The BA-13 fields fit the turned card."""
    turned = deal.trump_card
    exchanged = deal.joker_discard is not None
    _require(exchanged == (deal.exchanger is not None) == (deal.taken is not None),
             "a BA-13 exchange has a discarded joker, who discarded it and the card taken")
    if isinstance(turned, Joker):
        other = Joker.LITTLE if turned is Joker.BIG else Joker.BIG
        _require(not exchanged or deal.joker_discard is other,
                 "only the other joker is discarded (BA-13)")
        _require(deal.exchanger is None or deal.exchanger in _SEATS, "the exchanger's seat")
        _require(exchanged or other in deal.undealt,
                 "the other joker is exchanged unless it was left undealt (BA-13)")
    else:
        _require(not exchanged, "no exchange unless a joker is turned (BA-13)")
    _require(len(deal.undealt) == 53 - 4 * deal.hand_size - exchanged,
             "the undealt cards are what is left after the deal (BA-12, BA-13)")


def _check_bids(state: GameState, deal: Deal, dealer: int) -> None:
    bids = deal.bids
    order = [(dealer + k) % NUM_PLAYERS for k in range(1, NUM_PLAYERS + 1)]
    made = [bids[seat] for seat in order]
    count = sum(b is not None for b in made)
    _require(all(b is not None for b in made[:count]) and len(bids) == NUM_PLAYERS,
             "bids are made clockwise from the dealer's left (BA-20)")
    _require(all(b in BID_CHOICES[deal.hand_size] for b in made[:count]),
             f"every bid is legal for {deal.hand_size} cards (BA-21)")
    if state.phase is Phase.BID:
        _require(count < NUM_PLAYERS and state.current_player == order[count],
                 "the next bidder is to act (BA-20)")
    else:
        _require(count == NUM_PLAYERS, "play starts once all four have bid (BA-20)")
        _require(any(b != PASS for b in made), "four passes are thrown in (BA-25)")


def _check_play(state: GameState, deal: Deal, dealer: int) -> None:
    """Replay the deal from the hands as dealt: every play legal, every trick
    won by the right seat (BA-30 to BA-34)."""
    bids = deal.bids
    hands = [list(h) for h in state.hand_indexes]
    for trick in state.tricks:
        _require(trick.leader in _SEATS and len(trick.cards) == NUM_PLAYERS,
                 "a finished trick has four cards")
        for k, card in enumerate(trick.cards):
            hands[(trick.leader + k) % NUM_PLAYERS].append(card.index)
    for k, card_index in enumerate(state.trick_indexes):
        _require(state.leader is not None, "a trick in progress has a leader")
        hands[((state.leader or 0) + k) % NUM_PLAYERS].append(card_index)
    initial = [tuple(sorted(h)) for h in hands]
    _require(all(len(h) == deal.hand_size and len(set(h)) == len(h) for h in initial),
             "each seat was dealt the hand size (BA-12)")
    if deal.exchanger is not None and deal.taken is not None:
        _require(deal.taken.index in initial[deal.exchanger],
                 "the exchanger holds the card taken (BA-13)")
    held = [list(h) for h in initial]
    leader = first_leader(bids, dealer)
    won = [0] * NUM_PLAYERS
    trump_played = False
    classes = deal.table[0]
    finished: tuple[Trick | None, ...] = (*state.tricks, None)
    for done in finished:
        cards = _indexes(done.cards) if done is not None else list(state.trick_indexes)
        if done is not None:
            _require(done.leader == leader, "the winner of a trick leads the next (BA-30, BA-34)")
        else:
            _require(state.leader == leader, "the leader of the current trick (BA-30, BA-34)")
        for k, index in enumerate(cards):
            seat = (leader + k) % NUM_PLAYERS
            allowed = legal_plays(held[seat], cards[:k], deal.table, trump_played=trump_played,
                                  claimed_board=bids[seat].__class__ is Board)
            _require(index in allowed,
                     f"seat {seat} could not play {CARDS[index]} there (BA-31 to BA-33)")
            held[seat].remove(index)
            trump_played = trump_played or classes[index] == TRUMP_CLASS
        if done is None:
            break
        winner = trick_winner(leader, cards, deal.table)
        _require(done.winner == winner, "a trick goes to its highest card (BA-34)")
        won[winner] += 1
        leader = winner
    _require(len(state.tricks) < deal.hand_size, "a deal ends with its last trick")
    _require(len(state.trick_indexes) < NUM_PLAYERS, "a trick holds at most four cards")
    _require(tuple(won) == state.tricks_won, "tricks won per seat")
    _require(state.trump_played == trump_played, "whether a trump has been played (BA-32)")
    _require(state.current_player == (leader + len(state.trick_indexes)) % NUM_PLAYERS,
             "play goes clockwise from the leader (BA-34)")


def probe_actions(state: GameState) -> Iterator[Action]:
    """A few legal actions followed by a spread of likely illegal ones, for
    testing: chance actions out of turn, bids out of range, cards not held and
    every held card the rules forbid now (BA-31 to BA-33).

    >>> from cardrules.back_alley import new_game
    >>> any(isinstance(a, Shuffle) for a in probe_actions(new_game()))
    True
    """
    legal = legal_actions(state)
    yield from legal[:2]
    yield ChooseDealer(0)
    yield ChooseDealer(NUM_PLAYERS)
    yield Shuffle(CARDS)
    yield Shuffle(DECK)
    yield Shuffle(CARDS[:10])
    yield PASS
    yield BOARD
    yield BIDS[0]
    yield Bid(state.hand_size)
    yield Bid(14)
    seat = state.current_player
    held = set(state.hand_indexes[seat]) if seat is not None else set()
    outside = [i for i in range(54) if i not in held]
    yield PLAYS[outside[0]]
    yield PLAYS[outside[-1]]
    if seat is not None:
        for index in sorted(held):
            if PLAYS[index] not in legal:
                yield PLAYS[index]
    if state.deal is not None:
        yield PLAYS[state.deal.trump_card.index]

