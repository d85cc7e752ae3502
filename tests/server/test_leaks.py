"""No message the server sends holds a card its receiver may not see.

Whole games of both games are played through the socket (people at random,
bots, a spectator).  Afterwards the record gives the true state at every
version, and every message each client received is searched for cards: every
word of every string that the card reader reads as a card written as the
library writes cards (``KS``, ``TD``, ``BB``).  The cards a seat may not see
at a version come from the true state and the rules: the other seats' hands
(less what the rules made public: Down and Back's cards seen taken from the
discard pile and the splits once all are shown, DB-37 and DB-40), the stock
and Back Alley's undealt cards (BA-50).  A view's ``results`` (the history of
finished rounds) may hold only cards the events had made public by then, and
each message's events must be exactly the parts of the rules' events that
seat may know.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from cardrules.cards import Card, Joker, parse_card
from cardrules.engine import GameRecord
from cardrules.engine.presenter import tell
from cardrules.errors import ParseError
from cardrules.server._live import LiveTable
from support.serverplay import new_table, play_all, served

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


def _game(tmp_path: Path, game: str, seats: list[str], seed: int,
          spectators: int = 2) -> tuple[GameRecord, dict[int | None, list[dict[str, Any]]]]:
    with served(tmp_path / f"{game}-{seed}.sqlite") as client:
        table_id, tokens = new_table(client, game, seats, seed=seed)
        received = play_all(client, table_id, tokens, spectators=spectators)
        record = GameRecord.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    return record, received


@pytest.mark.parametrize(("game", "seats", "seed"), [
    ("back-alley", ["human"] * 4, 1),
    ("back-alley", ["human", "bot:heuristic", "human", "bot:random"], 2),
    ("down-and-back", ["human"] * 4, 3),
    ("down-and-back", ["human", "bot:greedy", "human"], 4),
    ("down-and-back", ["human", "human"], 5),
])
def test_no_message_holds_a_card_its_receiver_may_not_see(
        tmp_path: Path, game: str, seats: list[str], seed: int) -> None:
    record, received = _game(tmp_path, game, seats, seed)
    assert all(messages[-1]["over"] for messages in received.values())
    assert sum(len(m) for m in received.values()) > 10
    assert leaks(record, received) == []


def test_the_leak_check_finds_a_planted_leak(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    honest = LiveTable.message_for

    def leaky(self: LiveTable, client: Any) -> dict[str, object]:
        message = honest(self, client)
        state = self.state
        if client.seat == 0 and not state.is_terminal and state.hands[1]:
            message["view"]["note"] = f"seat 1 holds {next(iter(state.hands[1]))}"  # type: ignore[index]
        return message

    monkeypatch.setattr(LiveTable, "message_for", leaky)
    record, received = _game(tmp_path, "back-alley", ["human"] * 4, 6, spectators=0)
    found = leaks(record, received)
    assert found
    assert all(line.startswith("seat 0,") for line in found)


def test_the_leak_check_finds_another_seats_private_event(tmp_path: Path) -> None:
    record, received = _game(tmp_path, "down-and-back", ["human"] * 2, 7, spectators=0)
    assert leaks(record, received) == []
    # seat 1 is handed seat 0's own events: what seat 0 drew from the stock shows
    planted: dict[int | None, list[dict[str, Any]]] = {
        1: [dict(m, seat=1) for m in received[0]]}
    assert leaks(record, planted)


@pytest.mark.parametrize(("game", "settings"), [
    ("back_alley", {"max_hand_size": 3}), ("down_and_back", {"num_players": 3, "rounds": 2})])
def test_the_public_view_is_what_every_seats_view_shares(game: str,
                                                         settings: dict[str, int]) -> None:
    import random

    from cardrules.engine import rules_for

    rules = rules_for(game)
    encode, public = rules.view_to_dict, rules.public_view
    assert encode is not None
    assert public is not None
    rng = random.Random(3)
    state = rules.new_game_from_settings(settings)
    private = {"seat", "hand", "taken", "drawn", "splits"}
    while True:
        shown = encode(public(state))
        assert shown["seat"] is None
        assert shown["hand"] == []
        assert shown.get("taken") is None
        assert shown.get("drawn") is None
        for seat in range(state.num_players):
            mine = encode(rules.view(state, seat))
            assert mine.keys() == shown.keys()
            assert {k: v for k, v in mine.items() if k not in private} == \
                {k: v for k, v in shown.items() if k not in private}
        if game == "down_and_back":
            revealed = all(s is not None for s in state.splits)
            assert shown["splits"] == (encode(rules.view(state, 0))["splits"] if revealed
                                       else [None] * state.num_players)
        if state.is_terminal:
            break
        state = rules.apply(state, rules.sample_chance(state, rng) if state.is_chance
                            else rng.choice(rules.legal_actions(state)))
