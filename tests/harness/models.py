"""Data kept by the fake Discord: users, guilds, channels, messages, attachments and interactions."""

from __future__ import annotations

import datetime
import io
import itertools
import mimetypes
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000

ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
EVERYONE_PERMISSIONS = (
    (1 << 0)  # create invite
    | (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 26)  # change nickname
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
    | (1 << 50)  # use external apps
)

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

TEXT_CHANNEL = 0
DM_CHANNEL = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

INTERACTION_TYPE_NAMES = {
    PING: "ping",
    APPLICATION_COMMAND: "application command",
    MESSAGE_COMPONENT: "component",
    AUTOCOMPLETE: "autocomplete",
    MODAL_SUBMIT: "modal submit",
}

CALLBACK_MESSAGE = 4
CALLBACK_DEFERRED_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE = 8
CALLBACK_MODAL = 9
CALLBACK_LAUNCH_ACTIVITY = 12

CALLBACK_TYPE_NAMES = {
    1: "pong",
    CALLBACK_MESSAGE: "message",
    CALLBACK_DEFERRED_MESSAGE: "deferred message (thinking)",
    CALLBACK_DEFERRED_UPDATE: "deferred update",
    CALLBACK_UPDATE_MESSAGE: "update message",
    CALLBACK_AUTOCOMPLETE: "autocomplete result",
    CALLBACK_MODAL: "modal",
    10: "premium required",
    12: "launch activity",
}

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SELECT_TYPES = frozenset({STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT})
INTERACTIVE_TYPES = SELECT_TYPES | {BUTTON}


def iso(moment: datetime.datetime | None) -> str | None:
    """Format a datetime the way Discord does, or pass None through."""
    return None if moment is None else moment.isoformat()


def utcnow() -> datetime.datetime:
    """Return the current time in UTC."""
    return datetime.datetime.now(datetime.UTC)


class SnowflakeFactory:
    """Hand out unique, increasing snowflakes carrying the current time."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake."""
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = max((now_ms << 22) | (next(self._counter) & 0xFFF), self._last + 1)
        self._last = value
        return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """Return a new snowflake that, as a guild ID, Discord would put on this shard ((id >> 22) % count)."""
        base = self.next()
        stamp = base >> 22
        stamp += (shard_id - stamp) % shard_count
        self._last = (stamp << 22) | (base & 0x3FFFFF)
        return self._last


