"""simulate on a Dask cluster (``Client.get_executor()``) gives the local result.

Skipped when the ``dask`` extra (distributed) is not installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cardrules.simulation import simulate

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Two worker processes, one thread each, no dashboard; always closed."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        death_timeout=120)
    try:
        with distributed.Client(cluster, timeout=120) as dask_client:
            dask_client.wait_for_workers(2, timeout=120)
            yield dask_client
    finally:
        cluster.close(timeout=60)


@pytest.mark.parametrize(("game", "settings", "bots"), [
    ("down-and-back", {"rounds": 2}, ["greedy", "random", "random", "random"]),
    ("back-alley", {"max_hand_size": 2}, "heuristic"),
])
def test_a_dask_cluster_gives_the_local_result(client: Any, game: str,
                                               settings: dict[str, int | None],
                                               bots: Any) -> None:
    local = simulate(game, games=6, seed=8, bots=bots, settings=settings, workers=1)
    seen: list[int] = []
    on_dask = simulate(game, games=6, seed=8, bots=bots, settings=settings,
                       executor=client.get_executor(), chunk_size=2,
                       progress=lambda done, total: seen.append(done))
    assert on_dask == local
    assert sorted(seen) == seen
    assert seen[-1] == 6
