"""The game-independent engine: Rules methods, the registry, self-play and bots."""

from __future__ import annotations

import inspect
import itertools
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

import attrs
import pytest

import cardrules.back_alley as ba
import cardrules.down_and_back as db
from cardrules.engine import (
    GameRecord,
    RandomBot,
    Rules,
    games,
    play,
    register,
    registry,
    rules_for,
)
from cardrules.engine.records import Seated
from cardrules.engine.registry import display_name, display_names
from cardrules.engine.selfplay import steps
from cardrules.errors import IllegalActionError, ParseError

A = TypeVar("A")


# ---------------------------------------------------------------------------
# Rules: settings, legality, records and replay


def test_settings_left_out_take_the_game_defaults() -> None:
    state = db.RULES.new_game_from_settings({"num_players": 3})
    assert db.RULES.settings_of(state) == {"num_players": 3, "ante": 1, "rounds": 10}
    state = db.RULES.new_game_from_settings({"num_players": 2, "rounds": None, "ante": 4})
    assert db.RULES.settings_of(state) == {"num_players": 2, "ante": 4, "rounds": None}
    assert ba.RULES.new_game_from_settings({}) == ba.new_game()


def test_unknown_settings_are_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"\Aunknown Back Alley setting 'rounds' "
                                         r"\(known: max_hand_size\)\Z"):
        ba.RULES.new_game_from_settings({"rounds": 3})


@pytest.mark.parametrize("value", [True, 2.0, "3"])
def test_setting_values_are_whole_numbers_or_null(value: Any) -> None:
    with pytest.raises(ValueError, match=r"\Asetting 'ante' must be a whole number or null, "
                                         rf"not {value!r}\Z"):
        db.RULES.new_game_from_settings({"num_players": 2, "ante": value})


def test_is_chance_due_follows_the_state() -> None:
    state = ba.new_game()
    assert ba.RULES.is_chance_due(state)
    state = ba.apply(ba.apply(state, ba.ChooseDealer(0)), ba.Shuffle(ba.actions.CARDS))
    assert not ba.RULES.is_chance_due(state)


def test_is_legal_agrees_with_apply() -> None:
    state = ba.apply(ba.apply(ba.new_game(), ba.ChooseDealer(0)), ba.Shuffle(ba.actions.CARDS))
    legal = ba.legal_actions(state)
    seat = state.current_player
    assert seat is not None
    assert all(ba.RULES.is_legal(state, action) for action in legal)
    assert all(ba.RULES.is_legal(state, action, seat=seat) for action in legal)
    assert not ba.RULES.is_legal(state, ba.Bid(13))  # more than hand size - 1 (BA-21)
    assert not ba.RULES.is_legal(state, ba.ChooseDealer(1))
    assert not ba.RULES.is_legal(state, legal[0], seat=(seat + 1) % 4)


def test_is_legal_lets_other_errors_through() -> None:
    with pytest.raises(TypeError):
        ba.RULES.is_legal(ba.new_game(), "dealer 0")  # type: ignore[arg-type]


def test_record_holds_the_settings_of_the_state_and_the_actions() -> None:
    state = db.new_game(3, ante=2, rounds=4)
    record = db.RULES.record(state, [db.ChooseDealer(2)])
    assert record == GameRecord("down_and_back", {"num_players": 3, "ante": 2, "rounds": 4},
                                (db.ChooseDealer(2),))


def test_replay_yields_every_state() -> None:
    game = ba.RULES.play([RandomBot(seed) for seed in range(4)], {"max_hand_size": 2}, seed=3)
    states = list(ba.RULES.replay(game.record))
    assert len(states) == len(game.record.actions) + 1
    assert states[0] == ba.new_game(max_hand_size=2)
    assert states[-1] == game.state
    first = game.record.actions[0]
    assert isinstance(first, ba.ChooseDealer)
    assert states[1].dealer == first.seat


def test_replay_refuses_another_games_record() -> None:
    record = GameRecord("down_and_back", {"num_players": 2}, ())
    with pytest.raises(ValueError, match=r"\Anot a Back Alley record: 'down_and_back'\Z"):
        next(ba.RULES.replay(record))


def test_replay_names_the_illegal_action_by_its_number() -> None:
    record = GameRecord("back_alley", {}, (ba.ChooseDealer(1), ba.ChooseDealer(2)))
    states = ba.RULES.replay(record)
    assert next(states).dealer is None
    assert next(states).dealer == 1
    with pytest.raises(IllegalActionError) as caught:
        next(states)
    assert caught.value.message.startswith("action 2 (dealer 2): ")
    assert caught.value.rule.startswith("BA-")


