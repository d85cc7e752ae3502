"""Sphinx extension: the hand-analysis charts and tables, computed at build time.

When a build starts (``builder-inited``) this extension writes, into
``docs/_generated/`` (not kept in git):

* ``categories4.svg`` and ``categories3.svg``: for each category of the Down
  and Back four-card (down) and three-card (back) hands, how often it occurs
  and how often it wins a showdown against three random hands;
* ``categories4.txt`` and ``categories3.txt``: the same numbers as
  reStructuredText tables, which ``hand_analysis.rst`` includes.

The numbers come from the library itself, so the page follows any change to
the evaluators:

* **Occurrence** is exact: every hand of the size (270,725 of four cards,
  22,100 of three) is evaluated with the batch evaluators and counted by
  category (the category is the strength shifted right by 12 bits).
* **Showdown share** is estimated by seeded sampling (see :func:`showdown_shares`):
  for each category, ``samples`` hands drawn uniformly from that category's
  hands, each against three opponents' hands of the same size dealt from the
  rest of one 52-card deck.  The hand scores 1 when it beats all three,
  ``1/k`` when it ties for the best with ``k - 1`` others, else 0; the share
  is the mean score.  Ties shared this way are what the tie-break draw of
  DB-42 gives on average.

Everything is deterministic: numpy's ``default_rng(SEED)`` draws the samples,
and the SVG files are written with a fixed ``svg.hashsalt`` and no date, so a
rebuild rewrites identical bytes (files are only rewritten when they change).
It runs in well under a second with the default sample size.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from itertools import chain, combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The seed of the sampling; changing it changes the estimates slightly.
SEED = 20_261_130
#: Hands sampled per category for the showdown shares.
SAMPLES = 50_000
#: Opponents in each sampled showdown.
OPPONENTS = 3
#: Where the files go, relative to the documentation's source directory.
OUTPUT = "_generated"

_MISSING = ('the documentation charts need numpy and matplotlib: '
            'pip install "cardrules[docs]"')


class CategoryStats(NamedTuple):
    """The numbers for one category of one hand size."""

    name: str  #: the category's name, such as ``"PRIAL"``
    rule: str  #: the rule that defines it, such as ``"DB-11"``
    hands: int  #: the exact number of hands of the size in the category
    frequency: float  #: ``hands`` divided by the number of all hands of the size
    share: float  #: the estimated showdown share (0 to 1)
    margin: float  #: half the width of the share's 95% confidence interval


def all_hands(size: int) -> npt.NDArray[np.int8]:
    """Every hand of ``size`` cards as rows of card indices, in lexicographic order."""
    import numpy as np

    flat = np.fromiter(chain.from_iterable(combinations(range(52), size)), dtype=np.int8)
    return flat.reshape(-1, size)


def _evaluator(size: int) -> Callable[[npt.ArrayLike], npt.NDArray[np.int32]]:
    from cardrules.down_and_back import evaluate3_batch, evaluate4_batch

    return evaluate4_batch if size == 4 else evaluate3_batch


def showdown_shares(size: int, samples: int = SAMPLES, seed: int = SEED,
                    ) -> list[tuple[float, float]]:
    """(mean share, 95% margin) of each category of ``size``-card hands, weakest first.

    For each category: ``samples`` hands drawn uniformly (with replacement)
    from all hands of that category; for each, the remaining cards of the
    deck are shuffled and the first ``OPPONENTS * size`` of them form the
    opponents' hands.  The score is 1 for a strictly best hand, ``1/k`` for a
    ``k``-way tie for the best, else 0.
    """
    import numpy as np

    evaluate = _evaluator(size)
    hands = all_hands(size)
    categories = evaluate(hands) >> 12
    rng = np.random.default_rng(seed)
    results = []
    for category in range(int(categories.max()) + 1):
        pool = hands[categories == category]
        hero = pool[rng.integers(len(pool), size=samples)].astype(np.intp)
        # A random order of the other cards: the hero's cards sort last.
        keys = rng.random((samples, 52))
        np.put_along_axis(keys, hero, 2.0, axis=1)
        others = np.argsort(keys, axis=1)[:, :OPPONENTS * size]
        theirs = evaluate(others.reshape(-1, size)).reshape(samples, OPPONENTS)
        mine = evaluate(hero)
        best = theirs.max(axis=1)
        equal = (theirs == mine[:, None]).sum(axis=1)
        score = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (1 + equal), 0.0))
        margin = 1.96 * float(score.std(ddof=1)) / samples ** 0.5 if samples > 1 else 0.0
        results.append((float(score.mean()), margin))
    return results


def category_stats(size: int, samples: int = SAMPLES, seed: int = SEED) -> list[CategoryStats]:
    """The exact counts and the sampled showdown shares of ``size``-card hands, weakest first."""
    import numpy as np

    from cardrules.down_and_back import Category3, Category4

    hands = all_hands(size)
    counts = np.bincount(_evaluator(size)(hands) >> 12)
    kinds: list[Category3 | Category4] = [*Category4] if size == 4 else [*Category3]
    shares = showdown_shares(size, samples, seed)
    return [CategoryStats(kind.name, kind.rule, int(counts[kind]), int(counts[kind]) / len(hands),
                          share, margin)
            for kind, (share, margin) in zip(kinds, shares, strict=True)]


def table(stats: list[CategoryStats], samples: int = SAMPLES) -> str:
    """A reStructuredText list-table of ``stats``, strongest category first."""
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 22 10 16 16 36", "",
             "   * - Category", "     - Rule", "     - Hands", "     - Share of hands",
             f"     - Showdown share (95% interval, {samples:,} samples)"]
    for row in reversed(stats):
        low, high = max(0.0, row.share - row.margin), min(1.0, row.share + row.margin)
        digits = _digits(row)
        interval = (f"{low:.{digits}%} to {high:.{digits}%}" if row.margin > 0
                    else "every sample scored the same")
        lines += [f"   * - ``{row.name}``", f"     - {row.rule}", f"     - {row.hands:,}",
                  f"     - {_percent(row.frequency)}",
                  f"     - {row.share:.{digits}%} ({interval})"]
    total = sum(row.hands for row in stats)
    lines += ["   * - all", "     -", f"     - {total:,}", "     - 100%", "     -", ""]
    return "\n".join(lines)


def _digits(row: CategoryStats) -> int:
    """Decimals of a showdown share: two where one would round it to 100%."""
    return 2 if row.share + row.margin >= 0.9995 and row.share < 1 else 1


def _percent(value: float) -> str:
    """A share with two significant digits below 1%, one decimal above."""
    return f"{value:.1%}" if value >= 0.01 else f"{value * 100:#.2g}%"


def chart(stats: list[CategoryStats], title: str) -> bytes:
    """An SVG chart of ``stats``: occurrence (log scale) and showdown share per category."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = list(reversed(stats))  # strongest at the top
    labels = [f"{row.name} ({row.rule})" for row in rows]
    positions = list(range(len(rows)))[::-1]
    with matplotlib.rc_context({"svg.hashsalt": "cardrules-docs", "svg.fonttype": "none",
                                "font.family": "DejaVu Sans", "font.size": 9}):
        figure = Figure(figsize=(8.0, 0.42 * len(rows) + 1.3), layout="constrained")
        FigureCanvasAgg(figure)
        occurs, wins = figure.subplots(1, 2, sharey=True)
        occurs.barh(positions, [100 * row.frequency for row in rows], color="#4c72b0")
        occurs.set_xscale("log")
        occurs.set_xlim(0.001, 2000)
        occurs.set_yticks(positions, labels)
        occurs.set_xlabel("share of all hands, % (log scale)")
        for y, row in zip(positions, rows, strict=True):
            occurs.annotate(f"{row.hands:,}", (100 * row.frequency, y), xytext=(3, 0),
                            textcoords="offset points", va="center", fontsize=8)
        wins.barh(positions, [100 * row.share for row in rows],
                  xerr=[100 * row.margin for row in rows], color="#dd8452")
        wins.axvline(100 / (OPPONENTS + 1), color="#555555", linestyle="--", linewidth=1)
        wins.text(100 / (OPPONENTS + 1), 1.01, f"even share, 1 in {OPPONENTS + 1}",
                  transform=wins.get_xaxis_transform(), ha="center", va="bottom",
                  fontsize=7, color="#555555")
        wins.set_xlim(0, 115)
        wins.set_xlabel(f"showdown share against {OPPONENTS} random hands, %")
        for y, row in zip(positions, rows, strict=True):
            wins.annotate(f"{row.share:.{_digits(row)}%}", (100 * (row.share + row.margin), y),
                          xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
        figure.suptitle(title)
        out = io.BytesIO()
        figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def generate(directory: Path, samples: int = SAMPLES, seed: int = SEED) -> list[Path]:
    """Write the charts and tables into ``directory``; return the files written or kept.

    A file whose content is unchanged is left alone, so its date does not
    make Sphinx rebuild the page.
    """
    directory.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for size, title in ((4, "Down hands (four cards)"), (3, "Back hands (three cards)")):
        stats = category_stats(size, samples, seed)
        for name, data in ((f"categories{size}.svg", chart(stats, title)),
                           (f"categories{size}.txt", table(stats, samples).encode())):
            path = directory / name
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)
            files.append(path)
    return files


def _on_builder_inited(app: Any) -> None:
    try:
        import matplotlib  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as err:
        from sphinx.errors import ExtensionError

        raise ExtensionError(_MISSING) from err
    generate(Path(app.srcdir) / OUTPUT)


def setup(app: Any) -> dict[str, Any]:
    """Register the generator with Sphinx."""
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
