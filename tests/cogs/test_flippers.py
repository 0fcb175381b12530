"""Check the Flippers Discord adapter without networking: board menus, private views and hidden cards."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.flippers import (
    ACTIVATE,
    CARD,
    DISCARD,
    DISCARD_BUTTON,
    HAND_BUTTON,
    LEADER,
    PLAY_BUTTON,
    SPOT,
    FlippersAdapter,
    FlippersCog,
    discard_options,
    discard_refs,
    hand_card,
    table_card,
)
from engine.base import Event, Outcome, Standing
from engine.flippers import GAME
from engine.flippers.cards import CARDS, setup_rule
from engine.flippers.game import open_cells
from engine.flippers.names import card_name, power_name, team_of, team_short
from engine.flippers.powers import available
from engine.flippers.state import LEADERS, OVER, PLAY, SETUP, FlippersState
from engine.flippers.table import label
from engine.words import join_names
from i18n import using
from render.flippers import alt_text_table
from storage.database import ACTIVE, GameRow, Seat
from tests.engine.flippers.helpers import NAMES, activate, new_setup, new_started, play, random_action, table
from ui.adapter import Board, register
from ui.components import ComponentHit
from ui.errors import UserError
from ui.publishing import board_content
from ui.reply_menus import game_of

ADAPTER = FlippersAdapter()
GAME_ID = 42
CHANNEL = 2
USER_BASE = 1000
VERSION = 7
ANSWER_ID, PRESSED_ID = 555, 556


@pytest.fixture(autouse=True)
def _registered() -> None:
    """Make the flow find this adapter, as the cog's setup does."""
    register(ADAPTER)


def _row(state: FlippersState, version: int = VERSION) -> GameRow:
    """Return a saved active game holding `state`."""
    seats = [Seat(s, USER_BASE + s, NAMES[s]) for s in range(state.players)]
    options = {"teams": state.teams_mode}
    return GameRow(
        GAME_ID, 1, CHANNEL, "flippers", ACTIVE, USER_BASE, options, 1, GAME.dump(state), version, None, "", "", seats
    )


def _board(state: FlippersState, version: int = VERSION, *, disabled: bool = False) -> Board:
    """Return the live board of `state`."""
    return Board(_row(state, version), GAME, state, version, disabled)


def _inner(item: discord.ui.Item[Any]) -> Any:
    """Return the button or select inside a persistent component."""
    return getattr(item, "item", item)


def _token(item: discord.ui.Item[Any]) -> str:
    """Return the token part of a component's custom_id."""
    cid = _inner(item).custom_id
    assert cid.startswith(f"floe:{GAME_ID}:")
    return cid.split(":", 3)[3]


def _tokens(items: list[discord.ui.Item[Any]]) -> list[str]:
    """Return the tokens of several components."""
    return [_token(i) for i in items]


def _items_text(items: list[discord.ui.Item[Any]]) -> str:
    """Return every string a member can see or read off the components."""
    parts: list[str] = []
    for item in map(_inner, items):
        parts += [item.custom_id, getattr(item, "label", None) or "", getattr(item, "placeholder", None) or ""]
        for option in getattr(item, "options", []):
            parts += [option.label, option.value, option.description or ""]
    return "\n".join(parts)


def _hidden(state: FlippersState) -> set[str]:
    """Return every card nobody may see publicly: hands, decks and discards."""
    return {c for pile in (state.hands, state.decks, state.discards) for cards in pile for c in cards}


def _leaks(text: str, cards: set[str]) -> list[str]:
    """Return the hidden cards whose id or full name appears in `text`."""
    return [c for c in sorted(cards) if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text) or CARDS[c].name in text]


def _values(item: discord.ui.Item[Any]) -> list[str]:
    """Return the option values of a select."""
    return [o.value for o in _inner(item).options]


# -- board items ------------------------------------------------------------------------------------


def test_leader_placement_board_offers_the_legal_cells_to_the_seat_placing() -> None:
    state = GAME.new_game(2, {}, seed=4)
    items = ADAPTER.board_items(_board(state))
    assert _tokens(items) == [LEADER]
    assert _values(items[0]) == ["N14", "M15", "O15", "N16"]
    menu = _inner(items[0])
    assert menu.placeholder == f"{NAMES[state.first]}: place your Leader…"
    assert next(o.label for o in menu.options) == f"N14 facing {CARDS[state.cells[(13, 15)]].name}"


async def test_the_leader_select_places_only_the_seat_whose_turn_it_is() -> None:
    state = GAME.new_game(3, {}, seed=4)
    flow, seat = FakeFlow(), state.first
    with pytest.raises(UserError, match="turn to place their Leader"):
        await ADAPTER.on_component(flow, _interaction((seat + 1) % 3), _board(state), _hit(LEADER, "N14"))  # type: ignore[arg-type]
    await ADAPTER.on_component(flow, _interaction(seat), _board(state), _hit(LEADER, "N14"))  # type: ignore[arg-type]
    assert flow.acts == [{"action": {"type": "leader", "cell": "N14"}, "expected_version": VERSION}]


