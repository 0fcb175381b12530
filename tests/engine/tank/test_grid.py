"""Check groups and cut lines on the grid."""

from __future__ import annotations

from engine.tank.grid import all_lines, cut_lines, parse_line, split


def test_whole_4x4_grid_can_be_cut_along_every_line() -> None:
    assert cut_lines((0, 0, 4, 4)) == ["h1", "h2", "h3", "v1", "v2", "v3"]
    assert all_lines(3) == ["h1", "h2", "v1", "v2"]


def test_single_card_has_no_cut_and_a_strip_only_cuts_across() -> None:
    assert cut_lines((2, 1, 3, 2)) == []
    assert cut_lines((1, 0, 2, 4)) == ["v1", "v2", "v3"]


def test_lines_are_named_by_absolute_grid_position() -> None:
    # Group covering rows 3-4 can only be cut between rows 3 and 4, which is h3 on the whole grid.
    assert cut_lines((2, 0, 4, 1)) == ["h3"]


def test_split_keeps_top_or_left_part_first() -> None:
    assert split((0, 0, 4, 4), "h", 1) == ((0, 0, 1, 4), (1, 0, 4, 4))
    assert split((0, 0, 4, 4), "v", 3) == ((0, 0, 4, 3), (0, 3, 4, 4))


def test_line_names_are_forgiving_about_case_and_strict_about_range() -> None:
    assert parse_line(" H2 ", 4) == ("h", 2)
    assert parse_line("v3", 4) == ("v", 3)
    assert parse_line("v3", 3) is None
    assert parse_line("h0", 4) is None
    assert parse_line("x1", 4) is None
