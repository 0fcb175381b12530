"""Check the 10 Gallon Tank pictures and their screen-reader text."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.tank import GAME
from engine.tank.cards import CARDS
from engine.tank.state import TankState
from render.common import SEAT_COLOUR_NAMES, seat_colour, seat_letter
from render.tank import (
    alt_text_aquarium,
    alt_text_final,
    alt_text_table,
    aquarium_height,
    aquarium_rows,
    aquarium_total,
    draw_aquarium,
    draw_final,
    draw_table,
    final_height,
    order_rows,
    render_aquarium,
    render_final,
    render_table,
    scoring_lines,
    table_height,
)
from render.tank.aquarium import TAKEN_ROW
from render.tank.style import BACKGROUND, BANNER, HIGHLIGHT, WATER, WHITE
from tests.engine.tank.helpers import cards_of, finish_splits, give, place, play

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def _image(data: bytes) -> Image.Image:
    """Decode PNG bytes, failing if they are not a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _take_phase(players: int = 4, seed: int = 5) -> TankState:
    """Return a game in its take phase after one take."""
    state = GAME.new_game(players, {}, seed)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    if state.phase == "discard":
        GAME.apply(state, seat, {"type": "keep"})
    return state


def test_table_is_a_phone_friendly_png_in_every_phase() -> None:
    state = GAME.new_game(2, {}, 1)
    for _ in range(3):
        image = _image(render_table(GAME.view(state, None), NAMES))
        assert image.width == 800 and 600 < image.height < 2000
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    _image(render_table(GAME.view(_take_phase(5), None), NAMES))


def _taken_in_the_open() -> TankState:
    """Return a take-phase game where two seats hold two cards each, of different fish types."""
    state = _take_phase()
    for seat in (0, 1):
        state.hands[seat] = []
    give(state, 0, cards_of("guppy", 4)[:2])
    give(state, 1, [cards_of("discus", 4)[0], cards_of("neon", 4)[0]])
    return state


def test_table_picture_cannot_reveal_which_cards_went_out_for_a_gourami() -> None:
    one, two = _taken_in_the_open(), _taken_in_the_open()
    seat = next(s for s in range(4) if len(one.hands[s]) >= 2)
    for state, out in ((one, one.hands[seat][0]), (two, two.hands[seat][1])):
        state.hands[seat].remove(out)
        state.own_discards[seat].append(out)
        state.discards.append(out)
    assert one.own_discards != two.own_discards
    assert render_table(GAME.view(one, None), NAMES) == render_table(GAME.view(two, None), NAMES)
    assert alt_text_table(GAME.view(one, None), NAMES) == alt_text_table(GAME.view(two, None), NAMES)
    other = 3 - seat if seat in (1, 2) else 2
    assert render_aquarium(GAME.view(one, other), NAMES) == render_aquarium(GAME.view(two, other), NAMES)
    assert alt_text_aquarium(GAME.view(one, other), NAMES) == alt_text_aquarium(GAME.view(two, other), NAMES)


def kind_of(card: str) -> str:
    """Return a card's fish type (or "chest")."""
    return CARDS[card].kind


def test_everyone_sees_what_each_player_took_in_the_open() -> None:
    # Before: the hard player remembered every group taken while people saw only card counts.
    one, two = _taken_in_the_open(), _taken_in_the_open()
    a, b = 0, 1
    two.hands[a], two.hands[b] = two.hands[b], two.hands[a]  # the same counts: only what they took differs
    view = GAME.view(one, None)
    for info in view["seats"]:
        counts = {k["key"]: k["count"] for k in info["taken"]}
        took = one.hands[info["seat"]] + one.own_discards[info["seat"]]
        assert counts == {kind: sum(kind_of(c) == kind for c in took) for kind in map(kind_of, took)}
    # Each player's own aquarium picture shows what the others took, by fish type.
    assert render_aquarium(GAME.view(one, 2), NAMES) != render_aquarium(GAME.view(two, 2), NAMES)
    text = alt_text_aquarium(GAME.view(one, 2), NAMES)
    assert "The others took in the open: Ana: 2 Guppies; Bo: 1 Discus, 1 Neon Tetra." in text


