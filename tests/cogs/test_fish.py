"""Check the Hey, That's My Fish! Discord adapter without networking: menus, choices and standings."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.fish import (
    FishAdapter,
    FishCog,
    destination_lines,
    destination_options,
    place_choices,
    slides,
    start_choices,
)
from engine.base import Outcome, Standing
from engine.fish import GAME
from engine.fish.game import FishState
from i18n import using
from storage.database import ACTIVE, GameRow, Seat
from tests.engine.fish.helpers import position
from ui.adapter import Board, register
from ui.components import ComponentHit
from ui.errors import UserError
from ui.reply_menus import game_of

NAMES = ["Ana", "Bo", "Cy", "Di"]
ADAPTER = FishAdapter()
GAME_ID, VERSION, USER_BASE = 42, 7, 1000
ANSWER_ID = 555


@pytest.fixture(autouse=True)
def _registered() -> None:
    """Make the flow find this adapter, as the cog's setup does."""
    register(ADAPTER)


def _board(state: FishState) -> Board:
    """Return the live board of a saved active game holding `state`."""
    seats = [Seat(s, USER_BASE + s, NAMES[s]) for s in range(state.players)]
    row = GameRow(GAME_ID, 1, 2, "fish", ACTIVE, USER_BASE, {}, 1, GAME.dump(state), VERSION, None, "", "", seats)
    return Board(row, GAME, state, VERSION, False)


@dataclass
class FakeResponse:
    """Record what an interaction was answered with."""

    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> Any:
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(message_id=ANSWER_ID)


@dataclass
class FakeReplies:
    """Record the private answers noted as carrying a live menu (ui/reply_menus.py)."""

    noted: list[tuple[int | None, int | None]] = field(default_factory=list)

    async def sent(self, interaction: Any, view: discord.ui.View | None, message_id: int | None = None) -> None:
        self.noted.append((game_of(view), message_id))


def _press(seat: int, **namespace: str) -> Any:
    """Return a stand-in for an interaction by `seat`."""
    return SimpleNamespace(
        user=SimpleNamespace(id=USER_BASE + seat),
        channel_id=5,
        response=FakeResponse(),
        namespace=SimpleNamespace(**namespace),
        client=SimpleNamespace(flow=SimpleNamespace(private=SimpleNamespace(replies=FakeReplies()))),
    )


def _selects(view: discord.ui.View) -> list[discord.ui.Select[Any]]:
    """Return the select menus of a view."""
    items = [getattr(item, "item", item) for item in view.children]
    return [item for item in items if isinstance(item, discord.ui.Select)]


def _midgame(players: int, seed: int) -> FishState:
    """Return a random game just after the last placement."""
    state = GAME.new_game(players, {}, seed)
    rng = random.Random(seed)
    while state.phase == "placement":
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def test_destinations_are_grouped_by_direction_with_fish_counts() -> None:
    # C4 looks east over C5 (2 fish) and C6 (1 fish), then water at C7; west over C3 (3 fish) to C1.
    state = position([["C4"], ["H8"]], fish={"C5": 2, "C3": 3}, water={"C7", "B4", "B5", "D4", "D5"})
    groups = slides(state, 0, "C4")
    assert destination_lines(state, groups) == ["→ east: C5 (2), C6 (1)", "← west: C3 (3), C2 (1), C1 (1)"]
    assert destination_options(state, groups)[:3] == [
        ("→ east: C5 · 2 fish", "C5", "1 tile east"),
        ("→ east: C6 · 1 fish", "C6", "2 tiles east"),
        ("← west: C3 · 3 fish", "C3", "1 tile west"),
    ]


