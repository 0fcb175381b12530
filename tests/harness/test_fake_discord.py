"""Tests of the fake Discord harness, driven with a small throwaway discord.py bot."""

from __future__ import annotations

import asyncio
import io
from importlib import import_module
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.harness import Driver, FakeDiscord, parse_command_line
from tests.harness.rest import multipart_parts
from ui import fitting


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tiny:join:(?P<game>\d+)"):
    """A persistent Join button: it works for any message, even after a restart."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=f"tiny:join:{game}")
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> JoinButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Add the presser to the game and update the lobby message."""
        bot = interaction.client
        assert isinstance(bot, TinyBot)
        players = bot.games.setdefault(self.game, [])
        if interaction.user.id in players:
            await interaction.response.send_message("You are already in.", ephemeral=True)
            return
        players.append(interaction.user.id)
        await interaction.response.edit_message(content=f"Game {self.game}: {len(players)} player(s)")


class ColourSelect(discord.ui.Select[discord.ui.View]):
    """A plain (non-persistent) select menu."""

    def __init__(self) -> None:
        options = [discord.SelectOption(label=name.title(), value=name) for name in ("red", "blue")]
        super().__init__(custom_id="tiny:colour", placeholder="Pick a colour", options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Say what was picked."""
        await interaction.response.send_message(
            f"{interaction.user.name} picked {self.values[0]}", ephemeral=True
        )


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    """A one-field modal."""

    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(
        label="Your feedback", custom_id="feedback:text"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Thank the user."""
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


def board_png() -> bytes:
    """Render a tiny board image."""
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (20, 80, 160)).save(buffer, format="PNG")
    return buffer.getvalue()


