"""Sample hidden aquariums, decks and discards for 10 Gallon Tank, and judge takes and splits by a greedy draft."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ai.base import GameAI
from ai.tank_scoring import CARD_INDEX, CARD_VALUE, MAJORITY, Scorer, Tally, merged, tally
from engine.base import Action
from engine.tank import GAME
from engine.tank.cards import CARDS, FISH_CARDS, deck_for
from engine.tank.game import TankGame
from engine.tank.grid import LETTERS, Rect, cells
from engine.tank.scoring import KINDS
from engine.tank.state import Pending, TankState

GRANTING = frozenset(c for c, card in CARDS.items() if KINDS[card.kind].discards > 0)


def determinize(view: Mapping[str, Any], seat: int, rng: random.Random) -> TankState:
    """Rebuild a state from `seat`'s view, sampling only what it has not seen.

    The seat watched every group taken and every group left over, so each opponent's aquarium is the cards it
    took less the Gourami discards it made in private (sampled among its fish), the deck holds exactly the
    cards nobody has seen (in a random order), and the discard pile is the leftovers plus everyone's discards.
    """
    players = view["players"]
    phase = view["phase"]
    grid: list[str | None] = [None if card is None else card["id"] for row in view["grid"] for card in row]
    groups: dict[str, Rect] = {
        g["letter"]: (g["rows"][0], g["cols"][0], g["rows"][1], g["cols"][1]) for g in view["groups"]
    }
    seats = view["seats"]
    seen = view["seen"]
    taken: list[list[str]] = [list(t) for t in seen["taken"]]
    mine = [card["id"] for card in view["aquarium"]]
    my_discards = [card["id"] for card in view["my_discards"]]
    unseen = Counter(deck_for(players))
    unseen.subtract(c for c in grid if c is not None)
    unseen.subtract(c for t in taken for c in t)
    unseen.subtract(seen["leftovers"])
    deck = sorted(unseen.elements())
    rng.shuffle(deck)
    to_act = view["to_act"]
    pending = None
    hands: list[list[str]] = [[] for _ in range(players)]
    own_discards: list[list[str]] = [[] for _ in range(players)]
    protected: list[str] = []
    if view["discard"] is not None:
        options = set(view["discard"]["options"])
        protected = [c for c in mine if c in FISH_CARDS and c not in options]
        pending = Pending(seat, view["discard"]["left"], protected)
    elif view["pending_discards"] and to_act:
        # Another seat is choosing its Gourami discards: the Gouramis it holds granted them, as far as we can tell.
        protected = [c for c in taken[to_act[0]] if c in GRANTING]
        pending = Pending(to_act[0], view["pending_discards"], protected)
    for s in range(players):
        if s == seat:
            hands[s], own_discards[s] = mine, my_discards
            continue
        keeps = protected if pending is not None and pending.seat == s else []
        fish = [c for c in taken[s] if c in FISH_CARDS and c not in keeps]
        gone = likely_discards(
            Scorer(view["goal"]["key"], players, [True] * players), taken[s], fish, seats[s]["discarded"], rng
        )
        own_discards[s] = [c for c in fish if c in gone]
        hands[s] = [c for c in taken[s] if c not in gone]
    pile = list(seen["leftovers"]) + [c for d in own_discards for c in d]
    state = TankState(
        players=players,
        goal=view["goal"]["key"],
        first_start=0,
        round=view["round"],
        phase=phase,
        deck=deck,
        grid=grid,
        groups=groups,
        made=max((LETTERS.index(name) + 1 for name in groups), default=0),
        queue=list(view["split_order"] if phase == "split" else view["take_order"]),
        take_queue=list(view["take_order"]) if phase == "split" else [],
        hands=hands,
        discards=pile,
        own_discards=own_discards,
        resigned=[s["resigned"] for s in seats],
        pending=pending,
    )
    if view["start_seat"] is not None:
        state.first_start = _first_start(state, view["start_seat"])
    return state


DISCARD_TEMPERATURE = 1.0
"""Points of gain that make a fish e (2.7) times likelier to be the one an opponent put out for a Gourami."""
MAJORITY_LOSS = 3.0
"""Points a player is taken to lose by putting out a card of a majority kind (Discus), which `plain` leaves out."""


def likely_discards(score: Scorer, taken: list[str], fish: list[str], count: int, rng: random.Random) -> set[str]:
    """Draw the `count` fish a seat put out for its Gouramis, from what it did: it put out what scores better gone.

    Each is drawn in turn among `fish`, the likelier the more its loss raises the seat's own points (an odd
    Guppy, an Angelfish outside a set), so a Neon Tetra that would cost points is rarely taken for discarded.
    """
    hand = tally(taken)
    pool = list(fish)
    gone: set[str] = set()
    for _ in range(min(count, len(pool))):
        base = score.plain(hand, partial=True)
        gains = [_gain(score, hand, card, base) for card in pool]
        top = max(gains)
        pick = rng.choices(range(len(pool)), [math.exp((g - top) / DISCARD_TEMPERATURE) for g in gains])[0]
        card = pool.pop(pick)
        gone.add(card)
        hand = [n - m for n, m in zip(hand, tally((card,)), strict=True)]
    return gone


def _gain(score: Scorer, hand: Tally, card: str, base: float) -> float:
    """Return the points a seat gains by putting `card` out of the aquarium tallied `hand`."""
    if CARD_INDEX[card] in MAJORITY:
        return -MAJORITY_LOSS
    return score.plain([n - m for n, m in zip(hand, tally((card,)), strict=True)], partial=True) - base


def _first_start(state: TankState, start_seat: int) -> int:
    """Return the first round's start seat that makes `start_seat` start the state's round."""
    for first in range(state.players):
        state.first_start = first
        order = GAME.round_order(state)
        if order and order[0] == start_seat:
            return first
    return 0


def clone(state: TankState) -> TankState:
    """Return an independent copy of a state."""
    pending = state.pending
    return TankState(
        players=state.players,
        goal=state.goal,
        first_start=state.first_start,
        round=state.round,
        phase=state.phase,
        deck=state.deck[:],
        grid=state.grid[:],
        groups=dict(state.groups),
        made=state.made,
        queue=state.queue[:],
        take_queue=state.take_queue[:],
        hands=[h[:] for h in state.hands],
        discards=state.discards[:],
        own_discards=[d[:] for d in state.own_discards],
        resigned=state.resigned[:],
        pending=None if pending is None else Pending(pending.seat, pending.left, pending.protected[:]),
    )


def scorer(state: TankState) -> Scorer:
    """Return the scorer of a state's game."""
    return Scorer(state.goal, state.players, [not r for r in state.resigned])


