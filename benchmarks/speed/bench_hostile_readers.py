"""How fast the record readers refuse hostile input, and what it costs in memory.

Three inputs a server or a user may be handed, each read in a fresh
process (``--runs`` times, round-robin between the trees) so that the
memory figure is that process's own growth (``ru_maxrss`` after minus
before the call):

* ``settings``: :meth:`GameRecord.from_json` of a record with 10**6
  settings keys (12 MB of JSON; the size limit lifted where there is one);
* ``shuffle``: :meth:`GameRecord.from_text` of a record whose one
  ``shuffle`` line holds 10**7 characters, its second card a repeat (the
  size limit lifted);
* ``load``: :meth:`GameRecord.load` of a 40 MB text file of 5 million plays
  (the default limit).

``--before PATH`` runs the same cases with another tree (its ``.venv`` and
``src``) beside this one.  Medians and spreads (min-max) are printed.

Run: ``python benchmarks/speed/bench_hostile_readers.py [--before OTHER_CHECKOUT] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

from _timing import machine_summary

HERE = Path(__file__).resolve().parents[2]

#: The child's program: build the input, read it, print seconds and KiB grown.
CHILD = r"""
import inspect, json, resource, sys, time
from cardrules.engine import GameRecord
case, path = sys.argv[1], sys.argv[2]
# Where the readers take a size limit, it is lifted for the first two cases
# (they measure the early refusal itself); the load case keeps the default.
unlimited = {"max_size": None} if "max_size" in str(
    inspect.signature(GameRecord.from_json)) else {}
if case == "settings":
    text = json.dumps({"game": "down_and_back",
                       "settings": {f"k{i}": 0 for i in range(10**6)}, "actions": []})
    read = lambda: GameRecord.from_json(text, **unlimited)
elif case == "shuffle":
    line = "shuffle AS AS" + " KS" * ((10**7 - 13) // 3)
    text = "# cardrules back_alley\n\n" + line + "\n"
    read = lambda: GameRecord.from_text(text, **unlimited)
else:
    read = lambda: GameRecord.load(path)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    read()
    outcome = "accepted"
except Exception as err:
    outcome = f"{type(err).__name__}: {str(err)[:70]}"
seconds = time.perf_counter() - start
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps([seconds, grown, outcome]))
"""


def _run(python: str, src: Path, case: str, path: Path) -> tuple[float, int, str]:
    env = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([python, "-c", CHILD, case, str(path)], capture_output=True,
                          text=True, env=env, timeout=600, check=True)
    seconds, grown, outcome = json.loads(done.stdout.strip().splitlines()[-1])
    return float(seconds), int(grown), str(outcome)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, default=None,
                        help="another tree (with its .venv) to run beside this one")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", nargs="+", default=["settings", "shuffle", "load"])
    options = parser.parse_args()
    trees = [("after", str(HERE / ".venv" / "bin" / "python"), HERE / "src")]
    if options.before is not None:
        trees.insert(0, ("before", str(options.before / ".venv" / "bin" / "python"),
                         options.before / "src"))
    for label, value in machine_summary([]):
        print(f"{label:>12}: {value}")
    print()
    with tempfile.TemporaryDirectory(prefix="cardrules-readers-") as folder:
        path = Path(folder) / "plays.txt"
        with path.open("w") as out:
            out.write("# cardrules back_alley\n\n")
            out.write("play AS\n" * 5_000_000)
        print(f"{'case':>9} {'tree':>7} {'seconds (median, min-max)':>28} "
              f"{'MiB grown':>10}  outcome")
        for case in options.cases:
            results: dict[str, list[tuple[float, int, str]]] = {t[0]: [] for t in trees}
            for _ in range(options.runs):
                for label, python, src in trees:
                    results[label].append(_run(python, src, case, path))
            for label, runs in results.items():
                seconds = [r[0] for r in runs]
                grown = statistics.median(r[1] for r in runs) / 1024
                print(f"{case:>9} {label:>7} {statistics.median(seconds):>12.3f} "
                      f"({min(seconds):.3f}-{max(seconds):.3f}) {grown:>10.1f}  {runs[0][2]}")


if __name__ == "__main__":
    main()
