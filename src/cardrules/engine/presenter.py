"""How a game shows itself to a person: the :class:`Presenter` protocol, the
:class:`PlainPresenter` every game gets when it has none of its own, and the
narration of each step read from the game's events.

The ``cardrules play GAME --human SEAT`` command draws the table and lists
the moves through a game's presenter (``Rules.presenter(seat)``, see
:func:`presenter_for`), which reads only that seat's view.  What the person
is told of each step is not the presenter's to decide: it is the part of
each of the game's events (``Rules.events``) that their seat learns, put in
the second person (:func:`narration`), so the person, the OpenSpiel
information states and any later reader are told the same things.

Every text a presenter writes is in the current language
(:func:`cardrules.language`); the narration's
sentences (:class:`~cardrules.engine.events.Told`) are translated whole, with
the form said to "you" for the person's own seat (:func:`tell`), and a
sentence the catalog lacks is told in English.

>>> from cardrules.engine.events import Event
>>> narration([Event(None, ("seat", 2, "discards 7H")),
...            Event(2, ("seat", 2, "draws from the stock"), ("seat", 2, "draws KS"))], 2)
['you discard 7H', 'you draw KS']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from cardrules.engine.events import Told
from cardrules.i18n import N_, current_language, gettext, ngettext, npgettext, pgettext

if TYPE_CHECKING:
    from cardrules.engine.events import Event
    from cardrules.engine.rules import Rules

__all__ = [
    "CARD_NOTATION",
    "WIDTH",
    "PlainPresenter",
    "Presenter",
    "game_title",
    "listed_key",
    "narration",
    "numbered",
    "pad",
    "presenter_for",
    "seat_label",
    "seat_noun",
    "second_person",
    "shown",
    "tell",
    "verdict",
    "who",
    "width",
]

#: How a person types a card, in every game (the end of a presenter's
#: ``notation``), in English: ``gettext(CARD_NOTATION)`` is the reader's language.
#: Cards are typed in this notation in every language.
CARD_NOTATION = N_("Cards: rank A 2 3 4 5 6 7 8 9 T J Q K (10 also works), suit S H D C\n"
                   "(or the symbols); either case.")


A = TypeVar("A")

#: Width the move lists are laid out in.
WIDTH = 80


class Presenter(Protocol[A]):
    """What the human command needs from a game's text presentation, for the
    person at one seat (a game's ``Rules.presenter(seat)`` builds one).

    Every method reads the person's view (``Rules.view(state, seat)``, whose
    type is each game's own, hence ``Any``), never a state, so nothing hidden
    from the person can be shown.  The narration of each step is not part of
    a presenter: it comes from the game's events (:func:`narration`).

    >>> from cardrules.back_alley import RULES
    >>> show = presenter_for(RULES, 0)
    >>> isinstance(show.notation, str), show.read("pass")
    (True, Pass())
    """

    @property
    def notation(self) -> str:
        """The move notation of the game, as ``help`` prints it (one or more
        lines, in the current language; a plain attribute does as well)."""

    def intro(self, view: Any) -> str:
        """The first line: the game and who the person is."""

    def table(self, view: Any) -> list[str]:
        """The table as the person sees it, first line starting with ``==``."""

    def moves(self, view: Any, legal: Sequence[A]) -> list[str]:
        """The person's turn: a line saying what to do, ``moves:``, then the
        legal moves numbered from 1 in the order of ``legal`` (and any hints)."""

    def labels(self, view: Any, legal: Sequence[A]) -> Mapping[str, A]:
        """Every text :meth:`moves` lists a move by, keyed by :func:`listed_key`,
        with the move it stands for."""

    def read(self, text: str) -> A:
        """The move ``text`` names in the game's notation; :class:`~cardrules.ParseError`
        (quoting the text as typed) if it names none."""

    def outcome(self, view: Any, returns: Sequence[int]) -> list[str]:
        """The person's result at the end, from the final view and what every
        seat won (``Rules.returns`` of the last state)."""


class PlainPresenter(Generic[A]):
    """The presenter of a game that has none (``Rules.presenter`` is None):
    the view's ``str()`` for the table, each legal action's ``str()`` for the
    move list, ``Rules.parse_action`` to read a typed move, and the game's
    ``returns`` for the outcome.

    >>> from cardrules.down_and_back import RULES, new_game
    >>> show = PlainPresenter(RULES, 1)
    >>> show.intro(RULES.view(new_game(2), 1))
    "Down and Back: you are seat 1; type 'help' for help"
    >>> show.table(RULES.view(new_game(2), 1))[0]
    '== Down and Back =='
    >>> show.moves(None, ["draw stock", "draw discard"])
    ['your turn: choose a move', 'moves:', ' 1) draw stock     2) draw discard']
    >>> show.outcome(None, (3, -3))
    ['you (seat 1) finish with -3 net chips: you lose']
    """

    @property
    def notation(self) -> str:
        """Help on the notation: every move is typed as the list shows it."""
        return gettext("  type a move as the list shows it (either case), or its number")

    def __init__(self, rules: Rules[Any, A], you: int) -> None:
        self.rules = rules
        self.you = you

    def intro(self, view: object) -> str:
        """The first line: the game's title and the person's seat."""
        return gettext("{game}: you are seat {number}; type 'help' for help").format(
            game=game_title(self.rules), number=self.you)

    def table(self, view: object) -> list[str]:
        """A line with the title, then the view as its ``str()`` shows it."""
        return [f"== {game_title(self.rules)} ==", *str(view).splitlines()]

    def moves(self, view: object, legal: Sequence[A]) -> list[str]:
        """The legal actions by their ``str()``, numbered from 1."""
        return [gettext("your turn: choose a move"), gettext("moves:"),
                *numbered([str(a) for a in legal])]

    def labels(self, view: object, legal: Sequence[A]) -> dict[str, A]:
        """Each legal action's ``str()``, keyed by :func:`listed_key`.

        >>> from cardrules.back_alley import RULES, Pass
        >>> PlainPresenter(RULES, 0).labels(None, [Pass()])
        {'PASS': Pass()}
        """
        return {listed_key(str(action)): action for action in legal}

    def read(self, text: str) -> A:
        """The game's own reading of ``text`` (``Rules.parse_action``)."""
        return self.rules.parse_action(text)

    def outcome(self, view: object, returns: Sequence[int]) -> list[str]:
        """What the person won, in the game's unit, and whether that leads."""
        you = self.you
        return [gettext("you (seat {number}) finish with {value} {unit}: {verdict}").format(
            number=you, value=f"{returns[you]:+d}", unit=gettext(self.rules.return_unit),
            verdict=verdict(you, returns))]


def verdict(you: int, values: Sequence[int]) -> str:
    """``you win``, ``you share the lead`` or ``you lose``: where the seat
    ``you`` stands when each seat has ``values[seat]`` (more is better).

    >>> verdict(0, (2, 1)), verdict(1, (2, 2, 0)), verdict(2, (2, 2, 0))
    ('you win', 'you share the lead', 'you lose')
    """
    best = max(values)
    leaders = [seat for seat, value in enumerate(values) if value == best]
    if leaders == [you]:
        return gettext("you win")
    return gettext("you share the lead") if you in leaders else gettext("you lose")


def game_title(rules: Rules[Any, Any]) -> str:
    """The game's title (``Rules.title``) in the current language, as the
    catalog has it (a game's package marks its title for the catalog), else
    as it is.

    >>> from cardrules import language
    >>> from cardrules.back_alley import RULES
    >>> game_title(RULES)
    'Back Alley'
    """
    return gettext(rules.title)


def presenter_for(rules: Rules[Any, A], seat: int) -> Presenter[A]:
    """The presenter of ``rules``' game for the person at ``seat``: the game's
    own (``Rules.presenter``) or else a :class:`PlainPresenter`.

    >>> from cardrules.down_and_back import RULES
    >>> type(presenter_for(RULES, 1)).__name__
    'DownAndBackTable'
    """
    if rules.presenter is not None:
        return rules.presenter(seat)
    return PlainPresenter(rules, seat)


def narration(events: Iterable[Event], seat: int) -> list[str]:
    """What the person at ``seat`` is told of a step: for each event, the part
    that seat learns (:meth:`~cardrules.engine.events.Event.seen_by`) as text,
    in the second person (:func:`second_person`); an event that seat learns
    nothing of says nothing.

    >>> from cardrules.engine.events import Event
    >>> told = [Event(0, None, ("seat", 0, "is dealt", "AS KS")),
    ...         Event(None, ("seat", 1, "bids 2"))]
    >>> narration(told, 0), narration(told, 1)
    (['you are dealt AS KS', 'seat 1 bids 2'], ['you bid 2'])
    """
    lines = []
    for event in events:
        parts = event.seen_by(seat)
        if parts is not None:
            lines.append(tell(parts, seat))
    return lines


def tell(parts: Sequence[object], seat: int, names: Mapping[int, str] | None = None) -> str:
    """One event's part (words, values and :class:`~cardrules.engine.events.Told`
    sentences) as the person at ``seat`` reads it, in the current language:
    in English the parts joined with spaces in the second person
    (:func:`second_person`); in another language each sentence's translation,
    the one said to "you" when it is about ``seat``.  A sentence the catalog
    lacks is told in English.  ``names`` gives other seats a name of their
    own (such as "your partner"), used for ``seat N`` wherever it stands.

    >>> from cardrules import language
    >>> from cardrules.engine.events import told
    >>> tell([told("{seat} discards {card}", seat=1, card="7H")], 1)
    'you discard 7H'
    >>> with language("ja"):
    ...     tell([told("{seat} discards {card}", seat=1, card="7H")], 1)
    'あなたは7Hを捨てました'
    >>> with language("uk"):
    ...     tell([told("{seat} discards {card}", seat=2, card="7H")], 1)
    'місце 2 скидає 7H'
    >>> tell([told("{seat} discards {card}", seat=2, card="7H")], 0, {2: "your partner"})
    'your partner discards 7H'
    """
    named = dict(names or {})
    named.pop(seat, None)
    if current_language() != "en" and all(isinstance(part, Told) for part in parts):
        found = [_localised(part, seat, named) for part in parts if isinstance(part, Told)]
        if all(text is not None for text in found):
            return " ".join(text for text in found if text is not None)
    text = second_person(" ".join(map(str, parts)), seat)
    for other, name in named.items():
        text = re.sub(rf"\bseat {other}\b", name.replace("\\", "\\\\"), text)
    return text


#: A message with nothing to translate but its fields (``{result}``).
_FIELDS_ONLY = re.compile(r"(\{[^{}]*\}|[\s\W\d])*")


def _localised(sentence: Told, you: int,
               names: Mapping[int, str] | None = None) -> str | None:
    """``sentence`` in the current language for the person at seat ``you``, or
    None when the catalog lacks it."""
    message, plural, n = sentence.message, sentence.plural, sentence.n
    mine = sentence.subject == you
    if plural is not None:
        count = 0 if n is None else n
        template = npgettext("to you", message, plural, count) if mine else message
        if template in (message, plural):
            template = ngettext(message, plural, count)
        missing = template in (message, plural)
    else:
        template = pgettext("to you", message) if mine else message
        if template == message:
            template = gettext(message)
        missing = template == message
    if missing and not _FIELDS_ONLY.fullmatch(sentence.template()):
        return None
    values = {name: _field(name, value, you, names) for name, value in sentence.fields}
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):  # a broken translation: English instead
        return None