@dataclass(eq=False)
class FakeUser:
    """A Discord user (a person or a bot)."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    dms_closed: bool = False
    locale: str = "en-US"
    """The language of the user's Discord client, sent with each of their interactions."""

    @property
    def mention(self) -> str:
        """Return the user's mention string."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """Return the user object as Discord sends it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    """A guild role."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """Return the role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership in a guild."""

    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    joined_at: datetime.datetime = field(default_factory=utcnow)
    nick: str | None = None

    def payload(self, *, include_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        """Return the member object, optionally with the user and channel permissions."""
        data: dict[str, Any] = {
            "roles": [str(role_id) for role_id in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if include_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread or a DM channel."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    owner_id: int | None = None
    recipient: FakeUser | None = None
    archived: bool = False
    locked: bool = False
    bot_can_send: bool = True
    auto_archive_duration: int = 1440
    overwrites: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Member permission overwrites of a text channel: user id -> (allow, deny); threads use their parent's."""
    created_at: datetime.datetime = field(default_factory=utcnow)
    last_message_id: int | None = None
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        """Tell whether this is a thread."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        """Tell whether this is a DM channel."""
        return self.type == DM_CHANNEL

    @property
    def mention(self) -> str:
        """Return the channel mention string."""
        return f"<#{self.id}>"

    def payload(self, *, with_guild_id: bool = True, permissions: int | None = None) -> dict[str, Any]:
        """Return the channel object; `permissions` adds the invoking user's computed permissions."""
        if self.is_dm:
            assert self.recipient is not None
            data: dict[str, Any] = {
                "id": str(self.id),
                "type": DM_CHANNEL,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        elif self.is_thread:
            data = {
                "id": str(self.id),
                "type": self.type,
                "name": self.name,
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "rate_limit_per_user": 0,
                "message_count": self.message_count,
                "member_count": 1,
                "total_message_sent": self.message_count,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": iso(self.created_at),
                },
            }
        else:
            data = {
                "id": str(self.id),
                "type": self.type,
                "name": self.name,
                "position": self.position,
                "parent_id": None,
                "topic": None,
                "nsfw": False,
                "rate_limit_per_user": 0,
                "permission_overwrites": [
                    {"id": str(target), "type": 1, "allow": str(allow), "deny": str(deny)}
                    for target, (allow, deny) in self.overwrites.items()
                ],
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "default_auto_archive_duration": 1440,
                "flags": 0,
            }
        if with_guild_id and self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def __repr__(self) -> str:
        return f"<FakeChannel {self.name!r} id={self.id} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    """A guild with its roles, members and channels (threads included)."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    created_at: datetime.datetime = field(default_factory=utcnow)
    bot_member: bool = True
    """False once the bot was removed from the guild (it sees nothing there until it is added back)."""
    preferred_locale: str = "en-US"
    """The server's language on Discord (a community server's setting; en-US otherwise)."""

    def permissions_of(self, user_id: int) -> int:
        """Return a member's guild-wide permissions (no channel overwrites exist here)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        value = self.roles[self.id].permissions
        if member is not None:
            for role_id in member.roles:
                value |= self.roles[role_id].permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def permissions_in(self, channel: FakeChannel, user_id: int) -> int:
        """Return a member's permissions in a channel or thread: guild-wide, then the member's overwrite."""
        value = self.permissions_of(user_id)
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        source = self.channels.get(channel.parent_id or 0, channel) if channel.is_thread else channel
        allow, deny = source.overwrites.get(user_id, (0, 0))
        return (value & ~deny) | allow

    def text_channels(self) -> list[FakeChannel]:
        """Return the guild's text channels."""
        return [c for c in self.channels.values() if c.type == TEXT_CHANNEL]

    def threads(self) -> list[FakeChannel]:
        """Return the guild's threads."""
        return [c for c in self.channels.values() if c.is_thread]

    def payload(self) -> dict[str, Any]:
        """Return the guild object without channels and members (as GET /guilds/{id})."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
        }

    def create_payload(self) -> dict[str, Any]:
        """Return the GUILD_CREATE payload with channels, threads, members and roles."""
        data = self.payload()
        data.update(
            {
                "joined_at": iso(self.created_at),
                "large": False,
                "unavailable": False,
                "member_count": len(self.members),
                "members": [member.payload() for member in self.members.values()],
                "channels": [
                    c.payload(with_guild_id=False) for c in self.channels.values() if not c.is_thread
                ],
                "threads": [c.payload() for c in self.threads() if not c.archived],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message, with its bytes."""

    id: int
    filename: str
    data: bytes
    url: str
    description: str | None = None
    content_type: str | None = None
    width: int | None = None
    height: int | None = None
    ephemeral: bool = False

    @classmethod
    def build(
        cls, attachment_id: int, filename: str, data: bytes, url: str, description: str | None = None
    ) -> FakeAttachment:
        """Create an attachment, sniffing the content type and image size like Discord."""
        content_type = mimetypes.guess_type(filename)[0]
        width = height = None
        if content_type == "image/png" and data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR":
            width, height = struct.unpack(">II", data[16:24])  # read from the header, as Pillow would
        elif content_type and content_type.startswith("image/"):
            try:
                from PIL import Image

                with Image.open(io.BytesIO(data)) as image:
                    width, height = image.size
            except Exception:
                content_type = "application/octet-stream"
        return cls(attachment_id, filename, data, url, description, content_type, width, height)

    @property
    def size(self) -> int:
        """Return the size in bytes."""
        return len(self.data)

    def image(self) -> Any:
        """Open the attachment as a Pillow image."""
        from PIL import Image

        return Image.open(io.BytesIO(self.data))

    def payload(self) -> dict[str, Any]:
        """Return the attachment object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.content_type is not None:
            data["content_type"] = self.content_type
        if self.width is not None:
            data["width"] = self.width
            data["height"] = self.height
        if self.ephemeral:
            data["ephemeral"] = True
        return data

    def __repr__(self) -> str:
        return f"<FakeAttachment {self.filename!r} {self.size} bytes description={self.description!r}>"


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Walk a component tree depth-first (rows, containers, sections and accessories)."""
    for component in components:
        yield component
        yield from iter_components(component.get("components") or [])
        if component.get("accessory"):
            yield from iter_components([component["accessory"]])
        if component.get("component"):
            yield from iter_components([component["component"]])


