"""Hold one game of Hey, That's My Fish!: tiles, penguins, collections and whose turn, with bitmasks kept in step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.fish.tables import PLACEMENT_FISH, _mask

PLACEMENT, PLAY, OVER = "placement", "play", "over"


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
