"""A ladder of every registered bot of both games, OpenSpiel's ISMCTS and
uniform random, played in duplicate through the OpenSpiel adapter.

Every player is an OpenSpiel bot: the library's bots through
``cardrules.integrations.openspiel.bot``, OpenSpiel's ``ISMCTSBot`` (random
rollouts, its resampling seeded through ``set_resampler``) and OpenSpiel's
``UniformRandomBot``.  Each pair of players meets on ``--deals`` fixed deal
sets (``fixed_deals=1``, one seed per set), twice per set with the sides
swapped, so the luck of the cards cancels:

* Back Alley: short games (``--ba-hand-size``, default 2: deals of 2, 1 and
  2 cards), one player's partnership at seats 0 and 2, then at 1 and 3;
* Down and Back: two players, ``--db-rounds`` rounds (default 2), each seat
  once.

The score of a meeting is the first player's mean zero-sum return over the
two games (``returns=1``: half the team margin in Back Alley, net chips with
an unwon pot shared back in Down and Back).  Ratings are fitted by least
squares to all meetings (rating differences predict mean margins; the
ratings add up to 0) with 95% intervals from 300 bootstrap resamples of the
deal sets; the cost per move is each player's median time per decision.

    python benchmarks/strength/ladder.py --deals 6 --out docs/_static/ladder

writes ``ladder.json``, ``ladder.rst`` (the tables) and ``ladder.png`` (the
plot, needs matplotlib) beside ``--out``.  To put your own bot on the
ladder, add it to ``players()`` (see docs/strength.rst).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from cardrules.engine import rules_for

#: A player: a name and a function making its OpenSpiel bot for a game, a seed and a seat.
Player = tuple[str, Callable[[Any, int, int], Any]]


class _Timed:
    """Wraps an OpenSpiel bot to time its decisions."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def step(self, state: Any) -> int:
        start = time.process_time()
        action = int(self.bot.step(state))
        self.times.append(time.process_time() - start)
        return action


def ismcts_player(simulations: int) -> Player:
    """OpenSpiel's ISMCTS with random rollouts, its resampling seeded."""
    from open_spiel.python.algorithms import ismcts, mcts

    def make(game: Any, seed: int, seat: int) -> Any:
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(seed + 1))
        sampler = np.random.RandomState(seed + 2)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(
            player, sampler.uniform))
        return bot
    return f"ismcts-{simulations}", make


def players(game_name: str, simulations: int) -> list[Player]:
    """Every player of the ladder for one game: each registered bot, ISMCTS
    and OpenSpiel's uniform random.  Add your own here."""
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from cardrules.integrations import openspiel

    def ours(name: str) -> Player:
        def make(game: Any, seed: int, seat: int) -> Any:
            return openspiel.bot(game, name, seed=seed, player_id=seat)
        return name, make

    out: list[Player] = [ours(name) for name in rules_for(game_name).bots]
    out.append(ismcts_player(simulations))
    out.append(("openspiel-uniform",
                lambda game, seed, seat: UniformRandomBot(seat, np.random.RandomState(seed))))
    return out


