"""Apply the rules of Hey, That's My Fish! to a game state: turns, legal actions, slides, stranding, results, saves.

Cells are bits of an int: `ice` holds every cell with a tile, `occ` every cell with a penguin (engine/fish/tables.py
builds the lookup tables, engine/fish/state.py holds the state). Labels such as "B3" appear only where actions come
in and events and views go out; engine/fish/text.py words them for players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import Action, Event, Game, IllegalAction, OptionSpec, Outcome, Standing
from engine.fish.board import DATA, deal
from engine.fish.rules import rules_text
from engine.fish.saves import dump, load
from engine.fish.state import OVER, PLACEMENT, PLAY, FishState
from engine.fish.tables import (
    AFTER,
    ALL,
    BIT,
    BOARD,
    CHUNK_MASK,
    INDEX,
    LABELS,
    MOVE_GROUPS,
    NEAR_MASKS,
    NEIGHBOUR_MASKS,
    ONE_DIGITS,
    PATHS,
    PLACE_CHUNKS,
    PLACEMENT_FISH,
    RAYS,
    SharedAction,
    destinations,
)
from engine.fish.text import describe, status, tiebreak
from engine.words import quote
from i18n import N_, _, ngettext, pgettext
from i18n.commands import command_path

__all__ = ["INDEX", "LABELS", "OVER", "PLACEMENT", "PLAY", "RAYS", "FishGame", "FishState"]
"""The board tables and the state are re-exported here for the modules that import them from the rules."""


class FishGame(Game[FishState]):
    """Implement Hey, That's My Fish! for 2-4 players."""

    key = "fish"
    min_players = 2
    max_players = 4
    schema_version = 2
    options = (OptionSpec("balanced", N_("Re-deal until 3-fish tiles never touch and every row has a rich tile")),)

    @property
    def title(self) -> str:
        """Return the title in the current language: the published one where there is one."""
        return pgettext("game title", "Hey, That's My Fish!")

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> FishState:
        """Deal the board and hand each seat its penguins to place."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                _("{title} needs {low}-{high} players.", title=self.title, low=self.min_players, high=self.max_players)
            )
        balanced = bool(options.get("balanced", False))
        each = DATA["penguins_per_player"][str(players)]
        tiles = deal(seed, balanced)
        return FishState(
            players=players,
            seed=seed,
            balanced=balanced,
            tiles=tiles,
            penguins=[[] for _ in range(players)],
            to_place=[each] * players,
            collected=[[] for _ in range(players)],
            resigned=[False] * players,
            ice=ALL,  # every cell starts with a tile
            occ=0,
            ones=int(bytes(reversed(tiles)).translate(ONE_DIGITS), 2),
        )

    # -- whose turn ---------------------------------------------------------------------------------

    def to_act(self, state: FishState) -> list[int]:
        """Return the seat to place or move, or nobody once the game is over."""
        return [] if state.phase == OVER else [state.current]

    def _next_seat(self, state: FishState, after: int) -> int | None:
        """Return the next seat clockwise that still has something to do."""
        players, resigned = state.players, state.resigned
        waiting = state.to_place if state.phase == PLACEMENT else state.penguins if state.phase == PLAY else None
        if waiting is None:
            return None
        for step in range(1, players + 1):
            seat = (after + step) % players
            if waiting[seat] and not resigned[seat]:
                return seat
        return None

    # -- legal actions --------------------------------------------------------------------------

    def moves(self, state: FishState, seat: int) -> list[tuple[int, int]]:
        """Return every (from, to) cell pair `seat` may move now, in the order of `legal_actions`."""
        if state.phase != PLAY or seat != state.current:
            return []
        free = state.ice & ~state.occ
        return [(src, dst) for src in sorted(state.penguins[seat]) for dst in destinations(src, free)]

    def legal_actions(self, state: FishState, seat: int) -> list[Action]:
        """List every placement or move the seat may make now (shared, read-only action dicts)."""
        if state.phase == OVER or seat != state.current:
            return []
        out: list[Action] = []
        if state.phase == PLACEMENT:
            spots = state.ones & ~state.occ
            for base, table in PLACE_CHUNKS:
                out += table[spots >> base & CHUNK_MASK]
            return out
        free = state.ice & ~state.occ
        pens = state.penguins[seat]
        for src in sorted(pens) if len(pens) > 1 else pens:
            for mask, table in MOVE_GROUPS[src]:
                out += table[free & mask]
        return out

    def _cell(self, label: Any) -> int:
        """Return the cell index of a label such as "B3"; raise IllegalAction if there is none."""
        index = INDEX.get(label) if isinstance(label, str) else None
        if index is None and isinstance(label, str):
            index = INDEX.get(label.strip().upper())
        if index is None:
            raise IllegalAction(
                _("There is no tile {typed} on the board: use a label like A1 to H8.", typed=quote(label))
            )
        return index

    # -- apply ----------------------------------------------------------------------------------

    def apply(self, state: FishState, seat: int, action: Action) -> list[Event]:
        """Place or move a penguin for `seat`, then remove stuck penguins and pass the turn."""
        phase = state.phase
        if type(action) is SharedAction and seat == state.current and phase != OVER and not state.resigned[seat]:
            cells = action.cells
            if len(cells) == 2 and phase == PLAY:
                return self._slide(state, seat, cells[0], cells[1])
            if len(cells) == 1 and phase == PLACEMENT:
                return self._place(state, seat, cells[0])
        if phase == OVER:
            raise IllegalAction(_("The game is over."))
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalAction(_("You are not playing in this game."))
        if seat != state.current:
            raise IllegalAction(_("It is not your turn."))
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "move":
            if state.phase != PLAY:
                raise IllegalAction(
                    _("Penguins are still being placed: use {command} first.", command=command_path("fish place"))
                )
            return self._slide(state, seat, self._cell(action.get("from")), self._cell(action.get("to")))
        if kind == "place":
            if state.phase != PLACEMENT:
                raise IllegalAction(
                    _("Placement is over: move a penguin with {command}.", command=command_path("fish move"))
                )
            return self._place(state, seat, self._cell(action.get("tile")))
        raise IllegalAction(_("That is not an action in this game."))

    def _place(self, state: FishState, seat: int, cell: int) -> list[Event]:
        """Put a penguin on a free 1-fish tile for the seat to act in the placement phase."""
        label = LABELS[cell]
        if state.occ >> cell & 1:
            raise IllegalAction(_("{tile} already has a penguin on it.", tile=label))
        if state.tiles[cell] != PLACEMENT_FISH:
            raise IllegalAction(
                ngettext(
                    "{tile} has {n} fish: penguins start on {start}-fish tiles.",
                    "{tile} has {n} fish: penguins start on {start}-fish tiles.",
                    state.tiles[cell],
                    tile=label,
                    start=PLACEMENT_FISH,
                )
            )
        state.penguins[seat].append(cell)
        state.occ |= BIT[cell]
        state.to_place[seat] -= 1
        state.turn += 1
        state.last = {"seat": seat, "to": label}
        events = [Event("place", seat, {"tile": label})]
        nxt = self._next_seat(state, seat)
        if nxt is None:
            state.phase = PLAY
            events.append(Event("play_begins"))
            events += self._remove_stuck(state, state.occ)
            return events + self._advance(state, seat)
        state.current = nxt
        return events

    def play(self, state: FishState, seat: int, src: int, dst: int) -> list[Event]:
        """Slide `seat`'s penguin from cell `src` to cell `dst` and collect the tile it left (cells, not labels)."""
        if state.phase != PLAY:
            raise IllegalAction(
                _("Penguins are still being placed: use {command} first.", command=command_path("fish place"))
            )
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalAction(_("You are not playing in this game."))
        if seat != state.current:
            raise IllegalAction(_("It is not your turn."))
        return self._slide(state, seat, src, dst)

    def _slide(self, state: FishState, seat: int, src: int, dst: int) -> list[Event]:
        """Check and make a slide for the seat to act in the play phase."""
        pens = state.penguins[seat]
        if src not in pens:
            raise IllegalAction(_("You have no penguin on {tile}.", tile=LABELS[src]))
        path = PATHS[src].get(dst)
        ice, occ = state.ice, state.occ
        if path is None or path & ice & ~occ != path:
            if dst == src:
                raise IllegalAction(_("A penguin has to move at least one tile."))
            raise IllegalAction(self._why_not(state, src, dst))
        tiles = state.tiles
        fish = tiles[src]
        tiles[src] = 0
        gone = ~BIT[src]
        ice = state.ice = ice & gone
        state.ones &= gone
        occ = state.occ = occ & gone | BIT[dst]
        state.collected[seat].append(fish)
        pens[pens.index(src)] = dst
        state.turn += 1
        turn = state.moves = state.moves + 1
        start, end = LABELS[src], LABELS[dst]
        state.last = {"seat": seat, "from": start, "to": end}
        events = [Event("move", seat, {"from": start, "to": end, "fish": fish, "turn": turn})]
        # Only penguins on or beside the two cells that changed can have lost their last move.
        events += self._remove_stuck(state, (NEIGHBOUR_MASKS[src] | NEAR_MASKS[dst]) & occ)
        penguins, resigned = state.penguins, state.resigned
        for nxt in AFTER[state.players][seat]:
            if penguins[nxt] and not resigned[nxt]:
                if resigned.count(False) < 2:
                    break
                state.current = nxt
                return events
        return events + self._finish(state)

    def _why_not(self, state: FishState, src: int, dst: int) -> str:
        """Explain in a player's words why a penguin cannot reach `dst`."""
        tiles, occ = state.tiles, state.occ
        if tiles[dst] == 0:
            return _("{tile} is open water.", tile=LABELS[dst])
        if occ >> dst & 1:
            return _("{tile} already has a penguin on it.", tile=LABELS[dst])
        for ray in RAYS[src]:
            if dst in ray:
                for step in ray[: ray.index(dst)]:
                    if tiles[step] == 0:
                        return _(
                            "The path to {tile} crosses open water at {water}.", tile=LABELS[dst], water=LABELS[step]
                        )
                    if occ >> step & 1:
                        return _(
                            "The path to {tile} is blocked by the penguin on {blocker}.",
                            tile=LABELS[dst],
                            blocker=LABELS[step],
                        )
        return _(
            "{start} to {tile} is not a straight line along one of the six hex directions.",
            start=LABELS[src],
            tile=LABELS[dst],
        )

    def _remove_stuck(self, state: FishState, suspects: int) -> list[Event]:
        """Lift every penguin among the `suspects` bits with no legal move; its owner collects the tile beneath it."""
        free = state.ice & ~state.occ
        stuck = 0
        while suspects:
            low = suspects & -suspects
            suspects ^= low
            if not NEIGHBOUR_MASKS[low.bit_length() - 1] & free:
                stuck |= low
        return self._lift(state, stuck) if stuck else []

    def _lift(self, state: FishState, stuck: int) -> list[Event]:
        """Take the penguins on the `stuck` bits off the board, each owner collecting the tile beneath.

        Penguins are lifted in seat order, each seat's in the order they were placed.
        """
        tiles = state.tiles
        events: list[Event] = []
        lifted = []
        for seat, pens in enumerate(state.penguins):
            for cell in [c for c in pens if stuck >> c & 1]:
                fish = tiles[cell]
                tiles[cell] = 0
                state.collected[seat].append(fish)
                pens.remove(cell)
                label = LABELS[cell]
                events.append(Event("stranded", seat, {"tile": label, "fish": fish}))
                lifted.append({"seat": seat, "tile": label})
                if not pens:
                    events.append(Event("out", seat))
        gone = ~stuck
        state.ice &= gone
        state.ones &= gone
        state.occ &= gone
        if state.last is not None:
            state.last = {**state.last, "stranded": lifted}
        return events

    def _advance(self, state: FishState, after: int) -> list[Event]:
        """Pass the turn clockwise, or end the game when no one can move."""
        nxt = self._next_seat(state, after % state.players)
        if nxt is None or state.resigned.count(False) < 2:
            return self._finish(state)
        state.current = nxt
        return []

    def _finish(self, state: FishState) -> list[Event]:
        """End the game; uncollected tiles go back to the box."""
        state.phase = OVER
        state.current = -1
        reason = "resigned" if state.resigned.count(False) < 2 else "stuck"
        return [Event("game_over", None, {"winners": self.outcome(state).winners, "reason": reason})]

    def resign(self, state: FishState, seat: int) -> list[Event]:
        """Take a seat's penguins off the board (their tiles stay as ice) and skip it from now on."""
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalAction(_("You are not playing in this game."))
        state.resigned[seat] = True
        for cell in state.penguins[seat]:
            state.occ &= ~BIT[cell]
        state.penguins[seat] = []
        state.to_place[seat] = 0
        events = [Event("resign", seat)]
        if seat == state.current or state.players - sum(state.resigned) < 2:
            if state.phase == PLACEMENT and self._next_seat(state, seat) is None:
                state.phase = PLAY
                events += self._remove_stuck(state, state.occ)
            events += self._advance(state, seat)
        return events

    # -- results --------------------------------------------------------------------------------

    def is_over(self, state: FishState) -> bool:
        """Return True once no penguin can move."""
        return state.phase == OVER

    def outcome(self, state: FishState) -> Outcome:
        """Rank seats by fish, then tiles; equal seats share the place and the victory."""

        keys = [
            (0 if gone else 1, sum(taken), len(taken))
            for gone, taken in zip(state.resigned, state.collected, strict=True)
        ]
        order = sorted(range(state.players), key=keys.__getitem__, reverse=True)
        standings = []
        for seat in order:
            rank = 1 + sum(1 for other in keys if other > keys[seat])
            _, fish, tiles = keys[seat]
            gone = state.resigned[seat]
            detail = {"fish": fish, "tiles": tiles, "resigned": gone}
            standings.append(Standing(seat=seat, score=fish, rank=rank, winner=rank == 1 and not gone, detail=detail))
        return Outcome(standings, tiebreak([s for s in standings if not state.resigned[s.seat]]))

    # -- views and persistence ------------------------------------------------------------------

    def view(self, state: FishState, seat: int | None) -> dict[str, Any]:
        """Return the whole board: nothing in this game is hidden."""
        outcome = self.outcome(state) if state.phase == OVER else None
        tiles = state.tiles
        return {
            "game": self.key,
            "phase": state.phase,
            "turn": state.turn,
            "move": state.moves,
            "to_act": self.to_act(state),
            "tiles": [
                {"label": LABELS[i], "row": r, "x": x, "fish": tiles[i]} for i, (r, x) in enumerate(BOARD.coords)
            ],
            "penguins": [{"seat": s, "tile": LABELS[cell]} for s in range(state.players) for cell in state.penguins[s]],
            "seats": [
                {
                    "fish": sum(state.collected[s]),
                    "tiles": len(state.collected[s]),
                    "penguins": len(state.penguins[s]),
                    "to_place": state.to_place[s],
                    "resigned": state.resigned[s],
                    "out": state.phase == PLAY and not state.penguins[s],
                }
                for s in range(state.players)
            ],
            "last": state.last,
            "winners": outcome.winners if outcome else [],
        }

    def dump(self, state: FishState) -> dict[str, Any]:
        """Serialise the state with its schema version."""
        return dump(state, self.schema_version)

    def load(self, data: Mapping[str, Any]) -> FishState:
        """Rebuild a state from `dump` output (schema 1 saves too), checking every field."""
        return load(data, self.schema_version, range(self.min_players, self.max_players + 1))

    # -- words ----------------------------------------------------------------------------------

    def describe(self, event: Event, names: Sequence[str]) -> str:
        """Return a one-line summary of an event."""
        return describe(event, names)

    def status(self, state: FishState, names: Sequence[str]) -> str:
        """Say whose turn it is and what they do; turns are counted from the first move, not the placements."""
        return status(state, names)

    def rules_text(self) -> str:
        """Return the rules in a few lines and the rulings the bot applies."""
        return rules_text(self.title)