def _field(name: str, value: object, you: int,
           names: Mapping[int, str] | None = None) -> str:
    """A field of a :class:`Told` sentence in the current language."""
    if (name == "seat" or name.endswith("_seat")) and isinstance(value, int):
        if names and value != you and value in names:
            return names[value]
        return seat_noun(value, you)
    if isinstance(value, Told):
        text = _localised(value, you, names)
        return second_person(str(value), you) if text is None else text
    if type(value) is tuple:  # a list of sentences (a Hand is a tuple too)
        return pgettext("list", ", ").join(_field("", item, you, names) for item in value)
    return shown(value)


def shown(value: object) -> str:
    """A value of a sentence (a card, a hand, a bid, a combination, a deal's
    result) as the reader's language shows it: the library's text for
    people where it has one, else ``str()``.

    >>> from cardrules import parse_cards
    >>> shown(parse_cards("AS")[0])
    'AS'
    """
    return str(value)


def seat_noun(seat: int, you: int) -> str:
    """A seat as a sentence names it in the current language: ``you`` for
    the person's own seat, else ``seat N``.

    >>> seat_noun(1, 1), seat_noun(2, 1)
    ('you', 'seat 2')
    """
    if seat == you:
        return pgettext("seat", "you")
    return gettext("seat {number}").format(number=seat)


