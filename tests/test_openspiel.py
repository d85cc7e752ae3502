"""The OpenSpiel games of cardrules.integrations.openspiel (DB-31, DB-32, DB-36,
DB-43, DB-44, BA-11, BA-12, BA-25, BA-40 to BA-43)."""

from __future__ import annotations

import importlib
import math
import pickle
import random
import sys
from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from cardrules import back_alley, down_and_back  # noqa: E402
from cardrules.back_alley import encoding as ba_encoding  # noqa: E402
from cardrules.back_alley.actions import CARDS  # noqa: E402
from cardrules.cards import DECK  # noqa: E402
from cardrules.down_and_back import encoding as db_encoding  # noqa: E402
from cardrules.engine import ChooseDealer, Shuffle  # noqa: E402
from cardrules.integrations import openspiel  # noqa: E402

DB_SHORT = {"players": 3, "rounds": 2}
BA_SHORT = {"max_hand_size": 2}


def db_game(**params: int) -> Any:
    return pyspiel.load_game(openspiel.DOWN_AND_BACK, {**DB_SHORT, **params})


def ba_game(**params: int) -> Any:
    return pyspiel.load_game(openspiel.BACK_ALLEY, {**BA_SHORT, **params})


def random_step(state: Any, rng: random.Random) -> int:
    """One random action id (chance outcomes by their probabilities)."""
    if state.is_chance_node():
        outcomes, chances = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choices(outcomes, chances)[0])
    return int(rng.choice(state.legal_actions()))


# -- loading and parameters ----------------------------------------------------------

def test_both_games_load_by_name_with_their_parameters() -> None:
    db = pyspiel.load_game("cardrules_down_and_back(players=2,ante=3,rounds=4)")
    assert (db.num_players(), db.num_distinct_actions(), db.max_chance_outcomes()) == \
        (2, db_encoding.NUM_ACTIONS, 52)
    state = db.new_initial_state()
    assert state.cardrules_state.settings == down_and_back.GameSettings(2, 3, 4)
    ba = pyspiel.load_game("cardrules_back_alley")
    assert (ba.num_players(), ba.num_distinct_actions(), ba.max_chance_outcomes()) == \
        (4, ba_encoding.NUM_ACTIONS, 54)
    assert ba.new_initial_state().cardrules_state.settings == back_alley.Settings()
    assert ba.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert db.get_type().max_num_players == 5
    assert db.get_type().min_num_players == 2


def test_bounds_follow_from_the_settings() -> None:
    db = db_game(players=4, ante=2, rounds=5)
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
    ("cardrules_down_and_back", {"players": 6}),
    ("cardrules_down_and_back", {"rounds": 0}),
    ("cardrules_back_alley", {"max_hand_size": 14}),
    ("cardrules_back_alley", {"max_throw_ins": -1}),
])
def test_bad_parameters_are_refused(name: str, params: dict[str, int]) -> None:
    with pytest.raises(Exception, match=r"players|rounds|max_hand_size|max_throw_ins"):
        pyspiel.load_game(name, params)


@pytest.mark.parametrize("game_class", ["DownAndBackGame", "BackAlleyGame"])
@pytest.mark.parametrize("value", [2 ** 31, -(2 ** 31) - 1, 10 ** 12])
def test_parameters_beyond_a_cpp_int_are_refused_clearly(game_class: str, value: int) -> None:
    """OpenSpiel keeps every parameter in a C++ int: a value beyond it is a
    ValueError naming the parameter, not a TypeError from inside pyspiel.
    (pyspiel.load_game itself refuses such a value before the adapter runs.)"""
    cls = getattr(openspiel, game_class)
    for key in cls._defaults:
        with pytest.raises(ValueError, match=rf"parameter '{key}' .*C\+\+ int"):
            cls({key: value})


