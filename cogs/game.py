"""Provide /game: lobbies, status, hands, bots, reminders, history, records and rules for every game."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine.registry import games, packages
from engine.words import join_names
from i18n import LANGUAGES, N_, _, ngettext, pgettext, using
from storage.database import LOBBY, GameRow, GuildSettings
from storage.finished import last_finished_game
from storage.languages import server_language, set_server_language
from storage.server_rules import ServerRules, save_server_rules, server_rules
from ui import ratings, records
from ui.bots import LEVELS
from ui.errors import UserError
from ui.hints import give_hint
from ui.history import history_buttons, history_page
from ui.language import posting_language
from ui.lifecycle import missing_permissions
from ui.limits import too_soon
from ui.lobby import in_thread
from ui.records import jump_link
from ui.scheduler import hours
from ui.seasons import season_text
from ui.takeback_buttons import TakebackButton
from ui.text import embed_messages

if TYPE_CHECKING:
    from ui.flowbot import FlowBot

GAME_CHOICES = [app_commands.Choice(name=p.game.title, value=key) for key, p in packages().items()]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(name, own_name=True), value=code)
    for code, name in LANGUAGES.items()
]
"""The shipped languages, each named in itself (a name the command translator leaves as it is)."""
SEASON_CHOICES = [
    app_commands.Choice(name="off", value=0),
    app_commands.Choice(name="monthly", value=1),
    app_commands.Choice(name="quarterly", value=3),
    app_commands.Choice(name="yearly", value=12),
]
"""The season lengths a server may choose, in months (0: no seasons; storage/seasons.py)."""
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
OPTION_HELP = {o.name: o.description for g in games().values() for o in g.options}
HOURS = app_commands.Range[float, 0.1, 720.0]
BOARD_HERE = N_("The current board is here: {link}")
REPLAY_HERE = N_("The replay of game #{number} is already posted here: {link}")


def yes(on: bool) -> str:
    """Return "yes" or "no" as a setting's value reads."""
    return pgettext("setting value", "yes") if on else pgettext("setting value", "no")


def _in_server(interaction: discord.Interaction) -> int:
    """Return the server id, or refuse a command used in direct messages."""
    if interaction.guild_id is None:
        raise UserError(_("Use this command in a server channel."))
    return interaction.guild_id


def settings_text(current: GuildSettings, rules: ServerRules, *, saved: bool) -> str:
    """Return the server's game defaults as /game settings shows them, after "Saved." when they were just changed."""
    timeout = hours(current.timeout_hours) if current.timeout_hours else pgettext("timeout", "off")
    # TRANSLATORS: /game settings, first line; "·" separates the settings.
    timers = _(
        "Reminder after {reminder} · timeout {timeout} · new games in a thread: {thread}",
        reminder=hours(current.reminder_hours),
        timeout=timeout,
        thread=yes(current.thread_default),
    )
    # TRANSLATORS: /game settings, second line; each value is "yes" or "no".
    switches = _(
        "Rated games: {ratings} · takebacks: {takebacks} · takebacks in rated games: {rated_takebacks}"
        " · hints: {hints} · hints keep a rated game rated: {rated_hints}",
        ratings=yes(rules.ratings),
        takebacks=yes(rules.takebacks),
        rated_takebacks=yes(rules.rated_takebacks),
        hints=yes(rules.hints),
        rated_hints=yes(rules.rated_hints),
    )
    # TRANSLATORS: /game settings, third line.
    alone = _(
        "Takebacks a player may make in a game when only computer players are asked: {count}",
        count=rules.computer_takebacks,
    )
    # TRANSLATORS: /game settings after a change: "Saved." then the first line of the settings.
    first = _("Saved. {settings}", settings=timers) if saved else timers
    return f"{first}\n{switches}\n{alone}\n{season_line(rules.season_months)}"


