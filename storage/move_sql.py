"""Write a saved move in as few statements as the database allows: one on PostgreSQL, in one trip on SQLite.

A move's write is the version-guarded UPDATE of the game (its new state, status, version and the moment the
scheduler must next look at it), its log entry, the final results when it ends the game and the statements
the caller adds (the answer the move still owes). `guarded_update` sets `due_at` in the UPDATE itself, from the
game's own and its server's reminder and timeout hours (the same rule as `storage.rows.due_moment`), so no
SELECT and second UPDATE follow. On PostgreSQL `one_statement` chains everything as data-modifying WITH
queries hanging off the UPDATE: one statement, one round trip, one commit, and nothing applies when the guard
does not match (every insert selects from the updated row).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from storage.fairness import STALL_HOURS
from storage.rows import ACTIVE, GuildSettings, Result

_SERVER = "(SELECT gs.{column} FROM guild_settings gs WHERE gs.guild_id = COALESCE(games.guild_id, 0))"
_CONFIGURED = "EXISTS (SELECT 1 FROM guild_settings gs WHERE gs.guild_id = COALESCE(games.guild_id, 0))"
_RATED = "COALESCE((SELECT gr.rated FROM game_rating gr WHERE gr.game_id = games.id), 1)"
_VALUES = re.compile(r"^(INSERT INTO [a-z_]+ \([a-z_, ]+\)) VALUES \(([?, ]+)\)(.*)$", re.DOTALL)


def due_expression(dialect: str) -> str:
    """Return SQL for a game's `due_at` right after a move saved at `?` (Unix seconds) under `status` `?`.

    Reminder hours are the game's, else its server's, else the default; timeout hours the game's, else its
    server's, else (a rated game) the stall limit. The wait begins now and nobody has been reminded yet.
    """
    reminder = (
        f"COALESCE(games.reminder_hours, CASE WHEN {_CONFIGURED} THEN {_SERVER.format(column='reminder_hours')}"
        f" ELSE {GuildSettings.reminder_hours!r} END)"
    )
    timeout = f"COALESCE(games.timeout_hours, {_SERVER.format(column='timeout_hours')})"
    limit = f"(CASE WHEN {timeout} <> 0 THEN {timeout} WHEN {_RATED} <> 0 THEN {STALL_HOURS!r} END)"
    hours = (
        f"(CASE WHEN {limit} IS NOT NULL AND {reminder} <> 0 THEN (CASE WHEN {limit} < {reminder} THEN {limit}"
        f" ELSE {reminder} END) WHEN {limit} IS NOT NULL THEN {limit} WHEN {reminder} <> 0 THEN {reminder} END)"
    )
    moment = f"(CAST(? AS DOUBLE PRECISION) + {hours} * 3600)" if dialect == "postgresql" else f"(? + {hours} * 3600)"
    if dialect == "postgresql":
        rounded = f"CAST(CEIL({moment}) AS BIGINT)"
    else:
        rounded = f"(CAST({moment} AS INTEGER) + ({moment} > CAST({moment} AS INTEGER)))"
    return f"CASE WHEN ? = '{ACTIVE}' AND games.paused_reason IS NULL THEN {rounded} END"


def guarded_update(dialect: str) -> str:
    """Return the version-guarded UPDATE of a move (state, status, version, rules, due_at) returning the game's keys.

    Its arguments (`update_args`): state, status, updated_at, rules, status, the moment (Unix seconds), id,
    version, status.
    """
    return (
        "UPDATE games SET state = ?, status = ?, version = version + 1, updated_at = ?,"
        f" rules = CASE WHEN version = 0 THEN ? ELSE rules END, due_at = {due_expression(dialect)}"
        " WHERE id = ? AND version = ? AND status = ? RETURNING guild_id, kind"
    )


def update_args(
    dialect: str,
    state: str,
    status: str,
    now: str,
    moment: float,
    rules: int | None,
    game_id: int,
    version: int,
    require: str,
) -> tuple[Any, ...]:
    """Return the arguments of `guarded_update`, in its order (SQLite reads the moment three times, to round it up)."""
    moments = (moment,) * (due_expression(dialect).count("?") - 1)
    return (state, status, now, rules, status, *moments, game_id, version, require)


LOG_COLUMNS = "game_id, version, seat, user_id, action, events, created_at, rules"
RESULT_COLUMNS = "game_id, seat, guild_id, kind, user_id, is_bot, score, rank, winner, finished_at"


def result_args(game_id: int, r: Result, now: str) -> tuple[Any, ...]:
    """Return one result's values but the game's server and kind (taken from the updated row)."""
    return (game_id, r.seat, r.user_id, int(r.is_bot), r.score, r.rank, int(r.winner), now)


def after_the_update(sql: str) -> str | None:
    """Turn `INSERT INTO t (cols) VALUES (?, ...) [ON CONFLICT ...]` into an insert that selects from `moved`.

    Return None for any other statement (it then runs in a transaction of its own making, see `one_statement`).
    """
    found = _VALUES.match(sql)
    if found is None:
        return None
    head, marks, tail = found.groups()
    return f"{head} SELECT {marks} FROM moved{tail}"


def one_statement(
    update: tuple[str, Sequence[Any]],
    log: Sequence[Any] | None,
    results: Sequence[Sequence[Any]],
    also: Sequence[tuple[str, Sequence[Any]]],
) -> tuple[str, list[Any]] | None:
    """Chain a move's whole write into one PostgreSQL statement returning the game's keys, or None if it cannot.

    Every insert selects from the updated row, so when the version guard matches nothing, nothing is written.
    """
    parts = [f"WITH moved AS ({update[0]})"]
    args: list[Any] = list(update[1])
    if log is not None:
        parts.append(f"logged AS (INSERT INTO actions ({LOG_COLUMNS}) SELECT {', '.join('?' * len(log))} FROM moved)")
        args += log
    for n, values in enumerate(results):
        parts.append(
            f"result{n} AS (INSERT INTO results ({RESULT_COLUMNS}) SELECT ?, ?, moved.guild_id, moved.kind,"
            " ?, ?, ?, ?, ?, ? FROM moved)"
        )
        args += values
    for n, (sql, values) in enumerate(also):
        chained = after_the_update(sql)
        if chained is None:
            return None
        parts.append(f"also{n} AS ({chained})")
        args += values
    return ", ".join(parts) + " SELECT guild_id, kind FROM moved", args
