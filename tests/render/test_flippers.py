"""Check the Flippers images and alt text: valid PNGs, team colours, no hidden cards, readable text."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine.flippers import GAME
from render.common import seat_colour
from render.flippers import alt_text_hand, alt_text_table, render_hand, render_table
from tests.engine.flippers.helpers import NAMES, new_setup, play, random_action, table


def finished(players: int, seed: int, teams: bool = False):
    """Return a finished random game."""
    rng = random.Random(seed)
    state = GAME.new_game(players, {"teams": teams}, seed)
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        GAME.apply(state, seat, random_action(state, seat, rng))
    return state


def image(data: bytes) -> Image.Image:
    """Decode PNG bytes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def has_colour(img: Image.Image, colour: tuple[int, int, int], count: int = 200) -> bool:
    """Return True when at least `count` pixels are within a few levels of `colour`."""
    counts = img.getcolors(maxcolors=1 << 20) or []
    near = sum(n for n, c in counts if all(abs(a - b) <= 6 for a, b in zip(c, colour, strict=True)))
    return near >= count


@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, True), (5, False), (6, False)])
def test_table_renders_in_every_phase_with_each_team_colour(players: int, teams: bool) -> None:
    state = GAME.new_game(players, {"teams": teams}, seed=players)
    setup = image(render_table(GAME.view(state, None), NAMES))
    done = finished(players, players, teams)
    final = image(render_table(GAME.view(done, None), NAMES))
    for img in (setup, final):
        assert img.width >= 960
        assert all(has_colour(img, seat_colour(s)) for s in range(players))


def test_the_table_image_is_the_same_whoever_asks() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up")], {0: ["c-flip"], 1: ["m-flip"]})
    assert render_table(GAME.view(state, 0), NAMES) == render_table(GAME.view(state, None), NAMES)


def test_a_block_marker_and_a_face_down_card_are_drawn() -> None:
    cards = [
        ("food-1", "N15", "N", "A"),
        ("c-plus", "N14", "N", "up"),
        ("m-block", "N13", "S", "up"),
        ("e-turn", "O14", "E", "down"),
    ]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]}, players=3)
    plain = render_table(GAME.view(state, None), NAMES)
    state.engaged[1] = True
    marked = render_table(GAME.view(state, None), NAMES)
    assert plain != marked
    img = image(marked)
    assert has_colour(img, (64, 72, 88))  # the face-down back


def test_alt_text_tells_whose_turn_and_what_is_due_without_hands() -> None:
    cards = [("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up"), ("c-turn", "M14", "N", "up")]
    state = table(cards, {0: ["c-flip", "c-bump"], 1: ["m-flip"]})
    play(state, "c-flip", "O14", "E")
    text = alt_text_table(GAME.view(state, None), NAMES)
    assert text.startswith("Flippers. Turn 1: Ana activates. Still to activate: Turn M14, Plus N14.")
    assert "N15 Krill side A (3 to N14, 1 to N16)" in text
    assert "Bump" not in text and len(text) <= 1024


def test_alt_text_stays_within_discords_limit_on_a_full_table() -> None:
    view = GAME.view(finished(6, 9), None)
    text = alt_text_table(view, NAMES)
    assert len(text) <= 1024 and "Game over" in text


def test_hand_image_and_alt_text_show_the_seats_own_cards() -> None:
    state = new_setup(4, seed=4)
    view = GAME.view(state, 2)
    img = image(render_hand(view, NAMES))
    assert has_colour(img, seat_colour(2))
    text = alt_text_hand(view, NAMES)
    assert text.startswith("Cy's hand: ") and "Choose 2 to discard." in text
    assert all(card["name"] in text for card in view["hand"])
    other = GAME.view(state, 3)
    assert render_hand(other, NAMES) != render_hand(view, NAMES)


def test_an_empty_hand_still_renders() -> None:
    done = finished(2, 1)
    view = GAME.view(done, 0)
    assert view["hand"] == []
    image(render_hand(view, NAMES))
    assert "no cards" in alt_text_hand(view, NAMES)
