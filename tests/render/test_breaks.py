"""Lines in pictures break where a reader expects: between Japanese phrases, never inside a name."""

from __future__ import annotations

import budoux
import pytest

from i18n import using
from render.breaks import GLUE, pieces
from render.common import text_length, wrap_text
from render.tank.final import _final_text
from render.tank.style import WIDTH, code, wrap
from tests.render.test_tank import GAME, _over

LEGEND_SIZE = 22


def _inside_a_phrase(lines: list[str]) -> list[str]:
    """Return the line ends that fall inside a Japanese phrase (BudouX's) rather than between two."""
    parser = budoux.load_default_japanese_parser()
    joined = "".join(lines)
    ends, at = [], 0
    for phrase in parser.parse(joined):
        at += len(phrase)
        ends.append(at)
    found, at = [], 0
    for line in lines[:-1]:
        at += len(line)
        if at not in ends:
            found.append(f"{line} / {joined[at:at + 6]}")
    return found


def test_pieces_give_the_text_back_and_break_japanese_between_phrases() -> None:
    text = "ネオンテトラを2枚取った。Ana and Bo"
    assert "".join(pieces(text)) == text
    assert pieces(text) == ("ネオンテトラを", "2枚取った。", "Ana ", "and ", "Bo")
    assert pieces("Gu Guppys · Ne Tetras neón", ("Ne Tetras neón",)) == ("Gu ", "Guppys ", "· ", "Ne Tetras neón")
    assert pieces(f"Discos{GLUE}· Ne") == (f"Discos{GLUE}· ", "Ne")


def test_japanese_wraps_between_phrases_where_characters_alone_would_cut_a_word() -> None:
    text = "対象のチームが2点をサプライに戻す（表向きの探検家のみ）。"
    lines = wrap_text(text, 20, 200, max_lines=9)
    assert len(lines) > 1 and "".join(lines) == text
    assert _inside_a_phrase(lines) == []
    assert all(text_length(line, 20) <= 200 for line in lines)


def test_a_kept_name_moves_to_the_next_line_whole() -> None:
    text = "Puntos por tipo. Mo Mollys · $ Cofre del tesoro · ✓ objetivo cumplido"
    width = text_length("Puntos por tipo. Mo Mollys · $ Cofre del", 22)
    assert wrap_text(text, 22, width, max_lines=9)[0].endswith("Cofre del")
    kept = wrap_text(text, 22, width, max_lines=9, keep=["$ Cofre del tesoro"])
    assert kept[0].endswith("Mollys ·") and kept[1].startswith("$ Cofre del tesoro")


def test_a_name_wider_than_a_line_still_breaks_and_nothing_is_lost() -> None:
    name = "Pneumonoultramicroscopicsilicovolcanoconiosis"
    lines = wrap("A " + name, 200, 22, keep=[name])
    assert len(lines) > 1 and "".join(lines).replace(" ", "") == ("A" + name)
    assert wrap("", 200, 22) == []


@pytest.mark.parametrize("language", ["de", "es", "ja", "pt_BR"])
@pytest.mark.parametrize("players", [2, 5])
def test_the_final_legend_keeps_each_fish_code_beside_its_whole_name(language: str, players: int) -> None:
    with using(language):
        view = GAME.view(_over(players, 5), None)
        _head, legend = _final_text(view)
        keys = [f"{code(kind['key'])} {kind['plural']}" for kind in view["final"]["kinds"]]
    assert [key for key in keys if not any(key in line for line in legend)] == [], legend
    assert all(text_length(line, LEGEND_SIZE) <= WIDTH for line in legend)
