"""Play at the terminal: a person in one seat, bots in the others
(``cardrules play GAME --human SEAT``).

Any game the registry finds can be played: the table and the move list are
drawn by the game's presenter (``Rules.presenter``, else the engine's
:class:`~cardrules.engine.presenter.PlainPresenter`) from the seat's view
(``Rules.view``), and what the person is told of every step is the part of
the game's events (``Rules.events``) that their seat learns, in the second
person (:func:`~cardrules.engine.presenter.narration`), so no other seat's
hidden card is ever printed (DB-37, DB-40, BA-50).  At each of their turns
the table is printed, then the legal moves, numbered in the order of the
game's ``legal_actions``; the person answers with a number or with the move
in the game's text notation (``discard 7H``, ``bid 3``), or with a command:
``help``, ``table``, ``save FILE`` or ``quit``.  Moves are read line by line
from standard input, so a game can be driven by a file of answers; the end
of the input leaves the game like ``quit``.

Between the person's turns one line tells each event of the bots' moves and
of chance (``seat 2 discards 7H``, the deal, a reshuffle), and what each
finished round or deal came to.

Everything is printed in the language of the run (``--lang``, else the
locale: see :mod:`cardrules.cli`), the narration included
(:func:`~cardrules.engine.presenter.tell`); the moves are listed, typed and
recorded in the English notation in every language, and the prompt says so.

>>> from cardrules.back_alley import RULES
>>> from cardrules.engine import RandomBot
>>> bots = {seat: RandomBot(seat) for seat in (1, 2, 3)}
>>> play_human(RULES, {"max_hand_size": 1}, 0, bots, seed=4,
...            read=lambda prompt: "1")  # doctest: +ELLIPSIS
Back Alley: you are seat 0 (team 0, with seat 2); type 'help' for help
the other seats: seat 1 RandomBot, seat 2 RandomBot, seat 3 RandomBot
chance: seat 1 deals first (BA-11)
...
game over
deal 1 (1 card, ...
scores: team 0 ..., team 1 ...
...
0
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardrules.cards import parse_card
from cardrules.cli import _options
from cardrules.engine.presenter import (
    Presenter,
    listed_key,
    narration,
    presenter_for,
    second_person,
)
from cardrules.engine.selfplay import steps
from cardrules.errors import CardRulesError, IllegalActionError, ParseError
from cardrules.i18n import N_, current_language, gettext, ngettext, pgettext

if TYPE_CHECKING:
    from cardrules.engine.bots import Bot
    from cardrules.engine.rules import Rules, SettingValues

__all__ = ["play_human"]

#: The prompt printed before each answer is read (in English: it is shown
#: through ``gettext``, in the current language).
PROMPT = N_("move> ")

_COMMANDS_HELP = N_("""\
Answer with the number of a move from the list, or with the move itself:
{notation}
Commands:
  help       this text
  table      show the table and your moves again
  save FILE  write the record of the game so far (text if FILE ends in .txt,
             JSON otherwise); 'cardrules replay FILE' replays it
  quit       leave the game unfinished (also 'exit', or the end of the input)""")


class _Left(Exception):
    """The person left the game (``quit`` or the end of the input)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _read(prompt: str) -> str | None:
    """One line of input without its line end, or None at the end of the input.

    When the input is not a terminal the line is echoed, so that a transcript
    shows the answers.
    """
    try:
        line = input(prompt)
    except EOFError:
        print()
        return None
    stream = sys.stdin
    if stream is not None and not stream.isatty():
        print(line)
    return line


