"""Check that a player's record is shown only where it belongs: stats, history, replay and leaderboard."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest_asyncio

from bot import IceFloeBot
from tests.e2e.helpers_games import floe_settings_for, start_floe
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeUser, InteractionResult
from tests.ui.old_games import save_schema1_game, schema1_game


@dataclass
class Servers:
    """Two servers: Ana and Bo play in Home, Bo and Cy in Away; Mo plays nowhere."""

    driver: Driver
    bot: IceFloeBot
    home: FakeChannel
    away: FakeChannel
    ana: FakeUser
    bo: FakeUser
    cy: FakeUser
    mo: FakeUser
    home_game: int
    away_game: int

    async def ask(self, caller: FakeUser, line: str, channel: FakeChannel | None = None, **options: object) -> str:
        """Send a command (in the caller's DM unless a channel is given); return the one answer's text."""
        where = channel or self.driver.dm_channel(caller)
        sent: InteractionResult = await self.driver.slash(caller, line, channel=where, options=options).settle(
            quiet=0.01
        )
        texts = [m.content for m in sent.messages if not m.deleted]
        assert len(texts) == 1, texts
        return texts[0]


@pytest_asyncio.fixture
async def servers(driver: Driver, fake_discord: FakeDiscord, tmp_path: Path) -> Servers:
    bot = await start_floe(driver, replace(floe_settings_for(tmp_path, fake_discord), dev_guild_id=None))
    ana, bo, mo = driver.user("ana"), driver.user("bo"), driver.user("mo")
    away_guild = fake_discord.add_guild("Away")
    away = fake_discord.add_text_channel(away_guild, "games")
    cy = driver.user("cy", guild=away_guild)
    driver.user("bo", guild=away_guild)
    driver.user("mo", guild=away_guild)
    home_game = await save_schema1_game(
        bot.db, 5, guild_id=driver.guild.id, channel_id=driver.channel.id, users=[ana.id, bo.id]
    )
    away_game = await save_schema1_game(
        bot.db, 16, guild_id=away_guild.id, channel_id=away.id, users=[bo.id, cy.id, mo.id]
    )
    return Servers(driver, bot, driver.channel, away, ana, bo, cy, mo, home_game, away_game)


def bo_games(seed: int, seat: int) -> tuple[int, bool]:
    """Return Bo's score and whether he won in the fixture game of `seed`."""
    standing = next(s for s in schema1_game(seed)["standings"] if s["seat"] == seat)
    return standing["score"], standing["winner"]


async def test_stats_in_a_dm_show_another_players_record_only_from_servers_you_share(servers: Servers) -> None:
    mine = await servers.ask(servers.bo, "/game stats")
    assert "Flippers: 2 games" in mine  # your own record: everywhere
    home_only = await servers.ask(servers.ana, "/game stats", user=servers.bo)
    assert "Flippers: 1 game," in home_only and "in the 1 server where you both play" in home_only
    score, _ = bo_games(5, 1)
    assert f"average score {score:.1f}" in home_only
    away_only = await servers.ask(servers.cy, "/game stats", user=servers.bo)
    assert "Flippers: 1 game," in away_only and f"average score {bo_games(16, 0)[0]:.1f}" in away_only
    nothing = await servers.ask(servers.driver.user("zed"), "/game stats", user=servers.bo)
    assert "has not finished a game in any server where you play too" in nothing and "Flippers" not in nothing


async def test_stats_in_a_server_show_only_that_servers_games(servers: Servers) -> None:
    here = await servers.ask(servers.mo, "/game stats", servers.home, user=servers.bo)
    assert "Flippers: 1 game," in here and f"best score {bo_games(5, 1)[0]}" in here


async def test_history_and_replay_in_a_dm_show_only_games_you_played(servers: Servers) -> None:
    for line in ("/game history", "/game replay"):
        refused = await servers.ask(servers.cy, line, game_number=servers.home_game)
        assert refused.startswith("No game found")
        refused = await servers.ask(servers.ana, line, game_number=servers.away_game)
        assert refused.startswith("No game found")
    own = await servers.ask(servers.ana, "/game history", game_number=servers.home_game)
    assert f"game #{servers.home_game}: moves, page 1 of" in own
    sent = await servers.driver.slash(
        servers.bo, "/game replay", channel=servers.driver.dm_channel(servers.bo),
        options={"game_number": servers.away_game},
    ).settle(60, quiet=0.01)  # drawing 83 boards on a busy machine
    (gif,) = [m for m in sent.messages if m.attachments]
    assert gif.attachments[0].filename == f"replay-{servers.away_game}.gif"  # a game saved under old rules


async def test_history_and_replay_in_a_server_show_only_that_servers_games(servers: Servers) -> None:
    for line in ("/game history", "/game replay"):
        refused = await servers.ask(servers.bo, line, servers.home, game_number=servers.away_game)
        assert refused.startswith("No game found")


async def test_leaderboards_are_per_server_and_not_in_dms(servers: Servers) -> None:
    assert "in a server channel" in await servers.ask(servers.bo, "/game leaderboard", game="flippers")
    away = await servers.ask(servers.bo, "/game leaderboard", servers.away, game="flippers")
    assert f"<@{servers.cy.id}>" in away and f"<@{servers.ana.id}>" not in away
    home = await servers.ask(servers.mo, "/game leaderboard", servers.home, game="flippers")
    assert f"<@{servers.ana.id}>" in home and f"<@{servers.cy.id}>" not in home
