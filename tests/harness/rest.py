"""The fake REST API: routing, recording, failure injection, validation and the route handlers."""

from __future__ import annotations

import asyncio
import io
import json
import math
import re
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .models import (
    APPLICATION_COMMAND,
    AUTO_ARCHIVE_DURATIONS,
    AUTOCOMPLETE,
    BUTTON,
    CALLBACK_AUTOCOMPLETE,
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_LAUNCH_ACTIVITY,
    CALLBACK_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_TYPE_NAMES,
    CALLBACK_UPDATE_MESSAGE,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PRIVATE_THREAD,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_CHANNEL,
    FakeInteraction,
    FakeMessage,
    iter_components,
)

if TYPE_CHECKING:
    from .fake_discord import FakeDiscord

API_PREFIX = "/api/v10"
PRIMARY_ENTRY_POINT = 4
"""An application command of this type launches the app's Activity; Discord keeps it through bulk overwrites."""
CDN_PREFIXES = ("/embed/avatars/", "/avatars/", "/icons/", "/banners/", "/guilds/", "/app-icons/")

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_MODAL, CALLBACK_LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {
        CALLBACK_MESSAGE,
        CALLBACK_DEFERRED_MESSAGE,
        CALLBACK_DEFERRED_UPDATE,
        CALLBACK_UPDATE_MESSAGE,
        CALLBACK_MODAL,
        CALLBACK_LAUNCH_ACTIVITY,
    },
    AUTOCOMPLETE: {CALLBACK_AUTOCOMPLETE},
    MODAL_SUBMIT: {
        CALLBACK_MESSAGE,
        CALLBACK_DEFERRED_MESSAGE,
        CALLBACK_DEFERRED_UPDATE,
        CALLBACK_UPDATE_MESSAGE,
    },
}
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl"),
        *("no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi"),
        *("th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)
"""The locales Discord accepts as keys of name_localizations and description_localizations."""


def _name_character(char: str) -> bool:
    """Return True for a character Discord allows in a name: - _ letters, digits, Devanagari, Thai."""
    if char in "-_" or unicodedata.category(char)[0] in "LN":
        return True
    return "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"


def name_valid(name: object) -> bool:
    """Check a (localized) name: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase."""
    return (
        isinstance(name, str)
        and 1 <= len(name) <= 32
        and all(_name_character(c) for c in name)
        and name == name.lower()
    )


def localization_errors(
    errors: dict[str, str], key: str, data: dict[str, Any], *, names: bool
) -> None:
    """Check the localizations of a command, option or choice (names by the name rule, texts 1-100)."""
    for part, check_name in (("name_localizations", names), ("description_localizations", False)):
        localized = data.get(part) or {}
        if not isinstance(localized, dict):
            errors[f"{key}.{part}"] = "Must be a mapping of locale to text."
            continue
        for locale, text in localized.items():
            where = f"{key}.{part}.{locale}"
            if locale not in LOCALES:
                errors[where] = f"{locale!r} is not a valid locale."
            elif check_name and not name_valid(text):
                errors[where] = f"Localized names are 1-32 lowercase letters, digits, - or _ ({text!r})."
            else:
                _check_length(errors, where, text, 1, 100)


def sibling_errors(errors: dict[str, str], key: str, siblings: list[dict[str, Any]]) -> None:
    """Refuse two siblings with the same name in a locale (their localized names, or the default)."""
    locales = {locale for s in siblings for locale in (s.get("name_localizations") or {})}
    for locale in locales:
        shown = [(s.get("name_localizations") or {}).get(locale) or s.get("name") for s in siblings]
        if len(set(shown)) != len(shown):
            errors[f"{key}.name_localizations.{locale}"] = f"Names must be unique in {locale}: {shown}"


class ApiError(Exception):
    """An error answer in Discord's format."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """Return the JSON error body."""
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            data["errors"] = self.errors
        return data


def invalid_form(errors: dict[str, str]) -> ApiError:
    """Build the 400 Invalid Form Body error for these field errors."""
    nested = {
        key: {"_errors": [{"code": "HARNESS_INVALID", "message": text}]} for key, text in errors.items()
    }
    return ApiError(400, 50035, "Invalid Form Body", nested)


@dataclass
class UploadedFile:
    """A file part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class RestRequest:
    """A parsed request handed to a route handler."""

    method: str
    path: str
    route: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]

    @property
    def body(self) -> dict[str, Any]:
        """Return the JSON body as a dict (empty when absent)."""
        return self.json if isinstance(self.json, dict) else {}


@dataclass
class Call:
    """One recorded REST request and the fake's answer."""

    method: str
    path: str
    route: str | None
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    status: int = 0
    response: Any = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None

    def __repr__(self) -> str:
        return f"<Call {self.method} {self.path} -> {self.status}>"


@dataclass
class FailureRule:
    """Answer matching requests with an error instead of handling them."""

    method: str
    route: str
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int | None
    hits: int = 0

    def matches(self, method: str, route: str, path: str) -> bool:
        """Tell whether this rule applies to a request (route may be a template or a concrete path)."""
        if self.times is not None and self.hits >= self.times:
            return False
        return self.method in ("*", method) and self.route in ("*", route, path)


Handler = Callable[[RestRequest], Awaitable[tuple[int, Any]]]
RequestHook = Callable[[Call], Awaitable[tuple[int, Any] | None]]
"""Run before a matched request is handled (route and body known); a (status, body) answer replaces it."""


