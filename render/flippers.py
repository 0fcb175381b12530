"""Draw a Flippers table and a private hand as PNG images, with alt text for each."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from engine.flippers.cards import MINUS_POINTS, PLUS_POINTS
from engine.flippers.table import STEP, column_label, label, parse_label, rotate
from render.common import INK, PAPER, draw_text, fit_alt, fit_text, font, palette_of, seat_colour, text_length, text_on

# The table: one cell per card; a card fills the cell less a gap, where the arrow tabs sit.
CELL = 84
INSET = 5
CARD = CELL - 2 * INSET
LABEL = 16  # Explorer power names and Food names
NUMBER = 20  # the points beside a Food arrow
TAB_HALF = 13
TAB_SHIFT = 19  # each tab sits this far to its right of the edge's middle, so facing tabs never meet
MARKER_R = 13
EDGE = 30
MIN_WIDTH = 640
BACK = (64, 72, 88)
FOOD_BG = (236, 244, 250)
FOOD_INK = (0, 80, 140)
OPEN = (206, 214, 224)
FAINT = (112, 122, 138)
HIGHLIGHT = INK
TAB_DOWN = (150, 158, 172)
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
# Where each arrow's tab (and a Food arrow's points) sits: the corner region it turns toward.
CORNER_OF = {"N": "NE", "E": "SE", "S": "SW", "W": "NW"}
Box = tuple[int, int, int, int]
Z_RLE = 3  # zlib strategy: run-length matching, several times faster than the default on flat pictures


def _encode(image: Image.Image) -> bytes:
    """Encode a paletted picture as a fast, small 8-bit PNG."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1, compress_type=Z_RLE)
    return buffer.getvalue()


def _name(names: Sequence[str], seat: int) -> str:
    """Return a seat's player name."""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _centred(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Any, bold: bool = False
) -> None:
    """Draw game text (never a player's name) centred on `xy`."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def _fit(text: str, size: int, width: float, bold: bool = True) -> int:
    """Return the largest font size up to `size` at which `text` (which may hold names) fits in `width` pixels."""
    while size > 9 and text_length(text, size, bold) > width:
        size -= 1
    return size


def _tab(draw: ImageDraw.ImageDraw, box: Box, direction: str, fill: Any, half: int = TAB_HALF) -> None:
    """Draw an arrow tab on the card edge facing `direction`, shifted to its right, its tip in the gap."""
    x0, y0, x1, y1 = box
    dx, dy = STEP[direction]
    sx, sy = STEP[rotate(direction)]
    mx = (x0 + x1) / 2 + dx * (x1 - x0) / 2 + sx * TAB_SHIFT
    my = (y0 + y1) / 2 + dy * (y1 - y0) / 2 + sy * TAB_SHIFT
    depth, out = 4, INSET  # the tip stops at the cell's edge, so each cell is one opaque tile
    shape = [(-depth, -half), (0, -half), (out, 0), (0, half), (-depth, half)]
    points = [(mx + a * dx - b * dy, my + a * dy + b * dx) for a, b in shape]
    draw.polygon(points, fill=fill, outline=PAPER, width=1)


def _in_palette(image: Image.Image) -> Image.Image:
    """Map a drawing onto the fixed palette, so it can be pasted straight into a paletted picture."""
    return image.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE)


def _tile(state: str = "") -> tuple[Image.Image, ImageDraw.ImageDraw, Box]:
    """Return a blank cell on paper, its pen and the card's box; "due" frames the card in a dark ring."""
    image = Image.new("RGB", (CELL, CELL), PAPER)
    draw = ImageDraw.Draw(image)
    box = (INSET, INSET, CELL - INSET, CELL - INSET)
    if state == "due":
        draw.rounded_rectangle((1, 1, CELL - 2, CELL - 2), radius=11, fill=HIGHLIGHT)
    return image, draw, box


def _badge(draw: ImageDraw.ImageDraw, box: Box, state: str) -> None:
    """Draw the round badge saying a card is still to activate (!) or already activated (✓)."""
    if state:
        x1, y0 = box[2] - 2, box[1] + 2
        draw.ellipse((x1 - 20, y0, x1, y0 + 20), fill=INK)
        _centred(draw, (x1 - 10, y0 + 10.5), "!" if state == "due" else "✓", 14, PAPER, bold=True)


@lru_cache(maxsize=1024)
def _explorer(team: int, letter: str, power: str, power_name: str, facing: str, face: str, state: str) -> Image.Image:
    """Return an Explorer card's cell, face up or face down, with its arrow tabs and its activation `state`."""
    return _in_palette(_draw_explorer(team, letter, power, power_name, facing, face, state))


def _draw_explorer(
    team: int, letter: str, power: str, power_name: str, facing: str, face: str, state: str
) -> Image.Image:
    """Draw an Explorer card's cell ("due": still to activate, "done": activated this turn)."""
    image, draw, box = _tile(state)
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    colour = seat_colour(team)
    if face == "down":
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline=colour, width=5)
        _centred(draw, (cx, cy), letter, 30, colour, bold=True)
        _tab(draw, box, facing, TAB_DOWN, half=6)
        _badge(draw, box, state)
        return image
    ink = text_on(colour)
    draw.rounded_rectangle(box, radius=8, fill=colour, outline=INK, width=2)
    _centred(draw, (x0 + 11, y0 + 12), letter, 17, ink, bold=True)
    icon = ICONS[power]
    _centred(draw, (cx + 2, cy + 2), icon, 22 if len(icon) > 1 else 30, ink, bold=True)
    _centred(draw, (cx, y1 - 10), power_name, _fit(power_name, LABEL, CARD - 4), ink, bold=True)
    for quarter in (-1, 1) if power == "switch" else (0,):
        _tab(draw, box, rotate(facing, quarter), INK)
    _badge(draw, box, state)
    return image