def describe_component(component: dict[str, Any]) -> str:
    """Return a short human description of an interactive component."""
    kind = "button" if component.get("type") == BUTTON else f"select(type {component.get('type')})"
    parts = [kind]
    if component.get("label"):
        parts.append(f"label={component['label']!r}")
    if component.get("placeholder"):
        parts.append(f"placeholder={component['placeholder']!r}")
    if component.get("emoji"):
        parts.append(f"emoji={component['emoji'].get('name')!r}")
    parts.append(f"custom_id={component.get('custom_id') or component.get('url')!r}")
    if component.get("disabled"):
        parts.append("disabled")
    return " ".join(parts)


@dataclass(eq=False)
class FakeMessage:
    """A message as stored by the fake, with every earlier version kept in `versions`."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    interaction_id: int | None = None
    interaction_type: int | None = None
    interaction_user: FakeUser | None = None
    interaction_name: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    message_reference: dict[str, Any] | None = None
    mentions: list[FakeUser] = field(default_factory=list)
    created_at: datetime.datetime = field(default_factory=utcnow)
    edited_at: datetime.datetime | None = None
    deleted: bool = False
    versions: list[dict[str, Any]] = field(default_factory=list)
    reactions: list[str] = field(default_factory=list)
    thread_id: int | None = None

    @property
    def ephemeral(self) -> bool:
        """Tell whether only the interaction user sees this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Tell whether this is a "thinking..." placeholder."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Return content plus embed titles, descriptions, fields and text displays, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(str(embed.get(key) or "") for key in ("title", "description"))
            for embed_field in embed.get("fields") or []:
                parts.extend((str(embed_field.get("name", "")), str(embed_field.get("value", ""))))
            footer = embed.get("footer") or {}
            parts.append(str(footer.get("text") or ""))
        for component in iter_components(self.components):
            if component.get("type") == 10:
                parts.append(str(component.get("content") or ""))
        return "\n".join(part for part in parts if part)

    def interactive_components(self) -> list[dict[str, Any]]:
        """Return every button and select menu on the message."""
        return [c for c in iter_components(self.components) if c.get("type") in INTERACTIVE_TYPES]

    def find_component(
        self,
        *,
        label: str | None = None,
        placeholder: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
        type: int | None = None,
    ) -> dict[str, Any]:
        """Return the one component matching all the given criteria (labels compare case-insensitively)."""

        def matches(component: dict[str, Any]) -> bool:
            if custom_id is not None and component.get("custom_id") != custom_id:
                return False
            if label is not None and str(component.get("label", "")).casefold() != label.casefold():
                return False
            if (
                placeholder is not None
                and str(component.get("placeholder", "")).casefold() != placeholder.casefold()
            ):
                return False
            if emoji is not None and (component.get("emoji") or {}).get("name") != emoji:
                return False
            return type is None or component.get("type") == type

        candidates = self.interactive_components()
        found = [c for c in candidates if matches(c)]
        if len(found) == 1:
            return found[0]
        wanted = ", ".join(
            f"{key}={value!r}"
            for key, value in (
                ("label", label),
                ("placeholder", placeholder),
                ("custom_id", custom_id),
                ("emoji", emoji),
                ("type", type),
            )
            if value is not None
        )
        available = "; ".join(describe_component(c) for c in candidates) or "none"
        problem = "no component" if not found else f"{len(found)} components"
        raise LookupError(f"{problem} matching {wanted} on message {self.id}; components: {available}")

    def custom_id(
        self, *, label: str | None = None, placeholder: str | None = None, emoji: str | None = None
    ) -> str:
        """Return the custom_id of the component with this label, placeholder or emoji."""
        return str(self.find_component(label=label, placeholder=placeholder, emoji=emoji)["custom_id"])

    def attachment(self, filename: str | None = None) -> FakeAttachment:
        """Return the attachment with this filename, or the only attachment."""
        found = [a for a in self.attachments if filename is None or a.filename == filename]
        if len(found) != 1:
            names = [a.filename for a in self.attachments]
            raise LookupError(
                f"message {self.id} has attachments {names}, wanted {filename or 'exactly one'}"
            )
        return found[0]

    def embed_image(self, index: int = 0) -> FakeAttachment | None:
        """Return the attachment an embed shows as its image, if it shows one of this message's files."""
        if index >= len(self.embeds):
            return None
        url = (self.embeds[index].get("image") or {}).get("url")
        return next((a for a in self.attachments if a.url == url), None)

    def snapshot(self) -> dict[str, Any]:
        """Return the editable fields, for keeping history."""
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": list(self.attachments),
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def payload(self) -> dict[str, Any]:
        """Return the message object as Discord sends it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [user.payload() for user in self.mentions],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
            if self.interaction_name:
                data["interaction_metadata"]["name"] = self.interaction_name
                data["interaction"] = {
                    "id": str(self.interaction_id),
                    "type": self.interaction_type,
                    "name": self.interaction_name,
                    "user": self.interaction_user.payload(),
                }
        if self.thread_id is not None:
            data["thread"] = {"id": str(self.thread_id)}
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        files = f" files={[a.filename for a in self.attachments]}" if self.attachments else ""
        content = self.content[:60]
        return f"<FakeMessage id={self.id} channel={self.channel_id}{flags} content={content!r}{files}>"


@dataclass(eq=False)
class FakeInteraction:
    """An interaction the harness sent, and everything the bot did to answer it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    guild_id: int | None
    payload: dict[str, Any]
    label: str
    created: float
    message_id: int | None = None
    expired: bool = False
    token_expired: bool = False
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    acked_at: float | None = None
    rejections: list[tuple[int, int, str]] = field(default_factory=list)
    original_message_id: int | None = None
    original_edited: bool = False
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    answered_at: float | None = None
    session: Any = None
    """The gateway session it was dispatched on (a bot restarted since holds a newer one)."""

    @property
    def data(self) -> dict[str, Any]:
        """Return the interaction's data object."""
        return self.payload.get("data", {})

    @property
    def command_name(self) -> str:
        """Return the full name of an application command ("game new"), or "" for other interactions."""
        data = self.data
        parts = [str(data.get("name", ""))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            parts.append(options[0]["name"])
            options = options[0].get("options") or []
        return " ".join(parts).strip()

    @property
    def callback_name(self) -> str:
        """Return the callback type's name, or "none"."""
        if self.callback_type is None:
            return "none"
        return CALLBACK_TYPE_NAMES.get(self.callback_type, str(self.callback_type))

    @property
    def answered(self) -> bool:
        """Tell whether the user sees an answer (a deferred thinking reply counts once replaced)."""
        if self.callback_type is None:
            return False
        if self.callback_type == CALLBACK_DEFERRED_MESSAGE:
            return self.original_edited or bool(self.followup_ids)
        return True

    def describe(self) -> str:
        """Return a one-line summary for error messages."""
        kind = INTERACTION_TYPE_NAMES.get(self.type, str(self.type))
        state = f"callback={self.callback_name}"
        if self.rejections:
            state += f" rejected={self.rejections}"
        if self.followup_ids:
            state += f" followups={len(self.followup_ids)}"
        return f"{kind} interaction {self.id} ({self.label}) by {self.user.name}: {state}"
