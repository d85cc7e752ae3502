"""Back Alley with every hand open: the double-dummy solver, the bot that
plays by it and the report on a played game.

- :func:`max_tricks` and :func:`play_values` (``solver``): the most tricks
  the team of the seat to act takes with best play by both teams, in C
  (``_solver.c``, through ``_native``) or in Python, with the same answers;
  :func:`double_dummy_table` the tricks of each team with each seat on lead;
  :func:`solve_many` a batch of positions across threads;
- :class:`DoubleDummyBot` (``bot``): draws deals that fit what its seat has
  seen and plays the card that does best over them;
- :func:`double_dummy_report` (``report``): each deal of a played game
  beside its double-dummy result, the text of ``cardrules replay
  --double-dummy``.

The solver's card masks (one 64-bit word per hand, a 16-bit slot per suit)
are described once, at the top of ``_solver.c``.

>>> from cardrules.back_alley import apply, new_game, ChooseDealer, Shuffle, Bid
>>> from cardrules.back_alley.actions import CARDS
>>> state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(CARDS))
>>> for bid in (Bid(1), Bid(1), Bid(1), Bid(1)):
...     state = apply(state, bid)
>>> max_tricks(state) in (0, 1, 2)
True
"""

from cardrules.back_alley.double_dummy.bot import (
    DEFAULT_INFERENCE,
    DEFAULT_SAMPLES,
    POOL,
    DoubleDummyBot,
    bid_misfit,
)
from cardrules.back_alley.double_dummy.report import (
    DealDoubleDummy,
    DoubleDummyReport,
    double_dummy_report,
    double_dummy_text,
)
from cardrules.back_alley.double_dummy.solver import (
    IMPLEMENTATIONS,
    TABLE_ENTRIES,
    DoubleDummyTable,
    clear_cache,
    double_dummy_table,
    max_tricks,
    play_values,
    solve_many,
)

__all__ = [
    "DEFAULT_INFERENCE",
    "DEFAULT_SAMPLES",
    "IMPLEMENTATIONS",
    "POOL",
    "TABLE_ENTRIES",
    "DealDoubleDummy",
    "DoubleDummyBot",
    "DoubleDummyReport",
    "DoubleDummyTable",
    "bid_misfit",
    "clear_cache",
    "double_dummy_report",
    "double_dummy_table",
    "double_dummy_text",
    "max_tricks",
    "play_values",
    "solve_many",
]
