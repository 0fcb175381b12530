"""Public views hide aquariums and discards; a seat's view adds its own; the end reveals everything."""

from __future__ import annotations

import json
import random
from typing import Any

from engine.tank import GAME
from engine.tank.grid import cells
from tests.engine.tank.helpers import cards_of, finish_splits, give, place, play


def card_ids(view: Any) -> set[str]:
    """Collect every card id that appears anywhere in a view."""
    found: set[str] = set()
    if isinstance(view, dict):
        if isinstance(view.get("id"), str) and "kind" in view:
            found.add(view["id"])
        for value in view.values():
            found |= card_ids(value)
    elif isinstance(view, list):
        for value in view:
            found |= card_ids(value)
    return found


def _midgame(seed: int = 3):
    """Return a 3-player game after a few takes and Gourami steps."""
    state = GAME.new_game(3, {}, seed)
    finish_splits(state)
    rng = random.Random(seed)
    for _ in range(4):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def test_public_view_shows_counts_but_no_held_or_discarded_card() -> None:
    state = _midgame()
    give(state, 0, ["chest"] if "chest" in state.deck else [])
    view = GAME.view(state, None)
    held = {c for hand in state.hands for c in hand}
    assert held
    assert not card_ids(view) & (held | set(state.discards))
    assert [s["cards"] for s in view["seats"]] == [len(h) for h in state.hands]
    assert view["discard_pile"] == len(state.discards)
    assert view["deck"] == len(state.deck)
    assert "aquarium" not in view and "preview" not in view
    assert view["final"] is None
    json.dumps(view)


def test_public_view_shows_the_grid_groups_goal_and_turn() -> None:
    state = GAME.new_game(4, {}, 2)
    view = GAME.view(state, None)
    assert card_ids(view) == {c for c in state.grid if c}
    assert view["goal"]["name"] in {"Community Tank", "Big School", "Full Tank"}
    assert view["goal"]["points"] == 5
    assert view["to_act"] == [state.first_start] and view["start_seat"] == state.first_start
    assert view["phase"] == "split" and (view["round"], view["rounds"]) == (1, 4)
    assert view["groups"][0]["cuts"] == ["h1", "h2", "h3", "v1", "v2", "v3"]


def test_seat_view_adds_only_its_own_aquarium_grouped_by_type() -> None:
    state = GAME.new_game(4, {}, 2)
    give(state, 1, ["molly-7", cards_of("guppy")[0], "chest"])
    give(state, 2, ["molly-1"])
    view = GAME.view(state, 1)
    assert [c["id"] for c in view["aquarium"]] == [cards_of("guppy")[0], "molly-7", "chest"]
    assert "molly-1" not in card_ids(view)
    by_kind = {k["key"]: [c["id"] for c in k["cards"]] for k in view["by_kind"]}
    assert by_kind["molly"] == ["molly-7"] and by_kind["chest"] == ["chest"] and by_kind["discus"] == []
    assert view["seat"] == 1 and view["discard"] is None


def test_score_preview_counts_what_is_known_and_leaves_discus_open() -> None:
    state = GAME.new_game(4, {}, 2)
    give(state, 1, ["molly-7", *cards_of("guppy")[:2], "chest", cards_of("discus")[0]])
    preview = GAME.view(state, 1)["preview"]
    assert preview["discus"] is None  # depends on hidden aquariums
    assert (preview["molly"], preview["guppy"], preview["chest"]) == (5, 6, 7)
    assert preview["total"] == 5 + 6 + 7 + preview["goal"]


