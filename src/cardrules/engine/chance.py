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

import attrs

from cardrules.cards import Card, Joker

__all__ = ["ChooseDealer", "Shuffle", "shuffled"]

AnyCard = Card | Joker


def _check_seat(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"a seat is a non-negative int, not {value!r}")


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


def _check_order(instance: object, attribute: attrs.Attribute[tuple[AnyCard, ...]],
                 value: tuple[AnyCard, ...]) -> None:
    if not all(isinstance(c, Card | Joker) for c in value):
        raise ValueError("a shuffle orders cards")
    if len(set(value)) != len(value):
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
