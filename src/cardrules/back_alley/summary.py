"""A short text account of a Back Alley game: each deal's contracts,
tricks and points, then the scores (BA-40 to BA-43).

>>> from cardrules.back_alley import RULES
>>> from cardrules.engine import RandomBot
>>> game = RULES.play([RandomBot(s) for s in range(4)], {"max_hand_size": 1}, seed=3)
>>> print(summarize(game.state))
deal 1 ...
scores: team 0 ..., team 1 ...
team ... wins
"""

from __future__ import annotations

from cardrules.back_alley.state import GameState, Phase, _result_line
from cardrules.i18n import gettext

__all__ = ["result_lines", "summarize"]


def summarize(state: GameState) -> str:
    """One line per finished deal (contracts, tricks and points, BA-40 to
    BA-42), then the scores and who leads or won (BA-43).

    >>> from cardrules.back_alley import new_game
    >>> print(summarize(new_game()))
    scores: team 0 0, team 1 0
    level
    """
    lines = [str(result) for result in state.history.results]
    s0, s1 = state.history.scores
    lines.append(gettext("scores: team 0 {first}, team 1 {second}").format(first=s0, second=s1))
    lines.append(_result_line(s0, s1, state.phase is Phase.GAME_OVER))
    return "\n".join(lines)


def result_lines(before: GameState, after: GameState) -> tuple[str, ...]:
    """The line of each deal the step from ``before`` to ``after`` finished
    (``Rules.result_lines``): the summary's next lines, as they happen
    (BA-40 to BA-42).

    >>> from cardrules.back_alley import new_game
    >>> result_lines(new_game(), new_game())
    ()
    """
    return tuple(map(str, after.results[len(before.results):]))
