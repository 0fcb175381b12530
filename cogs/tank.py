"""Provide /tank split, take and discard, the board's selects and the private aquarium for 10 Gallon Tank."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine.base import Action, Event, Outcome
from engine.tank import GAME
from engine.tank.cards import kinds_in_play
from engine.tank.grid import from_label, label
from engine.tank.names import card_name, kind_name
from engine.tank.state import TankState
from engine.words import join_list, quote
from i18n import _, ngettext, pgettext
from render.tank import (
    alt_text_aquarium,
    alt_text_final,
    alt_text_table,
    aquarium_rows,
    render_aquarium,
    render_final,
    render_table,
    scoring_lines,
)
from storage.database import GameRow
from ui.adapter import Board, GameAdapter, Picture, register
from ui.bursts import MOVE
from ui.components import ComponentHit, autocomplete, button, chunked_selects, select
from ui.errors import UserError
from ui.text import LABEL

if TYPE_CHECKING:
    from bot import IceFloeBot
    from ui.adapter import Table

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


def discard_choices(state: TankState, seat: int) -> list[tuple[str, str, int]]:
    """Return (display name, card id, how many held) per distinct card `seat` may discard now, or [] if none."""
    pending = state.pending
    if state.phase != "discard" or pending is None or pending.seat != seat:
        return []
    options = GAME.discard_options(state, seat)
    held = Counter(card_name(c) for c in options)
    seen: dict[str, str] = {}
    for card in options:
        seen.setdefault(card_name(card), card)
    return [(name, card, held[name]) for name, card in seen.items()]


def discard_action(state: TankState, seat: int, text: str) -> Action:
    """Turn what a player typed or picked for /tank discard into a discard or keep action."""
    typed = text.strip()
    if typed.lower() in KEEP_WORDS or typed.lower() == _("Keep all my fish").lower():
        return {"type": "keep"}
    choices = discard_choices(state, seat)
    if not choices:
        return {"type": "discard", "card": typed}
    held = {card.lower(): card for card in GAME.discard_options(state, seat)}  # every copy, by its own id
    if typed.lower() in held:
        return {"type": "discard", "card": held[typed.lower()]}
    wanted = typed.lower().split(" (")[0]
    for name, card, _held in choices:
        if name.lower() == wanted:
            return {"type": "discard", "card": card}
    raise UserError(
        _(
            "You hold no fish called {typed} that you may discard: pick one from the list, or keep all.",
            typed=quote(typed),
        )
    )


def _noted(action: Action) -> str:
    """Return the private note confirming a discard choice."""
    if action.get("type") == "keep":
        return _("You kept all your fish. `/game hand` shows your aquarium at any time.")
    return _("Discarded. `/game hand` shows your updated aquarium at any time.")


def split_groups(state: TankState, seat: int) -> list[tuple[str, str]]:
    """Return (label, number) for each group `seat` may split now, numbered as the picture shows them."""
    letters = sorted({a["group"] for a in GAME.legal_actions(state, seat) if a["type"] == "split"})
    groups = {g["letter"]: g for g in GAME.view(state, None)["groups"]}
    return [(_group_label(g, groups[g]), label(g)) for g in letters]


def _group_label(letter: str, group: dict[str, Any]) -> str:
    """Return a group's number with its shape and size, e.g. "2 (2×4, 8 cards)"."""
    shape = _group_shape(group)
    return ngettext(
        "{group} ({shape}, {n} card)", "{group} ({shape}, {n} cards)", group["size"], group=label(letter), shape=shape
    )


def split_lines(state: TankState, seat: int, group: str) -> list[tuple[str, str]]:
    """Return (label, line) for each line `seat` may cut `group` (its number, or letter) along now."""
    view = GAME.view(state, None)
    info = next((g for g in view["groups"] if g["letter"] == from_label(group)), None)
    if info is None:
        return []
    lines = [
        a["line"] for a in GAME.legal_actions(state, seat) if a["type"] == "split" and a["group"] == info["letter"]
    ]
    return [(f"{line} ({_split_hint(info, line)})", line) for line in lines]


