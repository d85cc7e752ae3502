"""Chance actions: random events made explicit, carrying their outcome.

A game never draws random numbers itself.  At a chance point the caller
applies one of these actions, either chosen by
``sample_chance(state, rng)`` of the game (uniform, from the caller's
``random.Random``) or taken from a record or a test.

>>> import random
>>> from cardrules import DECK
>>> order = shuffled(DECK[:3], random.Random(7))
>>> sorted(order) == sorted(DECK[:3])
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import attrgetter

import attrs

from cardrules._validate import is_int
from cardrules.cards import Card, Joker
from cardrules.engine.readers import Fields, int_token
from cardrules.errors import ParseError
from cardrules.i18n import LazyText, lazy_gettext

__all__ = [
    "ChanceAction",
    "ChooseDealer",
    "Shuffle",
    "chance_from_dict",
    "chance_to_dict",
    "parse_chance",
    "shuffled",
    "shuffled_by_keys",
]

AnyCard = Card | Joker


def _check_seat(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not is_int(value) or value < 0:
        raise ValueError(f"a seat is a non-negative whole number, not {value!r}")


@attrs.frozen(slots=True)
class ChooseDealer:
    """Chance: the first dealer is ``seat`` (DB-31, BA-11).

    >>> str(ChooseDealer(2))
    'dealer 2'
    """

    seat: int = attrs.field(validator=_check_seat)

    def __str__(self) -> str:
        return f"dealer {self.seat}"


def _to_cards(value: Sequence[AnyCard]) -> tuple[AnyCard, ...]:
    return tuple(value)


_INDEX = attrgetter("index")


def _check_order(instance: object, attribute: attrs.Attribute[tuple[AnyCard, ...]],
                 value: tuple[AnyCard, ...]) -> None:
    # Checked per distinct type (one or two), not per card: a shuffle is built
    # before every deal.
    if not all(issubclass(kind, Card | Joker) for kind in set(map(type, value))):
        raise ValueError("a shuffle orders cards")
    if len(set(map(_INDEX, value))) != len(value):  # by index: no Python __hash__ per card
        raise ValueError("a shuffle holds each card once")


@attrs.frozen(slots=True)
class Shuffle:
    """Chance: a pile comes out of the shuffle in ``order`` (``order[0]`` on top).

    What the pile is depends on the game and the moment: the whole deck
    before a deal, or Down and Back's discard pile when the stock runs out
    (DB-36).

    >>> from cardrules import parse_cards
    >>> Shuffle(parse_cards("KS 2H")).order[0]
    Card.parse('KS')
    """

    order: tuple[AnyCard, ...] = attrs.field(converter=_to_cards, validator=_check_order)

    def __str__(self) -> str:
        return " ".join(["shuffle", *map(str, self.order)])


def shuffled(pile: Sequence[AnyCard], rng: random.Random) -> tuple[AnyCard, ...]:
    """A uniformly random order of ``pile``, drawn from ``rng`` only.

    >>> from cardrules import DECK
    >>> shuffled(DECK[:5], random.Random(1)) == shuffled(DECK[:5], random.Random(1))
    True
    """
    return tuple(rng.sample(list(pile), len(pile)))


def shuffled_by_keys(pile: Sequence[AnyCard], rng: random.Random) -> tuple[AnyCard, ...]:
    """A uniformly random order of ``pile``: the cards sorted by independent
    keys ``rng.random()``, drawn one per card in pile order.

    Independent uniform keys put every order equally likely (two keys are
    equal with a chance below 1 in 10**12 for a 54-card pile; the sort then
    keeps their pile order).  It draws from ``rng`` differently from
    :func:`shuffled`, so the same seed gives another order, and it is about
    twice as fast for a whole deck.  Back Alley shuffles with it; Down and
    Back keeps :func:`shuffled`, so seeded games of either game never change.

    >>> from cardrules import DECK
    >>> order = shuffled_by_keys(DECK, random.Random(1))
    >>> sorted(order) == list(DECK), order == shuffled_by_keys(DECK, random.Random(1))
    (True, True)
    """
    draw = rng.random
    return tuple(sorted(pile, key=lambda _: draw()))


#: Either chance action.
ChanceAction = ChooseDealer | Shuffle


def chance_to_dict(action: object) -> dict[str, object] | None:
    """The JSON form of a chance action, or None for any other action.

    Both games write their chance actions this way, so records of either
    game read them with the same code.

    >>> chance_to_dict(ChooseDealer(3))
    {'type': 'dealer', 'seat': 3}
    >>> chance_to_dict("draw") is None
    True
    """
    if isinstance(action, ChooseDealer):
        return {"type": "dealer", "seat": action.seat}
    if isinstance(action, Shuffle):
        return {"type": "shuffle", "order": [str(c) for c in action.order]}
    return None


def chance_from_dict(fields: Fields, kind: str, *, jokers: bool) -> ChanceAction | None:
    """Read a chance action of type ``kind`` from ``fields``, or None when
    ``kind`` is not a chance type.  The caller has read ``kind`` from the
    ``"type"`` key; any key left unread afterwards is refused.

    >>> f = Fields({"type": "dealer", "seat": 1}, "action")
    >>> chance_from_dict(f, f.text("type"), jokers=False)
    ChooseDealer(seat=1)
    """
    if kind == "dealer":
        action: ChanceAction = ChooseDealer(fields.integer("seat", minimum=0))
    elif kind == "shuffle":
        order = fields.cards("order", jokers=jokers)
        if len(set(order)) != len(order):
            raise ParseError(f"{fields.what}: a shuffle holds each card once")
        action = Shuffle(order)
    else:
        return None
    fields.done()
    return action


def parse_chance(verb: str, rest: str, rest_at: int, *, jokers: bool) -> ChanceAction | None:
    """Read the text form of a chance action (``dealer 2``, ``shuffle AS KD ...``)
    given its verb and the rest of the line, or None for another verb.

    >>> parse_chance("dealer", "2", 7, jokers=False)
    ChooseDealer(seat=2)
    >>> parse_chance("shuffle", "AS AS", 8, jokers=False)
    Traceback (most recent call last):
    ...
    cardrules.errors.ParseError: a shuffle holds each card once: 'AS' at position 11
    """
    if verb == "dealer":
        return ChooseDealer(int_token(rest, rest_at))
    if verb == "shuffle":
        return Shuffle(_shuffle_at(rest, rest_at, jokers=jokers))
    return None


def _shuffle_at(text: str, start: int, *, jokers: bool) -> tuple[Card | Joker, ...]:
    """The cards of a shuffle's text (which starts at ``start`` in its line),
    read one at a time: the first card that is not one, a joker where none
    may be, or a repeat stops the reading (however long the text)."""
    from cardrules.cards import scan_cards

    seen: set[Card | Joker] = set()
    order: list[Card | Joker] = []
    try:
        for card, at in scan_cards(text):
            if card in seen:
                raise _Stop("a shuffle holds each card once", str(card), at)
            if isinstance(card, Joker) and not jokers:
                raise _Stop(lazy_gettext("jokers are not allowed here"), str(card), at)
            seen.add(card)
            order.append(card)
    except _Stop as stop:
        raise ParseError(stop.message, token=stop.token, position=start + stop.at) from None
    except ParseError as err:
        raise ParseError(err.text, token=err.token,
                         position=start + (err.position or 0)) from None
    return tuple(order)


class _Stop(Exception):
    def __init__(self, message: str | LazyText, token: str, at: int) -> None:
        super().__init__(message)
        self.message = message
        self.token = token
        self.at = at
