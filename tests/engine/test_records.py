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
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

import cardrules.down_and_back as db
from cardrules import IllegalActionError, ParseError, parse_card
from cardrules.down_and_back import (
    RULES,
    Action,
    ChooseDealer,
    Cut,
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
from cardrules.engine import Bot, GameRecord, RandomBot, registry
from cardrules.errors import TOKEN_LIMIT
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


# == loading trusts nothing and says where the trouble is ==================================
# Loading a game record trusts nothing, and says where the trouble is.
#
# * Text records: every bad line is a ParseError whose message starts with
#   ``line N:`` (lines counted at ``\n``), whose ``position`` is where its
#   ``token`` starts within that line and whose ``token_length`` is the whole
#   token's length, however long.  Header numbers are ASCII digits only.
# * JSON records: unknown keys, NaN, numbers of absurd length and nesting deep
#   enough to exhaust the recursion limit are ParseErrors; every ValueError or
#   TypeError of the game's action reader becomes a ParseError naming the action.
# * Settings the game refuses are refused when the record is loaded.
# * ``GameRecord.load``/``dump``/``read``: files in either form, chosen by name.

PREFIX = HEADER + "dealer 0\n"   # the line after this is line 7


def text_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        GameRecord.from_text(text)
    return info.value


def json_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        GameRecord.from_json(text)
    return info.value


def assert_located(err: ParseError, text: str) -> None:
    """``err`` names line N of ``text``, and its token lies at its position there."""
    assert err.message.startswith("line ")
    number = int(err.message.split(":")[0].split()[1])
    line = text.split("\n")[number - 1].removesuffix("\r")
    assert err.token is not None
    assert err.position is not None
    assert err.token_length is not None
    shown = err.token if err.token_length == len(err.token) else err.token[:TOKEN_LIMIT]
    assert line[err.position:err.position + len(shown)] == shown
    assert err.position + err.token_length <= len(line)
    assert len(str(err)) < 400


def one_action_record(actions: list[object],
                      settings: Mapping[str, object] | None = None) -> str:
    return json.dumps({"game": "down_and_back",
                       "settings": {"num_players": 2} if settings is None else settings,
                       "actions": actions})


# ---------------------------------------------------------------------------
# text records: every bad line names itself


@pytest.mark.parametrize(("line", "token", "position"), [
    ("shuffle AS KS AS", "AS", 14),           # the repeated card, where it repeats
    ("   shuffle AS KS AS  ", "AS", 17),
    ("cut x", "x", 4),
    ("cut \u0663", "\u0663", 4),           # ARABIC-INDIC DIGIT THREE
    ("cut \uff13", "\uff13", 4),           # FULLWIDTH DIGIT THREE
    ("dealer \u0661", "\u0661", 7),
    ("discard AS KS", "AS KS", 8),
    ("discard  A\u017f", "A\u017f", 9),   # long s is not a suit
])
def test_a_bad_action_line_is_named(line: str, token: str, position: int) -> None:
    text = PREFIX + line + "\n"
    err = text_error(text)
    assert err.message.startswith("line 7: ")
    assert (err.token, err.position, err.token_length) == (token, position, len(token))
    assert_located(err, text)


@pytest.mark.parametrize("digits", [19, 4301, 5000, 100_000])
def test_an_absurdly_long_number_is_a_parse_error(digits: int) -> None:
    line = "cut " + "7" * digits
    text = PREFIX + line + "\n"
    err = text_error(text)
    assert err.message == f"line 7: number too long ({digits} digits)"
    assert (err.position, err.token_length) == (4, digits)
    assert err.token == "7" * min(digits, TOKEN_LIMIT) + ("..." if digits > TOKEN_LIMIT else "")
    assert_located(err, text)


def test_no_settings_means_the_game_defaults() -> None:
    game = GameRecord.from_text("# cardrules down_and_back\n\ndealer 3\n")
    assert game.settings_dict == {}
    assert game.actions == (ChooseDealer(3),)


def test_the_longest_number_allowed_is_read() -> None:
    # 18 digits are read as a number (the game then judges it), 19 are not.
    text = PREFIX + "cut " + "0" * 16 + "12\n"
    assert GameRecord.from_text(text).actions[-1] == Cut(12)


def test_a_long_number_deep_inside_a_line_is_found() -> None:
    line = "split AS 2S 3S 4S / 5S 6S " + "1" * 30
    err = text_error(PREFIX + line)
    assert err.message == "line 7: number too long (30 digits)"
    assert err.position == line.index("1" * 30)


def test_a_long_number_after_one_of_the_longest_allowed_is_found() -> None:
    # A run of 18 digits is allowed, so the search for a longer one goes on past it.
    line = "split AS 2S 3S 4S / 5S 6S " + "1" * 18 + " " + "2" * 25
    err = text_error(PREFIX + line)
    assert err.message == "line 7: number too long (25 digits)"
    assert err.position == line.index("2" * 25)


@pytest.mark.parametrize(("setting", "token", "position"), [
    ("num_players \u0663", "num_players \u0663", 0),
    ("num_players \uff12", "num_players \uff12", 0),
    ("num_players 2.0", "num_players 2.0", 0),
    ("num_players", "num_players", 0),
    ("num_players 2 3", "num_players 2 3", 0),
    ("num-players 2", "num-players", 0),
    ("  n\u00fcm 2", "n\u00fcm", 2),
    ("num_players " + "2" * 5000, "2" * TOKEN_LIMIT + "...", 12),
])
def test_a_bad_setting_line_is_named(setting: str, token: str, position: int) -> None:
    text = "# cardrules down_and_back\n" + setting + "\n\n"
    err = text_error(text)
    assert err.message.startswith("line 2: ")
    assert (err.token, err.position) == (token, position)
    assert_located(err, text)


def test_a_setting_given_twice_is_named_at_its_second_line() -> None:
    text = "# cardrules down_and_back\nnum_players 2\n# note\n  num_players 3\n\n"
    err = text_error(text)
    assert err.message == "line 4: setting given twice"
    assert (err.token, err.position) == ("num_players", 2)


@pytest.mark.parametrize(("settings", "where", "words"), [
    ("num_players 9\n", "line 2", "2 to 5 players"),
    ("num_players 2\nante 0\n", "lines 2-3", "ante"),
    ("num_players 2\ncolour 3\n", "lines 2-3", "colour"),
    ("num_players 2\n# comment\nrounds 0\n", "lines 2-4", "round"),
    ("# no settings, but a comment\nnum_players 1\n", "line 3", "players"),
])
def test_settings_the_game_refuses_are_refused_on_loading(settings: str, where: str,
                                                           words: str) -> None:
    err = text_error("# cardrules down_and_back\n" + settings + "\n")
    assert err.message.startswith(f"{where}: settings refused by the game: ")
    assert words in err.message


def test_an_unknown_game_is_named_on_line_one() -> None:
    text = "# cardrules   chess  \nnum_players 2\n"
    err = text_error(text)
    assert err.message.startswith("line 1: unknown game (choose from down-and-back, ")
    assert (err.token, err.position) == ("chess", 14)
    assert_located(err, text)


def test_a_huge_unknown_game_name_gives_a_short_error() -> None:
    err = text_error("# cardrules " + "x" * 3_000_000)   # within MAX_RECORD_SIZE
    assert err.token_length == 3_000_000
    assert err.position == 12
    assert len(str(err)) < 200


def test_a_missing_header_is_named_on_line_one() -> None:
    err = text_error("cardrules down_and_back\n")
    assert err.message == "line 1: a record starts with '# cardrules GAME'"
    assert (err.token, err.position) == ("cardrules down_and_back", 0)


def test_lines_are_counted_at_newlines_only() -> None:
    # Form feeds, line and paragraph separators are not line ends: an editor
    # and grep -n count only \n, so the error must too.
    text = HEADER + "# note\u2028still the note\x0cand more\u2029\ndealer 0\r\ncut x\r\n"
    err = text_error(text)
    assert err.message.startswith("line 8: ")
    assert (err.token, err.position) == ("x", 4)
    assert_located(err, text)


def test_windows_line_ends_read_the_same() -> None:
    text = PREFIX + "cut 12\n"
    game = GameRecord.from_text(text.replace("\n", "\r\n"))
    assert game == GameRecord.from_text(text)
    assert game.actions == (ChooseDealer(0), Cut(12))


@pytest.mark.parametrize("value", [None, b"# cardrules down_and_back\n", 3])
def test_record_text_must_be_a_string(value: Any) -> None:
    with pytest.raises(ParseError, match="expected record text"):
        GameRecord.from_text(value)
    with pytest.raises(ParseError, match="expected record text"):
        GameRecord.read(value)
    with pytest.raises(ParseError, match="expected JSON text"):
        GameRecord.from_json(value)


# ---------------------------------------------------------------------------
# a game whose action readers raise plain errors: they become ParseErrors


@pytest.fixture
def fragile(monkeypatch: pytest.MonkeyPatch) -> str:
    """A copy of Down and Back named 'fragile', whose readers fail on cue."""
    def parse_action(text: str) -> db.Action:
        if "value" in text:
            raise ValueError("no values here")
        if "type" in text:
            raise TypeError("no types here")
        return db.parse_action(text)

    def action_from_dict(data: Mapping[str, object]) -> db.Action:
        kind = data.get("type") if isinstance(data, Mapping) else None
        if kind == "value":
            raise ValueError("no values here")
        if kind == "type":
            raise TypeError("no types here")
        if kind == "deep":
            raise RecursionError("maximum recursion depth exceeded")
        return db.action_from_dict(data)

    rules = attrs.evolve(RULES, name="fragile", parse_action=parse_action,
                         action_from_dict=action_from_dict)
    monkeypatch.setitem(registry._REGISTERED, "fragile", rules)
    return "fragile"


@pytest.mark.parametrize(("line", "message"), [
    ("  value 3", "line 4: no values here"),
    ("type", "line 4: no types here"),
])
def test_plain_errors_of_parse_action_name_the_line(fragile: str, line: str,
                                                    message: str) -> None:
    text = f"# cardrules {fragile}\nnum_players 2\n\n{line}\n"
    err = text_error(text)
    assert err.message == message
    assert (err.token, err.position) == (line.strip(), line.index(line.strip()))
    assert_located(err, text)


@pytest.mark.parametrize(("kind", "message"), [
    ("value", "action 2: no values here"),
    ("type", "action 2: no types here"),
    ("deep", "action 2: maximum recursion depth exceeded"),
])
def test_plain_errors_of_action_from_dict_name_the_action(fragile: str, kind: str,
                                                          message: str) -> None:
    text = json.dumps({"game": fragile, "settings": {"num_players": 2},
                       "actions": [{"type": "dealer", "seat": 1}, {"type": kind}]})
    err = json_error(text)
    assert err.message == message
    assert err.token == repr({"type": kind})


# ---------------------------------------------------------------------------
# JSON records


@pytest.mark.parametrize("text", [
    "[" * 100_000,
    '{"a": ' * 100_000,
    one_action_record([]).replace('"actions": []', '"actions": ' + "[" * 100_000),
])
def test_json_nested_beyond_the_recursion_limit_is_a_parse_error(text: str) -> None:
    err = json_error(text)
    assert err.message == "not valid JSON (nested too deeply)"


def test_json_nested_just_within_the_recursion_limit_is_a_parse_error() -> None:
    depth = sys.getrecursionlimit() - 60
    action = "[" * depth + "]" * depth
    err = json_error(one_action_record([]).replace('"actions": []', f'"actions": [{action}]'))
    assert err.message.startswith("action 1: ")
    assert len(str(err)) < 400


@pytest.mark.parametrize(("where", "digits"), [
    ("settings", 5000), ("settings", 19), ("action", 4301), ("action", 100_000),
])
def test_huge_json_numbers_are_parse_errors(where: str, digits: int) -> None:
    number = "9" * digits
    if where == "settings":
        text = one_action_record([]).replace('"num_players": 2', f'"num_players": {number}')
    else:
        text = one_action_record([{"type": "cut", "count": 0}]).replace('"count": 0',
                                                                       f'"count": -{number}')
    err = json_error(text)
    assert err.message == f"number too long ({digits} digits)"
    assert err.token_length == digits + (where == "action")
    assert len(str(err)) < 200


def test_eighteen_digit_json_numbers_reach_the_game() -> None:
    err = json_error(one_action_record([], {"num_players": 10 ** 17}))
    assert "settings refused by the game" in err.message


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_constants_that_are_not_json_are_refused(constant: str) -> None:
    err = json_error(one_action_record([]).replace('"num_players": 2',
                                                   f'"num_players": {constant}'))
    assert err.message.startswith("not valid JSON")
    assert err.token == constant


@pytest.mark.parametrize(("data", "message"), [
    ({"game": "down_and_back", "settings": {"num_players": 2}, "actions": [], "notes": ""},
     "record: unknown key"),
    ({"game": "down_and_back", "settings": {"num_players": 2}}, "record: missing 'actions'"),
    ({"settings": {"num_players": 2}, "actions": []}, "record: missing 'game'"),
    ({"game": "down_and_back", "settings": [], "actions": []},
     "record: 'settings' must be an object"),
    ({"game": "down_and_back", "settings": {"num_players": True}, "actions": []},
     "record: 'settings': 'num_players' must be a whole number"),
    ({"game": "down_and_back", "settings": {"num_players": 2.0}, "actions": []},
     "record: 'settings': 'num_players' must be a whole number"),
    ({"game": "down_and_back", "settings": {"num_players": 7}, "actions": []},
     "record: 'settings': settings refused by the game: "),
    ({"game": "down_and_back", "settings": {"players": 3}, "actions": []},
     "record: 'settings': settings refused by the game: "),
    ({"game": "down_and_back", "settings": {"num_players": 2}, "actions": {}},
     "record: 'actions' must be a list"),
    ({"game": 3, "settings": {"num_players": 2}, "actions": []},
     "record: 'game' must be text"),
])
def test_malformed_record_objects(data: dict[str, object], message: str) -> None:
    err = json_error(json.dumps(data))
    assert err.message.startswith(message)


def test_a_record_must_be_an_object() -> None:
    assert json_error("[1, 2]").message == "record must be a JSON object, not list"


@pytest.mark.parametrize("actions", [
    [{"type": "dealer", "seat": 0}, {"type": "cut"}],
    [{"type": "dealer", "seat": 0}, {"type": "hop"}],
    [{"type": "dealer", "seat": 0}, "cut 3"],
    [{"type": "dealer", "seat": 0}, {"type": "shuffle", "order": ["AS", "AS"]}],
    [{"type": "dealer", "seat": 0}, {"type": "discard", "card": "A\u017f"}],
])
def test_a_bad_json_action_is_named_by_its_number(actions: list[object]) -> None:
    err = json_error(one_action_record(actions))
    assert err.message.startswith("action 2: ")


def test_a_good_json_record_still_loads() -> None:
    text = one_action_record([{"type": "dealer", "seat": 1}, {"type": "draw_stock"}])
    game = GameRecord.from_json(text)
    assert game.actions == (ChooseDealer(1), DrawStock())
    assert game.settings_dict == {"num_players": 2}


# ---------------------------------------------------------------------------
# files


def played_record(seed: int = 3) -> GameRecord:
    rng = random.Random(seed)
    state = db.new_game(3, rounds=1)
    actions = []
    while not state.is_terminal:
        action = db.sample_chance(state, rng) if state.is_chance \
            else rng.choice(db.legal_actions(state))
        state = db.apply(state, action)
        actions.append(action)
    return RULES.record(state, actions)


@pytest.mark.parametrize("name", ["game.json", "game.JSON", "game", "game.rec"])
def test_dump_writes_json_by_default(tmp_path: Path, name: str) -> None:
    game = played_record()
    path = tmp_path / name
    game.dump(path)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert json.loads(text) == game.to_dict()
    assert GameRecord.load(path) == game
    assert GameRecord.load(str(path)) == game


@pytest.mark.parametrize("name", ["game.txt", "GAME.TXT"])
def test_dump_writes_text_for_txt_names(tmp_path: Path, name: str) -> None:
    game = played_record()
    path = tmp_path / name
    game.dump(str(path))
    assert path.read_text(encoding="utf-8") == game.to_text()
    assert GameRecord.load(path) == game


def test_load_reads_either_form_from_other_names(tmp_path: Path) -> None:
    game = played_record()
    (tmp_path / "a.record").write_text(game.to_text(), encoding="utf-8")
    (tmp_path / "b.record").write_text("\n  " + game.to_json(), encoding="utf-8")
    assert GameRecord.load(tmp_path / "a.record") == game
    assert GameRecord.load(tmp_path / "b.record") == game


def test_load_trusts_the_name_for_txt_and_json(tmp_path: Path) -> None:
    game = played_record()
    (tmp_path / "text.json").write_text(game.to_text(), encoding="utf-8")
    (tmp_path / "json.txt").write_text(game.to_json(), encoding="utf-8")
    with pytest.raises(ParseError, match="not valid JSON"):
        GameRecord.load(tmp_path / "text.json")
    with pytest.raises(ParseError, match="line 1: a record starts with"):
        GameRecord.load(tmp_path / "json.txt")


def test_load_accepts_a_byte_order_mark(tmp_path: Path) -> None:
    game = played_record()
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + game.to_text().encode())
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + game.to_json().encode())
    assert GameRecord.load(tmp_path / "bom.txt") == game
    assert GameRecord.load(tmp_path / "bom.json") == game