def test_table_picture_changes_with_the_groups() -> None:
    state = GAME.new_game(3, {}, 2)
    before = render_table(GAME.view(state, None), NAMES)
    GAME.apply(state, GAME.to_act(state)[0], {"type": "split", "group": "A", "line": "v2"})
    assert render_table(GAME.view(state, None), NAMES) != before


def test_alt_text_of_the_table_names_groups_cuts_turn_and_counts() -> None:
    state = GAME.new_game(4, {}, 3)
    GAME.apply(state, GAME.to_act(state)[0], {"type": "split", "group": "A", "line": "h1"})
    text = alt_text_table(GAME.view(state, None), NAMES)
    seat = GAME.to_act(state)[0]
    assert "round 1 of 4, split phase" in text
    assert f"{NAMES[seat]} splits a group" in text
    assert "Group 1, row 1, columns 1 to 4, 4 cards" in text and "Can be cut along v1, v2, v3" in text
    assert "Group 2, rows 2 to 4" in text and "h2, h3, v1, v2, v3" in text
    assert "Ana (orange A): 0 cards" in text


def test_alt_text_counts_cards_but_never_lists_a_hand() -> None:
    state = _take_phase()
    seat = next(s for s in range(4) if state.hands[s])
    text = alt_text_table(GAME.view(state, None), NAMES).split(" Scoring: ")[0]
    n = len(state.hands[seat])
    chip = f"{SEAT_COLOUR_NAMES[seat]} {seat_letter(seat)}"
    assert f"{NAMES[seat]} ({chip}): {n} card{'s' if n != 1 else ''}" in text
    # The grid lists only cards still on the table: as many card names as cards left on it.
    on_grid = sum(c is not None for c in state.grid)
    listed = sum(text.count(name) for name in ("Guppy", "Discus", "Neon Tetra", "Angelfish", "Gourami", "Molly"))
    listed += text.count("Treasure Chest")
    assert listed == on_grid


def test_aquarium_picture_and_text_show_own_cards_by_type_with_preview() -> None:
    state = GAME.new_game(4, {}, 4)
    give(state, 2, ["molly-7", "molly-1", *cards_of("guppy")[:2], cards_of("discus")[0]])
    view = GAME.view(state, 2)
    image = _image(render_aquarium(view, NAMES))
    assert image.width == 800
    text = alt_text_aquarium(view, NAMES)
    assert text.startswith("Cy's aquarium, 5 cards.")
    assert "Mollies: 2 (1, 5), 6 points." in text
    assert "Guppies: 2, 6 points." in text
    assert "Discus: 1, scored at the end." in text
    assert "Score so far 12 points" in text
    other = GAME.view(state, 1)
    assert render_aquarium(other, NAMES) != render_aquarium(view, NAMES)


def test_aquarium_shows_the_gourami_choice() -> None:
    state = GAME.new_game(4, {}, 30)
    finish_splits(state)
    seat = GAME.to_act(state)[0]
    give(state, seat, ["molly-7"])
    group = sorted(state.groups)[0]
    r0, c0, _, _ = state.groups[group]
    place(state, r0 * 4 + c0, cards_of("gourami")[0])
    GAME.apply(state, seat, {"type": "take", "group": group})
    view = GAME.view(state, seat)
    _image(render_aquarium(view, NAMES))
    assert "You may discard up to 1 fish" in alt_text_aquarium(view, NAMES)
    assert "may discard up to 1 fish card for a Gourami" in alt_text_table(GAME.view(state, None), NAMES)


def test_final_scores_picture_and_text_once_the_game_is_over() -> None:
    state = GAME.new_game(5, {}, 6)
    GAME.resign(state, 4)
    play(state, random.Random(6))
    view = GAME.view(state, None)
    assert render_table(view, NAMES) == render_final(view, NAMES)
    image = _image(render_final(view, NAMES))
    assert image.width == 800
    text = alt_text_table(view, NAMES)
    assert text == alt_text_final(view, NAMES)
    winner = GAME.outcome(state).winners[0]
    assert f"{NAMES[winner]} (winner)" in text
    assert "Ed (resigned): " in text
    assert "Guppies" in text and "goal" in text


def test_unknown_names_fall_back_to_seat_numbers() -> None:
    state = GAME.new_game(3, {}, 1)
    text = alt_text_table(GAME.view(state, None), [])
    assert f"Seat {state.first_start + 1} splits a group" in text
    _image(render_table(GAME.view(state, None), []))