def play_human(rules: Rules[Any, Any], settings: SettingValues, you: int,
               bots: Mapping[int, Bot], seed: int | None = None, *,
               record_path: str | None = None,
               read: Callable[[str], str | None] = _read) -> int:
    """Play a game of ``rules`` with a person at seat ``you`` and ``bots`` in
    the other seats; return the exit status (0, also when the person leaves).

    The game is the engine's loop (:func:`cardrules.engine.selfplay.steps`, so
    chance comes from ``random.Random(seed)`` as in
    :func:`cardrules.engine.play`) with the person as the bot of their seat;
    each bot sees its own view only.  Answers are read with ``read(prompt)``
    (None for the end of the input).  When
    ``record_path`` is given the record is written there at the end, or
    when the person leaves.

    >>> from cardrules.down_and_back import RULES
    >>> from cardrules.engine import RandomBot
    >>> answers = iter(["help", "quit"])
    >>> play_human(RULES, {"num_players": 2}, 1, {0: RandomBot(0)}, seed=2,
    ...            read=lambda prompt: next(answers))  # doctest: +ELLIPSIS
    Down and Back: 2 players, you are seat 1; type 'help' for help
    ...
    you left the game unfinished after ... actions
    0
    """
    state = rules.new_game_from_settings(settings)
    if not (isinstance(you, int) and 0 <= you < state.num_players):
        raise ValueError(gettext("--human is a seat from 0 to {last}").format(
            last=state.num_players - 1))
    missing = set(range(state.num_players)) - {you} - set(bots)
    if missing:
        raise ValueError(gettext("no bot for seat {number}").format(number=min(missing)))
    show = presenter_for(rules, you)
    start = state
    actions: list[Any] = []
    # The person is the game loop's bot for their seat: asked at the terminal,
    # with the state the loop stands at (for the rules' reasons of a refusal).
    person = _Person(lambda: _ask(rules, show, state, you, start, actions, read))
    table = [person if seat == you else bots[seat] for seat in range(state.num_players)]
    print(show.intro(rules.view(state, you)))
    print(gettext("the other seats: {seats}").format(seats=pgettext("list", ", ").join(
        gettext("seat {number} {bot}").format(number=seat, bot=type(bot).__name__)
        for seat, bot in sorted(bots.items()))))
    try:
        for step in steps(rules, table, settings, seed=seed):
            actions.append(step.action)
            for line in narration(rules.events(step.before, step.action, step.after), you):
                print(line)
            state = step.after
    except _Left as left:
        print(ngettext("{why}: you left the game unfinished after {n} actions",
                       "{why}: you left the game unfinished after {n} actions",
                       len(actions)).format(why=left.why, n=len(actions)))
        _write(rules, start, actions, record_path)
        return 0
    print(gettext("game over"))
    print(rules.summarize(state))
    for line in show.outcome(rules.view(state, you), rules.returns(state)):
        print(line)
    _write(rules, start, actions, record_path)
    return 0


class _Person:
    """The person at the terminal as a bot: ``act`` asks them for a move."""

    def __init__(self, ask: Callable[[], Any]) -> None:
        self.ask = ask

    def act(self, view: object, legal: Sequence[Any]) -> Any:
        """The move the person answers with (the loop's view and moves are
        drawn again by the presenter)."""
        return self.ask()


def _write(rules: Rules[Any, Any], start: Any, actions: Sequence[Any],
           path: str | None) -> None:
    """Write the record of ``actions`` to ``path`` if one was given."""
    if path is not None:
        rules.record(start, actions).dump(path)
        print(gettext("record written to {path}").format(path=path))


def _ask(rules: Rules[Any, Any], show: Presenter[Any], state: Any, you: int, start: Any,
         actions: Sequence[Any], read: Callable[[str], str | None]) -> Any:
    """Show the table and the moves, then read answers until one is a legal move.

    Raises :class:`_Left` on ``quit`` or at the end of the input.
    """
    legal = rules.legal_actions(state)
    view = rules.view(state, you)

    def show_table() -> None:
        for line in (*show.table(view), *show.moves(view, legal)):
            print(line)

    show_table()
    again: str | None = None   # an answer read while confirming, taken as the next one
    while True:
        line = again if again is not None else read(gettext(PROMPT))
        again = None
        if line is None:
            raise _Left(gettext("end of input"))
        text = line.strip()
        word, _, rest = text.partition(" ")
        command = word.lower()
        if not text:
            print(gettext("type a move or its number (1 to {count}); 'help' lists the "
                          "commands").format(count=len(legal)))
        elif command in ("help", "?") and not rest:
            print(gettext(_COMMANDS_HELP).format(notation=show.notation))
        elif command == "table" and not rest:
            show_table()
        elif command in ("quit", "exit") and not rest:
            raise _Left(gettext("quit"))
        elif command == "save":
            _save(rules, start, actions, rest.strip())
        elif text.isascii() and text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                chosen = legal[number - 1]
                if len(str(chosen).split()) <= 3:   # a short move: made at once
                    return chosen
                # A move of many cards (a split) is shown and made once confirmed.
                answer = _confirm(chosen, number, read)
                if answer is True:
                    return chosen
                again = answer or None
                continue
            print(gettext("no move numbered {number}: choose 1 to {count}").format(
                number=number, count=len(legal)))
        else:
            action = _parse(rules, show, state, you, legal, text)
            if action is not None:
                return action


