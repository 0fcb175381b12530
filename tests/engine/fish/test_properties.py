"""Play thousands of seeded random games and check what must always hold."""

from __future__ import annotations

import json
import random

from engine.fish import GAME
from engine.fish.board import layout
from engine.fish.game import PLAY, FishState

GAMES = 1000


def path_is_clear(before: FishState, src: int, dst: int) -> bool:
    """Check independently of the engine that src→dst is a straight slide over ice with no penguin."""
    board = layout()
    occupied = before.occupied()
    (r0, x0), (r1, x1) = board.coords[src], board.coords[dst]
    dr, dx = r1 - r0, x1 - x0
    steps = max(abs(dr), abs(dx) // 2) if dr == 0 else abs(dr)
    if steps == 0 or (dr != 0 and abs(dx) != abs(dr)):
        return False
    at = {c: i for i, c in enumerate(board.coords)}
    for k in range(1, steps + 1):
        cell = at.get((r0 + dr // steps * k, x0 + dx // steps * k))
        if cell is None or before.tiles[cell] == 0 or cell in occupied:
            return False
    return True


def test_random_games_keep_every_invariant() -> None:
    total_fish = sum(GAME.new_game(2, {}, seed=0).tiles)
    for seed in range(GAMES):
        rng = random.Random(seed)
        players = 2 + seed % 3
        state = GAME.new_game(players, {"balanced": seed % 5 == 0}, seed)
        gone: set[int] = set()
        steps = 0
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            actions = GAME.legal_actions(state, seat)
            assert actions, f"seed {seed}: seat {seat} must act but has no legal action"
            action = rng.choice(actions)
            before = FishState(
                **{**vars(state), "tiles": list(state.tiles), "penguins": [list(p) for p in state.penguins]}
            )
            GAME.apply(state, seat, action)
            steps += 1
            assert steps < 200, f"seed {seed}: game does not end"

            if action["type"] == "move":
                src, dst = layout().index_of[action["from"]], layout().index_of[action["to"]]
                assert path_is_clear(before, src, dst), f"seed {seed}: illegal slide {action}"
            cells = [c for seat_cells in state.penguins for c in seat_cells]
            assert len(cells) == len(set(cells)), f"seed {seed}: penguins overlap"
            assert all(state.tiles[c] > 0 for c in cells), f"seed {seed}: a penguin stands in water"
            water = {i for i, fish in enumerate(state.tiles) if fish == 0}
            assert gone <= water, f"seed {seed}: a removed tile came back"
            gone = water
            collected = sum(sum(c) for c in state.collected)
            assert collected + sum(state.tiles) == total_fish, f"seed {seed}: fish not conserved"
            assert sum(len(c) for c in state.collected) == len(water), f"seed {seed}: tiles not conserved"
            if state.phase == PLAY:
                free = {i for i, fish in enumerate(state.tiles) if fish} - set(cells)
                for c in cells:
                    assert free.intersection(layout().neighbours[c]), f"seed {seed}: a stranded penguin was kept"
            data = json.loads(json.dumps(GAME.dump(state)))
            assert GAME.dump(GAME.load(data)) == GAME.dump(state)
        assert all(not p for p in state.penguins)
        assert GAME.outcome(state).winners
