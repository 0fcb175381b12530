"""Suggest a move privately, from the hard computer player's search, with a reason a player understands."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import discord

from ai.clock import now
from i18n import N_, _, current
from storage.database import ACTIVE, GameRow
from storage.server_rules import hinted_seats, is_rated, record_hint, server_rules
from ui.components import button, view_of
from ui.errors import UserError
from ui.limits import too_soon
from ui.mentions import command
from ui.seeds import computer_seed

if TYPE_CHECKING:
    from engine.base import Game
    from storage.database import Database
    from ui.bots import BotPlayers
    from ui.limits import Limits


class HintTable(Protocol):
    """What a hint needs of the game flow: the database, the live game, the limits and the thinkers."""

    db: Database
    limits: Limits
    bots: BotPlayers

    def live(self, row: GameRow) -> tuple[Game, Any]:
        """Return a saved game's engine and live state."""
        ...


UNRATES = N_(
    "This is a rated game: if you take a hint, you gain no rating from it, though a loss still counts (the server"
    " allows hints freely in casual games). Your opponents' ratings are not affected."
)
HINT_PATIENCE = 10.0
"""Seconds from the ask after which a hint stops thinking on a machine too busy to give it the hard player's budget."""
HINT_TOKEN = "hint"
"""The token of the private button that confirms a hint in a rated game."""


def think(
    kind: str,
    view: dict[str, Any],
    seat: int,
    names: list[str],
    seed: int,
    budget: float,
    language: str,
    deadline: float | None = None,
) -> dict[str, Any]:
    """Run the hint search (in a worker, which does not inherit the caller's language: `language` words it).

    It thinks as the hard computer player does, for `budget` seconds of the game's virtual clock, so with the
    computer's seed its suggestion is the hard player's move in that seat; `deadline` stops it on a busy machine.
    """
    from ai.hints import hint

    return hint(kind, view, seat, names, seed, budget_s=budget, virtual=True, deadline=deadline, language=language)


async def give_hint(
    flow: HintTable, interaction: discord.Interaction, row: GameRow, *, confirmed: bool = False
) -> None:
    """Reply privately with a suggested move for the caller's current decision, and record that they asked.

    In a rated game whose server does not allow hints freely, the first hint of a seat is asked first: a private
    button confirms it (`confirmed`), and only then is the hint recorded. The answer says at once that it thinks.
    """
    if row.status != ACTIVE:
        raise UserError(
            _("The game has not started yet: the host starts it with {command}.", command=command("game start"))
        )
    seat = row.seat_of(interaction.user.id)
    if seat is None or row.seats[seat].is_bot:
        raise UserError(_("You are not playing in this game."))
    rules = await server_rules(flow.db, row.guild_id)
    if not rules.hints:
        raise UserError(
            _(
                "This server does not allow hints: its managers turned them off in {command}.",
                command=command("game settings"),
            )
        )
    game, state = flow.live(row)
    if seat not in game.to_act(state):
        raise UserError(_("It is not your turn: a hint is for a decision you have to make now."))
    unrates = not rules.rated_hints and await is_rated(flow.db, row.id)
    if unrates and not confirmed and not (await hinted_seats(flow.db, row.id)).get(seat):
        confirm = button(row.id, row.version, HINT_TOKEN, _("Show the hint"), style=discord.ButtonStyle.primary)
        await interaction.response.send_message(_(UNRATES), view=view_of([confirm]), ephemeral=True)
        return
    if wait := flow.limits.private("hint", interaction.user.id):  # each hint is a search: costly, like a picture
        raise UserError(too_soon(wait))
    thinking = _("Thinking about your move…")
    if confirmed:
        await interaction.response.edit_message(content=thinking, view=None)
    else:
        await interaction.response.send_message(thinking, ephemeral=True)
    await record_hint(flow.db, row.id, seat, row.version, interaction.user.id, unrates=unrates)
    loop = asyncio.get_running_loop()
    view = game.view(state, seat)
    seed = computer_seed(row.seed, seat, view)
    job = partial(think, row.kind, view, seat, row.names, seed, flow.bots.budget, current(), now() + HINT_PATIENCE)
    result = await loop.run_in_executor(flow.bots.thinkers.hints, job)
    move = result["shown"] or str(result["action"])
    # TRANSLATORS: {move} is advice ("Move your penguin from E4 to B3"), {reason} why it is good.
    lines = [_("**Hint:** {move}: {reason}.", move=move, reason=result["reason"])]
    lines.append(_("Everyone will see on the board that you used hints."))
    await interaction.edit_original_response(content="\n".join(lines))
