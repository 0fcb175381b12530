"""Play whole 10 Gallon Tank games on the table by taps alone, on a phone and a desktop, checking sizes at each step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from engine.tank import GAME
from engine.tank.grid import label
from table.views.tank import table_view
from tests.table.hotseat import DESKTOP, PHONE, HotSeat, audit, opened, static_server, tap, tap_to_move

NAMES = ["Ana", "Bo", "Cy", "Dmitri Alexandrovich", "Eve"]


def play_one(page: Any, hot: HotSeat, rng: random.Random) -> str:
    """Make one random legal move of the seat to act by tapping it: a cut, a group, a discard or keep; name it."""
    seat = hot.seat()
    action = rng.choice(GAME.legal_actions(hot.state, seat))
    if action["type"] == "split":
        tap(page, f'.tk-cut[data-line="{action["line"]}"][data-group="{label(action["group"])}"]')
        assert page.locator(".tk-prompt").inner_text().startswith(f"Split group {label(action['group'])}: ")
        tap_to_move(page, ".tk-confirm")
    elif action["type"] == "take":
        tap(page, f'.tk-take[data-group="{label(action["group"])}"]')
        tap_to_move(page, ".tk-confirm")
    elif action["type"] == "discard":
        tap(page, f'.tk-pickable[data-card="{action["card"]}"]')
        tap_to_move(page, ".tk-confirm")
    else:
        tap_to_move(page, ".tk-keep")
    return str(action["type"])


# Two players at both sizes are played against the bot in test_tank_table.py; here three and five, hot seat.
@pytest.mark.parametrize(("size", "players", "seed"), [(PHONE, 3, 11), (DESKTOP, 5, 4)])
def test_a_whole_game_is_played_by_taps_with_every_target_and_text_big_enough(
    size: tuple[int, int], players: int, seed: int
) -> None:
    hot = HotSeat(GAME, table_view, GAME.new_game(players, {}, seed), NAMES[:players], "en")
    rng = random.Random(seed)
    with sync_playwright() as pw, static_server() as base, opened(pw, base, "tank", hot, size) as page:
        kinds: set[str] = set()
        while not GAME.is_over(hot.state):
            assert audit(page) == [], f"move {hot.moves}"
            moves = hot.moves
            kinds.add(play_one(page, hot, rng))
            assert hot.moves == moves + 1
        assert audit(page) == []
        assert page.errors == []
    assert {"split", "take", "discard"} <= kinds and hot.moves > 10
