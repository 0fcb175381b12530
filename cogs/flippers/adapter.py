"""Connect Flippers to the shared turn flow: board picture, board components and what stays private."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs.flippers.menus import ACTIVATE, DISCARD, DISCARD_BUTTON, HAND_BUTTON, KEY, PLAY_BUTTON, leader_menu
from cogs.flippers.options import activate_options
from cogs.flippers.private import private_items, private_picture, private_text, seats_to_update_privately
from cogs.flippers.routing import route
from cogs.flippers.words import standings_lines
from engine.base import Event, Outcome
from engine.flippers.names import team_of
from engine.flippers.state import LEADERS, OVER, SETUP, FlippersState
from engine.words import join_names
from i18n import _
from render.flippers import alt_text_table, render_table
from ui.adapter import Board, GameAdapter, Picture
from ui.components import ComponentHit, button, select

if TYPE_CHECKING:
    from ui.adapter import Table


IN_PLACE_KINDS = frozenset(
    {"played", "auto", "flip", "bump", "switch", "replace", "turn", "plus", "minus", "block", "fizzle"}
)
"""Events of a play or an activation: they continue the turn on the board already in the channel."""
SETUP_KINDS = frozenset({"leader", "chose"})
"""Events of a Leader placement or a setup discard: the setup goes on in one board message, edited in place."""


UNVERSIONED_TOKENS = frozenset({DISCARD})
"""Tokens whose press stays valid after other seats acted: setup discards are simultaneous and independent."""


class FlippersAdapter(GameAdapter):
    """Connect Flippers to Discord without ever showing a hand or a setup discard in the channel."""

    key = KEY

    def board_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the public table."""
        phase = view["phase"]
        stage = "final" if view["final"] else phase if phase in (SETUP, LEADERS) else f"turn-{view['turn']}"
        return Picture(render_table(view, list(names)), f"flippers-{stage}.png", alt_text_table(view, list(names)))

    def board_items(self, board: Board) -> list[discord.ui.Item[Any]]:
        """Offer the discard button in setup, the play button, or the public activation select."""
        state: FlippersState = board.state
        if state.phase == OVER:
            return []
        gid, ver, off = board.row.id, board.version, board.disabled
        hand = button(gid, ver, HAND_BUTTON, _("Show my hand"), disabled=off)
        if state.phase == LEADERS:
            return [leader_menu(board)]  # nobody holds a card before the Leaders are placed
        if state.phase == SETUP:
            choose = button(
                gid, ver, DISCARD_BUTTON, _("Choose your discards"), style=discord.ButtonStyle.primary, disabled=off
            )
            return [choose, hand]
        if state.played is None:
            play = button(gid, ver, PLAY_BUTTON, _("Play a card…"), style=discord.ButtonStyle.primary, disabled=off)
            return [play, hand]
        options = activate_options(state, state.current, board.names)
        if not options:
            return [hand]
        return [select(gid, ver, ACTIVATE, _("Activate next…"), options, disabled=off), hand]

    turn_closers = frozenset({"turn_start", "award", "game_over"})

    def turn_in_place(self, events: Sequence[Event]) -> bool:
        """Return True for a play, an activation, a Leader placement or a discard: the board already posted goes on."""
        kinds = {e.kind for e in events}
        return bool(kinds & (IN_PLACE_KINDS | SETUP_KINDS)) and "resigned" not in kinds

    def still_in_place(self, game: Any, state: FlippersState) -> bool:
        """Return True while a turn goes on, and through the whole setup: one message shows it all."""
        return state.phase in (LEADERS, SETUP) or game.mid_turn(state, state.current)

    pings_turns = True

    def pings_in_place(self, events: Sequence[Event], state: FlippersState) -> list[int]:
        """Return the next Leader to place, or everyone asked to discard, once, when that becomes due."""
        kinds = {e.kind for e in events}
        if state.phase == LEADERS and "leader_turn" in kinds:
            return [state.current]
        if state.phase == SETUP and "discards_open" in kinds:
            return [s for s in range(state.players) if not state.chosen[s] and not state.resigned[s]]
        return []

    def accepts_stale(self, hit: ComponentHit) -> bool:
        """Return True when a press on an older board version may still apply (setup discards)."""
        return hit.token in UNVERSIONED_TOKENS

    async def on_component(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit
    ) -> None:
        """Route the board's buttons and select, and the private discard and play menus."""
        await route(flow, interaction, board, hit)

    def private_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the seat's own hand."""
        return private_picture(view, names)

    def private_text(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """List the seat's hand with each power's text, its setup discards and what it must do now."""
        return private_text(view, names)

    def private_items(self, board: Board, seat: int) -> list[discord.ui.Item[Any]]:
        """Offer the seat its discard choice in setup, or its hand to play from on its turn."""
        return private_items(board, seat)

    def seats_to_update_privately(self, events: Sequence[Event], state: Any) -> set[int]:
        """Return every seat at the start and when discards open, and each seat that discarded, drew or played."""
        return seats_to_update_privately(events, state)

    def menus_still_live(self, state: FlippersState) -> set[int]:
        """Return the seats still to discard in setup: another's discard leaves their DM menu as it was."""
        if state.phase != SETUP:
            return set()
        return {s for s in range(state.players) if not state.chosen[s] and not state.resigned[s]}

    def congratulations(self, outcome: Outcome, mentions: Sequence[str]) -> str:
        """Congratulate a Team Up win as a team win, by the team's one name, then its players."""
        sides = sorted({s.detail.get("side", s.seat) for s in outcome.standings if s.winner})
        if not outcome.standings or all(s.detail.get("side", s.seat) == s.seat for s in outcome.standings):
            return super().congratulations(outcome, mentions)
        if not sides:
            return _("Nobody wins this time.")
        parts = []
        for side in sides:
            seats = sorted(s.seat for s in outcome.standings if s.detail.get("side", s.seat) == side)
            # TRANSLATORS: a winning Team Up side and its players, e.g. "Team Chinstrap & Emperor (@Ana and @Cy)".
            parts.append(_("{team} ({players})", team=team_of(seats), players=join_names([mentions[s] for s in seats])))
        # TRANSLATORS: {winners} is one or more teams with their players, joined with "and".
        return _("Congratulations {winners}!", winners=join_names(parts))

    def standings_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Return each seat's stash, Food card and Leader points and total; in Team Up, each team first."""
        return standings_lines(outcome, names)
