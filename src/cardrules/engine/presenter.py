"""How a game shows itself to a person: the :class:`Presenter` protocol.

The ``cardrules play GAME --human SEAT`` command draws the table, lists the
moves and tells what happened through a game's presenter
(``Rules.presenter(seat)``), which reads only that seat's view.

>>> from cardrules.engine.presenter import Presenter
>>> Presenter.__name__
'Presenter'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["Presenter"]


class Presenter(Protocol):
    """What the loop needs from a game's text presentation.

    Every method reads the person's view (``view(state, you)``), never a
    state, so nothing hidden from the person can be shown.

    >>> from cardrules.back_alley import RULES
    >>> from cardrules.cli.human import presenter_for
    >>> isinstance(presenter_for(RULES).notation, str)
    True
    """

    #: The move notation of the game, for ``help``.
    notation: str

    def intro(self, view: Any) -> str:
        """The first line: the game and who the person is."""

    def table(self, view: Any) -> list[str]:
        """The table as the person sees it, first line starting with ``==``."""

    def moves(self, view: Any, legal: Sequence[Any]) -> list[str]:
        """The numbered legal moves, and any hints."""

    def labels(self, view: Any, legal: Sequence[Any]) -> dict[str, Any]:
        """Every text :meth:`moves` lists a move by (as :func:`cardrules.cli.human.listed_key`
        keys it), with the move it stands for."""

    def read(self, text: str) -> Any:
        """The move ``text`` names in the game's notation; :class:`~cardrules.ParseError`
        (quoting the text as typed) if it names none."""

    def narrate(self, actor: int | None, action: Any, before: Any, after: Any) -> list[str]:
        """What everyone at the table saw of ``action`` (and what it ended)."""

    def outcome(self, view: Any) -> list[str]:
        """The person's result at the end of the game."""
