"""Draw 10 Gallon Tank: the public grid of groups, a player's own aquarium, and the final scoring."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    SEAT_COLOUR_NAMES,
    draw_text,
    encode_png,
    fit_alt,
    fit_text,
    seat_colour,
    seat_letter,
    text_length,
    text_on,
)

Colour = tuple[int, int, int]

WIDTH = 800
MARGIN = 24
LABEL = 52  # room on the left and top of the grid for the cut-line names
GAP = 18  # space between cards; groups are outlined inside it
MAX_CELL = 176
WATER = (221, 236, 247)
MUTED = (96, 104, 118)
FAINT = (196, 202, 212)
LINE = (40, 44, 52)
WHITE = (255, 255, 255)
EMPTY = (170, 196, 218)
HIGHLIGHT = (255, 244, 200)
BANNER = (255, 248, 214)
MET = (214, 245, 214)
GOURAMI_NOTE = (255, 228, 214)
# A shade off white: the palette lookup works on 5-6-5 bit colours, where PAPER and WHITE would merge.
BACKGROUND = (240, 243, 247)

# Each kind: short code drawn big on the card, card colour, and a short name that fits on a card.
KINDS: dict[str, tuple[str, Colour, str]] = {
    "guppy": ("Gu", (255, 176, 64), "Guppy"),
    "discus": ("Di", (236, 104, 104), "Discus"),
    "neon": ("Ne", (86, 180, 250), "Neon Tetra"),
    "angelfish": ("An", (132, 206, 112), "Angelfish"),
    "gourami": ("Go", (190, 148, 232), "Gourami"),
    "molly": ("Mo", (255, 234, 92), "Molly"),
    "chest": ("$", (118, 82, 46), "Chest"),
}
PLURALS = {
    "guppy": "Guppies",
    "discus": "Discus",
    "neon": "Neon Tetras",
    "angelfish": "Angelfish",
    "gourami": "Gouramis",
    "molly": "Mollies",
    "chest": "Treasure Chest",
}
PHASES = {"split": "Split phase", "take": "Take phase", "discard": "Take phase", "over": "Game over"}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


_length = lru_cache(maxsize=4096)(text_length)


def _name(names: Sequence[str], seat: int) -> str:
    """Return a seat's name, or "Seat N" when none is known."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _count(n: int, word: str) -> str:
    """Return "1 card" / "3 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _ordinal(n: int) -> str:
    """Return "1st", "2nd", "3rd", "4th"."""
    return ORDINALS.get(n, f"{n}th")


def _size_to_fit(text: str, limit: float, size: int, bold: bool = False, smallest: int = 14) -> int:
    """Return the largest font size up to `size` in which `text` fits `limit` pixels."""
    while size > smallest and _length(text, size, bold) > limit:
        size -= 2
    return size


def _wrap(text: str, limit: float, size: int) -> list[str]:
    """Break a text into lines that fit `limit` pixels."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if _length(trial, size) <= limit or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


# ----- sprites: drawn once per process, pasted many times --------------------------------------------


def _flatten(sprite: Image.Image, bg: Colour | None) -> Image.Image:
    """Return the sprite laid on a flat colour and mapped onto the palette, ready to paste; or as it is."""
    if bg is None:
        return sprite
    flat = Image.new("RGBA", sprite.size, (*bg, 255))
    flat.alpha_composite(sprite)
    return flat.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1024)
def _text_sprite(text: str, size: int, bold: bool, fill: Colour, bg: Colour) -> tuple[Image.Image, int]:
    """Draw a line of text on a strip of colour `bg`; return it with the x where the text starts."""
    pad = 3
    width = int(_length(text, size, bold)) + 2 * pad
    sprite = Image.new("RGBA", (max(width, 1), int(size * 1.4)), (0, 0, 0, 0))
    draw_text(ImageDraw.Draw(sprite), (pad, sprite.height / 2), text, size, fill, bold=bold, anchor="lm")
    return _flatten(sprite, bg), pad


def _put(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    *,
    bold: bool = False,
    anchor: str = "lm",
    bg: Colour = BACKGROUND,
) -> None:
    """Paste text at `xy` (anchor l/m/r then a/m) on a strip of `bg`, so only where the page is flat `bg`."""
    sprite, pad = _text_sprite(text, size, bold, fill, bg)
    x, y = xy
    width = sprite.width - 2 * pad
    left = x - {"l": 0, "m": width / 2, "r": width}[anchor[0]]
    middle = y + size * 0.58 if anchor[1] == "a" else y
    _paste(image, sprite, left - pad, middle - sprite.height / 2)


