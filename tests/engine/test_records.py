"""Game records, saved states and bots for Down and Back.

* A record (settings plus every action, chance included) survives JSON and
  text round trips and replays to the very same states.
* A saved state that was tampered with is refused by ``state_from_dict``
  with a ParseError: cards missing or repeated, money changed, a bad phase,
  values of the wrong type, or fields that contradict each other.
* Malformed record text names the bad token and where it is.
* Bots are reproducible from their seeds, and GreedyBot beats RandomBot.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from cardrules import IllegalActionError, ParseError, parse_card
from cardrules.down_and_back import (
    RULES,
    Action,
    ChooseDealer,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    GreedyBot,
    Phase,
    Split,
    apply,
    legal_actions,
    new_game,
    play_game,
    sample_chance,
    state_from_dict,
    state_to_dict,
    view,
)
from cardrules.engine import Bot, GameRecord, RandomBot
from support.db_deals import cards, idle_until_split, start

record, replay = RULES.record, RULES.replay

HEADER = "# cardrules down_and_back\nnum_players 2\nante 1\nrounds 1\n\n"


def played(num_players: int, seed: int, *, ante: int = 1,
           rounds: int = 2) -> tuple[list[GameState], list[Action]]:
    """A random game to the end: every state and every action."""
    rng = random.Random(seed)
    state = new_game(num_players, ante=ante, rounds=rounds)
    states, actions = [state], []
    while not state.is_terminal:
        action = sample_chance(state, rng) if state.is_chance else rng.choice(legal_actions(state))
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


GAMES = [(2, 1), (3, 2), (4, 3), (5, 4)]


# ---------------------------------------------------------------------------
# records


@pytest.mark.parametrize(("num_players", "seed"), GAMES)
def test_record_round_trips_through_json_and_text(num_players: int, seed: int) -> None:
    states, actions = played(num_players, seed, ante=3)
    game = record(states[0], actions)
    assert game.game == "down_and_back"
    assert game.settings_dict == {"num_players": num_players, "ante": 3, "rounds": 2}
    assert game.actions == tuple(actions)
    assert GameRecord.from_json(game.to_json()) == game
    assert GameRecord.from_json(game.to_json(indent=2)) == game
    assert GameRecord.from_text(game.to_text()) == game
    assert GameRecord.from_dict(json.loads(json.dumps(game.to_dict()))) == game
    text = game.to_text()
    assert text.startswith("# cardrules down_and_back\n")
    assert len(text.strip().splitlines()) == 1 + 3 + 1 + len(actions)


@pytest.mark.parametrize(("num_players", "seed"), GAMES)
def test_replay_gives_every_state_again(num_players: int, seed: int) -> None:
    states, actions = played(num_players, seed)
    game = record(states[-1], actions)   # settings are taken from any state of the game
    replayed = list(replay(game))
    assert len(replayed) == len(actions) + 1
    assert replayed[-1] == states[-1]
    assert replayed == states
    from_text = list(replay(GameRecord.from_text(game.to_text())))
    assert from_text[-1] == states[-1]
    assert list(game.replay()) == states


def test_open_ended_record() -> None:
    game = record(new_game(2, rounds=None), [ChooseDealer(1)])
    assert game.settings_dict["rounds"] is None
    assert "rounds open" in game.to_text()
    assert GameRecord.from_text(game.to_text()) == game
    assert GameRecord.from_json(game.to_json()) == game
    assert [s.dealer for s in replay(game)] == [None, 1]


def test_record_text_skips_comments_and_blank_lines_between_actions() -> None:
    text = HEADER + "dealer 1\n\n# the dealer shuffles next\n"
    game = GameRecord.from_text(text)
    assert game.actions == (ChooseDealer(1),)


def test_replaying_an_illegal_action_names_it() -> None:
    game = GameRecord.from_text(HEADER + "dealer 0\ncut 5\n")
    with pytest.raises(IllegalActionError) as info:
        list(replay(game))
    assert info.value.rule == "DB-32"
    assert "action 2 (cut 5)" in str(info.value)


def test_replay_refuses_another_game() -> None:
    with pytest.raises(ValueError, match="not a Down and Back record"):
        list(replay(GameRecord("back_alley", {"num_players": 4}, ())))


@pytest.mark.parametrize(("line", "token"), [
    ("discard 1X", "1X"),
    ("cut x", "x"),
    ("cut -3", "-3"),
    ("dealer two", "two"),
    ("draw sideways", "sideways"),
    ("  draw sideways", "sideways"),
    ("shuffle AS KX 2D", "KX"),
    ("split AS 2S 3S 4S / 5S 6S ZZ", "ZZ"),
    ("split AS 2S 3S 4S 5S 6S 7S", "AS 2S 3S 4S 5S 6S 7S"),
    ("hop 3", "hop"),
])
def test_malformed_record_text_names_token_and_position(line: str, token: str) -> None:
    text = HEADER + "dealer 0\n" + line + "\n"
    with pytest.raises(ParseError) as info:
        GameRecord.from_text(text)
    assert info.value.token == token
    assert info.value.position == line.index(token)
    assert info.value.message.startswith("line 7: ")


@pytest.mark.parametrize(("line", "token"), [
    ("discard   1X", "1X"),
    ("cut  x", "x"),
    ("draw  sideways", "sideways"),
])
def test_error_position_with_extra_spaces(line: str, token: str) -> None:
    with pytest.raises(ParseError) as info:
        GameRecord.from_text(HEADER + line + "\n")
    assert info.value.token == token
    assert info.value.position == line.index(token)


@pytest.mark.parametrize(("text", "token"), [
    ("cardrules down_and_back\nnum_players 2\n", "cardrules down_and_back"),
    ("# cardrules chess\nnum_players 2\n", "chess"),
    ("# cardrules down_and_back\nnum_players two\n", "num_players two"),
    ("# cardrules down_and_back\nnum_players -2\n", "num_players -2"),
])
def test_malformed_record_header_and_settings(text: str, token: str) -> None:
    with pytest.raises(ParseError) as info:
        GameRecord.from_text(text)
    assert info.value.token == token


def test_empty_record_text_is_refused() -> None:
    with pytest.raises(ParseError):
        GameRecord.from_text("")


def test_comment_among_the_settings() -> None:
    game = GameRecord.from_text("# cardrules down_and_back\n# a comment\nnum_players 2\n\n")
    assert game.settings_dict == {"num_players": 2}


@pytest.mark.parametrize("text", [
    '{"game": "down_and_back"',
    "[1, 2]",
    '{"game": "chess", "settings": {}, "actions": []}',
    '{"game": "down_and_back", "settings": {"num_players": 2}}',
    '{"game": "down_and_back", "settings": {"num_players": 2}, "actions": [{"type": "hop"}]}',
    '{"game": "down_and_back", "settings": {"num_players": 2}, '
    '"actions": [{"type": "discard", "card": "ZZ"}]}',
    '{"game": "down_and_back", "settings": {"num_players": 2}, '
    '"actions": [{"type": "cut", "count": "3"}]}',
    '{"game": "down_and_back", "settings": {"num_players": 2}, '
    '"actions": [{"type": "cut", "count": true}]}',
    '{"game": "down_and_back", "settings": {"num_players": 2}, '
    '"actions": [{"type": "shuffle", "order": ["AS", "AS"]}]}',
    '{"game": "down_and_back", "settings": {"num_players": 2}, "actions": [{"type": "dealer"}]}',
    '{"game": "down_and_back", "settings": {"num_players": 2.5}, "actions": []}',
])
def test_malformed_record_json_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        GameRecord.from_json(text)


def test_invalid_json_reports_the_position() -> None:
    with pytest.raises(ParseError) as info:
        GameRecord.from_json('{"game": "down_and_back", ]')
    assert info.value.position == 26


# ---------------------------------------------------------------------------
# tampered states


def mid_game() -> GameState:
    """A state in the second round, with a card drawn and not yet discarded."""
    states, _ = played(3, 11)
    state = next(s for s in states if s.round == 2 and s.phase is Phase.DISCARD)
    assert state.results
    return state


def at_phase(phase: Phase) -> GameState:
    states, _ = played(3, 12)
    return next(s for s in states if s.phase is phase)


Tamper = Callable[[dict[str, Any]], None]


def set_field(key: str, value: object) -> Tamper:
    def tamper(data: dict[str, Any]) -> None:
        data[key] = value
    return tamper


def drop_field(key: str) -> Tamper:
    def tamper(data: dict[str, Any]) -> None:
        del data[key]
    return tamper


def drop_hand_card(data: dict[str, Any]) -> None:
    data["hands"][0].pop()


def drop_stock_card(data: dict[str, Any]) -> None:
    data["stock"].pop()


def duplicate_into_stock(data: dict[str, Any]) -> None:
    data["stock"][0] = data["hands"][1][0]


def duplicate_onto_discard(data: dict[str, Any]) -> None:
    data["discard"].append(data["hands"][2][0])


def swap_card_for_copy(data: dict[str, Any]) -> None:
    data["hands"][1][0] = data["hands"][2][0]


def bad_card_text(data: dict[str, Any]) -> None:
    data["stock"][0] = "ZZ"


def card_as_number(data: dict[str, Any]) -> None:
    data["hands"][0][0] = 5


def raise_net(data: dict[str, Any]) -> None:
    data["net"][0] += 1


def raise_pot(data: dict[str, Any]) -> None:
    data["pot"] += 1


def move_money_between_players(data: dict[str, Any]) -> None:
    data["net"][0] += 1
    data["net"][1] -= 1


def move_money_from_pot(data: dict[str, Any]) -> None:
    data["net"][2] += 1
    data["pot"] -= 1


def net_as_float(data: dict[str, Any]) -> None:
    data["net"][0] = float(data["net"][0])


def short_net(data: dict[str, Any]) -> None:
    data["net"].pop()


def wrong_dealer_history(data: dict[str, Any]) -> None:
    data["results"][0]["dealer"] = (data["results"][0]["dealer"] + 1) % 3


def wrong_round(data: dict[str, Any]) -> None:
    data["round"] += 1


def next_player_acts(data: dict[str, Any]) -> None:
    data["current_player"] = (data["current_player"] + 1) % 3


def extra_turn(data: dict[str, Any]) -> None:
    data["turns"][0] += 1


def drawn_not_held(data: dict[str, Any]) -> None:
    data["drawn"] = data["stock"][0]


def seen_not_held(data: dict[str, Any]) -> None:
    data["seen"][0] = [data["stock"][0]]


def swap_hand_and_stock_card(data: dict[str, Any]) -> None:
    # Still 52 different cards, but a hand of nine and a shorter stock.
    data["hands"][0].append(data["stock"].pop())
    data["hands"][0].append(data["stock"].pop())


TAMPERS: dict[str, Tamper] = {
    "missing card in a hand": drop_hand_card,
    "missing card in the stock": drop_stock_card,
    "duplicated card in the stock": duplicate_into_stock,
    "duplicated card on the discard pile": duplicate_onto_discard,
    "card replaced by a copy of another": swap_card_for_copy,
    "unreadable card": bad_card_text,
    "card given as a number": card_as_number,
    "net winnings raised": raise_net,
    "pot raised": raise_pot,
    "money moved between players": move_money_between_players,
    "money taken from the pot": move_money_from_pot,
    "net as a float": net_as_float,
    "net too short": short_net,
    "unknown phase": set_field("phase", "dancing"),
    "phase in capitals": set_field("phase", "DISCARD"),
    "phase that contradicts the table": set_field("phase", "split"),
    "phase game over mid-round": set_field("phase", "game_over"),
    "phase as a number": set_field("phase", 4),
    "pot as text": set_field("pot", "3"),
    "pot as a float": set_field("pot", 3.0),
    "player count as a bool": set_field("num_players", True),
    "too many players": set_field("num_players", 6),
    "zero ante": set_field("ante", 0),
    "hands as text": set_field("hands", "AS KS"),
    "stock missing": drop_field("stock"),
    "net missing": drop_field("net"),
    "splits as text": set_field("splits", "none"),
    "showdown as a list": set_field("showdown", []),
    "results as an object": set_field("results", {}),
    "unknown format": set_field("format", "cardrules/down_and_back/state/99"),
    "no dealer": set_field("dealer", None),
    "dealer out of range": set_field("dealer", 7),
    "dealer history wrong": wrong_dealer_history,
    "round number wrong": wrong_round,
    "wrong player to act": next_player_acts,
    "a turn too many": extra_turn,
    "drawn card not held": drawn_not_held,
    "seen card not held": seen_not_held,
    "nine cards in a hand": swap_hand_and_stock_card,
}


def rounds_already_played(data: dict[str, Any]) -> None:
    # A two-round game in its second round, relabelled as a one-round game: it
    # should have ended after the first round (DB-44).
    data["rounds"] = len(data["results"])


def card_seen_twice(data: dict[str, Any]) -> None:
    data["seen"][0] = [data["hands"][0][0], data["hands"][0][0]]


@pytest.mark.parametrize("tamper", [rounds_already_played, card_seen_twice])
def test_tampered_state_is_refused_gaps(tamper: Tamper) -> None:
    data = json.loads(json.dumps(state_to_dict(mid_game())))
    tamper(data)
    with pytest.raises(ParseError):
        state_from_dict(data)


def test_untampered_state_loads_back() -> None:
    state = mid_game()
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_state_is_refused(name: str) -> None:
    data = json.loads(json.dumps(state_to_dict(mid_game())))
    TAMPERS[name](data)
    with pytest.raises(ParseError):
        state_from_dict(data)


@pytest.mark.parametrize("data", [None, [], "state", 3])
def test_a_state_must_be_an_object(data: Any) -> None:
    with pytest.raises(ParseError):
        state_from_dict(data)


def test_tampered_split_is_refused() -> None:
    state = at_phase(Phase.SPLIT)
    seat = state.current_player
    assert seat is not None
    data: dict[str, Any] = state_to_dict(apply(state, legal_actions(state)[0]))
    good = copy.deepcopy(data)
    assert state_from_dict(good) == apply(state, legal_actions(state)[0])
    other = (seat + 1) % state.num_players
    data["splits"][seat]["down"][0] = data["hands"][other][0]   # a card of another hand
    with pytest.raises(ParseError):
        state_from_dict(data)
    short = copy.deepcopy(good)
    short["splits"][seat]["back"].pop()
    with pytest.raises(ParseError):
        state_from_dict(short)


def test_tampered_cut_state_is_refused() -> None:
    state = at_phase(Phase.CUT)
    data = state_to_dict(state)
    data["current_player"] = state.dealer   # only the player right of the dealer cuts
    with pytest.raises(ParseError):
        state_from_dict(data)


# ---------------------------------------------------------------------------
# bots


def test_bots_are_reproducible_from_their_seeds() -> None:
    def table() -> list[Bot]:
        return [GreedyBot(seed=1), RandomBot(seed=2), GreedyBot(seed=3)]

    first = play_game(table(), rounds=2, seed=9).state
    second = play_game(table(), rounds=2, seed=9).state
    assert first == second
    assert first.is_terminal
    assert len(first.results) == 2
    assert sum(first.net) + first.pot == 0


def test_random_bot_picks_only_from_the_legal_actions() -> None:
    bot = RandomBot(seed=5)
    legal = ["a", "b", "c"]
    assert {bot.act(None, legal) for _ in range(50)} == set(legal)
    with pytest.raises(ValueError, match="no legal action"):
        bot.act(None, [])


def greedy_move(state: GameState, seed: int = 0) -> Action:
    seat = state.current_player
    assert seat is not None
    move: Action = GreedyBot(seed).act(view(state, seat), legal_actions(state))
    return move


def test_greedy_bot_takes_a_useful_discard_and_throws_the_worst_card() -> None:
    # Seat 1 (left of dealer 0) needs 7C for a prial of eights plus a 5-6-7 bouncer.
    state = start(2, 0, {1: cards("8S 8H 8D QH 5C 6C 2D")}, parse_card("7C"))
    assert greedy_move(state) == DrawDiscard()
    state = apply(state, DrawDiscard())
    assert greedy_move(state) == Discard(parse_card("2D"))


def test_greedy_bot_splits_into_its_best_hands() -> None:
    # Dealt in this (unsorted) order: prial of eights + 5-6-7 bouncer is clearly best.
    state = idle_until_split(start(2, 0, {1: cards("8S 8H 8D QH 5C 6C 7C")}))
    assert state.current_player == 1
    assert greedy_move(state) == Split(cards("8S 8H 8D QH"), cards("5C 6C 7C"))


def test_greedy_bot_splits_a_sorted_hand_well() -> None:
    # When the hand happens to arrive sorted the split numbering agrees.
    state = idle_until_split(start(2, 0, {1: cards("5C 6C 7C 8S 8H 8D QH")}))
    assert greedy_move(state) == Split(cards("8S 8H 8D QH"), cards("5C 6C 7C"))


def test_greedy_bot_leaves_a_useless_discard() -> None:
    state = start(2, 0, {1: cards("8S 8H 8D QH 5C 6C 7C")}, parse_card("2D"), cards("3H"))
    assert greedy_move(state) == DrawStock()
    state = apply(state, DrawStock())
    assert greedy_move(state) == Discard(parse_card("3H"))


def greedy_against_random(seed: int, rounds: int) -> tuple[int, int, int, int]:
    """Two games with the seats swapped: (greedy net, random net, greedy pots, random pots)."""
    first = play_game([GreedyBot(seed), RandomBot(seed + 1)], rounds=rounds, seed=seed).state
    second = play_game([RandomBot(seed + 2), GreedyBot(seed + 3)], rounds=rounds,
                       seed=seed + 1).state
    greedy_net = first.net[0] + second.net[1]
    random_net = first.net[1] + second.net[0]
    greedy_pots = (sum(r.pot_winner == 0 for r in first.results)
                   + sum(r.pot_winner == 1 for r in second.results))
    random_pots = (sum(r.pot_winner == 1 for r in first.results)
                   + sum(r.pot_winner == 0 for r in second.results))
    return greedy_net, random_net, greedy_pots, random_pots


def test_greedy_bot_beats_random_bot() -> None:
    # 3 x 2 games of 30 two-player rounds.  Checked on 25 different seed triples
    # before writing this test: greedy came out ahead every time, by about 150
    # chips and three times as many pots.
    totals = [0, 0, 0, 0]
    for seed in (1, 2, 3):
        totals = [t + x for t, x in zip(totals, greedy_against_random(seed, 30), strict=True)]
    greedy_net, random_net, greedy_pots, random_pots = totals
    assert greedy_net > random_net
    assert greedy_pots > random_pots
