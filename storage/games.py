"""Create games, seat players, and save each move with its log and results in one version-guarded transaction."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from i18n import _, ngettext
from i18n.commands import command_path
from storage.core import Store
from storage.errors import RETRY_DELAYS, CommitUnknown, DatabaseUnavailable, IntegrityError, StorageError
from storage.move_sql import LOG_COLUMNS, RESULT_COLUMNS, guarded_update, one_statement, result_args, update_args
from storage.rows import (
    ACTIVE,
    FINISHED,
    LOBBY,
    LOCK_GAME,
    SQL_INT,
    ChannelBusy,
    GameRow,
    Result,
    Seat,
    StaleVersion,
)
from storage.sql import Tx


class GameQueries(Store):
    """Read and change one game: lobby seats, moves, the action log, its final status."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        kind: str,
        host: Seat,
        options: dict[str, Any],
        seed: int,
        language: str | None = None,
        rated: bool | None = None,
        reminder_hours: float | None = None,
        timeout_hours: float | None = None,
    ) -> GameRow:
        """Open a lobby in a channel, host in seat 0, posting in `language`; raise ChannelBusy if one is open.

        Whether it is rated (None: not recorded) and its own timers are saved in the same transaction: a lobby is
        created whole or not at all.
        """
        now = self._now()
        try:
            async with self.backend.transaction() as tx:
                rows = await tx.fetch(
                    "INSERT INTO games (guild_id, channel_id, kind, status, host_id, options, seed, created_at,"
                    " updated_at, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, kind, LOBBY, host.user_id, json.dumps(options), seed, now, now, language),
                )
                game_id = int(rows[0][0])
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (game_id, host.user_id, host.name),
                )
                if rated is not None:
                    await tx.execute("INSERT INTO game_rating (game_id, rated) VALUES (?, ?)", (game_id, int(rated)))
                if reminder_hours is not None or timeout_hours is not None:
                    await tx.execute(
                        "UPDATE games SET reminder_hours = ?, timeout_hours = ? WHERE id = ?",
                        (reminder_hours, timeout_hours, game_id),
                    )
                    await self._refresh_due(tx, "g.id = ?", (game_id,))
        except IntegrityError as exc:
            raise ChannelBusy("this channel already has a game") from exc
        except CommitUnknown:  # the COMMIT's reply was lost: if the lobby is there, it is the player's
            found = await self._games(
                "g.channel_id = ? AND g.status = 'lobby' AND g.host_id = ? AND g.seed = ? AND g.created_at = ?",
                (channel_id, host.user_id, seed, now),
            )
            if not found:
                raise
            return found[0]
        row = await self.game(game_id)
        assert row is not None
        return row

    async def game(self, game_id: int) -> GameRow | None:
        """Return a game by id, or None (also for a number too large to be any game's)."""
        if game_id not in SQL_INT:
            return None
        found = await self._games("g.id = ?", (game_id,))
        return found[0] if found else None

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        """Return the lobby or active game in a channel, or None."""
        found = await self._games("g.channel_id = ? AND g.status IN ('lobby', 'active')", (channel_id,))
        return found[0] if found else None

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        """Return every game in one of these statuses, oldest first."""
        marks = ", ".join("?" for _status in statuses)
        return await self._games(f"g.status IN ({marks})", statuses)

    async def seat_player(
        self, game_id: int, user_id: int, name: str, max_seats: int, bot_level: str | None = None
    ) -> int:
        """Give a user (or a computer player) the first free seat of a lobby; return it, or raise StorageError."""
        async with self.backend.transaction() as tx:
            row = await tx.fetch(LOCK_GAME, (self._now(), game_id))
            if not row or row[0][0] != LOBBY:
                raise StorageError(_("This game is no longer open to join."))
            found = await tx.fetch("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))
            taken = {r[0]: r[1] for r in found}
            if user_id in taken.values():
                raise StorageError(_("You are already seated in this game."))
            if len(taken) >= max_seats:
                raise StorageError(
                    ngettext("The game is full ({n} player).", "The game is full ({n} players).", max_seats)
                )
            seat = min(set(range(max_seats)) - set(taken))
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, bot_level) VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, user_id, name, bot_level),
            )
            return seat

    async def unseat_player(self, game_id: int, user_id: int) -> None:
        """Remove a user from a lobby and close the gaps so seats stay 0..n-1."""
        async with self.backend.transaction() as tx:
            row = await tx.fetch(LOCK_GAME, (self._now(), game_id))
            if not row or row[0][0] != LOBBY:
                raise StorageError(
                    _("The game has already started: use {command} instead.", command=command_path("game resign"))
                )
            if await tx.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 0:
                raise StorageError(_("You are not seated in this game."))
            seats = [r[0] for r in await tx.fetch("SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]
            for new, old in enumerate(seats):
                if new != old:
                    await tx.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (new, game_id, old))

    async def start_game(
        self, game_id: int, state: dict[str, Any], expected_version: int, rules: int | None = None
    ) -> int:
        """Turn a lobby into an active game with its first state, dealt under `rules`; return the new version."""
        return await self._write(game_id, expected_version, state, ACTIVE, None, require=LOBBY, rules=rules)

    async def record_action(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        *,
        seat: int | None,
        user_id: int | None,
        action: dict[str, Any],
        events: Sequence[dict[str, Any]],
        finished: bool,
        results: Sequence[Result] = (),
        also: Sequence[tuple[str, Sequence[Any]]] = (),
        rules: int | None = None,
        claims: Sequence[tuple[str, Sequence[Any]]] = (),
    ) -> int:
        """Save the new state, append the action (applied under `rules`) and, at the end, the results, at once.

        `also` holds more statements to run in the same transaction (e.g. the answer the move still owes).
        `claims` are statements that must each change exactly one row (e.g. deciding a pending request): if one
        changes none, nothing is saved and StaleVersion is raised.
        """
        log = (seat, user_id, json.dumps(action), json.dumps(list(events)))
        status = FINISHED if finished else ACTIVE
        return await self._write(
            game_id,
            expected_version,
            state,
            status,
            log,
            require=ACTIVE,
            results=results,
            also=also,
            rules=rules,
            claims=claims,
        )

    async def _write(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        status: str,
        log: tuple[int | None, int | None, str, str] | None,
        require: str,
        results: Sequence[Result] = (),
        also: Sequence[tuple[str, Sequence[Any]]] = (),
        rules: int | None = None,
        claims: Sequence[tuple[str, Sequence[Any]]] = (),
    ) -> int:
        """Write a state only if the game is still at `expected_version` and in status `require`.

        The guarded UPDATE takes the row's write lock first, so of two writers at the same version (in this
        process or another) exactly one matches; the other raises StaleVersion and changes nothing. A blip
        (connection lost, serialization failure) is retried a few times: should the lost attempt have been
        committed after all, the retry finds this very change in the log and reports it as saved.
        """
        retried, unknown = False, None
        for delay in (*RETRY_DELAYS, None):
            try:
                return await self._write_once(
                    game_id, expected_version, state, status, log, require, results, also, rules, claims
                )
            except StaleVersion:
                if retried and await self._already_written(game_id, expected_version + 1, status, log):
                    return expected_version + 1
                raise
            except DatabaseUnavailable as exc:
                unknown = exc if isinstance(exc, CommitUnknown) else unknown
                if (not exc.transient or delay is None) and unknown not in (None, exc):
                    raise unknown from exc  # once a COMMIT went unanswered, "nothing changed" is untrue
                if not exc.transient or delay is None:
                    raise
                retried = True
                await asyncio.sleep(delay)
            except StorageError as exc:
                if unknown is not None:
                    raise unknown from exc  # a retry refused as busy after an unanswered COMMIT: still unknown
                raise
        raise AssertionError("unreachable")

    async def _already_written(
        self, game_id: int, version: int, status: str, log: tuple[int | None, int | None, str, str] | None
    ) -> bool:
        """Tell whether the game is at `version` because of exactly this change (an attempt that did commit)."""
        if log is None:
            row = await self.game(game_id)
            return row is not None and row.version == version and row.status == status
        rows = await self.backend.fetch(
            "SELECT seat, user_id, action FROM actions WHERE game_id = ? AND version = ?", (game_id, version)
        )
        return bool(rows) and (rows[0][0], rows[0][1], rows[0][2]) == (log[0], log[1], log[2])

    async def _write_once(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        status: str,
        log: tuple[int | None, int | None, str, str] | None,
        require: str,
        results: Sequence[Result],
        also: Sequence[tuple[str, Sequence[Any]]] = (),
        rules: int | None = None,
        claims: Sequence[tuple[str, Sequence[Any]]] = (),
    ) -> int:
        """Try the guarded write once: in one statement on PostgreSQL, in one trip to the writer on SQLite."""
        clock = self.clock()
        now = clock.isoformat()
        dialect = self.backend.dialect
        update = (
            guarded_update(dialect),
            update_args(
                dialect, json.dumps(state), status, now, clock.timestamp(), rules, game_id, expected_version, require
            ),
        )
        entry = None if log is None else (game_id, expected_version + 1, *log, now, rules)
        rows = [result_args(game_id, r, now) for r in results]
        if dialect == "postgresql" and not claims:
            single = one_statement(update, entry, rows, also)
            if single is not None:
                if not await self.backend.write(*single):
                    raise StaleVersion(_("Someone else acted first: this board is out of date."))
                return expected_version + 1

        async def write(tx: Tx) -> None:
            found = await tx.fetch(*update)
            if not found:
                raise StaleVersion(_("Someone else acted first: this board is out of date."))
            for sql, args in claims:
                if await tx.execute(sql, args) != 1:
                    raise StaleVersion(_("Someone else acted first: this board is out of date."))
            if entry is not None:
                await tx.execute(f"INSERT INTO actions ({LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", entry)
            guild_id, kind = found[0][0], found[0][1]
            for values in rows:
                await tx.execute(
                    f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*values[:2], guild_id, kind, *values[2:]),
                )
            for sql, args in also:
                await tx.execute(sql, args)

        await self.backend.run(write)
        return expected_version + 1

    async def set_status(self, game_id: int, status: str) -> bool:
        """Move an open game to a final status; return False if it was no longer open."""
        changed = await self.backend.execute(
            "UPDATE games SET status = ?, version = version + 1, updated_at = ?, due_at = NULL"
            " WHERE id = ? AND status IN ('lobby', 'active')",
            (status, self._now(), game_id),
        )
        return changed == 1

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """Return a game's action log in order."""
        if game_id not in SQL_INT:
            return []
        rows = await self.backend.fetch(
            "SELECT version, seat, user_id, action, events, created_at, rules FROM actions WHERE game_id = ?"
            " ORDER BY version",
            (game_id,),
        )
        return [
            {
                "version": r["version"],
                "seat": r["seat"],
                "user_id": r["user_id"],
                "action": json.loads(r["action"]),
                "events": json.loads(r["events"]),
                "created_at": r["created_at"],
                "rules": r["rules"],
            }
            for r in rows
        ]

    async def hand_seat_to_bot(self, game_id: int, seat: int, level: str, name: str) -> None:
        """Let a computer player take over a seat for the rest of the game."""
        await self.backend.execute(
            "UPDATE seats SET bot_level = ?, name = ? WHERE game_id = ? AND seat = ?", (level, name, game_id, seat)
        )
