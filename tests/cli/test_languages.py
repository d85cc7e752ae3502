"""The command in English, Japanese and Ukrainian (``--lang`` and the locale).

Whole games at the terminal, ``eval``, ``advise`` and ``replay --summary`` are
compared with golden files, one per command and language, in
``tests/cli/golden/``.  After a deliberate change of a text, regenerate them
and review the difference before committing it::

    CARDRULES_REGENERATE_GOLDEN=1 python -m pytest tests/cli/test_languages.py

(the tests that write a golden file then pass; run once more without the
variable to check).  The machine formats (``--json``, records) must not change
with the language, and every message of the catalog (``cardrules``) has a
translation in both languages.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cardrules.cli import chosen_language, main

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("CARDRULES_REGENERATE_GOLDEN", "") not in ("", "0")
ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "cardrules" / "locale"
LANGS = ("en", "ja", "uk")

#: Short games of each game with a person at seat 1, as command-line arguments.
GAMES = {
    "down-and-back": ["down-and-back", "--players", "2", "--rounds", "1", "--seed", "3",
                      "--human", "1"],
    "back-alley": ["back-alley", "--max-hand-size", "2", "--seed", "3", "--human", "1"],
}
#: What the person types: the commands and a few refused answers, then the
#: first listed move at every turn (the end of the input would leave the game).
ANSWERS = "help\ntable\n\nflurb\n99\ndiscard AS\nplay 2S\n" + "1\n" * 400


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        *args: str, answers: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def golden(name: str, text: str) -> None:
    """``text`` is the golden file ``name`` (written instead when regenerating)."""
    path = GOLDEN / name
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"no golden file {path}: regenerate (see this module's docstring)"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


# -- golden outputs ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_at_the_terminal_in_each_language(
        game: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "game.json"
    status, out, err = run(capsys, monkeypatch, "--lang", lang, "play", *GAMES[game],
                           "--record", str(record), answers=ANSWERS)
    assert (status, err) == (0, "")
    golden(f"play-{game}.{lang}.txt", out.replace(str(record), "GAME.json"))


@pytest.mark.parametrize("lang", LANGS)
def test_eval_in_each_language(lang: str, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    lines = []
    for cards in (["8S", "8H", "8D", "QH"], ["JH", "QH", "KH"], ["2C", "2D", "9S"],
                  ["8S", "8H", "8D", "QH", "5C", "6C", "7C"]):
        status, out, _ = run(capsys, monkeypatch, "eval", *cards, "--lang", lang)
        assert status == 0
        lines.append(out)
    status, _, err = run(capsys, monkeypatch, "--lang", lang, "eval", "KS", "QS")
    assert status == 2
    golden(f"eval.{lang}.txt", "".join(lines) + err)


ADVICE = {
    "down-and-back": ["advise", "down-and-back", "8S", "8H", "8D", "QH", "5C", "6C", "7C",
                      "--trials", "300", "--seed", "1"],
    "back-alley": ["advise", "back-alley", "AS", "KS", "7H", "2D", "9C", "--trump", "3H",
                   "--bids", "pass 2", "--trials", "20", "--seed", "1"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(ADVICE))
def test_advise_in_each_language(game: str, lang: str, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, "--lang", lang, *ADVICE[game])
    assert (status, err) == (0, "")
    golden(f"advise-{game}.{lang}.txt", out)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished record of each game and an unfinished one, made in English."""
    folder = tmp_path_factory.mktemp("records")
    made = {}
    for game, args in (("down-and-back", ["--players", "3", "--rounds", "2", "--seed", "5"]),
                       ("back-alley", ["--max-hand-size", "2", "--seed", "5"])):
        path = made[game] = folder / f"{game}.json"
        assert main(["--lang", "en", "play", game, *args, "--record", str(path)]) == 0
    short = made["unfinished"] = folder / "short.txt"
    short.write_text("# cardrules down_and_back\nnum_players 3\n\ndealer 1\n", encoding="utf-8")
    return made


