"""Apply the rules of Hey, That's My Fish! to a game state, with precomputed rays and bitmask move generation.

Cells are bits of an int: `ice` holds every cell with a tile, `occ` every cell with a penguin. Labels such as
"B3" appear only where actions come in and events and views go out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.base import Action, CorruptState, Event, Game, IllegalAction, OptionSpec, Outcome, Standing
from engine.fish.board import DATA, deal, layout
from engine.words import plural, quote

PLACEMENT, PLAY, OVER = "placement", "play", "over"
BOARD = layout()
RAYS = BOARD.rays
LABELS = BOARD.labels
INDEX = BOARD.index_of
SIZE = BOARD.size
PLACEMENT_FISH: int = DATA["placement_fish"]
BIT = tuple(1 << c for c in range(SIZE))
ONE_DIGITS = bytes(48 + (fish == PLACEMENT_FISH) for fish in range(256))
"""Turn a fish count (as a byte) into the digit "1" for a placement tile, "0" otherwise, to read a mask in base 2."""
ALL = (1 << SIZE) - 1


def _mask(cells: Sequence[int]) -> int:
    """Return the bitmask of some cells."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


NEIGHBOUR_MASKS = tuple(_mask(n) for n in BOARD.neighbours)
NEAR_MASKS = tuple(NEIGHBOUR_MASKS[c] | BIT[c] for c in range(SIZE))
PATHS: tuple[dict[int, int], ...] = tuple(
    {dst: _mask(ray[: k + 1]) for ray in rays for k, dst in enumerate(ray)} for rays in RAYS
)
"""For each start cell, every cell in line with it mapped to the bits a slide there crosses (the end included)."""


