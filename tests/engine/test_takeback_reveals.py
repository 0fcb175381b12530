"""Check that no takeback, computer replies included, goes back to a state whose secrets someone has since seen."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.registry import get
from engine.takeback import Refused, last_moves, undoable

TABLES = [
    ("fish", 3, {}, {1, 2}),
    ("tank", 2, {}, {1}),
    ("tank", 4, {}, {1, 3}),
    ("flippers", 2, {}, {1}),
    ("flippers", 3, {}, {0, 2}),
    ("flippers", 4, {"teams": True}, {1, 2, 3}),
]
SEEDS = range(1, 5)
KINDS_OF_REVEAL = {"fish": {"end"}, "tank": {"deck", "end"}, "flippers": {"deck", "hand", "end"}}
"""What each game can show that was hidden: a card from a deck, a card from another's hand, the end (final)."""


def reveals(kind: str, back: Any, now: Any, asker: int, over: tuple[bool, bool]) -> set[str]:
    """Return what going from `now` back to `back` would hide again although everyone (or someone) has seen it.

    Read from the states themselves, not from the events the engine judges by: a deck whose top was drawn or
    dealt, a card now on the table that goes back into a hand other than the asker's, the final reveal.
    """
    found = {"end"} if over == (False, True) else set()
    if kind == "tank" and back.deck != now.deck:
        found.add("deck")
    if kind == "flippers":
        if back.decks != now.decks:
            found.add("deck")
        for seat in range(back.players):
            returned = set(back.hands[seat]) - set(now.hands[seat])
            if seat != asker and returned & set(now.where):
                found.add("hand")
    return found


@pytest.mark.parametrize(("kind", "players", "options", "bots"), TABLES)
def test_a_takeback_never_hides_again_what_was_shown(
    kind: str, players: int, options: dict[str, Any], bots: set[int]
) -> None:
    """Play random games with computer seats; at every point, ask every person's takeback (replies included).

    Each takeback the engine allows must go back to a state every seat could still be in as far as it has seen:
    no deck drawn from since, no card of another seat's hand shown on the table since, not past the game's end.
    Each kind of reveal the game has must come up and be refused, and takebacks of replies must be allowed too.
    """
    game = get(kind)
    refused: Counter[str] = Counter()
    allowed = with_replies = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_game(players, options, seed)
        states = [game.dump(state)]
        log: list[dict[str, Any]] = []
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            action = rng.choice(game.legal_actions(state, seat))
            events = game.apply(state, seat, action)
            logged = [e.to_json() for e in events]
            log.append({"version": len(log) + 2, "seat": seat, "action": action, "events": logged})
            states.append(game.dump(state))
            for asker in sorted(set(range(players)) - bots):
                try:
                    undo = last_moves(log, bots, asker)
                except Refused:
                    continue
                back = game.load(states[len(log) - len(undo)])
                shown = reveals(kind, back, state, asker, (game.is_over(back), game.is_over(state)))
                try:
                    undoable(kind, log, bots, asker)
                except Refused:
                    refused.update(shown)
                    continue
                assert not shown, f"{kind} seed {seed}: taking back {[e['action'] for e in undo]} hides {shown} again"
                allowed += 1
                with_replies += len(undo) > 1
    assert set(refused) == KINDS_OF_REVEAL[kind], refused
    assert allowed > 0 and with_replies > 0