async def test_the_leader_command_autocompletes_the_legal_cells_for_the_seat_placing() -> None:
    state = GAME.new_game(3, {}, seed=4)
    cog, flow = _cog(state)
    seat = state.first
    assert await cog.leader_cells(_interaction((seat + 1) % 3), "") == []
    cells = [c.value for c in await cog.leader_cells(_interaction(seat), "")]
    assert cells == GAME.view(state, None)["leader_cells"]
    await cog.leader.callback(cog, _interaction(seat), cells[-1])  # type: ignore[arg-type]
    assert flow.acts[0]["action"] == {"type": "leader", "cell": cells[-1]}


def test_setup_board_offers_the_discard_button_and_the_hand_button() -> None:
    items = ADAPTER.board_items(_board(new_setup(3, seed=1)))
    assert _tokens(items) == [DISCARD_BUTTON, HAND_BUTTON]
    assert _inner(items[0]).label == "Choose your discards"


def test_a_turn_board_offers_the_play_button_before_the_card_is_played() -> None:
    items = ADAPTER.board_items(_board(new_started(2, seed=3)))
    assert _tokens(items) == [PLAY_BUTTON, HAND_BUTTON]
    assert _inner(items[0]).label == "Play a card…"


def test_after_playing_the_select_lists_exactly_the_cards_still_to_activate() -> None:
    state = table(
        [
            ("food-1", "N15", "N", "A"),
            ("c-leader", "N16", "N", "up"),
            ("m-leader", "O16", "N", "up"),
            ("c-plus", "M15", "N", "up"),
            ("c-turn", "O15", "N", "up"),
            ("c-bump", "P15", "N", "down"),
        ],
        {0: ["c-flip"], 1: ["m-flip"]},
    )
    play(state, "c-flip", "N14", "E")
    items = ADAPTER.board_items(_board(state))
    assert _tokens(items) == [ACTIVATE, HAND_BUTTON]
    assert _values(items[0]) == ["c-turn", "c-plus"]
    assert _inner(items[0]).placeholder == "Activate next…"
    assert [o.label for o in _inner(items[0]).options] == ["Turn at O15", "Plus at M15"]
    activate(state, "c-turn")  # the Plus, last, acts by itself: Bob's turn
    assert _tokens(ADAPTER.board_items(_board(state))) == [PLAY_BUTTON, HAND_BUTTON]


def test_a_disabled_board_greys_out_every_item_and_a_finished_game_has_none() -> None:
    state = GAME.new_game(2, {}, seed=2)
    assert all(_inner(i).disabled for i in ADAPTER.board_items(_board(state, disabled=True)))
    state.phase = OVER
    assert ADAPTER.board_items(_board(state)) == []


# -- full games: hidden information, menus and private updates --------------------------------------


def _check_step(state: FlippersState, events: list[Event], before: list[list[str]], version: int) -> None:
    """Check every public and private output of one moment of a game."""
    board = _board(state, version)
    hidden = _hidden(state)
    items = ADAPTER.board_items(board)
    public = "\n".join(
        [_items_text(items), board_content(board, events), alt_text_table(GAME.view(state, None), NAMES)]
    )
    assert _leaks(public, hidden) == []
    tokens = _tokens(items)
    if state.phase == LEADERS:
        assert tokens == [LEADER]
        assert _values(items[0]) == GAME.view(state, None)["leader_cells"]
    elif state.phase == SETUP:
        assert tokens == [DISCARD_BUTTON, HAND_BUTTON]
    elif state.phase == PLAY and state.played is None:
        assert tokens == [PLAY_BUTTON, HAND_BUTTON]
    elif state.phase == PLAY:
        assert tokens == [ACTIVATE, HAND_BUTTON]
        assert _values(items[0]) == available(state, state.current)
    else:
        assert tokens == []
    changed = {s for s in range(state.players) if sorted(before[s]) != sorted(state.hands[s])}
    everyone = {s for s in range(state.players) if not state.resigned[s]}
    opened = any(e.kind == "discards_open" for e in events)
    # Every hand that changed is refreshed, also after a play that draws nothing (the deck is empty).
    assert changed <= ADAPTER.seats_to_update_privately(events, state) <= (changed | everyone if opened else changed)
    for seat in range(state.players):
        text = ADAPTER.private_text(GAME.view(state, seat), NAMES)
        others = hidden - set(state.hands[seat]) - set(state.discards[seat])
        assert _leaks(text, others) == []
        # Every card in hand is listed by its power's name, never by its id.
        assert all(f"**{CARDS[c].power_name}**" in text and c not in text for c in state.hands[seat])
        for item in ADAPTER.private_items(board, seat):
            assert set(_values(item)) == set(state.hands[seat])


