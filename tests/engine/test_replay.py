"""Check that every game replays exactly from its seed and action log."""

from __future__ import annotations

import random

import pytest

from engine.registry import games
from engine.replay import replay


@pytest.mark.parametrize("key", sorted(games()))
def test_replaying_the_log_rebuilds_every_state(key: str) -> None:
    game = games()[key]
    players = game.min_players + 1
    options = {o.name: False for o in game.options}
    state = game.new_game(players, options, seed=17)
    rng = random.Random(17)
    log, dumps = [], [game.dump(state)]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if len(log) == 6 and players > 2:
            log.append({"seat": players - 1, "action": {"type": "resign"}})
            game.resign(state, players - 1)
        else:
            action = rng.choice(game.legal_actions(state, seat))
            log.append({"seat": seat, "action": action})
            game.apply(state, seat, action)
        dumps.append(game.dump(state))
    replayed = [game.dump(s) for s in replay(game, players, options, 17, log)]
    assert replayed == dumps
