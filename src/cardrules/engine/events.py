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

import attrs

__all__ = ["Event", "Parts"]

#: The words and values of one part of an event, joined with spaces when shown.
Parts = tuple[object, ...]


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
