"""Check a computer player's seed is derived one way from the secret deal seed, and repeats for a position."""

from __future__ import annotations

import random

from engine.registry import get
from ui.seeds import computer_seed


def test_the_seed_repeats_for_the_same_secret_seat_and_position() -> None:
    game = get("flippers")
    view = game.view(game.new_game(2, {}, 12), 0)
    assert computer_seed(12, 0, view) == computer_seed(12, 0, dict(view))
    # HMAC-SHA256 keyed with the secret's bytes over the JSON of [seat, view]: the first 8 bytes, big-endian.
    assert computer_seed(12, 0, {"turn": 3, "hand": ["a-b"]}) == 2259230042969358034


def test_the_seed_changes_with_the_secret_the_seat_and_the_position() -> None:
    game = get("tank")
    state = game.new_game(3, {}, 5)
    view = game.view(state, 0)
    seeds = {computer_seed(5, 0, view), computer_seed(6, 0, view), computer_seed(5, 1, game.view(state, 1))}
    mover = game.to_act(state)[0]
    game.apply(state, mover, random.Random(1).choice(game.legal_actions(state, mover)))
    seeds.add(computer_seed(5, 0, game.view(state, 0)))
    assert len(seeds) == 4


def test_the_seed_is_not_the_secret_plus_a_move_number() -> None:
    # Before: the computer searched with seed + version, from which the deal's seed was one subtraction away.
    game = get("flippers")
    for secret in (0, 1, 77, 2**62, -5):
        state = game.new_game(2, {}, secret)
        seed = computer_seed(secret, 0, game.view(state, 0))
        assert all(seed != secret + move for move in range(1000))
        assert 0 <= seed < 2**64
        assert game.dump(game.new_game(2, {}, seed)) != game.dump(state)
