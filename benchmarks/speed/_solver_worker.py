"""A worker that times the C double-dummy solver of whichever cardrules its
interpreter imports, for ``bench_solver.py --before``: the same positions
then run in the tree before a change and in this one, in one run.

It reads one JSON request a line on stdin and answers one JSON line:

- ``["max_tricks", args]`` / ``["play_values", args]``: the C solver's raw
  arguments (hands, trick, leader, trump, trump_played, board); the answer
  is ``[seconds, result]``, the time of the call alone;
- ``["bot", state, samples, seed]``: the seconds of one
  ``DoubleDummyBot(seed, samples=samples).act`` for the seat to act at
  ``state`` (``state_to_dict``'s form), seeing its own view.
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    from cardrules.back_alley import legal_actions, state_from_dict, view
    from cardrules.back_alley.double_dummy import DoubleDummyBot, _solver

    for line in sys.stdin:
        request = json.loads(line)
        kind = request[0]
        if kind in ("max_tricks", "play_values"):
            hands, trick, leader, trump, played, board = request[1]
            func = getattr(_solver, kind)
            start = time.perf_counter()
            result = func(tuple(hands), tuple(trick), leader, trump, played, board)
            seconds = time.perf_counter() - start
            answer: object = [seconds, result]
        else:
            state = state_from_dict(request[1])
            bot = DoubleDummyBot(request[3], samples=request[2])
            seat = state.current_player
            assert seat is not None
            start = time.perf_counter()
            choice = bot.act(view(state, seat), legal_actions(state))
            answer = [time.perf_counter() - start, str(choice)]
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