class Router:
    """Match "METHOD /path/{param}" templates; ids only match digits, @me or @original."""

    def __init__(self) -> None:
        self._routes: list[tuple[str, str, re.Pattern[str], Handler, bool]] = []

    def add(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        """Register a route; `auth` requires the bot token."""

        def group(match: re.Match[str]) -> str:
            name = match.group(1)
            pattern = r"\d+|@me|@original" if name.endswith("_id") else r"[^/]+"
            return f"(?P<{name}>{pattern})"

        regex = re.compile("^" + re.sub(r"\{(\w+)\}", group, template) + "$")
        self._routes.append((method, template, regex, handler, auth))

    def match(self, method: str, path: str) -> tuple[str, dict[str, str], Handler, bool] | None:
        """Return the template, parameters, handler and auth flag for a request, or None."""
        for route_method, template, regex, handler, auth in self._routes:
            found = regex.match(path)
            if found and route_method == method:
                return template, found.groupdict(), handler, auth
        return None


def _check_length(errors: dict[str, str], key: str, value: Any, low: int, high: int) -> None:
    if value is None:
        if low > 0:
            errors[key] = "This field is required"
        return
    if not low <= len(str(value)) <= high:
        errors[key] = f"Must be between {low} and {high} in length (got {len(str(value))})."


def message_errors(
    payload: dict[str, Any], files: list[UploadedFile], *, creating: bool, size_limit: int
) -> dict[str, str]:
    """Return Discord's validation errors for a message create or edit payload."""
    errors: dict[str, str] = {}
    content = payload.get("content")
    if content is not None and len(str(content)) > 2000:
        errors["content"] = f"Must be 2000 or fewer in length (got {len(str(content))})."
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        errors["embeds"] = "Must be 10 or fewer in length."
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            text = str(embed.get(key) or "")
            total += len(text)
            if len(text) > limit:
                errors[f"embeds.{i}.{key}"] = f"Must be {limit} or fewer in length."
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors[f"embeds.{i}.fields"] = "Must be 25 or fewer in length."
        for j, embed_field in enumerate(fields):
            _check_length(errors, f"embeds.{i}.fields.{j}.name", embed_field.get("name"), 1, 256)
            _check_length(errors, f"embeds.{i}.fields.{j}.value", embed_field.get("value"), 1, 1024)
            total += len(str(embed_field.get("name", ""))) + len(str(embed_field.get("value", "")))
        footer = str((embed.get("footer") or {}).get("text") or "")
        author = str((embed.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        if len(footer) > 2048:
            errors[f"embeds.{i}.footer.text"] = "Must be 2048 or fewer in length."
        if len(author) > 256:
            errors[f"embeds.{i}.author.name"] = "Must be 256 or fewer in length."
    if total > 6000:
        errors["embeds"] = f"Embed size exceeds maximum size of 6000 (got {total})."
    flags = payload.get("flags") or 0
    components = payload.get("components") or []
    if flags & IS_COMPONENTS_V2:
        if content or embeds:
            errors["content"] = "content and embeds cannot be sent with the IS_COMPONENTS_V2 flag"
        if sum(1 for _ in iter_components(components)) > 40:
            errors["components"] = "Must be 40 or fewer components in total."
    else:
        if len(components) > 5:
            errors["components"] = f"Must be 5 or fewer in length (got {len(components)})."
        for i, row in enumerate(components):
            children = row.get("components") or []
            if row.get("type") != 1:
                errors[f"components.{i}.type"] = (
                    "Top-level components must be action rows without IS_COMPONENTS_V2."
                )
            elif not 1 <= len(children) <= 5:
                errors[f"components.{i}.components"] = (
                    f"An action row holds 1 to 5 components (got {len(children)})."
                )
            elif any(child.get("type") in SELECT_TYPES for child in children) and len(children) > 1:
                errors[f"components.{i}.components"] = "A select menu must be alone in its action row."
    seen_ids: set[str] = set()
    for i, component in enumerate(iter_components(components)):
        ctype = component.get("type")
        key = f"components.{i}"
        if ctype == BUTTON:
            link = component.get("style") in (5, 6)
            _check_length(errors, f"{key}.label", component.get("label") or "", 0, 80)
            if component.get("style") == 5 and not component.get("url"):
                errors[f"{key}.url"] = "Link buttons need a url."
            if not link and not component.get("custom_id"):
                errors[f"{key}.custom_id"] = "Buttons need a custom_id."
            if not link and not (component.get("label") or component.get("emoji")):
                errors[f"{key}.label"] = "Buttons need a label or an emoji."
        if ctype in SELECT_TYPES:
            _check_length(errors, f"{key}.placeholder", component.get("placeholder") or "", 0, 150)
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
                errors[f"{key}.min_values"] = f"min_values {low} / max_values {high} out of range."
            if ctype == STRING_SELECT:
                options = component.get("options") or []
                if not 1 <= len(options) <= 25:
                    errors[f"{key}.options"] = f"A string select holds 1 to 25 options (got {len(options)})."
                if high > len(options):
                    errors[f"{key}.max_values"] = "max_values exceeds the number of options."
                for j, option in enumerate(options):
                    _check_length(errors, f"{key}.options.{j}.label", option.get("label"), 1, 100)
                    _check_length(errors, f"{key}.options.{j}.value", option.get("value"), 1, 100)
                    _check_length(
                        errors, f"{key}.options.{j}.description", option.get("description") or "", 0, 100
                    )
                values = [option.get("value") for option in options]
                if len(set(values)) != len(values):
                    errors[f"{key}.options"] = "Select option values must be unique."
        custom_id = component.get("custom_id")
        if custom_id is not None:
            _check_length(errors, f"{key}.custom_id", custom_id, 1, 100)
            if custom_id in seen_ids:
                errors[f"{key}.custom_id"] = f"Component custom id {custom_id!r} is duplicated."
            seen_ids.add(custom_id)
    if len(files) > 10:
        errors["files"] = "Must be 10 or fewer files."
    for uploaded in files:
        if len(uploaded.data) > size_limit:
            errors[f"files.{uploaded.index}"] = (
                f"File {uploaded.filename!r} exceeds the {size_limit} byte limit."
            )
    for i, entry in enumerate(payload.get("attachments") or []):
        _check_length(errors, f"attachments.{i}.description", entry.get("description") or "", 0, 1024)
    if creating and not errors:
        has_body = (
            content or embeds or components or files or payload.get("sticker_ids") or payload.get("poll")
        )
        if not has_body:
            errors["content"] = "Cannot send an empty message"
    return errors


def command_errors(command: dict[str, Any]) -> dict[str, str]:
    """Return Discord's validation errors for one application command in a sync payload."""
    errors: dict[str, str] = {}
    name = str(command.get("name", ""))
    ctype = command.get("type", 1)
    if ctype in (1, PRIMARY_ENTRY_POINT):  # slash commands and the Entry Point share the naming rules
        if not COMMAND_NAME.match(name) or name != name.lower():
            errors[f"{name}.name"] = "Command names are 1-32 lowercase letters, digits, '-' or '_'."
        _check_length(errors, f"{name}.description", command.get("description"), 1, 100)
    else:
        _check_length(errors, f"{name}.name", name, 1, 32)
    localization_errors(errors, name, command, names=ctype in (1, PRIMARY_ENTRY_POINT))
    options = command.get("options") or []
    _option_errors(errors, name, options, depth=0)
    size = len(name) + len(str(command.get("description", ""))) + _options_size(options)
    if size > 4000:
        errors[f"{name}"] = f"Command size {size} exceeds 4000 characters."
    return errors


def _options_size(options: list[dict[str, Any]]) -> int:
    size = 0
    for option in options:
        size += len(str(option.get("name", ""))) + len(str(option.get("description", "")))
        for choice in option.get("choices") or []:
            size += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
        size += _options_size(option.get("options") or [])
    return size


def _option_errors(errors: dict[str, str], path: str, options: list[dict[str, Any]], *, depth: int) -> None:
    if len(options) > 25:
        errors[f"{path}.options"] = "Must be 25 or fewer in length."
    names = [option.get("name") for option in options]
    if len(set(names)) != len(names):
        errors[f"{path}.options"] = f"Option names must be unique: {names}"
    sibling_errors(errors, f"{path}.options", options)
    seen_optional = False
    for option in options:
        otype = option.get("type")
        name = str(option.get("name", ""))
        key = f"{path}.{name}"
        if not COMMAND_NAME.match(name) or name != name.lower():
            errors[f"{key}.name"] = "Option names are 1-32 lowercase letters, digits, '-' or '_'."
        _check_length(errors, f"{key}.description", option.get("description"), 1, 100)
        localization_errors(errors, key, option, names=True)
        if otype in (1, 2):
            if (otype == 2 and depth > 0) or (otype == 1 and depth > 1):
                errors[f"{key}.type"] = "Subcommands nest at most as command > group > subcommand."
            children = option.get("options") or []
            if otype == 2 and any(child.get("type") != 1 for child in children):
                errors[f"{key}.options"] = "A subcommand group may only hold subcommands."
            if otype == 1 and any(child.get("type") in (1, 2) for child in children):
                errors[f"{key}.options"] = "A subcommand may not hold subcommands."
            _option_errors(errors, key, children, depth=depth + 1)
            continue
        if not isinstance(otype, int) or not 3 <= otype <= 11:
            errors[f"{key}.type"] = f"Unknown option type {otype!r}."
        if option.get("required"):
            if seen_optional:
                errors[f"{key}.required"] = "Required options must come before optional ones."
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            errors[f"{key}.choices"] = "Must be 25 or fewer in length."
        if choices and option.get("autocomplete"):
            errors[f"{key}.autocomplete"] = "Autocomplete cannot be combined with choices."
        for j, choice in enumerate(choices):
            _check_length(errors, f"{key}.choices.{j}.name", choice.get("name"), 1, 100)
            localization_errors(errors, f"{key}.choices.{j}", choice, names=False)


def choice_errors(choices: Any) -> dict[str, str]:
    """Return validation errors for an autocomplete answer."""
    if not isinstance(choices, list):
        return {"choices": "choices must be a list"}
    errors: dict[str, str] = {}
    if len(choices) > 25:
        errors["choices"] = f"Must be 25 or fewer in length (got {len(choices)})."
    for i, choice in enumerate(choices):
        _check_length(errors, f"choices.{i}.name", choice.get("name"), 1, 100)
        value = choice.get("value")
        if isinstance(value, str):
            _check_length(errors, f"choices.{i}.value", value, 0, 100)
        elif not isinstance(value, (int, float)) or isinstance(value, bool):
            errors[f"choices.{i}.value"] = f"Choice values are strings or numbers (got {value!r})."
    return errors


def modal_errors(data: dict[str, Any]) -> dict[str, str]:
    """Return validation errors for a modal."""
    errors: dict[str, str] = {}
    _check_length(errors, "title", data.get("title"), 1, 45)
    _check_length(errors, "custom_id", data.get("custom_id"), 1, 100)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors["components"] = f"A modal holds 1 to 5 components (got {len(components)})."
    return errors


DISPOSITION_PARAM = re.compile(r';\s*([\w*]+)="((?:[^"\\]|\\.)*)"')


def multipart_parts(body: bytes, content_type: str) -> list[tuple[dict[str, str | None], bytes]]:
    """Split a multipart/form-data body into each part's name, filename and type, and its bytes.

    The fake shares the machine with the bot the benchmarks measure, so it reads a body in a few byte
    operations rather than aiohttp's streaming reader.
    """
    found = re.search(r'boundary="?([^";]+)"?', content_type)
    if found is None:
        raise ValueError("a multipart body without a boundary")
    parts = []
    for section in body.split(b"--" + found.group(1).encode())[1:]:
        if section.startswith(b"--"):
            break
        head, blank, data = section.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not blank:
            raise ValueError("a multipart part without headers")
        headers = {}
        for line in head.decode().split("\r\n"):
            key, _colon, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        disposition = DISPOSITION_PARAM.findall(headers.get("content-disposition", ""))
        params: dict[str, str | None] = {key: re.sub(r"\\(.)", r"\1", value) for key, value in disposition}
        params["type"] = headers.get("content-type")
        parts.append((params, data.removesuffix(b"\r\n")))
    return parts


class RestApi:
    """The REST half of the fake: one aiohttp handler that routes, records and fails on demand."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.router = Router()
        self._placeholder_png: bytes | None = None
        add = self.router.add
        add("GET", "/gateway", self.get_gateway, auth=False)
        add("GET", "/gateway/bot", self.get_gateway)
        add("GET", "/users/@me", self.get_me)
        add("GET", "/users/{user_id}", self.get_user)
        add("POST", "/users/@me/channels", self.open_dm)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/oauth2/applications/@me", self.get_application)
        for prefix in ("/applications/{application_id}", "/applications/{application_id}/guilds/{guild_id}"):
            add("GET", prefix + "/commands", self.get_commands)
            add("PUT", prefix + "/commands", self.put_commands)
            add("POST", prefix + "/commands", self.post_command)
            add("GET", prefix + "/commands/{command_id}", self.get_command)
            add("PATCH", prefix + "/commands/{command_id}", self.patch_command)
            add("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        add("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback, auth=False)
        add("POST", "/webhooks/{application_id}/{token}", self.followup, auth=False)
        for method in ("GET", "PATCH", "DELETE"):
            add(
                method,
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self.webhook_message,
                auth=False,
            )
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("PATCH", "/channels/{channel_id}", self.edit_channel)
        add("DELETE", "/channels/{channel_id}", self.delete_channel)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add("GET", "/channels/{channel_id}/messages", self.list_messages)
        add("POST", "/channels/{channel_id}/messages", self.post_message)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add("POST", "/channels/{channel_id}/threads", self.create_thread)
        add("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread)
        add("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.no_content)
        add("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.no_content)
        add(
            "PUT",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}",
            self.add_reaction,
        )
        add(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}",
            self.no_content,
        )
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.get_roles)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)

    # -- plumbing -----------------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one HTTP request: CDN files, or an API route with recording and failure injection."""
        fake = self.fake
        path = request.path
        if request.method == "GET" and path.startswith("/attachments/"):
            return self._serve_attachment(path)
        if request.method == "GET" and path.startswith(CDN_PREFIXES):
            return web.Response(body=self._placeholder(), content_type="image/png")
        fake.inflight += 1
        call = Call(request.method, path, None, dict(request.query), None, [])
        fake.calls.append(call)
        try:
            status, body, headers = await self._dispatch(request, call)
        finally:
            fake.inflight -= 1
        call.status = status
        call.response = body
        call.finished = time.monotonic()
        fake.notify()
        if body is None:
            return web.Response(status=status, headers=headers)
        return web.Response(
            status=status, body=json.dumps(body).encode(), content_type="application/json", headers=headers
        )

    async def _dispatch(self, request: web.Request, call: Call) -> tuple[int, Any, dict[str, str]]:
        fake = self.fake
        try:
            payload, files = await self._read_body(request)
        except ValueError as exc:
            fake.problem(f"{request.method} {request.path}: unreadable body ({exc})")
            return 400, {"code": 50109, "message": "The request body contains invalid JSON."}, {}
        call.json, call.files = payload, files
        api_path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else None
        found = self.router.match(request.method, api_path) if api_path is not None else None
        if found is None:
            fake.unknown_route(request.method, request.path)
            return 404, {"code": 0, "message": "404: Not Found"}, {}
        route, params, handler, auth = found
        call.route = route
        if auth and request.headers.get("Authorization") != f"Bot {fake.token}":
            return 401, {"code": 0, "message": "401: Unauthorized"}, {}
        failure = self._failure_for(request.method, route, api_path or "")
        if failure is not None:
            return failure
        for hook in list(fake.request_hooks):
            replaced = await hook(call)
            if replaced is not None:
                return replaced[0], replaced[1], {}
        req = RestRequest(request.method, api_path or "", route, params, dict(request.query), payload, files)
        try:
            status, body = await handler(req)
        except ApiError as exc:
            return exc.status, exc.body(), {}
        return status, body, {}

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            payload: Any = None
            files: list[UploadedFile] = []
            for params, data in multipart_parts(await request.read(), content_type):
                name = params.get("name") or ""
                if name == "payload_json":
                    payload = json.loads(data)
                elif match := re.fullmatch(r"files\[(\d+)\]", name):
                    files.append(
                        UploadedFile(int(match.group(1)), params.get("filename") or "", data, params.get("type"))
                    )
                else:
                    raise ValueError(f"unexpected multipart field {name!r}")
            return payload, files
        raw = await request.read()
        if not raw:
            return None, []
        if content_type != "application/json":
            raise ValueError(f"body sent with Content-Type {content_type!r}")
        return json.loads(raw), []

    def _failure_for(self, method: str, route: str, path: str) -> tuple[int, Any, dict[str, str]] | None:
        for rule in self.fake.failure_rules:
            if rule.matches(method, route, path):
                rule.hits += 1
                headers = dict(rule.headers)
                if rule.status == 429 and "X-RateLimit-Reset-After" in headers:
                    reset_after = float(headers["X-RateLimit-Reset-After"])
                    headers["X-RateLimit-Reset"] = f"{time.time() + reset_after:.3f}"
                return rule.status, rule.body, headers
        return None

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split("/")
        attachment = (
            self.fake.attachments.get(int(parts[3])) if len(parts) > 4 and parts[3].isdigit() else None
        )
        if attachment is None:
            self.fake.unknown_route("GET", path)
            return web.Response(status=404)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    def _placeholder(self) -> bytes:
        if self._placeholder_png is None:
            from PIL import Image

            buffer = io.BytesIO()
            Image.new("RGB", (128, 128), (88, 101, 242)).save(buffer, format="PNG")
            self._placeholder_png = buffer.getvalue()
        return self._placeholder_png

    def _reject(self, req: RestRequest, error: ApiError, why: str) -> ApiError:
        self.fake.problem(
            f"{req.method} {req.path}: Discord would answer {error.status} {error.code} ({why})"
        )
        return error

    def _validate_message(self, req: RestRequest, payload: dict[str, Any], *, creating: bool) -> None:
        errors = message_errors(
            payload, req.files, creating=creating, size_limit=self.fake.attachment_size_limit
        )
        if errors == {"content": "Cannot send an empty message"}:
            raise self._reject(req, ApiError(400, 50006, "Cannot send an empty message"), "empty message")
        if errors:
            raise self._reject(req, invalid_form(errors), "; ".join(f"{k}: {v}" for k, v in errors.items()))

    # -- users, application, gateway ----------------------------------------------------------------------

    async def get_gateway(self, req: RestRequest) -> tuple[int, Any]:
        """Answer GET /gateway and /gateway/bot."""
        data: dict[str, Any] = {"url": self.fake.ws_url}
        if req.route.endswith("/bot"):
            data["shards"] = self.fake.recommended_shards
            data["session_start_limit"] = {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            }
        return 200, data

    async def get_me(self, req: RestRequest) -> tuple[int, Any]:
        """Return the bot user."""
        return 200, {**self.fake.bot_user.payload(), "verified": True, "mfa_enabled": False}

    async def get_user(self, req: RestRequest) -> tuple[int, Any]:
        """Return a user."""
        user = self.fake.users.get(int(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def get_application(self, req: RestRequest) -> tuple[int, Any]:
        """Return the application."""
        fake = self.fake
        return 200, {
            "id": str(fake.application_id),
            "name": fake.bot_user.name,
            "icon": None,
            "description": "Ice Floe under test",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": fake.owner.payload(),
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "bot": fake.bot_user.payload(),
            "summary": "",
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(fake.guilds),
            "integration_types_config": {"0": {}},
        }

    async def open_dm(self, req: RestRequest) -> tuple[int, Any]:
        """Open (or return) the DM channel with a user."""
        recipient = req.body.get("recipient_id")
        user = self.fake.users.get(int(recipient)) if recipient is not None else None
        if user is None:
            raise self._reject(
                req, invalid_form({"recipient_id": f"Unknown user {recipient!r}"}), "bad recipient"
            )
        return 200, self.fake.dm_channel(user).payload()

    # -- application commands -----------------------------------------------------------------------------

    def _command_scope(self, req: RestRequest) -> list[dict[str, Any]]:
        fake = self.fake
        if int(req.params["application_id"]) != fake.application_id:
            raise self._reject(req, ApiError(403, 50001, "Missing Access"), "wrong application id")
        if "guild_id" not in req.params:
            return fake.global_commands
        guild_id = int(req.params["guild_id"])
        if guild_id not in fake.guilds:
            raise self._reject(req, ApiError(403, 50001, "Missing Access"), f"bot is not in guild {guild_id}")
        return fake.guild_commands.setdefault(guild_id, [])

    def _stored_command(
        self, req: RestRequest, command: dict[str, Any], old: dict[str, Any] | None
    ) -> dict[str, Any]:
        errors = command_errors(command)
        if errors:
            raise self._reject(req, invalid_form(errors), "; ".join(f"{k}: {v}" for k, v in errors.items()))
        stored: dict[str, Any] = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "name_localizations": None,
            "description_localizations": None,
            "integration_types": [0],
            "contexts": None,
            **command,
            "id": old["id"] if old else str(self.fake.ids.next()),
            "application_id": str(self.fake.application_id),
            "version": str(self.fake.ids.next()),
        }
        if "guild_id" in req.params:
            stored["guild_id"] = req.params["guild_id"]
        else:
            stored.setdefault("dm_permission", True)
        return stored

    async def get_commands(self, req: RestRequest) -> tuple[int, Any]:
        """List the registered commands."""
        return 200, self._command_scope(req)

    async def put_commands(self, req: RestRequest) -> tuple[int, Any]:
        """Replace every command in the scope (bulk overwrite), keeping ids of commands that stay."""
        scope = self._command_scope(req)
        if not isinstance(req.json, list):
            raise self._reject(req, invalid_form({"_": "Expected a list of commands"}), "not a list")
        if len(req.json) > 100:
            raise self._reject(
                req, invalid_form({"_": "Must be 100 or fewer in length."}), "too many commands"
            )
        keys = [(command.get("name"), command.get("type", 1)) for command in req.json]
        if len(set(keys)) != len(keys):
            raise self._reject(req, invalid_form({"_": f"Duplicate command names {keys}"}), "duplicate names")
        clashes: dict[str, str] = {}
        sibling_errors(clashes, "_", [c for c in req.json if c.get("type", 1) == 1])
        if clashes:
            raise self._reject(req, invalid_form(clashes), "; ".join(clashes.values()))
        entry_points = [c for c in scope if c.get("type") == PRIMARY_ENTRY_POINT]
        if entry_points and not any(c.get("type") == PRIMARY_ENTRY_POINT for c in req.json):
            raise self._reject(
                req,
                ApiError(400, 50240, "You cannot remove this app's Entry Point command in a bulk update operation"),
                "a bulk overwrite without the Entry Point command",
            )
        by_key = {(c["name"], c["type"]): c for c in scope}
        stored = [
            self._stored_command(req, c, by_key.get((c.get("name"), c.get("type", 1)))) for c in req.json
        ]
        scope[:] = stored
        self.fake.notify()
        return 200, stored

    async def post_command(self, req: RestRequest) -> tuple[int, Any]:
        """Create or overwrite one command."""
        scope = self._command_scope(req)
        command = req.body
        old = next(
            (c for c in scope if (c["name"], c["type"]) == (command.get("name"), command.get("type", 1))),
            None,
        )
        stored = self._stored_command(req, command, old)
        if old is not None:
            scope[scope.index(old)] = stored
            return 200, stored
        scope.append(stored)
        return 201, stored

    def _find_command(self, req: RestRequest) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        scope = self._command_scope(req)
        command = next((c for c in scope if c["id"] == req.params["command_id"]), None)
        if command is None:
            raise ApiError(404, 10063, "Unknown application command")
        return scope, command

    async def get_command(self, req: RestRequest) -> tuple[int, Any]:
        """Return one command."""
        return 200, self._find_command(req)[1]

    async def patch_command(self, req: RestRequest) -> tuple[int, Any]:
        """Edit one command."""
        scope, command = self._find_command(req)
        stored = self._stored_command(req, {**command, **req.body}, command)
        scope[scope.index(command)] = stored
        return 200, stored

    async def delete_command(self, req: RestRequest) -> tuple[int, Any]:
        """Delete one command."""
        scope, command = self._find_command(req)
        scope.remove(command)
        return 204, None

    # -- interactions and their webhooks --------------------------------------------------------------------

    async def interaction_callback(self, req: RestRequest) -> tuple[int, Any]:
        """Accept the initial response to an interaction."""
        fake = self.fake
        ix = fake.interactions.get(int(req.params["interaction_id"]))
        if ix is None or ix.token != req.params["token"]:
            raise self._reject(
                req, ApiError(404, 10062, "Unknown interaction"), "no such interaction or token"
            )
        body = req.body
        cb_type = body.get("type")
        data = body.get("data") or {}
        now = asyncio.get_running_loop().time()
        age = now - ix.created
        late = fake.interaction_deadline is not None and age > fake.interaction_deadline
        if ix.expired or late:
            ix.rejections.append((404, 10062, "Unknown interaction"))
            if late and not ix.expired:
                fake.problem(f"{ix.describe()} was answered {age:.2f}s after it was sent (Discord allows 3s)")
            fake.notify()
            raise ApiError(404, 10062, "Unknown interaction")
        if ix.callback_type is not None:
            ix.rejections.append((400, 40060, "Interaction has already been acknowledged."))
            raise self._reject(
                req,
                ApiError(400, 40060, "Interaction has already been acknowledged."),
                "second initial response",
            )
        if cb_type not in ALLOWED_CALLBACKS.get(ix.type, set()):
            ix.rejections.append((400, 50035, "Invalid callback type"))
            name = CALLBACK_TYPE_NAMES.get(cb_type, str(cb_type))
            raise self._reject(req, invalid_form({"type": f"{name} is not allowed here"}), f"{name} callback")
        message: FakeMessage | None = None
        if cb_type == CALLBACK_MESSAGE:
            self._validate_message(req, data, creating=True)
            message = fake.create_message(ix.channel, fake.bot_user, data, req.files, interaction=ix)
            ix.original_message_id = message.id
        elif cb_type == CALLBACK_DEFERRED_MESSAGE:
            flags = (data.get("flags") or 0) & EPHEMERAL | LOADING
            message = fake.create_message(ix.channel, fake.bot_user, {"flags": flags}, [], interaction=ix)
            ix.original_message_id = message.id
        elif cb_type in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE_MESSAGE):
            if ix.message_id is None:
                raise self._reject(
                    req, invalid_form({"type": "no message to update"}), "update without a message"
                )
            ix.original_message_id = ix.message_id
            if cb_type == CALLBACK_UPDATE_MESSAGE:
                self._validate_message(req, data, creating=False)
                message = fake.edit_message(fake.messages[ix.message_id], data, req.files)
        elif cb_type == CALLBACK_AUTOCOMPLETE:
            errors = choice_errors(data.get("choices"))
            if errors:
                raise self._reject(
                    req, invalid_form(errors), "; ".join(f"{k}: {v}" for k, v in errors.items())
                )
            ix.choices = data["choices"]
        elif cb_type == CALLBACK_MODAL:
            errors = modal_errors(data)
            if errors:
                raise self._reject(
                    req, invalid_form(errors), "; ".join(f"{k}: {v}" for k, v in errors.items())
                )
            ix.modal = data
        ix.callback_type = cb_type
        ix.callback_data = data
        ix.acked_at = now
        if ix.answered and ix.answered_at is None:
            ix.answered_at = now
        fake.notify()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        summary: dict[str, Any] = {
            "id": str(ix.id),
            "type": ix.type,
            "response_message_loading": cb_type == CALLBACK_DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: dict[str, Any] = {"type": cb_type}
        if message is not None:
            summary["response_message_id"] = str(message.id)
            resource["message"] = message.payload()
        return 200, {"interaction": summary, "resource": resource}

    def _webhook_interaction(self, req: RestRequest) -> FakeInteraction:
        fake = self.fake
        ix = fake.interactions_by_token.get(req.params["token"])
        if ix is None or req.params["application_id"] != str(fake.application_id):
            raise self._reject(req, ApiError(404, 10015, "Unknown Webhook"), "unknown interaction token")
        if ix.callback_type is None:
            restarted = ix.session is not None and ix.session is not fake.gateway.session_for(ix.guild_id)
            if req.method == "GET" and restarted:
                # a restarted bot looking up what a previous run promised: Discord says it was never answered
                raise ApiError(404, 10015, "Unknown Webhook")
            why = "follow-up or @original used before the interaction was acknowledged"
            raise self._reject(req, ApiError(404, 10015, "Unknown Webhook"), why)
        if ix.token_expired:  # Discord keeps an interaction's token 15 minutes
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return ix

    async def followup(self, req: RestRequest) -> tuple[int, Any]:
        """Send a follow-up; the first one after a thinking defer replaces the placeholder in place (unless deleted)."""
        fake = self.fake
        ix = self._webhook_interaction(req)
        payload = req.body
        self._validate_message(req, payload, creating=True)
        channel = ix.channel
        if req.query.get("thread_id"):
            channel = fake.require_channel(int(req.query["thread_id"]))
        original = fake.messages.get(ix.original_message_id or 0)
        replaces_placeholder = (
            ix.callback_type == CALLBACK_DEFERRED_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        )
        if replaces_placeholder and original is not None:
            if original.ephemeral and not (payload.get("flags") or 0) & EPHEMERAL:
                # Discord makes it private without a word: a board or ping meant for the channel never shows there
                fake.problem(
                    f"{ix.describe()}: a follow-up sent as public replaced a private 'thinking…' and is private too"
                    " (the first follow-up after a deferred ephemeral response inherits the flag)"
                )
            flags = original.flags & EPHEMERAL | (payload.get("flags") or 0) & ~EPHEMERAL
            message = fake.edit_message(original, {"attachments": [], **payload, "flags": flags}, req.files)
            ix.original_edited = True
        else:
            message = fake.create_message(channel, fake.bot_user, payload, req.files, interaction=ix)
        ix.followup_ids.append(message.id)
        if ix.answered_at is None:
            ix.answered_at = asyncio.get_running_loop().time()
        fake.notify()
        if req.query.get("wait") in ("1", "true", "True"):
            return 200, message.payload()
        return 204, None

    async def webhook_message(self, req: RestRequest) -> tuple[int, Any]:
        """GET, PATCH or DELETE the original response or a follow-up."""
        fake = self.fake
        ix = self._webhook_interaction(req)
        raw_id = req.params["message_id"]
        message_id = ix.original_message_id if raw_id == "@original" else int(raw_id)
        if message_id is None or (message_id != ix.original_message_id and message_id not in ix.followup_ids):
            raise ApiError(404, 10008, "Unknown Message")
        message = fake.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        if message.channel_id not in fake.channels:  # its channel or thread was deleted since
            raise ApiError(404, 10003, "Unknown Channel")
        if req.method == "GET":
            return 200, message.payload()
        if req.method == "DELETE":
            fake.delete_message(message)
            return 204, None
        self._validate_message(req, req.body, creating=False)
        message = fake.edit_message(message, req.body, req.files)
        if message_id == ix.original_message_id:
            ix.original_edited = True
        if ix.answered_at is None:
            ix.answered_at = asyncio.get_running_loop().time()
        fake.notify()
        return 200, message.payload()

    # -- channels and messages -----------------------------------------------------------------------------

    async def get_channel(self, req: RestRequest) -> tuple[int, Any]:
        """Return a channel, thread or DM channel."""
        return 200, self.fake.require_channel(int(req.params["channel_id"])).payload()

    async def edit_channel(self, req: RestRequest) -> tuple[int, Any]:
        """Rename, archive or lock a channel or thread."""
        channel = self.fake.require_channel(int(req.params["channel_id"]))
        body = req.body
        if "name" in body:
            channel.name = str(body["name"])
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        self.fake.channel_changed(channel, "UPDATE")
        return 200, channel.payload()

    async def delete_channel(self, req: RestRequest) -> tuple[int, Any]:
        """Delete a channel or thread."""
        channel = self.fake.require_channel(int(req.params["channel_id"]))
        self.fake.remove_channel(channel)
        return 200, channel.payload()

    async def typing(self, req: RestRequest) -> tuple[int, Any]:
        """Accept a typing indicator."""
        self.fake.require_channel(int(req.params["channel_id"]))
        return 204, None

    async def no_content(self, req: RestRequest) -> tuple[int, Any]:
        """Accept a request that has no visible effect here (thread membership, reaction removal)."""
        self.fake.require_channel(int(req.params["channel_id"]))
        return 204, None

    async def add_reaction(self, req: RestRequest) -> tuple[int, Any]:
        """Record the bot's reaction on a message."""
        channel = self.fake.require_channel(int(req.params["channel_id"]))
        message = self.fake.require_message(channel, int(req.params["message_id"]))
        message.reactions.append(req.params["emoji"])
        return 204, None

    async def list_messages(self, req: RestRequest) -> tuple[int, Any]:
        """Return channel history, newest first, honouring limit/before/after/around."""
        channel = self.fake.require_channel(int(req.params["channel_id"]))
        messages = self.fake.messages_in(channel)
        limit = min(int(req.query.get("limit", 50)), 100)
        if "before" in req.query:
            messages = [m for m in messages if m.id < int(req.query["before"])]
        if "after" in req.query:
            messages = [m for m in messages if m.id > int(req.query["after"])][:limit]
        if "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in messages if m.id <= around][-math.ceil(limit / 2) :]
            newer = [m for m in messages if m.id > around][: limit // 2]
            messages = older + newer
        return 200, [m.payload() for m in reversed(messages[-limit:])]

    async def post_message(self, req: RestRequest) -> tuple[int, Any]:
        """Send a message to a channel, thread or DM."""
        fake = self.fake
        channel = fake.require_channel(int(req.params["channel_id"]))
        fake.check_can_send(channel, files=bool(req.files))
        payload = req.body
        if payload.get("flags", 0) & EPHEMERAL:
            raise self._reject(
                req, invalid_form({"flags": "EPHEMERAL is only for interactions"}), "ephemeral flag"
            )
        self._validate_message(req, payload, creating=True)
        reference = payload.get("message_reference")
        if reference and reference.get("fail_if_not_exists", True):
            fake.require_message(channel, int(reference["message_id"]))
        message = fake.create_message(channel, fake.bot_user, payload, req.files)
        return 200, message.payload()

    async def get_message(self, req: RestRequest) -> tuple[int, Any]:
        """Return one message."""
        channel = self.fake.require_channel(int(req.params["channel_id"]))
        return 200, self.fake.require_message(channel, int(req.params["message_id"])).payload()

    async def edit_message(self, req: RestRequest) -> tuple[int, Any]:
        """Edit one of the bot's messages."""
        fake = self.fake
        channel = fake.require_channel(int(req.params["channel_id"]))
        message = fake.require_message(channel, int(req.params["message_id"]))
        if channel.is_thread and channel.archived:
            raise ApiError(400, 50083, "Thread is archived")
        if message.author is not fake.bot_user:
            raise self._reject(
                req, ApiError(403, 50005, "Cannot edit a message authored by another user"), "edit"
            )
        self._validate_message(req, req.body, creating=False)
        return 200, fake.edit_message(message, req.body, req.files).payload()

    async def delete_message(self, req: RestRequest) -> tuple[int, Any]:
        """Delete a message."""
        channel = self.fake.require_channel(int(req.params["channel_id"]))
        self.fake.delete_message(self.fake.require_message(channel, int(req.params["message_id"])))
        return 204, None

    async def create_thread(self, req: RestRequest) -> tuple[int, Any]:
        """Start a thread in a text channel, from a message or on its own."""
        fake = self.fake
        parent = fake.require_channel(int(req.params["channel_id"]))
        if parent.type != TEXT_CHANNEL:
            raise self._reject(
                req, ApiError(400, 50024, "Cannot execute action on this channel type"), "thread"
            )
        body = req.body
        name = body.get("name")
        if not name or len(str(name)) > 100:
            raise self._reject(
                req, invalid_form({"name": "Must be between 1 and 100 in length."}), "thread name"
            )
        duration = body.get("auto_archive_duration", 1440)
        if duration not in AUTO_ARCHIVE_DURATIONS:
            raise self._reject(
                req, invalid_form({"auto_archive_duration": f"Must be one of {AUTO_ARCHIVE_DURATIONS}."}), "thread"
            )
        if "message_id" in req.params:
            message = fake.require_message(parent, int(req.params["message_id"]))
            if message.thread_id is not None:
                raise self._reject(
                    req, ApiError(400, 160004, "A thread has already been created for this message"), "thread"
                )
            thread = fake.add_thread(
                parent, str(name), owner=fake.bot_user, thread_id=message.id, auto_archive_duration=duration
            )
            message.thread_id = thread.id
        else:
            private = body.get("type", PRIVATE_THREAD) == PRIVATE_THREAD
            thread = fake.add_thread(
                parent, str(name), owner=fake.bot_user, private=private, auto_archive_duration=duration
            )
        return 201, thread.payload()

    # -- guilds ---------------------------------------------------------------------------------------------

    async def get_guild(self, req: RestRequest) -> tuple[int, Any]:
        """Return a guild."""
        guild = self.fake.require_guild(int(req.params["guild_id"]))
        data = guild.payload()
        if req.query.get("with_counts") in ("1", "true", "True"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return 200, data

    async def get_guild_channels(self, req: RestRequest) -> tuple[int, Any]:
        """Return a guild's channels (threads are not channels here, as on Discord)."""
        guild = self.fake.require_guild(int(req.params["guild_id"]))
        return 200, [c.payload() for c in guild.channels.values() if not c.is_thread]

    async def get_roles(self, req: RestRequest) -> tuple[int, Any]:
        """Return a guild's roles."""
        guild = self.fake.require_guild(int(req.params["guild_id"]))
        return 200, [role.payload() for role in guild.roles.values()]

    async def get_member(self, req: RestRequest) -> tuple[int, Any]:
        """Return a guild member."""
        guild = self.fake.require_guild(int(req.params["guild_id"]))
        user_id = self.fake.bot_user.id if req.params["user_id"] == "@me" else int(req.params["user_id"])
        member = guild.members.get(user_id)
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()
