"""``cardrules.vector.make`` finds a game's batch engine through ``Rules.vector``
alone (no game's name in the code), checks the settings as ``new_game`` does,
and refuses a game without one; the batch bots play from the mask.

The toy batch engine (``support.toy_vector``: high card, exact to
``tests/support/toy_game.py``) stands in for the real engines, whose own tests
below run once their modules exist.
"""

from __future__ import annotations

import subprocess
import sys

import attrs
import numpy as np
import pytest

from cardrules import IllegalActionError
from cardrules.engine import rules_for
from cardrules.vector import MAX_GAMES, VectorGame, make, random_actions, vector_rules
from cardrules.vector.bots import BOTS, RandomVectorBot
from support.toy_vector import RULES, HighCardVector, toy


def _lockstep(game: VectorGame, rng: np.random.Generator, *, replay_every: int = 1) -> int:
    """Play ``game`` to the end with random actions, checking at every step that
    each game's mask, seat to act, observation and rewards agree with the
    reducer's state (and every ``replay_every`` steps and at the end that its
    record replays to it); returns the decisions checked."""
    rules, encoding = game.rules, game.rules.encoding
    assert encoding is not None
    before = [rules.returns(game.state(i)) for i in range(game.num_games)]
    decisions = steps = 0
    while True:
        observations = game.observation()
        over = bool(game.terminated.all())
        for i in range(game.num_games):
            state = game.state(i)
            if over or steps % replay_every == 0:
                assert list(rules.replay(game.record(i)))[-1] == state
            ids = tuple(int(a) for a in np.flatnonzero(game.legal_action_mask[i]))
            assert ids == encoding.legal_action_ids(state)
            seat = state.current_player
            assert int(game.current_player[i]) == (-1 if seat is None else seat)
            assert bool(game.terminated[i]) == state.is_terminal
            if seat is not None:
                decisions += 1
                np.testing.assert_array_equal(observations[i],
                                              encoding.observation_tensor(state, seat))
        if over:
            return decisions
        rewards, _ = game.step(random_actions(game.legal_action_mask, rng))
        steps += 1
        for i in range(game.num_games):
            after = rules.returns(game.state(i))
            assert tuple(rewards[i].tolist()) == tuple(
                float(a - b) for a, b in zip(after, before[i], strict=True))
            before[i] = after


def test_make_builds_the_engine_of_rules_vector_with_complete_settings() -> None:
    game = make(RULES, 6, seed=3, num_players=4)
    assert isinstance(game, HighCardVector)
    assert (game.num_games, game.num_players, game.ante) == (6, 4, 1)
    assert game.legal_action_mask.shape == (6, 2)
    assert game.legal_action_mask.dtype == np.bool_
    assert game.rewards.shape == (6, 4)
    assert game.rewards.dtype == np.float32
    assert game.current_player.shape == game.terminated.shape == (6,)


def test_make_finds_a_registered_game_in_any_case_with_dashes_or_underscores() -> None:
    for name in ("high_card_batch", "High-Card-Batch", "HIGH_card-BATCH", " high-card-batch "):
        assert isinstance(make(name, 2, seed=0), HighCardVector)
    assert vector_rules("Down-And-Back") is rules_for("down_and_back")
    assert vector_rules("back_alley") is rules_for("back_alley")
    assert vector_rules("BACK-ALLEY") is rules_for("back_alley")


def test_make_refuses_a_game_without_a_batch_engine_and_unknown_games() -> None:
    with pytest.raises(ValueError, match=r"High card has no batch engine \(its Rules.vector"):
        make("toy", 4, seed=1)
    with pytest.raises(ValueError, match="High card has no batch engine"):
        make(toy.RULES, 4, seed=1)
    with pytest.raises(ValueError, match=r"unknown game \(choose from .*\): 'go fish'"):
        make("go fish", 4, seed=1)
    with pytest.raises(ValueError, match="by its name or its Rules"):
        make(7, 4, seed=1)  # type: ignore[arg-type]


def test_make_refuses_a_rules_vector_that_makes_no_batch_game() -> None:
    wrong = attrs.evolve(RULES, vector=lambda num_games, seed, settings: [num_games])
    with pytest.raises(TypeError, match=r"High card.s Rules\.vector made a list, not a VectorGame"):
        make(wrong, 4, seed=1)


def test_make_checks_the_settings_the_number_of_games_and_the_seed() -> None:
    with pytest.raises(ValueError, match="unknown High card setting 'players'"):
        make(RULES, 4, seed=1, players=3)
    with pytest.raises(ValueError, match="high card is for 2 to 4 players"):
        make(RULES, 4, seed=1, num_players=5)
    for bad in (0, -1, MAX_GAMES + 1, True, 2.0, "8"):
        with pytest.raises(ValueError, match="num_games must be a whole number from 1"):
            make(RULES, bad, seed=1)  # type: ignore[arg-type]
    # A batch of one game is a batch (the lower end of the range is allowed).
    assert make(RULES, 1, seed=1).num_games == 1


