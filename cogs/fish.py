"""Provide /fish place and /fish move, the board's selects and pictures for Hey, That's My Fish!"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine.base import Outcome
from engine.fish import GAME
from engine.fish.board import DIRECTIONS
from engine.fish.game import INDEX, LABELS, PLACEMENT, RAYS, FishState
from i18n import _, ngettext, pgettext
from render.fish import alt_text, render_board
from ui.adapter import Board, GameAdapter, Picture, register
from ui.bursts import MOVE
from ui.components import ComponentHit, autocomplete, chunked_selects, select, view_of
from ui.errors import UserError, not_your_turn
from ui.reply_menus import menu_sent

if TYPE_CHECKING:
    from ui.adapter import Table
    from ui.flowbot import FlowBot

KEY = "fish"
ARROWS = {"E": "→", "W": "←", "NE": "↗", "NW": "↖", "SE": "↘", "SW": "↙"}
"""The arrow of each of the six slide directions, in the order the engine lists them (row A is north)."""


def heading(direction: str) -> tuple[str, str]:
    """Return the arrow and the name, in the current language, of a slide direction ("E" -> ("→", "east"))."""
    names = {
        "E": pgettext("slide direction", "east"),
        "W": pgettext("slide direction", "west"),
        "NE": pgettext("slide direction", "north-east"),
        "NW": pgettext("slide direction", "north-west"),
        "SE": pgettext("slide direction", "south-east"),
        "SW": pgettext("slide direction", "south-west"),
    }
    return ARROWS[direction], names[direction]


def _fish(n: int) -> str:
    """Return "1 fish", "2 fish"."""
    return ngettext("{n} fish", "{n} fish", n)


def _tiles(n: int) -> str:
    """Return "1 tile" or "n tiles"."""
    return ngettext("{n} tile", "{n} tiles", n)


def slides(state: FishState, seat: int, start: str) -> list[tuple[str, list[str]]]:
    """Return the directions the penguin on `start` can slide in, each with its reachable tiles, nearest first."""
    cell = INDEX.get(start)
    if cell is None:
        return []
    reachable = {dst for src, dst in GAME.moves(state, seat) if src == cell}
    groups = []
    for direction, ray in zip(DIRECTIONS, RAYS[cell], strict=True):
        ends = [LABELS[c] for c in ray if c in reachable]
        if ends:
            groups.append((direction, ends))
    return groups


def destination_lines(state: FishState, groups: list[tuple[str, list[str]]]) -> list[str]:
    """Return one line per direction, e.g. "→ east: D5 (2), D6 (1)", giving each tile's fish."""
    lines = []
    for direction, ends in groups:
        arrow, name = heading(direction)
        tiles = ", ".join(f"{label} ({state.tiles[INDEX[label]]})" for label in ends)
        lines.append(f"{arrow} {name}: {tiles}")
    return lines


def destination_options(state: FishState, groups: list[tuple[str, list[str]]]) -> list[tuple[str, str, str]]:
    """Return select options grouped by direction: "→ east: D5 · 2 fish", described by the distance."""
    options = []
    for direction, ends in groups:
        arrow, name = heading(direction)
        for steps, label in enumerate(ends, start=1):
            fish = state.tiles[INDEX[label]]
            # TRANSLATORS: how far a destination is, e.g. "2 tiles east" (the direction is a slide direction).
            away = ngettext("{n} tile {direction}", "{n} tiles {direction}", steps, direction=name)
            options.append((f"{arrow} {name}: {label} · {_fish(fish)}", label, away))
    return options


def place_choices(state: FishState, seat: int) -> list[tuple[str, str]]:
    """Return (label, value) pairs for the free 1-fish tiles, e.g. ("C4 · 1 fish", "C4")."""
    if state.phase != PLACEMENT:
        return []
    tiles = [a["tile"] for a in GAME.legal_actions(state, seat)]
    fish = {n: _fish(n) for n in {state.tiles[INDEX[tile]] for tile in tiles}}
    return [(f"{tile} · {fish[state.tiles[INDEX[tile]]]}", tile) for tile in tiles]


def start_choices(state: FishState, seat: int) -> list[tuple[str, str, str]]:
    """Return (label, value, description) for each penguin that can move: its tile's fish and its moves."""
    counts: dict[int, int] = {}
    for src, _dst in GAME.moves(state, seat):
        counts[src] = counts.get(src, 0) + 1
    return [
        (
            f"{LABELS[src]} · {_fish(state.tiles[src])}",
            LABELS[src],
            ngettext("{n} possible move", "{n} possible moves", n),
        )
        for src, n in counts.items()
    ]


def from_choices(state: FishState, seat: int) -> list[tuple[str, str]]:
    """Return (label, tile) for each penguin that can move, e.g. ("C4 · 1 fish (3 possible moves)", "C4")."""
    return [(f"{label} ({desc})", value) for label, value, desc in start_choices(state, seat)]