@pytest.mark.parametrize(
    ("players", "teams", "seed"),
    [(2, False, 11), (2, False, 12), (3, False, 13), (6, False, 14), (4, True, 15), (6, True, 16)],
)
def test_random_games_never_show_a_hidden_card_in_public(players: int, teams: bool, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(players, {"teams": teams}, seed)
    version = 1
    start = [Event("game_started")]
    assert ADAPTER.seats_to_update_privately(start, state) == set(), "no card is dealt before the Leaders"
    _check_step(state, start, [[] for _ in range(players)], version)
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        before = [list(h) for h in state.hands]
        events = GAME.apply(state, seat, random_action(state, seat, rng))
        version += 1
        _check_step(state, events, before, version)
    picture = ADAPTER.board_picture(GAME.view(state, None), NAMES)
    assert picture.png[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.filename == "flippers-final.png"
    assert _leaks(picture.alt, _hidden(state)) == []


def test_the_setup_discards_stay_secret_in_the_board_that_follows() -> None:
    state = new_setup(4, seed=5, teams=True)
    cards = list(state.hands[2][:2])
    events = GAME.apply(state, 2, {"type": "discard", "cards": cards})
    content = board_content(_board(state), events)
    assert "has chosen their discards" in content
    assert _leaks(content, set(cards)) == []
    assert ADAPTER.seats_to_update_privately(events, state) == {2}


def test_a_resigned_seat_gets_no_deal_message() -> None:
    state = GAME.new_game(3, {}, seed=4)
    GAME.resign(state, 1)
    events = []
    while state.phase == LEADERS:
        events = GAME.apply(state, state.current, GAME.legal_actions(state, state.current)[0])
    assert ADAPTER.seats_to_update_privately(events, state) == {0, 2}


# -- private views ------------------------------------------------------------------------------------


def test_the_private_view_lists_the_seat_hand_with_powers_and_the_discard_menu() -> None:
    state = new_setup(4, seed=9)
    view = GAME.view(state, 3)
    text = ADAPTER.private_text(view, NAMES)
    for card in view["hand"]:
        assert f"**{card['power_name']}**: {card['text']}" in text and card["id"] not in text
    assert "Choose 2 cards to discard" in text
    (menu,) = ADAPTER.private_items(_board(state), 3)
    assert _token(menu) == DISCARD
    assert _inner(menu).min_values == _inner(menu).max_values == setup_rule(4)[0]
    assert _values(menu) == state.hands[3]
    picture = ADAPTER.private_picture(view, NAMES)
    assert picture is not None and picture.png[:8] == b"\x89PNG\r\n\x1a\n"
    assert all(c["name"] in picture.alt for c in view["hand"])


def test_the_private_view_offers_the_hand_to_play_only_on_the_seat_turn() -> None:
    state = new_started(3, seed=6)
    board = _board(state)
    (menu,) = ADAPTER.private_items(board, state.current)
    assert _token(menu) == CARD
    assert _values(menu) == state.hands[state.current]
    assert "**Your turn:**" in ADAPTER.private_text(GAME.view(state, state.current), NAMES)
    other = (state.current + 1) % 3
    assert ADAPTER.private_items(board, other) == []
    assert "Your turn" not in ADAPTER.private_text(GAME.view(state, other), NAMES)


# -- standings ----------------------------------------------------------------------------------------


def _standing(seat: int, score: int, rank: int, winner: bool, **detail: Any) -> Standing:
    """Return a standing whose detail holds stash, food, leader and total."""
    full = {"stash": 0, "food": 0, "leader": 0, "side": seat, "resigned": False, **detail}
    full.setdefault("total", full["stash"] + full["food"] + full["leader"])
    return Standing(seat, score, rank, winner, full)


def test_standings_itemise_stash_food_and_leader_points_and_share_a_tie() -> None:
    outcome = Outcome(
        [
            _standing(1, 12, 1, True, stash=7, food=4, leader=1),
            _standing(2, 12, 1, True, stash=12),
            _standing(0, 9, 3, False, stash=6, food=3),
        ],
        "Tied: the victory is shared.",
    )
    assert ADAPTER.standings_lines(outcome, NAMES) == [
        "1. 🏆 Bob (Macaroni): 12 points = stash 7 + Food cards 4 + Leader 1",
        "1. 🏆 Cy (Emperor): 12 points = stash 12 + Food cards 0 + Leader 0",
        "3. Ana (Chinstrap): 9 points = stash 6 + Food cards 3 + Leader 0",
    ]


def test_team_up_standings_give_each_team_total_then_its_members() -> None:
    outcome = Outcome(
        [
            _standing(1, 20, 1, True, side=1, stash=8, food=2),
            _standing(3, 20, 1, True, side=1, stash=10),
            _standing(0, 15, 3, False, side=0, stash=6, food=3, leader=1),
            _standing(2, 15, 3, False, side=0, stash=5, resigned=True),
        ]
    )
    assert ADAPTER.standings_lines(outcome, NAMES) == [
        "1. 🏆 Team Macaroni & Weddell: 20 points together",
        "  · Bob (Macaroni): 10 = stash 8 + Food cards 2 + Leader 0",
        "  · Di (Weddell): 10 = stash 10 + Food cards 0 + Leader 0",
        "3. Team Chinstrap & Emperor: 15 points together",
        "  · Ana (Chinstrap): 10 = stash 6 + Food cards 3 + Leader 1",
        "  · Cy (Emperor, resigned): 5 = stash 5 + Food cards 0 + Leader 0",
    ]


def test_final_board_content_lists_the_real_standings() -> None:
    rng = random.Random(21)
    state = GAME.new_game(4, {"teams": True}, 21)
    events: list[Event] = []
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        events = GAME.apply(state, seat, random_action(state, seat, rng))
    content = board_content(_board(state), events)
    assert "**Final standings**" in content
    assert content.count("points together") == 3  # the game-over line and each team's standing
    for s in GAME.outcome(state).standings:
        d = s.detail
        assert f"stash {d['stash']} + Food cards {d['food']} + Leader {d['leader']}" in content


# -- component presses --------------------------------------------------------------------------------


@dataclass
class FakeResponse:
    """Record how an interaction was answered."""

    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> Any:
        self.sent.append({"how": "send", "content": content, **kwargs})
        return SimpleNamespace(message_id=ANSWER_ID)

    async def edit_message(self, **kwargs: Any) -> None:
        self.sent.append({"how": "edit", **kwargs})


@dataclass
class FakeReplies:
    """Record the private answers noted as carrying a live menu (ui/reply_menus.py)."""

    noted: list[tuple[int | None, int | None]] = field(default_factory=list)

    async def sent(self, interaction: Any, view: discord.ui.View | None, message_id: int | None = None) -> None:
        self.noted.append((game_of(view), message_id))


@dataclass
class FakeFlow:
    """Record the actions and hand requests the adapter hands to the flow."""

    acts: list[dict[str, Any]] = field(default_factory=list)
    hands: int = 0

    async def act(self, interaction: Any, row: GameRow, action: dict[str, Any], **kwargs: Any) -> None:
        self.acts.append({"action": action, **kwargs})

    async def show_hand(self, interaction: Any, row: GameRow) -> None:
        self.hands += 1


def _interaction(seat: int, *, ephemeral: bool = False, **namespace: str) -> Any:
    """Return a stand-in for a press by `seat` on a public board or on a private menu."""
    message = SimpleNamespace(id=PRESSED_ID, flags=SimpleNamespace(ephemeral=ephemeral))
    return SimpleNamespace(
        user=SimpleNamespace(id=USER_BASE + seat),
        channel_id=CHANNEL,
        message=message,
        response=FakeResponse(),
        namespace=SimpleNamespace(**namespace),
        client=SimpleNamespace(flow=SimpleNamespace(private=SimpleNamespace(replies=FakeReplies()))),
    )


def _hit(token: str, *values: str) -> ComponentHit:
    """Return a press on a component of the board at VERSION."""
    return ComponentHit(GAME_ID, VERSION, token, values)


async def test_the_discard_button_answers_privately_with_the_presser_own_hand() -> None:
    state = new_setup(4, seed=8)
    flow, press = FakeFlow(), _interaction(1)
    await ADAPTER.on_component(flow, press, _board(state), _hit(DISCARD_BUTTON))  # type: ignore[arg-type]
    (reply,) = press.response.sent
    assert reply["how"] == "send" and reply["ephemeral"] is True
    assert press.client.flow.private.replies.noted == [(GAME_ID, ANSWER_ID)], "greyed out when the game ends"
    (menu,) = map(_inner, reply["view"].children)
    assert [o.value for o in menu.options] == state.hands[1]
    assert menu.min_values == menu.max_values == 2
    assert _leaks(reply["content"], _hidden(state)) == []
    choice = ComponentHit(GAME_ID, VERSION, DISCARD, tuple(state.hands[1][:2]))
    picked = _interaction(1, ephemeral=True)
    await ADAPTER.on_component(flow, picked, _board(state), choice)  # type: ignore[arg-type]
    (act,) = flow.acts
    assert act["action"] == {"type": "discard", "cards": state.hands[1][:2]}
    assert act["private_note"].startswith("You discarded ")
    assert act.get("expected_version") is None


async def test_the_discard_button_refuses_a_seat_that_already_chose() -> None:
    state = new_setup(2, seed=8)
    GAME.apply(state, 0, {"type": "discard", "cards": state.hands[0][:1]})
    with pytest.raises(UserError, match="already chosen"):
        await ADAPTER.on_component(FakeFlow(), _interaction(0), _board(state), _hit(DISCARD_BUTTON))  # type: ignore[arg-type]


async def test_the_play_flow_is_private_until_the_card_is_played() -> None:
    state = new_started(3, seed=10)
    seat, board, flow = state.current, _board(state), FakeFlow()
    with pytest.raises(UserError, match="not your turn"):
        await ADAPTER.on_component(flow, _interaction((seat + 1) % 3), board, _hit(PLAY_BUTTON))  # type: ignore[arg-type]
    press = _interaction(seat)
    await ADAPTER.on_component(flow, press, board, _hit(PLAY_BUTTON))  # type: ignore[arg-type]
    (reply,) = press.response.sent
    assert reply["ephemeral"] is True
    menus = list(map(_inner, reply["view"].children))
    # Two picks from the board: the button, then one menu per card in hand holding cell and facing together.
    assert [m.custom_id.split(":", 3)[3] for m in menus[:2]] == [f"{SPOT}:{c}" for c in state.hands[seat]]
    assert all(len(m.options) == 24 for m in menus[:2])
    # Any other cell takes three: the button, the cell, then the card and its facing in one menu.
    far = menus[2].options[0].value
    step = _interaction(seat, ephemeral=True)
    await ADAPTER.on_component(flow, step, board, _hit(menus[2].custom_id.split(":", 3)[3], far))  # type: ignore[arg-type]
    (asked,) = step.response.sent
    (both,) = map(_inner, asked["view"].children)
    assert [o.value for o in both.options] == [f"{c}:{d}" for c in state.hands[seat] for d in "NESW"]
    assert all(o.description.startswith("aims at ") for o in both.options)
    other = state.hands[seat][1]
    await ADAPTER.on_component(
        flow, _interaction(seat, ephemeral=True), board, _hit(both.custom_id.split(":", 3)[3], f"{other}:E")
    )  # type: ignore[arg-type]
    assert flow.acts.pop()["action"] == {"type": "play", "card": other, "cell": far, "facing": "E", "rest": True}
    card = state.hands[seat][0]
    step = _interaction(seat, ephemeral=True)
    await ADAPTER.on_component(flow, step, board, _hit(CARD, card))  # type: ignore[arg-type]
    (spots,) = step.response.sent
    assert spots["how"] == "edit"
    assert step.client.flow.private.replies.noted == [(GAME_ID, PRESSED_ID)], "noted with the newer token"
    first, *others = map(_inner, spots["view"].children)
    # Cell and facing in one select: the six open cells nearest a Food card, four facings each.
    assert len(first.options) == 24 and all(o.description.startswith("aims at ") for o in first.options)
    near = list(dict.fromkeys(o.value.split(":")[0] for o in first.options))
    food = [c for cid, c in state.where.items() if CARDS[cid].kind == "food"]

    def dist(cell: str) -> int:
        col, row = next(c for c in open_cells(state) if label(c) == cell)
        return min(abs(col - f[0]) + abs(row - f[1]) for f in food)

    rest = [label(c) for c in open_cells(state) if label(c) not in near]
    assert max(map(dist, near)) <= min(map(dist, rest))
    assert sorted(v for menu in others for v in (o.value for o in menu.options)) == sorted(rest)
    spot_token = first.custom_id.split(":", 3)[3]
    assert spot_token == f"{SPOT}:{card}"
    await ADAPTER.on_component(flow, _interaction(seat, ephemeral=True), board, _hit(spot_token, f"{near[0]}:S"))  # type: ignore[arg-type]
    (act,) = flow.acts
    assert act == {
        "action": {"type": "play", "card": card, "cell": near[0], "facing": "S", "rest": True},
        "expected_version": VERSION,
    }
    # Another cell: its facing comes next.
    cell_token = others[0].custom_id.split(":", 3)[3]
    step = _interaction(seat, ephemeral=True)
    await ADAPTER.on_component(flow, step, board, _hit(cell_token, rest[0]))  # type: ignore[arg-type]
    (facings,) = step.response.sent
    (menu,) = map(_inner, facings["view"].children)
    assert [o.value for o in menu.options] == ["N", "E", "S", "W"]
    face_token = menu.custom_id.split(":", 3)[3]
    await ADAPTER.on_component(flow, _interaction(seat, ephemeral=True), board, _hit(face_token, "W"))  # type: ignore[arg-type]
    assert flow.acts[1]["action"] == {"type": "play", "card": card, "cell": rest[0], "facing": "W", "rest": True}


async def test_with_one_card_in_hand_the_play_button_goes_straight_to_cell_and_facing() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "M15", "N", "up")], {0: ["c-flip"], 1: ["m-flip"]})
    press = _interaction(0)
    await ADAPTER.on_component(FakeFlow(), press, _board(state), _hit(PLAY_BUTTON))  # type: ignore[arg-type]
    (reply,) = press.response.sent
    (menu,) = map(_inner, reply["view"].children)
    assert menu.custom_id.endswith(f"{SPOT}:c-flip")
    assert [o.value for o in menu.options][:4] == ["N14:N", "N14:E", "N14:S", "N14:W"]
    assert len(menu.options) == 4 * len(open_cells(state))


