"""Draw the public Tank table: round, goal, turn order, the grid of groups, the players and the scoring key."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, draw_text, encode_png, fit_text
from render.tank.final import render_final
from render.tank.paint import card_sprite, chip, drawn, empty_slot, flatten, kind_chip, paste, put
from render.tank.style import (
    BACKGROUND,
    BANNER,
    FAINT,
    GAP,
    HIGHLIGHT,
    LABEL,
    LINE,
    MARGIN,
    MAX_CELL,
    MUTED,
    PHASES,
    WATER,
    WHITE,
    WIDTH,
    Colour,
    counted,
    seat_name,
    size_to_fit,
    text_width,
    wrap,
)


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw round, phase and whose turn it is; return the next free y."""
    title = f"Round {view['round']} of {view['rounds']} · {PHASES.get(view['phase'], view['phase'])}"
    size = size_to_fit(title, WIDTH - 2 * MARGIN, 38, True)
    put(image, (MARGIN, y), title, size, INK, bold=True, anchor="la", bg=BACKGROUND)
    y += 52
    if view["to_act"]:
        seat = view["to_act"][0]
        if view["phase"] == "split":
            doing = " splits a group"
        elif view["phase"] == "take":
            doing = " takes a group"
        else:
            doing = f" may discard up to {view['pending_discards']} fish (Gourami)"
        chip(image, seat, MARGIN + 20, y + 20, 20)
        room = WIDTH - 2 * MARGIN - 52
        size = size_to_fit(seat_name(names, seat) + doing, room, 32)
        who = fit_text(seat_name(names, seat), size, room - text_width(doing, size))
        put(image, (MARGIN + 52, y + 20), who + doing, size, INK)
        y += 50
    return y


def _goal(image: Image.Image, draw: ImageDraw.ImageDraw, goal: dict[str, Any], y: int) -> int:
    """Draw the goal card as a banner; return the next free y."""
    head = f"Goal: {goal['name']} (+{goal['points']})"
    body = wrap(goal["text"], WIDTH - 2 * MARGIN - 32, 26)
    height = 50 + 32 * len(body)
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + height), radius=14, fill=BANNER, outline=INK, width=3)
    size = size_to_fit(head, WIDTH - 2 * MARGIN - 32, 30, True)
    put(image, (MARGIN + 16, y + 10), head, size, INK, bold=True, anchor="la", bg=BANNER)
    for i, line in enumerate(body):
        put(image, (MARGIN + 16, y + 46 + 32 * i), line, 26, INK, anchor="la", bg=BANNER)
    return y + height + 16


def order_rows(view: dict[str, Any]) -> list[tuple[str, list[int]]]:
    """Return the turn-order strips shown on the table: (label, seats in order), next one first."""
    rows: list[tuple[str, list[int]]] = []
    if view["phase"] == "split":
        rows.append(("Still to split", list(view["split_order"])))
        rows.append(("Take order", list(view["take_order"])))
    elif view["phase"] in ("take", "discard"):
        rows.append(("Still to take", list(view["take_order"])))
    return [(label, seats) for label, seats in rows if seats]


def _orders(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """Draw who splits and takes this round, in order, the seat due now ringed; return the next free y."""
    acting = view["to_act"][0] if view["to_act"] else None
    for label, seats in order_rows(view):
        put(image, (MARGIN, y + 22), f"{label}:", 28, INK, bold=True, bg=BACKGROUND)
        x = MARGIN + 226
        for i in range(1, len(seats)):
            put(image, (x + 62 * i - 10, y + 22), "›", 30, MUTED, bold=True, anchor="mm")
        for i, seat in enumerate(seats):
            chip(image, seat, x + 20, y + 22, 20)
            if i == 0 and seat == acting:
                draw.ellipse((x + 20 - 25, y + 22 - 25, x + 20 + 25, y + 22 + 25), outline=INK, width=3)
            x += 62
        y += 52
    return y + 6 if view["phase"] != "over" else y


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Colour) -> None:
    """Draw a dashed straight line from a to b."""
    (xa, ya), (xb, yb) = a, b
    length = max(abs(xb - xa), abs(yb - ya))
    dash, step = 12.0, 20.0
    t = 0.0
    while t < length:
        u0, u1 = t / length, min(t + dash, length) / length
        draw.line(
            (xa + (xb - xa) * u0, ya + (yb - ya) * u0, xa + (xb - xa) * u1, ya + (yb - ya) * u1), fill=colour, width=4
        )
        t += step


