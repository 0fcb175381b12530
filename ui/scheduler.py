"""Remind players who keep a game waiting, and let the computer move for them after a timeout."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from engine.words import join_names
from i18n import _, ngettext, using
from i18n.numbers import number
from storage.database import ACTIVE, GameRow, GuildSettings, StaleVersion, due_moment
from storage.errors import DatabaseBusy, DatabaseUnavailable
from storage.fairness import stall_limit
from storage.fencing import FenceLost, owner_work
from storage.server_rules import is_rated
from ui.errors import UserError
from ui.language import dm_language, in_game_language

if TYPE_CHECKING:
    from ui.flow import GameFlow

log = logging.getLogger(__name__)

MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)
MAX_ACTIONS_PER_TURN = 60
BATCH = 50


def hours(value: float) -> str:
    """Format a duration given in hours for people ("1 hour", "12 hours", "30 minutes")."""
    if value < 1:
        minutes = max(1, round(value * 60))
        return ngettext("{n} minute", "{n} minutes", minutes)
    value = round(value, 1) if value < 10 else round(value)
    count = int(value) if value == int(value) else 2  # a fraction of an hour reads as a plural ("1.5 hours")
    return ngettext("{n} hour", "{n} hours", count, n=number(value, "g"))


def reminder(people: Sequence[str], title: str, game_id: int, idle: float, link: str | None) -> str:
    """Return the reminder posted in a game's channel to the players it waits for (`people`: their mentions)."""
    values = {"people": join_names(people), "title": title, "id": game_id, "waited": hours(idle), "link": link}
    if link is None:
        return ngettext(
            "{people}, a reminder: {title} (game #{id}) has waited for you for {waited}.",
            "{people}, a reminder: {title} (game #{id}) has waited for you for {waited}.",
            len(people),
            **values,
        )
    return ngettext(
        "{people}, a reminder: {title} (game #{id}) has waited for you for {waited}. Board: {link}",
        "{people}, a reminder: {title} (game #{id}) has waited for you for {waited}. Board: {link}",
        len(people),
        **values,
    )


def timed_out(names: Sequence[str], limit: float) -> str:
    """Say that the players named did not play within `limit` hours and the easy computer player moves for them."""
    return ngettext(
        "⏰ {names} did not play within {limit}: the easy computer player moves for them this turn.",
        "⏰ {names} did not play within {limit}: the easy computer player moves for them this turn.",
        len(names),
        names=join_names(names),
        limit=hours(limit),
    )


def forfeited(names: Sequence[str], limit: float) -> str:
    """Say that the players named did not play within `limit` hours in a rated game, which counts as resigning."""
    return ngettext(
        "⏰ {names} did not play within {limit} in this rated game: that counts as resigning.",
        "⏰ {names} did not play within {limit} in this rated game: that counts as resigning.",
        len(names),
        names=join_names(names),
        limit=hours(limit),
    )


def reminder_dm(title: str, row: GameRow, link: str | None) -> str:
    """Return the reminder a player who asked for them gets by DM."""
    values = {"title": title, "id": row.id, "channel": f"<#{row.channel_id}>", "link": link}
    if link is None:
        return _("It's your turn in {title} (game #{id}) in {channel}.", **values)
    return _("It's your turn in {title} (game #{id}) in {channel}. Board: {link}", **values)


