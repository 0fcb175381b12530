"""Check start-up: the missing-token guide, settings from .env and command sync only on change."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot import PERMISSIONS, create_bot, extension_names
from config import DEFAULT_DATABASE_URL, Settings
from i18n import using
from ui.commands import CommandTranslator
from ui.mentions import command, remember
from ui.payloads import echo

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_the_bot_exits_non_zero_with_the_setup_guide(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    guide = done.stderr
    assert "DISCORD_TOKEN is not set" in guide
    assert "`bot`" in guide and "`applications.commands`" in guide
    for permission in ("View Channels", "Send Messages", "Embed Links", "Attach Files", "Read Message History"):
        assert permission in guide
    assert str(PERMISSIONS.value) in guide
    assert "DISCORD_TOKEN=your-token-here" in guide
    assert done.stdout == ""


def test_settings_come_from_env_file_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text('# comment\nDISCORD_TOKEN="abc"\nDEV_GUILD_ID=42\nLOG_LEVEL=debug\n')
    settings = Settings.from_env({"LOG_LEVEL": "warning"}, env_file)
    assert settings == Settings(token="abc", database_url=DEFAULT_DATABASE_URL, dev_guild_id=42, log_level="WARNING")


def test_a_malformed_guild_id_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "my server"}, None)


def test_the_metrics_endpoint_is_off_unless_a_valid_port_is_set() -> None:
    assert Settings.from_env({}, None).metrics_port is None
    on = Settings.from_env({"METRICS_PORT": "9101", "METRICS_HOST": "0.0.0.0"}, None)
    assert (on.metrics_port, on.metrics_host) == (9101, "0.0.0.0")
    for bad in ("70000", "0", "http"):
        with pytest.raises(ValueError, match="METRICS_PORT"):
            Settings.from_env({"METRICS_PORT": bad}, None)


def test_shard_settings_pick_this_process_s_shards() -> None:
    assert (Settings.from_env({}, None).shard_count, Settings.from_env({}, None).shard_ids) == (None, None)
    every = Settings.from_env({"SHARD_COUNT": "4"}, None)
    assert (every.shard_count, every.shard_ids) == (4, (0, 1, 2, 3))
    assert Settings.from_env({"SHARD_COUNT": "8", "SHARD_IDS": "0-2,6"}, None).shard_ids == (0, 1, 2, 6)
    assert Settings.from_env({"DB_POOL_SIZE": "3"}, None).db_pool_size == 3
    for bad, match in (
        ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "0-3"),
        ({"SHARD_COUNT": "0"}, "at least 1"),
        ({"DB_POOL_SIZE": "-1"}, "DB_POOL_SIZE"),
    ):
        with pytest.raises(ValueError, match=match):
            Settings.from_env(bad, None)


def test_a_sharded_bot_runs_its_shards_and_only_shard_0_s_process_syncs_commands(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/bot.db"
    plain = create_bot(Settings(token="t", database_url=url))
    assert not isinstance(plain, commands.AutoShardedBot) and plain.syncs_commands
    first = create_bot(Settings(token="t", database_url=url, shard_count=2, shard_ids=(0,)))
    second = create_bot(Settings(token="t", database_url=url, shard_count=2, shard_ids=(1,)))
    assert isinstance(second, commands.AutoShardedBot)
    assert (second.shard_count, second.shard_ids) == (2, [1])
    assert first.syncs_commands and not second.syncs_commands
    assert second.db.shards is not None and second.db.shards.owns(1 << 22) and not second.db.shards.owns(2 << 22)


def test_env_example_lists_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    for name in (
        "DISCORD_TOKEN=",
        "DATABASE_URL=sqlite:///",
        "DEV_GUILD_ID=",
        "LOG_LEVEL=",
        "DB_POOL_SIZE=",
        "SHARD_COUNT=",
        "SHARD_IDS=",
        "postgresql://",
        "METRICS_PORT=",
        "METRICS_HOST=",
    ):
        assert name in text


def test_every_cog_is_discovered() -> None:
    assert {"cogs.game", "cogs.fish", "cogs.tank", "cogs.flippers"} <= set(extension_names())


class SyncRecorder:
    """Stand in for CommandTree.sync and count the calls."""

    def __init__(self) -> None:
        self.calls: list[object] = []

    async def __call__(self, *, guild: object = None) -> list[object]:
        self.calls.append(guild)
        return [SimpleNamespace(name="game", id=901), SimpleNamespace(name="tank", id=902)]


async def started(tmp_path: Path, guild: int | None = None):
    bot = create_bot(Settings(token="t", database_url=f"sqlite:///{tmp_path}/bot.db", dev_guild_id=guild))
    bot._connection.application_id = 1234
    await bot.db.open()
    for name in extension_names():
        await bot.load_extension(name)
    recorder = SyncRecorder()
    bot.tree.sync = recorder  # type: ignore[method-assign]
    return bot, recorder


async def test_commands_sync_on_first_start_and_not_again_when_unchanged(tmp_path: Path) -> None:
    first, sync = await started(tmp_path)
    assert await first.sync_commands_if_changed() is True
    assert sync.calls == [None]
    await first.db.close()

    second, sync = await started(tmp_path)
    assert await second.sync_commands_if_changed() is False
    assert sync.calls == []
    await second.db.close()


async def test_messages_mention_the_synced_commands_by_id_after_a_sync_and_after_a_restart(tmp_path: Path) -> None:
    first, _sync = await started(tmp_path)
    assert command("game new") == "`/game new`"  # not synced yet: the path
    await first.sync_commands_if_changed()
    assert command("game new") == "</game new:901>" and command("tank discard") == "</tank discard:902>"
    await first.db.close()

    remember({})
    second, sync = await started(tmp_path)
    assert await second.sync_commands_if_changed() is False and sync.calls == []
    assert command("game new") == "</game new:901>"  # the ids stored at the sync
    await second.db.close()

    remember({})
    other, _sync = await started(tmp_path)
    await other.recall_command_ids()  # a process that does not sync reads them too
    assert command("game hand") == "</game hand:901>"
    await other.db.close()


async def test_a_changed_command_tree_syncs_again(tmp_path: Path) -> None:
    first, _ = await started(tmp_path)
    await first.sync_commands_if_changed()
    await first.db.close()

    changed, sync = await started(tmp_path)

    @app_commands.command(name="extra", description="A new command")
    async def extra(interaction) -> None:  # pragma: no cover - never invoked
        return None

    changed.tree.add_command(extra)
    assert await changed.sync_commands_if_changed() is True
    assert sync.calls == [None]
    await changed.db.close()


async def test_dev_guild_sync_goes_to_that_server_only(tmp_path: Path) -> None:
    bot, sync = await started(tmp_path, guild=777)
    assert await bot.sync_commands_if_changed() is True
    assert [getattr(g, "id", None) for g in sync.calls] == [777]
    await bot.db.close()


async def test_changed_translations_sync_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def translated() -> bool:
        bot, _sync = await started(tmp_path)
        await bot.tree.set_translator(CommandTranslator())
        try:
            return await bot.sync_commands_if_changed()
        finally:
            await bot.db.close()

    assert await translated() is True
    assert await translated() is False
    original = CommandTranslator.translate

    async def reworded(self: CommandTranslator, string: Any, locale: Any, context: Any) -> str | None:
        text = await original(self, string, locale, context)
        return f"{text}!" if text and string.message == "Start the game (host only)" else text

    monkeypatch.setattr(CommandTranslator, "translate", reworded)
    assert await translated() is True  # only a German description changed: Discord must hear of it


class _Response:
    """Record the private answers to an interaction."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, content: str, *, ephemeral: bool = False) -> None:
        self.sent.append((content, ephemeral))


