"""Draw 10 Gallon Tank: the public grid of groups, a player's own aquarium, and the final scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render.common import INK, PAPER, SEAT_COLOUR_NAMES, encode_png, font, seat_colour, seat_letter, text_on

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
KIND_ORDER = list(KINDS)
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


def _name(names: Sequence[str], seat: int) -> str:
    """Return a seat's name, or "Seat N" when none is known."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _count(n: int, word: str) -> str:
    """Return "1 card" / "3 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _width(text: str, face: ImageFont.FreeTypeFont) -> float:
    """Return the drawn width of a text."""
    return face.getlength(text)


def _fit(
    text: str, limit: float, size: int, bold: bool = False, smallest: int = 14
) -> ImageFont.FreeTypeFont:
    """Return the largest font up to `size` in which `text` fits `limit` pixels."""
    while size > smallest and _width(text, font(size, bold)) > limit:
        size -= 2
    return font(size, bold)


def _clip(text: str, limit: float, face: ImageFont.FreeTypeFont) -> str:
    """Shorten a text with an ellipsis until it fits."""
    if _width(text, face) <= limit:
        return text
    while text and _width(text + "…", face) > limit:
        text = text[:-1]
    return text + "…"


def _wrap(text: str, limit: float, face: ImageFont.FreeTypeFont) -> list[str]:
    """Break a text into lines that fit `limit` pixels."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if _width(trial, face) <= limit or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def _seat_chip(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    """Draw a seat's colour disc with its letter."""
    colour = seat_colour(seat)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
    face = font(int(r * 1.15), bold=True)
    draw.text((cx, cy), seat_letter(seat), font=face, fill=text_on(colour), anchor="mm")


def _kind_chip(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, size: float) -> None:
    """Draw a fish type's colour square with its code."""
    code, colour, _ = KINDS.get(kind, ("?", FAINT, kind))
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size * 0.2, fill=colour, outline=INK, width=2)
    face = _fit(code, size * 0.8, int(size * 0.5), bold=True)
    draw.text((x + size / 2, y + size / 2), code, font=face, fill=text_on(colour), anchor="mm")


def _card(draw: ImageDraw.ImageDraw, card: dict[str, Any], box: tuple[float, float, float, float]) -> None:
    """Draw one face-up card: colour, big code, Molly value, and its name."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    code, colour, short = KINDS.get(card["kind"], ("?", FAINT, card["kind"]))
    ink = text_on(colour)
    draw.rounded_rectangle(box, radius=w * 0.1, fill=colour, outline=INK, width=2)
    draw.text(
        (x0 + w / 2, y0 + (y1 - y0) * 0.5), code, font=font(int(w * 0.32), bold=True), fill=ink, anchor="mm"
    )
    if card.get("value") is not None:
        r = w * 0.16
        cx, cy = x1 - r - w * 0.04, y0 + r + w * 0.04
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)
        draw.text((cx, cy), str(card["value"]), font=font(int(r * 1.4), bold=True), fill=INK, anchor="mm")
    label = _fit(short, w * 0.9, int(w * 0.15), bold=True)
    draw.text((x0 + w / 2, y1 - (y1 - y0) * 0.13), short, font=label, fill=ink, anchor="mm")


def _dashed(
    draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Colour
) -> None:
    """Draw a dashed straight line from a to b."""
    (xa, ya), (xb, yb) = a, b
    length = max(abs(xb - xa), abs(yb - ya))
    dash, step = 12.0, 20.0
    t = 0.0
    while t < length:
        u0, u1 = t / length, min(t + dash, length) / length
        draw.line(
            (xa + (xb - xa) * u0, ya + (yb - ya) * u0, xa + (xb - xa) * u1, ya + (yb - ya) * u1),
            fill=colour,
            width=4,
        )
        t += step


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw round, phase and whose turn it is; return the next free y."""
    title = f"Round {view['round']} of {view['rounds']} · {PHASES.get(view['phase'], view['phase'])}"
    draw.text((MARGIN, y), title, font=_fit(title, WIDTH - 2 * MARGIN, 38, bold=True), fill=INK)
    y += 52
    if view["to_act"]:
        seat = view["to_act"][0]
        if view["phase"] == "split":
            doing = "splits a group"
        elif view["phase"] == "take":
            doing = "takes a group"
        else:
            doing = f"may discard up to {view['pending_discards']} fish (Gourami)"
        line = f"{_name(names, seat)} {doing}"
        _seat_chip(draw, seat, MARGIN + 20, y + 20, 20)
        draw.text(
            (MARGIN + 52, y + 20), line, font=_fit(line, WIDTH - 2 * MARGIN - 52, 32), fill=INK, anchor="lm"
        )
        y += 50
    return y


