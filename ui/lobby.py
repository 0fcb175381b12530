"""Open, fill, start, cancel and rematch games: everything before the first move and after the last."""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from engine.base import Event
from engine.registry import get
from i18n import _, ngettext, pgettext, using
from storage.database import ACTIVE, CANCELLED, FINISHED, LOBBY, ChannelBusy, Database, GameRow, Seat, StorageError
from storage.errors import DatabaseBusy, DatabaseUnavailable, resume_delay
from storage.fairness import conduct, may_cancel
from storage.server_rules import is_rated, server_rules, set_rated
from ui.adapter import Board
from ui.answers import AnswerKeeper
from ui.bots import LEVELS
from ui.components import LOBBY_VERSION, button, view_of
from ui.errors import FIRST_BOARD_LATE, MoveSaved, UserError
from ui.language import in_game_language, posting_language
from ui.lifecycle import LONGEST_AUTO_ARCHIVE
from ui.locks import GameLocks
from ui.mentions import command
from ui.names import bot_name, level_name, person_name
from ui.publishing import MENTION_USERS, Publisher
from ui.text import EMBED_TITLE, FIELD_VALUE, LABEL, shorten

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

REMEMBER_ATTEMPTS = 6
"""How many times the message of a lobby already posted is saved before giving up (about 12 s of a busy database)."""


def in_thread(interaction: discord.Interaction) -> bool:
    """Return True when an interaction comes from inside a thread."""
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
    )


def display_name(user: discord.abc.User) -> str:
    """Return the name to show for a user."""
    return getattr(user, "display_name", None) or user.name


OPTION_NAMES = {
    "balanced": lambda: pgettext("game option", "balanced"),
    "teams": lambda: pgettext("game option", "teams"),
}
"""How a lobby names each game's options (as `/game new` names them)."""


def option_name(name: str) -> str:
    """Return a game option's name in the current language."""
    word = OPTION_NAMES.get(name)
    return word() if word is not None else name


def seat_line(seat: Seat, host_id: int) -> str:
    """Return one seat of a lobby's player list."""
    if seat.user_id == host_id:
        return _("{number}. {mention} (host)", number=seat.seat + 1, mention=seat.mention)
    return _("{number}. {mention}", number=seat.seat + 1, mention=seat.mention)


def lobby_embed(row: GameRow, rated: bool = True) -> discord.Embed:
    """Describe a lobby: game, options, seats, rated or casual, and how to join."""
    game = get(row.kind)
    title = _("{title}: lobby", title=game.title)
    embed = discord.Embed(title=shorten(title, EMBED_TITLE), colour=discord.Colour.blue())
    seats = "\n".join(seat_line(s, row.host_id) for s in row.seats)
    embed.add_field(
        name=_("Players {seated}/{most}", seated=len(row.seats), most=game.max_players),
        value=shorten(seats, FIELD_VALUE) or _("nobody yet"),
        inline=False,
    )
    chosen = [option_name(o.name) for o in game.options if row.options.get(o.name)]
    if game.options:
        embed.add_field(name=_("Options"), value=", ".join(chosen) or _("none"), inline=False)
    low, high = game.min_players, game.max_players
    if rated:
        # TRANSLATORS: "Start" is the label of the lobby's Start button.
        footer = _(
            "Game #{id} · {low}-{high} players · rated · the host starts with Start", id=row.id, low=low, high=high
        )
    else:
        footer = _(
            "Game #{id} · {low}-{high} players · casual (not rated) · the host starts with Start",
            id=row.id,
            low=low,
            high=high,
        )
    embed.set_footer(text=footer)
    return embed


def lobby_view(row: GameRow, *, disabled: bool = False) -> discord.ui.View | None:
    """Return the Join / Leave / Add bot / Start buttons of a lobby."""
    join, leave, add, start = _("Join"), _("Leave"), _("Add bot"), pgettext("lobby button", "Start")
    return view_of(
        [
            button(row.id, LOBBY_VERSION, "join", join, style=discord.ButtonStyle.success, disabled=disabled),
            button(row.id, LOBBY_VERSION, "leave", leave, disabled=disabled),
            button(row.id, LOBBY_VERSION, "addbot", add, disabled=disabled),
            button(row.id, LOBBY_VERSION, "start", start, style=discord.ButtonStyle.primary, disabled=disabled),
        ]
    )


