"""Random rollouts through the OpenSpiel adapter beside the reducer's own
random playout, in one run, and the information state at the end of a game.

Each case plays whole random games, round-robin (one game of each case in
turn, so a busy period slows all alike):

* **reducer**: ``sample_chance`` at chance points, else a random member of
  ``legal_actions``, then ``apply`` (the library's own random playout);
* **adapter, card by card**: OpenSpiel's usual loop on the adapter's
  states, a chance outcome drawn from ``chance_outcomes()`` (each shuffle is
  51 or 53 steps), else a random member of ``legal_actions()``, then
  ``apply_action``;
* **adapter, sampled chance**: the same loop on a game loaded with
  ``sampled_chance=1`` (each shuffle one step the state draws itself);
  skipped on a tree without that parameter.

Then ``information_state_string`` and ``information_state_tensor`` are
timed at the last decision of full games of both: on a state that asked at
every decision before (as a tree search does) and on one that never asked
(the first call).

Times are this process's CPU time (``time.process_time``): on a shared
machine wall time mostly counts waiting for a core.  The whole round-robin
is repeated ``--repeats`` times; each repeat gives every case's median time
per game and its ratio to the reducer's median in that repeat.  Prints, per
case, the median over the repeats of those medians and ratios with their
spread (least and greatest repeat), the steps per game, and the machine and
load.  Run: ``python benchmarks/speed/bench_openspiel_rollout.py [--games N]
[--repeats R] [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from _timing import machine_summary

import cardrules.back_alley as ba
import cardrules.down_and_back as db
from cardrules.engine import Rules


def _reducer(rules: Rules[Any, Any], settings: dict[str, int]) -> Callable[[int], int]:
    def play(seed: int) -> int:
        rng = random.Random(seed)
        apply, legal, sample = rules.apply, rules.legal_actions, rules.sample_chance
        state = rules.new_game_from_settings(settings)
        steps = 0
        while not state.is_terminal:
            if state.is_chance:
                state = apply(state, sample(state, rng))
            else:
                state = apply(state, rng.choice(legal(state)))
            steps += 1
        return steps
    return play


def _adapter(game: Any) -> Callable[[int], int]:
    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps
    return play


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    q1, median, q3 = statistics.quantiles(values, n=4)
    return q1, median, q3


def _information_state(game: Any, games: int, ask_on_the_way: bool,
                       method: str = "information_state_string") -> list[float]:
    """Seconds of one ``method`` call (``information_state_string`` or
    ``information_state_tensor``) at the last decision of each of ``games``
    random games."""
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        last = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                if ask_on_the_way:
                    getattr(state, method)(state.current_player())
                last = state.clone()
                state.apply_action(rng.choice(state.legal_actions()))
        assert last is not None
        seat = last.current_player()
        start = time.process_time()
        getattr(last, method)(seat)
        out.append(time.process_time() - start)
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20,
                        help="games per case in each repeat (default 20)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="repeats of the whole round-robin (default 5)")
    parser.add_argument("--quick", action="store_true", help="a smoke run of 3 games, once")
    args = parser.parse_args(argv)
    try:
        import pyspiel

        import cardrules.integrations.openspiel  # noqa: F401  (registers the games)
    except ImportError as err:
        print(f"skipped: {err}")
        return 0
    games, repeats = (3, 1) if args.quick else (args.games, args.repeats)
    for key, value in machine_summary(["cardrules", "open-spiel"]):
        print(f"{key:>12}: {value}")
    print(f"{'load':>12}: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")
    print()
    setups: list[tuple[str, Rules[Any, Any], dict[str, int], str, dict[str, int]]] = [
        ("Back Alley, 25 deals", ba.RULES, {"max_hand_size": 13}, "cardrules_back_alley", {}),
        ("Down and Back, 4 players, 10 rounds", db.RULES,
         {"num_players": 4, "ante": 1, "rounds": 10}, "cardrules_down_and_back",
         {"num_players": 4, "rounds": 10}),
    ]
    for title, rules, settings, name, params in setups:
        cases: list[tuple[str, Callable[[int], int]]] = [
            ("reducer playout", _reducer(rules, settings)),
            ("adapter, card by card", _adapter(pyspiel.load_game(name, params)))]
        try:
            sampled = pyspiel.load_game(name, {**params, "sampled_chance": 1})
        except (ValueError, pyspiel.SpielError):
            pass
        else:
            cases.append(("adapter, sampled chance", _adapter(sampled)))
        # medians[i][r]: case i's median seconds per game in repeat r
        medians: list[list[float]] = [[] for _ in cases]
        steps: list[int] = [0] * len(cases)
        for _, play in cases:
            play(10 ** 6)   # warm up
        for _ in range(repeats):
            seconds: list[list[float]] = [[] for _ in cases]
            for seed in range(games):
                for i, (_, play) in enumerate(cases):
                    start = time.process_time()
                    steps[i] += play(seed)
                    seconds[i].append(time.process_time() - start)
            for i, times in enumerate(seconds):
                medians[i].append(statistics.median(times))
        print(f"{title}, {repeats} repeats of {games} games: median ms per game "
              f"[least, greatest repeat], steps per game, median / reducer [spread]")
        for (label, _), per_repeat, count in zip(cases, medians, steps, strict=True):
            ratios = [m / base for m, base in zip(per_repeat, medians[0], strict=True)]
            print(f"  {label:<26} {statistics.median(per_repeat) * 1e3:7.2f} "
                  f"[{min(per_repeat) * 1e3:.2f}, {max(per_repeat) * 1e3:.2f}]"
                  f"  {count / games / repeats:6.0f}  {statistics.median(ratios):5.2f}x "
                  f"[{min(ratios):.2f}, {max(ratios):.2f}]")
    count = max(3, games // 4)
    for title, name, params in (
            ("Back Alley", "cardrules_back_alley", {}),
            ("Down and Back, 4 players", "cardrules_down_and_back", {"num_players": 4})):
        game = pyspiel.load_game(name, params)
        for method in ("information_state_string", "information_state_tensor"):
            print(f"\n{title}, {method} at the last decision ({count} games): "
                  f"median ms [quartiles]")
            for label, ask in (("asked at every decision before", True),
                               ("first call", False)):
                times = _information_state(game, count, ask, method)
                q1, median, q3 = _quartiles(times)
                print(f"  {label:<32} {median * 1e3:7.3f} [{q1 * 1e3:.3f}, {q3 * 1e3:.3f}]")
    print(f"\n{'load':>12}: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
