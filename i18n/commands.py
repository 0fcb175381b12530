"""Name a slash command in running text as the reader's Discord client lists it: `/spiel neu`, not `/game new`.

Discord shows each reader the command names localized for their client (see ui/commands.py); a sentence that
names a command uses the same words, from the `commands` catalog domain.
"""

from __future__ import annotations

from collections.abc import Mapping

from i18n import pgettext

COMMAND_NAME = "command name"
OPTION_NAME = "option name"
CHOICE_NAME = "choice name"
"""The catalog contexts of command, option and choice names (ui/commands.py's roles)."""


def command_path(path: str, /, **options: str) -> str:
    """Return "/spiel neu" for "game new" in the current language, with `options` as typed: "gewertet:false"."""
    words = [pgettext(COMMAND_NAME, word) for word in path.split()]
    return " ".join(["/" + " ".join(words), *typed_options(options)])


def typed_options(options: Mapping[str, str]) -> list[str]:
    """Return options as a player types them in the current language: {"rated": "false"} -> ["gewertet:false"]."""
    return [pgettext(OPTION_NAME, name) + ":" + value for name, value in options.items()]


def choice_name(name: str) -> str:
    """Return an option's choice as the current language lists it ("10 Gallon Tank" for the game option's choice)."""
    return pgettext(CHOICE_NAME, name)
