"""Draw the public Tank table: round, goal, turn order, the grid of groups and the players, in about 900 px."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.words import join_list
from i18n import _, ngettext, pgettext
from render.common import INK, encode_png, fit_named, fit_named_lines
from render.tank.final import render_final
from render.tank.paint import card_sprite, chip, drawn, empty_slot, paste, put
from render.tank.style import (
    BACKGROUND,
    BANNER,
    FAINT,
    HIGHLIGHT,
    LINE,
    MARGIN,
    MUTED,
    WATER,
    WHITE,
    WIDTH,
    Colour,
    phase_name,
    seat_name,
    size_to_fit,
    text_width,
    wrap,
)

GAP = 14  # space between cards; groups are outlined inside it
LABEL = 34  # room on the left and top of the grid for the cut-line names
CARDS_SIDE = 440  # the side of the square the cards and the gaps between them fill
SEAT_COLUMNS = 2
HEAD = 36  # one line of the header: the title, then whose turn it is
ROW = 44  # one row of the turn orders and of the players
CHIP = 15  # a seat chip's radius on the table
SMALLEST = 18  # no text on the table is drawn smaller: 9 px on a phone showing it 400 px wide


def _doing(view: dict[str, Any], name: str) -> str:
    """Return the line saying what the seat to act (`name`) is doing."""
    if view["phase"] == "split":
        return _("{name} splits a group", name=name)
    if view["phase"] == "take":
        return _("{name} takes a group", name=name)
    return ngettext(
        "{name}: Gourami, may discard up to {n} fish",
        "{name}: Gourami, may discard up to {n} fish",
        view["pending_discards"],
        name=name,
    )


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw round, phase and whose turn it is; return the next free y."""
    title = _(
        "Round {round} of {rounds} · {phase}",
        round=view["round"],
        rounds=view["rounds"],
        phase=phase_name(view["phase"]),
    )
    size = size_to_fit(title, WIDTH - 2 * MARGIN, 30, True, smallest=SMALLEST)
    put(image, (MARGIN, y + HEAD / 2), title, size, INK, bold=True, bg=BACKGROUND)
    y += HEAD
    if view["to_act"]:
        seat = view["to_act"][0]
        chip(image, seat, MARGIN + CHIP + 1, y + HEAD / 2, CHIP)
        room = WIDTH - 2 * MARGIN - 2 * CHIP - 12
        name = seat_name(names, seat)
        size = size_to_fit(_doing(view, name), room, 24, smallest=SMALLEST)
        put(
            image,
            (MARGIN + 2 * CHIP + 12, y + HEAD / 2),
            fit_named(lambda who: _doing(view, who), name, size, room),
            size,
            INK,
        )
        y += HEAD
    return y + 8


def _goal_lines(goal: dict[str, Any]) -> list[str]:
    """Return the goal banner's lines: the head and the goal's text on one line when they fit, else wrapped."""
    line = _("Goal: {name} (+{points}) · {text}", name=goal["name"], points=goal["points"], text=goal["text"])
    return wrap(line, WIDTH - 2 * MARGIN - 28, 20, keep=[goal["name"]])


def _goal(image: Image.Image, draw: ImageDraw.ImageDraw, goal: dict[str, Any], y: int) -> int:
    """Draw the goal card as a banner; return the next free y."""
    lines = _goal_lines(goal)
    height = 12 + 28 * len(lines)
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + height), radius=10, fill=BANNER, outline=INK, width=2)
    for i, line in enumerate(lines):
        put(image, (MARGIN + 14, y + 6 + 28 * i + 14), line, 20, INK, bg=BANNER)
    return y + height + 8


def order_rows(view: dict[str, Any]) -> list[tuple[str, list[int]]]:
    """Return the turn-order strips shown on the table: (label, seats in order), next one first."""
    rows: list[tuple[str, list[int]]] = []
    if view["phase"] == "split":
        rows.append((_("Still to split"), list(view["split_order"])))
        rows.append((_("Take order"), list(view["take_order"])))
    elif view["phase"] in ("take", "discard"):
        rows.append((_("Still to take"), list(view["take_order"])))
    return [(label, seats) for label, seats in rows if seats]


