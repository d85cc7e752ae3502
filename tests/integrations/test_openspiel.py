"""The OpenSpiel games of cardrules.integrations.openspiel (DB-31, DB-32, DB-36,
DB-43, DB-44, BA-11, BA-12, BA-25, BA-40 to BA-43)."""

from __future__ import annotations

import base64
import copy
import importlib
import json
import math
import pickle
import random
import sys
from fractions import Fraction
from typing import Any, cast

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from cardrules import back_alley, down_and_back  # noqa: E402
from cardrules.back_alley import encoding as ba_encoding  # noqa: E402
from cardrules.back_alley.actions import CARDS  # noqa: E402
from cardrules.cards import DECK, Card, parse_cards  # noqa: E402
from cardrules.down_and_back import encoding as db_encoding  # noqa: E402
from cardrules.down_and_back.bounds import bounds as db_bounds  # noqa: E402
from cardrules.engine import ChooseDealer, Rules, Shuffle  # noqa: E402
from cardrules.engine.bounds import Bounds  # noqa: E402
from cardrules.engine.events import Event  # noqa: E402
from cardrules.engine.tensors import Encoding  # noqa: E402
from cardrules.errors import IllegalActionError, ParseError  # noqa: E402
from cardrules.integrations import openspiel, openspiel_saved  # noqa: E402

DOWN_AND_BACK = "cardrules_down_and_back"
BACK_ALLEY = "cardrules_back_alley"
DB_SHORT = {"num_players": 3, "rounds": 2}
#: The adapter's own parameters and their defaults (every game has them).
ADAPTER_DEFAULTS = {"fixed_deals": 0, "returns": 0, "sampled_chance": 0, "seed": 0}
BA_SHORT = {"max_hand_size": 2}


def db_game(**params: int) -> Any:
    return pyspiel.load_game(DOWN_AND_BACK, {**DB_SHORT, **params})


def ba_game(**params: int) -> Any:
    return pyspiel.load_game(BACK_ALLEY, {**BA_SHORT, **params})


def random_step(state: Any, rng: random.Random) -> int:
    """One random action id (chance outcomes by their probabilities)."""
    if state.is_chance_node():
        outcomes, chances = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(outcomes, chances)[0])
    return int(rng.choice(state.legal_actions()))


# -- loading and parameters ----------------------------------------------------------

def test_both_games_load_by_name_with_their_parameters() -> None:
    db = pyspiel.load_game("cardrules_down_and_back(num_players=2,ante=3,rounds=4)")
    assert (db.num_players(), db.num_distinct_actions(), db.max_chance_outcomes()) == \
        (2, db_encoding.NUM_ACTIONS, 52)
    state = db.new_initial_state()
    assert state.cardrules_state.settings == down_and_back.Settings(2, 3, 4)
    ba = pyspiel.load_game("cardrules_back_alley")
    assert (ba.num_players(), ba.num_distinct_actions(), ba.max_chance_outcomes()) == \
        (4, ba_encoding.NUM_ACTIONS, 54)
    assert ba.new_initial_state().cardrules_state.settings == back_alley.Settings()
    assert ba.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert db.get_type().max_num_players == 5
    assert db.get_type().min_num_players == 2


def test_bounds_follow_from_the_settings() -> None:
    db = db_game(num_players=4, ante=2, rounds=5)
    # DB-30, DB-43: a seat loses at most its antes and wins at most everyone else's.
    assert (db.min_utility(), db.max_utility()) == (-10.0, 30.0)
    # A round is one cut, six turns of two actions per seat and one split per seat.
    assert db.max_game_length() == 5 * (1 + 12 * 4 + 4)
    ba = ba_game(max_hand_size=3, max_throw_ins=2)
    sizes = [3, 2, 1, 2, 3]
    assert (ba.min_utility(), ba.max_utility()) == (-40.0 * 11, 40.0 * 11)   # BA-41
    assert ba.max_game_length() == sum(4 + 4 * h for h in sizes) + 4 * 3
    assert ba.max_chance_nodes_in_history() == 1 + 53 * (5 + 2)


@pytest.mark.parametrize(("name", "params"), [
    ("cardrules_down_and_back", {"num_players": 6}),
    ("cardrules_down_and_back", {"rounds": 0}),
    ("cardrules_back_alley", {"max_hand_size": 14}),
    ("cardrules_back_alley", {"max_throw_ins": -1}),
])
def test_bad_parameters_are_refused(name: str, params: dict[str, int]) -> None:
    with pytest.raises(Exception, match=r"players|rounds|max_hand_size|max_throw_ins"):
        pyspiel.load_game(name, params)


@pytest.mark.parametrize("rules", [down_and_back.RULES, back_alley.RULES], ids=["db", "ba"])
@pytest.mark.parametrize("value", [2 ** 31, -(2 ** 31) - 1, 10 ** 12])
def test_parameters_beyond_a_cpp_int_are_refused_clearly(rules: Any, value: int) -> None:
    """OpenSpiel keeps every parameter in a C++ int: a value beyond it is a
    ValueError naming the parameter, not a TypeError from inside pyspiel.
    (pyspiel.load_game itself refuses such a value before the adapter runs.)"""
    for key in {**rules.default_settings, **rules.limit_settings}:
        with pytest.raises(ValueError, match=rf"parameter '{key}' .*C\+\+ int"):
            openspiel.CardrulesGame(rules, {key: value})


@pytest.mark.parametrize(("name", "params", "bound"), [
    (BACK_ALLEY, {"max_throw_ins": 10 ** 9}, "max_chance_nodes_in_history"),
    (BACK_ALLEY, {"max_throw_ins": 2 ** 31 - 1}, "max_chance_nodes_in_history"),
    (BACK_ALLEY, {"max_hand_size": 1, "max_throw_ins": 37_675_151}, "max_move_number"),
    (DOWN_AND_BACK, {"rounds": 10 ** 8}, "max_chance_nodes_in_history"),
    (DOWN_AND_BACK, {"num_players": 5, "rounds": 7_134_498}, "max_move_number"),
    (DOWN_AND_BACK, {"num_players": 2, "rounds": 2 ** 31 - 1},
     "max_chance_nodes_in_history"),
])
def test_parameters_whose_bounds_overflow_a_cpp_int_are_refused(
        name: str, params: dict[str, int], bound: str) -> None:
    """rounds (DB-44) and max_throw_ins (BA-25) set the game's length bounds,
    which OpenSpiel also keeps in C++ ints: too large is a clear ValueError."""
    with pytest.raises(ValueError, match=rf"too large for OpenSpiel, whose {bound}.*C\+\+ int"):
        pyspiel.load_game(name, params)


def test_the_largest_parameters_that_fit_load() -> None:
    """Just below the limits the games load and their bounds are exact (DB-30, DB-43)."""
    db = pyspiel.load_game(DOWN_AND_BACK, {"num_players": 5, "rounds": 7_134_497})
    assert db.max_game_length() + db.max_chance_nodes_in_history() <= 2 ** 31 - 1
    ante = pyspiel.load_game(DOWN_AND_BACK, {"ante": 2 ** 31 - 1, "rounds": 1})
    assert ante.max_utility() == 3.0 * (2 ** 31 - 1)
    ba = pyspiel.load_game(BACK_ALLEY, {"max_throw_ins": 37_675_113})
    assert ba.max_game_length() + ba.max_chance_nodes_in_history() <= 2 ** 31 - 1


def test_a_missing_openspiel_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "cardrules.integrations.openspiel")
    with pytest.raises(ImportError, match=r'pip install "cardrules\[openspiel\]"'):
        importlib.import_module("cardrules.integrations.openspiel")


# -- OpenSpiel's own checks -----------------------------------------------------------

@pytest.mark.parametrize("game", [
    pytest.param(lambda: db_game(num_players=2, rounds=1), id="db-2"),
    pytest.param(lambda: db_game(num_players=5, rounds=1), id="db-5"),
    pytest.param(lambda: ba_game(), id="ba-short"),
])
def test_random_sim_test_passes(game: Any) -> None:
    pyspiel.random_sim_test(game(), num_sims=2, serialize=True, verbose=False)


# -- chance ---------------------------------------------------------------------------

def test_the_first_dealer_is_a_uniform_seat() -> None:
    """DB-31, BA-11: outcomes are the seats, each 1/n, as sample_chance's randrange(n)."""
    for game, n in ((db_game(num_players=5), 5), (ba_game(), 4)):
        state = game.new_initial_state()
        assert state.chance_outcomes() == [(seat, 1.0 / n) for seat in range(n)]
        state.apply_action(n - 1)
        assert state.cardrules_state.dealer == n - 1


