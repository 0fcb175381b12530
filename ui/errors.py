"""Turn every expected failure into one short ephemeral reply."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from engine.base import IllegalAction
from engine.words import join_names
from i18n import N_, _
from storage.database import StaleVersion, StorageError

log = logging.getLogger(__name__)


class UserError(Exception):
    """Raise when a player asked for something the bot cannot do; the message is shown to them."""


class MoveSaved(UserError):
    """Raise when a move was saved but something after it (the board, a DM, the answer) did not arrive."""


NEW_BOARD_LATE = N_(
    "Your move was saved, but the new board did not arrive. Nothing is lost: the board is posted in the channel "
    "as soon as Discord lets me (or use {command})."
)
FIRST_BOARD_LATE = N_(
    "The game has started, but the first board did not arrive. Nothing is lost: the board is posted in the channel "
    "as soon as Discord lets me (or use {command})."
)
DMS_LATE = N_(
    "Your move was saved, but the private update by DM for {names} did not arrive. The board is in the channel; "
    "a private hand can always be seen with {command}."
)
STALE_BOARD = N_("This board is out of date: use the newest board in the channel.")
STALE_COMMAND = N_(
    "The game changed after you sent this command, so it was not applied: check the newest board and send it again."
)
EXPECTED = (UserError, IllegalAction, StorageError)


def not_your_turn(names: Sequence[str], waiting: Sequence[int]) -> str:
    """Refuse a move out of turn, saying whose turn it is."""
    who = [names[s] if 0 <= s < len(names) else _("seat {number}", number=s + 1) for s in waiting]
    if not who:
        return _("It is not your turn.")
    if len(who) == 1:
        return _("It is not your turn: it is {name}'s turn.", name=who[0])
    return _("It is not your turn: waiting for {names}.", names=join_names(who))


def message_for(error: BaseException) -> str:
    """Return the player-facing text for an error, or a generic apology for a bug."""
    if isinstance(error, StaleVersion):
        return _(STALE_BOARD)
    if isinstance(error, EXPECTED):
        return str(error)
    return _("Something went wrong on our side; nothing was changed. Please try again.")


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer an interaction privately, whether or not it was answered already.

    After a public "thinking…" defer the placeholder is deleted first, so the answer never shows in the channel.
    """
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
            await drop_placeholder(interaction)
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


async def drop_placeholder(interaction: discord.Interaction) -> bool:
    """Delete a public "thinking…" placeholder that nothing replaced yet; return whether one was deleted."""
    original = await interaction.original_response()
    if original.flags.loading and not original.flags.ephemeral:
        await interaction.delete_original_response()
        return True
    return False


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong; log anything that is not an expected refusal."""
    if not isinstance(error, EXPECTED):
        log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
    await reply_ephemeral(interaction, message_for(error))
