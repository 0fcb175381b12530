"""Provide /flippers leader, discard, play and activate, the board's menus and the private hand for Flippers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from engine.base import Action, Event, Outcome, Standing
from engine.flippers import GAME
from engine.flippers.cards import CARDS, FOOD, POWER_NAMES, POWER_TEXT, TEAMS, explorer_id, find_card, setup_rule
from engine.flippers.game import leader_spots, open_cells
from engine.flippers.powers import available
from engine.flippers.state import DOWN, LEADERS, OVER, PLAY, SETUP, FlippersState
from engine.flippers.table import DIRECTIONS, WORDS, Cell, aims, label, neighbours, parse_label, step
from engine.words import plural, quote
from render.flippers import alt_text_hand, alt_text_table, render_hand, render_table
from storage.database import ACTIVE, GameRow
from ui.adapter import Board, GameAdapter, Picture, register
from ui.components import (
    MAX_OPTIONS,
    ComponentHit,
    FloeComponent,
    autocomplete,
    button,
    chunked_selects,
    custom_id,
    select,
    view_of,
)
from ui.errors import UserError, not_your_turn
from ui.text import LABEL, shorten

if TYPE_CHECKING:
    from bot import IceFloeBot
    from ui.adapter import Table

KEY = "flippers"
DISCARD_BUTTON, PLAY_BUTTON, HAND_BUTTON = "discard?", "play?", "hand?"
DISCARD, CARD, ROW, CELL, FACE, ACTIVATE = "discard", "card", "row", "cell", "face", "activate"
LEADER, SPOT = "leader", "spot"
NEAR_CELLS = MAX_OPTIONS // len(DIRECTIONS)
"""Open cells offered with their four facings in one select (6 x 4 = 24 options)."""
IN_PLACE_KINDS = frozenset(
    {"played", "auto", "flip", "bump", "switch", "replace", "turn", "plus", "minus", "block", "fizzle"}
)
"""Events of a play or an activation: they continue the turn on the board already in the channel."""
UNVERSIONED_TOKENS = frozenset({DISCARD})
"""Tokens whose press stays valid after other seats acted: setup discards are simultaneous and independent."""
MAX_MENUS = 4
POWER_KEYS = {name.lower(): key for key, name in POWER_NAMES.items()}
Option = tuple[str, str, str]


def _listed(words: Sequence[str]) -> str:
    """Return "A", "A and B" or "A, B and C"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _who(names: Sequence[str], seat: int | None) -> str:
    """Return a seat's player name."""
    if seat is None:
        return "someone"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _power(cid: str) -> str:
    """Return the power name of an Explorer card ("Flip"), or a Food card's name."""
    card = CARDS[cid]
    return card.power_name or card.name


def _card_words(state: FlippersState, cid: str, names: Sequence[str]) -> str:
    """Return how a table card is called in menus: "Krill", "Bob's Flip" or "Bob's face-down card"."""
    card = CARDS[cid]
    if card.kind == FOOD:
        return card.name
    if state.face[cid] == DOWN:
        return f"{_who(names, card.team)}'s face-down card"
    return f"{_who(names, card.team)}'s {card.power_name}"


def _cell_words(state: FlippersState, cell: Cell, names: Sequence[str]) -> str:
    """Return a cell with what it holds: "N13 (Krill)" or "N13 (empty)"."""
    cid = state.cells.get(cell)
    return f"{label(cell)} ({'empty' if cid is None else _card_words(state, cid, names)})"


def aim_words(state: FlippersState, cid: str, cell: Cell, facing: str, names: Sequence[str]) -> str:
    """Say what a card on `cell` facing `facing` would target, e.g. "aims at N13 (Krill)"."""
    targets = [_cell_words(state, spot, names) for spot in aims(CARDS[cid].power, cell, facing)]
    return "aims at " + _listed(targets)


