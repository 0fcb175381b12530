"""Build and run the Ice Floe Discord bot."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import json
import logging
import os
import pkgutil
import signal
import sys
import threading
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from config import Settings, load_env_file
from engine.registry import packages
from i18n import _
from monitor.server import MonitorServer
from storage.database import Database, Shards
from storage.ownership import ShardLease, ShardTaken
from table.entry_point import entry_point, with_entry_point
from table.server import TableServer
from ui.bots import THINK_BUDGET
from ui.commands import CommandTranslator
from ui.components import FloeComponent
from ui.errors import UserError, report
from ui.flow import GameFlow
from ui.flowbot import FlowBot
from ui.history import HistoryButton
from ui.mentions import remember
from ui.payloads import ForgedOptions, check_interaction, echo
from ui.rest_limit import limit_requests
from ui.scheduler import Scheduler
from ui.workers import default_kind, settle_garbage_collector

log = logging.getLogger("ice_floe")

EXIT_CONFIG = 2
"""A configuration error (or a token Discord refuses): restarting would not help."""
EXIT_SHARD_TAKEN = 3
"""The shard is run by a live process, or another SHARD_COUNT is in use: worth retrying later."""
EXIT_LEASE_LOST = 4
"""Another process took this one's shards: restart, which takes them again once they are free."""
STOP_WITHIN_S = 10.0
"""A process that decides to stop has exited after this long, whatever still runs (os._exit)."""
STEP_WITHIN_S = 2.0
"""How long one step of a clean shutdown may take before it is given up on."""

# View Channels, Send Messages, Send Messages in Threads, Create Public Threads, Embed Links, Attach Files,
# Read Message History.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)

TOKEN_GUIDE = f"""DISCORD_TOKEN is not set, so the bot cannot log in.

1. Create an application at https://discord.com/developers/applications (New Application).
2. In its Bot tab, press Reset Token and copy the token. No privileged intents are needed.
3. Invite the bot to your server: in OAuth2 > URL Generator tick the scopes `bot` and
   `applications.commands`, and the permissions View Channels, Send Messages, Send Messages in Threads,
   Create Public Threads, Embed Links, Attach Files and Read Message History (permissions integer
   {PERMISSIONS.value}); open the generated URL and pick your server.
4. Put the token in .env (copy .env.example to .env first):  DISCORD_TOKEN=your-token-here
   Optionally set DEV_GUILD_ID to your server's ID so commands appear there instantly.
"""


def extension_names() -> list[str]:
    """Return the cogs to load: each game's, as its game package names it, and the shared ones under cogs/."""
    import cogs

    names = {package.cog for package in packages().values()}
    for info in pkgutil.iter_modules(cogs.__path__):
        if hasattr(importlib.import_module(f"cogs.{info.name}"), "setup"):
            names.add(f"cogs.{info.name}")
    return sorted(names)


