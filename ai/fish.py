"""Judge Hey, That's My Fish! positions: floes held by one player are theirs, shared floes are split by distance."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ai.base import GameAI
from engine.fish import GAME
from engine.fish.board import layout
from engine.fish.game import OVER, PLACEMENT, FishGame, FishState

BOARD = layout()
NEIGHBOURS = BOARD.neighbours
SIZE = BOARD.size


def determinize(view: Mapping[str, Any], seat: int, rng: random.Random) -> FishState:
    """Rebuild the state from a view: nothing is hidden; of each collection only its fish and tile counts matter."""
    seats = view["seats"]
    players = len(seats)
    penguins: list[list[int]] = [[] for _ in range(players)]
    for penguin in view["penguins"]:
        penguins[penguin["seat"]].append(BOARD.index_of[penguin["tile"]])
    phase = view["phase"]
    to_act = view["to_act"]
    return FishState(
        players=players,
        seed=0,
        balanced=False,
        tiles=[tile["fish"] for tile in view["tiles"]],
        penguins=penguins,
        to_place=[s["to_place"] for s in seats],
        collected=[_collection(s["fish"], s["tiles"]) for s in seats],
        resigned=[s["resigned"] for s in seats],
        phase=phase,
        current=to_act[0] if to_act else -1,
        turn=view["turn"],
        last=dict(view["last"]) if view["last"] is not None else None,
        moves=view["move"],
    )


def _collection(fish: int, tiles: int) -> list[int]:
    """Return tiles of 1-3 fish adding up to `fish` (the view shows totals only, and only totals score)."""
    values = [1] * tiles
    extra = fish - tiles
    for i in range(tiles):
        bump = min(2, extra)
        values[i] += bump
        extra -= bump
    return values


def clone(state: FishState) -> FishState:
    """Return an independent copy of a state (its cell bitmasks copied, not rebuilt)."""
    return state.copy()


def floes(tiles: list[int]) -> list[list[int]]:
    """Return the connected pieces of ice, each as a list of cells."""
    seen = [False] * SIZE
    pieces = []
    for start in range(SIZE):
        if not tiles[start] or seen[start]:
            continue
        seen[start] = True
        piece = [start]
        for cell in piece:
            for n in NEIGHBOURS[cell]:
                if tiles[n] and not seen[n]:
                    seen[n] = True
                    piece.append(n)
        pieces.append(piece)
    return pieces


def owners(state: FishState) -> list[int]:
    """Return the seat whose penguin stands on each cell, or -1."""
    owner = [-1] * SIZE
    for seat, cells in enumerate(state.penguins):
        for cell in cells:
            owner[cell] = seat
    return owner


def estimate(state: FishState) -> list[float]:
    """Return fish collected plus the ice each seat is expected to take.

    A floe with penguins of one seat only is that seat's; a shared floe goes tile by tile to the seat whose
    penguins are closest (ties share), discounted by distance.
    """
    tiles = state.tiles
    scores = [float(sum(c)) for c in state.collected]
    if state.phase == OVER:
        return scores
    owner = owners(state)
    for piece in floes(tiles):
        holders = {owner[c] for c in piece if owner[c] >= 0}
        if len(holders) == 1:
            scores[holders.pop()] += sum(tiles[c] for c in piece)
        elif holders:
            _split(tiles, owner, piece, scores)
    return scores


def _split(tiles: list[int], owner: list[int], piece: list[int], scores: list[float]) -> None:
    """Share a contested floe by a breadth-first race from every penguin on it."""
    claim: dict[int, set[int]] = {}
    frontier = []
    for cell in piece:
        if owner[cell] >= 0:
            claim[cell] = {owner[cell]}
            scores[owner[cell]] += tiles[cell]
            frontier.append(cell)
    weight = 1.0
    while frontier:
        weight *= 0.85
        reached: dict[int, set[int]] = {}
        for cell in frontier:
            for n in NEIGHBOURS[cell]:
                if tiles[n] and n not in claim:
                    reached.setdefault(n, set()).update(claim[cell])
        for cell, seats in reached.items():
            claim[cell] = seats
            share = weight * tiles[cell] / len(seats)
            for seat in seats:
                scores[seat] += share
        frontier = list(reached)


class FishAI(GameAI[FishState]):
    """Play Hey, That's My Fish!."""

    key = "fish"
    game: ClassVar[FishGame] = GAME
    margin_scale = 4.0
    easy_temperature = 3.0
    think_rates: ClassVar[dict[int, float]] = {2: 46_000.0, 3: 50_000.0, 4: 55_000.0}
    exploration = 0.5
    playout_depth = 4

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> FishState:
        """Rebuild the state from the view."""
        return determinize(view, seat, rng)

    def clone(self, state: FishState) -> FishState:
        """Copy a state."""
        return clone(state)

    def estimate(self, state: FishState) -> list[float]:
        """Return collected fish plus expected ice per seat."""
        return estimate(state)

    def decided(self, state: FishState) -> bool:
        """Return True once no floe is shared by two seats' penguins: each seat can only collect its own floes."""
        if state.phase == PLACEMENT:
            return False
        owner = owners(state)
        return all(len({owner[c] for c in piece if owner[c] >= 0}) < 2 for piece in floes(state.tiles))

    def easy_value(self, state: FishState, seat: int) -> float:
        """Judge a move by the seat's expected lead in fish and ice, the estimate the hard player's search ends on."""
        return self.margin(self.estimate(state), state, seat)

    def easy_score(self, state: FishState, seat: int) -> float:
        """Return fish collected plus some credit for the tiles under and beside the seat's penguins."""
        tiles, occ = state.tiles, state.occ
        score = float(sum(state.collected[seat]))
        for cell in state.penguins[seat]:
            score += 0.5 * tiles[cell]
            score += 0.15 * sum(tiles[n] for n in NEIGHBOURS[cell] if not occ >> n & 1)
        return score
