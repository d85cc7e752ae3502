"""Down and Back engine speed beside OpenSpiel's C++ ``spades``, in one run.

Two measurements, each made the same way for both engines:

* **random rounds**: a Python loop plays whole rounds (a 4-player Down and
  Back round; a spades deal), choosing uniformly among ``legal_actions`` with
  ``random.Random`` and sampling chance events from the same generator;
* **apply + legal_actions**: the actions of pre-recorded games are replayed,
  calling ``legal_actions`` at every decision and then applying the action:
  the engines' own cost per action, with no sampling and no Python loop
  work on OpenSpiel's side beyond the calls themselves.

Target (issue 3): our cost per action within 10x of OpenSpiel's, both driven
by the same Python random loop.  The replay ratio is printed for information:
it sets our Python reducer against bare C++.

Run: ``python benchmarks/bench_engine.py [--quick]`` (needs the ``bench`` extra
for OpenSpiel; without it only our rows print).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from _timing import Case, machine_summary, run_interleaved

import cardrules.down_and_back as db

PLAYERS = 4


def _our_round(rng: random.Random) -> list[db.Action]:
    state = db.new_game(PLAYERS, rounds=1)
    actions: list[db.Action] = []
    while not state.is_terminal:
        if state.is_chance:
            action: db.Action = db.sample_chance(state, rng)
        else:
            action = rng.choice(db.legal_actions(state))
        state = db.apply(state, action)
        actions.append(action)
    return actions


def _our_replay(games: list[list[db.Action]]) -> None:
    apply, legal = db.apply, db.legal_actions
    for actions in games:
        state = db.new_game(PLAYERS, rounds=1)
        for action in actions:
            if not state.is_chance:
                legal(state)
            state = apply(state, action)


def _spiel_round(game: Any, rng: random.Random) -> list[int]:
    state = game.new_initial_state()
    actions: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice(state.chance_outcomes())[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
    return actions


def _spiel_replay(game: Any, games: list[list[int]]) -> None:
    for actions in games:
        state = game.new_initial_state()
        for action in actions:
            if not state.is_chance_node():
                state.legal_actions()
            state.apply_action(action)


def _load_spades() -> Any:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("spades")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    count = 20 if args.quick else 300
    repeat = 2 if args.quick else args.repeat

    for key, value in machine_summary(["cardrules", "open-spiel"]):
        print(f"{key:>12}: {value}")
    spades = _load_spades()

    ours = [_our_round(random.Random(args.seed + i)) for i in range(count)]
    our_actions = sum(len(a) for a in ours)
    cases = [
        Case("Down and Back, random 4-player rounds",
             _runner(lambda rng: _our_round(rng), args.seed, count), count, "rounds"),
        Case("Down and Back, apply + legal_actions", lambda: _our_replay(ours),
             our_actions, "actions"),
    ]
    if spades is not None:
        theirs = [_spiel_round(spades, random.Random(args.seed + i)) for i in range(count)]
        spiel_actions = sum(len(a) for a in theirs)
        cases += [
            Case("OpenSpiel spades, random deals",
                 _runner(lambda rng: _spiel_round(spades, rng), args.seed, count), count,
                 "deals"),
            Case("OpenSpiel spades, apply + legal_actions",
                 lambda: _spiel_replay(spades, theirs), spiel_actions, "actions"),
        ]
    results = run_interleaved(cases, repeat=repeat)
    print()
    print(f"{'case':<42} {'rate':>16} {'per item':>12}")
    for result in results:
        per = result.seconds_per_item * 1e6
        print(f"{result.case.name:<42} {result.rate:>11,.0f} {result.case.unit:<4}"
              f" {per:>9.2f} us")
    print()
    print(f"actions per round: Down and Back {our_actions / count:.1f}", end="")
    if spades is None:
        print("\nOpenSpiel: skipped (install cardrules[bench])")
        return 0
    print(f", spades deal {spiel_actions / count:.1f}")
    our_loop = results[0].seconds / our_actions
    their_loop = results[2].seconds / spiel_actions
    loop_ratio = our_loop / their_loop
    verdict = "PASS" if loop_ratio <= 10 else "MISS"
    print(f"cost per action in the random loop: ours {our_loop * 1e6:.2f} us, "
          f"OpenSpiel {their_loop * 1e6:.2f} us")
    print(f"  {verdict}  ours within 10x of OpenSpiel's: {loop_ratio:.1f}x")
    replay_ratio = results[1].seconds_per_item / results[3].seconds_per_item
    print(f"  (info) apply + legal_actions alone vs bare C++: {replay_ratio:.1f}x")
    return 0


def _runner(play: Callable[[random.Random], object], seed: int,
            count: int) -> Callable[[], None]:
    def run() -> None:
        for i in range(count):
            play(random.Random(seed + i))
    return run


if __name__ == "__main__":
    sys.exit(main())
