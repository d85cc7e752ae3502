"""The cost of a PettingZoo step beside the bare reducer, for both games.

Three loops play the same whole games (the same seeds) with uniformly random
legal actions, and each is timed per *player* action (chance steps are
played inside every loop but not counted):

* **reducer**: the game's rules alone, ``sample_chance`` at chance points,
  otherwise ``rng.choice(legal_actions(state))``, then ``apply``;
* **raw env**: :func:`cardrules.integrations.pettingzoo.raw_env`, driven by
  PettingZoo's loop (``agent_iter``, ``last()`` with its observation tensor
  and action mask, a random legal id from the mask, ``step``);
* **env**: the same loop through :func:`~cardrules.integrations.pettingzoo.env`,
  with PettingZoo's classic wrappers.

The ratio env / reducer is printed; there is no target.  Run:
``python benchmarks/speed/bench_pettingzoo.py [--quick] [--games N] [--repeat N]``
(needs the ``pettingzoo`` extra).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

import numpy as np
from _timing import Case, machine_summary, run_interleaved

from cardrules.engine.registry import rules_for
from cardrules.integrations.pettingzoo import env, raw_env

# Any: the settings go to env(game, **settings) beside its render_mode keyword.
SETTINGS: dict[str, dict[str, Any]] = {
    "down_and_back": {"num_players": 4, "rounds": 2},
    "back_alley": {"max_hand_size": 4},
}


def reducer_loop(game: str, seeds: list[int]) -> int:
    """Play one game per seed with the bare reducer; return the player actions taken."""
    rules = rules_for(game)
    apply, sample, legal = rules.apply, rules.sample_chance, rules.legal_actions
    actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = rules.new_game_from_settings(SETTINGS[game])
        while not state.is_terminal:
            if state.is_chance:
                state = apply(state, sample(state, rng))
            else:
                state = apply(state, rng.choice(legal(state)))
                actions += 1
    return actions


def env_loop(make: Callable[[], object], seeds: list[int]) -> int:
    """Play one episode per seed through a PettingZoo environment; return the actions."""
    actions = 0
    environment = make()
    for seed in seeds:
        rng = random.Random(seed)
        environment.reset(seed=seed)  # type: ignore[attr-defined]
        for _ in environment.agent_iter():  # type: ignore[attr-defined]
            observation, _, terminated, truncated, _ = environment.last()  # type: ignore[attr-defined]
            if terminated or truncated:
                environment.step(None)  # type: ignore[attr-defined]
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[rng.randrange(len(legal))]))  # type: ignore[attr-defined]
            actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1 game, 2 runs")
    parser.add_argument("--games", type=int, default=5, help="games per timed run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case")
    args = parser.parse_args()
    games, repeat = (1, 2) if args.quick else (args.games, args.repeat)
    seeds = list(range(games))
    for name, value in machine_summary(["pettingzoo", "gymnasium", "numpy"]):
        print(f"{name}: {value}")
    for game, settings in SETTINGS.items():
        count = reducer_loop(game, seeds)

        def raw(g: str = game) -> int:
            return env_loop(lambda: raw_env(g, **SETTINGS[g]), seeds)

        env_count = raw()

        def bare(g: str = game) -> int:
            return reducer_loop(g, seeds)

        def wrapped(g: str = game) -> int:
            return env_loop(lambda: env(g, **SETTINGS[g]), seeds)

        cases = [Case("reducer", bare, count, "action"),
                 Case("raw env", raw, env_count, "action"),
                 Case("env", wrapped, env_count, "action")]
        results = run_interleaved(cases, repeat=repeat)
        print(f"\n{game} {settings}: {games} games per run "
              f"({count} player actions by the reducer, {env_count} by the envs)")
        base = results[0].seconds_per_item
        for result in results:
            print(f"  {result.case.name:8} {result.seconds_per_item * 1e6:9.1f} us/action  "
                  f"{result.seconds_per_item / base:6.1f}x the reducer")


if __name__ == "__main__":
    main()
