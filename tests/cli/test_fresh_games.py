"""``cardrules play`` deals a fresh game unless a seed is given, and says
which seed it drew; at the terminal a bare card plays it where that is its
only reading, and a split chosen by its number is shown before it is made."""

from __future__ import annotations

import io
import random
import re
import sys
from typing import Any

import pytest

from cardrules.cli import main
from cardrules.cli.human import _parse
from cardrules.engine.presenter import presenter_for
from cardrules.engine.registry import rules_for

SEED_LINE = re.compile(r"seed (\d+) \(drawn at random; --seed \1 plays this game again\)\n")


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         *args: str, answers: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_without_a_seed_each_game_is_fresh_and_its_seed_replays_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--lang", "en", "play", "back-alley", "--max-hand-size", "3", "--moves"]
    first = _run(capsys, monkeypatch, *args)
    second = _run(capsys, monkeypatch, *args)
    seeds = []
    for status, _, err in (first, second):
        assert status == 0
        found = SEED_LINE.fullmatch(err)
        assert found is not None, err
        seeds.append(found.group(1))
    assert seeds[0] != seeds[1]          # 1 chance in 10**9 of a false alarm
    assert first[1] != second[1]
    again = _run(capsys, monkeypatch, *args, "--seed", seeds[0])
    assert again == (0, first[1], "")    # the seed given: the same game, nothing said


def test_a_fresh_game_at_the_terminal_says_its_seed_before_the_first_deal(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = _run(capsys, monkeypatch, "--lang", "en", "play", "back-alley",
                            "--max-hand-size", "1", "--human", "0", answers="1\n" * 20)
    assert status == 0
    assert SEED_LINE.fullmatch(err)
    assert "game over" in out


@pytest.mark.parametrize("lang", ["en", "ja", "uk"])
def test_the_help_says_the_seed_is_fresh_unless_given(
        lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit):
        _run(capsys, monkeypatch, "--lang", lang, "play", "--help")
    out = capsys.readouterr().out
    text = " ".join(out.split())
    assert {"en": "default: a fresh one", "ja": "新しく引いた", "uk": "типово: нове"}[lang] in text


def _to_play(game: str, seed: int) -> tuple[Any, int]:
    """A state where a seat plays or discards a card (after the chance, bids, cut
    and draw before it, made at random)."""
    rules = rules_for(game)
    rng = random.Random(seed)
    state = rules.new_game_from_settings({"max_hand_size": 5} if game == "back_alley"
                                         else {"num_players": 2})
    while True:
        if state.is_chance:
            state = rules.apply(state, rules.sample_chance(state, rng))
            continue
        legal = [str(a) for a in rules.legal_actions(state)]
        if any(a.startswith(("play ", "discard ")) for a in legal):
            return state, state.current_player
        state = rules.apply(state, rng.choice(rules.legal_actions(state)),
                            seat=state.current_player)


@pytest.mark.parametrize("game", ["back_alley", "down_and_back"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ba31_db34_a_bare_card_is_the_one_move_that_names_it(
        game: str, seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    rules = rules_for(game)
    state, seat = _to_play(game, seed)
    legal = rules.legal_actions(state)
    show = presenter_for(rules, seat)
    for action in legal:
        verb, card = str(action).split()
        for typed in (card, card.lower(), card.replace("T", "10")):
            assert _parse(rules, show, state, seat, legal, typed) == action
    # A card held but not playable now is refused with the rule's reason.
    view: Any = rules.view(state, seat)
    held = [str(c) for c in view.hand]
    refused = [c for c in held if f"{verb} {c}" not in map(str, legal)]
    capsys.readouterr()
    for card in refused:
        assert _parse(rules, show, state, seat, legal, card) is None
        said = capsys.readouterr().out
        assert said.startswith("not allowed now: BA-3"), said


def test_db40_a_split_chosen_by_number_is_shown_and_made_only_when_confirmed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--lang", "en", "play", "down-and-back", "--players", "2", "--rounds", "1",
            "--seed", "3", "--human", "1"]
    # "1" at every turn, then at the split "1", "table" (not a confirmation: the
    # table again), "2", "2": the second split is made, not the first.
    answers = "1\n" * 13 + "1\ntable\n2\n2\n" + "1\n" * 20
    status, out, _ = _run(capsys, monkeypatch, *args, answers=answers)
    assert status == 0
    shown = re.findall(r"^move (\d+) is: (split .*)$", out, flags=re.MULTILINE)
    assert [number for number, _ in shown] == ["1", "2"]
    made = re.search(r"^you split (.*)$", out, flags=re.MULTILINE)
    assert made is not None
    assert f"split {made.group(1)}" == shown[1][1]
