"""Teach the fish rules in words, with every ruling the bot applies, in the current language."""

from __future__ import annotations

from engine.fish.board import DATA, layout
from i18n import _, ngettext, npgettext, pgettext

BALANCED = "balanced"
"""The /game new option that deals a balanced board: named as Discord shows it in the reader's language."""


def rules_text(title: str) -> str:
    """Return the rules in a few lines and the rulings the bot applies, with every number read from data."""
    penguins = {int(n): each for n, each in DATA["penguins_per_player"].items()}
    # TRANSLATORS: one entry of the list of penguins per player count, e.g. "2 players: 4 each".
    per_count = [
        npgettext(
            "rules: penguins per player count", "{n} player: {each} each", "{n} players: {each} each", n, each=each
        )
        for n, each in sorted(penguins.items())
    ]
    rows = DATA["rows"]
    labels = layout().labels
    starts = [sum(rows[:r]) for r in range(len(rows))]
    first, second, last = (f"{labels[starts[r]]}-{labels[starts[r] + rows[r] - 1]}" for r in (0, 1, -1))
    richest = max(int(fish) for fish in DATA["tiles"])
    balanced = DATA["balanced"]
    placement = DATA["placement_fish"]
    lines = [
        _("**{title}** ({low}-{high} players)", title=title, low=min(penguins), high=max(penguins)),
        ngettext(
            "• Place your penguins one at a time on free {n}-fish tiles ({counts}).",
            "• Place your penguins one at a time on free {n}-fish tiles ({counts}).",
            placement,
            counts=pgettext("rules: list separator", ", ").join(per_count),
        ),
        _(
            "• On your turn slide one penguin in a straight line along one of the six hex directions, "
            "as far as you like, never through water or another penguin; then take the tile it left."
        ),
        _("• Most fish wins; tie: most tiles; still tied: shared victory."),
        _("**Rulings we apply**"),
        _(
            "• Board: {hexes} hexes in rows of {short} and {long}, labelled {first}, {second} ... {last}.",
            hexes=len(labels),
            short=min(rows),
            long=max(rows),
            first=first,
            second=second,
            last=last,
        ),
        _("• Seats place and move in seat order, starting with the first seat."),
        _(
            "• A penguin with no legal move is removed at once (after every move and when placement ends); "
            "its owner takes its tile. A player with no penguins left is skipped."
        ),
        _(
            "• `{option}` option: re-deal until no two {top}-fish tiles touch and every row has a {rich}- or "
            "{richest}-fish tile.",
            option=pgettext("option name", BALANCED),
            top=balanced["forbid_touching_fish"],
            rich=balanced["row_needs_fish_at_least"],
            richest=richest,
        ),
        _("• A player who resigns loses their penguins (the tiles under them stay) and cannot win."),
    ]
    return "\n".join(lines)