@pytest.mark.parametrize(("make", "pile"), [
    pytest.param(lambda: db_game(), DECK, id="db"),
    pytest.param(lambda: ba_game(), CARDS, id="ba"),
])
def test_a_shuffle_is_uniform_card_by_card(make: Any, pile: tuple[Any, ...]) -> None:
    """DB-32, BA-12: each step offers exactly the cards left, each with chance
    1/left, so every order of the pile has chance 1/len(pile)! (a uniform
    permutation, as sample_chance's); the order picked is the Shuffle applied."""
    rng = random.Random(5)
    for _ in range(3):
        state = make().new_initial_state()
        state.apply_action(0)
        before = state.cardrules_state
        order = list(pile)
        rng.shuffle(order)
        chance = Fraction(1)
        for card in order[:-1]:
            outcomes = state.chance_outcomes()
            left = sorted(c.index for c in pile if c not in order[:order.index(card)])
            assert [i for i, _ in outcomes] == left
            assert all(p == 1.0 / len(left) for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            chance *= Fraction(1, len(outcomes))
            assert state.is_chance_node()
            state.apply_action(card.index)
        # The last card is forced: no step for it.
        assert not state.is_chance_node()
        assert chance == Fraction(1, math.factorial(len(pile)))
        apply = down_and_back.apply if pile is DECK else back_alley.apply
        assert state.cardrules_state == apply(before, Shuffle(tuple(order)))


def test_chance_strings_name_the_dealer_and_the_cards() -> None:
    state = db_game().new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "dealer 2"
    state.apply_action(2)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "card KC"
    before = str(state)
    with pytest.raises(Exception, match="not a card left"):
        state.apply_action(60)
    assert str(state) == before
    assert len(state.chance_outcomes()) == 52


def test_an_illegal_player_action_is_refused_and_changes_nothing() -> None:
    rng = random.Random(9)
    state = db_game().new_initial_state()
    while state.is_chance_node():
        state.apply_action(random_step(state, rng))
    before = state.cardrules_state
    with pytest.raises(Exception, match="DB-32"):   # a draw before the cut
        state.apply_action(db_encoding.action_id(down_and_back.DrawStock()))
    assert state.cardrules_state == before
    assert state.legal_actions() == list(range(51))


def play_both(game: Any, seed: int) -> None:
    """Play through the adapter and, alongside, with the library's apply; the
    states agree whenever no shuffle is half done."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    mine = state.cardrules_state
    module = down_and_back if isinstance(mine, down_and_back.GameState) else back_alley
    encoding = db_encoding if module is down_and_back else ba_encoding
    picked: list[int] = []
    pile: tuple[Any, ...] = ()
    while not state.is_terminal():
        number = random_step(state, rng)
        if state.is_chance_node():
            if mine.phase.value == "choose_dealer":
                mine = module.apply(mine, ChooseDealer(number))
            else:
                if not picked:
                    pile = tuple(c for c in (DECK if module is down_and_back else CARDS)
                                 if c.index in {i for i, _ in state.chance_outcomes()})
                picked.append(number)
                if len(picked) == len(pile) - 1:
                    rest = [c for c in pile if c.index not in picked]
                    order = [*(c for i in picked for c in pile if c.index == i), *rest]
                    mine = module.apply(mine, Shuffle(tuple(order)))
                    picked = []
        else:
            assert tuple(state.legal_actions()) == encoding.legal_action_ids(mine)
            mine = module.apply(mine, encoding.action_from_id(mine, number))
        state.apply_action(number)
        if not picked:
            assert state.cardrules_state == mine
    assert mine.is_terminal


def test_a_game_through_openspiel_is_the_game_played_with_apply() -> None:
    play_both(db_game(num_players=4, rounds=2), seed=1)
    play_both(ba_game(max_hand_size=3), seed=2)


# -- returns and rewards ----------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda: db_game(num_players=4, rounds=3), lambda: ba_game()])
def test_rewards_add_up_to_the_returns(make: Any) -> None:
    """DB-43/DB-44 net chips, BA-40 to BA-42 team points; rewards read at every
    decision and at the end sum to the returns."""
    rng = random.Random(7)
    state = make().new_initial_state()
    total = np.zeros(state.num_players())
    while not state.is_terminal():
        if not state.is_chance_node():
            total += state.rewards()
            assert np.allclose(total, state.returns())
        state.apply_action(random_step(state, rng))
    total += state.rewards()
    assert np.allclose(total, state.returns())
    final = state.cardrules_state
    if isinstance(final, down_and_back.GameState):
        assert state.returns() == [float(v) for v in final.net]
        assert sum(state.returns()) == -final.pot   # a pot not won stays unpaid (DB-43)
    else:
        s0, s1 = final.scores
        assert state.returns() == [s0, s1, s0, s1]


def test_too_many_throw_ins_end_the_game_with_the_scores_so_far() -> None:
    """BA-25 could repeat forever; the OpenSpiel game stops after max_throw_ins."""
    game = ba_game(max_hand_size=1, max_throw_ins=1)
    state = game.new_initial_state()
    rng = random.Random(3)
    passes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_step(state, rng))
        else:
            state.apply_action(ba_encoding.action_id(back_alley.Pass()))
            passes += 1
    assert passes == 8
    assert state.returns() == [0.0] * 4
    assert state.cardrules_state.history.throw_ins == 2
    assert not state.cardrules_state.is_terminal
    assert "cut short" in str(state)
    assert passes <= game.max_game_length()


# -- information ---------------------------------------------------------------------------

def advance(state: Any, rng: random.Random, steps: int) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
    return state


def test_observations_are_the_encoding_of_the_seat_view() -> None:
    rng = random.Random(11)
    for game, module, encoding in ((db_game(), down_and_back, db_encoding),
                                   (ba_game(), back_alley, ba_encoding)):
        state = advance(game.new_initial_state(), rng, 80)
        for seat in range(game.num_players()):
            view = module.view(state.cardrules_state, seat)
            assert state.observation_string(seat) == encoding.observation_string(view)
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32),
                                  encoding.observation_tensor(view))
            assert state.information_state_string(seat).endswith(
                encoding.observation_string(view))


def test_the_information_state_keeps_a_stock_draw_private() -> None:
    """DB-37: a card drawn from the stock is seen only by the drawer."""
    rng = random.Random(2)
    state = db_game(num_players=2).new_initial_state()
    while state.is_chance_node() or state.cardrules_state.phase.value != "draw":
        state.apply_action(random_step(state, rng))
    seat = state.current_player()
    state.apply_action(db_encoding.action_id(down_and_back.DrawStock()))
    card = str(state.cardrules_state.drawn)
    mine, theirs = (state.information_state_string(s) for s in (seat, 1 - seat))
    assert f"seat {seat} draws {card} from the stock" in mine
    assert f"seat {seat} draws from the stock" in theirs
    assert f"draws {card}" not in theirs


def test_resampling_keeps_the_information_state_and_changes_hidden_cards() -> None:
    rng = random.Random(4)
    for game in (db_game(num_players=3), ba_game(max_hand_size=5)):
        state = advance(game.new_initial_state(), rng, 120)
        while state.is_chance_node() or state.cardrules_state.phase.value == "cut":
            state.apply_action(random_step(state, rng))
        seat = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        samples = [state.resample_from_infostate(seat, sampler) for _ in range(8)]
        key = state.information_state_string(seat)
        assert all(s.information_state_string(seat) == key for s in samples)
        assert all(s.legal_actions() == state.legal_actions() for s in samples)
        others = [o for o in range(game.num_players()) if o != seat]
        assert any(s.cardrules_state.hands[o] != state.cardrules_state.hands[o]
                   for s in samples for o in others)
        # Each draw of the sampler seeds its own resample: the samples differ.
        assert len({str(s.cardrules_state.hands) for s in samples}) > 1
        assert all(s.cardrules_state.hands[seat] == state.cardrules_state.hands[seat]
                   for s in samples)


def test_serialization_round_trips() -> None:
    rng = random.Random(8)
    for game in (db_game(), ba_game()):
        state = advance(game.new_initial_state(), rng, 150)
        for loaded in (game.deserialize_state(state.serialize()),
                       pickle.loads(pickle.dumps(state))):
            assert str(loaded) == str(state)
            assert loaded.history() == state.history()
            assert loaded.cardrules_state == state.cardrules_state
            for seat in range(game.num_players()):
                assert loaded.information_state_string(seat) == \
                    state.information_state_string(seat)
            assert loaded.chance_outcomes() == state.chance_outcomes()
            assert loaded.rewards() == state.rewards()


# -- search ---------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda: db_game(num_players=2, rounds=1), lambda: ba_game(),
                                  lambda: ba_game(sampled_chance=1),
                                  lambda: db_game(num_players=2, rounds=1, sampled_chance=1)])
def test_ismcts_plays_whole_games(make: Any) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = make()
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(4))
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=4,
                             random_state=np.random.RandomState(seat))
            for seat in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            action = int(bots[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    assert state.cardrules_state.is_terminal


def test_a_reshuffle_offers_exactly_the_discard_pile() -> None:
    """DB-36: when the stock runs out the discard pile is shuffled card by card."""
    rng = random.Random(6)
    state = db_game(num_players=5, rounds=3).new_initial_state()
    while not (state.is_chance_node() and state.cardrules_state.phase.value == "reshuffle"):
        state.apply_action(random_step(state, rng))
    pile = state.cardrules_state.discard
    outcomes = state.chance_outcomes()
    assert [i for i, _ in outcomes] == sorted(card.index for card in pile)
    assert all(p == 1.0 / len(pile) for _, p in outcomes)
    before = state.cardrules_state
    order = list(pile)
    rng.shuffle(order)
    for card in order[:-1]:
        state.apply_action(card.index)
    assert state.cardrules_state == down_and_back.apply(before, Shuffle(tuple(order)))
    assert f"reshuffle, turned {order[0]}" in state.information_state_string(0)


def test_too_many_chance_steps_end_a_down_and_back_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """DB-42 tie-breaks could need reshuffles without end: past the cap the game stops."""
    game = db_game(num_players=2, rounds=3)
    monkeypatch.setattr(game._spec, "max_chance_nodes", 1 + 51 + 51 + 10)
    rng = random.Random(1)
    state = game.new_initial_state()
    chance = 0
    while not state.is_terminal():
        chance += state.is_chance_node()
        state.apply_action(random_step(state, rng))
    assert chance == 1 + 51 + 51   # the first two rounds' deals; the third is not shuffled
    assert len(state.cardrules_state.results) == 2
    assert state.returns() == [float(v) for v in state.cardrules_state.net]
    assert "cut short" in str(state)


def test_back_alley_resampling_keeps_every_void_play_has_shown() -> None:
    """resample_from_infostate draws with back_alley.determinize, so no other
    seat is ever dealt a card the play shows it cannot hold (BA-31 to BA-33)."""
    from cardrules.back_alley.determinization import known_absent

    game = ba_game()
    rng = random.Random(21)
    checked = 0
    state = game.new_initial_state()
    while checked < 6 and not state.is_terminal():
        state.apply_action(random_step(state, rng))
        if state.is_chance_node() or state.is_terminal():
            continue
        absent = known_absent(state.cardrules_state)
        seat = state.current_player()
        if not any(absent[o] for o in range(4) if o != seat):
            continue
        checked += 1
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for _ in range(5):
            sample = state.resample_from_infostate(seat, sampler)
            assert sample.information_state_string(seat) == \
                state.information_state_string(seat)
            hands = sample.cardrules_state.hands
            for other in range(4):
                assert not {card.index for card in hands[other]} & absent[other]
    assert checked == 6


def assert_resample_matches(state: Any, seat: int, sample: Any) -> None:
    """``sample`` is a valid state ``seat`` cannot tell from ``state``."""
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.observation_string(seat) == state.observation_string(seat)
    assert np.array_equal(np.asarray(sample.observation_tensor(seat)),
                          np.asarray(state.observation_tensor(seat)))
    assert sample.current_player() == state.current_player()
    assert sample.is_terminal() == state.is_terminal()
    assert sample.returns() == state.returns()
    if state.current_player() == seat:
        assert sample.legal_actions() == state.legal_actions()
    if state.is_chance_node():
        outcomes = sample.chance_outcomes()
        assert len(outcomes) == len(state.chance_outcomes())
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
    mine = sample.cardrules_state
    module = down_and_back if isinstance(mine, down_and_back.GameState) else back_alley
    module.RULES.check_invariants(mine)
    assert mine.settings == state.cardrules_state.settings


@pytest.mark.parametrize(("make", "seed"), [
    pytest.param(lambda: db_game(num_players=2, rounds=1), 1, id="db-2"),
    pytest.param(lambda: db_game(num_players=5, rounds=1), 2, id="db-5"),
    pytest.param(lambda: ba_game(max_hand_size=1, max_throw_ins=1), 3, id="ba-1"),
    pytest.param(lambda: ba_game(max_hand_size=2), 4, id="ba-2"),
])
def test_resampling_works_at_every_node_for_every_seat(make: Any, seed: int) -> None:
    """At every node of a whole game (the choice of dealer, every step of a
    shuffle, DB-36 reshuffles, every decision and the end), each seat's
    resample is a valid state with the same information: the same information
    state string, observation and, for the seat to act, legal actions; and
    the resample plays on to the end (DB-31, DB-32, BA-11, BA-12)."""
    game = make()
    rng = random.Random(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    nodes = {"chance": 0, "mid-shuffle": 0, "decision": 0, "terminal": 0}
    while True:
        for seat in range(game.num_players()):
            sample = state.resample_from_infostate(seat, sampler)
            assert_resample_matches(state, seat, sample)
            if rng.random() < 0.05:   # a resample serializes and loads back, checked
                loaded = game.deserialize_state(sample.serialize())
                assert loaded.serialize() == sample.serialize()
                assert_resample_matches(state, seat, loaded)
        if state.is_terminal():
            nodes["terminal"] += 1
            break
        if state.is_chance_node():
            nodes["mid-shuffle" if state._core.picked else "chance"] += 1
            if rng.random() < 0.05:   # a resample mid-shuffle finishes its shuffle
                sample = state.resample_from_infostate(state.num_players() - 1, sampler)
                while sample.is_chance_node():
                    sample.apply_action(random_step(sample, rng))
                module = (down_and_back if game.get_type().short_name == DOWN_AND_BACK
                          else back_alley)
                module.RULES.check_invariants(sample.cardrules_state)
        else:
            nodes["decision"] += 1
        state.apply_action(random_step(state, rng))
    assert all(nodes.values())
    # A resample plays on to the end.
    for seat in range(game.num_players()):
        again = game.new_initial_state()
        advance(again, random.Random(seed + seat), 60)
        sample = again.resample_from_infostate(seat, sampler)
        while not sample.is_terminal():
            sample.apply_action(random_step(sample, rng))


def test_a_resample_keeps_the_history_of_the_state_it_was_drawn_from() -> None:
    """A resample's history() is the original's (the true deal), not one that
    leads to the cards it holds: the rules give the state drawn
    (hidden_variant), not the shuffles and hidden actions that would lead
    to it, and no game-independent code can invert a deal (see
    resample_from_infostate).  So the resample carries where it was drawn
    from, and deserialize_state checks it that way."""
    game = db_game(num_players=2, rounds=1)
    state = advance(game.new_initial_state(), random.Random(5), 60)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sample = state.resample_from_infostate(0, sampler)
    assert sample.history() == state.history()
    assert sample.cardrules_state.hands[1] != state.cardrules_state.hands[1]
    loaded = game.deserialize_state(sample.serialize())
    assert loaded.cardrules_state == sample.cardrules_state
    history, moves, data = split_serialized(sample.serialize())
    assert [r["seat"] for r in data["resamples"]] == [0]
    plain = game.deserialize_state(join_serialized(history, moves, {**data, "resamples": []}))
    assert plain.cardrules_state == state.cardrules_state


# -- deserializing untrusted text ------------------------------------------------------

class _Raw:
    """Pickles as the adapter's reader called on any text (a tampered JSON)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return openspiel_saved.saved_from_json, (self.text,)


def split_serialized(text: str) -> tuple[str, str, dict[str, Any]]:
    history, moves, data = text.split("\n", 2)
    saved = pickle.loads(base64.b64decode(data[len("__dict__="):]))["_core"]
    return history[len("history="):], moves[len("move_number="):], json.loads(saved.to_json())


def join_serialized(history: str, moves: str, data: object) -> str:
    text = data if isinstance(data, str) else json.dumps(data)
    payload = base64.b64encode(pickle.dumps({"_core": _Raw(text)})).decode()
    return f"history={history}\nmove_number={moves}\n__dict__={payload}"


def sample_states(seed: int) -> list[tuple[Any, Any]]:
    """(game, state) pairs of both games: mid-shuffle, decisions, the end,
    resampled states and a game cut short by throw-ins (BA-25)."""
    rng = random.Random(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    out = []
    for game in (db_game(num_players=2, rounds=1), ba_game(max_hand_size=1, max_throw_ins=0)):
        for steps in (1, 20, 70, 10_000):
            state = advance(game.new_initial_state(), rng, steps)
            out.append((game, state))
        # Resampled while bidding or playing (BA-20, DB-34), played on, then
        # resampled again for another seat.
        state = advance(game.new_initial_state(), rng, 56 if game.num_players() == 4 else 75)
        resampled = state.resample_from_infostate(0, sampler)
        out.append((game, resampled))
        again = advance(resampled.clone(), rng, 2).resample_from_infostate(1, sampler)
        assert not again.is_terminal()
        out.append((game, advance(again, rng, 2)))
    game = ba_game(max_hand_size=1, max_throw_ins=0)
    state = game.new_initial_state()
    while not state.is_terminal():   # everyone passes: one throw-in too many
        state.apply_action(random_step(state, rng) if state.is_chance_node()
                           else ba_encoding.action_id(back_alley.Pass()))
    out.append((game, state))
    return out


def json_tampers(data: dict[str, Any], other: dict[str, Any], other_state: dict[str, Any]
                 ) -> list[dict[str, Any]]:
    """Changed copies of a saved state's JSON that must all be refused."""
    out: list[dict[str, Any]] = []

    def changed(**keys: Any) -> dict[str, Any]:
        new = copy.deepcopy(data)
        new.update(keys)
        return new

    for key in data:
        out.append({k: v for k, v in data.items() if k != key})      # a key dropped
        wrongs: tuple[object, ...] = (None, True, "x", 1.5, {}, [[]], -1, 10 ** 30)
        for wrong in wrongs:   # a wrong type
            if type(wrong) is not type(data[key]):
                out.append(changed(**{key: wrong}))
    out.append(changed(extra=1))
    # What earlier versions saved, the whole state and its log, is no key now.
    out.append(changed(log=[[None, "seat 0 wins", None]] * 10))
    out.append(changed(state={}))
    for key in data["settings"]:
        out.append(changed(settings={k: v for k, v in data["settings"].items() if k != key}))
        out.append(changed(settings={**data["settings"], key: data["settings"][key] + 1}))
        out.append(changed(settings={**data["settings"], key: True}))
    out.append(changed(settings={**data["settings"], "extra": 1}))
    out.append(copy.deepcopy(other))      # the other game's, as it is
    out.append(changed(game="cardrules_other"))
    out.append(changed(game=other["game"], settings=other["settings"]))
    # Sampled shuffles where the game deals card by card, or of the wrong shape.
    for sampled in ([[0, [1, 2]]], [[0]], [[-1, []]], [[0, [1, 1]]], [[0, [99]]],
                    [[10 ** 6, []]], [["0", []]], [[0, "AS"]]):
        out.append(changed(sampled=sampled))
    out.append(changed(resamples=[{"seat": 0, "at": 0, "state": {}, "picked": [],
                                   "remaining": []}] * 33))
    for index, resample in enumerate(data["resamples"]):
        def with_resample(index: int = index, **keys: Any) -> dict[str, Any]:
            resamples = copy.deepcopy(data["resamples"])
            resamples[index].update(keys)
            return changed(resamples=resamples)
        for key in resample:
            dropped = copy.deepcopy(data["resamples"])
            del dropped[index][key]
            out.append(changed(resamples=dropped))
        out.append(with_resample(extra=1))
        out.append(with_resample(seat=99))
        out.append(with_resample(seat=-1))
        out.append(with_resample(at=10 ** 6))
        out.append(with_resample(at=-1))
        out.append(with_resample(at=True))
        out.append(with_resample(state=other_state))
        out.append(with_resample(state={k: v for k, v in resample["state"].items()
                                        if k != "phase"}))
        out.append(with_resample(state="x"))
        for bad in ([99], ["AS"], [True], [-1], [0, 0], list(range(70)), [1.0]):
            out.append(with_resample(picked=bad))
            out.append(with_resample(remaining=bad))
        if resample["picked"]:
            out.append(with_resample(picked=resample["picked"][1:]))
            out.append(with_resample(remaining=resample["remaining"][::-1]))
    if len(data["resamples"]) > 1:
        out.append(changed(resamples=data["resamples"][::-1]))
    return out


def history_tampers(history: str, moves: str) -> list[tuple[str, str]]:
    """Changed history= and move_number= lines that must all be refused
    (another legal history is another game, and loads)."""
    pairs = history.split(",") if history else []
    out = [(history, str(int(moves) + 1)), (history, "-1"), (history, "x"), (history, ""),
           (history + ",", moves), (history + ",x:1", moves), ("1:2:3", moves),
           (history + ",9:0", str(int(moves) + 1)), (history + ",-1:99999999999", moves),
           ("-1:0," * 3 + history, str(int(moves) + 3)), (history, " " + moves),
           ("-1:7," + history, str(int(moves) + 1)), ("0:0," + history, str(int(moves) + 1))]
    if pairs:
        out.append((",".join(pairs[:-1]), moves))
        out.append((",".join([*pairs[:-1], pairs[-1] + "0000"]), moves))
        out.append((",".join([*pairs, "-1:200"]), str(int(moves) + 1)))
    return out


def raw_tampers(text: str) -> list[object]:
    """Serialized texts that are not the adapter's at all."""
    history, moves, data = text.split("\n", 2)

    class Evil:
        def __reduce__(self) -> tuple[Any, tuple[str]]:
            return (print, ("unpickled!",))

    def payload(obj: object) -> str:
        return "__dict__=" + base64.b64encode(pickle.dumps(obj)).decode()

    core = pickle.loads(base64.b64decode(data[len("__dict__="):]))["_core"]
    old_format = json.dumps({"game": "cardrules_back_alley", "settings": {}, "log": []})
    return [f"{history}\n{moves}\n{payload({'_core': _Raw(old_format)})}",
            None, 5, b"history=", "", text.replace("\n", " "), history, f"{history}\n{moves}",
            f"{moves}\n{history}\n{data}", f"{history}\n{moves}\n__dict__=!!!",
            f"{history}\n{moves}\n__dict__=" + base64.b64encode(b"garbage").decode(),
            f"{history}\n{moves}\n{payload({'_core': Evil()})}",
            f"{history}\n{moves}\n{payload({})}",
            f"{history}\n{moves}\n{payload({'_core': core, 'extra': 1})}",
            f"{history}\n{moves}\n{payload([core])}",
            f"{history}\n{moves}\n{payload({'_core': 'text'})}",
            f"{history}\n{moves}\n{payload({'_core': _Raw('{')})}",
            f"{history}\n{moves}\n{payload({'_core': _Raw('[' * 100_000)})}",
            f"{history}\n{moves}\n{payload({'_core': _Raw('NaN')})}",
            f"{history}\n{moves}\n{payload({'_core': _Raw('1' * 30)})}"]


def test_tampered_serialized_states_are_all_parse_errors(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """deserialize_state reads untrusted text: a dropped key, a wrong type, the
    other game's data, other settings, a resample that does not fit the
    history (DB-37, BA-12: it must give its seat the same information), an
    illegal history or a foreign pickle is a ParseError, never another
    exception, and nothing is unpickled but the adapter's JSON."""
    samples = sample_states(31)
    saved = {game.get_type().short_name: split_serialized(state.serialize())[2]
             for game, state in samples}
    states = {game.get_type().short_name: state.cardrules_state for game, state in samples}
    tried = 0
    for game, state in samples:
        history, moves, data = split_serialized(state.serialize())
        assert game.deserialize_state(join_serialized(history, moves, data)).serialize() \
            == state.serialize()
        name = BACK_ALLEY if data["game"] == DOWN_AND_BACK else DOWN_AND_BACK
        rules = back_alley.RULES if name == BACK_ALLEY else down_and_back.RULES
        texts: list[object] = [
            join_serialized(history, moves, tampered)
            for tampered in json_tampers(data, saved[name], rules.state_to_dict(states[name]))]
        texts += [join_serialized(h, m, data) for h, m in history_tampers(history, moves)]
        texts += raw_tampers(state.serialize())
        for at, text in enumerate(texts):
            try:
                game.deserialize_state(text)
            except ParseError:
                tried += 1
            else:
                pytest.fail(f"tamper {at} of {data['game']} accepted: {text!r:.200}")
    assert tried > 1000
    assert "unpickled!" not in capsys.readouterr().out


def test_a_tampered_saved_state_is_refused_by_openspiel_own_readers_too() -> None:
    """pickle and pyspiel.deserialize_game_and_state unpickle by design (never
    give them untrusted bytes), but the adapter's JSON they reach is still
    checked against the game and the history."""
    for game, state in sample_states(32)[::2]:
        history, moves, data = split_serialized(state.serialize())
        bad_history = ",".join(["-1:9", *history.split(",")[1:]])   # no seat 9 (DB-31, BA-11)
        for text in (join_serialized(history, moves, {**data, "truncated": True}),
                     join_serialized(bad_history, moves, data)):
            whole = pyspiel.serialize_game_and_state(game, state)
            whole = whole[:whole.index("[State]\n") + len("[State]\n")] + text
            with pytest.raises(ParseError):
                pyspiel.deserialize_game_and_state(whole)
        other = sample_states(33)[9 if data["game"] == DOWN_AND_BACK else 1]
        _, _, other_data = split_serialized(other[1].serialize())
        with pytest.raises(ParseError, match="not of"):
            game.new_initial_state()._core = pickle.loads(pickle.dumps(_Raw(json.dumps(
                other_data))))


def test_a_saved_state_holds_only_what_its_history_cannot_rebuild() -> None:
    """A state never resampled saves its game and settings only; a resampled
    one adds the cards drawn (BA-12, DB-33: no history leads to them)."""
    rng = random.Random(4)
    game = ba_game()
    state = advance(game.new_initial_state(), rng, 70)
    _, _, data = split_serialized(state.serialize())
    assert data == {"game": BACK_ALLEY, "settings": game.get_parameters(),
                    "resamples": [], "sampled": []}
    sample = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    _, _, data = split_serialized(sample.serialize())
    assert [(r["seat"], r["at"]) for r in data["resamples"]] == [(2, len(state.history()))]
    assert back_alley.RULES.state_from_dict(data["resamples"][0]["state"]) == \
        sample.cardrules_state


def test_an_oversized_saved_state_is_refused_before_it_is_read() -> None:
    """A history longer than the game can be, or a __dict__= line longer than
    any saved state of the game, is refused by its length alone."""
    game = ba_game()
    state = game.new_initial_state()
    _, moves, data = state.serialize().split("\n", 2)
    with pytest.raises(ParseError, match="history= is longer than"):
        game.deserialize_state("history=" + "-1:0," * 10 ** 6 + f"\n{moves}\n{data}")
    log = [[None, "seat 0 bids 1", None]] * 10 ** 6
    huge = join_serialized("", "0", {"game": BACK_ALLEY, "settings": game.get_parameters(),
                                     "resamples": [], "sampled": [], "log": log})
    with pytest.raises(ParseError, match="longer than any saved state"):
        game.deserialize_state(huge)


def test_the_saved_part_is_read_within_its_bounds() -> None:
    """Settings are 32-bit whole numbers; a resample names at most 64 cards
    picked and 64 remaining (a shuffle of the 54 cards at most)."""
    def saved(settings: dict[str, int], picked: int, remaining: int) -> str:
        # 65 numbers from 0 to 64: the 65th is refused for the length before its value
        resample = {"seat": 0, "at": 1, "state": {}, "picked": list(range(picked)),
                    "remaining": list(range(remaining))}
        return json.dumps({"game": BACK_ALLEY, "settings": settings,
                           "resamples": [resample], "sampled": []})

    low, high = -2 ** 31, 2 ** 31 - 1
    read = openspiel_saved.saved_from_json(saved({"a": low, "b": high}, 64, 64))
    assert read.settings == {"a": low, "b": high}
    assert len(read.resamples[0].picked) == len(read.resamples[0].remaining) == 64
    for bad, words in (({"a": low - 1}, "at least"), ({"a": high + 1}, "at most")):
        with pytest.raises(ParseError, match=f"settings: 'a' must be {words}"):
            openspiel_saved.saved_from_json(saved(bad, 0, 0))
    for picked, remaining in ((65, 0), (0, 65)):
        name = "picked" if picked else "remaining"
        with pytest.raises(ParseError, match=f"'{name}' must hold at most 64 entries, not 65"):
            openspiel_saved.saved_from_json(saved({}, picked, remaining))


def test_a_history_line_is_refused_by_its_length_from_one_character_over() -> None:
    # At most 14 characters a move ("-1:2147483647,"), counted after "history=".
    longest = openspiel_saved._PAIR_CHARS * 3
    tail = "\nmove_number=0\n__dict__="
    with pytest.raises(ParseError, match="history= is longer than 3 moves can be"):
        openspiel_saved.screen("history=" + "x" * (longest + 1) + tail,
                               num_players=4, max_moves=3)
    with pytest.raises(ParseError, match="history= must list player:action pairs"):
        openspiel_saved.screen("history=" + "x" * longest + tail, num_players=4, max_moves=3)


def test_serialized_states_load_back_at_every_kind_of_node() -> None:
    """Mid-shuffle, decisions, the end, cut short (BA-25) and resampled states
    all round-trip through deserialize_state, pickle and OpenSpiel's readers."""
    for game, state in sample_states(34):
        text = state.serialize()
        for copy_ in (game.deserialize_state(text), pickle.loads(pickle.dumps(state)),
                      pyspiel.deserialize_game_and_state(
                          pyspiel.serialize_game_and_state(game, state))[1]):
            assert copy_.serialize() == text
            assert copy_.cardrules_state == state.cardrules_state
            assert copy_.history() == state.history()
            for seat in range(game.num_players()):
                assert copy_.information_state_string(seat) == \
                    state.information_state_string(seat)


# -- a game known only by its Rules -------------------------------------------------------


#: MINI-1: three cards are shuffled; seat 0 gets the top one, seat 1 the next,
#: the third is the spare.  MINI-2: seat 0 calls or folds; then the spare is
#: "shuffled" alone (a pile of one card: no chance step) and shown.  MINI-3:
#: seat 1 calls or folds.  MINI-4: if both call, the higher card wins the stake.
MINI_PILE = parse_cards("2S 3S 4S")


@attrs.frozen
class MiniState:
    stake: int
    order: tuple[Card, ...] = ()
    calls: tuple[bool, ...] = ()
    spare_shown: bool = False
    num_players: int = 2

    @property
    def is_chance(self) -> bool:
        return not self.order or (len(self.calls) == 1 and not self.spare_shown)

    @property
    def is_terminal(self) -> bool:
        return len(self.calls) == 2

    @property
    def current_player(self) -> int | None:
        return None if self.is_chance or self.is_terminal else len(self.calls)


def _mini_apply(state: MiniState, action: object, *, seat: int | None = None) -> MiniState:
    if state.is_terminal:
        raise IllegalActionError("MINI-4", "the game is over")
    if state.is_chance:
        if not isinstance(action, Shuffle):
            raise IllegalActionError("MINI-1", "a shuffle is due")
        if not state.order:
            if {c.index for c in action.order} != {c.index for c in MINI_PILE}:
                raise IllegalActionError("MINI-1", "the three cards are shuffled")
            return attrs.evolve(state, order=cast(tuple[Card, ...], action.order))
        if action.order != state.order[2:]:
            raise IllegalActionError("MINI-2", "the spare is shown")
        return attrs.evolve(state, spare_shown=True)
    if not isinstance(action, bool) or seat not in (None, state.current_player):
        raise IllegalActionError("MINI-2", "call (True) or fold (False)")
    return attrs.evolve(state, calls=(*state.calls, action))


def _mini_pile(state: MiniState) -> tuple[Card, ...]:
    return state.order[2:] if state.order else MINI_PILE


def _mini_view(state: MiniState, seat: int) -> tuple[object, ...]:
    own = state.order[seat] if state.order else None
    return (seat, own, state.calls, state.order[2] if state.spare_shown else None)


def _mini_returns(state: MiniState) -> tuple[int, int]:
    if state.calls != (True, True):
        return (0, 0)
    win = state.stake if state.order[0] > state.order[1] else -state.stake
    return (win, -win)


def _mini_events(before: MiniState, action: object, after: MiniState) -> tuple[Event, ...]:
    if isinstance(action, Shuffle):
        if not before.order:
            return tuple(Event(seat, None, ("seat", seat, "gets", after.order[seat]))
                         for seat in range(2))
        return (Event(None, ("the spare is", after.order[2])),)
    seat = before.current_player
    # An event with an owner and no private part: the owner learns the public part.
    return (Event(seat, ("seat", seat, "calls" if action else "folds")),)


def _mini_hidden(state: MiniState, seat: int, rng: random.Random) -> MiniState:
    if not state.order or state.spare_shown:
        return state
    other = [1 - seat, 2]
    cards = [state.order[1 - seat], state.order[2]]
    rng.shuffle(cards)
    order = list(state.order)
    for at, card in zip(other, cards, strict=True):
        order[at] = card
    return attrs.evolve(state, order=tuple(order))


def _mini_tensor(state: MiniState, seat: int) -> Any:
    out = np.zeros(8, np.float32)
    if state.order:
        out[MINI_PILE.index(state.order[seat])] = 1
    for at, call in enumerate(state.calls):
        out[3 + at] = 1 + call
    if state.spare_shown:
        out[5 + MINI_PILE.index(state.order[2])] = 1
    return out


def _mini_from_dict(data: Any) -> MiniState:
    return MiniState(data["stake"], tuple(parse_cards(" ".join(data["order"]))),
                     tuple(data["calls"]), data["spare_shown"])


MINI: Rules[MiniState, Any] = Rules(
    name="os_minimal", title="Minimal", new_game=lambda stake=1: MiniState(stake),
    default_settings={"stake": 1}, settings_of=lambda s: {"stake": s.stake},
    legal_actions=lambda s: (False, True) if s.current_player is not None else (),
    apply=_mini_apply,
    sample_chance=lambda s, rng: Shuffle(tuple(rng.sample(_mini_pile(s), len(_mini_pile(s))))),
    view=_mini_view,
    state_to_dict=lambda s: {"stake": s.stake, "order": [str(c) for c in s.order],
                             "calls": list(s.calls), "spare_shown": s.spare_shown},
    state_from_dict=_mini_from_dict, action_to_dict=lambda a: {"action": str(a)},
    action_from_dict=lambda d: d["action"], parse_action=str, check_settings=({"stake": 2},),
    probe_actions=lambda s: (), hidden_variant=_mini_hidden, check_invariants=lambda s: None,
    bots={}, summarize=str, returns=_mini_returns, return_unit="chips",
    chance_pile=_mini_pile, chance_cards=MINI_PILE, events=_mini_events,
    encoding=Encoding(2, lambda a, s=None: int(a), lambda s, n: bool(n),
                      lambda s: (0, 1) if s.current_player is not None else (), 8,
                      (("all", 0, 8),), _mini_tensor, lambda s, seat: str(_mini_view(s, seat))),
    bounds=lambda settings: Bounds(2, 2, -float(settings["stake"] or 1),
                                   float(settings["stake"] or 1)))


def mini_game(**params: int) -> Any:
    return pyspiel.load_game(openspiel.register_game(MINI), params)


def test_a_game_known_only_by_its_rules_passes_openspiel_checks() -> None:
    """A game that gives only the Rules fields (no dealer, a shuffle at the
    start, a pile of one card later) loads under ``cardrules_`` + its name
    with its settings as parameters, and passes random_sim_test."""
    assert openspiel.register_game(MINI) == "cardrules_os_minimal"
    assert openspiel.register_game(MINI) == "cardrules_os_minimal"   # again: nothing changes
    game = mini_game(stake=3)
    assert game.get_parameters() == {"stake": 3, **ADAPTER_DEFAULTS}
    assert (game.num_players(), game.max_chance_outcomes(), game.num_distinct_actions()) == \
        (2, 13, 2)   # 4S is card index 12
    assert (game.min_utility(), game.max_utility(), game.max_game_length(),
            game.max_chance_nodes_in_history()) == (-3.0, 3.0, 2, 2)
    assert game.rules is MINI
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_a_game_known_only_by_its_rules_plays_card_by_card() -> None:
    game = mini_game()
    state = game.new_initial_state()
    assert state.is_chance_node()   # the game starts with a shuffle: no dealer
    assert [i for i, _ in state.chance_outcomes()] == [c.index for c in MINI_PILE]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 12) == "card 4S"
    state.apply_action(12)      # 4S on top: seat 0's
    state.apply_action(4)       # 2S next: seat 1's; 3S is forced
    assert state.cardrules_state.order == parse_cards("4S 2S 3S")
    assert state.current_player() == 0
    state.apply_action(1)       # seat 0 calls; the spare alone takes no chance step
    assert state.current_player() == 1
    assert state.cardrules_state.spare_shown
    state.apply_action(1)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    # The information state comes from the events, as each seat sees them.
    assert state.information_state_string(0).splitlines()[:4] == [
        "seat 0", "seat 0 gets 4S", "seat 0 calls", "the spare is 3S"]
    assert "4S" not in state.information_state_string(1).split("\n(")[0]
    assert state.information_state_string(1).splitlines()[1] == "seat 1 gets 2S"


def test_a_game_ends_when_the_chance_step_due_would_pass_its_bounds() -> None:
    """One rule for every game: a shuffle (here the first one, two steps) that
    would not fit the chance steps the bounds leave ends the game, with the
    returns as they stand."""
    short = attrs.evolve(MINI, name="os_minimal_short",
                         bounds=lambda settings: Bounds(2, 1, -1.0, 1.0))
    game = pyspiel.load_game(openspiel.register_game(short))
    state = game.new_initial_state()
    assert state.is_terminal()
    assert not state.cardrules_state.is_terminal
    assert state.returns() == [0.0, 0.0]
    assert "cut short" in str(state)
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()


def test_a_game_without_encoding_bounds_or_whole_number_defaults_is_refused() -> None:
    for rules, reason in [
            (attrs.evolve(MINI, name="os_no_encoding", encoding=None), "no encoding"),
            (attrs.evolve(MINI, name="os_no_bounds", bounds=None), "no bounds"),
            (attrs.evolve(MINI, name="os_open", default_settings={"stake": None}),
             "needs a whole number"),
            (attrs.evolve(MINI, name="os_clash", limit_settings={"stake": 2}),
             "both a setting and a limit setting")]:
        with pytest.raises(ValueError, match=reason):
            openspiel.register_game(rules)
        assert f"cardrules_{rules.name}" not in pyspiel.registered_names()


def test_settings_that_leave_a_game_unbounded_are_refused() -> None:
    """DB-44: an open-ended Down and Back game has no bounds."""
    with pytest.raises(ValueError, match="open-ended"):
        db_bounds({"num_players": 2, "rounds": None})
    with pytest.raises(Exception, match=r"(?i)unknown parameter 'players'"):   # now num_players
        pyspiel.load_game(DOWN_AND_BACK, {"players": 2})


def test_a_back_alley_game_with_at_most_max_throw_ins_throw_ins_is_never_cut() -> None:
    """BA-25 under the one truncation rule: max_throw_ins makes room for that
    many deals thrown in.  With two throw-ins where one is allowed, the
    game plays on while the next deal's shuffle fits and ends, scores as
    they stand, when it does not (here before the last of three deals)."""
    for throw_ins, allowed, cut in ((1, 1, False), (2, 1, True), (2, 2, False)):
        game = ba_game(max_hand_size=2, max_throw_ins=allowed)
        state = game.new_initial_state()
        rng = random.Random(throw_ins)
        pass_id = ba_encoding.action_id(back_alley.Pass())
        thrown = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_step(state, rng))
                continue
            passing = thrown < throw_ins
            bidding = state.cardrules_state.phase is back_alley.Phase.BID
            legal = state.legal_actions()
            state.apply_action(pass_id if passing else
                               next((a for a in legal if a != pass_id), legal[0]))
            thrown += bidding and state.cardrules_state.phase is not back_alley.Phase.PLAY \
                and state.cardrules_state.phase is not back_alley.Phase.BID
        final = state.cardrules_state
        assert thrown == throw_ins
        assert final.is_terminal is not cut
        assert len(final.history.results) == (2 if cut else 3)
        s0, s1 = final.scores
        assert state.returns() == [s0, s1, s0, s1]


def test_other_rules_under_a_registered_name_must_keep_its_parameters() -> None:
    """A game module loaded again brings new rules under the same name: they
    replace the old for games loaded afterwards, with the same parameters only."""
    again = attrs.evolve(MINI, name="os_again")
    assert openspiel.register_game(again) == "cardrules_os_again"
    newer = attrs.evolve(again, title="Minimal, again")
    openspiel.register_game(newer)
    assert pyspiel.load_game("cardrules_os_again").rules is newer
    with pytest.raises(ValueError, match="registered with other parameters"):
        openspiel.register_game(attrs.evolve(again, default_settings={"stake": 1, "x": 0}))
    assert pyspiel.load_game("cardrules_os_again").rules is newer


# -- our bots as OpenSpiel bots -----------------------------------------------------

@pytest.mark.parametrize(("make", "rules"), [(db_game, down_and_back.RULES),
                                             (ba_game, back_alley.RULES)])
def test_every_registered_bot_plays_in_openspiel_evaluate_bots(make: Any, rules: Any) -> None:
    """Each bot of ``rules.bots`` plays whole games in OpenSpiel's own loop
    (DB-44, BA-43: the returns are the game's)."""
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    game = make()
    names = list(rules.bots)
    for first in range(len(names)):
        seats = [names[(first + s) % len(names)] for s in range(game.num_players())]
        bots = [openspiel.bot(game, name, seed=s) for s, name in enumerate(seats)]
        state = game.new_initial_state()
        returns = evaluate_bots(state, bots, np.random.default_rng(first))
        assert state.is_terminal()
        assert returns == state.returns()
        assert list(returns) == list(map(float, rules.returns(state.cardrules_state)))


def test_a_wrapped_bot_chooses_what_the_bot_chooses_from_the_seat_view() -> None:
    game = ba_game()
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(random_step(state, rng))
    inner = back_alley.RULES.bots["search"](5)
    core = state.cardrules_state
    seat = core.current_player
    expected = inner.act(back_alley.RULES.view(core, seat), back_alley.RULES.legal_actions(core))
    assert openspiel.bot(game, "search", seed=5).step(state) == \
        ba_encoding.action_id(expected, core)


def test_a_wrapped_bot_refuses_unknown_names_seats_chance_and_other_games() -> None:
    game = ba_game()
    with pytest.raises(ValueError, match=r"no bot 'nobody'.*heuristic"):
        openspiel.bot(game, "nobody")
    with pytest.raises(ValueError, match="player_id must be a seat"):
        openspiel.bot(game, "random", player_id=4)
    with pytest.raises(ValueError, match="cardrules game"):
        openspiel.bot(pyspiel.load_game("kuhn_poker"), "random")
    player = openspiel.bot(game, "random", seed=1, player_id=3)
    assert player.player_id() == 3
    with pytest.raises(ValueError, match="no player is to act"):
        player.step(game.new_initial_state())
    with pytest.raises(ValueError, match="this bot plays"):
        player.step(ba_game(max_hand_size=3).new_initial_state())


def test_wrapped_bots_play_in_openspiel_cpp_evaluate_bots_too() -> None:
    game = ba_game()
    bots = [openspiel.bot(game, "heuristic", seed=s) for s in range(4)]
    first = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    again = pyspiel.evaluate_bots(game.new_initial_state(),
                                  [openspiel.bot(game, "heuristic", seed=s) for s in range(4)], 3)
    assert first == again   # BA-40: partners score alike, and the seeds fix the game
    assert first[0] == first[2]
    assert first[1] == first[3]


# -- information states kept as the game goes ---------------------------------------

def rebuilt_information_state(state: Any, seat: int) -> str:
    """The information state written out from the whole log, as it was
    before the adapter kept it as the game goes."""
    core = state._core
    lines = [f"seat {seat}"]
    last = core.entries()
    for entry in [] if last is None else last.entries():
        lines.extend(entry.lines(seat))
    lines.append(core.spec.observation_string(core.state, seat))
    return "\n".join(lines)


@pytest.mark.parametrize(("make", "seed"), [(db_game, 1), (ba_game, 2),
                                            (lambda: ba_game(max_hand_size=4), 3)])
def test_information_states_equal_the_ones_rebuilt_from_the_whole_log(
        make: Any, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked now and then, at random seats, on clones and resamples, the kept
    information states are the rebuilt ones (DB-37, BA-12: private cards stay private)."""
    monkeypatch.setattr(openspiel, "_MARK_EVERY", 5)   # many marks in a short game
    rng = random.Random(seed)
    state = make().new_initial_state()
    asked = 0
    while not state.is_terminal():
        if rng.random() < 0.3:
            seat = rng.randrange(state.num_players())
            probe = state.clone() if rng.random() < 0.5 else state
            assert probe.information_state_string(seat) == \
                rebuilt_information_state(probe, seat)
            asked += 1
            if not state.is_chance_node() and rng.random() < 0.2:
                other = state.resample_from_infostate(
                    seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                for s in range(state.num_players()):
                    assert other.information_state_string(s) == \
                        rebuilt_information_state(other, s)
        state.apply_action(random_step(state, rng))
    for seat in range(state.num_players()):
        assert state.information_state_string(seat) == rebuilt_information_state(state, seat)
    assert asked > 10


# -- the information-state tensor -------------------------------------------------------

@pytest.mark.parametrize(("make", "games"), [
    (lambda: ba_game(sampled_chance=1), 40), (ba_game, 6),
    (lambda: ba_game(max_hand_size=1, sampled_chance=1), 60),
    (lambda: db_game(num_players=2, sampled_chance=1), 15),
    (lambda: db_game(num_players=5, rounds=1, sampled_chance=1), 12), (db_game, 3)])
def test_equal_information_state_strings_mean_equal_tensors(
        make: Any, games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """At every node of random games, for every seat, and for resampled
    states: two information states are equal as strings exactly when they
    are equal as tensors (perfect recall, nothing hidden leaked: BA-50,
    DB-37), and the tensor is the seat, the history part, then the
    observation, of one shape, every history entry within 0 to 54."""
    monkeypatch.setattr(openspiel, "_MARK_EVERY", 7)   # many marks in a short game
    game = make()
    n, size = game.num_players(), game.information_state_tensor_size()
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [size]
    spec = game._spec
    assert size == n + spec.history_size + game.observation_tensor_size()
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    rng = random.Random(games)
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            for seat in range(n):
                probe = state
                if not state.is_terminal() and rng.random() < 0.05:
                    probe = state.resample_from_infostate(
                        seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                text = probe.information_state_string(seat)
                tensor = np.asarray(probe.information_state_tensor(seat), np.float32)
                assert tensor.shape == (size,)
                assert list(tensor[:n]) == [float(s == seat) for s in range(n)]
                history = tensor[n:n + spec.history_size]
                assert history.min() >= 0
                assert history.max() <= 54
                assert np.array_equal(tensor[n + spec.history_size:],
                                      probe.observation_tensor(seat))
                key = tensor.tobytes()
                assert by_string.setdefault(text, key) == key
                assert by_tensor.setdefault(key, text) == text
            if state.is_terminal():
                break
            state.apply_action(random_step(state, rng))
    assert len(by_string) > 100


def test_the_information_state_tensor_layouts_fit_their_bits() -> None:
    """Each game's history layout is contiguous, and the tensor's size
    follows the settings (the room for throw-ins in Back Alley, BA-25)."""
    for encoding, settings in ((ba_encoding, {"max_hand_size": 3, "max_throw_ins": 2}),
                               (db_encoding, {"num_players": 4, "rounds": 3})):
        layout = encoding.information_state_layout(settings)
        assert [start for _, start, _ in layout] == \
            [sum(length for _, _, length in layout[:k]) for k in range(len(layout))]
    game = ba_game(max_throw_ins=0)
    assert game.information_state_tensor_size() == \
        4 + 3 * 108 + 3 * 62 + game.observation_tensor_size()
    with pytest.raises(ValueError, match="finite number of rounds"):
        db_encoding.information_state_layout({"rounds": None})


# -- sampled chance: a whole shuffle in one step ----------------------------------------

@pytest.mark.parametrize("make", [lambda: db_game(sampled_chance=1),
                                  lambda: ba_game(sampled_chance=1),
                                  lambda: ba_game(max_hand_size=4, sampled_chance=1, seed=7)])
def test_sampled_chance_passes_random_sim_test(make: Any) -> None:
    """OpenSpiel's own test (its serialization of the game needs a C++ random
    state a Python game cannot give, so states are checked by ours below)."""
    game = make()
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize(("make", "rules"),
                         [(lambda: db_game(sampled_chance=1), down_and_back.RULES),
                          (lambda: ba_game(sampled_chance=1), back_alley.RULES)])
def test_a_sampled_shuffle_is_one_chance_step_of_the_whole_pile(make: Any, rules: Any) -> None:
    """DB-32, DB-36, BA-12: each shuffle is one chance step with the one
    outcome 0; the state draws an order of the whole pile itself."""
    game = make()
    state = game.new_initial_state()
    rng = random.Random(2)
    shuffles = 0
    while not state.is_terminal():
        if state.is_chance_node() and state.cardrules_state.phase.value != "choose_dealer":
            assert state.chance_outcomes() == [(0, 1.0)]
            assert state.legal_actions() == [0]
            assert state.action_to_string(-1, 0) == "sampled shuffle"
            with pytest.raises(ValueError, match="one outcome 0"):
                state.clone().apply_action(1)
            pile = sorted(card.index for card in rules.chance_pile(state.cardrules_state))
            state.apply_action(0)
            order = [card.index for card in state._core.sampled[-1][1]]
            assert sorted(order) == pile
            assert state._core.sampled[-1][0] == len(state.history()) - 1
            shuffles += 1
        else:
            state.apply_action(random_step(state, rng))
    decisions = sum(1 for step in state.full_history() if step.player >= 0)
    assert len(state.history()) == decisions + 1 + shuffles
    assert shuffles >= 2


def test_sampled_shuffles_follow_the_game_seed() -> None:
    """The game draws its shuffles from random.Random(seed): two games loaded
    with the same seed deal alike, another seed deals otherwise (BA-12)."""
    def first_hand(seed: int) -> Any:
        game = pyspiel.load_game(BACK_ALLEY, {"max_hand_size": 5, "sampled_chance": 1,
                                              "seed": seed})
        state = game.new_initial_state()
        state.apply_action(0)
        state.apply_action(0)
        return state.cardrules_state.hand_indexes
    assert first_hand(11) == first_hand(11)
    assert first_hand(11) != first_hand(12)


def test_sampled_states_round_trip_with_their_shuffles() -> None:
    """A sampled state saves the orders its history cannot rebuild; a
    tampered or missing order is refused; pickle and deepcopy work too."""
    rng = random.Random(6)
    for game in (db_game(sampled_chance=1), ba_game(sampled_chance=1)):
        state = advance(game.new_initial_state(), rng, 40)
        sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        for original in (state, advance(sample.clone(), rng, 5)):
            for loaded in (game.deserialize_state(original.serialize()),
                           pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
                assert loaded.cardrules_state == original.cardrules_state
                assert loaded.history() == original.history()
                for seat in range(game.num_players()):
                    assert loaded.information_state_string(seat) == \
                        original.information_state_string(seat)
        history, moves, data = split_serialized(state.serialize())
        assert data["sampled"]
        at, order = data["sampled"][0]
        for sampled in ([], [[at, order[::-1][1:]]], [[at + 1, order]],
                        [[at, [*order[1:], order[0] ^ 1]]], [*data["sampled"], [at, order]]):
            with pytest.raises(ParseError):
                game.deserialize_state(join_serialized(history, moves,
                                                       {**data, "sampled": sampled}))


def test_both_chance_modes_cut_a_game_short_at_the_same_point() -> None:
    """BA-25: with max_throw_ins=0 the second deal thrown in ends the game, in
    both modes (the chance steps are counted card by card in both)."""
    for mode in (0, 1):
        game = ba_game(max_hand_size=1, max_throw_ins=0, sampled_chance=mode)
        state = game.new_initial_state()
        rng = random.Random(1)
        while not state.is_terminal():
            state.apply_action(random_step(state, rng) if state.is_chance_node()
                               else ba_encoding.action_id(back_alley.Pass()))
        assert state.cardrules_state.history.throw_ins == 1
        assert not state.cardrules_state.is_terminal


# -- returns a search can use ------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda **p: db_game(**p), lambda **p: ba_game(**p)])
@pytest.mark.parametrize("mode", [1, 2])
def test_zero_sum_returns_pass_random_sim_test(make: Any, mode: int) -> None:
    game = make(returns=mode)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    sampled = make(returns=mode, sampled_chance=1)
    assert sampled.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(sampled, num_sims=2, serialize=False, verbose=False)


def test_zero_sum_returns_are_each_return_minus_the_table_mean() -> None:
    """Back Alley (BA-40 to BA-43): half the margin between the teams;
    Down and Back (DB-43, DB-44): net chips with an unwon pot shared back
    among the seats that paid it in equal antes; normalised within the
    declared bounds."""
    setups: list[tuple[Any, dict[str, int], Any]] = [
        (ba_game, {"max_hand_size": 3}, back_alley.RULES),
        (db_game, {"num_players": 3, "rounds": 2}, down_and_back.RULES)]
    for make, params, rules in setups:
        games = [make(**params, returns=mode) for mode in (0, 1, 2)]
        for seed in range(6):
            states = [advance(game.new_initial_state(), random.Random(seed), 10 ** 6)
                      for game in games]
            raw = rules.returns(states[0].cardrules_state)
            n = len(raw)
            assert states[0].returns() == list(map(float, raw))
            margins = states[1].returns()
            assert sum(margins) == pytest.approx(0.0)
            if rules is back_alley.RULES:
                assert margins[0] == margins[2] == pytest.approx((raw[0] - raw[1]) / 2)
            else:
                pot = states[0].cardrules_state.pot
                assert margins == pytest.approx([net + pot / n for net in raw])
            spread = games[1].max_utility()
            assert games[1].min_utility() == -spread
            assert all(abs(m) <= spread for m in margins)
            assert states[2].returns() == pytest.approx([m / spread for m in margins])
            assert (games[2].min_utility(), games[2].max_utility()) == (-1.0, 1.0)
            rewards = [0.0] * n
            state = games[1].new_initial_state()
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply_action(random_step(state, rng))
                if not state.is_chance_node():
                    rewards = [a + b for a, b in zip(rewards, state.rewards(), strict=True)]
            assert rewards == pytest.approx(state.returns())


def test_zero_sum_bounds_follow_from_the_game_bounds() -> None:
    """(n - 1) / n of the game's spread of returns: Down and Back's is every
    other seat's antes (DB-30); Back Alley's 40 points a card each way (BA-41)."""
    db = db_game(num_players=4, ante=2, rounds=5, returns=1)
    assert (db.min_utility(), db.max_utility()) == (-30.0, 30.0)
    ba = ba_game(max_hand_size=2, returns=1)
    assert (ba.min_utility(), ba.max_utility()) == (-300.0, 300.0)   # deals of 2, 1, 2
    with pytest.raises(ValueError, match="'returns' is 0 to 2"):
        ba_game(returns=3)


def test_a_resampled_shuffle_in_progress_must_be_of_the_pile_being_shuffled() -> None:
    """Resampled mid-shuffle (DB-30: the whole deck is shuffled), the cards
    picked and the cards left must be that pile: one card both picked and
    left (and so one card of the pile in neither) is refused, though each
    list alone is a valid, ordered list of cards of the right length."""
    game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 2, "rounds": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(4):   # the first dealer, then three cards of the shuffle
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    state = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    history, moves, data = state.serialize().split("\n", 2)
    saved = pickle.loads(base64.b64decode(data[len("__dict__="):]))["_core"]
    fields = json.loads(saved.to_json())
    resample = fields["resamples"][0]
    assert len(resample["picked"]) == 3
    assert len(resample["picked"]) + len(resample["remaining"]) == 52

    def text(fields: dict[str, Any]) -> str:
        payload = base64.b64encode(pickle.dumps({"_core": _Raw(json.dumps(fields))})).decode()
        return f"{history}\n{moves}\n__dict__={payload}"

    assert game.deserialize_state(text(fields)).serialize() == state.serialize()
    twice = {**resample, "remaining": sorted([*resample["remaining"][1:],
                                              resample["picked"][0]])}
    with pytest.raises(ParseError, match="the shuffle in progress of a resample is not of"):
        game.deserialize_state(text({**fields, "resamples": [twice]}))


def test_a_down_and_back_game_cut_short_at_the_chance_cap_loads_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Down and Back game has no throw-ins; it is cut short only when a
    shuffle would pass the cap on chance steps (the adapter's bound for
    OpenSpiel, DB-36/DB-42 reshuffles).  Such a state says it is truncated and
    reads back as itself.  (The cap is lowered here so that the first shuffle
    already passes it; in real games only long runs of tie-break reshuffles
    do.)"""
    game = pyspiel.load_game("cardrules_down_and_back", {"num_players": 2, "rounds": 1})
    state = game.new_initial_state()
    spec = state._core.spec
    monkeypatch.setattr(spec, "max_chance_nodes", 10)
    state.apply_action(state.chance_outcomes()[0][0])     # the first dealer; then a shuffle
    assert state.is_terminal()
    text = state.serialize()
    loaded = game.deserialize_state(text)
    assert loaded.serialize() == text
    assert loaded.is_terminal()


# -- fixed deals, for duplicate play --------------------------------------------------------

def pass_all(state: Any) -> int:
    """Everyone passes: the deal is thrown in (BA-25)."""
    return int(ba_encoding.action_id(back_alley.Pass()))


def bid_first(state: Any) -> int:
    """The first bidder bids 1, so no deal is thrown in (BA-20, BA-21)."""
    ids = state.legal_actions()
    return int(ids[1] if state.cardrules_state.phase.value == "bid" else ids[0])


def dealt_hands(make: Any, player: Any, seed: int) -> list[tuple[int, int, Any]]:
    """(deal number, throw-ins of this deal so far, the hands dealt) of each deal."""
    state = make(fixed_deals=1, seed=seed).new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert len(outcomes) == 1
            assert outcomes[0][1] == 1.0
            state.apply_action(outcomes[0][0])
            inner = state.cardrules_state
            if not state.is_chance_node() and inner.phase.value == "bid":
                out.append((len(inner.history.results), inner.history.throw_ins,
                            inner.hand_indexes))
        else:
            state.apply_action(player(state))
    return out


@pytest.mark.parametrize("mode", [0, 1])
def test_fixed_deals_give_both_games_of_a_pair_the_same_cards(mode: int) -> None:
    """BA-12, BA-25: deal by deal the same hands whatever the play; a deal
    thrown in is dealt again the same way in every game that throws it in."""
    def make(**p: int) -> Any:
        return ba_game(max_hand_size=3, max_throw_ins=1, sampled_chance=mode, **p)
    calm = dealt_hands(make, bid_first, 5)
    passing = dealt_hands(make, pass_all, 5)
    assert [deal for deal, _, _ in calm] == [0, 1, 2, 3, 4]
    # The first deal, thrown in, then dealt again (and thrown in for good).
    assert passing[0][0] == calm[0][0]
    assert passing[0][2] == calm[0][2]
    assert passing[1][:2] == (0, 1)
    assert passing[1][2] != calm[1][2]
    def pass_once(state: Any) -> int:
        history = state.cardrules_state.history
        if not history.results and history.throw_ins == 0:
            return pass_all(state)
        return bid_first(state)
    once = dealt_hands(make, pass_once, 5)
    assert once[:2] == passing[:2]            # the same deal thrown in, dealt again alike
    # Later deals are the same hands, each at the same place from the dealer,
    # who has moved one seat on for the deal thrown in (BA-25).
    assert [hands[1:] + hands[:1] for _, _, hands in once[2:]] == \
        [hands for _, _, hands in calm[1:]]
    other = dealt_hands(make, bid_first, 6)
    assert other[0][2] != calm[0][2]


def test_fixed_deals_are_the_same_in_both_chance_modes_and_refuse_other_outcomes() -> None:
    hands = [dealt_hands(lambda mode=mode, **p: db_game(sampled_chance=mode, **p),
                         lambda state: random_step(state, random.Random(len(state.history()))),
                         9) for mode in (0, 1)]
    assert hands[0] == hands[1]
    state = db_game(fixed_deals=1, seed=9).new_initial_state()
    (outcome, _), = state.chance_outcomes()
    with pytest.raises(ValueError, match="the deals are fixed"):
        state.apply_action((outcome + 1) % 3)


@pytest.mark.parametrize("mode", [0, 1])
def test_fixed_deals_pass_random_sim_test(mode: int) -> None:
    for game in (db_game(fixed_deals=1, seed=3, sampled_chance=mode),
                 ba_game(fixed_deals=1, seed=3, sampled_chance=mode, returns=2)):
        pyspiel.random_sim_test(game, num_sims=3, serialize=mode == 0, verbose=False)
        state = advance(game.new_initial_state(), random.Random(1), 60)
        loaded = game.deserialize_state(state.serialize())
        assert loaded.cardrules_state == state.cardrules_state


def test_a_game_setting_may_not_take_the_name_of_an_adapter_parameter() -> None:
    clash = attrs.evolve(MINI, name="os_clash", limit_settings={"seed": 1})
    with pytest.raises(ValueError, match="seed is a parameter of the adapter"):
        openspiel.register_game(clash)