def test_load_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(PREFIX + "cut x\n", encoding="utf-8")
    with pytest.raises(ParseError) as info:
        GameRecord.load(path)
    assert info.value.message == f"{path}: line 7: expected a whole number"
    assert (info.value.token, info.value.position) == ("x", 4)


def test_load_refuses_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(HEADER.encode() + b"dealer 0\n# caf\xe9\n")
    with pytest.raises(ParseError) as info:
        GameRecord.load(path)
    assert info.value.message == f"{path}: not UTF-8 text"
    assert info.value.position == len(HEADER) + len("dealer 0\n# caf")


def test_load_of_a_missing_file_is_the_usual_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        GameRecord.load(tmp_path / "nowhere.json")


@pytest.mark.parametrize("text", [
    '{"game": "down_and_back", "settings": {"num_players": 2}, "actions": []}',
    '\ufeff \n {"game": "down_and_back", "settings": {"num_players": 2}, "actions": []}',
    "# cardrules down_and_back\nnum_players 2\n",
])
def test_read_sniffs_the_form(text: str) -> None:
    assert GameRecord.read(text).settings_dict == {"num_players": 2}


def test_read_reports_errors_of_the_form_it_chose() -> None:
    with pytest.raises(ParseError, match="not valid JSON"):
        GameRecord.read('{"game": ')
    with pytest.raises(ParseError, match="line 1: "):
        GameRecord.read("[1, 2]")