#: Phrases about "seat N" and how they read once ``seat N`` became ``you``: a
#: second verb of the same subject ("... and holds") and its possessive; a verb
#: of another subject later in the clause ("before any card is played") stays.
_SECOND_PERSON = ((" and does not ", " and do not "), (" and has ", " and have "),
                  (" and is ", " and are "), (" and holds ", " and hold "), (" its ", " your "))
#: Verbs whose second person is not the third person less its ``s``.
_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}


def _plain(verb: str) -> str:
    """The verb that follows ``you`` for the one that followed ``seat N``:
    ``discards`` -> ``discard``, ``passes`` -> ``pass``, ``has`` -> ``have``;
    anything else (``must``, ``+2``, ``did``) is left as it is."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if not (verb.isascii() and verb.isalpha() and verb.islower()):
        return verb
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith(("ss", "us", "is")):
        return verb[:-1]
    return verb


def second_person(message: str, seat: int) -> str:
    """A text about ``seat`` (a refusal of the rules, the narration of an
    event) worded to the person in it: ``seat N`` becomes ``you`` and the
    verb after it agrees.

    >>> second_person("hearts were led: seat 0 must follow suit, not play 2S", 0)
    'hearts were led: you must follow suit, not play 2S'
    >>> second_person("seat 2 does not hold QH", 2)
    'you do not hold QH'
    >>> second_person("the split must use exactly seat 1's seven cards", 1)
    'the split must use exactly your seven cards'
    >>> second_person("it is seat 3's turn, not seat 1's", 1)
    "it is seat 3's turn, not yours"
    >>> second_person("seat 1 passes; seat 2 takes the pot of 3, seat 12 claims board", 2)
    'seat 1 passes; you take the pot of 3, seat 12 claims board'
    >>> second_person("seat 0 must bid before any card is played", 0)
    'you must bid before any card is played'
    """
    me = re.escape(f"seat {seat}")
    text = re.sub(rf"\b{me}'s(?= \w)", "your", message)
    text = re.sub(rf"\b{me}'s\b", "yours", text)
    found = re.compile(rf"\b{me}\b( ([\w+-]+))?")
    clauses = re.split(r"(?<=[;:,])", text)
    for k, clause in enumerate(clauses):
        match = found.search(clause)
        if match is None:
            continue
        mine = found.sub(lambda m: "you" if m[2] is None else f"you {_plain(m[2])}", clause)
        start = match.start()
        rest = mine[start:]
        for third, second in _SECOND_PERSON:
            rest = rest.replace(third, second)
        clauses[k] = mine[:start] + rest
    return "".join(clauses)


def listed_key(text: str) -> str:
    """How typed text is matched against the texts the moves are listed by:
    runs of spaces and tabs count as one, and ASCII letters in either case.

    >>> listed_key("  9s 9C   QH QC / 8D jh KD ")
    '9S 9C QH QC / 8D JH KD'
    """
    joined = " ".join(part for part in re.split(r"[ \t]+", text) if part)
    return joined.upper() if joined.isascii() else joined


def numbered(actions: Sequence[object], width: int = WIDTH) -> list[str]:
    """The lines that list ``actions`` numbered from 1, in columns.

    Entries are padded to one width and laid out row by row, as many to a
    line as fit in ``width`` characters.

    >>> for line in numbered(["draw stock", "draw discard"]):
    ...     print(line)
     1) draw stock     2) draw discard
    >>> for line in numbered([f"bid {n}" for n in range(1, 7)], width=40):
    ...     print(line)
     1) bid 1    2) bid 2    3) bid 3
     4) bid 4    5) bid 5    6) bid 6
    """
    entries = [f"{number:>2}) {action}" for number, action in enumerate(actions, start=1)]
    size = max(map(len, entries), default=0) + 2
    per_line = max(1, (width + 2) // size)  # the last column needs no gap
    return ["".join(entry.ljust(size) for entry in entries[row:row + per_line]).rstrip()
            for row in range(0, len(entries), per_line)]


def width(text: str) -> int:
    """How many columns ``text`` takes on a terminal: two for each wide
    character (Japanese), none for a combining one.

    >>> width("seat 1"), width("席1")
    (6, 3)
    """
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, columns: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns (see
    :func:`width`), for tables that line up in every language; with
    ``right``, the spaces go before the text (right-aligned).

    >>> pad("席1", 5) + "|", pad("席1", 5, right=True) + "|"
    ('席1  |', '  席1|')
    """
    room = " " * max(0, columns - width(text))
    return room + text if right else text + room


def who(seat: int, you: int) -> str:
    """``you`` for the person's own seat, else ``seat N``.

    >>> who(2, 2), who(1, 2)
    ('you', 'seat 1')
    """
    return pgettext("seat", "you") if seat == you else gettext("seat {number}").format(number=seat)


def seat_label(seat: int, you: int) -> str:
    """A seat as a table row names it: ``seat 1``, or ``seat 0 (you)``.

    >>> seat_label(0, 0), seat_label(1, 0)
    ('seat 0 (you)', 'seat 1')
    """
    if seat == you:
        return gettext("seat {number} (you)").format(number=seat)
    return gettext("seat {number}").format(number=seat)
