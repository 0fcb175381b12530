"""Show a game's move history a page at a time, with persistent Previous and Next buttons.

Moves are numbered as the board numbers turns: by the game's own turn numbers where it has them (the steps
before the first turn are its setup), else from 1. Each move's events are listed under its one number, and
lines that only announce whose turn comes next are left out (the next move says it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from engine.base import Event, Game
from engine.registry import get
from engine.takeback import TAKEBACK
from i18n import _, ngettext, pgettext
from storage.database import GameRow
from ui.errors import UserError, report
from ui.publishing import ANNOUNCEMENTS, describe
from ui.records import NOT_FOUND, described_by, visible_to
from ui.text import BUTTON_LABEL, MESSAGE, lines_within, shorten

if TYPE_CHECKING:
    from ui.flow import GameFlow

PAGE = 15
"""Moves per page."""
CONTINUES = frozenset({"discard", "keep", "activate"})
"""Actions that go on with the move before them (a Gourami choice after its take, an activation after a play)."""
TURN_PREFIX = re.compile(r"^Turn \d+: ")
"""The turn number an English line of an older engine may still start with (lines are told without it)."""
HISTORY_PREFIX = "floe-history"


@dataclass
class Move:
    """One numbered move of the history: its label and the public lines of its events."""

    label: str
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        """Return the move as message lines: the label before the first line, the others under it."""
        first, *rest = self.lines
        return "\n".join([f"`{self.label}` {first}", *(f"↳ {line}" for line in rest)])


def moves_of(
    kind: str, log: list[dict[str, Any]], names: list[str], told_by: Callable[[dict[str, Any]], Game] | None = None
) -> list[Move]:
    """Group a game's saved actions into numbered moves with their public lines (each told by `told_by`'s rules)."""
    today = get(kind)
    numbered = any("turn" in e.get("data", {}) for entry in log for e in entry["events"])
    moves: list[Move] = []
    turn: int | None = None
    count = 0
    counted: set[int] = set()
    for entry in log:
        game = told_by(entry) if told_by is not None else today
        events = [Event(e["kind"], e.get("seat"), e.get("data", {}), e.get("private_to")) for e in entry["events"]]
        own = next((e.data["turn"] for e in events if "turn" in e.data and e.kind not in ANNOUNCEMENTS), None)
        lines = [
            TURN_PREFIX.sub("", text)
            for e in events
            if e.private_to is None and e.kind not in ANNOUNCEMENTS and (text := describe(game, unnumbered(e), names))
        ]
        kind = (entry.get("action") or {}).get("type")
        if kind == TAKEBACK:  # its own row; the moves it undid are numbered again when played again
            label = pgettext("history", "Takeback")
            undone = {int(v) for v in (entry.get("action") or {}).get("undo", [])}
            count -= len(undone & counted)
            counted -= undone
        elif numbered:
            label = _("Turn {number}", number=own or turn) if (own or turn) else _("Setup")
        else:
            if kind not in CONTINUES or not moves:
                count += 1
                counted.add(int(entry.get("version", 0)))
            label = _("Move {number}", number=count)
        if lines:
            if moves and moves[-1].label == label:
                moves[-1].lines += lines
            else:
                moves.append(Move(label, lines))
        turn = next((e.data["turn"] for e in reversed(events) if e.kind == "turn_start"), turn)
    return moves


def unnumbered(event: Event) -> Event:
    """Return an event without its turn number, so its line does not repeat the number its move is listed under."""
    if "turn" not in event.data:
        return event
    return Event(event.kind, event.seat, {k: v for k, v in event.data.items() if k != "turn"}, event.private_to)


async def history_page(flow: GameFlow, row: GameRow, page: int) -> tuple[str, int]:
    """Return one page of a game's history and how many pages there are; refuse a page past the end."""
    game = get(row.kind)
    moves = moves_of(row.kind, await flow.db.actions(row.id), row.names, lambda entry: described_by(row, entry))
    if not moves:
        return _("Game #{id} ({title}) has no moves yet.", id=row.id, title=game.title), 1
    pages = len(paged := _pages([move.text() for move in moves]))
    if not 1 <= page <= pages:
        raise UserError(
            ngettext(
                "Game #{id} has {n} page of moves, so there is no page {page}: ask for a page from 1 to {n}.",
                "Game #{id} has {n} pages of moves, so there is no page {page}: ask for a page from 1 to {n}.",
                pages,
                id=row.id,
                page=page,
            )
        )
    header = _(
        "**{title}, game #{id}: moves, page {page} of {pages}**", title=game.title, id=row.id, page=page, pages=pages
    )
    return lines_within([header, *paged[page - 1]]), pages


def _pages(moves: list[str]) -> list[list[str]]:
    """Lay moves out on pages of at most PAGE moves that each fit in one message (with room for the header)."""
    pages: list[list[str]] = [[]]
    size = 0
    for move in moves:
        if pages[-1] and (len(pages[-1]) >= PAGE or size + len(move) + 1 > MESSAGE - 200):
            pages.append([])
            size = 0
        pages[-1].append(move)
        size += len(move) + 1
    return pages


def history_buttons(game_id: int, page: int, pages: int) -> discord.ui.View | None:
    """Return the Previous and Next buttons of a history page, or None when there is one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for way, label, target, emoji in (("p", _("Previous"), page - 1, "◀"), ("n", _("Next"), page + 1, "▶")):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=shorten(label, BUTTON_LABEL),
            emoji=emoji,
            custom_id=f"{HISTORY_PREFIX}:{game_id}:{target}:{way}",
            disabled=not 1 <= target <= pages,
        )
        view.add_item(HistoryButton(button))
    return view


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{HISTORY_PREFIX}:(?P<game>\d+):(?P<page>\d+):(?P<way>[pn])",
):
    """Turn a history message's page, even after a restart."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> HistoryButton:
        """Wrap the pressed button as it came from the message."""
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page the button names in the same message."""
        match = self.template.fullmatch(self.custom_id)
        assert match is not None
        flow = interaction.client.flow  # type: ignore[attr-defined]
        await flow.readers.enter(interaction)
        try:
            row = await flow.db.game(int(match["game"]))
            if row is None or not visible_to(interaction, row):
                raise UserError(_(NOT_FOUND))
            page = int(match["page"])
            text, pages = await history_page(flow, row, page)
            await interaction.response.edit_message(
                content=text, view=history_buttons(row.id, page, pages), allowed_mentions=discord.AllowedMentions.none()
            )
        except Exception as error:
            await report(interaction, error)
