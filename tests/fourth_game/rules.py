"""Play Nim with hidden cards: the rules of the test-only fourth game (pure: no Discord, no I/O, no clock).

Three piles of stones. Each player holds two hidden cards worth 1, 2 or 3. On your turn take 1 to N stones from
one pile, where N is the value of a card you play (your lowest card that allows it), then draw a card. Whoever
takes the last stone wins; the others rank by the stones they took.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.base import Action, CorruptState, Event, Game, IllegalAction, Outcome, Standing

PILES = "ABC"
VALUES = (1, 2, 3)
COPIES = 10
"""Cards of each value: 30 cards outlast any game (at most 21 stones, so 21 plays, plus 8 dealt)."""
HAND = 2
PLAY, OVER = "play", "over"


@dataclass
class NimState:
    """Hold one game: piles, hidden hands, the face-down deck, stones taken and whose turn it is."""

    players: int
    piles: list[int]
    hands: list[list[int]]
    deck: list[int]
    taken: list[int]
    resigned: list[bool]
    played: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Cards played face up so far, by value 1, 2, 3."""
    current: int = 0
    phase: str = PLAY
    winner: int | None = None
    moves: int = 0
    last: dict[str, Any] | None = None

    def copy(self) -> NimState:
        """Return an independent copy."""
        return NimState(
            self.players,
            self.piles[:],
            [h[:] for h in self.hands],
            self.deck[:],
            self.taken[:],
            self.resigned[:],
            self.played[:],
            self.current,
            self.phase,
            self.winner,
            self.moves,
            None if self.last is None else dict(self.last),
        )


def _whole(value: Any, what: str) -> int:
    """Return `value` as a whole number or refuse the action, quoting what was sent."""
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip().isdigit():
        raise IllegalAction(f"The number of {what} must be a whole number, not “{value}”.")
    return int(value)


