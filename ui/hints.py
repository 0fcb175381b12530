"""Suggest a move privately, from the hard computer player's search, with a reason a player understands."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from i18n import N_, _
from storage.database import ACTIVE, GameRow
from storage.server_rules import is_rated, record_hint, server_rules
from ui.errors import UserError
from ui.limits import too_soon
from ui.seeds import computer_seed

if TYPE_CHECKING:
    from ui.flow import GameFlow

UNRATES = N_(
    "This is a rated game, so with this hint you gain no rating from it, though a loss still counts (the server"
    " allows hints freely in casual games)."
)


def think(kind: str, view: dict[str, Any], seat: int, names: list[str], seed: int, budget: float) -> dict[str, Any]:
    """Run the hint search (in a worker process)."""
    from ai.hints import hint

    return hint(kind, view, seat, names, seed, budget_s=budget)


async def give_hint(flow: GameFlow, interaction: discord.Interaction, row: GameRow) -> None:
    """Reply privately with a suggested move for the caller's current decision, and record that they asked."""
    if row.status != ACTIVE:
        raise UserError(_("The game has not started yet: the host starts it with `/game start`."))
    seat = row.seat_of(interaction.user.id)
    if seat is None or row.seats[seat].is_bot:
        raise UserError(_("You are not playing in this game."))
    rules = await server_rules(flow.db, row.guild_id)
    if not rules.hints:
        raise UserError(_("This server does not allow hints: its managers turned them off in `/game settings`."))
    game, state = flow.live(row)
    if seat not in game.to_act(state):
        raise UserError(_("It is not your turn: a hint is for a decision you have to make now."))
    if wait := flow.limits.private("hint", interaction.user.id):  # each hint is a search: costly, like a picture
        raise UserError(too_soon(wait))
    unrates = not rules.rated_hints and await is_rated(flow.db, row.id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await record_hint(flow.db, row.id, seat, row.version, interaction.user.id, unrates=unrates)
    loop = asyncio.get_running_loop()
    view = game.view(state, seat)
    job = partial(think, row.kind, view, seat, row.names, computer_seed(row.seed, seat, view), flow.bots.budget)
    result = await loop.run_in_executor(flow.bots.thinkers.hints, job)
    move = result["shown"] or str(result["action"])
    # TRANSLATORS: {move} is the suggested move, {reason} why it is good (both from the computer player).
    lines = [_("**Hint:** {move}", move=move), _("Why: {reason}.", reason=result["reason"])]
    if unrates:
        lines.append(_(UNRATES))
    lines.append(_("Everyone will see on the board that you used hints."))
    await interaction.followup.send("\n".join(lines), ephemeral=True)
