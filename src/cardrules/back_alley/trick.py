"""The rules of a Back Alley trick, written once: the card order for each
trump (BA-3, BA-13), which cards may be played and why one is refused
(BA-31 to BA-33), and who wins a trick (BA-34).

Everything here is a pure function of card indexes (:attr:`Card.index
<cardrules.Card.index>`, 52 for the Big Blooper and 53 for the Little
Blooper) and of a :class:`TrumpTable`, so that the reducer, the bots, the
searches, the invariant checks and the human command all ask the same code.

>>> from cardrules import parse_cards
>>> from cardrules.cards import Suit
>>> table = table_for(Suit.HEARTS)
>>> hand = [card.index for card in parse_cards("AS 3H KD BB", jokers=True)]
>>> led = [parse_cards("QS")[0].index]
>>> [str(CARDS[i]) for i in legal_plays(hand, led, table, trump_played=False,
...                                      claimed_board=False)]
['AS']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cardrules.back_alley.actions import CARDS
from cardrules.cards import Card, Joker, Suit
from cardrules.i18n import N_, LazyText, lazy_gettext

__all__ = [
    "NO_TRUMP_TABLE",
    "SUIT_TABLES",
    "TRUMP_CLASS",
    "TrumpTable",
    "legal_plays",
    "refusal_of",
    "table_for",
    "trick_winner",
    "why_not",
]

#: The class of every trump card (the jokers included, BA-2) in
#: :attr:`TrumpTable.classes`; a plain card's class is its suit's value, 0 to 3.
TRUMP_CLASS = 4

_BIG, _LITTLE = Joker.BIG.index, Joker.LITTLE.index


class TrumpTable(NamedTuple):
    """The order of the 54 cards in a deal, indexed by card index.

    ``classes[i]`` is the class that card ``i`` follows as (BA-31): its
    suit's value 0 to 3, or :data:`TRUMP_CLASS` for a trump.  ``powers[i]``
    ranks it within its class (BA-3): a plain card 2 to 14 (the ace high), a
    trump 102 to 114 and the Little and Big Blooper 115 and 116, so that any
    trump outranks any plain card.

    >>> from cardrules import parse_card
    >>> table = table_for(Suit.SPADES)
    >>> big, ace = Joker.BIG.index, parse_card("AS").index
    >>> table.classes[big], table.classes[ace], table.powers[big] > table.powers[ace]
    (4, 4, True)
    """

    classes: tuple[int, ...]
    powers: tuple[int, ...]


def _table_of(trump: Suit | None) -> TrumpTable:
    classes, powers = [], []
    for index in range(54):
        if index >= 52:  # BA-2: the jokers belong to the trump suit
            classes.append(TRUMP_CLASS)
            powers.append(116 if index == _BIG else 115)
            continue
        suit, rank = index & 3, index >> 2
        value = 14 if rank == 0 else rank + 1
        is_trump = trump is not None and suit == trump
        classes.append(TRUMP_CLASS if is_trump else suit)
        powers.append(100 + value if is_trump else value)
    return TrumpTable(tuple(classes), tuple(powers))


#: The table of each trump suit, indexed by the suit's value (BA-3, BA-12).
SUIT_TABLES: tuple[TrumpTable, ...] = tuple(_table_of(suit) for suit in Suit)

#: The table of a deal with no trump suit, a joker turned (BA-13): no card
#: has :data:`TRUMP_CLASS` but the jokers, which are never in play then.
NO_TRUMP_TABLE: TrumpTable = _table_of(None)


def table_for(trump: Suit | None) -> TrumpTable:
    """The shared table of a deal whose trump suit is ``trump`` (None for a
    no-trump deal, BA-13).

    >>> from cardrules import parse_card
    >>> table_for(None) is NO_TRUMP_TABLE, table_for(Suit.CLUBS) is SUIT_TABLES[Suit.CLUBS]
    (True, True)
    >>> table_for(None).classes[parse_card("AH").index] == Suit.HEARTS
    True
    """
    return NO_TRUMP_TABLE if trump is None else SUIT_TABLES[trump]


def legal_plays(hand: Sequence[int], trick: Sequence[int], table: TrumpTable,
                trump_played: bool, claimed_board: bool) -> tuple[int, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards
    played so far, in order from the leader), in the order of ``hand``.
    (The reducer passes the two flags by position, which is a little faster.)

    * BA-32, leading: no trump (a joker is one) unless a trump was played to
      an earlier trick of the deal (``trump_played``), the leader claimed
      board (``claimed_board``) or holds nothing but trumps.
    * BA-31, following: a card of the class led if the hand has one.
    * BA-33: a Big (Little) Blooper led forces the highest (lowest) trump.

    >>> from cardrules import parse_cards
    >>> def plays(hand, trick, played=False, board=False):
    ...     indexes = legal_plays([c.index for c in parse_cards(hand, jokers=True)],
    ...                           [c.index for c in parse_cards(trick, jokers=True)],
    ...                           table_for(Suit.SPADES), trump_played=played,
    ...                           claimed_board=board)
    ...     return " ".join(str(CARDS[i]) for i in indexes)
    >>> plays("AS 2H LB", ""), plays("AS 2H LB", "", played=True)  # BA-32
    ('2H', 'AS 2H LB')
    >>> plays("AS 2H LB", "", board=True), plays("AS LB", "")       # BA-32
    ('AS 2H LB', 'AS LB')
    >>> plays("AS 2H LB", "KH"), plays("AS 2H LB", "KS"), plays("AS 3D", "KH")  # BA-31
    ('2H', 'AS LB', 'AS 3D')
    >>> plays("AS 2S 2H", "BB"), plays("AS 2S 2H", "LB")          # BA-33
    ('AS', '2S')
    """
    classes = table[0]  # by position: an equal plain pair of tuples works too
    if not trick:
        if trump_played or claimed_board:
            return tuple(hand)
        plain = tuple([i for i in hand if classes[i] != TRUMP_CLASS])
        return plain or tuple(hand)
    led = trick[0]
    led_class = classes[led]
    follow = [i for i in hand if classes[i] == led_class]
    if not follow:
        return tuple(hand)
    if led >= _BIG:  # a Blooper led
        pick = max if led == _BIG else min
        return (pick(follow, key=table[1].__getitem__),)
    return tuple(follow)


