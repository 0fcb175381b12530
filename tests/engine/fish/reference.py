"""Keep the list-and-set fish engine as it was before the bitmask rewrite, as a test-only reference."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.base import Action, CorruptState, Event, Game, IllegalAction, OptionSpec, Outcome, Standing
from engine.fish.board import DATA, is_balanced, layout, tile_bag
from engine.words import quote

PLACEMENT, PLAY, OVER = "placement", "play", "over"
BOARD = layout()
RAYS = BOARD.rays


def deal(seed: int, balanced: bool) -> list[int]:
    """Shuffle the tiles onto the board with `random.shuffle`, re-dealing until balanced if asked."""
    rng = random.Random(seed)
    tiles = tile_bag()
    for _ in range(DATA["balanced"]["max_redeals"]):
        rng.shuffle(tiles)
        if not balanced or is_balanced(tiles):
            return tiles
    raise RuntimeError("no balanced board found; raise balanced.max_redeals in data/fish.json")


@dataclass
class FishState:
    """Hold one game: tiles by cell (0 = water), penguins by seat, collections and whose turn."""

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
    last: dict[str, Any] | None = field(default=None)

    def occupied(self) -> set[int]:
        """Return every cell with a penguin on it."""
        return {cell for seat in self.penguins for cell in seat}


def _destinations(tiles: list[int], cell: int, occupied: set[int]) -> list[int]:
    """Return the cells a penguin on `cell` can reach in straight lines."""
    out = []
    for ray in RAYS[cell]:
        for step in ray:
            if not tiles[step] or step in occupied:
                break
            out.append(step)
    return out


def _reachable(state: FishState, src: int, dst: int, occupied: set[int]) -> bool:
    """Return True when a penguin on `src` can slide to `dst`."""
    for ray in RAYS[src]:
        if dst in ray:
            return all(state.tiles[step] != 0 and step not in occupied for step in ray[: ray.index(dst) + 1])
    return False


def _can_move(tiles: list[int], cell: int, occupied: set[int]) -> bool:
    """Return True when the penguin on `cell` has at least one legal move."""
    return any(tiles[n] and n not in occupied for n in BOARD.neighbours[cell])


class FishGame(Game[FishState]):
    """Implement Hey, That's My Fish! for 2-4 players."""

    key = "fish"
    title = "Hey, That's My Fish!"
    min_players = 2
    max_players = 4
    schema_version = 1
    options = (OptionSpec("balanced", "Re-deal until 3-fish tiles never touch and every row has a rich tile"),)

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> FishState:
        """Deal the board and hand each seat its penguins to place."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(f"{self.title} needs {self.min_players}-{self.max_players} players.")
        balanced = bool(options.get("balanced", False))
        each = DATA["penguins_per_player"][str(players)]
        return FishState(
            players=players,
            seed=seed,
            balanced=balanced,
            tiles=deal(seed, balanced),
            penguins=[[] for _ in range(players)],
            to_place=[each] * players,
            collected=[[] for _ in range(players)],
            resigned=[False] * players,
        )

    # -- whose turn ---------------------------------------------------------------------------------

    def to_act(self, state: FishState) -> list[int]:
        """Return the seat to place or move, or nobody once the game is over."""
        return [] if state.phase == OVER else [state.current]

    def _next_seat(self, state: FishState, after: int) -> int | None:
        """Return the next seat clockwise that still has something to do."""
        for step in range(1, state.players + 1):
            seat = (after + step) % state.players
            if state.resigned[seat]:
                continue
            if state.phase == PLACEMENT and state.to_place[seat] > 0:
                return seat
            if state.phase == PLAY and state.penguins[seat]:
                return seat
        return None

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, state: FishState, seat: int) -> list[Action]:
        """List every placement or move the seat may make now."""
        if state.phase == OVER or seat != state.current:
            return []
        labels = BOARD.labels
        occupied = state.occupied()
        if state.phase == PLACEMENT:
            return [
                {"type": "place", "tile": labels[i]}
                for i, fish in enumerate(state.tiles)
                if fish == DATA["placement_fish"] and i not in occupied
            ]
        tiles = state.tiles
        return [
            {"type": "move", "from": labels[src], "to": labels[dst]}
            for src in sorted(state.penguins[seat])
            for dst in _destinations(tiles, src, occupied)
        ]

    def _cell(self, label: Any) -> int:
        """Return the cell index of a label such as "B3"; raise IllegalAction if there is none."""
        index = BOARD.index_of.get(label) if isinstance(label, str) else None
        if index is None and isinstance(label, str):
            index = BOARD.index_of.get(label.strip().upper())
        if index is None:
            raise IllegalAction(f"There is no tile {quote(label)} on the board: use a label like A1 to H8.")
        return index

    # -- apply ----------------------------------------------------------------------------------

    def apply(self, state: FishState, seat: int, action: Action) -> list[Event]:
        """Place or move a penguin for `seat`, then remove stuck penguins and pass the turn."""
        if state.phase == OVER:
            raise IllegalAction("The game is over.")
        if not 0 <= seat < state.players or state.resigned[seat]:
            raise IllegalAction("You are not playing in this game.")
        if seat != state.current:
            raise IllegalAction("It is not your turn.")
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "place":
            return self._place(state, seat, action)
        if kind == "move":
            return self._move(state, seat, action)
        raise IllegalAction("That is not an action in this game.")

    def _place(self, state: FishState, seat: int, action: Action) -> list[Event]:
        """Put a penguin on a free 1-fish tile."""
        if state.phase != PLACEMENT:
            raise IllegalAction("Placement is over: move a penguin with /fish move.")
        cell = self._cell(action.get("tile"))
        label = BOARD.labels[cell]
        if cell in state.occupied():
            raise IllegalAction(f"{label} already has a penguin on it.")
        if state.tiles[cell] != DATA["placement_fish"]:
            raise IllegalAction(
                f"{label} has {state.tiles[cell]} fish: penguins start on {DATA['placement_fish']}-fish tiles."
            )
        state.penguins[seat].append(cell)
        state.to_place[seat] -= 1
        state.turn += 1
        state.last = {"seat": seat, "to": label}
        events = [Event("place", seat, {"tile": label})]
        nxt = self._next_seat(state, seat)
        if nxt is None:
            state.phase = PLAY
            events.append(Event("play_begins"))
            events += self._remove_stuck(state)
            return events + self._advance(state, seat)
        state.current = nxt
        return events

    def _move(self, state: FishState, seat: int, action: Action) -> list[Event]:
        """Slide a penguin in a straight line and collect the tile it left."""
        if state.phase != PLAY:
            raise IllegalAction("Penguins are still being placed: use /fish place first.")
        src, dst = self._cell(action.get("from")), self._cell(action.get("to"))
        labels = BOARD.labels
        if src not in state.penguins[seat]:
            raise IllegalAction(f"You have no penguin on {labels[src]}.")
        if dst == src:
            raise IllegalAction("A penguin has to move at least one tile.")
        occupied = state.occupied()
        if not _reachable(state, src, dst, occupied):
            raise IllegalAction(self._why_not(state, src, dst, occupied))
        fish = state.tiles[src]
        state.tiles[src] = 0
        state.collected[seat].append(fish)
        state.penguins[seat][state.penguins[seat].index(src)] = dst
        state.turn += 1
        state.last = {"seat": seat, "from": labels[src], "to": labels[dst]}
        events = [Event("move", seat, {"from": labels[src], "to": labels[dst], "fish": fish})]
        occupied.discard(src)
        occupied.add(dst)
        events += self._remove_stuck(state, near=(src, dst), occupied=occupied)
        return events + self._advance(state, seat)

    def _why_not(self, state: FishState, src: int, dst: int, occupied: set[int]) -> str:
        """Explain in a player's words why a penguin cannot reach `dst`."""
        labels = BOARD.labels
        if state.tiles[dst] == 0:
            return f"{labels[dst]} is open water."
        if dst in occupied:
            return f"{labels[dst]} already has a penguin on it."
        for ray in RAYS[src]:
            if dst in ray:
                for step in ray[: ray.index(dst)]:
                    if state.tiles[step] == 0:
                        return f"The path to {labels[dst]} crosses open water at {labels[step]}."
                    if step in occupied:
                        return f"The path to {labels[dst]} is blocked by the penguin on {labels[step]}."
        return f"{labels[src]} to {labels[dst]} is not a straight line along one of the six hex directions."

    def _remove_stuck(
        self, state: FishState, near: tuple[int, ...] | None = None, occupied: set[int] | None = None
    ) -> list[Event]:
        """Lift every penguin with no legal move; its owner collects the tile beneath it.

        With `near`, only penguins on or next to those cells are checked: nothing else changed.
        """
        occupied = state.occupied() if occupied is None else occupied
        tiles = state.tiles
        if near is None:
            suspects = occupied
        else:
            suspects = {c for cell in near for c in (cell, *BOARD.neighbours[cell])} & occupied
        if not suspects:
            return []
        stuck = [
            (seat, cell)
            for seat in range(state.players)
            for cell in state.penguins[seat]
            if cell in suspects and not _can_move(tiles, cell, occupied)
        ]
        events: list[Event] = []
        for seat, cell in stuck:
            fish = tiles[cell]
            tiles[cell] = 0
            state.collected[seat].append(fish)
            state.penguins[seat].remove(cell)
            events.append(Event("stranded", seat, {"tile": BOARD.labels[cell], "fish": fish}))
            if not state.penguins[seat]:
                events.append(Event("out", seat))
        return events

    def _advance(self, state: FishState, after: int) -> list[Event]:
        """Pass the turn clockwise, or end the game when no one can move."""
        active = [s for s in range(state.players) if not state.resigned[s]]
        nxt = self._next_seat(state, after % state.players)
        if nxt is None or len(active) < 2:
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
        state.penguins[seat] = []
        state.to_place[seat] = 0
        events = [Event("resign", seat)]
        if seat == state.current or len([s for s in range(state.players) if not state.resigned[s]]) < 2:
            if state.phase == PLACEMENT and self._next_seat(state, seat) is None:
                state.phase = PLAY
                events += self._remove_stuck(state)
            events += self._advance(state, seat)
        return events

    # -- results --------------------------------------------------------------------------------

    def is_over(self, state: FishState) -> bool:
        """Return True once no penguin can move."""
        return state.phase == OVER

    def outcome(self, state: FishState) -> Outcome:
        """Rank seats by fish, then tiles; equal seats share the place and the victory."""

        def key(seat: int) -> tuple[int, int, int]:
            return (0 if state.resigned[seat] else 1, sum(state.collected[seat]), len(state.collected[seat]))

        order = sorted(range(state.players), key=key, reverse=True)
        standings = []
        for seat in order:
            rank = 1 + sum(1 for other in order if key(other) > key(seat))
            standings.append(
                Standing(
                    seat=seat,
                    score=sum(state.collected[seat]),
                    rank=rank,
                    winner=rank == 1 and not state.resigned[seat],
                    detail={
                        "fish": sum(state.collected[seat]),
                        "tiles": len(state.collected[seat]),
                        "resigned": state.resigned[seat],
                    },
                )
            )
        top = [s for s in standings if not state.resigned[s.seat]]
        tiebreak = ""
        if len(top) > 1 and top[0].score == top[1].score:
            tied = [s for s in top if s.score == top[0].score]
            if len({s.detail["tiles"] for s in tied}) > 1:
                tiebreak = f"Tied on {top[0].score} fish: most tiles wins."
            else:
                tiebreak = f"Tied on {top[0].score} fish and {tied[0].detail['tiles']} tiles: victory shared."
        return Outcome(standings, tiebreak)

    # -- views and persistence ------------------------------------------------------------------

    def view(self, state: FishState, seat: int | None) -> dict[str, Any]:
        """Return the whole board: nothing in this game is hidden."""
        board = BOARD
        outcome = self.outcome(state) if state.phase == OVER else None
        return {
            "game": self.key,
            "phase": state.phase,
            "turn": state.turn,
            "to_act": self.to_act(state),
            "tiles": [
                {"label": board.labels[i], "row": r, "x": x, "fish": state.tiles[i]}
                for i, (r, x) in enumerate(board.coords)
            ],
            "penguins": [
                {"seat": s, "tile": board.labels[cell]} for s in range(state.players) for cell in state.penguins[s]
            ],
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
            "last": state.last,
        }

    def load(self, data: Mapping[str, Any]) -> FishState:
        """Rebuild a state from `dump` output, checking every field."""
        try:
            if data["schema"] != self.schema_version:
                raise CorruptState(f"unknown schema {data['schema']!r}")
            players = int(data["players"])
            size = BOARD.size
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
            )
        except CorruptState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CorruptState(f"malformed fish state: {exc!r}") from exc
        ok = (
            self.min_players <= players <= self.max_players
            and len(state.tiles) == size
            and all(0 <= t <= 3 for t in state.tiles)
            and len(state.penguins) == len(state.to_place) == len(state.collected) == len(state.resigned) == players
            and all(0 <= c < size for p in state.penguins for c in p)
            and len(state.occupied()) == sum(len(p) for p in state.penguins)
            and state.phase in (PLACEMENT, PLAY, OVER)
            and (state.phase == OVER or 0 <= state.current < players)
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
                return f"{who} moved {d['from']}→{d['to']} and took a {d['fish']}-fish tile."
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
        """Say whose turn it is and what they do."""
        if state.phase == OVER:
            return "Game over."
        who = names[state.current]
        if state.phase == PLACEMENT:
            left = sum(state.to_place)
            return f"Placement · {who} places a penguin on a 1-fish tile ({left} still to place)."
        return f"Turn {state.turn + 1} · {who} moves a penguin."

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
