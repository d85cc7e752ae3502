"""The leak check of the server tests: every card in a message its receiver
may not see (``tests/server/test_leaks.py`` says how it decides; the
cluster tests use it too).

>>> sorted(map(str, cards_in({"a": ["KS x", "TD"], "b": "nothing"})))
['KS', 'TD']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from cardrules.cards import Card, Joker, parse_card
from cardrules.engine import GameRecord
from cardrules.engine.presenter import tell
from cardrules.errors import ParseError

__all__ = ["cards_in", "hidden_from", "leaks"]

_WORD = re.compile(r"[^\s,;:/()\[\]]+")


def cards_in(value: object) -> Iterator[Card | Joker]:
    """Every card written in ``value`` (walked through lists and objects)."""
    if isinstance(value, str):
        for word in _WORD.findall(value):
            try:
                card = parse_card(word, jokers=True)
            except ParseError:
                continue
            if str(card) == word:
                yield card
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def _parts_cards(parts: Sequence[object] | None) -> set[Card | Joker]:
    return set() if parts is None else set(cards_in(" ".join(map(str, parts))))


def hidden_from(game: str, state: Any, seat: int | None) -> set[Card | Joker]:
    """The cards ``seat`` (None: a spectator) may not see in ``state``."""
    others = [o for o in range(state.num_players) if o != seat]
    hidden: set[Card | Joker] = set()
    if game == "down_and_back":
        hidden |= set(state.stock)
        if not all(split is not None for split in state.splits):
            for other in others:
                hidden |= set(state.hands[other]) - set(state.seen[other])
    else:
        hidden |= set(state.undealt)
        for other in others:
            hidden |= set(state.hands[other])
        hidden -= {state.trump_card, state.joker_discard}
    return hidden


def leaks(record: GameRecord, received: dict[int | None, list[dict[str, Any]]]) -> list[str]:
    """Every card in a message its receiver may not see, as text (empty: no leak)."""
    rules = record.rules
    states = list(rules.replay(record))
    steps = [rules.events(before, entry.action if hasattr(entry, "action") else entry, after)
             for before, entry, after in zip(states[:-1], record.actions, states[1:], strict=True)]
    public_ever: list[set[Card | Joker]] = [set()]
    for events in steps:
        public_ever.append(public_ever[-1] | set().union(
            *(_parts_cards(e.public) for e in events)))
    found = []
    for seat, messages in received.items():
        for number, message in enumerate(messages):
            where = f"seat {seat}, message {number}"
            if message["type"] != "view":
                found += [f"{where}: {card}" for card in cards_in(message)]
                continue
            version = message["version"]
            state = states[version]
            hidden = hidden_from(rules.name, state, seat)
            now = {k: v for k, v in message.items() if k not in ("events", "view")}
            now["view"] = {k: v for k, v in message["view"].items() if k != "results"}
            found += [f"{where}: {card} at version {version}"
                      for card in set(cards_in(now)) & hidden]
            found += [f"{where}: {card} in the results"
                      for card in set(cards_in(message["view"].get("results")))
                      - public_ever[version]]
            for event in message["events"]:
                k = event["version"]
                allowed = set().union(*(
                    _parts_cards(e.public if seat is None else e.seen_by(seat))
                    for e in steps[k - 1]))
                found += [f"{where}: {card} in an event of version {k}"
                          for card in set(cards_in(event)) - allowed]
                found += [f"{where}: {card} hidden at version {k}"
                          for card in set(cards_in(event)) & hidden_from(
                              rules.name, states[k], seat) - allowed]
            # Told to the viewer: "you", and in Back Alley "your partner".
            names = {(seat + 2) % 4: "your partner"} if seat is not None \
                and rules.name == "back_alley" else None
            expected = [tell(parts, -1 if seat is None else seat, names)
                        for k in sorted({e["version"] for e in message["events"]})
                        for e in steps[k - 1]
                        if (parts := e.public if seat is None else e.seen_by(seat))
                        is not None]
            if [e["text"] for e in message["events"]] != expected:
                found.append(f"{where}: events differ from the rules' events for that seat")
    return found