def _food_lines(name: str) -> list[str]:
    """Return a Food name as one line, or two when it is too wide (at a space, else before "fish")."""
    if font(LABEL, True).getlength(name) <= CARD - 4:
        return [name]
    if " " in name:
        head, _, tail = name.rpartition(" ")
        return [head, tail]
    cut = name.lower().rfind("fish")
    cut = cut if cut > 0 else (len(name) + 1) // 2
    return [name[:cut], name[cut:]]


def _free_corners(arrows: tuple[tuple[str, int], ...]) -> list[str]:
    """Return the corners of a Food card that hold no arrow's points, in the order they are used."""
    used = {CORNER_OF[direction] for direction, _ in arrows}
    return [corner for corner in ("NW", "SE", "SW", "NE") if corner not in used]


def _corner(corner: str, inset: float) -> tuple[float, float]:
    """Return a point `inset` pixels in from both edges of a card's corner, in cell coordinates."""
    near, far = INSET + inset, CELL - INSET - inset
    return (far if "E" in corner else near), (far if "S" in corner else near)


@lru_cache(maxsize=256)
def _food(name: str, face: str, arrows: tuple[tuple[str, int], ...], marked: bool) -> Image.Image:
    """Return a Food card's cell (`marked`: leave its first free corner to a Block marker)."""
    return _in_palette(_draw_food(name, face, arrows, marked))


def _draw_food(name: str, face: str, arrows: tuple[tuple[str, int], ...], marked: bool = False) -> Image.Image:
    """Draw a Food card's cell: its name, its side, and each arrow's tab with the points beside it."""
    image, draw, box = _tile()
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    draw.rounded_rectangle(box, radius=8, fill=FOOD_BG, outline=FOOD_INK, width=3)
    lines = _food_lines(name)
    size = min(_fit(line, LABEL, CARD - 4) for line in lines)
    for k, line in enumerate(lines):
        _centred(draw, (cx, cy + (k - (len(lines) - 1) / 2) * (size + 2)), line, size, FOOD_INK, bold=True)
    for direction, points in arrows:
        dx, dy = STEP[direction]
        sx, sy = STEP[rotate(direction)]
        _tab(draw, box, direction, FOOD_INK)
        reach = CARD / 2 - 11
        spot = (cx + dx * reach + sx * TAB_SHIFT, cy + dy * reach + sy * TAB_SHIFT)
        _centred(draw, spot, str(points), NUMBER, INK, bold=True)
    free = _free_corners(arrows)[1 if marked else 0 :]
    spot = _corner(free[0], 9) if free else (cx, cy + (len(lines) / 2) * (size + 2) + 6)
    _centred(draw, spot, face, 12, FOOD_INK, bold=True)
    return image


@cache
def _marker(team: int, letter: str, radius: int = MARKER_R) -> tuple[Image.Image, Image.Image]:
    """Return a team's Block marker in the palette, and the mask of its shape."""
    drawn = _draw_marker(team, letter, radius)
    on_paper = Image.new("RGB", drawn.size, PAPER)
    on_paper.paste(drawn, (0, 0), drawn)
    return _in_palette(on_paper), drawn.getchannel("A").point(lambda a: 255 if a > 127 else 0).convert("1")


def _draw_marker(team: int, letter: str, radius: int = MARKER_R) -> Image.Image:
    """Draw a team's Block marker: an octagon in its colour with its letter, ringed in paper to stand out."""
    size = 2 * radius + 7
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2 - 0.5

    def octagon(r: float) -> list[tuple[float, float]]:
        k = r * 0.42
        points = [(c - k, c - r), (c + k, c - r), (c + r, c - k), (c + r, c + k)]
        return [*points, (c + k, c + r), (c - k, c + r), (c - r, c + k), (c - r, c - k)]

    colour = seat_colour(team)
    draw.polygon(octagon(radius + 2), fill=PAPER)
    draw.polygon(octagon(radius), fill=colour, outline=INK, width=3)
    _centred(draw, (c, c + 0.5), letter, round(radius * 1.2), text_on(colour), bold=True)
    return image


@lru_cache(maxsize=1024)
def _empty(text: str, colour: tuple[int, int, int] | None, low: bool = False) -> Image.Image:
    """Return an open cell or a Leader cell."""
    return _in_palette(_draw_empty(text, colour, low))


def _draw_empty(text: str, colour: tuple[int, int, int] | None, low: bool = False) -> Image.Image:
    """Draw an open cell (its label in a faint frame), or a Leader cell framed in the placing seat's colour.

    `low` puts the label near the bottom, leaving the top for a Block marker waiting on the cell.
    """
    image = Image.new("RGB", (CELL, CELL), PAPER)
    draw = ImageDraw.Draw(image)
    box = (INSET, INSET, CELL - INSET, CELL - INSET)
    y = CELL - INSET - 13 if low else CELL / 2
    if colour is None:
        draw.rounded_rectangle(box, radius=8, outline=OPEN, width=2)
        _centred(draw, (CELL / 2, y), text, _fit(text, 16, CARD - 6, False), FAINT)
    else:
        tint = tuple(round(p + (c - p) * 0.3) for c, p in zip(colour, PAPER, strict=True))
        draw.rounded_rectangle(box, radius=8, fill=tint, outline=colour, width=4)
        _centred(draw, (CELL / 2, y), text, _fit(text, 18, CARD - 8), INK, bold=True)
    return image