def test_any_other_complaint_of_the_json_decoder_is_a_parse_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # No JSON text known today makes the decoder raise a plain ValueError, but
    # a future decoder may: it must still come out as a ParseError.
    def complain(text: str, **options: Any) -> object:
        raise ValueError("Exceeds the limit for integer string conversion")

    monkeypatch.setattr(json, "loads", complain)
    err = json_error(one_action_record([]))
    assert err.message == "not valid JSON (Exceeds the limit for integer string conversion)"
    assert err.position is None


@pytest.mark.parametrize("settings", [[("num_players", 2)], "num_players 2", None])
def test_record_settings_must_be_a_mapping(settings: Any) -> None:
    with pytest.raises(ParseError, match=r"\Asettings are a mapping of names to whole numbers "
                                         r"or null, not "):
        GameRecord("down_and_back", settings, ())


def test_a_nineteen_digit_setting_is_too_long() -> None:
    text = "# cardrules down_and_back\nnum_players " + "1" * 19 + "\n"
    err = text_error(text)
    assert err.message == "line 2: number too long (19 digits)"
    assert (err.position, err.token_length) == (12, 19)


def test_dump_writes_json_indented_by_two_spaces(tmp_path: Path) -> None:
    record = GameRecord("down_and_back", {"num_players": 2}, (ChooseDealer(1),))
    path = tmp_path / "game.json"
    record.dump(path)
    text = path.read_text(encoding="utf-8")
    assert text == record.to_json(indent=2) + "\n"
    assert '\n  "settings": {\n    "num_players": 2\n  },' in text


