"""A short text account of a Down and Back game: each round's outcome and the money.

>>> from cardrules.down_and_back import RULES
>>> from cardrules.engine import RandomBot
>>> game = RULES.play([RandomBot(1), RandomBot(2)], {"rounds": 2}, seed=3)
>>> print(summarize(game.state))
round 1: down to seat ..., back to seat ...
round 2: ...
net: ... (pot ...)
leading: seat...
"""

from __future__ import annotations

from cardrules.down_and_back.state import GameState, RoundResult
from cardrules.i18n import gettext

__all__ = ["result_lines", "round_line", "summarize"]


def round_line(result: RoundResult) -> str:
    """The summary's line for one finished round (DB-43): who won each hand
    and who took the pot, or that it carried over.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> game = RULES.play([RandomBot(1), RandomBot(2)], {"rounds": 1}, seed=3)
    >>> round_line(game.state.results[0]) == summarize(game.state).splitlines()[0]
    True
    """
    pot = (gettext("seat {seat} takes {pot}").format(seat=result.pot_winner, pot=result.pot)
           if result.pot_winner is not None
           else gettext("pot of {pot} carries over").format(pot=result.pot))
    return gettext("round {round}: down to seat {down}, back to seat {back}; {pot}").format(
        round=result.round, down=result.down_winner, back=result.back_winner, pot=pot)


def result_lines(before: GameState, after: GameState) -> tuple[str, ...]:
    """The line of each round the step from ``before`` to ``after`` finished
    (``Rules.result_lines``): the summary's next lines, as they happen.

    >>> from cardrules.down_and_back import new_game
    >>> result_lines(new_game(2), new_game(2))
    ()
    """
    return tuple(map(round_line, after.results[len(before.results):]))


def summarize(state: GameState) -> str:
    """One line per finished round (DB-43: who took the pot or that it
    carried), then each seat's net winnings and the leaders (DB-44).

    >>> from cardrules.down_and_back import new_game
    >>> print(summarize(new_game(3)))
    net: +0 +0 +0 (pot 0)
    leading: seats 0, 1, 2
    """
    lines = [round_line(result) for result in state.results]
    lines.append(gettext("net: {net} (pot {pot})").format(
        net=" ".join(f"{v:+d}" for v in state.net), pot=state.pot))
    leaders = state.leaders
    lines.append((gettext("leading: seat {seats}") if len(leaders) == 1 else
                  gettext("leading: seats {seats}")).format(seats=", ".join(map(str, leaders))))
    return "\n".join(lines)