def _rounded(size: tuple[int, int], radius: float, fill: Colour, outline: Colour | None, width: int) -> Image.Image:
    """Return a transparent sprite holding one rounded rectangle."""
    sprite = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(sprite).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=fill, outline=outline, width=width
    )
    return sprite


@cache
def _seat_chip(seat: int, r: int, bg: Colour | None) -> Image.Image:
    """Draw a seat's colour disc with its letter."""
    colour = seat_colour(seat)
    side = 2 * r + 2
    sprite = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.ellipse((1, 1, side - 2, side - 2), fill=colour, outline=INK, width=2)
    draw_text(draw, (side / 2, side / 2), seat_letter(seat), int(r * 1.15), text_on(colour), bold=True, anchor="mm")
    return _flatten(sprite, bg)


@cache
def _kind_chip(kind: str, size: int, bg: Colour | None = None) -> Image.Image:
    """Draw a fish type's colour square with its code."""
    code, colour, _ = KINDS.get(kind, ("?", FAINT, kind))
    sprite = _rounded((size, size), size * 0.2, colour, INK, 2)
    points = _size_to_fit(code, size * 0.8, int(size * 0.5), bold=True, smallest=8)
    draw_text(ImageDraw.Draw(sprite), (size / 2, size / 2), code, points, text_on(colour), bold=True, anchor="mm")
    return _flatten(sprite, bg)


@cache
def _card(kind: str, value: int | None, w: int, h: int) -> Image.Image:
    """Draw one face-up card: colour, big code, Molly value, and its name."""
    code, colour, short = KINDS.get(kind, ("?", FAINT, kind))
    ink = text_on(colour)
    sprite = _rounded((w, h), w * 0.1, colour, INK, 2)
    draw = ImageDraw.Draw(sprite)
    draw_text(draw, (w / 2, h * 0.5), code, int(w * 0.32), ink, bold=True, anchor="mm")
    if value is not None:
        r = w * 0.16
        cx, cy = w - r - w * 0.04, r + w * 0.04
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)
        draw_text(draw, (cx, cy), str(value), int(r * 1.4), INK, bold=True, anchor="mm")
    label = _size_to_fit(short, w * 0.9, int(w * 0.15), bold=True)
    draw_text(draw, (w / 2, h - h * 0.13), short, label, ink, bold=True, anchor="mm")
    return _flatten(sprite, WATER)


@cache
def _empty_slot(w: int, h: int) -> Image.Image:
    """Draw the outline left where a card was taken."""
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).rounded_rectangle((0, 0, w - 1, h - 1), radius=w * 0.1, outline=EMPTY, width=3)
    return _flatten(sprite, WATER)


def _paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste a sprite drawn in the palette with its top-left corner at (x, y)."""
    image.paste(sprite, (round(x), round(y)))


def _chip(image: Image.Image, seat: int, cx: float, cy: float, r: int, bg: Colour | None = BACKGROUND) -> None:
    """Paste a seat chip centred on (cx, cy), laid on `bg`."""
    _paste(image, _seat_chip(seat, r, bg), cx - r - 1, cy - r - 1)


# ----- the public table ---------------------------------------------------------------------------


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw round, phase and whose turn it is; return the next free y."""
    title = f"Round {view['round']} of {view['rounds']} · {PHASES.get(view['phase'], view['phase'])}"
    size = _size_to_fit(title, WIDTH - 2 * MARGIN, 38, True)
    _put(image, (MARGIN, y), title, size, INK, bold=True, anchor="la", bg=BACKGROUND)
    y += 52
    if view["to_act"]:
        seat = view["to_act"][0]
        if view["phase"] == "split":
            doing = " splits a group"
        elif view["phase"] == "take":
            doing = " takes a group"
        else:
            doing = f" may discard up to {view['pending_discards']} fish (Gourami)"
        _chip(image, seat, MARGIN + 20, y + 20, 20)
        room = WIDTH - 2 * MARGIN - 52
        size = _size_to_fit(_name(names, seat) + doing, room, 32)
        who = fit_text(_name(names, seat), size, room - _length(doing, size))
        _put(image, (MARGIN + 52, y + 20), who + doing, size, INK)
        y += 50
    return y