# -- one limit on numbers for every reader ----------------------------------------------

def _verdict(read: Any) -> str:
    """``"ok"`` with the record read, or the refusal without its place
    (``line N:``, ``action N:``, ``record: 'settings': 'name':``)."""
    try:
        return f"ok {read()!r}"
    except ParseError as err:
        return "refused: " + err.message.rsplit(": ", 1)[-1] + f" [{err.token}]"


_LONGEST = 10 ** 18 - 1   # 18 digits
_TOO_LONG = 10 ** 18      # 19 digits


@pytest.mark.parametrize("value", [_LONGEST, _TOO_LONG, -_LONGEST, -_TOO_LONG])
@pytest.mark.parametrize(("game", "settings", "action"), [
    ("down_and_back", {"num_players": 2, "ante": "N"}, None),          # a setting the game takes
    ("down_and_back", {"num_players": 2, "rounds": "N"}, None),
    ("down_and_back", {"num_players": "N"}, None),                     # one it refuses
    ("down_and_back", {"num_players": 2}, {"type": "cut", "count": "N"}),     # action fields
    ("down_and_back", {"num_players": 2}, {"type": "dealer", "seat": "N"}),
    ("back_alley", {}, {"type": "bid", "tricks": "N"}),
])
def test_from_dict_from_json_and_from_text_agree_on_long_numbers(
        game: str, settings: dict[str, Any], action: dict[str, Any] | None, value: int) -> None:
    # from_dict took 19-digit numbers that its own from_text(to_text()) and
    # from_json(to_json()) then refused: one rule (readers.check_digits) for all three.
    def filled(template: Mapping[str, Any]) -> dict[str, Any]:
        return {k: value if v == "N" else v for k, v in template.items()}

    data: dict[str, Any] = {"game": game, "settings": filled(settings),
                            "actions": [] if action is None else [filled(action)]}
    lines = [f"# cardrules {game}", *(f"{k} {v}" for k, v in data["settings"].items()), ""]
    if action is not None:
        lines.append(f"{action['type']} {value}")
    from_dict = _verdict(lambda: GameRecord.from_dict(data))
    verdicts = {from_dict, _verdict(lambda: GameRecord.from_json(json.dumps(data)))}
    if value >= 0:   # text records have no signs: '-' is not a digit
        verdicts.add(_verdict(lambda: GameRecord.from_text("\n".join(lines) + "\n")))
    assert len(verdicts) == 1, verdicts
    if abs(value) > _LONGEST:
        assert from_dict == f"refused: number too long (19 digits) [{value}]"
    else:
        assert "too long" not in from_dict