def test_a_play_an_activation_a_leader_or_a_discard_is_edited_into_the_board_a_resignation_is_not() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "M15", "N", "up")], {0: ["c-flip", "c-turn"], 1: ["m-flip"]})
    assert ADAPTER.turn_in_place(play(state, "c-flip", "N14", "E"))
    assert not ADAPTER.turn_in_place(GAME.resign(state, 1))
    setup = new_setup(2, 1)
    assert ADAPTER.turn_in_place(GAME.apply(setup, 0, GAME.legal_actions(setup, 0)[0])), "a discard posts no board"
    assert ADAPTER.still_in_place(GAME, setup)
    leaders = GAME.new_game(3, {}, seed=2)
    first = leaders.first
    events = GAME.apply(leaders, first, GAME.legal_actions(leaders, first)[0])
    assert ADAPTER.turn_in_place(events) and ADAPTER.pings_in_place(events, leaders) == [leaders.current]
    assert leaders.current != first
    while leaders.phase == LEADERS:
        events = GAME.apply(leaders, leaders.current, GAME.legal_actions(leaders, leaders.current)[0])
    assert ADAPTER.pings_in_place(events, leaders) == [0, 1, 2], "everyone is asked for their discard once"


async def test_the_activate_select_and_the_hand_button_reach_the_flow() -> None:
    cards = [("food-1", "N15", "N", "A"), ("c-plus", "M15", "N", "up"), ("c-bump", "A1", "N", "up")]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    play(state, "c-flip", "N14", "E")
    flow = FakeFlow()
    await ADAPTER.on_component(flow, _interaction(0), _board(state), _hit(ACTIVATE, "c-plus"))  # type: ignore[arg-type]
    await ADAPTER.on_component(flow, _interaction(1), _board(state), _hit(HAND_BUTTON))  # type: ignore[arg-type]
    assert flow.acts == [{"action": {"type": "activate", "card": "c-plus", "rest": True}, "expected_version": VERSION}]
    assert flow.hands == 1


