"""Build Flippers tables by hand and play seeded random games for the tests."""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.base import Action
from engine.flippers import GAME
from engine.flippers.cards import FOOD_IDS, STARTING_STASH, SUPPLY_TOTAL, team_cards
from engine.flippers.game import open_cells
from engine.flippers.state import LEADERS, PLAY, SETUP, FlippersState
from engine.flippers.table import DIRECTIONS, label, parse_label

NAMES = ["Ana", "Bob", "Cy", "Di", "Eve", "Fay"]


def table(
    cards: Iterable[tuple[str, str, str, str]] = (),
    hands: dict[int, list[str]] | None = None,
    players: int = 2,
    teams: bool = False,
    current: int = 0,
) -> FlippersState:
    """Return a state in play with `cards` as (id, cell, facing, face) and the given hands.

    Cards neither on the table nor in a hand sit in their owner's discard pile; the seat to move
    has not played yet.
    """
    state = FlippersState(
        players=players,
        teams_mode=teams,
        phase=PLAY,
        cells={},
        where={},
        facing={},
        face={},
        hands=[list((hands or {}).get(seat, [])) for seat in range(players)],
        decks=[[] for _ in range(players)],
        discards=[[] for _ in range(players)],
        unused_food=[],
        chosen=[True] * players,
        resigned=[False] * players,
        stash=[STARTING_STASH] * players,
        supply=SUPPLY_TOTAL - STARTING_STASH * players,
        engaged=[False] * players,
        current=current,
        turn=1,
    )
    for cid, cell, facing, face in cards:
        spot = parse_label(cell)
        assert spot is not None and spot not in state.cells
        state.place(cid, spot, facing, face)
    for seat in range(players):
        state.discards[seat] = [
            c for c in team_cards(seat)[1:] if c not in state.where and c not in state.hands[seat]
        ]
    state.unused_food = [f for f in FOOD_IDS if f not in state.where]
    return state


def at(state: FlippersState, cell: str) -> str | None:
    """Return the id of the card on a labelled cell, or None."""
    spot = parse_label(cell)
    return None if spot is None else state.cells.get(spot)


def cell_of(state: FlippersState, cid: str) -> str:
    """Return the label of the cell holding card `cid`."""
    return label(state.where[cid])


def play(state: FlippersState, card: str, cell: str, facing: str, seat: int | None = None) -> list:
    """Play `card` from the hand of the seat to move (or `seat`)."""
    who = state.current if seat is None else seat
    return GAME.apply(state, who, {"type": "play", "card": card, "cell": cell, "facing": facing})


def activate(state: FlippersState, card: str, seat: int | None = None) -> list:
    """Activate `card` (id or cell label) for the seat to move (or `seat`)."""
    who = state.current if seat is None else seat
    return GAME.apply(state, who, {"type": "activate", "card": card})


def random_action(state: FlippersState, seat: int, rng: random.Random) -> Action:
    """Pick a legal action at random without listing every placement."""
    if state.phase == PLAY and state.played is None:
        return {
            "type": "play",
            "card": rng.choice(state.hands[seat]),
            "cell": label(rng.choice(open_cells(state))),
            "facing": rng.choice(DIRECTIONS),
        }
    return rng.choice(GAME.legal_actions(state, seat))


def place_leaders(state: FlippersState, rng: random.Random | None = None) -> FlippersState:
    """Place every Leader (the first legal cell, or one at random with `rng`), leaving the setup discards."""
    while state.phase == LEADERS:
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, rng.choice(actions) if rng else actions[0])
    return state


def new_setup(players: int, seed: int, teams: bool = False) -> FlippersState:
    """Return a new game with every Leader placed at random, waiting for the setup discards."""
    return place_leaders(GAME.new_game(players, {"teams": teams}, seed), random.Random(seed))


def new_started(players: int, seed: int, teams: bool = False) -> FlippersState:
    """Return a new game with every Leader placed and every setup discard chosen at random."""
    state = new_setup(players, seed, teams)
    rng = random.Random(seed)
    for seat in GAME.to_act(state) if state.phase == SETUP else []:
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state