def test_every_menu_option_and_choice_fits_discord_limits_uncut() -> None:
    for seed in range(40):
        state = _midgame(2 + seed % 3, seed)
        seat = GAME.to_act(state)[0]
        starts = start_choices(state, seat)
        assert 0 < len(starts) <= 25
        for label, value, description in starts:
            assert len(label) <= 100 and len(description) <= 100
            groups = slides(state, seat, value)
            options = destination_options(state, groups)
            assert {o[1] for o in options} == {a["to"] for a in GAME.legal_actions(state, seat) if a["from"] == value}
            assert len(options) <= 25
            assert all(len(o[0]) <= 100 and len(o[2]) <= 100 for o in options)


def test_placement_choices_show_the_fish_on_each_free_tile() -> None:
    state = GAME.new_game(2, {}, seed=3)
    choices = place_choices(state, 0)
    assert [value for _, value in choices] == [a["tile"] for a in GAME.legal_actions(state, 0)]
    assert all(label == f"{value} · 1 fish" for label, value in choices)


def test_the_pick_a_penguin_menu_shows_fish_and_move_counts() -> None:
    state = position([["C4", "H8"], ["A1"]], fish={"C4": 3}, water={"G7", "H7"})
    # H8 is boxed in by water, so only C4 can be picked.
    (menu,) = ADAPTER.board_items(_board(state))
    options = _selects(_view(menu))[0].options
    assert [(o.label, o.value) for o in options] == [("C4 · 3 fish", "C4")]
    assert options[0].description == f"{len([a for a in GAME.legal_actions(state, 0)])} possible moves"


