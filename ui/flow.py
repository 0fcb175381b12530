"""Run the turn flow every game shares: lobby, moves, saving, posting boards and private updates."""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from engine.base import Action, CorruptState, Event, Game, IllegalAction
from engine.registry import get
from storage.database import ACTIVE, CANCELLED, FINISHED, LOBBY, ChannelBusy, Database, GameRow, Result, Seat
from ui.adapter import Board, GameAdapter, Picture, adapter_for
from ui.bots import LEVELS, BotPlayers
from ui.components import LOBBY_VERSION, ComponentHit, button, view_of
from ui.errors import STALE_BOARD, UserError
from ui.workers import draw, make_pool, nothing, warm_renderer

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

NO_GAME = "There is no game in this channel. Start one with `/game new`."
RENDER_WORKERS = min(2, os.cpu_count() or 1)
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


@dataclass
class Commit:
    """Hold what one saved action produced: the new board, the one it replaces and the events."""

    board: Board
    previous: Board
    events: list[Event]


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


class GameFlow:
    """Own every game-changing path so each one saves before it answers and posts the same way."""

    def __init__(self, bot: commands.Bot, db: Database, *, workers: str = "process", **bot_options: Any) -> None:
        self.bot = bot
        self.db = db
        self.workers = workers
        self._render_pool: Executor | None = None
        self.bots = BotPlayers(self, workers=workers, **bot_options)
        self._state_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._post_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # -- loading ----------------------------------------------------------------------------------

    async def game_here(self, interaction: discord.Interaction) -> GameRow:
        """Return the open game in the interaction's channel, or refuse."""
        row = await self.db.open_game_in(interaction.channel_id or 0)
        if row is None:
            raise UserError(NO_GAME)
        return row

    async def active_game(self, interaction: discord.Interaction, kind: str) -> GameRow:
        """Return this channel's game of `kind` once it has started, or refuse."""
        row = await self.game_here(interaction)
        if row.kind != kind:
            raise UserError(f"The game in this channel is {get(row.kind).title}, not {get(kind).title}.")
        if row.status != ACTIVE:
            raise UserError("The game has not started yet: the host starts it with `/game start`.")
        return row

    async def caller_seat(self, interaction: discord.Interaction, kind: str) -> tuple[Any, int] | None:
        """Return the live state and the caller's seat in this channel's game of `kind`, or None (for autocomplete)."""
        row = await self.db.open_game_in(interaction.channel_id or 0)
        if row is None or row.kind != kind or row.status != ACTIVE:
            return None
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            return None
        try:
            return self.live(row)[1], seat
        except UserError:
            return None

    def live(self, row: GameRow) -> tuple[Game, Any]:
        """Return the rules and the state of an active game, refusing a damaged save."""
        game = get(row.kind)
        if row.state_error or row.state is None:
            raise UserError(self._damaged(row, row.state_error or "no state saved"))
        try:
            return game, game.load(row.state)
        except CorruptState as exc:
            raise UserError(self._damaged(row, str(exc))) from exc

    def _damaged(self, row: GameRow, why: str) -> str:
        """Log a damaged save and return what players are told."""
        log.error("game %s has a damaged save: %s", row.id, why)
        return (
            f"The saved data of game #{row.id} is damaged, so it cannot go on. "
            "The host or a moderator can end it with `/game cancel`."
        )

    def board(self, row: GameRow, *, disabled: bool = False) -> Board:
        """Return the live board of an active game."""
        game, state = self.live(row)
        return Board(row, game, state, row.version, disabled)

    # -- lobby --------------------------------------------------------------------------------------

    async def new_lobby(
        self,
        interaction: discord.Interaction,
        kind: str,
        options: dict[str, Any],
        *,
        thread: bool = False,
        reminder_hours: float | None = None,
        timeout_hours: float | None = None,
    ) -> None:
        """Open a lobby in this channel (or in a new thread) with the caller in the first seat."""
        if interaction.guild_id is None:
            raise UserError("Start games in a server channel, not in direct messages.")
        game = get(kind)
        known = {o.name for o in game.options}
        for name, value in options.items():
            if value and name not in known:
                raise UserError(f"{game.title} has no `{name}` option.")
        for value in (reminder_hours, timeout_hours):
            if value is not None and value <= 0:
                raise UserError("Reminder and timeout delays are a number of hours above 0.")
        chosen = {o.name: bool(options.get(o.name, o.default)) for o in game.options}
        channel_id = interaction.channel_id or 0
        if thread:
            channel_id = await self._open_thread(interaction, game.title)
        host = Seat(0, interaction.user.id, display_name(interaction.user))
        try:
            row = await self.db.create_game(
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                kind=kind,
                host=host,
                options=chosen,
                seed=random.SystemRandom().randrange(1, 2**53),
            )
        except ChannelBusy:
            raise UserError(
                "This channel already has a game. Finish or `/game cancel` it, or start one in a thread."
            ) from None
        if reminder_hours is not None or timeout_hours is not None:
            await self.db.set_game_timers(row.id, reminder_hours, timeout_hours)
        if channel_id == interaction.channel_id:
            await interaction.response.send_message(embed=self.lobby_embed(row), view=self.lobby_view(row))
            message = await interaction.original_response()
        else:
            await interaction.response.send_message(f"{game.title}: the lobby is open in <#{channel_id}>.")
            channel = self.bot.get_partial_messageable(channel_id)
            message = await channel.send(embed=self.lobby_embed(row), view=self.lobby_view(row))
        await self.db.set_board_message(row.id, message.id)

    async def _open_thread(self, interaction: discord.Interaction, title: str) -> int:
        """Create a public thread for a new game under the current channel and return its id."""
        if in_thread(interaction):
            raise UserError("This is already a thread: start the game here without `thread`.")
        name = f"{title} · {display_name(interaction.user)}"[:100]
        try:
            data = await self.bot.http.start_thread_without_message(
                interaction.channel_id or 0,
                name=name,
                auto_archive_duration=10080,
                type=discord.ChannelType.public_thread.value,
            )
        except discord.Forbidden:
            raise UserError("I am not allowed to create threads here (Create Public Threads).") from None
        return int(data["id"])

    def lobby_embed(self, row: GameRow) -> discord.Embed:
        """Describe a lobby: game, options, seats and how to join."""
        game = get(row.kind)
        embed = discord.Embed(title=f"{game.title}: lobby", colour=discord.Colour.blue())
        seats = "\n".join(
            f"{s.seat + 1}. {s.mention}" + (" (host)" if s.user_id == row.host_id else "") for s in row.seats
        )
        embed.add_field(name=f"Players {len(row.seats)}/{game.max_players}", value=seats or "nobody yet", inline=False)
        chosen = [o.name for o in game.options if row.options.get(o.name)]
        if game.options:
            embed.add_field(name="Options", value=", ".join(chosen) or "none", inline=False)
        embed.set_footer(
            text=f"Game #{row.id} · {game.min_players}-{game.max_players} players · the host starts with Start"
        )
        return embed

    def lobby_view(self, row: GameRow, *, disabled: bool = False) -> discord.ui.View | None:
        """Return the Join / Leave / Start buttons of a lobby."""
        return view_of(
            [
                button(row.id, LOBBY_VERSION, "join", "Join", style=discord.ButtonStyle.success, disabled=disabled),
                button(row.id, LOBBY_VERSION, "leave", "Leave", disabled=disabled),
                button(row.id, LOBBY_VERSION, "addbot", "Add bot", disabled=disabled),
                button(row.id, LOBBY_VERSION, "start", "Start", style=discord.ButtonStyle.primary, disabled=disabled),
            ]
        )

    async def join(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Seat the caller in a lobby."""
        game = get(row.kind)
        await self.db.seat_player(row.id, interaction.user.id, display_name(interaction.user), game.max_players)
        await self._lobby_changed(interaction, row, f"{interaction.user.mention} joined.")

    async def add_bot(self, interaction: discord.Interaction, row: GameRow, level: str = "easy") -> None:
        """Seat a computer player in a lobby (host only)."""
        if interaction.user.id != row.host_id:
            raise UserError("Only the host can add computer players.")
        if level not in LEVELS:
            raise UserError(f"The computer player's level is one of: {', '.join(LEVELS)}.")
        game = get(row.kind)
        bots = [s for s in row.seats if s.is_bot]
        user_id = min([s.user_id for s in bots], default=0) - 1
        name = f"Bot {len(bots) + 1} ({level})"
        await self.db.seat_player(row.id, user_id, name, game.max_players, bot_level=level)
        await self._lobby_changed(interaction, row, f"{name} joined.")

    async def leave(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Unseat the caller from a lobby; the lobby closes when the host leaves."""
        if interaction.user.id == row.host_id:
            await self.cancel(interaction, row, reason="The host left, so the lobby is closed.")
            return
        await self.db.unseat_player(row.id, interaction.user.id)
        await self._lobby_changed(interaction, row, f"{interaction.user.mention} left.")

    async def _lobby_changed(self, interaction: discord.Interaction, row: GameRow, note: str) -> None:
        """Refresh the lobby message after a seat change."""
        fresh = await self.db.game(row.id)
        assert fresh is not None
        embed, view = self.lobby_embed(fresh), self.lobby_view(fresh)
        pressed_lobby = interaction.message is not None and interaction.message.id == fresh.board_message_id
        if pressed_lobby:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(note, allowed_mentions=discord.AllowedMentions.none())
            await self._edit_message(fresh.channel_id, fresh.board_message_id, embed=embed, view=view)

    async def start(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Deal the game for the seated players and post the first board (host only)."""
        game = get(row.kind)
        if row.status != LOBBY:
            raise UserError("This game has already started.")
        if interaction.user.id != row.host_id:
            raise UserError("Only the host can start the game.")
        players = len(row.seats)
        if not game.min_players <= players <= game.max_players:
            raise UserError(f"{game.title} needs {game.min_players}-{game.max_players} players; {players} seated.")
        state = game.new_game(players, row.options, row.seed)
        async with self._state_locks[row.id]:
            version = await self.db.start_game(row.id, game.dump(state), row.version)
        await interaction.response.defer(thinking=interaction.message is None)
        started = await self.db.game(row.id)
        assert started is not None
        await self._edit_message(row.channel_id, row.board_message_id, view=self.lobby_view(row, disabled=True))
        board = Board(started, game, state, version)
        await self.publish(board, [Event("game_started")], interaction=interaction, previous=None)

    async def cancel(self, interaction: discord.Interaction, row: GameRow, *, reason: str = "") -> None:
        """End an open game for good (host or a member with Manage Server)."""
        perms = getattr(interaction, "permissions", None)
        moderator = bool(perms and perms.manage_guild)
        if interaction.user.id != row.host_id and not moderator:
            raise UserError("Only the host or a member with Manage Server can cancel this game.")
        async with self._state_locks[row.id]:
            if not await self.db.set_status(row.id, CANCELLED):
                raise UserError("This game has already ended.")
        await interaction.response.send_message(
            reason or f"Game #{row.id} was cancelled by {interaction.user.mention}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if row.status == LOBBY:
            await self._edit_message(row.channel_id, row.board_message_id, view=self.lobby_view(row, disabled=True))
        else:
            await self._disable_board(row)

    async def rematch(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Open a lobby in the same channel with the same seats, options and game (any seated player)."""
        if row.status != FINISHED:
            raise UserError("Only a finished game can be rematched.")
        if row.seat_of(interaction.user.id) is None:
            raise UserError("Only the players of this game can ask for a rematch.")
        me = next(s for s in row.seats if s.user_id == interaction.user.id)
        try:
            fresh = await self.db.create_game(
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                kind=row.kind,
                host=Seat(0, interaction.user.id, display_name(interaction.user)),
                options=row.options,
                seed=random.SystemRandom().randrange(1, 2**53),
            )
        except ChannelBusy:
            raise UserError("This channel already has a new game: join it instead.") from None
        game = get(row.kind)
        for seat in row.seats:
            if seat.user_id == me.user_id:
                continue
            if seat.user_id > 0:  # a person whose seat a computer player took over plays again
                await self.db.seat_player(fresh.id, seat.user_id, seat.name.removesuffix(" (bot)"), game.max_players)
            else:
                await self.db.seat_player(fresh.id, seat.user_id, seat.name, game.max_players, seat.bot_level)
        await self.db.set_game_timers(fresh.id, row.reminder_hours, row.timeout_hours)
        fresh = await self.db.game(fresh.id)
        assert fresh is not None
        players = " ".join(s.mention for s in fresh.seats if not s.is_bot)
        await interaction.response.send_message(
            f"Rematch! {players}: the same seats are ready; {interaction.user.mention} starts it with Start.",
            embed=self.lobby_embed(fresh),
            view=self.lobby_view(fresh),
            allowed_mentions=MENTION_USERS,
        )
        message = await interaction.original_response()
        await self.db.set_board_message(fresh.id, message.id)

    # -- moves --------------------------------------------------------------------------------------

    async def commit(
        self,
        game_id: int,
        action: Action,
        *,
        user_id: int | None = None,
        seat: int | None = None,
        expected_version: int | None = None,
    ) -> Commit:
        """Apply an action to the saved game and save it with its log entry; nothing is posted yet.

        The seat is the caller's (`user_id`) or given (`seat`, for computer players and timeouts). The
        reserved action {"type": "resign"} takes the seat out of the game.
        """
        async with self._state_locks[game_id]:
            fresh = await self.db.game(game_id)
            if fresh is None or fresh.status != ACTIVE:
                raise UserError("This game is over.")
            if expected_version is not None and fresh.version != expected_version:
                raise UserError(STALE_BOARD)
            if seat is None:
                seat = fresh.seat_of(user_id or 0)
                if seat is None:
                    raise UserError("You are not playing in this game.")
                if fresh.seats[seat].is_bot and action.get("type") != "resign":
                    raise UserError("A computer player has taken over your seat.")
            game, state = self.live(fresh)
            previous = Board(fresh, game, game.load(fresh.state or {}), fresh.version, disabled=True)
            if action.get("type") == "resign":
                events = game.resign(state, seat)
            else:
                if seat not in game.to_act(state):
                    raise IllegalAction("It is not your turn.")
                events = game.apply(state, seat, action)
            version = await self.db.record_action(
                fresh.id,
                fresh.version,
                game.dump(state),
                seat=seat,
                user_id=fresh.seats[seat].user_id,
                action=action,
                events=[e.to_json() for e in events],
                finished=game.is_over(state),
                results=self.results(fresh, game, state),
            )
        fresh.version = version
        return Commit(Board(fresh, game, state, version), previous, events)

    async def act(
        self,
        interaction: discord.Interaction,
        row: GameRow,
        action: Action,
        *,
        expected_version: int | None = None,
        private_note: str | None = None,
    ) -> None:
        """Apply one player's action, save it, answer, then post the new board.

        With `private_note` the action is secret: the player alone gets the note, and the public board is
        posted to the channel on its own, so nothing in the reply to the player's command is public.
        """
        done = await self.commit(row.id, action, user_id=interaction.user.id, expected_version=expected_version)
        elsewhere = interaction.channel_id != row.channel_id
        if private_note is None and elsewhere:
            private_note = "Done: see the new board in the game's channel."
        await self._acknowledge(interaction, private_note, elsewhere=elsewhere)
        target = None if private_note else interaction
        await self.publish(done.board, done.events, interaction=target, previous=done.previous)

    async def _acknowledge(
        self, interaction: discord.Interaction, private_note: str | None, *, elsewhere: bool = False
    ) -> None:
        """Answer an accepted action: close a private menu, reply privately, or defer while the board renders."""
        if interaction.response.is_done():
            if private_note is not None:
                await interaction.followup.send(private_note, ephemeral=True)
            return
        message = interaction.message
        if message is not None and (message.flags.ephemeral or elsewhere):
            note = private_note or "Done: see the new board in the channel."
            await interaction.response.edit_message(content=note, view=None, attachments=[])
        elif private_note is not None:
            await interaction.response.send_message(private_note, ephemeral=True)
        else:
            await interaction.response.defer(thinking=message is None)

    async def resign(self, interaction: discord.Interaction, row: GameRow, hand_to: str | None = None) -> None:
        """Take the caller out of an active game, or hand their seat to a computer player of level `hand_to`."""
        if row.status == LOBBY:
            raise UserError("The game has not started: use `/game leave`.")
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        if hand_to is not None:
            if row.seats[seat].is_bot:
                raise UserError("A computer player already plays your seat.")
            name = f"{row.seats[seat].name} (bot)"
            await self.db.hand_seat_to_bot(row.id, seat, hand_to, name)
            await interaction.response.send_message(
                f"{interaction.user.mention} handed their seat to the {hand_to} computer player, {name}.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            self.schedule_bots(row.id)
            return
        done = await self.commit(row.id, {"type": "resign"}, user_id=interaction.user.id)
        await interaction.response.defer(thinking=True)
        await self.publish(done.board, done.events, interaction=interaction, previous=done.previous)

    def results(self, row: GameRow, game: Game, state: Any) -> list[Result]:
        """Return each seat's final result once the game is over (nothing before)."""
        if not game.is_over(state):
            return []
        seats = {s.seat: s for s in row.seats}
        return [
            Result(s.seat, seats[s.seat].user_id, seats[s.seat].is_bot, s.score, s.rank, s.winner)
            for s in game.outcome(state).standings
        ]

    # -- posting --------------------------------------------------------------------------------------

    async def publish(
        self,
        board: Board,
        events: Sequence[Event],
        *,
        interaction: discord.Interaction | None,
        previous: Board | None,
    ) -> discord.Message | None:
        """Post the new board with a summary and a ping, disable the old one and send private updates."""
        adapter = adapter_for(board.row.kind)
        async with self._post_locks[board.row.id]:
            picture = await self.render_board(adapter, board)
            content = self.board_content(board, events)
            if board.game.is_over(board.state):
                items: list[discord.ui.Item[Any]] = [
                    button(board.row.id, board.version, "rematch", "Rematch", style=discord.ButtonStyle.success)
                ]
            else:
                items = adapter.board_items(board)
            message = await self._send(board.row, interaction, content, picture, items)
            if previous is not None:
                await self._edit_message(
                    board.row.channel_id,
                    board.row.board_message_id,
                    view=view_of(adapter.board_items(previous)) or discord.utils.MISSING,
                )
            if message is not None:
                await self.db.set_board_message(board.row.id, message.id)
                board.row.board_message_id = message.id
        for seat in sorted(adapter.seats_to_update_privately(events, board.state)):
            await self.send_private(board, seat)
        if any(seat.is_bot for seat in board.row.seats):
            self.schedule_bots(board.row.id)
        return message

    def schedule_bots(self, game_id: int) -> None:
        """Let computer players take their turns in this game, if any are due."""
        self.bots.schedule(game_id)

    async def resume(self) -> None:
        """After a start-up, let every game whose turn belongs to a computer player go on."""
        await self.bots.resume()

    async def render_board(self, adapter: GameAdapter, board: Board) -> Picture:
        """Render the public board in a worker thread."""
        view = board.game.view(board.state, None)
        picture = await self.draw(adapter, "board_picture", view, board.names)
        assert picture is not None
        return picture

    async def draw(self, adapter: GameAdapter, method: str, view: dict[str, Any], names: list[str]) -> Picture | None:
        """Draw one of an adapter's pictures in the render pool."""
        job = partial(draw, adapter.key, method, view, list(names))
        return await asyncio.get_running_loop().run_in_executor(self.render_pool, job)

    @property
    def render_pool(self) -> Executor:
        """Return the pool that draws pictures (started on first use)."""
        if self._render_pool is None:
            self._render_pool = make_pool(self.workers, RENDER_WORKERS, "render", warm=warm_renderer)
        return self._render_pool

    async def warm_up(self) -> None:
        """Start every render worker now, so the first boards after a start do not wait for them."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.render_pool, nothing) for _ in range(RENDER_WORKERS)))

    def close(self) -> None:
        """Stop the render pool."""
        if self._render_pool is not None:
            self._render_pool.shutdown(wait=False, cancel_futures=True)
            self._render_pool = None

    def board_content(self, board: Board, events: Sequence[Event]) -> str:
        """Write the message text: what just happened, then whose turn it is (with a ping) or the result."""
        game, names = board.game, board.names
        lines = [text for e in events if e.private_to is None and (text := game.describe(e, names))]
        if game.is_over(board.state):
            outcome = game.outcome(board.state)
            lines.append("**Final standings**")
            lines += adapter_for(board.row.kind).standings_lines(outcome, names)
            if outcome.tiebreak:
                lines.append(outcome.tiebreak)
            winners = " and ".join(board.row.seats[s].mention for s in outcome.winners)
            lines.append(f"Congratulations {winners}!" if winners else "Nobody wins this time.")
        else:
            lines.append(game.status(board.state, names))
            waiting = [board.row.seats[s] for s in game.to_act(board.state)]
            people = " ".join(seat.mention for seat in waiting if not seat.is_bot)
            if people:
                lines.append(f"{people}, it's your turn.")
        return "\n".join(lines)[:2000]

    async def _send(
        self,
        row: GameRow,
        interaction: discord.Interaction | None,
        content: str,
        picture: Picture,
        items: list[discord.ui.Item[Any]],
    ) -> discord.Message | None:
        """Send a board as the interaction's follow-up, or to the channel when no one is interacting."""
        view = view_of(items)
        kwargs: dict[str, Any] = {"content": content, "file": picture.file(), "allowed_mentions": MENTION_USERS}
        if view is not None:
            kwargs["view"] = view
        if interaction is not None:
            return await interaction.followup.send(wait=True, **kwargs)
        return await self.bot.get_partial_messageable(row.channel_id).send(**kwargs)

    async def _edit_message(self, channel_id: int, message_id: int | None, **changes: Any) -> None:
        """Edit an earlier message of ours, ignoring one that was deleted."""
        if message_id is None:
            return
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**changes)
        except discord.HTTPException as exc:
            log.info("could not edit message %s in %s: %s", message_id, channel_id, exc)

    async def _disable_board(self, row: GameRow) -> None:
        """Grey out the components of a game's current board."""
        try:
            board = self.board(row, disabled=True)
        except UserError:
            await self._edit_message(row.channel_id, row.board_message_id, view=None)
            return
        items = adapter_for(row.kind).board_items(board)
        await self._edit_message(row.channel_id, row.board_message_id, view=view_of(items))

    async def repost(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Post the current board again (or the lobby) and retire the previous one."""
        if row.status == LOBBY:
            await interaction.response.send_message(embed=self.lobby_embed(row), view=self.lobby_view(row))
            message = await interaction.original_response()
            await self._edit_message(row.channel_id, row.board_message_id, view=self.lobby_view(row, disabled=True))
            await self.db.set_board_message(row.id, message.id)
            return
        board = self.board(row)
        await interaction.response.defer(thinking=True)
        await self.publish(board, [], interaction=interaction, previous=self.board(row, disabled=True))

    # -- private views ------------------------------------------------------------------------------

    async def private_message(self, board: Board, seat: int) -> tuple[str, Picture | None]:
        """Return the text and picture of what one seat alone may see."""
        adapter = adapter_for(board.row.kind)
        view = board.game.view(board.state, seat)
        picture = await self.draw(adapter, "private_picture", view, board.names)
        return adapter.private_text(view, board.names), picture

    async def show_hand(self, interaction: discord.Interaction, row: GameRow) -> None:
        """Show the caller their private view, ephemerally."""
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        if row.status == LOBBY:
            raise UserError("The game has not started yet.")
        board = self.board(row)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, picture = await self.private_message(board, seat)
        kwargs: dict[str, Any] = {"content": text, "ephemeral": True}
        if picture is not None:
            kwargs["file"] = picture.file()
        view = view_of(adapter_for(row.kind).private_items(board, seat))
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(**kwargs)

    async def send_private(self, board: Board, seat: int) -> bool:
        """DM a seat its private view; if its DMs are closed, tell it in the channel to use /game hand."""
        if board.row.seats[seat].is_bot:
            return False
        user_id = board.row.seats[seat].user_id
        text, picture = await self.private_message(board, seat)
        kwargs: dict[str, Any] = {"content": f"**{board.game.title}** (game #{board.row.id})\n{text}"[:2000]}
        if picture is not None:
            kwargs["file"] = picture.file()
        view = view_of(adapter_for(board.row.kind).private_items(board, seat))
        if view is not None:
            kwargs["view"] = view
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(**kwargs)
            return True
        except discord.Forbidden:
            key = f"dm_closed:{board.row.id}:{user_id}"
            if await self.db.get_meta(key) is None:
                await self.db.set_meta(key, "1")
                await self.bot.get_partial_messageable(board.row.channel_id).send(
                    f"<@{user_id}>, I cannot DM you (your DMs are closed). "
                    "Use `/game hand` here to see your hand privately.",
                    allowed_mentions=MENTION_USERS,
                )
            return False

    # -- components -----------------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, hit: ComponentHit) -> None:
        """Route a button or select press to the lobby or to the game's adapter."""
        row = await self.db.game(hit.game_id)
        if row is None:
            raise UserError("This game no longer exists.")
        if hit.version == LOBBY_VERSION and hit.token in {"join", "leave", "start", "addbot"}:
            if row.status != LOBBY:
                raise UserError("This lobby is closed: the game has started or ended.")
            handler = {"join": self.join, "leave": self.leave, "start": self.start, "addbot": self.add_bot}[hit.token]
            await handler(interaction, row)
            return
        if hit.token == "rematch":
            await self.rematch(interaction, row)
            return
        if row.status != ACTIVE:
            raise UserError("This game is over.")
        adapter = adapter_for(row.kind)
        if hit.version != row.version and not adapter.accepts_stale(hit):
            raise UserError(STALE_BOARD)
        await adapter.on_component(self, interaction, self.board(row), hit)