def _goal(image: Image.Image, draw: ImageDraw.ImageDraw, goal: dict[str, Any], y: int) -> int:
    """Draw the goal card as a banner; return the next free y."""
    head = f"Goal: {goal['name']} (+{goal['points']})"
    body = _wrap(goal["text"], WIDTH - 2 * MARGIN - 32, 26)
    height = 50 + 32 * len(body)
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + height), radius=14, fill=BANNER, outline=INK, width=3)
    size = _size_to_fit(head, WIDTH - 2 * MARGIN - 32, 30, True)
    _put(image, (MARGIN + 16, y + 10), head, size, INK, bold=True, anchor="la", bg=BANNER)
    for i, line in enumerate(body):
        _put(image, (MARGIN + 16, y + 46 + 32 * i), line, 26, INK, anchor="la", bg=BANNER)
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
        _put(image, (MARGIN, y + 22), f"{label}:", 28, INK, bold=True, bg=BACKGROUND)
        x = MARGIN + 226
        for i in range(1, len(seats)):
            _put(image, (x + 62 * i - 10, y + 22), "›", 30, MUTED, bold=True, anchor="mm")
        for i, seat in enumerate(seats):
            _chip(image, seat, x + 20, y + 22, 20)
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


def _table_height(view: dict[str, Any]) -> int:
    """Return the height of the table picture, computed the way the parts below are laid out."""
    height = MARGIN + 52 + (50 if view["to_act"] else 0)
    height += 50 + 32 * len(_wrap(view["goal"]["text"], WIDTH - 2 * MARGIN - 32, 26)) + 16
    height += 52 * len(order_rows(view)) + (6 if view["phase"] != "over" else 0)
    side = view["grid_size"]
    height += _grid_top(view) + side * (_cell_size(side)[1] + GAP) + 16
    height += 52 * len(view["seats"]) + 48
    lines = scoring_lines(view)
    if lines:
        height += _scoring_block_height(len(lines)) + 16
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
                _put(image, xy, name, 26, INK if name in usable else FAINT, bold=True, anchor="mm")
    draw.rounded_rectangle((x_left - GAP, y_top - GAP, x_left + grid_w + GAP, grid_bottom + GAP), radius=18, fill=WATER)
    for r, row in enumerate(view["grid"]):
        for c, card in enumerate(row):
            sprite = _empty_slot(cell, card_h) if card is None else _card(card["kind"], card.get("value"), cell, card_h)
            _paste(image, sprite, cx(c), cy(r))

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
        _put(image, (bx + 22, by + 22), group["label"], 26, WHITE, bold=True, anchor="mm", bg=INK)
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
        _chip(image, seat, MARGIN + 26, middle, 20, back)
        tags = []
        if seat == view.get("start_seat"):
            tags.append("start")
        if info["resigned"]:
            tags.append("left")
        tag = f" ({', '.join(tags)})" if tags else ""
        counts = _count(info["cards"], "card")
        if info["discarded"]:
            counts += f" · {info['discarded']} discarded"
        fill = MUTED if info["resigned"] else INK
        room = WIDTH - 2 * MARGIN - 70 - _length(counts, 28, True) - 20
        label = fit_text(_name(names, seat), 28, room - _length(tag, 28)) + tag
        _put(image, (MARGIN + 58, middle), label, 28, fill, bg=back)
        _put(image, (WIDTH - MARGIN - 10, middle), counts, 28, fill, bold=True, anchor="rm", bg=back)
        y += row_h
    footer = f"Deck {view['deck']} · Discard pile {view['discard_pile']} (face down)"
    _put(image, (MARGIN, y + 8), footer, 24, MUTED, anchor="la", bg=BACKGROUND)
    return y + 48


def scoring_lines(view: dict[str, Any]) -> list[tuple[str, str]]:
    """Return the scoring reminder shown on the table: (kind, "Neon Tetra: 1, 3, 6 … for 1, 2, 3 … cards")."""
    return [(r["key"], f"{r['name']}: {r['text']}") for r in view.get("scoring", [])]


def _scoring_block_height(lines: int) -> int:
    """Return the height of the scoring reminder with this many lines."""
    return 48 + 40 * lines + 8


