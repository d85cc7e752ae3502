"""The Back Alley reducer: :func:`new_game`, :func:`legal_actions`,
:func:`apply` and :func:`sample_chance` (BA-1 to BA-43).

Everything automatic happens inside :func:`apply`: the deal, turning the
trump card, the joker exchange of BA-13, the throw-in after four passes
(BA-25), resolving tricks, scoring, the next deal and the end of the game.
The caller supplies only decisions (bids and plays) and chance events (the
first dealer and each shuffle).

>>> import random
>>> from cardrules.back_alley import new_game, apply, legal_actions, sample_chance
>>> rng = random.Random(3)
>>> state = new_game(max_hand_size=2)
>>> while not state.is_terminal:
...     if state.is_chance:
...         action = sample_chance(state, rng)
...     else:
...         action = rng.choice(legal_actions(state))
...     state = apply(state, action)
>>> len(state.results), sum(r.points[0] for r in state.results) == state.scores[0]
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import NoReturn

from cardrules._validate import check_seat
from cardrules.back_alley.actions import (
    BIDS,
    BOARD,
    CARDS,
    PASS,
    PLAYS,
    Action,
    Bid,
    BidAction,
    Board,
    ChooseDealer,
    Pass,
    Play,
    Shuffle,
)
from cardrules.back_alley.state import (
    NUM_PLAYERS,
    Deal,
    DealResult,
    GameState,
    History,
    Phase,
    Settings,
    Trick,
    contract_of,
    score,
)
from cardrules.back_alley.trick import TRUMP_CLASS, legal_plays, refusal_of, trick_winner
from cardrules.cards import Card, Joker
from cardrules.engine.chance import shuffled_by_keys
from cardrules.errors import IllegalActionError
from cardrules.hand import Hand
from cardrules.i18n import lazy_gettext, lazy_ngettext

__all__ = [
    "BID_CHOICES",
    "PHASE_RULES",
    "apply",
    "first_leader",
    "legal_actions",
    "new_game",
    "sample_chance",
]

_BIG, _LITTLE = 52, 53
_NO_HANDS: tuple[tuple[int, ...], ...] = ((),) * NUM_PLAYERS
_NO_TRICKS = (0,) * NUM_PLAYERS
_NO_BIDS: tuple[BidAction | None, ...] = (None,) * NUM_PLAYERS
_INDEX = attrgetter("index")
#: The legal bids by hand size (BA-21): ``BID_CHOICES[size]`` is pass, bid 1
#: up to bid ``size - 1``, board, in the order
#: :func:`~cardrules.back_alley.legal_actions` lists them
#: (the shared action instances).
#:
#: >>> [str(bid) for bid in BID_CHOICES[3]]
#: ['pass', 'bid 1', 'bid 2', 'board']
BID_CHOICES: tuple[tuple[BidAction, ...], ...] = tuple(
    (PASS, *BIDS[:max(size - 1, 0)], BOARD) for size in range(14))
# The phases as module names: CPython 3.11 reads an enum member through its
# class with a descriptor call, and the reducer compares phases at every step.
_CHOOSE_DEALER = Phase.CHOOSE_DEALER
_SHUFFLE = Phase.SHUFFLE
_BID = Phase.BID
_PLAY = Phase.PLAY
_GAME_OVER = Phase.GAME_OVER
#: The rule that governs what may happen in each phase: the id an
#: :class:`~cardrules.IllegalActionError` names when an action does not fit
#: the phase (a read-only mapping).
#:
#: >>> PHASE_RULES[Phase.BID]
#: 'BA-20'
PHASE_RULES: Mapping[Phase, str] = MappingProxyType({
    Phase.CHOOSE_DEALER: "BA-11", Phase.SHUFFLE: "BA-12", Phase.BID: "BA-20",
    Phase.PLAY: "BA-30", Phase.GAME_OVER: "BA-43"})


def new_game(*, max_hand_size: int = 13) -> GameState:
    """The state before the first dealer is chosen (a chance point, BA-11).

    The defaults are the rules: 25 deals of 13 down to 1 and back up to 13
    cards (BA-10).  ``max_hand_size`` (1 to 13) is an explicit short-game
    variant, see :class:`~cardrules.back_alley.Settings`.

    >>> s = new_game()
    >>> s.phase, s.settings.deals
    (<Phase.CHOOSE_DEALER: 'choose_dealer'>, 25)
    >>> new_game(max_hand_size=3).settings.deals
    5
    """
    return _start(Settings(max_hand_size=max_hand_size))


def _new_state(*, settings: Settings, history: History, phase: Phase, dealer: int | None,
               deal: Deal | None, current_player: int | None, leader: int | None,
               hand_indexes: tuple[tuple[int, ...], ...], trick_indexes: tuple[int, ...],
               tricks_won: tuple[int, ...], tricks: tuple[Trick, ...],
               trump_played: bool) -> GameState:
    """``GameState(settings=..., ...)``, each field named, at the cost of a call
    by position: calling a class with keywords makes a dict of them first, which
    costs the reducer about a tenth of an action, while a function takes its
    keywords as they are.  The one positional call is here, in the order of the
    fields; a test checks that this signature lists them in that order."""
    return GameState(settings, history, phase, dealer, deal, current_player, leader,
                     hand_indexes, trick_indexes, tricks_won, tricks, trump_played)


def _start(settings: Settings) -> GameState:
    history = History(first_dealer=None, throw_ins=0, results=(), scores=(0, 0))
    return _between_deals(settings, history, _CHOOSE_DEALER, None)


def _between_deals(settings: Settings, history: History, phase: Phase,
                   dealer: int | None) -> GameState:
    """A state with no deal in progress (BA-11, BA-12, BA-25, BA-43): no cards
    in hand, no trick, nobody to act."""
    return _new_state(settings=settings, history=history, phase=phase, dealer=dealer,
                      deal=None, current_player=None, leader=None, hand_indexes=_NO_HANDS,
                      trick_indexes=(), tricks_won=_NO_TRICKS, tricks=(), trump_played=False)


# -- legal actions -------------------------------------------------------------

def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player to act, in a stable order.

    Empty at a chance point and at the end.  Bids come as pass, bid 1 up to
    bid hand size - 1, board (BA-21); plays in the order of the hand.

    >>> from cardrules.back_alley import new_game, apply, ChooseDealer, Shuffle
    >>> from cardrules.back_alley.actions import CARDS
    >>> s = apply(apply(new_game(max_hand_size=3), ChooseDealer(0)), Shuffle(CARDS))
    >>> [str(a) for a in legal_actions(s)]
    ['pass', 'bid 1', 'bid 2', 'board']
    """
    phase = state.phase
    if phase is _PLAY:
        seat = state.current_player
        assert seat is not None
        deal = state.deal
        assert deal is not None
        return tuple(map(PLAYS.__getitem__, legal_plays(
            state.hand_indexes[seat], state.trick_indexes, deal.table, state.trump_played,
            deal.bids[seat].__class__ is Board)))
    if phase is _BID:
        deal = state.deal
        assert deal is not None
        return BID_CHOICES[deal.hand_size]
    return ()