def why_not(card: int, seat: int, hand: Sequence[int], trick: Sequence[int],
            table: TrumpTable, *, trump_played: bool,
            claimed_board: bool) -> tuple[str, str] | None:
    """None if ``seat``, holding ``hand``, may play ``card`` to ``trick``
    (see :func:`legal_plays`), else the rule id and the reason it may not.

    >>> from cardrules import parse_card
    >>> def refusal(card, hand, trick):
    ...     return why_not(parse_card(card, jokers=True).index, 2,
    ...                    [parse_card(c, jokers=True).index for c in hand.split()],
    ...                    [parse_card(c, jokers=True).index for c in trick.split()],
    ...                    table_for(Suit.SPADES), trump_played=False, claimed_board=False)
    >>> refusal("2H", "2H 3D", "KH") is None
    True
    >>> refusal("3D", "2H 3D", "KH")
    ('BA-31', 'hearts were led: seat 2 must follow suit, not play 3D')
    >>> print(*refusal("AS", "AS 3D", ""))  # doctest: +NORMALIZE_WHITESPACE
    BA-32 AS is a trump and no trump has been played to an earlier trick;
    seat 2 did not claim board and holds a plain card
    >>> refusal("AS", "AS 2S", "LB")
    ('BA-33', 'LB was led: seat 2 must play its lowest trump, 2S')
    >>> refusal("QC", "AS", "")
    ('BA-31', 'seat 2 does not hold QC')
    """
    found = refusal_of(card, seat, hand, trick, table, trump_played=trump_played,
                       claimed_board=claimed_board)
    return None if found is None else (found[0], found[1].english)