@cache
def _scoring_block(lines: tuple[tuple[str, str], ...]) -> Image.Image:
    """Draw the scoring reminder: a heading, then one line per fish type with its colour chip."""
    row = 40
    sprite = Image.new("RGBA", (WIDTH - 2 * MARGIN, _scoring_block_height(len(lines))), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, sprite.width - 1, sprite.height - 1), radius=12, fill=WHITE, outline=FAINT, width=2)
    draw_text(draw, (14, 26), "How each card scores", 26, INK, bold=True, anchor="lm")
    for i, (kind, text) in enumerate(lines):
        middle = 48 + row * i + row / 2
        sprite.alpha_composite(_kind_chip(kind, 32), (14, int(middle - 16)))
        size = _size_to_fit(text, sprite.width - 76, 24, smallest=14)
        draw_text(draw, (58, middle), text, size, INK, anchor="lm")
    return _flatten(sprite, BACKGROUND)


def _scoring(image: Image.Image, view: dict[str, Any], y: int) -> int:
    """Paste the scoring reminder; return the next free y."""
    lines = tuple(scoring_lines(view))
    if not lines:
        return y
    block = _scoring_block(lines)
    _paste(image, block, MARGIN, y)
    return y + block.height + 16


def draw_table(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the public table: header, goal, turn order, grid, players and the scoring reminder."""
    return _drawn(lambda image, draw: _table_parts(image, draw, view, names) + 8, _table_height(view))


def _table_parts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str]) -> int:
    """Draw every part of the table from the top; return the y below the last one."""
    y = _header(image, draw, view, names, MARGIN)
    y = _goal(image, draw, view["goal"], y)
    y = _orders(image, draw, view, y)
    y = _grid(image, draw, view, y)
    y = _seats(image, draw, view, names, y)
    return _scoring(image, view, y)


def _drawn(parts: Callable[[Image.Image, ImageDraw.ImageDraw], int], height: int) -> Image.Image:
    """Draw on a page of the expected height; should the parts end elsewhere, draw again on one that fits."""
    image = _page(height)
    end = parts(image, ImageDraw.Draw(image))
    if end != height:
        image = _page(max(end, 2400))
        end = parts(image, ImageDraw.Draw(image))
        image = image.crop((0, 0, WIDTH, end))
    return image


def _page(height: int) -> Image.Image:
    """Return a blank page drawn in the fixed palette: every colour drawn on it must be in the palette."""
    image = Image.new("P", (WIDTH, height), 0)
    image.putpalette(_palette_data())
    return image


def render_table(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the public table as PNG, or the final scores once the game is over."""
    if view.get("final"):
        return render_final(view, names)
    return encode_png(draw_table(view, names))


# ----- a player's own aquarium --------------------------------------------------------------------


def _final_row(view: dict[str, Any]) -> dict[str, Any] | None:
    """Return the seat's row of the final standings once the game is over, else None."""
    final = view.get("final")
    if not final:
        return None
    return next((row for row in final["standings"] if row["seat"] == view["seat"]), None)


def aquarium_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return one row per card kind in play: key, name (singular or plural), count, and points (None if open)."""
    preview = view["preview"]
    row = _final_row(view)
    rows = []
    for kind in view["by_kind"]:
        key, n = kind["key"], len(kind["cards"])
        points = row["detail"].get(key) if row is not None else preview.get(key)
        rows.append(
            {
                "key": key,
                "name": kind["name"] if n == 1 else kind["plural"],
                "count": n,
                "points": 0 if points is None and n == 0 else points,
            }
        )
    return rows


def aquarium_total(view: dict[str, Any]) -> tuple[str, str]:
    """Return the total line and the note under it: final wording once the game is over."""
    row = _final_row(view)
    if row is not None:
        players = len(view["final"]["standings"])
        place = "winner" if row["winner"] else f"{_ordinal(row['rank'])} of {players}"
        return f"Final score: {row['total']} · {place}", "The game is over: these are your final points."
    preview = view["preview"]
    if any(kind["cards"] and preview.get(kind["key"]) is None for kind in view["by_kind"]):
        return (
            f"Score so far: {preview['total']} + Discus",
            "Discus is scored against the other aquariums at the end.",
        )
    return f"Score so far: {preview['total']}", ""


def draw_aquarium(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw a player's own aquarium: one row per fish type with counts and points, and the total."""
    return _drawn(lambda image, draw: _aquarium_parts(image, draw, view, names), _aquarium_height(view))


def _discard_lines(view: dict[str, Any]) -> list[str]:
    """Return the wrapped lines listing the fish the player discarded."""
    if not view["my_discards"]:
        return []
    return _wrap("You discarded: " + ", ".join(c["name"] for c in view["my_discards"]), WIDTH - 2 * MARGIN, 22)


def _aquarium_height(view: dict[str, Any]) -> int:
    """Return the height of the aquarium picture, computed the way it is laid out."""
    height = MARGIN + 60 + 44 + (72 if view.get("discard") else 0) + 74 * len(view["by_kind"]) + 78 + 56
    height += 36 if aquarium_total(view)[1] else 0
    return height + 30 * len(_discard_lines(view)) + MARGIN


def _aquarium_parts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str]) -> int:
    """Draw the aquarium from the top; return the y of the page's bottom edge."""
    seat = view["seat"]
    final = _final_row(view)
    y = MARGIN
    _chip(image, seat, MARGIN + 22, y + 24, 22)
    suffix = "'s aquarium"
    room = WIDTH - 2 * MARGIN - 60
    size = _size_to_fit(_name(names, seat) + suffix, room, 38, True)
    title = fit_text(_name(names, seat), size, room - _length(suffix, size, True), bold=True) + suffix
    _put(image, (MARGIN + 58, y + 24), title, size, INK, bold=True)
    y += 60
    private = "final" if final is not None else "private, only you see this"
    sub = f"{_count(len(view['aquarium']), 'card')} · {private}"
    _put(image, (MARGIN, y), sub, 24, MUTED, anchor="la", bg=BACKGROUND)
    y += 44
    if view.get("discard"):
        note = f"Gourami: discard up to {view['discard']['left']} fish, or keep them all"
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + 56), radius=12, fill=GOURAMI_NOTE, outline=INK, width=3)
        size = _size_to_fit(note, WIDTH - 2 * MARGIN - 32, 28, True)
        _put(image, (MARGIN + 16, y + 28), note, size, INK, bold=True, bg=GOURAMI_NOTE)
        y += 72
    row_h = 74
    molly = {k["key"]: k["cards"] for k in view["by_kind"]}.get("molly", [])
    for row in aquarium_rows(view):
        middle = y + row_h / 2 - 2
        faded = row["count"] == 0
        if not faded:
            draw.rounded_rectangle((MARGIN, y + 2, WIDTH - MARGIN, y + row_h - 6), radius=12, fill=WHITE)
        back = BACKGROUND if faded else WHITE
        _paste(image, _kind_chip(row["key"], 52, back), MARGIN + 8, y + 10)
        fill = FAINT if faded else INK
        label = f"{row['name']} ×{row['count']}"
        _put(image, (MARGIN + 76, middle), label, 30, fill, bold=True, bg=back)
        if row["key"] == "molly" and molly:
            values = fit_text("(" + " + ".join(str(c["value"]) for c in molly) + ")", 24, 250)
            _put(image, (MARGIN + 90 + _length(label, 30, True), middle), values, 24, MUTED, bg=back)
        points = "? at the end" if row["points"] is None else _count(row["points"], "pt")
        _put(image, (WIDTH - MARGIN - 14, middle), points, 30, fill, bold=True, anchor="rm", bg=back)
        y += row_h
    goal = view["goal"]
    met = final["detail"]["goal_met"] if final is not None else view["preview"]["goal_met"]
    missing = "not met" if final is not None else "not met yet"
    goal_text = f"Goal {goal['name']}: " + (f"met, +{goal['points']}" if met else missing)
    draw.rounded_rectangle(
        (MARGIN, y + 6, WIDTH - MARGIN, y + 62), radius=12, fill=MET if met else BANNER, outline=INK, width=2
    )
    size = _size_to_fit(goal_text, WIDTH - 2 * MARGIN - 32, 28, True)
    _put(image, (MARGIN + 16, y + 34), goal_text, size, INK, bold=True, bg=MET if met else BANNER)
    y += 78
    total, note = aquarium_total(view)
    size = _size_to_fit(total, WIDTH - 2 * MARGIN, 38, True)
    _put(image, (MARGIN, y + 6), total, size, INK, bold=True, anchor="la", bg=BACKGROUND)
    y += 56
    if note:
        _put(image, (MARGIN, y), note, 22, MUTED, anchor="la", bg=BACKGROUND)
        y += 36
    for line in _discard_lines(view):
        _put(image, (MARGIN, y), line, 22, MUTED, anchor="la", bg=BACKGROUND)
        y += 30
    return y + MARGIN