def first_leader(bids: tuple[BidAction | None, ...], dealer: int) -> int:
    """The seat that leads the first trick: the highest bid (BA-30).

    Any board beats any number, a later board (a higher level, BA-23) beats
    an earlier one, a higher number a lower one, and of equal numbers the
    first made wins.

    >>> first_leader((Bid(2), Bid(3), Pass(), Bid(3)), 0)
    1
    >>> first_leader((Bid(2), Bid(3), Pass(), Bid(3)), 2)
    3
    >>> first_leader((Board(), Bid(3), Board(), Pass()), 3)
    2
    """
    best_seat, best = dealer, -1
    for k in range(1, NUM_PLAYERS + 1):
        seat = (dealer + k) % NUM_PLAYERS
        bid = bids[seat]
        # Boards in bidding order have rising levels (BA-23); a pass counts 0.
        key = 100 + k if bid.__class__ is Board else getattr(bid, "tricks", 0)
        if key > best:
            best_seat, best = seat, key
    return best_seat


# -- chance --------------------------------------------------------------------

def sample_chance(state: GameState, rng: random.Random) -> ChooseDealer | Shuffle:
    """The chance event due now, drawn uniformly from the caller's ``rng``:
    the first dealer (BA-11) or a shuffle of all 54 cards (BA-12, ordered by
    :func:`cardrules.engine.chance.shuffled_by_keys`).

    >>> s = sample_chance(new_game(), random.Random(1))
    >>> isinstance(s, ChooseDealer) and 0 <= s.seat < 4
    True
    """
    phase = state.phase
    if phase is _CHOOSE_DEALER:
        return ChooseDealer(rng.randrange(NUM_PLAYERS))
    if phase is _SHUFFLE:
        return Shuffle(shuffled_by_keys(CARDS, rng))
    raise IllegalActionError(PHASE_RULES[phase], lazy_gettext("no chance event is due now"))