def play(game: Any, bots: list[Any]) -> list[float]:
    """One game between OpenSpiel bots (one per seat); chance from the game."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])   # fixed deals: one outcome
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def meet(load: Callable[[int], Any], first: Player, second: Player, seed: int,
         times: dict[str, list[float]]) -> float:
    """The first player's mean return over two games on deal set ``seed``,
    the sides swapped."""
    game = load(seed)
    n = game.num_players()
    total = 0.0
    for swap in (0, 1):
        seats = [(first, second)[(seat + swap) % 2] for seat in range(n)]
        bots = [_Timed(make(game, 1000 * seed + seat, seat), times[name])
                for seat, (name, make) in enumerate(seats)]
        returns = play(game, bots)
        total += statistics.mean(r for seat, r in enumerate(returns) if (seat + swap) % 2 == 0)
    return total / 2


def fit(names: list[str], results: list[tuple[int, int, int, float]], seeds: list[int]
        ) -> tuple[list[float], list[tuple[float, float]]]:
    """Least-squares ratings (summing to 0) and 95% bootstrap intervals."""
    def solve(rows: list[tuple[int, int, int, float]]) -> np.ndarray:
        a = np.zeros((len(rows) + 1, len(names)))
        b = np.zeros(len(rows) + 1)
        for k, (i, j, _, margin) in enumerate(rows):
            a[k, i], a[k, j], b[k] = 1.0, -1.0, margin
        a[-1, :] = 1.0
        return np.linalg.lstsq(a, b, rcond=None)[0]
    ratings = solve(results)
    rng = np.random.default_rng(0)
    by_seed = {s: [r for r in results if r[2] == s] for s in seeds}
    draws = []
    for _ in range(300):
        picked = rng.choice(seeds, size=len(seeds))
        draws.append(solve([r for s in picked for r in by_seed[s]]))
    low, high = np.percentile(np.array(draws), [2.5, 97.5], axis=0)
    return [float(r) for r in ratings], list(zip(map(float, low), map(float, high),
                                                 strict=True))


def ladder(game_name: str, params: dict[str, int], deals: int, simulations: int
           ) -> dict[str, Any]:
    """Play the round robin of one game and fit the ratings."""
    import pyspiel

    import cardrules.integrations.openspiel  # noqa: F401  (registers the games)

    def load(seed: int) -> Any:
        return pyspiel.load_game(f"cardrules_{game_name}", {
            **params, "fixed_deals": 1, "seed": seed, "sampled_chance": 1, "returns": 1})

    field = players(game_name, simulations)
    names = [name for name, _ in field]
    times: dict[str, list[float]] = {name: [] for name in names}
    results: list[tuple[int, int, int, float]] = []
    seeds = list(range(1, deals + 1))
    for (i, a), (j, b) in itertools.combinations(enumerate(field), 2):
        for seed in seeds:
            results.append((i, j, seed, meet(load, a, b, seed, times)))
        print(f"{game_name}: {a[0]} v {b[0]} done, {time.process_time():.0f} s CPU so far",
              file=sys.stderr, flush=True)
    ratings, intervals = fit(names, results, seeds)
    pairs = {}
    for i, j in itertools.combinations(range(len(names)), 2):
        margins = [m for a, b, _, m in results if (a, b) == (i, j)]
        pairs[f"{names[i]} v {names[j]}"] = statistics.mean(margins)
    return {
        "game": game_name, "params": params, "deal_sets": deals, "games_per_pair": 2 * deals,
        "players": [{"name": name, "rating": rating, "low": low, "high": high,
                     "ms_per_move": 1e3 * statistics.median(times[name]) if times[name] else 0.0,
                     "moves": len(times[name])}
                    for name, rating, (low, high) in zip(names, ratings, intervals, strict=True)],
        "pairs": pairs,
    }


def table(result: dict[str, Any]) -> str:
    """An RST list-table of one game's ladder, best first."""
    lines = [".. list-table::", "   :header-rows: 1", "",
             "   * - player", "     - rating [95% interval]", "     - ms per move"]
    for p in sorted(result["players"], key=lambda p: -p["rating"]):
        lines += [f"   * - {p['name']}",
                  f"     - {p['rating']:+.2f} [{p['low']:+.2f}, {p['high']:+.2f}]",
                  f"     - {p['ms_per_move']:.2f}"]
    return "\n".join(lines) + "\n"


def plot(results: list[dict[str, Any]], path: Path) -> None:
    """Ratings with their intervals, one panel per game."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 3.2))
    for ax, result in zip(np.atleast_1d(axes), results, strict=True):
        rows = sorted(result["players"], key=lambda p: p["rating"])
        y = np.arange(len(rows))
        ax.errorbar([p["rating"] for p in rows], y,
                    xerr=[[p["rating"] - p["low"] for p in rows],
                          [p["high"] - p["rating"] for p in rows]], fmt="o", capsize=3)
        ax.set_yticks(y, [p["name"] for p in rows])
        ax.axvline(0, color="grey", lw=0.5)
        params = ", ".join(f"{key} {value}" for key, value in result["params"].items())
        ax.set_title(f"{result['game'].replace('_', ' ')} ({params})")
        ax.set_xlabel("rating (mean zero-sum return per game)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    """Run the ladder of both games; print and write the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6, help="deal sets per pair (default 6)")
    parser.add_argument("--simulations", type=int, default=20,
                        help="ISMCTS simulations per move (default 20)")
    parser.add_argument("--ba-hand-size", type=int, default=2)
    parser.add_argument("--db-rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None,
                        help="write OUT.json, OUT.rst and OUT.png")
    parser.add_argument("--quick", action="store_true", help="one deal set, 3 simulations")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError as err:
        print(f"skipped: {err}")
        return 0
    deals, simulations = (1, 3) if args.quick else (args.deals, args.simulations)
    load_before = os.getloadavg()
    start, cpu_start = time.perf_counter(), time.process_time()
    results = [
        ladder("back_alley", {"max_hand_size": args.ba_hand_size}, deals, simulations),
        ladder("down_and_back", {"num_players": 2, "rounds": args.db_rounds}, deals,
               simulations),
    ]
    took, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    load_after = os.getloadavg()
    note = (f"{deals} deal sets per pair (seeds 1 to {deals}), 2 games each; ISMCTS "
            f"{simulations} simulations; {took:.0f} s wall, {cpu:.0f} s CPU; "
            f"{os.cpu_count()} cores ({platform.machine()}), load {load_before[0]:.1f} "
            f"before, {load_after[0]:.1f} after; Python {sys.version.split()[0]}")
    text = ""
    for result in results:
        params = ", ".join(f"{key}={value}" for key, value in result["params"].items())
        title = f"**{rules_for(result['game']).title}** ({params})"
        text += f"{title}\n\n{table(result)}\n"
    print(text + note)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".json").write_text(
            json.dumps({"note": note, "ladders": results}, indent=1) + "\n", "utf-8")
        args.out.with_suffix(".rst").write_text(text + f"({note})\n", "utf-8")
        try:
            plot(results, args.out.with_suffix(".png"))
        except ImportError:
            print("no plot: matplotlib is missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