# -- slash commands -----------------------------------------------------------------------------------


def test_typed_cards_resolve_against_the_caller_hand() -> None:
    state = new_setup(4, seed=3)
    first, second = state.hands[2][:2]
    typed = f"{CARDS[first].power_name.lower()}, {CARDS[second].name}"
    assert discard_refs(state, 2, typed) == [first, second]
    assert hand_card(state, 2, " nonsense ") == "nonsense"
    assert table_card(state, 1, "Flip") == "m-flip"
    assert table_card(state, 1, "N14") == "N14"


def test_discard_choices_are_the_legal_combinations_of_the_caller_hand() -> None:
    state = new_setup(4, seed=3)
    options = discard_options(state, 0)
    assert len(options) == 3
    assert {frozenset(value.split(",")) for _, value in options} == {
        frozenset(a["cards"]) for a in GAME.legal_actions(state, 0)
    }
    GAME.apply(state, 0, {"type": "discard", "cards": state.hands[0][:2]})
    assert discard_options(state, 0) == []


@dataclass
class FakeDb:
    """Serve one saved game to the cog."""

    row: GameRow

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        return self.row if channel_id == CHANNEL else None


class CogFlow(FakeFlow):
    """Add what the cog reads from the flow: the database and live states."""

    def __init__(self, row: GameRow) -> None:
        super().__init__()
        self.db = FakeDb(row)

    async def game_here(self, interaction: Any) -> GameRow:
        return self.db.row

    def live(self, row: GameRow) -> tuple[Any, FlippersState]:
        return GAME, GAME.load(row.state or {})


