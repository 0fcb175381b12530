"""Build 10 Gallon Tank positions for tests without breaking the one-place-per-card rule."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.base import Event
from engine.tank import GAME
from engine.tank.cards import CARDS, deck_for
from engine.tank.state import TankState


def cards_of(kind: str, players: int = 5) -> list[str]:
    """Return the ids of every card of one kind in the deck for `players`, in catalogue order."""
    return [c for c in deck_for(players) if CARDS[c].kind == kind]


def _locate(state: TankState, card: str) -> tuple[list[Any], int]:
    """Return the list holding a card and its index there."""
    for place in (state.deck, state.grid, *state.hands, state.discards):
        if card in place:
            return place, place.index(card)
    raise AssertionError(f"{card} is nowhere")


def place(state: TankState, index: int, card: str) -> None:
    """Put `card` on grid cell `index`, swapping whatever was there into the card's old spot."""
    source, at = _locate(state, card)
    source[at], state.grid[index] = state.grid[index], card


def give(state: TankState, seat: int, cards: list[str]) -> None:
    """Move cards from the deck or the grid into a seat's aquarium; a grid gap is refilled from the deck."""
    for card in cards:
        if card in state.grid:
            spare = next(c for c in reversed(state.deck) if c not in cards)
            state.deck.remove(spare)
            state.grid[state.grid.index(card)] = spare
        else:
            state.deck.remove(card)
        state.hands[seat].append(card)


def finish_splits(state: TankState) -> list[Event]:
    """Play the first legal split for every remaining split turn."""
    events: list[Event] = []
    while state.phase == "split":
        seat = GAME.to_act(state)[0]
        events += GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return events


def card_places(state: TankState) -> Counter[str]:
    """Count how many places hold each card."""
    everywhere = list(state.deck) + [c for c in state.grid if c is not None] + list(state.discards)
    for hand in state.hands:
        everywhere += hand
    return Counter(everywhere)


def play(
    state: TankState,
    rng: random.Random,
    after: Callable[[TankState, int, dict[str, Any], list[Event]], None] | None = None,
) -> list[Event]:
    """Play random legal actions until the game ends, calling `after` after each one."""
    log: list[Event] = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        action = rng.choice(GAME.legal_actions(state, seat))
        events = GAME.apply(state, seat, action)
        log += events
        if after is not None:
            after(state, seat, action, events)
    return log
