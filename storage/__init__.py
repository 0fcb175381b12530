"""Persist games and their action logs in SQLite through aiosqlite."""
