"""Build persistent buttons and selects whose custom_id carries the game id, version and a token."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from i18n import _
from ui.errors import report
from ui.text import BUTTON_LABEL, LABEL, PLACEHOLDER, shorten

PREFIX = "floe"
LOBBY_VERSION = 0
MAX_OPTIONS = 25


@dataclass(frozen=True)
class ComponentHit:
    """Describe one press: which game, which board version, which token and the chosen values."""

    game_id: int
    version: int
    token: str
    values: tuple[str, ...]


def custom_id(game_id: int, version: int, token: str) -> str:
    """Return the custom_id for a component of a game at a given state version."""
    cid = f"{PREFIX}:{game_id}:{version}:{token}"
    if len(cid) > 100:
        raise ValueError(f"custom_id too long: {cid!r}")
    return cid


class FloeComponent(
    discord.ui.DynamicItem[discord.ui.Item[Any]], template=rf"{PREFIX}:(?P<game>\d+):(?P<version>\d+):(?P<token>.+)"
):
    """Route any button or select press with our custom_id to the game flow, even after a restart."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FloeComponent:
        """Wrap the pressed component as it came from the message."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to the game flow and report any refusal privately."""
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        values = tuple(getattr(self.item, "values", ()) or ())
        hit = ComponentHit(int(match["game"]), int(match["version"]), match["token"], values)
        flow = interaction.client.flow  # type: ignore[attr-defined]
        await flow.readers.enter(interaction)
        try:
            await flow.on_component(interaction, hit)
        except Exception as error:
            await report(interaction, error)
        await flow.lifecycle.after_interaction(interaction)


def button(
    game_id: int,
    version: int,
    token: str,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
    emoji: str | None = None,
) -> FloeComponent:
    """Return a persistent button."""
    return FloeComponent(
        discord.ui.Button(
            label=shorten(label, BUTTON_LABEL),
            style=style,
            custom_id=custom_id(game_id, version, token),
            disabled=disabled,
            row=row,
            emoji=emoji,
        )
    )


def _value(value: str) -> str:
    """Return an option's value, which the bot reads back, refusing one Discord would not keep whole."""
    if len(value) > LABEL:
        raise ValueError(f"an option value holds {LABEL} characters, not {len(value)}")
    return value


def select(
    game_id: int,
    version: int,
    token: str,
    placeholder: str,
    options: Sequence[tuple[str, str] | tuple[str, str, str]],
    *,
    disabled: bool = False,
    row: int | None = None,
) -> FloeComponent:
    """Return a persistent select menu from (label, value[, description]) options (25 at most: see chunked_selects)."""
    if not options:
        raise ValueError("a select needs at least one option")
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"a select holds {MAX_OPTIONS} options, not {len(options)}: use chunked_selects")
    choices = [
        discord.SelectOption(
            label=shorten(o[0], LABEL), value=_value(o[1]), description=(shorten(o[2], LABEL) if len(o) > 2 else None)
        )
        for o in options
    ]
    return FloeComponent(
        discord.ui.Select(
            custom_id=custom_id(game_id, version, token),
            placeholder=shorten(placeholder, PLACEHOLDER),
            options=choices,
            disabled=disabled,
            row=row,
        )
    )


def chunked_selects(
    game_id: int,
    version: int,
    token: str,
    placeholder: str,
    options: Sequence[tuple[str, str] | tuple[str, str, str]],
    *,
    disabled: bool = False,
    max_menus: int = 4,
) -> list[FloeComponent]:
    """Split many options over several selects of 25, each placeholder naming its range (never dropping one)."""
    chunks = [options[i : i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]
    if len(chunks) > max_menus:
        raise ValueError(f"{len(options)} options need {len(chunks)} menus, more than {max_menus}: group them first")
    menus = []
    for n, chunk in enumerate(chunks):
        if len(chunks) == 1:
            text = placeholder
        else:
            # TRANSLATORS: a menu's placeholder with the first and last of its options ("Pick a card (Ant–Eel)").
            text = _("{placeholder} ({first}–{last})", placeholder=placeholder, first=chunk[0][0], last=chunk[-1][0])
        menus.append(select(game_id, version, f"{token}#{n}", text, chunk, disabled=disabled))
    return menus


def autocomplete(options: Sequence[tuple[str, str]], current: str) -> list[discord.app_commands.Choice[str]]:
    """Return up to 25 autocomplete choices, from (label, value) pairs, whose label or value contains the text.

    Discord shows 25 choices at most; typing more of a label narrows the list to the rest.
    """
    typed = current.strip().lower()
    return [
        discord.app_commands.Choice(name=shorten(label, LABEL), value=_value(value))
        for label, value in options
        if typed in label.lower() or typed in value.lower()
    ][:MAX_OPTIONS]


class SentView(discord.ui.View):
    """A view that builds its components' payload once and keeps it (see `greyed`)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self._payload: list[dict[str, Any]] | None = None

    def to_components(self) -> list[dict[str, Any]]:
        """Return the components' payload, built on first use."""
        if self._payload is None:
            self._payload = super().to_components()
        return self._payload


def view_of(items: Sequence[discord.ui.Item[Any]]) -> SentView | None:
    """Put items in a view that never times out, or return None when there are none."""
    if not items:
        return None
    view = SentView()
    for item in items:
        view.add_item(item)
    return view


def greyed(payload: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a copy of a message's components payload with every button and select disabled."""
    rows = []
    for row in payload:
        if row.get("type") == 1:
            rows.append({**row, "components": [{**item, "disabled": True} for item in row.get("components", [])]})
        else:
            rows.append({**row, "disabled": True})
    return rows
