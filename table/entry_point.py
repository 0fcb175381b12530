"""Keep the application's Entry Point command (the Activity launcher in Discord's App Launcher) when syncing.

Discord creates an Entry Point command (type 4, PRIMARY_ENTRY_POINT) when Activities are enabled, and refuses a
bulk overwrite of the global commands that would remove it. With the table configured, the global sync sends
the slash commands plus that command, as Discord has it (or a new one, handled by Discord: it opens the table).
"""

from __future__ import annotations

from typing import Any

PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
"""The Entry Point's handler: Discord launches the Activity itself, no interaction reaches the bot."""
ENTRY_POINT: dict[str, Any] = {
    "name": "launch",
    "description": "Play on the table",
    "type": PRIMARY_ENTRY_POINT,
    "handler": DISCORD_LAUNCH_ACTIVITY,
}
KEPT = ("id", "name", "description", "type", "handler", "name_localizations", "description_localizations")


def with_entry_point(payload: list[dict[str, Any]], current: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a global sync payload with the Entry Point command: the one in `current` kept, or a new one."""
    kept = next((c for c in current if c.get("type") == PRIMARY_ENTRY_POINT), None)
    entry = {key: kept[key] for key in KEPT if key in kept} if kept is not None else dict(ENTRY_POINT)
    return [*[c for c in payload if c.get("type") != PRIMARY_ENTRY_POINT], entry]
