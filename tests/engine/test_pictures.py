"""SVG pictures: cards, hands and both games' tables (cardrules.svg and the
games' ``pictures`` modules).

The important property is that a seat's picture never shows a card the seat
cannot see (DB-37, DB-40, BA-50): every card drawn face up carries a
``data-card`` mark, and over random games the marked cards of each seat's
picture are exactly the cards the rules let that seat see, worked out here
from the full state rather than from the view.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import DECK, Card, Hand, Joker, Suit, parse_card, parse_cards
from cardrules import back_alley as ba
from cardrules import down_and_back as db
from cardrules.back_alley import pictures as ba_pictures
from cardrules.down_and_back import pictures as db_pictures
from cardrules.engine import GameRecord
from cardrules.svg import (
    BLACK,
    CARD_HEIGHT,
    CARD_WIDTH,
    RED,
    card_group,
    card_svg,
    escape,
    hand_svg,
    number,
    row_group,
    svg_document,
    text_element,
)
from support import ROOT
from support.ba_deals import random_game
from support.db_deals import paused_twice, start
from support.recorded import db_recorded_games

SVG = "{http://www.w3.org/2000/svg}"
JOKERS = (Joker.BIG, Joker.LITTLE)
RECORDED = db_recorded_games()


def parse(picture: str) -> ET.Element:
    """The picture as XML; fails the test if it is not well formed SVG."""
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") is not None
    return root


def marks(picture: str) -> tuple[list[str], int]:
    """The text forms of the cards drawn face up, in drawing order, and the
    number of cards drawn face down."""
    faces, down = [], 0
    for group in parse(picture).iter(f"{SVG}g"):
        if group.get("class") == "card back":
            down += 1
        elif group.get("data-card") is not None:
            faces.append(str(group.get("data-card")))
    return faces, down


def shown(picture: str) -> list[str]:
    """The text forms of the cards drawn face up, in drawing order."""
    return marks(picture)[0]


def backs(picture: str) -> int:
    """The number of cards drawn face down."""
    return marks(picture)[1]


def labels(cards: object) -> set[str]:
    return {str(card) for card in cards}  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# Cards and hands


@pytest.mark.parametrize("card", [*DECK, *JOKERS], ids=str)
def test_every_card_and_joker_is_a_well_formed_picture_marked_with_its_name(
        card: Card | Joker) -> None:
    picture = card_svg(card)
    root = parse(picture)
    assert root.get("viewBox") == f"0 0 {CARD_WIDTH} {CARD_HEIGHT}"
    assert shown(picture) == [str(card)]
    group = next(g for g in root.iter(f"{SVG}g") if g.get("data-card"))
    assert group.findtext(f"{SVG}title") == str(card)


@pytest.mark.parametrize("card", DECK, ids=str)
def test_hearts_and_diamonds_are_red_spades_and_clubs_black(card: Card) -> None:
    root = parse(card_svg(card))
    group = next(g for g in root.iter(f"{SVG}g") if g.get("data-card"))
    ink = RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK
    assert group.get("fill") == ink
    texts = list(group.iter(f"{SVG}text"))
    assert texts
    assert {t.get("fill") for t in texts} == {ink}
    rank = "10" if card.rank == 10 else card.rank.char
    assert rank in {t.text for t in texts}
    assert card.suit.symbol in {t.text for t in texts}


def test_jokers_are_labelled_big_red_and_little_black() -> None:
    for joker, ink, word in ((Joker.BIG, RED, "BIG"), (Joker.LITTLE, BLACK, "LITTLE")):
        root = parse(card_svg(joker))
        words = {t.text for t in root.iter(f"{SVG}text")}
        assert {joker.value, word, "BLOOPER"} <= words
        assert {t.get("fill") for t in root.iter(f"{SVG}text")} == {ink}


@pytest.mark.parametrize("card", [parse_card("QH"), parse_card("TC"), Joker.LITTLE], ids=str)
def test_a_card_face_down_shows_nothing_of_its_face(card: Card | Joker) -> None:
    for picture in (card_svg(card, face_down=True), card_svg(None)):
        assert shown(picture) == []
        assert backs(picture) == 1
        assert str(card) not in picture
        texts = [t.text for t in parse(picture).iter(f"{SVG}text")]
        assert texts == []


def test_card_size_sets_the_pixels_not_the_view_box() -> None:
    small, large = parse(card_svg(DECK[0], size=84)), parse(card_svg(DECK[0], size=168))
    assert small.get("viewBox") == large.get("viewBox")
    assert (small.get("width"), small.get("height")) == ("60", "84")
    assert (large.get("width"), large.get("height")) == ("120", "168")
    for bad in (0, -5, True, "120"):
        with pytest.raises(ValueError, match="size must be a positive number"):
            card_svg(DECK[0], size=bad)  # type: ignore[arg-type]


def test_card_group_refuses_what_is_not_a_card() -> None:
    with pytest.raises(TypeError, match="not str"):
        card_group("QH")  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "KS", "AS 2H 3D 4C 5S 6H 7D 8C 9S TH JD QC KS",
                                  "7H BB LB"])
def test_hands_draw_their_cards_in_the_order_given(text: str) -> None:
    hand = Hand.parse(text, jokers=True)
    picture = hand_svg(hand)
    assert shown(picture) == [str(card) for card in hand]
    assert backs(picture) == 0
    root = parse(picture)
    width = float(str(root.get("viewBox")).split()[2])
    assert width == CARD_WIDTH + 24 * max(len(hand) - 1, 0) + 4
    # Any order is kept (a Hand is canonical already; a list is drawn as given).
    backwards = list(reversed(hand))
    assert shown(hand_svg(backwards)) == [str(card) for card in backwards]


def test_a_hand_with_unknown_cards_draws_backs_in_their_places() -> None:
    picture = hand_svg([parse_card("AS"), None, Joker.BIG, None])
    assert shown(picture) == ["AS", "BB"]
    assert backs(picture) == 2


def test_the_empty_hand_is_an_empty_outline() -> None:
    root = parse(hand_svg(()))
    assert root.findtext(f"{SVG}title") == "no cards"
    assert [e.tag for e in root] == [f"{SVG}title", f"{SVG}rect"]


def test_hand_step_must_be_a_number_of_at_least_zero() -> None:
    assert shown(hand_svg(parse_cards("AS KS"), step=0)) == ["AS", "KS"]
    with pytest.raises(ValueError, match="step"):
        hand_svg(parse_cards("AS KS"), step=-1)


def test_row_group_highlights_only_the_card_named() -> None:
    row = row_group(parse_cards("AS KS QS"), 0, 0, highlight=parse_card("KS"))
    assert row.count('stroke-width="3"') == 1
    root = parse(svg_document(200, 100, row))
    marked = [g.get("data-card") for g in root.iter(f"{SVG}g")
              if any(r.get("stroke-width") == "3" for r in g.iter(f"{SVG}rect"))]
    assert marked == ["KS"]


def test_pictures_are_deterministic() -> None:
    hand = Hand.parse("AS 7D QH KC")
    assert hand_svg(hand) == hand_svg(Hand.parse("KC QH 7D AS"))
    assert card_svg(Joker.BIG, size=100) == card_svg(Joker.BIG, size=100)


def test_numbers_are_written_short_and_stable() -> None:
    assert [number(v) for v in (0, 1.0, 2.5, 1 / 3, -0.0001, 45.004, 100)] == \
        ["0", "1", "2.5", "0.33", "0", "45", "100"]


# ---------------------------------------------------------------------------
# Escaping and text


def test_text_is_escaped_and_reads_back_unchanged() -> None:
    nasty = "<script>alert('x')</script> & \"quoted\""
    picture = svg_document(100, 40, text_element(5, 20, nasty), title=nasty)
    root = parse(picture)
    assert root.findtext(f"{SVG}title") == nasty
    assert root.findtext(f"{SVG}text") == nasty
    assert "<script>" not in picture
    assert escape("a<b>&'\"") == "a&lt;b&gt;&amp;&#x27;&quot;"


def test_text_is_twelve_units_high_unless_told() -> None:
    # The labels under cards and the pictures' notes use the default size.
    default = parse(svg_document(10, 10, text_element(0, 0, "x"))).find(f"{SVG}text")
    large = parse(svg_document(10, 10, text_element(0, 0, "x", size=16))).find(f"{SVG}text")
    assert default is not None
    assert large is not None
    assert (default.get("font-size"), large.get("font-size")) == ("12", "16")


def test_text_attributes_are_checked_and_escaped() -> None:
    root = parse(svg_document(10, 10, text_element(0, 0, "x", fill='red" onload="evil()')))
    element = root.find(f"{SVG}text")
    assert element is not None
    assert element.get("fill") == 'red" onload="evil()'
    assert element.get("onload") is None
    with pytest.raises(ValueError, match="anchor"):
        text_element(0, 0, "x", anchor="left")
    with pytest.raises(ValueError, match="weight"):
        text_element(0, 0, "x", weight="heavy")


def test_documents_need_a_positive_size() -> None:
    with pytest.raises(ValueError, match="positive width and height"):
        svg_document(0, 10, "")
    with pytest.raises(ValueError, match="pixel_width"):
        svg_document(10, 10, "", pixel_width=0)
    assert parse(svg_document(100, 50, "", pixel_width=300)).get("height") == "150"


def test_no_external_resources_are_referenced() -> None:
    pictures = [card_svg(DECK[5]), card_svg(Joker.BIG), card_svg(None), hand_svg(DECK[:9]),
                db_pictures.state_svg(db.new_game(3)), ba_pictures.state_svg(ba.new_game())]
    for picture in pictures:
        for word in ("href", "http://", "https://", "@import", "url(", "<image", "<script"):
            assert word not in picture.replace('xmlns="http://www.w3.org/2000/svg"', "")


# ---------------------------------------------------------------------------
# Notebook hooks


def test_cards_jokers_and_hands_have_svg_reprs() -> None:
    card = parse_card("9D")
    assert card._repr_svg_() == card_svg(card)
    for joker in JOKERS:
        assert getattr(joker, "_repr_svg_")() == card_svg(joker)  # noqa: B009
    hand = Hand.parse("9D 2S LB", jokers=True)
    assert hand._repr_svg_() == hand_svg(hand)
    assert shown(Hand()._repr_svg_()) == []


def test_views_and_states_have_svg_and_html_reprs() -> None:
    rng = random.Random(4)
    s = db.new_game(3)
    for _ in range(12):
        s = db.apply(s, db.sample_chance(s, rng) if s.is_chance else rng.choice(
            db.legal_actions(s)))
    v = db.view(s, 1)
    assert v._repr_svg_() == db_pictures.view_svg(v)
    assert s._repr_svg_() == db_pictures.state_svg(s)
    assert v._repr_html_() == f'<div class="cardrules-table">{v._repr_svg_()}</div>'
    assert s._repr_html_() == f'<div class="cardrules-table">{s._repr_svg_()}</div>'
    b = ba.new_game(max_hand_size=3)
    for _ in range(6):
        b = ba.apply(b, ba.sample_chance(b, rng) if b.is_chance else rng.choice(
            ba.legal_actions(b)))
    w = ba.view(b, 2)
    assert w._repr_svg_() == ba_pictures.view_svg(w)
    assert b._repr_svg_() == ba_pictures.state_svg(b)
    assert w._repr_html_() == f'<div class="cardrules-table">{w._repr_svg_()}</div>'
    assert b._repr_html_() == f'<div class="cardrules-table">{b._repr_svg_()}</div>'


def test_importing_the_package_and_games_does_not_import_the_pictures() -> None:
    code = ("import sys, cardrules, cardrules.down_and_back, cardrules.back_alley; "
            "print(sorted(m for m in sys.modules if 'svg' in m or 'pictures' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_table_pictures_refuse_the_wrong_kind_of_object() -> None:
    for state, game, pictures in ((db.new_game(2), db, db_pictures),
                                  (ba.new_game(), ba, ba_pictures)):
        with pytest.raises(TypeError, match=r"takes a View, not GameState; .*view\(state, seat\)"):
            pictures.view_svg(state)
        with pytest.raises(TypeError, match="takes a GameState, not View"):
            pictures.state_svg(game.view(state, 0))


def test_pictures_take_a_display_width() -> None:
    root = parse(db_pictures.state_svg(db.new_game(2), width=380))
    assert root.get("width") == "380"
    assert root.get("viewBox", "").startswith("0 0 760 ")
    root = parse(ba_pictures.view_svg(ba.view(ba.new_game(), 0), width=1520))
    assert root.get("width") == "1520"


# ---------------------------------------------------------------------------
# Down and Back: what each seat's picture shows (DB-37, DB-40, DB-42)


def db_visible(state: db.GameState, seat: int) -> set[str]:
    """The cards ``seat`` may see, from the full state: its own cards, the
    discard pile, the cards everyone saw taken from it, the splits once all
    are revealed and the tie-break draws on the table."""
    visible = labels(state.hands[seat]) | labels(state.discard)
    for other in range(state.num_players):
        visible |= labels(state.seen[other])
    revealed = all(split is not None for split in state.splits)
    for other, split in enumerate(state.splits):
        if split is not None and (revealed or other == seat):
            visible |= labels(split.down) | labels(split.back)
    if state.showdown is not None:
        visible |= {str(draw.card) for draw in state.showdown.drawn}
    return visible


def db_hidden(state: db.GameState, seat: int) -> set[str]:
    """The cards ``seat`` may not see: the stock, and the other hands except
    their public cards."""
    hidden = labels(state.stock)
    revealed = all(split is not None for split in state.splits)
    for other, hand in enumerate(state.hands):
        if other != seat and not revealed:
            hidden |= labels(hand) - labels(state.seen[other])
    return hidden


def check_db_pictures(state: db.GameState) -> None:
    everything = set().union(*map(labels, state.hands), labels(state.discard))
    for split in state.splits:
        if split is not None:
            everything |= labels(split.down) | labels(split.back)
    if state.showdown is not None:
        everything |= {str(draw.card) for draw in state.showdown.drawn}
    faces, down = marks(db_pictures.state_svg(state))
    assert len(faces) == len(set(faces))
    assert set(faces) == everything
    assert down == (1 if state.stock else 0)
    for seat in range(state.num_players):
        cards, down = marks(db_pictures.view_svg(db.view(state, seat)))
        assert set(cards) == db_visible(state, seat), (seat, str(state))
        assert not set(cards) & db_hidden(state, seat)
        # Each hidden card is drawn as a back, so the counts still add up.
        assert len(cards) == len(set(cards))
        hidden_in_hands = sum(
            len(h) - len(labels(h) & db_visible(state, seat))
            for other, h in enumerate(state.hands) if other != seat)
        assert down == hidden_in_hands + (1 if state.stock else 0)


def db_states(seed: int, players: int) -> Iterator[db.GameState]:
    rng = random.Random(seed)
    state = db.new_game(players, rounds=1)
    while True:
        yield state
        if state.is_terminal:
            return
        state = db.apply(state, db.sample_chance(state, rng) if state.is_chance
                         else rng.choice(db.legal_actions(state)))


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_db37_a_seats_picture_shows_exactly_the_cards_it_may_see(seed: int,
                                                                  players: int) -> None:
    for state in db_states(seed, players):
        check_db_pictures(state)


@pytest.mark.parametrize("game", RECORDED, ids=[g["note"] for g in RECORDED])
def test_db42_recorded_games_with_tie_breaks_and_reshuffles_leak_nothing(
        game: dict[str, str]) -> None:
    states = list(db.RULES.replay(GameRecord.from_text(game["record"])))
    for state in states:
        check_db_pictures(state)


def test_db42_a_paused_tie_break_shows_its_draws_and_every_split() -> None:
    game = next(g for g in RECORDED if "during a tie-break" in g["note"])
    paused = next(s for s in db.RULES.replay(GameRecord.from_text(game["record"]))
                  if s.showdown is not None)
    assert paused.showdown is not None
    picture = db_pictures.view_svg(db.view(paused, 0))
    drawn = {str(d.card) for d in paused.showdown.drawn}
    assert drawn <= set(shown(picture))
    assert f"tie-break {paused.showdown.stage}" in picture
    for split in paused.splits:
        assert split is not None
        assert labels(split.down) | labels(split.back) <= set(shown(picture))


def test_db_picture_writes_out_pot_dealer_turn_and_phase() -> None:
    rng = random.Random(7)
    state = db.new_game(3, ante=2)
    while state.phase is not db.Phase.DRAW:
        state = db.apply(state, db.sample_chance(state, rng) if state.is_chance
                         else rng.choice(db.legal_actions(state)))
    root = parse(db_pictures.view_svg(db.view(state, 2)))
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert f"pot {state.pot}" in text
    assert f"dealer seat {state.dealer}" in text
    assert f"seat {state.current_player} to act" in text
    assert "phase DRAW" in text
    assert "seat 2 (you)" in text
    assert f"stock {len(state.stock)}" in text


def test_db_the_card_just_drawn_is_highlighted_for_its_drawer_only() -> None:
    rng = random.Random(2)
    state = db.new_game(2)
    while state.phase is not db.Phase.DISCARD:
        state = db.apply(state, db.sample_chance(state, rng) if state.is_chance
                         else rng.choice(db.legal_actions(state)))
    drawer = state.current_player
    assert drawer is not None
    assert state.drawn is not None
    mine = parse(db_pictures.view_svg(db.view(state, drawer)))
    lit = [g.get("data-card") for g in mine.iter(f"{SVG}g")
           if any(r.get("stroke-width") == "3" for r in g.findall(f"{SVG}rect"))]
    assert lit == [str(state.drawn)]
    other = parse(db_pictures.view_svg(db.view(state, 1 - drawer)))
    assert not any(r.get("stroke-width") == "3" for r in other.iter(f"{SVG}rect"))


def test_db_game_over_names_the_leaders() -> None:
    *_, final = db_states(5, 3)
    assert final.is_terminal
    text = " ".join(t.text or "" for t in parse(db_pictures.state_svg(final))
                    .iter(f"{SVG}text"))
    best = max(final.net)
    leaders = ", ".join(str(s) for s, net in enumerate(final.net) if net == best)
    assert "game over; leader" in text
    assert f": seat {leaders}" in text
    assert "round 1:" in text


# ---------------------------------------------------------------------------
# Back Alley: what each seat's picture shows (BA-50)


def ba_public(state: ba.GameState) -> set[str]:
    """The public cards on the table: the turned card, a discarded joker, the
    current trick and the last finished trick."""
    public = labels(state.trick)
    if state.trump_card is not None:
        public.add(str(state.trump_card))
    if state.joker_discard is not None:
        public.add(str(state.joker_discard))
    if state.tricks:
        public |= labels(state.tricks[-1].cards)
    return public


def check_ba_pictures(state: ba.GameState) -> None:
    faces, down = marks(ba_pictures.state_svg(state))
    everything = set().union(*map(labels, state.hands), labels(state.undealt),
                             ba_public(state))
    assert set(faces) == everything
    assert down == 0
    for seat in range(4):
        cards, down = marks(ba_pictures.view_svg(ba.view(state, seat)))
        assert len(cards) == len(set(cards))
        assert set(cards) == labels(state.hands[seat]) | ba_public(state), (seat, str(state))
        hidden = labels(state.undealt).union(
            *(labels(h) for other, h in enumerate(state.hands) if other != seat))
        assert not set(cards) & hidden
        assert down == sum(len(h) for other, h in enumerate(state.hands) if other != seat)


def ba_states(state: ba.GameState, rng: random.Random) -> Iterator[ba.GameState]:
    while True:
        yield state
        if state.is_terminal:
            return
        state = ba.apply(state, ba.sample_chance(state, rng) if state.is_chance
                         else rng.choice(ba.legal_actions(state)))


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 3))
def test_ba50_a_seats_picture_shows_exactly_the_cards_it_may_see(seed: int, size: int) -> None:
    for state in ba_states(ba.new_game(max_hand_size=size), random.Random(seed)):
        check_ba_pictures(state)


def test_ba13_the_card_taken_for_a_joker_stays_hidden_from_the_others() -> None:
    # Dealer 0 deals 13 cards each from seat 1; the 53rd card (BB) is turned,
    # and LB, on top, goes to seat 1, who discards it and takes the next card.
    order: tuple[Card | Joker, ...] = (Joker.LITTLE, *DECK[:51], Joker.BIG, DECK[51])
    state = ba.apply(ba.new_game(), ba.ChooseDealer(0))
    state = ba.apply(state, ba.Shuffle(order))
    assert state.joker_discard is Joker.LITTLE
    deal = state.deal
    assert deal is not None
    assert deal.exchanger == 1
    assert deal.taken is not None
    taken = str(deal.taken)
    assert taken in shown(ba_pictures.view_svg(ba.view(state, 1)))
    for seat in (0, 2, 3):
        assert taken not in shown(ba_pictures.view_svg(ba.view(state, seat)))
        assert "LB" in shown(ba_pictures.view_svg(ba.view(state, seat)))
    rng = random.Random(11)
    for i, later in enumerate(ba_states(state, rng)):
        if later.deal_number > 1:
            break
        if i % 3 == 0:
            check_ba_pictures(later)


def test_ba_picture_writes_out_bids_contracts_tricks_and_scores() -> None:
    rng = random.Random(5)
    for state in ba_states(ba.new_game(max_hand_size=4), rng):
        if state.phase is ba.Phase.PLAY and state.tricks:
            break
    else:
        pytest.fail("the game never reached a second trick")
    root = parse(ba_pictures.view_svg(ba.view(state, 3)))
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    contracts = state.contracts
    assert contracts is not None
    assert f"team 0 {contracts[0]}" in text
    assert f"team 1 {contracts[1]}" in text
    assert f"scores: team 0 (seats 0, 2) {state.scores[0]}" in text
    assert f"dealer seat {state.dealer}" in text
    assert f"seat {state.current_player} to act" in text
    assert f"last trick, won by seat {state.tricks[-1].winner}" in text
    for seat, bid in enumerate(state.bids):
        assert bid is not None
        assert f"won {state.tricks_won[seat]}" in text
    assert "seat 3 (you)" in text


def test_ba_picture_sums_up_the_last_finished_deal() -> None:
    rng = random.Random(6)
    for state in ba_states(ba.new_game(max_hand_size=2), rng):
        if state.results:
            break
    text = " ".join(t.text or "" for t in parse(ba_pictures.view_svg(ba.view(state, 0)))
                    .iter(f"{SVG}text"))
    assert f"last {state.results[-1]}" in text
    assert "last deal 1 (2 cards" in text


# ---------------------------------------------------------------------------
# The documentation's cardrules-svg directive (docs/_ext/svg_pictures.py)


def _directive_module() -> Any:
    pytest.importorskip("docutils")
    path = ROOT / "docs" / "_ext" / "svg_pictures.py"
    spec = importlib.util.spec_from_file_location("svg_pictures", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_directive_draws_the_value_of_the_last_line() -> None:
    picture_of = _directive_module()._picture_of
    code = "from cardrules import Hand\nhand = Hand.parse('AS KD')\nhand"
    assert picture_of(code, "test") == hand_svg(Hand.parse("AS KD"))
    assert picture_of("from cardrules.svg import card_svg\ncard_svg(None)", "test") == \
        card_svg(None)


@pytest.mark.parametrize(("code", "message"), [
    ("x = 1", "last line must be an expression"),
    ("", "last line must be an expression"),
    ("1 + 1", "gave int, not SVG text"),
    ("'<div></div>'", "gave str, not SVG text"),
])
def test_docs_directive_refuses_code_that_gives_no_picture(code: str, message: str) -> None:
    picture_of = _directive_module()._picture_of
    with pytest.raises(ValueError, match=message):
        picture_of(code, "test")


def test_the_back_alley_pictures_of_a_whole_game_are_pinned() -> None:
    """A regression pin of the layout, not a rule: the table from above and
    from each seat (BA-50) at all 76 states of a seeded game with deals of
    1 to 3 cards, one of them with a joker turned (BA-13), hash to exactly
    this.  A deliberate change of the pictures updates the digest; any other
    change of it is an accident (a coordinate, a label or a card moved)."""
    digest = hashlib.sha256()
    states = list(random_game(6, 3))
    assert len(states) == 76
    assert any(isinstance(s.trump_card, Joker) for s in states)
    for state in states:
        digest.update(ba_pictures.state_svg(state).encode())
        for seat in range(4):
            digest.update(ba_pictures.view_svg(ba.view(state, seat)).encode())
    assert digest.hexdigest() == (
        "f82ce4e15b1e07cce9df5e108ac7e7d59587588bb94532c293b52ff440551711")


# -- Down and Back tables in a tie-break and at the showdown -------------------------------


def test_db42_the_cards_on_the_table_are_drawn_side_by_side() -> None:
    # The picture of a paused tie-break lays this pass's draws face up in draw
    # order, left to right, under the tie-break line (a pin of the layout).
    import re

    from cardrules.down_and_back.pictures import state_svg

    picture = state_svg(paused_twice())
    found = re.findall(r'data-card="(JS|JH)" fill="[^"]*" transform="translate\(([^)]*)\)',
                       picture)
    assert found == [("JS", "12 167"), ("JH", "69 167")]
    line = re.findall(r'<text x="(\d+)" y="(\d+)"[^>]*>tie-break DOWN: seats 2, 4; drawn this '
                      r'pass:</text>', picture)
    assert line == [("12", "161")]


def test_only_the_seat_to_act_is_labelled_so_on_a_down_and_back_table() -> None:
    import re

    from cardrules.down_and_back.pictures import state_svg

    state = start(3, 0, {}, rounds=1)
    assert state.current_player == 1
    labels = re.findall(r">(seat \d[^<]*)<", state_svg(state))
    assert labels == ["seat 0 · dealer · net -1 · turns 0 · 7 cards",
                      "seat 1 · to act · net -1 · turns 0 · 7 cards",
                      "seat 2 · net -1 · turns 0 · 7 cards"]


def test_db40_a_revealed_split_is_drawn_down_then_back() -> None:
    # Once the splits are revealed (DB-40) each row shows the four cards of
    # the down hand fanned from the left and the back hand after a gap.
    import re

    from cardrules.down_and_back.pictures import state_svg

    picture = state_svg(paused_twice())
    xs = {}
    for text in ("QD", "QC", "9D", "9C", "KS", "KH", "KD"):
        found = re.findall(rf'data-card="{text}" fill="[^"]*" transform="translate\((\d+) ',
                           picture)
        assert len(found) == 1
        xs[text] = int(found[0])
    assert sorted(xs[c] for c in ("QD", "QC", "9D", "9C")) == [12, 39, 66, 93]
    assert sorted(xs[c] for c in ("KS", "KH", "KD")) == [162, 189, 216]


# -- one card and the document, drawn exactly ----------------------------------------------


_TEXT = 'text-anchor="{}" font-weight="{}" fill="#c8102e" font-family="sans-serif"'


def test_a_face_card_is_drawn_exactly_so() -> None:
    # A pin of the picture of one card: the outline inset by half a pixel,
    # the rank and suit in two corners (one turned half round) and a large
    # suit in the middle.
    from cardrules import parse_card
    from cardrules.svg import card_group

    corner = (f'<text x="5" y="16" font-size="14" {_TEXT.format("start", "bold")}>Q</text>'
              f'<text x="5" y="29" font-size="12" {_TEXT.format("start", "normal")}>♥</text>')
    assert card_group(parse_card("QH")) == (
        '<g class="card" data-card="QH" fill="#c8102e" transform="translate(0 0)">'
        '<title>QH</title>'
        '<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#ffffff" '
        'stroke="#555555" stroke-width="1"/>'
        f'{corner}<g transform="rotate(180 30 42)">{corner}</g>'
        f'<text x="30" y="54" font-size="28" {_TEXT.format("middle", "normal")}>♥</text></g>')


def test_a_highlighted_back_is_drawn_exactly_so() -> None:
    from cardrules.svg import card_group

    assert card_group(None, highlight=True) == (
        '<g class="card back" transform="translate(0 0)"><title>face down</title>'
        '<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#24508f" '
        'stroke="#e0a800" stroke-width="3"/>'
        '<rect x="5" y="5" width="50" height="74" rx="3" fill="none" stroke="#ffffff" '
        'stroke-width="1.5"/>'
        '<polygon points="30,26 41,42 30,58 19,42" fill="#ffffff" fill-opacity="0.35"/></g>')


def test_svg_document_takes_any_positive_pixel_width() -> None:
    from cardrules.svg import svg_document

    assert svg_document(100, 50, [], pixel_width=1) == (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="1" '
        'height="0.5"></svg>')
    assert 'width="0.5" height="0.25"' in svg_document(100, 50, [], pixel_width=0.5)
    for bad in (0, -1):
        with pytest.raises(ValueError, match="pixel_width must be positive"):
            svg_document(100, 50, [], pixel_width=bad)


def _texts_and_cards(picture: str) -> tuple[list[tuple[float, float, str]],
                                            list[tuple[float, float, float, float]]]:
    """Each text's anchor point and words, and each card's box, in drawing order."""
    root = parse(picture)
    on_cards = {id(t) for g in root.iter(f"{SVG}g") if "card" in g.get("class", "")
                for t in g.iter(f"{SVG}text")}
    texts = [(float(t.get("x", 0)), float(t.get("y", 0)), t.text or "")
             for t in root.iter(f"{SVG}text") if id(t) not in on_cards]
    boxes = []
    for g in root.iter(f"{SVG}g"):
        found = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\) scale\(([\d.]+)\)",
                             g.get("transform", ""))
        if found and "card" in g.get("class", ""):
            x, y, scale = map(float, found.groups())
            boxes.append((x, y, x + 60 * scale, y + 84 * scale))
    return texts, boxes


@pytest.mark.parametrize("game", RECORDED, ids=[g["note"] for g in RECORDED])
def test_db_picture_text_reads_down_the_page_and_never_on_a_card(game: dict[str, Any]) -> None:
    """Every line of a Down and Back picture lies below the one before (the stock's and
    the discard pile's labels share one), and no text is written over a card: the
    seat rows, the tie-break's draws and the last result each have their own place."""
    for state in db.RULES.replay(GameRecord.from_text(game["record"])):
        for picture in (db_pictures.state_svg(state), db_pictures.view_svg(db.view(state, 0))):
            texts, boxes = _texts_and_cards(picture)
            assert boxes
            ys = [y for _, y, _ in texts]
            assert ys == sorted(ys), texts
            for x, y, words in texts:
                assert not any(left <= x < right and top < y < bottom
                               for left, top, right, bottom in boxes), (words, x, y)


def test_db_a_finished_game_names_its_leader_or_its_leaders() -> None:
    """DB-44: the picture of the end names the seat with the largest net winnings,
    or every seat sharing the lead."""
    told = set()
    for game in RECORDED:
        *_, final = db.RULES.replay(GameRecord.from_text(game["record"]))
        if not final.is_terminal:
            continue
        best = max(final.net)
        leaders = ", ".join(str(s) for s, value in enumerate(final.net) if value == best)
        word = "leader" if "," not in leaders else "leaders"
        assert f"game over; {word}: seat {leaders}" in db_pictures.state_svg(final)
        told.add(word)
    assert "leader" in told
