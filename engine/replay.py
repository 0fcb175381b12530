"""Replay a saved game from its seed and action log, under the rules each step was played under.

Every log entry may say which rules version it was applied under ("rules"); the opening deal has its own.
Where the rules changed between two steps (the game was saved, the bot upgraded, and play went on), the state
crosses over exactly as it did then: dumped by the old rules and loaded, migrated, by the new. Games saved
before versions were recorded have their versions found by replaying: the oldest kept rules that rebuild the
saved state wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.base import CorruptState, Game, IllegalAction
from engine.legacy import UnknownRules, rules_for, saved_version
from engine.takeback import effective_log

Plan = tuple[int | None, list[int | None]]
"""The rules version of the opening deal and of each logged step (None: today's)."""


def replay(
    game: Game, players: int, options: Mapping[str, Any], seed: int, log: Sequence[Mapping[str, Any]]
) -> Iterator[Any]:
    """Yield the opening state, then the state after each logged action (each entry has "seat" and "action").

    Takebacks in the log are followed: the moves they undid are left out, and so are the takebacks themselves.
    """
    state = game.new_game(players, options, seed)
    yield state
    for entry in effective_log(log):
        step(game, state, entry)
        yield state


def step(game: Game, state: Any, entry: Mapping[str, Any]) -> None:
    """Apply one logged action (or resignation) to `state` in place."""
    action = entry["action"]
    if action.get("type") == "resign":
        game.resign(state, entry["seat"])
    else:
        game.apply(state, entry["seat"], action)


def as_played(
    key: str, players: int, options: Mapping[str, Any], seed: int, log: Sequence[Mapping[str, Any]], plan: Plan
) -> Iterator[tuple[Game, Any]]:
    """Yield (rules, state) for the opening deal and after each logged step, crossing rules where the plan says."""
    opening, steps = plan
    game = rules_for(key, opening)
    state = game.new_game(players, options, seed)
    yield game, state
    kept = {id(entry) for entry in effective_log(log)}
    for entry, version in zip(log, steps, strict=True):
        if id(entry) not in kept:
            continue  # a takeback, or a move one undid
        rules = rules_for(key, version)
        if rules is not game:
            state = rules.load(game.dump(state))
            game = rules
        step(game, state, entry)
        yield game, state


def plan_for(
    key: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    log: Sequence[Mapping[str, Any]],
    opening: int | None,
    saved: Mapping[str, Any] | None = None,
) -> Plan:
    """Return the rules version of every step: as recorded, and for steps saved before versions were recorded,
    the kept rules (newest first) whose replay rebuilds the `saved` state, else the first that replays at all.

    Unrecorded steps are those before the first recorded one (`opening` None: the deal is unrecorded too).
    """
    recorded = [entry.get("rules") for entry in log]
    known = next((i for i, v in enumerate(recorded) if v is not None), len(log))
    if opening is not None:
        return opening, _filled(opening, recorded)
    newest = recorded[known] if known < len(log) else saved_version(saved)
    candidates = _versions_up_to(key, newest)
    first_error: Exception | None = None
    replayable: Plan | None = None
    for version in candidates:
        plan = (version, _filled(version, recorded))
        try:
            *_, (game, state) = as_played(key, players, options, seed, log, plan)
        except (IllegalAction, CorruptState, UnknownRules, KeyError, TypeError, ValueError) as exc:
            first_error = first_error or exc
            continue
        if saved is None or game.dump(state) == dict(saved):
            return plan
        replayable = replayable or plan
    if replayable is not None:
        return replayable
    raise first_error or UnknownRules(f"no rules kept for {key}")


def _filled(opening: int | None, recorded: Sequence[int | None]) -> list[int | None]:
    """Return each step's version: an unrecorded step keeps the version of the step before it."""
    out, current = [], opening
    for version in recorded:
        current = version if version is not None else current
        out.append(current)
    return out


def _versions_up_to(key: str, newest: int | None) -> list[int | None]:
    """Return the rules versions a game saved up to `newest` may have been played under, newest first."""
    current = rules_for(key, None).schema_version
    top = current if newest is None else min(newest, current)
    versions: list[int | None] = []
    for version in range(top, 0, -1):
        try:
            rules_for(key, version)
        except UnknownRules:
            continue
        versions.append(version)
    return versions or [None]


def replay_as_played(
    key: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    log: Sequence[Mapping[str, Any]],
    opening: int | None,
    saved: Mapping[str, Any] | None = None,
) -> Iterator[tuple[Game, Any]]:
    """Yield (rules, state) for the opening deal and after each logged step, each under the rules it was played under.

    `opening` is the recorded rules version of the deal (None: not recorded); `saved` the game's saved state,
    which settles the versions of steps saved before they were recorded.
    """
    plan = plan_for(key, players, options, seed, log, opening, saved)
    yield from as_played(key, players, options, seed, log, plan)
