"""Define what the bots need from each game: determinize a view, copy, estimate and play out a state."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from engine.base import Action, Game

S = TypeVar("S")

ActionKey = tuple[tuple[str, Any], ...]


def action_key(action: Action) -> ActionKey:
    """Return a hashable key that identifies an action."""
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items())


def actor(to_act: list[int], me: int) -> int:
    """Return who moves next in a simulation: the searching seat first when several seats act at once."""
    return me if me in to_act else to_act[0]


def sigmoid(x: float) -> float:
    """Return the logistic function of x, safe for large |x|."""
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


class GameAI(ABC, Generic[S]):
    """Adapt one game to the bots: sample full states from a view and judge positions.

    Every method is pure apart from mutating the state it is given, so one instance can serve many threads.
    """

    key: ClassVar[str]
    game: ClassVar[Game[Any]]
    margin_scale: ClassVar[float] = 5.0
    """Lead in points that counts as a clear advantage when turning estimates into rewards."""
    easy_temperature: ClassVar[float] = 1.0
    """Softmax temperature of the easy bot, in points."""
    easy_worlds: ClassVar[int] = 1
    """Sampled deals the easy bot averages its scores over (more where hidden cards sway them)."""
    exploration: ClassVar[float] = 0.7
    """UCB exploration constant of the search."""
    playout_depth: ClassVar[int | None] = None
    """Actions played out after leaving the tree before estimating; None plays to the end."""
    root_width: ClassVar[int | None] = None
    """With many root actions, search only the best this many by the easy score at first, widening with visits."""
    search: ClassVar[str] = "tree"
    """The hard player's search: "tree" (information-set MCTS) or "halving" (sequential halving, ai/halving.py)."""
    think_rates: ClassVar[Mapping[int, float]] = {}
    """By player count: engine actions the hard search applies per CPU second (bench.ai --rate), its virtual clock."""
    default_rate: ClassVar[float] = 20_000.0
    """The virtual clock's rate at a player count `think_rates` does not give."""
    prior_visits: ClassVar[float] = 0.0
    """Virtual visits worth of the estimate given to each new tree node (progressive bias); 0 turns it off."""

    @abstractmethod
    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> S:
        """Build a full state that `seat` cannot tell apart from the real one, sampling what it cannot see."""

    @abstractmethod
    def clone(self, state: S) -> S:
        """Return an independent copy of the state."""

    @abstractmethod
    def estimate(self, state: S) -> list[float]:
        """Return each seat's expected final score from this position (its side's score in team games)."""

    def think_rate(self, view: Mapping[str, Any]) -> float:
        """Return the virtual clock's rate (engine actions per second) for the table `view` shows."""
        return self.think_rates.get(len(view.get("seats", ())), self.default_rate)

    def opponents(self, state: S, seat: int) -> list[int]:
        """Return the seats still in play that `seat` must beat."""
        resigned = state.resigned  # type: ignore[attr-defined]
        return [s for s in range(len(resigned)) if s != seat and not resigned[s]]

    def decided(self, state: S) -> bool:
        """Return True when the rest of the game can be judged by `estimate` alone."""
        return False

    def playout_limit(self, state: S) -> int | None:
        """Return the actions a playout from `state` plays before it is judged by `rewards` (None: to the end)."""
        return self.playout_depth

    def playout_action(self, state: S, seat: int, actions: list[Action], rng: random.Random) -> Action:
        """Pick an action in a playout: uniformly at random unless the game knows better."""
        return rng.choice(actions)

    def playout_work(self, state: S, actions: list[Action]) -> int:
        """Return the engine actions `playout_action` applies on copies to choose among `actions` (0: none)."""
        return 0

    def easy_score(self, state: S, seat: int) -> float:
        """Return how good the position is for `seat`, in points, as the easy bot judges it."""
        return self.margin(self.estimate(state), state, seat)

    def easy_value(self, state: S, seat: int) -> float:
        """Return the easy player's judgement of where its action leads: the easy score unless the game looks on."""
        return self.easy_score(state, seat)

    def margin(self, estimates: list[float], state: S, seat: int) -> float:
        """Return `seat`'s estimated lead over its best opponent."""
        rivals = self.opponents(state, seat)
        return estimates[seat] - max((estimates[o] for o in rivals), default=0.0)

    def rewards(self, state: S) -> list[float]:
        """Return every seat's reward in [0, 1]: victory share when the game is over, else an estimated lead."""
        estimates = self.estimate(state)
        seats = len(estimates)
        leads = [sigmoid(self.margin(estimates, state, s) / self.margin_scale) for s in range(seats)]
        if not self.game.is_over(state):
            return leads
        winners = self.game.outcome(state).winners
        sides = {self.side(state, w) for w in winners}
        share = 1.0 / len(sides) if sides else 0.0
        return [0.85 * (share if s in winners else 0.0) + 0.15 * leads[s] for s in range(seats)]

    def side(self, state: S, seat: int) -> int:
        """Return the partnership a seat scores for (itself unless the game has teams)."""
        return seat
