"""Let the computer play Nim from what its seat sees: sample the unseen cards, judge by stones and the last stone."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ai.base import GameAI
from tests.fourth_game import GAME
from tests.fourth_game.rules import COPIES, PILES, VALUES, NimState


class NimAI(GameAI[NimState]):
    """Adapt Nim to the easy and hard computer players."""

    key = "nim"
    game = GAME
    margin_scale = 3.0

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> NimState:
        """Rebuild a state from a seat's view, dealing the cards it cannot see at random."""
        unseen = [v for v in VALUES for _ in range(COPIES - view["played"][v - 1])]
        for card in view["hand"]:
            unseen.remove(card)
        rng.shuffle(unseen)
        hands = [
            list(view["hand"]) if s == seat else sorted(unseen.pop() for _ in range(n))
            for s, n in enumerate(view["hand_sizes"])
        ]
        return NimState(
            len(hands),
            [view["piles"][p] for p in PILES],
            hands,
            unseen[: view["deck"]],
            list(view["taken"]),
            list(view["resigned"]),
            list(view["played"]),
            view["to_act"][0] if view["to_act"] else 0,
            view["phase"],
            view["winner"],
            view["moves"],
            view["last"],
        )

    def clone(self, state: NimState) -> NimState:
        """Return an independent copy."""
        return state.copy()

    def estimate(self, state: NimState) -> list[float]:
        """Return stones taken, plus a large bonus for whoever took the last stone."""
        return [state.taken[s] + (10.0 if s == state.winner else 0.0) for s in range(state.players)]
