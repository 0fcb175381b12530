"""Draw a Flippers table and a private hand as PNG images, with alt text for each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.flippers.cards import MINUS_POINTS, PLUS_POINTS
from engine.flippers.table import STEP, column_label, parse_label, rotate
from render.common import INK, PAPER, encode_png, font, seat_colour, text_on

CELL = 104
INSET = 9
EDGE = 56
MIN_WIDTH = 960
LINE = 56
BACK = (64, 72, 88)
FOOD_BG = (236, 244, 250)
FOOD_INK = (0, 80, 140)
OPEN = (214, 221, 230)
FAINT = (120, 130, 145)
HIGHLIGHT = (20, 24, 33)
ICONS = {
    "leader": "♛",
    "flip": "◩",
    "bump": "⇉",
    "switch": "⇄",
    "replace": "⇵",
    "turn": "↻",
    "plus": f"+{PLUS_POINTS}",
    "minus": f"−{MINUS_POINTS}",
    "block": "⊘",
}
Box = tuple[int, int, int, int]


def _png(image: Image.Image) -> bytes:
    """Encode as a 256-colour PNG: half the bytes of RGB and quicker to write, with no visible loss."""
    return encode_png(image.quantize(256, method=Image.Quantize.FASTOCTREE))


def _name(names: Sequence[str], seat: int) -> str:
    """Return a seat's player name."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _centred(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Any, bold: bool = False
) -> None:
    """Draw `text` centred on `xy`."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def _arrow(draw: ImageDraw.ImageDraw, box: Box, direction: str, fill: Any, half: int = 20) -> None:
    """Draw an arrow tab on the card edge facing `direction`, its tip reaching into the gap beyond."""
    x0, y0, x1, y1 = box
    dx, dy = STEP[direction]
    mx, my = (x0 + x1) / 2 + dx * (x1 - x0) / 2, (y0 + y1) / 2 + dy * (y1 - y0) / 2
    depth, out = half * 0.4, INSET + half * 0.15
    shape = [(-depth, -half), (0, -half), (out, 0), (0, half), (-depth, half)]
    points = [(mx + a * dx - b * dy, my + a * dy + b * dx) for a, b in shape]
    draw.polygon(points, fill=fill, outline=PAPER, width=2)


def _marker(draw: ImageDraw.ImageDraw, centre: tuple[float, float], team: int, letter: str) -> None:
    """Draw a team's Block marker: an octagon in its colour with its letter."""
    x, y = centre
    r, k = 21, 9
    points = [
        (x - k, y - r),
        (x + k, y - r),
        (x + r, y - k),
        (x + r, y + k),
        (x + k, y + r),
        (x - k, y + r),
        (x - r, y + k),
        (x - r, y - k),
    ]
    colour = seat_colour(team)
    draw.polygon(points, fill=colour, outline=INK, width=4)
    _centred(draw, (x, y), letter, 22, text_on(colour), bold=True)


def _fit(text: str, size: int, width: int, bold: bool = True) -> int:
    """Return the largest font size up to `size` at which `text` fits in `width` pixels."""
    while size > 9 and font(size, bold).getlength(text) > width:
        size -= 1
    return size