class IceFloeBot(FlowBot):
    """Host board games in channels; every game lives in the database, not in memory."""

    def __init__(
        self,
        settings: Settings,
        *,
        bot_pause: float = 2.0,
        bot_budget: float = THINK_BUDGET,
        workers: str | None = None,
        check_interval: float = 60.0,
        outbox_interval: float = 30.0,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        shards = None
        if settings.shard_count is not None:
            ids = settings.shard_ids or tuple(range(settings.shard_count))
            shards = Shards(settings.shard_count, ids)
            options = {"shard_count": shards.count, "shard_ids": list(ids), **options}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options)
        self.settings = settings
        self.owned_shards = shards
        self.db = Database(settings.database_url, pool_size=settings.db_pool_size, shards=shards)
        backend: Any = self.db.backend
        self.lease = ShardLease(
            getattr(backend, "url", None) or backend.path, shards or Shards(1, (0,)), dialect=backend.dialect
        )
        if backend.dialect == "postgresql":
            backend.fence = self.lease.fence  # owner-only work proves this process still holds its shards
        share = len(shards.ids) / shards.count if shards else 1.0
        self.rest_limit = limit_requests(self.http, backend, settings.rest_per_second, share)
        """Discord's global limit, shared with every process on the same database (ui/rest_limit.py)."""
        self.flow = GameFlow(
            self,
            self.db,
            workers=workers or default_kind(),
            outbox_interval=outbox_interval,
            limits=settings.limits,
            answers_dir=settings.answers_folder(),
            pause=bot_pause,
            budget=bot_budget,
        )
        self.scheduler = Scheduler(self.flow, interval=check_interval)
        self.monitor: MonitorServer | None = None
        if settings.metrics_port is not None:
            self.monitor = MonitorServer(self, settings.metrics_port, settings.metrics_host)
        self.table: TableServer | None = TableServer(self.flow, settings) if settings.table else None
        self.flow.publisher.table = self.table is not None
        self._background: list[asyncio.Task[None]] = []
        self.warming: asyncio.Task[None] | None = None
        """Starting the render and thinking workers, from set-up on (awaited before games resume)."""
        self.exit_code = 0
        """What the process exits with: EXIT_LEASE_LOST once another process took its shards."""
        self.hard_stop = False
        """True in a process of its own (bot.main): stopping ends it within STOP_WITHIN_S, whatever still runs."""
        self.tree.on_error = self.on_app_command_error
        self.tree.interaction_check = self.check_payload  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        """Open the database, take this process's shards, load every cog, register components and sync commands."""
        await self.db.open()
        try:
            await self.lease.acquire()
            await self._set_up()
        except BaseException:
            await self.lease.release()
            await self.db.close()
            raise

    async def _set_up(self) -> None:
        """Load every cog, register persistent components, sync commands if changed and start background work."""
        await self.tree.set_translator(CommandTranslator())
        for name in extension_names():
            await self.load_extension(name)
        self.add_dynamic_items(FloeComponent, HistoryButton)
        if self.syncs_commands:
            await self.sync_commands_if_changed()
        else:
            await self.recall_command_ids()
        if self.monitor is not None:
            await self.monitor.start()
        if self.table is not None:
            await self.table.start()
        # The render and thinking workers start (about 2.5 s each: imports, fonts, a first board of every game)
        # while the gateway connects, not after it is ready, so the first /game start finds them warm.
        self.warming = asyncio.create_task(self.flow.warm_up(), name="warm-up")
        self._background.append(self.warming)
        self._background.append(asyncio.create_task(self.scheduler.run(), name="reminders"))
        self._background.append(asyncio.create_task(self.flow.outbox.run(), name="outbox"))
        self._background.append(asyncio.create_task(self.flow.answers.run(), name="answers"))
        self._background.append(asyncio.create_task(self._resume_games(), name="resume"))
        self._background.append(asyncio.create_task(self.lease.keep(self._shards_lost), name="shard-lease"))

    async def _shards_lost(self, reason: str) -> None:
        """Stop the bot: another process took one of its shards while the database was away."""
        log.critical("%s; this process stops so that no shard runs twice", reason)
        self.exit_code = EXIT_LEASE_LOST
        asyncio.get_running_loop().create_task(self.close(), name="close-after-shard-lost")

    async def _resume_games(self) -> None:
        """Once connected, let computer players whose turn it is carry on after a restart."""
        await self.wait_until_ready()
        if self.warming is not None:
            await self.warming
        await self.flow.resume()
        settle_garbage_collector()

    @property
    def syncs_commands(self) -> bool:
        """Tell whether this process syncs slash commands: the one holding shard 0 (or the only one)."""
        return self.owned_shards is None or 0 in self.owned_shards.ids

    async def command_hash(self) -> str:
        """Return a hash of the slash-command tree as Discord would receive it, with every localization."""
        payload = await self.command_payload()
        entry = json.dumps(entry_point(), sort_keys=True) if self.table is not None else ""
        blob = json.dumps(sorted(payload, key=lambda c: c["name"]), sort_keys=True) + entry
        return hashlib.sha256(blob.encode()).hexdigest()

    async def command_payload(self) -> list[dict[str, Any]]:
        """Return the slash commands as Discord receives them, with every localization."""
        translator = self.tree.translator
        return [
            await command.get_translated_payload(self.tree, translator) if translator else command.to_dict(self.tree)
            for command in self.tree.get_commands()
        ]

    def command_scope(self) -> tuple[discord.Object | None, str]:
        """Return where slash commands are synced (DEV_GUILD_ID's guild, else None for global) and its name."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        return guild, f"guild:{guild.id}" if guild else "global"

    async def sync_commands_if_changed(self) -> bool:
        """Sync slash commands (to DEV_GUILD_ID if set, else globally) only when their hash changed."""
        guild, scope = self.command_scope()
        key = f"command_hash:{self.application_id}:{scope}"
        digest = await self.command_hash()
        if await self.db.get_meta(key) == digest:
            log.info("slash commands unchanged (%s); not syncing", scope)
            await self.recall_command_ids(fetch=True)
            return False
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if guild is None and self.table is not None:
            ids = await self.sync_with_entry_point()
        else:
            ids = {command.name: command.id for command in await self.tree.sync(guild=guild)}
        await self.keep_command_ids(ids)
        await self.db.set_meta(key, digest)
        log.info("slash commands synced (%s)", scope)
        return True

    async def sync_with_entry_point(self) -> dict[str, int]:
        """Overwrite the global commands with the slash commands and the Activity's Entry Point command; return ids."""
        assert self.application_id is not None
        payload = await self.command_payload()
        current = await self.http.get_global_commands(self.application_id)
        synced = await self.http.bulk_upsert_global_commands(
            self.application_id, payload=with_entry_point(payload, current)
        )
        return {command["name"]: int(command["id"]) for command in synced if command.get("type", 1) == 1}

    async def keep_command_ids(self, ids: dict[str, int]) -> None:
        """Store the synced slash commands' ids for every process, and use them in this one's messages."""
        await self.db.set_meta(f"command_ids:{self.application_id}:{self.command_scope()[1]}", json.dumps(ids))
        remember(ids)

    async def recall_command_ids(self, *, fetch: bool = False) -> None:
        """Mention commands by the ids stored at the last sync; with `fetch`, ask Discord when none were stored."""
        guild, scope = self.command_scope()
        stored = await self.db.get_meta(f"command_ids:{self.application_id}:{scope}")
        if stored:
            remember({name: int(value) for name, value in json.loads(stored).items()})
        elif fetch:
            try:
                await self.keep_command_ids({c.name: c.id for c in await self.tree.fetch_commands(guild=guild)})
            except discord.HTTPException as exc:
                log.warning("could not list the slash commands' ids (%s); messages name commands by path", exc)

    async def check_payload(self, interaction: discord.Interaction) -> bool:
        """Answer in the caller's language; refuse a forged slash command; in a burst, defer a move at once."""
        await self.flow.readers.enter(interaction)
        check_interaction(self.tree, interaction)
        await self.flow.bursts.early(interaction)
        return True

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Turn any command error into one ephemeral reply."""
        original = getattr(error, "original", error)
        self.flow.answers.given(interaction.id)  # a move acknowledged in a burst and refused owes nothing more
        if self.is_closed():  # shutting down: the connection to Discord is gone, there is no one to answer
            log.info("a command was still running at shutdown: %s", original)
            return
        if isinstance(error, ForgedOptions):
            log.info("refused a forged command from user %s: %s", interaction.user.id, error)
            await report(interaction, UserError(str(error)))
        elif isinstance(error, app_commands.TransformerError):
            await report(
                interaction, UserError(_("{typed} is not a valid value for that option.", typed=echo(error.value)))
            )
        elif isinstance(error, app_commands.CheckFailure | app_commands.CommandNotFound):
            await report(interaction, UserError(_("You cannot use that command here.")))
        else:
            await report(interaction, original)
        await self.flow.lifecycle.after_interaction(interaction)

    async def close(self) -> None:
        """Stop background work, log out, then close the database; each step is given STEP_WITHIN_S at most."""
        if self.hard_stop:
            exit_within(STOP_WITHIN_S, self.exit_code)
        if self.monitor is not None:
            await _bounded(self.monitor.stop(), "the monitor")
        if self.table is not None:
            await _bounded(self.table.stop(), "the table")
        for task in self._background:
            task.cancel()
        await _bounded(asyncio.gather(*self._background, return_exceptions=True), "background work")
        await _bounded(self.flow.bots.close(), "computer players")
        await _bounded(self.flow.takebacks.close(), "takebacks")
        await _bounded(self.flow.offers.close(), "takeback offers")
        await _bounded(self.flow.publisher.tidier.close(), "greying boards")
        await _bounded(self.flow.outbox.close(), "the outbox")
        await _bounded(self.flow.answers.close(), "owed answers")
        self.flow.close()
        await _bounded(super().close(), "the gateway")
        await _bounded(self.db.close(), "the database")
        await self.lease.release()


async def _bounded(step: Awaitable[object], what: str) -> None:
    """Wait for one shutdown step for STEP_WITHIN_S at most; one that hangs or fails is logged and left behind."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=STEP_WITHIN_S)  # never waits on a cancellation that is ignored
    if not done:
        task.cancel()
        log.warning("shutting down: %s did not stop within %.0f s; going on without it", what, STEP_WITHIN_S)
    elif not task.cancelled() and task.exception() is not None:
        log.warning("shutting down: stopping %s failed: %s", what, task.exception())