@pytest.mark.parametrize("where", ["settings", "action"])
def test_from_dict_refuses_a_number_too_long_to_write_out(where: str) -> None:
    huge = 10 ** 5000   # str() refuses it (over 4300 digits): the error must not
    data: dict[str, Any] = {"game": "down_and_back", "settings": {"num_players": 2},
                            "actions": []}
    if where == "settings":
        data["settings"]["ante"] = huge
    else:
        data["actions"] = [{"type": "cut", "count": [1, {"deep": huge}]}]
    with pytest.raises(ParseError) as info:
        GameRecord.from_dict(data)
    assert info.value.message.endswith("number too long (5001 digits)")
    assert info.value.token == "<whole number of 5001 digits>"


@pytest.mark.parametrize("value", [_LONGEST, _TOO_LONG])
def test_a_record_read_from_a_dict_writes_text_and_json_that_read_back(value: int) -> None:
    data = {"game": "down_and_back", "settings": {"num_players": 2, "ante": value},
            "actions": [{"type": "cut", "count": value}]}
    if value == _TOO_LONG:
        assert _verdict(lambda: GameRecord.from_dict(data)).startswith(
            "refused: number too long (19 digits)")
        return
    record = GameRecord.from_dict(data)
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize("blank", ["\u00a0", "\u3000", "\u2003"])
def test_a_line_of_other_white_space_is_refused_not_skipped(blank: str) -> None:
    """Only ASCII blanks separate words or make a line blank, as in parse_action:
    a line holding a no-break or ideographic space is a move that reads as
    nothing, refused with its line number, never silently skipped."""
    text = f"# cardrules down_and_back\nnum_players 2\n\ndealer 0\n{blank}\n"
    with pytest.raises(ParseError, match="line 5"):
        GameRecord.from_text(text)
    # ... and as a separator between the settings and the moves it is no blank line
    with pytest.raises(ParseError, match="line 3"):
        GameRecord.from_text(f"# cardrules down_and_back\nnum_players 2\n{blank}\ndealer 0\n")
    # ASCII blanks alone still make a blank line
    assert GameRecord.from_text("# cardrules down_and_back\nnum_players 2\n \t\ndealer 0\n"
                                ).actions


