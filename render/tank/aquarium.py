"""Draw a player's own Tank aquarium: one row per fish kind with counts and points, the goal and the total."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.words import join_list
from i18n import _, ngettext, pgettext
from render.common import INK, encode_png, fit_named, fit_text
from render.tank.paint import chip, drawn, kind_chip, paste, put
from render.tank.style import (
    BACKGROUND,
    BANNER,
    FAINT,
    GOURAMI_NOTE,
    MARGIN,
    MET,
    MUTED,
    WHITE,
    WIDTH,
    ordinal,
    seat_name,
    size_to_fit,
    text_width,
    wrap,
)


def final_row(view: dict[str, Any]) -> dict[str, Any] | None:
    """Return the seat's row of the final standings once the game is over, else None."""
    final = view.get("final")
    if not final:
        return None
    return next((row for row in final["standings"] if row["seat"] == view["seat"]), None)


def aquarium_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return one row per card kind in play: key, name (singular or plural), count, and points (None if open)."""
    preview = view["preview"]
    row = final_row(view)
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
    row = final_row(view)
    if row is not None:
        players = len(view["final"]["standings"])
        if row["winner"]:
            place = pgettext("final place", "winner")
        else:
            place = _("{place} of {players}", place=ordinal(row["rank"]), players=players)
        total = _("Final score: {total} · {place}", total=row["total"], place=place)
        return total, _("The game is over: these are your final points.")
    preview = view["preview"]
    if any(kind["cards"] and preview.get(kind["key"]) is None for kind in view["by_kind"]):
        return (
            _("Score so far: {total} + Discus", total=preview["total"]),
            _("Discus is scored against the other aquariums at the end."),
        )
    return _("Score so far: {total}", total=preview["total"]), ""


def draw_aquarium(view: dict[str, Any], names: Sequence[str]) -> Image.Image:
    """Draw a player's own aquarium: one row per fish type with counts and points, and the total."""
    return drawn(lambda image, draw: _aquarium_parts(image, draw, view, names), aquarium_height(view))


def _discard_lines(view: dict[str, Any]) -> list[str]:
    """Return the wrapped lines listing the fish the player discarded."""
    if not view["my_discards"]:
        return []
    names = [c["name"] for c in view["my_discards"]]
    return wrap(_("You discarded: {cards}", cards=join_list(names)), WIDTH - 2 * MARGIN, 22, keep=names)


def aquarium_height(view: dict[str, Any]) -> int:
    """Return the height of the aquarium picture, computed the way it is laid out."""
    height = MARGIN + 60 + 44 + (72 if view.get("discard") else 0) + 74 * len(view["by_kind"]) + 78 + 56
    height += 36 if aquarium_total(view)[1] else 0
    return height + 30 * len(_discard_lines(view)) + others_height(view) + MARGIN


TAKEN_HEAD = 40  # the heading of what the other players took in the open
TAKEN_ROW = 40  # one other player's row of it
TAKEN_CHIP = 32  # a fish type's square in it
TAKEN_NAME = 120  # the width of a player's name in it


