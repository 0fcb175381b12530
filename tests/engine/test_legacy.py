"""Check that old games replay and score under the rules they were played under, whatever today's rules say."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.base import IllegalAction
from engine.legacy import UnknownRules, rules_for, rules_of_save
from engine.registry import games, get
from engine.replay import plan_for, replay, replay_as_played

FIXTURE = Path(__file__).parent / "fixtures" / "flippers_schema1_finished.json"


def schema1_games() -> list[dict[str, Any]]:
    """Return finished Flippers games written by the schema-1 code itself (see the fixture's "about")."""
    return json.loads(FIXTURE.read_text())["games"]


def standing_dicts(outcome: Any) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "score": s.score, "rank": s.rank, "winner": s.winner} for s in outcome.standings]


@pytest.mark.parametrize("key", sorted(games()))
def test_every_older_rules_version_of_every_game_is_kept(key: str) -> None:
    game = get(key)
    for version in range(1, game.schema_version + 1):
        assert rules_for(key, version).schema_version in (version, game.schema_version)
    with pytest.raises(UnknownRules):
        rules_for(key, game.schema_version + 1)


def test_old_flippers_games_do_not_replay_under_todays_rules_but_do_as_played() -> None:
    game = get("flippers")
    for saved in schema1_games():
        with pytest.raises(IllegalAction):
            for _ in replay(game, saved["players"], saved["options"], saved["seed"], saved["log"]):
                pass
        steps = list(
            replay_as_played("flippers", saved["players"], saved["options"], saved["seed"], saved["log"], None,
                             saved["state"])
        )
        assert len(steps) == len(saved["log"]) + 1
        rules, final = steps[-1]
        assert rules.schema_version == 1
        assert rules.dump(final) == saved["state"]
        assert standing_dicts(rules.outcome(final)) == saved["standings"]


def test_old_finished_flippers_saves_keep_their_scores_though_later_rules_score_some_differently() -> None:
    rescored = 0
    for saved in schema1_games():
        later = rules_for("flippers", 2)  # the Leader rules: what loading these saves used to score them by
        rescored += standing_dicts(later.outcome(later.load(saved["state"]))) != saved["standings"]
        rules = rules_of_save("flippers", saved["state"])
        assert standing_dicts(rules.outcome(rules.load(saved["state"]))) == saved["standings"]
    assert rescored >= 2  # the fixture holds games today's rules would re-score


def test_a_game_that_went_on_after_an_upgrade_replays_across_the_change() -> None:
    old, new = rules_for("flippers", 1), get("flippers")
    rng = random.Random(3)
    state = old.new_game(4, {"teams": True}, 3)
    log: list[dict[str, Any]] = []
    while len(log) < 20:
        seat = old.to_act(state)[0]
        action = rng.choice(old.legal_actions(state, seat))
        old.apply(state, seat, action)
        log.append({"seat": seat, "action": action, "rules": 1})
    state = new.load(json.loads(json.dumps(old.dump(state))))  # saved by the old bot, loaded by the new one
    while not new.is_over(state):
        seat = new.to_act(state)[0]
        action = rng.choice(new.legal_actions(state, seat))
        new.apply(state, seat, action)
        log.append({"seat": seat, "action": action, "rules": new.schema_version})
    rules, final = list(replay_as_played("flippers", 4, {"teams": True}, 3, log, 1))[-1]
    assert rules is new and new.dump(final) == new.dump(state)


@pytest.mark.parametrize("key", sorted(games()))
def test_a_finished_game_of_each_title_replays_with_and_without_recorded_versions(key: str) -> None:
    game, rng = get(key), random.Random(11)
    state = game.new_game(3, {}, 11)
    log = []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        log.append({"seat": seat, "action": action, "rules": game.schema_version})
    saved = game.dump(state)
    for opening, entries in ((game.schema_version, log), (None, [{**e, "rules": None} for e in log])):
        assert plan_for(key, 3, {}, 11, entries, opening, saved)[1] == [game.schema_version] * len(log)
        rules, final = list(replay_as_played(key, 3, {}, 11, entries, opening, saved))[-1]
        assert rules.dump(final) == saved
