"""Down and Back tests written for mutants that survived a sampled mutation run
(tools/MUTATION.md, seed 11): each pins an outcome the other tests left open."""

from __future__ import annotations

import random

import pytest

from cardrules import DECK, Card, parse_card
from cardrules.down_and_back import (
    Discard,
    DrawStock,
    GameState,
    Phase,
    RoundResult,
    Shuffle,
    Split,
    apply,
    view,
)
from cardrules.down_and_back.checks import check_invariants
from cardrules.down_and_back.determinization import determinize
from support.db_deals import cards, hand_of, idle_until_split, start


def _stock_turn(state: GameState) -> GameState:
    state = apply(state, DrawStock())
    assert state.drawn is not None
    return apply(state, Discard(state.drawn))


def paused_showdown() -> GameState:
    """Five players, dealer 0; seats 2 and 4 tie for the down (DB-41) and the
    stock runs out during their tie-break (DB-42), so the showdown pauses for a
    reshuffle (DB-36) with every split revealed and 8C on the table."""
    chosen = {2: ("QS QH 9S 9H", "2S 3H 5D"), 4: ("QD QC 9D 9C", "KS KH KD"),
              1: ("4D 6S 8H TD", "2C 3S 6H"), 3: ("4H 6D 8S TC", "2D 3C 7H"),
              0: ("4S 6C 8D TH", "2H 3D 7S")}
    finale = cards("5S 5H 8C")
    used = {c for split in chosen.values() for c in hand_of(*split)} | set(finale)
    rest = [c for c in DECK if c not in used]
    return _split_into_a_pause(chosen, rest[0], (*rest[1:], *finale))


def _split_into_a_pause(chosen: dict[int, tuple[str, str]], discard: Card,
                        stock: tuple[Card, ...]) -> GameState:
    """A one-round game of five, dealer 0, dealt ``chosen`` (each seat's down
    and back), ``discard`` face up and ``stock``: thirteen turns draw from the
    stock and throw the card drawn, the rest idle to the showdown, every seat
    splits as chosen (DB-40), and the tie-break pauses for a reshuffle."""
    hands = {seat: hand_of(*split) for seat, split in chosen.items()}
    state = start(5, 0, hands, discard, stock, rounds=1)
    for _ in range(13):
        state = _stock_turn(state)
    state = idle_until_split(state)
    for seat, (down, back) in chosen.items():
        state = apply(state, Split(cards(down), cards(back)), seat=seat)
    assert state.phase is Phase.RESHUFFLE
    assert state.showdown is not None
    return state


def test_db40_determinize_a_paused_showdown_gives_the_state_back() -> None:
    # Once every split is revealed (DB-40) and the stock is empty, nothing is
    # hidden: every seat's determinization is the state itself.
    state = paused_showdown()
    assert state.showdown is not None
    assert state.showdown.drawn[0].card == parse_card("8C")
    for seat in range(5):
        guess = determinize(view(state, seat), random.Random(seat))
        check_invariants(guess)
        assert guess == state


def test_pot_share_of_a_hand_counts_whole_and_shared_pots() -> None:
    # Against a table of opponents' best hands (best down, how many hold it,
    # best back, how many hold it), a hand's pot share is the largest over its
    # undominated splits of the down share times the back share (DB-41, DB-43),
    # a tie splitting a showdown evenly; a hand that loses everything has none.
    from cardrules.down_and_back import strength3, strength4
    from cardrules.down_and_back.search import _pot_share
    from cardrules.down_and_back.showdown import SHARE as _SHARE

    strong = tuple(sorted(c.index for c in cards("KS KH KD KC QS QH QD")))
    weak = tuple(sorted(c.index for c in cards("2S 3H 5D 7C 9S JH 4D")))
    kings, queens = strength4(cards("KS KH KD KC")), strength3(cards("QS QH QD"))
    low_d, low_b = strength4(cards("2C 3D 4H 6S")), strength3(cards("2D 3S 5C"))
    beaten = (low_d, 1, low_b, 2)
    tied_down = (kings, 1, low_b, 1)
    assert _pot_share(strong, [beaten], {}) == _SHARE * _SHARE
    assert _pot_share(strong, [tied_down], {}) == _SHARE // 2 * _SHARE
    assert _pot_share(strong, [beaten, tied_down], {}) == _SHARE * _SHARE * 3 // 2
    assert _pot_share(weak, [(kings, 1, queens, 1)], {}) == 0
    cache: dict[tuple[int, ...], int] = {}
    assert _pot_share(strong, [beaten], cache) == cache[strong] == _SHARE * _SHARE


