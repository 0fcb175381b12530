"""Search for a move: information-set Monte Carlo tree search, or sequential halving where the game measures better."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from ai.base import ActionKey, GameAI, action_key, actor
from ai.clock import Clock
from ai.easy import score_actions
from ai.halving import Candidate, halving
from engine.base import Action


class Node:
    """Hold one tree node: the action that led here, who took it and the rewards it collected."""

    __slots__ = ("action", "avail", "children", "parent", "seat", "total", "visits")

    def __init__(self, parent: Node | None, action: Action | None, seat: int) -> None:
        """Create an unvisited node."""
        self.parent = parent
        self.action = action
        self.seat = seat
        self.children: dict[ActionKey, Node] = {}
        self.visits = 0.0
        self.total = 0.0
        self.avail = 0


def ranked(ai: GameAI[Any], state: Any, seat: int, actions: list[Action]) -> list[Action]:
    """Return the actions best first by the easy bot's score of the position each leads to."""
    scores = score_actions(ai, state, seat, actions)
    order = sorted(range(len(actions)), key=lambda i: -scores[i])
    return [actions[i] for i in order]


def choose_hard(
    ai: GameAI[Any],
    view: Mapping[str, Any],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    clock: Clock,
) -> Action:
    """Return the hard player's choice: the best candidate of its game's search."""
    return search(ai, view, seat, actions, rng, clock)[0].action


def search(
    ai: GameAI[Any],
    view: Mapping[str, Any],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    clock: Clock,
) -> list[Candidate]:
    """Return the root candidates, best first, of the game's search once the clock's budget is used."""
    if ai.search == "halving":
        return halving(ai, view, seat, actions, rng, clock)
    return tree_search(ai, view, seat, actions, rng, clock)


def tree_search(
    ai: GameAI[Any],
    view: Mapping[str, Any],
    seat: int,
    actions: list[Action],
    rng: random.Random,
    clock: Clock,
) -> list[Candidate]:
    """Return the root candidates of single-observer ISMCTS, most visited first."""
    game = ai.game
    hidden = game.hidden_information
    base = None if hidden else ai.determinize(view, seat, rng)
    root = Node(None, None, seat)
    c = ai.exploration
    prior = ai.prior_visits
    width = ai.root_width
    if width is not None and len(actions) > width:
        actions = ranked(ai, ai.determinize(view, seat, rng), seat, actions)
    else:
        width = None
    while clock.done == 0 or clock.used() < 1:
        applied = 0
        state = ai.determinize(view, seat, rng) if base is None else ai.clone(base)
        node = root
        while not game.is_over(state):
            mover = actor(game.to_act(state), seat)
            if node is not root:
                legal = game.legal_actions(state, mover)
            elif width is None:
                legal = actions
            else:
                legal = actions[: width + int(math.sqrt(root.visits))]
            children = node.children
            fresh = []
            known = []
            for action in legal:
                child = children.get(action_key(action))
                if child is None:
                    fresh.append(action)
                else:
                    child.avail += 1
                    known.append(child)
            if fresh:
                action = rng.choice(fresh)
                child = Node(node, action, mover)
                child.avail = 1
                children[action_key(action)] = child
                game.apply(state, mover, action)
                applied += 1
                if prior:
                    child.visits = prior
                    child.total = prior * ai.rewards(state)[mover]
                node = child
                break
            best = known[0]
            best_score = -math.inf
            for child in known:
                score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = child, score
            game.apply(state, mover, best.action)  # type: ignore[arg-type]
            applied += 1
            node = best
        steps = 0
        depth_cap = ai.playout_limit(state)
        while not game.is_over(state) and (depth_cap is None or steps < depth_cap) and not ai.decided(state):
            mover = actor(game.to_act(state), seat)
            game.apply(state, mover, ai.playout_action(state, mover, game.legal_actions(state, mover), rng))
            steps += 1
        clock.spend(applied + steps)
        rewards = ai.rewards(state)
        while node is not root:
            node.visits += 1
            node.total += rewards[node.seat]
            node = node.parent  # type: ignore[assignment]
        root.visits += 1
    children = sorted(root.children.values(), key=lambda n: (-n.visits, -n.total / max(n.visits, 1)))
    return [Candidate(dict(n.action), int(n.visits), n.total / max(n.visits, 1)) for n in children]  # type: ignore[arg-type]