def refusal_of(card: int, seat: int, hand: Sequence[int], trick: Sequence[int],
               table: TrumpTable, *, trump_played: bool,
               claimed_board: bool) -> tuple[str, LazyText] | None:
    """:func:`why_not` with the reason as a :class:`~cardrules.i18n.LazyText`, shown
    in the language of the moment (what :class:`~cardrules.IllegalActionError` keeps).

    >>> from cardrules import language, parse_card
    >>> rule, reason = refusal_of(parse_card("QC").index, 2, [0], [], table_for(Suit.SPADES),
    ...                           trump_played=False, claimed_board=False)
    >>> with language("uk"):
    ...     rule, str(reason)
    ('BA-31', 'у місця 2 немає QC')
    """
    shown = CARDS[card]
    if card not in hand:
        return "BA-31", lazy_gettext("seat {seat} does not hold {card}", seat=seat, card=shown)
    allowed = legal_plays(hand, trick, table, trump_played=trump_played,
                          claimed_board=claimed_board)
    if card in allowed:
        return None
    # legal_plays narrows a hand in three cases only; name the one that did.
    if not trick:
        return "BA-32", lazy_gettext(
            "{card} is a trump and no trump has been played to an earlier trick; seat {seat} "
            "did not claim board and holds a plain card", card=shown, seat=seat)
    led = trick[0]
    if led >= _BIG:
        if led == _BIG:
            return "BA-33", lazy_gettext(
                "{led} was led: seat {seat} must play its highest trump, {card}",
                led=CARDS[led], seat=seat, card=CARDS[allowed[0]])
        return "BA-33", lazy_gettext(
            "{led} was led: seat {seat} must play its lowest trump, {card}",
            led=CARDS[led], seat=seat, card=CARDS[allowed[0]])
    if table[0][led] == TRUMP_CLASS:
        return "BA-31", lazy_gettext(
            "a trump was led: seat {seat} must play a trump, not {card}", seat=seat, card=shown)
    suit = CARDS[led]
    assert isinstance(suit, Card)
    return "BA-31", lazy_gettext(_FOLLOW[suit.suit], seat=seat, card=shown)


# Whole sentences per suit: the suit's word changes its form in the other languages.
_FOLLOW = (N_("spades were led: seat {seat} must follow suit, not play {card}"),
           N_("hearts were led: seat {seat} must follow suit, not play {card}"),
           N_("diamonds were led: seat {seat} must follow suit, not play {card}"),
           N_("clubs were led: seat {seat} must follow suit, not play {card}"))


def trick_winner(leader: int, trick: Sequence[int], table: TrumpTable) -> int:
    """The seat whose card wins ``trick`` (card indexes in play order from
    ``leader``'s): the highest trump, else the highest card of the suit led
    (BA-34).  For a trick still in progress, the seat winning it so far.

    >>> from cardrules import parse_cards
    >>> def winner(cards, trump, leader=3):
    ...     return trick_winner(leader, [c.index for c in parse_cards(cards, jokers=True)],
    ...                         table_for(trump))
    >>> winner("KH AH 2S QH", Suit.SPADES), winner("KH AH 2S QH", None)
    (1, 0)
    >>> winner("AH LB BB KH", Suit.HEARTS), winner("5C 2D", Suit.HEARTS)
    (1, 3)
    """
    classes, powers = table
    led_class = classes[trick[0]]
    best_at, best = 0, -1
    for k, index in enumerate(trick):
        cls = classes[index]
        if (cls == TRUMP_CLASS or cls == led_class) and powers[index] > best:  # noqa: SIM109
            best_at, best = k, powers[index]
    return (leader + best_at) % 4  # four seats clockwise (BA-1)
