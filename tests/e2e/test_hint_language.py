"""A hint comes back whole in the asker's language, though its search runs in a worker that has none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config import Settings
from tests.e2e.helpers_games import QUIET, floe_settings_for, seed_games, start_floe
from tests.harness import Driver, FakeDiscord

ENGLISH = re.compile(r"\b(wins|simulated|within reach|tiles?|places|takes|keeps|expected score|the next best)\b")


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from seed 5, so runs repeat."""
    seed_games(monkeypatch, 5)


@pytest.fixture
def settings(tmp_path: Path, fake_discord: FakeDiscord) -> Settings:
    """Use the default settings."""
    return floe_settings_for(tmp_path, fake_discord)


@pytest.mark.parametrize(
    ("language", "word"), [("de", "Tipp"), ("es-ES", "Pista"), ("pt-BR", "Dica"), ("ja", "ヒント")]
)
async def test_a_hint_has_no_english_in_the_askers_language(
    driver: Driver, settings: Settings, language: str, word: str
) -> None:
    bot = await start_floe(driver, settings)
    anna, bob = driver.user("anna"), driver.user("bob")
    await driver.slash(anna, "/game new game:fish rated:false").settle(quiet=QUIET)
    await driver.slash(bob, "/game join").settle(quiet=QUIET)
    await driver.slash(anna, "/game start").settle(quiet=QUIET)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None
    game, state = bot.flow.live(row)
    player = (anna, bob)[game.to_act(state)[0]]
    player.locale = language
    hint = await driver.slash(player, "/game hint").settle(within=30, quiet=QUIET)
    assert hint.ephemeral and word in hint.content, hint.content
    assert not ENGLISH.search(hint.content), hint.content
