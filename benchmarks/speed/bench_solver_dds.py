"""The Back Alley double-dummy solver side by side with DDS and with the tree
before a change, in one run, on the same positions.

Run from the repository root (endplay, the dev extra, must be installed)::

    python benchmarks/speed/bench_solver_dds.py --before OTHER/.venv/bin/python

For each position, in turn: our C solver's ``max_tricks`` and
``play_values`` (a fresh table: each call starts a new generation of it),
the same two calls of the tree before (``--before``: the Python of another
checkout's environment, driven through ``_solver_worker.py``; each call
timed alone inside that process), and DDS through endplay: ``solve_board``
for one optimal card and for every legal card's value, its table emptied
before each timed call (an unrelated one-card deal is solved in between, so
DDS cannot reuse work from the call before on the same deal).  Positions:
``--deals`` random 13-card no-trump deals at the opening lead, and as many
trump positions (a 13-card deal with a plain card turned, played at random
until both jokers are gone and a trick is over: a bridge position in that
trump suit).  Then the hand sizes 1 to 13 with trumps (ours and before;
DDS has no jokers), and the double-dummy bot's opening lead of 13-card
trump deals (16 draws).  Every answer of ours is checked against DDS and
the tree before.  Medians, 90th percentiles and worsts; the load average
before and after.

``--nodes N`` instead compares the work, which the machine's load moves
much less than the wall clock: on N no-trump deals and N trump positions,
the CPU time of the calling thread (``time.thread_time``) of our
``max_tricks`` and DDS's one optimal card, our nodes (every position the
search visits, inside a trick too) and DDS's (its ``futureTricks.nodes``,
which counts only the positions at the start of a trick), and, with the
extension built with ``-DSOLVER_STATS``, our search's counters (see
``_solver.c``), among them our positions at the start of a trick.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from _timing import machine_summary

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from bench_solver import trump_deal

from cardrules.back_alley import (
    GameState,
    legal_actions,
    state_to_dict,
    view,
)
from cardrules.back_alley.double_dummy import DoubleDummyBot, _native, _solver
from support.ba_dds import (  # type: ignore[import-untyped,unused-ignore]
    no_trump_deal,
    pbn,
)

WORKER = Path(__file__).with_name("_solver_worker.py")


class Before:
    """The tree before, answering in a worker process."""

    def __init__(self, python: str) -> None:
        env = dict(os.environ, PYTHONPATH="")
        self.proc = subprocess.Popen([python, str(WORKER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env,
                                     cwd=str(Path(python).resolve().parents[2]))

    def ask(self, request: list[object]) -> tuple[float, object]:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        seconds, result = json.loads(self.proc.stdout.readline())
        return seconds, result

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


_Args = tuple[tuple[int, int, int, int], tuple[int, ...], int, int, bool, int]


def trump_position(rng: random.Random) -> GameState:
    """A 13-card deal with a plain card turned and both jokers dealt, played
    at random (a joker whenever one may be played) until both jokers are
    gone and a trick is over, kept when 9 to 12 cards are left: a bridge
    position in that trump suit, trump broken, which DDS can solve too."""
    from cardrules.back_alley import Phase, apply

    while True:
        state = trump_deal(rng, 13, rng.randrange(4))
        if not any(i >= 52 for hand in state.hand_indexes for i in hand):
            continue
        while state.phase is Phase.PLAY:
            held = {i for hand in state.hand_indexes for i in hand}
            if not state.trick_indexes and not held & {52, 53} and state.trump_played:
                if len(state.hand_indexes[0]) >= 9:
                    return state
                break  # a joker held back too long: deal again
            legal = legal_actions(state)
            jokers = [a for a in legal if getattr(a, "index", 0) >= 52]
            state = apply(state, jokers[0] if jokers else rng.choice(legal))


def _args(state: GameState) -> _Args:
    arguments = _native._arguments(state)
    assert arguments is not None
    return arguments[1]


def _ours(args: _Args, every: bool) -> tuple[float, object]:
    start = time.perf_counter()
    result: object = _solver.play_values(*args) if every else _solver.max_tricks(*args)
    return time.perf_counter() - start, result


def _dds(state: GameState, every: bool) -> tuple[float, int]:
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    trump = state.trump
    denom = Denom.nt if trump is None else Denom(int(trump))
    assert state.leader is not None
    deal = Deal(pbn(state), first=Player(state.leader), trump=denom)
    mode = SolveMode.Default if every else SolveMode.OptimalOne  # Default: every card (3)
    _flush_dds()
    start = time.perf_counter()
    found = solve_board(deal, mode)
    seconds = time.perf_counter() - start
    return seconds, max(score for _, score in found)


_FLUSH: GameState | None = None


def _flush_dds() -> None:
    """Solve an unrelated one-card deal, so that DDS's table holds nothing of
    the next deal (it keeps its table between calls on one deal)."""
    global _FLUSH
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    if _FLUSH is None:
        _FLUSH = no_trump_deal(random.Random(99), size=1)
    solve_board(Deal(pbn(_FLUSH), first=Player(0), trump=Denom.nt), SolveMode.OptimalOne)


def _pct(times: Sequence[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(label: str, times: Sequence[float], unit: float | None = None) -> str:
    median = statistics.median(times)
    ratio = f"  {median / unit:5.2f}x" if unit else ""
    return (f"  {label:<26} median {median * 1e3:8.2f} ms  p90 {_pct(times, 0.9) * 1e3:8.2f} ms"
            f"  worst {max(times) * 1e3:8.2f} ms{ratio}")


def _compare(title: str, states: Sequence[GameState], before: Before | None) -> int:
    """Time every solver on ``states``; return how many answers differ."""
    times: dict[str, list[float]] = {k: [] for k in (
        "ours max_tricks", "ours play_values", "before max_tricks", "before play_values",
        "DDS one optimal card", "DDS every card")}
    differ = 0
    for number, state in enumerate(states):
        args = _args(state)
        mine: dict[str, object] = {}
        shift = number % 3   # who goes first changes, so a noisy moment hurts each alike
        for who in ("ours", "dds", "before")[shift:] + ("ours", "dds", "before")[:shift]:
            if who == "ours":
                seconds, mine["max"] = _ours(args, False)
                times["ours max_tricks"].append(seconds)
                seconds, mine["values"] = _ours(args, True)
                times["ours play_values"].append(seconds)
            elif who == "dds":
                seconds, mine["dds"] = _dds(state, False)
                times["DDS one optimal card"].append(seconds)
                seconds, mine["dds all"] = _dds(state, True)
                times["DDS every card"].append(seconds)
            elif before is not None:
                seconds, mine["before"] = before.ask(["max_tricks", list(args)])
                times["before max_tricks"].append(seconds)
                seconds, mine["before values"] = before.ask(["play_values", list(args)])
                times["before play_values"].append(seconds)
        values = mine["values"]
        assert isinstance(values, tuple)
        differ += max(v for _, v in values) != mine["max"]
        differ += mine["max"] != mine["dds"] or mine["dds all"] != mine["dds"]
        if before is not None:
            differ += mine["before"] != mine["max"]
            differ += [list(pair) for pair in values] != mine["before values"]
    unit = statistics.median(times["DDS one optimal card"])
    print(f"\n{title}, {len(states)} positions (ratio: median / DDS one optimal card)")
    for label, row in times.items():
        if row:
            print(_line(label, row, unit))
    every = statistics.median(times["DDS every card"])
    print(f"  ours play_values / DDS every card: "
          f"{statistics.median(times['ours play_values']) / every:.2f}x")
    print(f"  answers differing (DDS, before, play_values' best): {differ}")
    return differ


def _verify(rng: random.Random, count: int) -> None:
    for kind in ("no-trump 13-card deals", "trump positions of 9 to 12 cards"):
        differ = 0
        for number in range(count):
            state = (no_trump_deal(rng, size=13, leader=number % 4) if kind[0] == "n"
                     else trump_position(rng))
            a = _args(state)
            tricks = _solver.max_tricks(*a)
            values = _solver.play_values(*a)
            _, dds = _dds(state, False)
            differ += tricks != dds or max(v for _, v in values) != tricks
        print(f"{kind}: {count}, {differ} differ from DDS", flush=True)


_COUNTERS = ("node0", "node1", "node2", "node3", "sure", "quick", "probe", "hit", "store",
             "second", "root", "tried", "side", "side_better", "first", "later")


def _work(rng: random.Random, count: int) -> None:
    """The ``--nodes`` comparison (see the module's docstring)."""
    from endplay import _dds  # type: ignore[attr-defined,unused-ignore]
    from endplay.types import Deal, Denom, Player

    stats = getattr(_solver, "stats", None)
    for kind in ("no-trump 13-card deals", "trump positions of 9 to 12 cards"):
        ours_t, dds_t, ours_n, dds_n = [], [], [], []
        counters = [0] * len(_COUNTERS)
        if stats is not None:
            stats()
        for number in range(count):
            state = (no_trump_deal(rng, size=13, leader=number % 4) if kind[0] == "n"
                     else trump_position(rng))
            a = _args(state)
            start = time.thread_time()
            tricks = _solver.max_tricks(*a)
            ours_t.append(time.thread_time() - start)
            ours_n.append(_solver.last_nodes())
            if stats is not None:
                counters = [x + y for x, y in zip(counters, stats(), strict=True)]
            trump = state.trump
            assert state.leader is not None
            deal = Deal(pbn(state), first=Player(state.leader),
                        trump=Denom.nt if trump is None else Denom(int(trump)))
            _flush_dds()
            future = _dds.futureTricks()
            start = time.thread_time()
            _dds.SolveBoard(deal._data, -1, 1, 1, future, 0)
            dds_t.append(time.thread_time() - start)
            dds_n.append(future.nodes)
            assert tricks == max(future.score[i] for i in range(future.cards)), "differs"
        print(f"\n{kind}, {count}: CPU time median (ratio), nodes median (ratio of sums)")
        print(f"  ours max_tricks  {statistics.median(ours_t) * 1e3:8.2f} ms "
              f"({statistics.median(ours_t) / statistics.median(dds_t):.2f}x)  "
              f"nodes {statistics.median(ours_n):9.0f} ({sum(ours_n) / sum(dds_n):.2f}x)")
        print(f"  DDS one card     {statistics.median(dds_t) * 1e3:8.2f} ms          "
              f"nodes {statistics.median(dds_n):9.0f}")
        if stats is not None:
            print("  ours, per solve: " + " ".join(
                f"{name}={value / count:.0f}" for name, value in zip(_COUNTERS, counters,
                                                                     strict=True)))
            c = dict(zip(_COUNTERS, counters, strict=True))
            print(f"  table hit rate {c['hit'] / max(1, c['probe']):.2f}; positions at the "
                  f"start of a trick (what DDS counts) {c['node0'] / sum(dds_n):.2f}x DDS's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="the Python of the tree before (its venv)")
    parser.add_argument("--deals", type=int, default=40, help="no-trump deals and trump positions")
    parser.add_argument("--per-size", type=int, default=10, help="trump deals per hand size")
    parser.add_argument("--bot-deals", type=int, default=10, help="bot opening leads timed")
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument("--nodes", type=int, default=0, metavar="N",
                        help="only compare CPU time and nodes with DDS on N no-trump deals "
                             "and N trump positions")
    parser.add_argument("--verify", type=int, default=0, metavar="N",
                        help="only compare answers with DDS on N no-trump deals and N trump "
                             "positions (and play_values' best with max_tricks)")
    args = parser.parse_args()
    if not _native.available():
        raise SystemExit("the C solver is not available")
    for label, value in machine_summary(["endplay"]):
        print(f"{label:>10}: {value}")
    print(f"load average at the start: {os.getloadavg()}")
    rng = random.Random(args.seed)
    if args.verify:
        _verify(rng, args.verify)
        return
    if args.nodes:
        _work(rng, args.nodes)
        return
    before = Before(args.before) if args.before else None
    warm = no_trump_deal(random.Random(0), size=13)
    _ours(_args(warm), False)
    _dds(warm, False)
    if before is not None:
        before.ask(["max_tricks", list(_args(warm))])

    nt = [no_trump_deal(rng, size=13, leader=n % 4) for n in range(args.deals)]
    _compare("no trump, 13 cards, opening lead", nt, before)
    trumps: list[GameState] = []
    while len(trumps) < args.deals:
        trumps.append(trump_position(rng))
    sizes = sorted(len(p.hand_indexes[p.current_player or 0]) for p in trumps)
    _compare(f"trump positions of 13-card deals after both jokers "
             f"({sizes[0]} to {sizes[-1]} cards, median {statistics.median(sizes)})",
             trumps, before)

    print("\ntrumps, opening lead, by hand size: ours max_tricks / play_values, before")
    for size in range(1, 14):
        deals = [trump_deal(rng, size, n % 4) for n in range(args.per_size)]
        ours_max, ours_all, old_max, old_all = [], [], [], []
        for state in deals:
            a = _args(state)
            ours_max.append(_ours(a, False)[0])
            ours_all.append(_ours(a, True)[0])
            if before is not None:
                old_max.append(before.ask(["max_tricks", list(a)])[0])
                old_all.append(before.ask(["play_values", list(a)])[0])
        row = (f"  {size:2} cards  max {statistics.median(ours_max) * 1e3:8.2f} ms "
               f"(worst {max(ours_max) * 1e3:8.2f})  every card "
               f"{statistics.median(ours_all) * 1e3:8.2f} ms (worst {max(ours_all) * 1e3:8.2f})")
        if old_max:
            row += (f"  | before {statistics.median(old_max) * 1e3:8.2f} / "
                    f"{statistics.median(old_all) * 1e3:8.2f} ms")
        print(row, flush=True)

    if args.bot_deals:
        print(f"\nDoubleDummyBot opening lead, 13-card trump deals, 16 draws, "
              f"{args.bot_deals} deals (threads: {os.cpu_count()})")
        ours_t, old_t = [], []
        for n in range(args.bot_deals):
            state = trump_deal(rng, 13, n % 4)
            seat = state.current_player
            assert seat is not None
            bot = DoubleDummyBot(n, samples=16)
            start = time.perf_counter()
            bot.act(view(state, seat), legal_actions(state))
            ours_t.append(time.perf_counter() - start)
            if before is not None:
                old_t.append(before.ask(["bot", state_to_dict(state), 16, n])[0])
        print(_line("ours", ours_t))
        if old_t:
            print(_line("before", old_t))
    if before is not None:
        before.close()
    print(f"\nload average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
