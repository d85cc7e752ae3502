"""Tests of the shared modules (cards, hands, checks, errors, the package)
written for mutants that survived a sampled mutation run (tools/MUTATION.md,
seed 11): each pins an outcome the other tests left open."""

from __future__ import annotations

import pytest

import cardrules


def test_simulate_is_imported_on_first_use_and_other_names_are_refused() -> None:
    from cardrules.simulation import simulate

    assert cardrules.simulate is simulate
    with pytest.raises(AttributeError, match="module 'cardrules' has no attribute 'simulation_'"):
        _ = cardrules.simulation_


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
