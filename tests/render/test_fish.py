"""Check the fish board picture and its alt text."""

from __future__ import annotations

import io
import math
import random

from PIL import Image

from engine.fish import GAME
from render.common import ALT_LIMIT, ALT_MORE, SEAT_COLOURS, text_length
from render.fish import alt_text, draw_board, render_board
from render.fish import board as fish_board
from render.fish import layout as fish_render
from tests.engine.fish.helpers import position

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


# -- the last move, stranded penguins, highlights and names ----------------------------------------


def _point_box_distance(x: float, y: float, box: tuple[float, float, float, float]) -> float:
    """Return how far a point lies from a box (0 inside)."""
    dx = max(box[0] - x, 0, x - box[2])
    dy = max(box[1] - y, 0, y - box[3])
    return math.hypot(dx, dy)


def _numbers_on_board(view: dict) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Return the ink box of every label, fish count and penguin marker drawn on the board."""
    penguins = {p["tile"] for p in view["penguins"]}
    boxes = []
    for tile in view["tiles"]:
        cx, cy = fish_render.centre(tile["row"], tile["x"])

        def at(box, cx=cx, cy=cy):
            return (box[0] + cx, box[1] + cy, box[2] + cx, box[3] + cy)

        boxes.append((f"label {tile['label']}", at(fish_render.label_box(tile["label"]))))
        if tile["label"] in penguins:
            r = fish_render.PENGUIN_REACH
            boxes.append(
                (f"penguin {tile['label']}", at((-r, fish_render.PENGUIN_DY - r, r, fish_render.PENGUIN_DY + r)))
            )
            boxes.append((f"penguin's fish {tile['label']}", at(fish_render.badge_box(tile["fish"]))))
        elif tile["fish"]:
            boxes.append((f"fish {tile['label']}", at(fish_render.fish_box(tile["fish"]))))
    return boxes


def test_the_last_move_arrow_never_covers_a_label_a_fish_count_or_a_penguin() -> None:
    checked = 0
    for seed in range(60):
        state = GAME.new_game(2 + seed % 3, {}, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            view = GAME.view(state, None)
            line = fish_render.arrow(view)
            if line is None:
                continue
            (sx, sy), (ex, ey) = line
            length = math.hypot(ex - sx, ey - sy)
            assert length > 20, f"seed {seed}: the arrow of {view['last']} is too short to see"
            points = [(sx + (ex - sx) * k / length, sy + (ey - sy) * k / length) for k in range(int(length) + 1)]
            for name, box in _numbers_on_board(view):
                gap = min(_point_box_distance(x, y, box) for x, y in points)
                assert gap >= fish_render.HEAD_HALF, f"seed {seed}: the arrow of {view['last']} covers the {name}"
            checked += 1
    assert checked > 1000


def test_a_long_slide_arrow_runs_along_its_row_between_labels_and_fish_counts() -> None:
    state = position([["H6"], ["A1"]], fish={"H4": 2, "H5": 3})
    GAME.apply(state, 0, {"type": "move", "from": "H6", "to": "H3"})
    view = GAME.view(state, None)
    (sx, sy), (ex, ey) = fish_render.arrow(view)
    centres = {t["label"]: fish_render.centre(t["row"], t["x"]) for t in view["tiles"]}
    h6, h3 = centres["H6"], centres["H3"]
    assert sy == ey, "a move along a row gives a level arrow"
    label_bottom = h6[1] + fish_render.label_box("H6")[3]
    fish_top = h6[1] + fish_render.fish_box(3)[1]
    assert label_bottom < sy < fish_top
    assert ex < sx and h3[0] < ex < h6[0]


def _pixels(image: Image.Image, centre: tuple[float, float], radius: float) -> set[tuple[int, int, int]]:
    """Return the colours on a circle round a point."""
    cx, cy = centre
    return {
        image.getpixel((round(cx + radius * math.cos(a / 10)), round(cy + radius * math.sin(a / 10))))
        for a in range(63)
    }


def test_the_tile_just_placed_on_is_ringed_in_a_colour_no_tile_has() -> None:
    state = GAME.new_game(2, {}, seed=4)
    first = next(a for a in GAME.legal_actions(state, 0))
    GAME.apply(state, 0, first)
    view = GAME.view(state, None)
    image = draw_board(view, NAMES).convert("RGB")
    tile = next(t for t in view["tiles"] if t["label"] == first["tile"])
    assert tile["fish"] == 1
    ring = _pixels(image, fish_render.centre(tile["row"], tile["x"]), fish_render.HEX_R - 1)
    assert fish_render.MARK in ring
    elsewhere = draw_board(GAME.view(GAME.new_game(2, {}, seed=4), None), NAMES).convert("RGB")
    assert fish_render.MARK not in {c for _, c in elsewhere.getcolors(1 << 20)}


def test_a_stranded_penguin_is_drawn_where_it_was_lifted_and_named_in_the_alt_text() -> None:
    state = position([["H7"], ["H8"]], water={"G7"}, fish={"H8": 3})
    before = GAME.view(state, None)
    GAME.apply(state, 0, {"type": "move", "from": "H7", "to": "H5"})
    view = GAME.view(state, None)
    h8 = next(t for t in view["tiles"] if t["label"] == "H8")
    cx, cy = fish_render.centre(h8["row"], h8["x"])
    box = (round(cx - 20), round(cy - 15), round(cx + 30), round(cy + 30))
    after_image = draw_board(view, NAMES).convert("RGB").crop(box)
    plain = {**view, "last": {k: v for k, v in view["last"].items() if k != "stranded"}}
    without = draw_board(plain, NAMES).convert("RGB").crop(box)
    assert after_image.tobytes() != without.tobytes()
    assert {c for _, c in without.getcolors(1 << 16)} <= {fish_render.WATER, fish_render.WATER_LINE}
    assert "Bo's penguin on H8 was stranded and removed." in alt_text(view, NAMES)
    assert "stranded" not in alt_text(before, NAMES)


def test_a_long_name_is_wrapped_in_the_header_and_only_an_endless_one_shortened_never_the_action() -> None:
    view = GAME.view(GAME.new_game(2, {}, seed=4), None)
    for long, whole in (("Bartholomew the Magnificent Penguin of the South Seas", True), ("Bartholomew " * 12, False)):
        image = draw_board(view, [long, "Bo"])
        items = fish_board._header(view, [long, "Bo"], image.width)
        texts = [item for item in items if isinstance(item, fish_board.Text)]
        header = " ".join(item.text for item in texts)
        assert len(texts) <= 2 and header.endswith(" (A) places a penguin"), header
        header_name = header.removesuffix(" (A) places a penguin")
        assert header_name == long if whole else (header_name.endswith("…") and long.startswith(header_name[:-1]))
        for item in texts:
            width = text_length(item.text, item.size, True)
            assert fish_render.MARGIN + width <= image.width - fish_render.MARGIN - 44


def test_alt_text_too_long_for_discord_ends_on_a_whole_sentence() -> None:
    names = ["Ana " * 60, "Bo " * 60, "Cy " * 60, "Di " * 60]
    text = alt_text(GAME.view(played(4, 6), None), names)
    assert len(text) <= ALT_LIMIT
    assert text.endswith(". " + ALT_MORE.strip())
