"""Describe the Tank pictures for screen readers: the table, a player's aquarium and the final scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.tank.data import RULES
from engine.words import join_list
from i18n import _, ngettext, pgettext
from i18n.commands import choice_name, command_path
from render.common import clauses, colour_name, fit_alt, full_stop, in_sentence, seat_letter
from render.tank.aquarium import aquarium_rows, aquarium_total, final_row
from render.tank.style import seat_name
from render.tank.table import order_rows


def scoring_lines(view: dict[str, Any]) -> list[tuple[str, str]]:
    """Return how each card scores, for the alt text and the "How scoring works" answer: (kind, "Name: how")."""
    # TRANSLATORS: one card kind and how it scores ("Guppy: 2 points each ...").
    return [(r["key"], _("{name}: {text}", name=r["name"], text=r["text"])) for r in view.get("scoring", [])]


def _cards(n: int) -> str:
    """Return "1 card", "3 cards" in the current language."""
    return ngettext("{n} card", "{n} cards", n)


def _span(first: int, last: int, *, rows: bool, compact: bool) -> str:
    """Return the rows or columns a group spans, counted from 1 ("rows 1 to 2", "col 3")."""
    if first == last and rows:
        return pgettext("short", "row {n}", n=first) if compact else _("row {n}", n=first)
    if first == last:
        return pgettext("short", "col {n}", n=first) if compact else _("column {n}", n=first)
    if rows:
        if compact:
            return pgettext("short", "rows {first}-{last}", first=first, last=last)
        return _("rows {first} to {last}", first=first, last=last)
    if compact:
        return pgettext("short", "cols {first}-{last}", first=first, last=last)
    return _("columns {first} to {last}", first=first, last=last)


def _group_text(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Describe one group and its cards for a screen reader."""
    r0, r1 = group["rows"]
    c0, c1 = group["cols"]
    cards = [view["grid"][r][c] for r in range(r0, r1) for c in range(c0, c1)]
    text = _(
        "Group {label}, {rows}, {columns}, {cards}: {names}.",
        label=group["label"],
        rows=_span(r0 + 1, r1, rows=True, compact=False),
        columns=_span(c0 + 1, c1, rows=False, compact=False),
        cards=_cards(group["size"]),
        names=join_list([card["name"] for card in cards if card]),
    )
    if group["cuts"]:
        text += " " + _("Can be cut along {lines}.", lines=join_list(group["cuts"]))
    elif view["phase"] == "split":
        text += " " + _("Cannot be split.")
    return text


def _seat_text(info: dict[str, Any], names: Sequence[str]) -> str:
    """Describe one player's public counts."""
    seat = info["seat"]
    parts = [
        _(
            "{name} ({colour} {letter}): {cards}",
            name=seat_name(names, seat),
            colour=colour_name(seat),
            letter=seat_letter(seat),
            cards=_cards(info["cards"]),
        )
    ]
    if info["discarded"]:
        parts.append(_("{n} discarded", n=info["discarded"]))
    if info["resigned"]:
        parts.append(_("left the game"))
    return join_list(parts)


def _taken_kind(kind: dict[str, Any]) -> str:
    """Return how many cards of a fish type a player took, with their printed values where they have them."""
    # TRANSLATORS: how many cards of one fish type a player took, e.g. "2 Guppies" ({kind} is already plural).
    text = pgettext("tank taken", "{n} {kind}", n=kind["count"], kind=kind["name"])
    if kind["values"]:
        # TRANSLATORS: the count of a fish type, then its cards' printed values ("2 Mollies worth 1, 3").
        values = join_list([str(v) for v in kind["values"]])
        text = pgettext("tank taken", "{count} worth {values}", count=text, values=values)
    return text


