"""A match between two of the library's bots, in either game.

Each game is played with the bots' seats swapped from the game before, so
neither side keeps the advantage of a seat.  In Back Alley the first bot
plays one partnership (seats 0 and 2 in even games) and the second bot the
other; in Down and Back the two bots play heads-up.  The bots are those the
game lists by name (``cardrules.engine.rules_for(game).bots``): ``random``,
``greedy`` and ``search`` in Down and Back, ``random``, ``heuristic`` and
``search`` in Back Alley.

Run it from the top of the repository (after ``python -m pip install .``)::

    python examples/match.py back-alley heuristic random --games 4
    python examples/match.py down-and-back greedy random --games 10 --seed 3
    python examples/match.py back-alley heuristic random --games 2 --short

``--short`` plays short games (Back Alley deals of at most 3 cards,
Down and Back 2 rounds).  It prints the score of every game and the wins.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from cardrules.engine import Bot, rules_for


def main(argv: Sequence[str] | None = None) -> None:
    """Play the match the command line asks for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["back-alley", "down-and-back"])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--short", action="store_true", help="short games")
    args = parser.parse_args(argv)
    rules = rules_for(args.game.replace("-", "_"))
    for name in (args.first, args.second):
        if name not in rules.bots:
            parser.error(f"{rules.title} has no bot {name!r} (it has {', '.join(rules.bots)})")
    back_alley = args.game == "back-alley"
    if back_alley:
        settings = {"max_hand_size": 3 if args.short else 13}
    else:
        settings = {"num_players": 2, "rounds": 2 if args.short else 10}
    wins = {args.first: 0, args.second: 0, "draw": 0}
    for number in range(args.games):
        order = [args.first, args.second] if number % 2 == 0 else [args.second, args.first]
        seats = order * 2 if back_alley else order   # seat i plays order[i % 2]
        bots: list[Bot] = [rules.bots[name](args.seed * 100 + number * 4 + seat)
                           for seat, name in enumerate(seats)]
        state = rules.play(bots, settings, seed=args.seed * 1000 + number).state
        points = list(state.scores if back_alley else state.net)  # by team or by seat
        first, second = points[order.index(args.first)], points[order.index(args.second)]
        winner = args.first if first > second else args.second if second > first else "draw"
        wins[winner] += 1
        print(f"game {number + 1}: {args.first} {first:+d}, {args.second} {second:+d}"
              f" -> {winner}")
    print(f"{args.first} won {wins[args.first]}, {args.second} won {wins[args.second]}, "
          f"{wins['draw']} drawn, of {args.games} games of {rules.title}")


if __name__ == "__main__":
    main()
