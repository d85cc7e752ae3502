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

from typing import Any

import pytest

from cardrules.engine import GameRecord
from cardrules.server._live import LiveTable
from support.leak_check import leaks
from support.serverplay import new_table, play_all, served


def _game(database: str, game: str, seats: list[str], seed: int,
          spectators: int = 2) -> tuple[GameRecord, dict[int | None, list[dict[str, Any]]]]:
    with served(database) as client:
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
        database: str, game: str, seats: list[str], seed: int) -> None:
    record, received = _game(database, game, seats, seed)
    assert all(messages[-1]["over"] for messages in received.values())
    assert sum(len(m) for m in received.values()) > 10
    assert leaks(record, received) == []


def test_the_leak_check_finds_a_planted_leak(database: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    honest = LiveTable.message_for

    def leaky(self: LiveTable, client: Any) -> dict[str, object]:
        message = honest(self, client)
        state = self.state
        if client.seat == 0 and not state.is_terminal and state.hands[1]:
            message["view"]["note"] = f"seat 1 holds {next(iter(state.hands[1]))}"  # type: ignore[index]
        return message

    monkeypatch.setattr(LiveTable, "message_for", leaky)
    record, received = _game(database, "back-alley", ["human"] * 4, 6, spectators=0)
    found = leaks(record, received)
    assert found
    assert all(line.startswith("seat 0,") for line in found)


def test_the_leak_check_finds_another_seats_private_event(database: str) -> None:
    record, received = _game(database, "down-and-back", ["human"] * 2, 7, spectators=0)
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
