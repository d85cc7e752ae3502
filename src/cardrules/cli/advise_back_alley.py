"""``cardrules advise back-alley CARDS --trump CARD``: what to bid with a hand.

The Back Alley half of ``cardrules advise`` (the parser and the dispatch are
in :mod:`cardrules.cli.advise`).  From your hand, the turned card and the
bids made before yours it builds your seat's view of the deal and runs
:func:`cardrules.back_alley.trick_estimate`: the chance of each number of
tricks for your team and the expected score of every legal bid (BA-40,
BA-41), as tables (drawn with ``rich`` when it is installed and the output
is a terminal) or as JSON with ``--json``.  ``--trials`` sets the number of
rollouts (default 200), ``--seed`` their seed.

>>> import argparse
>>> args = argparse.Namespace(game="back-alley", cards=["AS", "KS"], trump="2S",
...                           bids=None, seat=None, dealer=None, exchanger=None,
...                           trials=20, seed=1, json=False)
>>> run(args)   # doctest: +ELLIPSIS
Back Alley, seat 0 (dealer 3) with AS KS, turned 2S: trump S; 20 rollouts
team tricks ...
0
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardrules.cards import Card, Joker, parse_card, parse_cards
from cardrules.cli._output import print_table
from cardrules.errors import ParseError
from cardrules.hand import Hand
from cardrules.i18n import gettext, language, ngettext, pgettext

if TYPE_CHECKING:
    from cardrules.back_alley.actions import BidAction
    from cardrules.back_alley.analysis import TrickEstimate
    from cardrules.back_alley.views import View

# The game's modules are imported by the functions that use them, so that
# the command starts without loading Back Alley (the command imports no game
# as it loads; docs/architecture.rst).


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the Back Alley options to the ``advise`` parser (all default to None).

    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--trump", "9H", "--bids", "pass 2"]).bids
    'pass 2'
    """
    parser.add_argument("--trump", metavar="CARD",
                        help=gettext("Back Alley: the turned card, such as 9H (BB or LB: no "
                                     "trump)"))
    parser.add_argument("--bids", metavar="BIDS",
                        help=gettext("Back Alley: the bids made before yours this deal, from the "
                                     "dealer's left, such as 'pass 2 board'"))
    parser.add_argument("--seat", type=int, metavar="S",
                        help=gettext("Back Alley: your seat, 0 to 3 (default 0)"))
    parser.add_argument("--dealer", type=int, metavar="D",
                        help=gettext("Back Alley: the dealer's seat (default: the seat that makes "
                                     "the bids given come just before yours)"))
    parser.add_argument("--exchanger", type=int, metavar="S",
                        help=gettext("Back Alley: with a joker turned, the other seat that "
                                     "discarded the other joker (BA-13)"))


def parse_bids(text: str | None, hand_size: int) -> tuple[BidAction, ...]:
    """Read bids such as ``"pass 2 board"`` (``bid 2`` and commas also do, BA-21).

    >>> [str(b) for b in parse_bids("pass, bid 2 board", 5)]
    ['pass', 'bid 2', 'board']
    >>> parse_bids("7", 5)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: a bid is pass, board or 1 to 4 with 5 cards: '7' at position 0
    """
    from cardrules.back_alley.actions import Bid, Board, Pass
    from cardrules.back_alley.state import NUM_PLAYERS

    if not text:
        return ()
    bids: list[BidAction] = []
    for match in re.finditer(r"(?:bid\s+)?([^\s,;]+)", text, flags=re.IGNORECASE):
        word = match.group(1).lower()
        if word == "pass":
            bids.append(Pass())
        elif word == "board":
            bids.append(Board())
        elif word.isdigit() and 1 <= int(word) < hand_size:
            bids.append(Bid(int(word)))
        else:
            high = {1: gettext("no number"), 2: "1"}.get(
                hand_size, gettext("1 to {last}").format(last=hand_size - 1))
            raise ParseError(ngettext("a bid is pass, board or {high} with {n} cards",
                                      "a bid is pass, board or {high} with {n} cards",
                                      hand_size).format(high=high, n=hand_size),
                             token=match.group(1), position=match.start(1))
    if len(bids) >= NUM_PLAYERS:
        raise ValueError(gettext("at most {most} bids come before yours, not {count}").format(
            most=NUM_PLAYERS - 1, count=len(bids)))
    return tuple(bids)


