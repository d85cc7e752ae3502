"""Engine speed of both games beside OpenSpiel's C++ ``spades``, in one run.

Every engine is driven by its own *minimal* random-playout loop, the
shortest Python loop a user would write to play a random game:

* OpenSpiel: ``state.apply_action(rng.choice(state.legal_actions()))`` at
  every node, chance nodes included (at a chance node ``legal_actions()``
  lists the outcomes; building ``chance_outcomes()`` tuples would add to
  OpenSpiel's side); a spades deal is 52 chance actions dealing the cards,
  4 bids and 52 plays;
* cardrules, the same loop for both games, written once over their ``Rules``:
  ``state = apply(state, sample_chance(state, rng))`` at chance points,
  ``state = apply(state, rng.choice(legal_actions(state)))`` otherwise; a
  4-player round of Down and Back, a whole 25-deal game of Back Alley (BA-10).

Each playout runs from its own seeded ``random.Random``.  The cost per action
is the time of the playouts divided by every action they applied, chance
actions included, so each ratio compares the same loop around two engines.

Beside it, OpenSpiel's ``child()`` (a new state for each action, leaving the
old one as it was) is timed in the same loop: it is what an immutable
``apply`` such as ours does, and what search code compares against.  For
information, the engines' own ``legal_actions`` + ``apply`` are also timed by
replaying recorded playouts.

Targets (for Down and Back and for Back Alley): our cost per
action at most 8x OpenSpiel's minimal loop, measured in the same run.  Timing
follows the other benchmarks here: each figure is the best of several runs,
all cases timed round-robin, the garbage collector off (``--gc`` times with it
on, as in a long-running program).

Run: ``python benchmarks/speed/bench_engine.py [--quick] [--gc] [--game NAME]
[--profile]`` (needs the ``bench`` extra for OpenSpiel; without it only our
rows print).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from _spades import (
    load_spades,
    runner,
    spiel_child_playout,
    spiel_playout,
    spiel_record,
    spiel_replay,
)
from _timing import Case, Result, machine_summary, run_interleaved

from cardrules.engine import Rules, rules_for

TARGET = 8.0


@dataclass(frozen=True)
class Game:
    """One of our games as the benchmark plays it."""

    name: str                       # its registry name
    playout: str                    # what one playout is
    settings: Mapping[str, int]     # the new_game settings of a playout
    count: int                      # playouts per timed run
    quick: int                      # the same for --quick

    @property
    def rules(self) -> Rules[Any, Any]:
        """The game's rules, from the registry."""
        return rules_for(self.name)


GAMES = (
    Game("down_and_back", "4-player round", {"num_players": 4, "rounds": 1}, 300, 20),
    Game("back_alley", "25-deal game", {}, 40, 3),
)
#: spades deals per timed run, and with --quick.
SPADES, SPADES_QUICK = 300, 20


def playout(game: Game) -> Callable[[random.Random], int]:
    """The minimal random loop for ``game``: one playout, returning its actions."""
    rules, settings = game.rules, dict(game.settings)
    new_game, apply = rules.new_game, rules.apply
    legal_actions, sample_chance = rules.legal_actions, rules.sample_chance

    def play(rng: random.Random) -> int:
        choice = rng.choice
        state = new_game(**settings)
        actions = 0
        while not state.is_terminal:
            if state.is_chance:
                state = apply(state, sample_chance(state, rng))
            else:
                state = apply(state, choice(legal_actions(state)))
            actions += 1
        return actions

    return play


def record(game: Game, rng: random.Random) -> tuple[list[Any], int]:
    """The actions of one random playout of ``game``, and how many were chance."""
    rules = game.rules
    state = rules.new_game(**game.settings)
    actions: list[Any] = []
    chance = 0
    while not state.is_terminal:
        chance += state.is_chance
        action = (rules.sample_chance(state, rng) if state.is_chance
                  else rng.choice(rules.legal_actions(state)))
        state = rules.apply(state, action)
        actions.append(action)
    return actions, chance


def replayer(game: Game, games: list[list[Any]]) -> Callable[[], None]:
    """A timing case replaying recorded playouts: ``legal_actions`` at every
    decision and ``apply``, the engine's own cost with no sampling."""
    rules, settings = game.rules, dict(game.settings)
    new_game, apply, legal = rules.new_game, rules.apply, rules.legal_actions

    def replay() -> None:
        for actions in games:
            state = new_game(**settings)
            for action in actions:
                if not state.is_chance:
                    legal(state)
                state = apply(state, action)

    return replay


