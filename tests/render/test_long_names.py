"""A long name in a picture keeps its start and the words that say what the line means, at phone size."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from PIL import ImageDraw

from engine.registry import get
from render.common import fit_named_lines, text_length
from render.fish.board import render_board
from render.rating_chart import rating_chart
from render.tank import paint, render_final, render_table
from tests.engine.tank.helpers import finish_splits, play

LONG = "Maximilian Alexander Habsburg-Lothringen"
ENDLESS = "Pneumonoultramicroscopicsilicovolcanoconiosis Smith-Jones of Lower Wallop"


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], str]]:
    """Record every text drawn; yield a function returning them all, without spaces and line breaks."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, content: str, *args: object, **kwargs: object) -> None:
        texts.append(content)
        original(self, xy, content, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    for cached in (paint.text_sprite, paint._card_sprite, paint.seat_chip, paint._kind_chip, paint.empty_slot):
        cached.cache_clear()
    yield lambda: "".join(texts).replace(" ", "").replace("\u00a0", "")


def squeezed(text: str) -> str:
    """Return `text` without spaces, as `drawn` gives it."""
    return text.replace(" ", "").replace("\u00a0", "")


def test_a_line_too_long_for_two_lines_shortens_only_the_name() -> None:
    size, lines = fit_named_lines(lambda who: f"{who} · winner", ENDLESS * 3, 300, (30, 26), bold=True)
    assert size == 26 and len(lines) == 2
    assert lines[-1].endswith("… · winner") and lines[0].startswith("Pneumono")
    assert all(text_length(line, size, True) <= 300 for line in lines)
    assert fit_named_lines(lambda who: f"{who} wins", "Bo", 300, (30, 26)) == (30, ["Bo wins"])


def test_the_fish_headline_shows_a_long_name_whole_with_the_action(drawn: Callable[[], str]) -> None:
    fish = get("fish")
    render_board(fish.view(fish.new_game(2, {}, 4), None), [LONG, "Bo"])
    assert squeezed(f"{LONG} (A) places a penguin") in drawn()


def test_the_tank_player_strip_keeps_the_start_tag_and_the_name_whole(drawn: Callable[[], str]) -> None:
    tank = get("tank")
    state = tank.new_game(5, {}, 5)
    finish_splits(state)
    view = tank.view(state, None)
    names = ["Ana", "Bo", "Cy", "Di", "Ed"]
    names[view["start_seat"]] = "Pneumonoultramicroscopicsilicovolcano"
    render_table(view, names)
    assert squeezed("Pneumonoultramicroscopicsilicovolcano (start)") in drawn()


def test_the_tank_final_keeps_the_winner_tag_after_a_long_name(drawn: Callable[[], str]) -> None:
    tank = get("tank")
    state = tank.new_game(4, {}, 7)
    play(state, random.Random(7))
    view = tank.view(state, None)
    winner = next(row["seat"] for row in view["final"]["standings"] if row["winner"])
    names = ["Ana", "Bo", "Cy", "Di"]
    names[winner] = ENDLESS
    render_final(view, names)
    shown = drawn()
    assert squeezed("1. Pneumonoultramicroscopicsilicovolcanoconiosis") in shown
    assert "…·winner" in shown


def test_the_rating_chart_title_keeps_the_name_and_what_it_shows(drawn: Callable[[], str]) -> None:
    rating_chart(f"{LONG}: rating (μ − 3σ) in this server", [("Hey, That's My Fish!", [0.0, 1.5])], LONG)
    assert squeezed(f"{LONG}: rating (μ − 3σ) in this server") in drawn()
