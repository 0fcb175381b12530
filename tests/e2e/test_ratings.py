"""End-to-end checks of skill ratings, takebacks by consent and hints, as players see them in Discord."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from ai.advice import advice
from bot import IceFloeBot
from config import Settings
from engine.registry import get
from storage import ratings
from storage.database import FINISHED
from storage.server_rules import ServerRules, save_server_rules
from tests.clock import Clock
from tests.e2e.helpers_games import QUIET, open_lobby, seed_games, start_floe
from tests.e2e.test_bots import flippers_command, tank_command
from tests.harness import Driver, FakeMessage, FakeUser
from tests.ratings_reference import reference_rate
from ui.limits import LimitSettings

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
MOVE_SECONDS = 20.0
"""How long a person takes over a move, on a test's clock (storage/fairness.py counts games over in seconds less)."""


async def fish_command(driver: Driver, player: FakeUser) -> str:
    """Return the first legal Hey, That's My Fish! command for the player, from the autocomplete choices."""
    if tiles := await driver.autocomplete(player, "/fish place tile:"):
        return f"/fish place tile:{tiles[0]['value']}"
    start = (await driver.autocomplete(player, "/fish move from:"))[0]["value"]
    end = (await driver.autocomplete(player, f"/fish move from:{start} to:"))[0]["value"]
    return f"/fish move from:{start} to:{end}"


COMMANDS: dict[str, Callable[[Driver, FakeUser], Awaitable[str]]] = {
    "fish": fish_command,
    "tank": tank_command,
    "flippers": flippers_command,
}


async def settle(driver: Driver, bot: IceFloeBot) -> None:
    """Wait until no handler runs and no computer player thinks."""
    await driver.idle(quiet=0.01, within=30)
    await asyncio.wait_for(bot.flow.bots.idle(), timeout=30)
    await driver.idle(quiet=0.01, within=30)


async def to_act(bot: IceFloeBot, game_id: int, players: list[FakeUser]) -> FakeUser | None:
    """Return the person whose input the game waits for (the first of several), or None once it is over."""
    row = await bot.db.game(game_id)
    assert row is not None
    if row.status == FINISHED:
        return None
    game, state = bot.flow.live(row)
    return players[game.to_act(state)[0]]


async def act(driver: Driver, bot: IceFloeBot, kind: str, player: FakeUser) -> None:
    """Play the player's first legal action through a slash command picked from autocomplete."""
    command = await COMMANDS[kind](driver, player)
    done = await driver.slash(player, command).settle(quiet=QUIET)
    assert done.accepted, f"{command}: {done.content}"
    await settle(driver, bot)
    if isinstance(bot.db.clock, Clock):  # people take a while to move: the game is not too fast to be real
        bot.db.clock.advance(MOVE_SECONDS / 3600)


async def play_out(driver: Driver, bot: IceFloeBot, kind: str, game_id: int, players: list[FakeUser]) -> None:
    """Play a game to its end, each person taking their first legal action."""
    for _ in range(800):
        player = await to_act(bot, game_id, players)
        if player is None:
            return
        await act(driver, bot, kind, player)
    raise AssertionError(f"game #{game_id} did not end")


def expected_ratings(teams: list[list[str]], ranks: list[int]) -> dict[str, tuple[float, float]]:
    """Rate one finish with openskill called directly (every player new, ties averaged)."""
    return reference_rate([[(p, None) for p in team] for team in teams], ranks)


async def stored_ratings(bot: IceFloeBot, guild_id: int, kind: str) -> dict[str, tuple[float, float, int]]:
    """Return every stored rating of a server's game as player -> (mu, sigma, games)."""
    return {r.player: (r.mu, r.sigma, r.games) for r in await ratings.leaderboard(bot.db, guild_id, kind, limit=50)}


