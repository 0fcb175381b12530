"""Check the words players read: typed input quoted as typed, counts with the right plural, one punctuation style.

The sweeps read the source of every engine, cog and ui module, so a new refusal or count is checked too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.words import plural, quote, sentence

ROOT = Path(__file__).resolve().parents[2]
SWEPT = sorted(
    p
    for folder in ("engine", "cogs", "ui")
    for p in (ROOT / folder).rglob("*.py")
    if "legacy" not in p.relative_to(ROOT).parts  # frozen rules of old games: their words are kept as they were
)
ERRORS = {"IllegalAction", "UserError"}
MARKERS = {"_": (0,), "pgettext": (1,), "ngettext": (0, 1), "npgettext": (1, 2)}
"""The i18n functions a message is written inside, with the positions of its English text (singular, plural)."""


def _unescape(shown: str) -> str:
    """Return what Discord displays for a quoted text: markdown escapes and mention guards removed."""
    return re.sub(r"\\(.)", r"\1", shown).replace("@\u200b", "@")


@pytest.mark.parametrize(
    "typed",
    ["zz9", "Pingu's \\Flip", "**bold** _it_ ~~x~~ `code` |spoiler|", "<@123> @everyone @here", "[link](http://x)"],
)
def test_quote_shows_input_exactly_as_typed_and_never_pings(typed: str) -> None:
    shown = quote(typed)
    assert shown.startswith('"') and shown.endswith('"')
    assert _unescape(shown[1:-1]) == typed
    assert "<@1" not in shown and "@everyone" not in shown and "@here" not in shown


def test_quote_shortens_long_input_with_an_ellipsis_and_flattens_lines() -> None:
    shown = quote("; DROP TABLE games; -- and a very long tail that goes on")
    assert shown.endswith('…"') and len(shown) <= 42
    assert quote("a\nb") == '"a b"'
    assert quote(None) == '""'


@pytest.mark.parametrize(
    ("n", "one", "many", "expected"),
    [
        (0, "game", None, "0 games"),
        (1, "game", None, "1 game"),
        (2, "game", None, "2 games"),
        (1, "fish", None, "1 fish"),
        (2, "fish", None, "2 fish"),
        (2, "tile", None, "2 tiles"),
        (2, "guppy", None, "2 guppies"),
        (2, "match", None, "2 matches"),
        (2, "open game", None, "2 open games"),
        (3, "fish card", None, "3 fish cards"),
        (2, "person", "people", "2 people"),
    ],
)
def test_plural_counts_with_the_right_word(n: int, one: str, many: str | None, expected: str) -> None:
    assert plural(n, one, many) == expected


def test_sentence_never_doubles_the_full_stop() -> None:
    assert sentence("Winner: Ana") == "Winner: Ana."
    assert sentence("Winner: Bo!") == "Winner: Bo!"
    assert sentence("Winner: Cy?") == "Winner: Cy?"
    assert sentence("Done.") == "Done."


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """Return a module's top-level NAME = "text" assignments."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = node.value
    return found


def _pieces(node: ast.expr, constants: dict[str, ast.expr]) -> list[ast.expr] | None:
    """Return the parts a message is built from (strings, f-strings), or None when it is not built here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _pieces(node.left, constants), _pieces(node.right, constants)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Name) and node.id in constants:
        return _pieces(constants[node.id], constants)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
        texts = [_pieces(node.args[i], constants) for i in MARKERS[node.func.id] if i < len(node.args)]
        return None if not texts or None in texts else [piece for text in texts if text for piece in text]
    return None


def _refusals() -> list[tuple[str, list[ast.expr]]]:
    """Return every refusal the engines, cogs and ui can raise with a message written in place."""
    found = []
    for path in SWEPT:
        tree = ast.parse(path.read_text())
        constants = _constants(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS):
                continue
            if not node.args:
                continue
            pieces = _pieces(node.args[0], constants)
            if pieces is not None:
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", pieces))
    return found


def _last_text(piece: ast.expr) -> str:
    """Return the literal text a message piece ends with ("" when it ends with a placeholder)."""
    if isinstance(piece, ast.Constant):
        return str(piece.value)
    assert isinstance(piece, ast.JoinedStr)
    last = piece.values[-1] if piece.values else None
    return str(last.value) if isinstance(last, ast.Constant) else ""


def test_every_refusal_is_a_whole_sentence_that_never_shows_python() -> None:
    refusals = _refusals()
    assert len(refusals) > 100  # every game's engine and cog, and the shared ui
    wrong = []
    for where, pieces in refusals:
        end = _last_text(pieces[-1]).rstrip()
        if end and not end.endswith((".", "?", "!", "…", ")")):
            wrong.append(f"{where}: ends without a full stop: {end[-30:]!r}")
        for piece in pieces:
            for value in ast.walk(piece):
                if isinstance(value, ast.FormattedValue) and value.conversion == ord("r"):
                    wrong.append(f"{where}: shows Python's repr (!r)")
                if isinstance(value, ast.FormattedValue) and value.format_spec is not None:
                    spec = ast.unparse(value.format_spec)
                    if re.search(r"\.\d", spec) and "f" not in spec:
                        wrong.append(f"{where}: cuts input without an ellipsis ({spec})")
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "repr":
                    wrong.append(f"{where}: shows Python's repr()")
    assert wrong == []


COUNTED = r"(?:game|open game|win|card|point|tile|move|penguin|page|open cell)s?"
# Numbers that are never 1: rules text read from the rule data, and checks of that data at start-up.
NEVER_ONE = (
    "RULES.goal_points} points",
    "join(counts)} cards",
    "{count} cards but",
    "Decks: {totals} cards",
    "grid} cards)",
)


def _counts_without_plural(path: Path) -> list[str]:
    """Return the f-strings of a module that put a number straight before a counted word, by hand."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.JoinedStr):
            continue
        for value, after in zip(node.values, node.values[1:], strict=False):
            if not (isinstance(value, ast.FormattedValue) and isinstance(after, ast.Constant)):
                continue
            if isinstance(value.value, ast.Call) and getattr(value.value.func, "id", "") == "plural":
                continue
            text = ast.unparse(node)
            if any(allowed in text for allowed in NEVER_ONE) or re.match(r" (moves? a|game #)", str(after.value)):
                continue
            if re.match(rf" {COUNTED}\b", str(after.value)) or str(after.value).startswith(("(s)", "s ", "s)")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:80]}")
    return found


