"""Tests of the shared modules (cards, hands, checks, errors, the package)
written for mutants that survived a sampled mutation run (tools/MUTATION.md,
seed 11): each pins an outcome the other tests left open."""

from __future__ import annotations

import pytest

import cardrules


def test_simulate_is_imported_on_first_use_and_other_names_are_refused() -> None:
    from cardrules.simulation import simulate

    assert cardrules.simulate is simulate
    with pytest.raises(AttributeError, match="module 'cardrules' has no attribute 'simulation_'"):
        _ = cardrules.simulation_