class Scheduler:
    """Remind or time out the games whose `due_at` has come, a batch at a time; the clock is the database's."""

    def __init__(self, flow: GameFlow, interval: float = 60.0, batch: int = BATCH) -> None:
        self.flow = flow
        self.interval = interval
        self.batch = batch

    async def run(self) -> None:
        """Check the games every `interval` seconds until cancelled (overdue timers fire on the first check).

        Only the owner of the games' shards may remind or time out: each write proves it (storage/fencing.py).
        """
        owner_work()
        await self.flow.bot.wait_until_ready()
        while True:
            try:
                await self.tick()
            except (DatabaseUnavailable, DatabaseBusy) as exc:  # storage logs an outage once; the next check resumes
                log.info("the reminder check waits for the database: %s", exc)
            except FenceLost as exc:  # the lease is in doubt: the next check runs once the shards are held again
                log.info("the reminder check waits for the shard lease: %s", exc)
            except Exception:
                log.exception("the reminder check failed")
            await asyncio.sleep(self.interval)

    async def tick(self) -> None:
        """Send every reminder that is due and play every turn that timed out, in the games this process owns."""
        await self.flow.private.replies.prune()  # the expired tokens of private answers, so that table stays small
        now = self.flow.db.clock()
        settings: dict[int | None, GuildSettings] = {}
        after = 0
        tally = self.flow.tally
        lag: dict[int, float] = dict.fromkeys(tally.scheduler_lag, 0.0)
        while rows := await self.flow.db.due_games(now, after, self.batch):
            for row in rows:
                shard = tally.shard_of(row.guild_id)
                lag[shard] = max(lag.get(shard, 0.0), now.timestamp() - (row.due_at or now.timestamp()))
                if row.guild_id not in settings:
                    settings[row.guild_id] = await self.flow.db.guild_settings(row.guild_id)
                try:
                    await self._check(row, now, settings[row.guild_id])
                except (DatabaseUnavailable, DatabaseBusy, FenceLost):
                    raise
                except StaleVersion:  # the game moved on while it was checked: the next check reads it again
                    continue
                except UserError:  # a damaged save (logged once): look again only once the game changes
                    await self.flow.db.set_due(row.id, row.version, None)
                except discord.HTTPException as exc:  # Discord refused for a passing reason: try at the next check
                    log.warning("checking game %s failed: %s", row.id, exc)
                except Exception:
                    log.exception("checking game %s failed", row.id)
            after = rows[-1].id
            await asyncio.sleep(0)  # let interactions in between batches
        tally.scheduler_lag = lag

    async def _check(self, row: GameRow, now: datetime, defaults: GuildSettings) -> None:
        """Remind or time out one game, or store when it will next be due."""
        game, state = self.flow.live(row)
        waiting = [s for s in game.to_act(state) if not row.seats[s].is_bot]
        if not waiting:  # a computer player's turn: nothing is due until the game changes
            await self.flow.db.set_due(row.id, row.version, None)
            return
        idle = (now - datetime.fromisoformat(row.updated_at)).total_seconds() / 3600
        timeout = row.timeout_hours if row.timeout_hours is not None else defaults.timeout_hours
        if timeout and idle >= timeout:
            await self._time_out(row, waiting, timeout)
            return
        stall = None if timeout else stall_limit(timeout, await is_rated(self.flow.db, row.id))
        if stall and idle >= stall:
            await self._forfeit(row, waiting, stall)
            return
        delay = row.reminder_hours if row.reminder_hours is not None else defaults.reminder_hours
        due = bool(delay) and idle >= delay and row.reminded_version != row.version
        if due and await self.flow.db.mark_reminded(row.id, row.version):
            await self._remind(row, waiting, idle)
        elif not due:
            reminded = row.reminded_version == row.version
            moment = due_moment(row.updated_at, reminder_hours=delay, timeout_hours=timeout or stall, reminded=reminded)
            await self.flow.db.set_due(row.id, row.version, moment)

    async def _post(self, row: GameRow, sending: Awaitable[object]) -> bool:
        """Post in a game's channel; if Discord refuses, let the game's lifecycle pause or end it and return False."""
        try:
            await sending
        except discord.HTTPException as exc:
            if not await self.flow.lifecycle.post_failed(row, exc):
                raise
            return False
        return True

    @in_game_language
    async def _remind(self, row: GameRow, waiting: list[int], idle: float) -> None:
        """Ping the waiting players in the game's channel, and by DM for those who opted in."""
        game = self.flow.live(row)[0]
        people = [row.seats[s].mention for s in waiting]
        link = None
        if row.guild_id and row.board_message_id:
            link = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.board_message_id}"
        text = reminder(people, game.title, row.id, idle, link)
        channel = self.flow.bot.get_partial_messageable(row.channel_id)
        if not await self._post(row, channel.send(text, allowed_mentions=MENTION_USERS)):
            return
        for seat in waiting:
            user_id = row.seats[seat].user_id
            if not await self.flow.db.wants_dm_reminders(user_id):
                continue
            try:
                dm = await self.flow.dms.channel(user_id)
                with using(await dm_language(self.flow.db, user_id)):
                    await dm.send(reminder_dm(game.title, row, link))
            except discord.HTTPException as exc:
                log.info("reminder DM to %s failed: %s", user_id, exc)

    async def _notice(self, row: GameRow, text: str) -> bool:
        """Post a notice in a game's channel that pings nobody; return False when the game could not be told."""
        channel = self.flow.bot.get_partial_messageable(row.channel_id)
        return await self._post(row, channel.send(text, allowed_mentions=discord.AllowedMentions.none()))

    @in_game_language
    async def _time_out(self, row: GameRow, waiting: list[int], limit: float) -> None:
        """Let the easy computer player take the waiting seats' turns, and say so."""
        if not await self._notice(row, timed_out([row.seats[s].name for s in waiting], limit)):
            return
        for seat in waiting:
            for _step in range(MAX_ACTIONS_PER_TURN):
                fresh = await self.flow.db.game(row.id)
                if fresh is None or fresh.status != ACTIVE:
                    return
                if not await self.flow.bots.play_for(row.id, seat, "easy", fresh.version):
                    break
                game, state = self.flow.live(await self.flow.db.game(row.id) or fresh)
                if not game.mid_turn(state, seat):
                    break

    @in_game_language
    async def _forfeit(self, row: GameRow, waiting: list[int], limit: float) -> None:
        """Resign the seats that kept a rated game without a timeout waiting past the stall limit, and say so."""
        if not await self._notice(row, forfeited([row.seats[s].name for s in waiting], limit)):
            return
        for seat in waiting:
            fresh = await self.flow.db.game(row.id)
            if fresh is None or fresh.status != ACTIVE:
                return
            async with self.flow.outbox.holding(row.id):
                done = await self.flow.commit(row.id, {"type": "resign"}, seat=seat)
                await self.flow.publish(done.board, done.events, interaction=None, previous=done.previous)
        self.flow.schedule_bots(row.id)
