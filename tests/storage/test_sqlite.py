"""Check that the SQLite file, and the journal files beside it, can be read by the bot's user alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from storage.sqlite import SqliteBackend


def _modes(path: Path) -> dict[str, int]:
    """Return the permission bits of a database file and of its WAL and shared-memory files."""
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"))}


async def test_a_new_database_and_its_journal_files_are_readable_by_the_bot_alone(tmp_path: Path) -> None:
    path = tmp_path / "floe.db"
    old_umask = os.umask(0o022)  # the usual umask, under which SQLite creates files 0644
    try:
        backend = SqliteBackend(str(path))
        await backend.open()
        try:
            await backend.execute("INSERT INTO guild_settings (guild_id, reminder_hours) VALUES (1, 12)")
            assert set(_modes(path).values()) == {0o600}
        finally:
            await backend.close()
    finally:
        os.umask(old_umask)


async def test_an_existing_world_readable_database_is_closed_to_others_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "floe.db"
    backend = SqliteBackend(str(path))
    await backend.open()
    await backend.close()
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        name.touch()
        name.chmod(0o644)
    backend = SqliteBackend(str(path))
    await backend.open()
    try:
        assert set(_modes(path).values()) == {0o600}
    finally:
        await backend.close()