class TinyBot(commands.Bot):
    """A throwaway bot using what Ice Floe uses: groups, options, autocomplete, components, files, DMs."""

    def __init__(self, sync_guild: int | None = None, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            **options,
        )
        self.sync_guild = sync_guild
        self.games: dict[int, list[int]] = {}
        self.events: list[tuple[Any, ...]] = []
        self.counter = 0
        self.tree.on_error = self.on_tree_error
        self._register_commands()

    async def setup_hook(self) -> None:
        """Register the persistent button and sync the commands."""
        self.add_dynamic_items(JoinButton)
        guild = discord.Object(self.sync_guild) if self.sync_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer failed checks ephemerally."""
        if isinstance(error, app_commands.CheckFailure):
            await interaction.response.send_message("Manage Server needed.", ephemeral=True)
            return
        raise error

    def _register_commands(self) -> None:
        bot = self
        game = app_commands.Group(name="game", description="Play games")
        admin = app_commands.Group(name="admin", description="Admin tools", parent=game)

        @game.command(name="new", description="Open a game lobby")
        @app_commands.rename(kind="game")
        @app_commands.describe(kind="Which game", balanced="Balanced board", seats="Number of seats")
        async def game_new(
            interaction: discord.Interaction,
            kind: str,
            balanced: bool = False,
            seats: app_commands.Range[int, 2, 4] = 2,
        ) -> None:
            bot.counter += 1
            view = discord.ui.View(timeout=None)
            view.add_item(JoinButton(bot.counter))
            view.add_item(ColourSelect())
            text = f"New {kind} game {bot.counter} balanced={balanced} seats={seats}"
            await interaction.response.send_message(text, view=view)

        @game_new.autocomplete("kind")
        async def kind_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ("fish", "flippers", "tank")
            return [
                app_commands.Choice(name=name.title(), value=name)
                for name in names
                if name.startswith(current)
            ]

        @game.command(name="move", description="Move a penguin")
        @app_commands.rename(source="from", target="to")
        async def game_move(interaction: discord.Interaction, source: str, target: str) -> None:
            await interaction.response.send_message(f"moved {source} to {target}")

        @game_move.autocomplete("target")
        async def target_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            source = interaction.namespace["from"]
            targets = [f"{source[0]}{n}" for n in range(1, 4)] + [f"X{current}"]
            return [app_commands.Choice(name=f"{source} -> {t}", value=t) for t in targets]

        @admin.command(name="reset", description="Reset everything")
        @app_commands.checks.has_permissions(manage_guild=True)
        async def admin_reset(interaction: discord.Interaction, confirm: bool) -> None:
            await interaction.response.send_message(f"reset confirm={confirm}")

        @app_commands.command(name="board", description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            file = discord.File(io.BytesIO(board_png()), filename="board.png", description="The board")
            embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
            await interaction.followup.send(embed=embed, file=file)

        @app_commands.command(name="secret", description="Whisper")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only you", ephemeral=True)

        @app_commands.command(name="dm", description="DM me")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                await interaction.user.send("psst")
                outcome = "sent"
            except discord.Forbidden as exc:
                bot.events.append(("forbidden", exc.code))
                outcome = "closed"
            await interaction.followup.send(outcome, ephemeral=True)

        @app_commands.command(name="posthaste", description="Whisper, then post in public")
        async def posthaste(interaction: discord.Interaction, deferred: bool) -> None:
            if deferred:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.send_message("noted", ephemeral=True)
            await interaction.followup.send("for everyone")
            await interaction.followup.send("for everyone, again")

        @app_commands.command(name="announce", description="Post in the channel")
        async def announce(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message("ok", ephemeral=True)
            assert isinstance(interaction.channel, discord.abc.Messageable)
            try:
                await interaction.channel.send(text)
                bot.events.append(("announced", text))
            except discord.HTTPException as exc:
                bot.events.append(("announce-failed", type(exc).__name__, exc.status, exc.code))

        @app_commands.command(name="ping", description="Pong")
        async def ping(interaction: discord.Interaction) -> None:
            await bot.answer_ping(interaction)

        @app_commands.command(name="slow", description="Pong, slowly")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.2)
            await bot.answer_ping(interaction)

        @app_commands.command(name="thread", description="Open a thread")
        async def thread(interaction: discord.Interaction, name: str) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            created = await interaction.channel.create_thread(
                name=name, type=discord.ChannelType.public_thread
            )
            await created.send("welcome")
            await interaction.response.send_message(f"made {created.mention}")

        @app_commands.command(name="feedback", description="Tell us")
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(FeedbackModal())

        @app_commands.command(name="emojis", description="Count emojis")
        async def emojis(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            try:
                found = len(await interaction.guild.fetch_emojis())
            except discord.NotFound:
                found = -1
            await interaction.response.send_message(f"emojis: {found}")

        @app_commands.command(name="long", description="Too long")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                bot.events.append(("rejected", exc.status, exc.code))

        @app_commands.command(name="card", description="Reply with a picture at once")
        async def card(interaction: discord.Interaction) -> None:
            file = discord.File(io.BytesIO(board_png()), filename="card.png", description="A card")
            await interaction.response.send_message("your card", file=file)

        @app_commands.command(name="whois", description="Look someone up")
        async def whois(interaction: discord.Interaction, user: discord.Member) -> None:
            assert interaction.guild is not None and interaction.channel is not None
            member = await interaction.guild.fetch_member(user.id)
            channel = await bot.fetch_channel(interaction.channel.id)
            guild = await bot.fetch_guild(interaction.guild.id)
            text = f"{member.display_name} in #{getattr(channel, 'name', '?')} of {guild.name}"
            await interaction.response.send_message(text)

        commands_ = (
            game,
            board,
            secret,
            dm,
            posthaste,
            announce,
            ping,
            slow,
            thread,
            feedback,
            emojis,
            long,
            card,
            whois,
        )
        for command in commands_:
            self.tree.add_command(command)

    async def answer_ping(self, interaction: discord.Interaction) -> None:
        """Answer pong, noting a refused (expired) interaction."""
        try:
            await interaction.response.send_message("pong")
        except discord.NotFound as exc:
            self.events.append(("notfound", exc.code))


class ShardedTinyBot(TinyBot, commands.AutoShardedBot):
    """TinyBot as an AutoShardedBot."""


@pytest_asyncio.fixture
async def bot(driver: Driver, fake_discord: FakeDiscord) -> TinyBot:
    """Start a TinyBot that syncs its commands to the fake guild."""
    tiny = TinyBot(sync_guild=fake_discord.guild.id)
    await driver.start_bot(tiny)
    return tiny


def test_parse_command_line() -> None:
    assert parse_command_line("/game new game:fish balanced:true") == (
        ["game", "new"],
        [("game", "fish"), ("balanced", "true")],
    )
    assert parse_command_line('/say text:"hello there" to:B2') == (
        ["say"],
        [("text", "hello there"), ("to", "B2")],
    )
    assert parse_command_line("/fish move from:A1 to:") == (["fish", "move"], [("from", "A1"), ("to", "")])


async def test_endpoints_are_patched_and_restored() -> None:
    before = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord() as fake:
        assert f"http://127.0.0.1:{fake.port}/api/v10" == discord.http.Route.BASE
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("ws://127.0.0.1:")
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


async def test_startup_logs_in_syncs_and_receives_the_guild(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    routes = [(call.method, call.route) for call in fake_discord.calls]
    assert routes[:3] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ]
    synced = {c["name"]: c for c in fake_discord.commands(fake_discord.guild)}
    assert {"game", "board", "ping"} <= set(synced)
    assert synced["game"]["application_id"] == str(fake_discord.application_id)
    assert synced["game"]["id"].isdigit()
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.me is not None
    assert {c.name for c in guild.text_channels} == {"games", "general"}
    assert fake_discord.gateway.heartbeats >= 1
    assert fake_discord.gateway.identifies[0]["intents"] == discord.Intents.default().value


async def test_slash_command_with_subcommand_and_typed_options(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    result = await driver.slash(alice, "/game new game:fish balanced:true seats:3")
    assert result.response_type == 4
    assert result.content == "New fish game 1 balanced=True seats=3"
    assert not result.ephemeral
    assert driver.messages() == [result.message]
    assert result.message.custom_id(label="Join") == "tiny:join:1"
    sent = result.interaction.data["options"][0]
    assert sent["name"] == "new" and sent["type"] == 1
    assert [o["value"] for o in sent["options"]] == ["fish", True, 3]
    assert result.message.payload()["interaction_metadata"]["name"] == "game new"
    with pytest.raises(ValueError, match="at most 4"):
        driver.slash(alice, "/game new game:fish seats:5")
    with pytest.raises(LookupError, match="no subcommand 'nope'"):
        driver.slash(alice, "/game nope")


async def test_subcommand_group_and_manage_server_permission(bot: TinyBot, driver: Driver) -> None:
    admin = driver.user("admin", manage_guild=True)
    alice = driver.user("alice")
    done = await driver.slash(admin, "/game admin reset confirm:true")
    assert done.content == "reset confirm=True"
    refused = await driver.slash(alice, "/game admin reset confirm:false")
    assert refused.ephemeral and refused.content == "Manage Server needed."
    assert driver.messages() == [done.message]


async def test_autocomplete_returns_the_bots_choices(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    choices = await driver.autocomplete(alice, "/game new game:f")
    assert choices == [{"name": "Fish", "value": "fish"}, {"name": "Flippers", "value": "flippers"}]
    targets = await driver.autocomplete(alice, "/game move from:C4 to:9")
    assert [c["value"] for c in targets] == ["C1", "C2", "C3", "X9"]
    focused_first = await driver.autocomplete(alice, "/game move to:Z from:A1", focused="to")
    assert focused_first[0]["value"] == "A1"
    assert driver.messages() == []


async def test_persistent_button_works_after_a_restart(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    lobby = (await driver.slash(alice, "/game new game:fish")).message
    joined = await driver.press(bob, lobby, label="Join")
    assert joined.response_type == 7
    assert joined.message is lobby and lobby.content == "Game 1: 1 player(s)"
    again = await driver.press(bob, lobby, label="Join")
    assert again.ephemeral and again.content == "You are already in."
    await driver.stop_bot(bot)
    restarted = await driver.start_bot(TinyBot(sync_guild=fake_discord.guild.id))
    assert isinstance(restarted, TinyBot)
    after = await driver.press(carol, lobby, custom_id="tiny:join:1")
    assert after.message is lobby and lobby.content == "Game 1: 1 player(s)"
    assert restarted.games == {1: [carol.id]}
    assert len(fake_discord.gateway.sessions) == 2


async def test_two_presses_at_once_are_both_delivered(bot: TinyBot, driver: Driver) -> None:
    alice, bob, carol = driver.user("alice"), driver.user("bob"), driver.user("carol")
    lobby = (await driver.slash(alice, "/game new game:fish")).message
    first, second = driver.press(bob, lobby, label="Join"), driver.press(carol, lobby, label="Join")
    await asyncio.gather(first, second)
    assert lobby.content == "Game 1: 2 player(s)"
    assert len(lobby.versions) == 2


async def test_select_menu_and_component_lookup(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    lobby = (await driver.slash(alice, "/game new game:tank")).message
    picked = await driver.select(alice, lobby, ["blue"], placeholder="Pick a colour")
    assert picked.ephemeral and picked.content == "alice picked blue"
    assert picked.interaction.payload["message"]["id"] == str(lobby.id)
    with pytest.raises(ValueError, match="no option"):
        driver.select(alice, lobby, ["green"])
    with pytest.raises(LookupError, match="custom_id='tiny:join:1'"):
        driver.press(alice, lobby, label="Leave")


async def test_deferred_followup_with_a_file_replaces_the_placeholder(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    result = await driver.slash(alice, "/board")
    assert result.response_type == 5
    message = result.message
    assert message.id == result.interaction.original_message_id
    assert result.followups == [message]
    assert message.versions[0]["flags"] & 128
    assert not message.loading
    board = message.attachment("board.png")
    assert board.description == "The board"
    assert board.data == board_png()
    assert board.image().size == (64, 48)
    assert message.embed_image() is board
    assert driver.messages() == [message]


async def test_ephemeral_reply_is_not_in_the_channel(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    result = await driver.slash(alice, "/secret")
    assert result.ephemeral and result.content == "only you"
    assert driver.messages() == []
    assert driver.messages(include_ephemeral=True) == [result.message]


async def test_a_follow_up_chooses_its_flags_unless_it_replaces_a_private_thinking(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    after_reply = await driver.slash(alice, "/posthaste deferred:false").settle()
    assert [m.content for m in driver.messages()] == ["for everyone", "for everyone, again"]
    assert [m.ephemeral for m in after_reply.messages] == [True, False, False]
    assert fake_discord.problems == []
    deferred = driver.slash(alice, "/posthaste deferred:true")
    with pytest.raises(AssertionError, match="inherits the flag"):  # a bot meaning it public has a bug
        await deferred.settle()
    fake_discord.take_problems()
    await driver.idle()
    shown = [(m.content, m.ephemeral) for m in deferred.messages]
    assert shown == [("for everyone", True), ("for everyone, again", False)]  # the first one inherited the flag


async def test_a_token_edits_only_what_its_own_interaction_sent(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    first = await driver.slash(alice, "/posthaste deferred:false").settle()
    second = await driver.slash(alice, "/ping").settle()
    theirs = discord.Webhook.partial(fake_discord.application_id, second.interaction.token, client=bot)
    with pytest.raises(discord.NotFound) as refused:
        await theirs.edit_message(first.messages[1].id, content="not mine")
    assert refused.value.code == 10008
    mine = discord.Webhook.partial(fake_discord.application_id, first.interaction.token, client=bot)
    await mine.edit_message(first.messages[1].id, content="mine")
    assert first.messages[1].content == "mine"
    assert fake_discord.counted_calls(len(fake_discord.calls) - 1) == []  # a webhook's edit is not counted


async def test_direct_message_and_closed_dms(bot: TinyBot, driver: Driver, fake_discord: FakeDiscord) -> None:
    alice = driver.user("alice")
    bob = driver.user("bob", dms_closed=True)
    sent = await driver.slash(alice, "/dm")
    assert sent.content == "sent" and sent.ephemeral
    assert [m.content for m in driver.dm_messages(alice)] == ["psst"]
    closed = await driver.slash(bob, "/dm")
    assert closed.content == "closed"
    assert bot.events == [("forbidden", 50007)]
    assert driver.dm_messages(bob) == []
    assert [c.status for c in fake_discord.calls_to("POST /users/@me/channels")] == [200, 200]
    assert [c.status for c in fake_discord.calls_to("POST /channels/{channel_id}/messages")] == [200, 403]


async def test_rate_limited_route_is_retried_and_posts_once(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    fake_discord.rate_limit("POST /channels/{channel_id}/messages", retry_after=0.05)
    await driver.slash(alice, "/announce text:hello").settle()
    assert [m.content for m in driver.messages()] == ["hello"]
    assert [c.status for c in fake_discord.calls_to("POST /channels/{channel_id}/messages")] == [429, 200]
    assert bot.events == [("announced", "hello")]


async def test_global_rate_limit_is_retried(bot: TinyBot, driver: Driver, fake_discord: FakeDiscord) -> None:
    alice = driver.user("alice")
    fake_discord.global_rate_limit(retry_after=0.05, times=2)
    await driver.slash(alice, "/announce text:hi").settle()
    assert [m.content for m in driver.messages()] == ["hi"]
    statuses = [c.status for c in fake_discord.calls if c.route and "callback" in c.route]
    assert statuses == [429, 429, 200]


async def test_expired_interaction_gets_unknown_interaction(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    result = await driver.slash(alice, "/ping", expired=True).acked()
    assert result.rejections == [(404, 10062, "Unknown interaction")]
    await driver.idle()
    assert bot.events == [("notfound", 10062)]
    assert driver.messages() == []


async def test_an_interaction_token_edits_its_answer_until_it_expires(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    result = await driver.slash(driver.user("alice"), "/ping").settle()
    webhook = discord.Webhook.partial(fake_discord.application_id, result.interaction.token, client=bot)
    await webhook.edit_message(result.message.id, content="pong again")
    assert result.message.content == "pong again"
    assert fake_discord.calls_to("PATCH /webhooks/{application_id}/{token}/messages/{message_id}", status=200)
    fake_discord.expire_token(result.interaction)
    with pytest.raises(discord.HTTPException) as refused:
        await webhook.edit_message(result.message.id, content="too late")
    assert (refused.value.status, refused.value.code) == (401, 50027)
    assert result.message.content == "pong again" and fake_discord.problems == []


async def test_answer_after_the_deadline_is_refused_and_reported(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    fake_discord.interaction_deadline = 0.1
    alice = driver.user("alice")
    result = driver.slash(alice, "/slow")
    with pytest.raises(AssertionError, match=r"answered 0\.\d+s after it was sent"):
        await result.acked()
    assert len(fake_discord.take_problems()) == 1
    await driver.idle()
    assert bot.events == [("notfound", 10062)]


async def test_dropped_gateway_resumes_and_replays_missed_interactions(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    session = fake_discord.gateway.current
    assert session is not None
    await fake_discord.drop_gateway()
    missed = driver.slash(alice, "/ping")
    assert (await missed).content == "pong"
    assert fake_discord.gateway.resumes[0]["session_id"] == session.id
    assert fake_discord.gateway.connect_paths[-1] == "/resume"
    assert session.resumed == 1 and fake_discord.gateway.current is session
    assert (await driver.slash(alice, "/ping")).content == "pong"


async def test_abrupt_drop_and_reconnect_opcode_resume(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    session = fake_discord.gateway.current
    assert session is not None
    await fake_discord.drop_gateway(abrupt=True)
    assert (await driver.slash(alice, "/ping")).content == "pong"
    fake_discord.request_reconnect()
    await driver.wait_until(lambda: session.resumed == 2 and fake_discord.gateway.connected, "second resume")
    assert (await driver.slash(alice, "/ping")).content == "pong"
    assert len(fake_discord.gateway.identifies) == 1


async def test_invalid_session_makes_the_bot_identify_again(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
        """Skip discord.py's 5 s pause before identifying again."""

    monkeypatch.setattr(bot, "before_identify_hook", identify_at_once)
    alice = driver.user("alice")
    fake_discord.invalidate_session()
    await driver.wait_until(
        lambda: len(fake_discord.gateway.identifies) == 2 and fake_discord.gateway.connected, "a new IDENTIFY"
    )
    assert (await driver.slash(alice, "/ping")).content == "pong"


