"""Back Alley engine speed beside OpenSpiel's C++ ``spades``, in one run.

Each engine is driven by its minimal random loop:

* **ours**: at a chance point ``sample_chance(state, rng)``, otherwise
  ``rng.choice(legal_actions(state))``, then ``apply``; whole games of 25
  deals (BA-10);
* **OpenSpiel**: ``state.apply_action(rng.choice(state.legal_actions()))`` at
  every node, chance nodes included (a spades deal: 52 chance actions dealing
  the cards, 4 bids, 52 plays).

Both count every applied action, chance ones included, so the cost per
action compares the same loop around two engines.  Target (issue 7): ours at
most 8x OpenSpiel's.  For information the script also replays recorded
actions, calling only ``legal_actions`` (at decisions) and ``apply``: the
engines' own cost without the random choices.

Run: ``python benchmarks/bench_back_alley.py [--quick] [--profile]`` (needs the
``bench`` extra for OpenSpiel; without it only our rows print).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys

from _spades import load_spades, runner, spiel_playout, spiel_record, spiel_replay
from _timing import Case, machine_summary, run_interleaved

import cardrules.back_alley as ba

TARGET = 8.0


def _our_game(rng: random.Random) -> list[ba.Action]:
    """One random game by the minimal loop, returning its actions."""
    apply, legal, chance = ba.apply, ba.legal_actions, ba.sample_chance
    state = ba.new_game()
    actions: list[ba.Action] = []
    while not state.is_terminal:
        action = chance(state, rng) if state.is_chance else rng.choice(legal(state))
        state = apply(state, action)
        actions.append(action)
    return actions


def _our_loop(rng: random.Random) -> None:
    """The timed loop: the same as :func:`_our_game` without keeping the actions."""
    apply, legal, chance = ba.apply, ba.legal_actions, ba.sample_chance
    state = ba.new_game()
    while not state.is_terminal:
        state = apply(state, chance(state, rng) if state.is_chance else rng.choice(legal(state)))


def _our_replay(games: list[list[ba.Action]]) -> None:
    apply, legal = ba.apply, ba.legal_actions
    for actions in games:
        state = ba.new_game()
        for action in actions:
            if not state.is_chance:
                legal(state)
            state = apply(state, action)


def _profile(seed: int, games: int, top: int) -> None:
    """cProfile of our random loop: where a random game spends its time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(games):
        _our_loop(random.Random(seed + i))
    profiler.disable()
    print(f"\ncProfile of {games} random games (our minimal loop), by own time:")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of our random loop")
    args = parser.parse_args(argv)
    games = 3 if args.quick else 40
    deals = 60 if args.quick else 1500
    repeat = 2 if args.quick else args.repeat

    for key, value in machine_summary(["cardrules", "open-spiel"]):
        print(f"{key:>12}: {value}")
    spades = load_spades()

    ours = [_our_game(random.Random(args.seed + i)) for i in range(games)]
    our_actions = sum(len(a) for a in ours)
    cases = [
        Case("Back Alley, random 25-deal games", runner(_our_loop, args.seed, games), games,
             "games"),
        Case("Back Alley, apply + legal_actions", lambda: _our_replay(ours), our_actions,
             "actions"),
    ]
    if spades is not None:
        theirs = [spiel_record(spades, random.Random(args.seed + i)) for i in range(deals)]
        spiel_actions = sum(len(a) for a in theirs)
        cases += [
            Case("OpenSpiel spades, random deals",
                 runner(lambda rng: spiel_playout(spades, rng), args.seed, deals), deals,
                 "deals"),
            Case("OpenSpiel spades, apply + legal_actions",
                 lambda: spiel_replay(spades, theirs), spiel_actions, "actions"),
        ]
    results = run_interleaved(cases, repeat=repeat)
    print()
    print(f"{'case':<42} {'rate':>16} {'per item':>12}")
    for result in results:
        per = result.seconds_per_item * 1e6
        print(f"{result.case.name:<42} {result.rate:>11,.1f} {result.case.unit:<4}"
              f" {per:>9.2f} us")
    print()
    chance = sum(isinstance(a, ba.ChooseDealer | ba.Shuffle) for game in ours for a in game)
    print(f"actions per game: Back Alley {our_actions / games:.1f} "
          f"({chance / games:.1f} chance)", end="")
    if spades is None:
        print("\nOpenSpiel: skipped (install cardrules[bench])")
    else:
        print(f", spades deal {spiel_actions / deals:.1f} (52 chance)")
        our_cost = results[0].seconds / our_actions
        their_cost = results[2].seconds / spiel_actions
        ratio = our_cost / their_cost
        verdict = "PASS" if ratio <= TARGET else "MISS"
        print(f"cost per applied action, minimal random loop: ours {our_cost * 1e6:.2f} us, "
              f"OpenSpiel {their_cost * 1e6:.2f} us")
        print(f"  {verdict}  ours at most {TARGET:g}x OpenSpiel's: {ratio:.2f}x")
        replay = results[1].seconds_per_item / results[3].seconds_per_item
        print(f"  (info) apply + legal_actions alone vs bare C++: {replay:.1f}x")
    if args.profile:
        _profile(args.seed, 3 if args.quick else 20, 25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
