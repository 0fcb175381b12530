"""The data extractor finds every name players read in data/*.json, each with the context of its kind."""

from __future__ import annotations

import io
import json
from pathlib import Path

from babel.messages.extract import extract

from i18n.domains import COMMENT_TAGS, DOMAINS, KEYWORDS
from i18n.extractors import data_json
from i18n.tool import template

ROOT = Path(__file__).resolve().parents[2]


def _extracted(path: Path) -> set[tuple[str | None, str | tuple[str, str]]]:
    """Return (context, message) for every message Babel extracts from one data file with our extractor."""
    with path.open("rb") as source:
        found = extract("i18n.extractors:data_json", source, KEYWORDS, COMMENT_TAGS, {})
        return {(context, message) for _lineno, message, _comments, context in found}


def test_every_name_in_the_flippers_data_is_found() -> None:
    data = json.loads((ROOT / "data" / "flippers.json").read_text())
    found = _extracted(ROOT / "data" / "flippers.json")
    wanted = {("team name", t["name"]) for t in data["teams"]}
    wanted |= {("team short name", t["short"]) for t in data["teams"]}
    wanted |= {("power name", p["name"]) for p in data["powers"]}
    wanted |= {("power text", p["text"]) for p in data["powers"]}
    wanted |= {("Food card name", f["name"]) for f in data["food_cards"]}
    assert found == wanted
    assert len(found) == 6 + 6 + 9 + 9 + 6


def test_every_name_in_the_tank_data_is_found_and_fish_kinds_carry_their_plural() -> None:
    data = json.loads((ROOT / "data" / "tank.json").read_text())
    found = _extracted(ROOT / "data" / "tank.json")
    wanted = {("game title", data["title"]), ("Tank card name", data["chest"]["name"])}
    wanted |= {("fish kind", (f["name"], f["plural"])) for f in data["fish"]}
    wanted |= {("goal name", g["name"]) for g in data["goals"]} | {("goal text", g["text"]) for g in data["goals"]}
    assert found == wanted
    assert ("fish kind", ("Guppy", "Guppies")) in found
    assert not any(message in ("3+", "4+", "5", "") for _context, message in found)  # markings are no words


def test_the_data_domain_reads_every_data_file_and_nothing_else() -> None:
    domain = next(d for d in DOMAINS if d.name == "data")
    sources = {str(m.locations[0][0]) for m in template(domain) if m.id}
    assert sources == {"data/flippers.json", "data/tank.json"}  # data/fish.json holds numbers only


def test_a_translator_note_tells_each_kind_of_name_apart() -> None:
    document = {"powers": [{"key": "turn", "name": "Turn", "text": "Rotate."}], "title": "Game"}
    found = list(data_json(io.BytesIO(json.dumps(document).encode()), KEYWORDS, COMMENT_TAGS, {}))
    assert [(funcname, messages) for _line, funcname, messages, _notes in found] == [
        ("pgettext", ("power name", "Turn")),
        ("pgettext", ("power text", "Rotate.")),
        ("pgettext", ("game title", "Game")),
    ]
    assert all(notes for *_rest, notes in found)