def _seat_arg(name: str, value: int | None) -> int | None:
    from cardrules.back_alley.state import NUM_PLAYERS

    if value is not None and not 0 <= value < NUM_PLAYERS:
        raise ValueError(gettext("--{name} must be a seat from 0 to 3, not {value}").format(
            name=name, value=value))
    return value


def build_view(cards: Sequence[Card | Joker], trump_card: Card | Joker,
               bids: Sequence[BidAction] = (), *, seat: int | None = None,
               dealer: int | None = None, exchanger: int | None = None) -> View:
    """The bidding view of the seat holding ``cards`` (the first half of the
    game: deal 14 - hand size, scores 0), its turn to bid after ``bids``.

    >>> from cardrules.back_alley import Pass
    >>> v = build_view(parse_cards("AS KS", jokers=True), parse_card("2S"), [Pass()], seat=2)
    >>> v.dealer, v.current_player, v.bids
    (0, 2, (None, Pass(), None, None))
    """
    from cardrules.back_alley.state import MAX_HAND_SIZE, NUM_PLAYERS, Phase, Settings
    from cardrules.back_alley.views import View

    size = len(cards)
    if not 1 <= size <= MAX_HAND_SIZE:
        raise ValueError(gettext("a Back Alley hand has 1 to {most} cards, not {size}").format(
            most=MAX_HAND_SIZE, size=size))
    hand = Hand(cards, jokers=True)
    if trump_card in hand:
        raise ValueError(gettext("the turned card {card} cannot be in your hand").format(
            card=trump_card))
    seat = _seat_arg("seat", seat)
    dealer = _seat_arg("dealer", dealer)
    exchanger = _seat_arg("exchanger", exchanger)
    made = len(bids)
    if seat is None:
        seat = 0 if dealer is None else (dealer + 1 + made) % NUM_PLAYERS
    if dealer is None:
        dealer = (seat - 1 - made) % NUM_PLAYERS
    if (dealer + 1 + made) % NUM_PLAYERS != seat:
        raise ValueError(ngettext("with {n} bids made after dealer {dealer}, it is seat {turn}'s "
                                  "turn to bid, not seat {number}'s",
                                  "with {n} bids made after dealer {dealer}, it is seat {turn}'s "
                                  "turn to bid, not seat {number}'s", made).format(
                                   n=made, dealer=dealer,
                                   turn=(dealer + 1 + made) % NUM_PLAYERS, number=seat))
    discard: Joker | None = None
    if isinstance(trump_card, Joker):
        other = Joker.LITTLE if trump_card is Joker.BIG else Joker.BIG
        if other in hand:
            raise ValueError(gettext("with {card} turned you discard {other} and take the next "
                                     "card (BA-13): give your hand after the exchange").format(
                                     card=trump_card, other=other))
        if exchanger is not None:
            if exchanger == seat:
                raise ValueError(gettext("--exchanger names another seat; give your own hand "
                                         "after the exchange"))
            discard = other
    elif exchanger is not None:
        raise ValueError(gettext("--exchanger applies only when a joker was turned (BA-13)"))
    if not isinstance(trump_card, Card) and any(isinstance(c, Joker) for c in hand):
        raise ValueError(gettext("no joker is in play when a joker is turned (BA-13)"))
    all_bids: list[BidAction | None] = [None] * NUM_PLAYERS
    for k, bid in enumerate(bids):
        all_bids[(dealer + 1 + k) % NUM_PLAYERS] = bid
    return View(
        seat=seat, settings=Settings(), phase=Phase.BID, deal_number=MAX_HAND_SIZE + 1 - size,
        hand_size=size, dealer=dealer, current_player=seat, trump_card=trump_card,
        trump=trump_card.suit if isinstance(trump_card, Card) else None, joker_discard=discard,
        exchanger=exchanger if discard is not None else None, hand=hand, taken=None,
        hand_sizes=(size,) * NUM_PLAYERS, bids=tuple(all_bids), leader=None, trick=(),
        tricks=(), tricks_won=(0,) * NUM_PLAYERS, trump_played=False, scores=(0, 0),
        results=())




