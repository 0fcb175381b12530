"""Check the fish board picture and its alt text."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.fish import GAME
from render.common import SEAT_COLOURS
from render.fish import alt_text, draw_board, render_board

NAMES = ["Ana", "Bo", "Cy", "Di"]


def played(players: int, moves: int, seed: int = 3):
    state = GAME.new_game(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def test_the_board_is_a_png_wide_enough_to_read_on_a_phone() -> None:
    png = render_board(GAME.view(played(4, 20), None), NAMES)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert 600 <= image.width <= 1000
    assert image.height > image.width * 0.9


def test_the_same_view_always_gives_the_same_picture() -> None:
    view = GAME.view(played(3, 15), None)
    assert render_board(view, NAMES) == render_board(view, NAMES)


def test_each_seat_colour_appears_on_the_board() -> None:
    image = draw_board(GAME.view(played(4, 8), None), NAMES).convert("RGB")
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    for seat in range(4):
        assert SEAT_COLOURS[seat] in colours


def test_a_later_board_shows_less_ice_than_the_opening_board() -> None:
    ice = (226, 238, 247)
    opening = draw_board(GAME.view(played(2, 0), None), NAMES).convert("RGB")
    later = draw_board(GAME.view(played(2, 40), None), NAMES).convert("RGB")

    def count(image: Image.Image) -> int:
        return dict((c, n) for n, c in image.getcolors(maxcolors=1 << 20)).get(ice, 0)

    assert count(later) < count(opening)


def test_alt_text_says_whose_turn_it_is_where_penguins_stand_and_the_scores() -> None:
    state = played(2, 12)
    view = GAME.view(state, None)
    text = alt_text(view, NAMES)
    current = NAMES[GAME.to_act(state)[0]]
    assert text.startswith(f"{current} to ")
    for p in view["penguins"]:
        assert p["tile"] in text
    assert f"{view['seats'][0]['fish']} fish" in text
    assert len(text) <= 1000


def test_alt_text_names_the_winners_at_the_end() -> None:
    state = played(2, 500)
    assert GAME.is_over(state)
    view = GAME.view(state, None)
    text = alt_text(view, NAMES)
    assert text.startswith("Final board. Winner: ")
    for seat in view["winners"]:
        assert NAMES[seat] in text