class FishAdapter(GameAdapter):
    """Connect Hey, That's My Fish! to Discord."""

    key = KEY

    def board_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the hex board; the file is named after the turn, counted from the first move."""
        if view["phase"] == "over":
            name = "fish-final.png"
        elif view["phase"] == "placement":
            name = f"fish-placement-{view['turn'] + 1}.png"
        else:
            name = f"fish-turn-{view['move'] + 1}.png"
        return Picture(render_board(view, names), name, alt_text(view, names))

    def board_items(self, board: Board) -> list[discord.ui.Item[Any]]:
        """Offer placement selects, or a pick-a-penguin select during play."""
        seats = board.game.to_act(board.state)
        if not seats:
            return []
        seat, gid, ver = seats[0], board.row.id, board.version
        state: FishState = board.state
        if state.phase == PLACEMENT:
            options = place_choices(state, seat)
            placeholder = _("Place a penguin on…")
            return list(chunked_selects(gid, ver, "place", placeholder, options, disabled=board.disabled))
        starts = start_choices(state, seat)
        if not starts:
            return []
        placeholder = _("Move a penguin: pick it first…")
        return [select(gid, ver, "from", placeholder, starts, disabled=board.disabled)]

    def standings_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Return one line per seat: rank, fish and tiles (tiles break a tie on fish)."""
        lines = []
        for s in outcome.standings:
            values = {
                "rank": s.rank,
                "trophy": "🏆 " if s.winner else "",
                "name": names[s.seat],
                "fish": _fish(s.detail["fish"]),
                "tiles": _tiles(s.detail["tiles"]),
            }
            if s.detail.get("resigned"):
                # TRANSLATORS: a final standings line, e.g. "2. Bo (resigned): 12 fish, 9 tiles".
                lines.append(_("{rank}. {trophy}{name} (resigned): {fish}, {tiles}", **values))
            else:
                # TRANSLATORS: a final standings line, e.g. "1. 🏆 Ana: 30 fish, 12 tiles" (the trophy marks a winner).
                lines.append(_("{rank}. {trophy}{name}: {fish}, {tiles}", **values))
        return lines

    async def on_component(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit
    ) -> None:
        """Handle the placement, pick-a-penguin and destination selects."""
        if not hit.values:
            raise UserError(_("Pick an option from the menu."))
        choice = hit.values[0]
        if hit.token.startswith("place#"):
            await flow.act(interaction, board.row, {"type": "place", "tile": choice}, expected_version=hit.version)
        elif hit.token == "from":
            await self._offer_destinations(interaction, board, choice)
        elif hit.token.startswith("to:"):
            start = hit.token.split(":", 1)[1].split("#", 1)[0]
            action = {"type": "move", "from": start, "to": choice}
            await flow.act(interaction, board.row, action, expected_version=hit.version)
        else:
            raise UserError(_("That menu is not part of this game."))

    async def _offer_destinations(self, interaction: discord.Interaction, board: Board, start: str) -> None:
        """Reply privately with the tiles the chosen penguin can reach, grouped by direction with their fish."""
        seat = board.row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(_("You are not playing in this game."))
        if seat not in board.game.to_act(board.state):
            raise UserError(not_your_turn(board.names, board.game.to_act(board.state)))
        groups = slides(board.state, seat, start)
        if not groups:
            raise UserError(_("The penguin on {tile} cannot move.", tile=start))
        options = destination_options(board.state, groups)
        menus = chunked_selects(board.row.id, board.version, f"to:{start}", _("Move {tile} to…", tile=start), options)
        question = _("Where should the penguin on {tile} go? Tiles with their fish:", tile=start)
        text = "\n".join([question, *destination_lines(board.state, groups)])
        view = view_of(menus)
        answer = await interaction.response.send_message(text, view=view, ephemeral=True)
        await menu_sent(interaction, view, answer.message_id)


class FishCog(commands.Cog):
    """Let players place and move penguins with slash commands."""

    fish = app_commands.Group(name="fish", description="Hey, That's My Fish! moves", guild_only=True)

    def __init__(self, bot: FlowBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    async def _mine(self, interaction: discord.Interaction) -> tuple[FishState, int] | None:
        """Return the live state and the caller's seat in this channel's fish game, or None."""
        return await self.flow.caller_seat(interaction, KEY)

    @fish.command(name="place", description="Place a penguin on a free 1-fish tile", extras={MOVE: "public"})
    @app_commands.describe(tile="A tile label such as C4")
    async def place(self, interaction: discord.Interaction, tile: str) -> None:
        """Place one penguin."""
        await self.flow.act(interaction, await self.flow.active_game(interaction, KEY), {"type": "place", "tile": tile})

    @fish.command(
        name="move",
        description="Slide a penguin in a straight line and take the tile it leaves",
        extras={MOVE: "public"},
    )
    @app_commands.describe(start="The tile your penguin is on", end="Where it should go")
    @app_commands.rename(start="from", end="to")
    async def move(self, interaction: discord.Interaction, start: str, end: str) -> None:
        """Move one penguin."""
        await self.flow.act(
            interaction, await self.flow.active_game(interaction, KEY), {"type": "move", "from": start, "to": end}
        )

    @place.autocomplete("tile")
    async def place_tiles(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the free 1-fish tiles."""
        mine = await self._mine(interaction)
        return [] if mine is None else autocomplete(place_choices(*mine), current)

    @move.autocomplete("start")
    async def move_starts(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the caller's penguins that can move, with the fish under each."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        return autocomplete(from_choices(*mine), current)

    @move.autocomplete("end")
    async def move_ends(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the tiles the chosen penguin can reach, by direction and with their fish."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        start = str(getattr(interaction.namespace, "from", "") or "").strip().upper()
        options = destination_options(mine[0], slides(*mine, start))
        return autocomplete([(label, value) for label, value, _why in options], current)


async def setup(bot: FlowBot) -> None:
    """Register the fish adapter and add the /fish commands."""
    register(FishAdapter())
    await bot.add_cog(FishCog(bot))
