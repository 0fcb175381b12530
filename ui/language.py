"""Say who reads which language: a player's own for private replies and DMs, the game's for what is posted.

Every interaction (slash command, button, menu) writes its replies in the caller's client language, set once
where the interaction enters (`Readers.enter`); that language is remembered per user, so DMs the bot sends
later (a hand when a turn comes, a reminder) read in it too (`dm_language`). Whatever is posted in a game's
channel (boards, pings, reminders, lobby posts, notices, replays) is written in the game's language, chosen
when the game was created (`posting_language`) and kept for its whole life: methods that post wear
`@in_game_language`, which sets it from the game they post for, whoever or whatever called them.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

import discord

from i18n import ENGLISH, from_discord, known, use_for_task, using
from storage.database import Database, GameRow, StorageError
from storage.languages import server_language, set_user_language, user_language

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

REMEMBERED = 100_000
"""How many users' languages one process keeps in memory to skip writing an unchanged one again."""


def reader_language(interaction: discord.Interaction) -> str:
    """Return the catalog code of the language the interacting user's Discord client is set to."""
    return from_discord(interaction.locale)


class Readers:
    """Set each interaction's language from its caller's client and remember it for later DMs."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.stored: dict[int, str] = {}
        """The language last stored for each user by this process (a write is skipped when it is unchanged)."""

    async def enter(self, interaction: discord.Interaction) -> str:
        """Write the rest of this interaction's replies in the caller's language, and remember it for DMs."""
        language = use_for_task(reader_language(interaction))
        user_id = interaction.user.id
        if self.stored.get(user_id) != language:
            try:
                await set_user_language(self.db, user_id, language)
            except StorageError as exc:  # the reply matters more than remembering: the next interaction tries again
                log.info("could not remember the language of user %s: %s", user_id, exc)
                return language
            if len(self.stored) >= REMEMBERED:
                self.stored.clear()
            self.stored[user_id] = language
        return language


async def dm_language(db: Database, user_id: int) -> str:
    """Return the language to DM a user in: the one their client showed when they last used the bot, else English."""
    try:
        return known(await user_language(db, user_id))
    except StorageError as exc:
        log.info("language of user %s unknown (%s): writing in English", user_id, exc)
        return ENGLISH


async def posting_language(db: Database, interaction: discord.Interaction) -> str:
    """Return the language posts in this server are written in: its /game settings choice, else its Discord one.

    A game takes it when it is created and keeps it; server-wide posts (the leaderboard) use it as it is now.
    """
    chosen = await server_language(db, interaction.guild_id)
    if chosen is not None:
        return known(chosen)
    return from_discord(interaction.guild_locale) if interaction.guild_locale is not None else ENGLISH


def game_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> GameRow:
    """Return the game a posting method works for: its first argument that is a GameRow or holds one as `row`."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, GameRow):
            return value
        if isinstance(getattr(value, "row", None), GameRow):
            return value.row
    raise TypeError("a method posting in a game's language needs the game (a GameRow, or a Board) among its arguments")


def in_game_language(method: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Run a coroutine that posts for a game in that game's language (its GameRow or Board is an argument)."""

    @functools.wraps(method)
    async def posting(*args: P.args, **kwargs: P.kwargs) -> T:
        with using(game_of(args, kwargs).language):
            return await method(*args, **kwargs)

    return posting
