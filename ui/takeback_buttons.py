"""The persistent buttons of takebacks: Accept and Decline under a request, and the offer to ask after a move."""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from i18n import N_, _
from storage.database import Database, GameRow
from ui.errors import UserError, report
from ui.language import Readers
from ui.mentions import command
from ui.text import BUTTON_LABEL, shorten

PREFIX = "floetb"
LABELS = {"accept": N_("Accept"), "decline": N_("Decline"), "offer": N_("Take back my move")}


class Answering(Protocol):
    """What handles a press: the takeback flow (ui/takebacks.py's Takebacks)."""

    async def request(
        self, interaction: discord.Interaction, row: GameRow, *, expected_version: int | None = None
    ) -> None:
        """Ask the others to let the caller take back their last move."""

    async def answer(self, interaction: discord.Interaction, request_id: int, *, accept: bool) -> None:
        """Record one person's Accept or Decline."""


class Host(Protocol):
    """What a pressed takeback button needs of the flow that routes it (ui/flow.py's GameFlow)."""

    @property
    def readers(self) -> Readers:
        """Return who reads which language, to answer the press in its caller's."""

    @property
    def db(self) -> Database:
        """Return the database, to read the game an offer names."""

    @property
    def takebacks(self) -> Answering:
        """Return the takeback flow that handles the press."""


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:(?P<what>accept|decline|offer):(?P<id>\d+)(?::(?P<version>\d+))?(?::(?P<until>\d+))?",
):
    """Route Accept, Decline and the offer to take a move back, even after a restart."""

    def __init__(
        self,
        what: str,
        number: int,
        version: int | None = None,
        *,
        until: int | None = None,
        disabled: bool = False,
    ) -> None:
        """Make the button; an offer names the game's version it was made at and when it runs out (epoch s)."""
        label = shorten(_(LABELS[what]), BUTTON_LABEL)
        style = {
            "accept": discord.ButtonStyle.success,
            "decline": discord.ButtonStyle.danger,
            "offer": discord.ButtonStyle.secondary,
        }[what]
        tail = f":{version}" if version is not None else ""
        tail += f":{until}" if version is not None and until is not None else ""
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:{what}:{number}{tail}", disabled=disabled)
        )
        self.what, self.number, self.version, self.until = what, number, version, until

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TakebackButton:
        """Rebuild the button from its custom_id."""
        version, until = match["version"], match["until"]
        return cls(
            match["what"], int(match["id"]), int(version) if version else None, until=int(until) if until else None
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to the takeback flow and report any refusal privately."""
        flow: Host = interaction.client.flow  # type: ignore[attr-defined]
        await flow.readers.enter(interaction)
        try:
            if self.what == "offer":
                if self.until is not None and flow.db.clock().timestamp() > self.until:
                    raise UserError(
                        _(
                            "This offer has run out: to take your move back, ask with {command}.",
                            command=command("game takeback"),
                        )
                    )
                row = await flow.db.game(self.number)
                if row is None:
                    raise UserError(_("This game no longer exists."))
                await flow.takebacks.request(interaction, row, expected_version=self.version)
            else:
                await flow.takebacks.answer(interaction, self.number, accept=self.what == "accept")
        except Exception as error:
            await report(interaction, error)


def answer_view(request_id: int, *, disabled: bool = False) -> discord.ui.View:
    """Return the Accept / Decline buttons of a request."""
    view = discord.ui.View(timeout=None)
    view.add_item(TakebackButton("accept", request_id, disabled=disabled))
    view.add_item(TakebackButton("decline", request_id, disabled=disabled))
    return view