def _slides(ray: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Map each pattern of free cells on a ray (as board bits) to the cells a penguin can slide to, nearest first."""
    table = {}
    for pattern in range(1 << len(ray)):
        free = _mask([c for k, c in enumerate(ray) if pattern >> k & 1])
        n = 0
        while n < len(ray) and free >> ray[n] & 1:
            n += 1
        table[free] = ray[:n]
    return table


DEST_CELLS = tuple(tuple((_mask(ray), _slides(ray)) for ray in rays if ray) for rays in RAYS)
"""For each cell, its rays (E, W, NE, NW, SE, SW; empty ones left out) as (ray bits, {free bits: destinations})."""


class SharedAction(dict):  # type: ignore[type-arg]
    """A legal action built once and shared by every `legal_actions` list: read-only, and it knows its cells.

    It equals, serialises and pickles as the plain dict it shows; copy it (`dict(action)`) to change it.
    """

    __slots__ = ("cells",)

    def __init__(self, data: dict[str, str], cells: tuple[int, ...]) -> None:
        super().__init__(data)
        self.cells = cells

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("legal actions are shared and read-only: copy one with dict(action) to change it")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = __ior__ = _read_only

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return dict, (dict(self),)


MOVES = tuple(
    {dst: SharedAction({"type": "move", "from": LABELS[src], "to": LABELS[dst]}, (src, dst)) for dst in PATHS[src]}
    for src in range(SIZE)
)
"""Every move action there can be, by start cell and end cell."""
PLACES = tuple(SharedAction({"type": "place", "tile": LABELS[c]}, (c,)) for c in range(SIZE))
DEST_ACTIONS = tuple(
    tuple(
        (mask, {free: tuple(MOVES[src][dst] for dst in cells) for free, cells in table.items()})
        for mask, table in rays
    )
    for src, rays in enumerate(DEST_CELLS)
)
"""DEST_CELLS with the move actions themselves, so a list of legal moves is a few tuple concatenations."""


def _merge(rays: tuple[tuple[int, dict[int, tuple[SharedAction, ...]]], ...], bits: int = 8) -> tuple[Any, ...]:
    """Join neighbouring rays into one table while they span at most `bits` cells, keeping the ray order."""
    groups: list[tuple[int, dict[int, tuple[SharedAction, ...]]]] = []
    for mask, table in rays:
        if groups and (groups[-1][0] | mask).bit_count() <= bits:
            joined, before = groups[-1]
            groups[-1] = (joined | mask, {a | b: x + y for a, x in before.items() for b, y in table.items()})
        else:
            groups.append((mask, table))
    return tuple(groups)


MOVE_GROUPS: tuple[tuple[tuple[int, dict[int, tuple[SharedAction, ...]]], ...], ...] = tuple(
    _merge(rays) for rays in DEST_ACTIONS
)
"""DEST_ACTIONS with neighbouring rays joined (about 2.8 lookups per penguin instead of 5; 19,380 entries in all)."""
CHUNK = 10
CHUNK_MASK = (1 << CHUNK) - 1
PLACE_CHUNKS = tuple(
    (base, tuple(tuple(PLACES[base + k] for k in range(CHUNK) if bits >> k & 1) for bits in range(1 << CHUNK)))
    for base in range(0, SIZE, CHUNK)
)
"""For each run of CHUNK cells, the placements on every pattern of free 1-fish tiles among them."""


AFTER = tuple(
    tuple(tuple((seat + step) % players for step in range(1, players + 1)) for seat in range(players))
    for players in range(5)
)
"""For each player count and seat, the seats in the order they play after it (itself last)."""


def destinations(cell: int, free: int) -> list[int]:
    """Return the cells a penguin on `cell` can reach, ray by ray (E, W, NE, NW, SE, SW), nearest first."""
    return [dst for mask, table in DEST_CELLS[cell] for dst in table[free & mask]]


@dataclass
class FishState:
    """Hold one game: tiles by cell (0 = water), penguins by seat, collections and whose turn.

    `ice`, `occ` and `ones` are bitmasks derived from `tiles` and `penguins` (worked out when not given) and
    kept in step by the engine; change the state only through FishGame.
    """

    players: int
    seed: int
    balanced: bool
    tiles: list[int]
    penguins: list[list[int]]
    to_place: list[int]
    collected: list[list[int]]
    resigned: list[bool]
    phase: str = PLACEMENT
    current: int = 0
    turn: int = 0
    """Actions taken so far, placements included."""
    last: dict[str, Any] | None = field(default=None)
    moves: int = 0
    """Penguin moves made so far (placements not counted): the turn number players see is moves + 1."""
    ice: int = field(default=-1, compare=False, repr=False)
    occ: int = field(default=-1, compare=False, repr=False)
    ones: int = field(default=-1, compare=False, repr=False)
    """The 1-fish tiles, where penguins are placed."""

    def __post_init__(self) -> None:
        """Work out the bitmasks that were not given."""
        if self.ice < 0:
            self.ice = _mask([c for c, fish in enumerate(self.tiles) if fish])
        if self.ones < 0:
            self.ones = _mask([c for c, fish in enumerate(self.tiles) if fish == PLACEMENT_FISH])
        if self.occ < 0:
            self.occ = _mask([c for seat in self.penguins for c in seat])

    def occupied(self) -> set[int]:
        """Return every cell with a penguin on it."""
        return {cell for seat in self.penguins for cell in seat}

    @property
    def free(self) -> int:
        """Return the bits of the ice cells without a penguin."""
        return self.ice & ~self.occ

    def copy(self) -> FishState:
        """Return an independent copy (the masks are copied, not recomputed)."""
        return FishState(
            self.players,
            self.seed,
            self.balanced,
            self.tiles[:],
            [p[:] for p in self.penguins],
            self.to_place[:],
            [c[:] for c in self.collected],
            self.resigned[:],
            self.phase,
            self.current,
            self.turn,
            self.last,
            self.moves,
            self.ice,
            self.occ,
            self.ones,
        )


class FishGame(Game[FishState]):
    """Implement Hey, That's My Fish! for 2-4 players."""

    key = "fish"
    title = "Hey, That's My Fish!"
    min_players = 2
    max_players = 4
    schema_version = 2
    options = (OptionSpec("balanced", "Re-deal until 3-fish tiles never touch and every row has a rich tile"),)

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> FishState:
        """Deal the board and hand each seat its penguins to place."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(f"{self.title} needs {self.min_players}-{self.max_players} players.")
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
            raise IllegalAction(f"There is no tile {quote(label)} on the board: use a label like A1 to H8.")
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
            raise IllegalAction("The game is over.")
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalAction("You are not playing in this game.")
        if seat != state.current:
            raise IllegalAction("It is not your turn.")
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "move":
            if state.phase != PLAY:
                raise IllegalAction("Penguins are still being placed: use /fish place first.")
            return self._slide(state, seat, self._cell(action.get("from")), self._cell(action.get("to")))
        if kind == "place":
            if state.phase != PLACEMENT:
                raise IllegalAction("Placement is over: move a penguin with /fish move.")
            return self._place(state, seat, self._cell(action.get("tile")))
        raise IllegalAction("That is not an action in this game.")

    def _place(self, state: FishState, seat: int, cell: int) -> list[Event]:
        """Put a penguin on a free 1-fish tile for the seat to act in the placement phase."""
        label = LABELS[cell]
        if state.occ >> cell & 1:
            raise IllegalAction(f"{label} already has a penguin on it.")
        if state.tiles[cell] != PLACEMENT_FISH:
            raise IllegalAction(f"{label} has {state.tiles[cell]} fish: penguins start on {PLACEMENT_FISH}-fish tiles.")
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
            raise IllegalAction("Penguins are still being placed: use /fish place first.")
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalAction("You are not playing in this game.")
        if seat != state.current:
            raise IllegalAction("It is not your turn.")
        return self._slide(state, seat, src, dst)

    def _slide(self, state: FishState, seat: int, src: int, dst: int) -> list[Event]:
        """Check and make a slide for the seat to act in the play phase."""
        pens = state.penguins[seat]
        if src not in pens:
            raise IllegalAction(f"You have no penguin on {LABELS[src]}.")
        path = PATHS[src].get(dst)
        ice, occ = state.ice, state.occ
        if path is None or path & ice & ~occ != path:
            if dst == src:
                raise IllegalAction("A penguin has to move at least one tile.")
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
            return f"{LABELS[dst]} is open water."
        if occ >> dst & 1:
            return f"{LABELS[dst]} already has a penguin on it."
        for ray in RAYS[src]:
            if dst in ray:
                for step in ray[: ray.index(dst)]:
                    if tiles[step] == 0:
                        return f"The path to {LABELS[dst]} crosses open water at {LABELS[step]}."
                    if occ >> step & 1:
                        return f"The path to {LABELS[dst]} is blocked by the penguin on {LABELS[step]}."
        return f"{LABELS[src]} to {LABELS[dst]} is not a straight line along one of the six hex directions."

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
            raise IllegalAction("The game is over.")
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalAction("You are not playing in this game.")
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
        return Outcome(standings, _tiebreak([s for s in standings if not state.resigned[s.seat]]))

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
        return {
            "schema": self.schema_version,
            "players": state.players,
            "seed": state.seed,
            "balanced": state.balanced,
            "tiles": list(state.tiles),
            "penguins": [list(p) for p in state.penguins],
            "to_place": list(state.to_place),
            "collected": [list(c) for c in state.collected],
            "resigned": list(state.resigned),
            "phase": state.phase,
            "current": state.current,
            "turn": state.turn,
            "moves": state.moves,
            "last": state.last,
        }

    def load(self, data: Mapping[str, Any]) -> FishState:
        """Rebuild a state from `dump` output (schema 1 saves too), checking every field."""
        try:
            schema = data["schema"]
            if schema not in (1, self.schema_version):
                raise CorruptState(f"unknown schema {schema!r}")
            players = int(data["players"])
            state = FishState(
                players=players,
                seed=int(data["seed"]),
                balanced=bool(data["balanced"]),
                tiles=[int(t) for t in data["tiles"]],
                penguins=[[int(c) for c in p] for p in data["penguins"]],
                to_place=[int(n) for n in data["to_place"]],
                collected=[[int(f) for f in c] for c in data["collected"]],
                resigned=[bool(r) for r in data["resigned"]],
                phase=str(data["phase"]),
                current=int(data["current"]),
                turn=int(data["turn"]),
                last=dict(data["last"]) if data["last"] is not None else None,
                moves=int(data["moves"]) if schema == self.schema_version else 0,
            )
            if schema == 1:
                state.moves = _moves_before_schema_2(state)
        except CorruptState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CorruptState(f"malformed fish state: {exc!r}") from exc
        ok = (
            self.min_players <= players <= self.max_players
            and len(state.tiles) == SIZE
            and all(0 <= t <= 3 for t in state.tiles)
            and len(state.penguins) == len(state.to_place) == len(state.collected) == len(state.resigned) == players
            and all(0 <= c < SIZE for p in state.penguins for c in p)
            and len(state.occupied()) == sum(len(p) for p in state.penguins)
            and state.phase in (PLACEMENT, PLAY, OVER)
            and (state.phase == OVER or 0 <= state.current < players)
            and 0 <= state.moves <= state.turn
        )
        if not ok:
            raise CorruptState("fish state fails its consistency checks")
        return state

    # -- words ----------------------------------------------------------------------------------

    def describe(self, event: Event, names: Sequence[str]) -> str:
        """Return a one-line summary of an event."""
        who = names[event.seat] if event.seat is not None else ""
        d = event.data
        match event.kind:
            case "place":
                return f"{who} placed a penguin on {d['tile']}."
            case "move":
                turn = f"Turn {d['turn']}: " if "turn" in d else ""  # logs saved before turns were numbered lack it
                return f"{turn}{who} moved {d['from']}→{d['to']} and took a {d['fish']}-fish tile."
            case "stranded":
                return f"{who}'s penguin on {d['tile']} is stranded: {who} takes its {d['fish']}-fish tile."
            case "out":
                return f"{who} has no penguins left."
            case "play_begins":
                return "All penguins are placed: the hunt for fish begins."
            case "resign":
                return f"{who} resigned; their penguins leave the board."
            case "game_over" if d.get("reason") == "resigned":
                return "Only one player is left after a resignation: the game is over."
            case "game_over":
                return "No penguin can move: the game is over."
        return ""

    def status(self, state: FishState, names: Sequence[str]) -> str:
        """Say whose turn it is and what they do; turns are counted from the first move, not the placements."""
        if state.phase == OVER:
            return "Game over."
        who = names[state.current]
        if state.phase == PLACEMENT:
            left = sum(state.to_place)
            return f"Placement · {who} places a penguin on a 1-fish tile ({left} still to place)."
        return f"Turn {state.moves + 1} · {who} moves a penguin."

    def rules_text(self) -> str:
        """Return the rules in a few lines and the rulings the bot applies."""
        return (
            f"**{self.title}** (2-4 players)\n"
            "• Place your penguins one at a time on free 1-fish tiles "
            "(2 players: 4 each, 3 players: 3 each, 4 players: 2 each).\n"
            "• On your turn slide one penguin in a straight line along one of the six hex directions, "
            "as far as you like, never through water or another penguin; then take the tile it left.\n"
            "• Most fish wins; tie: most tiles; still tied: shared victory.\n"
            "**Rulings we apply**\n"
            "• Board: 60 hexes in rows of 7 and 8, labelled A1-A7, B1-B8 ... H1-H8.\n"
            "• Seats place and move in seat order, starting with the first seat.\n"
            "• A penguin with no legal move is removed at once (after every move and when placement ends); "
            "its owner takes its tile. A player with no penguins left is skipped.\n"
            "• `balanced` option: re-deal until no two 3-fish tiles touch and every row has a 2- or 3-fish tile.\n"
            "• A player who resigns loses their penguins (the tiles under them stay) and cannot win."
        )


def _moves_before_schema_2(state: FishState) -> int:
    """Work out the moves made in a schema-1 save, which counted placements and moves together in `turn`.

    Every seat still playing placed all its penguins but `to_place`; a seat that resigned is taken to have
    placed all of its own (exact unless it resigned during placement, where the count is only shown to players).
    """
    each = DATA["penguins_per_player"].get(str(state.players), 0)
    placed = sum(0 if state.resigned[s] else each - state.to_place[s] for s in range(state.players))
    placed += each * sum(state.resigned) if state.phase != PLACEMENT else 0
    return max(0, state.turn - placed)


def _tiebreak(playing: list[Standing]) -> str:
    """Return the sentence saying how a tie for first place was settled, or "" when no one tied on fish."""
    if len(playing) < 2 or playing[0].score != playing[1].score:
        return ""
    fish = playing[0].score
    tied = [s for s in playing if s.score == fish]
    tiles = [s.detail["tiles"] for s in tied]
    best = max(tiles)
    sharing = tiles.count(best)
    if sharing == len(tied):
        return f"Tied on {fish} fish and {plural(best, 'tile')}: the victory is shared."
    fewer = sorted((t for t in tiles if t < best), reverse=True)
    rest = ", ".join(str(t) for t in fewer)
    if sharing > 1:
        return (
            f"Tied on {fish} fish: the most tiles breaks the tie ({best} against {rest}); "
            f"{sharing} players still tie on {plural(best, 'tile')}, so they share the victory."
        )
    return f"Tied on {fish} fish: the most tiles breaks the tie, {plural(best, 'tile')} against {rest}."
