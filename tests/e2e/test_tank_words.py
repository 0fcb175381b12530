"""What 10 Gallon Tank tells players in words: refusals quote what was typed, exactly as typed."""

from __future__ import annotations

import pytest

from config import Settings
from tests.e2e.helpers_games import QUIET, seed_games, start_floe
from tests.e2e.test_tank import started_table
from tests.harness import Driver


async def test_a_refused_group_or_line_is_quoted_as_typed(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 310)
    bot = await start_floe(driver, floe_settings)
    table = await started_table(driver, bot, 2, seed=3)
    player = table.turn()
    refused = await driver.slash(player, "/tank split group:Banana line:h1").settle(quiet=QUIET)
    assert refused.ephemeral and 'There is no group "Banana".' in refused.content, refused.content
    refused = await driver.slash(player, "/tank split group:1 line:Diagonal").settle(quiet=QUIET)
    assert refused.ephemeral and '"Diagonal" is not a cut line' in refused.content, refused.content