def _cog(state: FlippersState) -> tuple[FlippersCog, CogFlow]:
    """Return the cog wired to a fake flow holding `state`."""
    flow = CogFlow(_row(state))
    return FlippersCog(SimpleNamespace(flow=flow)), flow  # type: ignore[arg-type]


async def test_the_discard_command_answers_privately() -> None:
    state = new_setup(2, seed=3)
    cog, flow = _cog(state)
    card = state.hands[1][0]
    await cog.discard.callback(cog, _interaction(1), CARDS[card].power_name)  # type: ignore[arg-type]
    (act,) = flow.acts
    assert act["action"] == {"type": "discard", "cards": [card]}
    assert act["private_note"].startswith(f"You discarded {CARDS[card].power_name}.")
    choices = await cog.discard_choices(_interaction(1), "")
    assert sorted(c.value for c in choices) == sorted(state.hands[1])
    assert await cog.discard_choices(_interaction(5), "") == []


async def test_the_play_command_autocompletes_only_legal_values_for_the_caller() -> None:
    state = new_started(3, seed=12)
    cog, flow = _cog(state)
    seat = state.current
    other = _interaction((seat + 1) % 3)
    assert await cog.play_cards(other, "") == []
    assert await cog.play_cells(other, "") == []
    cards = await cog.play_cards(_interaction(seat), "")
    assert [c.value for c in cards] == state.hands[seat]
    cells = await cog.play_cells(_interaction(seat), "")
    assert [c.value for c in cells] == [label(c) for c in open_cells(state)][:25]
    first = cells[0].value
    assert next(c.value for c in await cog.play_cells(_interaction(seat), first.lower())) == first
    facings = await cog.play_facings(_interaction(seat, card=cards[0].value, cell=first), "")
    assert [c.value for c in facings] == ["N", "E", "S", "W"]
    assert all("aims at" in c.name for c in facings)
    await cog.play.callback(cog, _interaction(seat), cards[0].value, first, "n")  # type: ignore[arg-type]
    assert flow.acts[0]["action"] == {
        "type": "play",
        "card": cards[0].value,
        "cell": first,
        "facing": "N",
        "rest": True,
    }
    assert "private_note" not in flow.acts[0]


