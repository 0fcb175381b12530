"""Answer questions about games: lists, move history, replays, statistics and leaderboards."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord

from engine.base import Event
from engine.registry import get
from engine.takeback import effective_log
from storage.database import ACTIVE, FINISHED, GameRow
from ui.errors import UserError
from ui.publishing import describe
from ui.replays import cache_for, replay_gif
from ui.text import lines_within

if TYPE_CHECKING:
    from ui.flow import GameFlow

log = logging.getLogger(__name__)

PAGE = 15
NOT_FOUND = "No game found: give a game number, or use this in the game's channel."


def jump_link(row: GameRow) -> str:
    """Return a link to a game's current board, or to its channel."""
    if row.guild_id and row.board_message_id:
        return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.board_message_id}"
    return f"<#{row.channel_id}>"


def check_seats(row: GameRow) -> None:
    """Raise ValueError when a saved game's seats are not numbered 0, 1, 2... (a seat row is missing)."""
    numbers = [s.seat for s in row.seats]
    if numbers != list(range(len(numbers))):
        raise ValueError(f"seats are {numbers}, not 0..{len(numbers) - 1}")


def waiting_on(flow: GameFlow, row: GameRow) -> str:
    """Say whose turn a game waits for, or that it is a lobby."""
    if row.status != ACTIVE:
        return f"lobby ({len(row.seats)} seated)"
    try:
        game, state = flow.live(row)
    except UserError:
        return "damaged save"
    return "waiting for " + ", ".join(row.seats[s].name for s in game.to_act(state))


async def list_games(flow: GameFlow, guild_id: int) -> str:
    """List the server's lobbies and active games with links and whose turn it is."""
    rows = await flow.db.open_games_in_guild(guild_id)
    if not rows:
        return "No games are being played in this server. Start one with `/game new`."
    lines = []
    for row in rows:
        try:
            check_seats(row)
            line = f"#{row.id} {get(row.kind).title} in <#{row.channel_id}>: {waiting_on(flow, row)} · {jump_link(row)}"
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("game %s is damaged and left out of /game list: %r", row.id, exc)
            continue
        lines.append(line)
    if not lines:
        return "No games are being played in this server. Start one with `/game new`."
    return lines_within([f"**{len(lines)} open game(s)**", *lines])


async def my_turns(flow: GameFlow, user_id: int) -> str:
    """List the active games, in every server, that wait for this user."""
    lines = []
    for row in await flow.db.active_games_of(user_id):
        seat = row.seat_of(user_id)
        try:
            check_seats(row)
            game, state = flow.live(row)
            if seat is not None and seat in game.to_act(state) and not row.seats[seat].is_bot:
                lines.append(f"#{row.id} {game.title}: {game.status(state, row.names)} · {jump_link(row)}")
        except UserError:
            continue
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("game %s is damaged and left out of /game mine: %r", row.id, exc)
    if not lines:
        return "No game is waiting for you right now."
    return lines_within([f"**{len(lines)} game(s) wait for you**", *lines])


async def pick_game(flow: GameFlow, interaction: discord.Interaction, game_id: int | None) -> GameRow:
    """Return the game asked for, or this channel's latest; only this server's games, or in DMs the caller's."""
    row = await flow.db.game(game_id) if game_id else await flow.db.latest_game_in(interaction.channel_id or 0)
    if row is None:
        raise UserError(NOT_FOUND)
    if interaction.guild_id is not None and row.guild_id != interaction.guild_id:
        raise UserError(NOT_FOUND)
    if interaction.guild_id is None and row.seat_of(interaction.user.id) is None:
        raise UserError(NOT_FOUND)
    return row


async def history(flow: GameFlow, row: GameRow, page: int) -> str:
    """Return one page of a game's public move log, oldest first."""
    game = get(row.kind)
    lines = []
    for entry in await flow.db.actions(row.id):
        for data in entry["events"]:
            event = Event(data["kind"], data.get("seat"), data.get("data", {}), data.get("private_to"))
            if event.private_to is None and (text := describe(game, event, row.names)):
                lines.append(f"`{entry['version']:>3}` {text}")
    if not lines:
        return f"Game #{row.id} ({game.title}) has no moves yet."
    pages = -(-len(lines) // PAGE)
    page = min(max(page, 1), pages)
    chunk = lines[(page - 1) * PAGE : page * PAGE]
    header = f"**{game.title}, game #{row.id}: moves, page {page} of {pages}**"
    return lines_within([header, *chunk])


async def replay_file(flow: GameFlow, row: GameRow) -> discord.File:
    """Return a finished game's boards as an animated GIF, drawn in the render pool once and then cached."""
    if row.status != FINISHED:
        raise UserError("Only a finished game can be replayed.")
    game = get(row.kind)
    log = effective_log(await flow.db.actions(row.id))  # moves taken back are not replayed
    gif = await replay_gif(flow.renderer.pool, cache_for(flow.db.path), row, log)
    alt = f"Animated replay of {game.title} game #{row.id}: {len(log)} moves, board by board, to the final board."
    return discord.File(io.BytesIO(gif), filename=f"replay-{row.id}.gif", description=alt)


async def stats_text(flow: GameFlow, user: discord.abc.User, guild_id: int | None) -> str:
    """Describe a player's record per game type."""
    rows = await flow.db.player_stats(user.id, guild_id)
    if not rows:
        return f"{user.display_name} has not finished a game here yet."
    lines = [f"**{user.display_name}**"]
    for s in rows:
        rate = 100 * s.wins / s.games
        lines.append(
            f"{get(s.kind).title}: {s.games} games, {s.wins} wins ({rate:.0f}%), average score {s.average_score:.1f}"
        )
    return "\n".join(lines)


async def leaderboard_text(flow: GameFlow, guild_id: int, kind: str) -> str:
    """Rank a server's players of one game by wins, then average score."""
    rows = await flow.db.leaderboard(guild_id, kind)
    title = get(kind).title
    if not rows:
        return f"Nobody has finished a game of {title} in this server yet."
    lines = [f"**{title} leaderboard**"]
    for place, (user_id, s) in enumerate(rows, start=1):
        lines.append(f"{place}. <@{user_id}>: {s.wins} wins in {s.games} games, average score {s.average_score:.1f}")
    return "\n".join(lines)
