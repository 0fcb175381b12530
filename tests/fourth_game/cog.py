"""Provide /nim take, the board's menu, the pictures and the private hand of the test-only fourth game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine.base import Event, Outcome
from tests.fourth_game import GAME
from tests.fourth_game.render import alt_text, hand_alt, render_board, render_hand
from tests.fourth_game.rules import NimState
from ui.adapter import Board, GameAdapter, Picture, register
from ui.components import ComponentHit, autocomplete, select
from ui.errors import UserError

if TYPE_CHECKING:
    from ui.adapter import Table
    from ui.flowbot import FlowBot

KEY = "nim"


def stones(n: int) -> str:
    """Return "1 stone" or "n stones"."""
    return "1 stone" if n == 1 else f"{n} stones"


def take_choices(state: NimState, seat: int) -> list[tuple[str, str]]:
    """Return (label, value) for every legal take, e.g. ("Pile B: take 2 stones", "B2")."""
    return [
        (f"Pile {a['pile']}: take {stones(a['stones'])}", f"{a['pile']}{a['stones']}")
        for a in GAME.legal_actions(state, seat)
    ]


class NimAdapter(GameAdapter):
    """Connect Nim to Discord."""

    key = KEY

    def board_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the piles; the file is named after the move."""
        name = "nim-final.png" if view["phase"] == "over" else f"nim-move-{view['moves'] + 1}.png"
        return Picture(render_board(view, names), name, alt_text(view, names))

    def board_items(self, board: Board) -> list[discord.ui.Item[Any]]:
        """Offer one menu of every take the player to move may make."""
        seats = board.game.to_act(board.state)
        if not seats:
            return []
        options = take_choices(board.state, seats[0])
        return [select(board.row.id, board.version, "take", "Take stones…", options, disabled=board.disabled)]

    async def on_component(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit
    ) -> None:
        """Handle the take menu."""
        if hit.token != "take" or not hit.values:
            raise UserError("That menu is not part of this game.")
        choice = hit.values[0]
        action = {"type": "take", "pile": choice[:1], "stones": choice[1:]}
        await flow.act(interaction, board.row, action, expected_version=hit.version)

    def private_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture | None:
        """Render the seat's own cards."""
        return Picture(render_hand(view, names), "nim-cards.png", hand_alt(view, names))

    def private_text(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """Say which cards the seat holds and the most stones they allow."""
        cards = " and ".join(str(c) for c in view["hand"])
        return f"Your cards: {cards} (only you can see them). You may take up to {stones(max(view['hand']))}."

    def seats_to_update_privately(self, events: Sequence[Event], state: Any) -> set[int]:
        """Return every seat when the cards are dealt, then the seat that drew a card."""
        if any(e.kind == "game_started" for e in events):
            return set(range(state.players))
        return {e.private_to for e in events if e.kind == "draw" and e.private_to is not None}

    def standings_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Return one line per seat: rank and stones taken."""
        lines = []
        for s in outcome.standings:
            trophy = "🏆 " if s.winner else ""
            gone = " (resigned)" if s.detail.get("resigned") else ""
            lines.append(f"{s.rank}. {trophy}{names[s.seat]}{gone}: {stones(s.detail['stones'])}")
        return lines


class NimCog(commands.Cog):
    """Let players take stones with a slash command."""

    nim = app_commands.Group(name="nim", description="Nim moves (test game)", guild_only=True)

    def __init__(self, bot: FlowBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    @nim.command(name="take", description="Take stones from one pile")
    @app_commands.describe(pile="A, B or C", count="How many stones")
    async def take(self, interaction: discord.Interaction, pile: str, count: int) -> None:
        """Take stones."""
        row = await self.flow.active_game(interaction, KEY)
        await self.flow.act(interaction, row, {"type": "take", "pile": pile, "stones": count})

    @take.autocomplete("pile")
    async def piles(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the piles that still hold stones."""
        mine = await self.flow.caller_seat(interaction, KEY)
        if mine is None:
            return []
        state, _ = mine
        return autocomplete([(f"{p} ({stones(n)})", p) for p, n in zip("ABC", state.piles, strict=True) if n], current)


async def setup(bot: FlowBot) -> None:
    """Register the Nim adapter and add the /nim commands."""
    register(NimAdapter())
    await bot.add_cog(NimCog(bot))
