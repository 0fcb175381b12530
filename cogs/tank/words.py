"""Word 10 Gallon Tank's menus and private answers: group shapes, hints, the scoring reminder, goal and score."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.tank.data import RULES
from engine.words import join_list
from i18n import _, ngettext, pgettext
from i18n.commands import choice_name
from render.tank import scoring_lines
from ui.mentions import command
from ui.text import LABEL

KEY = "tank"
KEEP = "keep"
SCORING = "scoring"
IN_PLACE_KINDS = frozenset({"discard", "keep"})
"""A Gourami choice continues its take's turn: the take's board is edited in place, and nobody is pinged."""
KEEP_WORDS = {"keep", "keep all", "keep all my fish", "none", "nothing"}
MOLLY, CHEST = "molly", "chest"


def _shape(rows: int, cols: int) -> str:
    """Return a group's shape as rows×columns."""
    return f"{rows}×{cols}"


def _group_shape(group: dict[str, Any]) -> str:
    """Return a public group's shape as rows×columns."""
    return _shape(group["rows"][1] - group["rows"][0], group["cols"][1] - group["cols"][0])


def _group_cards(view: dict[str, Any], group: dict[str, Any]) -> list[dict[str, Any]]:
    """Return a group's face-up cards as the view shows them (names in the current language), row by row."""
    (r0, r1), (c0, c1) = group["rows"], group["cols"]
    return [card for r in range(r0, r1) for c in range(c0, c1) if (card := view["grid"][r][c])]


def _split_hint(group: dict[str, Any], line: str) -> str:
    """Describe the two parts a cut line makes, e.g. "2×4 → 1×4 + 1×4"."""
    (r0, r1), (c0, c1) = group["rows"], group["cols"]
    rows, cols, at = r1 - r0, c1 - c0, int(line[1:])
    if line[0] == "h":
        first, second = _shape(at - r0, cols), _shape(r1 - at, cols)
        # TRANSLATORS: a cut of a group of cards, e.g. "2×4 → 1×4 + 1×4, between rows 1 and 2".
        return _(
            "{shape} → {first} + {second}, between rows {above} and {below}",
            shape=_group_shape(group),
            first=first,
            second=second,
            above=at,
            below=at + 1,
        )
    first, second = _shape(rows, at - c0), _shape(rows, c1 - at)
    # TRANSLATORS: a cut of a group of cards, e.g. "2×4 → 2×1 + 2×3, between columns 1 and 2".
    return _(
        "{shape} → {first} + {second}, between columns {left} and {right}",
        shape=_group_shape(group),
        first=first,
        second=second,
        left=at,
        right=at + 1,
    )


def _take_hint(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Describe a group on offer in few words, so every card fits a menu line: "5 cards: Guppy ×2, Mollies 1, 4"."""
    cards = _group_cards(view, group)
    kinds = {card["name"]: card["kind"] for card in cards}
    held = Counter(card["name"] for card in cards)
    mollies = [card for card in cards if card["kind"] == MOLLY]
    parts: list[str] = []
    for name, kind in kinds.items():
        if kind == MOLLY:
            if len(mollies) > 1 and name == mollies[0]["name"]:
                values = join_list([str(card["value"]) for card in mollies])
                # TRANSLATORS: the Molly cards of a group by their values, e.g. "Mollies 1, 4".
                parts.append(_("Mollies {values}", values=values))
            elif len(mollies) == 1:
                parts.append(name)
            continue
        parts.append(f"{name} ×{held[name]}" if held[name] > 1 else name)
    # TRANSLATORS: a group on offer in a menu, e.g. "5 cards: Guppy ×2, Mollies 1, 4".
    text = ngettext("{n} card: {cards}", "{n} cards: {cards}", group["size"], cards=join_list(parts))
    chest = next((card["name"] for card in cards if card["kind"] == CHEST), None)
    if len(text) <= LABEL or chest is None:
        return text
    # TRANSLATORS: the Treasure Chest's short name, used when a menu line is too long for its full name.
    return text.replace(chest, pgettext("short card name", "Chest"))


def scoring_text(view: dict[str, Any]) -> str:
    """Say how each card scores in this game (its player count) and what the goal is worth, privately."""
    goal = view["goal"]
    players = view["players"]
    lines = [ngettext("**How each card scores** ({n} player)", "**How each card scores** ({n} players)", players)]
    lines += [f"- {line}" for _kind, line in scoring_lines(view)]
    lines.append(
        # TRANSLATORS: e.g. "- Goal Big School: +5 if your aquarium has at least 6 fish of one type."
        _(
            "- Goal {goal}: +{points} if your aquarium has {condition}.",
            goal=goal["name"],
            points=goal["points"],
            condition=_lower_first(goal["text"]),
        )
    )
    rules = command("game rules", game=choice_name(RULES.title))
    lines.append(_("The whole rules, with the rulings this bot applies: {command}.", command=rules))
    return "\n".join(lines)


def _lower_first(text: str) -> str:
    """Return `text` with its first letter in lower case, to run on inside a sentence."""
    return text[:1].lower() + text[1:]


def _goal_and_score(view: dict[str, Any], final: dict[str, Any] | None) -> list[str]:
    """Return the aquarium's goal line and its score line: so far, or final with the place."""
    goal = view["goal"]
    name, points, text = goal["name"], goal["points"], goal["text"]
    if final is not None:
        if final["detail"]["goal_met"]:
            # TRANSLATORS: e.g. "Goal Big School: met, +5 · At least 6 fish of one type".
            lines = [_("Goal {goal}: met, +{points} · {text}", goal=name, points=points, text=text)]
        else:
            lines = [_("Goal {goal}: not met · {text}", goal=name, text=text)]
        total = final["total"]
        if final["winner"]:
            lines.append(
                ngettext("**Final score: {n} point** (you win)", "**Final score: {n} points** (you win)", total)
            )
        else:
            lines.append(
                ngettext(
                    "**Final score: {n} point** (rank {rank} of {players})",
                    "**Final score: {n} points** (rank {rank} of {players})",
                    total,
                    rank=final["rank"],
                    players=len(view["final"]["standings"]),
                )
            )
        return lines
    preview = view["preview"]
    if preview["goal_met"]:
        lines = [_("Goal {goal}: met, +{points} · {text}", goal=name, points=points, text=text)]
    else:
        lines = [_("Goal {goal}: not met yet (+{points} if met) · {text}", goal=name, points=points, text=text)]
    open_kinds = [k["plural"] for k in view["by_kind"] if k["cards"] and preview.get(k["key"]) is None]
    if open_kinds:
        # TRANSLATORS: {kinds} lists the fish types scored only at the end, e.g. "Mollies".
        lines.append(
            ngettext(
                "**Score so far: {n} point + {kinds} at the end**",
                "**Score so far: {n} points + {kinds} at the end**",
                preview["total"],
                kinds=join_list(open_kinds),
            )
        )
    else:
        lines.append(ngettext("**Score so far: {n} point**", "**Score so far: {n} points**", preview["total"]))
    return lines
