"""Keep games in step with their channel: end them when it is gone, pause them while the bot may not post there."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from engine.registry import get
from engine.words import join_names
from i18n import ENGLISH, N_, _, ngettext, pgettext, using
from storage.database import LOBBY, Database, GameRow
from ui.errors import UserError
from ui.language import dm_language, in_game_language
from ui.loading import GameLoader
from ui.publishing import Publisher

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083  # posting in an archived thread the bot may not reopen (it is locked)
THREAD_LOCKED = 160005
LONGEST_AUTO_ARCHIVE = 10080  # minutes: a week, the longest Discord offers, and every server may use it

# Discord's own names of its permissions (translated as each language's Discord client names them).
POST_PERMISSIONS = (
    ("view_channel", N_("View Channels")),
    ("send_messages", N_("Send Messages")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
)
THREAD_PERMISSIONS = (("create_public_threads", N_("Create Public Threads")),)
IN_THREADS = ("send_messages_in_threads", N_("Send Messages in Threads"))
MANAGE_THREADS = N_("Manage Threads")
PERMISSION_NAMES = frozenset(
    [name for _flag, name in (*POST_PERMISSIONS, *THREAD_PERMISSIONS, IN_THREADS)] + [MANAGE_THREADS]
)
LOCKED, MISSING, REFUSED = "locked", "missing", "refused"
"""Why the bot cannot post in a channel: a locked thread, missing permissions, or a refusal it cannot explain."""


def missing_permissions(permissions: discord.Permissions, *, in_thread: bool, new_thread: bool = False) -> list[str]:
    """Return the names of the permissions the bot lacks to run a game here (in a new thread if asked)."""
    needed = list(POST_PERMISSIONS)
    if in_thread or new_thread:
        needed[1] = IN_THREADS
    if new_thread:
        needed += THREAD_PERMISSIONS
    missing = [name for flag, name in needed if not getattr(permissions, flag)]
    if needed[1][1] in missing:  # without it Discord drops Embed Links and Attach Files too: name the cause only
        missing = [name for name in missing if name not in ("Embed Links", "Attach Files")]
    return missing


def permission(name: str) -> str:
    """Return a permission's name as a sentence quotes it, in the current language (English: as it is)."""
    # TRANSLATORS: a Discord permission's name inside a sentence; quote it as your language does („…“, «…», 「…」).
    return pgettext("permission in a sentence", "{permission}", permission=_(name))


def cannot_post(channel_id: int, cause: str, missing: list[str] | None = None) -> str:
    """Say in plain words, in the current language, why the bot cannot post in a channel (no full stop)."""
    channel = f"<#{channel_id}>"
    if cause == LOCKED:
        return _(
            "{channel} is a locked thread, so I cannot post there (unlock it, or give me Manage Threads)",
            channel=channel,
        )
    if cause == MISSING and missing:
        names = join_names([permission(name) for name in missing])
        return ngettext(
            "I am missing the permission {names} in {channel}",
            "I am missing the permissions {names} in {channel}",
            len(missing),
            names=names,
            channel=channel,
        )
    return _("I am not allowed to post in {channel} any more (check my permissions there)", channel=channel)


def saved_reason(channel_id: int, cause: str, missing: list[str] | None = None) -> str:
    """Return why a game is paused as it is saved with the game: in English (logs and operators read it)."""
    with using(ENGLISH):
        return cannot_post(channel_id, cause, missing)


def read_reason(saved: str, channel_id: int) -> str:
    """Return a saved pause reason in the current language (a reason the bot did not word itself as it is)."""
    for cause in (LOCKED, REFUSED):
        if saved == saved_reason(channel_id, cause):
            return cannot_post(channel_id, cause)
    for start in ("I am missing the permission ", "I am missing the permissions "):
        names = saved.removeprefix(start).removesuffix(f" in <#{channel_id}>").replace(" and ", ", ").split(", ")
        known = saved.startswith(start) and all(name in PERMISSION_NAMES for name in names)
        if known and saved == saved_reason(channel_id, MISSING, names):
            return cannot_post(channel_id, MISSING, names)
    return saved


