"""Check what each seat sees: the public table, its own hand only, and the lines printed for players."""

from __future__ import annotations

import json
import random

from engine.base import Event
from engine.flippers import GAME
from tests.engine.flippers.helpers import (
    NAMES,
    new_setup,
    new_started,
    place_leaders,
    play,
    random_action,
    table,
)

PUBLIC_KEYS = {
    "game",
    "phase",
    "players",
    "teams_mode",
    "turn",
    "current",
    "to_act",
    "first",
    "seen",
    "supply",
    "seats",
    "cards",
    "markers",
    "open_cells",
    "leader_cells",
    "bounds",
    "played",
    "last_card",
    "last_plays",
    "activated",
    "to_activate",
    "scores",
    "projected",
    "final",
    "winners",
    "tiebreak",
}


def test_public_view_shows_the_table_and_sizes_but_no_hand() -> None:
    state = new_started(4, seed=12)
    view = GAME.view(state, None)
    assert set(view) == PUBLIC_KEYS
    json.dumps(view)
    hidden = [c for seat in range(4) for c in state.hands[seat] + state.decks[seat] + state.discards[seat]]
    text = json.dumps(view)
    assert all(cid not in text for cid in hidden)
    assert [s["hand_size"] for s in view["seats"]] == [2, 2, 2, 2]
    assert [s["deck_size"] for s in view["seats"]] == [4, 4, 4, 4]
    assert [s["stash"] for s in view["seats"]] == [6, 6, 6, 6] and view["supply"] == 58
    assert view["current"] == state.first and view["to_act"] == [state.first]
    assert "N15" not in view["open_cells"] and view["leader_cells"] == []


def test_private_view_adds_only_your_own_hand() -> None:
    state = new_started(3, seed=12)
    view = GAME.view(state, 1)
    assert set(view) == PUBLIC_KEYS | {"you", "hand", "discarded_cards", "must_discard"}
    assert view["you"] == 1 and [c["id"] for c in view["hand"]] == state.hands[1]
    assert view["hand"][0]["name"].startswith("Macaroni ")
    text = json.dumps(view)
    assert all(cid not in text for seat in (0, 2) for cid in state.hands[seat] + state.discards[seat])


def test_setup_view_says_how_many_to_discard() -> None:
    state = new_setup(4, seed=1)
    assert GAME.view(state, 2)["must_discard"] == 2
    assert [c["id"] for c in GAME.view(state, 2)["hand"]] == state.hands[2]


def test_view_lists_cards_with_team_power_orientation_face_and_markers() -> None:
    cards = [
        ("food-2", "N15", "E", "B"),
        ("c-plus", "N14", "W", "up"),
        ("m-turn", "O14", "N", "down"),
        ("m-block", "N13", "S", "up"),
        ("c-turn", "M14", "N", "up"),
        ("c-bump", "P10", "N", "up"),
    ]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    state.engaged[1] = True
    play(state, "c-flip", "L14", "W")
    view = GAME.view(state, None)
    by_id = {c["id"]: c for c in view["cards"]}
    assert by_id["c-plus"] == {
        "id": "c-plus",
        "name": "Chinstrap Plus",
        "kind": "explorer",
        "cell": "N14",
        "col": 13,
        "row": 14,
        "facing": "W",
        "face": "up",
        "markers": [1],
        "team": 0,
        "power": "plus",
        "power_name": "Plus",
        "targets": ["M14"],
        "blocked_by": 1,
    }
    assert by_id["m-turn"]["face"] == "down" and by_id["m-turn"]["targets"] == []
    assert by_id["food-2"]["arrows"] == [
        {"dir": "W", "points": 3, "cell": "M15"},
        {"dir": "N", "points": 1, "cell": "N14"},
    ]
    assert view["markers"] == [{"cell": "N14", "col": 13, "row": 14, "team": 1, "letter": "M", "blocks": "c-plus"}]
    assert view["played"] == "c-flip" and view["activated"] == ["c-flip"]
    assert view["to_activate"] == ["c-bump", "c-turn"]
    assert GAME.status(state, NAMES) == "Turn 1: Ana activates Bump (P10), Turn (M14)."


def test_markers_list_every_marker_with_its_team_letter_and_the_card_it_blocks_or_none() -> None:
    cards = [
        ("food-3", "N15", "N", "A"),
        ("c-block", "M14", "E", "up"),  # Ana's marker on her own Plus at N14
        ("c-plus", "N14", "N", "up"),
        ("m-block", "P13", "N", "up"),  # Bob's marker waits on the empty P12
    ]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    state.engaged = [True, True]
    view = GAME.view(state, None)
    assert view["markers"] == [
        {"cell": "N14", "col": 13, "row": 14, "team": 0, "letter": "C", "blocks": "c-plus"},
        {"cell": "P12", "col": 15, "row": 12, "team": 1, "letter": "M", "blocks": None},
    ]
    plus = next(c for c in view["cards"] if c["id"] == "c-plus")
    assert plus["markers"] == [0] and plus["blocked_by"] == 0


