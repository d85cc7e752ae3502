"""cardrules play --human: whole games of both games driven through standard input."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cardrules.cli import main
from cardrules.engine import GameRecord, play
from cardrules.engine.rules import Rules

#: Short games of each game: (command-line arguments, the person's seat).
GAMES = {
    "down-and-back": ["down-and-back", "--players", "3", "--rounds", "1", "--seed", "7"],
    "back-alley": ["back-alley", "--max-hand-size", "2", "--seed", "3"],
}
CARD = re.compile(r"\b(?:[A2-9TJQK][SHDC]|BB|LB)\b")


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, answers: str,
        *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def play_ones(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
              game: str, seat: int, path: Path) -> tuple[int, str, str]:
    """Play a whole game answering "1" at every prompt; record it at ``path``."""
    return run(capsys, monkeypatch, "1\n" * 400, "play", *GAMES[game], "--human", str(seat),
               "--record", str(path))


def prompts(out: str) -> list[str]:
    """The answers as echoed after each prompt."""
    return [line.removeprefix("move> ") for line in out.splitlines()
            if line.startswith("move> ")]


class FirstMove:
    """A bot that always takes the first legal move (what typing 1 does)."""

    def act(self, view: object, legal: Sequence[Any]) -> Any:
        return legal[0]


# -- whole games ------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "seat"), [("down-and-back", 0), ("down-and-back", 2),
                                            ("back-alley", 1)])
def test_typing_1_plays_the_game_to_the_end_like_replaying_its_record(
        game: str, seat: int, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    status, out, err = play_ones(capsys, monkeypatch, game, seat, path)
    assert (status, err) == (0, "")
    assert out.endswith(f"record written to {path}\n")
    record = GameRecord.load(path)
    *_, final = record.rules.replay(record)
    assert final.is_terminal
    status, summary, _ = run(capsys, monkeypatch, "", "replay", "--summary", str(path))
    assert status == 0
    assert f"game over\n{summary}" in out  # the final result is the record's
    # Every prompt was answered, and each answer was one of the person's moves.
    states = list(record.rules.replay(record))
    mine = [s for s in states[:-1] if not s.is_chance and s.current_player == seat]
    # A split chosen by its number is shown, then made when the number is typed again.
    splits = [s for s in mine if str(record.rules.legal_actions(s)[0]).startswith("split ")]
    assert out.count("again (or y) to make it") == len(splits)
    assert prompts(out) == ["1"] * (len(mine) + len(splits))
    assert out.count("\nmoves:\n") == len(mine)


@pytest.mark.parametrize("game", list(GAMES))
def test_default_bots_and_seeds_with_a_person(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat s gets the game's stronger bot seeded seed + s; chance is seeded as without
    --human, so the game equals a self-play game with a first-move bot in the seat."""
    path = tmp_path / "game.json"
    assert play_ones(capsys, monkeypatch, game, 1, path)[0] == 0
    record = GameRecord.load(path)
    rules: Rules[Any, Any] = record.rules
    seed = int(GAMES[game][-1])
    kind = {"down-and-back": "greedy", "back-alley": "heuristic"}[game]
    seats = rules.new_game_from_settings(record.settings_dict).num_players
    bots = [FirstMove() if s == 1 else rules.bots[kind](seed + s) for s in range(seats)]
    assert play(rules, bots, record.settings_dict, seed=seed).record == record


