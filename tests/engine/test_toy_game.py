"""A game written outside cardrules gets every generic part through its ``Rules``
alone: the toy game of ``toy_game.py`` (high card, rules TOY-1 to
TOY-4), registered with :func:`cardrules.engine.register`, passes the
conformance checks, records and replays, OpenSpiel's ``random_sim_test``,
PettingZoo's ``api_test``, ``simulate`` and the ``cardrules`` command, and what
its ``RULES`` tells the adapters (events, encoding, returns, bounds, chance
piles) agrees with its rules and views.

The toy game lives in the ``support`` package (``tests/support/toy_game.py``),
which the documentation's page on adding a game includes.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Iterator, Sequence
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardrules import IllegalActionError, ParseError
from cardrules.cards import Card
from cardrules.engine import (
    Bot,
    ChooseDealer,
    GameRecord,
    RandomBot,
    Shuffle,
    check_game,
    games,
    play,
    registry,
    rules_for,
)
from support import toy_game
from support.toy_game import CARDS, RULES, Fold, State, Stay


def steps(settings: dict[str, int], seed: int) -> Iterator[tuple[State, Any, State]]:
    """Every step ``(before, action, after)`` of a random game."""
    rng = random.Random(seed)
    state = RULES.new_game_from_settings(settings)
    while not state.is_terminal:
        action = (RULES.sample_chance(state, rng) if state.is_chance
                  else rng.choice(RULES.legal_actions(state)))
        after = RULES.apply(state, action)
        yield state, action, after
        state = after


SETTINGS = [{"num_players": n, "ante": 1 + n % 2} for n in (2, 3, 4)]
SEEDS = range(12)


def cards_in(parts: Sequence[object] | None) -> set[Card]:
    return {part for part in parts or () if isinstance(part, Card)}


# -- works now: the registry, conformance, records, and what RULES gives the adapters --

def test_the_registry_finds_the_toy_game() -> None:
    assert rules_for("toy") is RULES
    assert "toy" in games()


def test_an_entry_point_finds_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """How another package ships a game: a ``cardrules.games`` entry point."""
    point = EntryPoint(name="toy", value="support.toy_game:RULES", group=registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "_REGISTERED", {})
    monkeypatch.setattr(registry, "entry_points", lambda group, name=None: [
        p for p in [point] if p.group == group and name in (None, p.name)])
    assert "toy" in games()
    assert rules_for("toy") is RULES


@pytest.mark.parametrize("settings", [None, *SETTINGS])
def test_check_game_passes(settings: dict[str, int] | None) -> None:
    """(a) The engine's conformance runs, over the game's own check_settings and
    over each table size."""
    report = check_game(RULES, games=30, seed=3, settings=settings)
    assert report.games == 30
    assert report.refused > report.actions  # the probes were tried, and refused


def test_a_played_game_records_and_replays() -> None:
    game = play(RULES, [RandomBot(5), RandomBot(6), RandomBot(7)], {"ante": 2}, seed=2)
    record = game.record
    assert record.game == "toy"
    assert record.rules is RULES
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record
    assert list(RULES.replay(record))[-1] == game.state
    assert record.to_text().splitlines()[-3:] == ["fold", "stay", "stay"]


def test_illegal_actions_name_their_rule() -> None:
    start = RULES.new_game_from_settings({"num_players": 2})
    cases: list[tuple[State, toy_game.Action, str]] = [
            (start, Stay(), "TOY-1"), (start, ChooseDealer(2), "TOY-1"),
            (RULES.apply(start, ChooseDealer(1)), Shuffle(CARDS[:7]), "TOY-2"),
            (RULES.apply(start, ChooseDealer(1)), ChooseDealer(0), "TOY-2")]
    for state, action, rule in cases:
        with pytest.raises(IllegalActionError) as err:
            RULES.apply(state, action)
        assert err.value.rule == rule
    dealt = RULES.apply(RULES.apply(start, ChooseDealer(1)), Shuffle(CARDS))
    assert dealt.current_player == 0
    with pytest.raises(IllegalActionError, match="TOY-3"):
        RULES.apply(dealt, Stay(), seat=1)
    with pytest.raises(IllegalActionError, match="TOY-3"):
        RULES.apply(dealt, Shuffle(CARDS))
    over = RULES.apply(RULES.apply(dealt, Fold()), Fold())
    with pytest.raises(IllegalActionError, match="TOY-4"):
        RULES.apply(over, Stay())


@pytest.mark.parametrize(("text", "message"), [
    ("hop", "unknown action (stay or fold): 'hop' at position 0"),
    ("  stay now", "nothing follows stay: 'now' at position 7"),
    ("shuffle KS KS", "a shuffle holds each card once: 'KS' at position 11"),
])
def test_bad_action_text_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError) as err:
        RULES.parse_action(text)
    assert str(err.value) == message
    assert RULES.parse_action(" STAY ") == Stay()


@pytest.mark.parametrize("data", [
    {"num_players": 2, "ante": 1, "dealer": 0, "hands": ["KS", "KS"], "stays": []},
    {"num_players": 2, "ante": 1, "dealer": 0, "hands": ["KS", "2S"], "stays": []},
    {"num_players": 2, "ante": 1, "dealer": None, "hands": ["KS", "QS"], "stays": []},
    {"num_players": 2, "ante": 1, "dealer": 0, "hands": ["KS", "QS"], "stays": [1]},
    {"num_players": 2, "ante": 1, "dealer": 2, "hands": [], "stays": []},
    {"num_players": 2, "ante": 1, "dealer": 0, "hands": [], "stays": [True]},
    {"num_players": 2, "ante": 1, "dealer": 0, "hands": [], "stays": [], "pot": 2},
])
def test_bad_state_json_is_a_parse_error(data: dict[str, object]) -> None:
    with pytest.raises(ParseError):
        RULES.state_from_dict(data)
    with pytest.raises(ParseError):
        RULES.action_from_dict({"type": "stay", "seat": 1})


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_events_tell_each_seat_no_card_its_view_hides(settings: dict[str, int],
                                                      seed: int) -> None:
    """What a seat learns of a step (``RULES.events``) names only cards its view of the
    state after the step shows: the information states and the narration built from
    the events cannot leak what the views keep hidden."""
    for before, action, after in steps(settings, seed):
        told = RULES.events(before, action, after)
        assert told
        for seat in range(after.num_players):
            seen = toy_game.view(after, seat)   # RULES.view is typed to give an object
            allowed = {seen.card, *seen.shown} - {None}
            for event in told:
                assert cards_in(event.seen_by(seat)) <= allowed, (action, event, seat)
                assert "None" not in (event.text_for(seat) or "")


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_encoding_agrees_with_the_rules_and_reads_only_the_view(
        settings: dict[str, int], seed: int) -> None:
    encoding = RULES.encoding
    assert encoding is not None
    rng = random.Random(seed)
    for state, _, _ in steps(settings, seed):
        legal = RULES.legal_actions(state)
        ids = encoding.legal_action_ids(state)
        assert ids == tuple(sorted(encoding.action_id(a, state) for a in legal))
        assert [encoding.action_from_id(state, n) for n in ids] == sorted(
            legal, key=encoding.action_id)
        assert all(0 <= n < encoding.num_actions for n in ids)
        for number in set(range(encoding.num_actions)) - set(ids):
            with pytest.raises(IllegalActionError):
                encoding.action_from_id(state, number)
        for seat in range(state.num_players):
            tensor = encoding.observation_tensor(state, seat)
            assert tensor.shape == (encoding.observation_size,)
            other = RULES.hidden_variant(state, seat, rng)
            assert (encoding.observation_tensor(other, seat) == tensor).all()
            assert encoding.observation_string(other, seat) == \
                encoding.observation_string(state, seat)
    assert sum(length for _, _, length in encoding.observation_layout) == \
        encoding.observation_size
    with pytest.raises(ValueError, match="only stay and fold"):
        encoding.action_id(ChooseDealer(0))


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_chance_piles_returns_and_bounds_agree_with_the_game(settings: dict[str, int],
                                                             seed: int) -> None:
    bounds = RULES.bounds
    assert bounds is not None
    limits = bounds(settings)
    decisions = chance_steps = 0
    for before, action, after in steps(settings, seed):
        if before.is_chance:
            pile = RULES.chance_pile(before)
            if isinstance(action, ChooseDealer):
                assert pile is None
                chance_steps += 1
            else:
                assert pile is not None
                assert {card.index for card in action.order} == {card.index for card in pile}
                assert set(pile) <= set(RULES.chance_cards)
                chance_steps += len(pile) - 1
        else:
            decisions += 1
        assert len(RULES.returns(after)) == after.num_players
    assert decisions <= limits.max_decisions
    assert chance_steps <= limits.max_chance_steps
    final = RULES.returns(after)
    assert sum(final) == 0
    assert all(limits.min_return <= value <= limits.max_return for value in final)
    indexes = [card.index for card in RULES.chance_cards]
    assert indexes == sorted(indexes)


@pytest.mark.parametrize("settings", SETTINGS)
def test_the_bounds_are_reached_when_everyone_stays(settings: dict[str, int]) -> None:
    bounds = RULES.bounds
    assert bounds is not None
    limits = bounds(settings)
    state = RULES.apply(RULES.new_game_from_settings(settings), ChooseDealer(0))
    state = RULES.apply(state, Shuffle(CARDS[::-1]))   # seat 1 gets the king of spades
    while not state.is_terminal:
        state = RULES.apply(state, Stay())
    final = RULES.returns(state)
    assert final[1] == limits.max_return
    assert min(final) == limits.min_return
    assert toy_game.winner(state) == 1


# -- (b) to (e): need the adapters, simulate and the command rewritten over Rules ---------

@pytest.fixture(scope="module")
def spiel_name() -> str:
    pytest.importorskip("pyspiel")
    from cardrules.integrations.openspiel import register_game

    return register_game(RULES)


@pytest.mark.parametrize("settings", SETTINGS)
def test_openspiel_random_sim_test_passes(settings: dict[str, int], spiel_name: str) -> None:
    """(b) ``register_game(RULES)``, then OpenSpiel's own test of a game."""
    import pyspiel

    assert spiel_name == "cardrules_toy"
    game = pyspiel.load_game("cardrules_toy", settings)
    bounds = RULES.bounds
    assert bounds is not None
    limits = bounds(settings)
    assert game.num_players() == settings["num_players"]
    assert game.num_distinct_actions() == 2
    assert (game.min_utility(), game.max_utility()) == (limits.min_return, limits.max_return)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_openspiel_plays_the_toy_game_as_apply_does(spiel_name: str) -> None:
    """A whole game through OpenSpiel ends with ``RULES.returns`` of the same game."""
    import pyspiel

    game = pyspiel.load_game(spiel_name, {"num_players": 3, "ante": 2})
    rng = random.Random(8)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choices(outcomes, chances)[0]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        final = state.cardrules_state
        assert final.is_terminal
        assert state.returns() == [float(value) for value in RULES.returns(final)]


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be",
                            "ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("settings", SETTINGS)
