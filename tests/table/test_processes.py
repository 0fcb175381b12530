"""A table sees a move saved by another process sharing the database (another shard's bot), on SQLite and
PostgreSQL: the hub reads the watched games' versions, so nothing but the database links the processes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import aiohttp

from engine.registry import get
from storage.database import Database
from tests.e2e.helpers_games import floe_settings_for, start_floe
from tests.harness import Driver, FakeDiscord
from tests.table.conftest import table_url
from tests.table.fakes import CLIENT_ID, CLIENT_SECRET, FakeOAuth
from tests.table.test_fish_table import start_fish


async def test_a_table_sees_a_move_saved_by_another_process(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, database_url: str, tmp_path: Path
) -> None:
    settings = replace(
        floe_settings_for(tmp_path, fake_discord),
        database_url=database_url,
        table_port=0,
        discord_client_id=CLIENT_ID,
        discord_client_secret=CLIENT_SECRET,
        discord_api=fake_oauth.url,
    )
    bot = await start_floe(driver, settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_fish(driver, alice, bob)
    assert bot.table is not None
    token = await bot.table.sessions.issue(bob.id, "bob", "en")
    query = f"session={token}&channel={driver.channel.id}"
    other = Database(database_url)  # another process's connection: its saves never pass through this bot
    await other.open()
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{table_url(bot)}/table/ws?{query}") as ws:
            first = json.loads((await ws.receive(timeout=5)).data)
            row = await other.game(first["game_id"])
            assert row is not None and row.state is not None and first["version"] == row.version
            game = get("fish")
            state = game.load(row.state)
            action = game.legal_actions(state, 0)[0]
            events = game.apply(state, 0, action)
            await other.record_action(
                row.id,
                row.version,
                game.dump(state),
                seat=0,
                user_id=alice.id,
                action=action,
                events=[e.to_json() for e in events],
                finished=False,
            )
            pushed = json.loads((await ws.receive(timeout=5)).data)
            assert pushed["type"] == "state" and pushed["version"] == row.version + 1
            assert pushed["table"]["penguins"] == [{"seat": 0, "tile": action["tile"]}]
            assert pushed["table"]["to_act"] == [1] and pushed["table"]["actions"]  # now bob's turn, on his table
    finally:
        await other.close()
