"""The close-up under a wide Flippers table: around the card played this turn, else the card last put on the table
(after its turn ended), else none; readable on a phone, Food named in it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.flippers import GAME
from render.flippers import CELL, EDGE, alt_text_table, draw_table, layout
from render.flippers.zoom import ZOOM_COLS, ZOOM_ROWS, _window, focus, zoom_height, zoom_scale, zooms
from tests.engine.flippers.helpers import NAMES, random_action
from tests.render.test_flippers import _texts


def late_six(after_turn: bool) -> dict[str, Any]:
    """Return the view of a wide 6-player table late in a random game: just after a card was played, or after
    the turn of the last card played has passed (no card played yet this turn)."""
    rng, state, late = random.Random(5), GAME.new_game(6, {}, 5), None
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        GAME.apply(state, seat, random_action(state, seat, rng))
        view = GAME.view(state, None)
        if (view["played"] is None) == after_turn and view["phase"] == "play" and layout(view).cols >= 9:
            late = GAME.load(GAME.dump(state))
    assert late is not None
    return GAME.view(late, None)


def cell_of(view: dict[str, Any], card: str) -> tuple[int, int]:
    """Return the cell a card lies on."""
    return next((c["col"], c["row"]) for c in view["cards"] if c["id"] == card)


def close_up_differs(picture: Image.Image, view: dict[str, Any], centre: tuple[int, int]) -> float:
    """Return how far the picture's close-up band is from the grid's cells around `centre`, enlarged (0: the same)."""
    at = layout(view)
    wc, nc = _window(at.first_col, at.cols, centre[0], ZOOM_COLS)
    wr, nr = _window(at.first_row, at.rows, centre[1], ZOOM_ROWS)
    left, top = at.left + (wc - at.first_col) * CELL, at.top + (wr - at.first_row) * CELL
    scale = zoom_scale(at.width, at.cols)
    size = (round(nc * CELL * scale), round(nr * CELL * scale))
    rgb = picture.convert("RGB")
    expected = rgb.crop((left, top, left + nc * CELL, top + nr * CELL)).resize(size, Image.Resampling.LANCZOS)
    x, y = (at.width - size[0]) // 2, at.header + at.rows * CELL + 2 * EDGE + EDGE // 2
    band = rgb.crop((x, y, x + size[0], y + size[1]))
    return sum(ImageStat.Stat(ImageChops.difference(band, expected)).mean) / 3


def middle(view: dict[str, Any]) -> tuple[int, int]:
    """Return the middle of the cards (where the close-up used to centre when no card was played this turn)."""
    cols, rows = [c["col"] for c in view["cards"]], [c["row"] for c in view["cards"]]
    return (min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2


def test_a_late_six_player_table_shows_the_last_move_close_up_readable_on_a_phone() -> None:
    view = late_six(after_turn=False)
    at = layout(view)
    assert CELL * 390 / at.width < 30  # the whole table alone: a wall of small cards on a phone
    picture = draw_table(view, NAMES)
    zoom_h = zoom_height(view, at.width, at.cols, at.rows)
    assert zoom_h > 0 and picture.height > at.header + at.rows * CELL + 2 * EDGE + zoom_h
    assert CELL * zoom_scale(at.width, at.cols) * 390 / picture.width >= 45
    assert focus(view) == cell_of(view, view["played"])
    assert close_up_differs(picture, view, cell_of(view, view["played"])) < 4


def test_after_its_turn_the_close_up_stays_on_the_card_last_played_not_the_middle() -> None:
    view = late_six(after_turn=True)
    assert view["played"] is None and view["last_card"] is not None
    last = cell_of(view, view["last_card"])
    assert focus(view) == last
    picture = draw_table(view, NAMES)
    at = layout(view)
    assert _window(at.first_col, at.cols, last[0], ZOOM_COLS) != _window(at.first_col, at.cols, middle(view)[0], 7)
    assert close_up_differs(picture, view, last) < 4, "the close-up shows the cells around the card last played"
    assert close_up_differs(picture, view, middle(view)) > 20, "not the middle of the table"


def test_a_wide_table_no_card_was_put_on_gets_no_close_up_and_names_its_food_on_the_grid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = late_six(after_turn=True) | {"last_card": None}  # as a save from before the card was remembered
    at = layout(view)
    assert focus(view) is None and zoom_height(view, at.width, at.cols, at.rows) == 0
    texts = _texts(monkeypatch)
    picture = draw_table(view, NAMES)
    named = draw_table(late_six(after_turn=True), NAMES)
    assert picture.height < named.height, "no band under the grid"
    food = [c["name"] for c in view["cards"] if c["kind"] == "food"]
    assert all(any(name.startswith(t.rstrip("…")) and len(t) > 2 for t in texts) for name in food)


def test_the_close_up_names_the_food_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    view = late_six(after_turn=False)
    centre = focus(view)
    assert centre is not None
    food = next(c for c in view["cards"] if c["kind"] == "food")
    played = view["played"]
    moved = {**food, "id": played, "col": centre[0], "row": centre[1]}  # a Food card where the card just played lies
    view["cards"] = [c for c in view["cards"] if c["id"] not in (played, food["id"])] + [moved]
    texts = _texts(monkeypatch)
    draw_table(view, NAMES)
    assert any(food["name"].startswith(t.rstrip("…")) and len(t) > 2 for t in texts)


def finished(players: int, seed: int) -> dict[str, Any]:
    """Return the view of a random game of Flippers played to its end."""
    rng, state = random.Random(seed), GAME.new_game(players, {}, seed)
    while not GAME.is_over(state):
        player = rng.choice(GAME.to_act(state))
        GAME.apply(state, player, random_action(state, player, rng))
    return GAME.view(state, None)


def band_paper_share(picture: Image.Image, view: dict[str, Any]) -> float:
    """Return the share of the close-up band's pixels that are bare paper (no card drawn there)."""
    at = layout(view)
    scale = zoom_scale(at.width, at.cols)
    size = (round(min(at.cols, ZOOM_COLS) * CELL * scale), round(min(at.rows, ZOOM_ROWS) * CELL * scale))
    x, y = (at.width - size[0]) // 2, at.header + at.rows * CELL + 2 * EDGE + EDGE // 2
    band = picture.convert("RGB").crop((x, y, x + size[0], y + size[1]))
    paper = band.getpixel((0, 0))
    counts = band.getcolors(size[0] * size[1]) or []
    return sum(n for n, colour in counts if colour == paper) / (size[0] * size[1])


