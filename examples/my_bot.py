"""Write your own bot and play it against the library's bots.

A bot is any object with ``act(view, legal) -> action``: it sees only its own
seat's view and the list of legal actions, and returns one of them (the
protocol is :class:`cardrules.engine.Bot`).  This one plays Down and Back: it
takes the discard when the card pairs one it holds, throws away its loneliest
low card, and splits by the library's own measure of a split
(:func:`cardrules.down_and_back.hand_value`).

Run it from the top of the repository (after ``python -m pip install .``)::

    python examples/my_bot.py                  # 20 games of 4 rounds, seed 1
    python examples/my_bot.py --games 3 --rounds 2 --seed 7

It prints each seat's bot and the chips it won or lost over all games.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from cardrules.down_and_back import (
    Discard,
    DrawDiscard,
    DrawStock,
    GreedyBot,
    Split,
    View,
    hand_value,
    play_game,
    splits,
)
from cardrules.engine import Bot, RandomBot

A = TypeVar("A")


class PairKeeperBot:
    """Keeps pairs: draws a discard that matches a rank in hand, discards the
    lowest card of the rarest rank, and splits as ``hand_value`` advises."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: object, legal: Sequence[A]) -> A:
        """One of ``legal``, chosen from what ``view`` (this seat's) shows."""
        assert isinstance(view, View)
        first = legal[0]
        if isinstance(first, Split):
            _, number = hand_value(view.hand)
            wanted = set(splits(view.hand)[number].down.cards)
            return next(a for a in legal if isinstance(a, Split) and set(a.down) == wanted)
        if isinstance(first, DrawStock | DrawDiscard):
            ranks = {card.rank for card in view.hand}
            takes = bool(view.discard) and view.discard[-1].rank in ranks
            draw = DrawDiscard if takes else DrawStock
            return next((a for a in legal if isinstance(a, draw)), first)
        if isinstance(first, Discard):
            counts = Counter(card.rank for card in view.hand)

            def keep_value(action: A) -> tuple[int, int]:
                card = action.card if isinstance(action, Discard) else view.hand[0]
                return counts[card.rank], card.rank

            return min(legal, key=keep_value)
        return self.rng.choice(legal)  # the cut


def main(argv: Sequence[str] | None = None) -> None:
    """Play the games the command line asks for and print the chips won."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = ["pair-keeper", "greedy", "random"]
    totals = [0, 0, 0]
    for game in range(args.games):
        bots: list[Bot] = [PairKeeperBot(seed=game), GreedyBot(seed=game),
                           RandomBot(seed=game)]
        played = play_game(bots, rounds=args.rounds, seed=args.seed * 1000 + game)
        for seat, net in enumerate(played.state.net):
            totals[seat] += net
    print(f"{args.games} game(s) of Down and Back, {args.rounds} round(s) each, "
          f"seed {args.seed}; what is not won stays in the pot")
    for seat, (name, total) in enumerate(zip(names, totals, strict=True)):
        print(f"seat {seat}  {name:<12} {total:+d} chips")


if __name__ == "__main__":
    main()
