"""Keep every open table up to date: who watches which game, and a new state pushed after each saved change.

A change saved by this process is pushed at once (`saved`, called by the turn flow after each save); a change
saved by another process sharing the database (another shard, or after a takeback) is found by reading the
watched games' versions every `poll` seconds in one query. A table showing a game that is over follows the next
game played in its channel (a rematch, once started) by itself, found by the same poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from storage.database import ACTIVE, Database, GameRow
from storage.errors import StorageError
from storage.table import games_in_play, last_entry, versions
from table.protocol import NO_GAME_HERE, ProtocolError, error_message, state_message, state_of
from ui.errors import UserError
from ui.loading import GameLoader

if TYPE_CHECKING:
    from ui.moves import Commit

log = logging.getLogger(__name__)

POLL_S = 0.1
"""How often the versions of watched games are read, for changes saved by another process."""


@dataclass(eq=False)
class Watcher:
    """One open table: its socket, the user behind its session, their language, the game, its channel and the
    version sent."""

    ws: web.WebSocketResponse
    user_id: int
    language: str
    game_id: int
    channel_id: int
    sent: int = -1
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def seat(self, row: GameRow) -> int | None:
        """Return the watcher's seat in the game, or None for a spectator (a seat a computer took is not theirs)."""
        seat = row.seat_of(self.user_id)
        if seat is None or row.seats[seat].is_bot:
            return None
        return seat

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message unless the socket has closed."""
        if self.ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_json(message)


class Hub:
    """Hold the watchers of each game and push them new states."""

    def __init__(self, db: Database, loader: GameLoader, *, poll: float = POLL_S) -> None:
        self.db = db
        self.loader = loader
        self.poll = poll
        self.watchers: dict[int, set[Watcher]] = {}
        self.known: dict[int, int] = {}
        """The version last pushed for each watched game."""
        self._pushing: set[asyncio.Task[None]] = set()

    def join(self, watcher: Watcher) -> None:
        """Start pushing a game's states to a watcher."""
        self.watchers.setdefault(watcher.game_id, set()).add(watcher)

    def leave(self, watcher: Watcher) -> None:
        """Stop pushing to a watcher (its socket closed)."""
        group = self.watchers.get(watcher.game_id)
        if group is None:
            return
        group.discard(watcher)
        if not group:
            del self.watchers[watcher.game_id]
            self.known.pop(watcher.game_id, None)

    def saved(self, done: Commit) -> None:
        """Push a change this process just saved to the game's watchers, built from the saved state itself."""
        board = done.board
        group = self.watchers.get(board.row.id)
        if not group:
            return
        self.known[board.row.id] = board.version
        built: dict[tuple[int | None, str], dict[str, Any]] = {}
        sends = []
        for watcher in list(group):
            key = (watcher.seat(board.row), watcher.language)
            if key not in built:
                try:
                    built[key] = state_of(board.game, board.state, board.row, key[0], key[1], done.events)
                except ProtocolError:
                    continue
            sends.append(self.deliver(watcher, built[key]))
        task = asyncio.get_running_loop().create_task(gather_quietly(sends), name=f"table-push-{board.row.id}")
        self._pushing.add(task)
        task.add_done_callback(self._pushing.discard)

    async def run(self) -> None:
        """Look for changes saved by other processes every `poll` seconds and push them, until cancelled."""
        while True:
            await asyncio.sleep(self.poll)
            if not self.watchers:
                continue
            try:
                saved = await versions(self.db, sorted(self.watchers))
                behind = [game for game, (version, _status) in saved.items() if self.known.get(game) != version]
                await asyncio.gather(*(self.push(game_id) for game_id in behind))
                await self.follow([game for game, (_version, status) in saved.items() if status != ACTIVE])
            except StorageError as exc:  # logged once per outage by storage; tables keep what they show
                log.info("the table waits for the database: %s", exc)
            except Exception:
                log.exception("pushing tables failed")

    async def push(self, game_id: int) -> None:
        """Send the game's current state to each of its watchers that has not seen this version."""
        row = await self.db.game(game_id)
        if row is None or game_id not in self.watchers:
            return
        self.known[game_id] = row.version
        last = await last_entry(self.db, game_id, upto=row.version)
        built: dict[tuple[int | None, str], dict[str, Any]] = {}
        sends = []
        for watcher in list(self.watchers.get(game_id, ())):
            if watcher.sent >= row.version:
                continue
            key = (watcher.seat(row), watcher.language)
            if key not in built:
                try:
                    built[key] = state_message(self.loader, row, key[0], key[1], last)
                except ProtocolError:
                    continue
            sends.append(self.deliver(watcher, built[key]))
        await asyncio.gather(*sends)

    async def follow(self, over: list[int]) -> None:
        """Move the tables of games that are over to the game now played in their channel, if there is one."""
        tables = [watcher for game_id in over for watcher in self.watchers.get(game_id, ())]
        playing = await games_in_play(self.db, sorted({watcher.channel_id for watcher in tables}))
        moves = [
            self.move(watcher, playing[watcher.channel_id])
            for watcher in tables
            if playing.get(watcher.channel_id, watcher.game_id) != watcher.game_id
        ]
        await gather_quietly(moves)

    async def move(self, watcher: Watcher, game_id: int) -> None:
        """Show a watcher another game from now on: its current state first, then its changes."""
        self.leave(watcher)
        async with watcher.lock:
            watcher.game_id = game_id
            watcher.sent = -1
        self.join(watcher)
        try:
            await self.current(watcher)
        except (ProtocolError, UserError) as exc:
            await watcher.send(error_message(None, str(exc)) | {"fatal": "game"})
            await watcher.ws.close(code=NO_GAME_HERE)

    async def deliver(self, watcher: Watcher, message: dict[str, Any]) -> None:
        """Send a state to one watcher, never an older one after a newer, nor one of a game it has left."""
        async with watcher.lock:
            if message["version"] <= watcher.sent or message["game_id"] != watcher.game_id:
                return
            watcher.sent = message["version"]
            await watcher.send(message)

    async def current(self, watcher: Watcher) -> GameRow | None:
        """Send the game's current state to one watcher (on connect and on resume); return the row.

        A newer state pushed while this one was read has been sent already, so this one is not sent after it.
        """
        row = await self.db.game(watcher.game_id)
        if row is None:
            return None
        last = await last_entry(self.db, row.id, upto=row.version)
        message = state_message(self.loader, row, watcher.seat(row), watcher.language, last)
        async with watcher.lock:
            if row.id != watcher.game_id or row.version < watcher.sent:
                return row
            watcher.sent = row.version
            await watcher.send(message)
        return row

    async def close(self) -> None:
        """Wait for the pushes under way."""
        await asyncio.gather(*self._pushing, return_exceptions=True)

    def count(self) -> int:
        """Return how many tables are open."""
        return sum(len(group) for group in self.watchers.values())


async def gather_quietly(sends: list[Any]) -> None:
    """Send to several watchers at once; a closed socket is one watcher's problem, logged, never the move's."""
    for result in await asyncio.gather(*sends, return_exceptions=True):
        if isinstance(result, Exception):
            log.warning("a table update was not delivered: %r", result)
