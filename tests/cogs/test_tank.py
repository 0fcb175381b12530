"""Check the 10 Gallon Tank Discord adapter without networking: board menus, private views and hidden cards."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cogs.tank as tank_cog
import cogs.tank.adapter as tank_adapter
import cogs.tank.words as tank_words
from cogs.tank import (
    KEEP,
    TankAdapter,
    TankCog,
    discard_action,
    discard_choices,
    split_groups,
    split_lines,
    take_groups,
)
from engine.base import Event, Outcome, Standing
from engine.tank import GAME
from engine.tank.cards import CARDS, is_fish
from engine.tank.grid import cells, label, size
from engine.tank.names import card_name, kind_name
from engine.tank.state import TankState
from i18n import using
from storage.database import ACTIVE, GameRow, Seat
from tests.engine.tank.helpers import cards_of, finish_splits, give, place, play
from ui.adapter import Board, adapter_for, register
from ui.components import ComponentHit
from ui.errors import UserError
from ui.publishing import board_content

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
ADAPTER = TankAdapter()
GAME_ID = 42
USER_BASE = 1000


@pytest.fixture(autouse=True)
def _registered() -> None:
    """Make the flow find this adapter, as the cog's setup does."""
    register(ADAPTER)


def _row(state: TankState, version: int = 7) -> GameRow:
    """Return a saved active game holding `state`."""
    seats = [Seat(s, USER_BASE + s, NAMES[s]) for s in range(state.players)]
    return GameRow(GAME_ID, 1, 2, "tank", ACTIVE, USER_BASE, {}, 1, GAME.dump(state), version, None, "", "", seats)


def _board(state: TankState, version: int = 7, *, disabled: bool = False) -> Board:
    """Return the live board of `state`."""
    return Board(_row(state, version), GAME, state, version, disabled)


def _menus(items: list[discord.ui.Item[Any]]) -> list[discord.ui.Select[Any]]:
    """Return the select menus inside the persistent components (the board's last item is "How scoring works")."""
    menus = [getattr(i, "item", i) for i in items]
    if menus and isinstance(menus[-1], discord.ui.Button):
        assert menus.pop().label == "How scoring works"
    assert all(isinstance(m, discord.ui.Select) for m in menus)
    return menus  # type: ignore[return-value]


def _token(menu: discord.ui.Select[Any]) -> str:
    """Return the token part of a component's custom_id."""
    prefix = f"floe:{GAME_ID}:"
    assert menu.custom_id.startswith(prefix)
    return menu.custom_id.split(":", 3)[3]


def _items_text(items: list[discord.ui.Item[Any]]) -> str:
    """Return every string a member can see or read off the components."""
    parts: list[str] = []
    for menu in _menus(items):
        parts += [menu.custom_id, menu.placeholder or ""]
        for option in menu.options:
            parts += [option.label, option.value, option.description or ""]
    return "\n".join(parts)


def _mentions(text: str) -> list[int]:
    """Return the user ids pinged as due to act."""
    found = re.search(r"((?:<@\d+>(?:, | and )?)+), it's your turn\.", text)
    return [] if found is None else [int(u) for u in re.findall(r"<@(\d+)>", found.group(1))]


def _held(state: TankState) -> set[str]:
    """Return every card id in an aquarium or discarded face down by a player."""
    return {c for hand in state.hands for c in hand} | {c for d in state.own_discards for c in d}


def _shows_id(text: str, card: str) -> bool:
    """Tell whether a card id appears in a text as a whole token."""
    return re.search(rf"(?<![\w+-]){re.escape(card)}(?![\w+-])", text) is not None


