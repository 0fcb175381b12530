"""Turn every expected failure into one short ephemeral reply."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from engine.base import IllegalAction
from storage.database import StaleVersion, StorageError

log = logging.getLogger(__name__)


class UserError(Exception):
    """Raise when a player asked for something the bot cannot do; the message is shown to them."""


STALE_BOARD = "This board is out of date: use the newest board in the channel."
EXPECTED = (UserError, IllegalAction, StorageError)


def not_your_turn(names: Sequence[str], waiting: Sequence[int]) -> str:
    """Refuse a move out of turn, saying whose turn it is."""
    who = [names[s] if 0 <= s < len(names) else f"seat {s + 1}" for s in waiting]
    if not who:
        return "It is not your turn."
    if len(who) == 1:
        return f"It is not your turn: it is {who[0]}'s turn."
    return f"It is not your turn: waiting for {', '.join(who[:-1])} and {who[-1]}."


def message_for(error: BaseException) -> str:
    """Return the player-facing text for an error, or a generic apology for a bug."""
    if isinstance(error, StaleVersion):
        return STALE_BOARD
    if isinstance(error, EXPECTED):
        return str(error)
    return "Something went wrong on our side; nothing was changed. Please try again."


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer an interaction privately, whether or not it was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong; log anything that is not an expected refusal."""
    if not isinstance(error, EXPECTED):
        log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
    await reply_ephemeral(interaction, message_for(error))