@lru_cache(maxsize=256)
def _edge(first: int, count: int, columns: bool) -> Image.Image:
    """Draw the column letters (a strip above and below the grid) or row numbers (beside it) on paper."""
    size = (count * CELL, EDGE) if columns else (EDGE, count * CELL)
    image = Image.new("RGB", size, PAPER)
    draw = ImageDraw.Draw(image)
    for i in range(count):
        text = column_label(first + i) if columns else str(first + i)
        along = i * CELL + CELL / 2
        xy = (along, EDGE / 2) if columns else (EDGE / 2, along)
        _centred(draw, xy, text, _fit(text, 18, (CELL if columns else EDGE) - 4), FAINT, bold=True)
    return _in_palette(image)


def _paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste a sprite with its top-left corner at (x, y), through its transparency when it has any."""
    image.paste(sprite, (round(x), round(y)), sprite if sprite.mode == "RGBA" else None)


def _grid(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """Return the first and last column and row to draw: the cards plus one ring, and any marker or Leader cell."""
    b = view["bounds"]
    cols, rows = [b["min_col"] - 1, b["max_col"] + 1], [b["min_row"] - 1, b["max_row"] + 1]
    for col, row in _marker_cells(view).keys() | {c for c in (parse_label(t) for t in _leader_cells(view)) if c}:
        cols.append(col)
        rows.append(row)
    return min(cols), max(cols), min(rows), max(rows)


def _letters(view: dict[str, Any]) -> list[str]:
    """Return each team's letter."""
    return [s["letter"] for s in view["seats"]]


def _marker_cells(view: dict[str, Any]) -> dict[tuple[int, int], list[tuple[int, str]]]:
    """Return (team, letter) of every Block marker on each cell, empty cells included.

    Reads the view's top-level "markers" list; a view without one falls back to the markers listed on cards.
    """
    letters = _letters(view)
    out: dict[tuple[int, int], list[tuple[int, str]]] = {}
    if "markers" in view:
        for m in view["markers"]:
            cell = (m["col"], m["row"]) if "col" in m else parse_label(m["cell"])
            if cell is not None:
                out.setdefault(cell, []).append((m["team"], m.get("letter") or letters[m["team"]]))
        return out
    for card in view["cards"]:
        for team in card.get("markers", []):
            out.setdefault((card["col"], card["row"]), []).append((team, letters[team]))
    return out


def _leader_cells(view: dict[str, Any]) -> list[str]:
    """Return the cells the seat to act may put its Leader on (empty outside Leader placement)."""
    return list(view.get("leader_cells") or [])


def _projected(view: dict[str, Any]) -> list[int] | None:
    """Return each seat's points if the game ended now, when the view gives them during play."""
    projected = view.get("projected")
    placing = view["phase"] == "setup" or _leader_cells(view)
    return None if view["final"] or placing or not projected else list(projected)


