"""Answer questions about games: lists, replays, statistics and leaderboards (the history is in ui.history)."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from engine.base import CorruptState, Game, IllegalAction
from engine.legacy import UnknownRules, rules_for, saved_version
from engine.registry import games, get
from engine.takeback import effective_log
from engine.words import join_list
from i18n import N_, _, ngettext
from i18n.numbers import number
from storage.database import ACTIVE, FINISHED, OPEN, GameRow
from storage.shared_records import shared_servers, shared_stats
from ui.errors import UserError
from ui.language import in_game_language
from ui.loading import check_row
from ui.mentions import command
from ui.replays import cache_for, replay_gif
from ui.text import lines_within

if TYPE_CHECKING:
    from ui.flow import GameFlow

log = logging.getLogger(__name__)

NOT_FOUND = N_("No game found: give a game number, or use this in the game's channel.")
NO_GAMES = N_("No games are being played in this server. Start one with {command}.")


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
        return ngettext("lobby ({n} seated)", "lobby ({n} seated)", len(row.seats))
    try:
        game, state = flow.live(row)
    except UserError:
        return _("damaged save")
    return _("waiting for {names}", names=join_list([row.seats[s].name for s in game.to_act(state)]))


async def list_games(flow: GameFlow, guild_id: int) -> str:
    """List the server's lobbies and active games with links and whose turn it is."""
    rows = await flow.db.open_games_in_guild(guild_id)
    if not rows:
        return _(NO_GAMES, command=command("game new"))
    lines = []
    for row in rows:
        try:
            check_seats(row)
            line = _(
                "#{id} {title} in {channel}: {state} · {link}",
                id=row.id,
                title=get(row.kind).title,
                channel=f"<#{row.channel_id}>",
                state=waiting_on(flow, row),
                link=jump_link(row),
            )
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("game %s is damaged and left out of /game list: %r", row.id, exc)
            continue
        lines.append(line)
    if not lines:
        return _(NO_GAMES, command=command("game new"))
    return lines_within([ngettext("**{n} open game**", "**{n} open games**", len(lines)), *lines])


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
        return _("No game is waiting for you right now.")
    return lines_within([ngettext("**{n} game waits for you**", "**{n} games wait for you**", len(lines)), *lines])


async def pick_game(flow: GameFlow, interaction: discord.Interaction, game_id: int | None) -> GameRow:
    """Return the game asked for, or this channel's latest; only this server's games, or in DMs the caller's."""
    row = await flow.db.game(game_id) if game_id else await flow.db.latest_game_in(interaction.channel_id or 0)
    if row is None or not visible_to(interaction, row):
        raise UserError(_(NOT_FOUND))
    check_row(row)
    return row


def visible_to(interaction: discord.Interaction, row: GameRow) -> bool:
    """Return True when the caller may see a game's records: one of this server's, or in DMs one of theirs."""
    if interaction.guild_id is not None:
        return row.guild_id == interaction.guild_id
    return row.seat_of(interaction.user.id) is not None


def described_by(row: GameRow, entry: dict[str, Any]) -> Game:
    """Return the rules that tell a logged step as it was told then: those it was played under."""
    version = entry.get("rules")
    if version is None and row.status not in OPEN:
        version = saved_version(row.state)  # saved before versions were kept: the rules of the final save
    try:
        return rules_for(row.kind, version)
    except UnknownRules:
        return get(row.kind)


@in_game_language
async def replay_file(flow: GameFlow, row: GameRow) -> discord.File:
    """Return a finished game's boards as an animated GIF, drawn in the render pool once and then cached."""
    if row.status != FINISHED:
        raise UserError(_("Only a finished game can be replayed."))
    game = get(row.kind)
    log_entries = effective_log(await flow.db.actions(row.id))  # moves taken back are not replayed
    try:
        gif = await replay_gif(flow.renderer.pool, cache_for(flow.db.path), row, log_entries)
    except (IllegalAction, CorruptState, UnknownRules) as exc:
        log.warning("game %s cannot be replayed under any kept rules: %s", row.id, exc)
        raise UserError(
            _(
                "Game #{id} was played under rules this bot no longer keeps, so its boards cannot be drawn again. "
                "Its result stands, and {command} lists its moves.",
                id=row.id,
                command=command("game history"),
            )
        ) from exc
    alt = ngettext(
        "Animated replay of {title} game #{id}: {n} move, board by board, to the final board.",
        "Animated replay of {title} game #{id}: {n} moves, board by board, to the final board.",
        len(log_entries),
        title=game.title,
        id=row.id,
    )
    return discord.File(io.BytesIO(gif), filename=f"replay-{row.id}.gif", description=alt)


def resolved(user: object) -> discord.abc.User:
    """Return a user Discord resolved; refuse a forged or unresolved one plainly."""
    if not isinstance(getattr(user, "id", None), int) or not hasattr(user, "name"):
        raise UserError(_("That user could not be found: pick someone from the list Discord offers."))
    return user  # type: ignore[return-value]


async def stats_text(flow: GameFlow, viewer_id: int, user: object, guild_id: int | None) -> str:
    """Describe a player's record per game type, as the viewer may see it.

    In a server: the games finished in that server. In a DM: your own record everywhere, or another player's
    in the servers where you both play (never what they did in servers you are not part of).
    """
    user_id = resolved(user).id
    name = getattr(user, "display_name", None) or f"<@{user_id}>"
    shared = guild_id is None and user_id != viewer_id
    if shared:
        rows = await shared_stats(flow.db, user_id, viewer_id)
        if not rows:
            return _("{name} has not finished a game in any server where you play too.", name=name)
        servers = await shared_servers(flow.db, user_id, viewer_id)
        lines = [
            ngettext(
                "**{name}** (in the {n} server where you both play)",
                "**{name}** (in the {n} servers where you both play)",
                servers,
                name=name,
            )
        ]
    else:
        rows = await flow.db.player_stats(user_id, guild_id)
        if not rows:
            return _("{name} has not finished a game here yet.", name=name)
        lines = [f"**{name}**"]
    for s in rows:
        if s.kind not in games():
            log.warning("results of an unknown game %r are left out of /game stats", s.kind)
            continue
        rate = 100 * s.wins / s.games
        lines.append(
            _(
                "{title}: {games}, {wins} ({rate}%), average score {average}",
                title=get(s.kind).title,
                games=ngettext("{n} game", "{n} games", s.games),
                wins=ngettext("{n} win", "{n} wins", s.wins),
                rate=number(rate, ".0f"),
                average=number(s.average_score, ".1f"),
            )
        )
    return lines_within(lines)