@pytest.mark.parametrize("lang", LANGS)
def test_replay_summary_in_each_language(lang: str, records: dict[str, Path],
                                         capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    capsys.readouterr()
    shown = []
    for name, path in records.items():
        status, out, err = run(capsys, monkeypatch, "replay", "--summary", str(path),
                               "--lang", lang)
        assert (status, err) == (0, "")
        shown.append(f"# {name}\n{out}")
    golden(f"replay-summary.{lang}.txt", "".join(shown))


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_help_and_argparse_words_are_translated(lang: str, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.engine import registry

    registry.games()  # the help lists the built-in games only, whatever other tests added
    monkeypatch.setattr(registry, "_REGISTERED", {name: rules for name, rules
                                                  in registry._REGISTERED.items()
                                                  if name in registry.BUILT_IN})
    with pytest.raises(SystemExit) as done:
        run(capsys, monkeypatch, "--lang", lang, "play", "--help")
    assert done.value.code == 0
    out, _ = capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        run(capsys, monkeypatch, "--lang", lang, "play", "--seed", "x")
    assert done.value.code == 2
    _, err = capsys.readouterr()
    golden(f"help-play.{lang}.txt", out + "---\n" + err)
    assert "usage:" not in out + err
    assert "options:" not in out


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["cardrules eval: error: the following arguments are required: cards",
            "cardrules: error: unrecognized arguments: --bogus",
            "cardrules play: error: argument --human: expected one argument",
            "cardrules play: error: argument --seed: invalid int value: 'x'",
            "cardrules simulate: error: argument --engine: invalid choice: 'x' "
            "(choose from 'reducer', 'vector')"]),
    ("ja", ["cardrules eval: エラー: 次の引数が必要です: cards",
            "cardrules: エラー: 認識できない引数: --bogus",
            "cardrules play: エラー: 引数 --human: 引数が1つ必要です",
            "cardrules play: エラー: 引数 --seed: int の値として正しくありません: 'x'",
            "cardrules simulate: エラー: 引数 --engine: 無効な選択: 'x'"
            "（'reducer', 'vector' から選んでください）"]),
    ("uk", ["cardrules eval: помилка: потрібні такі аргументи: cards",
            "cardrules: помилка: нерозпізнані аргументи: --bogus",
            "cardrules play: помилка: аргумент --human: очікується один аргумент",
            "cardrules play: помилка: аргумент --seed: неприпустиме значення int: 'x'",
            "cardrules simulate: помилка: аргумент --engine: неприпустимий вибір: 'x' "
            "(виберіть із 'reducer', 'vector')"]),
])
def test_argparse_refusals_come_in_the_language(lang: str, lines: list[str],
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing argument, an unknown option, a missing value, a bad number and
    a bad choice: argparse's own messages, translated under argparse's ids."""
    shown = []
    for args in (["eval"], ["play", "--bogus"], ["play", "--human"], ["play", "--seed", "x"],
                 ["simulate", "--engine", "x"]):
        with pytest.raises(SystemExit) as done:
            run(capsys, monkeypatch, "--lang", lang, *args)
        assert done.value.code == 2
        shown.append(capsys.readouterr().err.splitlines()[-1])
    assert shown == lines


@pytest.mark.parametrize(("lang", "headings"), [
    ("en", ["usage: cardrules eval", "positional arguments:", "options:",
            "-h, --help   show this help message and exit"]),
    ("ja", ["使い方: cardrules eval", "位置引数:", "オプション:",
            "-h, --help   このヘルプを表示して終了する"]),
    ("uk", ["використання: cardrules eval", "позиційні аргументи:", "параметри:",
            "-h, --help   показати цю довідку й вийти"]),
])
def test_help_headings_come_in_the_language(lang: str, headings: list[str],
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit) as done:
        run(capsys, monkeypatch, "--lang", lang, "eval", "--help")
    assert done.value.code == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert lines[0].startswith(headings[0])
    assert [line for line in lines if line in headings[1:]] == headings[1:]


def test_argparse_is_as_python_ships_it_outside_the_commands_parser(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse
    import gettext

    from cardrules import language

    with pytest.raises(SystemExit):
        run(capsys, monkeypatch, "--lang", "uk", "eval")
    assert vars(argparse)["_"] is gettext.gettext
    with language("uk"):
        assert argparse.ArgumentParser(prog="x").format_usage() == "usage: x [-h]\n"


def test_an_argparse_message_the_catalog_lacks_is_left_to_argparses_gettext(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """argparse's own gettext (here a stand-in for an installed system catalog)
    answers for the messages the cardrules catalog does not translate."""
    import argparse

    from cardrules import language
    from cardrules.cli._parser import Parser, argparse_in_current_language

    monkeypatch.setitem(vars(argparse), "_", lambda message: f"<{message}>")
    parser = Parser(prog="x", exit_on_error=False)
    parser.add_argument("--cards", nargs="+")
    with language("uk"), pytest.raises(argparse.ArgumentError) as refused:
        parser.parse_args(["--cards"])
    with language("uk"), argparse_in_current_language():
        assert str(refused.value) == "аргумент --cards: <expected at least one argument>"


def test_each_translated_argparse_message_is_one_argparse_asks_for() -> None:
    """If CPython rewords a message, this fails (the message would come out
    in English), rather than a translation silently going unused."""
    import argparse

    from babel.messages.extract import extract_python

    from cardrules.cli._parser import ARGPARSE_MESSAGES

    with open(argparse.__file__, "rb") as source:
        asked = {message for _, _, message, _ in extract_python(
            source, {"_": None, "ngettext": (1, 2)}, [], {}) if isinstance(message, str)}
    assert set(ARGPARSE_MESSAGES) - asked == set()


def test_the_argparse_translations_keep_argparses_placeholders() -> None:
    from babel.messages.pofile import read_po

    field = re.compile(r"%(?:\([a-z_]+\))?[sr]")
    for lang in ("ja", "uk"):
        with (LOCALE / lang / "LC_MESSAGES" / "cardrules.po").open("rb") as source:
            catalog = read_po(source, locale=lang)
        found = [m for m in catalog if m.context == "argparse"]
        assert len(found) == 14
        for message in found:
            text, english = str(message.string), str(message.id)
            assert sorted(field.findall(text)) == sorted(field.findall(english))
            assert text.endswith("\n") == english.endswith("\n")


# -- choosing the language --------------------------------------------------------------

@pytest.mark.parametrize(("environ", "argv", "lang"), [
    ({"LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "uk_UA.UTF-8", "LANG": "en_GB.UTF-8"}, [], "ja"),
    ({"LC_MESSAGES": "uk_UA.UTF-8", "LANG": "ja_JP.UTF-8"}, [], "uk"),
    ({"LANG": "ja_JP.UTF-8"}, [], "ja"),
    ({"LC_ALL": "", "LANG": "uk_UA"}, [], "uk"),          # an empty variable does not count
    ({"LC_ALL": "ja_JP.UTF-8"}, ["--lang", "uk"], "uk"),  # --lang over every variable
    ({"LC_ALL": "uk_UA.UTF-8"}, ["eval", "AS", "--lang", "en"], "en"),
    ({"LC_ALL": "ja_JP.UTF-8"}, ["--lang=en"], "en"),
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "ja_JP.UTF-8"}, [], "en"),  # unknown: English
    ({"LANG": "C.UTF-8"}, [], "en"),
    ({}, [], "en"),
    ({"LANG": "ja_JP.UTF-8"}, ["--lang", "fr"], "ja"),  # refused later, by the parser
])
def test_the_language_is_lang_then_lc_all_then_lc_messages_then_lang(
        environ: dict[str, str], argv: list[str], lang: str) -> None:
    assert chosen_language([*argv, "eval", "AS"], environ) == lang


@pytest.mark.parametrize(("variables", "expected"), [
    ({"LC_ALL": "ja_JP.UTF-8", "LANG": "uk_UA.UTF-8"}, "8のプライアル (8S 8H 8D QH)\n"),
    ({"LC_MESSAGES": "uk_UA.UTF-8", "LANG": "ja_JP.UTF-8"}, "пріал вісімок (8S 8H 8D QH)\n"),
    ({"LANG": "uk_UA.UTF-8"}, "пріал вісімок (8S 8H 8D QH)\n"),
    ({"LANG": "fr_FR.UTF-8"}, "prial of eights (8S 8H 8D QH)\n"),
    ({"LC_ALL": "de_DE.UTF-8", "LANG": "ja_JP.UTF-8"}, "prial of eights (8S 8H 8D QH)\n"),
])
def test_the_command_follows_the_environment(
        variables: dict[str, str], expected: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert run(capsys, monkeypatch, "eval", "8S", "8H", "8D", "QH")[1] == expected
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert run(capsys, monkeypatch, "--lang", "en", "eval", "8S", "8H", "8D", "QH")[1] == \
        "prial of eights (8S 8H 8D QH)\n"


def test_lang_after_the_subcommand_is_the_same_as_before(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    before = run(capsys, monkeypatch, "--lang", "uk", "play", "--rounds", "2", "--seed", "4")
    after = run(capsys, monkeypatch, "play", "--rounds", "2", "--seed", "4", "--lang", "uk")
    assert before == after
    assert "раунд 1" in before[1]


def test_a_language_the_command_does_not_speak_is_a_usage_error(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit) as done:
        run(capsys, monkeypatch, "--lang", "fr", "eval", "AS", "KS", "QS")
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "--lang" in err
    assert "'fr'" in err


def test_a_process_started_in_a_locale_speaks_its_language() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = "ja_JP.UTF-8"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-m", "cardrules", "eval", "JH", "QH", "KH"],
                          capture_output=True, text=True, encoding="utf-8", env=env,
                          check=False, timeout=120)
    assert (done.returncode, done.stdout) == (0, "バウンサー（キングハイ） (JH QH KH)\n")


# -- machine formats are the same in every language -------------------------------------

JSON_COMMANDS = [
    ["eval", "--json", "8S", "8H", "8D", "QH"],
    ["eval", "--json", "8S", "8H", "8D", "QH", "5C", "6C", "7C"],
    [*ADVICE["down-and-back"], "--json"],
    [*ADVICE["back-alley"], "--json"],
    ["simulate", "back-alley", "--games", "4", "--max-hand-size", "2", "--workers", "1",
     "--json", "-"],
    ["simulate", "--games", "4", "--rounds", "2", "--workers", "1", "--json", "-"],
]


@pytest.mark.parametrize("args", JSON_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_json_outputs_are_identical_in_every_language(
        args: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = {lang: run(capsys, monkeypatch, "--lang", lang, *args)[1] for lang in LANGS}
    json.loads(outputs["en"])
    assert outputs["ja"] == outputs["en"]
    assert outputs["uk"] == outputs["en"]


@pytest.mark.parametrize("game", list(GAMES))
def test_records_are_identical_in_every_language(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {}
    for lang in LANGS:
        for suffix in (".json", ".txt"):
            path = tmp_path / f"{lang}{suffix}"
            status, _, _ = run(capsys, monkeypatch, "--lang", lang, "play", *GAMES[game],
                               "--record", str(path), answers=ANSWERS)
            assert status == 0
            texts[lang, suffix] = path.read_text(encoding="utf-8")
    for suffix in (".json", ".txt"):
        assert texts["ja", suffix] == texts["en", suffix] == texts["uk", suffix]


def test_moves_are_typed_in_the_english_notation_in_every_language(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same typed answers play the same game whatever the language."""
    answers = "pass\nplay 6H\n" + "1\n" * 40
    outputs = {lang: run(capsys, monkeypatch, "--lang", lang, "play", *GAMES["back-alley"],
                         answers=answers)[1] for lang in LANGS}
    for lang in ("ja", "uk"):
        assert outputs[lang].count("\n") == outputs["en"].count("\n")
        for move in ("pass", "bid 1", "board"):
            assert move in outputs[lang]


# -- the catalogs -----------------------------------------------------------------------

FIELD = re.compile(r"\{([^{}]*)\}")


def _catalog(lang: str) -> list[tuple[str | None, tuple[str, ...], tuple[str, ...]]]:
    from babel.messages.pofile import read_po

    with (LOCALE / lang / "LC_MESSAGES" / "cardrules.po").open("rb") as source:
        catalog = read_po(source, locale=lang)
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids: tuple[str, ...] = tuple(message.id) if isinstance(message.id, tuple) \
            else (str(message.id),)
        strings: tuple[str, ...] = tuple(message.string) if isinstance(message.string, tuple) \
            else (str(message.string or ""),)
        found.append((message.context, ids, strings))
    return found


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_every_message_is_translated_with_its_fields(lang: str) -> None:
    from babel.messages.pofile import read_po

    with (LOCALE / "cardrules.pot").open("rb") as source:
        template = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                    for m in read_po(source) if m.id}
    entries = _catalog(lang)
    assert {(context, ids[0]) for context, ids, _ in entries} == template
    forms = {"ja": 1, "uk": 3}[lang]
    for context, ids, strings in entries:
        assert all(strings), (lang, context, ids[0])
        if len(ids) == 2:
            assert len(strings) == forms, (lang, ids[0])
        wanted = set().union(*(set(FIELD.findall(text)) for text in ids))
        for text in strings:
            assert set(FIELD.findall(text)) == wanted, (lang, ids[0], text)


