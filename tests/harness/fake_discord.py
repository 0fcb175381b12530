"""A fake Discord (gateway + REST) on 127.0.0.1 that the real discord.py client connects to."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import math
import re
import secrets
import socket
from collections.abc import Iterable
from typing import Any

import discord
import discord.asset
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .gateway import DIRECT_MESSAGES_INTENT, GUILD_MEMBERS_INTENT, GUILD_MESSAGES_INTENT, GatewayServer
from .models import (
    ATTACH_FILES,
    DM_CHANNEL,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    IS_COMPONENTS_V2,
    LOADING,
    MANAGE_GUILD,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    TEXT_CHANNEL,
    VIEW_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    SnowflakeFactory,
    utcnow,
)
from .rest import ApiError, Call, FailureRule, RequestHook, RestApi, UploadedFile

log = logging.getLogger(__name__)

SENDABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
MENTION = re.compile(r"<@!?(\d+)>")


def parse_route(route: str) -> tuple[str, str]:
    """Split "POST /channels/{channel_id}/messages" into method and path ("*" matches any)."""
    method, _, path = route.strip().partition(" ")
    if not path:
        method, path = "*", method
    return method.upper(), path


UNCOUNTED = ("/interactions/", "/webhooks/")
"""Routes Discord does not count against a bot's global request limit."""


def counted_path(path: str) -> bool:
    """Tell whether a request to this path counts against the bot's global limit."""
    return not path.removeprefix("/api/v10").startswith(UNCOUNTED)


