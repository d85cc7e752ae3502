"""What every seat learns from an action: the events of a step.

A game's ``Rules.events(before, action, after)`` describes one step as a
tuple of :class:`Event` values.  Each event has a public part, which every
seat learns, and a private part, which only its ``owner`` learns (a card
drawn from the stock, a dealt hand).  The OpenSpiel information states, the
human command's narration and, later, a server's messages are all read from
these events, so what a seat is told is written in one place, the game's
package.

Parts are tuples of words and values (cards, hands, actions, seat numbers)
that are joined with spaces when shown; a seat is written ``seat N`` so that
a reader can turn it into "you" for the seat being spoken to.

>>> e = Event(owner=1, public=("seat", 1, "draws from the stock"),
...           private=("seat", 1, "draws", "KS", "from the stock"))
>>> e.text_for(0), e.text_for(1)
('seat 1 draws from the stock', 'seat 1 draws KS from the stock')
>>> Event(None, ("dealer", 2)).text_for(3)
'dealer 2'
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

__all__ = ["Event", "Parts", "Told", "told", "told_n"]

#: The words and values of one part of an event, joined with spaces when shown.
Parts = tuple[object, ...]


def _is_seat(name: str) -> bool:
    return name == "seat" or name.endswith("_seat")


@attrs.frozen(slots=True)
class Told:
    """One sentence of narration, kept as its English message and its values
    so that it can be told in the reader's language
    (:func:`cardrules.engine.presenter.narration`).

    ``message`` is an English text with ``{name}`` fields; a field named
    ``seat`` (the seat the sentence is about, whose player is told it as
    "you") or ending in ``_seat`` holds a seat number and reads ``seat N``;
    a field may also hold another :class:`Told` or a tuple of them (joined
    with commas).  ``plural`` and ``n``: the message's plural form and the
    number that chooses it.  ``str()`` is always the English text, so the
    machine-read texts built from events (OpenSpiel's information states)
    are the same in every language.  Build one with :func:`told` or
    :func:`told_n`.

    >>> t = told("{seat} discards {card}", seat=2, card="7H")
    >>> str(t), t.subject
    ('seat 2 discards 7H', 2)
    >>> str(told_n("{seat} deals {n} card", "{seat} deals {n} cards", 5, seat=1))
    'seat 1 deals 5 cards'
    """

    message: str
    fields: tuple[tuple[str, object], ...] = ()
    plural: str | None = None
    n: int | None = None

    @property
    def subject(self) -> int | None:
        """The seat the sentence is about (its ``seat`` field), or None.

        >>> told("scores: {a}", a=1).subject is None
        True
        """
        value = dict(self.fields).get("seat")
        return value if isinstance(value, int) else None

    def values(self) -> dict[str, object]:
        """The fields as a mapping.

        >>> told("{seat} passes", seat=0).values()
        {'seat': 0}
        """
        return dict(self.fields)

    def template(self) -> str:
        """The English message for ``n`` (singular or plural).

        >>> told_n("{n} card", "{n} cards", 1).template()
        '{n} card'
        """
        if self.plural is not None and self.n != 1:
            return self.plural
        return self.message

    def __str__(self) -> str:
        return self.template().format_map(
            {name: _english(name, value) for name, value in self.fields})


def _english(name: str, value: object) -> str:
    if _is_seat(name) and isinstance(value, int):
        return f"seat {value}"
    if type(value) is tuple:  # a list of sentences (a Hand is a tuple too)
        return ", ".join(map(str, value))
    return str(value)


def told(message: str, /, **fields: object) -> Told:
    """A :class:`Told` sentence (``message`` is extracted for the catalog).

    >>> str(told("{seat} wins the trick (BA-34)", seat=3))
    'seat 3 wins the trick (BA-34)'
    """
    return Told(message, tuple(fields.items()))


def told_n(singular: str, plural: str, n: int, /, **fields: object) -> Told:
    """A :class:`Told` sentence whose form follows ``n`` (also its field ``n``).

    >>> str(told_n("{n} card", "{n} cards", 2))
    '2 cards'
    """
    values: Mapping[str, object] = {"n": n, **fields}
    return Told(singular, tuple(values.items()), plural, n)


@attrs.frozen(slots=True)
class Event:
    """One thing that happened, as the table learns it.

    ``owner`` is the seat the private part is for (None: the event is public);
    ``public`` is what every other seat learns (None: nothing), ``private``
    what the owner learns (None: the same as everyone).

    >>> Event(2, None, ("seat", 2, "dealt", "AS KS")).seen_by(0) is None
    True
    >>> Event(2, None, ("seat", 2, "dealt", "AS KS")).seen_by(2)
    ('seat', 2, 'dealt', 'AS KS')
    """

    owner: int | None
    public: Parts | None
    private: Parts | None = None

    def seen_by(self, seat: int) -> Parts | None:
        """The part of this event that ``seat`` learns, or None for nothing.

        >>> Event(None, ("dealer", 0)).seen_by(1)
        ('dealer', 0)
        """
        if self.owner is not None and seat == self.owner and self.private is not None:
            return self.private
        return self.public

    def text_for(self, seat: int) -> str | None:
        """What ``seat`` learns of this event as text, or None.

        >>> Event(0, ("seat", 0, "splits"), ("seat", 0, "split", "AS")).text_for(1)
        'seat 0 splits'
        """
        parts = self.seen_by(seat)
        return None if parts is None else " ".join(map(str, parts))
