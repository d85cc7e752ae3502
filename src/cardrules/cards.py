"""Playing cards: :class:`Suit`, :class:`Rank`, :class:`Card` and :class:`Joker`.

Text forms follow the rules page of the documentation: rank
``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` accepted on input), suit ``S H D C``
(``♠ ♥ ♦ ♣`` and ``♤ ♡ ♢ ♧`` accepted), and the two jokers ``BB`` (Big
Blooper) and ``LB`` (Little Blooper).  Letters may be upper or lower case;
no other character is read as a card, however alike it looks.

>>> from cardrules import parse_cards
>>> [str(c) for c in parse_cards("10h K♠ as")]
['TH', 'KS', 'AS']
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from typing import Literal, overload

import attrs

from cardrules._validate import require_int
from cardrules.errors import ParseError, shorten
from cardrules.i18n import N_, NP_, gettext, lazy_gettext, pgettext

__all__ = [
    "DECK",
    "Card",
    "Joker",
    "Rank",
    "Suit",
    "parse_card",
    "parse_cards",
    "scan_cards",
]


class Suit(enum.IntEnum):
    """The four suits.  In Down and Back suits have no rank (DB-1).

    The numeric values only fix a canonical order for :attr:`Card.index`.

    >>> Suit.HEARTS.char, Suit.HEARTS.symbol
    ('H', '♥')
    """

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def char(self) -> str:
        """One-letter form: ``S``, ``H``, ``D`` or ``C``.

        >>> Suit.CLUBS.char
        'C'
        """
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol ``♠ ♥ ♦ ♣``.

        >>> Suit.SPADES.symbol
        '♠'
        """
        return "♠♥♦♣"[self]

    @property
    def long_name(self) -> str:
        """The suit's name in the current language (:func:`cardrules.language`).

        >>> from cardrules import language
        >>> Suit.HEARTS.long_name
        'hearts'
        >>> with language("ja"):
        ...     Suit.HEARTS.long_name
        'ハート'
        >>> with language("uk"):
        ...     Suit.HEARTS.long_name
        'чирви'
        """
        return gettext(_SUIT_NAMES[self])

    @property
    def short_name(self) -> str:
        """The suit's short form for people: its symbol, in every language.

        >>> Suit.CLUBS.short_name
        '♣'
        """
        return self.symbol


_SUIT_NAMES = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))


# The suit as it stands in a card's name: Ukrainian puts it in the genitive
# plural ("туз пік"), the other languages use the suit's name as it is.
_SUIT_OF_CARD = (NP_("suit in a card's name", "spades"), NP_("suit in a card's name", "hearts"),
                 NP_("suit in a card's name", "diamonds"), NP_("suit in a card's name", "clubs"))


def _suit_of_card(suit: Suit) -> str:
    return pgettext("suit in a card's name", _SUIT_OF_CARD[suit])