def _profile(game: Game, seed: int, count: int, top: int) -> None:
    """cProfile of our random loop: where a playout spends its time."""
    play = playout(game)
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(count):
        play(random.Random(seed + i))
    profiler.disable()
    print(f"\ncProfile of {count} random playouts of {game.rules.title} "
          f"(the minimal loop), by own time:")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table; always exits 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--gc", action="store_true",
                        help="time with the garbage collector on")
    parser.add_argument("--game", action="append", choices=[g.name for g in GAMES],
                        help="only this game (repeat for several; default: both)")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of each game's random loop")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    games = [g for g in GAMES if not args.game or g.name in args.game]
    repeat = 2 if args.quick else args.repeat

    for key, value in machine_summary(["cardrules", "open-spiel"]):
        print(f"{key:>12}: {value}")
    print(f"{'gc':>12}: {'on' if args.gc else 'off'} while timing")
    spades = load_spades()

    cases: list[Case] = []
    facts: dict[str, tuple[int, int, int]] = {}     # name: playouts, actions, chance actions
    for game in games:
        count = game.quick if args.quick else game.count
        recorded = [record(game, random.Random(args.seed + i)) for i in range(count)]
        actions = sum(len(a) for a, _ in recorded)
        facts[game.name] = (count, actions, sum(c for _, c in recorded))
        title = game.rules.title
        cases += [
            Case(f"{title}: minimal random loop", runner(playout(game), args.seed, count),
                 actions, "actions"),
            Case(f"{title}: legal_actions + apply", replayer(game, [a for a, _ in recorded]),
                 actions, "actions"),
        ]
    if spades is not None:
        deals = SPADES_QUICK if args.quick else SPADES
        theirs = [spiel_record(spades, random.Random(args.seed + i)) for i in range(deals)]
        spiel_actions = sum(map(len, theirs))

        def spiel(rng: random.Random) -> int:
            return spiel_playout(spades, rng)

        def child(rng: random.Random) -> int:
            return spiel_child_playout(spades, rng)

        cases += [
            Case("OpenSpiel spades: minimal random loop", runner(spiel, args.seed, deals),
                 spiel_actions, "actions"),
            Case("OpenSpiel spades: loop with child()", runner(child, args.seed, deals),
                 spiel_actions, "actions"),
            Case("OpenSpiel spades: legal_actions + apply", lambda: spiel_replay(spades, theirs),
                 spiel_actions, "actions"),
        ]
    results = run_interleaved(cases, repeat=repeat, gc=args.gc)
    by_name: dict[str, Result] = {result.case.name: result for result in results}
    print()
    print(f"{'case':<42} {'rate':>20} {'per action':>12}")
    for result in results:
        per = result.seconds_per_item * 1e6
        print(f"{result.case.name:<42} {result.rate:>12,.0f} {result.case.unit}/s"
              f" {per:>9.2f} us")
    print()
    for game in games:
        count, actions, chance = facts[game.name]
        print(f"actions per playout: {game.rules.title} {game.playout} {actions / count:.1f} "
              f"({chance / count:.1f} chance)")
    if spades is None:
        print("OpenSpiel: skipped (install cardrules[bench])")
    else:
        print(f"actions per playout: spades deal {spiel_actions / deals:.1f} (52 chance)")
        loop = by_name["OpenSpiel spades: minimal random loop"].seconds_per_item
        child_per = by_name["OpenSpiel spades: loop with child()"].seconds_per_item
        bare = by_name["OpenSpiel spades: legal_actions + apply"].seconds_per_item
        print(f"cost per action, OpenSpiel: minimal loop {loop * 1e6:.2f} us, "
              f"with child() {child_per * 1e6:.2f} us")
        for game in games:
            title = game.rules.title
            ours = by_name[f"{title}: minimal random loop"].seconds_per_item
            ratio = ours / loop
            verdict = "PASS" if ratio <= TARGET else "MISS"
            replay = by_name[f"{title}: legal_actions + apply"].seconds_per_item / bare
            print(f"  {verdict}  {title} ({ours * 1e6:.2f} us an action) at most {TARGET:g}x "
                  f"OpenSpiel's minimal loop: {ratio:.1f}x")
            print(f"        (info) vs OpenSpiel's loop with child(): {ours / child_per:.1f}x; "
                  f"legal_actions + apply alone vs OpenSpiel's: {replay:.1f}x")
    if args.profile:
        for game in games:
            _profile(game, args.seed, game.quick if args.quick else game.count // 2, 25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
