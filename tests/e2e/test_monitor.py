"""Scrape /healthz and /metrics of a running bot during a game, and see a database outage in /healthz."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path

import aiohttp
import pytest

from config import Settings
from storage.errors import DatabaseBusy
from tests.e2e.helpers_games import start_floe
from tests.harness import Driver, FakeDiscord
from tests.postgres import free_port


def value(text: str, name: str, **labels: str) -> float:
    """Return one sample of the Prometheus text format."""
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = rf"^{re.escape(name)}{{{re.escape(wanted)}}} (\S+)$" if labels else rf"^{re.escape(name)} (\S+)$"
    found = re.search(pattern, text, re.M)
    assert found, f"no {name} {labels} in:\n{text}"
    return float(found.group(1))


async def test_health_and_metrics_are_scraped_during_a_game(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    port = free_port()
    settings = Settings(
        token=fake_discord.token,
        database_url=f"sqlite:///{tmp_path / 'floe.db'}",
        dev_guild_id=fake_discord.guild.id,
        metrics_port=port,
    )
    bot = await start_floe(driver, settings)
    alice = driver.user("alice")
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/metrics") as response:
            assert response.status == 200
            assert value(await response.text(), "floe_shard_owned", shard="0") == 1

        for command in ("/game new game:fish", "/game addbot level:easy", "/game start"):
            answer = await driver.slash(alice, command).settle(quiet=0.01)
            assert not answer.ephemeral, answer.content
        for _ in range(2):
            for _ in range(100):  # until the computer player has placed its penguin
                await bot.flow.bots.idle()
                if offered := await driver.autocomplete(alice, "/fish place tile:"):
                    break
                await asyncio.sleep(0.1)
            tile = offered[0]["value"]
            result = await driver.slash(alice, f"/fish place tile:{tile}").answered(within=20)
            assert not result.ephemeral, result.content
        for _ in range(100):  # until the computer player has answered Alice's second move
            await bot.flow.bots.idle()
            if await driver.autocomplete(alice, "/fish place tile:"):
                break
            await asyncio.sleep(0.1)
        await driver.idle(quiet=0.05)
        await bot.flow.outbox.sweep()

        async with http.get(f"{base}/healthz") as response:
            health = json.loads(await response.text())
            assert response.status == 200, health
        assert health["healthy"] and health["database"] == "ok" and health["shards"]["held"] == [0]
        async with http.get(f"{base}/metrics") as response:
            text = await response.text()
        moves = value(text, "floe_moves_applied_total", kind="fish", shard="0")
        assert moves >= 3  # two by Alice, and the computer player answered the first
        assert value(text, "floe_answer_seconds_count", shard="0") == 2
        assert value(text, "floe_answer_seconds_bucket", le="+Inf", shard="0") == 2
        assert value(text, "floe_outbox_backlog", shard="0") == 0
        assert value(text, "floe_db_down") == 0
        assert value(text, "floe_errors_total", kind="database_unavailable") == 0
        assert value(text, "process_resident_memory_bytes") > 0 and value(text, "process_open_fds") > 0
        assert re.search(r'^python_info\{.*version="3\.', text, re.M), text
        assert re.search(r'^floe_build_info\{commit="\w+",python="3\.[^"]+",version="[\d.]+"\} 1\.0$', text, re.M), text

        # The database stops answering: /healthz says so (503) with the cause.
        await bot.db.backend.reader.close()
        async with http.get(f"{base}/healthz") as response:
            broken = json.loads(await response.text())
            assert response.status == 503
        assert broken["database"] != "ok" and not broken["healthy"]


async def test_health_says_the_database_is_busy_while_writes_are_refused(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    port = free_port()
    path = tmp_path / "floe.db"
    settings = Settings(
        token=fake_discord.token,
        database_url=f"sqlite:///{path}",
        dev_guild_id=fake_discord.guild.id,
        metrics_port=port,
    )
    bot = await start_floe(driver, settings)
    await driver.slash(driver.user("alice"), "/game new game:fish").settle(quiet=0.01)
    base = f"http://127.0.0.1:{port}"
    other = sqlite3.connect(path, isolation_level=None)  # another program holds the write lock; reads go on
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseBusy):
            await bot.db.backend.execute("UPDATE games SET updated_at = updated_at")
        async with aiohttp.ClientSession() as http, http.get(f"{base}/healthz") as response:
            health = json.loads(await response.text())
            assert response.status == 503, health
        assert health["database"].startswith("busy: writes refused") and not health["healthy"], health
    finally:
        other.execute("ROLLBACK")
        other.close()
    await bot.db.backend.execute("UPDATE games SET updated_at = updated_at")
    async with aiohttp.ClientSession() as http, http.get(f"{base}/healthz") as response:
        assert response.status == 200 and json.loads(await response.text())["database"] == "ok"


async def test_health_fails_while_an_unsharded_bots_gateway_is_down(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    port = free_port()
    settings = Settings(
        token=fake_discord.token,
        database_url=f"sqlite:///{tmp_path / 'floe.db'}",
        dev_guild_id=fake_discord.guild.id,
        metrics_port=port,
    )
    await start_floe(driver, settings)
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        await fake_discord.gateway_outage()
        await asyncio.sleep(1.0)  # discord.py keeps trying to reconnect meanwhile
        async with http.get(f"{base}/healthz") as response:
            health = json.loads(await response.text())
            assert response.status == 503, health
        assert health["gateway"] == {"0": False} and not health["healthy"]
        fake_discord.gateway_back()
        for _ in range(200):
            async with http.get(f"{base}/healthz") as response:
                if response.status == 200:
                    break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the bot did not report healthy once the gateway was back")
    told = [record.getMessage() for record in driver.take_bot_errors()]
    assert all(line.startswith("Attempting a reconnect") for line in told), told  # discord.py's, during the outage


async def test_health_fails_while_a_shard_this_process_should_run_is_not_held(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    port = free_port()
    settings = Settings(
        token=fake_discord.token,
        database_url=f"sqlite:///{tmp_path / 'floe.db'}",
        dev_guild_id=fake_discord.guild.id,
        metrics_port=port,
    )
    bot = await start_floe(driver, settings)
    url = f"http://127.0.0.1:{port}/healthz"
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as response:
            assert response.status == 200, await response.text()
        held = bot.lease.held
        bot.lease.held = ()  # as while the lease is in doubt, or after another process took the shard
        async with http.get(url) as response:
            health = json.loads(await response.text())
            assert response.status == 503, health
        assert health["shards"]["missing"] == list(bot.lease.shards.ids) and not health["healthy"], health
        bot.lease.held = held
        async with http.get(url) as response:
            assert response.status == 200, await response.text()
