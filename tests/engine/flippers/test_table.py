"""Check the grid: cell labels players type, directions, and where cards aim."""

from __future__ import annotations

import pytest

from engine.flippers.table import aims, column_label, food_arrows, label, mirror, parse_label, rotate


@pytest.mark.parametrize(
    ("cell", "text"),
    [
        ((0, 1), "A1"),
        ((13, 15), "N15"),
        ((25, 30), "Z30"),
        ((26, 3), "AA3"),
        ((51, 3), "AZ3"),
        ((52, 3), "BA3"),
        ((-1, 4), "-A4"),
        ((-27, 4), "-AA4"),
        ((2, 0), "C0"),
        ((2, -3), "C-3"),
    ],
)
def test_labels_round_trip_including_overflow_past_z_and_west_of_a(cell: tuple[int, int], text: str) -> None:
    assert label(cell) == text
    assert parse_label(text) == cell


def test_labels_are_typed_in_any_case_with_spaces() -> None:
    assert parse_label(" n 15 ") == (13, 15)
    assert parse_label("aa3") == (26, 3)


@pytest.mark.parametrize("text", ["", "15", "N", "N1.5", "1N", "N--1", "?", "food"])
def test_non_labels_are_refused(text: str) -> None:
    assert parse_label(text) is None


def test_every_column_label_is_unique_over_a_wide_range() -> None:
    labels = [column_label(c) for c in range(-800, 800)]
    assert len(set(labels)) == len(labels)
    assert all(parse_label(f"{lab}1") == (c, 1) for c, lab in zip(range(-800, 800), labels, strict=True))


def test_rotation_goes_clockwise() -> None:
    assert [rotate(d) for d in "NESW"] == ["E", "S", "W", "N"]
    assert rotate("N", -1) == "W"


def test_flip_mirrors_only_along_the_arrow_axis() -> None:
    assert mirror("N", "S") == "S" and mirror("S", "N") == "N"
    assert mirror("E", "N") == "E"
    assert mirror("E", "W") == "W" and mirror("N", "E") == "N"


def test_switch_aims_left_and_right_others_ahead() -> None:
    assert aims("switch", (5, 5), "N") == ((4, 5), (6, 5))
    assert aims("switch", (5, 5), "E") == ((5, 4), (5, 6))
    assert aims("flip", (5, 5), "W") == ((4, 5),)


def test_food_arrows_turn_with_the_card() -> None:
    arrows = (("N", 3), ("S", 1))
    assert food_arrows(arrows, "N") == [("N", 3), ("S", 1)]
    assert food_arrows(arrows, "E") == [("E", 3), ("W", 1)]
    assert food_arrows(arrows, "W") == [("W", 3), ("E", 1)]