def others(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the public rows of the seats other than the viewer's."""
    return [info for info in view["seats"] if info["seat"] != view["seat"]]


def others_height(view: dict[str, Any]) -> int:
    """Return the height of what the other players took in the open (nothing once the game is over)."""
    if final_row(view) is not None:
        return 0
    return TAKEN_HEAD + TAKEN_ROW * sum(max(1, len(taken_lines(info))) for info in others(view))


def _taken_count(kind: dict[str, Any]) -> str:
    """Return the words after a fish type's square: how many were taken, and the Mollies' values."""
    # TRANSLATORS: how many cards of one fish type a player took, after its coloured square ("×3").
    count = pgettext("tank taken", "×{n}", n=kind["count"])
    if not kind["values"]:
        return count
    # TRANSLATORS: after a fish type's count, the printed values of its cards ("×2 (1+3)").
    values = "+".join(str(v) for v in kind["values"])
    return pgettext("tank taken", "{count} ({values})", count=count, values=values)


def taken_lines(info: dict[str, Any]) -> list[list[tuple[str, str]]]:
    """Return one seat's fish types and their counts, as (key, words) pieces wrapped into lines within the page."""
    start, end = MARGIN + 48 + TAKEN_NAME, WIDTH - MARGIN
    lines: list[list[tuple[str, str]]] = []
    x = end
    for kind in info["taken"]:
        words = _taken_count(kind)
        width = TAKEN_CHIP + 4 + text_width(words, 22, True)
        if x + width > end:
            lines.append([])
            x = start
        lines[-1].append((kind["key"], words))
        x += width + 16
    return lines


def _others(image: Image.Image, view: dict[str, Any], names: Sequence[str], y: int) -> int:
    """Draw what each other player took in the open, by fish type: what a good memory (and the computer) knows.

    Gourami discards are made in private, so the counts include cards a player may since have put out.
    """
    if final_row(view) is not None:
        return y
    # TRANSLATORS: heading of a picture's rows showing, per other player, the cards of each fish type they took.
    heading = _("The others took in the open (Gourami discards included):")
    size = size_to_fit(heading, WIDTH - 2 * MARGIN, 24, True)
    put(image, (MARGIN, y + TAKEN_HEAD / 2), heading, size, INK, bold=True, bg=BACKGROUND)
    y += TAKEN_HEAD
    for info in others(view):
        middle = y + TAKEN_ROW / 2
        chip(image, info["seat"], MARGIN + 16, middle, 15)
        put(image, (MARGIN + 40, middle), fit_text(seat_name(names, info["seat"]), 20, TAKEN_NAME), 20, INK)
        start = MARGIN + 48 + TAKEN_NAME
        lines = taken_lines(info)
        if not lines:
            # TRANSLATORS: shown instead of fish types for a player who has taken no cards yet.
            put(image, (start, middle), pgettext("tank taken", "nothing yet"), 22, MUTED, bg=BACKGROUND)
            y += TAKEN_ROW
        for line in lines:
            middle, x = y + TAKEN_ROW / 2, start
            for key, words in line:
                paste(image, kind_chip(key, TAKEN_CHIP, BACKGROUND), x, middle - TAKEN_CHIP / 2)
                x += TAKEN_CHIP + 4
                put(image, (x, middle), words, 22, INK, bold=True, bg=BACKGROUND)
                x += text_width(words, 22, True) + 16
            y += TAKEN_ROW
    return y


def _aquarium_parts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str]) -> int:
    """Draw the aquarium from the top; return the y of the page's bottom edge."""
    seat = view["seat"]
    final = final_row(view)
    y = MARGIN
    chip(image, seat, MARGIN + 22, y + 24, 22)
    room = WIDTH - 2 * MARGIN - 60

    def heading(name: str) -> str:
        return _("{name}'s aquarium", name=name)

    size = size_to_fit(heading(seat_name(names, seat)), room, 38, True)
    title = fit_named(heading, seat_name(names, seat), size, room, bold=True)
    put(image, (MARGIN + 58, y + 24), title, size, INK, bold=True)
    y += 60
    private = pgettext("aquarium", "final") if final is not None else _("private, only you see this")
    sub = _("{cards} · {private}", cards=ngettext("{n} card", "{n} cards", len(view["aquarium"])), private=private)
    put(image, (MARGIN, y), fit_text(sub, 24, WIDTH - 2 * MARGIN), 24, MUTED, anchor="la", bg=BACKGROUND)
    y += 44
    if view.get("discard"):
        note = ngettext(
            "Gourami: discard up to {n} fish, or keep them all",
            "Gourami: discard up to {n} fish, or keep them all",
            view["discard"]["left"],
        )
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + 56), radius=12, fill=GOURAMI_NOTE, outline=INK, width=3)
        size = size_to_fit(note, WIDTH - 2 * MARGIN - 32, 28, True)
        put(
            image,
            (MARGIN + 16, y + 28),
            fit_text(note, size, WIDTH - 2 * MARGIN - 32, True),
            size,
            INK,
            bold=True,
            bg=GOURAMI_NOTE,
        )
        y += 72
    row_h = 74
    molly = {k["key"]: k["cards"] for k in view["by_kind"]}.get("molly", [])
    for row in aquarium_rows(view):
        middle = y + row_h / 2 - 2
        faded = row["count"] == 0
        if not faded:
            draw.rounded_rectangle((MARGIN, y + 2, WIDTH - MARGIN, y + row_h - 6), radius=12, fill=WHITE)
        back = BACKGROUND if faded else WHITE
        paste(image, kind_chip(row["key"], 52, back), MARGIN + 8, y + 10)
        fill = FAINT if faded else INK
        label = f"{row['name']} ×{row['count']}"
        points = _("? at the end") if row["points"] is None else ngettext("{n} pt", "{n} pts", row["points"])
        label_size = size_to_fit(label, WIDTH - 2 * MARGIN - 90 - text_width(points, 30, True) - 24, 30, True)
        put(image, (MARGIN + 76, middle), label, label_size, fill, bold=True, bg=back)
        if row["key"] == "molly" and molly:
            values = fit_text("(" + " + ".join(str(c["value"]) for c in molly) + ")", 24, 250)
            put(image, (MARGIN + 90 + text_width(label, label_size, True), middle), values, 24, MUTED, bg=back)
        put(image, (WIDTH - MARGIN - 14, middle), points, 30, fill, bold=True, anchor="rm", bg=back)
        y += row_h
    goal = view["goal"]
    met = final["detail"]["goal_met"] if final is not None else view["preview"]["goal_met"]
    if met:
        goal_text = _("Goal {name}: met, +{points}", name=goal["name"], points=goal["points"])
    elif final is not None:
        goal_text = _("Goal {name}: not met", name=goal["name"])
    else:
        goal_text = _("Goal {name}: not met yet", name=goal["name"])
    draw.rounded_rectangle(
        (MARGIN, y + 6, WIDTH - MARGIN, y + 62), radius=12, fill=MET if met else BANNER, outline=INK, width=2
    )
    size = size_to_fit(goal_text, WIDTH - 2 * MARGIN - 32, 28, True)
    put(image, (MARGIN + 16, y + 34), goal_text, size, INK, bold=True, bg=MET if met else BANNER)
    y += 78
    total, note = aquarium_total(view)
    size = size_to_fit(total, WIDTH - 2 * MARGIN, 38, True)
    put(image, (MARGIN, y + 6), total, size, INK, bold=True, anchor="la", bg=BACKGROUND)
    y += 56
    if note:
        put(image, (MARGIN, y), fit_text(note, 22, WIDTH - 2 * MARGIN), 22, MUTED, anchor="la", bg=BACKGROUND)
        y += 36
    for line in _discard_lines(view):
        put(image, (MARGIN, y), line, 22, MUTED, anchor="la", bg=BACKGROUND)
        y += 30
    return _others(image, view, names, y) + MARGIN


def render_aquarium(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """Draw a player's own aquarium as PNG."""
    return encode_png(draw_aquarium(view, names))