def _view(item: Any) -> discord.ui.View:
    """Put one component in a view."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return view


async def test_picking_a_penguin_answers_privately_with_grouped_destinations() -> None:
    state = position([["C4"], ["H8"]], fish={"C5": 2, "C3": 3}, water={"C7", "B4", "B5", "D4", "D5"})
    press = _press(0)
    await ADAPTER.on_component(None, press, _board(state), ComponentHit(GAME_ID, VERSION, "from", ("C4",)))  # type: ignore[arg-type]
    (sent,) = press.response.sent
    assert sent["ephemeral"]
    assert press.client.flow.private.replies.noted == [(GAME_ID, ANSWER_ID)], "greyed out when the game ends"
    assert sent["content"].splitlines() == [
        "Where should the penguin on C4 go? Tiles with their fish:",
        "→ east: C5 (2), C6 (1)",
        "← west: C3 (3), C2 (1), C1 (1)",
    ]
    labels = [o.label for menu in _selects(sent["view"]) for o in menu.options]
    assert labels == [
        "→ east: C5 · 2 fish",
        "→ east: C6 · 1 fish",
        "← west: C3 · 3 fish",
        "← west: C2 · 1 fish",
        "← west: C1 · 1 fish",
    ]


async def test_picking_a_penguin_out_of_turn_says_whose_turn_it_is() -> None:
    state = position([["C4"], ["H8"]])
    with pytest.raises(UserError, match="not your turn: it is Ana's turn"):
        await ADAPTER.on_component(None, _press(1), _board(state), ComponentHit(GAME_ID, VERSION, "from", ("H8",)))  # type: ignore[arg-type]


def test_final_standings_give_fish_and_tiles() -> None:
    outcome = Outcome(
        [
            Standing(1, 30, 1, True, {"fish": 30, "tiles": 14, "resigned": False}),
            Standing(0, 30, 2, False, {"fish": 30, "tiles": 12, "resigned": False}),
            Standing(2, 9, 3, False, {"fish": 9, "tiles": 1, "resigned": True}),
        ],
    )
    assert ADAPTER.standings_lines(outcome, NAMES) == [
        "1. 🏆 Bo: 30 fish, 14 tiles",
        "2. Ana: 30 fish, 12 tiles",
        "3. Cy (resigned): 9 fish, 1 tile",
    ]


def test_board_files_count_turns_from_the_first_move() -> None:
    state = GAME.new_game(2, {}, seed=5)
    assert ADAPTER.board_picture(GAME.view(state, None), NAMES).filename == "fish-placement-1.png"
    state = _midgame(2, 5)
    assert ADAPTER.board_picture(GAME.view(state, None), NAMES).filename == "fish-turn-1.png"


@dataclass
class FakeLoader:
    """Serve one live state to the cog, seating users by id."""

    state: FishState

    async def caller_seat(self, interaction: Any, kind: str) -> tuple[FishState, int] | None:
        seat = interaction.user.id - USER_BASE
        return (self.state, seat) if 0 <= seat < self.state.players else None


async def test_autocomplete_names_carry_fish_counts() -> None:
    state = position([["C4"], ["H8"]], fish={"C5": 2, "C3": 3, "C4": 2}, water={"C7", "B4", "B5", "D4", "D5"})
    cog = FishCog(SimpleNamespace(flow=FakeLoader(state)))  # type: ignore[arg-type]
    starts = await cog.move_starts(_press(0), "")
    assert [(c.name, c.value) for c in starts] == [("C4 · 2 fish (5 possible moves)", "C4")]
    ends = await cog.move_ends(_press(0, **{"from": "c4"}), "C3")
    assert [(c.name, c.value) for c in ends] == [("← west: C3 · 3 fish", "C3")]
    assert await cog.move_starts(_press(3), "") == []


def test_standings_read_in_the_game_language_with_counts_in_the_right_form() -> None:
    outcome = Outcome(
        [
            Standing(1, 30, 1, True, {"fish": 30, "tiles": 14, "resigned": False}),
            Standing(2, 1, 2, False, {"fish": 1, "tiles": 1, "resigned": True}),
        ],
    )
    with using("de"):
        assert ADAPTER.standings_lines(outcome, NAMES) == [
            "1. 🏆 Bo: 30 Fische, 14 Schollen",
            "2. Cy (aufgegeben): 1 Fisch, 1 Scholle",
        ]
    with using("ja"):
        lines = ADAPTER.standings_lines(outcome, NAMES)
    assert lines == ["1. 🏆 Bo：魚30匹、タイル14枚", "2. Cy（投了）：魚1匹、タイル1枚"]


async def test_destinations_and_menus_are_offered_in_the_players_language() -> None:
    state = position([["C4"], ["H8"]], fish={"C5": 2, "C3": 3, "C4": 2}, water={"C7", "B4", "B5", "D4", "D5"})
    with using("es"):
        options = destination_options(state, slides(state, 0, "C4"))
        assert ("← oeste: C3 · 3 peces", "C3", "1 placa al oeste") in options
        assert ("← oeste: C1 · 1 pez", "C1", "3 placas al oeste") in options
        assert start_choices(state, 0) == [("C4 · 2 peces", "C4", "5 jugadas posibles")]
        press = _press(0)
        await ADAPTER.on_component(None, press, _board(state), ComponentHit(GAME_ID, VERSION, "from", ("C4",)))  # type: ignore[arg-type]
    sent = press.response.sent[0]
    assert sent["content"].splitlines()[0] == "¿A dónde debe ir el pingüino de C4? Placas con sus peces:"
    assert "← oeste: C3 (3), C2 (1), C1 (1)" in sent["content"].splitlines()
    assert _selects(sent["view"])[0].placeholder == "Mover C4 a…"
    with using("pt_BR"), pytest.raises(UserError, match=r"^Escolha uma opção do menu\.$"):
        await ADAPTER.on_component(None, _press(0), _board(state), ComponentHit(GAME_ID, VERSION, "from", ()))  # type: ignore[arg-type]


def test_placement_menu_names_fish_in_japanese() -> None:
    state = GAME.new_game(2, {}, seed=5)
    with using("ja"):
        items = ADAPTER.board_items(_board(state))
        choices = place_choices(state, 0)
    assert {label.split(" · ")[1] for label, _value in choices} == {"魚1匹"}
    menus = [getattr(item, "item", item) for item in items]
    assert menus[0].placeholder.startswith("ペンギンを置くタイル…")
