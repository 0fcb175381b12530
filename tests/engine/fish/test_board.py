"""Check the board layout, the tile bag and the balanced deal."""

from __future__ import annotations

import random
from collections import Counter

from engine.fish.board import deal, is_balanced, layout, tile_bag


def test_board_has_60_hexes_in_rows_of_7_and_8_labelled_a1_to_h8() -> None:
    board = layout()
    assert board.size == 60
    per_row = Counter(label[0] for label in board.labels)
    assert [per_row[r] for r in "ABCDEFGH"] == [7, 8, 7, 8, 7, 8, 7, 8]
    assert board.labels[0] == "A1" and board.labels[-1] == "H8"


def test_short_rows_sit_half_a_hex_in_so_a1_touches_b1_and_b2() -> None:
    board = layout()
    neighbours = {board.labels[n] for n in board.neighbours[board.index_of["A1"]]}
    assert neighbours == {"A2", "B1", "B2"}


def test_an_inner_tile_has_six_neighbours() -> None:
    board = layout()
    neighbours = {board.labels[n] for n in board.neighbours[board.index_of["D4"]]}
    assert neighbours == {"D3", "D5", "C3", "C4", "E3", "E4"}


def test_bag_holds_30_one_20_two_and_10_three_fish_tiles() -> None:
    assert Counter(deal(1, balanced=False)) == {1: 30, 2: 20, 3: 10}


def test_the_same_seed_deals_the_same_board_and_another_seed_does_not() -> None:
    assert deal(42, balanced=False) == deal(42, balanced=False)
    assert deal(42, balanced=False) != deal(43, balanced=False)


def test_balanced_deal_keeps_3_fish_tiles_apart_and_puts_a_rich_tile_in_every_row() -> None:
    board = layout()
    for seed in range(20):
        tiles = deal(seed, balanced=True)
        assert is_balanced(tiles)
        for i, fish in enumerate(tiles):
            if fish == 3:
                assert all(tiles[n] != 3 for n in board.neighbours[i])
        rows = {board.labels[i][0] for i, fish in enumerate(tiles) if fish >= 2}
        assert rows == set("ABCDEFGH")
        assert Counter(tiles) == {1: 30, 2: 20, 3: 10}


def test_balanced_deal_is_deterministic_from_the_seed() -> None:
    assert deal(5, balanced=True) == deal(5, balanced=True)


def test_an_unbalanced_board_is_recognised() -> None:
    board = layout()
    tiles = [1] * 60
    tiles[board.index_of["D4"]] = tiles[board.index_of["D5"]] = 3
    assert not is_balanced(tiles)


def test_a_seed_deals_the_board_random_shuffle_deals_so_saved_seeds_keep_their_boards() -> None:
    for seed in range(500):
        for balanced in (False, True):
            rng = random.Random(seed)
            tiles = tile_bag()
            rng.shuffle(tiles)
            while balanced and not is_balanced(tiles):
                rng.shuffle(tiles)
            assert deal(seed, balanced) == tiles, f"seed {seed}, balanced {balanced}"