def test_replay_names_the_action_of_other_library_errors() -> None:
    def refuse(state: Any, action: Any, *, seat: int | None = None) -> Any:
        if isinstance(action, ba.Shuffle):
            raise ParseError("no shuffles today")
        return ba.apply(state, action, seat=seat)

    rules = attrs.evolve(ba.RULES, apply=refuse)
    record = GameRecord("back_alley", {}, (ba.ChooseDealer(1), ba.Shuffle(ba.actions.CARDS[:2])))
    with pytest.raises(ParseError, match=r"\Aaction 2 \(shuffle AS AH\): no shuffles today\Z"):
        list(rules.replay(record))


def test_replay_keeps_the_token_and_position_of_a_parse_error() -> None:
    def refuse(state: Any, action: Any, *, seat: int | None = None) -> Any:
        if isinstance(action, ba.Shuffle):
            raise ParseError("not a card here", token="1X", position=6)
        return ba.apply(state, action, seat=seat)

    rules = attrs.evolve(ba.RULES, apply=refuse)
    record = GameRecord("back_alley", {}, (ba.ChooseDealer(1), ba.Shuffle(ba.actions.CARDS[:2])))
    with pytest.raises(ParseError) as caught:
        list(rules.replay(record))
    err = caught.value
    assert (err.token, err.position, err.token_length) == ("1X", 6, 2)
    assert err.message == "action 2 (shuffle AS AH): not a card here"
    assert str(err) == "action 2 (shuffle AS AH): not a card here: '1X' at position 6"


def _bad_records() -> list[tuple[GameRecord, type[Exception], str]]:
    return [
        (GameRecord("down_and_back", {"num_players": 2}, ()), ValueError,
         r"\Anot a Back Alley record: 'down_and_back'\Z"),
        (GameRecord("back_alley", {"max_hand_size": 0}, ()), ValueError, "max_hand_size"),
        (GameRecord("back_alley", {"rounds": 3}, ()), ValueError,
         r"\Aunknown Back Alley setting 'rounds'"),
        (GameRecord("back_alley", {}, (ba.ChooseDealer(0), Seated(4, ba.Pass()))), ValueError,
         r"\Aaction 2 \(seat 4: pass\): there is no seat 4 at a table of 4\Z"),
    ]


@pytest.mark.parametrize("number", range(4))
def test_replay_checks_the_record_when_called_not_on_the_first_next(number: int) -> None:
    record, error, message = _bad_records()[number]
    with pytest.raises(error, match=message):
        ba.RULES.replay(record)   # no next(): the call itself refuses the record
    if record.game == "back_alley":   # the record's own replay is the same replay
        with pytest.raises(error, match=message):
            record.replay()


def test_replay_refuses_what_is_not_a_record_at_once() -> None:
    with pytest.raises(TypeError, match=r"\Areplay takes a GameRecord, not str\Z"):
        ba.RULES.replay("game.json")  # type: ignore[arg-type]


def test_record_replay_is_rules_replay() -> None:
    game = ba.RULES.play([RandomBot(seed) for seed in range(4)], {"max_hand_size": 1}, seed=2)
    assert list(game.record.replay()) == list(ba.RULES.replay(game.record))
    with pytest.raises(ParseError, match="unknown game"):
        GameRecord("go_fish", {}, ()).replay()


def test_replay_still_applies_the_actions_lazily() -> None:
    record = GameRecord("back_alley", {}, (ba.ChooseDealer(1), ba.ChooseDealer(2)))
    states = ba.RULES.replay(record)   # the second action is illegal, found on its turn
    assert [next(states).dealer, next(states).dealer] == [None, 1]
    with pytest.raises(IllegalActionError, match="action 2"):
        next(states)


# ---------------------------------------------------------------------------
# the registry


def test_rules_for_finds_both_games() -> None:
    assert rules_for("down_and_back") is db.RULES
    assert rules_for("back_alley") is ba.RULES
    assert games()[:2] == ("back_alley", "down_and_back")
    assert games() == tuple(sorted(games()))


@pytest.mark.parametrize("name", [None, 3, b"back_alley", ["back_alley"]])
def test_a_game_name_is_text(name: Any) -> None:
    with pytest.raises(ParseError) as caught:
        rules_for(name)
    assert (caught.value.message, caught.value.token) == ("a game name is text", repr(name))


@pytest.mark.parametrize("name", ["go fish", "back alley", "", "engine", "cards"])
def test_unknown_games_are_parse_errors_listing_the_games(name: str) -> None:
    with pytest.raises(ParseError) as caught:
        rules_for(name)
    assert caught.value.token == name
    assert str(caught.value.message).startswith(
        "unknown game (choose from down-and-back, back-alley")


