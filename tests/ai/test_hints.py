"""Check hints: a legal move from the hard search, with a reason that names its simulated win rates."""

from __future__ import annotations

import random
import re

import pytest

from ai import analyse
from ai.hints import hint
from engine.registry import get


def position(kind: str, players: int, moves: int, seed: int) -> tuple[object, int]:
    """Return a position some random moves into a game, and the seat to act."""
    game, rng = get(kind), random.Random(seed)
    state = game.new_game(players, {"teams": kind == "flippers" and players in (4, 6)}, seed)
    for _ in range(moves):
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state, game.to_act(state)[0]


@pytest.mark.parametrize(("kind", "players"), [("fish", 4), ("tank", 3), ("flippers", 4)])
def test_a_hint_is_a_legal_move_with_a_reason_from_simulated_games(kind: str, players: int) -> None:
    game = get(kind)
    state, seat = position(kind, players, 12, 3)
    names = [f"P{n}" for n in range(players)]
    result = hint(kind, game.view(state, seat), seat, names, 5, iterations=120, playouts=12)
    assert result["action"] in game.legal_actions(state, seat)
    assert re.search(r"; wins \d+% of simulated games, the next best \d+%$", result["reason"]), result["reason"]
    if kind == "fish":
        assert re.match(r"(takes \d fish and keeps|places a penguin with) \d+ tiles? within reach;", result["reason"])
    else:
        assert result["reason"].startswith("your expected score goes from ")
    assert result["shown"]
    again = hint(kind, game.view(state, seat), seat, names, 5, iterations=120, playouts=12)
    assert again == result  # the same position and seed always give the same hint


def test_analyse_ranks_the_hard_players_candidates_best_first() -> None:
    game = get("fish")
    state, seat = position("fish", 2, 10, 4)
    candidates = analyse("fish", game.view(state, seat), seat, 9, iterations=300)
    legal = game.legal_actions(state, seat)
    assert all(c.action in legal for c in candidates) and len(candidates) > 1
    assert [c.visits for c in candidates] == sorted((c.visits for c in candidates), reverse=True)
    assert all(0.0 <= c.win_rate <= 1.0 for c in candidates)


def test_the_reason_is_worded_in_the_language_asked_for_and_counts_right() -> None:
    from ai.hints import Effect, reason
    from i18n import using

    take = Effect("take", {"fish": 3, "reach": 1})
    assert reason(take, None) == "takes 3 fish and keeps 1 tile within reach; it is the only move you have"
    assert reason(Effect("score", {"before": 20, "after": 1}), None).startswith(
        "your expected score goes from 20 to 1 point;"
    )
    with using("de"):
        assert reason(take, (0.55, 0.3)) == (
            "fängt Fische (3) und behält 1 erreichbare Scholle; gewinnt 55 % der simulierten Spiele, "
            "der nächstbeste Zug 30 %"
        )
    with using("es"):
        assert reason(Effect("place", {"reach": 2}), None) == (
            "coloca un pingüino con 2 placas a su alcance; es tu única jugada posible"
        )


def test_a_hint_made_in_another_process_is_worded_in_the_language_passed_in() -> None:
    state, seat = position("fish", 2, 10, 3)
    game = get("fish")
    view = game.view(state, seat)
    result = hint("fish", view, seat, ["Ana", "Bo"], 1, iterations=30, playouts=4, language="pt_BR")
    assert re.search(r"; vence \d+% das partidas simuladas, a próxima melhor \d+%$", result["reason"]), result["reason"]
    assert result["shown"].startswith("Turno ")
