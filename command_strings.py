"""List every slash command, option and choice string of the real command tree for the `commands` catalog domain.

`extract` is the domain's Babel extraction method (`python -m i18n update --domain commands`, see
i18n/domains.py): it builds the bot with every cog loaded, without connecting, and asks discord.py itself which
strings it will translate, each with its role (ui/commands.py translates them at run time).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

import discord
from discord import app_commands

from bot import create_bot, extension_names
from config import Settings
from table.entry_point import STRINGS as ENTRY_POINT_STRINGS
from ui.commands import NOTES, ROLES, Where, kept


class _Recorder(app_commands.Translator):
    """Note every string discord.py asks to translate, with its role, and translate nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[tuple[str, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        if not kept(string):
            self.found.setdefault((ROLES.get(context.location, ROLES[Where.other]), string.message), None)
        return None


async def _strings() -> list[tuple[str, str]]:
    """Build the bot's command tree with every cog loaded (without connecting) and list its strings with roles."""
    bot = create_bot(Settings(token="extract", database_url="sqlite:///:memory:"), workers="thread")
    try:
        for name in extension_names():
            await bot.load_extension(name)
        recorder = _Recorder()
        for command in bot.tree.get_commands():
            await command.get_translated_payload(bot.tree, recorder)  # type: ignore[arg-type]
        for found in ENTRY_POINT_STRINGS:  # the Activity's Entry Point command, kept beside the tree (table/)
            recorder.found.setdefault(found, None)
        return list(recorder.found)
    finally:
        bot.flow.close()


def command_strings() -> list[tuple[str, str]]:
    """Return every localizable (role, English text) of the real command tree, in the tree's order."""
    with ThreadPoolExecutor(1) as pool:  # its own event loop, whether or not one runs here
        return pool.submit(asyncio.run, _strings()).result()


def extract(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel extraction method of the `commands` domain: the command tree's strings, each with its role."""
    for role, text in command_strings():
        yield 1, "pgettext", (role, text), [f"TRANSLATORS: {role}, {NOTES[role]}"]