def _cell_size(side: int) -> tuple[int, int]:
    """Return a card's width and height on a grid of `side` columns."""
    room = WIDTH - 2 * MARGIN - LABEL - 2 * GAP
    cell = min(MAX_CELL, (room - (side - 1) * GAP) // side)
    return cell, int(cell * 1.1)


def _grid_top(view: dict[str, Any]) -> int:
    """Return the room above the cards: the cut-line names in the split phase, just a margin otherwise."""
    return LABEL if view["phase"] == "split" else GAP + 6


def table_height(view: dict[str, Any]) -> int:
    """Return the height of the table picture, computed the way the parts below are laid out."""
    height = MARGIN + 52 + (50 if view["to_act"] else 0)
    height += 50 + 32 * len(wrap(view["goal"]["text"], WIDTH - 2 * MARGIN - 32, 26)) + 16
    height += 52 * len(order_rows(view)) + (6 if view["phase"] != "over" else 0)
    side = view["grid_size"]
    height += _grid_top(view) + side * (_cell_size(side)[1] + GAP) + 16
    height += 52 * len(view["seats"]) + 48
    lines = scoring_lines(view)
    if lines:
        height += scoring_block_height(len(lines)) + 16
    return height + 8


def _grid(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """Draw the cards, each group outlined and numbered, and the usable cut lines; return the next free y."""
    side = view["grid_size"]
    room = WIDTH - 2 * MARGIN - LABEL - 2 * GAP
    cell, card_h = _cell_size(side)
    grid_w = side * cell + (side - 1) * GAP
    x_left = MARGIN + LABEL + GAP + (room - grid_w) // 2
    y_top = y + _grid_top(view)

    def cx(col: int) -> int:
        return x_left + col * (cell + GAP)

    def cy(row: int) -> int:
        return y_top + row * (card_h + GAP)

    grid_bottom = cy(side) - GAP
    usable = {line for group in view["groups"] for line in group["cuts"]}
    if view["phase"] == "split":
        # Drawn before the water, which their strips would otherwise overlap.
        for k in range(1, side):
            row_mark = (f"h{k}", (MARGIN + LABEL / 2 - 6, cy(k) - GAP / 2))
            marks = (row_mark, (f"v{k}", (cx(k) - GAP / 2, y + LABEL / 2 - 4)))
            for name, xy in marks:
                put(image, xy, name, 26, INK if name in usable else FAINT, bold=True, anchor="mm")
    draw.rounded_rectangle((x_left - GAP, y_top - GAP, x_left + grid_w + GAP, grid_bottom + GAP), radius=18, fill=WATER)
    for r, row in enumerate(view["grid"]):
        for c, card in enumerate(row):
            sprite = (
                empty_slot(cell, card_h) if card is None else card_sprite(card["kind"], card.get("value"), cell, card_h)
            )
            paste(image, sprite, cx(c), cy(r))

    for group in view["groups"]:
        r0, r1 = group["rows"]
        c0, c1 = group["cols"]
        for line in group["cuts"]:
            k = int(line[1:])
            if line[0] == "h":
                ly = cy(k) - GAP / 2
                _dashed(draw, (cx(c0) - 4, ly), (cx(c1) - GAP + 4, ly), LINE)
            else:
                lx = cx(k) - GAP / 2
                _dashed(draw, (lx, cy(r0) - 4), (lx, cy(r1) - GAP + 4), LINE)
    pad = GAP / 2 - 2
    for group in view["groups"]:
        r0, r1 = group["rows"]
        c0, c1 = group["cols"]
        draw.rounded_rectangle(
            (cx(c0) - pad, cy(r0) - pad, cx(c1) - GAP + pad, cy(r1) - GAP + pad), radius=14, outline=INK, width=5
        )
        bx, by = cx(c0) - pad - 6, cy(r0) - pad - 6
        draw.rounded_rectangle((bx, by, bx + 43, by + 43), radius=10, fill=INK, outline=WHITE, width=3)
        put(image, (bx + 22, by + 22), group["label"], 26, WHITE, bold=True, anchor="mm", bg=INK)
    return int(grid_bottom + GAP + 16)


def _seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw one line per player: colour, letter, name and how many cards they hold (never which)."""
    acting = set(view["to_act"])
    row_h = 52
    for info in view["seats"]:
        seat = info["seat"]
        middle = y + row_h / 2 - 2
        if seat in acting:
            draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h - 4), radius=10, fill=HIGHLIGHT)
        back = HIGHLIGHT if seat in acting else BACKGROUND
        chip(image, seat, MARGIN + 26, middle, 20, back)
        tags = []
        if seat == view.get("start_seat"):
            tags.append("start")
        if info["resigned"]:
            tags.append("left")
        tag = f" ({', '.join(tags)})" if tags else ""
        counts = counted(info["cards"], "card")
        if info["discarded"]:
            counts += f" · {info['discarded']} discarded"
        fill = MUTED if info["resigned"] else INK
        room = WIDTH - 2 * MARGIN - 70 - text_width(counts, 28, True) - 20
        label = fit_text(seat_name(names, seat), 28, room - text_width(tag, 28)) + tag
        put(image, (MARGIN + 58, middle), label, 28, fill, bg=back)
        put(image, (WIDTH - MARGIN - 10, middle), counts, 28, fill, bold=True, anchor="rm", bg=back)
        y += row_h
    footer = f"Deck {view['deck']} · Discard pile {view['discard_pile']} (face down)"
    put(image, (MARGIN, y + 8), footer, 24, MUTED, anchor="la", bg=BACKGROUND)
    return y + 48


def scoring_lines(view: dict[str, Any]) -> list[tuple[str, str]]:
    """Return the scoring reminder shown on the table: (kind, "Neon Tetra: 1, 3, 6 … for 1, 2, 3 … cards")."""
    return [(r["key"], f"{r['name']}: {r['text']}") for r in view.get("scoring", [])]


def scoring_block_height(lines: int) -> int:
    """Return the height of the scoring reminder with this many lines."""
    return 48 + 40 * lines + 8


@cache
def _scoring_block(lines: tuple[tuple[str, str], ...]) -> Image.Image:
    """Draw the scoring reminder: a heading, then one line per fish type with its colour chip."""
    row = 40
    sprite = Image.new("RGBA", (WIDTH - 2 * MARGIN, scoring_block_height(len(lines))), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, sprite.width - 1, sprite.height - 1), radius=12, fill=WHITE, outline=FAINT, width=2)
    draw_text(draw, (14, 26), "How each card scores", 26, INK, bold=True, anchor="lm")
    for i, (kind, text) in enumerate(lines):
        middle = 48 + row * i + row / 2
        sprite.alpha_composite(kind_chip(kind, 32), (14, int(middle - 16)))
        size = size_to_fit(text, sprite.width - 76, 24, smallest=14)
        draw_text(draw, (58, middle), text, size, INK, anchor="lm")
    return flatten(sprite, BACKGROUND)


def _scoring(image: Image.Image, view: dict[str, Any], y: int) -> int:
    """Paste the scoring reminder; return the next free y."""
    lines = tuple(scoring_lines(view))
    if not lines:
        return y
    block = _scoring_block(lines)
    paste(image, block, MARGIN, y)
    return y + block.height + 16


def draw_table(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the public table: header, goal, turn order, grid, players and the scoring reminder."""
    return drawn(lambda image, draw: _table_parts(image, draw, view, names) + 8, table_height(view))


def _table_parts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str]) -> int:
    """Draw every part of the table from the top; return the y below the last one."""
    y = _header(image, draw, view, names, MARGIN)
    y = _goal(image, draw, view["goal"], y)
    y = _orders(image, draw, view, y)
    y = _grid(image, draw, view, y)
    y = _seats(image, draw, view, names, y)
    return _scoring(image, view, y)


def render_table(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the public table as PNG, or the final scores once the game is over."""
    if view.get("final"):
        return render_final(view, names)
    return encode_png(draw_table(view, names))
