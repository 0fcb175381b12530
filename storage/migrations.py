"""List the database schema as numbered migrations, applied in order exactly once on every backend.

Each entry is one script for both SQLite and PostgreSQL, or a {"sqlite": ..., "postgresql": ...} pair where
the dialects differ (identity columns, 64-bit integers, triggers). Add a migration by appending an entry;
never edit an applied one. Keep columns of the same meaning on both (TEXT for JSON and ISO timestamps,
INTEGER 0/1 for flags) so every query in the storage rooms (storage/games.py, schedule.py, ...) runs unchanged on both.
The first nine, frozen, are in storage/first_migrations.py; new ones are appended here.
"""

from __future__ import annotations

from storage.first_migrations import FIRST_MIGRATIONS

Migration = str | dict[str, str]

NOW_AS_TEXT = {
    "sqlite": "strftime('%s', 'now')",
    "postgresql": "CAST(CAST(EXTRACT(EPOCH FROM now()) AS BIGINT) AS TEXT)",
}
"""The current Unix time as text, in each dialect."""


def recomputed_ratings(why: str | None = None, before: str = "") -> dict[str, str]:
    """Return a migration that deletes the derived ratings, rebuilt from the stored results when next read.

    `ratings_recomputed` (and `ratings_recomputed_why`, if given) let the leaderboard say so; `before` runs first.
    """
    why_line = (
        f"""    INSERT INTO meta (key, value) SELECT 'ratings_recomputed_why', '{why}'
        WHERE EXISTS (SELECT 1 FROM rated_games)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value;
"""
        if why
        else ""
    )
    return {
        dialect: f"""
{before}    INSERT INTO meta (key, value) SELECT 'ratings_recomputed', {now}
        WHERE EXISTS (SELECT 1 FROM rated_games)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value;
{why_line}    DELETE FROM rating_history;
    DELETE FROM ratings;
    DELETE FROM rated_games;
    """
        for dialect, now in NOW_AS_TEXT.items()
    }


PAIRING = """    ALTER TABLE rated_games ADD COLUMN pairing TEXT;
    CREATE INDEX rated_games_by_pairing ON rated_games (guild_id, kind, pairing, finished_at);
"""