async def test_server_error_is_retried_by_discord_py(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    fake_discord.fail("POST /channels/{channel_id}/messages", status=500)
    await driver.slash(alice, "/announce text:again").settle(within=5)
    assert [m.content for m in driver.messages()] == ["again"]
    assert [c.status for c in fake_discord.calls_to("POST /channels/{channel_id}/messages")] == [500, 200]


async def test_unretried_server_error_reaches_the_bot(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    fake_discord.fail("POST /channels/{channel_id}/messages", status=503, times=None)
    await driver.slash(alice, "/announce text:lost").settle()
    assert bot.events == [("announce-failed", "DiscordServerError", 503, 0)]
    assert driver.messages() == []


async def test_unknown_route_fails_the_wait_immediately(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    result = driver.slash(alice, "/emojis")
    with pytest.raises(AssertionError, match=r"unknown route GET /api/v10/guilds/\d+/emojis"):
        await result
    assert fake_discord.take_problems() == [
        f"unknown route GET /api/v10/guilds/{fake_discord.guild.id}/emojis"
    ]
    await driver.idle()
    assert result.content == "emojis: -1"


@pytest.fixture
def unfitted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let discord.py send messages as built, without the bot's fitting (installed for good by any GameFlow)."""
    for name in {*fitting.MODULES, fitting.WEBHOOKS}:
        module = import_module(name)
        for builder in ("handle_message_parameters", "interaction_message_response_params"):
            built = getattr(module, builder, None)
            if getattr(built, "fits_discord", False):
                monkeypatch.setattr(module, builder, built.__wrapped__)  # type: ignore[union-attr]


@pytest.mark.usefixtures("unfitted")
async def test_invalid_message_is_refused_like_discord(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    driver.slash(alice, "/long")
    with pytest.raises(AssertionError, match="content: Must be 2000 or fewer"):
        await driver.idle()
    fake_discord.take_problems()
    await driver.idle()
    assert bot.events == [("rejected", 400, 50035)]


async def test_threads_are_created_and_commands_run_inside(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    made = await driver.slash(alice, "/thread name:fish-1").settle()
    thread = next(c for c in fake_discord.channels.values() if c.name == "fish-1")
    assert thread.is_thread and thread.parent_id == driver.channel.id
    assert made.content == f"made <#{thread.id}>"
    assert [m.content for m in driver.messages(thread)] == ["welcome"]
    inside = await driver.slash(alice, "/ping", channel=thread)
    assert inside.message.channel_id == thread.id
    assert bot.get_channel(thread.id) is not None


async def test_modal_round_trip(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    opened = await driver.slash(alice, "/feedback")
    assert opened.response_type == 9 and opened.modal["title"] == "Feedback"
    thanked = await driver.submit_modal(alice, opened, {"feedback:text": "great"})
    assert thanked.ephemeral and thanked.content == "thanks: great"


async def test_global_commands_and_dm_interactions(driver: Driver, fake_discord: FakeDiscord) -> None:
    bot = await driver.start_bot(TinyBot())
    assert fake_discord.commands(None) and not fake_discord.commands(fake_discord.guild)
    alice = driver.user("alice")
    result = await driver.slash(alice, "/ping", channel=driver.dm_channel(alice))
    assert result.content == "pong"
    assert result.message.channel_id == driver.dm_channel(alice).id
    assert "user" in result.interaction.payload and "member" not in result.interaction.payload
    await driver.stop_bot(bot)


async def test_missing_permission_in_a_channel(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    alice = driver.user("alice")
    fake_discord.deny_send(driver.channel)
    await driver.slash(alice, "/announce text:nope").settle()
    assert bot.events == [("announce-failed", "Forbidden", 403, 50013)]


async def test_world_changes_reach_the_connected_bot(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    second = fake_discord.add_guild("Second Server")
    lounge = fake_discord.add_text_channel(second, "lounge")
    await driver.wait_until(
        lambda: bot.get_channel(lounge.id) is not None, "the new channel to reach the bot"
    )
    guild = bot.get_guild(second.id)
    assert guild is not None and [c.name for c in guild.text_channels] == ["lounge"]
    dave = driver.user("dave", guild=second)
    with pytest.raises(LookupError, match="no slash command /game synced"):
        driver.slash(dave, "/game new game:tank", channel=lounge)
    bot.tree.copy_global_to(guild=discord.Object(second.id))
    await bot.tree.sync(guild=discord.Object(second.id))
    result = await driver.slash(dave, "/game new game:tank", channel=lounge)
    assert result.message.guild_id == second.id


async def test_initial_response_with_a_file(bot: TinyBot, driver: Driver) -> None:
    alice = driver.user("alice")
    result = await driver.slash(alice, "/card")
    assert result.response_type == 4 and result.content == "your card"
    card = result.message.attachment("card.png")
    assert card.description == "A card" and card.data == board_png()


async def test_user_option_and_fetches(bot: TinyBot, driver: Driver, fake_discord: FakeDiscord) -> None:
    alice, bob = driver.user("alice"), driver.user("bob")
    result = await driver.slash(alice, "/whois", options={"user": bob})
    assert result.content == "Bob in #games of Ice Floe Test"
    assert result.interaction.data["resolved"]["users"][str(bob.id)]["username"] == "bob"
    by_mention = await driver.slash(alice, f"/whois user:{bob.mention}")
    assert by_mention.content == result.content
    routes = {call.route for call in fake_discord.calls}
    assert {"/guilds/{guild_id}/members/{user_id}", "/channels/{channel_id}", "/guilds/{guild_id}"} <= routes


async def test_each_shard_gets_only_its_guilds_and_their_interactions(
    driver: Driver, fake_discord: FakeDiscord
) -> None:
    fake_discord.recommended_shards = 2
    guilds = [fake_discord.add_guild(f"shard {n}", shard=(n, 2)) for n in (0, 1)]
    channels = [fake_discord.add_text_channel(guild, "games") for guild in guilds]
    alice = driver.user("alice")
    for guild in guilds:
        fake_discord.add_member(guild, alice)
    bots = [await driver.start_bot(ShardedTinyBot(shard_count=2, shard_ids=[n])) for n in (0, 1)]
    assert sorted(tuple(i["shard"]) for i in fake_discord.gateway.identifies) == [(0, 2), (1, 2)]
    for n, bot in enumerate(bots):
        assert bot.get_guild(guilds[n].id) is not None
        assert bot.get_guild(guilds[1 - n].id) is None
    added = fake_discord.add_text_channel(guilds[1], "later")
    await driver.idle()
    assert bots[1].get_channel(added.id) is not None and bots[0].get_channel(added.id) is None
    for n, channel in enumerate(channels):
        result = await driver.slash(alice, "/ping", channel=channel)
        assert result.content == "pong"
        assert fake_discord.gateway.session_for(guilds[n].id).shard == [n, 2]
    assert fake_discord.gateway.session_for(None).shard == [0, 2]
    for bot in bots:
        await driver.stop_bot(bot)


async def test_without_a_shard_count_the_bot_runs_every_recommended_shard(
    driver: Driver, fake_discord: FakeDiscord
) -> None:
    fake_discord.recommended_shards = 2
    guilds = [fake_discord.add_guild(f"shard {n}", shard=(n, 2)) for n in (0, 1)]
    bot = await driver.start_bot(ShardedTinyBot())
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    assert all(bot.get_guild(guild.id) is not None for guild in guilds)
    await driver.stop_bot(bot)


async def refusal(sending: Any) -> tuple[int, int] | None:
    """Await a request and return Discord's (status, code) if it refused, or None."""
    try:
        await sending
    except discord.HTTPException as exc:
        return exc.status, exc.code
    return None


async def test_a_member_overwrite_takes_permissions_away_from_the_bot(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    send, attach = 1 << 11, 1 << 15
    channel = bot.get_partial_messageable(driver.channel.id)
    fake_discord.deny_bot(driver.channel, attach)
    await driver.idle()
    cached = bot.get_channel(driver.channel.id)
    assert isinstance(cached, discord.TextChannel)
    me = cached.guild.me
    assert cached.permissions_for(me).send_messages and not cached.permissions_for(me).attach_files
    assert await refusal(channel.send("text only")) is None
    assert await refusal(channel.send(file=discord.File(io.BytesIO(b"x"), "x.txt"))) == (403, 50013)
    fake_discord.deny_bot(driver.channel, send)
    await driver.idle()
    assert not cached.permissions_for(me).send_messages
    assert await refusal(channel.send("nope")) == (403, 50013)
    interaction = driver.slash(driver.user("alice"), "/ping").interaction
    assert not int(interaction.payload["app_permissions"]) & send
    fake_discord.allow_bot(driver.channel)
    await driver.idle()
    assert cached.permissions_for(me).attach_files
    assert await refusal(channel.send("back")) is None


async def test_archived_threads_reopen_on_a_post_and_locked_ones_refuse(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    thread = driver.thread("fish night")
    channel = bot.get_partial_messageable(thread.id)
    first = await channel.send("hello")
    fake_discord.set_thread(thread, archived=True)
    assert await refusal(first.edit(content="edited")) == (400, 50083)
    assert await refusal(channel.send("reopen")) is None and not thread.archived
    fake_discord.set_thread(thread, locked=True)
    assert await refusal(channel.send("the bot manages threads")) is None
    fake_discord.deny_bot(driver.channel, 1 << 34)  # Manage Threads
    assert await refusal(channel.send("locked")) == (400, 160005)
    fake_discord.set_thread(thread, archived=True)
    assert await refusal(channel.send("closed and locked")) == (400, 50083)


async def test_threads_keep_a_valid_auto_archive_duration(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    data = await bot.http.start_thread_without_message(
        driver.channel.id, name="week", auto_archive_duration=10080, type=11
    )
    assert fake_discord.channels[int(data["id"])].auto_archive_duration == 10080
    assert data["thread_metadata"]["auto_archive_duration"] == 10080
    odd = bot.http.start_thread_without_message(driver.channel.id, name="odd", auto_archive_duration=30, type=11)
    assert await refusal(odd) == (400, 50035)
    assert fake_discord.take_problems()


async def test_a_bot_removed_from_a_guild_loses_it_until_invited_back(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    removed: list[int] = []

    async def on_guild_remove(guild: discord.Guild) -> None:
        removed.append(guild.id)

    bot.add_listener(on_guild_remove)
    fake_discord.remove_bot(driver.guild)
    await driver.wait_until(lambda: bot.get_guild(driver.guild.id) is None, "the guild to leave the cache")
    assert removed == [driver.guild.id]
    assert await refusal(bot.get_partial_messageable(driver.channel.id).send("hi")) == (403, 50001)
    fake_discord.add_bot_back(driver.guild)
    await driver.wait_until(lambda: bot.get_guild(driver.guild.id) is not None, "the guild to come back")
    assert await refusal(bot.get_partial_messageable(driver.channel.id).send("hi")) is None


async def test_a_request_hook_sees_each_call_and_can_answer_instead(
    bot: TinyBot, driver: Driver, fake_discord: FakeDiscord
) -> None:
    seen: list[tuple[str, str | None, int]] = []

    async def refuse_followups(call: Any) -> tuple[int, Any] | None:
        seen.append((call.method, call.route, len(call.files)))
        if call.route == "/webhooks/{application_id}/{token}":
            return 403, {"code": 50013, "message": "Missing Permissions"}
        return None

    fake_discord.request_hooks.append(refuse_followups)
    result = driver.slash(driver.user("alice"), "/board")
    await result.acked()
    await driver.idle()
    assert ("POST", "/webhooks/{application_id}/{token}", 1) in seen  # the board's file is already read
    assert result.followups == [] and result.message.loading  # the placeholder was never replaced
    assert fake_discord.calls_to("POST /webhooks/{application_id}/{token}", status=403)
    driver.take_bot_errors()  # the tiny bot does not handle the refused follow-up


async def test_a_multipart_body_is_read_as_aiohttp_writes_it() -> None:
    import aiohttp

    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "board"}', content_type="application/json")
    form.add_field("files[0]", b"\x89PNG\r\n--not-a-boundary", filename='fish "final" ñ.png', content_type="image/png")
    writer = form()
    body = bytearray()

    class Sink:
        async def write(self, data: bytes) -> None:
            body.extend(data)

    await writer.write(Sink())  # type: ignore[arg-type]
    parts = multipart_parts(bytes(body), writer.content_type)
    assert [(p["name"], p.get("filename"), p["type"], data) for p, data in parts] == [
        ("payload_json", None, "application/json", b'{"content": "board"}'),
        ("files[0]", 'fish "final" ñ.png', "image/png", b"\x89PNG\r\n--not-a-boundary"),
    ]
