"""Provide /fish place and /fish move, the board's selects and pictures for Hey, That's My Fish!"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine.fish import GAME
from render.fish import alt_text, render_board
from ui.adapter import Board, GameAdapter, Picture, register
from ui.components import ComponentHit, autocomplete, chunked_selects, select, view_of
from ui.errors import UserError, not_your_turn

if TYPE_CHECKING:
    from bot import IceFloeBot
    from ui.adapter import Table

KEY = "fish"


def _fish_on(board: Board) -> dict[str, int]:
    """Return the fish count of every tile label."""
    return {t["label"]: t["fish"] for t in board.game.view(board.state, None)["tiles"]}


def _plural(n: int) -> str:
    return f"{n} fish"


class FishAdapter(GameAdapter):
    """Connect Hey, That's My Fish! to Discord."""

    key = KEY

    def board_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the hex board."""
        return Picture(render_board(view, names), f"fish-turn-{view['turn']}.png", alt_text(view, names))

    def board_items(self, board: Board) -> list[discord.ui.Item[Any]]:
        """Offer placement selects, or a pick-a-penguin select during play."""
        seats = board.game.to_act(board.state)
        if not seats:
            return []
        seat, gid, ver = seats[0], board.row.id, board.version
        actions = board.game.legal_actions(board.state, seat)
        fish = _fish_on(board)
        if actions and actions[0]["type"] == "place":
            options = [(a["tile"], a["tile"]) for a in actions]
            return list(chunked_selects(gid, ver, "place", "Place a penguin on…", options, disabled=board.disabled))
        starts = sorted({a["from"] for a in actions})
        if not starts:
            return []
        counts = {s: sum(1 for a in actions if a["from"] == s) for s in starts}
        options = [(f"{s} ({_plural(fish[s])})", s, f"{counts[s]} possible moves") for s in starts]
        return [select(gid, ver, "from", "Move a penguin: pick it first…", options, disabled=board.disabled)]

    async def on_component(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit
    ) -> None:
        """Handle the placement, pick-a-penguin and destination selects."""
        if not hit.values:
            raise UserError("Pick an option from the menu.")
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
            raise UserError("That menu is not part of this game.")

    async def _offer_destinations(self, interaction: discord.Interaction, board: Board, start: str) -> None:
        """Reply privately with the tiles the chosen penguin can reach."""
        seat = board.row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        if seat not in board.game.to_act(board.state):
            raise UserError(not_your_turn(board.names, board.game.to_act(board.state)))
        fish = _fish_on(board)
        targets = [a["to"] for a in board.game.legal_actions(board.state, seat) if a["from"] == start]
        if not targets:
            raise UserError(f"The penguin on {start} cannot move.")
        options = [(f"{t} ({_plural(fish[t])})", t) for t in targets]
        menus = chunked_selects(board.row.id, board.version, f"to:{start}", f"Move {start} to…", options)
        await interaction.response.send_message(
            f"Where should the penguin on {start} go?", view=view_of(menus), ephemeral=True
        )


class FishCog(commands.Cog):
    """Let players place and move penguins with slash commands."""

    fish = app_commands.Group(name="fish", description="Hey, That's My Fish! moves", guild_only=True)

    def __init__(self, bot: IceFloeBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    async def _my_options(self, interaction: discord.Interaction) -> list[dict[str, Any]]:
        """Return the caller's legal actions in this channel's fish game (empty when none)."""
        mine = await self.flow.caller_seat(interaction, KEY)
        return [] if mine is None else GAME.legal_actions(*mine)

    @fish.command(name="place", description="Place a penguin on a free 1-fish tile")
    @app_commands.describe(tile="A tile label such as C4")
    async def place(self, interaction: discord.Interaction, tile: str) -> None:
        """Place one penguin."""
        await self.flow.act(interaction, await self.flow.active_game(interaction, KEY), {"type": "place", "tile": tile})

    @fish.command(name="move", description="Slide a penguin in a straight line and take the tile it leaves")
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
        tiles = [a["tile"] for a in await self._my_options(interaction) if a["type"] == "place"]
        return _choices(tiles, current)

    @move.autocomplete("start")
    async def move_starts(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the caller's penguins that can move."""
        starts = sorted({a["from"] for a in await self._my_options(interaction) if a["type"] == "move"})
        return _choices(starts, current)

    @move.autocomplete("end")
    async def move_ends(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the tiles the chosen penguin can reach."""
        start = str(getattr(interaction.namespace, "from", "") or "").strip().upper()
        ends = [a["to"] for a in await self._my_options(interaction) if a["type"] == "move" and a["from"] == start]
        return _choices(ends, current)


def _choices(values: Sequence[str], current: str) -> list[app_commands.Choice[str]]:
    """Return autocomplete choices for tile labels."""
    return autocomplete([(v, v) for v in values], current)


async def setup(bot: IceFloeBot) -> None:
    """Register the fish adapter and add the /fish commands."""
    register(FishAdapter())
    await bot.add_cog(FishCog(bot))