def beside_words(state: FlippersState, cell: Cell, names: Sequence[str]) -> str:
    """Say which table cards an open cell touches, e.g. "beside Krill (N15)"."""
    touching = [
        f"{_card_words(state, state.cells[spot], names)} ({label(spot)})"
        for spot in neighbours(cell)
        if spot in state.cells
    ]
    return "beside " + _listed(touching)


def can_play(state: FlippersState, seat: int | None) -> bool:
    """Return True when `seat` is to play a card from its hand now."""
    return (
        seat is not None
        and state.phase == PLAY
        and state.current == seat
        and state.played is None
        and bool(state.hands[seat])
    )


def must_discard(state: FlippersState, seat: int | None) -> int:
    """Return how many cards `seat` still has to discard in setup (0 when none)."""
    if seat is None or state.phase != SETUP or state.chosen[seat] or state.resigned[seat]:
        return 0
    return setup_rule(state.players)[0]


def to_activate(state: FlippersState, seat: int | None) -> list[str]:
    """Return the table cards `seat` must still activate this turn (empty when it is not its turn)."""
    if seat is None or state.phase != PLAY or state.current != seat or state.played is None:
        return []
    return available(state, seat)


def hand_options(state: FlippersState, seat: int) -> list[Option]:
    """Return (power, card id, power text) for each card in the seat's hand."""
    return [(_power(cid), cid, POWER_TEXT[CARDS[cid].power or ""]) for cid in state.hands[seat]]


def cell_options(state: FlippersState, names: Sequence[str], row: int | None = None) -> list[Option]:
    """Return (label, label, what it touches) for each open cell, optionally on one row only."""
    return [
        (label(cell), label(cell), beside_words(state, cell, names))
        for cell in open_cells(state)
        if row is None or cell[1] == row
    ]


def nearest_cells(state: FlippersState) -> list[Cell]:
    """Return the open cells, those nearest a Food card first (ties in reading order)."""
    foods = [cell for cid, cell in state.where.items() if CARDS[cid].kind == FOOD]

    def distance(cell: Cell) -> int:
        return min((abs(cell[0] - f[0]) + abs(cell[1] - f[1]) for f in foods), default=0)

    return sorted(open_cells(state), key=lambda c: (distance(c), c[1], c[0]))


def spot_options(state: FlippersState, cid: str, cells: Sequence[Cell], names: Sequence[str]) -> list[Option]:
    """Return ("N14 facing north", "N14:N", what it would aim at) for each cell and facing."""
    return [
        (f"{label(cell)} facing {WORDS[d]}", f"{label(cell)}:{d}", aim_words(state, cid, cell, d, names))
        for cell in cells
        for d in DIRECTIONS
    ]


def leader_options(state: FlippersState, names: Sequence[str]) -> list[Option]:
    """Return (cell and the Food it faces, cell, what it touches) for each cell a Leader may take now."""
    options = []
    for cell, facing in leader_spots(state):
        food = state.cells[step(cell, facing)]
        options.append(
            (
                f"{label(cell)} facing {CARDS[food].name}",
                label(cell),
                f"{beside_words(state, cell, names)}, facing {WORDS[facing]}",
            )
        )
    return options


def facing_options(state: FlippersState, cid: str, cell: Cell, names: Sequence[str]) -> list[Option]:
    """Return (direction word, N/E/S/W, what it would aim at) for the four facings."""
    return [(f"{WORDS[d].title()} ({d})", d, aim_words(state, cid, cell, d, names)) for d in DIRECTIONS]


def activate_options(state: FlippersState, seat: int | None, names: Sequence[str]) -> list[Option]:
    """Return (power and cell, card id, what it aims at) for each card still to activate."""
    options = []
    for cid in to_activate(state, seat):
        cell = state.where[cid]
        options.append((f"{_power(cid)} at {label(cell)}", cid, aim_words(state, cid, cell, state.facing[cid], names)))
    return options