@pytest.mark.parametrize(("n", "text"), [
    (1, "1 карта"), (2, "2 карти"), (5, "5 карт"), (11, "11 карт"), (21, "21 карта"),
    (22, "22 карти")])
def test_ukrainian_plural_forms_of_the_table(n: int, text: str) -> None:
    from cardrules import language
    from cardrules.i18n import ngettext

    with language("uk"):
        assert ngettext("{n} card", "{n} cards", n).format(n=n) == text


@pytest.mark.parametrize(("n", "text"), [
    (1, "1 дія"), (2, "2 дії"), (5, "5 дій"), (11, "11 дій"), (21, "21 дія"), (22, "22 дії")])
def test_ukrainian_plural_forms_of_the_messages(n: int, text: str) -> None:
    from cardrules import language
    from cardrules.i18n import ngettext

    with language("uk"):
        told = ngettext("the record is unfinished: {n} actions, and the game goes on",
                        "the record is unfinished: {n} actions, and the game goes on", n)
        assert told.format(n=n) == f"запис незавершений: {text}, і гра триває"


def test_two_threads_narrate_one_event_in_two_languages_at_once() -> None:
    from cardrules import language
    from cardrules.engine.events import told
    from cardrules.engine.presenter import tell

    sentence = [told("{seat} discards {card}", seat=2, card="7H")]
    start = threading.Barrier(2)
    seen: dict[str, set[str]] = {}

    def narrate(lang: str) -> None:
        with language(lang):
            start.wait()
            seen[lang] = {tell(sentence, seat) for seat in (2, 0) for _ in range(300)}

    threads = [threading.Thread(target=narrate, args=(lang,)) for lang in ("ja", "uk")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"ja": {"{seat}は7Hを捨てました".format(seat="あなた"), "席2が7Hを捨てました"},
                    "uk": {"ви скидаєте 7H", "місце 2 скидає 7H"}}
    assert tell(sentence, 2) == "you discard 7H"


def test_a_plural_sentence_without_its_number_is_told_in_the_form_for_0() -> None:
    # As a plural LazyText built without n: Ukrainian's form for 0 is its
    # third ("символів"), not the singular.
    from cardrules import language
    from cardrules.engine.events import Told
    from cardrules.engine.presenter import tell

    sentence = Told("({n} character)", (("n", 3),), "({n} characters)")
    with language("uk"):
        assert tell([sentence], 0) == "(3 символів)"