def window_counts(view: dict[str, Any], start: tuple[int, int]) -> tuple[int, int]:
    """Return how many Food cards and how many cards the close-up window from `start` holds."""
    cells = {(c["col"], c["row"]): c["kind"] for c in view["cards"]}
    inside = [cells.get((start[0] + i, start[1] + j)) for i in range(ZOOM_COLS) for j in range(ZOOM_ROWS)]
    return sum(kind == "food" for kind in inside), sum(kind is not None for kind in inside)


def test_the_game_over_close_up_frames_the_food_and_the_most_cards_not_the_empty_edge() -> None:
    view = finished(6, 5)  # its last card went down at the edge of a table whose middle emptied
    assert view["final"] and zooms(view, layout(view).cols)
    picture = draw_table(view, NAMES)
    assert band_paper_share(picture, view) < 0.6, "the close-up is mostly empty paper"
    for players, seed in [(6, 5), (4, 3), (2, 1), (3, 8), (5, 13), (6, 21)]:
        view = finished(players, seed)
        at = layout(view)
        if not zooms(view, at.cols):
            continue
        centre = focus(view)
        assert centre is not None
        col, row = _window(at.first_col, at.cols, centre[0], ZOOM_COLS), _window(at.first_row, at.rows, centre[1], 3)
        shown = (col[0], row[0])
        best = max(
            window_counts(view, (c, r))
            for c in range(at.first_col, at.first_col + at.cols - ZOOM_COLS + 1)
            for r in range(at.first_row, at.first_row + at.rows - ZOOM_ROWS + 1)
        )
        assert window_counts(view, shown) == best, (players, seed, shown)
        alt = alt_text_table(view, NAMES[:players])
        assert all(c["name"] in alt for c in view["cards"] if c["kind"] == "food"), alt  # the close-up adds no words