def _explorer(draw: ImageDraw.ImageDraw, box: Box, card: dict[str, Any], letters: list[str]) -> None:
    """Draw an Explorer card, face up or face down, with its arrows."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    team = card["team"]
    colour = seat_colour(team)
    if card["face"] == "down":
        draw.rounded_rectangle(box, radius=10, fill=BACK, outline=colour, width=7)
        _centred(draw, (cx, cy), letters[team], 40, colour, bold=True)
        _arrow(draw, box, card["facing"], (150, 158, 172), half=13)
        return
    ink = text_on(colour)
    draw.rounded_rectangle(box, radius=10, fill=colour, outline=INK, width=2)
    _centred(draw, (x0 + 17, y0 + 19), letters[team], 28, ink, bold=True)
    icon = ICONS[card["power"]]
    _centred(draw, (cx + 6, cy - 2), icon, 34 if len(icon) > 1 else 44, ink, bold=True)
    name = card["power_name"]
    _centred(draw, (cx, y1 - 18), name, _fit(name, 18, x1 - x0 - 8), ink, bold=True)
    if card["power"] == "switch":
        for quarter in (-1, 1):
            _arrow(draw, box, rotate(card["facing"], quarter), INK)
    else:
        _arrow(draw, box, card["facing"], INK)


def _food(draw: ImageDraw.ImageDraw, box: Box, card: dict[str, Any]) -> None:
    """Draw a Food card with each arrow and the points it pays beside it."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    draw.rounded_rectangle(box, radius=10, fill=FOOD_BG, outline=FOOD_INK, width=4)
    label_width = x1 - x0 - 44
    _centred(draw, (cx, cy - 7), card["name"], _fit(card["name"], 15, label_width), FOOD_INK, bold=True)
    _centred(draw, (cx, cy + 10), f"side {card['face']}", 12, FOOD_INK)
    for arrow in card["arrows"]:
        dx, dy = STEP[arrow["dir"]]
        _arrow(draw, box, arrow["dir"], FOOD_INK)
        _centred(draw, (cx + dx * 30, cy + dy * 30), str(arrow["points"]), 24, INK, bold=True)


