"""Getting to the table: "Play on the table" under every board (LAUNCH_ACTIVITY), the Entry Point command kept
through command syncs, and nothing of either where the operator did not configure the table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot import IceFloeBot
from config import Settings
from engine.registry import get
from table.entry_point import entry_point, with_entry_point
from tests.e2e.helpers_games import floe_settings_for, start_floe
from tests.harness import Driver, FakeDiscord
from tests.harness.models import iter_components
from tests.harness.rest import command_errors
from tests.table.fakes import CLIENT_ID, CLIENT_SECRET, FakeOAuth
from tests.table.test_fish_table import start_fish

LABEL = "Play on the table"
LAUNCH_ACTIVITY = 12


def labels(message: object) -> list[str]:
    """Return the labels of a message's buttons."""
    return [c.get("label", "") for c in iter_components(message.components)]  # type: ignore[attr-defined]


async def test_every_board_offers_the_table_and_a_press_launches_the_activity(
    driver: Driver, fake_discord: FakeDiscord, floe_table: IceFloeBot
) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    await start_fish(driver, alice, bob)
    board = fake_discord.messages_in(driver.channel)[-1]
    assert LABEL in labels(board)
    press = await driver.press(bob, board, label=LABEL).settle()  # anyone in the channel may open it
    assert press.response_type == LAUNCH_ACTIVITY and not press.rejections
    row = await floe_table.db.open_game_in(driver.channel.id)
    assert row is not None and row.state is not None
    tile = get("fish").legal_actions(get("fish").load(row.state), 0)[0]["tile"]
    await driver.slash(alice, f"/fish place tile:{tile}").settle()
    newest = fake_discord.messages_in(driver.channel)[-1]
    assert newest.id != board.id and LABEL in labels(newest)  # the new board offers it too
    old = await driver.press(alice, board, label=LABEL, force=True).settle()
    assert old.response_type == LAUNCH_ACTIVITY  # an old board's button still opens the table


async def test_without_the_table_no_board_offers_it(driver: Driver, fake_discord: FakeDiscord, tmp_path: Path) -> None:
    bot = await start_floe(driver, floe_settings_for(tmp_path, fake_discord))
    assert bot.table is None
    await start_fish(driver, driver.user("alice"), driver.user("bob"))
    assert all(LABEL not in labels(m) for m in fake_discord.messages_in(driver.channel))
    commands = [*fake_discord.global_commands, *(c for cs in fake_discord.guild_commands.values() for c in cs)]
    assert commands and all(c.get("type", 1) == 1 for c in commands)


def global_settings(tmp_path: Path, fake_discord: FakeDiscord, fake_oauth: FakeOAuth) -> Settings:
    """Return settings for a bot with its table that syncs its commands globally (where the Entry Point lives)."""
    return replace(
        floe_settings_for(tmp_path, fake_discord),
        dev_guild_id=None,
        table_port=0,
        discord_client_id=CLIENT_ID,
        discord_client_secret=CLIENT_SECRET,
        discord_api=fake_oauth.url,
    )


def entry_points(fake_discord: FakeDiscord) -> list[dict[str, Any]]:
    """Return the Entry Point commands Discord holds."""
    return [c for c in fake_discord.global_commands if c.get("type") == 4]


async def test_the_global_sync_keeps_the_entry_point_command_in_every_language(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path
) -> None:
    discords = {"id": "555", "name": "launch", "description": "Launch", "type": 4, "handler": 2}
    fake_discord.global_commands.append(dict(discords))
    await start_floe(driver, global_settings(tmp_path, fake_discord, fake_oauth))
    entry = entry_points(fake_discord)
    assert len(entry) == 1 and entry[0]["id"] == "555" and entry[0]["handler"] == 2
    assert {c["name"] for c in fake_discord.global_commands if c.get("type", 1) == 1} >= {"game", "fish"}
    assert entry[0]["description"] == "Play on the table"
    assert entry[0]["description_localizations"] == {
        "de": "Am Tisch spielen",
        "es-419": "Jugar en la mesa",
        "es-ES": "Jugar en la mesa",
        "ja": "テーブルで遊ぶ",
        "pt-BR": "Jogar na mesa",
    }
    assert entry[0]["name_localizations"] == {
        "de": "starten",
        "es-419": "iniciar",
        "es-ES": "iniciar",
        "ja": "起動",
        "pt-BR": "iniciar",
    }


async def test_a_renamed_entry_point_keeps_its_name_and_a_missing_one_is_made_localized(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path
) -> None:
    renamed = {"id": "556", "name": "play", "description": "x", "type": 4, "handler": 2}
    renamed["name_localizations"] = {"de": "spielen"}
    assert with_entry_point([], [renamed]) == [
        {
            "id": "556",
            "name": "play",
            "name_localizations": {"de": "spielen"},
            "type": 4,
            "handler": 2,
            "description": "Play on the table",
            "description_localizations": entry_point()["description_localizations"],
        }
    ]
    await start_floe(driver, global_settings(tmp_path, fake_discord, fake_oauth))
    entry = entry_points(fake_discord)
    assert len(entry) == 1 and entry[0]["name"] == "launch" and entry[0]["handler"] == 2
    assert entry[0]["name_localizations"]["de"] == "starten"
    assert entry[0]["description_localizations"]["ja"] == "テーブルで遊ぶ"


def test_discord_refuses_an_entry_point_named_against_its_rules() -> None:
    assert command_errors(entry_point()) == {}
    bad = entry_point() | {"name_localizations": {"de": "Tisch öffnen"}}
    assert list(command_errors(bad)) == ["launch.name_localizations.de"]


async def test_a_changed_entry_point_translation_syncs_the_commands_again(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await start_floe(driver, global_settings(tmp_path, fake_discord, fake_oauth))
    assert await bot.sync_commands_if_changed() is False, "nothing changed since the start's sync"
    changed = entry_point() | {"description_localizations": {"de": "Am Tisch spielen!"}}
    monkeypatch.setattr("bot.entry_point", lambda: changed)
    assert await bot.sync_commands_if_changed() is True