def test_pettingzoo_api_test_passes(settings: dict[str, int]) -> None:
    """(c) ``env(RULES, **settings)`` passes PettingZoo's own API and seed tests."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from cardrules.integrations.pettingzoo import env

    # Any: mypy would match the int settings against the keyword render_mode.
    settings_: dict[str, Any] = dict(settings)
    environment = env(RULES, **settings_)
    assert environment.metadata["name"] == "toy_v0"
    api_test(environment, num_cycles=100, verbose_progress=False)
    seed_test(lambda: env(RULES, **settings_), num_cycles=50)
    assert env("toy", **settings_).metadata["name"] == "toy_v0"


def test_simulate_plays_the_toy_game_the_same_for_the_same_seed() -> None:
    """(d) ``cardrules.simulate(RULES, ...)``: equal seeds, equal results, however the
    games are cut into chunks; the seats' totals are the returns of the games."""
    from cardrules import simulate
    from cardrules.simulation.run import game_seeds

    result = simulate(RULES, games=24, seed=9, settings={"num_players": 3}, workers=1)
    assert result == simulate(RULES, games=24, seed=9, settings={"num_players": 3},
                              workers=1, chunk_size=5)
    assert result == simulate("toy", games=24, seed=9, settings={"num_players": 3}, workers=1)
    assert result != simulate(RULES, games=24, seed=10, settings={"num_players": 3},
                              workers=1)
    assert result.games == 24
    assert [seat.games for seat in result.seats] == [24, 24, 24]
    totals = [0, 0, 0]
    for index in range(24):
        chance, bot_seeds = game_seeds(9, index, 3)
        game = play(RULES, [RandomBot(s) for s in bot_seeds], {"num_players": 3}, seed=chance)
        totals = [t + r for t, r in zip(totals, RULES.returns(game.state), strict=True)]
    assert [seat.total for seat in result.seats] == totals


