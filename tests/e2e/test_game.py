"""End-to-end checks of /game commands every game shares, as a player sees them in Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.registry import get
from tests.e2e.helpers_games import QUIET, floe_settings_for, start_floe
from tests.harness import Driver, FakeDiscord


def words(text: str) -> list[str]:
    """Return the words of a text, ignoring how it was broken into lines and messages."""
    return text.split()


@pytest.mark.parametrize("kind", ["fish", "tank", "flippers"])
async def test_rules_arrive_whole_in_private_embeds(
    kind: str, driver: Driver, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    await start_floe(driver, floe_settings_for(tmp_path, fake_discord))
    reply = await driver.slash(driver.user("alice"), f"/game rules game:{kind}").settle(quiet=QUIET)
    assert reply.messages and all(m.ephemeral for m in reply.messages)
    sent = [e["description"] for m in reply.messages for e in m.embeds]
    assert words("\n".join(sent)) == words(get(kind).rules_text())
    assert reply.message.embeds[0]["title"] == f"{get(kind).title}: rules"


async def test_rules_longer_than_one_message_of_embeds_arrive_in_several(
    driver: Driver, fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get("tank")
    long_rules = "\n\n".join(f"Ruling {i}: " + "the Discus counts double in a tie " * 30 for i in range(20))
    monkeypatch.setattr(type(game), "rules_text", lambda self: long_rules)
    await start_floe(driver, floe_settings_for(tmp_path, fake_discord))
    reply = await driver.slash(driver.user("alice"), "/game rules game:tank").settle(quiet=QUIET)
    assert len(reply.messages) >= 2 and all(m.ephemeral for m in reply.messages)
    sent = [e["description"] for m in reply.messages for e in m.embeds]
    assert words("\n".join(sent)) == words(long_rules)