def test_play_out_makes_each_seats_bot_from_bot_seed_plus_seat() -> None:
    from cardrules.down_and_back import GreedyBot
    from cardrules.down_and_back.rollout import play_out

    seeds: list[int | None] = []

    def factory(seed: int | None) -> GreedyBot:
        seeds.append(seed)
        return GreedyBot(seed=seed)

    state = start(3, 0, {}, rounds=1)
    result = play_out(state, DrawStock(), random.Random(2), bot=factory, bot_seed=5)
    assert seeds == [5, 6, 7]
    assert result.round == 1


def test_split_odds_samples_exactly_the_trials_asked_for() -> None:
    # Each sampled deal gives every opponent seven cards, split by the
    # opponents' policy (DB-40): two opponents over 50 deals make 100 splits,
    # on the plain path and on the numpy path alike.
    from cardrules import Hand
    from cardrules.down_and_back.analysis import greedy_split, split_odds

    for vectorized in (False, True):
        if vectorized:
            pytest.importorskip("numpy")
        calls: list[Hand[Card]] = []

        def policy(hand: Hand[Card], calls: list[Hand[Card]] = calls) -> Split:
            calls.append(hand)
            return greedy_split(hand)

        odds = split_odds("8S 8H 8D QH 5C 6C 7C", 2, trials=50, seed=4,
                          opponent_split=policy, vectorized=vectorized)
        assert len(calls) == 100
        assert all(len(hand) == 7 for hand in calls)
        assert {o.trials for o in odds} == {50}
        assert not any(o.exact for o in odds)


def test_numpy_is_found_when_installed() -> None:
    # The vectorised path is the default exactly when numpy can be imported.
    pytest.importorskip("numpy")
    from cardrules.down_and_back import analysis

    assert analysis._have_numpy() is True


def test_discard_advice_defaults_to_200_rollouts() -> None:
    from cardrules.down_and_back.analysis import discard_advice

    state = start(2, 0, {}, rounds=1)
    seat = state.current_player
    assert seat is not None
    advice = discard_advice(view(state, seat), seed=3)
    assert {a.rollouts for a in advice} == {200}
    assert len(advice) == 2


def _paused_twice() -> GameState:
    """Five players, dealer 0; seats 2 and 4 tie for the down (DB-41).  The 17
    cards outside the hands are eight pairs of ranks and an ace, so the
    tie-break (DB-42) empties the stock, pauses for a reshuffle (DB-36),
    goes on tying through the whole new stock and pauses a second time."""
    chosen = {2: ("QS QH 9S 9H", "2D 3C 4D"), 4: ("QD QC 9D 9C", "KS KH KD"),
              1: ("4C 6D 8H TD", "2C 3D 5D"), 3: ("5C 7D 8D TC", "6C JD AH"),
              0: ("7C TS JC KC", "TH AD AC")}
    fillers = cards("2S 2H 3S 3H 4S 4H 6S 6H 7S 7H 8S JS JH")
    state = _split_into_a_pause(chosen, parse_card("AS"), (*fillers, *cards("5S 5H 8C")))
    assert state.showdown is not None
    assert [d.card for d in state.showdown.drawn] == [parse_card("8C")]
    assert len(state.discard) == 16
    # The new up card is AS; seat 4 ties seat 2's 8C with 8S, then seven more
    # passes tie until the new stock is gone.
    order = cards("AS 8S 2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S 7H JS JH")
    assert set(order) == set(state.discard)
    state = apply(state, Shuffle(order))
    assert state.phase is Phase.RESHUFFLE
    assert state.showdown is not None
    assert [d.card for d in state.showdown.drawn] == list(cards("JS JH"))
    assert state.stock == ()
    return state