def test_the_simulate_command_plays_the_toy_game(capsys: pytest.CaptureFixture[str]) -> None:
    """(d) ``cardrules simulate toy ...`` gives the result of ``simulate``."""
    from cardrules import simulate
    from cardrules.cli import main
    from cardrules.simulation import SimulationResult

    args = ["simulate", "toy", "--games", "12", "--seed", "4", "--players", "4",
            "--ante", "2", "--workers", "1", "--json", "-"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert SimulationResult.from_dict(data) == simulate(
        RULES, games=12, seed=4, settings={"num_players": 4, "ante": 2}, workers=1)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == data
    assert main(args[:-2]) == 0   # the tables
    out = capsys.readouterr().out
    assert "High card" in out
    assert "net chips" in out


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, answers: str,
        *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    from cardrules.cli import main

    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


class FirstMove:
    """The move typing 1 makes: the first one listed."""

    def act(self, view: object, legal: Sequence[Any]) -> Any:
        return legal[0]


HUMAN = ["play", "toy", "--players", "3", "--seed", "5", "--human", "0"]


@pytest.mark.parametrize("seed", range(4))
def test_a_person_plays_the_toy_game_through_piped_input(
        seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """(e) ``cardrules play toy --human 0``, typing 1 at every prompt: the game is the
    self-play game with a first-move bot at the person's seat, the transcript shows
    no card the person could not see, and the record replays."""
    path = tmp_path / "game.json"
    args = [*HUMAN[:5], str(seed), *HUMAN[6:], "--record", str(path)]
    status, out, err = run(capsys, monkeypatch, "1\n" * 10, *args)
    assert (status, err) == (0, "")
    record = GameRecord.load(path)
    assert record.rules is RULES
    bots: list[Bot] = [FirstMove(), RandomBot(seed + 1), RandomBot(seed + 2)]
    game = play(RULES, bots, {"num_players": 3}, seed=seed)
    assert game.record == record
    answered = [line for line in out.splitlines() if line.startswith("move> ")]
    assert answered == ["move> 1"]   # one decision each (TOY-3)
    shown = {card for seat, card in enumerate(game.state.hands)
             if seat == 0 or game.state.stayed(seat)}
    assert {Card.parse(c) for c in re.findall(r"\b[QK][SHDC]\b", out)} <= shown
    assert str(game.state.hands[0]) in out


def test_a_person_types_moves_in_the_game_notation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.txt"
    status, out, err = run(capsys, monkeypatch, "Stay\n", "play", "TOY", *HUMAN[2:],
                           "--record", str(path))
    assert (status, err) == (0, "")
    record = GameRecord.load(path)
    states = list(RULES.replay(record))
    mine = [a for s, a in zip(states, record.actions, strict=False)
            if not s.is_chance and s.current_player == 0]
    assert mine == [Stay()]
    assert out.count("move> ") == 1


def test_bots_play_the_toy_game_and_the_record_replays_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.txt"
    status, _, err = run(capsys, monkeypatch, "", "play", "toy", "--players", "4",
                         "--seed", "3", "--record", str(path))
    assert (status, err) == (0, "")
    record = GameRecord.load(path)
    final = list(RULES.replay(record))[-1]
    assert final.is_terminal
    status, out, _ = run(capsys, monkeypatch, "", "replay", "--summary", str(path))
    assert status == 0
    assert out.strip() == RULES.summarize(final)


def test_the_toy_rules_pickle() -> None:
    """Workers get a game by name or as pickled rules: every field of the toy's RULES
    is a module-level function (pickled by reference) or plain data."""
    import pickle

    copy = pickle.loads(pickle.dumps(RULES))
    assert attrs.astuple(copy, recurse=False) == attrs.astuple(RULES, recurse=False)


def test_importing_the_toy_game_does_not_import_numpy() -> None:
    """numpy is needed only for an observation vector, made on first use."""
    import subprocess

    code = (f"import sys; sys.path[:0] = {sys.path!r}; import support.toy_game as toy_game; "
            "assert 'numpy' not in sys.modules, 'numpy imported'; "
            "toy_game.RULES.encoding.observation_tensor(toy_game.new_game(), 0); "
            "assert 'numpy' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_advise_has_no_advice_for_a_game_of_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.cli import main

    assert main(["advise", "toy", "AS KS"]) == 2
    assert "advise has no advice for" in capsys.readouterr().err