_exit_timer: threading.Timer | None = None


def exit_within(seconds: float, code: int) -> None:
    """End the process after `seconds` even if the event loop never finishes (a task ignoring cancellation)."""
    global _exit_timer
    if _exit_timer is not None:
        return

    def end() -> None:
        log.error("the process did not stop within %.0f s of deciding to; ending it now", seconds)
        logging.shutdown()
        os._exit(code or 1)

    _exit_timer = threading.Timer(seconds, end)
    _exit_timer.daemon = True
    _exit_timer.start()


class ShardedIceFloeBot(IceFloeBot, commands.AutoShardedBot):
    """Run IceFloeBot as discord.py's AutoShardedBot on the shards SHARD_COUNT and SHARD_IDS name."""


def create_bot(settings: Settings | None = None, **options: Any) -> IceFloeBot:
    """Build the configured, not yet started bot from settings (by default from the environment and .env).

    Options are IceFloeBot's (bot_pause, bot_budget, workers, check_interval, outbox_interval) or discord.py
    Client options. With SHARD_COUNT set the bot is an AutoShardedBot running SHARD_IDS (default: every shard).
    """
    settings = settings or Settings.from_env()
    cls = ShardedIceFloeBot if settings.sharded else IceFloeBot
    return cls(settings, **options)


async def serve(bot: IceFloeBot, token: str) -> None:
    """Run the bot until it closes; SIGTERM (a supervisor stopping it) closes it cleanly, as Ctrl+C does."""
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close(), name="close-on-sigterm"))
    async with bot:
        await bot.start(token)


def main() -> int:
    """Run the bot until interrupted; print a setup guide and fail when no token is configured."""
    load_env_file()
    try:
        settings = Settings.from_env()
        packages()
    except (ValueError, LookupError) as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if not settings.token:
        print(TOKEN_GUIDE, file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = create_bot(settings)
    bot.hard_stop = True
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(bot, settings.token))
    except ShardTaken as exc:
        print(f"Not started: {exc}.", file=sys.stderr)
        return EXIT_SHARD_TAKEN
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN: reset the token in the Developer Portal and update .env.", file=sys.stderr
        )
        return EXIT_CONFIG
    return bot.exit_code


if __name__ == "__main__":
    sys.exit(main())
