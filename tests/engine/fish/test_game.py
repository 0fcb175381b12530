"""Check every rule of Hey, That's My Fish! and every refusal."""

from __future__ import annotations

import pytest

from engine.base import CorruptState, IllegalAction
from engine.fish import GAME
from engine.fish.game import OVER, PLACEMENT, PLAY
from tests.engine.fish.helpers import cell, position, snapshot


def refused(state, seat: int, action: dict, words: str) -> None:
    """Assert an action is refused with a message containing `words` and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=words):
        GAME.apply(state, seat, action)
    assert snapshot(state) == before


# -- setup and placement ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 4), (3, 3), (4, 2)])
def test_each_player_gets_the_rulebook_number_of_penguins(players: int, each: int) -> None:
    state = GAME.new_game(players, {}, seed=1)
    assert state.to_place == [each] * players
    assert state.phase == PLACEMENT


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_outside_two_to_four_are_refused(players: int) -> None:
    with pytest.raises(IllegalAction, match="2-4 players"):
        GAME.new_game(players, {}, seed=1)


def test_placement_goes_round_the_table_one_penguin_at_a_time() -> None:
    state = GAME.new_game(3, {}, seed=3)
    order = []
    while state.phase == PLACEMENT:
        seat = GAME.to_act(state)[0]
        order.append(seat)
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert order == [0, 1, 2] * 3


def test_placement_is_only_on_free_one_fish_tiles() -> None:
    state = GAME.new_game(2, {}, seed=9)
    legal = {a["tile"] for a in GAME.legal_actions(state, 0)}
    tiles = {t["label"]: t["fish"] for t in GAME.view(state, None)["tiles"]}
    assert legal == {label for label, fish in tiles.items() if fish == 1}
    two = next(label for label, fish in tiles.items() if fish == 2)
    refused(state, 0, {"type": "place", "tile": two}, "2 fish: penguins start on 1-fish tiles")


def test_placing_on_a_tile_with_a_penguin_is_refused() -> None:
    state = GAME.new_game(2, {}, seed=9)
    first = GAME.legal_actions(state, 0)[0]["tile"]
    GAME.apply(state, 0, {"type": "place", "tile": first})
    refused(state, 1, {"type": "place", "tile": first}, "already has a penguin")


def test_moving_during_placement_is_refused() -> None:
    state = GAME.new_game(2, {}, seed=9)
    refused(state, 0, {"type": "move", "from": "A1", "to": "A2"}, "still being placed")


def test_placing_during_play_is_refused() -> None:
    state = position([["D4"], ["H8"]])
    refused(state, 0, {"type": "place", "tile": "A1"}, "Placement is over")


def test_labels_are_case_insensitive_and_unknown_labels_are_refused() -> None:
    state = GAME.new_game(2, {}, seed=9)
    tile = GAME.legal_actions(state, 0)[0]["tile"]
    GAME.apply(state, 0, {"type": "place", "tile": tile.lower()})
    assert state.penguins[0] == [cell(tile)]
    refused(state, 1, {"type": "place", "tile": "Z9"}, "no tile \"Z9\"")
    refused(state, 1, {"type": "place", "tile": None}, "no tile")


def test_play_starts_with_the_first_seat_once_every_penguin_is_placed() -> None:
    state = GAME.new_game(4, {}, seed=11)
    while state.phase == PLACEMENT:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.phase in (PLAY, OVER)
    if state.phase == PLAY:
        assert GAME.to_act(state) == [next(s for s in range(4) if state.penguins[s])]


# -- moving ---------------------------------------------------------------------------------------


def test_a_penguin_slides_any_distance_in_a_straight_line() -> None:
    state = position([["D1"], ["H8"]])
    targets = {a["to"] for a in GAME.legal_actions(state, 0) if a["from"] == "D1"}
    assert {"D2", "D5", "D8"} <= targets
    GAME.apply(state, 0, {"type": "move", "from": "D1", "to": "D8"})
    assert state.penguins[0] == [cell("D8")]


def test_diagonal_lines_follow_the_hex_grid() -> None:
    state = position([["A1"], ["H8"]])
    targets = {a["to"] for a in GAME.legal_actions(state, 0)}
    assert {"B2", "C2", "D3", "E3", "F4", "G4", "H5"} <= targets
    assert "C3" not in targets


def test_a_bent_path_is_refused() -> None:
    state = position([["D1"], ["H8"]])
    refused(state, 0, {"type": "move", "from": "D1", "to": "E5"}, "not a straight line")


def test_a_penguin_cannot_cross_water() -> None:
    state = position([["D1"], ["H8"]], water={"D3"})
    refused(state, 0, {"type": "move", "from": "D1", "to": "D5"}, "crosses open water at D3")


def test_a_penguin_cannot_land_on_water() -> None:
    state = position([["D1"], ["H8"]], water={"D3"})
    refused(state, 0, {"type": "move", "from": "D1", "to": "D3"}, "open water")


def test_a_penguin_cannot_pass_through_another_players_penguin() -> None:
    state = position([["D1"], ["D3"]])
    refused(state, 0, {"type": "move", "from": "D1", "to": "D5"}, "blocked by the penguin on D3")
    refused(state, 0, {"type": "move", "from": "D1", "to": "D3"}, "already has a penguin")


def test_your_own_penguins_block_you_too() -> None:
    state = position([["D1", "D3"], ["H8"]])
    refused(state, 0, {"type": "move", "from": "D1", "to": "D5"}, "blocked by the penguin on D3")


def test_you_collect_the_tile_you_left_not_the_one_you_reach() -> None:
    state = position([["D1"], ["H8"]], fish={"D1": 3, "D5": 1})
    GAME.apply(state, 0, {"type": "move", "from": "D1", "to": "D5"})
    assert state.collected[0] == [3]
    assert state.tiles[cell("D1")] == 0
    assert state.tiles[cell("D5")] == 1


def test_moving_someone_elses_penguin_is_refused() -> None:
    state = position([["D1"], ["H8"]])
    refused(state, 0, {"type": "move", "from": "H8", "to": "H7"}, "no penguin on H8")


def test_moving_out_of_turn_is_refused() -> None:
    state = position([["D1"], ["H8"]])
    refused(state, 1, {"type": "move", "from": "H8", "to": "H7"}, "not your turn")


def test_a_seat_not_in_the_game_is_refused() -> None:
    state = position([["D1"], ["H8"]])
    refused(state, 7, {"type": "move", "from": "D1", "to": "D2"}, "not playing")


def test_an_unknown_action_type_is_refused() -> None:
    state = position([["D1"], ["H8"]])
    refused(state, 0, {"type": "fly", "from": "D1"}, "not an action")


def test_standing_still_is_refused() -> None:
    state = position([["D1"], ["H8"]])
    refused(state, 0, {"type": "move", "from": "D1", "to": "D1"}, "at least one tile")


def test_turns_pass_clockwise() -> None:
    state = position([["A1"], ["D4"], ["H8"]])
    GAME.apply(state, 0, {"type": "move", "from": "A1", "to": "A3"})
    assert GAME.to_act(state) == [1]
    GAME.apply(state, 1, {"type": "move", "from": "D4", "to": "D6"})
    assert GAME.to_act(state) == [2]


# -- stuck penguins and the end ------------------------------------------------------------------


def test_a_stranded_penguin_is_removed_and_its_owner_takes_its_tile() -> None:
    # H8 touches only H7 and G7. G7 is water; when the penguin on H7 leaves, H8 is cut off.
    state = position([["H7"], ["H8"]], water={"G7"}, fish={"H8": 3})
    events = GAME.apply(state, 0, {"type": "move", "from": "H7", "to": "H5"})
    assert any(e.kind == "stranded" and e.seat == 1 and e.data["tile"] == "H8" for e in events)
    assert state.penguins[1] == []
    assert state.collected[1] == [3]
    assert state.tiles[cell("H8")] == 0


def test_a_penguin_boxed_in_by_penguins_is_removed_at_once_as_ruled() -> None:
    # A1 touches A2, B1 and B2: A2 and B1 hold penguins, and B2 turns to water when its penguin leaves.
    state = position([["A1", "B2"], ["A2", "B1"]], current=0)
    events = GAME.apply(state, 0, {"type": "move", "from": "B2", "to": "C2"})
    assert any(e.kind == "stranded" and e.data["tile"] == "A1" for e in events)
    assert cell("A1") not in state.penguins[0]


def test_a_player_without_penguins_is_skipped() -> None:
    state = position([["H7"], ["H8"], ["A4"]], water={"G7"})
    GAME.apply(state, 0, {"type": "move", "from": "H7", "to": "H5"})
    assert state.penguins[1] == []
    assert GAME.to_act(state) == [2]
    GAME.apply(state, 2, {"type": "move", "from": "A4", "to": "A5"})
    assert GAME.to_act(state) == [0]


def test_the_game_ends_when_no_penguin_remains() -> None:
    # Only D1 and D2 are ice: after D1 moves to D2 the penguin is stranded and the game ends.
    state = position([["D1"], ["H8"]], default_fish=0, fish={"D1": 2, "D2": 1, "H8": 1, "H7": 1})
    GAME.apply(state, 0, {"type": "move", "from": "D1", "to": "D2"})
    assert state.penguins[0] == []
    assert GAME.to_act(state) == [1]
    events = GAME.apply(state, 1, {"type": "move", "from": "H8", "to": "H7"})
    assert GAME.is_over(state)
    assert events[-1].kind == "game_over"
    assert GAME.to_act(state) == []
    assert GAME.legal_actions(state, 0) == []
    refused(state, 0, {"type": "move", "from": "D2", "to": "D1"}, "game is over")


# -- scoring --------------------------------------------------------------------------------------


def finished(collected: list[list[int]]):
    state = position([[] for _ in collected])
    state.collected = collected
    state.phase = OVER
    return state


def test_most_fish_wins() -> None:
    outcome = GAME.outcome(finished([[1, 1, 1], [3, 3]]))
    assert outcome.winners == [1]
    assert outcome.standings[0].detail == {"fish": 6, "tiles": 2, "resigned": False}


def test_a_tie_on_fish_goes_to_the_player_with_more_tiles() -> None:
    outcome = GAME.outcome(finished([[3, 3], [2, 2, 2]]))
    assert outcome.winners == [1]
    assert "most tiles" in outcome.tiebreak
    assert [s.rank for s in outcome.standings] == [1, 2]


def test_a_tie_on_fish_and_tiles_shares_the_victory() -> None:
    outcome = GAME.outcome(finished([[3, 1], [2, 2], [1]]))
    assert sorted(outcome.winners) == [0, 1]
    assert "shared" in outcome.tiebreak
    assert [s.rank for s in outcome.standings] == [1, 1, 3]


# -- resigning ------------------------------------------------------------------------------------


def test_a_resigning_player_loses_their_penguins_and_cannot_win() -> None:
    state = position([["D1"], ["H8"], ["A4"]])
    state.collected = [[], [3, 3, 3], []]
    GAME.resign(state, 1)
    assert state.penguins[1] == []
    assert state.tiles[cell("H8")] == 1
    assert 1 not in GAME.outcome(state).winners
    GAME.apply(state, 0, {"type": "move", "from": "D1", "to": "D2"})
    assert GAME.to_act(state) == [2]


def test_the_game_ends_when_only_one_player_has_not_resigned() -> None:
    state = position([["D1"], ["H8"]])
    GAME.resign(state, 0)
    assert GAME.is_over(state)
    assert GAME.outcome(state).winners == [1]


def test_resigning_twice_is_refused() -> None:
    state = position([["D1"], ["H8"], ["A4"]])
    GAME.resign(state, 1)
    with pytest.raises(IllegalAction):
        GAME.resign(state, 1)


def test_resigning_during_placement_lets_the_others_finish_placing() -> None:
    state = GAME.new_game(3, {}, seed=4)
    GAME.resign(state, 0)
    assert GAME.to_act(state) == [1]
    while state.phase == PLACEMENT:
        seat = GAME.to_act(state)[0]
        assert seat != 0
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.penguins[0] == []


# -- saving ---------------------------------------------------------------------------------------


def test_a_state_survives_a_json_round_trip() -> None:
    import json

    state = GAME.new_game(3, {"balanced": True}, seed=8)
    for _ in range(12):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    data = json.loads(json.dumps(GAME.dump(state)))
    assert data["schema"] == GAME.schema_version
    assert GAME.dump(GAME.load(data)) == GAME.dump(state)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("tiles"),
        lambda d: d.update(schema=99),
        lambda d: d.update(tiles=[1, 2]),
        lambda d: d.update(players=9),
        lambda d: d.update(penguins=[[0], [0]]),
        lambda d: d.update(phase="flying"),
        lambda d: d.update(tiles="ice"),
    ],
)
def test_a_damaged_save_is_reported_not_loaded(damage) -> None:
    data = GAME.dump(GAME.new_game(2, {}, seed=2))
    damage(data)
    with pytest.raises(CorruptState):
        GAME.load(data)


def test_the_balanced_option_is_recorded_and_changes_the_deal() -> None:
    plain = GAME.new_game(2, {}, seed=21)
    balanced = GAME.new_game(2, {"balanced": True}, seed=21)
    assert balanced.balanced and not plain.balanced


def test_descriptions_name_the_player_and_the_tiles() -> None:
    state = position([["B3"], ["H8"]], fish={"B3": 2})
    events = GAME.apply(state, 0, {"type": "move", "from": "B3", "to": "B6"})
    assert GAME.describe(events[0], ["Ana", "Bo"]) == "Turn 1: Ana moved B3→B6 and took a 2-fish tile."


def test_a_move_logged_before_turns_were_numbered_is_still_described() -> None:
    from engine.base import Event

    old = Event("move", 0, {"from": "B3", "to": "B6", "fish": 2})
    assert GAME.describe(old, ["Ana", "Bo"]) == "Ana moved B3→B6 and took a 2-fish tile."


# -- turn numbers, tie-break sentences, stranded marks and old saves ------------------------------


def test_turn_numbers_count_from_the_first_move_not_the_placements() -> None:
    state = GAME.new_game(2, {}, seed=5)
    while state.phase == PLACEMENT:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert GAME.status(state, ["Ana", "Bo"]) == "Turn 1 · Ana moves a penguin."
    assert GAME.view(state, None)["move"] == 0
    (moved, *_) = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert GAME.describe(moved, ["Ana", "Bo"]).startswith("Turn 1: Ana moved ")
    assert GAME.status(state, ["Ana", "Bo"]) == "Turn 2 · Bo moves a penguin."
    assert GAME.view(state, None)["move"] == 1


def test_a_win_on_tiles_says_both_tile_counts() -> None:
    outcome = GAME.outcome(finished([[3, 3], [2, 2, 2], [1]]))
    assert outcome.tiebreak == "Tied on 6 fish: the most tiles breaks the tie, 3 tiles against 2."


def test_a_shared_win_says_fish_and_tiles() -> None:
    outcome = GAME.outcome(finished([[3, 1], [2, 2], [1]]))
    assert outcome.tiebreak == "Tied on 4 fish and 2 tiles: the victory is shared."


def test_a_three_way_tie_settled_for_two_says_they_share() -> None:
    outcome = GAME.outcome(finished([[3, 1, 2], [2, 2, 2], [3, 3]]))
    assert sorted(outcome.winners) == [0, 1]
    assert outcome.tiebreak == (
        "Tied on 6 fish: the most tiles breaks the tie (3 against 2); "
        "2 players still tie on 3 tiles, so they share the victory."
    )


def test_no_tie_for_first_place_means_no_tiebreak_sentence() -> None:
    assert GAME.outcome(finished([[3, 3], [1], [1]])).tiebreak == ""


def test_the_last_move_records_the_penguins_it_stranded() -> None:
    state = position([["H7"], ["H8"]], water={"G7"}, fish={"H8": 3})
    GAME.apply(state, 0, {"type": "move", "from": "H7", "to": "H5"})
    assert state.last == {"seat": 0, "from": "H7", "to": "H5", "stranded": [{"seat": 1, "tile": "H8"}]}
    GAME.apply(state, 0, {"type": "move", "from": "H5", "to": "H4"})
    assert "stranded" not in state.last


def test_a_schema_1_save_still_loads_and_counts_turns_from_the_first_move() -> None:
    from tests.engine.fish.reference import FishGame as ReferenceGame

    old_engine = ReferenceGame()
    old = old_engine.new_game(2, {}, seed=31)
    for _ in range(11):  # 8 placements, then 3 moves
        seat = old_engine.to_act(old)[0]
        old_engine.apply(old, seat, old_engine.legal_actions(old, seat)[0])
    saved = old_engine.dump(old)
    assert saved["schema"] == 1
    loaded = GAME.load(saved)
    assert loaded.moves == 3
    assert GAME.status(loaded, ["Ana", "Bo"]) == "Turn 4 · Bo moves a penguin."
    assert GAME.legal_actions(loaded, 1) == old_engine.legal_actions(old, 1)
    assert GAME.dump(GAME.load(GAME.dump(loaded))) == GAME.dump(loaded)


def test_a_save_with_more_moves_than_actions_is_refused() -> None:
    data = GAME.dump(GAME.new_game(2, {}, seed=2))
    data["moves"] = 5
    with pytest.raises(CorruptState):
        GAME.load(data)


def test_legal_actions_are_read_only_but_equal_save_and_pickle_as_plain_dicts() -> None:
    import json
    import pickle

    state = position([["C4"], ["H8"]])
    action = GAME.legal_actions(state, 0)[0]
    assert action == {"type": "move", "from": "C4", "to": "C5"}
    with pytest.raises(TypeError, match="read-only"):
        action["to"] = "C6"
    assert json.loads(json.dumps(action)) == action
    assert type(pickle.loads(pickle.dumps(action))) is dict
    mine = dict(action)
    mine["to"] = "C6"
    GAME.apply(state, 0, mine)
    assert state.penguins[0] == [cell("C6")]


def test_moves_lists_the_cells_of_every_legal_move_in_the_same_order() -> None:
    state = position([["C4", "F2"], ["H8"]], water={"C6"})
    labels = [(a["from"], a["to"]) for a in GAME.legal_actions(state, 0)]
    from engine.fish.game import LABELS

    assert [(LABELS[a], LABELS[b]) for a, b in GAME.moves(state, 0)] == labels
    assert GAME.moves(state, 1) == []


def test_play_by_cells_refuses_what_apply_refuses() -> None:
    state = position([["C4"], ["H8"]], water={"C6"})
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="crosses open water at C6"):
        GAME.play(state, 0, cell("C4"), cell("C7"))
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.play(state, 1, cell("H8"), cell("H7"))
    assert snapshot(state) == before
