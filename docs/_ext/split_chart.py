"""Sphinx extension: the chart of the analysis page, computed at build time.

When a build starts (``builder-inited``) this writes
``docs/_generated/split_categories.svg`` (not kept in git): for a seat at a
table of four, how often the greedy split of its seven cards wins the down
showdown, the back showdown and the pot (DB-41 to DB-43), by the category of
its down hand and by the category of its back hand.

The model is that of :func:`cardrules.down_and_back.analysis.split_odds`:
every player's seven cards come from one shuffled deck, every player splits
with :func:`~cardrules.down_and_back.analysis.greedy_split` (the largest sum
of the two strengths), and a showdown tied by ``k`` players counts ``1/k``
(DB-42).  ``DEALS`` deals are drawn with numpy's ``default_rng(SEED)``, the
hands are scored by :func:`~cardrules.down_and_back.split_strengths_batch`,
and the SVG is written with a fixed hash salt and no date, so rebuilding
gives the same bytes; the file is only rewritten when it changes.  It takes
well under a second.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The seed of the deals.
SEED = 20_261_130
#: Deals of four hands sampled.
DEALS = 40_000
#: Players at the table.
PLAYERS = 4
#: The output file, relative to the documentation's source directory.
OUTPUT = Path("_generated") / "split_categories.svg"

_DOWN = ("HIGH_CARD", "PAIR", "TWO_PAIR", "FLUSH", "RUN", "BOUNCER", "PRIAL", "QUAD")
_BACK = ("HIGH_CARD", "PAIR", "FLUSH", "RUN", "BOUNCER", "PRIAL")


def _shares(strengths: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Seat 0's share of a showdown per deal, from the deal's strengths (deals, players)."""
    import numpy as np

    top = strengths.max(axis=1)
    tied = (strengths == top[:, None]).sum(axis=1)
    share: npt.NDArray[np.float64] = np.where(strengths[:, 0] == top, 1.0 / tied, 0.0)
    return share


def category_odds(deals: int = DEALS, seed: int = SEED) -> dict[str, Any]:
    """Seat 0's mean down, back and pot shares by the category of each hand."""
    import numpy as np

    from cardrules.down_and_back import split_strengths_batch

    rng = np.random.default_rng(seed)
    order = rng.permuted(np.tile(np.arange(52, dtype=np.intp), (deals, 1)), axis=1)
    hands = np.sort(order[:, :7 * PLAYERS].reshape(deals * PLAYERS, 7), axis=1)
    scores = split_strengths_batch(hands).astype(np.int64)
    pick = (scores[:, :, 0] + scores[:, :, 1]).argmax(axis=1)   # greedy_split's choice
    chosen = scores[np.arange(len(pick)), pick].reshape(deals, PLAYERS, 2)
    down, back = chosen[:, :, 0], chosen[:, :, 1]
    p_down, p_back = _shares(down), _shares(back)
    p_pot = p_down * p_back
    out: dict[str, Any] = {}
    for side, names, category in (("down", _DOWN, down[:, 0] >> 12),
                                  ("back", _BACK, back[:, 0] >> 12)):
        rows = []
        for value, name in enumerate(names):
            mask = category == value
            count = int(mask.sum())
            if count < 30:   # too rare to show a figure (quads, bouncers)
                continue
            rows.append((name, count / deals, float(p_down[mask].mean()),
                         float(p_back[mask].mean()), float(p_pot[mask].mean())))
        out[side] = rows
    return out


def draw(path: Path) -> None:
    """Write the chart to ``path`` (only if its bytes change)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    odds = category_odds()
    plt.rcParams["svg.hashsalt"] = "cardrules-split-chart"
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, side in zip(axes, ("down", "back"), strict=True):
        rows = odds[side]
        x = np.arange(len(rows))
        width = 0.27
        for k, (label, column) in enumerate((("down showdown", 2), ("back showdown", 3),
                                             ("pot (both)", 4))):
            ax.bar(x + (k - 1) * width, [r[column] for r in rows], width, label=label)
        ax.set_xticks(x, [r[0].replace("_", " ").lower() for r in rows], rotation=30,
                      ha="right")
        ax.set_title(f"by the category of the {side} hand")
        ax.axhline(1 / PLAYERS, color="grey", linewidth=0.8, linestyle="--")
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("chance of winning (one seat of four)")
    axes[0].legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    plt.close(fig)
    data = buffer.getvalue()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text("utf-8") != data:
        path.write_text(data, "utf-8")


def _build(app: Any) -> None:
    draw(Path(app.srcdir) / OUTPUT)


def setup(app: Any) -> dict[str, Any]:
    """Register the chart writer with Sphinx."""
    app.connect("builder-inited", _build)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
