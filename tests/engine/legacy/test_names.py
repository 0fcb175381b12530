"""Old Flippers games are shown in the player's language too, while their English stays word for word."""

from __future__ import annotations

from engine.base import Event
from engine.legacy import rules_for
from i18n import using

NAMES = ["Ana", "Bo", "Cy", "Di"]


def test_an_old_game_is_told_and_shown_in_german() -> None:
    for version in (1, 2):
        rules = rules_for("flippers", version)
        state = rules.new_game(4, {}, 5)
        lifted = Event("lifted", 1, {"reason": "face_down"})
        with using("de"):
            view = rules.view(state, 0)
            line = rules.describe(lifted, NAMES)
            assert rules.title == "Flippers"
        assert line == "Der Blockmarker von Bo wurde entfernt: Die Blockkarte ist verdeckt."
        assert [s["team"] for s in view["seats"]] == [
            "Zügelpinguine",
            "Goldschopfpinguine",
            "Kaiserpinguine",
            "Weddellrobben",
        ]
        assert {c["power_name"] for c in view["hand"]} <= {
            "Wende",
            "Schubs",
            "Tausch",
            "Platzwechsel",
            "Drehung",
            "Plus",
            "Minus",
            "Blockade",
        }
        assert view["hand"] and all(c["name"].startswith("Zügel-") for c in view["hand"])


def test_the_first_rules_keep_their_own_english_wording() -> None:
    lifted = Event("lifted", 0, {"reason": "no_target"})
    assert rules_for("flippers", 1).describe(lifted, NAMES) == (
        "Ana's Block marker was lifted: its Block card no longer aims at a card."
    )
    assert rules_for("flippers", 2).describe(lifted, NAMES) == (
        "Ana's Block marker was lifted: its Block card no longer aimed at a card."
    )
