"""Check a slash command's options against what the command declares, before discord.py converts them.

A normal Discord client only sends values of the declared type, within the declared range, from the declared
choices, with every user, channel and role resolved. A modified client can send anything; such a payload is
refused here with one short sentence saying which option is wrong, and never echoes more than a few words.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from i18n import _
from i18n.numbers import number
from ui.text import shorten

OptionType = discord.AppCommandOptionType
SNOWFLAKES = range(0, 2**63)
"""Discord ids fit in 63 bits (and the database keeps signed 64-bit integers)."""
MAX_STRING = 6000
ECHO = 40
"""At most this many characters of a refused value are shown back."""
RESOLVED = {
    OptionType.user: ("users",),
    OptionType.channel: ("channels",),
    OptionType.role: ("roles",),
    OptionType.mentionable: ("users", "roles"),
    OptionType.attachment: ("attachments",),
}


class ForgedOptions(app_commands.AppCommandError):
    """Raise when a command arrives with options no Discord client sends; the message is shown to the user."""


def echo(value: Any) -> str:
    """Return a refused value as a player typed it, shortened, in quotes (never Python's repr)."""
    text = value if isinstance(value, str) else str(value)
    return f"“{shorten(' '.join(text.split()), ECHO)}”"


def check_interaction(tree: app_commands.CommandTree[Any], interaction: discord.Interaction) -> None:
    """Raise ForgedOptions when a slash command's options do not fit what the command declares."""
    if interaction.type is not discord.InteractionType.application_command:
        return
    data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
    if data.get("type", 1) != 1:
        return
    name = data.get("name")
    command: Any = tree.get_command(name) if isinstance(name, str) else None
    if command is None and interaction.guild_id is not None:
        command = tree.get_command(str(name), guild=discord.Object(interaction.guild_id))
    if command is None:
        return  # discord.py answers unknown commands itself
    options = data.get("options") or []
    while isinstance(command, app_commands.Group):
        if not _is_list(options) or len(options) != 1 or not isinstance(options[0], Mapping):
            raise ForgedOptions(_("That command arrived without a subcommand: pick one from Discord's list."))
        sub = options[0]
        command = command.get_command(str(sub.get("name")))
        if command is None or sub.get("type") not in (OptionType.subcommand.value, OptionType.subcommand_group.value):
            raise ForgedOptions(_("That command has no such subcommand: pick one from Discord's list."))
        options = sub.get("options") or []
    if not _is_list(options):
        raise ForgedOptions(_("That command's options could not be read: send it again from Discord's list."))
    resolved: Mapping[str, Any] = data.get("resolved") or {}
    given = set()
    for option in options:
        if not isinstance(option, Mapping):
            raise ForgedOptions(_("That command's options could not be read: send it again from Discord's list."))
        parameter = next((p for p in command.parameters if p.display_name == option.get("name")), None)
        if parameter is None:
            raise ForgedOptions(
                _(
                    "The command /{command} has no option {option}.",
                    command=command.qualified_name,
                    option=echo(option.get("name")),
                )
            )
        _check_option(parameter, option.get("value"), resolved)
        given.add(parameter.display_name)
    missing = [p.display_name for p in command.parameters if p.required and p.display_name not in given]
    if missing:
        raise ForgedOptions(
            _("The command /{command} needs the option “{option}”.", command=command.qualified_name, option=missing[0])
        )


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _check_option(parameter: app_commands.Parameter, value: Any, resolved: Mapping[str, Any]) -> None:
    """Raise ForgedOptions unless `value` is what a Discord client would send for this option."""
    name, kind = parameter.display_name, parameter.type
    if kind is OptionType.string:
        if not isinstance(value, str) or len(value) > MAX_STRING:
            raise ForgedOptions(
                _(
                    "The option “{name}” wants text of at most {most} characters.",
                    name=name,
                    most=number(MAX_STRING, ","),
                )
            )
    elif kind is OptionType.boolean:
        if type(value) is not bool:
            raise ForgedOptions(
                _("The option “{name}” wants true or false, not {value}.", name=name, value=echo(value))
            )
    elif kind is OptionType.integer:
        if type(value) is not int:  # any size: each command says what a number too large means to it
            raise ForgedOptions(
                _("The option “{name}” wants a whole number, not {value}.", name=name, value=echo(value))
            )
        _check_range(parameter, value)
    elif kind is OptionType.number:
        if type(value) not in (int, float) or not math.isfinite(value) or abs(value) > 2**53:
            raise ForgedOptions(_("The option “{name}” wants a number, not {value}.", name=name, value=echo(value)))
        _check_range(parameter, value)
    elif kind in RESOLVED:
        known = str(value).isdigit() and int(value) in SNOWFLAKES if isinstance(value, str | int) else False
        if not known or not any(str(int(value)) in (resolved.get(key) or {}) for key in RESOLVED[kind]):
            raise ForgedOptions(not_found(kind, name))
    if parameter.choices and value not in [choice.value for choice in parameter.choices]:
        raise ForgedOptions(
            _("{value} is not one of the choices for “{name}”: pick one from the list.", value=echo(value), name=name)
        )


def not_found(kind: OptionType, name: str) -> str:
    """Refuse a user, channel, role or attachment that Discord did not resolve."""
    if kind is OptionType.channel:
        return _("The channel given for “{name}” could not be found: pick one from Discord's list.", name=name)
    if kind is OptionType.role:
        return _("The role given for “{name}” could not be found: pick one from Discord's list.", name=name)
    if kind is OptionType.attachment:
        return _("The attachment given for “{name}” could not be found: pick one from Discord's list.", name=name)
    return _("The user given for “{name}” could not be found: pick one from Discord's list.", name=name)


def _check_range(parameter: app_commands.Parameter, value: float) -> None:
    """Raise ForgedOptions when a number lies outside the option's declared range."""
    low, high = parameter.min_value, parameter.max_value
    if (low is not None and value < low) or (high is not None and value > high):
        name, shown = parameter.display_name, echo(value)
        if low is not None and high is not None:
            text = _(
                "The option “{name}” must be from {low} to {high}, not {value}.",
                name=name,
                low=_number(low),
                high=_number(high),
                value=shown,
            )
        elif low is not None:
            text = _(
                "The option “{name}” must be at least {low}, not {value}.", name=name, low=_number(low), value=shown
            )
        else:
            text = _(
                "The option “{name}” must be at most {high}, not {value}.", name=name, high=_number(high), value=shown
            )
        raise ForgedOptions(text)


def _number(value: float | None) -> str:
    """Return a bound as a player reads it (12, not 12.0)."""
    return number(value, "g") if isinstance(value, float) else str(value)