def _headline(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return the line above the table saying whose turn it is."""
    if view["final"]:
        winners = [_name(names, s) for s in view["winners"]]
        if not winners:
            return "Game over"
        listed = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
        return f"Game over: {listed} {'wins' if len(winners) == 1 else 'win'}"
    if _leader_cells(view) and view.get("current") is not None:
        return f"{_name(names, view['current'])} places their Leader"
    if view["phase"] == "setup":
        return "Setup: " + ", ".join(_name(names, s) for s in view["to_act"]) + " choosing discards"
    if view.get("current") is None:
        return "Setting up the table"
    who = _name(names, view["current"])
    if view["played"] is None:
        return f"Turn {view['turn']}: {who} to play"
    return f"Turn {view['turn']}: {who} activates"


def _activation_line(view: dict[str, Any]) -> str:
    """Return the line listing the cards still to activate, or where a Leader may go."""
    if _leader_cells(view) and not view["final"]:
        return "Leader goes on a highlighted cell, facing the Food card beside it"
    by_id = {c["id"]: c for c in view["cards"]}
    due = [f"{by_id[c]['power_name']} {by_id[c]['cell']}" for c in view.get("to_activate", []) if c in by_id]
    return ("Still to activate: " + ", ".join(due)) if due else ""


def _seat_lines(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Return one line per seat, then per Team Up side, saying its points (for alt text)."""
    seats = view["seats"]
    projected = _projected(view)
    lines: list[str] = []
    for s in seats:
        seat = s["seat"]
        if view["final"]:
            sc = view["scores"][seat]
            star = " ★ winner" if seat in view["winners"] else ""
            out = " (resigned)" if s["resigned"] else ""
            lines.append(
                f"{_name(names, seat)}{out}: {sc['stash']} stash + {sc['food']} food"
                f" + {sc['leader']} leader = {sc['total']}{star}"
            )
            continue
        turn = "▶ " if view.get("current") == seat else ""
        out = " · resigned" if s["resigned"] else f" · hand {s['hand_size']} · deck {s['deck_size']}"
        end = f" · {projected[seat]} if it ended now" if projected else ""
        lines.append(f"{turn}{_name(names, seat)} ({s['short']}): {s['stash']} pts{out}{end}")
    for _side, members, total, end in _sides(view, names):
        if view["final"]:
            lines.append(f"Team {members}: {total} points")
        else:
            tail = f", {end} if it ended now" if end is not None else ""
            lines.append(f"Team {members}: {total} pts in stash{tail}")
    return lines


def _sides(view: dict[str, Any], names: Sequence[str]) -> list[tuple[int, str, int, int | None]]:
    """Return (side, members, points, projected points) per Team Up partnership; empty otherwise."""
    if not view["teams_mode"]:
        return []
    projected = _projected(view)
    out = []
    for side in sorted({s["side"] for s in view["seats"]}):
        seats = [s["seat"] for s in view["seats"] if s["side"] == side]
        members = " + ".join(_name(names, s) for s in seats)
        key = "total" if view["final"] else "stash"
        total = sum(view["scores"][s][key] for s in seats)
        end = sum(projected[s] for s in seats) if projected else None
        out.append((side, members, total, end))
    return out


def _columns(view: dict[str, Any]) -> list[str]:
    """Return the headings of the panel's number columns."""
    if view["final"]:
        return ["stash", "food", "leader", "total"]
    return ["pts", "if ended now", "hand", "deck"] if _projected(view) else ["pts", "hand", "deck"]


def _row_numbers(view: dict[str, Any], seat: dict[str, Any]) -> list[str]:
    """Return one seat's numbers for the panel's columns."""
    sc = view["scores"][seat["seat"]]
    if view["final"]:
        return [str(sc["stash"]), str(sc["food"]), str(sc["leader"]), str(sc["total"])]
    projected = _projected(view)
    cards = ["–", "–"] if seat["resigned"] else [str(seat["hand_size"]), str(seat["deck_size"])]
    return [str(seat["stash"]), *([str(projected[seat["seat"]])] if projected else []), *cards]


@lru_cache(maxsize=2048)
def _measure(text: str, size: int, bold: bool = False) -> float:
    """Return how wide a piece of game text (never a player's name) is drawn."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=1024)
def _word(text: str, size: int, bold: bool = False, fill: tuple[int, int, int] = INK) -> Image.Image:
    """Draw a piece of game text (never a player's name) on paper, once, to be pasted where it is needed."""
    height = round(size * 1.3)
    image = Image.new("RGB", (max(1, round(_measure(text, size, bold)) + 2), height), PAPER)
    ImageDraw.Draw(image).text((1, height / 2), text, font=font(size, bold), fill=fill, anchor="lm")
    return _in_palette(image)


@lru_cache(maxsize=512)
def _named(text: str, size: int, bold: bool = False) -> Image.Image:
    """Draw a line holding players' names on paper, with the shared text helpers that render any script."""
    height = round(size * 1.3)
    image = Image.new("RGB", (max(1, round(text_length(text, size, bold)) + 2), height), PAPER)
    draw_text(ImageDraw.Draw(image), (1, height / 2), text, size, INK, bold=bold, anchor="lm")
    return _in_palette(image)


def _put(image: Image.Image, sprite: Image.Image, x: float, y: float, align: str = "l") -> None:
    """Paste a `_word` or `_named` line with its left ("l"), middle ("m") or right ("r") end at x, centred on y."""
    shift = {"l": 1, "m": sprite.width / 2, "r": sprite.width - 1}[align]
    _paste(image, sprite, x - shift, y - sprite.height / 2)


@cache
def _index(colour: tuple[int, int, int]) -> int:
    """Return the palette entry closest to `colour`."""
    return int(_in_palette(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)) or 0)


@cache
def _seat_badge(seat: int, letter: str, side: int) -> Image.Image:
    """Draw a seat's colour square with its letter, as in the score table."""
    image = Image.new("RGB", (side, side), PAPER)
    draw = ImageDraw.Draw(image)
    colour = seat_colour(seat)
    draw.rounded_rectangle((0, 0, side - 1, side - 1), radius=6, fill=colour, outline=INK, width=2)
    _centred(draw, (side / 2, side / 2), letter, round(side * 0.68), text_on(colour), bold=True)
    return _in_palette(image)


def _panel(image: Image.Image, view: dict[str, Any], names: Sequence[str], top: int) -> None:
    """Draw the score table under the grid: a row per seat (and per Team Up side), numbers in columns."""
    draw = ImageDraw.Draw(image)
    width = image.width
    headings = _columns(view)
    size, row = _panel_size(width)
    small = round(size * 0.6)
    widths = [max(_measure(h, small), _measure("888", size, True)) + 14 for h in headings]
    right = width - 14
    edges = []
    for w in reversed(widths):
        edges.append(right)
        right -= w
    edges.reverse()
    name_right = right - 8
    for heading, x in zip(headings, edges, strict=True):
        _put(image, _word(heading, small, fill=FAINT), x, top + 12, "r")
    y = top + 24
    letters = _letters(view)
    for s in view["seats"]:
        seat = s["seat"]
        middle = y + row / 2
        _paste(image, _seat_badge(seat, letters[seat], row - 8), 14, y + 4)
        bold = seat == view.get("current") or seat in view["winners"]
        prefix = "▶ " if seat == view.get("current") and not view["final"] else ""
        suffix = f" ({s['short']})" + (" resigned" if s["resigned"] else "")
        suffix += " ★" if seat in view["winners"] else ""
        x = 14 + row
        if prefix:
            _put(image, _word(prefix, size, bold), x, middle)
            x += _measure(prefix, size, bold)
        name = _name(names, seat)
        if text_length(name, size, bold) + _measure(suffix, size, bold) > name_right - x:
            # The colour and letter already say the team: give its room to the name.
            suffix = (" resigned" if s["resigned"] else "") + (" ★" if seat in view["winners"] else "")
        who = fit_text(name, size, max(name_right - x - _measure(suffix, size, bold), 40), bold)
        _put(image, _named(who, size, bold), x, middle)
        x += text_length(who, size, bold)
        if suffix and name_right - x > 20:
            _put(image, _word(fit_text(suffix, size, name_right - x, bold), size, bold), x, middle)
        for number, edge in zip(_row_numbers(view, s), edges, strict=True):
            _put(image, _word(number, size, True), edge, middle, "r")
        y += row
    for side, members, total, end in _sides(view, names):
        middle = y + row / 2
        label_text = f"Team {members}"
        if text_length(label_text, size, True) > name_right - 14:
            # Too long to name everyone: the letters match the coloured squares above.
            letters_line = "Team " + " + ".join(letters[s["seat"]] for s in view["seats"] if s["side"] == side)
            label_text = fit_text(letters_line, size, name_right - 14, True)
        _put(image, _named(label_text, size, True), 14, middle)
        numbers = [str(total)] if view["final"] else [str(total), *([str(end)] if end is not None else [])]
        columns = edges[-1:] if view["final"] else edges[: len(numbers)]
        for number, edge in zip(numbers, columns, strict=True):
            _put(image, _word(number, size, True), edge, middle, "r")
        draw.line((14, y + 1, width - 14, y + 1), fill=_index(OPEN), width=2)
        y += row


def _panel_size(width: int) -> tuple[int, int]:
    """Return the score table's font size and row height: larger on a wider picture, to read as well on a phone."""
    size = max(24, min(40, round(width * 0.035)))
    return size, size + 12


def _title_size(width: int) -> int:
    """Return the headline's font size: larger on a wider picture, to read as well on a phone."""
    return max(30, min(44, round(width * 0.038)))


def _header_height(view: dict[str, Any], width: int) -> int:
    """Return the height of the lines above the grid: headline, supply and what is still to do."""
    size = _title_size(width)
    return round(size * 2.3) + (round(size * 1.05) if _activation_line(view) else 0)


def _panel_height(view: dict[str, Any], width: int) -> int:
    """Return the height of the score table."""
    return 24 + _panel_size(width)[1] * (len(view["seats"]) + len(_sides(view, []))) + 12


class Layout(NamedTuple):
    """Where a table picture puts things: its width, the header's height and the grid's first cell and origin."""

    width: int
    header: int
    first_col: int
    first_row: int
    cols: int
    rows: int
    left: int
    top: int

    def cell_box(self, cell: str) -> Box:
        """Return the pixel box of a labelled cell."""
        col, row = parse_label(cell) or (self.first_col, self.first_row)
        x, y = self.left + (col - self.first_col) * CELL, self.top + (row - self.first_row) * CELL
        return x, y, x + CELL, y + CELL


def layout(view: dict[str, Any]) -> Layout:
    """Return the layout of the table picture for `view`: the grid cropped to the cards plus one ring."""
    c0, c1, r0, r1 = _grid(view)
    cols, rows = c1 - c0 + 1, r1 - r0 + 1
    grid_w = cols * CELL + 2 * EDGE
    width = max(MIN_WIDTH, grid_w)
    header = _header_height(view, width)
    return Layout(width, header, c0, r0, cols, rows, (width - grid_w) // 2 + EDGE, header + EDGE)


def draw_table(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw the table: cards on a labelled grid, markers, Leader cells, the score table and whose turn it is."""
    at = layout(view)
    c0, r0, cols, rows, width, header = at.first_col, at.first_row, at.cols, at.rows, at.width, at.header
    grid_h = rows * CELL + 2 * EDGE
    image = Image.new("P", (width, header + grid_h + _panel_height(view, width)), _index(PAPER))
    image.putpalette(_palette().getpalette() or [])
    # Everything is pasted from pieces drawn once in full colour and mapped onto the palette (cards, cells,
    # words, names), so the picture itself never needs mapping.
    headline = _headline(view, names)
    title = _title_size(width)
    _put(image, _named(headline, _fit(headline, title, width - 24), True), width / 2, title * 0.85, "m")
    supply = _word(f"Supply: {view['supply']} points", round(title * 0.6), fill=FAINT)
    _put(image, supply, width / 2, title * 1.9, "m")
    activation = _activation_line(view)
    if activation:
        line = _word(activation, _fit(activation, round(title * 0.75), width - 24), True)
        _put(image, line, width / 2, title * 2.75, "m")
    ox, oy = at.left, at.top

    def origin(col: int, row: int) -> tuple[int, int]:
        return ox + (col - c0) * CELL, oy + (row - r0) * CELL

    letters_strip, numbers_strip = _edge(c0, cols, True), _edge(r0, rows, False)
    for y in (oy - EDGE, oy + rows * CELL):
        _paste(image, letters_strip, ox, y)
    for x in (ox - EDGE, ox + cols * CELL):
        _paste(image, numbers_strip, x, oy)
    marked = _marker_cells(view)
    if not view["final"]:
        leader_colour = seat_colour(view["current"]) if view.get("current") is not None else INK
        for cells, colour in ((view["open_cells"], None), (_leader_cells(view), leader_colour)):
            for text in cells:
                spot = parse_label(text)
                if spot is not None:
                    _paste(image, _empty(text, colour, spot in marked), *origin(*spot))
    letters = _letters(view)
    due, done = set(view.get("to_activate", [])), set(view.get("activated", []))
    occupied: dict[tuple[int, int], tuple[tuple[str, int], ...] | None] = {}
    for card in view["cards"]:
        cell = (card["col"], card["row"])
        occupied[cell] = None
        if card["kind"] == "food":
            arrows = occupied[cell] = tuple((a["dir"], a["points"]) for a in card["arrows"])
            sprite = _food(card["name"], card["face"], arrows, cell in marked)
        else:
            team, cid = card["team"], card["id"]
            state = "due" if cid in due else "done" if cid in done else ""
            sprite = _explorer(
                team, letters[team], card["power"], card["power_name"], card["facing"], card["face"], state
            )
        _paste(image, sprite, *origin(card["col"], card["row"]))
    for (col, row), teams in marked.items():
        x, y = origin(col, row)
        food = occupied.get((col, row))
        if food is not None:
            # On a Food card: in corners that hold no points (else the middle), never over a number.
            spots = [(x + a, y + b) for a, b in (_corner(c, MARKER_R - 1) for c in _free_corners(food))]
            spots = spots or [(x + CELL / 2, y + CELL / 2)]
        elif (col, row) in occupied:
            # On an Explorer: top middle (two side by side; more go down the sides), clear of the name and icon.
            top, middle = y + INSET + MARKER_R + 1, y + CELL / 2 + 3
            spots = [(x + CELL / 2, top), (x + INSET + MARKER_R, middle), (x + CELL - INSET - MARKER_R, middle)]
            if len(teams) == 2:
                spots = [(x + CELL / 2 - MARKER_R + 1, top - 2), (x + CELL / 2 + MARKER_R - 1, top - 2)]
        else:
            # Waiting on an empty cell: large, above the cell's label.
            top = y + CELL / 2 - 8
            spots = [(x + CELL / 2, top), (x + CELL / 2 - 18, top), (x + CELL / 2 + 18, top)]
            if len(teams) > 1:
                spots = spots[1:]
        for k, (team, letter) in enumerate(teams):
            if food is not None:
                radius = MARKER_R - 3  # smaller in a Food card's corner, to leave its name readable
            elif (col, row) in occupied:
                radius = MARKER_R if len(teams) != 2 else MARKER_R - 2
            else:
                radius = MARKER_R + (5 if len(teams) == 1 else 3)
            sprite, mask = _marker(team, letter, radius)
            cx, cy = spots[k % len(spots)]
            image.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), mask)
    _panel(image, view, names, header + grid_h)
    return image


def render_table(view: dict[str, Any], names: list[str]) -> bytes:
    """Return the table as a PNG."""
    return _encode(draw_table(view, names))




HAND_CARD, HAND_PAD, HAND_TOP = 300, 24, 74


@lru_cache(maxsize=256)
def _hand_card(team: int, letter: str, card_id: str, power: str, power_name: str, text: str) -> Image.Image:
    """Draw one card in hand, large, with what its power does wrapped inside the card."""
    pad = 14
    image = Image.new("RGBA", (HAND_CARD + 2 * pad, HAND_CARD + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (pad, pad, pad + HAND_CARD, pad + HAND_CARD)
    colour = seat_colour(team)
    ink = text_on(colour)
    draw.rounded_rectangle(box, radius=18, fill=colour, outline=INK, width=3)
    x0, y0 = pad, pad
    draw.text((x0 + 18, y0 + 28), letter, font=font(36, bold=True), fill=ink, anchor="lm")
    draw.text((x0 + HAND_CARD - 18, y0 + 28), card_id, font=font(20), fill=ink, anchor="rm")
    icon = ICONS[power]
    _centred(draw, (x0 + HAND_CARD / 2, y0 + 86), icon, 60 if len(icon) > 1 else 78, ink, bold=True)
    _centred(draw, (x0 + HAND_CARD / 2, y0 + 156), power_name, 36, ink, bold=True)
    for size in (21, 20, 19, 18, 17, 16):
        lines = _wrap(text, size, HAND_CARD - 28)
        if len(lines) * (size + 5) <= HAND_CARD - 188:
            break
    for k, line in enumerate(lines):
        _centred(draw, (x0 + HAND_CARD / 2, y0 + 194 + (size + 5) * (k + 0.5)), line, size, ink)
    for quarter in (-1, 1) if power == "switch" else (0,):
        direction = rotate("N", quarter)
        dx, dy = STEP[direction]
        mx, my = x0 + HAND_CARD / 2 + dx * HAND_CARD / 2, y0 + HAND_CARD / 2 + dy * HAND_CARD / 2
        shape = [(-12, -26), (0, -26), (13, 0), (0, 26), (-12, 26)]
        points = [(mx + a * dx - b * dy, my + a * dy + b * dx) for a, b in shape]
        draw.polygon(points, fill=INK, outline=PAPER, width=2)
    return image


def _wrap(text: str, size: int, width: float) -> list[str]:
    """Split `text` into lines at most `width` pixels wide at `size`, breaking at spaces."""
    measure = font(size).getlength
    lines: list[str] = []
    for word in text.split():
        if lines and measure(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw a seat's private hand: each card large, with what its power does."""
    seat = view["you"]
    cards = view["hand"]
    info = view["seats"][seat]
    width = max(MIN_WIDTH, HAND_PAD + max(len(cards), 1) * (HAND_CARD + HAND_PAD))
    height = HAND_TOP + HAND_CARD + 78
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    room = width - 2 * HAND_PAD
    tail = f"'s hand ({info['team']})"
    if font(30, True).getlength(tail) > room * 0.6:
        tail = f"'s hand ({info['short']})" if "short" in info else "'s hand"
    who = fit_text(_name(names, seat), 30, room - font(30, True).getlength(tail), bold=True)
    draw_text(draw, (HAND_PAD, 38), who, 30, INK, bold=True, anchor="lm")
    draw.text((HAND_PAD + text_length(who, 30, True), 38), tail, font=font(30, bold=True), fill=INK, anchor="lm")
    for i, card in enumerate(cards):
        sprite = _hand_card(seat, info["letter"], card["id"], card["power"], card["power_name"], card["text"])
        _paste(image, sprite, HAND_PAD + i * (HAND_CARD + HAND_PAD) - 14, HAND_TOP - 14)
    if not cards:
        draw.text((HAND_PAD, HAND_TOP + HAND_CARD / 2), "No cards in hand.", font=font(28), fill=FAINT, anchor="lm")
    foot = f"Deck: {info['deck_size']} card{'s' if info['deck_size'] != 1 else ''} left"
    if view.get("must_discard"):
        foot = f"Choose {view['must_discard']} to discard · " + foot
    size = _fit(foot, 26, room, bold=bool(view.get("must_discard")))
    bold = bool(view.get("must_discard"))
    draw.text((HAND_PAD, HAND_TOP + HAND_CARD + 44), foot, font=font(size, bold), fill=INK, anchor="lm")
    return image


def render_hand(view: dict[str, Any], names: list[str]) -> bytes:
    """Return a seat's private hand as a PNG."""
    return _encode(_in_palette(draw_hand(view, names)))


@cache
def _palette() -> Image.Image:
    """Build the fixed palette once from reference pictures that use every colour a Flippers image can show."""
    reference = Image.new("RGB", (1800, 1200), PAPER)
    x = 0
    for team in range(6):
        letter = "CMEWLS"[team]
        for face, state in (("up", ""), ("up", "due"), ("up", "done"), ("down", "")):
            for power in ICONS:
                drawn = _draw_explorer(team, letter, power, power.title(), "N", face, state)
                reference.paste(drawn, (x % 1800, CELL * (x // 1800)))
                x += CELL
        marker = _draw_marker(team, letter)
        reference.paste(marker, (team * 40, 500), marker)
        card = _hand_card(team, letter, "x", "flip", "Flip", "Flip it.")
        reference.paste(card, (team * 280, 560), card)
        reference.paste(_draw_empty("Z99", seat_colour(team)), (team * 90, 900))
    reference.paste(_draw_food("Lanternfish", "A", (("N", 1), ("E", 2), ("S", 3), ("W", 4))), (0, 1000))
    reference.paste(_draw_food("Krill", "B", (("N", 1),), True), (CELL, 1000))
    reference.paste(_draw_empty("Z99", None), (100, 1000))
    draw = ImageDraw.Draw(reference)
    for k, colour in enumerate((INK, FAINT, FOOD_INK, OPEN)):
        draw.text((400, 1000 + 40 * k), "Turn 12: Ana activates ▶ ★ 0123456789", font=font(28, True), fill=colour)
    return palette_of(reference, 256)


def _cards_alt(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return every card in words for alt text: the Food cards, then each seat's Explorers under its name."""
    marked = _marker_cells(view).keys()
    parts = []
    for c in view["cards"]:
        if c["kind"] == "food":
            pays = ", ".join(f"{a['points']} to {a['cell']}" for a in c["arrows"])
            parts.append(f"{c['cell']} {c['name']} side {c['face']} ({pays})")
    for seat in view["seats"]:
        if mine := _explorers_of(view, seat["seat"], marked, compact=False):
            parts.append(f"{_name(names, seat['seat'])}: {mine}")
    return "Cards: " + "; ".join(parts) + "."


def _explorers_of(view: dict[str, Any], team: int, marked: Iterable[tuple[int, int]], *, compact: bool) -> str:
    """Return one species' table Explorers in words: power, cell, facing and whether a marker blocks it."""
    mine = []
    for c in view["cards"]:
        if c["kind"] == "food" or c["team"] != team:
            continue
        if c["face"] == "down":
            mine.append(f"face down {c['cell']}" if compact else f"face down on {c['cell']}")
            continue
        blocked = " blocked" if c.get("blocked_by") is not None or (c["col"], c["row"]) in marked else ""
        facing = c["facing"] if compact else f"facing {c['facing']}"
        mine.append(f"{c['power_name']} {c['cell']} {facing}{blocked}")
    return ", ".join(mine)


def _markers_alt(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return the Block markers in words: whose, and on which cell (saying when it waits on an empty cell)."""
    occupied = {(c["col"], c["row"]) for c in view["cards"]}
    parts = []
    for cell, teams in sorted(_marker_cells(view).items(), key=lambda item: (item[0][1], item[0][0])):
        where = label(cell) + ("" if cell in occupied else " (empty)")
        parts.extend(f"{_name(names, team)}'s on {where}" for team, _ in teams)
    return ("Block markers: " + ", ".join(parts) + ".") if parts else ""


def _short(view: dict[str, Any], seat: int) -> str:
    """Return a seat's penguin species ("Chinstrap"), as its seat line names it."""
    return next((s["short"] for s in view["seats"] if s["seat"] == seat), f"Seat {seat + 1}")


def _compact_seats(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Return one short sentence per seat, then per Team Up side named by its species, with its points."""
    if view["final"]:
        lines = [
            line.replace(_name(names, s["seat"]), f"{_name(names, s['seat'])} ({s['short']})", 1)
            for s, line in zip(view["seats"], _seat_lines(view, names), strict=False)
        ]
    else:
        projected = _projected(view)
        lines = []
        for s in view["seats"]:
            seat = s["seat"]
            turn = "▶ " if view.get("current") == seat else ""
            out = ", resigned" if s["resigned"] else f", hand {s['hand_size']}, deck {s['deck_size']}"
            end = f", {projected[seat]} if it ended now" if projected else ""
            lines.append(f"{turn}{_name(names, seat)} ({s['short']}): {s['stash']} pts{out}{end}")
    if not view["teams_mode"]:
        return lines
    for side in sorted({s["side"] for s in view["seats"]}):
        seats = [s["seat"] for s in view["seats"] if s["side"] == side]
        members = " + ".join(_short(view, s) for s in seats)
        key = "total" if view["final"] else "stash"
        total = sum(view["scores"][s][key] for s in seats)
        projected = _projected(view)
        tail = f", {sum(projected[s] for s in seats)} if it ended now" if projected else ""
        lines.append(f"Team {members}: {total} pts{tail}")
    return lines


def _compact_markers(view: dict[str, Any]) -> str:
    """Return the Block markers by species and cell."""
    occupied = {(c["col"], c["row"]) for c in view["cards"]}
    parts = []
    for cell, teams in sorted(_marker_cells(view).items(), key=lambda item: (item[0][1], item[0][0])):
        where = label(cell) + ("" if cell in occupied else " (empty)")
        parts.extend(f"{_short(view, team)} on {where}" for team, _ in teams)
    return ("Block markers: " + ", ".join(parts) + ".") if parts else ""


def _compact_food(view: dict[str, Any], sides: bool = True) -> str:
    """Return the Food cards with what each arrow pays to which cell (and which side is up, if `sides`)."""
    parts = []
    for c in view["cards"]:
        if c["kind"] == "food":
            pays = ", ".join(f"{a['points']} to {a['cell']}" for a in c["arrows"])
            side = f" side {c['face']}" if sides else ""
            parts.append(f"{c['name']} {c['cell']}{side} pays {pays}")
    return "Food: " + "; ".join(parts) + "."


def _compact_explorers(view: dict[str, Any]) -> str:
    """Return each species' table cards as power, cell and facing letter."""
    marked = _marker_cells(view).keys()
    parts = []
    for seat in view["seats"]:
        if mine := _explorers_of(view, seat["seat"], marked, compact=True):
            parts.append(f"{seat['short']}: {mine}")
    return ("Explorers (facing N, E, S or W): " + "; ".join(parts) + ".") if parts else ""


def _explorer_counts(view: dict[str, Any]) -> str:
    """Return how many table cards each species has, and how many lie face down or blocked."""
    marked = _marker_cells(view).keys()
    parts = []
    for seat in view["seats"]:
        mine = [c for c in view["cards"] if c["kind"] != "food" and c["team"] == seat["seat"]]
        if not mine:
            continue
        down = sum(1 for c in mine if c["face"] == "down")
        blocked = sum(
            1
            for c in mine
            if c["face"] != "down" and (c.get("blocked_by") is not None or (c["col"], c["row"]) in marked)
        )
        extra = "".join([f", {down} face down" if down else "", f", {blocked} blocked" if blocked else ""])
        parts.append(f"{seat['short']} {len(mine)}{extra}")
    return ("Explorers on the table: " + "; ".join(parts) + ".") if parts else ""


def _points_table(view: dict[str, Any], names: Sequence[str]) -> str:
    """Return every seat's and Team Up side's points in one sentence, the fewest words that keep them all."""
    projected = _projected(view)
    if view["final"] or not projected:
        return " ".join(text + "." for text in _compact_seats(view, names))
    seats = [
        f"{_name(names, s['seat'])} ({s['short']}): {s['stash']}, {projected[s['seat']]}, "
        + ("resigned" if s["resigned"] else f"hand {s['hand_size']}, deck {s['deck_size']}")
        for s in view["seats"]
    ]
    for side in sorted({s["side"] for s in view["seats"]}) if view["teams_mode"] else []:
        members = [s["seat"] for s in view["seats"] if s["side"] == side]
        total, end = sum(view["scores"][m]["stash"] for m in members), sum(projected[m] for m in members)
        seats.append(f"Team {' + '.join(_short(view, m) for m in members)} {total}, {end}")
    return "Points now, then if it ended now: " + "; ".join(seats) + "."


TABLE_ELSEWHERE = "More cards than fit here: the play menus say what each open cell touches and each facing aims at."


def alt_text_table(view: dict[str, Any], names: list[str]) -> str:
    """Describe the table for screen readers within Discord's limit: in full, compactly, or as a summary."""
    head = [f"Flippers. {_headline(view, names)}."]
    activation = _activation_line(view)
    if activation:
        head.append(activation + (": " + ", ".join(_leader_cells(view)) if _leader_cells(view) else "") + ".")
    supply = f"Supply {view['supply']}."
    full = [*head, " ".join(text + "." for text in _seat_lines(view, names)), supply]
    full += [_markers_alt(view, names), _cards_alt(view, names)]
    short = [*head, " ".join(text + "." for text in _compact_seats(view, names)), supply, _compact_markers(view)]
    food = _compact_food(view) if any(c["kind"] == "food" for c in view["cards"]) else ""
    compact = [*short, food, _compact_explorers(view)]
    elsewhere = "Too many cards to list one by one." if view["final"] else TABLE_ELSEWHERE
    summary = [*short, food, _explorer_counts(view), elsewhere]
    sideless = _compact_food(view, sides=False) if food else ""
    least = [*head, _points_table(view, names), supply, _compact_markers(view), sideless, elsewhere]
    versions = (full, compact, summary, least)
    return fit_alt(*(" ".join(part for part in parts if part) for parts in versions))


def alt_text_hand(view: dict[str, Any], names: list[str]) -> str:
    """Return a short description of the hand image."""
    seat = view["you"]
    cards = ", ".join(f"{c['name']} ({c['text']})" for c in view["hand"]) or "no cards"
    text = f"{_name(names, seat)}'s hand: {cards}. Deck: {view['seats'][seat]['deck_size']} left."
    if view.get("must_discard"):
        text += f" Choose {view['must_discard']} to discard."
    return fit_alt(text)
