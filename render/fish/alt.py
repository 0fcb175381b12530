"""Describe the fish board in words for screen readers (Discord alt text)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from render.common import SEAT_COLOUR_NAMES, fit_alt, seat_letter


def alt_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the board for screen readers: whose turn, penguins, scores and rich tiles."""
    parts = []
    if view["phase"] == "over":
        parts.append("Final board. Winner: " + " and ".join(names[s] for s in view["winners"]) + ".")
    else:
        seat = view["to_act"][0]
        parts.append(f"{names[seat]} to {'place a penguin' if view['phase'] == 'placement' else 'move'}.")
    last = view.get("last") or {}
    if last.get("from"):
        parts.append(f"Last move {last['from']} to {last['to']}.")
    for gone in last.get("stranded") or []:
        parts.append(f"{names[gone['seat']]}'s penguin on {gone['tile']} was stranded and removed.")
    for seat, info in enumerate(view["seats"]):
        where = ", ".join(p["tile"] for p in view["penguins"] if p["seat"] == seat)
        penguins = f"penguins on {where}" if where else "no penguin on the board"
        parts.append(
            f"{names[seat]} ({SEAT_COLOUR_NAMES[seat]} {seat_letter(seat)}): {info['fish']} fish, "
            f"{info['tiles']} tiles, {penguins}."
        )
    rich = [t["label"] for t in view["tiles"] if t["fish"] == 3]
    parts.append(f"{sum(1 for t in view['tiles'] if t['fish'])} tiles left; 3-fish tiles: {', '.join(rich) or 'none'}.")
    return fit_alt(" ".join(parts))
