"""The code exchange: Discord's token endpoint, then /users/@me with that user's token; any failure refused."""

from __future__ import annotations

import pytest

from table.auth import AuthFailed, DiscordOAuth
from tests.table.fakes import CLIENT_ID, CLIENT_SECRET, FakeAccount, FakeOAuth


async def test_a_code_names_the_user_who_authorized(fake_oauth: FakeOAuth) -> None:
    code = fake_oauth.code_for(FakeAccount(42, "ana", "pt-BR"))
    user = await DiscordOAuth(fake_oauth.url, CLIENT_ID, CLIENT_SECRET).user_for_code(code)
    assert (user.id, user.name, user.locale) == (42, "Ana", "pt-BR")
    exchange = fake_oauth.exchanges[0]
    assert exchange["grant_type"] == "authorization_code" and exchange["client_secret"] == CLIENT_SECRET


async def test_a_code_works_once(fake_oauth: FakeOAuth) -> None:
    oauth = DiscordOAuth(fake_oauth.url, CLIENT_ID, CLIENT_SECRET)
    code = fake_oauth.code_for(FakeAccount(42, "ana"))
    await oauth.user_for_code(code)
    with pytest.raises(AuthFailed, match="400"):
        await oauth.user_for_code(code)


async def test_a_wrong_secret_or_unknown_code_is_refused(fake_oauth: FakeOAuth) -> None:
    code = fake_oauth.code_for(FakeAccount(42, "ana"))
    with pytest.raises(AuthFailed, match="401"):
        await DiscordOAuth(fake_oauth.url, CLIENT_ID, "wrong").user_for_code(code)
    with pytest.raises(AuthFailed, match="400"):
        await DiscordOAuth(fake_oauth.url, CLIENT_ID, CLIENT_SECRET).user_for_code("made-up")


async def test_discord_out_of_reach_is_a_refusal_not_a_crash() -> None:
    with pytest.raises(AuthFailed, match="token exchange"):
        await DiscordOAuth("http://127.0.0.1:9", CLIENT_ID, CLIENT_SECRET).user_for_code("code")