def _strings(value: Any) -> list[str]:
    """Return every string inside JSON-like data."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _twin(state: TankState, rng: random.Random) -> TankState:
    """Return the same game with what is hidden dealt differently: which fish each seat discarded face down, and
    the deck's order.

    Everything a seat took was seen in the open, so each seat keeps the same cards overall (aquarium and face-down
    discards together), its chests and the Gouramis it may not discard stay in its aquarium, and counts are kept.
    """
    data = GAME.dump(state)
    protected = set(state.pending.protected) if state.pending is not None else set()
    hands, own, gone = [], [], {c for pile in data["own_discards"] for c in pile}
    for hand, discarded in zip(data["hands"], data["own_discards"], strict=True):
        fixed = [c for c in hand if c in protected or not is_fish(c)]
        loose = [c for c in hand + discarded if c not in fixed]
        rng.shuffle(loose)
        own.append(loose[: len(discarded)])
        hands.append(fixed + loose[len(discarded) :])
    data["hands"], data["own_discards"] = hands, own
    data["discards"] = [c for c in data["discards"] if c not in gone] + [c for pile in own for c in pile]
    rng.shuffle(data["deck"])
    return GAME.load(data)


def _gourami_take(players: int = 4, seed: int = 30) -> tuple[TankState, int, str, list[Event]]:
    """Return a game right after a seat holding Mollies 1 and 5 took a group of one Gourami and plain fish."""
    state = GAME.new_game(players, {}, seed)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    give(state, seat, ["molly-7", "molly-1"])
    group = max(sorted(state.groups), key=lambda g: size(state.groups[g]))
    filler = iter(cards_of("discus", players) + cards_of("angelfish", players))
    for n, (r, c) in enumerate(cells(state.groups[group])):
        place(state, r * state.side + c, cards_of("gourami", players)[0] if n == 0 else next(filler))
    events = GAME.apply(state, seat, {"type": "take", "group": group})
    assert state.phase == "discard"
    return state, seat, group, events


# ----- public board ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_board_items_offer_exactly_the_legal_splits_then_takes(players: int) -> None:
    state = GAME.new_game(players, {}, 100 + players)
    rng = random.Random(players)
    seen: set[str] = set()
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        menus = _menus(ADAPTER.board_items(_board(state)))
        legal = GAME.legal_actions(state, seat)
        offered = [(o.value, _token(m)) for m in menus for o in m.options]
        assert all(len(m.options) <= 25 for m in menus)
        if state.phase == "split":
            assert sorted(f"{label(a['group'])}:{a['line']}" for a in legal) == sorted(v for v, _ in offered)
            assert {t for _, t in offered} <= {f"split#{n}" for n in range(4)}
            labels = [o.label for m in menus for o in m.options]
            assert labels == ["Split group {} along {}".format(*o.value.split(":")) for m in menus for o in m.options]
        elif state.phase == "take":
            assert [label(a["group"]) for a in legal] == [v for v, _ in offered]
            assert {t for _, t in offered} == {"take"}
        else:
            assert menus == []
        seen.add(state.phase)
        GAME.apply(state, seat, rng.choice(legal))
    assert {"split", "take"} <= seen
    assert ADAPTER.board_items(_board(state)) == []


def test_split_options_say_what_each_cut_makes() -> None:
    state = GAME.new_game(4, {}, 3)
    menus = _menus(ADAPTER.board_items(_board(state)))
    options = {o.value: o.description for o in menus[0].options}
    assert options["1:h1"] == "4×4 → 1×4 + 3×4, between rows 1 and 2"
    assert options["1:v3"] == "4×4 → 4×3 + 4×1, between columns 3 and 4"
    assert menus[0].placeholder == "Split a group…"


def test_take_options_list_the_face_up_cards_of_each_group() -> None:
    state = GAME.new_game(3, {}, 4)
    finish_splits(state)
    view = GAME.view(state, None)
    menu = _menus(ADAPTER.board_items(_board(state)))[0]
    for option, group in zip(menu.options, view["groups"], strict=True):
        (r0, r1), (c0, c1) = group["rows"], group["cols"]
        names = [view["grid"][r][c]["name"] for r in range(r0, r1) for c in range(c0, c1)]
        assert option.label == f"Take group {group['label']}" and option.value == group["label"]
        assert (option.description or "").startswith(f"{group['size']} card")
        first = "Mollies" if names[0].startswith("Molly ") and len(group_mollies(names)) > 1 else names[0]
        assert first in (option.description or "")


def test_the_previous_board_is_greyed_out() -> None:
    state = GAME.new_game(2, {}, 5)
    assert all(m.disabled for m in _menus(ADAPTER.board_items(_board(state, disabled=True))))
    assert not any(m.disabled for m in _menus(ADAPTER.board_items(_board(state))))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nothing_public_shows_a_held_card(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pictures are compared through the public view they are drawn from; drawing each one would be slow.
    monkeypatch.setattr(tank_adapter, "render_table", lambda view, names: b"")
    monkeypatch.setattr(tank_adapter, "render_final", lambda view, names: b"")
    state = GAME.new_game(players, {}, 200 + players)
    rng, dealer = random.Random(players), random.Random(-players)
    names = NAMES[:players]
    differed = 0
    while True:
        seat = GAME.to_act(state)[0]
        events = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if GAME.is_over(state):
            break
        public = [e for e in events if e.private_to is None]
        assert not [s for e in public for s in _strings(e.data) if s in CARDS]
        board = _board(state)
        view = GAME.view(state, None)
        text = "\n".join(
            [
                board_content(board, events),
                ADAPTER.board_picture(view, names).alt,
                _items_text(ADAPTER.board_items(board)),
            ]
        )
        assert not [c for c in _held(state) if _shows_id(text, c)]
        twin = _twin(state, dealer)
        differed += [sorted(h) for h in twin.hands] != [sorted(h) for h in state.hands]
        twin_board = _board(twin)
        assert GAME.view(twin, None) == view
        assert board_content(twin_board, events) == board_content(board, events)
        assert ADAPTER.board_picture(GAME.view(twin, None), names).alt == ADAPTER.board_picture(view, names).alt
        assert _items_text(ADAPTER.board_items(twin_board)) == _items_text(ADAPTER.board_items(board))
    assert differed > 2  # the twin discarded other fish face down (2 players: 5 times, 5 players: 48)


def test_the_gourami_step_pings_nobody_and_the_channel_never_sees_cards() -> None:
    state, seat, group, events = _gourami_take()
    taken = GAME.view(state, seat)["aquarium"]
    content = board_content(_board(state), events)
    assert f"{NAMES[seat]} took group {label(group)} (" in content
    assert content.count("choose privately, in the menu sent by DM (with closed DMs: `/game hand`)") == 1
    assert _mentions(content) == []  # the taker just moved: their Gourami menu comes privately
    assert "Gourami" in content and "Molly" not in content
    assert not [c for c in taken if _shows_id(content, c["id"])]
    assert _menus(ADAPTER.board_items(_board(state))) == []
    events = GAME.apply(state, seat, {"type": "discard", "card": "molly-7"})
    content = board_content(_board(state), events)
    assert f"{NAMES[seat]} discarded 1 card" in content
    assert "Molly" not in content and not _shows_id(content, "molly-7")
    assert _mentions(content) == [USER_BASE + GAME.to_act(state)[0]] and GAME.to_act(state)[0] != seat


def test_keeping_all_fish_passes_the_turn() -> None:
    state, seat, _, _ = _gourami_take()
    events = GAME.apply(state, seat, {"type": "keep"})
    content = board_content(_board(state), events)
    assert f"{NAMES[seat]} kept their fish" in content
    assert _mentions(content) == [USER_BASE + GAME.to_act(state)[0]]


# ----- private views -----------------------------------------------------------------------------


def test_private_items_offer_the_discard_choice_to_the_taker_only() -> None:
    state, seat, _, _ = _gourami_take()
    board = _board(state, 9)
    for other in range(state.players):
        if other != seat:
            assert ADAPTER.private_items(board, other) == []
    (menu,) = _menus(ADAPTER.private_items(board, seat))
    assert _token(menu) == "discard" and menu.custom_id == f"floe:{GAME_ID}:9:discard"
    values = [o.value for o in menu.options]
    assert values[0] == KEEP and menu.options[0].label == "Keep all my fish"
    allowed = GAME.discard_options(state, seat)
    assert set(values[1:]) <= set(allowed)
    assert sorted({CARDS[c].name for c in allowed}) == sorted(
        o.label.removeprefix("Discard one ") for o in menu.options[1:]
    )
    assert cards_of("gourami")[0] not in values
    assert "chest" not in values
    GAME.apply(state, seat, {"type": "keep"})
    assert ADAPTER.private_items(_board(state), seat) == []


@pytest.mark.parametrize("players", [2, 5])
def test_private_items_appear_only_during_that_seats_gourami_step(players: int) -> None:
    state = GAME.new_game(players, {}, 300 + players)
    steps = 0

    def check(state: TankState, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        nonlocal steps
        board = _board(state)
        for s in range(players):
            due = state.phase == "discard" and state.pending is not None and state.pending.seat == s
            assert bool(ADAPTER.private_items(board, s)) == due
            steps += due

    play(state, random.Random(players), check)
    assert steps > 0


def test_seats_to_update_privately_are_the_taker_the_discarder_and_the_keeper() -> None:
    state = GAME.new_game(3, {}, 7)
    seat = GAME.to_act(state)[0]
    split = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert ADAPTER.seats_to_update_privately(split, state) == set()
    state, seat, _, took = _gourami_take(3, 8)
    assert ADAPTER.seats_to_update_privately(took, state) == {seat}
    discarded = GAME.apply(state, seat, {"type": "discard", "card": "molly-1"})
    assert ADAPTER.seats_to_update_privately(discarded, state) == {seat}
    state, seat, _, _ = _gourami_take(3, 8)
    # Keeping all fish closes the Gourami step: the DM with the menu is replaced by a fresh aquarium.
    assert ADAPTER.seats_to_update_privately(GAME.apply(state, seat, {"type": "keep"}), state) == {seat}


def test_private_text_lists_the_aquarium_by_type_with_the_score_preview() -> None:
    state, seat, _, _ = _gourami_take()
    view = GAME.view(state, seat)
    text = ADAPTER.private_text(view, NAMES)
    assert text.startswith(f"**Your aquarium** ({len(view['aquarium'])} cards")
    assert "- Mollies ×2 (1, 5): 6 points" in text
    assert "- Gourami ×1: 5 points" in text
    assert "Discus" in text and "scored at the end" in text
    assert f"**Score so far: {view['preview']['total']} points + Discus at the end**" in text
    assert "Gourami:** you may discard up to 1 fish card" in text and "`/tank discard`" in text
    GAME.apply(state, seat, {"type": "discard", "card": "molly-7"})
    text = ADAPTER.private_text(GAME.view(state, seat), NAMES)
    assert "You discarded: Molly 5" in text and "/tank discard" not in text
    assert len(text) < 1900


def test_private_text_after_the_game_gives_final_points() -> None:
    state = GAME.new_game(3, {}, 21)
    play(state, random.Random(21))
    for standing in GAME.outcome(state).standings:
        text = ADAPTER.private_text(GAME.view(state, standing.seat), NAMES)
        assert f"**Final score: {standing.score} point" in text
        assert "so far" not in text and "scored at the end" not in text and "not met yet" not in text
        held = sum(1 for c in state.hands[standing.seat] if CARDS[c].kind == "discus")
        if held:
            assert f"- Discus ×{held}: {standing.detail['discus']} point" in text


def test_private_text_without_discus_promises_no_discus_points() -> None:
    state = GAME.new_game(2, {}, 22)
    give(state, 0, [*cards_of("guppy", 2)[:3]])
    text = ADAPTER.private_text(GAME.view(state, 0), NAMES)
    assert "**Score so far: 6 points**" in text and "Discus" not in text and "Neon" not in text


def test_private_picture_is_the_aquarium() -> None:
    state, seat, _, _ = _gourami_take()
    picture = ADAPTER.private_picture(GAME.view(state, seat), NAMES)
    assert picture is not None and picture.png[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.alt.startswith(f"{NAMES[seat]}'s aquarium") and "discard up to 1 fish" in picture.alt


def test_board_picture_is_the_table_then_the_final_scores() -> None:
    state = GAME.new_game(2, {}, 9)
    table = ADAPTER.board_picture(GAME.view(state, None), NAMES[:2])
    assert table.filename == "tank-round-1.png" and table.png[:4] == b"\x89PNG"
    assert table.alt.startswith("10 Gallon Tank, round 1 of 4")
    play(state, random.Random(9))
    final = ADAPTER.board_picture(GAME.view(state, None), NAMES[:2])
    assert final.filename == "tank-final.png" and final.alt.startswith("10 Gallon Tank, final scores.")


# ----- standings -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_standings_lines_give_each_type_chest_goal_and_total(players: int) -> None:
    state = GAME.new_game(players, {}, 400 + players)
    play(state, random.Random(players))
    outcome = GAME.outcome(state)
    lines = ADAPTER.standings_lines(outcome, NAMES[:players])
    assert len(lines) == players
    for line, standing in zip(lines, outcome.standings, strict=True):
        d = standing.detail
        assert line.startswith(f"{standing.rank}. {'🏆 ' if standing.winner else ''}{NAMES[standing.seat]}: ")
        assert f": {standing.score} point" in line
        for plural, key in [("Guppies", "guppy"), ("Discus", "discus"), ("Angelfish", "angelfish")]:
            assert f"{plural} {d[key]}" in line
        assert f"Gouramis {d['gourami']}" in line and f"Mollies {d['molly']}" in line
        assert f"Treasure Chest {d['chest']}" in line and f"goal {d['goal']}" in line
        assert ("Neon Tetras" in line) == (players > 2)
    content = board_content(_board(state), [])
    assert "**Final standings**" in content and all(line in content for line in lines)


def test_tied_players_share_the_victory() -> None:
    detail = {"guppy": 6, "discus": 10, "neon": 0, "angelfish": 9, "gourami": 5, "molly": 4, "chest": 0, "goal": 5}
    outcome = Outcome(
        [
            Standing(1, 39, 1, True, {**detail, "resigned": False}),
            Standing(0, 39, 1, True, {**detail, "resigned": False}),
            Standing(2, 12, 3, False, {**detail, "discus": 0, "resigned": True}),
        ],
        "No tiebreak: tied players share the victory",
    )
    lines = ADAPTER.standings_lines(outcome, NAMES[:3])
    assert lines[0].startswith("1. 🏆 Bo: 39 points · ")
    assert lines[1].startswith("1. 🏆 Ana: 39 points · ")
    assert lines[2].startswith("3. Cy (resigned): 12 points · ")


# ----- components and slash-command helpers --------------------------------------------------------


@dataclass
class FakeFlow:
    """Record the actions the adapter hands to the flow."""

    calls: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)

    async def act(self, interaction: Any, row: GameRow, action: dict[str, Any], **options: Any) -> None:
        """Remember one action and how it was to be acknowledged."""
        self.calls.append((action, options))


DISCARDED = "Discarded. `/game hand` shows your updated aquarium at any time."
KEPT = "You kept all your fish. `/game hand` shows your aquarium at any time."


async def test_component_presses_become_actions_and_discards_stay_private() -> None:
    state = GAME.new_game(4, {}, 10)
    board, flow = _board(state), FakeFlow()
    presses = [
        ("split#0", "1:h2", {"type": "split", "group": "1", "line": "h2"}, {"expected_version": 7}),
        ("take", "3", {"type": "take", "group": "3"}, {"expected_version": 7}),
        ("discard", KEEP, {"type": "keep"}, {"expected_version": 7, "private_note": KEPT}),
        (
            "discard",
            "guppy-1",
            {"type": "discard", "card": "guppy-1"},
            {"expected_version": 7, "private_note": DISCARDED},
        ),
    ]
    for token, value, action, options in presses:
        await ADAPTER.on_component(flow, None, board, ComponentHit(GAME_ID, 7, token, (value,)))  # type: ignore[arg-type]
        assert flow.calls.pop() == (action, options)
    with pytest.raises(UserError):
        await ADAPTER.on_component(flow, None, board, ComponentHit(GAME_ID, 7, "take", ()))  # type: ignore[arg-type]
    with pytest.raises(UserError):
        await ADAPTER.on_component(flow, None, board, ComponentHit(GAME_ID, 7, "move", ("x",)))  # type: ignore[arg-type]


def test_autocomplete_offers_only_the_callers_legal_values() -> None:
    state = GAME.new_game(4, {}, 11)
    seat = GAME.to_act(state)[0]
    other = (seat + 1) % 4
    assert split_groups(state, seat) == [("1 (4×4, 16 cards)", "1")]
    assert split_groups(state, other) == [] and take_groups(state, seat) == []
    assert [v for _, v in split_lines(state, seat, "1")] == ["h1", "h2", "h3", "v1", "v2", "v3"]
    assert [v for _, v in split_lines(state, seat, "a")] == ["h1", "h2", "h3", "v1", "v2", "v3"]
    assert split_lines(state, seat, "9") == [] and split_lines(state, other, "1") == []
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    assert [v for _, v in take_groups(state, seat)] == [label(g) for g in sorted(state.groups)]
    assert all(text.startswith(f"{value} (") for text, value in take_groups(state, seat))
    assert take_groups(state, (seat + 1) % 4) == []


def test_discard_command_resolves_names_ids_and_keep_all() -> None:
    state, seat, _, _ = _gourami_take()
    choices = discard_choices(state, seat)
    assert ("Molly 5", "molly-7", 1) in choices and ("Molly 1", "molly-1", 1) in choices
    assert all(name != "Treasure Chest" for name, _, _ in choices)
    assert discard_choices(state, (seat + 1) % 4) == []
    assert discard_action(state, seat, "Keep all") == {"type": "keep"}
    assert discard_action(state, seat, "molly-7") == {"type": "discard", "card": "molly-7"}
    assert discard_action(state, seat, "molly 1") == {"type": "discard", "card": "molly-1"}
    assert discard_action(state, seat, "Molly 5 (you hold 1)") == {"type": "discard", "card": "molly-7"}
    with pytest.raises(UserError):
        discard_action(state, seat, "Treasure Chest")
    # Outside the caller's Gourami step the engine gives the refusal.
    assert discard_action(state, (seat + 1) % 4, "x") == {"type": "discard", "card": "x"}


def test_slash_commands_and_their_options() -> None:
    group = TankCog.tank
    assert group.name == "tank"
    commands = {c.name: [p.name for p in c.parameters] for c in group.commands}
    assert commands == {"split": ["group", "line"], "take": ["group"], "discard": ["card"]}
    assert all(p.autocomplete for c in group.commands for p in c.parameters)


async def test_setup_registers_the_adapter_and_the_cog() -> None:
    added: list[Any] = []

    class FakeBot:
        flow = None

        async def add_cog(self, cog: Any) -> None:
            added.append(cog)

    await tank_cog.setup(FakeBot())  # type: ignore[arg-type]
    assert isinstance(adapter_for("tank"), TankAdapter)
    assert isinstance(added[0], TankCog)


def group_mollies(names: list[str]) -> list[str]:
    """Return the Mollies among card names."""
    return [n for n in names if n.startswith("Molly ")]


def test_a_big_group_on_offer_names_every_card_within_a_menu_line() -> None:
    state = GAME.new_game(4, {}, 3)
    view = GAME.view(state, None)
    group = view["groups"][0]
    hint = tank_words._take_hint(view, group)
    assert group["size"] == 16 and len(hint) <= 100 and not hint.endswith("…"), hint
    names = [view["grid"][r][c]["name"] for r in range(*group["rows"]) for c in range(*group["cols"])]
    counted = sum(int(m) for m in re.findall(r"×(\d+)", hint))
    singles = [n for n in set(names) if names.count(n) == 1 and not n.startswith("Molly ")]
    mollies = group_mollies(names)
    assert counted + len(singles) + len(mollies) == 16, hint
    for name in set(names):
        assert (name.split(" ")[-1] if name.startswith("Molly ") else name.replace("Treasure ", "")) in hint


def _discard_steps(seed: int, players: int) -> list[TankState]:
    """Play a random game and return a copy of the state at each Gourami discard step."""
    state, rng, found = GAME.new_game(players, {}, seed), random.Random(seed), []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        if state.phase == "discard":
            found.append(GAME.load(GAME.dump(state)))
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return found


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_every_legal_discard_is_accepted_by_the_slash_command_and_offered_by_the_menu(seed: int, players: int) -> None:
    for state in _discard_steps(seed, players):
        seat = state.pending.seat
        legal = [a for a in GAME.legal_actions(state, seat) if a["type"] == "discard"]
        assert legal
        for action in legal:
            card, name = action["card"], CARDS[action["card"]].name
            # By its id, as typed (any case, stray spaces), even when it is the second of two alike.
            for typed in (card, f" {card.upper()} "):
                assert discard_action(state, seat, typed) == action
            # By its name and by the autocomplete's label: a copy of that fish, which is legal.
            offered = [f"{n} (you hold {held})" for n, _, held in discard_choices(state, seat) if n == name]
            for typed in (name, name.lower(), *offered):
                chosen = discard_action(state, seat, typed)
                assert chosen in legal and CARDS[chosen["card"]].name == name
            # Through the private menu: an option for that fish, whose press is a legal discard of it.
            (menu,) = _menus(ADAPTER.private_items(_board(state), seat))
            values = [o.value for o in menu.options if o.value != KEEP and CARDS[o.value].name == name]
            assert len(values) == 1
            flow = FakeFlow()
            hit = ComponentHit(GAME_ID, 7, "discard", (values[0],))
            asyncio.run(ADAPTER.on_component(flow, None, _board(state), hit))  # type: ignore[arg-type]
            pressed = flow.calls[0][0]
            assert pressed in legal and CARDS[pressed["card"]].name == name
            trial = GAME.load(GAME.dump(state))
            GAME.apply(trial, seat, pressed)


# ----- in the players' language --------------------------------------------------------------------


def test_the_aquarium_reads_in_the_players_language_with_counts_in_the_right_form() -> None:
    state, seat, _, _ = _gourami_take()
    with using("de"):
        view = GAME.view(state, seat)
        text = ADAPTER.private_text(view, NAMES)
        mollies, discus = kind_name("molly", 2), kind_name("discus", 2)
    assert text.startswith(f"**Dein Aquarium** ({len(view['aquarium'])} Karten, nur du siehst es)")
    assert f"- {mollies} ×2 (1, 5): 6 Punkte" in text
    assert f"**Bisher: {view['preview']['total']} Punkte + {discus} am Ende**" in text
    assert "🐠 **Gurami:** Du darfst bis zu 1 Fischkarte abwerfen" in text and "`/tank abwerfen`" in text
    assert "Your aquarium" not in text and "points" not in text
    with using("ja"):
        text = ADAPTER.private_text(GAME.view(state, seat), NAMES)
    assert "**あなたの水槽**（" in text and "持っている魚カードを1枚まで捨てる" in text


def test_the_gourami_menu_and_the_slash_command_speak_the_players_language() -> None:
    state, seat, _, _ = _gourami_take()
    with using("es"):
        (menu,) = _menus(ADAPTER.private_items(_board(state, 9), seat))
        molly = card_name("molly-7")
        typed_keep = discard_action(state, seat, "quedarme con todos mis peces")
    assert menu.placeholder == "Gurami: descarta un pez (queda 1) o quédate con todos…"
    assert (menu.options[0].label, menu.options[0].description) == ("Quedarme con todos mis peces", "No descartar nada")
    assert ("Descartar 1 " + molly, "Tienes 1") in [(o.label, o.description) for o in menu.options]
    assert typed_keep == {"type": "keep"}
    refusal = r'^Você não tem nenhum peixe chamado "Nemo" que possa descartar'
    with using("pt_BR"), pytest.raises(UserError, match=refusal):
        discard_action(state, seat, "Nemo")


@pytest.mark.parametrize("language", ["de", "es", "pt_BR", "ja"])
def test_standings_and_menus_in_every_language(language: str) -> None:
    detail = {"guppy": 6, "discus": 10, "neon": 0, "angelfish": 9, "gourami": 5, "molly": 4, "chest": 0, "goal": 5}
    winner, resigned = {**detail, "resigned": False}, {**detail, "resigned": True}
    outcome = Outcome([Standing(1, 39, 1, True, winner), Standing(2, 1, 2, False, resigned)])
    state = GAME.new_game(4, {}, 3)
    with using(language):
        lines = ADAPTER.standings_lines(outcome, NAMES[:3])
        guppies = kind_name("guppy", 2)
        items = ADAPTER.board_items(_board(state))
        view = GAME.view(state, None)
        hint = tank_words._take_hint(view, view["groups"][0])
    points = {"de": ("39 Punkte", "1 Punkt"), "es": ("39 puntos", "1 punto"), "pt_BR": ("39 pontos", "1 ponto")}
    many, one = points.get(language, ("39点", "1点"))
    assert lines[0].startswith("1. 🏆 Bo") and many in lines[0] and f"{guppies} 6" in lines[0]
    assert lines[1].startswith("2. Cy") and one in lines[1]
    button = getattr(items[-1], "item", items[-1])
    assert button.label == {"de": "So wird gewertet", "es": "Cómo se puntúa", "pt_BR": "Como funciona a pontuação"}.get(
        language, "得点の仕組み"
    )
    menus = [getattr(i, "item", i) for i in items[:-1]]
    split = {
        "de": "Gruppe aufteilen…",
        "es": "Dividir un grupo…",
        "pt_BR": "Dividir um grupo…",
        "ja": "グループを分ける…",
    }
    assert menus[0].placeholder.startswith(split[language])
    assert len(hint) <= 100 and not hint.endswith("…") and "card" not in hint


def test_scoring_help_and_the_settings_of_a_group_are_whole_sentences_in_german() -> None:
    state = GAME.new_game(3, {}, 11)
    with using("de"):
        view = GAME.view(state, None)
        text = tank_words.scoring_text(view)
        lines = split_lines(state, GAME.to_act(state)[0], "1")
    assert text.startswith("**So zählt jede Karte** (3 Spieler)")
    assert "wenn dein Aquarium diese Bedingung erfüllt:" in text and "`/spiel regeln spiel:10 Gallon Tank`" in text
    assert any(", zwischen Zeile 1 und 2" in label for label, _line in lines)