class Lobby:
    """Run a game's lobby and the host's powers over it."""

    def __init__(
        self, bot: commands.Bot, db: Database, publisher: Publisher, locks: GameLocks, answers: AnswerKeeper
    ) -> None:
        self.bot = bot
        self.db = db
        self.publisher = publisher
        self.locks = locks
        self.answers = answers

    async def new_lobby(
        self,
        interaction: discord.Interaction,
        kind: str,
        options: dict[str, Any],
        *,
        thread: bool = False,
        reminder_hours: float | None = None,
        timeout_hours: float | None = None,
        rated: bool = True,
    ) -> None:
        """Open a lobby in this channel (or in a new thread) with the caller in the first seat.

        The game counts for ratings when `rated` and the server has ratings on.
        """
        if interaction.guild_id is None:
            raise UserError(_("Start games in a server channel, not in direct messages."))
        game = get(kind)
        known = {o.name for o in game.options}
        for name, value in options.items():
            if value and name not in known:
                raise UserError(_("{title} has no `{option}` option.", title=game.title, option=name))
        for value in (reminder_hours, timeout_hours):
            if value is not None and value <= 0:
                raise UserError(_("Reminder and timeout delays are a number of hours above 0."))
        chosen = {o.name: bool(options.get(o.name, o.default)) for o in game.options}
        channel_id = interaction.channel_id or 0
        language = await posting_language(self.db, interaction)
        if thread:
            with using(language):
                channel_id = await self._open_thread(interaction, game.title)
        host = Seat(0, interaction.user.id, display_name(interaction.user))
        rated = rated and (await server_rules(self.db, interaction.guild_id)).ratings
        try:
            row = await self.db.create_game(
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                kind=kind,
                host=host,
                options=chosen,
                seed=random.SystemRandom().randrange(1, 2**53),
                language=language,
                rated=rated,
                reminder_hours=reminder_hours,
                timeout_hours=timeout_hours,
            )
        except ChannelBusy:
            raise UserError(
                _(
                    "This channel already has a game. Finish or {command} it, or start one in a thread.",
                    command=command("game cancel"),
                )
            ) from None
        await self._post_lobby(interaction, row, rated)

    @in_game_language
    async def _post_lobby(self, interaction: discord.Interaction, row: GameRow, rated: bool) -> None:
        """Post a new lobby where it is played (answering the command, or in its new thread)."""
        game, channel_id = get(row.kind), row.channel_id
        if channel_id == interaction.channel_id:
            await interaction.response.send_message(embed=lobby_embed(row, rated), view=lobby_view(row))
            message = await interaction.original_response()
            self.publisher.followups.answered(message.id, interaction)  # edited through it as players join
        else:
            await interaction.response.send_message(
                _("{title}: the lobby is open in {channel}.", title=game.title, channel=f"<#{channel_id}>")
            )
            channel = self.bot.get_partial_messageable(channel_id)
            message = await channel.send(embed=lobby_embed(row, rated), view=lobby_view(row))
        await self._remember_lobby(row.id, message.id)

    async def _remember_lobby(self, game_id: int, message_id: int) -> None:
        """Save which message shows a lobby already posted, waiting out a busy database (the post stands)."""
        for attempt in range(1, REMEMBER_ATTEMPTS + 1):
            try:
                await self.db.set_board_message(game_id, message_id)
                return
            except (DatabaseBusy, DatabaseUnavailable) as exc:
                if attempt == REMEMBER_ATTEMPTS:
                    log.warning("the lobby of game %s is posted but its message could not be saved: %s", game_id, exc)
                    return
                await asyncio.sleep(resume_delay(attempt))

    async def _open_thread(self, interaction: discord.Interaction, title: str) -> int:
        """Create a public thread for a new game under the current channel and return its id."""
        if in_thread(interaction):
            raise UserError(_("This is already a thread: start the game here without `thread`."))
        name = shorten(f"{title} · {display_name(interaction.user)}", LABEL)
        try:
            data = await self.bot.http.start_thread_without_message(
                interaction.channel_id or 0,
                name=name,
                auto_archive_duration=LONGEST_AUTO_ARCHIVE,
                type=discord.ChannelType.public_thread.value,
            )
        except discord.Forbidden:
            raise UserError(_("I am not allowed to create threads here (Create Public Threads).")) from None
        return int(data["id"])

    async def join(self, interaction: discord.Interaction, row: GameRow, *, quiet: bool = False) -> None:
        """Seat the caller in a lobby (with `quiet`, the note about it is private)."""
        game = get(row.kind)
        await self.db.seat_player(row.id, interaction.user.id, display_name(interaction.user), game.max_players)
        with using(row.language):
            await self._changed(interaction, row, _("{name} joined.", name=interaction.user.mention), quiet=quiet)

    async def add_bot(
        self, interaction: discord.Interaction, row: GameRow, level: str = "easy", *, quiet: bool = False
    ) -> None:
        """Seat a computer player in a lobby (host only)."""
        if interaction.user.id != row.host_id:
            raise UserError(_("Only the host can add computer players."))
        if level not in LEVELS:
            levels = ", ".join(level_name(known) for known in LEVELS)
            raise UserError(_("The computer player's level is one of: {levels}.", levels=levels))
        game = get(row.kind)
        bots = [s for s in row.seats if s.is_bot]
        user_id = min([s.user_id for s in bots], default=0) - 1
        name = bot_name(len(bots) + 1, level)
        await self.db.seat_player(row.id, user_id, name, game.max_players, bot_level=level)
        with using(row.language):
            await self._changed(interaction, row, _("{name} joined.", name=name), quiet=quiet)

    async def leave(self, interaction: discord.Interaction, row: GameRow, *, quiet: bool = False) -> None:
        """Unseat the caller from a lobby; the lobby closes when the host leaves."""
        if interaction.user.id == row.host_id:
            with using(row.language):
                await self.cancel(interaction, row, reason=_("The host left, so the lobby is closed."))
            return
        await self.db.unseat_player(row.id, interaction.user.id)
        with using(row.language):
            await self._changed(interaction, row, _("{name} left.", name=interaction.user.mention), quiet=quiet)

    async def _changed(self, interaction: discord.Interaction, row: GameRow, note: str, *, quiet: bool = False) -> None:
        """Refresh the lobby message after a seat change; say so in the channel, or privately when `quiet`."""
        fresh = await self.db.game(row.id)
        assert fresh is not None
        embed, view = lobby_embed(fresh, await is_rated(self.db, fresh.id)), lobby_view(fresh)
        pressed_lobby = interaction.message is not None and interaction.message.id == fresh.board_message_id
        if pressed_lobby:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(
                note, ephemeral=quiet, allowed_mentions=discord.AllowedMentions.none()
            )
            await self.publisher.edit_message(fresh.channel_id, fresh.board_message_id, embed=embed, view=view)

    async def start(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Deal the game for the seated players and post the first board (host only)."""
        game = get(row.kind)
        if row.status != LOBBY:
            raise UserError(_("This game has already started."))
        if interaction.user.id != row.host_id:
            raise UserError(_("Only the host can start the game."))
        players = len(row.seats)
        if not game.min_players <= players <= game.max_players:
            raise UserError(
                ngettext(
                    "{title} needs {low}-{high} players; {n} seated.",
                    "{title} needs {low}-{high} players; {n} seated.",
                    players,
                    title=game.title,
                    low=game.min_players,
                    high=game.max_players,
                )
            )
        state = game.new_game(players, row.options, row.seed)
        async with self.locks.hold(row.id):
            version = await self.db.start_game(row.id, game.dump(state), row.version, rules=game.schema_version)
        owes = replace(AnswerKeeper.pending(interaction, row.id), version=version)
        try:
            if interaction.message is None:  # its "thinking…" is answered by the first board, after a crash too
                try:
                    await self.answers.promise(owes)
                except StorageError as exc:  # the game is dealt: answer now, without the promise
                    log.info("the start of game %s is answered without a promise: %s", row.id, exc)
            await interaction.response.defer(thinking=interaction.message is None)
            started = await self.db.game(row.id)
            assert started is not None
            with using(row.language):
                await self.publisher.edit_message(
                    row.channel_id, row.board_message_id, view=lobby_view(row, disabled=True)
                )
            board = Board(started, game, state, version)
            await self.publisher.publish(board, [Event("game_started")], interaction=interaction, previous=None)
        except Exception as exc:
            log.warning("game %s started but its first board failed: %r", row.id, exc)
            raise MoveSaved(_(FIRST_BOARD_LATE, command=command("game status"))) from exc
        finally:
            await self.answers.given_now(owes.interaction_id)  # the board, or the reply saying it comes later

    async def cancel(self, interaction: discord.Interaction, row: GameRow, *, reason: str = "") -> None:
        """End an open game for good (host or a member with Manage Server)."""
        perms = getattr(interaction, "permissions", None)
        moderator = bool(perms and perms.manage_guild)
        if interaction.user.id != row.host_id and not moderator:
            raise UserError(_("Only the host or a member with Manage Server can cancel this game."))
        if row.seat_of(interaction.user.id) is not None and await self._past_abort_window(row):
            raise UserError(
                _(
                    "This rated game is past its first moves, so a player can no longer cancel it: use"
                    " {command} to leave it (that counts as a loss).",
                    command=command("game resign"),
                )
            )
        async with self.locks.hold(row.id):
            if not await self.db.set_status(row.id, CANCELLED):
                raise UserError(_("This game has already ended."))
        await self._cancelled(interaction, row, reason)

    async def _past_abort_window(self, row: GameRow) -> bool:
        """Return True when a rated game in progress has left its abort window (every person made their first moves)."""
        if row.status != ACTIVE or not await is_rated(self.db, row.id):
            return False
        played = conduct((a["seat"], str(a["action"].get("type", ""))) for a in await self.db.actions(row.id))
        return not may_cancel(played, [s.seat for s in row.seats if not s.is_bot])

    @in_game_language
    async def _cancelled(self, interaction: discord.Interaction, row: GameRow, reason: str) -> None:
        """Say in the channel that a game was cancelled and grey out its lobby or board."""
        await interaction.response.send_message(
            reason or _("Game #{id} was cancelled by {name}.", id=row.id, name=interaction.user.mention),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if row.status == LOBBY:
            await self.publisher.edit_message(row.channel_id, row.board_message_id, view=lobby_view(row, disabled=True))
        else:
            await self.publisher.disable_board(row)

    async def show_privately(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Show a lobby to the caller alone, with its buttons (Join works from there too)."""
        await interaction.response.send_message(embed=lobby_embed(row), view=lobby_view(row), ephemeral=True)

    @in_game_language
    async def repost(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Post a lobby again and retire the previous lobby message."""
        embed = lobby_embed(row, await is_rated(self.db, row.id))
        await interaction.response.send_message(embed=embed, view=lobby_view(row))
        message = await interaction.original_response()
        self.publisher.followups.answered(message.id, interaction)
        await self.publisher.edit_message(row.channel_id, row.board_message_id, view=lobby_view(row, disabled=True))
        await self.db.set_board_message(row.id, message.id)

    async def rematch(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Open a lobby in the same channel with the same seats, options and game (any seated player)."""
        if row.status != FINISHED:
            raise UserError(_("Only a finished game can be rematched."))
        if row.seat_of(interaction.user.id) is None:
            raise UserError(_("Only the players of this game can ask for a rematch."))
        me = next(s for s in row.seats if s.user_id == interaction.user.id)
        try:
            fresh = await self.db.create_game(
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                kind=row.kind,
                host=Seat(0, interaction.user.id, display_name(interaction.user)),
                options=row.options,
                seed=random.SystemRandom().randrange(1, 2**53),
                language=await posting_language(self.db, interaction),
            )
        except ChannelBusy:
            raise UserError(_("This channel already has a new game: join it instead.")) from None
        game = get(row.kind)
        for seat in row.seats:
            if seat.user_id == me.user_id:
                continue
            if seat.user_id > 0:  # a person whose seat a computer player took over plays again
                await self.db.seat_player(fresh.id, seat.user_id, person_name(seat.name), game.max_players)
            else:
                await self.db.seat_player(fresh.id, seat.user_id, seat.name, game.max_players, seat.bot_level)
        await self.db.set_game_timers(fresh.id, row.reminder_hours, row.timeout_hours)
        rated = await is_rated(self.db, row.id) and (await server_rules(self.db, row.guild_id)).ratings
        await set_rated(self.db, fresh.id, rated)
        fresh = await self.db.game(fresh.id)
        assert fresh is not None
        await self._post_rematch(interaction, fresh, rated)

    @in_game_language
    async def _post_rematch(self, interaction: discord.Interaction, fresh: GameRow, rated: bool) -> None:
        """Post a rematch's lobby, pinging its players."""
        players = " ".join(s.mention for s in fresh.seats if not s.is_bot)
        await interaction.response.send_message(
            _(
                "Rematch! {players}: the same seats are ready; {host} starts it with Start.",
                players=players,
                host=interaction.user.mention,
            ),
            embed=lobby_embed(fresh, rated),
            view=lobby_view(fresh),
            allowed_mentions=MENTION_USERS,
        )
        message = await interaction.original_response()
        await self.db.set_board_message(fresh.id, message.id)