def _strip_width(label: str, seats: list[int]) -> float:
    """Return how wide one turn-order strip is drawn: its label, then a chip per seat."""
    return text_width(_("{label}:", label=label), 20, True) + 10 + len(seats) * (2 * CHIP + 14)


def _order_lines(view: dict[str, Any]) -> list[list[tuple[str, list[int]]]]:
    """Return the turn-order strips by line: side by side when they fit the width, else one per line."""
    rows = order_rows(view)
    if not rows:
        return []
    if sum(_strip_width(label, seats) for label, seats in rows) + 24 * (len(rows) - 1) <= WIDTH - 2 * MARGIN:
        return [rows]
    return [[row] for row in rows]


def _orders(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """Draw who splits and takes this round, in order, side by side, the seat due now ringed; return the next y."""
    acting = view["to_act"][0] if view["to_act"] else None
    for line in _order_lines(view):
        x = MARGIN
        middle = y + ROW / 2
        for label, seats in line:
            # TRANSLATORS: a turn-order strip's label, before the seat chips ("Take order:").
            text = _("{label}:", label=label)
            put(image, (x, middle), text, 20, INK, bold=True, bg=BACKGROUND)
            x += text_width(text, 20, True) + 10
            for i, seat in enumerate(seats):
                if i:
                    put(image, (x - 6, middle), "›", 20, MUTED, bold=True, anchor="mm")
                chip(image, seat, x + CHIP + 1, middle, CHIP)
                if i == 0 and seat == acting:
                    r = CHIP + 5
                    draw.ellipse((x + CHIP + 1 - r, middle - r, x + CHIP + 1 + r, middle + r), outline=INK, width=3)
                x += 2 * CHIP + 14
            x += 24
        y += ROW + 4
    return y


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
    cell = (CARDS_SIDE - (side - 1) * GAP) // side
    return cell, cell


def _grid_top(view: dict[str, Any]) -> int:
    """Return the room above the cards: the cut-line names in the split phase, just a margin otherwise."""
    return LABEL if view["phase"] == "split" else GAP + 4


def _grid_height(view: dict[str, Any]) -> int:
    """Return the height the grid takes, from the top of its labels to below its water."""
    side = view["grid_size"]
    return _grid_top(view) + side * (_cell_size(side)[1] + GAP) + 12


def table_height(view: dict[str, Any]) -> int:
    """Return the height of the table picture, computed the way the parts below are laid out."""
    height = MARGIN + HEAD + (HEAD if view["to_act"] else 0) + 8
    height += 12 + 28 * len(_goal_lines(view["goal"])) + 8
    height += (ROW + 4) * len(_order_lines(view))
    height += _grid_height(view)
    height += ROW * -(-len(view["seats"]) // SEAT_COLUMNS) + 36 + FOOT * (len(_footer_lines(view)) - 1)
    return height + 8


def _grid(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """Draw the cards, each group outlined and numbered, and the usable cut lines; return the next free y."""
    side = view["grid_size"]
    cell, card_h = _cell_size(side)
    grid_w = side * cell + (side - 1) * GAP
    x_left = (WIDTH - grid_w + LABEL) // 2
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
            row_mark = (f"h{k}", (x_left - GAP - LABEL / 2 - 2, cy(k) - GAP / 2))
            marks = (row_mark, (f"v{k}", (cx(k) - GAP / 2, y + LABEL / 2 - 4)))
            for name, xy in marks:
                put(image, xy, name, 22, INK if name in usable else FAINT, bold=True, anchor="mm")
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
            (cx(c0) - pad, cy(r0) - pad, cx(c1) - GAP + pad, cy(r1) - GAP + pad), radius=12, outline=INK, width=4
        )
        bx, by = cx(c0) - pad - 6, cy(r0) - pad - 6
        draw.rounded_rectangle((bx, by, bx + 34, by + 34), radius=8, fill=INK, outline=WHITE, width=2)
        put(image, (bx + 17, by + 17), group["label"], 22, WHITE, bold=True, anchor="mm", bg=INK)
    return int(grid_bottom + GAP + 12)


def _seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw the players in two columns: colour, letter, name and how many cards they hold (never which)."""
    acting = set(view["to_act"])
    width = (WIDTH - 2 * MARGIN - 12) / SEAT_COLUMNS
    for i, info in enumerate(view["seats"]):
        seat = info["seat"]
        left = MARGIN + (i % SEAT_COLUMNS) * (width + 12)
        top = y + (i // SEAT_COLUMNS) * ROW
        middle = top + ROW / 2 - 2
        if seat in acting:
            draw.rounded_rectangle((left, top, left + width, top + ROW - 4), radius=8, fill=HIGHLIGHT)
        back = HIGHLIGHT if seat in acting else BACKGROUND
        chip(image, seat, left + CHIP + 6, middle, CHIP, back)
        tags = []
        if seat == view.get("start_seat"):
            # TRANSLATORS: beside the name of the player who starts the round, in a picture.
            tags.append(pgettext("tank seat", "start"))
        if info["resigned"]:
            # TRANSLATORS: beside the name of a player who left the game, in a picture.
            tags.append(pgettext("tank seat", "left"))
        counts = ngettext("{n} card", "{n} cards", info["cards"])
        if info["discarded"]:
            # TRANSLATORS: a player's card count, then how many they discarded for a Gourami ("5 cards, 1 out").
            counts = _("{cards}, {discarded} out", cards=counts, discarded=info["discarded"])
        fill = MUTED if info["resigned"] else INK
        right = left + width - 8
        room = right - (left + 2 * CHIP + 14) - text_width(counts, 20, True) - 12
        name = seat_name(names, seat)

        def tagged(who: str, tags: list[str] = tags) -> str:
            return _("{name} ({tags})", name=who, tags=join_list(tags)) if tags else who

        size = size_to_fit(tagged(name), room, 20, smallest=SMALLEST)
        # Too long for one line even small: two lines, the name whole if it can be, its tag always.
        size, lines = fit_named_lines(tagged, name, room, (size,))
        for k, label in enumerate(lines):
            at = (left + 2 * CHIP + 14, middle + (k - (len(lines) - 1) / 2) * (size + 1))
            put(image, at, label, size, fill, bg=back)
        put(image, (right, middle), counts, 20, fill, bold=True, anchor="rm", bg=back)
    y += ROW * -(-len(view["seats"]) // SEAT_COLUMNS)
    for i, line in enumerate(_footer_lines(view)):
        put(image, (MARGIN, y + 16 + FOOT * i), line, SMALLEST, MUTED, bg=BACKGROUND)
    return y + 36 + FOOT * (len(_footer_lines(view)) - 1)


FOOT = 24  # the step between the footer's lines, when it needs two


def _footer_lines(view: dict[str, Any]) -> list[str]:
    """Return the footer under the players (deck, discard pile, what "out" means), wrapped when it is long."""
    footer = _(
        'Deck {deck} · Discard pile {discards} (face down) · "out": discarded for a Gourami',
        deck=view["deck"],
        discards=view["discard_pile"],
    )
    return wrap(footer, WIDTH - 2 * MARGIN, SMALLEST)


def draw_table(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the public table: header, goal, turn order, grid and players (the scoring key is in /game rules)."""
    return drawn(lambda image, draw: _table_parts(image, draw, view, names) + 8, table_height(view))


def _table_parts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str]) -> int:
    """Draw every part of the table from the top; return the y below the last one."""
    y = _header(image, draw, view, names, MARGIN)
    y = _goal(image, draw, view["goal"], y)
    y = _orders(image, draw, view, y)
    y = _grid(image, draw, view, y)
    return _seats(image, draw, view, names, y)


def render_table(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the public table as PNG, or the final scores once the game is over."""
    if view.get("final"):
        return render_final(view, names)
    return encode_png(draw_table(view, names))
