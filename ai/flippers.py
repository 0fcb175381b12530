"""Sample hidden Flippers hands, decks and discards from a view, and judge the table by the points it gives now."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ai.base import GameAI, sigmoid
from ai.flippers_kept import Kept, kept_weights
from ai.flippers_outlook import Weights, estimate, outlook
from engine.base import Action
from engine.flippers import GAME
from engine.flippers.cards import FOOD_IDS, team_cards
from engine.flippers.game import FlippersGame
from engine.flippers.state import FlippersState
from engine.flippers.table import Cell


def determinize(view: Mapping[str, Any], seat: int, rng: random.Random, kept: Kept | None = None) -> FlippersState:
    """Rebuild a state from `seat`'s view, dealing each seat's unseen cards at random to its hand, deck and discards.

    Every card on the table is where the view shows it; each seat's unseen cards are its own team's cards off the
    table, in the hand, deck and discard counts the view gives. With `kept` (ai/flippers_kept.py), the card a seat
    kept back at its latest play is drawn first into its hand by those weights; the rest are dealt uniformly.
    """
    players = view["players"]
    seats = view["seats"]
    cells: dict[Cell, str] = {}
    where: dict[str, Cell] = {}
    facing: dict[str, str] = {}
    face: dict[str, str] = {}
    for card in view["cards"]:
        cell = (card["col"], card["row"])
        cid = card["id"]
        cells[cell] = cid
        where[cid] = cell
        facing[cid] = card["facing"]
        face[cid] = card["face"]
    hands: list[list[str]] = []
    decks: list[list[str]] = []
    discards: list[list[str]] = []
    for s in range(players):
        off_table = [c for c in team_cards(s)[1:] if c not in where]
        if s == seat:
            hand = [c["id"] for c in view["hand"]]
            gone = [c["id"] for c in view["discarded_cards"]]
            deck = [c for c in off_table if c not in hand and c not in gone]
            rng.shuffle(deck)
        else:
            rng.shuffle(off_table)
            held, stock = seats[s]["hand_size"], seats[s]["deck_size"]
            if kept and s in kept and held:
                weights = kept[s]
                first = rng.choices(off_table, [weights[c] for c in off_table])[0]
                off_table.remove(first)
                off_table.insert(0, first)
            hand, deck, gone = off_table[:held], off_table[held : held + stock], off_table[held + stock :]
        hands.append(hand)
        decks.append(deck)
        discards.append(gone)
    engaged = [False] * players
    for marker in view["markers"]:
        engaged[marker["team"]] = True
    return FlippersState(
        players=players,
        teams_mode=view["teams_mode"],
        phase=view["phase"],
        cells=cells,
        where=where,
        facing=facing,
        face=face,
        hands=hands,
        decks=decks,
        discards=discards,
        unused_food=[f for f in FOOD_IDS if f not in where],
        chosen=[s["chosen"] for s in seats],
        resigned=[s["resigned"] for s in seats],
        stash=[s["stash"] for s in seats],
        supply=view["supply"],
        engaged=engaged,
        current=view["current"] if view["current"] is not None else 0,
        turn=view["turn"],
        played=view["played"],
        last_card=view.get("last_card"),
        last_plays=list(view.get("last_plays") or [None] * players),
        activated=list(view["activated"]),
        first=view["first"],
        seen=tuple(view["seen"][k] for k in ("min_col", "max_col", "min_row", "max_row")) if "seen" in view else None,  # type: ignore[arg-type]
    )


def clone(state: FlippersState) -> FlippersState:
    """Return an independent copy of a state."""
    return FlippersState(
        players=state.players,
        teams_mode=state.teams_mode,
        phase=state.phase,
        cells=dict(state.cells),
        where=dict(state.where),
        facing=dict(state.facing),
        face=dict(state.face),
        hands=[h[:] for h in state.hands],
        decks=[d[:] for d in state.decks],
        discards=[d[:] for d in state.discards],
        unused_food=state.unused_food[:],
        chosen=state.chosen[:],
        resigned=state.resigned[:],
        stash=state.stash[:],
        supply=state.supply,
        engaged=state.engaged[:],
        current=state.current,
        turn=state.turn,
        played=state.played,
        activated=state.activated[:],
        first=state.first,
        seen=state.seen,
        last_card=state.last_card,
        last_plays=state.last_plays,
    )


def finish_turn(ai: GameAI[FlippersState], state: FlippersState, seat: int) -> float:
    """Return `seat`'s easy score once it has activated its cards left this turn, each time the one scoring best."""
    game = ai.game
    while game.mid_turn(state, seat):
        best, best_score = state, -math.inf
        for action in game.legal_actions(state, seat):
            after = clone(state)
            game.apply(after, seat, action)
            score = ai.easy_score(after, seat)
            if score > best_score:
                best, best_score = after, score
        state = best
    return ai.easy_score(state, seat)


