"""Check the Flippers images and alt text: valid PNGs, team colours, no hidden cards, readable text."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine.flippers import GAME
from render.common import INK, PAPER, seat_colour
from render.flippers import (
    CELL,
    EDGE,
    FOOD_INK,
    HAND_CARD,
    HAND_PAD,
    HAND_TOP,
    MIN_WIDTH,
    alt_text_hand,
    alt_text_table,
    draw_hand,
    draw_table,
    layout,
    render_hand,
    render_table,
)
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
        assert img.width >= MIN_WIDTH
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
    assert text.startswith("Flippers. Turn 1: Ana activates. To activate: Turn M14, Plus N14.")
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


def late_table(players: int = 6, seed: int = 3, teams: bool = False):
    """Return the public view of a random game with two turns left to play."""
    rng = random.Random(seed)
    state = GAME.new_game(players, {"teams": teams}, seed)
    while sum(len(h) + len(d) for h, d in zip(state.hands, state.decks, strict=True)) > 8:
        seat = rng.choice(GAME.to_act(state))
        GAME.apply(state, seat, random_action(state, seat, rng))
    return state


def marker(cell: str, team: int, letter: str, blocks: str | None = None) -> dict:
    """Return a top-level marker entry as the view lists it."""
    col, row = cell_xy(cell)
    return {"cell": cell, "col": col, "row": row, "team": team, "letter": letter, "blocks": blocks}


def cell_xy(cell: str) -> tuple[int, int]:
    """Return (column, row) of a cell label."""
    from engine.flippers.table import parse_label

    spot = parse_label(cell)
    assert spot is not None
    return spot


def cell_region(view: dict, cell: str, img: Image.Image) -> tuple[int, int, int, int]:
    """Return the pixel box of a cell on a drawn table."""
    box = layout(view).cell_box(cell)
    assert box[2] <= img.width
    return box


def diff_box(a: Image.Image, b: Image.Image) -> set[tuple[int, int]]:
    """Return the pixels where two pictures differ."""
    assert a.size == b.size
    pa, pb = a.load(), b.load()
    return {(x, y) for x in range(a.width) for y in range(a.height) if pa[x, y] != pb[x, y]}


def test_a_late_six_player_table_is_cropped_to_the_cards_plus_one_ring() -> None:
    view = GAME.view(late_table(), None)
    b = view["bounds"]
    cols = b["max_col"] - b["min_col"] + 3
    img = image(render_table(view, NAMES))
    assert img.width == max(MIN_WIDTH, cols * CELL + 2 * EDGE)
    assert img.width <= 1200  # the old table was ~1,360-1,500 px for the same games


def test_food_names_and_numbers_are_at_least_as_large_as_explorer_labels() -> None:
    """Measure the ink of the same word drawn as an Explorer label and as a Food name, and of a Food number."""
    base = {"bounds": {"min_col": 13, "max_col": 14, "min_row": 15, "max_row": 15}}
    food = {"id": "food-4", "kind": "food", "name": "Lanternfish", "cell": "N15", "col": 13, "row": 15}
    food.update(facing="N", face="A", markers=[], arrows=[{"dir": "S", "points": 8, "cell": "N16"}])
    scout = {"id": "c-replace", "kind": "explorer", "name": "Chinstrap Replace", "cell": "O15", "col": 14, "row": 15}
    scout.update(facing="N", face="up", team=0, power="replace", power_name="Lantern", markers=[], blocked_by=None)
    view = bare_view(base, [food, scout])
    img = draw_table(view, NAMES).convert("RGB")
    px = img.load()

    def ink(cell: str, colour: tuple[int, int, int], band: tuple[float, float]) -> tuple[int, int]:
        x0, y0, x1, _ = cell_region(view, cell, img)
        spots = [
            (x, y)
            for y in range(y0 + int(CELL * band[0]), y0 + int(CELL * band[1]))
            for x in range(x0 + 9, x1 - 9)
            if px[x, y] == colour
        ]
        xs, ys = [x for x, _ in spots], [y for _, y in spots]
        return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1

    label_w, label_h = ink("O15", INK, (0.72, 0.92))  # "Lantern" as an Explorer label
    name_w, _ = ink("N15", FOOD_INK, (0.25, 0.47))  # "Lantern", the Food name's first line
    _, number_h = ink("N15", INK, (0.62, 0.92))  # "8" beside the south arrow
    assert name_w >= label_w and label_w >= 60
    assert number_h >= label_h


def bare_view(base: dict, cards: list[dict], **extra) -> dict:
    """Return a minimal public view in play around `cards`."""
    seats = [
        {"seat": s, "team": f"Team {s}", "short": f"T{s}", "letter": "CMEWLS"[s], "side": s, "stash": 6}
        | {"hand_size": 1, "deck_size": 0, "discarded": 0, "resigned": False, "chosen": True}
        for s in range(2)
    ]
    view = {
        "game": "flippers",
        "phase": "play",
        "players": 2,
        "teams_mode": False,
        "turn": 1,
        "current": 0,
        "to_act": [0],
        "supply": 70,
        "seats": seats,
        "cards": cards,
        "open_cells": [],
        "played": None,
        "activated": [],
        "to_activate": [],
        "scores": [{"stash": 6, "food": 0, "leader": 0, "total": 6}] * 2,
        "final": False,
        "winners": [],
        "tiebreak": "",
        **base,
    }
    view.update(extra)
    return view


def test_arrow_tabs_of_cards_facing_each_other_do_not_meet() -> None:
    """Two cards pointing at each other across one gap show two separate tabs."""
    state = table([("food-1", "N15", "N", "A"), ("c-turn", "N14", "E", "up"), ("m-turn", "O14", "W", "up")])
    view = GAME.view(state, None)
    img = draw_table(view, NAMES).convert("RGB")
    _, y0, x1, y1 = cell_region(view, "N14", img)
    px = img.load()
    gap = [y for y in range(y0, y1) for x in range(x1 - 3, x1 + 3) if px[x, y] == INK]
    middle = (y0 + y1) / 2
    above, below = [y for y in gap if y < middle - 3], [y for y in gap if y > middle + 3]
    assert above and below  # one tab on each side of the edge's middle
    assert not [y for y in gap if abs(y - middle) <= 3]


@pytest.mark.parametrize("directions", ["NESW", "NS", "E"])
def test_a_marker_covers_no_number_and_no_power_sign(directions: str) -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up"), ("m-block", "N13", "S", "up")])
    plain = GAME.view(state, None)
    for card in plain["cards"]:
        if card["id"] == "food-1":
            card["arrows"] = [{"dir": d, "points": 3, "cell": "N15"} for d in directions]
    marked = {**plain, "markers": [marker("N15", 1, "M"), marker("N14", 1, "M", "c-plus")]}
    other = {**plain, "cards": [dict(c) for c in plain["cards"]]}
    for card in other["cards"]:
        if card["id"] == "food-1":
            card["arrows"] = [{"dir": d, "points": 8, "cell": "N15"} for d in directions]
        if card["id"] == "c-plus":
            card.update(power="minus", power_name="Plus")
    base = draw_table(plain, NAMES).convert("RGB")
    numbers = diff_box(base, draw_table(other, NAMES).convert("RGB"))
    markers = diff_box(base, draw_table(marked, NAMES).convert("RGB"))
    assert numbers and markers
    assert not numbers & markers


def test_every_marker_is_drawn_from_the_views_list_even_on_an_empty_cell_or_an_own_card() -> None:
    cards = [("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up"), ("c-block", "M14", "E", "up")]
    cards += [("e-block", "O15", "N", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]}, players=3)
    view = GAME.view(state, None)
    view["markers"] = [marker("N14", 0, "C", "c-plus"), marker("O14", 2, "E")]
    img = draw_table(view, NAMES).convert("RGB")
    bare = draw_table({**view, "markers": []}, NAMES).convert("RGB")
    changed = diff_box(bare, img)
    for cell, team in (("N14", 0), ("O14", 2)):
        x0, y0, x1, y1 = cell_region(view, cell, img)
        inside = [(x, y) for x, y in changed if x0 <= x < x1 and y0 <= y < y1]
        assert len(inside) > 150, cell
        # On its own card the marker is ringed in paper; on an empty cell it shows its team's colour.
        shown = PAPER if cell == "N14" else seat_colour(team)
        assert sum(1 for x, y in inside if img.getpixel((x, y)) == shown) > 40, cell
    text = alt_text_table(view, NAMES)
    assert "Block markers: Ana's on N14, Cy's on O14 (empty)." in text
    assert "Ana: Block M14 facing E, Plus N14 facing N blocked;" in text


def test_markers_on_cards_still_show_when_the_view_has_no_marker_list() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up"), ("m-block", "N13", "S", "up")])
    state.engaged[1] = True
    view = GAME.view(state, None)
    view.pop("markers", None)
    img = draw_table(view, NAMES).convert("RGB")
    x0, y0, x1, y1 = cell_region(view, "N14", img)
    assert has_colour(img.crop((x0, y0, x1, y1)), seat_colour(1), 80)


def test_projected_points_show_beside_the_stash_during_play_only() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up")], {0: ["c-flip"], 1: ["m-flip"]})
    view = GAME.view(state, None)
    view["projected"] = [9, 6]
    with_points = render_table(view, NAMES)
    assert with_points != render_table({**view, "projected": [7, 6]}, NAMES)
    assert "Ana (Chinstrap): 6 pts · hand 1 · deck 0 · 9 if it ended now." in alt_text_table(view, NAMES)
    old = {k: v for k, v in view.items() if k != "projected"}
    assert "if it ended now" not in alt_text_table(old, NAMES)
    image(render_table(old, NAMES))


def test_team_up_shows_each_sides_projected_points() -> None:
    view = GAME.view(late_table(4, 5, teams=True), None)
    view["projected"] = [10, 11, 12, 13]
    text = alt_text_table(view, NAMES)
    assert "Team Chinstrap + Emperor: 5 pts, 22 if it ended now." in text
    assert "Team Macaroni + Weddell: 15 pts, 24 if it ended now." in text


def test_leader_cells_are_highlighted_in_the_placing_seats_colour() -> None:
    state = GAME.new_game(4, {}, seed=2)
    view = GAME.view(state, None)
    food = [c for c in view["cards"] if c["kind"] == "food"]
    view.update(cards=food, phase="leaders", current=2, to_act=[2], open_cells=[])
    first = food[0]
    cells = [f"{first['cell'][:-2]}{first['row'] - 1}", f"{first['cell'][:-2]}{first['row'] + 1}"]
    view["leader_cells"] = cells
    img = draw_table(view, NAMES).convert("RGB")
    for cell in cells:
        x0, y0, x1, y1 = cell_region(view, cell, img)
        assert has_colour(img.crop((x0, y0, x1, y1)), seat_colour(2), 150)
    text = alt_text_table(view, NAMES)
    assert text.startswith("Flippers. Cy places their Leader.") and all(c in text for c in cells)


def test_the_hand_keeps_every_word_inside_its_card_and_the_title_inside_the_picture() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-flip"], 1: ["m-flip"]})
    view = GAME.view(state, 0)
    long_names = ["Bartholomew-Maximilian the Magnificent", *NAMES[1:]]
    img = draw_hand(view, long_names).convert("RGB")
    right = HAND_PAD + HAND_CARD
    beside = img.crop((right + 12, HAND_TOP, img.width, HAND_TOP + HAND_CARD))
    assert beside.getcolors() == [(beside.width * beside.height, PAPER)]
    title_edge = img.crop((img.width - HAND_PAD + 2, 0, img.width, HAND_TOP - 10))
    assert title_edge.getcolors() == [(title_edge.width * title_edge.height, PAPER)]
    assert "…" in alt_text_hand(view, long_names) or "Bartholomew" in alt_text_hand(view, long_names)