def is_gone(error: discord.HTTPException) -> bool:
    """Return True when Discord says the channel or thread no longer exists."""
    return error.status == 404 and error.code == UNKNOWN_CHANNEL


def is_blocked(error: discord.HTTPException) -> bool:
    """Return True when the bot may not post: missing access or permissions, or a locked thread."""
    return error.code in (MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED, THREAD_LOCKED)


class Lifecycle:
    """Abandon games whose channel, thread or server is gone; pause and resume games the bot cannot post in."""

    def __init__(self, bot: commands.Bot, db: Database, loader: GameLoader, publisher: Publisher) -> None:
        self.bot = bot
        self.db = db
        self.loader = loader
        self.publisher = publisher
        self._paused: set[int] | None = None
        """Channels whose game is paused, read once, so other interactions cost no database read."""

    async def paused_channels(self) -> set[int]:
        """Return the channels whose open game is paused."""
        if self._paused is None:
            self._paused = await self.db.paused_channels()
        return self._paused

    # -- channels, threads and servers that are gone -------------------------------------------------

    async def channel_gone(self, channel_id: int) -> None:
        """End the open game of a deleted channel or thread as abandoned and tell each player once by DM."""
        (await self.paused_channels()).discard(channel_id)
        for row in await self.db.abandon_channel(channel_id):
            await self.publisher.private.close_menus(row.id)
            log.info("game %s abandoned: its channel %s was deleted", row.id, channel_id)
            for seat in row.seats:
                if not seat.is_bot:
                    text = _(
                        "{title} (game #{id}) has ended: its channel or thread was deleted. "
                        "It stays in your history, with no winner.",
                        title=get(row.kind).title,
                        id=row.id,
                    )
                    await self._dm(seat.user_id, text)

    async def guild_gone(self, guild_id: int) -> None:
        """End every open game of a server the bot was removed from; nothing there is retried."""
        for row in await self.db.abandon_guild(guild_id):
            (await self.paused_channels()).discard(row.channel_id)
            await self.publisher.private.close_menus(row.id)
            log.info("game %s abandoned: the bot was removed from server %s", row.id, guild_id)

    # -- posting that fails, and resuming -----------------------------------------------------------

    @in_game_language
    async def post_failed(self, row: GameRow, error: discord.HTTPException) -> bool:
        """Handle a failed post in a game's channel; return False when the failure is none of ours to handle.

        A deleted channel abandons the game. Missing access or permissions, or a locked thread, pause it:
        its timers stop and its host is told once by DM; it resumes by itself when a post succeeds again.
        """
        if is_gone(error):
            await self.channel_gone(row.channel_id)
            return True
        if not is_blocked(error):
            return False
        if error.code == MISSING_ACCESS and row.guild_id and self._left(row.guild_id):
            await self.guild_gone(row.guild_id)
            return True
        cause, missing = self.cause(row.channel_id, error)
        reason = saved_reason(row.channel_id, cause, missing)
        if await self.db.pause(row.id, reason):
            (await self.paused_channels()).add(row.channel_id)
            log.warning("game %s paused: %s", row.id, reason)
            with using(await dm_language(self.db, row.host_id)):
                text = _(
                    "{title} (game #{id}) is paused: {reason}. Its reminders and timeouts wait, "
                    "and it goes on by itself as soon as I can post there again.",
                    title=get(row.kind).title,
                    id=row.id,
                    reason=cannot_post(row.channel_id, cause, missing),
                )
                await self._dm(row.host_id, text)
        return True

    def cause(self, channel_id: int, error: discord.HTTPException | None = None) -> tuple[str, list[str] | None]:
        """Return why the bot cannot post in a channel, and the permissions it lacks there when that is why."""
        if error is not None and error.code in (THREAD_ARCHIVED, THREAD_LOCKED):
            return LOCKED, None
        missing = self._missing(channel_id)
        if missing:
            return MISSING, missing
        return REFUSED, None

    def reason(self, channel_id: int, error: discord.HTTPException | None = None) -> str:
        """Say in plain words, in the current language, why the bot cannot post in a channel."""
        return cannot_post(channel_id, *self.cause(channel_id, error))

    def _missing(self, channel_id: int) -> list[str] | None:
        """Return what the bot lacks to post in a channel it knows of, or None when the channel is not cached."""
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None or guild.me is None:
            return None
        thread = isinstance(channel, discord.Thread)
        missing = missing_permissions(channel.permissions_for(guild.me), in_thread=thread)  # type: ignore[union-attr]
        if thread and channel.locked and not channel.permissions_for(guild.me).manage_threads:  # type: ignore[union-attr]
            missing.append(MANAGE_THREADS)
        return missing

    def _left(self, guild_id: int) -> bool:
        """Return True when the bot, connected and ready, is not in this server any more."""
        return self.bot.is_ready() and self.bot.get_guild(guild_id) is None

    async def permissions_changed(self, guild_id: int) -> None:
        """After a channel, thread or role of a server changed, resume its paused games the bot may post in again."""
        if not await self.paused_channels():
            return
        for row in await self.db.paused_games(guild_id):
            await self.try_resume(row)

    @in_game_language
    async def try_resume(self, row: GameRow) -> bool:
        """Post in a paused game's channel if the bot may again; on success let the game go on and show its board."""
        if self._missing(row.channel_id):
            return False
        channel = self.bot.get_partial_messageable(row.channel_id)
        try:
            await channel.send(
                _("I can post here again, so {title} (game #{id}) goes on.", title=get(row.kind).title, id=row.id)
            )
        except discord.HTTPException as exc:
            if not await self.post_failed(row, exc):
                log.warning("game %s is still paused: %s", row.id, exc)
            return False
        await self.resumed(row)
        return True

    async def resumed(self, row: GameRow) -> None:
        """Restart a paused game's timers after a successful post, and post its board again."""
        if not await self.db.unpause(row.id):
            return
        (await self.paused_channels()).discard(row.channel_id)
        log.info("game %s resumed", row.id)
        fresh = await self.db.game(row.id)
        if fresh is None or fresh.status == LOBBY:
            return
        try:
            board = self.loader.board(fresh)
            await self.publisher.publish(board, [], interaction=None, previous=self.loader.board(fresh, disabled=True))
        except UserError:
            return
        except discord.HTTPException as exc:
            await self.post_failed(fresh, exc)

    # -- whoever interacts in a paused game's channel ------------------------------------------------------

    async def after_interaction(self, interaction: discord.Interaction) -> None:
        """Tell the first person who interacts in a paused game's channel, once, why the game waits."""
        if interaction.guild_id is None or interaction.type is discord.InteractionType.autocomplete:
            return
        if interaction.channel_id not in await self.paused_channels():
            return
        row = await self.db.open_game_in(interaction.channel_id or 0)
        if row is None or not row.paused:  # the game ended meanwhile
            (await self.paused_channels()).discard(interaction.channel_id)
            return
        if await self.try_resume(row):
            return
        key = f"pause_told:{row.id}"
        if await self.db.get_meta(key) == row.paused_at:
            return
        await self.db.set_meta(key, row.paused_at or "")
        text = _(
            "Game #{id} is paused: {reason}. Its reminders and timeouts wait, and it goes on "
            "by itself as soon as I can post here again.",
            id=row.id,
            reason=read_reason(row.paused_reason or "", row.channel_id),
        )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not tell about paused game %s: %s", row.id, exc)

    async def _dm(self, user_id: int, text: str) -> None:
        """Send a user one DM, silently skipping closed DMs."""
        try:
            channel = await self.publisher.private.dms.channel(user_id)
            await channel.send(text)
        except discord.Forbidden:
            log.debug("DM to %s skipped: their DMs are closed", user_id)
        except discord.HTTPException as exc:
            log.info("DM to %s not delivered: %s", user_id, exc)
