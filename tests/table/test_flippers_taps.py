"""Play whole Flippers games on the table by taps alone, on a phone and a desktop, checking sizes at each step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from engine.flippers import GAME
from table.views.flippers import table_view
from tests.table.hotseat import DESKTOP, PHONE, HotSeat, audit, opened, static_server, tap, tap_to_move

NAMES = ["Ana", "Bo", "Cy", "Dmitri Alexandrovich", "Eve", "Fay"]

IN_SIGHT = """selector => [...document.querySelectorAll(selector)].filter((el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit && el.contains(hit);
}).map((el) => el.dataset.cell || el.dataset.facing)"""
"""Return the cells (or facings) of the elements a finger can tap now: in sight and not under another element."""


def in_sight(page: Any, selector: str) -> list[str]:
    """Return the cells or facings the elements `selector` finds show where a tap reaches them."""
    return list(page.evaluate(IN_SIGHT, selector))


def place(page: Any, rng: random.Random, legal: set[tuple[str, str]]) -> None:
    """Tap a lit cell in sight, then one of its arrows in sight: a legal placement."""
    cells = sorted({cell for cell, _ in legal} & set(in_sight(page, ".fl-lit")))
    assert cells, "no lit cell can be tapped"
    cell = rng.choice(cells)
    tap(page, f'.fl-lit[data-cell="{cell}"]')
    facings = sorted({d for c, d in legal if c == cell} & set(in_sight(page, ".fl-facing")))
    assert facings, f"no arrow of {cell} can be tapped"
    tap_to_move(page, f'.fl-facing[data-facing="{rng.choice(facings)}"]')


def play_one(page: Any, hot: HotSeat, rng: random.Random) -> str:
    """Make one random legal move of the seat to act by tapping: Leader, discards, a card and cell, or an activation."""
    seat = hot.seat()
    actions = GAME.legal_actions(hot.state, seat)
    kind = actions[0]["type"]
    if kind == "leader":
        tap(page, ".fl-usable")
        place(page, rng, {(a["cell"], a["facing"]) for a in actions})
    elif kind == "discard":
        for card in rng.choice(actions)["cards"]:
            tap(page, f'[data-hand="{card}"]')
        tap_to_move(page, ".fl-discard")
    elif kind == "play":
        card = rng.choice(actions)["card"]
        tap(page, f'[data-hand="{card}"]')
        place(page, rng, {(a["cell"], a["facing"]) for a in actions if a["card"] == card})
    else:
        cells = {c["cell"]: c["id"] for c in hot.view(GAME, hot.state, seat, hot.names, None)["cards"]}
        due = [cell for cell in in_sight(page, ".fl-due") if cell in cells]
        assert due, "no card to activate can be tapped"
        tap_to_move(page, f'.fl-due[data-cell="{rng.choice(due)}"]')
    return str(kind)


ALL = {"leader", "discard", "play", "activate"}
# Two players at both sizes are played against the bot in test_flippers_table.py; here four, and six in teams
# (six on a phone: the pan and zoom test below).


@pytest.mark.parametrize(
    ("size", "players", "teams", "seed", "tapped"),
    [
        (PHONE, 4, False, 3, ALL),
        (DESKTOP, 6, True, 8, ALL - {"discard"}),  # six players discard their whole draw by themselves
    ],
)
def test_a_whole_game_is_played_by_taps_with_every_target_and_text_big_enough(
    size: tuple[int, int], players: int, teams: bool, seed: int, tapped: set[str]
) -> None:
    hot = HotSeat(GAME, table_view, GAME.new_game(players, {"teams": teams}, seed), NAMES[:players], "en")
    rng = random.Random(seed)
    with sync_playwright() as pw, static_server() as base, opened(pw, base, "flippers", hot, size) as page:
        kinds: set[str] = set()
        while not GAME.is_over(hot.state):
            assert audit(page) == [], f"move {hot.moves}"
            moves = hot.moves
            kinds.add(play_one(page, hot, rng))
            assert hot.moves == moves + 1, page.evaluate("window.refusals")
        assert audit(page) == []
        assert page.errors == []
    assert hot.moves > 3 * players and kinds == tapped


def test_the_board_pans_and_zooms_without_sending_a_move_and_no_card_shrinks_under_44_px() -> None:
    state = GAME.new_game(6, {"teams": True}, 8)
    rng = random.Random(8)
    for _ in range(45):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    hot = HotSeat(GAME, table_view, state, NAMES, "en")
    with sync_playwright() as pw, static_server() as base, opened(pw, base, "flippers", hot, PHONE) as page:
        layer = page.locator(".fl-board > g").first
        before = layer.get_attribute("transform")
        box = page.locator(".fl-stage").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 90, y + 40, steps=6)
        page.mouse.up()
        assert layer.get_attribute("transform") != before
        assert page.evaluate("window.sent") == []  # a drag is never a tap
        for _ in range(8):
            tap(page, '.fl-zbtn[title="Zoom out"]')
        widths = page.evaluate("() => [...document.querySelectorAll('.fl-card')].map((c) => c.getBBox().width)")
        scale = page.evaluate("() => document.querySelector('.fl-board > g').getCTM().a")
        assert min(widths) * scale >= 44
        assert audit(page) == []
        tap(page, '.fl-zbtn[title="Show the whole table"]')
        assert audit(page) == [] and page.evaluate("window.sent") == []
        assert page.errors == []
