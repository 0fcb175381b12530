"""Keep the application's Entry Point command (the Activity launcher in Discord's App Launcher) when syncing.

Discord creates an Entry Point command (type 4, PRIMARY_ENTRY_POINT) when Activities are enabled, and refuses a
bulk overwrite of the global commands that would remove it. With the table configured, the global sync sends
the slash commands plus that command, as Discord has it (or a new one, handled by Discord: it opens the table),
with its description and, while it keeps our name, its name in every shipped language from the `commands`
catalog domain, like the slash commands (command_strings.py lists both strings for the catalog).
"""

from __future__ import annotations

from typing import Any

from i18n import ENGLISH, pgettext, using
from ui.commands import LOCALES

PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
"""The Entry Point's handler: Discord launches the Activity itself, no interaction reaches the bot."""
NAME = "launch"
DESCRIPTION = "Play on the table"
STRINGS = (("command name", NAME), ("command description", DESCRIPTION))
"""The Entry Point's strings with their catalog roles, as the slash commands' (see ui/commands.py)."""
KEPT = ("id", "name", "type", "handler", "name_localizations")


def localized(role: str, text: str) -> dict[str, str]:
    """Return a command string by each Discord locale of a shipped language other than English."""
    found: dict[str, str] = {}
    for locale, language in sorted(LOCALES.items()):
        if language != ENGLISH:
            with using(language):
                found[locale] = pgettext(role, text)
    return found


def entry_point() -> dict[str, Any]:
    """Return a new Entry Point command, localized."""
    return {
        "name": NAME,
        "name_localizations": localized("command name", NAME),
        "description": DESCRIPTION,
        "description_localizations": localized("command description", DESCRIPTION),
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
    }


def with_entry_point(payload: list[dict[str, Any]], current: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a global sync payload with the Entry Point command: the one in `current` kept, or a new one.

    A kept one keeps its id, name and handler; it gets our description in every language, and our name's
    translations while its name is ours (an operator who renamed it keeps their name and its translations).
    """
    ours = entry_point()
    kept = next((c for c in current if c.get("type") == PRIMARY_ENTRY_POINT), None)
    if kept is None:
        entry = ours
    else:
        entry = {key: kept[key] for key in KEPT if kept.get(key) is not None}
        entry["description"] = ours["description"]
        entry["description_localizations"] = ours["description_localizations"]
        if entry.get("name") == NAME:
            entry["name_localizations"] = ours["name_localizations"]
    return [*[c for c in payload if c.get("type") != PRIMARY_ENTRY_POINT], entry]