def discard_options(state: FlippersState, seat: int | None) -> list[tuple[str, str]]:
    """Return ("Flip + Bump", "c-flip,c-bump") for every legal setup discard of `seat`."""
    if not must_discard(state, seat):
        return []
    assert seat is not None
    combos = [a["cards"] for a in GAME.legal_actions(state, seat) if a["type"] == "discard"]
    return [(" + ".join(_power(c) for c in combo), ",".join(combo)) for combo in combos]


def hand_card(state: FlippersState, seat: int | None, ref: str) -> str:
    """Return the id of the seat's hand card `ref` names (id, name or power), or `ref` unchanged."""
    text = ref.strip()
    if seat is None:
        return text
    power = POWER_KEYS.get(text.lower())
    cid = explorer_id(seat, power) if power else find_card(text)
    return cid if cid in state.hands[seat] else text


def table_card(state: FlippersState, seat: int | None, ref: str) -> str:
    """Return the id of the seat's table card `ref` names by power, or `ref` unchanged (id, name or cell)."""
    text = ref.strip()
    power = POWER_KEYS.get(text.lower())
    if seat is None or power is None:
        return text
    return explorer_id(seat, power)


NO_DISCARD = "Name the card(s) to discard, separated by commas, e.g. `Flip, Bump` (the menu lists your hand)."


def discard_refs(state: FlippersState, seat: int | None, text: str) -> list[str]:
    """Split a comma-separated list of cards and resolve each against the seat's hand; refuse an empty list."""
    refs = [hand_card(state, seat, part) for part in text.split(",") if part.strip()]
    if not refs:
        raise UserError(NO_DISCARD)
    return refs


def discard_note(cards: Sequence[str]) -> str:
    """Return the private confirmation of a setup discard."""
    words = [_power(c) if c in CARDS else c for c in cards]
    return f"You discarded {_listed(words)}. Nobody else learns which; the board is updated in the channel."


def discard_menu(board: Board, seat: int) -> FloeComponent:
    """Return the select of the seat's hand that takes exactly as many cards as setup requires."""
    state: FlippersState = board.state
    count = must_discard(state, seat)
    options = [
        discord.SelectOption(label=shorten(power, LABEL), value=cid, description=shorten(text, LABEL))
        for power, cid, text in hand_options(state, seat)
    ]
    return FloeComponent(
        discord.ui.Select(
            custom_id=custom_id(board.row.id, board.version, DISCARD),
            placeholder=f"Discard {plural(count, 'card')}…",
            min_values=count,
            max_values=count,
            options=options,
            disabled=board.disabled,
        )
    )


def leader_menu(board: Board) -> FloeComponent:
    """Return the public select of the cells where the seat to act may place its Leader."""
    options = leader_options(board.state, board.names)
    who = _who(board.names, board.state.current)
    return select(board.row.id, board.version, LEADER, f"{who}: place your Leader…", options, disabled=board.disabled)