def render_aquarium(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw a player's own aquarium as PNG."""
    return encode_png(draw_aquarium(view, names))


# ----- the final scores ---------------------------------------------------------------------------


@cache
def _goal_chip(met: bool, bg: Colour) -> Image.Image:
    """Draw the goal cell's tick or dash."""
    sprite = _rounded((46, 46), 9, MET if met else FAINT, INK, 2)
    draw_text(ImageDraw.Draw(sprite), (23, 23), "✓" if met else "–", 28, INK, bold=True, anchor="mm")
    return _flatten(sprite, bg)


def draw_final(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the final scoring: every player by rank with points per fish type, chest and goal."""
    return _drawn(lambda image, draw: _final_parts(image, draw, view, names), _final_height(view))


FINAL_COLUMNS = 4


def _final_card_height(view: dict[str, Any]) -> int:
    """Return the height of one player's card in the final scores."""
    cells = len(view["final"]["kinds"]) + 1
    return 64 + (cells + FINAL_COLUMNS - 1) // FINAL_COLUMNS * 60 + 12


def _final_text(view: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Return the wrapped goal lines and legend lines of the final scores."""
    goal = view["goal"]
    head = _wrap(f"Goal: {goal['name']} (+{goal['points']}) · {goal['text']}", WIDTH - 2 * MARGIN, 24)
    kinds = [k["key"] for k in view["final"]["kinds"]]
    legend = "Points per type, ×cards held. " + " · ".join(f"{KINDS[k][0]} {PLURALS[k]}" for k in kinds if k in KINDS)
    return head, _wrap(legend + " · ✓ goal met", WIDTH - 2 * MARGIN, 22)


def _final_height(view: dict[str, Any]) -> int:
    """Return the height of the final scores picture, computed the way it is laid out."""
    head, legend = _final_text(view)
    height = MARGIN + 54 + 32 * len(head) + 10
    height += len(view["final"]["standings"]) * (_final_card_height(view) + 12) + 30 * len(legend)
    return height + (36 if view["final"].get("tiebreak") else 0) + MARGIN


def _final_parts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str]) -> int:
    """Draw the final scores from the top; return the y of the page's bottom edge."""
    final = view["final"]
    head, legend = _final_text(view)
    y = MARGIN
    _put(image, (MARGIN, y), "Game over · Final scores", 38, INK, bold=True, anchor="la", bg=BACKGROUND)
    y += 54
    for line in head:
        _put(image, (MARGIN, y), line, 24, MUTED, anchor="la", bg=BACKGROUND)
        y += 32
    y += 10
    columns = FINAL_COLUMNS
    chip_w = (WIDTH - 2 * MARGIN - 24) / columns
    cells = [*(k["key"] for k in final["kinds"]), "goal"]
    height = _final_card_height(view)
    for row in final["standings"]:
        seat = row["seat"]
        detail = row["detail"]
        draw.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + height), radius=14, fill=HIGHLIGHT if row["winner"] else WHITE, outline=INK,
            width=3
        )
        back = HIGHLIGHT if row["winner"] else WHITE
        _chip(image, seat, MARGIN + 34, y + 34, 20, back)
        tag = " · winner" if row["winner"] else " · resigned" if detail.get("resigned") else ""
        total = f"{row['total']} pts"
        _put(image, (WIDTH - MARGIN - 16, y + 34), total, 34, INK, bold=True, anchor="rm", bg=back)
        room = WIDTH - 2 * MARGIN - 80 - _length(total, 34, True) - 24
        head = f"{row['rank']}. "
        who = fit_text(_name(names, seat), 30, room - _length(head + tag, 30, True), bold=True)
        _put(image, (MARGIN + 66, y + 34), head + who + tag, 30, INK, bold=True, bg=back)
        for i, key in enumerate(cells):
            x = MARGIN + 12 + (i % columns) * chip_w
            top = y + 64 + (i // columns) * 60
            if key == "goal":
                _paste(image, _goal_chip(bool(detail.get("goal_met")), back), x, top)
                points, extra = detail["goal"], ""
            else:
                _paste(image, _kind_chip(key, 46, back), x, top)
                points = detail[key]
                extra = f"×{detail['counts'].get(key, 0)}" if key != "chest" else ""
            _put(image, (x + 56, top + 23), str(points), 30, INK, bold=True, bg=back)
            if extra:
                _put(image, (x + 62 + _length(str(points), 30, True), top + 25), extra, 24, MUTED, bg=back)
        y += height + 12
    for line in legend:
        _put(image, (MARGIN, y), line, 22, MUTED, anchor="la", bg=BACKGROUND)
        y += 30
    if final.get("tiebreak"):
        _put(image, (MARGIN, y + 4), final["tiebreak"], 24, INK, bold=True, anchor="la", bg=BACKGROUND)
        y += 36
    return y + MARGIN


def render_final(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the final scoring as PNG."""
    return encode_png(draw_final(view, names))


def _palette_colours() -> list[Colour]:
    """Return every colour the pictures use: the flat ones, then the blends anti-aliased text makes on them."""
    flat = [BACKGROUND, INK, WATER, MUTED, FAINT, LINE, WHITE, EMPTY, HIGHLIGHT, BANNER, MET, GOURAMI_NOTE]
    fills = [seat_colour(seat) for seat in range(len(SEAT_COLOUR_NAMES))] + [c for _, c, _ in KINDS.values()]
    pairs = [(INK, bg) for bg in (BACKGROUND, WHITE, HIGHLIGHT, BANNER, MET, GOURAMI_NOTE, FAINT)]
    pairs += [(MUTED, BACKGROUND), (MUTED, WHITE), (MUTED, HIGHLIGHT), (FAINT, BACKGROUND), (WHITE, INK)]
    pairs += [(text_on(fill), fill) for fill in fills]
    colours = list(dict.fromkeys(flat + fills))
    for ink, bg in pairs:
        for step in range(1, 8):
            blend = tuple(round(b + (i - b) * step / 8) for i, b in zip(ink, bg, strict=True))
            colours.append((blend[0], blend[1], blend[2]))
    return list(dict.fromkeys(colours))[:256]


@cache
def _palette_data() -> tuple[int, ...]:
    """Return the fixed palette as flat RGB values; index 0 is the page's background."""
    return tuple(channel for colour in _palette_colours() for channel in colour)


@cache
def _palette() -> Image.Image:
    """Return the fixed palette every picture is drawn in, so no picture needs a palette of its own."""
    palette = Image.new("P", (1, 1))
    palette.putpalette(_palette_data())
    return palette


# ----- screen-reader text -------------------------------------------------------------------------


def _group_text(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Describe one group and its cards for a screen reader."""
    r0, r1 = group["rows"]
    c0, c1 = group["cols"]
    cards = [view["grid"][r][c] for r in range(r0, r1) for c in range(c0, c1)]
    names = ", ".join(card["name"] for card in cards if card)
    rows = f"row {r0 + 1}" if r1 - r0 == 1 else f"rows {r0 + 1} to {r1}"
    cols = f"column {c0 + 1}" if c1 - c0 == 1 else f"columns {c0 + 1} to {c1}"
    text = f"Group {group['label']}, {rows}, {cols}, {_count(group['size'], 'card')}: {names}."
    if group["cuts"]:
        text += f" Can be cut along {', '.join(group['cuts'])}."
    elif view["phase"] == "split":
        text += " Cannot be split."
    return text


def _seat_text(info: dict[str, Any], names: Sequence[str]) -> str:
    """Describe one player's public counts."""
    seat = info["seat"]
    colour = SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)]
    text = f"{_name(names, seat)} ({colour} {seat_letter(seat)}): {_count(info['cards'], 'card')}"
    if info["discarded"]:
        text += f", {info['discarded']} discarded"
    if info["resigned"]:
        text += ", left the game"
    return text


def _compact_group(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Describe one group in few words: number, place, cards and cuts."""
    r0, r1 = group["rows"]
    c0, c1 = group["cols"]
    cards = ", ".join(card["name"] for r in range(r0, r1) for c in range(c0, c1) if (card := view["grid"][r][c]))
    rows = f"row {r0 + 1}" if r1 - r0 == 1 else f"rows {r0 + 1}-{r1}"
    cols = f"col {c0 + 1}" if c1 - c0 == 1 else f"cols {c0 + 1}-{c1}"
    cuts = f"; cuts {', '.join(group['cuts'])}" if group["cuts"] else "; no cut" if view["phase"] == "split" else ""
    return f"Group {group['label']} ({rows}, {cols}): {cards}{cuts}."


def _compact_seat(info: dict[str, Any], names: Sequence[str]) -> str:
    """Describe one player's public counts by seat letter."""
    text = f"{_name(names, info['seat'])} ({seat_letter(info['seat'])}): {_count(info['cards'], 'card')}"
    if info["discarded"]:
        text += f", {info['discarded']} discarded"
    return text + (", left" if info["resigned"] else "")


def alt_text_table(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the public table (or the final scores once over) for screen readers, within Discord's limit."""
    if view.get("final"):
        return alt_text_final(view, names)
    head = [f"10 Gallon Tank, round {view['round']} of {view['rounds']}, {PHASES[view['phase']].lower()}."]
    if view["to_act"]:
        seat = view["to_act"][0]
        doing = {"split": "splits a group", "take": "takes a group"}.get(
            view["phase"], f"may discard up to {_count(view['pending_discards'], 'fish card')} for a Gourami"
        )
        head.append(f"{_name(names, seat)} {doing}.")
    goal = view["goal"]
    head.append(f"Goal: {goal['name']}, {goal['text'].lower()}, {goal['points']} points.")
    parts = [f"{label}: {', '.join(_name(names, s) for s in seats)}." for label, seats in order_rows(view)]
    side = view["grid_size"]
    parts.append(f"Grid {side} by {side}; h lines run between rows, v lines between columns.")
    parts += [_group_text(view, g) for g in view["groups"]]
    parts.append("Players: " + "; ".join(_seat_text(s, names) for s in view["seats"]) + ".")
    deck = f"Deck {view['deck']} cards, discard pile {view['discard_pile']}."
    full = " ".join([*head, *parts, deck])
    scoring = "Scoring: " + "; ".join(line for _, line in scoring_lines(view)) + "."
    compact = [*head, "Players: " + "; ".join(_compact_seat(s, names) for s in view["seats"]) + "."]
    compact += [f"{label}: {', '.join(seat_letter(s) for s in seats)}." for label, seats in order_rows(view)]
    compact.append(f"{side} by {side} grid; h cuts run between rows, v cuts between columns.")
    compact += [_compact_group(view, g) for g in view["groups"]]
    compact.append(deck)
    elsewhere = "How each card scores: /game rules game:tank."
    return fit_alt(f"{full} {scoring}", f"{full} {elsewhere}", " ".join([*compact, elsewhere]), " ".join(compact))


def alt_text_aquarium(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe a player's own aquarium and its score (so far, or final) for screen readers."""
    final = _final_row(view)
    parts = [f"{_name(names, view['seat'])}'s aquarium, {_count(len(view['aquarium']), 'card')}."]
    if view.get("discard"):
        parts.append(f"You may discard up to {view['discard']['left']} fish for your Gourami, or keep them all.")
    cards = {k["key"]: k["cards"] for k in view["by_kind"]}
    for row in aquarium_rows(view):
        if not row["count"]:
            continue
        values = ""
        if row["key"] == "molly":
            values = " (" + ", ".join(str(c["value"]) for c in cards[row["key"]]) + ")"
        scored = "scored at the end" if row["points"] is None else _count(row["points"], "point")
        parts.append(f"{row['name']}: {row['count']}{values}, {scored}.")
    goal = view["goal"]
    met = final["detail"]["goal_met"] if final is not None else view["preview"]["goal_met"]
    parts.append(f"Goal {goal['name']}: {'met' if met else 'not met' if final is not None else 'not met yet'}.")
    total, _ = aquarium_total(view)
    if final is not None:
        parts.append(total.replace(" · ", ", ") + ".")
    elif total.endswith("+ Discus"):
        parts.append(f"Score so far {_count(view['preview']['total'], 'point')}, Discus not included.")
    else:
        parts.append(f"Score so far {_count(view['preview']['total'], 'point')}.")
    return fit_alt(" ".join(parts))


def alt_text_final(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the final scoring for screen readers."""
    final = view["final"]
    kinds = {k["key"]: k for k in final["kinds"]}
    parts = ["10 Gallon Tank, final scores."]
    for row in final["standings"]:
        detail = row["detail"]
        bits = [f"{kinds[k]['plural']} {detail[k]}" for k in kinds]
        bits.append(f"goal {detail['goal']}")
        flag = " (winner)" if row["winner"] else " (resigned)" if detail.get("resigned") else ""
        parts.append(f"{row['rank']}. {_name(names, row['seat'])}{flag}: {row['total']} points; {', '.join(bits)}.")
    if final.get("tiebreak"):
        parts.append(final["tiebreak"] + ".")
    return fit_alt(" ".join(parts))