def group_cards(state: TankState, rect: Rect) -> list[str]:
    """Return the cards of a group on the grid."""
    side = state.side
    return [c for r, col in cells(rect) if (c := state.grid[r * side + col]) is not None]


def best_group(score: Scorer, hands: list[Tally], seat: int, groups: list[Tally]) -> int:
    """Return the index of the group that raises `seat`'s lead the most if it took it now."""
    base = [score.plain(t, partial=True) for t in hands]
    best, best_gain = 0, float("-inf")
    for i, group in enumerate(groups):
        trial = hands[:]
        trial[seat] = merged(hands[seat], group)
        majority = score.majorities(trial)
        mine = score.plain(trial[seat], partial=True) + majority[seat]
        gain = mine - max((base[o] + majority[o] for o in range(len(hands)) if o != seat), default=0.0)
        if gain > best_gain:
            best, best_gain = i, gain
    return best


def estimate(state: TankState) -> list[float]:
    """Return each seat's score once the groups on the grid are drafted greedily in take order."""
    score = scorer(state)
    hands = [tally(h) for h in state.hands]
    if state.phase in ("split", "take", "discard") and state.made > 1:
        order = state.take_queue if state.phase == "split" else state.queue
        groups = [tally(group_cards(state, rect)) for _, rect in sorted(state.groups.items())]
        for taker in order:
            if not groups:
                break
            hands[taker] = merged(hands[taker], groups.pop(best_group(score, hands, taker, groups)))
    return score.totals(hands, partial=state.phase != "over")


class TankAI(GameAI[TankState]):
    """Play 10 Gallon Tank."""

    key = "tank"
    game: ClassVar[TankGame] = GAME
    margin_scale = 6.0
    easy_temperature = 0.3
    easy_worlds = 4
    think_rates: ClassVar[dict[int, float]] = {2: 34_000.0, 3: 25_000.0, 4: 23_000.0, 5: 18_500.0}
    exploration = 0.7
    playout_depth = None
    prior_visits = 10.0
    round_horizon = True
    """Stop playouts when the round in play has been drafted and judge the aquariums then (see `decided`)."""

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> TankState:
        """Sample the unseen cards."""
        return determinize(view, seat, rng)

    def clone(self, state: TankState) -> TankState:
        """Copy a state."""
        return clone(state)

    def estimate(self, state: TankState) -> list[float]:
        """Return scores after a greedy draft of the grid."""
        return estimate(state)

    def decided(self, state: TankState) -> bool:
        """Return True once a new round has been dealt: the draft that the search can see is over.

        Later rounds deal cards nobody has seen; playing them out with random splits only adds noise, so the
        aquariums are judged as they stand (unfinished sets earn part credit).
        """
        return self.round_horizon and state.phase == "split" and state.made == 1

    def playout_action(self, state: TankState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        """Take the group that helps most, split at random, and discard only what scores better gone."""
        if state.phase == "take":
            names = sorted(state.groups)
            groups = [tally(group_cards(state, state.groups[n])) for n in names]
            hands = [tally(h) for h in state.hands]
            return {"type": "take", "group": names[best_group(scorer(state), hands, seat, groups)]}
        if state.phase == "discard":
            return self._playout_discard(state, seat, actions)
        return rng.choice(actions)

    def _playout_discard(self, state: TankState, seat: int, actions: list[Action]) -> Action:
        """Discard the card whose loss raises the seat's own points most (one per kind: the lowest printed), or keep.

        Majority kinds are never worth discarding, so only the seat's other points are compared.
        """
        score = scorer(state)
        mine = tally(state.hands[seat])
        best: Action = {"type": "keep"}
        best_points = score.plain(mine, partial=True)
        tried: set[int] = set(MAJORITY)
        options = sorted((a for a in actions if a["type"] == "discard"), key=lambda a: CARD_VALUE[a["card"]])
        for action in options:
            kind = CARD_INDEX[action["card"]]
            if kind in tried:
                continue
            tried.add(kind)
            points = score.plain([n - m for n, m in zip(mine, tally((action["card"],)), strict=True)], partial=True)
            if points > best_points:
                best, best_points = action, points
        return best