@pytest.mark.parametrize(
    ("language", "bad_value", "not_here"),
    [
        ("en", "{typed} is not a valid value for that option.", "You cannot use that command here."),
        ("de", "{typed} ist kein gültiger Wert für diese Option.", "Diesen Befehl kannst du hier nicht verwenden."),
        ("ja", "{typed}はそのオプションに使える値ではありません。", "そのコマンドはここでは使えません。"),
    ],
)
async def test_command_errors_are_answered_privately_in_the_players_language(
    tmp_path: Path, language: str, bad_value: str, not_here: str
) -> None:
    bot, _ = await started(tmp_path)
    interaction = SimpleNamespace(id=1, user=SimpleNamespace(id=5), guild_id=None, response=_Response())
    transformer = app_commands.TransformerError("zz", discord.AppCommandOptionType.string, app_commands.Transformer())
    with using(language):
        await bot.on_app_command_error(interaction, transformer)  # type: ignore[arg-type]
        await bot.on_app_command_error(interaction, app_commands.CheckFailure())  # type: ignore[arg-type]
        typed = echo("zz")
    assert interaction.response.sent == [(bad_value.format(typed=typed), True), (not_here, True)]
    await bot.db.close()


STUCK = """
import asyncio, sys, threading
from bot import exit_within

async def main():
    exit_within(0.5, 4)  # the process decided to stop
    threading.Event().wait()  # and something never returns (a task ignoring cancellation, a stuck thread)

asyncio.run(main())
"""


def test_a_process_that_decides_to_stop_ends_even_when_something_never_returns() -> None:
    done = subprocess.run([sys.executable, "-c", STUCK], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 4, done.stderr
    assert "did not stop within" in done.stderr


async def test_shutdown_goes_on_past_work_that_ignores_cancellation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    monkeypatch.setattr("bot.STEP_WITHIN_S", 0.2)
    bot = create_bot(Settings(token="x", database_url=f"sqlite:///{tmp_path / 'floe.db'}"), workers="thread")
    await bot.db.open()

    released = asyncio.Event()

    async def stubborn() -> None:
        while not released.is_set():
            try:
                await released.wait()
            except asyncio.CancelledError:
                continue  # ignores every cancellation, as a badly written task would

    task = asyncio.create_task(stubborn())
    bot._background.append(task)
    try:
        closing = asyncio.ensure_future(bot.close())
        await asyncio.wait({closing}, timeout=30)  # a guard against hanging, not a measurement
        assert closing.done(), "shutdown waited on a task that ignores cancellation"
        assert not task.done()
    finally:
        released.set()
        await task
