"""Prove the hard player's sampled worlds agree with all a seat observed and with nothing it did not see."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ai import bots
from ai.flippers_kept import kept_weights
from engine.flippers.cards import team_cards
from engine.registry import get
from engine.tank.cards import CARDS
from tests.ai.helpers import positions
from tests.ai.test_hidden import rehide_flippers, rehide_tank
from tests.engine.tank.helpers import cards_of, give

TANK_SIZES = [2, 3, 4, 5]
FLIPPERS_SIZES = [2, 3, 4, 5, 6]


@pytest.mark.parametrize("players", TANK_SIZES)
def test_tank_samples_give_each_seat_the_cards_it_took_in_the_open(players: int) -> None:
    game = get("tank")
    ai = bots()["tank"]
    checked = 0
    for seed in range(3):
        for state, seat in positions("tank", players, {}, seed, every=3):
            view = game.view(state, seat)
            for n in range(2):
                world = ai.determinize(view, seat, random.Random(n))
                assert game.view(world, seat) == view
                for s in range(players):
                    took = Counter(state.hands[s] + state.own_discards[s])
                    assert Counter(world.hands[s] + world.own_discards[s]) == took
                    assert len(world.own_discards[s]) == len(state.own_discards[s])
                assert Counter(world.deck) == Counter(state.deck)
                leftovers = Counter(state.discards) - Counter(c for d in state.own_discards for c in d)
                assert Counter(world.discards) - Counter(c for d in world.own_discards for c in d) == leftovers
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("players", FLIPPERS_SIZES)
def test_flippers_samples_keep_played_cards_on_the_table_and_team_decks_whole(players: int) -> None:
    game = get("flippers")
    ai = bots()["flippers"]
    checked = 0
    for seed in range(2):
        for state, seat in positions("flippers", players, {"teams": players in (4, 6)}, seed, every=3):
            view = game.view(state, seat)
            world = ai.determinize(view, seat, random.Random(seed))
            assert game.view(world, seat) == view
            for s in range(players):
                off_table = sorted(c for c in team_cards(s)[1:] if c not in state.where)
                assert sorted(world.hands[s] + world.decks[s] + world.discards[s]) == off_table
                assert not set(world.hands[s] + world.decks[s] + world.discards[s]) & set(world.where)
                assert (len(world.hands[s]), len(world.decks[s])) == (len(state.hands[s]), len(state.decks[s]))
            assert world.hands[seat] == state.hands[seat]
            assert world.discards[seat] == state.discards[seat]
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("infer", [False, True], ids=["uniform", "inferring"])
@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, True), (5, False), (6, False), (6, True)])
def test_flippers_worlds_never_contradict_the_public_record_even_after_resignations(
    players: int, teams: bool, infer: bool
) -> None:
    game = get("flippers")
    ai = bots()["flippers"]
    ai.infer = infer  # type: ignore[attr-defined]
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(players, {"teams": teams}, seed)
        quitter = rng.randrange(players)
        while not game.is_over(state):
            if state.phase == "play" and not state.resigned[quitter] and rng.random() < 0.04:
                game.resign(state, quitter)
                continue
            for seat in game.to_act(state):
                view = game.view(state, seat)
                world = ai.determinize(view, seat, random.Random(checked))
                assert game.view(world, seat) == view, "table, counts, markers and everyone's latest play"
                for s in range(players):
                    unseen = sorted(c for c in team_cards(s)[1:] if c not in state.where)
                    assert sorted(world.hands[s] + world.decks[s] + world.discards[s]) == unseen
                    assert len(world.discards[s]) == len(state.discards[s])
                assert (world.hands[seat], world.discards[seat]) == (state.hands[seat], state.discards[seat])
                assert sorted(world.decks[seat]) == sorted(state.decks[seat])
                checked += 1
            seat = game.to_act(state)[0]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked >= 60


CASES: list[tuple[str, int, Any]] = [
    *(("tank", n, rehide_tank) for n in TANK_SIZES),
    *(("flippers", n, rehide_flippers) for n in FLIPPERS_SIZES),
]


@pytest.mark.parametrize(("key", "players", "rehide"), CASES)
def test_worlds_sampled_from_states_differing_only_in_hidden_cards_are_identical(
    key: str, players: int, rehide: Any
) -> None:
    game = get(key)
    ai = bots()[key]
    ai.infer = True  # type: ignore[attr-defined]  # Flippers: judge what opponents kept, from the view alone
    differed = judged = 0
    for seed in range(2):
        for state, seat in positions(key, players, {}, seed, every=5):
            other = rehide(state, seat, random.Random(seed))
            if game.dump(other) == game.dump(state):
                continue
            differed += 1
            if key == "flippers":
                assert game.view(other, seat)["last_plays"] == game.view(state, seat)["last_plays"]
                judged += bool(kept_weights(ai, game.view(state, seat), seat))
            for n in range(3):
                first = ai.determinize(game.view(state, seat), seat, random.Random(n))
                second = ai.determinize(game.view(other, seat), seat, random.Random(n))
                assert game.dump(first) == game.dump(second)
    assert differed >= 5
    assert key != "flippers" or judged >= 3, "opponents' latest plays were judged, from the view alone"


def test_tank_opponents_are_taken_to_have_put_out_what_scores_better_gone() -> None:
    # Before: a seat's Gourami discards were drawn uniformly among its fish (a Neon Tetra as often as a Guppy).
    game = get("tank")
    ai = bots()["tank"]
    state = game.new_game(3, {}, 4)
    guppies, neons = cards_of("guppy", 3)[:5], cards_of("neon", 3)[:2]
    give(state, 1, guppies + neons)
    state.hands[1].remove(guppies[0])  # five Guppies score 10, four 12; one Neon Tetra less costs 2 points
    state.own_discards[1].append(guppies[0])
    state.discards.append(guppies[0])
    view = game.view(state, 0)
    kinds = Counter(CARDS[ai.determinize(view, 0, random.Random(n)).own_discards[1][0]].kind for n in range(200))
    assert kinds["guppy"] >= 180, kinds
