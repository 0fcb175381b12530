"""Computer opponents for every game: an easy one-move heuristic and a hard search, both deciding from a view."""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from typing import Any

from ai.base import GameAI
from ai.clock import Clock
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
    virtual: bool = False,
    deadline: float | None = None,
) -> Action:
    """Return a legal action for `seat`, decided only from `view` (GAME.view(state, seat)).

    `level` is "easy" or "hard". "hard" thinks for `budget_s` seconds of the wall clock, or with `virtual` of
    the game's virtual clock (its work at the game's `think_rate` for the table: the result then depends only on the
    arguments), or for `iterations` search iterations. A `deadline` (an `ai.clock.now()` reading) stops it
    whatever the budget says.
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
    return choose_hard(ai, view, seat, actions, rng, clock_for(ai, view, budget_s, iterations, virtual, deadline))


def clock_for(
    ai: GameAI[Any],
    view: Mapping[str, Any],
    budget_s: float,
    iterations: int | None,
    virtual: bool,
    deadline: float | None,
) -> Clock:
    """Return the clock of one decision: `iterations` playouts, else `budget_s` virtual or wall-clock seconds."""
    if iterations is not None:
        return Clock(playouts=iterations, deadline=deadline)
    return Clock(seconds=budget_s, rate=ai.think_rate(view) if virtual else None, deadline=deadline)


def analyse(
    game_key: str,
    view: dict[str, Any],
    seat: int,
    seed: int,
    budget_s: float = 1.5,
    *,
    iterations: int | None = None,
    virtual: bool = False,
    deadline: float | None = None,
) -> list[Candidate]:
    """Return every legal action of `seat` as the hard player judges it from `view`, best first.

    Each candidate carries how many playouts (search visits) it received and its mean reward in [0, 1]: mostly
    the share of those playouts it went on to win, or where playouts stop early (10 Gallon Tank: when the round
    has been drafted) how clearly it led then. The first candidate is what the hard player would play with
    the same seed and budget. Its budget is given as choose_action's is.
    """
    ai = bots().get(game_key)
    if ai is None:
        raise KeyError(f"no bot for game {game_key!r}")
    rng = random.Random(seed)
    actions = legal_from_view(ai, view, seat, rng)
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do in this {game_key} position")
    return search(ai, view, seat, actions, rng, clock_for(ai, view, budget_s, iterations, virtual, deadline))


__all__ = ["LEVELS", "Candidate", "analyse", "bots", "choose_action"]