def test_db36_a_tie_break_can_pause_twice_and_each_card_stays_single() -> None:
    state = _paused_twice()
    assert state.discard == cards("AS 8C 8S 2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S 7H")
    check_invariants(state)


def test_db42_the_cards_on_the_table_are_drawn_side_by_side() -> None:
    # The picture of a paused tie-break lays this pass's draws face up in draw
    # order, left to right, under the tie-break line (a pin of the layout).
    import re

    from cardrules.down_and_back.pictures import state_svg

    picture = state_svg(_paused_twice())
    found = re.findall(r'data-card="(JS|JH)" fill="[^"]*" transform="translate\(([^)]*)\)',
                       picture)
    assert found == [("JS", "12 167"), ("JH", "69 167")]
    line = re.findall(r'<text x="(\d+)" y="(\d+)"[^>]*>tie-break DOWN: seats 2, 4; drawn this '
                      r'pass:</text>', picture)
    assert line == [("12", "161")]


def test_only_the_seat_to_act_is_labelled_so() -> None:
    import re

    from cardrules.down_and_back.pictures import state_svg

    state = start(3, 0, {}, rounds=1)
    assert state.current_player == 1
    labels = re.findall(r">(seat \d[^<]*)<", state_svg(state))
    assert labels == ["seat 0 · dealer · net -1 · turns 0 · 7 cards",
                      "seat 1 · to act · net -1 · turns 0 · 7 cards",
                      "seat 2 · net -1 · turns 0 · 7 cards"]


def _three_rounds() -> GameState:
    from cardrules.down_and_back import GreedyBot, play_game

    state = play_game([GreedyBot(seed=s) for s in range(3)], rounds=3, seed=5).state
    assert len(state.results) == 3
    check_invariants(state)
    return state


def _with_result(state: GameState, k: int, result: RoundResult) -> GameState:
    import attrs

    results = (*state.results[:k], result, *state.results[k + 1:])
    return attrs.evolve(state, history=attrs.evolve(state.history, results=results))


def test_db31_invariants_refuse_a_result_with_the_wrong_dealer_or_round() -> None:
    # Round k + 1 is dealt by the seat left of round k's dealer (DB-31); a
    # result naming another dealer, or another round number, is refused on
    # its own, the other field being right.
    import attrs

    state = _three_rounds()
    second = state.results[1]
    for bad in (attrs.evolve(second, dealer=(second.dealer + 1) % 3),
                attrs.evolve(second, round=3)):
        with pytest.raises(ValueError, match="the deal passes to the left each round"):
            check_invariants(_with_result(state, 1, bad))


def test_db40_invariants_refuse_result_splits_of_the_wrong_sizes() -> None:
    # Every split of a result is a 4-card down and a 3-card back (DB-40): one
    # seat's back of four and another's of two are refused, though the
    # downs are right and the cards are still 7 per player, all different.
    import attrs

    state = _three_rounds()
    first = state.results[0]
    a, b = first.splits[0], first.splits[1]
    moved = b.back[0]
    splits = (Split(a.down, (*a.back, moved)), Split(b.down, b.back[1:]), *first.splits[2:])
    with pytest.raises(ValueError, match="the splits of a result"):
        check_invariants(_with_result(state, 0, attrs.evolve(first, splits=splits)))


def test_db40_a_revealed_split_is_drawn_down_then_back() -> None:
    # Once the splits are revealed (DB-40) each row shows the four cards of
    # the down hand fanned from the left and the back hand after a gap.
    import re

    from cardrules.down_and_back.pictures import state_svg

    picture = state_svg(_paused_twice())
    xs = {}
    for text in ("QD", "QC", "9D", "9C", "KS", "KH", "KD"):
        found = re.findall(rf'data-card="{text}" fill="[^"]*" transform="translate\((\d+) ',
                           picture)
        assert len(found) == 1
        xs[text] = int(found[0])
    assert sorted(xs[c] for c in ("QD", "QC", "9D", "9C")) == [12, 39, 66, 93]
    assert sorted(xs[c] for c in ("KS", "KH", "KD")) == [162, 189, 216]
