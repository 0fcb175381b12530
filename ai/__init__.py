"""Computer opponents for every game: an easy one-move heuristic and a hard search, both deciding from a view."""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from typing import Any

from ai.base import GameAI
from ai.easy import choose_easy
from ai.halving import Candidate
from ai.search import choose_hard, search
from engine.base import Action
from engine.registry import packages

LEVELS = ("easy", "hard")


def bots() -> dict[str, GameAI[Any]]:
    """Return a fresh bot adapter for every game, by key: the class each game package names as its AI."""
    found: dict[str, GameAI[Any]] = {}
    for key, package in packages().items():
        module, _, name = package.ai.partition(":")
        found[key] = getattr(importlib.import_module(module), name)()
    return found


def legal_from_view(ai: GameAI[Any], view: Mapping[str, Any], seat: int, rng: random.Random) -> list[Action]:
    """Return the actions `seat` may take now, read from a state sampled from its own view."""
    state = ai.determinize(view, seat, rng)
    return ai.game.legal_actions(state, seat)


def choose_action(
    game_key: str,
    view: dict[str, Any],
    seat: int,
    level: str,
    seed: int,
    budget_s: float = 1.5,
    *,
    iterations: int | None = None,
) -> Action:
    """Return a legal action for `seat`, decided only from `view` (GAME.view(state, seat)).

    `level` is "easy" or "hard". The result depends only on the arguments, except that "hard" stops at
    `budget_s` seconds; give `iterations` to stop after that many search iterations instead of on the clock.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
    ai = bots().get(game_key)
    if ai is None:
        raise KeyError(f"no bot for game {game_key!r}")
    rng = random.Random(seed)
    actions = legal_from_view(ai, view, seat, rng)
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do in this {game_key} position")
    if len(actions) == 1:
        return dict(actions[0])
    if level == "easy":
        return choose_easy(ai, view, seat, actions, rng)
    return choose_hard(ai, view, seat, actions, rng, budget_s, iterations)


def analyse(
    game_key: str,
    view: dict[str, Any],
    seat: int,
    seed: int,
    budget_s: float = 1.5,
    *,
    iterations: int | None = None,
) -> list[Candidate]:
    """Return every legal action of `seat` as the hard player judges it from `view`, best first.

    Each candidate carries how many playouts (search visits) it received and its mean reward in [0, 1]: mostly
    the share of those playouts it went on to win, or where playouts stop early (10 Gallon Tank: when the round
    has been drafted) how clearly it led then. The first candidate is what the hard player would play with
    the same seed and budget. Like choose_action, this stops at `budget_s` unless `iterations` is given.
    """
    ai = bots().get(game_key)
    if ai is None:
        raise KeyError(f"no bot for game {game_key!r}")
    rng = random.Random(seed)
    actions = legal_from_view(ai, view, seat, rng)
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do in this {game_key} position")
    return search(ai, view, seat, actions, rng, budget_s, iterations)


__all__ = ["LEVELS", "Candidate", "analyse", "bots", "choose_action"]
