"""Tests of ``cardrules.simulation.run`` written for survivors of the sampled
mutation run over its rewritten form (``tools/mutation.py``, seed 31; issue 14
section 5): each one pins an outcome that a small slip would change."""

from __future__ import annotations

from typing import Any

import pytest

from cardrules.simulation import run
from cardrules.simulation.run import play_chunk, rotations

_DB2 = {"num_players": 2, "rounds": 1, "ante": 1}


@pytest.mark.parametrize(("start", "stop"), [(0, 1), (1, 2)])
def test_a_rotated_chunk_with_one_ragged_end_is_refused(start: int, stop: int) -> None:
    """With rotate, both ends of a chunk must fall on whole groups of
    seatings: one ragged end is enough to refuse it (either end alone)."""
    bots = ["greedy", "random"]
    assert len(rotations(bots)) == 2
    with pytest.raises(ValueError, match="whole groups of 2 games"):
        play_chunk("down_and_back", _DB2, bots, 0, start, stop, rotate=True)


def test_the_local_pool_keeps_every_worker_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chunks in flight on the pool started for the call are at least as
    many as its workers (a window smaller than that leaves workers idle);
    the result is the same as playing in this process."""
    windows: list[int] = []
    stream = run._stream

    def spy(submit: Any, chunks: Any, window: int, report: Any, poll: Any) -> Any:
        windows.append(window)
        return stream(submit, chunks, window, report, poll)

    monkeypatch.setattr(run, "_stream", spy)
    settings = {"rounds": 1}
    pooled = run.simulate("down-and-back", games=4, seed=2, bots="random", workers=2,
                          chunk_size=1, settings=settings)
    assert len(windows) == 1
    assert windows[0] >= 2
    assert windows[0] == 2 * run._WINDOW_PER_WORKER
    assert pooled == run.simulate("down-and-back", games=4, seed=2, bots="random",
                                  workers=1, settings=settings)