def _compact_group(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Describe one group in few words: number, place, cards and cuts."""
    r0, r1 = group["rows"]
    c0, c1 = group["cols"]
    cards = join_list([card["name"] for r in range(r0, r1) for c in range(c0, c1) if (card := view["grid"][r][c])])
    rows = _span(r0 + 1, r1, rows=True, compact=True)
    cols = _span(c0 + 1, c1, rows=False, compact=True)
    if group["cuts"]:
        return _(
            "Group {label} ({rows}, {columns}): {cards}; cuts {lines}.",
            label=group["label"],
            rows=rows,
            columns=cols,
            cards=cards,
            lines=join_list(group["cuts"]),
        )
    if view["phase"] == "split":
        return _(
            "Group {label} ({rows}, {columns}): {cards}; no cut.",
            label=group["label"],
            rows=rows,
            columns=cols,
            cards=cards,
        )
    return _("Group {label} ({rows}, {columns}): {cards}.", label=group["label"], rows=rows, columns=cols, cards=cards)


def _compact_seat(info: dict[str, Any], names: Sequence[str]) -> str:
    """Describe one player's public counts by seat letter."""
    seat = info["seat"]
    parts = [
        _(
            "{name} ({letter}): {cards}",
            name=seat_name(names, seat),
            letter=seat_letter(seat),
            cards=_cards(info["cards"]),
        )
    ]
    if info["discarded"]:
        parts.append(_("{n} discarded", n=info["discarded"]))
    if info["resigned"]:
        parts.append(pgettext("short", "left"))
    return join_list(parts)


def _phase_in_sentence(phase: str) -> str:
    """Return a phase's name as it reads inside a sentence."""
    if phase == "split":
        return pgettext("in a sentence", "split phase")
    if phase == "over":
        return pgettext("in a sentence", "game over")
    return pgettext("in a sentence", "take phase")


def _doing(view: dict[str, Any], name: str) -> str:
    """Return the sentence saying what the seat to act does."""
    if view["phase"] == "split":
        return _("{name} splits a group.", name=name)
    if view["phase"] == "take":
        return _("{name} takes a group.", name=name)
    return ngettext(
        "{name} may discard up to {n} fish card for a Gourami.",
        "{name} may discard up to {n} fish cards for a Gourami.",
        view["pending_discards"],
        name=name,
    )


def alt_text_table(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the public table (or the final scores once over) for screen readers, within Discord's limit."""
    if view.get("final"):
        return alt_text_final(view, names)
    head = [
        _(
            "10 Gallon Tank, round {round} of {rounds}, {phase}.",
            round=view["round"],
            rounds=view["rounds"],
            phase=_phase_in_sentence(view["phase"]),
        )
    ]
    if view["to_act"]:
        head.append(_doing(view, seat_name(names, view["to_act"][0])))
    goal = view["goal"]
    points = ngettext("{n} point", "{n} points", goal["points"])
    head.append(_("Goal: {name}, {text}, {points}.", name=goal["name"], text=in_sentence(goal["text"]), points=points))
    rows = order_rows(view)
    parts = [
        _("{label}: {names}.", label=label, names=join_list([seat_name(names, s) for s in seats]))
        for label, seats in rows
    ]
    side = view["grid_size"]
    parts.append(_("Grid {side} by {side}; h lines run between rows, v lines between columns.", side=side))
    parts += [_group_text(view, g) for g in view["groups"]]
    parts.append(_("Players: {players}.", players=clauses([_seat_text(s, names) for s in view["seats"]])))
    deck = _("Deck {deck}, discard pile {discards}.", deck=_cards(view["deck"]), discards=_cards(view["discard_pile"]))
    full = " ".join([*head, *parts, deck])
    scoring = _("Scoring: {lines}.", lines=clauses([line for _kind, line in scoring_lines(view)]))
    lead = [*head, _("Players: {players}.", players=clauses([_compact_seat(s, names) for s in view["seats"]]))]
    lead += [
        _("{label}: {names}.", label=label, names=join_list([seat_letter(s) for s in seats])) for label, seats in rows
    ]
    lead.append(_("{side} by {side} grid; h cuts run between rows, v cuts between columns.", side=side))
    compact = [*lead, *(_compact_group(view, g) for g in view["groups"]), deck]
    elsewhere = _("How each card scores: {command}.", command=command_path("game rules", game=choice_name(RULES.title)))
    # Longer languages with the longest names may need the groups by size alone (the menus name their cards).
    sizes = [_("Group {label}: {cards}.", label=g["label"], cards=_cards(g["size"])) for g in view["groups"]]
    bare = [*lead, *sizes, deck, elsewhere]
    versions = (f"{full} {scoring}", f"{full} {elsewhere}", " ".join([*compact, elsewhere]), " ".join(compact))
    return fit_alt(*versions, " ".join(bare))


def alt_text_aquarium(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe a player's own aquarium and its score (so far, or final) for screen readers."""
    final = final_row(view)
    name = seat_name(names, view["seat"])
    parts = [_("{name}'s aquarium, {cards}.", name=name, cards=_cards(len(view["aquarium"])))]
    if view.get("discard"):
        parts.append(
            ngettext(
                "You may discard up to {n} fish for your Gourami, or keep them all.",
                "You may discard up to {n} fish for your Gourami, or keep them all.",
                view["discard"]["left"],
            )
        )
    cards = {k["key"]: k["cards"] for k in view["by_kind"]}
    for row in aquarium_rows(view):
        if not row["count"]:
            continue
        count = str(row["count"])
        if row["key"] == "molly":
            count = _("{count} ({values})", count=count, values=join_list([str(c["value"]) for c in cards["molly"]]))
        points = row["points"]
        scored = _("scored at the end") if points is None else ngettext("{n} point", "{n} points", points)
        parts.append(_("{kind}: {count}, {scored}.", kind=row["name"], count=count, scored=scored))
    goal = view["goal"]
    met = final["detail"]["goal_met"] if final is not None else view["preview"]["goal_met"]
    if met:
        parts.append(_("Goal {name}: met.", name=goal["name"]))
    elif final is not None:
        parts.append(_("Goal {name}: not met.", name=goal["name"]))
    else:
        parts.append(_("Goal {name}: not met yet.", name=goal["name"]))
    total, _note = aquarium_total(view)
    so_far = ngettext("{n} point", "{n} points", view["preview"]["total"])
    if final is not None:
        parts.append(full_stop(total.replace(" · ", pgettext("list separator", ", "))))
    elif any(k["cards"] and view["preview"].get(k["key"]) is None for k in view["by_kind"]):
        parts.append(_("Score so far {points}, Discus not included.", points=so_far))
    else:
        parts.append(_("Score so far {points}.", points=so_far))
    if final is None:
        took = [
            _(
                "{name}: {kinds}",
                name=seat_name(names, info["seat"]),
                kinds=join_list([_taken_kind(k) for k in info["taken"]]),
            )
            for info in view["seats"]
            if info["seat"] != view["seat"] and info["taken"]
        ]
        if took:
            # TRANSLATORS: {players} lists, per other player, the fish they took where everyone saw it.
            parts.append(_("The others took in the open: {players}.", players=clauses(took)))
    return fit_alt(" ".join(parts))


def alt_text_final(view: dict[str, Any], names: Sequence[str]) -> str:
    """Describe the final scoring for screen readers."""
    final = view["final"]
    kinds = {k["key"]: k for k in final["kinds"]}
    parts = [_("10 Gallon Tank, final scores.")]
    for row in final["standings"]:
        detail = row["detail"]
        bits = [f"{kinds[k]['plural']} {detail[k]}" for k in kinds]
        bits.append(_("goal {points}", points=detail["goal"]))
        name = seat_name(names, row["seat"])
        if row["winner"]:
            name = _("{name} (winner)", name=name)
        elif detail.get("resigned"):
            name = _("{name} (resigned)", name=name)
        total = ngettext("{n} point", "{n} points", row["total"])
        parts.append(
            _("{rank}. {name}: {total}; {scores}.", rank=row["rank"], name=name, total=total, scores=join_list(bits))
        )
    if final.get("tiebreak"):
        parts.append(full_stop(final["tiebreak"]))
    return fit_alt(" ".join(parts))
