"""Name what every cog is given: a discord.py bot that carries the game flow (bot.py's IceFloeBot is one)."""

from __future__ import annotations

from discord.ext import commands

from ui.flow import GameFlow


class FlowBot(commands.Bot):
    """A discord.py bot carrying the shared turn flow, as a cog's `setup` receives it; bot.py builds the real one."""

    flow: GameFlow
