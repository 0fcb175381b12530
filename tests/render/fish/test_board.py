"""Check that the board's header and scores, pasted from pieces kept between boards, match a fresh drawing."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.fish import GAME
from i18n import using
from render.fish import board, draw_board
from render.fish.layout import HEADER_H, SEAT_ROW_H
from tests.render.test_fish import played

NAMES = {
    "latin": ["Ana", "Bo", "Cy", "Di"],
    "long": ["Bartholomew the Magnificent Penguin of the South Seas", "Wolfeschlegelsteinhausenberger Jr", "Ω", "x"],
    "scripts": ["山田太郎", "محمد علي", "שרה כהן", "Иван Петров"],
    "emoji": ["🐧 Pingu 🐟", "Zoë ❤️", "李小龙 the great 🐉", "ユーザー名がとても長いプレイヤーさんです"],
}


def _played(players: int, moves: int, seed: int) -> dict[str, Any]:
    """Return the public view after `moves` random actions."""
    return GAME.view(played(players, moves, seed), None)


def _views() -> list[dict[str, Any]]:
    """Return boards in every phase, with every seat count, a shared win and seats that resigned or are out."""
    playing = _played(4, 30, 2)
    playing["seats"] = [
        playing["seats"][0],
        {**playing["seats"][1], "resigned": True},
        {**playing["seats"][2], "out": True},
        playing["seats"][3],
    ]
    over = _played(3, 500, 5)
    return [_played(3, 0, 1), _played(2, 9, 3), playing, over, {**over, "winners": [0, 2]}, {**over, "winners": []}]


def _panels(image: Image.Image, seats: int) -> tuple[bytes, bytes]:
    """Return the colours of the header and of the score panel."""
    rgb = image.convert("RGB")
    top = image.height - seats * SEAT_ROW_H - 16
    return rgb.crop((0, 0, image.width, HEADER_H)).tobytes(), rgb.crop((0, top, image.width, image.height)).tobytes()


@pytest.mark.parametrize("language", ["en", "de", "ja"])
@pytest.mark.parametrize("names", list(NAMES))
def test_panels_pasted_from_kept_pieces_match_panels_drawn_afresh(language: str, names: str) -> None:
    board._text_stamp.cache_clear()
    board._marker_stamp.cache_clear()
    with using(language):
        for view in _views():
            seats = len(view["seats"])
            who = NAMES[names][:seats]
            fresh = _panels(board._quantize(board._draw(view, who, indexed=False)), seats)
            first, again = draw_board(view, who), draw_board(view, who)
            assert _panels(first, seats) == fresh, f"{view['phase']} board, {seats} seats"
            assert _panels(again, seats) == fresh, f"{view['phase']} board, {seats} seats, drawn again"
            assert ImageChops.difference(first.convert("RGB"), again.convert("RGB")).getbbox() is None