@pytest.mark.parametrize("name", ["Back_Alley", "back-alley", "BACK-ALLEY", " back_alley "])
def test_a_game_name_is_read_in_any_case_with_dashes_or_underscores(name: str) -> None:
    assert rules_for(name) is ba.RULES


def test_rules_pass_through_and_display_names_use_dashes() -> None:
    assert rules_for(ba.RULES) is ba.RULES
    assert display_name("down_and_back") == display_name(db.RULES) == "down-and-back"
    assert display_names()[:2] == ("down-and-back", "back-alley")


def test_a_game_registered_with_capitals_is_found_by_any_spelling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    toy = register(attrs.evolve(ba.RULES, name="Toy-Alley"))
    assert rules_for("toy_alley") is rules_for("TOY-ALLEY") is toy
    assert "Toy-Alley" in display_names()


def test_a_registered_game_is_found_and_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    toy = attrs.evolve(ba.RULES, name="toy_alley")
    assert register(toy) is toy
    assert rules_for("toy_alley") is toy
    assert "toy_alley" in games()


@attrs.frozen
class FakeEntryPoint:
    name: str
    value: Any

    def load(self) -> Any:
        return self.value


def test_games_are_found_through_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = attrs.evolve(ba.RULES, name="toy_entry")
    points = [FakeEntryPoint("toy_entry", toy)]

    def entry_points(*, group: str, name: str | None = None) -> list[FakeEntryPoint]:
        assert group == "cardrules.games"
        return [p for p in points if name is None or p.name == name]

    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    monkeypatch.setattr(registry, "entry_points", entry_points)
    assert "toy_entry" in games()
    assert rules_for("toy_entry") is toy
    assert registry._REGISTERED["toy_entry"] is toy   # loaded once, then registered


def test_a_built_in_game_that_cannot_be_imported_is_not_listed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "BUILT_IN", (*registry.BUILT_IN, "no_such_game"))
    assert "no_such_game" not in games()
    assert {"back_alley", "down_and_back"} <= set(games())
    with pytest.raises(ImportError):
        rules_for("no_such_game")