class FakeDiscord:
    """Discord's side of the conversation: world state, the server, failure switches and the records."""

    def __init__(
        self,
        *,
        token: str = "harness-bot-token",
        bot_name: str = "Ice Floe",
        heartbeat_interval_ms: int = 41250,
        interaction_deadline: float | None = 3.0,
        attachment_size_limit: int = 10 * 1024 * 1024,
    ) -> None:
        self.token = token
        self.recommended_shards = 1
        """What GET /gateway/bot recommends as the shard count."""
        self.interaction_deadline = interaction_deadline
        self.attachment_size_limit = attachment_size_limit
        self.ids = SnowflakeFactory()
        self.port = 0
        self.inflight = 0
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.channel_log: dict[int, list[int]] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.calls: list[Call] = []
        self.problems: list[str] = []
        self.failure_rules: list[FailureRule] = []
        self.request_hooks: list[RequestHook] = []
        self.bot_user = self.add_user(bot_name, bot=True)
        self.owner = self.add_user("app-owner")
        self.application_id = self.bot_user.id
        self.gateway = GatewayServer(self, heartbeat_interval_ms=heartbeat_interval_ms)
        self.rest = RestApi(self)
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL, str] | None = None
        self.guild = self.add_guild("Ice Floe Test", owner=self.owner)
        self.channel = self.add_text_channel(self.guild, "games")
        self.add_text_channel(self.guild, "general")

    # -- server lifecycle -----------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """Return the HTTP root (also serves attachments and avatars)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Return the REST API root, for discord.http.Route.BASE."""
        return f"{self.base_url}/api/v10"

    @property
    def ws_url(self) -> str:
        """Return the gateway root URL."""
        return f"ws://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Bind 127.0.0.1 on a free port and serve."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/", self.gateway.handle)
        app.router.add_route("GET", "/resume", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        """Close gateway connections and stop serving."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def install(self) -> None:
        """Point discord.py's REST base, default gateway and CDN at this fake."""
        if self._saved is None:
            self._saved = (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
                discord.asset.Asset.BASE,
            )
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.ws_url + "/")
        discord.asset.Asset.BASE = self.base_url

    def uninstall(self) -> None:
        """Restore discord.py's real endpoints."""
        if self._saved is not None:
            route_base, gateway, cdn = self._saved
            discord.http.Route.BASE = route_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
            discord.asset.Asset.BASE = cdn
            self._saved = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self.install()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.uninstall()
        await self.stop()

    # -- change notification, problems ----------------------------------------------------------------------

    def notify(self) -> None:
        """Wake everyone waiting for a state change."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def changed(self, within: float) -> None:
        """Wait until the next state change, or `within` seconds, whichever is first."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout=max(within, 0))

    def problem(self, text: str) -> None:
        """Record something real Discord would have rejected; it fails the test."""
        log.warning("fake Discord problem: %s", text)
        self.problems.append(text)
        self.notify()

    def unknown_route(self, method: str, path: str) -> None:
        """Record a request to a route the fake does not implement."""
        self.problem(f"unknown route {method} {path}")

    def take_problems(self) -> list[str]:
        """Return and forget the recorded problems (for tests that provoke them on purpose)."""
        problems, self.problems = self.problems, []
        return problems

    def check(self) -> None:
        """Raise if any problem was recorded."""
        if self.problems:
            listing = "\n  ".join(self.problems)
            raise AssertionError(f"fake Discord saw {len(self.problems)} problem(s):\n  {listing}")

    @property
    def busy(self) -> bool:
        """Tell whether a REST request is being handled or gateway frames are queued."""
        return self.inflight > 0 or self.gateway.busy

    # -- world building -------------------------------------------------------------------------------------

    def add_user(self, name: str, *, bot: bool = False, dms_closed: bool = False) -> FakeUser:
        """Create a user."""
        user = FakeUser(id=self.ids.next(), name=name, global_name=None if bot else name.title(), bot=bot)
        user.dms_closed = dms_closed
        self.users[user.id] = user
        return user

    def user_named(self, name: str) -> FakeUser | None:
        """Return the user with this name, if any."""
        return next((u for u in self.users.values() if u.name == name), None)

    def add_guild(
        self, name: str, *, owner: FakeUser | None = None, shard: tuple[int, int] | None = None
    ) -> FakeGuild:
        """Create a guild with @everyone and a "Game Admin" (Manage Server) role; the bot is a member.

        With `shard` = (shard_id, shard_count) the guild's ID puts it on that shard.
        """
        owner = owner or self.owner
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = FakeGuild(id=guild_id, name=name, owner_id=owner.id)
        bot_permissions = EVERYONE_PERMISSIONS | (1 << 13) | (1 << 34)  # + manage messages, manage threads
        for role_id, role_name, permissions in (
            (guild.id, "@everyone", EVERYONE_PERMISSIONS),
            (self.ids.next(), "Game Admin", EVERYONE_PERMISSIONS | MANAGE_GUILD),
            (self.ids.next(), self.bot_user.name, bot_permissions),
        ):
            guild.roles[role_id] = FakeRole(role_id, role_name, permissions, position=len(guild.roles))
        bot_role_id = list(guild.roles)[-1]
        guild.members[owner.id] = FakeMember(user=owner, guild_id=guild.id)
        guild.members[self.bot_user.id] = FakeMember(
            user=self.bot_user, guild_id=guild.id, roles=[bot_role_id]
        )
        self.guilds[guild.id] = guild
        self.gateway.dispatch("GUILD_CREATE", guild.create_payload())
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: int) -> FakeRole:
        """Create a role in a guild."""
        role = FakeRole(self.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def admin_role(self, guild: FakeGuild) -> FakeRole:
        """Return the guild's "Game Admin" role (Manage Server)."""
        return next(role for role in guild.roles.values() if role.name == "Game Admin")

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, manage_guild: bool = False, roles: Iterable[FakeRole] = ()
    ) -> FakeMember:
        """Add a user to a guild (optionally with Manage Server through the Game Admin role)."""
        role_ids = [role.id for role in roles]
        if manage_guild:
            role_ids.append(self.admin_role(guild).id)
        member = guild.members.get(user.id)
        if member is not None:
            if not set(role_ids) <= set(member.roles):
                member.roles = sorted(set(member.roles) | set(role_ids))
                self.gateway.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(guild.id), **member.payload()})
            return member
        member = FakeMember(user=user, guild_id=guild.id, roles=role_ids)
        guild.members[user.id] = member
        self.gateway.dispatch(
            "GUILD_MEMBER_ADD", {"guild_id": str(guild.id), **member.payload()}, intent=GUILD_MEMBERS_INTENT
        )
        return member

    def add_text_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        """Create a text channel."""
        position = len(guild.text_channels())
        channel = FakeChannel(self.ids.next(), TEXT_CHANNEL, name, guild_id=guild.id, position=position)
        self._register_channel(guild, channel)
        return channel

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser | None = None,
        private: bool = False,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> FakeChannel:
        """Create a thread under a text channel."""
        assert parent.guild_id is not None, "threads live in guild text channels"
        thread = FakeChannel(
            thread_id or self.ids.next(),
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=(owner or self.bot_user).id,
            auto_archive_duration=auto_archive_duration,
        )
        self._register_channel(self.guilds[parent.guild_id], thread)
        return thread

    def _register_channel(self, guild: FakeGuild, channel: FakeChannel) -> None:
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.channel_log[channel.id] = []
        self.channel_changed(channel, "CREATE")

    def channel_changed(self, channel: FakeChannel, change: str) -> None:
        """Dispatch CHANNEL_/THREAD_ CREATE, UPDATE or DELETE for a guild channel."""
        if channel.guild_id is None:
            return
        kind = "THREAD" if channel.is_thread else "CHANNEL"
        data = channel.payload()
        if channel.is_thread and change == "CREATE":
            data["newly_created"] = True
        self.gateway.dispatch(f"{kind}_{change}", data)
        self.notify()

    def remove_channel(self, channel: FakeChannel) -> None:
        """Delete a guild channel or thread."""
        if channel.guild_id is not None:
            self.guilds[channel.guild_id].channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        self.channel_changed(channel, "DELETE")

    def deny_bot(self, channel: FakeChannel, permissions: int) -> None:
        """Deny the bot `permissions` in a text channel (and its threads) with a member overwrite."""
        allow, deny = channel.overwrites.get(self.bot_user.id, (0, 0))
        channel.overwrites[self.bot_user.id] = (allow & ~permissions, deny | permissions)
        self.channel_changed(channel, "UPDATE")

    def allow_bot(self, channel: FakeChannel) -> None:
        """Remove the bot's member overwrite from a text channel."""
        channel.overwrites.pop(self.bot_user.id, None)
        self.channel_changed(channel, "UPDATE")

    def bot_permissions_in(self, channel: FakeChannel) -> int:
        """Return the bot's permissions in a guild channel or thread."""
        guild = self.guild_of(channel)
        assert guild is not None, "DM channels have no permissions"
        return guild.permissions_in(channel, self.bot_user.id)

    def set_thread(self, thread: FakeChannel, *, archived: bool | None = None, locked: bool | None = None) -> None:
        """Archive, unarchive, lock or unlock a thread as a moderator would (dispatches THREAD_UPDATE)."""
        if archived is not None:
            thread.archived = archived
        if locked is not None:
            thread.locked = locked
        self.channel_changed(thread, "UPDATE")

    def remove_bot(self, guild: FakeGuild) -> None:
        """Kick the bot from a guild: GUILD_DELETE, and its channels answer 403 50001 Missing Access."""
        guild.bot_member = False
        self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)})
        self.notify()

    def add_bot_back(self, guild: FakeGuild) -> None:
        """Invite the bot to a guild it was removed from (GUILD_CREATE)."""
        guild.bot_member = True
        self.gateway.dispatch("GUILD_CREATE", guild.create_payload())
        self.notify()

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """Return the bot's DM channel with a user, creating it."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.ids.next(), DM_CHANNEL, f"dm-{user.name}", recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
            self.channel_log[channel.id] = []
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        """Return the guild a channel belongs to (None for DMs)."""
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    # -- failure modes --------------------------------------------------------------------------------------

    def close_dms(self, user: FakeUser) -> None:
        """Make sending to this user's DMs answer 403 50007 (opening the DM still works)."""
        user.dms_closed = True

    def open_dms(self, user: FakeUser) -> None:
        """Let the bot DM this user again."""
        user.dms_closed = False

    def deny_send(self, channel: FakeChannel) -> None:
        """Make the bot's messages in this channel answer 403 50013 Missing Permissions."""
        channel.bot_can_send = False

    def rate_limit(
        self, route: str, *, retry_after: float = 0.05, times: int | None = 1, scope: str = "user"
    ) -> FailureRule:
        """Answer `times` requests to `route` ("POST /channels/{channel_id}/messages") with a 429."""
        method, path = parse_route(route)
        headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": secrets.token_hex(8),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
        return self._add_rule(FailureRule(method, path, 429, body, headers, times))

    def global_rate_limit(self, *, retry_after: float = 0.05, times: int | None = 1) -> FailureRule:
        """Answer the next `times` API requests, whatever the route, with a global 429."""
        headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": "1.1 google",
        }
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": True}
        return self._add_rule(FailureRule("*", "*", 429, body, headers, times))

    def fail(
        self,
        route: str,
        *,
        status: int = 500,
        times: int | None = 1,
        code: int = 0,
        message: str | None = None,
    ) -> FailureRule:
        """Answer `times` requests to `route` with `status` (500: discord.py retries after 1 s, 3 s, ...)."""
        method, path = parse_route(route)
        body = {"code": code, "message": message or f"{status}: Internal Server Error"}
        return self._add_rule(FailureRule(method, path, status, body, {}, times))

    def _add_rule(self, rule: FailureRule) -> FailureRule:
        self.failure_rules.append(rule)
        return rule

    def clear_failures(self) -> None:
        """Remove every failure rule."""
        self.failure_rules.clear()

    def expire(self, interaction: FakeInteraction) -> None:
        """Treat an interaction as older than 3 s: its callback answers 404 10062 Unknown interaction."""
        interaction.expired = True

    def expire_token(self, interaction: FakeInteraction) -> None:
        """Treat an interaction as older than 15 min: its webhook answers 401 50027 Invalid Webhook Token."""
        interaction.token_expired = True

    async def drop_gateway(self, *, code: int = 4000, abrupt: bool = False) -> None:
        """Cut the bot's gateway connection; dispatches sent meanwhile are replayed on RESUME."""
        await self.gateway.drop(code=code, abrupt=abrupt)

    async def gateway_outage(self) -> None:
        """Cut the bot's gateway connection and refuse new ones until `gateway_back()`."""
        self.gateway.down = True
        await self.gateway.drop(abrupt=True)

    def gateway_back(self) -> None:
        """Accept gateway connections again after `gateway_outage()`."""
        self.gateway.down = False

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the client should reconnect and RESUME."""
        self.gateway.request_reconnect()

    def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; when not resumable the client must IDENTIFY again."""
        self.gateway.invalidate_session(resumable=resumable)

    # -- messages -------------------------------------------------------------------------------------------

    def require_channel(self, channel_id: int) -> FakeChannel:
        """Return a channel or raise 404 Unknown Channel (403 Missing Access in a guild the bot left)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        guild = self.guild_of(channel)
        if guild is not None and not guild.bot_member:
            raise ApiError(403, 50001, "Missing Access")
        return channel

    def require_guild(self, guild_id: int) -> FakeGuild:
        """Return a guild or raise 404 Unknown Guild."""
        guild = self.guilds.get(guild_id)
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def require_message(self, channel: FakeChannel, message_id: int) -> FakeMessage:
        """Return a visible message of a channel or raise 404 Unknown Message."""
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel.id or message.deleted or message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def check_access(self, channel: FakeChannel) -> None:
        """Raise 403 50001 Missing Access when the bot cannot see a guild channel (or left its guild)."""
        guild = self.guild_of(channel)
        if guild is not None and (not guild.bot_member or not self.bot_permissions_in(channel) & VIEW_CHANNEL):
            raise ApiError(403, 50001, "Missing Access")

    def check_can_send(self, channel: FakeChannel, *, files: bool = False) -> None:
        """Raise the error Discord gives when the bot may not post (this message) in a channel."""
        if channel.is_dm:
            assert channel.recipient is not None
            if channel.recipient.dms_closed or channel.recipient.bot:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        self.check_access(channel)
        permissions = self.bot_permissions_in(channel)
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not channel.bot_can_send or not permissions & needed or (files and not permissions & ATTACH_FILES):
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.is_thread and channel.locked and not permissions & MANAGE_THREADS:
            if channel.archived:
                raise ApiError(400, 50083, "Thread is archived")
            raise ApiError(400, 160005, "Thread is locked")

    def _attachments_for(
        self,
        channel: FakeChannel,
        payload: dict[str, Any],
        files: list[UploadedFile],
        existing: list[FakeAttachment],
    ) -> list[FakeAttachment]:
        entries = payload.get("attachments")
        if entries is None:
            kept = list(existing)
            entries = []
        else:
            keep_ids = {str(entry.get("id")) for entry in entries}
            kept = [a for a in existing if str(a.id) in keep_ids]
        by_index = {str(entry.get("id")): entry for entry in entries}
        new = []
        for uploaded in files:
            entry = by_index.get(str(uploaded.index), {})
            filename = uploaded.filename or entry.get("filename") or f"file{uploaded.index}"
            attachment_id = self.ids.next()
            url = f"{self.base_url}/attachments/{channel.id}/{attachment_id}/{filename}"
            attachment = FakeAttachment.build(
                attachment_id, filename, uploaded.data, url, entry.get("description")
            )
            self.attachments[attachment.id] = attachment
            new.append(attachment)
        return kept + new

    @staticmethod
    def _embeds_for(embeds: list[dict[str, Any]], attachments: list[FakeAttachment]) -> list[dict[str, Any]]:
        by_name = {a.filename: a for a in attachments}
        result = []
        for embed in embeds:
            embed = {"type": "rich", **copy.deepcopy(embed)}
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                url = (media or {}).get("url", "")
                if url.startswith("attachment://") and url[len("attachment://") :] in by_name:
                    attachment = by_name[url[len("attachment://") :]]
                    media.update(url=attachment.url, proxy_url=attachment.url)
                    if attachment.width is not None:
                        media.update(width=attachment.width, height=attachment.height)
            result.append(embed)
        return result

    def _mentions(self, content: str) -> list[FakeUser]:
        return [
            self.users[int(uid)] for uid in dict.fromkeys(MENTION.findall(content)) if int(uid) in self.users
        ]

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: dict[str, Any],
        files: list[UploadedFile],
        *,
        interaction: FakeInteraction | None = None,
    ) -> FakeMessage:
        """Store a new message (an interaction's reply when `interaction` is given) and dispatch it."""
        flags = (payload.get("flags") or 0) & (SENDABLE_FLAGS | (EPHEMERAL | LOADING if interaction else 0))
        attachments = self._attachments_for(channel, payload, files, [])
        content = str(payload.get("content") or "")
        message = FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content,
            embeds=self._embeds_for(payload.get("embeds") or [], attachments),
            components=list(payload.get("components") or []),
            attachments=attachments,
            flags=flags,
            tts=bool(payload.get("tts")),
            message_reference=payload.get("message_reference"),
            mentions=self._mentions(content),
        )
        if message.message_reference:
            message.type = 19
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_type = interaction.type
            message.interaction_user = interaction.user
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            if interaction.type == 2:
                message.interaction_name = interaction.command_name
                if interaction.original_message_id is None:
                    message.type = 20
        if message.ephemeral:
            for attachment in attachments:
                attachment.ephemeral = True
        self.messages[message.id] = message
        self.channel_log.setdefault(channel.id, []).append(message.id)
        if not message.ephemeral:
            channel.last_message_id = message.id
            channel.message_count += 1
            if channel.is_thread and channel.archived:
                channel.archived = False
                self.channel_changed(channel, "UPDATE")
            self._dispatch_message("MESSAGE_CREATE", channel, message)
        self.notify()
        return message

    def edit_message(
        self, message: FakeMessage, payload: dict[str, Any], files: list[UploadedFile]
    ) -> FakeMessage:
        """Apply an edit (fields absent from the payload are kept; placeholders stop loading)."""
        channel = self.channels[message.channel_id]
        message.versions.append(message.snapshot())
        attachments = self._attachments_for(channel, payload, files, message.attachments)
        if "content" in payload:
            message.content = str(payload["content"] or "")
            message.mentions = self._mentions(message.content)
        if "embeds" in payload:
            message.embeds = self._embeds_for(payload["embeds"] or [], attachments)
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "flags" in payload:
            message.flags = message.flags & EPHEMERAL | (payload["flags"] or 0) & SENDABLE_FLAGS
        message.flags &= ~LOADING
        message.attachments = attachments
        if message.ephemeral:
            for attachment in attachments:
                attachment.ephemeral = True
        message.edited_at = utcnow()
        if not message.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", channel, message)
        self.notify()
        return message

    def delete_message(self, message: FakeMessage) -> None:
        """Mark a message deleted (it stays in the records)."""
        message.deleted = True
        if not message.ephemeral:
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            intent = DIRECT_MESSAGES_INTENT if message.guild_id is None else GUILD_MESSAGES_INTENT
            self.gateway.dispatch("MESSAGE_DELETE", data, intent=intent)
        self.notify()

    def _dispatch_message(self, event: str, channel: FakeChannel, message: FakeMessage) -> None:
        data = message.payload()
        if channel.guild_id is not None:
            member = self.guilds[channel.guild_id].members.get(message.author.id)
            if member is not None and message.webhook_id is None:
                data["member"] = member.payload(include_user=False)
            intent = GUILD_MESSAGES_INTENT
        else:
            intent = DIRECT_MESSAGES_INTENT
        self.gateway.dispatch(event, data, intent=intent)

    def user_message(self, channel: FakeChannel, author: FakeUser, content: str) -> FakeMessage:
        """Post a plain message as a user (dispatched to the bot as MESSAGE_CREATE)."""
        return self.create_message(channel, author, {"content": content}, [])

    # -- records --------------------------------------------------------------------------------------------

    def messages_in(
        self, channel: FakeChannel, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Return a channel's messages, oldest first."""
        result = []
        for message_id in self.channel_log.get(channel.id, []):
            message = self.messages[message_id]
            if (include_ephemeral or not message.ephemeral) and (include_deleted or not message.deleted):
                result.append(message)
        return result

    def calls_to(self, route: str, *, status: int | None = None) -> list[Call]:
        """Return recorded calls to a route ("POST /channels/{channel_id}/messages", template or path)."""
        method, path = parse_route(route)
        return [
            call
            for call in self.calls
            if method in ("*", call.method)
            and path in (call.route, call.path, call.path.removeprefix("/api/v10"))
            and (status is None or call.status == status)
        ]

    def counted_calls(self, since: int = 0) -> list[Call]:
        """Return the calls (from index `since`) that Discord counts against a bot's global limit.

        Interaction responses and everything sent with an interaction's token (`/interactions/...`,
        `/webhooks/...`) are not counted; every other request of the bot is.
        """
        return [call for call in self.calls[since:] if counted_path(call.path)]

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Return the synced commands of a guild (guild=None: the global ones)."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    def describe_calls(self, count: int = 10) -> str:
        """Return the last REST calls, one per line, for error messages."""
        lines = [f"{c.method} {c.path} -> {c.status}" for c in self.calls[-count:]]
        return "\n    ".join(lines) or "none"
