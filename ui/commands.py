"""Give every slash command, option and choice its name and description in each shipped language.

Discord shows a command in the language of each user's client from the localizations sent with the commands
(`/spiel neu` to a German client). `CommandTranslator` answers discord.py's questions from the `commands`
catalog domain, each string with its role as context ("command name", "option description", ...), since
the same English word is a name in one place and part of a sentence in another (command_strings.py lists them
from the real command tree for the catalog).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from i18n import ENGLISH, pgettext, using
from i18n.languages import DISCORD_LOCALES

Context = app_commands.TranslationContext[Any, Any]

ROLES: dict[Where, str] = {
    Where.command_name: "command name",
    Where.command_description: "command description",
    Where.group_name: "command name",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice name",
    Where.other: "command text",
}
"""The catalog context of each place discord.py asks a translation for (a group is named like a command)."""

NOTES: dict[str, str] = {
    "command name": "a slash command's name: 1-32 characters, lowercase, no spaces (use - or _), unique among "
    "the commands next to it; keep it short, like a verb or noun players would type.",
    "command description": "shown under the command in Discord's list: 1-100 characters.",
    "option name": "a command option's name: 1-32 characters, lowercase, no spaces (use - or _), unique within "
    "its command.",
    "option description": "shown when the option is filled in: 1-100 characters.",
    "choice name": "one choice in an option's list: 1-100 characters.",
    "command text": "1-100 characters.",
}
"""What a translator must know about each role: Discord's limits (tests/ui/test_commands.py checks them)."""

LOCALES: dict[str, str] = {locale: code for code, locales in DISCORD_LOCALES.items() for locale in locales}
"""Each Discord locale the bot localizes commands for, with its catalog code (English ones send no localization)."""


def kept(string: app_commands.locale_str) -> bool:
    """Return True for a string shown as it is in every language (a language's name in itself)."""
    return bool(string.extras.get("own_name"))


class CommandTranslator(app_commands.Translator):
    """Translate command names, descriptions, options and choices from the `commands` catalog domain."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        """Return `string` in the language of `locale` (None for English and other locales: Discord shows the English).

        A string its language writes as in English ("status", "Flippers") is sent too, so that every shipped
        locale has its full set of localizations; one missing from the catalog reads English the same way.
        """
        language = LOCALES.get(locale.value)
        if language is None or language == ENGLISH or kept(string):
            return None
        with using(language):
            return pgettext(ROLES.get(context.location, ROLES[Where.other]), string.message)
