"""Check that a finished game's replay is drawn once in the pool, kept, and served again without drawing."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.legacy import FROZEN, rules_for
from engine.registry import get
from i18n import using
from render.replay import Frame
from storage.database import FINISHED, GameRow, Seat
from ui import replays
from ui.replays import ReplayCache, cache_for, replay_gif, replay_key
from ui.workers import _adapter, replay_frames


def finished_game(kind: str, players: int, seed: int) -> tuple[GameRow, list[dict[str, Any]]]:
    """Play a random full game and return it as a saved finished game with its log."""
    game, rng = get(kind), random.Random(seed)
    state = game.new_game(players, {}, seed)
    log = []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        log.append({"seat": seat, "action": action, "events": []})
    seats = [Seat(i, 100 + i, name) for i, name in enumerate(["Ana", "山田太郎", "🐧 Pingu", "Ёлка"][:players])]
    return GameRow(7, 1, 2, kind, FINISHED, 100, {}, seed, None, len(log), None, "", "", seats), log


def gif_files(folder: Path) -> list[str]:
    """Return the names of the GIFs in a folder."""
    return sorted(p.name for p in folder.glob("*.gif"))


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    executor = ThreadPoolExecutor(2)
    yield executor
    executor.shutdown()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the boards the replay jobs draw."""
    boards: list[int] = []

    def counting(*args: Any) -> tuple[list[Frame], list[int]]:
        frames, palette = replay_frames(*args)
        boards.extend([1] * len(frames))
        return frames, palette

    monkeypatch.setattr(replays, "replay_frames", counting)
    return boards


@pytest.mark.parametrize("kind", ["fish", "tank", "flippers"])
async def test_a_replay_shows_every_board_and_the_second_request_draws_nothing(
    kind: str, pool: ThreadPoolExecutor, drawn: list[int], tmp_path: Path
) -> None:
    row, log = finished_game(kind, 3, 5)
    gif = await replay_gif(pool, ReplayCache(tmp_path), row, log)
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.n_frames == len(log) + 1
    assert len(drawn) == len(log) + 1

    assert await replay_gif(pool, ReplayCache(tmp_path), row, log) == gif  # a new cache object: as after a restart
    assert len(drawn) == len(log) + 1
    assert gif_files(tmp_path) == [f"{replay_key(row, log)}.gif"]


async def test_two_requests_at_once_draw_the_replay_once(
    pool: ThreadPoolExecutor, drawn: list[int], tmp_path: Path
) -> None:
    row, log = finished_game("fish", 2, 3)
    first, second = await asyncio.gather(*(replay_gif(pool, ReplayCache(tmp_path), row, log) for _ in range(2)))
    assert first == second
    assert len(drawn) == len(log) + 1


async def test_a_long_game_that_would_be_too_large_gets_fewer_frames_and_still_ends_on_the_final_board(
    pool: ThreadPoolExecutor, tmp_path: Path
) -> None:
    row, log = finished_game("flippers", 4, 11)
    full = await replay_gif(pool, ReplayCache(None), row, log)
    limit = len(full) // 3
    small = await replay_gif(pool, ReplayCache(tmp_path), row, log, max_bytes=limit)
    assert len(small) <= limit
    big, fitted = Image.open(io.BytesIO(full)), Image.open(io.BytesIO(small))
    assert fitted.n_frames < big.n_frames
    big.seek(big.n_frames - 1)
    fitted.seek(fitted.n_frames - 1)
    assert fitted.info["duration"] == big.info["duration"] == 4000
    final = big.convert("RGB").resize((fitted.width, round(big.height * fitted.width / big.width)))
    board = (0, 0, fitted.width, min(fitted.height, final.height))  # the canvas fits the largest frame kept
    difference = ImageChops.difference(fitted.convert("RGB").crop(board), final.crop(board)).convert("L")
    assert ImageStat.Stat(difference).mean[0] < 8


def test_the_cache_key_changes_with_the_game_and_the_drawing_code(monkeypatch: pytest.MonkeyPatch) -> None:
    row, log = finished_game("fish", 2, 3)
    other, _ = finished_game("fish", 2, 4)
    assert replay_key(row, log) != replay_key(other, log)
    assert replay_key(row, log) != replay_key(row, log[:-1])
    before = replay_key(row, log)
    monkeypatch.setattr(replays, "render_version", lambda kind: "changed")
    assert replay_key(row, log) != before