NOT_NUMBERS = ("counts", "decks", "block", "switch")
"""Placeholders that look counted but are not a number: lists of numbers (always plural) and power names
("the {block} card", "{switch} points at ...")."""

HAND_COUNTED = (
    rf"\{{(?!(?:{'|'.join(NOT_NUMBERS)})\}})[a-z_]+\}} "
    r"(?:open game|game|card|fish card|point|tile|penguin|page|open cell)s?\b"
)
"""A placeholder straight before a counted noun."""


def _messages_counting_by_hand(path: Path) -> list[str]:
    """Return the messages marked with `_` or `pgettext` that put a placeholder straight before a counted word."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "pgettext")):
            continue
        text = node.args[MARKERS[node.func.id][0]] if len(node.args) > MARKERS[node.func.id][0] else None
        if isinstance(text, ast.Constant) and re.search(HAND_COUNTED, str(text.value)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text.value[:80]}")
    return found


def test_translated_messages_count_with_ngettext() -> None:
    swept = sorted(p for folder in ("engine", "ai") for p in (ROOT / folder).rglob("*.py"))
    wrong = [line for path in swept for line in _messages_counting_by_hand(path)]
    assert wrong == []


def test_no_count_is_written_with_a_hand_made_plural() -> None:
    swept = [p for p in SWEPT if "flippers" not in p.parts and p.name != "flippers.py"]  # the flip team's
    swept += sorted((ROOT / "render" / "tank").glob("*.py"))
    wrong = [line for path in swept for line in _counts_without_plural(path)]
    assert wrong == []


@pytest.mark.parametrize("n", [0, 1, 2])
async def test_records_count_games_and_wins_right_for_0_1_and_2(n: int) -> None:
    from types import SimpleNamespace

    from storage.database import PlayerStats
    from ui import records

    games = max(n, 1)
    stats = [PlayerStats("fish", games, n if n <= games else games, 3.0)]

    async def player_stats(user_id: int, guild_id: int | None) -> list[PlayerStats]:
        return stats

    flow = SimpleNamespace(db=SimpleNamespace(player_stats=player_stats))
    user = SimpleNamespace(id=7, name="ana", display_name="Ana")
    text = await records.stats_text(flow, 7, user, 1)  # type: ignore[arg-type]
    assert plural(games, "game") in text and plural(stats[0].wins, "win") in text
    assert not re.search(r"\b1 (games|wins)\b|\b[02] (game|win)\b", text), text


@pytest.mark.parametrize(
    ("language", "two", "three"),
    [
        ("en", "Ana and Bo", "Ana, Bo and Cy"),
        ("de", "Ana und Bo", "Ana, Bo und Cy"),
        ("es", "Ana y Bo", "Ana, Bo y Cy"),
        ("pt_BR", "Ana e Bo", "Ana, Bo e Cy"),
        ("ja", "AnaとBo", "Ana、BoとCy"),
    ],
)
def test_names_are_listed_with_the_languages_own_joiners(language: str, two: str, three: str) -> None:
    from engine.words import join_names
    from i18n import using

    with using(language):
        assert (join_names(["Ana"]), join_names(["Ana", "Bo"]), join_names(["Ana", "Bo", "Cy"])) == ("Ana", two, three)


def test_a_japanese_sentence_ends_with_a_japanese_full_stop() -> None:
    from i18n import using

    with using("ja"):
        assert sentence("ゲーム終了。") == "ゲーム終了。"
        assert sentence("勝者はAna") == "勝者はAna。"
    assert sentence("Winner: Ana") == "Winner: Ana."


def test_a_name_remembered_per_language_is_never_served_in_another_language() -> None:
    from engine.words import per_language
    from i18n import _, using

    calls: list[str] = []

    @per_language
    def shown(word: str) -> str:
        calls.append(word)
        return _("{first} and {last}", first=word, last=word)

    with using("de"):
        assert (shown("A"), shown("A")) == ("A und A", "A und A")
    assert shown("A") == "A and A"
    with using("es"):
        assert shown("A") == "A y A"
    assert calls == ["A", "A", "A"]  # once per language


def test_a_name_remembered_under_a_catalog_put_in_a_languages_place_is_gone_with_that_catalog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gettext

    import i18n
    from engine.words import per_language

    class Shouting(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return message.replace(" and ", " AND ")

    @per_language
    def shown(word: str) -> str:
        return i18n._("{first} and {last}", first=word, last=word)

    loud = Shouting()
    with monkeypatch.context() as patched:  # as tests/render/test_label_fit.py puts the longest words in place
        patched.setattr(i18n, "translations", lambda language: loud)
        assert shown("a") == "a AND a"
    assert shown("a") == "a and a", "the borrowed catalog's words stayed behind under the language code"