def test_projected_points_count_food_arrows_and_unblocked_leaders_only() -> None:
    cards = [
        ("food-3", "N15", "N", "A"),  # Icefish A: 4 north, onto N14
        ("c-plus", "N14", "N", "up"),
        ("c-leader", "M15", "E", "up"),
        ("m-leader", "O15", "W", "up"),
        ("c-block", "P15", "W", "up"),
    ]
    state = table(cards, {0: ["c-flip"], 1: ["m-flip"]})
    state.engaged[0] = True  # Ana's marker on Bob's Leader at O15: no bonus for Bob
    assert GAME.view(state, None)["projected"] == [6 + 4 + 1, 6]


def test_projected_points_match_the_final_scores_at_the_end() -> None:
    for seed in range(6):
        state = new_started(2 + seed % 5, seed=seed, teams=seed % 5 in (2, 4))
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            before = GAME.view(state, None)["projected"]
            events = GAME.apply(state, seat, random_action(state, seat, rng))
            assert len(before) == state.players
        final = next(e for e in events if e.kind == "game_over").data["scores"]
        assert GAME.view(state, None)["projected"] == [row["total"] for row in final]


def test_leader_placement_view_names_the_phase_the_seat_and_its_cells() -> None:
    state = GAME.new_game(2, {}, seed=4)
    view = GAME.view(state, None)
    assert view["phase"] == "leaders" and view["current"] == state.first == view["to_act"][0]
    assert view["leader_cells"] == ["N14", "M15", "O15", "N16"]
    GAME.apply(state, state.first, {"type": "leader", "cell": "M15"})
    assert GAME.view(state, None)["leader_cells"] == ["N14", "O15", "N16"]


def test_final_view_itemises_the_scores() -> None:
    state = table([("food-3", "N15", "N", "A"), ("c-leader", "N16", "N", "up")], {0: ["c-flip"]})
    play(state, "c-flip", "N14", "E")
    view = GAME.view(state, None)
    assert view["final"] and view["winners"] == [0]
    assert view["scores"][0] == {"stash": 6, "food": 4, "leader": 1, "total": 11}
    assert view["current"] is None and view["to_activate"] == []


def test_status_lines() -> None:
    state = GAME.new_game(3, {}, seed=1)
    assert GAME.status(state, NAMES) == (
        f"Leaders: {NAMES[state.first]} places their Leader beside a Food card, facing it"
        f" ({NAMES[state.first]} plays first, drawn at random)."
    )
    place_leaders(state)
    assert GAME.status(state, NAMES) == "Setup: waiting for Ana, Bob and Cy to choose their discards."
    state = table([("c-plus", "N14", "N", "up")], {0: ["c-flip"], 1: ["m-flip"]})
    assert GAME.status(state, NAMES) == "Turn 1: Ana to play."
    play(state, "c-flip", "M14", "W")  # the Plus is the only card left: it acts by itself
    assert GAME.status(state, NAMES) == "Turn 2: Bob to play."


def test_private_events_stay_silent_and_public_ones_never_name_a_hand_card() -> None:
    state = new_setup(2, seed=3)
    events = GAME.apply(state, 0, {"type": "discard", "cards": [state.hands[0][0]]})
    events += GAME.apply(state, 1, {"type": "discard", "cards": [state.hands[1][0]]})
    private = [e for e in events if e.private_to is not None]
    assert len(private) == 2 and all(GAME.describe(e, NAMES) == "" for e in private)
    public = " ".join(GAME.describe(e, NAMES) for e in events)
    assert "Ana has chosen their discards." in public and "Flip" not in public and "Bump" not in public
    assert GAME.describe(Event("drew", 0, {"cards": ["c-flip"]}, private_to=0), NAMES) == ""


def test_rules_text_teaches_every_term_then_states_each_ruling() -> None:
    text = GAME.rules_text()
    for term in ("**Explorer**", "**Leader**", "**Food card**", "**Stash**", "**Supply**", "**Block marker**"):
        assert term in text.split("**Set-up**")[0]
    assert "- Krill: side A pays" in text and "5 players: 3 Food cards on the table" in text
    assert "Turn 3: A plays Bump" in text and "discards/Food cards" not in text
    assert text.index("**The words**") < text.index("**Rulings this bot applies**")
    for phrase in (
        "Unbounded grid",
        "Switch aims left and right",
        "mirroring",
        "cards past a gap stay",
        "Food arrows turn",
        "never below 0",
        "Block puts your marker",
        "blocks any card there (yours too), also one that enters later",
        "Rings of Blocks all lose their markers",
        "a blocked Leader gets no bonus",
        "the last by itself",
        "the bot does it for you",
        "partners",
        "paid in full",
        "First player drawn at random",
        "each puts their Leader on an empty cell beside a Food card, facing it",
        "Resigning",
    ):
        assert phrase in text
