"""Down and Back engine speed beside OpenSpiel's C++ ``spades``, in one run.

Both engines are driven by their own *minimal* random-playout loop, the
shortest Python loop a user would write to play a random game:

* OpenSpiel: ``state.apply_action(rng.choice(state.legal_actions()))`` at
  every node, chance nodes included (at a chance node ``legal_actions()``
  lists the outcomes; building ``chance_outcomes()`` tuples would add to
  OpenSpiel's side);
* cardrules: ``state = apply(state, sample_chance(state, rng))`` at chance
  points, ``state = apply(state, rng.choice(legal_actions(state)))`` otherwise.

A 4-player Down and Back round and a spades deal are played to the end,
each from its own seeded ``random.Random``.  The cost per action is the
time of a whole playout divided by its actions.

Beside it, OpenSpiel's ``child()`` (a new state for each action, leaving
the old one as it was) is timed in the same loop: it is what an immutable
``apply`` such as ours does, and what search code compares against.  For
information, the engines' own ``legal_actions`` + ``apply`` are also timed
by replaying recorded playouts.

Target (issue 6): our cost per action at most 8x OpenSpiel's minimal loop,
measured in the same run.  Timing follows the other benchmarks here: each
figure is the best of several runs, cases timed round-robin, the garbage
collector off (``--gc`` times with it on, as in a long-running program).

Run: ``python benchmarks/bench_engine.py [--quick] [--gc]`` (needs the
``bench`` extra for OpenSpiel; without it only our rows print).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from _spades import (
    load_spades,
    runner,
    spiel_child_playout,
    spiel_playout,
    spiel_record,
    spiel_replay,
)
from _timing import Case, machine_summary, run_interleaved

import cardrules.down_and_back as db

PLAYERS = 4
TARGET = 8.0


def our_playout(rng: random.Random) -> int:
    """One random 4-player round with the minimal loop; returns its actions."""
    apply, legal_actions, sample_chance = db.apply, db.legal_actions, db.sample_chance
    choice = rng.choice
    state = db.new_game(PLAYERS, rounds=1)
    actions = 0
    while not state.is_terminal:
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
        else:
            state = apply(state, choice(legal_actions(state)))
        actions += 1
    return actions


def _our_record(rng: random.Random) -> list[db.Action]:
    state = db.new_game(PLAYERS, rounds=1)
    actions: list[db.Action] = []
    while not state.is_terminal:
        action = (db.sample_chance(state, rng) if state.is_chance
                  else rng.choice(db.legal_actions(state)))
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


def _total(play: Callable[[random.Random], int], seed: int, count: int) -> int:
    return sum(play(random.Random(seed + i)) for i in range(count))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--gc", action="store_true",
                        help="time with the garbage collector on")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    count = 20 if args.quick else 300
    repeat = 2 if args.quick else args.repeat

    for key, value in machine_summary(["cardrules", "open-spiel"]):
        print(f"{key:>12}: {value}")
    print(f"{'gc':>12}: {'on' if args.gc else 'off'} while timing")
    spades = load_spades()

    our_actions = _total(our_playout, args.seed, count)
    ours = [_our_record(random.Random(args.seed + i)) for i in range(count)]
    cases = [
        Case("Down and Back: minimal random loop", runner(our_playout, args.seed, count),
             our_actions, "actions"),
        Case("Down and Back: legal_actions + apply", lambda: _our_replay(ours),
             sum(map(len, ours)), "actions"),
    ]
    if spades is not None:
        def spiel(rng: random.Random) -> int:
            return spiel_playout(spades, rng)

        def child(rng: random.Random) -> int:
            return spiel_child_playout(spades, rng)

        spiel_actions = _total(spiel, args.seed, count)
        theirs = [spiel_record(spades, random.Random(args.seed + i)) for i in range(count)]
        cases += [
            Case("OpenSpiel spades: minimal random loop", runner(spiel, args.seed, count),
                 spiel_actions, "actions"),
            Case("OpenSpiel spades: loop with child()", runner(child, args.seed, count),
                 spiel_actions, "actions"),
            Case("OpenSpiel spades: legal_actions + apply", lambda: spiel_replay(spades, theirs),
                 sum(map(len, theirs)), "actions"),
        ]
    results = run_interleaved(cases, repeat=repeat, gc=args.gc)
    print()
    print(f"{'case':<42} {'rate':>20} {'per action':>12}")
    for result in results:
        per = result.seconds_per_item * 1e6
        print(f"{result.case.name:<42} {result.rate:>12,.0f} {result.case.unit}/s"
              f" {per:>9.2f} us")
    print()
    print(f"actions per playout: Down and Back round {our_actions / count:.1f}", end="")
    if spades is None:
        print("\nOpenSpiel: skipped (install cardrules[bench])")
        return 0
    print(f", spades deal {spiel_actions / count:.1f}")
    ours_per = results[0].seconds_per_item
    loop_per, child_per = results[2].seconds_per_item, results[3].seconds_per_item
    ratio = ours_per / loop_per
    verdict = "PASS" if ratio <= TARGET else "MISS"
    print(f"cost per action: ours {ours_per * 1e6:.2f} us; OpenSpiel minimal loop "
          f"{loop_per * 1e6:.2f} us, with child() {child_per * 1e6:.2f} us")
    print(f"  {verdict}  ours at most {TARGET:g}x OpenSpiel's minimal loop: {ratio:.1f}x")
    print(f"  (info) ours vs OpenSpiel's loop with child(): {ours_per / child_per:.1f}x")
    replay_ratio = results[1].seconds_per_item / results[4].seconds_per_item
    print(f"  (info) legal_actions + apply alone vs OpenSpiel's: {replay_ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