def _over(players: int, seed: int) -> TankState:
    """Return a finished random game."""
    state = GAME.new_game(players, {}, seed)
    play(state, random.Random(seed))
    return state


def test_pictures_use_a_fixed_palette_that_keeps_the_seat_colours_exact() -> None:
    state = _take_phase(5)
    table = _image(render_table(GAME.view(state, None), NAMES))
    aquarium = _image(render_aquarium(GAME.view(state, 2), NAMES))
    assert table.mode == aquarium.mode == "P"
    colours = {colour for _, colour in table.convert("RGB").getcolors(256) or []}
    assert {seat_colour(seat) for seat in range(5)} <= colours
    # Flat areas keep their exact colours: page, water, white panels, goal banner, the acting player's row.
    assert {BACKGROUND, WATER, WHITE, BANNER, HIGHLIGHT} <= colours
    assert seat_colour(2) in {colour for _, colour in aquarium.convert("RGB").getcolors(256) or []}
    final = _image(render_final(GAME.view(_over(5, 3), None), NAMES)).convert("RGB")
    assert {seat_colour(seat) for seat in range(5)} <= {c for _, c in final.getcolors(256) or []}


def test_table_shows_who_splits_and_takes_this_round_in_order() -> None:
    state = GAME.new_game(3, {}, 2)
    first = state.first_start
    order = [(first + i) % 3 for i in range(3)]
    view = GAME.view(state, None)
    assert order_rows(view) == [("Still to split", order + order[::-1]), ("Take order", order + order[::-1])]
    names = ", ".join(NAMES[s] for s in order + order[::-1])
    assert f"Take order: {names}." in alt_text_table(view, NAMES)
    finish_splits(state)
    GAME.apply(state, GAME.to_act(state)[0], {"type": "take", "group": "1"})
    if state.phase == "discard":
        GAME.apply(state, GAME.to_act(state)[0], {"type": "keep"})
    view = GAME.view(state, None)
    assert order_rows(view) == [("Still to take", order[1:] + order[::-1])]
    with_order = _image(render_table(view, NAMES))
    view["take_order"] = view["take_order"][:1]
    assert _image(render_table(view, NAMES)).tobytes() != with_order.tobytes()


def test_scoring_key_comes_from_the_rules_data_and_stays_off_the_board() -> None:
    three = GAME.view(GAME.new_game(3, {}, 1), None)
    lines = dict(scoring_lines(three))
    assert lines["neon"] == "Neon Tetra: 1, 3, 6, 10, 15, 21 for 1, 2, 3, 4, 5, 6+ cards"
    assert lines["discus"] == "Discus: most 10, second most 5 (compared at the end)"
    assert lines["chest"] == "Treasure Chest: 7, not a fish"
    assert list(lines) == ["guppy", "discus", "neon", "angelfish", "gourami", "molly", "chest"]
    assert "Scoring: Guppy: odd count 2 each, even count 3 each;" in alt_text_table(three, NAMES)
    two = GAME.view(GAME.new_game(2, {}, 1), None)
    assert "neon" not in dict(scoring_lines(two))
    # The key is not drawn on the board: dropping a line of it leaves the picture as it was.
    full = render_table(three, NAMES)
    three["scoring"] = [r for r in three["scoring"] if r["key"] != "neon"]
    assert render_table(three, NAMES) == full


LONG = ["Anastasia Montgomery-Smythe", "Bartholomew Featherstonehaugh", "Ксения Александровна", "李小龍", "Ed"]


def _tables() -> list[dict]:
    """Return the public tables of every player count in the split, take and Gourami phases."""
    views = []
    for players in range(2, 6):
        state = GAME.new_game(players, {}, players)
        views.append(GAME.view(state, None))
        finish_splits(state)
        views.append(GAME.view(state, None))
        rng = random.Random(players)
        while state.phase != "over":
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            if state.phase == "discard":
                views.append(GAME.view(state, None))
                break
    return views


def test_every_table_fits_about_900_px_at_800_wide() -> None:
    views = _tables()
    assert any(v["phase"] == "discard" for v in views)
    for view in views:
        image = _image(render_table(view, LONG))
        assert image.width == 800
        assert image.height <= 900, (view["players"], view["phase"], image.height)


