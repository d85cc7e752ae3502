"""A game server loop: every seat gets its own view as JSON and answers with
an action, as a client over a network would.

The server holds the only game state.  When a seat is to act it sends that
seat a JSON message with the seat's view (``view_to_dict``, which holds
only what the seat may see) and the legal moves in their text form; the
client answers with one of the texts, and the server reads it back with
``parse_action`` and applies it for that seat (``apply(state, action,
seat=seat)``), so a client can never move for another seat.  The chance
steps (choosing the dealer, the shuffles) are the server's own, from its
seeded ``random.Random``.  At the end every seat is sent its final view.

The clients here are coroutines joined to the server by ``asyncio`` queues,
with a random choice standing in for a person; a real server would put a
websocket or a TCP stream where the queues are.  No extra package is needed.

Run it from the top of the repository (after ``python -m pip install .``)::

    python examples/serve_views.py                       # Back Alley, seed 1
    python examples/serve_views.py down-and-back --seed 4
    python examples/serve_views.py back-alley --short    # deals of 1 to 3 cards

It prints how many messages each seat received and the final scores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from cardrules import back_alley, down_and_back

GAMES: dict[str, ModuleType] = {"back-alley": back_alley, "down-and-back": down_and_back}


async def client(seat: int, inbox: asyncio.Queue[str], outbox: asyncio.Queue[str],
                 seed: int) -> dict[str, Any]:
    """One seat's client: answers each ``turn`` message with a legal move's text
    and returns the final view it is sent when the game is over."""
    rng = random.Random(seed)
    while True:
        message = json.loads(await inbox.get())
        if message["type"] == "over":
            view: dict[str, Any] = message["view"]
            return view
        await outbox.put(json.dumps({"seat": seat, "action": rng.choice(message["legal"])}))


async def serve(game: ModuleType, state: Any, seed: int) -> tuple[Any, list[int]]:
    """Play ``state`` to its end with one client per seat; returns the final
    state and how many messages each seat received."""
    rng = random.Random(seed)
    seats = range(len(game.view(state, 0).hand_sizes))  # one client per player
    inboxes: list[asyncio.Queue[str]] = [asyncio.Queue() for _ in seats]
    answers: asyncio.Queue[str] = asyncio.Queue()
    clients = [asyncio.create_task(client(seat, inboxes[seat], answers, seed * 10 + seat))
               for seat in seats]
    sent = [0 for _ in seats]
    while not state.is_terminal:
        if state.is_chance:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        seat = state.current_player
        legal = [str(action) for action in game.legal_actions(state)]
        view = game.view_to_dict(game.view(state, seat))
        await inboxes[seat].put(json.dumps({"type": "turn", "view": view, "legal": legal}))
        sent[seat] += 1
        answer = json.loads(await answers.get())
        state = game.apply(state, game.parse_action(answer["action"]), seat=answer["seat"])
    for seat in seats:
        view = game.view_to_dict(game.view(state, seat))
        await inboxes[seat].put(json.dumps({"type": "over", "view": view}))
        sent[seat] += 1
    finals = await asyncio.gather(*clients)
    assert all(final["seat"] == seat for seat, final in zip(seats, finals, strict=True))
    return state, sent


def main(argv: Sequence[str] | None = None) -> None:
    """Serve one game to in-process clients and print what happened."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="back-alley", choices=sorted(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--short", action="store_true", help="a short game")
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    state: Any
    if game is back_alley:
        state = back_alley.new_game(max_hand_size=3 if args.short else 13)
    else:
        state = down_and_back.new_game(4, rounds=2 if args.short else 10)
    final, sent = asyncio.run(serve(game, state, args.seed))
    for seat, count in enumerate(sent):
        print(f"seat {seat}: {count} messages")
    if game is back_alley:
        print(f"final scores by team: {list(final.scores)}")
    else:
        print(f"chips won or lost by seat: {list(final.net)}, pot {final.pot}")


if __name__ == "__main__":
    main()
