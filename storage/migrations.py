"""List the database schema as numbered migrations, applied in order exactly once."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: games, seats, the append-only action log and key/value metadata.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        host_id INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        board_message_id INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER,
        user_id INTEGER,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        WHEN (SELECT COUNT(*) FROM games WHERE id = OLD.game_id) > 0
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: computer players, reminders and timeouts, per-server settings, DM opt-in, final results.
    """
    ALTER TABLE seats ADD COLUMN bot_level TEXT;
    ALTER TABLE games ADD COLUMN reminder_hours REAL;
    ALTER TABLE games ADD COLUMN timeout_hours REAL;
    ALTER TABLE games ADD COLUMN reminded_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        reminder_hours REAL NOT NULL DEFAULT 12,
        timeout_hours REAL,
        thread_default INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE notify (
        user_id INTEGER PRIMARY KEY,
        dm INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        guild_id INTEGER,
        kind TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        is_bot INTEGER NOT NULL DEFAULT 0,
        score INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        winner INTEGER NOT NULL,
        finished_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_user ON results (user_id);
    CREATE INDEX results_by_guild_kind ON results (guild_id, kind);
    """,
    # 3: games outlive their channel: an "abandoned" status (channel, thread or server gone), a pause while
    # the bot may not post, and `due_at`, the indexed moment (Unix seconds) the scheduler must next look at a
    # game (0 for every active game here: the first check computes the real moment).
    # SQLite cannot change a CHECK constraint, so the games table is rebuilt (foreign keys are off while
    # migrations run; the triggers that read games are dropped and recreated around the rebuild).
    """
    DROP TRIGGER actions_append_only_update;
    DROP TRIGGER actions_append_only_delete;
    CREATE TABLE games_new (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
        host_id INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        board_message_id INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        reminder_hours REAL,
        timeout_hours REAL,
        reminded_version INTEGER NOT NULL DEFAULT 0,
        rematch_of INTEGER REFERENCES games (id),
        due_at INTEGER,
        paused_reason TEXT,
        paused_at TEXT
    );
    INSERT INTO games_new (id, guild_id, channel_id, kind, status, host_id, options, seed, state, version,
        board_message_id, created_at, updated_at, reminder_hours, timeout_hours, reminded_version, rematch_of)
        SELECT id, guild_id, channel_id, kind, status, host_id, options, seed, state, version,
        board_message_id, created_at, updated_at, reminder_hours, timeout_hours, reminded_version, rematch_of
        FROM games;
    DROP TABLE games;
    ALTER TABLE games_new RENAME TO games;
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_status ON games (status);
    CREATE INDEX games_by_due ON games (due_at) WHERE due_at IS NOT NULL;
    CREATE INDEX games_by_guild ON games (guild_id, status);
    CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
        WHEN (SELECT COUNT(*) FROM games WHERE id = OLD.game_id) > 0
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    UPDATE games SET due_at = 0 WHERE status = 'active';
    """,
    # 4: the board outbox: the version the posted board shows, so a saved move whose board never reached the
    # channel is posted later (after a crash, at start-up, on the next press, by the periodic sweep).
    """
    ALTER TABLE games ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET posted_version = version;
    """,
)
