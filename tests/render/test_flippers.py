"""Check the Flippers images and alt text: valid PNGs, team colours, no hidden cards, readable text."""

from __future__ import annotations

import io
import random
import sys
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine.flippers import GAME
from engine.flippers.table import STEP, aims
from i18n import using
from render.common import INK, PAPER, seat_colour
from render.flippers import (
    CELL,
    EDGE,
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
from render.flippers.alt import _explorer_counts
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


def drawn_text_sizes(view: dict, names: list[str]) -> tuple[list[tuple[int, str]], Image.Image]:
    """Draw a table from scratch (no cached pieces), recording the size of every font each text is drawn with."""
    import render.flippers as package

    draw_table(view, names)  # build the palette and fonts once
    for module in [m for name, m in sys.modules.items() if name.startswith(package.__name__)]:
        for name in dir(module):
            piece = getattr(module, name)
            if hasattr(piece, "cache_clear") and name not in ("_palette", "_index"):
                piece.cache_clear()
    sizes: list[tuple[int, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(words).strip() and kwargs.get("font") is not None:
            sizes.append((kwargs["font"].size, str(words)))
        return original(self, xy, words, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        img = draw_table(view, names)
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    return sizes, img


@pytest.mark.parametrize(("seed", "teams"), [(3, False), (2, True), (5, False)])
def test_every_text_of_a_late_six_player_table_reads_8_px_tall_on_a_phone(seed: int, teams: bool) -> None:
    view = GAME.view(late_table(6, seed, teams), None)
    sizes, img = drawn_text_sizes(view, NAMES)
    assert len(sizes) > 60  # card letters, icons, cell labels, Food points, edges, headline, panel
    smallest = min(sizes)
    assert smallest[0] * 400 / img.width >= 8, (smallest, img.width)


def test_the_picture_never_narrows_during_a_game() -> None:
    rng = random.Random(9)
    state = GAME.new_game(6, {}, 9)
    widths = []
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        GAME.apply(state, seat, random_action(state, seat, rng))
        widths.append(layout(GAME.view(state, None)).width)
    assert widths == sorted(widths) and widths[-1] > widths[0]


@pytest.mark.parametrize("power", ["flip", "bump", "switch", "block"])
@pytest.mark.parametrize("facing", ["N", "E", "S", "W"])
def test_the_arrow_lies_on_the_side_the_card_aims_at(power: str, facing: str) -> None:
    """The dark arrowhead of a face-up Explorer sits in the middle of the edge toward each cell it aims at."""
    cid = f"c-{power}"
    state = table([("food-1", "N15", "N", "A"), (cid, "N13", facing, "up")])
    view = GAME.view(state, None)
    img = draw_table(view, NAMES).convert("RGB")
    x0, y0, x1, y1 = cell_region(view, "N13", img)
    px = img.load()
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2

    def ink_near(direction: str) -> int:
        dx, dy = STEP[direction]
        # A band just inside the card's edge toward `direction`, across the middle of that edge.
        spots = [
            (cx + dx * (CELL // 2 - d) + dy * t, cy + dy * (CELL // 2 - d) + dx * t)
            for d in range(8, 16)
            for t in range(-6, 7)
        ]
        return sum(1 for x, y in spots if px[x, y] == INK)

    aimed = set(aims(power, (0, 0), facing)) if power == "switch" else {STEP[facing]}
    for direction in "NESW":
        if STEP[direction] in aimed:
            assert ink_near(direction) > 40, (direction, ink_near(direction))
        else:
            assert ink_near(direction) < 10, (direction, ink_near(direction))


def test_a_face_down_card_is_striped_and_dark() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-flip", "N14", "E", "down")])
    view = GAME.view(state, None)
    img = draw_table(view, NAMES).convert("RGB")
    x0, y0, x1, y1 = cell_region(view, "N14", img)
    colours = img.crop((x0 + 12, y0 + 12, x1 - 12, y1 - 12)).getcolors(4096) or []
    dark = sum(n for n, c in colours if sum(c) < 330)
    assert dark > 0.6 * (x1 - x0 - 24) * (y1 - y0 - 24)
    assert len([c for n, c in colours if n > 40]) >= 2  # the stripes


@pytest.mark.parametrize("directions", ["NS", "E", "NES"])
def test_a_marker_on_a_food_card_covers_no_number(directions: str) -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up"), ("m-block", "N13", "S", "up")])
    plain = GAME.view(state, None)
    for card in plain["cards"]:
        if card["id"] == "food-1":
            card["arrows"] = [{"dir": d, "points": 3, "cell": "N15"} for d in directions]
    marked = {**plain, "markers": [marker("N15", 1, "M")]}
    other = {**plain, "cards": [dict(c) for c in plain["cards"]]}
    for card in other["cards"]:
        if card["id"] == "food-1":
            card["arrows"] = [{"dir": d, "points": 8, "cell": "N15"} for d in directions]
    base = draw_table(plain, NAMES).convert("RGB")
    x0, y0, x1, y1 = cell_region(plain, "N15", base)
    numbers = {
        (x, y) for x, y in diff_box(base, draw_table(other, NAMES).convert("RGB")) if x0 <= x < x1 and y0 <= y < y1
    }
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
        near = [
            (x, y) for x, y in inside if sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), shown, strict=True)) < 40
        ]
        assert len(near) > 40, cell
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
    assert "Team Chinstrap & Emperor: 5 pts, 22 if it ended now." in text
    assert "Team Macaroni & Weddell: 15 pts, 24 if it ended now." in text


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


def _texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every text Pillow draws from now on, with the Flippers sprite caches emptied."""
    import render.flippers.sprites as sprites

    found: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy, content, *args, **kwargs) -> None:
        found.append(content)
        original(self, xy, content, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    for value in vars(sprites).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    return found


def test_a_food_card_on_a_small_table_shows_its_name_beside_its_side(monkeypatch: pytest.MonkeyPatch) -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "N14", "N", "up")], {0: ["c-flip"], 1: ["m-flip"]})
    texts = _texts(monkeypatch)
    draw_table(GAME.view(state, None), NAMES)
    assert "Krill" in texts and "A" in texts


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("es", "1 boca abajo, 1 bloqueada", "2 bloqueadas"),
        ("pt_BR", "1 virada para baixo, 1 bloqueada", "2 bloqueadas"),
    ],
)
def test_the_counted_explorers_agree_with_their_number(language: str, one: str, two: str) -> None:
    def view(blocked: int) -> dict[str, Any]:
        cards = [{"kind": "explorer", "team": 0, "face": "down", "col": 0, "row": 0}]
        up = {"kind": "explorer", "team": 0, "face": "up", "blocked_by": 1, "row": 1}
        cards += [{**up, "col": i} for i in range(blocked)]
        return {"seats": [{"seat": 0, "short": "X", "letter": "C"}], "cards": cards, "markers": []}

    with using(language):
        assert one in _explorer_counts(view(1))
        assert two in _explorer_counts(view(2))
