"""Build hand-made fish positions for rule tests."""

from __future__ import annotations

from engine.fish import GAME
from engine.fish.board import layout
from engine.fish.game import PLAY, FishState


def cell(label: str) -> int:
    """Return the cell index of a label."""
    return layout().index_of[label]


def position(
    penguins: list[list[str]],
    *,
    fish: dict[str, int] | None = None,
    water: set[str] | None = None,
    current: int = 0,
    default_fish: int = 1,
) -> FishState:
    """Return a play-phase state with penguins on the given labels and chosen tiles turned to water."""
    tiles = [default_fish] * layout().size
    for label, value in (fish or {}).items():
        tiles[cell(label)] = value
    for label in water or set():
        tiles[cell(label)] = 0
    players = len(penguins)
    return FishState(
        players=players,
        seed=0,
        balanced=False,
        tiles=tiles,
        penguins=[[cell(label) for label in seat] for seat in penguins],
        to_place=[0] * players,
        collected=[[] for _ in range(players)],
        resigned=[False] * players,
        phase=PLAY,
        current=current,
    )


def snapshot(state: FishState) -> dict:
    """Return the saved form of a state, for before/after comparisons."""
    return GAME.dump(state)