@pytest.mark.parametrize(("kind", "players", "teams"), [("fish", 4, False), ("flippers", 6, True)])
async def test_a_rated_game_updates_ratings_exactly_as_openskill_does(
    kind: str, players: int, teams: bool, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 20 + players)
    bot = await start_floe(driver, floe_settings, clock=Clock())
    people = [driver.user(n) for n in NAMES[:players]]
    row = await open_lobby(driver, bot, people, f"/game new game:{kind}" + (" teams:true" if teams else ""))
    await driver.slash(people[0], "/game start").settle(quiet=QUIET)
    await play_out(driver, bot, kind, row.id, people)

    results = await bot.db.backend.fetch("SELECT seat, rank FROM results WHERE game_id = ? ORDER BY seat", (row.id,))
    rank = {r["seat"]: r["rank"] for r in results}
    if teams:  # Team Up: partners sit in alternate seats and share their side's place
        sides = [[seat for seat in range(players) if seat % 2 == side] for side in (0, 1)]
        assert all(len({rank[s] for s in side}) == 1 for side in sides)
    else:
        sides = [[seat] for seat in range(players)]
    expected = expected_ratings(
        [[f"user:{people[s].id}" for s in side] for side in sides], [rank[side[0]] for side in sides]
    )
    stored = await stored_ratings(bot, driver.guild.id, kind)
    assert set(stored) == set(expected)
    for player, (mu, sigma) in expected.items():
        assert stored[player][:2] == pytest.approx((mu, sigma), abs=1e-9)
        assert stored[player][2] == 1

    final = driver.last_message()
    assert "**Final standings**" in final.content
    shown = re.search(r"^Ratings \(μ − 3σ\): (.*)\.$", final.content, re.M)
    assert shown, final.content
    for seat, person in enumerate(people):
        mu, sigma = expected[f"user:{person.id}"]
        assert f"{row.names[seat]} 0.0 → {mu - 3 * sigma:.1f}" in shown.group(1)

    board = await driver.slash(people[1], f"/game leaderboard game:{kind}").settle(quiet=QUIET)
    order = sorted(people, key=lambda p: (-(expected[f"user:{p.id}"][0] - 3 * expected[f"user:{p.id}"][1])))
    listed = [int(m) for m in re.findall(r"^\d+\. <@(\d+)>\*", board.content, re.M)]
    conservative = [expected[f"user:{i}"][0] - 3 * expected[f"user:{i}"][1] for i in listed]
    assert len(listed) == players and conservative == sorted(conservative, reverse=True), board.content
    assert {p.id for p in order} == set(listed)
    assert "recomputed" not in board.content
    stats = await driver.slash(people[0], "/game stats").settle(quiet=QUIET)
    mu, sigma = expected[f"user:{people[0].id}"]
    assert f"rating {mu - 3 * sigma:.1f} (μ {mu:.1f}, σ {sigma:.1f}), provisional" in stats.content, stats.content
    assert stats.message.attachments and stats.message.attachments[0].description


async def resign_out(driver: Driver, bot: IceFloeBot, game_id: int, quitters: list[FakeUser]) -> None:
    """Let players resign one after another until the game ends."""
    for player in quitters:
        await driver.slash(player, "/game resign").settle(quiet=QUIET)
        await settle(driver, bot)
    row = await bot.db.game(game_id)
    assert row is not None and row.status == FINISHED


async def past_abort_window(driver: Driver, bot: IceFloeBot, game_id: int, people: list[FakeUser]) -> None:
    """Play until each person has made two moves, so resigning counts (storage/fairness.py ABORT_MOVES)."""
    made = dict.fromkeys((p.id for p in people), 0)
    while min(made.values()) < 2:
        player = await to_act(bot, game_id, people)
        assert player is not None
        await act(driver, bot, "fish", player)
        made[player.id] += 1