# -- readers that refuse hostile input early ------------------------------------------


def test_a_json_record_with_more_than_max_settings_is_refused_before_they_are_read() -> None:
    from cardrules.engine.records import MAX_SETTINGS

    settings = {f"k{i}": 0 for i in range(10 ** 6)}
    with pytest.raises(ParseError, match=f"more than {MAX_SETTINGS} settings"):
        GameRecord.from_json(json.dumps({"game": "down_and_back", "settings": settings,
                                         "actions": []}), max_size=None)
    many = {f"k{i}": 0 for i in range(MAX_SETTINGS)}   # at the limit: read, then refused
    with pytest.raises(ParseError, match="settings refused by the game"):
        GameRecord.from_dict({"game": "down_and_back", "settings": many, "actions": []})


def test_a_long_shuffle_line_is_refused_at_its_first_repeat() -> None:
    # A repeat at the second card, and text that is no card 10**7 characters
    # later: the reader stops at the repeat (before, it read the whole line first
    # and named the bad text at its end).
    line = "shuffle AS AS" + " KS" * 3_000_000 + " ZZ"
    with pytest.raises(ParseError) as caught:
        GameRecord.from_text("# cardrules back_alley\n\n" + line + "\n", max_size=None)
    assert caught.value.message == "line 3: a shuffle holds each card once"
    assert (caught.value.token, caught.value.position) == ("AS", 11)