def test_final_public_view_reveals_every_aquarium_and_the_breakdown() -> None:
    state = GAME.new_game(5, {}, 8)
    play(state, random.Random(8))
    view = GAME.view(state, None)
    final = view["final"]
    assert view["over"] and final is not None
    assert [sorted(c["id"] for c in a) for a in final["aquariums"]] == [sorted(h) for h in state.hands]
    assert not card_ids(view) & set(state.discards)
    totals = {s["seat"]: s["total"] for s in final["standings"]}
    assert totals == {st.seat: st.score for st in GAME.outcome(state).standings}
    keys = {"guppy", "discus", "neon", "angelfish", "gourami", "molly", "chest", "goal", "total"}
    for row in final["standings"]:
        assert keys <= set(row["detail"])


def test_gourami_step_is_public_as_a_count_and_private_as_options() -> None:
    state = GAME.new_game(4, {}, 30)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    group = sorted(state.groups)[0]
    r0, c0, _, _ = state.groups[group]
    gourami = cards_of("gourami")[0]
    give(state, seat, ["molly-7"])
    place(state, r0 * 4 + c0, gourami)
    GAME.apply(state, seat, {"type": "take", "group": group})
    public = GAME.view(state, None)
    assert public["phase"] == "discard" and public["pending_discards"] >= 1
    assert "molly-7" not in card_ids(public)
    mine = GAME.view(state, seat)["discard"]
    assert "molly-7" in mine["options"] and gourami not in mine["options"]


def test_two_player_views_leave_out_the_neon_tetras_that_are_not_in_play() -> None:
    for players, neon in ((2, False), (3, True)):
        state = GAME.new_game(players, {}, 4)
        kinds = [k["key"] for k in GAME.view(state, 0)["by_kind"]]
        assert ("neon" in kinds) == neon and kinds[-1] == "chest"
        assert ("neon" in [r["key"] for r in GAME.view(state, None)["scoring"]]) == neon
        for seat in range(1, players):
            GAME.resign(state, seat)
        assert ("neon" in [k["key"] for k in GAME.view(state, None)["final"]["kinds"]]) == neon


def test_view_carries_one_scoring_reminder_per_kind_read_from_the_rules() -> None:
    reminders = {r["key"]: r for r in GAME.view(GAME.new_game(4, {}, 1), None)["scoring"]}
    assert reminders["neon"]["text"] == "1, 3, 6, 10, 15, 21 for 1, 2, 3, 4, 5, 6+ cards"
    assert reminders["guppy"]["text"] == "odd count 2 each, even count 3 each"
    assert reminders["discus"]["text"].startswith("most 10, second most 5")
    assert reminders["angelfish"]["text"] == "9 per set of 3"
    assert reminders["gourami"]["text"].startswith("5 each")
    assert reminders["chest"]["text"].startswith("7")
    assert [r["name"] for r in reminders.values()][:2] == ["Guppy", "Discus"]


def test_groups_carry_the_number_players_see() -> None:
    state = GAME.new_game(4, {}, 3)
    GAME.apply(state, GAME.to_act(state)[0], {"type": "split", "group": "1", "line": "h1"})
    assert [(g["letter"], g["label"]) for g in GAME.view(state, None)["groups"]] == [("A", "1"), ("B", "2")]


def test_seat_view_remembers_every_group_taken_and_left_over_but_not_private_discards() -> None:
    state = GAME.new_game(2, {}, 5)
    rng = random.Random(5)
    watched: list[list[str]] = [[], []]
    while state.round == 1 and state.phase != "over":
        seat = GAME.to_act(state)[0]
        action = rng.choice(GAME.legal_actions(state, seat))
        if action["type"] == "take":
            rect = state.groups[action["group"]]
            watched[seat] += [c for r, col in cells(rect) if (c := state.grid[r * state.side + col]) is not None]
        GAME.apply(state, seat, action)
    for seat in (0, 1):
        seen = GAME.view(state, seat)["seen"]
        assert [sorted(t) for t in seen["taken"]] == [sorted(w) for w in watched]
        privately = {c for pile in state.own_discards for c in pile}
        assert sorted(seen["leftovers"]) == sorted(c for c in state.discards if c not in privately)
        assert seen["leftovers"]
    assert "seen" not in GAME.view(state, None)