async def final_ranks(bot: IceFloeBot, game_id: int) -> list[int]:
    """Return a finished game's ranks by seat."""
    rows = await bot.db.backend.fetch("SELECT rank FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
    return [int(r["rank"]) for r in rows]


async def test_resigned_players_rank_last_casual_games_and_servers_without_ratings_change_nothing(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 5)
    no_rates = LimitSettings(per_user=None, per_channel=None)  # alice opens several games in seconds
    bot = await start_floe(driver, replace(floe_settings, limits=no_rates), clock=Clock())
    alice, bob, carol = (driver.user(n) for n in NAMES[:3])
    row = await open_lobby(driver, bot, [alice, bob, carol], "/game new game:fish")
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    await past_abort_window(driver, bot, row.id, [alice, bob, carol])
    await resign_out(driver, bot, row.id, [alice, bob])
    assert (await final_ranks(bot, row.id))[2] == 1  # the resigned players rank below carol
    expected = expected_ratings([[f"user:{p.id}"] for p in (alice, bob, carol)], await final_ranks(bot, row.id))
    first = await stored_ratings(bot, driver.guild.id, "fish")
    assert set(first) == set(expected)
    assert all(first[p][:2] == pytest.approx(expected[p], abs=1e-9) for p in expected)

    casual = await open_lobby(driver, bot, [alice, bob], "/game new game:fish rated:false")
    lobby = next(m for m in reversed(driver.messages()) if m.embeds)
    assert "· casual (not rated) ·" in lobby.embeds[0]["footer"]["text"], lobby.embeds
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    await resign_out(driver, bot, casual.id, [alice])
    assert "Casual game: ratings do not change." in driver.last_message().content
    assert await stored_ratings(bot, driver.guild.id, "fish") == first

    await save_server_rules(bot.db, driver.guild.id, ServerRules(ratings=False))
    off = await open_lobby(driver, bot, [alice, bob], "/game new game:fish")
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    await resign_out(driver, bot, off.id, [bob])
    assert await stored_ratings(bot, driver.guild.id, "fish") == first

    cancelled = await open_lobby(driver, bot, [alice, bob], "/game new game:fish")
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    await driver.slash(alice, "/game cancel").settle(quiet=QUIET)
    assert await stored_ratings(bot, driver.guild.id, "fish") == first
    assert cancelled.id > off.id

    assert await ratings.rebuild(bot.db) == 3  # the cancelled game has no result to rate
    assert await stored_ratings(bot, driver.guild.id, "fish") == first
    board = await driver.slash(bob, "/game leaderboard game:fish").settle(quiet=QUIET)
    assert re.search(r"^Ratings were recomputed from every finished game on <t:\d+:D>: ", board.content, re.M), board


async def test_computer_players_are_rated_as_one_identity_per_level(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 9)
    bot = await start_floe(driver, floe_settings)
    alice = driver.user("alice")
    await driver.slash(alice, "/game new game:fish").settle(quiet=QUIET)
    await driver.slash(alice, "/game addbot level:easy").settle(quiet=QUIET)
    await driver.slash(alice, "/game addbot level:easy").settle(quiet=QUIET)
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    row = await bot.db.open_game_in(driver.channel.id)
    assert row is not None
    await past_abort_window(driver, bot, row.id, [alice, alice, alice])  # seats 1 and 2 are computers
    await resign_out(driver, bot, row.id, [alice])
    results = await bot.db.backend.fetch("SELECT seat, rank FROM results WHERE game_id = ? ORDER BY seat", (row.id,))
    rank = {r["seat"]: r["rank"] for r in results}
    rated = reference_rate([[(str(seat), None)] for seat in range(3)], [rank[seat] for seat in range(3)])
    bot_mu = (rated["1"][0] + rated["2"][0]) / 2
    stored = await stored_ratings(bot, driver.guild.id, "fish")
    assert set(stored) == {f"user:{alice.id}", "bot:easy"}
    assert stored["bot:easy"][0] == pytest.approx(bot_mu) and stored["bot:easy"][2] == 1
    board = await driver.slash(alice, "/game leaderboard game:fish").settle(quiet=QUIET)
    assert "Computer player (easy)*" in board.content, board.content


# -- takebacks ------------------------------------------------------------------------------------------


async def casual_fish(driver: Driver, bot: IceFloeBot, people: list[FakeUser]) -> int:
    """Open and start a casual game of fish for these people; return its number."""
    row = await open_lobby(driver, bot, people, "/game new game:fish rated:false")
    await driver.slash(people[0], "/game start").settle(quiet=QUIET)
    return row.id


async def request_takeback(driver: Driver, bot: IceFloeBot, player: FakeUser) -> FakeMessage:
    """Play a move as `player` by command, ask for it back, and return the public request with its buttons."""
    command = await fish_command(driver, player)
    moved = await driver.slash(player, command).settle(quiet=QUIET)
    assert not any("Misclicked?" in m.content for m in moved.followups)  # typed, not tapped: no offer
    asked = await driver.slash(player, "/game takeback").settle(quiet=QUIET)
    request = driver.last_message()
    labels = [c.get("label") for c in request.interactive_components()]
    assert "asks to take back" in request.content and labels == ["Accept", "Decline"], (request.content, labels)
    assert asked.accepted
    return request


async def test_a_takeback_everyone_accepts_undoes_the_move_even_after_a_restart(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    seed_games(monkeypatch, 3)
    bot = await start_floe(driver, floe_settings, clock=clock)
    alice, bob, carol = (driver.user(n) for n in NAMES[:3])
    game_id = await casual_fish(driver, bot, [alice, bob, carol])
    before = await bot.db.game(game_id)
    assert before is not None
    request = await request_takeback(driver, bot, alice)
    assert "Alice placed a penguin on" in request.content and bob.mention in request.content

    half = await driver.press(bob, request, label="Accept").settle(quiet=QUIET)
    assert half.ephemeral and "Still waiting for Carol" in half.content
    await driver.stop_bot(bot)
    bot = await start_floe(driver, floe_settings, clock=clock)  # the buttons keep working after a restart
    done = await driver.press(carol, request, label="Accept").settle(quiet=QUIET)
    assert done.accepted
    await settle(driver, bot)
    after = await bot.db.game(game_id)
    assert after is not None and after.state == before.state and after.version == before.version + 2
    assert "Everyone accepted" in request.content
    board = driver.last_message()
    assert board.attachments and "Alice took back: Alice placed a penguin on" in board.content, board.content
    assert f"{alice.mention}, it's your turn." in board.content
    history = await driver.slash(bob, "/game history").settle(quiet=QUIET)
    assert re.search(r"Alice took back: Alice placed a penguin on \w+\. Agreed by Bob and Carol\.", history.content)
    log = await bot.db.actions(game_id)
    assert [e["action"]["type"] for e in log] == ["place", "takeback"]  # the log only grew


async def test_a_declined_an_expired_and_an_overtaken_takeback_change_nothing(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    seed_games(monkeypatch, 4)
    bot = await start_floe(driver, floe_settings, clock=clock)
    alice, bob = driver.user("alice"), driver.user("bob")
    game_id = await casual_fish(driver, bot, [alice, bob])

    declined = await request_takeback(driver, bot, alice)
    kept = await bot.db.game(game_id)
    no = await driver.press(bob, declined, label="Decline").settle(quiet=QUIET)
    assert no.accepted and "Bob declined the takeback: the move stands." in declined.content
    assert all(c.get("disabled") for c in declined.interactive_components())
    assert (await bot.db.game(game_id)) == kept

    await act(driver, bot, "fish", bob)
    expired = await request_takeback(driver, bot, alice)
    kept = await bot.db.game(game_id)
    clock.advance(11 / 60)
    late = await driver.press(bob, expired, label="Accept").settle(quiet=QUIET)
    assert late.ephemeral and "expired" in late.content, late.content
    assert "expired" in expired.content and (await bot.db.game(game_id)) == kept

    await act(driver, bot, "fish", bob)
    overtaken = await request_takeback(driver, bot, alice)
    await act(driver, bot, "fish", bob)  # bob moves instead of answering: the request ends
    assert "the game has moved on" in overtaken.content, overtaken.content
    gone = await driver.press(bob, overtaken, label="Accept", force=True).settle(quiet=QUIET)
    assert gone.ephemeral and "already ended" in gone.content, gone.content
    log = await bot.db.actions(game_id)
    assert all(e["action"]["type"] != "takeback" for e in log)


async def test_a_takeback_is_refused_with_the_reason_when_the_move_revealed_hidden_cards(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 6)
    bot = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    row = await open_lobby(driver, bot, [alice, bob], "/game new game:flippers rated:false")
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    for _ in range(60):  # play until a turn ends with a card drawn
        log = await bot.db.actions(row.id)
        if log and any(e["kind"] == "drew" for e in log[-1]["events"]):
            break
        player = await to_act(bot, row.id, [alice, bob])
        assert player is not None
        await act(driver, bot, "flippers", player)
    mover = [alice, bob][log[-1]["seat"]]
    before = await bot.db.game(row.id)
    refused = await driver.slash(mover, "/game takeback").settle(quiet=QUIET)
    assert refused.ephemeral and refused.content == "That move cannot be taken back: it drew a card from a deck."
    assert await bot.db.game(row.id) == before

    await save_server_rules(bot.db, driver.guild.id, ServerRules(takebacks=False))
    off = await driver.slash(mover, "/game takeback").settle(quiet=QUIET)
    assert off.ephemeral and off.content == "This server has turned takebacks off."


async def test_takebacks_in_rated_games_only_when_the_server_allows_them(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 8)
    bot = await start_floe(driver, floe_settings)
    alice, bob = driver.user("alice"), driver.user("bob")
    await open_lobby(driver, bot, [alice, bob], "/game new game:fish")
    await driver.slash(alice, "/game start").settle(quiet=QUIET)
    moved = await driver.slash(alice, await fish_command(driver, alice)).settle(quiet=QUIET)
    assert not any("Misclicked?" in m.content for m in moved.followups)
    refused = await driver.slash(alice, "/game takeback").settle(quiet=QUIET)
    assert refused.ephemeral and refused.content.startswith("This is a rated game, and this server allows takebacks")
    await save_server_rules(bot.db, driver.guild.id, ServerRules(rated_takebacks=True))
    asked = await driver.slash(alice, "/game takeback").settle(quiet=QUIET)
    assert not asked.ephemeral and "asks to take back" in asked.content


# -- hints ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "players"), [("fish", 3), ("tank", 3), ("flippers", 4)])
async def test_a_hint_suggests_a_legal_move_privately_and_the_board_says_hints_were_used(
    kind: str, players: int, driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 30 + players)
    bot = await start_floe(driver, floe_settings)
    people = [driver.user(n) for n in NAMES[:players]]
    row = await open_lobby(driver, bot, people, f"/game new game:{kind}")
    await driver.slash(people[0], "/game start").settle(quiet=QUIET)
    for _ in range(players + 2):  # into the game a little
        player = await to_act(bot, row.id, people)
        assert player is not None
        await act(driver, bot, kind, player)
    player = await to_act(bot, row.id, people)
    assert player is not None
    fresh = await bot.db.game(row.id)
    assert fresh is not None
    game, state = bot.flow.live(fresh)
    seat = people.index(player)
    other = next(p for p in people if p is not player and people.index(p) not in game.to_act(state))
    nope = await driver.slash(other, "/game hint").settle(quiet=QUIET)
    assert nope.ephemeral and "not your turn" in nope.content

    # Before: the hint unrated the game at once and warned afterwards. Now a private button asks first.
    asked = await driver.slash(player, "/game hint").settle(quiet=QUIET)
    assert asked.ephemeral and "you gain no rating from it" in asked.content, asked.content
    assert "opponents' ratings are not affected" in asked.content
    assert await bot.db.backend.fetch("SELECT * FROM hints") == []  # nothing recorded before the confirmation
    pressed = await driver.press(player, asked.message, label="Show the hint").settle(within=60, quiet=QUIET)
    assert pressed.response_type == 7  # the prompt turned into "Thinking about your move…" at once
    hint = driver.fake.messages[asked.message.id]
    assert hint.ephemeral and hint.edited_at is not None
    # Before: "Hint: Turn 7: ana moved E4→B3 and took a 1-fish tile." Now advice: "Move your penguin from E4 to B3: …"
    suggested = re.match(r"\*\*Hint:\*\* (.*?): (.*)\.\nEveryone will see", hint.content, re.S)
    assert suggested, hint.content
    advised = {advice(kind, state, seat, a) for a in get(kind).legal_actions(state, seat)}
    assert suggested.group(1) in advised, (suggested.group(1), advised)
    assert re.search(r"wins \d+% of simulated games|the only move you have", suggested.group(2))
    assert "you gain no rating" not in hint.content  # the warning was said once, before
    assert not any("Hint" in m.content for m in driver.messages())  # nothing public about the suggestion

    name = fresh.names[seat]
    note = f"Hints were used by {name}. {name} gains no rating from this game (a loss still counts)."
    before = len(driver.messages())
    for _ in range(12):  # the next new board says it (a Flippers setup step or turn edits its board in place first)
        acting = await to_act(bot, row.id, people)
        assert acting is not None
        await act(driver, bot, kind, acting)
        if any(note in m.content for m in driver.messages()[before:]):
            break
    assert any(note in m.content for m in driver.messages()[before:]), [m.content for m in driver.messages()[before:]]


async def test_a_hint_in_a_casual_game_says_at_once_that_it_thinks_and_asks_nothing_first(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 34)
    bot = await start_floe(driver, floe_settings)
    people = [driver.user(n) for n in NAMES[:2]]
    row = await open_lobby(driver, bot, people, "/game new game:fish rated:false")
    await driver.slash(people[0], "/game start").settle(quiet=QUIET)
    player = await to_act(bot, row.id, people)
    assert player is not None
    # Before: a deferred "thinking" state for 2.8 s. Now a reply at once, edited into the hint.
    asked = await driver.slash(player, "/game hint").settle(within=60, quiet=QUIET)
    assert asked.response_type == 4 and asked.ephemeral
    assert asked.content.startswith("**Hint:** Place a penguin on "), asked.content
    assert asked.message.edited_at is not None


async def test_a_server_that_forbids_hints_refuses_them_and_says_so_in_its_settings(
    driver: Driver, floe_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_games(monkeypatch, 33)
    bot = await start_floe(driver, floe_settings)
    people = [driver.user(n) for n in NAMES[:2]]
    admin = driver.user("admin", manage_guild=True)
    saved = await driver.slash(admin, "/game settings hints:false").settle(quiet=QUIET)
    assert saved.ephemeral and "· hints: no ·" in saved.content, saved.content
    row = await open_lobby(driver, bot, people, "/game new game:fish")
    await driver.slash(people[0], "/game start").settle(quiet=QUIET)
    player = await to_act(bot, row.id, people)
    assert player is not None
    refused = await driver.slash(player, "/game hint").settle(quiet=QUIET)
    assert refused.ephemeral and "This server does not allow hints" in refused.content, refused.content
    assert await bot.db.backend.fetch("SELECT * FROM hints") == []  # nothing recorded: the game stays rated
    await driver.slash(admin, "/game settings hints:true").settle(quiet=QUIET)
    allowed = await driver.slash(player, "/game hint").settle(within=60, quiet=QUIET)
    assert allowed.ephemeral and allowed.content.startswith("This is a rated game: if you take a hint"), allowed.content