class FlippersAI(GameAI[FlippersState]):
    """Play Flippers."""

    key = "flippers"
    game: ClassVar[FlippersGame] = GAME
    margin_scale = 3.0
    easy_temperature = 0.25
    think_rates: ClassVar[dict[int, float]] = {2: 31_000.0, 3: 25_000.0, 4: 25_000.0, 5: 20_500.0, 6: 19_500.0}
    exploration = 0.7
    playout_depth = None
    root_width = 8
    search = "halving"
    infer: bool = False
    """Judge which card each opponent kept back from the card it played (ai/flippers_kept.py), else deal uniformly.

    Off: it guesses the kept card better (bench.kept) but did not make the hard player measurably stronger
    (docs/ai.md), and at 6 players it costs about 0.2 s of CPU per decision.
    """
    _kept: tuple[Mapping[str, Any], int, Kept] | None = None
    playout_tries: ClassVar[dict[int, int]] = {2: 3}
    """By player count: random plays a playout compares by their points at once (none: it plays any move)."""
    playout_depths: ClassVar[dict[int, int]] = {2: 12}
    """By player count: actions a playout plays before it judges the table by its outlook (none: to the end)."""
    outlook_weights: ClassVar[Weights] = Weights(food=(0.0, 0.2), leader=0.7, income=(0.05, 0.45))
    """How an unfinished table is judged: rounded from the fit of finished games (bench.flippers_fit, 2 players).

    Food arrows aimed now count little, since later plays move them; Plus and Minus cards count more as the game
    nears its end and fewer plays are left to stop them.
    """

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> FlippersState:
        """Sample the unseen cards (with `infer`, the card each opponent kept back by what it chose to play)."""
        return determinize(view, seat, rng, self.kept(view, seat) if self.infer else None)

    def kept(self, view: Mapping[str, Any], seat: int) -> Kept:
        """Return the kept-card weights of `view`, worked out once for all the worlds of one decision."""
        memo = self._kept
        if memo is not None and memo[0] is view and memo[1] == seat:
            return memo[2]
        weights = kept_weights(self, view, seat)
        self._kept = (view, seat, weights)
        return weights

    def clone(self, state: FlippersState) -> FlippersState:
        """Copy a state."""
        return clone(state)

    def estimate(self, state: FlippersState) -> list[float]:
        """Return the points the table gives now."""
        return estimate(state)

    def easy_value(self, state: FlippersState, seat: int) -> float:
        """Judge a play or an activation by the points once the rest of the turn is activated greedily."""
        return finish_turn(self, state, seat)

    def playout_limit(self, state: FlippersState) -> int | None:
        """Return the actions a playout plays before it judges the table, by player count (None: to the end)."""
        return self.playout_depths.get(state.players)

    def rewards(self, state: FlippersState) -> list[float]:
        """Return the rewards, judging an unfinished table also by what its Plus and Minus cards will still move."""
        if self.game.is_over(state):
            return super().rewards(state)
        estimates = outlook(state, self.outlook_weights)
        return [sigmoid(self.margin(estimates, state, s) / self.margin_scale) for s in range(state.players)]

    def playout_action(self, state: FlippersState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        """Play the best by its points at once of a few random plays where the table is small; else any action."""
        tries = self.playout_tries.get(state.players, 0)
        if not tries or len(actions) < 2 or actions[0]["type"] != "play":
            return rng.choice(actions)
        best, best_score = actions[0], -math.inf
        for _ in range(tries):
            action = rng.choice(actions)
            after = clone(state)
            self.game.apply(after, seat, action)
            score = self.margin(outlook(after, self.outlook_weights), after, seat)
            if score > best_score:
                best, best_score = action, score
        return best

    def playout_work(self, state: FlippersState, actions: list[Action]) -> int:
        """Return the plays `playout_action` tries on copies, engine actions beyond the one it picks."""
        tries = self.playout_tries.get(state.players, 0)
        return tries if tries and len(actions) > 1 and actions[0]["type"] == "play" else 0

    def opponents(self, state: FlippersState, seat: int) -> list[int]:
        """Return the seats still in play on other sides."""
        return [s for s in range(state.players) if state.opposed(s, seat) and not state.resigned[s]]

    def side(self, state: FlippersState, seat: int) -> int:
        """Return the seat's partnership."""
        return state.side(seat)
