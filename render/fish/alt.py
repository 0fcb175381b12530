"""Describe the fish board in words for screen readers (Discord alt text)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.words import join_list, join_names
from i18n import _, ngettext, pgettext
from render.common import colour_name, fit_alt, full_stop, seat_letter


def alt_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the board for screen readers: whose turn, penguins, scores and rich tiles."""
    parts = []
    if view["phase"] == "over":
        winners = [names[s] for s in view["winners"]]
        if winners:
            parts.append(
                full_stop(
                    ngettext(
                        "Final board. Winner: {names}",
                        "Final board. Winner: {names}",
                        len(winners),
                        names=join_names(winners),
                    )
                )
            )
        else:
            parts.append(_("Final board. No winner."))
    else:
        seat = view["to_act"][0]
        if view["phase"] == "placement":
            parts.append(_("{name} to place a penguin.", name=names[seat]))
        else:
            parts.append(_("{name} to move.", name=names[seat]))
    last = view.get("last") or {}
    if last.get("from"):
        parts.append(_("Last move {start} to {end}.", start=last["from"], end=last["to"]))
    for gone in last.get("stranded") or []:
        parts.append(
            _("{name}'s penguin on {tile} was stranded and removed.", name=names[gone["seat"]], tile=gone["tile"])
        )
    for seat, info in enumerate(view["seats"]):
        tiles = [p["tile"] for p in view["penguins"] if p["seat"] == seat]
        # TRANSLATORS: English says "penguins" for one or more; translate each form as your language counts.
        penguins = ngettext("penguins on {tiles}", "penguins on {tiles}", len(tiles), tiles=join_list(tiles))
        parts.append(
            _(
                "{name} ({colour} {letter}): {fish}, {tiles}, {penguins}.",
                name=names[seat],
                colour=colour_name(seat),
                letter=seat_letter(seat),
                fish=ngettext("{n} fish", "{n} fish", info["fish"]),
                tiles=ngettext("{n} tile", "{n} tiles", info["tiles"]),
                penguins=penguins if tiles else _("no penguin on the board"),
            )
        )
    rich = [t["label"] for t in view["tiles"] if t["fish"] == 3]
    left = sum(1 for t in view["tiles"] if t["fish"])
    parts.append(
        ngettext(
            "{n} tile left; 3-fish tiles: {tiles}.",
            "{n} tiles left; 3-fish tiles: {tiles}.",
            left,
            tiles=join_list(rich) or pgettext("no 3-fish tiles", "none"),
        )
    )
    return fit_alt(" ".join(parts))