def season_line(months: int) -> str:
    """Return /game settings' line about the leaderboard's seasons."""
    if not months:
        return _("Leaderboard seasons: off")
    return ngettext(
        "Leaderboard seasons: {n} month each, starting fresh (past seasons stay viewable)",
        "Leaderboard seasons: {n} months each, starting fresh (past seasons stay viewable)",
        months,
    )


class GameCog(commands.Cog):
    """Run lobbies and the commands every game shares."""

    game = app_commands.Group(name="game", description="Play board games in this channel")

    def __init__(self, bot: FlowBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    # -- lobby ----------------------------------------------------------------------------------------

    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        balanced=OPTION_HELP.get("balanced", "Balanced board (Hey, That's My Fish!)"),
        teams=OPTION_HELP.get("teams", "Team Up (Flippers, 4 or 6 players)"),
        thread="Play in a new thread under this channel (default: the server's setting)",
        remind_after="Remind waiting players after this many hours (default: the server's setting)",
        timeout_after="After this many hours the computer moves for a waiting player (default: never)",
        rated="Count this game for skill ratings (default: yes, unless the server turned ratings off)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        balanced: bool = False,
        teams: bool = False,
        thread: bool | None = None,
        remind_after: HOURS | None = None,
        timeout_after: HOURS | None = None,
        rated: bool = True,
    ) -> None:
        """Open a lobby with the caller as host."""
        settings = await self.flow.db.guild_settings(_in_server(interaction))
        thread = (settings.thread_default and not in_thread(interaction)) if thread is None else thread
        missing = missing_permissions(interaction.app_permissions, in_thread=in_thread(interaction), new_thread=thread)
        if missing:
            raise UserError(
                ngettext(
                    "I cannot run a game here: I am missing {permissions} in this channel. "
                    "Ask a moderator to give me it, or start the game in another channel.",
                    "I cannot run a game here: I am missing {permissions} in this channel. "
                    "Ask a moderator to give me them, or start the game in another channel.",
                    len(missing),
                    permissions=join_names(missing),
                )
            )
        await self.flow.lobby_allowed(interaction)
        user, channel = interaction.user.id, interaction.channel_id or 0
        limits = self.flow.limits
        wait = (
            limits.thread(user, channel, interaction.guild_id or 0) if thread else limits.public("new", user, channel)
        )
        if wait:
            raise UserError(too_soon(wait))
        try:
            await self.flow.new_lobby(
                interaction,
                game.value,
                {"balanced": balanced, "teams": teams},
                thread=thread,
                reminder_hours=remind_after,
                timeout_hours=timeout_after,
                rated=rated,
            )
        except UserError:  # refused (the channel has a game, say): nothing was posted, so the try is not counted
            limits.give_back_new(user, channel, interaction.guild_id or 0, thread=thread)
            raise

    @game.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        """Seat the caller."""
        row = await self._lobby(interaction)
        await self.flow.join(interaction, row, quiet=self._quiet(interaction))

    @game.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Unseat the caller."""
        row = await self._lobby(interaction)
        await self.flow.leave(interaction, row, quiet=self._quiet(interaction))

    @game.command(name="addbot", description="Seat a computer player in this channel's lobby (host only)")
    @app_commands.describe(level="easy: quick and beatable; hard: searches ahead")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None) -> None:
        """Seat a computer player."""
        row = await self._lobby(interaction)
        await self.flow.add_bot(interaction, row, level.value if level else "easy", quiet=self._quiet(interaction))

    @game.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Deal and post the first board."""
        await self.flow.start(interaction, await self._lobby(interaction))

    @game.command(name="cancel", description="Cancel this channel's game (host or Manage Server)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        """End the game without a result."""
        await self.flow.cancel(interaction, await self.flow.game_here(interaction, damaged_ok=True))

    # -- during a game --------------------------------------------------------------------------------

    @game.command(name="status", description="Post the current board and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        """Re-post the board or the lobby for a player; show it privately to anyone else (or a game just ended)."""
        if (ended := await self.flow.loader.just_ended(interaction)) is not None:
            if wait := self.flow.limits.private("status", interaction.user.id):
                raise UserError(too_soon(wait))
            await self.flow.show_privately(interaction, ended)
            return
        row = await self.flow.game_here(interaction)
        if row.seat_of(interaction.user.id) is None:
            if wait := self.flow.limits.private("status", interaction.user.id):
                raise UserError(too_soon(wait))
            await self.flow.show_privately(interaction, row)
            return
        if wait := self.flow.limits.public("status", interaction.user.id, interaction.channel_id or 0):
            here = _(BOARD_HERE, link=jump_link(row))
            refusal = pgettext("two sentences", "{first} {second}", first=too_soon(wait), second=here)
            raise UserError(refusal)
        await self.flow.repost(interaction, row)

    @game.command(name="resign", description="Leave the game in progress, or hand your seat to a computer player")
    @app_commands.describe(hand_to_bot="Let a computer player of this level play your seat instead")
    @app_commands.choices(hand_to_bot=LEVEL_CHOICES)
    async def resign(
        self, interaction: discord.Interaction, hand_to_bot: app_commands.Choice[str] | None = None
    ) -> None:
        """Take the caller out of the game."""
        row = await self.flow.game_here(interaction)
        await self.flow.resign(interaction, row, hand_to_bot.value if hand_to_bot else None)

    @game.command(name="takeback", description="Ask the other players to let you take back your last move")
    async def takeback(self, interaction: discord.Interaction) -> None:
        """Ask for the caller's last move back."""
        await self.flow.takebacks.request(interaction, await self.flow.game_here(interaction))

    @game.command(name="hint", description="Get a suggested move for your turn, privately, with the reason")
    async def hint(self, interaction: discord.Interaction) -> None:
        """Suggest a move from the hard computer player's search (after the last move: the final standings)."""
        if (ended := await self.flow.loader.just_ended(interaction)) is not None:
            if wait := self.flow.limits.private("status", interaction.user.id):
                raise UserError(too_soon(wait))
            await self.flow.show_privately(interaction, ended)
            return
        await give_hint(self.flow, interaction, await self.flow.game_here(interaction))

    @game.command(name="hand", description="Show your private hand or aquarium (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Show the caller's private view: of this channel's game, else of their last finished game here."""
        user = interaction.user.id
        here = await self.flow.db.open_game_in(interaction.channel_id or 0)
        if here is None or here.seat_of(user) is None:
            channel = interaction.channel_id if interaction.guild_id is not None else None
            finished = await last_finished_game(self.flow.db, user, channel)
            if finished is not None:
                await self.flow.show_hand(interaction, finished)
                return
        await self.flow.show_hand(interaction, await self.flow.game_here(interaction))

    @game.command(name="notify", description="Turn reminders by direct message on or off for you")
    @app_commands.choices(
        setting=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def notify(self, interaction: discord.Interaction, setting: app_commands.Choice[str]) -> None:
        """Store the caller's DM reminder choice."""
        on = setting.value == "on"
        await self.flow.db.set_dm_reminders(interaction.user.id, on)
        text = _("I will also remind you by direct message.") if on else _("Reminders will only be posted in channels.")
        await interaction.response.send_message(text, ephemeral=True)

    # -- lists, history and records --------------------------------------------------------------------

    @game.command(name="list", description="List the games being played in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List open games with links and whose turn it is."""
        text = await records.list_games(self.flow, _in_server(interaction))
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="mine", description="List the games, in every server, that are waiting for you")
    async def mine(self, interaction: discord.Interaction) -> None:
        """List the caller's pending turns (also works in a DM with the bot)."""
        text = await records.my_turns(self.flow, interaction.user.id)
        await interaction.response.send_message(text, ephemeral=True)

    @game.command(name="history", description="Show a game's moves, a page at a time")
    @app_commands.describe(page="Which page (15 moves each)", game_number="A game number; default: this channel's")
    async def history(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1] = 1, game_number: int | None = None
    ) -> None:
        """Show the move log."""
        row = await records.pick_game(self.flow, interaction, game_number)
        text, pages = await history_page(self.flow, row, page)
        kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": discord.AllowedMentions.none()}
        buttons = history_buttons(row.id, page, pages)
        if buttons is not None:
            kwargs["view"] = buttons
        await interaction.response.send_message(text, **kwargs)

    @game.command(name="replay", description="Replay a finished game as an animated image")
    @app_commands.describe(game_number="A game number; default: the latest game in this channel")
    async def replay(self, interaction: discord.Interaction, game_number: int | None = None) -> None:
        """Post an animated replay of a finished game."""
        row = await records.pick_game(self.flow, interaction, game_number)
        if row.status == LOBBY or not row.state:
            raise UserError(_("That game has not been played yet."))
        if link := await self._posted_replay(interaction, row.id):
            await interaction.response.send_message(_(REPLAY_HERE, number=row.id, link=link), ephemeral=True)
            return
        if wait := self.flow.limits.public("replay", interaction.user.id, interaction.channel_id or 0):
            raise UserError(too_soon(wait))
        await interaction.response.defer(thinking=True)
        with using(row.language):  # posted in the game's channel
            message = await interaction.followup.send(file=await records.replay_file(self.flow, row), wait=True)
        if interaction.guild_id is not None:
            await self.flow.posts.set_replay_post(row.id, interaction.guild_id, message.channel.id, message.id)

    @game.command(name="stats", description="Show ratings, places, games, wins and best scores")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Show a player's ratings and record, with a picture of their ratings over time (in DMs: the record)."""
        target = records.resolved(user or interaction.user)
        if interaction.guild_id is None:  # ratings are per server; a DM shows only what the caller may see
            text = await records.stats_text(self.flow, interaction.user.id, target, None)
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, picture = await ratings.stats_reply(self.flow.db, target, interaction.guild_id)
        if picture is None:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.followup.send(text, file=picture, ephemeral=True)

    @game.command(name="leaderboard", description="Show this server's best-rated players of a game")
    @app_commands.describe(season="A past season by a month in it (2025-01), or all for all-time ratings")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], season: str | None = None
    ) -> None:
        """Rank players by their conservative rating (mu - 3 sigma), in this season when the server runs seasons."""
        guild_id = _in_server(interaction)
        if wait := self.flow.limits.public("leaderboard", interaction.user.id, interaction.channel_id or 0):
            raise UserError(too_soon(wait))
        with using(await posting_language(self.flow.db, interaction)):  # posted for the whole server to read
            text = await season_text(self.flow.db, guild_id, game.value, interaction.user.id, season)
            await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="rules", description="Show a game's rules and the rulings this bot applies")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Reply with the whole rules text privately, in as many embeds and messages as it needs."""
        rules = games()[game.value]
        # TRANSLATORS: the title of the /game rules reply, e.g. "Flippers: rules".
        first, *more = embed_messages(_("{title}: rules", title=rules.title), rules.rules_text())
        await interaction.response.send_message(embeds=first, ephemeral=True)
        for embeds in more:
            await interaction.followup.send(embeds=embeds, ephemeral=True)

    @game.command(name="settings", description="Show or change this server's game defaults (Manage Server)")
    @app_commands.describe(
        reminder_hours="Remind waiting players after this many hours (default 12)",
        timeout_hours="Let the computer move for a player who waits this long; 0 turns timeouts off",
        thread_default="Start new games in their own thread",
        ratings="New games count for skill ratings (each lobby can still choose rated:false)",
        takebacks="Players may take back a move when everyone agrees",
        rated_takebacks="Takebacks are allowed in rated games too",
        computer_takebacks="Takebacks each player may make in a game when only computer players are asked (default 3)",
        hints="Players may ask for hints (/game hint)",
        rated_hints="Hints leave a rated game rated (otherwise a hint makes it unrated for that player)",
        seasons="Leaderboard seasons: each starts fresh, past ones stay viewable (default off)",
        language="The language of new games' boards, turns and reminders (games in progress keep theirs)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, seasons=SEASON_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        reminder_hours: HOURS | None = None,
        timeout_hours: app_commands.Range[float, 0.0, 720.0] | None = None,
        thread_default: bool | None = None,
        ratings: bool | None = None,
        takebacks: bool | None = None,
        rated_takebacks: bool | None = None,
        computer_takebacks: app_commands.Range[int, 0, 20] | None = None,
        hints: bool | None = None,
        rated_hints: bool | None = None,
        seasons: app_commands.Choice[int] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show or store the server's reminder delay, timeout, thread mode, ratings, takebacks, hints and language."""
        guild_id = _in_server(interaction)
        current = await self.flow.db.guild_settings(guild_id)
        rules = await server_rules(self.flow.db, guild_id)
        switches = {"ratings": ratings, "takebacks": takebacks, "rated_takebacks": rated_takebacks}
        switches.update(hints=hints, rated_hints=rated_hints, computer_takebacks=computer_takebacks)
        switches["season_months"] = seasons.value if seasons is not None else None
        changing = any(v is not None for v in (reminder_hours, timeout_hours, thread_default, *switches.values()))
        changing = changing or language is not None
        if changing:
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                raise UserError(_("Only members with Manage Server can change the settings."))
            current = GuildSettings(
                reminder_hours if reminder_hours is not None else current.reminder_hours,
                current.timeout_hours if timeout_hours is None else (timeout_hours or None),
                current.thread_default if thread_default is None else thread_default,
            )
            await self.flow.db.save_guild_settings(guild_id, current)
            rules = replace(rules, **{k: v for k, v in switches.items() if v is not None})
            await save_server_rules(self.flow.db, guild_id, rules)
            if language is not None:
                await set_server_language(self.flow.db, guild_id, language.value)
        text = settings_text(current, rules, saved=changing)
        text += "\n" + await self._language_line(interaction, guild_id)
        await interaction.response.send_message(text, ephemeral=True)

    async def _language_line(self, interaction: discord.Interaction, guild_id: int) -> str:
        """Say which language new games in this server are played in, and where that choice comes from."""
        name = LANGUAGES[await posting_language(self.flow.db, interaction)]
        if await server_language(self.flow.db, guild_id) is not None:
            return _("New games are played in {language}.", language=name)
        return _(
            "New games are played in {language}, the server's language on Discord (change it with `language`).",
            language=name,
        )

    def _quiet(self, interaction: discord.Interaction) -> bool:
        """Tell whether a lobby change should be told privately: its public notes are over their limit here."""
        return bool(self.flow.limits.lobby_note(interaction.user.id))

    async def _posted_replay(self, interaction: discord.Interaction, game_id: int) -> str | None:
        """Return a link to this game's replay if it was posted in this server and is still there."""
        if interaction.guild_id is None or (posted := await self.flow.posts.replay_post(game_id)) is None:
            return None
        channel_id, message_id = posted
        try:
            await self.bot.get_partial_messageable(channel_id).fetch_message(message_id)
        except discord.HTTPException:
            return None  # deleted, or out of reach: post it again
        return f"https://discord.com/channels/{interaction.guild_id}/{channel_id}/{message_id}"

    async def _lobby(self, interaction: discord.Interaction) -> GameRow:
        """Return this channel's lobby, or refuse."""
        row = await self.flow.game_here(interaction)
        if row.status != LOBBY:
            raise UserError(_("The game in this channel has already started."))
        return row


async def setup(bot: FlowBot) -> None:
    """Add the /game commands."""
    await bot.add_cog(GameCog(bot))
    bot.add_dynamic_items(TakebackButton)
