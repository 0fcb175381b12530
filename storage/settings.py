"""Store the bot's own settings, each server's defaults and each user's reminder choice."""

from __future__ import annotations

from storage.core import Store
from storage.rows import GuildSettings


class SettingsQueries(Store):
    """Read and write meta, guild_settings and notify."""

    async def get_meta(self, key: str) -> str | None:
        """Return a stored setting, or None."""
        rows = await self.backend.fetch("SELECT value FROM meta WHERE key = ?", (key,))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting."""
        await self.backend.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """Return a server's settings, or the defaults."""
        rows = await self.backend.fetch(
            "SELECT reminder_hours, timeout_hours, thread_default FROM guild_settings WHERE guild_id = ?",
            (guild_id or 0,),
        )
        if not rows:
            return GuildSettings()
        return GuildSettings(rows[0][0], rows[0][1], bool(rows[0][2]))

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Store a server's settings."""
        async with self.backend.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, reminder_hours, timeout_hours, thread_default)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET reminder_hours = excluded.reminder_hours,"
                " timeout_hours = excluded.timeout_hours, thread_default = excluded.thread_default",
                (guild_id, settings.reminder_hours, settings.timeout_hours, int(settings.thread_default)),
            )
            await self._refresh_due(tx, "g.guild_id = ? AND g.status = 'active'", (guild_id,))

    async def wants_dm_reminders(self, user_id: int) -> bool:
        """Return True when a user opted in to reminders by DM."""
        rows = await self.backend.fetch("SELECT dm FROM notify WHERE user_id = ?", (user_id,))
        return bool(rows and rows[0][0])

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Store a user's choice about reminders by DM."""
        await self.backend.execute(
            "INSERT INTO notify (user_id, dm) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm",
            (user_id, int(on)),
        )
