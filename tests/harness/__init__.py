"""A fake Discord for acceptance tests: the real discord.py client talks to it over 127.0.0.1."""

from __future__ import annotations

from .driver import Driver, InteractionResult, parse_command_line
from .fake_discord import FakeDiscord
from .models import FakeAttachment, FakeChannel, FakeGuild, FakeInteraction, FakeMessage, FakeUser

__all__ = [
    "Driver",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeUser",
    "InteractionResult",
    "parse_command_line",
]
