"""What the OpenSpiel adapter costs: the same games replayed through
``cardrules.integrations.openspiel`` and through the bare reducer.

Random games are drawn with the library (``sample_chance`` and a random legal
action), then replayed two ways, asking for the legal actions at every
decision as a player would:

* **bare**: ``legal_actions(state)`` and ``apply(state, action)``;
* **adapter**: ``state.legal_actions()`` and ``state.apply_action(number)`` on
  the OpenSpiel state, where each shuffle is 51 (Down and Back) or 53 (Back
  Alley) card-by-card chance steps and every player action goes through its
  number.

The ratio compares the time per game (the same games both ways); the cost
per step is printed for each as well (the adapter has more, smaller steps).

Run: ``python benchmarks/speed/bench_openspiel_adapter.py [--quick]`` (needs the
``openspiel`` extra).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from _timing import Case, machine_summary, run_interleaved

import cardrules.back_alley as ba
import cardrules.down_and_back as db
from cardrules.back_alley import encoding as ba_encoding
from cardrules.down_and_back import encoding as db_encoding
from cardrules.engine import ChooseDealer, Rules, Shuffle


def _record(rules: Rules[Any, Any], encoding: Any, settings: dict[str, int],
            rng: random.Random) -> tuple[list[object], list[int]]:
    """One random game: its cardrules actions and the adapter's numbers for it."""
    state = rules.new_game_from_settings(settings)
    actions: list[object] = []
    numbers: list[int] = []
    while not state.is_terminal:
        if state.is_chance:
            action = rules.sample_chance(state, rng)
            if isinstance(action, ChooseDealer):
                numbers.append(action.seat)
            else:
                assert isinstance(action, Shuffle)
                numbers.extend(card.index for card in action.order[:-1])
        else:
            action = rng.choice(rules.legal_actions(state))
            numbers.append(encoding.action_id(action))
        actions.append(action)
        state = rules.apply(state, action)
    return actions, numbers


def _bare(rules: Rules[Any, Any], settings: dict[str, int],
          games: Sequence[list[object]]) -> Callable[[], None]:
    def run() -> None:
        apply, legal = rules.apply, rules.legal_actions
        for actions in games:
            state = rules.new_game_from_settings(settings)
            for action in actions:
                if not state.is_chance:
                    legal(state)
                state = apply(state, action)
    return run


def _adapter(game: Any, games: Sequence[list[int]]) -> Callable[[], None]:
    def run() -> None:
        for numbers in games:
            state = game.new_initial_state()
            for number in numbers:
                if not state.is_chance_node():
                    state.legal_actions()
                state.apply_action(number)
            assert state.is_terminal()
    return run


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        import pyspiel

        import cardrules.integrations.openspiel  # noqa: F401  (registers the games)
    except ImportError as err:
        print(f"skipped: {err}")
        return 0
    count = 2 if args.quick else 20
    repeat = 1 if args.quick else args.repeat
    for key, value in machine_summary(["cardrules", "open-spiel"]):
        print(f"{key:>12}: {value}")
    print()
    setups: list[tuple[str, Rules[Any, Any], Any, dict[str, int], Any]] = [
        ("Down and Back, 4 players, 10 rounds", db.RULES, db_encoding,
         {"num_players": 4, "ante": 1, "rounds": 10},
         pyspiel.load_game("cardrules_down_and_back", {"num_players": 4, "rounds": 10})),
        ("Back Alley, 25 deals", ba.RULES, ba_encoding, {"max_hand_size": 13},
         pyspiel.load_game("cardrules_back_alley")),
    ]
    for title, rules, encoding, settings, game in setups:
        recorded = [_record(rules, encoding, settings, random.Random(args.seed + i))
                    for i in range(count)]
        actions = [a for a, _ in recorded]
        numbers = [n for _, n in recorded]
        steps = sum(map(len, actions))
        adapter_steps = sum(map(len, numbers))
        bare, adapter = run_interleaved([
            Case(f"{title}: bare reducer", _bare(rules, settings, actions), count, "games"),
            Case(f"{title}: OpenSpiel adapter", _adapter(game, numbers), count, "games"),
        ], repeat=repeat)
        print(title)
        print(f"  bare reducer  {bare.seconds_per_item * 1e3:9.2f} ms/game  "
              f"{bare.seconds / steps * 1e6:8.2f} us/step  ({steps / count:.0f} steps)")
        print(f"  adapter       {adapter.seconds_per_item * 1e3:9.2f} ms/game  "
              f"{adapter.seconds / adapter_steps * 1e6:8.2f} us/step  "
              f"({adapter_steps / count:.0f} steps)")
        print(f"  adapter / bare per game: {adapter.seconds / bare.seconds:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