def take_groups(state: TankState, seat: int) -> list[tuple[str, str]]:
    """Return (label, number) for each group `seat` may take now, numbered as the picture shows them."""
    view = GAME.view(state, None)
    groups = {g["letter"]: g for g in view["groups"]}
    takes = [a["group"] for a in GAME.legal_actions(state, seat) if a["type"] == "take"]
    return [(f"{label(g)} ({_take_hint(view, groups[g])})", label(g)) for g in takes]


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
    lines.append(_("The whole rules, with the rulings this bot applies: `/game rules game:tank`."))
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
                    "or keep them all. Pick below or use `/tank discard`; your choice stays private.",
                    "🐠 **Gourami:** you may discard up to {n} fish cards you hold (not a Gourami you just took), "
                    "or keep them all. Pick below or use `/tank discard`; your choice stays private.",
                    view["discard"]["left"],
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


class TankCog(commands.Cog):
    """Let players split and take groups and make Gourami discards with slash commands."""

    tank = app_commands.Group(name="tank", description="10 Gallon Tank moves", guild_only=True)

    def __init__(self, bot: IceFloeBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    async def _mine(self, interaction: discord.Interaction) -> tuple[TankState, int] | None:
        """Return the state and the caller's seat of this channel's active tank game, or None."""
        return await self.flow.caller_seat(interaction, KEY)

    async def _game(self, interaction: discord.Interaction) -> GameRow:
        """Return this channel's active tank game, or refuse."""
        return await self.flow.active_game(interaction, KEY)

    @tank.command(
        name="split", description="Cut one group in two along a full row or column line", extras={MOVE: "public"}
    )
    @app_commands.describe(
        group="The group's number on the picture, e.g. 2", line="h1, h2… run between rows, v1, v2… between columns"
    )
    async def split(self, interaction: discord.Interaction, group: str, line: str) -> None:
        """Split a group."""
        action = {"type": "split", "group": group.strip().upper(), "line": line.strip().lower()}
        await self.flow.act(interaction, await self._game(interaction), action)

    @tank.command(name="take", description="Take one group into your hidden aquarium", extras={MOVE: "public"})
    @app_commands.describe(group="The group's number on the picture, e.g. 3")
    async def take(self, interaction: discord.Interaction, group: str) -> None:
        """Take a group."""
        await self.flow.act(
            interaction, await self._game(interaction), {"type": "take", "group": group.strip().upper()}
        )

    @tank.command(
        name="discard",
        description="Gourami: discard one fish you hold, or keep all (stays private)",
        extras={MOVE: "private"},
    )
    @app_commands.describe(card="A fish you hold, or keep all")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        """Discard a fish for a Gourami, or keep them all, privately."""
        row = await self._game(interaction)
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        _game, state = self.flow.live(row)
        action = discard_action(state, seat, card)
        await self.flow.act(interaction, row, action, private_note=_noted(action))

    @split.autocomplete("group")
    async def split_group_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the groups the caller can split."""
        mine = await self._mine(interaction)
        return [] if mine is None else _choices(split_groups(*mine), current)

    @split.autocomplete("line")
    async def split_line_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the lines that cut the chosen group (or the only splittable group)."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        group = str(getattr(interaction.namespace, "group", "") or "").strip().upper()
        if not group:
            groups = split_groups(*mine)
            group = groups[0][1] if len(groups) == 1 else ""
        return _choices(split_lines(*mine, group), current)

    @take.autocomplete("group")
    async def take_group_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the groups the caller can take, with their cards."""
        mine = await self._mine(interaction)
        return [] if mine is None else _choices(take_groups(*mine), current)

    @discard.autocomplete("card")
    async def discard_card_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the fish the caller may discard, by name, and keep all."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        fish = [
            (ngettext("{fish} (you hold {n})", "{fish} (you hold {n})", held, fish=name), card)
            for name, card, held in discard_choices(*mine)
        ]
        return _choices([(_("Keep all my fish"), KEEP), *fish], current) if fish else []


def _choices(options: Sequence[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Return up to 25 autocomplete choices whose label or value contains what was typed."""
    return autocomplete(options, current)


async def setup(bot: IceFloeBot) -> None:
    """Register the tank adapter and add the /tank commands."""
    register(TankAdapter())
    await bot.add_cog(TankCog(bot))