def test_make_allows_max_games_and_refuses_one_more(monkeypatch: pytest.MonkeyPatch) -> None:
    # MAX_GAMES made small, so as not to allocate 2**24 games.
    import cardrules.vector

    monkeypatch.setattr(cardrules.vector, "MAX_GAMES", 5)
    assert make(RULES, 5, seed=1).num_games == 5
    with pytest.raises(ValueError, match="num_games must be a whole number from 1 to 5, not 6"):
        make(RULES, 6, seed=1)
    for seed in (None, 1.5, "1", False):
        with pytest.raises(ValueError, match="seed must be a whole number"):
            make(RULES, 4, seed=seed)  # type: ignore[arg-type]


def test_the_built_in_games_name_their_engines_and_the_core_does_not_import_numpy() -> None:
    # Rules.vector is set for both games; importing a game (and the engine
    # core) must not import numpy or the batch engine.
    code = ("import sys, cardrules.down_and_back as d, cardrules.back_alley as b, "
            "cardrules.engine; "
            "assert d.RULES.vector is not None and b.RULES.vector is not None; "
            "assert 'numpy' not in sys.modules, 'numpy imported'; "
            "assert not any(m.startswith('cardrules.vector') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_game_i_is_the_same_whatever_the_number_of_games() -> None:
    small, large = make(RULES, 3, seed=9), make(RULES, 50, seed=9)
    for i in range(3):
        assert small.record(i) == large.record(i)
    other = make(RULES, 3, seed=10)
    assert [other.record(i) for i in range(3)] != [small.record(i) for i in range(3)]


def test_the_toy_engine_is_in_lockstep_with_its_reducer() -> None:
    rng = np.random.default_rng(4)
    decisions = sum(_lockstep(make(RULES, 200, seed=seed, num_players=n, ante=ante), rng)
                    for seed, n, ante in ((1, 2, 1), (2, 3, 2), (3, 4, 1)))
    assert decisions > 1500


def test_the_rewards_of_a_toy_game_add_up_to_its_returns() -> None:
    # The rewards after reset are those of the chance that deals (the antes).
    game = make(RULES, 100, seed=8, ante=2)
    assert (game.rewards == -2).all()
    totals = game.rewards.astype(np.int64).copy()
    rng = np.random.default_rng(1)
    while not game.terminated.all():
        totals += game.step(random_actions(game.legal_action_mask, rng))[0].astype(np.int64)
    assert [tuple(row) for row in totals.tolist()] == \
        [RULES.returns(game.state(i)) for i in range(100)]


def test_reset_starts_the_same_games_again_and_illegal_actions_are_refused() -> None:
    game = make(RULES, 5, seed=2)
    first = [game.record(i) for i in range(5)]
    game.step(np.ones(5, dtype=np.int64))
    game.reset()
    assert [game.record(i) for i in range(5)] == first
    with pytest.raises(IllegalActionError, match="TOY-3"):
        game.step([0, 1, 2, 0, 1])
    assert [game.record(i) for i in range(5)] == first


def test_random_vector_bot_plays_only_legal_actions_uniformly() -> None:
    assert BOTS["random"] is RandomVectorBot
    game = make(RULES, 4000, seed=5)
    counts = np.zeros(2)
    bot = RandomVectorBot(6)
    while not game.terminated.all():
        actions = bot.act(game)
        live = ~game.terminated
        assert game.legal_action_mask[np.flatnonzero(live), actions[live]].all()
        counts += np.bincount(actions[live], minlength=2)
        game.step(actions)
    share = counts[1] / counts.sum()
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / counts.sum())
    again = make(RULES, 4000, seed=5)
    assert (RandomVectorBot(6).act(again) == RandomVectorBot(6).act(make(RULES, 4000, seed=5))
            ).all()


# -- the real engines, once their modules exist


@pytest.mark.parametrize(("name", "module", "settings"), [
    ("down-and-back", "cardrules.down_and_back.vector", {"num_players": 3, "rounds": 2}),
    ("back-alley", "cardrules.back_alley.vector", {"max_hand_size": 2}),
])
def test_make_builds_the_real_engines(name: str, module: str,
                                      settings: dict[str, int]) -> None:
    pytest.importorskip(module)
    rules = vector_rules(name)
    game = make(name, 64, seed=1, **settings)
    assert game.rules is rules
    assert game.num_games == 64
    assert game.num_actions == rules.encoding.num_actions  # type: ignore[union-attr]
    assert game.legal_action_mask.shape == (64, game.num_actions)
    assert game.observation().shape == (64, rules.encoding.observation_size)  # type: ignore[union-attr]
    start = rules.new_game_from_settings(settings)
    assert game.num_players == start.num_players
    assert dict(rules.settings_of(game.state(0))) == dict(rules.settings_of(start))
    assert _lockstep(game, np.random.default_rng(2), replay_every=25) > 64
    small = make(name, 3, seed=1, **settings)
    assert [small.record(i) for i in range(3)] == \
        [make(name, 64, seed=1, **settings).record(i) for i in range(3)]
