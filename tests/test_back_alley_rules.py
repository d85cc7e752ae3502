"""Back Alley's RULES object and its small parts: settings, actions and their forms."""

from __future__ import annotations

import pytest

import cardrules.back_alley as ba
from cardrules.engine import RandomBot


def test_the_conformance_settings_are_games_of_five_and_three_deals() -> None:
    deals = []
    for settings in ba.RULES.check_settings:
        game = ba.RULES.play([RandomBot(seed) for seed in range(4)], settings, seed=1)
        deals.append(len(game.state.results))
    assert deals == [5, 3]


def test_rules_settings_are_the_new_game_keywords() -> None:
    assert ba.RULES.default_settings == {"max_hand_size": 13}
    assert ba.RULES.settings_of(ba.new_game(max_hand_size=4)) == {"max_hand_size": 4}
    assert ba.new_game_from_settings({"max_hand_size": 4}) == ba.new_game(max_hand_size=4)
    with pytest.raises(ValueError, match="unknown Back Alley setting"):
        ba.new_game_from_settings({"deals": 3})