def _goal(draw: ImageDraw.ImageDraw, goal: dict[str, Any], y: int) -> int:
    """Draw the goal card as a banner; return the next free y."""
    head = f"Goal: {goal['name']} (+{goal['points']})"
    body = _wrap(goal["text"], WIDTH - 2 * MARGIN - 32, font(26))
    height = 50 + 32 * len(body)
    draw.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + height), radius=14, fill=(255, 248, 214), outline=INK, width=3
    )
    draw.text((MARGIN + 16, y + 10), head, font=_fit(head, WIDTH - 2 * MARGIN - 32, 30, bold=True), fill=INK)
    for i, line in enumerate(body):
        draw.text((MARGIN + 16, y + 46 + 32 * i), line, font=font(26), fill=INK)
    return y + height + 16


def _grid(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """Draw the cards, each group outlined and lettered, and the usable cut lines; return the next free y."""
    side = view["grid_size"]
    room = WIDTH - 2 * MARGIN - LABEL - 2 * GAP
    cell = min(MAX_CELL, (room - (side - 1) * GAP) // side)
    card_h = int(cell * 1.1)
    grid_w = side * cell + (side - 1) * GAP
    x_left = MARGIN + LABEL + GAP + (room - grid_w) // 2
    y_top = y + LABEL

    def cx(col: int) -> float:
        return x_left + col * (cell + GAP)

    def cy(row: int) -> float:
        return y_top + row * (card_h + GAP)

    grid_bottom = cy(side) - GAP
    draw.rounded_rectangle(
        (x_left - GAP, y_top - GAP, x_left + grid_w + GAP, grid_bottom + GAP), radius=18, fill=WATER
    )
    for r, row in enumerate(view["grid"]):
        for c, card in enumerate(row):
            box = (cx(c), cy(r), cx(c) + cell, cy(r) + card_h)
            if card is None:
                draw.rounded_rectangle(box, radius=cell * 0.1, outline=EMPTY, width=3)
            else:
                _card(draw, card, box)

    usable: set[str] = set()
    for group in view["groups"]:
        r0, r1 = group["rows"]
        c0, c1 = group["cols"]
        for line in group["cuts"]:
            usable.add(line)
            k = int(line[1:])
            if line[0] == "h":
                ly = cy(k) - GAP / 2
                _dashed(draw, (cx(c0) - 4, ly), (cx(c1) - GAP + 4, ly), LINE)
            else:
                lx = cx(k) - GAP / 2
                _dashed(draw, (lx, cy(r0) - 4), (lx, cy(r1) - GAP + 4), LINE)
    for group in view["groups"]:
        r0, r1 = group["rows"]
        c0, c1 = group["cols"]
        pad = GAP / 2 - 2
        draw.rounded_rectangle(
            (cx(c0) - pad, cy(r0) - pad, cx(c1) - GAP + pad, cy(r1) - GAP + pad),
            radius=14,
            outline=INK,
            width=5,
        )
        badge = 44
        bx, by = cx(c0) - pad - 6, cy(r0) - pad - 6
        draw.rounded_rectangle((bx, by, bx + badge, by + badge), radius=10, fill=INK, outline=WHITE, width=3)
        draw.text(
            (bx + badge / 2, by + badge / 2),
            group["letter"],
            font=font(32, bold=True),
            fill=WHITE,
            anchor="mm",
        )

    if view["phase"] == "split":
        for k in range(1, side):
            name = f"h{k}"
            fill = INK if name in usable else FAINT
            draw.text(
                (MARGIN + LABEL / 2 - 6, cy(k) - GAP / 2),
                name,
                font=font(26, bold=True),
                fill=fill,
                anchor="mm",
            )
            name = f"v{k}"
            fill = INK if name in usable else FAINT
            draw.text(
                (cx(k) - GAP / 2, y + LABEL / 2 - 4), name, font=font(26, bold=True), fill=fill, anchor="mm"
            )
    return int(grid_bottom + GAP + 16)


def _seats(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw one line per player: colour, letter, name and how many cards they hold (never which)."""
    acting = set(view["to_act"])
    for info in view["seats"]:
        seat = info["seat"]
        row_h = 52
        if seat in acting:
            draw.rounded_rectangle(
                (MARGIN, y, WIDTH - MARGIN, y + row_h - 4), radius=10, fill=(255, 244, 200)
            )
        _seat_chip(draw, seat, MARGIN + 26, y + row_h / 2 - 2, 20)
        tags = []
        if seat == view.get("start_seat"):
            tags.append("start")
        if info["resigned"]:
            tags.append("left")
        label = _name(names, seat) + (f" ({', '.join(tags)})" if tags else "")
        counts = _count(info["cards"], "card")
        if info["discarded"]:
            counts += f" · {info['discarded']} discarded"
        count_face = font(28, bold=True)
        count_w = _width(counts, count_face)
        name_face = font(28)
        label = _clip(label, WIDTH - 2 * MARGIN - 70 - count_w - 20, name_face)
        fill = MUTED if info["resigned"] else INK
        draw.text((MARGIN + 58, y + row_h / 2 - 2), label, font=name_face, fill=fill, anchor="lm")
        draw.text((WIDTH - MARGIN - 10, y + row_h / 2 - 2), counts, font=count_face, fill=fill, anchor="rm")
        y += row_h
    footer = f"Deck {view['deck']} · Discard pile {view['discard_pile']} (face down)"
    draw.text((MARGIN, y + 8), footer, font=font(24), fill=MUTED)
    return y + 48


def _canvas(height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """Return a blank page and its drawing context."""
    image = Image.new("RGB", (WIDTH, height), PAPER)
    return image, ImageDraw.Draw(image)


def render_table(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the public table as PNG: grid, groups, cut lines, goal, turn, card counts; scores once over."""
    if view.get("final"):
        return render_final(view, names)
    image, draw = _canvas(2000)
    y = _header(draw, view, names, MARGIN)
    y = _goal(draw, view["goal"], y)
    y = _grid(draw, view, y)
    y = _seats(draw, view, names, y)
    return encode_png(image.crop((0, 0, WIDTH, y)))


def _points_text(points: Any) -> str:
    """Return points for display, "?" when not known yet."""
    return "?" if points is None else str(points)


def render_aquarium(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw a player's own aquarium as PNG: one row per fish type with counts and points, and the total."""
    seat = view["seat"]
    preview = view["preview"]
    image, draw = _canvas(2000)
    y = MARGIN
    _seat_chip(draw, seat, MARGIN + 22, y + 24, 22)
    title = f"{_name(names, seat)}'s aquarium"
    draw.text(
        (MARGIN + 58, y + 24),
        title,
        font=_fit(title, WIDTH - 2 * MARGIN - 60, 38, bold=True),
        fill=INK,
        anchor="lm",
    )
    y += 60
    sub = f"{_count(len(view['aquarium']), 'card')} · private, only you see this"
    draw.text((MARGIN, y), sub, font=font(24), fill=MUTED)
    y += 44
    if view.get("discard"):
        left = view["discard"]["left"]
        note = f"Gourami: discard up to {left} fish, or keep them all"
        draw.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + 56), radius=12, fill=(255, 228, 214), outline=INK, width=3
        )
        draw.text(
            (MARGIN + 16, y + 28),
            note,
            font=_fit(note, WIDTH - 2 * MARGIN - 32, 28, bold=True),
            fill=INK,
            anchor="lm",
        )
        y += 72
    row_h = 74
    for kind in view["by_kind"]:
        key = kind["key"]
        cards = kind["cards"]
        n = len(cards)
        faded = n == 0
        if not faded:
            draw.rounded_rectangle((MARGIN, y + 2, WIDTH - MARGIN, y + row_h - 6), radius=12, fill=WHITE)
        _kind_chip(draw, key, MARGIN + 8, y + 10, 52)
        fill = FAINT if faded else INK
        label = f"{kind['plural'] if n != 1 else kind['name']} ×{n}"
        draw.text((MARGIN + 76, y + row_h / 2 - 2), label, font=font(30, bold=True), fill=fill, anchor="lm")
        points = preview.get(key)
        if key == "molly" and n:
            values = " + ".join(str(c["value"]) for c in cards)
            draw.text(
                (MARGIN + 90 + _width(label, font(30, bold=True)), y + row_h / 2 - 2),
                _clip(f"({values})", 250, font(24)),
                font=font(24),
                fill=MUTED,
                anchor="lm",
            )
        text = ("? at the end" if n else "?") if points is None else _count(points, "pt")
        draw.text(
            (WIDTH - MARGIN - 14, y + row_h / 2 - 2), text, font=font(30, bold=True), fill=fill, anchor="rm"
        )
        y += row_h
    goal = view["goal"]
    met = preview["goal_met"]
    goal_text = f"Goal {goal['name']}: " + (f"met, +{goal['points']}" if met else "not met yet")
    draw.rounded_rectangle(
        (MARGIN, y + 6, WIDTH - MARGIN, y + 62),
        radius=12,
        fill=(214, 245, 214) if met else (255, 248, 214),
        outline=INK,
        width=2,
    )
    draw.text(
        (MARGIN + 16, y + 34),
        goal_text,
        font=_fit(goal_text, WIDTH - 2 * MARGIN - 32, 28, bold=True),
        fill=INK,
        anchor="lm",
    )
    y += 78
    has_open = any(preview.get(k["key"]) is None for k in view["by_kind"])
    total = f"Score so far: {preview['total']}" + (" + Discus" if has_open else "")
    draw.text((MARGIN, y + 6), total, font=_fit(total, WIDTH - 2 * MARGIN, 38, bold=True), fill=INK)
    y += 56
    if has_open:
        draw.text(
            (MARGIN, y), "Discus is scored against the other aquariums at the end.", font=font(22), fill=MUTED
        )
        y += 36
    if view["my_discards"]:
        gone = ", ".join(c["name"] for c in view["my_discards"])
        for line in _wrap(f"You discarded: {gone}", WIDTH - 2 * MARGIN, font(22)):
            draw.text((MARGIN, y), line, font=font(22), fill=MUTED)
            y += 30
    return encode_png(image.crop((0, 0, WIDTH, y + MARGIN)))


def render_final(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw the final scoring as PNG: every player by rank with points per fish type, chest and goal."""
    final = view["final"]
    image, draw = _canvas(3000)
    y = MARGIN
    title = "Game over · Final scores"
    draw.text((MARGIN, y), title, font=font(38, bold=True), fill=INK)
    y += 54
    goal = view["goal"]
    goal_line = f"Goal: {goal['name']} (+{goal['points']}) · {goal['text']}"
    for line in _wrap(goal_line, WIDTH - 2 * MARGIN, font(24)):
        draw.text((MARGIN, y), line, font=font(24), fill=MUTED)
        y += 32
    y += 10
    kinds = [k["key"] for k in final["kinds"]]
    columns = 4
    chip_w = (WIDTH - 2 * MARGIN - 24) / columns
    for row in final["standings"]:
        seat = row["seat"]
        detail = row["detail"]
        cells = [*kinds, "goal"]
        lines = (len(cells) + columns - 1) // columns
        height = 64 + lines * 60 + 12
        back = (255, 244, 200) if row["winner"] else WHITE
        draw.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + height), radius=14, fill=back, outline=INK, width=3
        )
        _seat_chip(draw, seat, MARGIN + 34, y + 34, 20)
        label = f"{row['rank']}. {_name(names, seat)}"
        if row["winner"]:
            label += " · winner"
        if detail.get("resigned"):
            label += " · resigned"
        total = f"{row['total']} pts"
        total_face = font(34, bold=True)
        draw.text((WIDTH - MARGIN - 16, y + 34), total, font=total_face, fill=INK, anchor="rm")
        limit = WIDTH - 2 * MARGIN - 80 - _width(total, total_face) - 24
        draw.text(
            (MARGIN + 66, y + 34),
            _clip(label, limit, font(30, bold=True)),
            font=font(30, bold=True),
            fill=INK,
            anchor="lm",
        )
        for i, key in enumerate(cells):
            x = MARGIN + 12 + (i % columns) * chip_w
            cy = y + 64 + (i // columns) * 60
            if key == "goal":
                met = detail.get("goal_met")
                draw.rounded_rectangle(
                    (x, cy, x + 46, cy + 46),
                    radius=9,
                    fill=(214, 245, 214) if met else FAINT,
                    outline=INK,
                    width=2,
                )
                draw.text(
                    (x + 23, cy + 23), "✓" if met else "–", font=font(28, bold=True), fill=INK, anchor="mm"
                )
                extra = ""
                points = detail["goal"]
            else:
                _kind_chip(draw, key, x, cy, 46)
                points = detail[key]
                extra = f"×{detail['counts'].get(key, 0)}" if key != "chest" else ""
            strong = font(30, bold=True)
            draw.text((x + 56, cy + 23), str(points), font=strong, fill=INK, anchor="lm")
            if extra:
                at = x + 56 + _width(str(points), strong) + 6
                draw.text((at, cy + 25), extra, font=font(24), fill=MUTED, anchor="lm")
        y += height + 12
    legend = "Points per type, ×cards held. " + " · ".join(
        f"{KINDS[k][0]} {PLURALS[k]}" for k in kinds if k in KINDS
    )
    for line in _wrap(legend + " · ✓ goal met", WIDTH - 2 * MARGIN, font(22)):
        draw.text((MARGIN, y), line, font=font(22), fill=MUTED)
        y += 30
    if final.get("tiebreak"):
        draw.text((MARGIN, y + 4), final["tiebreak"], font=font(24, bold=True), fill=INK)
        y += 36
    return encode_png(image.crop((0, 0, WIDTH, y + MARGIN)))


def _group_text(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Describe one group and its cards for a screen reader."""
    r0, r1 = group["rows"]
    c0, c1 = group["cols"]
    cards = [view["grid"][r][c] for r in range(r0, r1) for c in range(c0, c1)]
    names = ", ".join(card["name"] for card in cards if card)
    rows = f"row {r0 + 1}" if r1 - r0 == 1 else f"rows {r0 + 1} to {r1}"
    cols = f"column {c0 + 1}" if c1 - c0 == 1 else f"columns {c0 + 1} to {c1}"
    text = f"Group {group['letter']}, {rows}, {cols}, {_count(group['size'], 'card')}: {names}."
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


def alt_text_table(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the public table (or the final scores once over) for screen readers."""
    if view.get("final"):
        return alt_text_final(view, names)
    parts = [f"10 Gallon Tank, round {view['round']} of {view['rounds']}, {PHASES[view['phase']].lower()}."]
    if view["to_act"]:
        seat = view["to_act"][0]
        doing = {"split": "splits a group", "take": "takes a group"}.get(
            view["phase"], f"may discard up to {_count(view['pending_discards'], 'fish card')} for a Gourami"
        )
        parts.append(f"{_name(names, seat)} {doing}.")
    goal = view["goal"]
    parts.append(f"Goal: {goal['name']}, {goal['text'].lower()}, {goal['points']} points.")
    side = view["grid_size"]
    parts.append(f"Grid {side} by {side}; h lines run between rows, v lines between columns.")
    parts += [_group_text(view, g) for g in view["groups"]]
    parts.append("Players: " + "; ".join(_seat_text(s, names) for s in view["seats"]) + ".")
    parts.append(f"Deck {view['deck']} cards, discard pile {view['discard_pile']}.")
    return " ".join(parts)


def alt_text_aquarium(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe a player's own aquarium and score preview for screen readers."""
    preview = view["preview"]
    parts = [f"{_name(names, view['seat'])}'s aquarium, {_count(len(view['aquarium']), 'card')}."]
    if view.get("discard"):
        parts.append(
            f"You may discard up to {view['discard']['left']} fish for your Gourami, or keep them all."
        )
    for kind in view["by_kind"]:
        n = len(kind["cards"])
        if not n:
            continue
        points = preview.get(kind["key"])
        scored = "scored at the end" if points is None else _count(points, "point")
        values = ""
        if kind["key"] == "molly":
            values = " (" + ", ".join(str(c["value"]) for c in kind["cards"]) + ")"
        parts.append(f"{kind['plural'] if n != 1 else kind['name']}: {n}{values}, {scored}.")
    goal = view["goal"]
    parts.append(f"Goal {goal['name']}: {'met' if preview['goal_met'] else 'not met yet'}.")
    parts.append(f"Score so far {_count(preview['total'], 'point')}, Discus not included.")
    return " ".join(parts)


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
        parts.append(
            f"{row['rank']}. {_name(names, row['seat'])}{flag}: {row['total']} points; {', '.join(bits)}."
        )
    if final.get("tiebreak"):
        parts.append(final["tiebreak"] + ".")
    return " ".join(parts)
