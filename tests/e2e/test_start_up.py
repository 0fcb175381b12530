"""A freshly started bot warms its render and thinking workers while it connects, before anyone can play."""

from __future__ import annotations

import pytest

from bot import IceFloeBot
from config import Settings
from tests.e2e.helpers_games import start_floe
from tests.harness import Driver
from ui.flow import GameFlow


async def test_the_workers_start_warming_before_the_gateway_is_ready(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    ready_when_asked: list[bool] = []
    bots: list[IceFloeBot] = []
    warm_up = GameFlow.warm_up

    async def watched(flow: GameFlow) -> None:
        ready_when_asked.append(bots[0].is_ready() if bots else True)
        await warm_up(flow)

    monkeypatch.setattr(GameFlow, "warm_up", watched)
    original = IceFloeBot.setup_hook

    async def remember(bot: IceFloeBot) -> None:
        bots.append(bot)
        await original(bot)

    monkeypatch.setattr(IceFloeBot, "setup_hook", remember)
    bot = await start_floe(driver, floe_settings)
    assert bot.warming is not None
    await bot.warming
    assert ready_when_asked == [False], "the workers were warmed only once the gateway was ready"
