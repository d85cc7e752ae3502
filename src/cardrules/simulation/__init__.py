"""Simulation at scale: bots play many games, the outcomes are tallied exactly.

:func:`simulate` plays a number of games of any game (a name the registry
finds, or a :class:`~cardrules.engine.Rules`), in this process,
in local worker processes or on any :class:`concurrent.futures.Executor`
(a Dask cluster's ``Client.get_executor()`` included), and returns a
:class:`SimulationResult`: integer tallies per seat (wins, ties, sums and
sums of squares of the final net chips or points, every final value
counted, from ``Rules.returns``) and the game's own facts, counted by its
``Rules.tally`` (for Down and Back the pots that carried over and the
categories that won each showdown; for Back Alley how each kind of contract
fared; nothing more for a game without a tally).  Results of the same seed
are equal however the games were spread, and results merge exactly.

>>> from cardrules.simulation import simulate
>>> result = simulate("down-and-back", games=5, seed=2, bots="greedy", workers=1,
...                   settings={"num_players": 3, "rounds": 2})
>>> result.games, [seat.games for seat in result.seats]
(5, [5, 5, 5])
>>> result == simulate("down-and-back", games=5, seed=2, bots="greedy", workers=1,
...                    settings={"num_players": 3, "rounds": 2}, chunk_size=2)
True

``cardrules.simulate`` is the same function.  The charts of ``cardrules
simulate --plot`` are drawn by :mod:`cardrules.simulation.plot` (needs
matplotlib).
"""

from cardrules.simulation.result import MarginTally, SeatTally, SimulationResult
from cardrules.simulation.run import game_seeds, play_chunk, rotations, simulate

__all__ = [
    "MarginTally",
    "SeatTally",
    "SimulationResult",
    "game_seeds",
    "play_chunk",
    "rotations",
    "simulate",
]