def _parse(rules: Rules[Any, Any], show: Presenter[Any], state: Any, you: int,
           legal: Sequence[Any], text: str) -> Any:
    """The legal move ``text`` names, or None after printing why it is refused.

    Every text a move is listed by is taken as typed
    (:meth:`~cardrules.engine.presenter.Presenter.labels`), then the game's
    notation (:meth:`~cardrules.engine.presenter.Presenter.read`).  A refusal
    quotes the answer as typed, and the rules' reasons are worded to the
    person ("you must follow suit"), with the rule id.
    """
    view = rules.view(state, you)
    action = show.labels(view, legal).get(listed_key(text))
    if action is not None:
        return action
    verb = _card_verb(legal, text)
    if verb is not None:   # a bare card ("QH") where one move names cards: "play QH"
        text = f"{verb} {text.strip()}"
        action = show.labels(view, legal).get(listed_key(text))
        if action is not None:
            return action
    try:
        action = show.read(text)
    except (CardRulesError, ValueError) as err:
        print(gettext("not a move: {error} (type 'help' for the notation)").format(error=err))
        return None
    if action in legal:
        return action
    try:
        rules.apply(state, action, seat=you)
    except IllegalActionError as err:
        print(gettext("not allowed now: {rule}: {reason}").format(
            rule=err.rule, reason=_to_you(err, you)))
        return None
    except (CardRulesError, ValueError, TypeError) as err:
        print(gettext("not allowed now: {error}").format(error=err))
        return None
    return action  # legal_actions lists every legal move; kept for safety


def _card_verb(legal: Sequence[Any], text: str) -> str | None:
    """The verb of the legal moves that name one card each (``play`` in
    ``play QH``), when ``text`` is a card alone and one verb is its only
    reading; else None.

    >>> _card_verb(["play 2S", "play QH"], "qh"), _card_verb(["discard 7C"], "10h")
    ('play', 'discard')
    >>> _card_verb(["bid 1", "pass"], "QH") is None, _card_verb(["play 2S"], "bid 2") is None
    (True, True)
    """
    try:
        card = parse_card(text.strip(), jokers=True)
    except ParseError:
        return None
    verbs = set()
    for action in legal:
        words = str(action).split()
        if len(words) == 2 and _is_card(words[1]):
            verbs.add(words[0])
    if len(verbs) != 1 or not _is_card(str(card)):
        return None
    return verbs.pop()


def _is_card(word: str) -> bool:
    try:
        return str(parse_card(word, jokers=True)) == word
    except ParseError:
        return False


def _confirm(chosen: Any, number: int, read: Callable[[str], str | None]) -> bool | str:
    """Show the move numbered ``number`` and ask for it again: True when the
    answer is the same number or yes; else the answer (to be taken as the
    next one; empty for none).  Raises :class:`_Left` at the end of the input.

    >>> _confirm("split 8S 8H 8D QH / 5C 6C 7C", 3, lambda prompt: "3")
    move 3 is: split 8S 8H 8D QH / 5C 6C 7C
    type 3 again (or y) to make it, or choose another move
    True
    >>> _confirm("split 8S 8H 8D QH / 5C 6C 7C", 3, lambda prompt: "table")
    move 3 is: split 8S 8H 8D QH / 5C 6C 7C
    type 3 again (or y) to make it, or choose another move
    'table'
    """
    print(gettext("move {number} is: {move}").format(number=number, move=chosen))
    print(gettext("type {number} again (or y) to make it, or choose another move").format(
        number=number))
    line = read(gettext(PROMPT))
    if line is None:
        raise _Left(gettext("end of input"))
    answer = line.strip()
    yes = ("y", "yes", pgettext("answer", "yes").lower())
    if answer == str(number) or answer.lower() in yes:
        return True
    return answer


def _to_you(err: IllegalActionError, you: int) -> str:
    """The rules' reason for a refusal worded to the person at seat ``you``:
    in English in the second person (:func:`second_person`); in Japanese the
    seat's name becomes あなた (no verb changes with it); in another language
    as the catalog words it.

    >>> from cardrules import language
    >>> err = IllegalActionError("BA-31", "seat 2 does not hold QH")
    >>> _to_you(err, 2)
    'you do not hold QH'
    """
    if current_language() == "en":
        return second_person(err.message, you)
    text = str(err.text)
    if current_language() == "ja":
        text = re.sub(rf"席{you}(?!\d)", pgettext("seat", "you"), text)
    return text


def _save(rules: Rules[Any, Any], start: Any, actions: Sequence[Any], path: str) -> None:
    """``save FILE``: write the record so far, or say in one line why not."""
    if not path:
        print(gettext("save needs a file name, such as: save game.json"))
        return
    path = os.path.expanduser(path)
    try:
        _options.check_record_path(path, "save")
        rules.record(start, actions).dump(path)
    except (CardRulesError, ValueError, OSError) as err:
        print(gettext("cannot save: {error}").format(error=err))
        return
    print(ngettext("record so far ({n} actions) written to {path}",
                   "record so far ({n} actions) written to {path}", len(actions)).format(
                    n=len(actions), path=path))
