"""Every label fits its picture in every language: drawn with the longest translation of each, read 400 px wide."""

from __future__ import annotations

import gettext
import io
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from PIL import Image, ImageDraw

import i18n
from engine.registry import get
from i18n import using
from i18n.catalogs import po_files, read_catalog
from render import fish, flippers, tank
from render.common import font, text_length

LANGUAGES = tuple(code for code in i18n.LANGUAGES if code != i18n.ENGLISH)
NAMES = ["Maximilian Alexander F.", "山田太郎", "Анастасия", "Bo", "Chloé", "Dmitri"]
PHONE = 400
SMALLEST_ON_A_PHONE = 8


def _width(text: str) -> float:
    """Return how wide a translation is drawn at a middling bold size (messages, never drawn, by length)."""
    return text_length(text, 20, bold=True) if len(text) <= 200 and "\n" not in text else 20.0 * len(text)


@cache
def longest() -> gettext.NullTranslations:
    """Return translations that give each string (labels, and the names views carry) its widest translation."""
    chosen: dict[tuple[str | None, Any], list[str]] = {}
    for language in LANGUAGES:
        messages = [message for path in po_files(language) for message in read_catalog(path, language)]
        for message in messages:
            if not message.id or not message.string:
                continue
            forms = [message.string] if isinstance(message.string, str) else list(message.string)
            if isinstance(message.id, tuple):
                forms = (forms * 2)[:2]  # Japanese has one form for every count
            best = chosen.setdefault((message.context, message.id), forms)
            for k, form in enumerate(forms):
                if _width(form) > _width(best[k]):
                    best[k] = form
    catalog = Catalog(locale="de")  # two plural forms, like English
    for (context, ident), forms in chosen.items():
        catalog.add(ident, forms[0] if isinstance(ident, str) else tuple(forms), context=context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@dataclass
class Drawn:
    """One piece of text drawn, the picture it was drawn on, and its ink box there."""

    text: str
    size: int
    box: tuple[float, float, float, float]
    canvas: tuple[int, int]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Record every text Pillow draws, with where its ink falls."""
    found: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, content: str, *args: Any, **kwargs: Any) -> None:
        font = kwargs.get("font")
        if font is not None and content.strip():
            box = self.textbbox(xy, content, font=font, anchor=kwargs.get("anchor"))
            found.append(Drawn(content, font.size, box, self._image.size))
        return original(self, xy, content, *args, **kwargs)

    def pasting(original: Callable[..., None]) -> Callable[..., None]:
        def paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
            box = (round(x), round(y), round(x) + sprite.width, round(y) + sprite.height)
            found.append(Drawn("a pasted piece", 0, box, image.size))
            original(image, sprite, x, y)

        return paste

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    # Text and cards are drawn once as pieces and pasted into the picture: each piece must land inside it.
    monkeypatch.setattr(tank.paint, "paste", pasting(tank.paint.paste))
    monkeypatch.setattr(flippers.sprites, "_paste", pasting(flippers.sprites._paste))
    # Pieces cached by an earlier test (a game played in this process) would be pasted without drawing their text.
    for module in (tank.paint, flippers.sprites, flippers.cards, fish.board, fish.sprites, fish.layout):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    yield found


def _played(key: str, players: int, options: dict[str, Any], seed: int) -> tuple[Any, list[Any]]:
    """Play a random game; return its rules and a copy of the state after every action."""
    game, rng = get(key), random.Random(seed)
    state = game.new_game(players, options, seed)
    states = [game.load(game.dump(state))]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(game.load(game.dump(state)))
    return game, states


Picture = Callable[[dict[str, Any], list[str]], Image.Image]
PICTURES: dict[str, tuple[str, int, dict[str, Any], Picture, Picture | None]] = {
    "fish": ("fish", 4, {}, fish.draw_board, None),
    "tank": (
        "tank",
        5,
        {},
        lambda v, n: tank.draw_final(v, n) if v.get("final") else tank.draw_table(v, n),
        tank.draw_aquarium,
    ),
    "flippers": ("flippers", 6, {}, flippers.draw_table, flippers.draw_hand),
    "flippers-teams": ("flippers", 4, {"teams": True}, flippers.draw_table, flippers.draw_hand),
}


def _pictures(name: str) -> Iterator[tuple[str, Image.Image]]:
    """Draw a game's public and private pictures at several moments; yield (what, picture)."""
    key, players, options, public, private = PICTURES[name]
    game, states = _played(key, players, options, seed=5)
    names = NAMES[:players]
    moments = [states[0], states[len(states) // 3], states[2 * len(states) // 3], states[-1]]
    for k, state in enumerate(moments):
        yield f"public {k}", public(game.view(state, None), names)
        if private is not None:
            for seat in range(players):
                yield f"private {k} seat {seat}", private(game.view(state, seat), names)


def _problems(what: str, picture: Image.Image, drawn: list[Drawn]) -> list[str]:
    """Return the texts and pieces of one picture that fall outside what they were drawn on, or read too small."""
    problems = []
    scale = PHONE / picture.width
    for piece in drawn:
        x0, y0, x1, y1 = piece.box
        width, height = piece.canvas
        if x0 < -1 or x1 > width + 1 or y0 < -3 or y1 > height + 3:
            problems.append(f"{what}: {piece.text!r} at {piece.box} outside its {width}x{height} picture")
        if what.startswith("public") and 0 < piece.size * scale < SMALLEST_ON_A_PHONE:
            problems.append(f"{what}: {piece.text!r} is {piece.size * scale:.1f} px on a phone")
    return problems


def _check(name: str, drawn: list[Drawn]) -> None:
    """Draw every picture of a game and fail on text outside its picture or too small on a phone."""
    problems = []
    for what, picture in _pictures(name):
        assert any(piece.size for piece in drawn), f"{what}: no text recorded"
        problems += _problems(what, picture, drawn)
        drawn.clear()
    assert not problems, "\n".join(dict.fromkeys(problems))


def test_a_label_past_the_edge_or_too_small_for_a_phone_is_caught(drawn: list[Drawn]) -> None:
    picture = Image.new("RGB", (800, 60), "white")
    draw = ImageDraw.Draw(picture)
    draw.text((700, 30), "Nachziehstapel", font=font(24), anchor="lm")
    draw.text((10, 30), "klein", font=font(12), anchor="lm")
    problems = _problems("public", picture, drawn)
    assert len(problems) == 2 and "outside" in problems[0] and "px on a phone" in problems[1]


@pytest.mark.parametrize("name", list(PICTURES))
def test_the_longest_translation_of_every_label_fits(name: str, drawn: list[Drawn], monkeypatch) -> None:
    monkeypatch.setattr(i18n, "translations", lambda language: longest())
    _check(name, drawn)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(PICTURES))
def test_every_label_fits_in_each_language(name: str, language: str, drawn: list[Drawn]) -> None:
    with using(language):
        _check(name, drawn)