def card_menu(board: Board, seat: int) -> FloeComponent:
    """Return the select of the seat's hand that starts playing a card."""
    options = hand_options(board.state, seat)
    return select(board.row.id, board.version, CARD, "Play which card…", options, disabled=board.disabled)


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
        hand = button(gid, ver, HAND_BUTTON, "Show my hand", disabled=off)
        if state.phase == LEADERS:
            return [leader_menu(board), hand]
        if state.phase == SETUP:
            choose = button(
                gid, ver, DISCARD_BUTTON, "Choose your discards", style=discord.ButtonStyle.primary, disabled=off
            )
            return [choose, hand]
        if state.played is None:
            play = button(gid, ver, PLAY_BUTTON, "Play a card…", style=discord.ButtonStyle.primary, disabled=off)
            return [play, hand]
        options = activate_options(state, state.current, board.names)
        if not options:
            return [hand]
        return [select(gid, ver, ACTIVATE, "Activate next…", options, disabled=off), hand]

    turn_closers = frozenset({"turn_start", "award", "game_over"})

    def turn_in_place(self, events: Sequence[Event]) -> bool:
        """Return True for a play or an activation: the turn goes on in the board message already posted."""
        kinds = {e.kind for e in events}
        return bool(kinds & IN_PLACE_KINDS) and "resigned" not in kinds

    def accepts_stale(self, hit: ComponentHit) -> bool:
        """Return True when a press on an older board version may still apply (setup discards)."""
        return hit.token in UNVERSIONED_TOKENS

    async def on_component(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit
    ) -> None:
        """Route the board's buttons and select, and the private discard and play menus."""
        kind, _, arg = hit.token.partition("#")[0].partition(":")
        if kind == HAND_BUTTON:
            await flow.show_hand(interaction, board.row)
        elif kind == LEADER:
            self._placer(interaction, board)
            action = {"type": "leader", "cell": _one(hit)}
            await flow.act(interaction, board.row, action, expected_version=hit.version)
        elif kind == DISCARD_BUTTON:
            seat = self._chooser(interaction, board)
            count = must_discard(board.state, seat)
            text = (
                f"Choose {plural(count, 'card')} to set aside for the whole game. "
                "Only you see this menu, and nobody learns what you discard."
            )
            await _reply(interaction, text, [discard_menu(board, seat)])
        elif kind == DISCARD:
            self._chooser(interaction, board)
            if not hit.values:
                raise UserError(NO_DISCARD)
            action = {"type": "discard", "cards": list(hit.values)}
            await flow.act(interaction, board.row, action, private_note=discard_note(hit.values))
        elif kind == PLAY_BUTTON:
            seat = self._player(interaction, board)
            hand = board.state.hands[seat]
            if len(hand) == 1:
                await self._offer_spots(interaction, board, hand[0])
            else:
                text = "Which card do you play? Only you see your hand."
                await _reply(interaction, text, [card_menu(board, seat)])
        elif kind == CARD:
            await self._offer_spots(interaction, board, _one(hit))
        elif kind == SPOT:
            cell, _, facing = _one(hit).partition(":")
            action: Action = {"type": "play", "card": arg, "cell": cell, "facing": facing}
            self._held(interaction, board, arg)
            await flow.act(interaction, board.row, action, expected_version=hit.version)
        elif kind == ROW:
            await self._offer_cells(interaction, board, arg, _row(_one(hit)))
        elif kind == CELL:
            await self._offer_facings(interaction, board, arg, _one(hit))
        elif kind == FACE:
            await self._play(flow, interaction, board, hit, arg)
        elif kind == ACTIVATE:
            action = {"type": "activate", "card": _one(hit)}
            await flow.act(interaction, board.row, action, expected_version=hit.version)
        else:
            raise UserError("That menu is not part of this game.")

    def _seat(self, interaction: discord.Interaction, board: Board) -> int:
        """Return the presser's seat, or refuse."""
        seat = board.row.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not playing in this game.")
        if board.state.resigned[seat]:
            raise UserError("You have resigned from this game.")
        return seat

    def _chooser(self, interaction: discord.Interaction, board: Board) -> int:
        """Return the presser's seat if it still has to choose its setup discards, or refuse."""
        seat = self._seat(interaction, board)
        if board.state.phase != SETUP:
            raise UserError("Setup is over: discards are chosen only before the first turn.")
        if not must_discard(board.state, seat):
            raise UserError("You have already chosen your discards: waiting for the others.")
        return seat

    def _placer(self, interaction: discord.Interaction, board: Board) -> int:
        """Return the presser's seat if it is to place its Leader now, or refuse."""
        seat = self._seat(interaction, board)
        state: FlippersState = board.state
        if state.phase != LEADERS:
            raise UserError("The Leaders are all placed.")
        if state.current != seat:
            raise UserError(f"It is {_who(board.names, state.current)}'s turn to place their Leader.")
        return seat

    def _player(self, interaction: discord.Interaction, board: Board) -> int:
        """Return the presser's seat if it is to play a card now, or refuse."""
        seat = self._seat(interaction, board)
        state: FlippersState = board.state
        if state.phase == LEADERS:
            raise UserError("Setup is not finished: the Leaders are being placed.")
        if state.phase == SETUP:
            raise UserError("Setup is not finished: everyone must choose their discards first.")
        if state.current != seat:
            raise UserError(not_your_turn(board.names, board.game.to_act(state)))
        if state.played is not None:
            raise UserError("You have already played a card this turn: activate your remaining cards.")
        return seat

    def _held(self, interaction: discord.Interaction, board: Board, cid: str) -> int:
        """Return the presser's seat if it may play card `cid` from its hand now, or refuse."""
        seat = self._player(interaction, board)
        if cid not in board.state.hands[seat]:
            raise UserError("That card is no longer in your hand.")
        return seat

    async def _offer_spots(self, interaction: discord.Interaction, board: Board, cid: str) -> None:
        """Ask privately where the chosen card goes and which way it faces, in one menu for the nearest cells.

        The open cells nearest a Food card come with their four facings in one select; any other cell is
        picked from the menus below, then its facing.
        """
        self._held(interaction, board, cid)
        state: FlippersState = board.state
        gid, ver, power = board.row.id, board.version, _power(cid)
        cells = nearest_cells(state)
        near, rest = cells[:NEAR_CELLS], cells[NEAR_CELLS:]
        menus = [
            select(gid, ver, f"{SPOT}:{cid}", f"Play {power} on… facing…", spot_options(state, cid, near, board.names))
        ]
        text = f"Where do you play {power}, and which way does its arrow point? Nearest the Food first."
        if rest:
            others = [
                (label(c), label(c), beside_words(state, c, board.names))
                for c in sorted(rest, key=lambda c: (c[1], c[0]))
            ]
            room = MAX_MENUS - 1
            if len(others) <= room * MAX_OPTIONS:
                menus += chunked_selects(gid, ver, f"{CELL}:{cid}", "Another cell…", others, max_menus=room)
            else:
                rows: dict[int, int] = {}
                for cell in rest:
                    rows[cell[1]] = rows.get(cell[1], 0) + 1
                by_row = [(f"Row {r}", str(r), plural(n, "open cell")) for r, n in sorted(rows.items())]
                menus += chunked_selects(
                    gid, ver, f"{ROW}:{cid}", "Another cell: its row first…", by_row, max_menus=room
                )
            text += " Or pick another cell below."
        await _reply(interaction, text, menus)

    async def _offer_cells(
        self, interaction: discord.Interaction, board: Board, cid: str, row: int | None = None
    ) -> None:
        """Ask privately where the chosen card goes: the open cells, or first their row when there are many."""
        self._held(interaction, board, cid)
        gid, ver, power = board.row.id, board.version, _power(cid)
        options = cell_options(board.state, board.names, row)
        if not options:
            raise UserError("No open cell on that row: pick another.")
        if len(options) <= MAX_MENUS * MAX_OPTIONS:
            menus = chunked_selects(gid, ver, f"{CELL}:{cid}", f"Play {power} on…", options, max_menus=MAX_MENUS)
            text = f"Where do you play {power}? Open cells touch a card on the table."
        else:
            rows: dict[int, int] = {}
            for cell in open_cells(board.state):
                rows[cell[1]] = rows.get(cell[1], 0) + 1
            by_row = [(f"Row {r}", str(r), plural(n, "open cell")) for r, n in rows.items()]
            menus = chunked_selects(gid, ver, f"{ROW}:{cid}", "Pick a row first…", by_row, max_menus=MAX_MENUS)
            text = f"Where do you play {power}? There are many open cells: pick the row first."
        await _reply(interaction, text, list(menus))

    async def _offer_facings(self, interaction: discord.Interaction, board: Board, cid: str, where: str) -> None:
        """Ask privately which way the chosen card faces, saying what each facing would aim at."""
        self._held(interaction, board, cid)
        cell = parse_label(where)
        if cell is None or label(cell) not in {label(c) for c in open_cells(board.state)}:
            raise UserError(f"{where} is not an open cell any more: start again from the newest board.")
        options = facing_options(board.state, cid, cell, board.names)
        token, power = f"{FACE}:{cid}:{label(cell)}", _power(cid)
        menu = select(board.row.id, board.version, token, f"{power} on {label(cell)} faces…", options)
        await _reply(interaction, f"{power} on {label(cell)}: which way does its arrow point?", [menu])

    async def _play(
        self, flow: Table, interaction: discord.Interaction, board: Board, hit: ComponentHit, arg: str
    ) -> None:
        """Play the chosen card: the board, now showing it, is posted in the game's channel."""
        cid, _, cell = arg.partition(":")
        action: Action = {"type": "play", "card": cid, "cell": cell, "facing": _one(hit)}
        await flow.act(interaction, board.row, action, expected_version=hit.version)

    def private_picture(self, view: dict[str, Any], names: Sequence[str]) -> Picture:
        """Render the seat's own hand."""
        return Picture(render_hand(view, list(names)), "flippers-hand.png", alt_text_hand(view, list(names)))

    def private_text(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """List the seat's hand with each power's text, its setup discards and what it must do now."""
        seat = view["you"]
        info = view["seats"][seat]
        lines = [f"**Your hand** ({info['team']}, only you can see it)"]
        lines += [f"- **{c['power_name']}**: {c['text']}" for c in view["hand"]]
        if not view["hand"]:
            lines.append("- no cards in hand")
        extra = f"Deck: {plural(info['deck_size'], 'card')} left."
        if view["discarded_cards"]:
            extra += " Set aside: " + ", ".join(c["power_name"] for c in view["discarded_cards"]) + "."
        lines.append(extra)
        count = view["must_discard"]
        if count:
            lines.append(
                f"**Choose {plural(count, 'card')} to discard** for the whole game: use the menu below, "
                "the board's *Choose your discards* button or `/flippers discard`. Nobody learns which."
            )
        elif view["phase"] == LEADERS and not info["resigned"]:
            first = _who(names, view["first"])
            if view["current"] == seat:
                lines.append(
                    "**Your turn to place your Leader** beside a Food card, facing it: use the board's menu or"
                    f" `/flippers leader`. {first} plays first."
                )
            else:
                lines.append(f"The Leaders are being placed ({first} plays first); your discards come next.")
        elif view["phase"] == SETUP and not info["resigned"]:
            lines.append("Your discards are chosen: waiting for the others.")
        elif view["current"] == seat and view["played"] is None and view["hand"]:
            lines.append(
                "**Your turn:** play a card with the menu below, the board's *Play a card…* button or `/flippers play`."
            )
        return "\n".join(lines)

    def private_items(self, board: Board, seat: int) -> list[discord.ui.Item[Any]]:
        """Offer the seat its discard choice in setup, or its hand to play from on its turn."""
        if must_discard(board.state, seat):
            return [discard_menu(board, seat)]
        if can_play(board.state, seat):
            return [card_menu(board, seat)]
        return []

    def seats_to_update_privately(self, events: Sequence[Event], state: Any) -> set[int]:
        """Return every seat at the start and when discards open, and each seat that discarded, drew or played."""
        seats = {e.private_to for e in events if e.kind in ("discarded", "drew") and e.private_to is not None}
        seats |= {e.seat for e in events if e.kind == "played" and e.seat is not None}
        if any(e.kind in ("game_started", "discards_open") for e in events):
            seats |= {s for s in range(state.players) if not state.resigned[s]}
        return seats

    def standings_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Return each seat's stash, Food card and Leader points and total; in Team Up, each team first."""
        sides: dict[int, list[Standing]] = {}
        for s in outcome.standings:
            sides.setdefault(s.detail.get("side", s.seat), []).append(s)
        if all(len(members) == 1 for members in sides.values()):
            return [
                f"{s.rank}. {'🏆 ' if s.winner else ''}{_seat_name(s, names)}: {plural(s.score, 'point')}"
                f" = {_breakdown(s)}"
                for s in outcome.standings
            ]
        lines = []
        for members in sides.values():
            trophy = "🏆 " if any(s.winner for s in members) else ""
            team = " + ".join(_who(names, s.seat) for s in members)
            rank = min(s.rank for s in members)
            lines.append(f"{rank}. {trophy}Team {team}: {plural(members[0].score, 'point')} together")
            lines += [f"  · {_seat_name(s, names)}: {s.detail.get('total', 0)} = {_breakdown(s)}" for s in members]
        return lines


def _seat_name(s: Standing, names: Sequence[str]) -> str:
    """Return "Ana (Chinstrap)", marked when the seat resigned."""
    gone = ", resigned" if s.detail.get("resigned") else ""
    return f"{_who(names, s.seat)} ({TEAMS[s.seat]['short']}{gone})"


def _breakdown(s: Standing) -> str:
    """Return a seat's points itemised: stash, Food cards and Leader."""
    d = s.detail
    return f"stash {d.get('stash', 0)} + Food cards {d.get('food', 0)} + Leader {d.get('leader', 0)}"


def _one(hit: ComponentHit) -> str:
    """Return the single value picked in a menu, or refuse."""
    if not hit.values:
        raise UserError("Pick an option from the menu.")
    return hit.values[0]


def _row(value: str) -> int:
    """Return a row number picked in the row menu."""
    try:
        return int(value)
    except ValueError:
        raise UserError(f"{quote(value)} is not a row.") from None


async def _reply(interaction: discord.Interaction, content: str, items: list[FloeComponent]) -> None:
    """Answer privately: update the private menu that was used, or open a new private message."""
    view = view_of(items)
    assert view is not None
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(content=content, view=view)
    else:
        await interaction.response.send_message(content, view=view, ephemeral=True)


class FlippersCog(commands.Cog):
    """Let players discard, play and activate Flippers cards with slash commands."""

    flippers = app_commands.Group(name="flippers", description="Flippers moves", guild_only=True)

    def __init__(self, bot: IceFloeBot) -> None:
        self.bot = bot
        self.flow = bot.flow

    async def _mine(self, interaction: discord.Interaction) -> tuple[FlippersState, int, list[str]] | None:
        """Return the state, the caller's seat and the names of this channel's active Flippers game, or None."""
        row = await self.flow.db.open_game_in(interaction.channel_id or 0)
        if row is None or row.kind != KEY or row.status != ACTIVE:
            return None
        seat = row.seat_of(interaction.user.id)
        if seat is None:
            return None
        try:
            _, state = self.flow.live(row)
        except UserError:
            return None
        return state, seat, row.names

    async def _game(self, interaction: discord.Interaction) -> tuple[GameRow, FlippersState, int | None]:
        """Return this channel's active Flippers game, its state and the caller's seat, or refuse."""
        row = await self.flow.game_here(interaction)
        if row.kind != KEY:
            raise UserError("The game in this channel is not Flippers.")
        if row.status != ACTIVE:
            raise UserError("The game has not started yet: the host starts it with `/game start`.")
        _, state = self.flow.live(row)
        return row, state, row.seat_of(interaction.user.id)

    @flippers.command(name="leader", description="Setup: place your Leader beside a Food card, facing it")
    @app_commands.describe(cell="An empty cell beside a Food card, like N14")
    async def leader(self, interaction: discord.Interaction, cell: str) -> None:
        """Place the caller's Leader; the board is posted publicly."""
        row, _, _ = await self._game(interaction)
        await self.flow.act(interaction, row, {"type": "leader", "cell": cell.strip()})

    @leader.autocomplete("cell")
    async def leader_cells(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the cells where the caller may place its Leader, when it is its turn to."""
        mine = await self._mine(interaction)
        if mine is None or mine[0].phase != LEADERS or mine[0].current != mine[1]:
            return []
        return _choices(
            [(f"{name} ({beside})", cell) for name, cell, beside in leader_options(mine[0], mine[2])], current
        )

    @flippers.command(name="discard", description="Setup: set aside cards from your hand (only you see the answer)")
    @app_commands.describe(cards="The card(s) to discard; separate several with commas")
    async def discard(self, interaction: discord.Interaction, cards: str) -> None:
        """Discard privately in setup."""
        row, state, seat = await self._game(interaction)
        picked = discard_refs(state, seat, cards)
        action = {"type": "discard", "cards": picked}
        await self.flow.act(interaction, row, action, private_note=discard_note(picked))

    @flippers.command(name="play", description="Play a card from your hand beside a card on the table")
    @app_commands.describe(
        card="A card in your hand", cell="An empty cell next to a card, like N14", facing="Where its arrow points"
    )
    async def play(self, interaction: discord.Interaction, card: str, cell: str, facing: str) -> None:
        """Play a card; the board, now showing it, is posted publicly."""
        row, state, seat = await self._game(interaction)
        action = {"type": "play", "card": hand_card(state, seat, card), "cell": cell.strip(), "facing": facing.strip()}
        await self.flow.act(interaction, row, action)

    @flippers.command(name="activate", description="Activate one of your face-up cards this turn")
    @app_commands.describe(card="A card still to activate, by name or cell")
    async def activate(self, interaction: discord.Interaction, card: str) -> None:
        """Activate a card on the table."""
        row, state, seat = await self._game(interaction)
        await self.flow.act(interaction, row, {"type": "activate", "card": table_card(state, seat, card)})

    @discard.autocomplete("cards")
    async def discard_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer every legal choice of discards from the caller's hand."""
        mine = await self._mine(interaction)
        return [] if mine is None else _choices(discard_options(mine[0], mine[1]), current)

    @play.autocomplete("card")
    async def play_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the caller's hand when it is to play."""
        mine = await self._mine(interaction)
        if mine is None or not can_play(mine[0], mine[1]):
            return []
        options = [(f"{power}: {text}", cid) for power, cid, text in hand_options(mine[0], mine[1])]
        return _choices(options, current)

    @play.autocomplete("cell")
    async def play_cells(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the empty cells next to a card, starting with what was typed."""
        mine = await self._mine(interaction)
        if mine is None or not can_play(mine[0], mine[1]):
            return []
        typed = current.replace(" ", "").upper()
        options = [(f"{cell} ({beside})", cell) for cell, _, beside in cell_options(mine[0], mine[2])]
        return _choices([o for o in options if o[1].startswith(typed)], "")

    @play.autocomplete("facing")
    async def play_facings(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer N, E, S and W, saying what each would aim at once the card and cell are known."""
        mine = await self._mine(interaction)
        if mine is None or not can_play(mine[0], mine[1]):
            return []
        state, seat, names = mine
        cid = hand_card(state, seat, str(getattr(interaction.namespace, "card", "") or ""))
        cell = parse_label(str(getattr(interaction.namespace, "cell", "") or ""))
        if cid in state.hands[seat] and cell is not None and cell not in state.cells:
            options = [(f"{word}: {aim}", d) for word, d, aim in facing_options(state, cid, cell, names)]
        else:
            options = [(f"{WORDS[d].title()} ({d})", d) for d in DIRECTIONS]
        return _choices(options, current)

    @activate.autocomplete("card")
    async def activate_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer only the caller's cards still to activate this turn."""
        mine = await self._mine(interaction)
        if mine is None:
            return []
        options = [(f"{name}: {aim}", cid) for name, cid, aim in activate_options(*mine)]
        return _choices(options, current)


def _choices(options: Sequence[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Return up to 25 autocomplete choices whose label or value contains what was typed."""
    return autocomplete(options, current)


async def setup(bot: IceFloeBot) -> None:
    """Register the Flippers adapter and add the /flippers commands."""
    register(FlippersAdapter())
    await bot.add_cog(FlippersCog(bot))
