"""Describe the Tank pictures for screen readers: the table, a player's aquarium and the final scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.words import plural
from render.common import SEAT_COLOUR_NAMES, fit_alt, seat_letter
from render.tank.aquarium import aquarium_rows, aquarium_total, final_row
from render.tank.style import PHASES, seat_name
from render.tank.table import order_rows


def scoring_lines(view: dict[str, Any]) -> list[tuple[str, str]]:
    """Return how each card scores, for the alt text and the "How scoring works" answer: (kind, "Name: how")."""
    return [(r["key"], f"{r['name']}: {r['text']}") for r in view.get("scoring", [])]


def _group_text(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Describe one group and its cards for a screen reader."""
    r0, r1 = group["rows"]
    c0, c1 = group["cols"]
    cards = [view["grid"][r][c] for r in range(r0, r1) for c in range(c0, c1)]
    names = ", ".join(card["name"] for card in cards if card)
    rows = f"row {r0 + 1}" if r1 - r0 == 1 else f"rows {r0 + 1} to {r1}"
    cols = f"column {c0 + 1}" if c1 - c0 == 1 else f"columns {c0 + 1} to {c1}"
    text = f"Group {group['label']}, {rows}, {cols}, {plural(group['size'], 'card')}: {names}."
    if group["cuts"]:
        text += f" Can be cut along {', '.join(group['cuts'])}."
    elif view["phase"] == "split":
        text += " Cannot be split."
    return text


def _seat_text(info: dict[str, Any], names: Sequence[str]) -> str:
    """Describe one player's public counts."""
    seat = info["seat"]
    colour = SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)]
    text = f"{seat_name(names, seat)} ({colour} {seat_letter(seat)}): {plural(info['cards'], 'card')}"
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
    text = f"{seat_name(names, info['seat'])} ({seat_letter(info['seat'])}): {plural(info['cards'], 'card')}"
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
            view["phase"], f"may discard up to {plural(view['pending_discards'], 'fish card')} for a Gourami"
        )
        head.append(f"{seat_name(names, seat)} {doing}.")
    goal = view["goal"]
    head.append(f"Goal: {goal['name']}, {goal['text'].lower()}, {plural(goal['points'], 'point')}.")
    parts = [f"{label}: {', '.join(seat_name(names, s) for s in seats)}." for label, seats in order_rows(view)]
    side = view["grid_size"]
    parts.append(f"Grid {side} by {side}; h lines run between rows, v lines between columns.")
    parts += [_group_text(view, g) for g in view["groups"]]
    parts.append("Players: " + "; ".join(_seat_text(s, names) for s in view["seats"]) + ".")
    deck = f"Deck {plural(view['deck'], 'card')}, discard pile {plural(view['discard_pile'], 'card')}."
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
    final = final_row(view)
    parts = [f"{seat_name(names, view['seat'])}'s aquarium, {plural(len(view['aquarium']), 'card')}."]
    if view.get("discard"):
        left = plural(view["discard"]["left"], "fish")
        parts.append(f"You may discard up to {left} for your Gourami, or keep them all.")
    cards = {k["key"]: k["cards"] for k in view["by_kind"]}
    for row in aquarium_rows(view):
        if not row["count"]:
            continue
        values = ""
        if row["key"] == "molly":
            values = " (" + ", ".join(str(c["value"]) for c in cards[row["key"]]) + ")"
        scored = "scored at the end" if row["points"] is None else plural(row["points"], "point")
        parts.append(f"{row['name']}: {row['count']}{values}, {scored}.")
    goal = view["goal"]
    met = final["detail"]["goal_met"] if final is not None else view["preview"]["goal_met"]
    parts.append(f"Goal {goal['name']}: {'met' if met else 'not met' if final is not None else 'not met yet'}.")
    total, _ = aquarium_total(view)
    if final is not None:
        parts.append(total.replace(" · ", ", ") + ".")
    elif total.endswith("+ Discus"):
        parts.append(f"Score so far {plural(view['preview']['total'], 'point')}, Discus not included.")
    else:
        parts.append(f"Score so far {plural(view['preview']['total'], 'point')}.")
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
        total = plural(row["total"], "point")
        parts.append(f"{row['rank']}. {seat_name(names, row['seat'])}{flag}: {total}; {', '.join(bits)}.")
    if final.get("tiebreak"):
        parts.append(final["tiebreak"] + ".")
    return fit_alt(" ".join(parts))
