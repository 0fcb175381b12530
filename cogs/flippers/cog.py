"""Provide the /flippers slash commands and their autocomplete, and register the adapter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.flippers.adapter import FlippersAdapter
from cogs.flippers.menus import KEY
from cogs.flippers.options import (
    activate_choices,
    can_play,
    card_choices,
    cell_choices,
    discard_options,
    discard_refs,
    facing_choices,
    hand_card,
    leader_choices,
    table_card,
)
from cogs.flippers.words import discard_note, facing_title
from engine.flippers.names import facing_code
from engine.flippers.state import LEADERS, FlippersState
from engine.flippers.table import DIRECTIONS, parse_label
from i18n import _
from storage.database import ACTIVE, GameRow
from ui.adapter import register
from ui.bursts import MOVE
from ui.components import autocomplete
from ui.errors import UserError
from ui.mentions import command

if TYPE_CHECKING:
    from ui.flowbot import FlowBot


class FlippersCog(commands.Cog):
    """Let players discard, play and activate Flippers cards with slash commands."""

    flippers = app_commands.Group(name="flippers", description="Flippers moves", guild_only=True)

    def __init__(self, bot: FlowBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    async def _mine(self, interaction: discord.Interaction) -> tuple[FlippersState, int, list[str]] | None:
        """Return the state, the caller's seat and the names of this channel's active Flippers game, or None."""
        row = await self.flow.db.open_game_in(interaction.channel_id or 0)
        if row is None or row.kind != KEY or row.status != ACTIVE:
            return None
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            return None
        try:
            _game, state = self.flow.live(row)
        except UserError:
            return None
        return state, seat, row.names

    async def _game(self, interaction: discord.Interaction) -> tuple[GameRow, FlippersState, int | None]:
        """Return this channel's active Flippers game, its state and the caller's seat, or refuse."""
        row = await self.flow.game_here(interaction)
        if row.kind != KEY:
            raise UserError(_("The game in this channel is not Flippers."))
        if row.status != ACTIVE:
            raise UserError(
                _("The game has not started yet: the host starts it with {command}.", command=command("game start"))
            )
        _game, state = self.flow.live(row)
        return row, state, row.seat_of(interaction.user.id)

    @flippers.command(
        name="leader", description="Setup: place your Leader beside a Food card, facing it", extras={MOVE: "public"}
    )
    @app_commands.describe(cell="An empty cell beside a Food card, like N14")
    async def leader(self, interaction: discord.Interaction, cell: str) -> None:
        """Place the caller's Leader; the board is posted publicly."""
        row, _state, _seat = await self._game(interaction)
        await self.flow.act(interaction, row, {"type": "leader", "cell": cell.strip()})

    @leader.autocomplete("cell")
    async def leader_cells(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the cells where the caller may place its Leader, when it is its turn to."""
        mine = await self._mine(interaction)
        if mine is None or mine[0].phase != LEADERS or mine[0].current != mine[1]:
            return []
        return _choices(leader_choices(mine[0], mine[2]), current)

    @flippers.command(
        name="discard",
        description="Setup: set aside cards from your hand (only you see the answer)",
        extras={MOVE: "private"},
    )
    @app_commands.describe(cards="The card(s) to discard; separate several with commas")
    async def discard(self, interaction: discord.Interaction, cards: str) -> None:
        """Discard privately in setup."""
        row, state, seat = await self._game(interaction)
        picked = discard_refs(state, seat, cards)
        action = {"type": "discard", "cards": picked}
        await self.flow.act(interaction, row, action, private_note=discard_note(picked))

    @flippers.command(
        name="play", description="Play a card from your hand beside a card on the table", extras={MOVE: "public"}
    )
    @app_commands.describe(
        card="A card in your hand", cell="An empty cell next to a card, like N14", facing="Where its arrow points"
    )
    async def play(self, interaction: discord.Interaction, card: str, cell: str, facing: str) -> None:
        """Play a card; the board, now showing it, is posted publicly."""
        row, state, seat = await self._game(interaction)
        action = {
            "type": "play",
            "card": hand_card(state, seat, card),
            "cell": cell.strip(),
            "facing": facing_code(facing) or facing.strip(),
            "rest": True,
        }
        await self.flow.act(interaction, row, action)

    @flippers.command(
        name="activate", description="Activate one of your face-up cards this turn", extras={MOVE: "public"}
    )
    @app_commands.describe(card="A card still to activate, by name or cell")
    async def activate(self, interaction: discord.Interaction, card: str) -> None:
        """Activate a card on the table."""
        row, state, seat = await self._game(interaction)
        await self.flow.act(interaction, row, {"type": "activate", "card": table_card(state, seat, card), "rest": True})

    @discard.autocomplete("cards")
    async def discard_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer every legal choice of discards from the caller's hand."""
        mine = await self._mine(interaction)
        return [] if mine is None else _choices(discard_options(mine[0], mine[1]), current)

    @play.autocomplete("card")
    async def play_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the caller's hand when it is to play."""
        mine = await self._mine(interaction)
        if mine is None or not can_play(mine[0], mine[1]):
            return []
        return _choices(card_choices(mine[0], mine[1]), current)

    @play.autocomplete("cell")
    async def play_cells(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the empty cells next to a card, starting with what was typed."""
        mine = await self._mine(interaction)
        if mine is None or not can_play(mine[0], mine[1]):
            return []
        typed = current.replace(" ", "").upper()
        return _choices([o for o in cell_choices(mine[0], mine[2]) if o[1].startswith(typed)], "")

    @play.autocomplete("facing")
    async def play_facings(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer N, E, S and W, saying what each would aim at once the card and cell are known."""
        mine = await self._mine(interaction)
        if mine is None or not can_play(mine[0], mine[1]):
            return []
        state, seat, names = mine
        cid = hand_card(state, seat, str(getattr(interaction.namespace, "card", "") or ""))
        cell = parse_label(str(getattr(interaction.namespace, "cell", "") or ""))
        if cid in state.hands[seat] and cell is not None and cell not in state.cells:
            options = facing_choices(state, cid, cell, names)
        else:
            options = [(facing_title(d), d) for d in DIRECTIONS]
        return _choices(options, current)

    @activate.autocomplete("card")
    async def activate_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer only the caller's cards still to activate this turn."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        return _choices(activate_choices(*mine), current)


def _choices(options: Sequence[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Return up to 25 autocomplete choices whose label or value contains what was typed."""
    return autocomplete(options, current)


async def setup(bot: FlowBot) -> None:
    """Register the Flippers adapter and add the /flippers commands."""
    register(FlippersAdapter())
    await bot.add_cog(FlippersCog(bot))