@pytest.mark.parametrize(("name", "params", "bound"), [
    (openspiel.BACK_ALLEY, {"max_throw_ins": 10 ** 9}, "max_chance_nodes_in_history"),
    (openspiel.BACK_ALLEY, {"max_throw_ins": 2 ** 31 - 1}, "max_chance_nodes_in_history"),
    (openspiel.BACK_ALLEY, {"max_hand_size": 1, "max_throw_ins": 37_675_151}, "max_move_number"),
    (openspiel.DOWN_AND_BACK, {"rounds": 10 ** 8}, "max_chance_nodes_in_history"),
    (openspiel.DOWN_AND_BACK, {"players": 5, "rounds": 7_134_498}, "max_move_number"),
    (openspiel.DOWN_AND_BACK, {"players": 2, "rounds": 2 ** 31 - 1},
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
    db = pyspiel.load_game(openspiel.DOWN_AND_BACK, {"players": 5, "rounds": 7_134_497})
    assert db.max_game_length() + db.max_chance_nodes_in_history() <= 2 ** 31 - 1
    ante = pyspiel.load_game(openspiel.DOWN_AND_BACK, {"ante": 2 ** 31 - 1, "rounds": 1})
    assert ante.max_utility() == 3.0 * (2 ** 31 - 1)
    ba = pyspiel.load_game(openspiel.BACK_ALLEY, {"max_throw_ins": 37_675_113})
    assert ba.max_game_length() + ba.max_chance_nodes_in_history() <= 2 ** 31 - 1


def test_a_missing_openspiel_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "cardrules.integrations.openspiel")
    with pytest.raises(ImportError, match=r'pip install "cardrules\[openspiel\]"'):
        importlib.import_module("cardrules.integrations.openspiel")


# -- OpenSpiel's own checks -----------------------------------------------------------

@pytest.mark.parametrize("game", [
    pytest.param(lambda: db_game(players=2, rounds=1), id="db-2"),
    pytest.param(lambda: db_game(players=5, rounds=1), id="db-5"),
    pytest.param(lambda: ba_game(), id="ba-short"),
])
def test_random_sim_test_passes(game: Any) -> None:
    pyspiel.random_sim_test(game(), num_sims=2, serialize=True, verbose=False)


# -- chance ---------------------------------------------------------------------------

def test_the_first_dealer_is_a_uniform_seat() -> None:
    """DB-31, BA-11: outcomes are the seats, each 1/n, as sample_chance's randrange(n)."""
    for game, n in ((db_game(players=5), 5), (ba_game(), 4)):
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
    play_both(db_game(players=4, rounds=2), seed=1)
    play_both(ba_game(max_hand_size=3), seed=2)


# -- returns and rewards ----------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda: db_game(players=4, rounds=3), lambda: ba_game()])
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
    state = db_game(players=2).new_initial_state()
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
    for game in (db_game(players=3), ba_game(max_hand_size=5)):
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
        assert all(s.cardrules_state.hands[seat] == state.cardrules_state.hands[seat]
                   for s in samples)


def test_serialization_round_trips() -> None:
    rng = random.Random(8)
    for game in (db_game(), ba_game()):
        state = advance(game.new_initial_state(), rng, 150)
        for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
            assert str(copy) == str(state)
            assert copy.history() == state.history()
            assert copy.cardrules_state == state.cardrules_state
            for seat in range(game.num_players()):
                assert copy.information_state_string(seat) == \
                    state.information_state_string(seat)
            assert copy.chance_outcomes() == state.chance_outcomes()
            assert copy.rewards() == state.rewards()


# -- search ---------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda: db_game(players=2, rounds=1), lambda: ba_game()])
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
    state = db_game(players=5, rounds=3).new_initial_state()
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
    game = db_game(players=2, rounds=3)
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
    from cardrules.back_alley.checks import known_absent

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
    pytest.param(lambda: db_game(players=2, rounds=1), 1, id="db-2"),
    pytest.param(lambda: db_game(players=5, rounds=1), 2, id="db-5"),
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
        if state.is_terminal():
            nodes["terminal"] += 1
            break
        if state.is_chance_node():
            nodes["mid-shuffle" if state._core.picked else "chance"] += 1
            if rng.random() < 0.05:   # a resample mid-shuffle finishes its shuffle
                sample = state.resample_from_infostate(state.num_players() - 1, sampler)
                while sample.is_chance_node():
                    sample.apply_action(random_step(sample, rng))
                module = (down_and_back if game.get_type().short_name == openspiel.DOWN_AND_BACK
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
