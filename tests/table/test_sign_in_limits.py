"""Sign-ins over their limit, per address and per user: 429, Retry-After, the sentence the page shows, no session."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
from playwright.async_api import Browser

from bot import IceFloeBot
from config import LimitSettings, Rate
from tests.e2e.helpers_games import floe_settings_for, start_floe
from tests.harness import Driver, FakeDiscord
from tests.table.browser import open_table
from tests.table.conftest import table_url
from tests.table.fakes import CLIENT_ID, CLIENT_SECRET, FakeAccount, FakeOAuth

OVER = "The table was opened too many times in a short while: wait {n} seconds, then open it again."


async def limited_bot(
    driver: Driver, fake_discord: FakeDiscord, oauth: FakeOAuth, tmp_path: Path, limits: LimitSettings, hops: int = 0
) -> IceFloeBot:
    """Start Ice Floe with its table and these sign-in limits."""
    base = floe_settings_for(tmp_path, fake_discord)
    settings = replace(
        base,
        table_port=0,
        discord_client_id=CLIENT_ID,
        discord_client_secret=CLIENT_SECRET,
        discord_api=oauth.url,
        limits=limits,
        table_proxy_hops=hops,
    )
    return await start_floe(driver, settings)


async def sign_in(bot: IceFloeBot, body: dict[str, Any], **headers: str) -> tuple[int, dict[str, Any], str | None]:
    """POST a code to the table's sign-in; return the status, the JSON answer and its Retry-After."""
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{table_url(bot)}/table/api/token", json=body, headers=headers) as answer,
    ):
        return answer.status, await answer.json(), answer.headers.get("Retry-After")


async def sessions(bot: IceFloeBot) -> int:
    """Return how many table sessions are stored."""
    return len(await bot.db.backend.fetch("SELECT token_hash FROM table_sessions", ()))


async def test_an_address_over_its_limit_is_refused_before_discord_is_asked(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path
) -> None:
    bot = await limited_bot(driver, fake_discord, fake_oauth, tmp_path, LimitSettings(sign_ins_per_address=Rate(3, 60)))
    answers = [await sign_in(bot, {"code": f"guess-{n}"}) for n in range(3)]
    assert [status for status, _body, _retry in answers] == [401, 401, 401]
    status, body, retry = await sign_in(bot, {"code": fake_oauth.code_for(FakeAccount(42, "ana")), "locale": "de"})
    assert status == 429 and retry is not None and 55 <= int(retry) <= 60
    assert body["message"].startswith("Der Tisch wurde in kurzer Zeit zu oft geöffnet") and retry in body["message"]
    assert len(fake_oauth.exchanges) == 3, "the refused sign-in never reached Discord"
    assert await sessions(bot) == 0


async def test_a_user_over_their_limit_gets_no_session_from_any_address(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path
) -> None:
    limits = LimitSettings(sign_ins_per_address=Rate(100, 60), sign_ins_per_user=Rate(2, 60))
    bot = await limited_bot(driver, fake_discord, fake_oauth, tmp_path, limits, hops=1)
    ana, bo = FakeAccount(42, "ana"), FakeAccount(7, "bo")
    for n in range(2):
        status, body, _retry = await sign_in(
            bot, {"code": fake_oauth.code_for(ana)}, **{"X-Forwarded-For": f"1.1.1.{n}"}
        )
        assert status == 200 and body["session"]
    status, body, retry = await sign_in(bot, {"code": fake_oauth.code_for(ana)}, **{"X-Forwarded-For": "2.2.2.2"})
    assert status == 429 and retry is not None and body == {"message": OVER.format(n=retry)}
    assert await sessions(bot) == 2
    status, body, _retry = await sign_in(bot, {"code": fake_oauth.code_for(bo)})
    assert status == 200 and await sessions(bot) == 3, "another user signs in as usual"


async def test_behind_a_proxy_addresses_are_told_apart_and_a_forged_header_changes_nothing(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path
) -> None:
    bot = await limited_bot(
        driver, fake_discord, fake_oauth, tmp_path, LimitSettings(sign_ins_per_address=Rate(1, 60)), hops=1
    )
    assert (await sign_in(bot, {"code": "x"}, **{"X-Forwarded-For": "1.2.3.4"}))[0] == 401
    assert (await sign_in(bot, {"code": "x"}, **{"X-Forwarded-For": "5.6.7.8"}))[0] == 401, "another address"
    forged = await sign_in(bot, {"code": "x"}, **{"X-Forwarded-For": "9.9.9.9, 1.2.3.4"})
    assert forged[0] == 429, "what the client wrote before the proxy's entry is not an address"


async def test_the_page_shows_the_refusal(
    driver: Driver, fake_discord: FakeDiscord, fake_oauth: FakeOAuth, tmp_path: Path, browser: Browser
) -> None:
    limits = LimitSettings(sign_ins_per_user=Rate(1, 60))
    bot = await limited_bot(driver, fake_discord, fake_oauth, tmp_path, limits)
    ana = FakeAccount(42, "ana", "es-ES")
    assert (await sign_in(bot, {"code": fake_oauth.code_for(ana)}))[0] == 200
    table = await open_table(
        browser, fake_oauth, ana, table_url(bot), driver.channel.id, driver.guild.id, locale="es-ES"
    )
    text = (await table.frame.locator(".message").text_content() or "").strip()
    assert text.startswith("La mesa se abrió demasiadas veces") and "segundos" in text
    assert await table.layout_problems() == []