def _report(v: View, estimate: TrickEstimate) -> None:
    from cardrules.back_alley.presenter import hand_text

    trump = (gettext("no trump") if v.trump is None
             else gettext("trump {suit}").format(suit=v.trump_card.suit.char))  # type: ignore[union-attr]
    print(ngettext("Back Alley, seat {number} (dealer {dealer}) with {hand}, turned {card}: "
                   "{trump}; {n} rollouts",
                   "Back Alley, seat {number} (dealer {dealer}) with {hand}, turned {card}: "
                   "{trump}; {n} rollouts", estimate.samples).format(
                    number=v.seat, dealer=v.dealer, hand=hand_text(v.hand, v.trump),
                    card=v.trump_card, trump=trump, n=estimate.samples))
    print_table(gettext("team tricks (mean {mean} +- {stderr})").format(
                        mean=f"{estimate.mean:.2f}", stderr=f"{estimate.stderr:.2f}"),
                (gettext("tricks"), pgettext("probability", "chance")),
                [(str(t), f"{p:.3f}") for t, p in enumerate(estimate.probabilities)])
    print_table(gettext("expected team score per bid (BA-40, BA-41)"),
                (gettext("bid"), gettext("score"), "+-", gettext("made")),
                [(str(b.bid), f"{b.expected_score:.2f}", f"{b.stderr:.2f}", f"{b.made:.0%}")
                 for b in estimate.bids])
    print(gettext("suggested bid: {bid} (expected score {score})").format(
        bid=estimate.suggested_bid, score=f"{estimate.expected_score:.2f}"))


def run(args: argparse.Namespace) -> int:
    """Run ``cardrules advise back-alley``; bad input raises (one line, exit 2).
    :func:`cardrules.cli.advise.run`, which calls it, has checked ``--trials``
    against the most rollouts the command allows.

    >>> args = argparse.Namespace(game="back-alley", cards=["AS"], trump=None, bids=None,
    ...                           seat=None, dealer=None, exchanger=None, trials=None,
    ...                           seed=None, json=False)
    >>> run(args)
    Traceback (most recent call last):
    ...
    ValueError: Back Alley needs the turned card: --trump CARD
    """
    from cardrules.back_alley.analysis import DEFAULT_SAMPLES, trick_estimate

    if args.trump is None:
        raise ValueError(gettext("Back Alley needs the turned card: --trump CARD"))
    cards = parse_cards(" ".join(args.cards), jokers=True)
    trump_card = parse_card(args.trump, jokers=True)
    bids = parse_bids(args.bids, len(cards))
    v = build_view(cards, trump_card, bids, seat=args.seat, dealer=args.dealer,
                   exchanger=args.exchanger)
    trials = DEFAULT_SAMPLES if args.trials is None else args.trials
    if trials < 1:
        raise ValueError(gettext("--trials must be at least 1, not {trials}").format(
            trials=trials))
    estimate = trick_estimate(v, samples=trials, seed=args.seed)
    if args.json:
        with language("en"):  # a machine format: the same in every language
            data = {"game": "back_alley", "hand": [str(c) for c in v.hand],
                    "trump_card": str(trump_card), "dealer": v.dealer,
                    **estimate.to_dict(),
                    "bids": [None if b is None else str(b) for b in v.bids]}
        print(json.dumps(data, indent=2))
    else:
        _report(v, estimate)
    return 0