class NimGame(Game[NimState]):
    """Implement Nim with hidden cards for 2-4 players."""

    key = "nim"
    title = "Nim"
    min_players = 2
    max_players = 4
    schema_version = 1
    hidden_information = True

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> NimState:
        """Deal three piles of 3-7 stones and two cards to each seat, all from the seed."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(f"Nim needs {self.min_players} to {self.max_players} players, not {players}.")
        rng = random.Random(seed)
        piles = [rng.randint(3, 7) for _ in PILES]
        deck = [v for v in VALUES for _ in range(COPIES)]
        rng.shuffle(deck)
        hands = [sorted(deck.pop() for _ in range(HAND)) for _ in range(players)]
        return NimState(players, piles, hands, deck, [0] * players, [False] * players)

    def to_act(self, state: NimState) -> list[int]:
        """Return the seat to move, or nobody once the game is over."""
        return [] if state.phase == OVER else [state.current]

    def legal_actions(self, state: NimState, seat: int) -> list[Action]:
        """Return every (pile, stones) the seat's best card allows, pile by pile."""
        if seat not in self.to_act(state):
            return []
        most = max(state.hands[seat])
        return [
            {"type": "take", "pile": PILES[p], "stones": n}
            for p, size in enumerate(state.piles)
            for n in range(1, min(size, most) + 1)
        ]

    def apply(self, state: NimState, seat: int, action: Action) -> list[Event]:
        """Take stones with the lowest card that allows it, draw, and pass the turn or end the game."""
        if state.phase == OVER:
            raise IllegalAction("This game is over.")
        if seat != state.current:
            raise IllegalAction("It is not your turn.")
        if action.get("type") != "take":
            raise IllegalAction(f"Nim has no action “{action.get('type')}”: take stones from a pile.")
        pile = str(action.get("pile", "")).strip().upper()
        if len(pile) != 1 or pile not in PILES:
            raise IllegalAction(f"There is no pile “{action.get('pile')}”: the piles are A, B and C.")
        stones = _whole(action.get("stones"), "stones")
        size = state.piles[PILES.index(pile)]
        if size == 0:
            raise IllegalAction(f"Pile {pile} is empty.")
        if not 1 <= stones <= size:
            raise IllegalAction(f"Take from 1 to {size} stones from pile {pile}, not {stones}.")
        cards = [c for c in state.hands[seat] if c >= stones]
        if not cards:
            raise IllegalAction(f"Your highest card is {max(state.hands[seat])}: you cannot take {stones} stones.")
        card = min(cards)
        state.hands[seat].remove(card)
        state.played[card - 1] += 1
        state.piles[PILES.index(pile)] -= stones
        state.taken[seat] += stones
        state.moves += 1
        state.last = {"seat": seat, "pile": pile, "stones": stones, "card": card}
        events = [Event("take", seat, {"pile": pile, "stones": stones, "card": card})]
        if state.deck:
            drawn = state.deck.pop()
            state.hands[seat] = sorted([*state.hands[seat], drawn])
            events.append(Event("draw", seat, {"card": drawn}, private_to=seat))
        if not any(state.piles):
            return events + self._finish(state, seat)
        return events + self._advance(state)

    def _advance(self, state: NimState) -> list[Event]:
        """Pass the turn to the next seat still playing."""
        for step in range(1, state.players + 1):
            seat = (state.current + step) % state.players
            if not state.resigned[seat]:
                state.current = seat
                return []
        raise AssertionError("nobody is left to play")

    def _finish(self, state: NimState, winner: int) -> list[Event]:
        """End the game with `winner` on top."""
        state.phase, state.winner = OVER, winner
        return [Event("end", winner, {"winner": winner})]

    def resign(self, state: NimState, seat: int) -> list[Event]:
        """Take a seat out; the last one still playing wins."""
        if state.phase == OVER or state.resigned[seat]:
            return []
        state.resigned[seat] = True
        events = [Event("resign", seat)]
        playing = [s for s in range(state.players) if not state.resigned[s]]
        if len(playing) == 1:
            return events + self._finish(state, playing[0])
        if state.current == seat:
            events += self._advance(state)
        return events

    def is_over(self, state: NimState) -> bool:
        """Return True once the last stone is taken or one player is left."""
        return state.phase == OVER

    def outcome(self, state: NimState) -> Outcome:
        """Rank the last taker first, then by stones taken; resigned seats come last."""

        def key(seat: int) -> tuple[bool, bool, int]:
            return (seat != state.winner, state.resigned[seat], -state.taken[seat])

        standings: list[Standing] = []
        for seat in sorted(range(state.players), key=key):
            same = standings and key(standings[-1].seat) == key(seat)
            rank = standings[-1].rank if same else len(standings) + 1
            detail = {"stones": state.taken[seat], "resigned": state.resigned[seat]}
            standings.append(Standing(seat, state.taken[seat], rank, seat == state.winner, detail))
        return Outcome(standings)

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        """Return the piles, counts and last take; a seat also sees its own hand."""
        public: dict[str, Any] = {
            "piles": dict(zip(PILES, state.piles, strict=True)),
            "hand_sizes": [len(h) for h in state.hands],
            "deck": len(state.deck),
            "played": state.played[:],
            "taken": state.taken[:],
            "resigned": state.resigned[:],
            "to_act": self.to_act(state),
            "phase": state.phase,
            "winner": state.winner,
            "moves": state.moves,
            "last": state.last,
        }
        if seat is not None:
            public |= {"seat": seat, "hand": state.hands[seat][:]}
        return public

    def dump(self, state: NimState) -> dict[str, Any]:
        """Return the whole state as JSON-safe data."""
        return {
            "schema": self.schema_version,
            "players": state.players,
            "piles": state.piles,
            "hands": state.hands,
            "deck": state.deck,
            "taken": state.taken,
            "resigned": state.resigned,
            "played": state.played,
            "current": state.current,
            "phase": state.phase,
            "winner": state.winner,
            "moves": state.moves,
            "last": state.last,
        }

    def load(self, data: Mapping[str, Any]) -> NimState:
        """Rebuild a state from `dump`; raise CorruptState on anything malformed."""
        if data.get("schema") != self.schema_version:
            raise CorruptState(f"unknown Nim schema {data.get('schema')!r}")
        try:
            state = NimState(
                int(data["players"]),
                [int(n) for n in data["piles"]],
                [[int(c) for c in hand] for hand in data["hands"]],
                [int(c) for c in data["deck"]],
                [int(n) for n in data["taken"]],
                [bool(r) for r in data["resigned"]],
                [int(n) for n in data["played"]],
                int(data["current"]),
                str(data["phase"]),
                None if data["winner"] is None else int(data["winner"]),
                int(data["moves"]),
                None if data["last"] is None else dict(data["last"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptState(f"malformed Nim state: {exc}") from exc
        sizes = {len(state.hands), len(state.taken), len(state.resigned)}
        if sizes != {state.players} or len(state.piles) != len(PILES) or state.phase not in (PLAY, OVER):
            raise CorruptState("malformed Nim state: seats, piles or phase do not fit")
        return state

    def describe(self, event: Event, names: Sequence[str]) -> str:
        """Summarise a public event in one sentence."""
        if event.kind == "take":
            d = event.data
            stones = "1 stone" if d["stones"] == 1 else f"{d['stones']} stones"
            return f"{names[event.seat or 0]} took {stones} from pile {d['pile']} with a {d['card']} card."
        if event.kind == "end":
            return f"{names[event.data['winner']]} took the last stone and wins."
        if event.kind == "resign":
            return f"{names[event.seat or 0]} resigned."
        return ""

    def status(self, state: NimState, names: Sequence[str]) -> str:
        """Say whose turn it is."""
        if state.phase == OVER:
            return "The game is over."
        return f"Move {state.moves + 1} · {names[state.current]} takes stones."

    def rules_text(self) -> str:
        """Return the rules in a few lines."""
        return (
            "Three piles of stones, A, B and C. Each player holds two hidden cards worth 1, 2 or 3.\n"
            "On your turn take 1 to N stones from one pile, where N is a card you play (the bot plays your lowest "
            "card that allows it); then you draw a card.\n"
            "Whoever takes the last stone wins; the others rank by the stones they took."
        )