@pytest.mark.parametrize(
    ("language", "typed", "saved"),
    [
        ("de", "O", "E"),
        ("de", "osten", "E"),
        ("es", "O", "W"),
        ("pt_BR", "l", "E"),
        ("pt_BR", "O", "W"),
        ("ja", "西", "W"),
    ],
)
async def test_a_typed_facing_is_read_in_the_players_language_and_saved_as_its_code(
    language: str, typed: str, saved: str
) -> None:
    state = new_started(3, seed=12)
    cog, flow = _cog(state)
    seat = state.current
    card = state.hands[seat][0]
    first = label(open_cells(state)[0])
    with using(language):
        await cog.play.callback(cog, _interaction(seat), card, first, typed)  # type: ignore[arg-type]
        facings = await cog.play_facings(_interaction(seat, card=card, cell=first), "")
    assert flow.acts[0]["action"]["facing"] == saved
    if language == "de":
        assert [c.name.split(":")[0] for c in facings] == ["Norden (N)", "Osten (O)", "Süden (S)", "Westen (W)"]


async def test_the_activate_command_offers_only_cards_still_available() -> None:
    state = table(
        [
            ("food-1", "N15", "N", "A"),
            ("c-leader", "N16", "N", "up"),
            ("m-leader", "O16", "N", "up"),
            ("c-plus", "M15", "N", "up"),
            ("c-turn", "O15", "N", "up"),
        ],
        {0: ["c-flip"], 1: ["m-flip"]},
    )
    play(state, "c-flip", "N14", "E")
    cog, flow = _cog(state)
    assert [c.value for c in await cog.activate_cards(_interaction(0), "")] == ["c-turn", "c-plus"]
    assert await cog.activate_cards(_interaction(1), "") == []
    await cog.activate.callback(cog, _interaction(0), "plus")  # type: ignore[arg-type]
    assert flow.acts[0]["action"] == {"type": "activate", "card": "c-plus", "rest": True}


# -- in the players' language -------------------------------------------------------------------------


