"""Pick a move one action ahead: score each action on a sampled state and draw from a softmax."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from ai.base import GameAI
from engine.base import Action


def score_actions(ai: GameAI[Any], state: Any, seat: int, actions: list[Action]) -> list[float]:
    """Return the easy score for `seat` of the position each action leads to from `state`."""
    scores = []
    for action in actions:
        after = ai.clone(state)
        ai.game.apply(after, seat, action)
        scores.append(ai.easy_score(after, seat))
    return scores


def choose_easy(
    ai: GameAI[Any], view: Mapping[str, Any], seat: int, actions: list[Action], rng: random.Random
) -> Action:
    """Return an action drawn with probability growing with the easy value for `seat` of where it leads."""
    scores = [0.0] * len(actions)
    for _ in range(ai.easy_worlds):
        state = ai.determinize(view, seat, rng)
        for i, action in enumerate(actions):
            after = ai.clone(state)
            ai.game.apply(after, seat, action)
            scores[i] += ai.easy_value(after, seat) / ai.easy_worlds
    top = max(scores)
    weights = [math.exp((s - top) / ai.easy_temperature) for s in scores]
    return dict(rng.choices(actions, weights=weights)[0])
