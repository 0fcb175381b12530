"""Connect 10 Gallon Tank to Discord: the board's pictures and menus, the private aquarium and the standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs.tank.options import _noted, discard_choices
from cogs.tank.words import IN_PLACE_KINDS, KEEP, KEY, SCORING, _goal_and_score, _split_hint, _take_hint, scoring_text
from engine.base import Action, Event, Outcome
from engine.tank.cards import kinds_in_play
from engine.tank.grid import label
from engine.tank.names import kind_name
from engine.words import join_list
from i18n import _, ngettext
from render.tank import (
    alt_text_aquarium,
    alt_text_final,
    alt_text_table,
    aquarium_rows,
    render_aquarium,
    render_final,
    render_table,
)
from ui.adapter import Board, GameAdapter, Picture
from ui.components import ComponentHit, button, chunked_selects, select
from ui.errors import UserError
from ui.mentions import command

if TYPE_CHECKING:
    from ui.adapter import Table


class TankAdapter(GameAdapter):
    """Connect 10 Gallon Tank to Discord."""

    key = KEY

    def board_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the public table, or the final scores once the game is over."""
        if view["over"]:
            return Picture(render_final(view, names), "tank-final.png", alt_text_final(view, names))
        return Picture(render_table(view, names), f"tank-round-{view['round']}.png", alt_text_table(view, names))

    def board_items(self, board: Board) -> list[discord.ui.Item[Any]]:
        """Offer the legal splits or the groups to take, and a private "How scoring works" answer."""
        seats = board.game.to_act(board.state)
        if not seats:
            return []
        actions = board.game.legal_actions(board.state, seats[0])
        gid, ver, off = board.row.id, board.version, board.disabled
        view = board.game.view(board.state, None)
        groups = {g["letter"]: g for g in view["groups"]}
        scoring = button(gid, ver, SCORING, _("How scoring works"), emoji="❔", disabled=off)
        splits = [a for a in actions if a["type"] == "split"]
        if splits:
            options = [
                (
                    _("Split group {group} along {line}", group=label(g), line=line),
                    f"{label(g)}:{line}",
                    _split_hint(groups[g], line),
                )
                for g, line in ((a["group"], a["line"]) for a in splits)
            ]
            return [*chunked_selects(gid, ver, "split", _("Split a group…"), options, disabled=off), scoring]
        takes = [a["group"] for a in actions if a["type"] == "take"]
        if takes:
            options = [(_("Take group {group}", group=label(g)), label(g), _take_hint(view, groups[g])) for g in takes]
            return [select(gid, ver, "take", _("Take a group…"), options, disabled=off), scoring]
        return [scoring]

    def accepts_stale(self, hit: ComponentHit) -> bool:
        """Return True for "How scoring works": its answer is the same on every board of the game."""
        return hit.token == SCORING

    def turn_start(self, logged: Sequence[Event], fresh: int) -> int:
        """Return where the turn begins: at the take whose Gouramis the newest choices answer."""
        return next((i for i in range(fresh - 1, -1, -1) if logged[i].kind == "take"), 0)

    turn_closers = frozenset({"leftover", "round_start", "game_over"})
    picture_after_turn_in_place = True  # the next player's board opens a new turn with its own split or take

    def turn_in_place(self, events: Sequence[Event]) -> bool:
        """Return True for a Gourami discard or keep: it edits the board its take posted."""
        kinds = {e.kind for e in events}
        return bool(kinds & IN_PLACE_KINDS) and "resign" not in kinds

    async def on_component(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit
    ) -> None:
        """Handle the split and take selects of the board and the private Gourami select."""
        token = hit.token.split("#", 1)[0]
        if token == SCORING:
            await interaction.response.send_message(scoring_text(board.game.view(board.state, None)), ephemeral=True)
            return
        if not hit.values:
            raise UserError(_("Pick an option from the menu."))
        choice = hit.values[0]
        if token == "split":
            group, _colon, line = choice.partition(":")
            action: Action = {"type": "split", "group": group, "line": line}
            await flow.act(interaction, board.row, action, expected_version=hit.version)
        elif token == "take":
            await flow.act(interaction, board.row, {"type": "take", "group": choice}, expected_version=hit.version)
        elif token == "discard":
            action = {"type": "keep"} if choice == KEEP else {"type": "discard", "card": choice}
            await flow.act(interaction, board.row, action, expected_version=hit.version, private_note=_noted(action))
        else:
            raise UserError(_("That menu is not part of this game."))

    def private_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture | None:
        """Render the seat's own aquarium with its score preview."""
        return Picture(render_aquarium(view, names), "tank-aquarium.png", alt_text_aquarium(view, names))

    def private_text(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """List the seat's cards by fish type with points (so far, or final), and the Gourami choice when it is due."""
        final = next((r for r in (view.get("final") or {}).get("standings", []) if r["seat"] == view["seat"]), None)
        lines = [
            ngettext(
                "**Your aquarium** ({n} card, only you can see it)",
                "**Your aquarium** ({n} cards, only you can see it)",
                len(view["aquarium"]),
            )
        ]
        values = {k["key"]: [str(c["value"]) for c in k["cards"]] for k in view["by_kind"]}
        for row in aquarium_rows(view):
            if not row["count"]:
                continue
            label = f"{row['name']} ×{row['count']}"
            if row["key"] == "molly":
                # TRANSLATORS: the Mollies of an aquarium with their printed values, e.g. "Mollies ×2 (1, 5)".
                label = _("{cards} ({values})", cards=label, values=join_list(values["molly"]))
            points = row["points"]
            if points is None:
                # TRANSLATORS: a kind scored only at the end, e.g. "- Molly ×2 (1, 4): scored at the end".
                lines.append(_("- {cards}: scored at the end", cards=label))
            else:
                lines.append(ngettext("- {cards}: {n} point", "- {cards}: {n} points", points, cards=label))
        if not view["aquarium"]:
            lines.append(_("- no fish yet"))
        lines += _goal_and_score(view, final)
        if view["my_discards"]:
            lines.append(_("You discarded: {cards}", cards=join_list([c["name"] for c in view["my_discards"]])))
        if view["discard"]:
            lines.append(
                ngettext(
                    "🐠 **Gourami:** you may discard up to {n} fish card you hold (not a Gourami you just took), "
                    "or keep them all. Pick below or use {command}; your choice stays private.",
                    "🐠 **Gourami:** you may discard up to {n} fish cards you hold (not a Gourami you just took), "
                    "or keep them all. Pick below or use {command}; your choice stays private.",
                    view["discard"]["left"],
                    command=command("tank discard"),
                )
            )
        return "\n".join(lines)

    def private_items(self, board: Board, seat: int) -> list[discord.ui.Item[Any]]:
        """Offer the Gourami discard choice to the seat whose step it is."""
        choices = discard_choices(board.state, seat)
        if not choices:
            return []
        assert board.state.pending is not None
        left = board.state.pending.left
        options: list[tuple[str, str, str]] = [(_("Keep all my fish"), KEEP, _("Discard nothing"))]
        options += [
            (_("Discard one {fish}", fish=name), card, ngettext("You hold {n}", "You hold {n}", held))
            for name, card, held in choices
        ]
        placeholder = ngettext(
            "Gourami: discard a fish ({n} left), or keep all…", "Gourami: discard a fish ({n} left), or keep all…", left
        )
        return [select(board.row.id, board.version, "discard", placeholder, options, disabled=board.disabled)]

    def seats_to_update_privately(self, events: Sequence[Event], state: Any) -> set[int]:
        """Return the seats whose aquarium DM is out of date: the one that moved, or everyone at the end.

        At the end every player gets their final aquarium, with the final score and its breakdown.
        """
        if any(e.kind == "game_over" for e in events):
            return set(range(state.players))
        changed = {e.private_to for e in events if e.kind in {"took", "discarded"} and e.private_to is not None}
        return changed | {e.seat for e in events if e.kind == "keep" and e.seat is not None}

    def standings_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Return one line per seat: rank, total, then points per fish type, chest and goal."""
        kinds = [*kinds_in_play(len(outcome.standings)), "chest"]
        lines = []
        for s in outcome.standings:
            detail = s.detail
            parts = [f"{kind_name(k, 2)} {detail.get(k) or 0}" for k in kinds]
            # TRANSLATORS: the goal's points in a standings line, after the points of each fish type.
            parts.append(_("goal {points}", points=detail.get("goal", 0)))
            values = {
                "rank": s.rank,
                "trophy": "🏆 " if s.winner else "",
                "name": names[s.seat],
                "details": join_list(parts),
            }
            if detail.get("resigned"):
                lines.append(
                    ngettext(
                        "{rank}. {trophy}{name} (resigned): {n} point · {details}",
                        "{rank}. {trophy}{name} (resigned): {n} points · {details}",
                        s.score,
                        **values,
                    )
                )
            else:
                # TRANSLATORS: a final standings line, e.g. "1. 🏆 Ana: 41 points · Guppies 6, …, goal 5".
                lines.append(
                    ngettext(
                        "{rank}. {trophy}{name}: {n} point · {details}",
                        "{rank}. {trophy}{name}: {n} points · {details}",
                        s.score,
                        **values,
                    )
                )
        return lines