def test_standings_read_in_the_game_language_with_team_names_and_plurals() -> None:
    outcome = Outcome(
        [
            _standing(1, 20, 1, True, side=1, stash=8, food=2),
            _standing(3, 20, 1, True, side=1, stash=10),
            _standing(0, 1, 3, False, side=0, stash=1),
            _standing(2, 1, 3, False, side=0, stash=0, resigned=True),
        ]
    )
    with using("de"):
        lines = ADAPTER.standings_lines(outcome, NAMES)
        winners, losers = team_of([1, 3]), team_of([0, 2])
        macaroni, emperor = team_short(1), team_short(2)
        congratulations = ADAPTER.congratulations(outcome, ["<@1>", "<@2>", "<@3>", "<@4>"])
        players = join_names(["<@2>", "<@4>"])
    assert lines[0] == f"1. 🏆 {winners}: zusammen 20 Punkte"
    assert lines[1] == f"  · Bob ({macaroni}): 10 = Punkte 8 + Futterkarten 2 + Anführer 0"
    assert lines[3] == f"3. {losers}: zusammen 1 Punkt"
    assert lines[5].startswith(f"  · Cy ({emperor}, aufgegeben): 0 = ")
    assert congratulations == f"Glückwunsch, {winners} ({players})!"
    with using("ja"):
        solo = ADAPTER.standings_lines(Outcome([_standing(0, 1, 1, True, stash=1)]), NAMES)
    assert solo == [f"1. 🏆 Ana（{_in('ja', team_short, 0)}）：1点 = 持ち点1 + エサカード0 + リーダー0"]


def _in(language: str, name: Any, *args: Any) -> str:
    """Return a name function's answer in `language`."""
    with using(language):
        return str(name(*args))


def test_the_private_hand_reads_in_the_players_language() -> None:
    state = new_setup(4, seed=9)
    with using("pt_BR"):
        view = GAME.view(state, 3)
        text = ADAPTER.private_text(view, NAMES)
        (menu,) = ADAPTER.private_items(_board(state), 3)
    assert text.startswith(f"**Sua mão** ({view['seats'][3]['team']}, só você pode vê-la)")
    assert "**Escolha 2 cartas para descartar** pelo resto da partida" in text
    assert "*Escolha seus descartes*" in text and "`/flippers descartar`" in text
    assert _inner(menu).placeholder == "Descartar 2 cartas…"
    with using("es"):
        board = ADAPTER.board_items(_board(state))
    assert [_inner(item).label for item in board] == ["Elige tus descartes", "Ver mi mano"]


async def test_the_play_menus_name_cells_facings_and_targets_in_the_players_language() -> None:
    state = table([("food-1", "N15", "N", "A"), ("c-plus", "M15", "N", "up")], {0: ["c-flip"], 1: ["m-flip"]})
    press = _interaction(0)
    with using("de"):
        await ADAPTER.on_component(FakeFlow(), press, _board(state), _hit(PLAY_BUTTON))  # type: ignore[arg-type]
        flip, krill = power_name("flip"), card_name("food-1")
    (reply,) = press.response.sent
    assert reply["content"] == (
        f"Wohin spielst du {flip}, und wohin zeigt der Pfeil? Felder nahe der Futterkarte zuerst."
    )
    (menu,) = map(_inner, reply["view"].children)
    assert menu.placeholder == f"{flip} spielen auf… Richtung…"
    first = menu.options[0]
    assert first.label == "N14, Richtung Norden"
    assert first.description.startswith("zielt auf ") and "N13 (leer)" in first.description
    assert any(krill in o.description for o in menu.options)
    with using("es"), pytest.raises(UserError, match=r"^No juegas en esta partida\.$"):
        await ADAPTER.on_component(FakeFlow(), _interaction(5), _board(state), _hit(PLAY_BUTTON))  # type: ignore[arg-type]


def test_typed_power_names_are_understood_in_the_players_language() -> None:
    state = new_started(3, seed=6)
    seat = state.current
    with using("de"):
        names = {power_name(CARDS[cid].power): cid for cid in state.hands[seat]}
        assert {hand_card(state, seat, name.lower()) for name in names} == set(state.hands[seat])
    assert {hand_card(state, seat, CARDS[cid].power_name) for cid in state.hands[seat]} == set(state.hands[seat])


def test_the_hand_names_the_cards_set_aside_in_whole_japanese_sentences() -> None:
    state = new_setup(2, seed=8)
    discarded = state.hands[0][0]
    GAME.apply(state, 0, {"type": "discard", "cards": [discarded]})
    power = CARDS[discarded].power
    with using("ja"):
        text = ADAPTER.private_text(GAME.view(state, 0), NAMES)
    assert f"枚。除外したカード：{_in('ja', power_name, power)}。" in text
    with using("de"):
        text = ADAPTER.private_text(GAME.view(state, 0), NAMES)
    assert f"Karten. Beiseitegelegt: {_in('de', power_name, power)}." in text


def test_a_shared_win_says_it_is_tied_once_in_the_final_message() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-turn"]})
    events = play(state, "c-turn", "M15", "W")
    content = board_content(_board(state), events)
    assert content.count("Tied: the victory is shared.") == 1, content


def test_the_last_card_played_sends_no_empty_hand_by_dm() -> None:
    state = table([("food-1", "N15", "N", "A")], {0: ["c-turn"]})
    events = play(state, "c-turn", "M15", "W")
    assert GAME.is_over(state)
    assert ADAPTER.seats_to_update_privately(events, state) == set()
