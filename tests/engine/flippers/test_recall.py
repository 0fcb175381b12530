"""Check the public record of each seat's latest play: the table it went down on, in every view and save."""

from __future__ import annotations

import json

from engine.flippers import GAME
from engine.flippers.game import open_cells
from engine.flippers.table import label
from tests.engine.flippers.helpers import new_started, play


def test_each_seats_latest_play_is_recorded_with_the_table_it_was_played_on() -> None:
    state = new_started(3, seed=5)
    seat, card = state.current, state.hands[state.current][0]
    before = GAME.view(state, None)
    assert before["last_plays"] == [None, None, None]
    play(state, card, label(open_cells(state)[0]), "E")
    recall = GAME.view(state, None)["last_plays"][seat]
    assert (recall["card"], recall["held"], recall["turn"]) == (card, 2, before["turn"])
    table = {(c["id"], c["col"], c["row"], c["facing"], c["face"]) for c in before["cards"]}
    assert {tuple(row) for row in recall["table"]} == table, "the table as it stood before the card went down"
    assert recall["stash"] == [s["stash"] for s in before["seats"]] and recall["supply"] == before["supply"]
    assert all(GAME.view(state, s)["last_plays"] == GAME.view(state, None)["last_plays"] for s in range(3))
    data = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.dump(GAME.load(data)) == GAME.dump(state)
    del data["last_plays"]
    assert GAME.load(data).last_plays == [None, None, None], "a save from before the record loads with none"