def test_built_in_games_are_imported_on_first_use() -> None:
    code = ("import sys\n"
            "from cardrules.engine.registry import rules_for\n"
            "assert 'cardrules.back_alley' not in sys.modules\n"
            "print(rules_for('back_alley').title)\n"
            "print('cardrules.back_alley' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.split("\n") == ["Back Alley", "True", ""]


# ---------------------------------------------------------------------------
# self-play and bots


class Spy:
    """A random bot that remembers which seat each view it was shown belongs to."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.seats: set[int] = set()
        self.calls = 0

    def act(self, view: object, legal: Sequence[A]) -> A:
        self.seats.add(view.seat)  # type: ignore[attr-defined]
        self.calls += 1
        return self.bot.act(view, legal)


def test_play_shows_each_bot_only_its_own_seat() -> None:
    spies = [Spy(seed) for seed in range(3)]
    game = play(db.RULES, spies, {"rounds": 1}, seed=2)
    assert [spy.seats for spy in spies] == [{0}, {1}, {2}]
    states = list(db.RULES.replay(game.record))[:-1]
    moves = len([state for state in states if not state.is_chance])
    assert sum(spy.calls for spy in spies) == moves


def test_play_takes_the_number_of_players_from_the_bots() -> None:
    settings = {"rounds": 1}
    game = play(db.RULES, [RandomBot(1), RandomBot(2), RandomBot(3)], settings, seed=1)
    assert game.state.num_players == 3
    assert game.record.settings_dict == {"num_players": 3, "ante": 1, "rounds": 1}
    assert settings == {"rounds": 1}   # the caller's settings are left alone


def test_play_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match=r"\ADown and Back needs 2 bots here, not 3\Z"):
        play(db.RULES, [RandomBot(1)] * 3, {"num_players": 2, "rounds": 1})
    with pytest.raises(ValueError, match=r"\ABack Alley needs 4 bots here, not 3\Z"):
        play(ba.RULES, [RandomBot(1)] * 3)


def test_play_is_decided_by_the_seeds() -> None:
    def game(seed: int, bot_seed: int) -> GameRecord:
        bots = [RandomBot(bot_seed + seat) for seat in range(4)]
        return play(ba.RULES, bots, {"max_hand_size": 3}, seed=seed).record

    assert game(1, 10) == game(1, 10)
    assert game(1, 10) != game(2, 10)
    assert game(1, 10) != game(1, 20)


def test_play_gives_the_record_that_replays_to_the_final_state() -> None:
    game = play(ba.RULES, [RandomBot(seed) for seed in range(4)], {"max_hand_size": 2}, seed=5)
    assert game.state.is_terminal
    assert list(game.record.replay())[-1] == game.state
    assert ba.RULES.play([RandomBot(seed) for seed in range(4)], {"max_hand_size": 2},
                         seed=5) == game


def test_max_actions_stops_a_game_that_goes_on() -> None:
    def bots() -> list[RandomBot]:
        return [RandomBot(seed) for seed in range(2)]

    length = len(play(db.RULES, bots(), {"rounds": 1}, seed=7).record.actions)
    assert play(db.RULES, bots(), {"rounds": 1}, seed=7, max_actions=length).state.is_terminal
    with pytest.raises(RuntimeError, match=rf"\Athe game did not end within {length - 1} "
                                           r"actions\Z"):
        play(db.RULES, bots(), {"rounds": 1}, seed=7, max_actions=length - 1)
    with pytest.raises(RuntimeError, match="did not end within 300 actions"):
        play(db.RULES, bots(), {"rounds": None}, seed=7, max_actions=300)


def test_random_bot_needs_a_choice() -> None:
    with pytest.raises(ValueError, match="no legal action to choose from"):
        RandomBot(1).act(None, [])
    assert RandomBot(1).act(None, ("only",)) == "only"


def test_random_bot_is_seeded_and_reaches_every_choice() -> None:
    choices = list(range(5))
    first = [RandomBot(3).act(None, choices) for _ in range(3)]
    assert len(set(first)) == 1
    bot = RandomBot(4)
    picks = Counter(bot.act(None, choices) for _ in range(5000))
    assert set(picks) == set(choices)
    assert all(800 < n < 1200 for n in picks.values()), picks


@pytest.mark.parametrize("rules", [db.RULES, ba.RULES])
def test_rules_objects_are_frozen_slotted_and_compare_by_identity(rules: Any) -> None:
    assert not hasattr(rules, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.title = "Go Fish"
    copy = attrs.evolve(rules)
    assert copy != rules   # the same functions, but another game object
    assert {rules: 1, copy: 2}[rules] == 1


def test_a_played_game_is_frozen_and_slotted() -> None:
    game = play(ba.RULES, [RandomBot(seed) for seed in range(4)], {"max_hand_size": 1}, seed=1)
    assert not hasattr(game, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.state = ba.new_game()  # type: ignore[misc]


# ---------------------------------------------------------------------------
# one game loop: steps, play, Rules.play and each game's play_game


def test_steps_is_the_loop_play_goes_through() -> None:
    def bots() -> list[RandomBot]:
        return [RandomBot(seed) for seed in range(4)]

    walked = list(steps(ba.RULES, bots(), {"max_hand_size": 2}, seed=6))
    game = play(ba.RULES, bots(), {"max_hand_size": 2}, seed=6)
    assert tuple(step.action for step in walked) == game.record.actions
    assert walked[0].before == ba.new_game(max_hand_size=2)
    assert walked[-1].after == game.state
    assert all(a.after == b.before for a, b in itertools.pairwise(walked))
    for step in walked:
        assert step.seat == step.before.current_player
        assert (step.seat is None) == step.before.is_chance
        assert step.after == ba.apply(step.before, step.action, seat=step.seat)


def test_steps_checks_the_table_when_called() -> None:
    with pytest.raises(ValueError, match=r"\ABack Alley needs 4 bots here, not 2\Z"):
        steps(ba.RULES, [RandomBot(1), RandomBot(2)])   # no next()
    with pytest.raises(ValueError, match="unknown Down and Back setting 'deals'"):
        steps(db.RULES, [RandomBot(1), RandomBot(2)], {"deals": 3})
    loop = steps(db.RULES, [RandomBot(1), RandomBot(2)], {"rounds": None}, seed=1,
                 max_actions=5)
    assert len([next(loop) for _ in range(5)]) == 5
    with pytest.raises(RuntimeError, match=r"\Athe game did not end within 5 actions\Z"):
        next(loop)


def test_play_game_has_one_signature_in_both_games() -> None:
    shapes = [[(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]
              for f in (db.play_game, ba.play_game)]
    assert shapes[0] == shapes[1]
    assert [name for name, *_ in shapes[0]] == ["bots", "seed", "max_actions", "settings"]
    rules = inspect.signature(db.RULES.play).parameters
    assert list(rules) == ["bots", "settings", "seed", "max_actions"]


@pytest.mark.parametrize(("module", "seats", "settings"), [
    (db, 3, {"ante": 2, "rounds": 2}), (ba, 4, {"max_hand_size": 2})])
def test_play_game_rules_play_and_engine_play_play_the_same_game(
        module: Any, seats: int, settings: dict[str, int]) -> None:
    def bots() -> list[RandomBot]:
        return [RandomBot(10 + seat) for seat in range(seats)]

    game = play(module.RULES, bots(), settings, seed=4)
    assert module.RULES.play(bots(), settings, seed=4) == game
    assert module.play_game(bots(), seed=4, **settings) == game
    length = len(game.record.actions)
    with pytest.raises(RuntimeError, match=f"within {length - 1} actions"):
        module.play_game(bots(), seed=4, max_actions=length - 1, **settings)
    with pytest.raises(ValueError, match=f"unknown {module.RULES.title} setting 'players'"):
        module.play_game(bots(), players=seats)


# ---------------------------------------------------------------------------
# the two game packages offer the same kinds of names under the same names

#: Names both game packages export (each the same kind of thing in both).
SHARED_NAMES = {
    "RULES", "MIN_PLAYERS", "MAX_PLAYERS", "apply", "is_legal", "legal_actions",
    "new_game", "play_game", "sample_chance", "Action", "ChooseDealer", "Shuffle",
    "action_from_dict", "action_to_dict", "parse_action", "GameState", "History", "Phase",
    "Settings", "summarize", "View", "determinize", "state_from_dict",
    "state_to_dict", "view", "view_to_dict", "SearchBot"}
#: What RULES carries and the packages do not export a second time.
THROUGH_RULES = {
    "chance_pile", "events", "returns", "check_invariants", "hidden_variant", "probe_actions",
    "NUM_ACTIONS", "OBSERVATION_LAYOUT", "OBSERVATION_SIZE", "action_from_id", "action_id",
    "legal_action_ids", "observation_string", "observation_tensor"}


def test_both_game_packages_export_the_same_shared_names() -> None:
    assert set(db.__all__) & set(ba.__all__) == SHARED_NAMES
    for module in (db, ba):
        rules = module.RULES
        for field in ("apply", "legal_actions", "new_game", "sample_chance",
                      "parse_action", "action_to_dict", "action_from_dict", "view",
                      "state_to_dict", "state_from_dict", "summarize"):
            assert getattr(module, field) is getattr(rules, field), (module.__name__, field)
        assert rules.bots["search"] is module.SearchBot
        assert module.MIN_PLAYERS <= module.MAX_PLAYERS
    assert (db.MIN_PLAYERS, db.MAX_PLAYERS) == (2, 5)
    assert ba.MIN_PLAYERS == ba.MAX_PLAYERS == ba.NUM_PLAYERS == 4


@pytest.mark.parametrize("module", [db, ba])
def test_each_package_docstring_points_to_its_names_and_exports_none_through_rules(
        module: Any) -> None:
    # The docstring says what the game is, with an example; it does not repeat
    # __all__ but names the page that lists every name.
    doc = module.__doc__
    page = module.__name__.rsplit(".", 1)[1]
    assert ":doc:`/api/index`" in doc
    assert f":doc:`/api/{page}`" in doc
    assert ">>> " in doc
    assert not THROUGH_RULES & set(module.__all__)
    assert not {name for name in THROUGH_RULES if callable(getattr(module, name, None))}


def test_replay_reads_a_seatless_split_made_out_of_turn_as_the_one_seat_it_fits() -> None:
    # Older Down and Back records keep splits without a seat: a split of
    # the seat after the one to act is made by the only seat whose cards it fits.
    from cardrules.down_and_back import RULES as DB

    game = DB.play([RandomBot(0), RandomBot(1)], {"num_players": 2, "rounds": 1}, seed=3)
    actions = list(game.record.actions)
    first = next(k for k, state in enumerate(DB.replay(game.record))
                 if state.phase.value == "split")
    actions[first], actions[first + 1] = actions[first + 1], actions[first]
    swapped = GameRecord(game.record.game, dict(game.record.settings), tuple(actions))
    assert list(DB.replay(swapped))[-1] == game.state


def test_rules_check_their_default_settings_unless_told_which() -> None:
    from support import toy_game

    given: dict[str, Any] = {str(field.alias): getattr(toy_game.RULES, field.name)
             for field in attrs.fields(Rules) if field.init and field.name != "check_settings"}
    rules = Rules(**given)
    assert rules.check_settings == (rules.default_settings,)
