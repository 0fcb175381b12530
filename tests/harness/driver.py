"""The users' side: start bots, inject commands, autocomplete, presses and modals, and await answers."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from .fake_discord import FakeDiscord
from .models import (
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BUTTON,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
)

HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: ",
)
OPTION_START = re.compile(r"(?:^|(?<=\s))([a-z0-9_-]+):")
OPTION_TYPE_NAMES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


def parse_command_line(line: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Split "/game new game:fish seats:3" into (["game", "new"], [("game", "fish"), ("seats", "3")])."""
    text = line.strip().removeprefix("/")
    marks = list(OPTION_START.finditer(text))
    head = text[: marks[0].start()] if marks else text
    options = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        value = text[mark.end() : end].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        options.append((mark.group(1), value))
    return head.split(), options


class _ErrorCollector(logging.Handler):
    """Collect ERROR records (discord.py's "Ignoring exception in ...", the bot's own error logs)."""

    def __init__(self, sink: list[logging.LogRecord]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)


@dataclass
class BotRun:
    """A bot started by the driver and the task running it."""

    bot: discord.Client
    task: asyncio.Task[None]
    stopping: bool = False


class InteractionResult:
    """An injected interaction; await it to wait for the answer the user sees."""

    def __init__(self, driver: Driver, interaction: FakeInteraction) -> None:
        self.driver = driver
        self.interaction = interaction

    def __await__(self) -> Generator[Any, None, InteractionResult]:
        return self.answered().__await__()

    def __repr__(self) -> str:
        return f"<InteractionResult {self.interaction.describe()}>"

    @property
    def id(self) -> int:
        """Return the interaction id."""
        return self.interaction.id

    async def acked(self, within: float | None = None) -> InteractionResult:
        """Wait until the bot tried to acknowledge (accepted or rejected, e.g. 10062 for expired ones)."""
        ix = self.interaction
        await self.driver.wait_until(
            lambda: ix.callback_type is not None or bool(ix.rejections),
            f"the bot to acknowledge {ix.label}",
            within=within,
            context=ix.describe,
        )
        return self

    async def answered(self, within: float | None = None) -> InteractionResult:
        """Wait for the visible answer: the callback (after a thinking defer: the first follow-up or edit)."""
        ix = self.interaction

        def done() -> bool:
            if ix.answered:
                return True
            if ix.rejections and ix.callback_type is None:
                raise AssertionError(f"Discord rejected the bot's answer: {ix.describe()}")
            return False

        await self.driver.wait_until(
            done, f"the bot to answer {ix.label}", within=within, context=ix.describe
        )
        return self

    async def settle(self, within: float | None = None, *, quiet: float = 0.05) -> InteractionResult:
        """Wait for the answer, then for the bot to go idle (handlers done, no REST call for `quiet` s)."""
        await self.answered(within)
        await self.driver.idle(quiet=quiet, within=within)
        return self

    @property
    def accepted(self) -> bool:
        """Tell whether Discord accepted an initial response."""
        return self.interaction.callback_type is not None

    @property
    def rejections(self) -> list[tuple[int, int, str]]:
        """Return (status, code, message) for every refused callback."""
        return self.interaction.rejections

    @property
    def response_type(self) -> int | None:
        """Return the callback type (4 reply, 5 thinking, 6 deferred update, 7 update, 8 choices, 9 modal)."""
        return self.interaction.callback_type

    @property
    def original(self) -> FakeMessage | None:
        """Return the original response (for updates: the component's message)."""
        message_id = self.interaction.original_message_id
        return None if message_id is None else self.driver.fake.messages[message_id]

    @property
    def followups(self) -> list[FakeMessage]:
        """Return the follow-up messages (the first after a thinking defer is the original, edited)."""
        return [self.driver.fake.messages[i] for i in self.interaction.followup_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """Return the original response and the follow-ups, without duplicates or deleted ones."""
        found = ([self.original] if self.original else []) + self.followups
        unique = {m.id: m for m in found if not m.deleted}
        return list(unique.values())

    @property
    def message(self) -> FakeMessage:
        """Return the answer message (the original response, or the first follow-up)."""
        messages = self.messages
        if not messages:
            raise AssertionError(f"no answer message: {self.interaction.describe()}")
        return messages[0]

    @property
    def content(self) -> str:
        """Return the answer message's content."""
        return self.message.content

    @property
    def text(self) -> str:
        """Return the answer's content and embed text."""
        return self.message.text

    @property
    def ephemeral(self) -> bool:
        """Tell whether the answer is ephemeral."""
        return self.message.ephemeral

    @property
    def files(self) -> list[FakeAttachment]:
        """Return every file attached to the answer and its follow-ups."""
        return [a for m in self.messages for a in m.attachments]

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Return the autocomplete choices the bot answered."""
        if self.interaction.choices is None:
            raise AssertionError(f"no autocomplete answer: {self.interaction.describe()}")
        return self.interaction.choices

    @property
    def modal(self) -> dict[str, Any]:
        """Return the modal the bot opened."""
        if self.interaction.modal is None:
            raise AssertionError(f"no modal: {self.interaction.describe()}")
        return self.interaction.modal


class Driver:
    """Drive bots through the fake Discord as users would."""

    def __init__(self, fake: FakeDiscord, *, timeout: float = 5.0) -> None:
        self.fake = fake
        self.timeout = timeout
        self.bots: list[BotRun] = []
        self.bot_errors: list[logging.LogRecord] = []
        self._log_handler = _ErrorCollector(self.bot_errors)

    # -- lifecycle ------------------------------------------------------------------------------------------

    def capture_errors(self) -> None:
        """Start collecting every ERROR log record (unhandled exceptions in the bot, its own error logs)."""
        logging.getLogger().addHandler(self._log_handler)

    def release_errors(self) -> None:
        """Stop collecting log records."""
        logging.getLogger().removeHandler(self._log_handler)

    def take_bot_errors(self) -> list[logging.LogRecord]:
        """Return and forget the collected bot errors (for tests that provoke them)."""
        errors = list(self.bot_errors)
        self.bot_errors.clear()
        return errors

    def check(self) -> None:
        """Raise if the bot logged unhandled exceptions."""
        if self.bot_errors:
            lines = []
            for record in self.bot_errors:
                text = record.getMessage()
                if record.exc_info and record.exc_info[1] is not None:
                    text += f": {record.exc_info[1]!r}"
                lines.append(text)
            listing = "\n  ".join(lines)
            raise AssertionError(f"the bot logged {len(lines)} error(s):\n  {listing}")

    async def start_bot(self, bot: discord.Client, *, within: float = 10.0) -> discord.Client:
        """Start a configured bot against the fake and wait until it is ready."""
        task = asyncio.create_task(bot.start(self.fake.token), name=f"harness-bot-{len(self.bots)}")
        self.bots.append(BotRun(bot, task))
        await self.wait_until(bot.is_ready, f"{type(bot).__name__} to become ready", within=within)
        return bot

    async def stop_bot(self, bot: discord.Client, *, within: float = 10.0) -> None:
        """Close a bot started by the driver and wait for it to finish."""
        run = next(run for run in self.bots if run.bot is bot)
        run.stopping = True
        try:
            await asyncio.wait_for(bot.close(), timeout=within)
            await asyncio.wait_for(asyncio.shield(run.task), timeout=within)
        except TimeoutError:
            raise AssertionError(f"{type(bot).__name__} did not shut down within {within}s") from None

    async def stop_all(self, *, grace: float = 2.0) -> None:
        """Let running handlers finish (up to `grace` s), then close every bot still running."""
        for _ in range(round(grace / 0.01)):
            if not (self.handler_tasks() or self.fake.busy):
                break
            await asyncio.sleep(0.01)
        for run in self.bots:
            if not run.task.done():
                await self.stop_bot(run.bot)
            elif not run.bot.is_closed():
                # A bot whose start-up failed still holds its database thread, which would keep pytest alive.
                await asyncio.wait_for(run.bot.close(), grace)

    # -- waiting --------------------------------------------------------------------------------------------

    def _raise_if_broken(self) -> None:
        if self.fake.problems:
            listing = "\n  ".join(self.fake.problems)
            raise AssertionError(f"fake Discord saw problem(s):\n  {listing}")
        for run in self.bots:
            if run.task.done() and not run.stopping:
                error = run.task.exception()
                raise AssertionError(f"{type(run.bot).__name__} stopped unexpectedly: {error!r}") from error

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        what: str,
        *,
        within: float | None = None,
        context: Callable[[], str] | None = None,
    ) -> None:
        """Wait until `predicate()` holds; fail at once on fake-Discord problems or a dead bot."""
        timeout = self.timeout if within is None else within
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._raise_if_broken()
            if predicate():
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                details = [context()] if context else []
                details += [
                    self.fake.gateway.describe(),
                    f"last REST calls:\n    {self.fake.describe_calls()}",
                ]
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}\n  " + "\n  ".join(details)
                )
            await self.fake.changed(min(remaining, 0.05))

    @staticmethod
    def handler_tasks() -> list[asyncio.Task[Any]]:
        """Return the bot's running interaction and event handler tasks."""
        return [
            task
            for task in asyncio.all_tasks()
            if not task.done() and task.get_name().startswith(HANDLER_TASK_PREFIXES)
        ]

    @staticmethod
    def requests_waiting() -> bool:
        """Tell whether a bot request waits for its grant from Discord's global limit (ui/rest_limit.py)."""
        return any(not task.done() and task.get_name() == "rest-limit" for task in asyncio.all_tasks())

    async def idle(self, *, quiet: float = 0.05, within: float | None = None, tasks: bool = True) -> None:
        """Wait until no handler task runs (unless tasks=False) and no REST call happened for `quiet` s."""
        timeout = self.timeout if within is None else within
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet_since: float | None = None
        calls_seen = len(self.fake.calls)
        while True:
            self._raise_if_broken()
            now = loop.time()
            busy = (
                self.fake.busy
                or len(self.fake.calls) != calls_seen
                or self.requests_waiting()
                or (tasks and bool(self.handler_tasks()))
            )
            calls_seen = len(self.fake.calls)
            if busy:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = now
            elif now - quiet_since >= quiet:
                return
            if now > deadline:
                names = [task.get_name() for task in self.handler_tasks()]
                raise AssertionError(
                    f"bot did not go idle within {timeout}s: {self.fake.inflight} REST call(s) in flight, "
                    f"handler tasks {names}\n  last REST calls:\n    {self.fake.describe_calls()}"
                )
            await asyncio.sleep(0.005)

    async def wait_for_message(
        self,
        channel: FakeChannel | None = None,
        *,
        check: Callable[[FakeMessage], bool] | None = None,
        after: FakeMessage | int | None = None,
        within: float | None = None,
        include_ephemeral: bool = False,
    ) -> FakeMessage:
        """Wait for the first message in a channel (newer than `after`) that passes `check`."""
        channel = channel or self.channel
        after_id = after.id if isinstance(after, FakeMessage) else (after or 0)
        found: list[FakeMessage] = []

        def look() -> bool:
            for message in self.fake.messages_in(channel, include_ephemeral=include_ephemeral):
                if message.id > after_id and (check is None or check(message)):
                    found.append(message)
                    return True
            return False

        await self.wait_until(look, f"a message in #{channel.name}", within=within)
        return found[0]

    # -- world ----------------------------------------------------------------------------------------------

    @property
    def guild(self) -> FakeGuild:
        """Return the default guild."""
        return self.fake.guild

    @property
    def channel(self) -> FakeChannel:
        """Return the default channel (#games)."""
        return self.fake.channel

    def user(
        self,
        name: str,
        *,
        manage_guild: bool = False,
        guild: FakeGuild | None = None,
        dms_closed: bool = False,
    ) -> FakeUser:
        """Return the user with this name (created if new), as a member of the guild."""
        user = self.fake.user_named(name) or self.fake.add_user(name)
        self.fake.add_member(guild or self.guild, user, manage_guild=manage_guild)
        if dms_closed:
            self.fake.close_dms(user)
        return user

    def thread(self, name: str, *, parent: FakeChannel | None = None, private: bool = False) -> FakeChannel:
        """Create a thread (owned by the guild owner) under a text channel."""
        return self.fake.add_thread(parent or self.channel, name, owner=self.fake.owner, private=private)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """Return the DM channel between the bot and a user."""
        return self.fake.dm_channel(user)

    # -- reading --------------------------------------------------------------------------------------------

    def messages(
        self, channel: FakeChannel | None = None, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Return the messages in a channel (default #games), oldest first."""
        return self.fake.messages_in(channel or self.channel, include_ephemeral=include_ephemeral)

    def last_message(self, channel: FakeChannel | None = None) -> FakeMessage:
        """Return the newest visible message in a channel."""
        messages = self.messages(channel)
        if not messages:
            raise AssertionError(f"no messages in #{(channel or self.channel).name}")
        return messages[-1]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Return the messages the bot sent to a user's DMs."""
        channel = self.fake.dm_channels.get(user.id)
        return [] if channel is None else self.fake.messages_in(channel)

    @staticmethod
    def files(message: FakeMessage) -> list[FakeAttachment]:
        """Return the files attached to a message (bytes, filename, description)."""
        return list(message.attachments)

    @staticmethod
    def custom_id(
        message: FakeMessage,
        *,
        label: str | None = None,
        placeholder: str | None = None,
        emoji: str | None = None,
    ) -> str:
        """Return the custom_id of the component with this label, placeholder or emoji."""
        return message.custom_id(label=label, placeholder=placeholder, emoji=emoji)

    # -- injecting ------------------------------------------------------------------------------------------

    def _interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        label: str,
        *,
        message: FakeMessage | None = None,
        expired: bool = False,
        locale: str | None = None,
    ) -> InteractionResult:
        fake = self.fake
        guild = fake.guild_of(channel)
        interaction_id = fake.ids.next()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(64)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(fake.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "locale": locale or user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": fake.attachment_size_limit,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise LookupError(f"{user.name} is not a member of {guild.name} (use driver.user(...))")
            permissions = guild.permissions_of(user.id)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member.payload(permissions=permissions),
                channel=channel.payload(permissions=permissions),
                app_permissions=str(guild.permissions_in(channel, fake.bot_user.id)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                channel=channel.payload(),
                app_permissions=str(ALL_PERMISSIONS),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        if message is not None:
            payload["message"] = message.payload()
        interaction = FakeInteraction(
            id=interaction_id,
            token=token,
            type=itype,
            user=user,
            channel=channel,
            guild_id=guild.id if guild else None,
            payload=payload,
            label=label,
            created=asyncio.get_running_loop().time(),
            message_id=message.id if message else None,
            expired=expired,
        )
        fake.interactions[interaction.id] = interaction
        fake.interactions_by_token[token] = interaction
        interaction.session = fake.gateway.dispatch_interaction(payload)
        fake.notify()
        return InteractionResult(self, interaction)

    def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: FakeChannel | None = None,
        options: Mapping[str, Any] | None = None,
        expired: bool = False,
        validate: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Run a slash command ("/game new game:fish balanced:true"); await the result for the answer.

        `options` adds typed values (users, channels, roles, (filename, bytes) attachments). With
        validate=False the options are sent even when Discord's client would refuse them.
        """
        channel = channel or self.channel
        data, label = self._command_data(user, channel, command, options, focused=None, validate=validate)
        return self._interaction(
            APPLICATION_COMMAND, user, channel, data, label, expired=expired, locale=locale
        )

    def autocomplete_request(
        self,
        user: FakeUser,
        command: str,
        *,
        focused: str | None = None,
        channel: FakeChannel | None = None,
        options: Mapping[str, Any] | None = None,
        validate: bool = True,
    ) -> InteractionResult:
        """Send an autocomplete interaction; the focused option is `focused` or the last one typed."""
        channel = channel or self.channel
        data, label = self._command_data(
            user, channel, command, options, focused=focused or "", validate=validate
        )
        return self._interaction(AUTOCOMPLETE, user, channel, data, f"autocomplete {label}")

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        *,
        focused: str | None = None,
        channel: FakeChannel | None = None,
        options: Mapping[str, Any] | None = None,
        within: float | None = None,
    ) -> list[dict[str, Any]]:
        """Return the choices the bot offers while `user` types `command` ("/fish move from:A1 to:B")."""
        result = self.autocomplete_request(user, command, focused=focused, channel=channel, options=options)
        await result.answered(within)
        return result.choices

    def press(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
        placeholder: str | None = None,
        values: Sequence[Any] | None = None,
        force: bool = False,
        expired: bool = False,
    ) -> InteractionResult:
        """Press a button or choose select values on a message; await the result for the answer.

        force=True sends the press even when Discord's client could not (disabled, gone, foreign ephemeral).
        """
        if isinstance(message, int):
            message = self.fake.messages[message]
        component = self._find_press_target(message, label, custom_id, emoji, placeholder, values, force)
        ctype = int(component["type"])
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": ctype}
        if "id" in component:
            data["id"] = component["id"]
        if ctype in SELECT_TYPES:
            data["values"], resolved = self._select_values(message, component, values or [])
            if resolved:
                data["resolved"] = resolved
        if not force:
            self._check_press(user, message, component, data.get("values"))
        what = component.get("label") or component.get("placeholder") or component["custom_id"]
        label_text = f"{'button' if ctype == BUTTON else 'select'} {what!r} on message {message.id}"
        channel = self.fake.channels[message.channel_id]
        return self._interaction(
            MESSAGE_COMPONENT, user, channel, data, label_text, message=message, expired=expired
        )

    def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        values: Sequence[Any],
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
        force: bool = False,
        expired: bool = False,
    ) -> InteractionResult:
        """Choose values in a select menu (found by placeholder, custom_id, or as the only select)."""
        return self.press(
            user,
            message,
            placeholder=placeholder,
            custom_id=custom_id,
            values=values,
            force=force,
            expired=expired,
        )

    def submit_modal(
        self,
        user: FakeUser,
        opened: InteractionResult,
        values: Mapping[str, str | Sequence[str]],
        *,
        expired: bool = False,
    ) -> InteractionResult:
        """Submit the modal the bot opened for `opened`, with values by custom_id."""
        modal = opened.modal

        def submitted(component: dict[str, Any]) -> dict[str, Any]:
            custom_id = component.get("custom_id")
            if component.get("type") == TEXT_INPUT:
                value = str(values.get(custom_id, component.get("value") or "")) if custom_id else ""
                if component.get("required", True) and not value:
                    raise ValueError(f"modal text input {custom_id!r} is required")
                return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
            chosen = values.get(custom_id, []) if custom_id else []
            return {"type": component.get("type"), "custom_id": custom_id, "values": list(chosen)}

        rows = []
        for component in modal.get("components") or []:
            if component.get("type") == 1:
                rows.append(
                    {"type": 1, "components": [submitted(c) for c in component.get("components") or []]}
                )
            elif component.get("type") == 18:
                rows.append(
                    {"type": 18, "id": component.get("id"), "component": submitted(component["component"])}
                )
            else:
                rows.append({"type": component.get("type"), "id": component.get("id")})
        data = {"custom_id": modal["custom_id"], "components": rows}
        source = opened.interaction
        message = self.fake.messages.get(source.message_id) if source.message_id else None
        label = f"modal {modal.get('title')!r}"
        return self._interaction(
            MODAL_SUBMIT, user, source.channel, data, label, message=message, expired=expired
        )

    def say(self, user: FakeUser, content: str, *, channel: FakeChannel | None = None) -> FakeMessage:
        """Post a plain chat message as a user."""
        return self.fake.user_message(channel or self.channel, user, content)

    # -- command building -----------------------------------------------------------------------------------

    def _find_command(self, channel: FakeChannel, name: str) -> dict[str, Any]:
        fake = self.fake
        guild = fake.guild_of(channel)
        scopes = ([fake.guild_commands.get(guild.id, [])] if guild else []) + [fake.global_commands]
        for scope in scopes:
            for command in scope:
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        known = sorted({c["name"] for scope in scopes for c in scope if c.get("type", 1) == 1})
        raise LookupError(f"no slash command /{name} synced for this channel; synced: {known}")

    def _check_command_allowed(self, user: FakeUser, channel: FakeChannel, command: dict[str, Any]) -> None:
        guild = self.fake.guild_of(channel)
        contexts = command.get("contexts")
        if guild is None:
            if (
                command.get("guild_id")
                or command.get("dm_permission") is False
                or (contexts and 1 not in contexts)
            ):
                raise PermissionError(f"/{command['name']} cannot be used in DMs")
            return
        if contexts and 0 not in contexts:
            raise PermissionError(f"/{command['name']} cannot be used in servers")
        required = command.get("default_member_permissions")
        if required is not None:
            have = guild.permissions_of(user.id)
            if have & int(required) != int(required):
                raise PermissionError(
                    f"{user.name} lacks permissions {required} for /{command['name']}: Discord hides it"
                )

    def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        line: str,
        options: Mapping[str, Any] | None,
        *,
        focused: str | None,
        validate: bool,
    ) -> tuple[dict[str, Any], str]:
        path, typed = parse_command_line(line)
        if not path:
            raise ValueError(f"no command name in {line!r}")
        command = self._find_command(channel, path[0])
        if validate:
            self._check_command_allowed(user, channel, command)
        chain = [command["name"]]
        wrappers: list[dict[str, Any]] = []
        schema = command.get("options") or []
        for word in path[1:]:
            sub = next((o for o in schema if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (1, 2)]
                raise LookupError(f"/{' '.join(chain)} has no subcommand {word!r}; it has {subs}")
            chain.append(word)
            wrappers.append(sub)
            schema = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in schema):
            subs = [o["name"] for o in schema if o["type"] in (1, 2)]
            raise LookupError(f"/{' '.join(chain)} needs a subcommand: one of {subs}")
        given: list[tuple[str, Any]] = list(typed) + list((options or {}).items())
        if focused == "":
            if not given:
                raise ValueError(f"autocomplete needs at least one option being typed in {line!r}")
            focused = given[-1][0]
        by_name = {o["name"]: o for o in schema}
        guild = self.fake.guild_of(channel)
        resolved: dict[str, dict[str, Any]] = {}
        values: dict[str, dict[str, Any]] = {}
        for name, value in given:
            option = by_name.get(name)
            if option is None:
                if validate:
                    raise LookupError(f"/{' '.join(chain)} has no option {name!r}; options: {list(by_name)}")
                values[name] = {"name": name, "type": 3, "value": str(value)}
                continue
            if name == focused:
                if validate and not option.get("autocomplete"):
                    raise ValueError(f"option {name!r} of /{' '.join(chain)} has no autocomplete")
                values[name] = {"name": name, "type": option["type"], "value": str(value), "focused": True}
                continue
            try:
                converted = self._convert(option, value, guild, resolved)
            except (ValueError, LookupError, OverflowError):
                if validate:
                    raise
                converted = value
            values[name] = {"name": name, "type": option["type"], "value": converted}
        if focused is not None and focused not in values:
            raise ValueError(f"focused option {focused!r} was not typed in {line!r}")
        if validate and focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
            if missing:
                raise ValueError(f"/{' '.join(chain)} is missing required option(s) {missing}")
        built: list[dict[str, Any]] = [values[o["name"]] for o in schema if o["name"] in values]
        built += [v for name, v in values.items() if name not in by_name]
        for wrapper in reversed(wrappers):
            built = [{"name": wrapper["name"], "type": wrapper["type"], "options": built}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": built}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        label = "/" + " ".join(chain + [f"{name}:{v['value']}" for name, v in values.items()])
        return data, label

    def _convert(
        self, option: dict[str, Any], value: Any, guild: FakeGuild | None, resolved: dict[str, dict[str, Any]]
    ) -> Any:
        otype = option["type"]
        name = option["name"]
        if otype == 3:
            result: Any = str(value)
            low, high = option.get("min_length", 0), option.get("max_length", 6000)
            if not low <= len(result) <= high:
                raise ValueError(f"option {name!r} must be {low}-{high} characters, got {result!r}")
        elif otype in (4, 10):
            if isinstance(value, bool):
                raise ValueError(f"option {name!r} wants a {OPTION_TYPE_NAMES[otype]}, got {value!r}")
            result = (
                int(value) if otype == 4 else (value if isinstance(value, (int, float)) else float(value))
            )
            if option.get("min_value") is not None and result < option["min_value"]:
                raise ValueError(f"option {name!r} must be at least {option['min_value']}, got {result}")
            if option.get("max_value") is not None and result > option["max_value"]:
                raise ValueError(f"option {name!r} must be at most {option['max_value']}, got {result}")
        elif otype == 5:
            result = value if isinstance(value, bool) else self._parse_bool(name, str(value))
        elif otype == 6:
            result = str(self._resolve_user(value, guild, resolved).id)
        elif otype == 7:
            result = str(self._resolve_channel(value, guild, resolved).id)
        elif otype == 8:
            result = str(self._resolve_role(value, guild, resolved).id)
        elif otype == 9:
            try:
                result = str(self._resolve_user(value, guild, resolved).id)
            except LookupError:
                result = str(self._resolve_role(value, guild, resolved).id)
        elif otype == 11:
            result = str(self._resolve_attachment(value, resolved).id)
        else:
            raise ValueError(f"unsupported option type {otype}")
        choices = option.get("choices")
        if choices and result not in [choice["value"] for choice in choices]:
            raise ValueError(f"option {name!r} only accepts {[c['value'] for c in choices]}, got {result!r}")
        return result

    @staticmethod
    def _parse_bool(name: str, text: str) -> bool:
        lowered = text.lower()
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
        raise ValueError(f"option {name!r} wants true or false, got {text!r}")

    def _resolve_user(
        self, value: Any, guild: FakeGuild | None, resolved: dict[str, dict[str, Any]]
    ) -> FakeUser:
        fake = self.fake
        user: FakeUser | None = None
        if isinstance(value, FakeUser):
            user = value
        elif isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
            user = fake.users.get(int(value))
        elif isinstance(value, str):
            match = re.fullmatch(r"<@!?(\d+)>", value)
            user = fake.users.get(int(match.group(1))) if match else fake.user_named(value.removeprefix("@"))
        if user is None:
            raise LookupError(f"no user {value!r}")
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member = guild.members.get(user.id) if guild else None
        if member is not None and guild is not None:
            member_payload = member.payload(include_user=False, permissions=guild.permissions_of(user.id))
            resolved.setdefault("members", {})[str(user.id)] = member_payload
        return user

    def _resolve_channel(
        self, value: Any, guild: FakeGuild | None, resolved: dict[str, dict[str, Any]]
    ) -> FakeChannel:
        fake = self.fake
        channel: FakeChannel | None = None
        if isinstance(value, FakeChannel):
            channel = value
        elif isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
            channel = fake.channels.get(int(value))
        elif isinstance(value, str):
            match = re.fullmatch(r"<#(\d+)>", value)
            if match:
                channel = fake.channels.get(int(match.group(1)))
            elif guild is not None:
                channel = next(
                    (c for c in guild.channels.values() if c.name == value.removeprefix("#")), None
                )
        if channel is None:
            raise LookupError(f"no channel {value!r}")
        entry = channel.payload(permissions=ALL_PERMISSIONS)
        resolved.setdefault("channels", {})[str(channel.id)] = entry
        return channel

    def _resolve_role(
        self, value: Any, guild: FakeGuild | None, resolved: dict[str, dict[str, Any]]
    ) -> FakeRole:
        role: FakeRole | None = None
        if guild is not None:
            if isinstance(value, FakeRole):
                role = value
            elif isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
                role = guild.roles.get(int(value))
            elif isinstance(value, str):
                match = re.fullmatch(r"<@&(\d+)>", value)
                if match:
                    role = guild.roles.get(int(match.group(1)))
                else:
                    role = next((r for r in guild.roles.values() if r.name == value.removeprefix("@")), None)
        if role is None:
            raise LookupError(f"no role {value!r}")
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return role

    def _resolve_attachment(self, value: Any, resolved: dict[str, dict[str, Any]]) -> FakeAttachment:
        if isinstance(value, FakeAttachment):
            attachment = value
        elif isinstance(value, tuple) and len(value) == 2:
            filename, data = value
            attachment_id = self.fake.ids.next()
            url = f"{self.fake.base_url}/attachments/0/{attachment_id}/{filename}"
            attachment = FakeAttachment.build(attachment_id, str(filename), bytes(data), url)
            self.fake.attachments[attachment_id] = attachment
        else:
            raise ValueError(f"attachment options take (filename, bytes), got {type(value).__name__}")
        resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        return attachment

    # -- component helpers ----------------------------------------------------------------------------------

    @staticmethod
    def _find_press_target(
        message: FakeMessage,
        label: str | None,
        custom_id: str | None,
        emoji: str | None,
        placeholder: str | None,
        values: Sequence[Any] | None,
        force: bool,
    ) -> dict[str, Any]:
        criteria = {"label": label, "custom_id": custom_id, "emoji": emoji, "placeholder": placeholder}
        if all(v is None for v in criteria.values()):
            interactive = message.interactive_components()
            wanted = [c for c in interactive if (c.get("type") in SELECT_TYPES) == (values is not None)]
            if len(wanted) != 1:
                raise LookupError(f"say which component to use on message {message.id} (found {len(wanted)})")
            return wanted[0]
        try:
            return message.find_component(
                label=label, custom_id=custom_id, emoji=emoji, placeholder=placeholder
            )
        except LookupError:
            if force and custom_id is not None:
                return {"type": STRING_SELECT if values is not None else BUTTON, "custom_id": custom_id}
            raise

    def _select_values(
        self, message: FakeMessage, component: dict[str, Any], values: Sequence[Any]
    ) -> tuple[list[str], dict[str, dict[str, Any]]]:
        ctype = component["type"]
        resolved: dict[str, dict[str, Any]] = {}
        guild = self.fake.guilds.get(message.guild_id) if message.guild_id else None
        result = []
        for value in values:
            if ctype == 5 or (ctype == 7 and isinstance(value, FakeUser)):
                result.append(str(self._resolve_user(value, guild, resolved).id))
            elif ctype == 6 or (ctype == 7 and isinstance(value, FakeRole)):
                result.append(str(self._resolve_role(value, guild, resolved).id))
            elif ctype == 8:
                result.append(str(self._resolve_channel(value, guild, resolved).id))
            else:
                result.append(str(value))
        return result, resolved

    @staticmethod
    def _check_press(
        user: FakeUser, message: FakeMessage, component: dict[str, Any], values: list[str] | None
    ) -> None:
        if message.deleted:
            raise LookupError(f"message {message.id} was deleted; nobody can press its components")
        if (
            message.ephemeral
            and message.interaction_user is not None
            and message.interaction_user is not user
        ):
            raise PermissionError(f"message {message.id} is ephemeral for {message.interaction_user.name}")
        if component.get("disabled"):
            raise PermissionError(f"component {component.get('custom_id')!r} is disabled")
        if component.get("type") == BUTTON and component.get("style") in (5, 6):
            raise ValueError("link and premium buttons do not send interactions")
        if values is not None:
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(values) <= high:
                raise ValueError(f"select {component['custom_id']!r} takes {low}-{high} values, got {values}")
            if component.get("type") == STRING_SELECT:
                allowed = [option["value"] for option in component.get("options") or []]
                unknown = [v for v in values if v not in allowed]
                if unknown:
                    raise ValueError(
                        f"select {component['custom_id']!r} has no option(s) {unknown}; has {allowed}"
                    )