def test_every_text_on_the_table_is_at_least_8_px_on_a_phone_400_px_wide(monkeypatch) -> None:
    from PIL import ImageDraw

    from render.tank import paint

    sizes: list[int] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, content, *args, font=None, **kwargs):
        sizes.append(font.size)
        return original(self, xy, content, *args, font=font, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    for cached in (paint.text_sprite, paint._card_sprite, paint.seat_chip, paint._kind_chip, paint.empty_slot):
        cached.cache_clear()
    for view in _tables():
        draw_table(view, LONG)
    assert sizes
    assert min(sizes) * 400 / 800 >= 8


def test_groups_are_numbered_so_they_do_not_look_like_seat_letters() -> None:
    state = GAME.new_game(4, {}, 3)
    GAME.apply(state, GAME.to_act(state)[0], {"type": "split", "group": "1", "line": "v2"})
    text = alt_text_table(GAME.view(state, None), NAMES)
    assert "Group 1, rows 1 to 4, columns 1 to 2" in text and "Group 2, rows 1 to 4, columns 3 to 4" in text
    assert "Group A" not in text and "Group B" not in text


def test_aquarium_without_discus_shows_no_open_discus_score() -> None:
    state = GAME.new_game(4, {}, 4)
    give(state, 1, [*cards_of("guppy")[:2], "chest"])
    view = GAME.view(state, 1)
    discus = next(row for row in aquarium_rows(view) if row["key"] == "discus")
    assert discus == {"key": "discus", "name": "Discus", "count": 0, "points": 0}
    assert aquarium_total(view) == ("Score so far: 13", "")
    assert "Discus" not in alt_text_aquarium(view, NAMES)
    give(state, 1, [cards_of("discus")[0]])
    view = GAME.view(state, 1)
    assert aquarium_total(view)[0] == "Score so far: 13 + Discus"
    assert next(row for row in aquarium_rows(view) if row["key"] == "discus")["points"] is None


def test_two_player_aquarium_has_no_neon_row() -> None:
    heights = {}
    for players in (2, 3):
        view = GAME.view(GAME.new_game(players, {}, 4), 0)
        keys = [row["key"] for row in aquarium_rows(view)]
        assert ("neon" in keys) == (players == 3)
        assert len(keys) == 6 + (players == 3)
        heights[players] = _image(render_aquarium(view, NAMES)).height
    assert heights[3] - heights[2] == 74 + TAKEN_ROW  # one row, and one more player whose takes it shows


def test_aquarium_after_the_game_shows_final_points_not_a_score_so_far() -> None:
    state = _over(3, 12)
    final = GAME.outcome(state)
    for standing in final.standings:
        view = GAME.view(state, standing.seat)
        total, note = aquarium_total(view)
        assert total.startswith(f"Final score: {standing.score} · ")
        assert ("winner" in total) == standing.winner
        assert "so far" not in note and "at the end" not in note
        rows = {row["key"]: row["points"] for row in aquarium_rows(view)}
        assert rows["discus"] == standing.detail["discus"] and None not in rows.values()
        text = alt_text_aquarium(view, NAMES)
        assert "so far" not in text and "scored at the end" not in text and "Final score" in text
        _image(render_aquarium(view, NAMES))


def test_table_alt_text_keeps_the_players_within_discords_limit() -> None:
    for players in (2, 3, 4, 5):
        state = GAME.new_game(players, {}, 40 + players)
        for _ in range(12):
            view = GAME.view(state, None)
            text = alt_text_table(view, NAMES)
            assert len(text) <= 1024 and "Players: " in text
            if "Scoring: " in text:
                assert text.endswith("Treasure Chest: 7, not a fish.")
            if GAME.is_over(state):
                break
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])


def test_pictures_are_drawn_once_at_their_exact_height() -> None:
    for players in (2, 3, 5):
        state = GAME.new_game(players, {}, 60 + players)
        rng = random.Random(players)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            assert draw_table(GAME.view(state, None), NAMES).height == table_height(GAME.view(state, None))
            view = GAME.view(state, seat)
            assert draw_aquarium(view, NAMES).height == aquarium_height(view)
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        view = GAME.view(state, 0)
        assert draw_final(view, NAMES).height == final_height(view, NAMES)
        assert draw_aquarium(view, NAMES).height == aquarium_height(view)
