"""Spanish keeps one word for a player's rating, apart from a game's score, and speaks to players as tú."""

from __future__ import annotations

import re

from i18n.catalogs import po_files, read_catalog


def _messages() -> list[tuple[str, str]]:
    """Return every Spanish message as (English msgid, all its Spanish forms joined)."""
    found = []
    for path in po_files("es"):
        for message in read_catalog(path, "es"):
            if message.id:
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                found.append((ids[0], " | ".join(strings)))
    return found


def test_a_rating_is_a_valoracion_and_never_a_puntuacion() -> None:
    rating = re.compile(r"(?<![a-z])(rating|ratings|rated|unrated)(?![a-z])", re.IGNORECASE)
    rated = [(english, spanish) for english, spanish in _messages() if rating.search(english)]
    wrong = [(english, spanish) for english, spanish in rated if "puntu" in spanish and "score" not in english]
    assert wrong == []
    assert all("valora" not in spanish for english, spanish in _messages() if not rating.search(english))


def test_players_are_spoken_to_as_tu_never_as_usted() -> None:
    usted = re.compile(r"\b(usted|ustedes|vuestr[oa]s?|os|acepten|rechacen|pulsen|usen)\b", re.IGNORECASE)
    assert [spanish for _, spanish in _messages() if usted.search(spanish)] == []
    addressed = [spanish for english, spanish in _messages() if "{people}" in english and re.search(r"\byou", english)]
    assert addressed and [spanish for spanish in addressed if re.search(r"\bsu\b", spanish)] == []
