"""Post every saved board that never reached its channel: at start-up, on a sweep, and when a game is touched.

A game's row knows the version its posted board shows (`posted_version`). Whenever that is behind the saved
version (the bot died between saving a move and posting it, Discord failed the post, the database stalled
past the interaction's window), the outbox posts the current board with what happened since the last one.
A channel where posting is refused (403 / 404) or fails is left alone for a while, longer after each try.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from itertools import islice
from typing import TYPE_CHECKING, Any

import discord

from engine.base import Event
from engine.replay import replay_as_played
from storage.database import Database, GameRow, StorageError
from storage.errors import DatabaseBusy, DatabaseUnavailable, resume_delay
from storage.fencing import FenceLost, owner_work
from ui.adapter import Board
from ui.errors import UserError
from ui.loading import GameLoader
from ui.publishing import Publisher
from ui.tally import Tally

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

SWEEP_S = 30.0
REFUSED_BACKOFF_S = (60.0, 3600.0)
"""First and longest wait before posting again in a channel that refused a post (403 / 404)."""
FAILED_BACKOFF_S = (2.0, 300.0)
"""First and longest wait before posting again after any other failure (Discord 5xx, rate limits)."""


def logged_event(data: dict[str, Any]) -> Event:
    """Return an event as the action log stores it."""
    return Event(data["kind"], data.get("seat"), data.get("data", {}), data.get("private_to"))


class Outbox:
    """Keep each game's posted board in step with its saved version."""

    def __init__(
        self,
        bot: commands.Bot,
        db: Database,
        loader: GameLoader,
        publisher: Publisher,
        *,
        interval: float = SWEEP_S,
        on_refused: Callable[[GameRow, discord.HTTPException], Awaitable[object]] | None = None,
    ) -> None:
        self.bot = bot
        self.on_refused = on_refused
        """Told when a channel refuses a board (403 / 404), e.g. to pause or abandon its game."""
        self.db = db
        self.loader = loader
        self.publisher = publisher
        self.interval = interval
        self._held: Counter[int] = Counter()
        self._backoff: dict[int, tuple[float, float]] = {}
        """Channel id -> (monotonic time before which nothing is posted there, the wait that led to it)."""
        self._kicks: dict[int, asyncio.Task[None]] = {}
        self._caught_up = asyncio.Event()
        self.tally = Tally()
        """Where the sweep leaves its backlog and lag for the metrics (the flow shares its own)."""

    @asynccontextmanager
    async def holding(self, game_id: int) -> AsyncIterator[None]:
        """Keep the outbox off a game while a move saves and posts its own board; if that fails, retry soon."""
        self._held[game_id] += 1
        failed = True
        try:
            yield
            failed = False
        finally:
            self._held[game_id] -= 1
            if not self._held[game_id]:
                del self._held[game_id]
                if failed:
                    self.kick(game_id, delay=FAILED_BACKOFF_S[0])

    async def run(self) -> None:
        """Sweep once the bot is connected (start-up), then every `interval` seconds until cancelled."""
        owner_work()
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.sweep()
            except (DatabaseUnavailable, DatabaseBusy) as exc:  # storage logs an outage once
                log.info("the board outbox sweep waits for the database: %s", exc)
            except FenceLost as exc:  # the lease is in doubt: the next sweep runs once the shards are held again
                log.info("the board outbox sweep waits for the shard lease: %s", exc)
            except Exception:
                log.exception("the board outbox sweep failed")
            self._caught_up.set()
            await asyncio.sleep(self.interval)

    async def caught_up(self) -> None:
        """Wait until the start-up sweep has run."""
        await self._caught_up.wait()

    async def idle(self) -> None:
        """Wait until no board is being posted by the outbox (for tests and shutdown)."""
        while tasks := [t for t in self._kicks.values() if not t.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop every background check."""
        for task in self._kicks.values():
            task.cancel()
        await asyncio.gather(*self._kicks.values(), return_exceptions=True)

    async def sweep(self) -> int:
        """Post the newest board of every game whose saved version was never posted; return how many were."""
        posted = 0
        behind = await self.db.games_behind()
        self._measure(behind)
        for row in behind:
            posted += await self.deliver(row.id)
        return posted

    def _measure(self, behind: list[GameRow]) -> None:
        """Record how many boards wait per shard, and for how long the oldest has waited."""
        now = self.db.clock()
        backlog: dict[int, int] = dict.fromkeys(self.tally.outbox_backlog, 0)
        lag: dict[int, float] = dict.fromkeys(self.tally.outbox_lag, 0.0)
        for row in behind:
            shard = self.tally.shard_of(row.guild_id)
            backlog[shard] = backlog.get(shard, 0) + 1
            waited = (now - datetime.fromisoformat(row.updated_at)).total_seconds()
            lag[shard] = max(lag.get(shard, 0.0), waited)
        self.tally.outbox_backlog, self.tally.outbox_lag = backlog, lag

    def notice(self, row: GameRow) -> None:
        """Post a game's board soon if the row just read shows it behind (the next interaction with it)."""
        if row.board_behind:
            self.kick(row.id)

    def kick(self, game_id: int, *, delay: float = 0.0) -> None:
        """Check one game in the background (after `delay` s), unless a check is already on its way."""
        task = self._kicks.get(game_id)
        if task is not None and not task.done():
            return
        self._kicks[game_id] = asyncio.get_running_loop().create_task(
            self._kicked(game_id, delay), name=f"outbox-{game_id}"
        )

    async def _kicked(self, game_id: int, delay: float) -> None:
        """Run one background check, logging instead of raising; while the database is down, try again later."""
        failures = 0
        owner_work()
        try:
            if delay:
                await asyncio.sleep(delay)
            while True:
                try:
                    await self.deliver(game_id)
                    return
                except (DatabaseUnavailable, DatabaseBusy):  # storage logs an outage once
                    failures += 1
                    await asyncio.sleep(resume_delay(failures))
        except FenceLost as exc:  # the shards may be another process's: its outbox posts the board
            log.info("the board of game %s is left to the shard's owner: %s", game_id, exc)
        except Exception:
            log.exception("posting the board of game %s failed", game_id)
        finally:
            self._kicks.pop(game_id, None)

    async def deliver(self, game_id: int) -> bool:
        """Post a game's current board if its posted one is behind; return True if a board was posted now."""
        if self._held[game_id] or not self.db.owns_shards():
            return False  # while the shard lease is in doubt, only its owner may post (storage/fencing.py)
        row = await self.db.game(game_id)
        if row is None or not row.board_behind or row.paused or self._waiting(row.channel_id):
            return False  # a paused game's board is posted by the lifecycle once the bot may post again
        try:
            board = self.loader.board(row)
            previous, events = await self._since_posted(row)
        except (DatabaseUnavailable, DatabaseBusy):
            raise
        except (UserError, StorageError, KeyError, ValueError) as exc:
            log.warning("the board of game %s cannot be rebuilt for posting: %s", row.id, exc)
            return False
        try:
            await self.publisher.publish(board, events, interaction=None, previous=previous, unless_posted=True)
        except (discord.Forbidden, discord.NotFound) as exc:
            self._back_off(row, exc, REFUSED_BACKOFF_S)
            if self.on_refused is not None:
                await self.on_refused(row, exc)
            return False
        except discord.HTTPException as exc:
            self._back_off(row, exc, FAILED_BACKOFF_S)
            return False
        self._backoff.pop(row.channel_id, None)
        log.info("posted the board of game %s at version %s (was %s)", row.id, row.version, row.posted_version)
        return True

    def _waiting(self, channel_id: int) -> bool:
        """Return True while a channel is backed off after a failed post."""
        until = self._backoff.get(channel_id)
        return until is not None and asyncio.get_running_loop().time() < until[0]

    def _back_off(self, row: GameRow, error: discord.HTTPException, limits: tuple[float, float]) -> None:
        """Leave the game's channel alone for a while, twice as long as last time (up to a limit)."""
        first, longest = limits
        last = self._backoff.get(row.channel_id, (0.0, 0.0))[1]
        wait = min(longest, max(first, last * 2))
        self._backoff[row.channel_id] = (asyncio.get_running_loop().time() + wait, wait)
        log.warning(
            "could not post the board of game %s in channel %s (%s %s); trying again in %.0f s",
            row.id,
            row.channel_id,
            error.status,
            error.text or type(error).__name__,
            wait,
        )

    async def _since_posted(self, row: GameRow) -> tuple[Board | None, list[Event]]:
        """Return the board last posted (to retire it) and the events of every move since, from the log."""
        log_entries = await self.db.actions(row.id)
        events = [Event("game_started")] if row.posted_version < 1 else []
        for entry in log_entries:
            if entry["version"] > row.posted_version:
                events += [logged_event(data) for data in entry["events"]]
        if row.posted_version < 1 or row.board_message_id is None:
            return None, events
        done = row.posted_version - 1  # version 1 is the opening deal; each logged action adds one
        steps = replay_as_played(row.kind, len(row.seats), row.options, row.seed, log_entries, row.rules, row.state)
        rules, state = next(islice(steps, done, None))
        return Board(row, rules, state, row.posted_version, disabled=True), events