@pytest.mark.parametrize("game", list(GAMES))
def test_moves_typed_in_text_notation_play_the_same_game(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = tmp_path / "numbers.json"
    play_ones(capsys, monkeypatch, game, 0, first)
    record = GameRecord.load(first)
    states = list(record.rules.replay(record))
    typed = [str(action).upper() if k % 2 else str(action)
             for k, (state, action) in enumerate(zip(states, record.actions, strict=False))
             if not state.is_chance and state.current_player == 0]
    second = tmp_path / "text.json"
    status, out, _ = run(capsys, monkeypatch, "\n".join(typed) + "\n", "play", *GAMES[game],
                         "--human", "0", "--record", str(second))
    assert status == 0
    assert prompts(out) == typed
    assert GameRecord.load(second) == record


def test_the_transcript_tells_the_public_moves_and_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = play_ones(capsys, monkeypatch, "down-and-back", 1, tmp_path / "g.json")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Down and Back: 3 players, you are seat 1; type 'help' for help"
    assert lines[1] == "the other seats: seat 0 GreedyBot, seat 2 GreedyBot"
    assert re.fullmatch(r"chance: (seat \d deals|you deal) first \(DB-31\)", lines[2])
    assert any(re.fullmatch(r"seat [02] discards [A2-9TJQK][SHDC]", line) for line in lines)
    assert any(re.fullmatch(r"you discard [A2-9TJQK][SHDC]", line) for line in lines)
    assert "round 1 showdown (DB-40 to DB-43):" in lines
    assert any(line.startswith("  net: ") for line in lines)
    assert "best splits (no other split is as strong in both hands):" in lines
    assert re.search(r"^you \(seat 1\) finish with net [+-]\d+: you (win|lose|share the lead)$",
                     out, flags=re.MULTILINE)


# -- what the person may see ----------------------------------------------------------------

def _hidden(rules: Rules[Any, Any], state: Any, seat: int) -> set[str]:
    """The cards at the table that ``seat`` may not see in ``state``."""
    if rules.name == "down_and_back":
        hidden = {str(c) for other, hand in enumerate(state.hands) if other != seat
                  for c in hand if c not in state.seen[other]}
        return hidden | {str(c) for c in state.stock}
    hidden = {str(c) for other, hand in enumerate(state.hands) if other != seat for c in hand}
    return hidden | {str(c) for c in state.undealt}


@pytest.mark.parametrize(("game", "seat"), [("down-and-back", 0), ("back-alley", 2)])
def test_the_table_never_shows_a_card_the_person_cannot_see(
        game: str, seat: int, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    status, out, _ = play_ones(capsys, monkeypatch, game, seat, path)
    assert status == 0
    record = GameRecord.load(path)
    rules: Rules[Any, Any] = record.rules
    states = list(rules.replay(record))
    at_prompt = [s for s in states[:-1] if not s.is_chance and s.current_player == seat]
    # Each table runs from its "==" line to its "moves:" line, one per prompt.
    tables = re.findall(r"^== .*?^moves:$", out, flags=re.MULTILINE | re.DOTALL)
    assert len(tables) == len(at_prompt) > 5
    for table, state in zip(tables, at_prompt, strict=True):
        shown = set(CARD.findall(table))
        assert not shown & _hidden(rules, state, seat), table
        own = {str(c) for c in state.hands[seat]}
        assert own <= shown  # the person's whole hand is on the table
    # Between prompts, no bot's private card and no shuffled order is told.
    assert not re.search(rf"shuffle {CARD.pattern} {CARD.pattern}", out)
    for line in out.splitlines():
        if "from the stock" in line and not line.startswith("you "):
            assert not CARD.search(line), line
        if re.match(r"seat \d+ (splits|has split)", line):  # another seat's split
            assert not CARD.search(line), line


# -- answers that are not moves -------------------------------------------------------------

def test_bad_answers_get_one_line_and_a_new_prompt(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    answers = ["", "flurb 3", "99", "0", "discard 7H", "split AS KS", "draw"]
    status, out, err = run(capsys, monkeypatch, "\n".join([*answers, "quit"]) + "\n",
                           "play", *GAMES["down-and-back"], "--human", "2")
    assert (status, err) == (0, "")
    assert prompts(out) == [*answers, "quit"]
    after = out.split("move> ")[1:]
    replies = [chunk.splitlines()[1] for chunk in after[:-1]]
    assert replies[0] == "type a move or its number (1 to 2); 'help' lists the commands"
    assert replies[1] == "not a move: unknown action: 'flurb' at position 0 " \
                         "(type 'help' for the notation)"
    assert replies[2] == "no move numbered 99: choose 1 to 2"
    assert replies[3] == "no move numbered 0: choose 1 to 2"
    assert replies[4].startswith("not allowed now: DB-34: ")
    assert replies[5].startswith("not a move: a split needs '/' between the down and back")
    assert replies[6].startswith("not a move: draw from 'stock' or 'discard'")
    assert all(len(chunk.splitlines()) == 2 for chunk in after[:-1])  # one line each
    assert "Traceback" not in out
    assert out.splitlines()[-1].startswith("quit: you left the game unfinished after ")


def test_help_explains_the_notation_and_table_shows_the_table_again(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(capsys, monkeypatch, "help\ntable\nquit\n",
                         "play", *GAMES["back-alley"], "--human", "1")
    assert status == 0
    helped = out.split("move> help\n")[1].split("move> ")[0]
    for text in ("bid 3", "play QH", "board", "pass", "save FILE", "quit", "table",
                 "10 also works"):
        assert text in helped
    first, again = re.findall(r"^== .*?^moves:\n.*?(?=^move> )", out,
                              flags=re.MULTILINE | re.DOTALL)
    assert first == again


def test_save_writes_the_record_so_far_and_it_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "so_far.txt"
    answers = f"1\n1\nsave {saved}\nsave\nsave {tmp_path}\n1\nquit\n"
    status, out, _ = run(capsys, monkeypatch, answers, "play", *GAMES["down-and-back"],
                         "--human", "0")
    assert status == 0
    assert re.search(rf"^record so far \((\d+) actions\) written to {re.escape(str(saved))}$",
                     out, flags=re.MULTILINE)
    assert "save needs a file name, such as: save game.json" in out
    assert f"cannot save: save {tmp_path}: that is a folder, not a file" in out
    record = GameRecord.load(saved)
    full = tmp_path / "full.json"
    play_ones(capsys, monkeypatch, "down-and-back", 0, full)
    assert GameRecord.load(full).actions[:len(record.actions)] == record.actions
    status, replayed, _ = run(capsys, monkeypatch, "", "replay", str(saved))
    assert status == 0
    assert replayed.splitlines()[-1] == (
        f"the record is unfinished: {len(record.actions)} actions, and the game goes on")
    assert len(replayed.splitlines()) > len(record.actions)  # the moves, then the summary


def test_quit_leaves_the_game_and_writes_the_record_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "left.json"
    status, out, err = run(capsys, monkeypatch, "1\nquit\n1\n", "play", *GAMES["back-alley"],
                           "--human", "0", "--record", str(path))
    assert (status, err) == (0, "")
    record = GameRecord.load(path)
    assert out.endswith(f"\nquit: you left the game unfinished after {len(record.actions)} "
                        f"actions\nrecord written to {path}\n")
    *_, last = record.rules.replay(record)
    assert not last.is_terminal
    assert last.current_player == 0
    assert prompts(out) == ["1", "quit"]
    assert "game over" not in out


@pytest.mark.parametrize("answers", ["", "1\n"])
def test_end_of_input_leaves_the_game_cleanly(
        answers: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, answers, "play", *GAMES["down-and-back"],
                           "--human", "1")
    assert (status, err) == (0, "")
    assert re.search(r"\nend of input: you left the game unfinished after \d+ actions\n$", out)
    assert prompts(out) == [*answers.split(), ""]  # the last prompt met the end


def test_ctrl_c_at_the_prompt_exits_130(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    status = main(["play", *GAMES["back-alley"], "--human", "0"])
    out, err = capsys.readouterr()
    assert (status, err) == (130, "cardrules: interrupted\n")
    assert "Traceback" not in out


# -- options ------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["back-alley", "--human", "4"], "cardrules: --human is a seat from 0 to 3, not 4\n"),
    (["--players", "2", "--human", "-1"], "cardrules: --human is a seat from 0 to 1, not -1\n"),
    (["--players", "2", "--human", "0", "--bots", "human,greedy,random"],
     "cardrules: --bots is one of random, greedy"),
    (["--players", "2", "--human", "1", "--bots", "human,greedy"],
     "cardrules: --bots is one of random, greedy"),
])
def test_bad_seats_and_bots_are_refused_before_the_game(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, "1\n" * 5, "play", *args)
    assert (status, out) == (2, "")
    assert err.startswith(message)
    assert err.count("\n") == 1


def test_bots_per_seat_may_name_the_persons_seat_human(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    status, _, err = run(capsys, monkeypatch, "1\n" * 60, "play", "--players", "2",
                         "--rounds", "1", "--seed", "4", "--human", "1", "--bots",
                         "random,human", "--record", str(path))
    assert (status, err) == (0, "")
    record = GameRecord.load(path)
    from cardrules.engine import RandomBot

    assert play(record.rules, [RandomBot(4), FirstMove()], record.settings_dict,
                seed=4).record == record


def test_a_piped_game_end_to_end(tmp_path: Path) -> None:
    """``python -m cardrules play back-alley --human 0 < answers``."""
    answers = tmp_path / "answers.txt"
    answers.write_text("1\n" * 40, encoding="utf-8")
    with answers.open(encoding="utf-8") as stdin:
        proc = subprocess.run(
            [sys.executable, "-m", "cardrules", "play", "back-alley", "--human", "0",
             "--max-hand-size", "2", "--seed", "5"],
            stdin=stdin, capture_output=True, text=True, timeout=120, check=False)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.startswith("Back Alley: you are seat 0 (team 0, with seat 2)")
    assert "\ngame over\n" in proc.stdout
    assert re.search(r"^your team \(team 0\) (wins|loses|draws), -?\d+ to -?\d+$",
                     proc.stdout, flags=re.MULTILINE)


# -- moves typed as listed, refusals to "you" -----------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cardrules.back_alley.presenter import BackAlleyTable  # noqa: E402
from cardrules.cli import human  # noqa: E402
from cardrules.engine.presenter import presenter_for  # noqa: E402

_ENTRY = re.compile(r"(\d+)\) (.*?)(?=\s{2,}\d+\) |$)")
_CUTS = re.compile(r" ?(\d+)-(\d+)\) cut 1 \.\.\. cut \d+: .*")


def listed_entries(lines: Sequence[str]) -> list[tuple[int, str]]:
    """(number, text) of every move the lines after ``moves:`` list, cuts one by one."""
    found: list[tuple[int, str]] = []
    for line in lines[lines.index("moves:") + 1:]:
        cuts = _CUTS.fullmatch(line)
        if cuts:
            found += [(n, f"cut {n}") for n in range(int(cuts[1]), int(cuts[2]) + 1)]
            continue
        found += [(int(m[1]), m[2]) for m in _ENTRY.finditer(line)]
    return found


def _random_states(rules: Rules[Any, Any], settings_: dict[str, int], seed: int) -> list[Any]:
    """Every state of a random game at which a player is to act."""
    import random

    rng = random.Random(seed)
    state = rules.new_game_from_settings(settings_)
    found = []
    while not state.is_terminal:
        if state.is_chance:
            state = rules.apply(state, rules.sample_chance(state, rng))
            continue
        found.append(state)
        state = rules.apply(state, rng.choice(rules.legal_actions(state)),
                            seat=state.current_player)
    return found


def _games() -> st.SearchStrategy[tuple[Rules[Any, Any], dict[str, int], int]]:
    from cardrules.back_alley import RULES as BA
    from cardrules.down_and_back import RULES as DB

    down = st.tuples(st.just(DB), st.builds(lambda n: {"num_players": n, "rounds": 1},
                                            st.integers(2, 5)), st.integers(0, 2**32))
    back = st.tuples(st.just(BA), st.builds(lambda n: {"max_hand_size": n},
                                            st.integers(1, 3)), st.integers(0, 2**32))
    return down | back


@settings(max_examples=25)
@given(_games())
def test_every_listed_move_typed_back_as_listed_is_that_move(
        game: tuple[Rules[Any, Any], dict[str, int], int]) -> None:
    """Splits were once listed as ``9S 9C QH QC / 8D JH KD`` but typing that was
    refused.  In random positions of both games, the text of every move as the move
    list shows it (numbered entries, each cut of the cut range, the best splits' hint
    lines and their move part) is accepted as typed, also in lower case, and is the
    move of that number (DB-32, DB-34, DB-40; BA-21, BA-31)."""
    rules, settings_, seed = game
    for state in _random_states(rules, settings_, seed):
        seat = state.current_player
        show = presenter_for(rules, seat)
        legal = rules.legal_actions(state)
        lines = show.moves(rules.view(state, seat), legal)
        entries = listed_entries(lines)
        assert {n for n, _ in entries} == set(range(1, len(legal) + 1))
        for number, text in entries:
            typed = [text, text.lower()]
            if ": " in text:  # a best split's hint: its move part alone too
                typed.append(text.split(": ")[0])
            for answer in typed:
                assert human._parse(rules, show, state, seat, legal, answer) \
                    == legal[number - 1], (answer, lines)


def _refusals(rules: Rules[Any, Any], state: Any, seat: int) -> list[str]:
    """What the person is told for every move of the game's universe that the rules
    refuse in ``state``."""
    from cardrules.back_alley.actions import CARDS

    if rules.name == "down_and_back":
        from cardrules import DECK

        hand = state.hands[seat]
        others = [c for c in DECK if c not in hand][:7]
        texts = [f"cut {n}" for n in (1, 51)] + ["draw stock", "draw discard"] + \
            [f"discard {c}" for c in DECK] + \
            [f"split {' '.join(map(str, others[:4]))} / {' '.join(map(str, others[4:]))}"]
    else:
        texts = ["pass", "board", *(f"bid {n}" for n in range(1, 14)),
                 *(f"play {c}" for c in CARDS)]
    show = presenter_for(rules, seat)
    legal = rules.legal_actions(state)
    said = []
    for text in texts:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            human._parse(rules, show, state, seat, legal, text)
        said += out.getvalue().splitlines()
    return said


@settings(max_examples=25)
@given(_games())
def test_refusals_in_human_play_speak_to_you_with_the_rule_id(
        game: tuple[Rules[Any, Any], dict[str, int], int]) -> None:
    """Refusals said "seat 0 must follow suit" to the person at seat 0: every refusal
    of a move, over the whole action universe in random positions, names the rule and
    words it to "you", in grammatical second person."""
    rules, settings_, seed = game
    wrong = re.compile(r"\byou (does|has|is|holds)\b|\band holds\b|\bplay its\b")
    for state in _random_states(rules, settings_, seed)[::3]:
        seat = state.current_player
        for line in _refusals(rules, state, seat):
            assert re.match(r"not allowed now: (DB|BA)-\d+: ", line), line
            assert f"seat {seat}" not in line, line
            assert not wrong.search(line), line


def test_a_refusal_in_back_alley_is_worded_to_you() -> None:
    """BA-31 told to the person at seat 1: "you must follow suit", not "seat 1 must"."""
    from cardrules.back_alley import RULES

    state = _follow_suit_state()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert human._parse(RULES, presenter_for(RULES, 1), state, 1,
                            RULES.legal_actions(state), "play 2H") is None
    assert out.getvalue() == ("not allowed now: BA-31: clubs were led: you must follow "
                              "suit, not play 2H\n")


def _follow_suit_state() -> Any:
    """A Back Alley state where seat 1 holds a club and 2H after seat 0 led a club."""
    from cardrules import parse_cards
    from cardrules.back_alley import RULES, ChooseDealer, Pass, Play, Shuffle, apply, new_game
    from cardrules.back_alley.actions import CARDS

    # Seat 3 deals 2 cards each from seat 0: 0 gets KC 3D, 1 gets 4C 2H, 2 and 3 spades.
    dealt = parse_cards("KC 4C AS 5S 3D 2H 6S 7S 8S", jokers=True)
    order = (*dealt, *(c for c in CARDS if c not in dealt))
    state = apply(apply(new_game(max_hand_size=2), ChooseDealer(3)), Shuffle(order))
    for seat in range(4):
        state = apply(state, Pass() if seat != 0 else RULES.legal_actions(state)[1],
                      seat=seat)
    leader = state.current_player
    assert leader == 0, leader
    return apply(state, Play(parse_cards("KC")[0]), seat=0)


def test_split_typed_as_listed_in_a_whole_game_and_errors_as_typed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Typing a split exactly as the list shows it plays it; a bad answer is quoted as
    typed, not lower-cased."""
    first = tmp_path / "numbers.json"
    play_ones(capsys, monkeypatch, "down-and-back", 0, first)
    record = GameRecord.load(first)
    states = list(record.rules.replay(record))
    typed = []
    for state, action in zip(states, record.actions, strict=False):
        if not state.is_chance and state.current_player == 0:
            text = str(action)
            typed.append(text.removeprefix("split ") if text.startswith("split ") else text)
    assert any("/" in text and not text.startswith("split") for text in typed)
    second = tmp_path / "as_listed.json"
    answers = ["Hop 3", "9S 9C QH QX / 8D JH KD", *typed]
    status, out, _ = run(capsys, monkeypatch, "\n".join(answers) + "\n", "play",
                         *GAMES["down-and-back"], "--human", "0", "--record", str(second))
    assert status == 0
    assert GameRecord.load(second) == record
    assert "not a move: unknown action: 'Hop' at position 0 (type 'help' for the notation)" \
        in out.splitlines()
    assert "not a move: not a card: 'QX' at position 9 (type 'help' for the notation)" \
        in out.splitlines()


#: Back Alley's order of power in the trump suit and in a plain suit (BA-2, BA-3).
_TRUMP_POWER = ["BB", "LB", *"AKQJT98765432"]


@settings(max_examples=25)
@given(st.integers(0, 2**32), st.integers(1, 13))
def test_back_alley_hands_show_trump_first_with_the_jokers_on_top(seed: int,
                                                                  size: int) -> None:
    """The table showed the jokers after the small trumps ('9S BB | KH ...'): the
    hand is shown by suit, trump first, each suit highest first, with BB and LB the
    two highest trumps (BA-2, BA-3)."""
    import random

    from cardrules.back_alley import RULES

    rng = random.Random(seed)
    state = RULES.new_game_from_settings({"max_hand_size": size})
    while state.is_chance:
        state = RULES.apply(state, RULES.sample_chance(state, rng))
    for seat in range(4):
        view: Any = RULES.view(state, seat)
        line = next(text for text in BackAlleyTable(seat).table(view)
                    if text.startswith("your hand: "))
        shown = line.removeprefix("your hand: ").split("   (you took ")[0]  # BA-13
        groups = [group.split() for group in shown.split(" | ")]
        assert sorted(c for g in groups for c in g) == sorted(str(c) for c in view.hand)
        trump = None if view.trump is None else view.trump.char
        suits = [("T" if trump is not None and (g[0] in ("BB", "LB") or g[0][1] == trump)
                  else g[0][1]) for g in groups]
        assert len(set(suits)) == len(suits)
        plain = [s for s in suits if s != "T"]
        assert suits == (["T"] if "T" in suits else []) + sorted(plain, key="SHDC".index)
        for group in groups:
            ranks = [c if c in ("BB", "LB") else c[0] for c in group]
            assert ranks == sorted(ranks, key=_TRUMP_POWER.index)


# -- one command over Rules ----------------------------------------------------

import ast  # noqa: E402
import enum  # noqa: E402

import attrs  # noqa: E402

from cardrules.cards import Card, Joker  # noqa: E402
from cardrules.engine.presenter import narration, second_person  # noqa: E402
from support import ROOT  # noqa: E402

_CLI = ROOT / "src" / "cardrules" / "cli"


@pytest.mark.parametrize("module", ["human.py", "play.py", "replay.py", "_games.py", "_options.py",
                                    "_output.py", "_parser.py"])
def test_the_play_replay_and_human_commands_know_no_game(module: str) -> None:
    """These modules are written once over Rules: no import of a game
    package, no game's registry name in their code (docstrings, the doctests, aside;
    the options' help may name the games that take them) and no comparison with a
    game's ``name``."""
    tree = ast.parse((_CLI / module).read_text("utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith(("cardrules.down_and_back",
                                                       "cardrules.back_alley")), node.module
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith(("cardrules.down_and_back",
                                                  "cardrules.back_alley"))
                           for alias in node.names)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            text = node.value.lower()
            assert not any(name in text for name in ("down_and_back", "back_alley",
                                                     "down-and-back", "back-alley")), text
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            assert not any(isinstance(side, ast.Attribute) and side.attr == "name"
                           for side in sides), ast.unparse(node)


def _cards_in(value: object, found: set[str]) -> set[str]:
    """Every card (as text) anywhere inside ``value``: a view, its hands, tricks,
    results and splits."""
    if isinstance(value, Card | Joker):
        found.add(str(value))
    elif value is None or isinstance(value, str | int | enum.Enum):
        pass
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):  # type: ignore[arg-type]
            _cards_in(getattr(value, field.name), found)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            _cards_in(item, found)
    return found


def _played(action: object) -> set[str]:
    """The card an action puts face up on the table (a play, a discard)."""
    card = getattr(action, "card", None)
    return {str(card)} if card is not None else set()


def _steps(rules: Rules[Any, Any], settings_: dict[str, int], seed: int) -> list[Any]:
    """(before, action, after) of every step of a random game, bots' seats included."""
    import random

    rng = random.Random(seed)
    state = rules.new_game_from_settings(settings_)
    steps = []
    while not state.is_terminal:
        if state.is_chance:
            action = rules.sample_chance(state, rng)
            after = rules.apply(state, action)
        else:
            action = rng.choice(rules.legal_actions(state))
            after = rules.apply(state, action, seat=state.current_player)
        steps.append((state, action, after))
        state = after
    return steps


@settings(max_examples=12)
@given(_games())
def test_narration_never_shows_a_card_the_person_could_not_see(
        game: tuple[Rules[Any, Any], dict[str, int], int]) -> None:
    """What a seat is told of a step is its part of the game's events in the second
    person, and never names a card that seat could not see: every card told is in
    the seat's view before or after the step, or is the card the step put face up,
    or is hidden from the seat neither before nor after (DB-35, DB-37, DB-40;
    BA-50).  Each seat is also told its own private cards (a draw, a dealt hand)."""
    rules, settings_, seed = game
    told_privately = 0
    for before, action, after in _steps(rules, settings_, seed):
        events = rules.events(before, action, after)
        for seat in range(before.num_players):
            lines = narration(events, seat)
            texts = [e.text_for(seat) for e in events]
            assert lines == [second_person(text, seat) for text in texts if text is not None]
            seen = _cards_in(rules.view(before, seat), set()) | \
                _cards_in(rules.view(after, seat), set()) | _played(action)
            hidden = _hidden(rules, before, seat) | _hidden(rules, after, seat)
            for line in lines:
                leaked = set(CARD.findall(line)) & hidden - seen
                assert not leaked, (seat, line, action)
            told_privately += sum(1 for e in events if e.owner == seat
                                  and CARD.search(" ".join(map(str, e.private or ()))))
    assert told_privately > 0


def test_a_private_part_is_told_to_its_owner_alone() -> None:
    """A seat is told an event's private part only if it owns it; the others hear
    the public part or nothing."""
    from cardrules.engine.events import Event

    drawn = Event(1, ("seat", 1, "draws from the stock"), ("seat", 1, "draws KS from the stock"))
    dealt = Event(2, None, ("seat", 2, "is dealt", "AS 2S"))
    assert narration([drawn, dealt], 1) == ["you draw KS from the stock"]
    assert narration([drawn, dealt], 2) == ["seat 1 draws from the stock", "you are dealt AS 2S"]
    assert narration([drawn, dealt], 0) == ["seat 1 draws from the stock"]


@pytest.mark.parametrize(("text", "seat", "said"), [
    ("seat 2 discards 7H", 2, "you discard 7H"),
    ("seat 1 passes", 1, "you pass"),
    ("seat 3 bids 4", 3, "you bid 4"),
    ("chance: seat 0 deals first (DB-31)", 0, "chance: you deal first (DB-31)"),
    ("round 2: seat 1 shuffles; everyone antes 1, the pot is 4 (DB-30, DB-32)", 1,
     "round 2: you shuffle; everyone antes 1, the pot is 4 (DB-30, DB-32)"),
    ("  down hand: seat 1; back hand: seat 2; seat 2 takes the pot of 3", 2,
     "  down hand: seat 1; back hand: you; you take the pot of 3"),
    ("  net: seat 0 +1, seat 1 -1", 1, "  net: seat 0 +1, you -1"),
    ("seat 1 takes 5H for its joker (BA-13)", 1, "you take 5H for your joker (BA-13)"),
    ("seat 0 is dealt AS KS", 0, "you are dealt AS KS"),
    ("DOWN: seat 2 drew KS, BACK: seat 12 drew 3H", 2, "DOWN: you drew KS, BACK: seat 12 drew 3H"),
    ("seat 1 splits", 0, "seat 1 splits"),
])
def test_narration_is_worded_to_the_person(text: str, seat: int, said: str) -> None:
    assert second_person(text, seat) == said


#: A copy of Back Alley without a presenter or result lines, registered under a
#: name in capitals: what a game from elsewhere gets.
_PLAIN = "Plain-Alley"


@pytest.fixture
def plain_game(monkeypatch: pytest.MonkeyPatch) -> Rules[Any, Any]:
    """Back Alley registered in this process as another game that has no presenter
    (the registry is restored afterwards)."""
    from cardrules.back_alley import RULES
    from cardrules.engine import registry

    registry.games()  # every built-in game registered before the registry is copied
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    rules: Rules[Any, Any] = attrs.evolve(RULES, name=_PLAIN, title="Plain Alley",
                                          presenter=None, result_lines=None)
    return registry.register(rules)


@pytest.mark.parametrize("spelled", ["plain-alley", "PLAIN_ALLEY", "Plain-Alley"])
def test_a_game_registered_in_process_plays_with_the_plain_presenter(
        spelled: str, plain_game: Rules[Any, Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A game the registry finds, with no presenter of its own, plays through
    ``cardrules play GAME --human SEAT``: the table is its view's str(), the moves
    its actions' str(), typed moves go through its parse_action, and the narration
    is its events'; the record replays to the same end."""
    path = tmp_path / "plain.json"
    answers = ["", "flurb", "99", "help", "table", *["1"] * 60]
    status, out, err = run(capsys, monkeypatch, "\n".join(answers) + "\n", "play", spelled,
                           "--max-hand-size", "2", "--seed", "3", "--human", "0",
                           "--record", str(path))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Plain Alley: you are seat 0; type 'help' for help"
    assert lines[1] == "the other seats: seat 1 HeuristicBot, seat 2 HeuristicBot, " \
                       "seat 3 HeuristicBot"
    assert lines[2] == "chance: seat 1 deals first (BA-11)"
    assert "== Plain Alley ==" in lines
    assert "your turn: choose a move" in lines
    assert re.search(r"^ 1\) pass +2\) bid 1 +3\) board$", out, flags=re.MULTILINE)
    assert "type a move or its number (1 to 3); 'help' lists the commands" in lines
    assert "not a move: unknown action: 'flurb' at position 0 (type 'help' for the notation)" \
        in lines
    assert "no move numbered 99: choose 1 to 3" in lines
    assert "  type a move as the list shows it (either case), or its number" in lines
    assert any(re.fullmatch(r"you are dealt \S\S( \|)? \S\S", line) for line in lines)
    assert any(re.fullmatch(r"seat [123] plays \S\S", line) for line in lines)
    assert re.search(r"^you \(seat 0\) finish with [+-]\d+ team points: you "
                     r"(win|lose|share the lead)$", out, flags=re.MULTILINE)
    record = GameRecord.load(path)
    assert record.game == _PLAIN
    *_, final = record.rules.replay(record)
    assert final.is_terminal
    assert f"game over\n{plain_game.summarize(final)}\n" in out


def test_typed_moves_and_refusals_with_the_plain_presenter(
        plain_game: Rules[Any, Any], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain presenter reads a typed move with the game's parse_action: a text
    that is not a move is quoted as typed, a move the rules refuse gets the rule id
    worded to you, and a listed move is taken in either case."""
    answers = ["bid 9", "PASS", "play ZZ", "play 2S", "1", "quit"]
    status, out, _ = run(capsys, monkeypatch, "\n".join(answers) + "\n", "play",
                         "plain_alley", "--max-hand-size", "2", "--seed", "3", "--human", "2")
    assert status == 0
    assert prompts(out) == answers
    replies = [chunk.splitlines()[1] for chunk in out.split("move> ")[1:-1]]
    assert replies[0] == "not allowed now: BA-21: a bid is 1 to 1 with 2 cards, not 9"
    assert replies[1] == "you pass"
    assert replies[2] == "not a move: not a card: 'ZZ' at position 5 " \
                         "(type 'help' for the notation)"
    assert replies[3] == "not allowed now: BA-31: you do not hold 2S"
    assert replies[4] == "you play AH"
    assert "you win the trick (BA-34)" in out.splitlines()


def test_play_without_result_lines_prints_the_summary_at_the_end(
        plain_game: Rules[Any, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """A game with no ``result_lines`` plays through ``cardrules play`` too: its
    summary comes at the end, the same account as the game that streams it."""
    status, plain, err = run_cli(capsys, "play", "plain-alley", "--max-hand-size", "2",
                                 "--seed", "2")
    assert (status, err) == (0, "")
    assert plain.startswith("deal 1 (2 cards")
    assert run_cli(capsys, "play", "back-alley", "--max-hand-size", "2", "--seed", "2") == (
        0, plain, "")
    status, moves, _ = run_cli(capsys, "play", "plain-alley", "--max-hand-size", "2",
                               "--seed", "2", "--moves")
    assert status == 0
    assert moves.endswith(plain)
    assert moves.splitlines()[0].split()[:2] == ["1", "chance"]


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_default_game_and_bots_come_from_the_registry() -> None:
    from cardrules.cli import _games
    from cardrules.engine.registry import BUILT_IN, rules_for

    assert BUILT_IN[0].replace("_", "-") == _games.DEFAULT_GAME
    rules = rules_for("back_alley")
    bots = _games.bots_around(rules, None, 4, 10, 1)
    assert sorted(bots) == [0, 2, 3]
    assert [type(bot).__name__ for bot in bots.values()] == ["HeuristicBot"] * 3
    assert rules.default_bot == "heuristic"


# -- echoed answers, play_printing and the trick on the table ------------------------------


class _Terminal(io.StringIO):
    """Typed answers on a terminal (which shows them as they are typed)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_answers_are_echoed_only_when_they_do_not_come_from_a_terminal(
        terminal: bool, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal shows what the person types, so the answer is printed again
    only for piped input (a transcript then reads like the session)."""
    from cardrules.cli import human

    stdin = _Terminal("quit\n") if terminal else io.StringIO("quit\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert human._read("move> ") == "quit"
    out = capsys.readouterr().out
    assert out == ("move> " if terminal else "move> quit\n")


@pytest.mark.parametrize("count", [1, 3])
def test_play_printing_refuses_a_bot_list_that_does_not_fit_the_table(
        count: int, capsys: pytest.CaptureFixture[str]) -> None:
    """One bot per seat (Down and Back is for 2 to 5 players, one per seat): too few or
    too many is refused before any move, not played with some bots left idle."""
    from cardrules.cli.play import play_printing
    from cardrules.down_and_back import RULES
    from cardrules.engine import RandomBot

    bots = [RandomBot(seat) for seat in range(count)]
    with pytest.raises(ValueError, match=f"Down and Back needs 2 bots here, not {count}"):
        play_printing(RULES, bots, {"num_players": 2, "rounds": 1}, seed=1)
    assert capsys.readouterr().out == ""


def test_play_printing_keeps_the_actions_only_when_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``keep`` (off by default) returns the actions played, which replay the game."""
    from cardrules.cli.play import play_printing
    from cardrules.down_and_back import RULES
    from cardrules.engine import RandomBot

    bots = [RandomBot(0), RandomBot(1)]
    _, end, actions = play_printing(RULES, bots, {"rounds": 1}, seed=4)
    assert actions is None
    again = play_printing(RULES, [RandomBot(0), RandomBot(1)], {"rounds": 1}, seed=4,
                          keep=True)
    assert again[2] is not None
    assert list(RULES.record(again[0], again[2]).replay())[-1] == end
    capsys.readouterr()


def test_the_back_alley_table_names_who_played_each_card_of_the_trick() -> None:
    """The trick on the table lists its cards from the leader clockwise
    (BA-1: seats 0..3 clockwise), wrapping from seat 3 to seat 0."""
    import random

    from cardrules.back_alley import RULES, view
    from cardrules.back_alley.presenter import BackAlleyTable

    rng = random.Random(5)
    state = RULES.new_game_from_settings({"max_hand_size": 3})
    seen = 0
    while not state.is_terminal and seen < 3:
        if state.is_chance:
            state = RULES.apply(state, RULES.sample_chance(state, rng))
            continue
        seat = state.current_player
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)), seat=seat)
        seen_by_0 = view(state, 0)
        if seen_by_0.leader is not None and seen_by_0.leader >= 2 and len(seen_by_0.trick) == 3:
            who = [(seen_by_0.leader + k) % 4 for k in range(3)]
            assert 0 in who
            expected = ", ".join(f"{'you' if s == 0 else f'seat {s}'} {card}"
                                 for s, card in zip(who, seen_by_0.trick, strict=True))
            lines = BackAlleyTable(0).table(seen_by_0)
            assert f"trick: {expected} (led by seat {seen_by_0.leader})" in lines
            seen += 1
    assert seen == 3


def test_numbered_actions_fill_a_line_whose_last_column_needs_no_gap() -> None:
    from cardrules.engine.presenter import numbered

    # Each entry is 9 characters and 2 of gap: four fit in 42 (the last has no gap).
    lines = numbered([f"bid {n}" for n in range(1, 9)], width=42)
    assert lines == [" 1) bid 1   2) bid 2   3) bid 3   4) bid 4",
                     " 5) bid 5   6) bid 6   7) bid 7   8) bid 8"]


def test_a_move_typed_while_confirming_a_split_is_taken_as_the_next_answer(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Asked to confirm split 1, the person types 2: that is split 2 chosen,
    # shown and made once typed again (no answer is lost or asked twice).
    from cardrules.cli.human import _ask
    from cardrules.down_and_back import RULES as DB
    from cardrules.engine.presenter import presenter_for
    from support.db_deals import cards, idle_until_split, start

    state = idle_until_split(start(2, 0, {1: cards("8S 8H 8D QH 5C 6C 7C")}))
    you = state.current_player
    assert you is not None
    legal = DB.legal_actions(state)
    answers = iter(["1", "2", "2"])
    chosen = _ask(DB, presenter_for(DB, you), state, you, state, (),
                  lambda prompt: next(answers, None))
    assert chosen == legal[1]
    assert capsys.readouterr().out.count("again (or y) to make it") == 2


def test_ba23_each_board_claim_is_told_at_its_level() -> None:
    """BA-23: the first board claim is a board, the next one a double board, and each
    is told so."""
    from cardrules.back_alley import RULES, Board, ChooseDealer, Shuffle, new_game
    from cardrules.back_alley.actions import CARDS
    from cardrules.back_alley.events import events

    state = RULES.apply(RULES.apply(new_game(), ChooseDealer(0)), Shuffle(CARDS))
    told = []
    for _ in range(2):
        after = RULES.apply(state, Board())
        told += [e.text_for(0) for e in events(state, Board(), after)]
        state = after
    assert told == ["seat 1 claims board (BA-23)", "seat 2 claims double board (BA-23)"]