def chance_pile(state: GameState) -> tuple[Card | Joker, ...] | None:
    """The cards the chance action due now shuffles: all 54 before each deal
    (BA-12); None when it is the choice of the first dealer (BA-11).

    >>> chance_pile(new_game()) is None
    True
    """
    phase = state.phase
    if phase is _CHOOSE_DEALER:
        return None
    if phase is _SHUFFLE:
        return CARDS
    raise IllegalActionError(PHASE_RULES[phase], lazy_gettext("no chance event is due now"))


# -- apply ---------------------------------------------------------------------

def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action``; ``state`` itself is never changed.

    ``seat`` names who is acting (a plain int, 0 to 3; anything else is a
    :class:`ValueError`); it defaults to ``state.current_player``.  Servers
    should pass it: a player acting out of turn is refused.  An illegal
    action raises :class:`~cardrules.IllegalActionError` naming the rule.

    >>> s = apply(new_game(), ChooseDealer(1))
    >>> s.dealer, s.phase
    (1, <Phase.SHUFFLE: 'shuffle'>)
    >>> apply(s, Pass())
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: BA-12: the dealer must shuffle first (a chance action)

    Something that is not an action at all is a :class:`TypeError`, at every
    phase (text is read with :func:`~cardrules.back_alley.parse_action` first):

    >>> apply(s, "pass")
    Traceback (most recent call last):
    ...
    TypeError: not a Back Alley action: str; to read an action use parse_action(text)
    """
    phase = state.phase
    if phase is _PLAY and seat is None and action.__class__ is Play:  # the common case
        return _play(state, state.current_player, action.index)  # type: ignore[arg-type]
    if phase is _BID and seat is None:
        return _bid(state, state.current_player, action)  # type: ignore[arg-type]
    if seat is not None:
        check_seat(seat, NUM_PLAYERS)
    if phase is _PLAY or phase is _BID:
        actor = state.current_player
        assert actor is not None
        if seat is not None and seat != actor:
            if phase is _BID:
                raise IllegalActionError("BA-20", lazy_gettext(
                    "it is seat {actor}'s turn to bid, not seat {seat}'s", actor=actor,
                    seat=seat))
            raise IllegalActionError("BA-34", lazy_gettext(
                "it is seat {actor}'s turn to play, not seat {seat}'s", actor=actor, seat=seat))
        if phase is _BID:
            return _bid(state, actor, action)
        if action.__class__ is Play:
            return _play(state, actor, action.index)
        _refuse_other(state, action, actor)
    _check_type(action)  # a non-action is a TypeError in every phase, the end included
    if phase is _GAME_OVER:
        raise IllegalActionError("BA-43", lazy_ngettext(
            "the game is over after {n} deal", "the game is over after {n} deals",
            state.settings.deals))
    if seat is not None:
        raise IllegalActionError(PHASE_RULES[phase], lazy_gettext(
            "a chance event is due, not a player's action"))
    if phase is _CHOOSE_DEALER:
        if action.__class__ is not ChooseDealer:
            raise IllegalActionError("BA-11", lazy_gettext(
                "the first dealer must be chosen first (a chance action)"))
        assert isinstance(action, ChooseDealer)
        if action.seat >= NUM_PLAYERS:
            raise IllegalActionError("BA-11", lazy_gettext(
                "there is no seat {seat}: seats are 0 to 3", seat=action.seat))
        history = state.history
        history = History(first_dealer=action.seat, throw_ins=0, results=history.results,
                          scores=history.scores)
        return _between_deals(state.settings, history, _SHUFFLE, action.seat)
    if action.__class__ is not Shuffle:
        raise IllegalActionError("BA-12", lazy_gettext(
            "the dealer must shuffle first (a chance action)"))
    assert isinstance(action, Shuffle)
    return _deal(state, action.order)


def _check_type(action: object) -> None:
    if not isinstance(action, ChooseDealer | Shuffle | Pass | Bid | Board | Play):
        hint = "; to read an action use parse_action(text)" if isinstance(action, str) else ""
        raise TypeError(f"not a Back Alley action: {type(action).__name__}{hint}")


def _refuse_other(state: GameState, action: object, actor: int) -> NoReturn:
    _check_type(action)
    if isinstance(action, ChooseDealer | Shuffle):
        raise IllegalActionError("BA-30", lazy_gettext(
            "no chance event is due: seat {seat} is to play", seat=actor))
    raise IllegalActionError("BA-20", lazy_gettext(
        "the bidding is over: seat {seat} is to play a card", seat=actor))


def _deal(state: GameState, order: tuple[Card | Joker, ...]) -> GameState:
    """Deal one card at a time clockwise from the dealer's left, turn the
    next card (BA-12) and make the joker exchange of BA-13."""
    indexes = list(map(_INDEX, order))
    if len(indexes) != 54 or len(set(indexes)) != 54:
        raise IllegalActionError("BA-12", lazy_gettext(
            "the shuffle must order all 54 cards, not {count}", count=len(indexes)))
    dealer = state.dealer
    assert dealer is not None
    size = state.hand_size
    dealt = NUM_PLAYERS * size
    hands: list[list[int]] = [[], [], [], []]
    for k in range(NUM_PLAYERS):
        hands[(dealer + 1 + k) % NUM_PLAYERS] = indexes[k:dealt:NUM_PLAYERS]
    turned = indexes[dealt]
    rest = indexes[dealt + 1:]
    discard: Joker | None = None
    exchanger: int | None = None
    taken: Card | None = None
    if turned >= _BIG:  # BA-13: no trump; the other joker is exchanged if it was dealt
        other = _BIG + _LITTLE - turned
        for seat, hand in enumerate(hands):
            if other in hand:
                hand.remove(other)
                hand.append(rest[0])
                taken_card = CARDS[rest[0]]
                assert isinstance(taken_card, Card)
                discard_card = CARDS[other]
                assert isinstance(discard_card, Joker)
                discard, exchanger, taken, rest = discard_card, seat, taken_card, rest[1:]
                break
    rest.sort()
    deal = Deal(hand_size=size, trump_card=CARDS[turned], joker_discard=discard,
                exchanger=exchanger, taken=taken,
                undealt=Hand.of_sorted(tuple(map(CARDS.__getitem__, rest))), bids=_NO_BIDS)
    return _new_state(settings=state.settings, history=state.history, phase=_BID,
                      dealer=dealer, deal=deal, current_player=(dealer + 1) % NUM_PLAYERS,
                      leader=None, hand_indexes=tuple(map(tuple, map(sorted, hands))),
                      trick_indexes=(), tricks_won=_NO_TRICKS, tricks=(), trump_played=False)


def _bid(state: GameState, actor: int, action: object) -> GameState:
    deal = state.deal
    assert deal is not None
    cls = action.__class__
    if cls is Pass:
        bid: BidAction = PASS
    elif cls is Board:
        bid = BOARD
    elif cls is Bid:
        tricks = action.tricks  # type: ignore[attr-defined]
        if not 1 <= tricks < deal.hand_size:
            if deal.hand_size == 1:
                raise IllegalActionError("BA-21", lazy_gettext(
                    "with 1 card only pass and board exist, not {bid}", bid=tricks))
            raise IllegalActionError("BA-21", lazy_ngettext(
                "a bid is 1 to {top} with {n} card, not {bid}",
                "a bid is 1 to {top} with {n} cards, not {bid}", deal.hand_size,
                top=deal.hand_size - 1, bid=tricks))
        bid = BIDS[tricks - 1]
    else:
        _check_type(action)
        if isinstance(action, ChooseDealer | Shuffle):
            raise IllegalActionError("BA-20", lazy_gettext(
                "no chance event is due: seat {seat} is to bid", seat=actor))
        raise IllegalActionError("BA-20", lazy_gettext(
            "seat {seat} must bid before any card is played", seat=actor))
    bids = (*deal.bids[:actor], bid, *deal.bids[actor + 1:])
    deal = Deal(hand_size=deal.hand_size, trump_card=deal.trump_card,
                joker_discard=deal.joker_discard, exchanger=deal.exchanger, taken=deal.taken,
                undealt=deal.undealt, bids=bids)
    dealer = state.dealer
    assert dealer is not None
    if actor != dealer:  # BA-20: clockwise from the dealer's left, the dealer last
        return _new_state(settings=state.settings, history=state.history, phase=_BID,
                          dealer=dealer, deal=deal, current_player=(actor + 1) % NUM_PLAYERS,
                          leader=None, hand_indexes=state.hand_indexes, trick_indexes=(),
                          tricks_won=_NO_TRICKS, tricks=(), trump_played=False)
    if all(b is PASS for b in bids):  # BA-25: thrown in; the next dealer deals again
        history = state.history
        history = History(first_dealer=history.first_dealer, throw_ins=history.throw_ins + 1,
                          results=history.results, scores=history.scores)
        return _between_deals(state.settings, history, _SHUFFLE, (dealer + 1) % NUM_PLAYERS)
    leader = first_leader(bids, dealer)
    return _new_state(settings=state.settings, history=state.history, phase=_PLAY, dealer=dealer,
                      deal=deal, current_player=leader, leader=leader,
                      hand_indexes=state.hand_indexes, trick_indexes=(), tricks_won=_NO_TRICKS,
                      tricks=(), trump_played=False)


def _play(state: GameState, actor: int, card: int) -> GameState:
    hands = state.hand_indexes
    hand = hands[actor]
    deal = state.deal
    assert deal is not None
    table = deal.table
    trick = state.trick_indexes
    board = deal.bids[actor].__class__ is Board
    if card not in legal_plays(hand, trick, table, state.trump_played, board):
        refusal = refusal_of(card, actor, hand, trick, table, trump_played=state.trump_played,
                          claimed_board=board)
        assert refusal is not None
        raise IllegalActionError(*refusal)
    at = hand.index(card)
    hands = (*hands[:actor], hand[:at] + hand[at + 1:], *hands[actor + 1:])
    trick = (*trick, card)
    trump_played = state.trump_played or table[0][card] == TRUMP_CLASS
    if len(trick) < NUM_PLAYERS:
        return _new_state(settings=state.settings, history=state.history, phase=_PLAY,
                          dealer=state.dealer, deal=deal, current_player=(actor + 1) % NUM_PLAYERS,
                          leader=state.leader, hand_indexes=hands, trick_indexes=trick,
                          tricks_won=state.tricks_won, tricks=state.tricks,
                          trump_played=trump_played)
    leader = state.leader
    assert leader is not None
    winner = trick_winner(leader, trick, table)
    won = list(state.tricks_won)
    won[winner] += 1
    tricks = (*state.tricks,
              Trick(leader=leader, cards=tuple(map(CARDS.__getitem__, trick)), winner=winner))
    if hands[actor]:
        return _new_state(settings=state.settings, history=state.history, phase=_PLAY,
                          dealer=state.dealer, deal=deal, current_player=winner, leader=winner,
                          hand_indexes=hands, trick_indexes=(), tricks_won=tuple(won),
                          tricks=tricks, trump_played=trump_played)
    return _score_deal(state, deal, tuple(won))


def _score_deal(state: GameState, deal: Deal, won: tuple[int, ...]) -> GameState:
    """Score both teams (BA-40 to BA-42), then the next deal or the end (BA-43)."""
    dealer = state.dealer
    assert dealer is not None
    bids = deal.bids
    size = deal.hand_size
    contracts = (contract_of(bids, dealer, 0), contract_of(bids, dealer, 1))
    tricks = (won[0] + won[2], won[1] + won[3])
    points = (score(contracts[0], tricks[0], size), score(contracts[1], tricks[1], size))
    history = state.history
    result = DealResult(deal_number=len(history.results) + 1, dealer=dealer, hand_size=size,
                        trump_card=deal.trump_card, throw_ins=history.throw_ins,
                        bids=bids, contracts=contracts,  # type: ignore[arg-type]
                        tricks=tricks, points=points)
    scores = (history.scores[0] + points[0], history.scores[1] + points[1])
    history = History(first_dealer=history.first_dealer, throw_ins=0,
                      results=(*history.results, result), scores=scores)
    settings = state.settings
    if len(history.results) == settings.deals:
        return _between_deals(settings, history, _GAME_OVER, dealer)
    return _between_deals(settings, history, _SHUFFLE, (dealer + 1) % NUM_PLAYERS)