def _grid(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """Return the first and last column and row to draw: the cards plus one ring of open cells."""
    b = view["bounds"]
    return b["min_col"] - 1, b["max_col"] + 1, b["min_row"] - 1, b["max_row"] + 1


def _seat_lines(view: dict[str, Any], names: Sequence[str]) -> list[tuple[int | None, str]]:
    """Return (seat, text) lines for the panel under the table."""
    seats = view["seats"]
    lines: list[tuple[int | None, str]] = []
    if view["final"]:
        for s in seats:
            sc = view["scores"][s["seat"]]
            star = " ★ winner" if s["seat"] in view["winners"] else ""
            out = " (resigned)" if s["resigned"] else ""
            lines.append(
                (
                    s["seat"],
                    f"{_name(names, s['seat'])}{out}: {sc['stash']} stash + {sc['food']} food"
                    f" + {sc['leader']} leader = {sc['total']}{star}",
                )
            )
    else:
        for s in seats:
            turn = "▶ " if view["current"] == s["seat"] else ""
            out = " · resigned" if s["resigned"] else f" · hand {s['hand_size']} · deck {s['deck_size']}"
            lines.append(
                (s["seat"], f"{turn}{_name(names, s['seat'])} ({s['short']}): {s['stash']} pts{out}")
            )
    if view["teams_mode"]:
        totals: dict[int, int] = {}
        for s in seats:
            key = "total" if view["final"] else "stash"
            totals[s["side"]] = totals.get(s["side"], 0) + view["scores"][s["seat"]][key]
        for side, total in sorted(totals.items()):
            members = " + ".join(_name(names, s["seat"]) for s in seats if s["side"] == side)
            lines.append((None, f"Team {members}: {total} {'points' if view['final'] else 'pts in stash'}"))
    return lines


def _headline(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return the line above the table saying whose turn it is."""
    if view["phase"] == "setup":
        return "Setup: " + ", ".join(_name(names, s) for s in view["to_act"]) + " choosing discards"
    if view["final"]:
        winners = [_name(names, s) for s in view["winners"]]
        if not winners:
            return "Game over"
        listed = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
        return f"Game over: {listed} {'wins' if len(winners) == 1 else 'win'}"
    who = _name(names, view["current"])
    if view["played"] is None:
        return f"Turn {view['turn']}: {who} to play"
    return f"Turn {view['turn']}: {who} activates"


def _activation_line(view: dict[str, Any]) -> str:
    """Return the line listing the cards still to activate."""
    by_id = {c["id"]: c for c in view["cards"]}
    due = [f"{by_id[c]['power_name']} {by_id[c]['cell']}" for c in view["to_activate"]]
    return ("Still to activate: " + ", ".join(due)) if due else ""


def render_table(view: dict[str, Any], names: list[str]) -> bytes:
    """Return the table as a PNG: cards on a labelled grid, markers, stashes and whose turn it is."""
    c0, c1, r0, r1 = _grid(view)
    cols, rows = c1 - c0 + 1, r1 - r0 + 1
    grid_w, grid_h = cols * CELL + 2 * EDGE, rows * CELL + 2 * EDGE
    width = max(MIN_WIDTH, grid_w)
    seat_lines = _seat_lines(view, names)
    activation = _activation_line(view)
    header = 2 * LINE + (LINE if activation else 0)
    height = header + grid_h + (len(seat_lines) + 1) * LINE + 20
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    headline = _headline(view, names)
    _centred(draw, (width / 2, LINE * 0.6), headline, _fit(headline, 44, width - 20), INK, bold=True)
    _centred(draw, (width / 2, LINE * 1.45), f"Supply: {view['supply']} points", 30, FAINT)
    if activation:
        _centred(draw, (width / 2, LINE * 2.4), activation, _fit(activation, 36, width - 20), INK, bold=True)
    ox, oy = (width - grid_w) // 2 + EDGE, header + EDGE

    def cell_box(col: int, row: int) -> Box:
        x, y = ox + (col - c0) * CELL, oy + (row - r0) * CELL
        return x + INSET, y + INSET, x + CELL - INSET, y + CELL - INSET

    for i in range(cols):
        x = ox + i * CELL + CELL / 2
        for y in (oy - EDGE / 2, oy + rows * CELL + EDGE / 2):
            _centred(
                draw, (x, y), column_label(c0 + i), _fit(column_label(c0 + i), 32, CELL - 8), FAINT, bold=True
            )
    for j in range(rows):
        y = oy + j * CELL + CELL / 2
        for x in (ox - EDGE / 2, ox + cols * CELL + EDGE / 2):
            _centred(draw, (x, y), str(r0 + j), _fit(str(r0 + j), 32, EDGE - 4), FAINT, bold=True)
    for text in [] if view["final"] else view["open_cells"]:
        col, row = parse_label(text) or (0, 0)
        box = cell_box(col, row)
        draw.rounded_rectangle(box, radius=10, outline=OPEN, width=3)
        _centred(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, 22, FAINT)
    letters = [s["letter"] for s in view["seats"]]
    due, done = set(view["to_activate"]), set(view["activated"])
    for card in view["cards"]:
        box = cell_box(card["col"], card["row"])
        corner = (box[2] - 13, box[1] + 13)
        if card["id"] in due:
            outer = (box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5)
            draw.rounded_rectangle(outer, radius=13, fill=HIGHLIGHT)
        if card["kind"] == "food":
            _food(draw, box, card)
        else:
            _explorer(draw, box, card, letters)
        if card["id"] in due or card["id"] in done:
            draw.ellipse((corner[0] - 15, corner[1] - 15, corner[0] + 15, corner[1] + 15), fill=INK)
            _centred(draw, corner, "!" if card["id"] in due else "✓", 22, PAPER, bold=True)
        for k, team in enumerate(card["markers"]):
            _marker(draw, (corner[0] - 34 * k, corner[1]), team, letters[team])
    y = header + grid_h + 12
    for seat, text in seat_lines:
        if seat is not None:
            colour = seat_colour(seat)
            draw.rounded_rectangle((16, y + 4, 64, y + 52), radius=8, fill=colour, outline=INK, width=2)
            _centred(draw, (40, y + 28), letters[seat], 30, text_on(colour), bold=True)
        bold = seat is None or seat == view["current"]
        draw.text(
            (80, y + 28), text, font=font(_fit(text, 40, width - 96, bold), bold), fill=INK, anchor="lm"
        )
        y += LINE
    return _png(image)


def render_hand(view: dict[str, Any], names: list[str]) -> bytes:
    """Return a seat's private hand as a PNG: each card large, with what its power does."""
    seat = view["you"]
    cards = view["hand"]
    card_w, card_h, pad = 300, 300, 24
    width = max(MIN_WIDTH // 1.5, pad + max(len(cards), 1) * (card_w + pad))
    height = 70 + card_h + 90
    image = Image.new("RGB", (int(width), height), PAPER)
    draw = ImageDraw.Draw(image)
    info = view["seats"][seat]
    title = f"{_name(names, seat)}'s hand ({info['team']})"
    draw.text((pad, 36), title, font=font(30, bold=True), fill=INK, anchor="lm")
    colour = seat_colour(seat)
    ink = text_on(colour)
    for i, card in enumerate(cards):
        x0, y0 = pad + i * (card_w + pad), 70
        box = (x0, y0, x0 + card_w, y0 + card_h)
        draw.rounded_rectangle(box, radius=18, fill=colour, outline=INK, width=3)
        draw.text((x0 + 18, y0 + 30), info["letter"], font=font(36, bold=True), fill=ink, anchor="lm")
        icon = ICONS[card["power"]]
        _centred(draw, (x0 + card_w / 2, y0 + 100), icon, 64 if len(icon) > 1 else 84, ink, bold=True)
        _centred(draw, (x0 + card_w / 2, y0 + 182), card["power_name"], 36, ink, bold=True)
        draw.text((x0 + card_w - 18, y0 + 30), card["id"], font=font(20), fill=ink, anchor="rm")
        for quarter in (-1, 1) if card["power"] == "switch" else (0,):
            _arrow(draw, box, rotate("N", quarter), INK, half=30)
        for k, line in enumerate(_wrap(card["text"], 26)):
            _centred(draw, (x0 + card_w / 2, y0 + 222 + 26 * k), line, 20, ink)
    if not cards:
        draw.text((pad, 70 + card_h / 2), "No cards in hand.", font=font(28), fill=FAINT, anchor="lm")
    foot = f"Deck: {info['deck_size']} card{'s' if info['deck_size'] != 1 else ''} left"
    if view.get("must_discard"):
        foot = f"Choose {view['must_discard']} to discard · " + foot
    draw.text(
        (pad, 70 + card_h + 45),
        foot,
        font=font(26, bold=bool(view.get("must_discard"))),
        fill=INK,
        anchor="lm",
    )
    return _png(image)


def _wrap(text: str, width: int) -> list[str]:
    """Split `text` into lines of at most `width` characters at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _card_alt(card: dict[str, Any], names: Sequence[str]) -> str:
    """Return one card in words for alt text."""
    if card["kind"] == "food":
        pays = ", ".join(f"{a['points']} to {a['cell']}" for a in card["arrows"])
        return f"{card['cell']} {card['name']} side {card['face']} ({pays})"
    who = _name(names, card["team"])
    if card["face"] == "down":
        return f"{card['cell']} {who}'s card face down"
    blocked = " blocked" if card["blocked_by"] is not None else ""
    return f"{card['cell']} {who}'s {card['power_name']} facing {card['facing']}{blocked}"


def alt_text_table(view: dict[str, Any], names: list[str]) -> str:
    """Return a short description of the table image, within Discord's 1024-character limit."""
    parts = [f"Flippers. {_headline(view, names)}."]
    activation = _activation_line(view)
    if activation:
        parts.append(activation + ".")
    parts.append(" ".join(text + "." for _, text in _seat_lines(view, names)))
    parts.append(f"Supply {view['supply']}.")
    parts.append("Cards: " + "; ".join(_card_alt(c, names) for c in view["cards"]) + ".")
    text = " ".join(parts)
    return text if len(text) <= 1000 else text[:999] + "…"


def alt_text_hand(view: dict[str, Any], names: list[str]) -> str:
    """Return a short description of the hand image."""
    seat = view["you"]
    cards = ", ".join(f"{c['name']} ({c['text']})" for c in view["hand"]) or "no cards"
    text = f"{_name(names, seat)}'s hand: {cards}. Deck: {view['seats'][seat]['deck_size']} left."
    if view.get("must_discard"):
        text += f" Choose {view['must_discard']} to discard."
    return text[:1000]