class Rank(enum.IntEnum):
    """Card ranks, ACE = 1 up to KING = 13 (the ace is low in Down and Back, DB-1).

    >>> Rank.TEN.char, Rank(12).name, Rank.JACK.is_face
    ('T', 'QUEEN', True)
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def char(self) -> str:
        """One-character form: ``A 2 ... 9 T J Q K``.

        >>> Rank.ACE.char
        'A'
        """
        return "A23456789TJQK"[self - 1]

    @property
    def is_face(self) -> bool:
        """True for J, Q and K, the face (picture) cards of DB-2.

        >>> Rank.KING.is_face, Rank.TEN.is_face, Rank.ACE.is_face
        (True, False, False)
        """
        return self >= Rank.JACK

    @property
    def word(self) -> str:
        """The rank in words, singular: ``"ace"``, ``"six"``, ``"king"``.

        >>> Rank.SIX.word
        'six'
        """
        return self.name.lower()

    @property
    def plural(self) -> str:
        """The rank in words, plural: ``"aces"``, ``"sixes"``.

        >>> Rank.SIX.plural, Rank.EIGHT.plural
        ('sixes', 'eights')
        """
        return self.word + ("es" if self is Rank.SIX else "s")

    @property
    def long_name(self) -> str:
        """The rank in words, in the current language (:func:`cardrules.language`).

        >>> from cardrules import language
        >>> Rank.QUEEN.long_name
        'queen'
        >>> with language("ja"):
        ...     Rank.QUEEN.long_name, Rank.SEVEN.long_name
        ('クイーン', '7')
        >>> with language("uk"):
        ...     Rank.QUEEN.long_name, Rank.SEVEN.long_name
        ('дама', 'сімка')
        """
        return pgettext("rank", _RANK_WORDS[self - 1])

    @property
    def short_name(self) -> str:
        """The rank's short form for people: ``A 2 ... 10 J Q K`` (``10``, not ``T``).

        Ukrainian writes the Cyrillic initials ``Т К Д В`` for the ace and the
        faces; they are shown, never read (``В`` and ``Т`` look like Latin
        letters that mean other cards).

        >>> from cardrules import language
        >>> Rank.TEN.short_name, Rank.QUEEN.short_name
        ('10', 'Q')
        >>> with language("uk"):
        ...     Rank.QUEEN.short_name
        'Д'
        """
        text = "10" if self is Rank.TEN else self.char
        return pgettext("rank, short", text) if self in _LETTER_RANKS else text

    @property
    def plural_name(self) -> str:
        """The rank in words, plural, as in "two pair, nines and threes".

        >>> from cardrules import language
        >>> with language("uk"):
        ...     Rank.NINE.plural_name
        "дев'ятки"
        """
        return pgettext("ranks", self.plural)

    @property
    def plural_of(self) -> str:
        """The rank in words, plural, as after "pair of" ("пара дев'яток" in Ukrainian).

        >>> from cardrules import language
        >>> Rank.NINE.plural_of
        'nines'
        >>> with language("uk"):
        ...     Rank.NINE.plural_of
        "дев'яток"
        """
        return pgettext("ranks, after 'pair of'", self.plural)


_RANK_WORDS = (NP_("rank", "ace"), NP_("rank", "two"), NP_("rank", "three"),
               NP_("rank", "four"), NP_("rank", "five"), NP_("rank", "six"),
               NP_("rank", "seven"), NP_("rank", "eight"), NP_("rank", "nine"),
               NP_("rank", "ten"), NP_("rank", "jack"), NP_("rank", "queen"),
               NP_("rank", "king"))
# The plural rank words, for the translators (Rank.plural gives the English).
_RANK_PLURALS = (
    NP_("ranks", "aces"), NP_("ranks", "twos"), NP_("ranks", "threes"), NP_("ranks", "fours"),
    NP_("ranks", "fives"), NP_("ranks", "sixes"), NP_("ranks", "sevens"),
    NP_("ranks", "eights"), NP_("ranks", "nines"), NP_("ranks", "tens"),
    NP_("ranks", "jacks"), NP_("ranks", "queens"), NP_("ranks", "kings"),
    NP_("ranks, after 'pair of'", "aces"), NP_("ranks, after 'pair of'", "twos"),
    NP_("ranks, after 'pair of'", "threes"), NP_("ranks, after 'pair of'", "fours"),
    NP_("ranks, after 'pair of'", "fives"), NP_("ranks, after 'pair of'", "sixes"),
    NP_("ranks, after 'pair of'", "sevens"), NP_("ranks, after 'pair of'", "eights"),
    NP_("ranks, after 'pair of'", "nines"), NP_("ranks, after 'pair of'", "tens"),
    NP_("ranks, after 'pair of'", "jacks"), NP_("ranks, after 'pair of'", "queens"),
    NP_("ranks, after 'pair of'", "kings"))
_RANK_SHORT = (NP_("rank, short", "A"), NP_("rank, short", "J"), NP_("rank, short", "Q"),
               NP_("rank, short", "K"))
_LETTER_RANKS = frozenset({Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING})


@attrs.frozen(slots=True, eq=False, order=False, repr=False)
class Card:
    """One of the 52 standard cards: an immutable, hashable, ordered value.

    Cards order by rank (ace low), then by suit in the order of :class:`Suit`.
    ``index`` numbers the 52 cards ``0..51`` (``(rank - 1) * 4 + suit``);
    :meth:`from_index` is its inverse and returns shared instances.
    ``mask`` is ``1 << index``, handy for card sets as bit masks.

    >>> c = Card(Rank.KING, Suit.SPADES)
    >>> str(c), c.index, Card.from_index(c.index) == c
    ('KS', 48, True)
    >>> c
    Card.parse('KS')
    >>> Card(13, 0) == c
    True

    ``rank`` and ``suit`` are a :class:`Rank` and a :class:`Suit`, or plain
    ints in their ranges; bools, floats and text are refused (text is read by
    :meth:`parse`):

    >>> Card("Q", "D")
    Traceback (most recent call last):
    ...
    TypeError: Card(rank, suit) takes a Rank and a Suit, not text: use Card.parse('QD')
    >>> Card(True, False)
    Traceback (most recent call last):
    ...
    ValueError: card rank must be a whole number from 1 to 13, not True
    """

    rank: Rank = attrs.field(converter=Rank)
    suit: Suit = attrs.field(converter=Suit)
    index: int = attrs.field(init=False, eq=False, order=False, hash=False)
    mask: int = attrs.field(init=False, eq=False, order=False, hash=False)
    #: ``index * 52``: the card's row in a 52-by-52 table over pairs of cards
    #: (the Down and Back evaluators look up ``table[a.pair_row + b.pair_column]``).
    #: A :class:`Joker` has no pair offsets, so a table look-up fails at once.
    pair_row: int = attrs.field(init=False, eq=False, order=False, hash=False)
    #: ``index``: the card's column in such a table.
    pair_column: int = attrs.field(init=False, eq=False, order=False, hash=False)

    def __attrs_pre_init__(self, rank: object, suit: object) -> None:
        # Rank(True) and Suit(0.0) would succeed (True == 1, 0.0 == 0): check first.
        if isinstance(rank, str) or isinstance(suit, str):
            hint = f"Card.parse({shorten(str(rank) + str(suit))!r})" \
                if isinstance(rank, str) and isinstance(suit, str) else "Card.parse('QD')"
            raise TypeError(f"Card(rank, suit) takes a Rank and a Suit, not text: use {hint}")
        require_int("card rank", rank, minimum=1, maximum=13)
        require_int("card suit", suit, minimum=0, maximum=3)

    def __attrs_post_init__(self) -> None:
        index = (self.rank - 1) * 4 + self.suit
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "mask", 1 << index)
        object.__setattr__(self, "pair_row", index * 52)
        object.__setattr__(self, "pair_column", index)

    @property
    def is_face(self) -> bool:
        """True for jacks, queens and kings (DB-2).

        >>> Card.parse("QD").is_face, Card.parse("TD").is_face
        (True, False)
        """
        return self.rank >= Rank.JACK

    @property
    def long_name(self) -> str:
        """The card's name in the current language (:func:`cardrules.language`).

        ``str(card)`` stays the notation ``"AS"`` in every language.

        >>> from cardrules import language
        >>> card = Card.parse("AS")
        >>> card.long_name
        'ace of spades'
        >>> with language("ja"):
        ...     card.long_name
        'スペードのエース'
        >>> with language("uk"):
        ...     card.long_name, Card.parse("QH").long_name
        ('туз пік', 'дама чирв')
        """
        return pgettext("card", "{rank} of {suit}").format(
            rank=self.rank.long_name, suit=_suit_of_card(self.suit))

    #: The same as :attr:`long_name`.
    name = long_name

    @property
    def short_name(self) -> str:
        """The card's short form for people: rank and suit symbol, such as ``"10♥"``.

        >>> from cardrules import language
        >>> Card.parse("TH").short_name, Card.parse("QH").short_name
        ('10♥', 'Q♥')
        >>> with language("uk"):
        ...     Card.parse("QH").short_name
        'Д♥'
        """
        return self.rank.short_name + self.suit.symbol

    @staticmethod
    def from_index(index: int) -> Card:
        """The card numbered ``index`` in ``range(52)``.

        >>> str(Card.from_index(0)), str(Card.from_index(51))
        ('AS', 'KC')
        """
        return DECK[require_int("card index", index, minimum=0, maximum=51)]

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card; same as :func:`parse_card`.

        >>> Card.parse("10h")
        Card.parse('TH')
        """
        return parse_card(text)

    # Equality, hashing and ordering go by index, which is the same as by
    # (rank, suit) and much cheaper than comparing the two enum fields.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index == other.index

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index != other.index

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        """Pickle a card as its index, read back as the shared instance of :data:`DECK`.

        >>> import pickle
        >>> card = Card.parse("QH")
        >>> pickle.loads(pickle.dumps(card)) is DECK[card.index]
        True
        """
        return _card_of, (self.index,)

    def __copy__(self) -> Card:
        """A card is immutable: its copy is itself.

        >>> import copy
        >>> card = Card.parse("QH")
        >>> copy.copy(card) is card
        True
        """
        return self

    def __deepcopy__(self, memo: object) -> Card:
        """A card is immutable: its deep copy is itself.

        >>> import copy
        >>> card = Card.parse("QH")
        >>> copy.deepcopy(card) is card
        True
        """
        return self

    def __str__(self) -> str:
        return self.rank.char + self.suit.char

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The card as an SVG picture, for notebooks (:func:`cardrules.svg.card_svg`)."""
        from cardrules.svg import card_svg  # imported here: importing cardrules stays light
        return card_svg(self)


#: The 52 cards in :attr:`Card.index` order (``DECK[i].index == i``).
DECK: tuple[Card, ...] = tuple(Card(r, s) for r in Rank for s in Suit)


def _card_of(index: int) -> Card:
    """The card a pickle names by its index (see :meth:`Card.__reduce__`).

    >>> _card_of(48)
    Card.parse('KS')
    """
    if type(index) is int and 0 <= index < 52:
        return DECK[index]
    return Card.from_index(index)  # which refuses anything else


class Joker(enum.Enum):
    """The two distinguishable jokers of Back Alley (BA-2).

    >>> str(Joker.BIG), Joker.LITTLE.index
    ('BB', 53)
    """

    BIG = "BB"
    LITTLE = "LB"

    @property
    def index(self) -> int:
        """52 for the Big Blooper, 53 for the Little Blooper.

        >>> Joker.BIG.index
        52
        """
        return 52 if self is Joker.BIG else 53

    @property
    def long_name(self) -> str:
        """The joker's name in the current language: Big Blooper, Little Blooper.

        >>> from cardrules import language
        >>> Joker.BIG.long_name
        'Big Blooper'
        >>> with language("ja"):
        ...     Joker.BIG.long_name
        'ビッグブルーパー'
        >>> with language("uk"):
        ...     Joker.LITTLE.long_name
        'Малий Блупер'
        """
        if self is Joker.BIG:
            return gettext("Big Blooper")
        return gettext("Little Blooper")

    @property
    def short_name(self) -> str:
        """The joker's short form: its notation ``BB`` or ``LB``, in every language.

        >>> Joker.LITTLE.short_name
        'LB'
        """
        return self.value

    def __str__(self) -> str:
        return self.value


def _joker_svg(joker: Joker) -> str:
    """The joker as an SVG picture, for notebooks (:func:`cardrules.svg.card_svg`)."""
    from cardrules.svg import card_svg  # imported here: importing cardrules stays light
    return card_svg(joker)


# An Enum class body may not define a _sunder_ name, so the notebook hook is added here.
setattr(Joker, "_repr_svg_", _joker_svg)  # noqa: B010


# Every character (and joker pair) the scanner reads, in both cases, spelt out:
# str.upper() would also fold look-alikes such as "ſ" (long s) into "S".
_RANK_CHARS = {ch: Rank(i + 1) for i, ch in enumerate("A23456789TJQK")}
_RANK_CHARS.update({ch.lower(): rank for ch, rank in _RANK_CHARS.items() if ch.isalpha()})
_SUIT_CHARS = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
               "s": Suit.SPADES, "h": Suit.HEARTS, "d": Suit.DIAMONDS, "c": Suit.CLUBS,
               "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
               "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_JOKERS = {first + second: joker
           for joker, firsts in ((Joker.BIG, "Bb"), (Joker.LITTLE, "Ll"))
           for first in firsts for second in "Bb"}
_SEPARATORS = frozenset(" \t\r\n,;")
_WORD = re.compile(r"[^ \t\r\n,;]*")  # the rest of a bad token, up to a separator
_BY_RANK_SUIT = {(c.rank, c.suit): c for c in DECK}


def scan_cards(text: str) -> Iterator[tuple[Card | Joker, int]]:
    """Yield each card of ``text`` (jokers included) with the position it starts at.

    The reader behind :func:`~cardrules.parse_card` and
    :func:`~cardrules.parse_cards`, for callers
    that need to point at a card in the text they read (a repeated card, a
    card out of place).  Text that is not a card raises
    :class:`~cardrules.ParseError` when the scan reaches it.

    >>> [(str(card), at) for card, at in scan_cards("KS, 10h BB")]
    [('KS', 0), ('TH', 4), ('BB', 8)]
    >>> list(scan_cards("KS ZZ"))
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: not a card: 'ZZ' at position 3
    """
    if not isinstance(text, str):
        raise ParseError(f"expected a string of cards, not {type(text).__name__}")
    pos, n = 0, len(text)
    while pos < n:
        if text[pos] in _SEPARATORS:
            pos += 1
            continue
        start = pos
        joker = _JOKERS.get(text[pos:pos + 2])
        if joker is not None:
            pos += 2
            yield joker, start
        else:
            if text[pos:pos + 2] == "10":
                rank: Rank | None = Rank.TEN
                pos += 2
            else:
                rank = _RANK_CHARS.get(text[pos])
                pos += 1
            suit = _SUIT_CHARS.get(text[pos]) if pos < n else None
            pos += 1
            if rank is None or suit is None:
                word = _WORD.match(text, start)
                end = word.end() if word else n
                raise ParseError(lazy_gettext("not a card"), token=text[start:end] or text[start:],
                                 position=start)
            yield _BY_RANK_SUIT[rank, suit], start


@overload
def parse_card(text: str, *, jokers: Literal[False] = ...) -> Card: ...
@overload
def parse_card(text: str, *, jokers: bool) -> Card | Joker: ...
def parse_card(text: str, *, jokers: bool = False) -> Card | Joker:
    """Read exactly one card, such as ``"KS"``, ``"10h"``, ``"q♦"``.

    Jokers (``"BB"``, ``"LB"``) are accepted only with ``jokers=True``, so a
    Down and Back program never sees one by accident.

    >>> parse_card("10h")
    Card.parse('TH')
    >>> parse_card("bb", jokers=True)
    <Joker.BIG: 'BB'>
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: not a card: '1X' at position 0
    """
    found = list(scan_cards(text))
    if len(found) != 1:
        raise ParseError(lazy_gettext("expected exactly one card"), token=text, position=0)
    card, pos = found[0]
    if isinstance(card, Joker) and not jokers:
        raise ParseError(lazy_gettext("jokers are not allowed here"), token=str(card),
                         position=pos)
    return card


@overload
def parse_cards(text: str, *, jokers: Literal[False] = ...) -> tuple[Card, ...]: ...
@overload
def parse_cards(text: str, *, jokers: bool) -> tuple[Card | Joker, ...]: ...
def parse_cards(text: str, *, jokers: bool = False) -> tuple[Card | Joker, ...]:
    """Read a sequence of cards separated by spaces or commas (or run together).

    >>> [str(c) for c in parse_cards("KS, th 2♣")]
    ['KS', 'TH', '2C']
    >>> [str(c) for c in parse_cards("AsKsQs")]
    ['AS', 'KS', 'QS']
    >>> parse_cards("KS QH 1X")
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: not a card: '1X' at position 6
    """
    out: list[Card | Joker] = []
    for card, pos in scan_cards(text):
        if isinstance(card, Joker) and not jokers:
            raise ParseError(lazy_gettext("jokers are not allowed here"), token=str(card),
                             position=pos)
        out.append(card)
    return tuple(out)