def test_a_shuffle_refuses_a_joker_where_none_may_be_and_reads_a_good_one() -> None:
    with pytest.raises(ParseError, match="jokers are not allowed") as caught:
        GameRecord.from_text("# cardrules down_and_back\nnum_players 2\n\nshuffle AS BB KS\n")
    assert caught.value.position == 11
    record = GameRecord.from_text("# cardrules back_alley\n\nshuffle AS BB KS\n")
    assert str(record.actions[0]) == "shuffle AS BB KS"


def test_records_longer_than_max_record_size_are_refused_unread(tmp_path: Path) -> None:
    from cardrules.engine.records import MAX_RECORD_SIZE

    assert MAX_RECORD_SIZE == 4 * 1024 * 1024
    text = "# cardrules back_alley\n\n" + "play AS\n" * (MAX_RECORD_SIZE // 8)
    assert len(text) > MAX_RECORD_SIZE
    for reader in (GameRecord.from_text, GameRecord.read):
        with pytest.raises(ParseError, match=f"at most {MAX_RECORD_SIZE} characters"):
            reader(text)
    with pytest.raises(ParseError, match=f"at most {MAX_RECORD_SIZE} characters"):
        GameRecord.from_json(" " * MAX_RECORD_SIZE + "{}")
    path = tmp_path / "long.txt"
    path.write_text(text)
    with pytest.raises(ParseError, match=f"long.txt: a record is at most {MAX_RECORD_SIZE} "
                                         "bytes"):
        GameRecord.load(path)
    small = tmp_path / "small.txt"
    GameRecord("down_and_back", {"num_players": 2}, ()).dump(small)
    with pytest.raises(ParseError, match="at most 10 bytes"):
        GameRecord.load(small, max_size=10)
    assert GameRecord.load(small, max_size=None).settings_dict == {"num_players": 2}