MIGRATIONS: tuple[Migration, ...] = (
    *FIRST_MIGRATIONS,  # 1 to 9
    # 10: ephemeral replies that carry a live game menu (an answered `/game hand`, a private menu), with their
    # interaction's token, so they are greyed out when the game ends, is cancelled or is abandoned (a restart
    # in between too). Discord keeps a token 15 minutes: older rows are pruned. `original`: the reply is the
    # interaction's original response (edited as @original), else a follow-up edited by its id.
    {
        "sqlite": """
    CREATE TABLE reply_menus (
        message_id INTEGER PRIMARY KEY,
        application_id INTEGER NOT NULL,
        token TEXT NOT NULL,
        original INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        sent_at REAL NOT NULL
    );
    CREATE INDEX reply_menus_by_game ON reply_menus (game_id, user_id);
    CREATE INDEX reply_menus_by_age ON reply_menus (sent_at);
    """,
        "postgresql": """
    CREATE TABLE reply_menus (
        message_id BIGINT PRIMARY KEY,
        application_id BIGINT NOT NULL,
        token TEXT NOT NULL,
        original INTEGER NOT NULL,
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL,
        sent_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX reply_menus_by_game ON reply_menus (game_id, user_id);
    CREATE INDEX reply_menus_by_age ON reply_menus (sent_at);
    """,
    },
    # 11: languages: each game's, kept for its whole life (NULL: English, games from before); each server's
    # choice for new games (/game settings language:); each user's client language, for DMs sent later.
    {
        "sqlite": """
    ALTER TABLE games ADD COLUMN language TEXT;
    CREATE TABLE guild_language (
        guild_id INTEGER PRIMARY KEY,
        language TEXT NOT NULL
    );
    CREATE TABLE user_language (
        user_id INTEGER PRIMARY KEY,
        language TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
        "postgresql": """
    ALTER TABLE games ADD COLUMN language TEXT;
    CREATE TABLE guild_language (
        guild_id BIGINT PRIMARY KEY,
        language TEXT NOT NULL
    );
    CREATE TABLE user_language (
        user_id BIGINT PRIMARY KEY,
        language TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
    },
    # 12: a server may forbid hints altogether (/game settings hints:false); every server allowed them before.
    "ALTER TABLE rating_settings ADD COLUMN hints INTEGER NOT NULL DEFAULT 1;",
    # 13: table sessions: a random token (stored as its SHA-256) bound to the Discord user who authorized the
    # Activity, with its language and expiry; a token not found, or past its expiry, is refused.
    {
        "sqlite": """
    CREATE TABLE table_sessions (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        language TEXT NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX table_sessions_by_expiry ON table_sessions (expires_at);
    """,
        "postgresql": """
    CREATE TABLE table_sessions (
        token_hash TEXT PRIMARY KEY,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        language TEXT NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX table_sessions_by_expiry ON table_sessions (expires_at);
    """,
    },
    # 14: ratings recomputed with shared places rated fairly (storage/rating_model.py): the derived ratings are
    # deleted, so each server's are rebuilt from the stored results, in finishing order, when next read
    # (storage/ratings.py catch_up); the leaderboard says when, if there were any.
    recomputed_ratings(),
    # 15: the shard lease's fencing token (storage/fencing.py): each claim writes a larger epoch, which owner-only
    # work proves in its transactions; and the newest game of a channel found by index, not by scanning its history.
    """
    ALTER TABLE shard_owners ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
    CREATE INDEX games_by_channel ON games (channel_id, id);
    """,
    # 16: what a computer player replied in a position a takeback went back to, so that it replies the same when
    # the position comes again (no re-rolling the computer); how many takebacks a player may make in a game
    # where only computer players are asked (/game settings computer_takebacks:).
    {
        "sqlite": """
    CREATE TABLE bot_replies (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        position TEXT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game_id, seat, position)
    );
    ALTER TABLE rating_settings ADD COLUMN computer_takebacks INTEGER NOT NULL DEFAULT 3;
    """,
        "postgresql": """
    CREATE TABLE bot_replies (
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        position TEXT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game_id, seat, position)
    );
    ALTER TABLE rating_settings ADD COLUMN computer_takebacks INTEGER NOT NULL DEFAULT 3;
    """,
    },
    # 17: fair play (storage/fairness.py): each rated game keeps the set of people it paired, by which repeated
    # pairings are found; the derived ratings are deleted and rebuilt under the fair-play rules when next read,
    # and the leaderboard says why (`ratings_recomputed_why`).
    recomputed_ratings("fair_play", before=PAIRING),
    # 18: a rating's sigma grows with the time since its player's last rated game (storage/fairness.py aged):
    # the derived ratings are rebuilt under that rule when next read, as migration 17 did.
    recomputed_ratings("fair_play"),
    # 19: a server may run seasons (storage/seasons.py): their length in months, 0 for none (the default).
    "ALTER TABLE rating_settings ADD COLUMN season_months INTEGER NOT NULL DEFAULT 0;",
    # 20: a rated game between people decided within a minute of its first move counts in proportion to its time
    # (storage/fairness.py pace): the derived ratings are rebuilt under that rule when next read, as 17 did.
    recomputed_ratings("fair_play"),
    # 21: Discord's global REST limit shared by every process of the bot (storage/rest_budget.py): requests
    # granted per time slot of the database's clock, on a ring of rows reused slot after slot.
    "CREATE TABLE rest_budget (ring INTEGER PRIMARY KEY, slot BIGINT NOT NULL, used INTEGER NOT NULL);",
    # 22: the message id of a game's newest turn ping under a board edited in place (in the game's channel), so
    # the next one deletes it even after a restart; NULL: none standing.
    "ALTER TABLE games ADD COLUMN ping_message_id BIGINT;",
)


def migrations_for(dialect: str) -> list[str]:
    """Return every migration's script for "sqlite" or "postgresql", in order."""
    return [entry if isinstance(entry, str) else entry[dialect] for entry in MIGRATIONS]
