"""Play the computer players' turns: think off the event loop, then move like a person would."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from engine.base import IllegalAction
from engine.takeback import position
from storage import takebacks
from storage.database import ACTIVE, Database, GameRow, StaleVersion
from storage.errors import DatabaseBusy, DatabaseUnavailable, resume_delay
from storage.fencing import FenceLost, owner_work
from ui.errors import UserError
from ui.loading import GameLoader
from ui.seeds import computer_seed
from ui.thinkers import Thinkers

if TYPE_CHECKING:
    from ui.moves import Moves

log = logging.getLogger(__name__)

LEVELS = ("easy", "hard")
THINK_BUDGET = 1.5
"""Seconds a hard computer player searches per move in the bot, on its game's virtual clock (ai/clock.py)."""
UNEXPECTED_RETRIES = 4
"""Times a computer player's task tries again after an unexpected fault in a row before it stops (and logs an ERROR)."""


class BotPlayers:
    """Run one task per game whose turn belongs to a computer player."""

    def __init__(
        self,
        db: Database,
        loader: GameLoader,
        moves: Moves,
        *,
        pause: float = 2.0,
        budget: float = THINK_BUDGET,
        workers: str = "process",
        on_post_failed: Callable[[GameRow, discord.HTTPException], Awaitable[bool]] | None = None,
    ) -> None:
        self.db = db
        self.on_post_failed = on_post_failed
        self.loader = loader
        self.moves = moves
        self.pause = pause
        self.budget = budget
        self.workers = workers
        self.thinkers = Thinkers(workers)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False

    def schedule(self, game_id: int) -> None:
        """Make sure a task plays any computer turns of this game."""
        task = self._tasks.get(game_id)
        if self._closed or (task is not None and not task.done()):
            return  # after close, a move still being answered must not start a task that outlives the database
        self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id), name=f"bots-{game_id}")

    async def resume(self, batch: int = 50) -> int:
        """After a start-up, schedule every game whose turn belongs to a computer player; return how many.

        Games are read a batch at a time (never all at once), yielding to the event loop between batches.
        """
        scheduled, after = 0, 0
        while rows := await self.db.active_games_with_bots(after, batch):
            for row in rows:
                if row.paused:
                    continue
                try:
                    game, state = self.loader.live(row)
                except UserError:
                    continue
                if any(row.seats[s].is_bot for s in game.to_act(state)):
                    self.schedule(row.id)
                    scheduled += 1
            after = rows[-1].id
            await asyncio.sleep(0)
        return scheduled

    async def idle(self) -> None:
        """Wait until no computer player is thinking or moving (for tests and shutdown)."""
        while tasks := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop every bot task and the worker pool; schedule no new task."""
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self.thinkers.close()

    async def think(self, kind: str, view: dict[str, Any], seat: int, level: str, seed: int) -> dict[str, Any]:
        """Ask the computer players' pool for an action, within the think budget whatever other tables do."""
        return await self.thinkers.choose(kind, view, seat, level, seed, self.budget)

    async def play_for(self, game_id: int, seat: int, level: str, expected_version: int) -> bool:
        """Think for one seat and play its move; return False if the game moved on meanwhile."""
        row = await self.db.game(game_id)
        if row is None or row.status != ACTIVE or row.version != expected_version:
            return False
        game, state = self.loader.live(row)
        if seat not in game.to_act(state):
            return False
        action = await takebacks.remembered(self.db, game_id, seat, position(game.dump(state), seat))
        if action is None:  # a reply undone by a takeback is given again in the same position, whatever the clock
            view = game.view(state, seat)
            action = await self.think(row.kind, view, seat, level, computer_seed(row.seed, seat, view))
        try:
            async with self.moves.outbox.holding(game_id):
                try:
                    done = await self.moves.commit(game_id, action, seat=seat, expected_version=expected_version)
                except (UserError, IllegalAction, StaleVersion) as exc:  # the caller reads the game again
                    log.info("computer move in game %s not applied: %s", game_id, exc)
                    return False
                try:
                    await self.moves.publisher.publish(
                        done.board, done.events, interaction=None, previous=done.previous
                    )
                except discord.HTTPException as exc:
                    if self.on_post_failed is not None and await self.on_post_failed(done.board.row, exc):
                        return False
                    raise
        except discord.HTTPException as exc:
            log.warning("computer move in game %s saved; its board waits for the outbox: %s", game_id, exc)
        return True

    async def _run(self, game_id: int) -> None:
        """Play computer turns until a person must act or the game ends; wait out a database outage.

        Only the owner of the game's shard may play them: each move proves it (storage/fencing.py).
        """
        failures = faults = 0
        owner_work()
        try:
            while True:
                try:
                    if not await self._turn(game_id):
                        return
                    failures = faults = 0
                except (DatabaseUnavailable, DatabaseBusy, FenceLost):  # an outage, or the shard lease in doubt
                    failures += 1
                    await asyncio.sleep(resume_delay(failures))
                except UserError:
                    raise
                except Exception:  # a crashed worker or a fault in one move: read the game again and retry
                    faults += 1
                    if faults > UNEXPECTED_RETRIES:
                        raise
                    log.warning("computer player in game %s failed; trying again", game_id, exc_info=True)
                    await asyncio.sleep(resume_delay(faults))
        except UserError as exc:
            log.warning("computer players stopped in game %s: %s", game_id, exc)
        except Exception:
            log.exception("computer players failed in game %s and stopped after %d tries", game_id, faults)

    async def _turn(self, game_id: int) -> bool:
        """Play the next computer turn of a game; return False once a person must act or the game ended."""
        if not self.db.owns_shards():
            raise FenceLost("the shard lease is in doubt")
        row = await self.db.game(game_id)
        if row is None or row.status != ACTIVE or row.paused:  # a paused game goes on once it resumes
            return False
        game, state = self.loader.live(row)
        waiting = [s for s in game.to_act(state) if row.seats[s].is_bot]
        if not waiting:
            return False
        await asyncio.sleep(self.pause)
        seat = waiting[0]
        await self.play_for(game_id, seat, row.seats[seat].bot_level or "easy", row.version)
        return True