def test_the_cache_keeps_the_most_recently_used_replays(tmp_path: Path) -> None:
    cache = ReplayCache(tmp_path, max_files=2)
    cache.put("a", b"A")
    cache.put("b", b"B")
    assert cache.get("a") == b"A"  # now the most recently used
    cache.put("c", b"C")
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (b"A", None, b"C")
    memory = ReplayCache(None, max_files=1)
    memory.put("a", b"A")
    memory.put("b", b"B")
    assert (memory.get("a"), memory.get("b")) == (None, b"B")


def test_replays_are_kept_beside_the_database(tmp_path: Path) -> None:
    assert cache_for(str(tmp_path / "games.db")).directory == tmp_path / "replays"
    assert cache_for(f"sqlite:///{tmp_path / 'floe.db'}").directory == tmp_path / "replays"
    assert cache_for(":memory:").directory is None


def test_a_database_server_keeps_replays_in_the_data_folder() -> None:
    directory = cache_for("postgresql://floe:secret@db:5432/floe").directory
    assert directory is not None and directory.parts[-2:] == ("data", "replays")


async def test_a_flippers_game_saved_before_the_leader_rules_replays_to_its_own_final_board(
    pool: ThreadPoolExecutor, tmp_path: Path
) -> None:
    from storage.database import Database
    from tests.ui.old_games import save_schema1_game

    db = Database(str(tmp_path / "old.db"))
    await db.open()
    try:
        row = await db.game(await save_schema1_game(db, 47))
        log = await db.actions(row.id if row else 0)
    finally:
        await db.close()
    assert row is not None and row.rules is None and all(entry["rules"] is None for entry in log)
    gif = await replay_gif(pool, ReplayCache(tmp_path), row, log)
    assert Image.open(io.BytesIO(gif)).n_frames == len(log) + 1


@pytest.mark.parametrize(("kind", "version"), sorted(FROZEN))
def test_todays_boards_draw_every_kept_rules_versions_opening_and_final_views(kind: str, version: int) -> None:
    rules, rng = rules_for(kind, version), random.Random(version)
    state = rules.new_game(4, {}, version)
    opening = _adapter(kind).board_picture(rules.view(state, None), ["Ana", "Bo", "Cy", "Di"])
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    final = _adapter(kind).board_picture(rules.view(state, None), ["Ana", "Bo", "Cy", "Di"])
    assert rules.view(state, None)["final"] is True
    for picture in (opening, final):
        assert Image.open(io.BytesIO(picture.png)).width >= 400 and picture.alt


def test_a_replay_is_redrawn_when_any_file_that_draws_its_boards_changes() -> None:
    root = Path(replays.__file__).resolve().parent.parent
    files = set(replays.render_files("fish"))
    drawing = {*(root / "render").rglob("*.py"), *(root / "engine" / "fish").glob("*.py"), root / "cogs" / "fish.py"}
    assert drawing <= files, sorted(drawing - files)
    assert root / "render" / "fish" / "board.py" in files and root / "engine" / "tank" / "game.py" not in files


def test_each_language_has_its_own_replay() -> None:
    row, log = finished_game("fish", 2, 3)
    english = replay_key(row, log)
    with using("de"):
        german = replay_key(row, log)
    with using("ja"):
        japanese = replay_key(row, log)
    assert len({english, german, japanese}) == 3


async def test_a_replay_asked_for_in_german_draws_german_boards(pool: ThreadPoolExecutor, tmp_path: Path) -> None:
    row, log = finished_game("fish", 2, 3)
    words: list[str] = []
    original = replays.replay_frames

    def spy(*args: Any) -> tuple[list[Frame], list[int]]:
        words.append(args[-1])
        return original(*args)

    replays.replay_frames = spy
    try:
        with using("de"):
            gif = await replay_gif(pool, ReplayCache(tmp_path), row, log)
    finally:
        replays.replay_frames = original
    assert words and set(words) == {"de"}
    english = await replay_gif(pool, ReplayCache(tmp_path), row, log)
    assert gif != english  # the final board's title reads "Spiel vorbei" in one, "Game over" in the other
