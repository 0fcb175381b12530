"""Check ratings derived from stored results, takeback requests and server rules, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from engine.registry import get
from storage import ratings
from storage import takebacks as requests
from storage.database import Database, Result, Seat
from storage.server_rules import ServerRules, record_hint, save_server_rules, server_rules, set_rated
from tests.clock import Clock
from tests.ratings_reference import reference_rate
from tests.storage.migrating import before_migration

MODEL = PlackettLuce()


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url, clock=Clock())
    await database.open()
    yield database
    await database.close()


def advance(db: Database, minutes: float) -> None:
    """Move the database's clock on."""
    db.clock.advance(minutes / 60)  # type: ignore[attr-defined]


async def finished(
    db: Database, players: list[tuple[int, str | None]], ranks: list[int], *, kind: str = "fish", guild: int = 1,
    rated: bool = True, hinted: tuple[int, ...] = (),
) -> int:
    """Save a game of `kind` that finished with these ranks; players are (user id, computer level or None)."""
    channel = 1000 + len(await db.games_with_status("lobby", "active", "finished"))
    user, level = players[0]
    row = await db.create_game(guild_id=guild, channel_id=channel, kind=kind, host=Seat(0, user, "P0"), options={},
                               seed=1)
    for n, (user, level) in enumerate(players[1:], start=1):
        await db.seat_player(row.id, user, f"P{n}", 6, bot_level=level)
    await set_rated(db, row.id, rated)
    game = get(kind)
    state = game.new_game(len(players), {}, 1)
    version = await db.start_game(row.id, game.dump(state), row.version)
    for seat in hinted:
        await record_hint(db, row.id, seat, version, players[seat][0], unrates=True)
    for seat in range(1, len(players)):
        if not game.is_over(state):
            game.resign(state, seat)
    results = [
        Result(seat, user, user < 0, 10 * (len(players) - ranks[seat]), ranks[seat], ranks[seat] == 1)
        for seat, (user, _) in enumerate(players)
    ]
    version = await db.record_action(row.id, version, game.dump(state), seat=0, user_id=players[0][0],
                                     action={"type": "move"}, events=[], finished=False)
    advance(db, 5)  # five minutes of play: not too fast to be real (storage/fairness.py)
    await db.record_action(row.id, version, game.dump(state), seat=0, user_id=players[0][0], action={"type": "end"},
                           events=[], finished=True, results=results)
    return row.id


def rate(current: dict[str, object], teams: list[list[str]], ranks: list[int]) -> None:
    """Apply one finish to `current` (name -> openskill rating) with the library called directly (ties averaged)."""
    skills = [[(p, (current[p].mu, current[p].sigma) if p in current else None) for p in team] for team in teams]  # type: ignore[attr-defined]
    for name, (mu, sigma) in reference_rate(skills, ranks).items():
        current[name] = MODEL.rating(mu, sigma, name=name)


async def stored(db: Database, guild: int = 1, kind: str = "fish") -> dict[str, tuple[float, float, int, int]]:
    """Return player -> (mu, sigma, games, wins)."""
    return {r.player: (r.mu, r.sigma, r.games, r.wins) for r in await ratings.leaderboard(db, guild, kind, 100)}


async def test_ratings_follow_finishes_in_order_and_rebuild_to_the_same_figures(db: Database) -> None:
    await finished(db, [(1, None), (2, None), (3, None)], [2, 1, 3])
    await finished(db, [(2, None), (3, None)], [1, 1])  # a shared place
    await finished(db, [(1, None), (3, None), (4, None)], [1, 3, 2])
    assert await ratings.catch_up(db, 1, "fish") == 3
    expected: dict[str, object] = {}
    rate(expected, [["user:1"], ["user:2"], ["user:3"]], [2, 1, 3])
    rate(expected, [["user:2"], ["user:3"]], [1, 1])
    rate(expected, [["user:1"], ["user:3"], ["user:4"]], [1, 3, 2])
    first = await stored(db)
    assert set(first) == set(expected)
    for player, model in expected.items():
        assert first[player][:2] == pytest.approx((model.mu, model.sigma), abs=1e-9)  # type: ignore[attr-defined]
    assert first["user:3"][2:] == (3, 1) and first["user:1"][2:] == (2, 1)
    history = await ratings.history(db, 1, "fish", "user:3")
    assert len(history) == 3 and history[-1] == pytest.approx(first["user:3"][0] - 3 * first["user:3"][1])

    assert await ratings.rebuild(db) == 3
    assert await stored(db) == first
    assert await ratings.catch_up(db, 1, "fish") == 0


async def test_a_game_rated_late_rebuilds_in_finishing_order(db: Database) -> None:
    early = await finished(db, [(1, None), (2, None)], [1, 2])
    await db.backend.execute("DELETE FROM results WHERE game_id = ?", (early,))  # as if its results came later
    await finished(db, [(1, None), (2, None)], [2, 1])
    await ratings.catch_up(db, 1, "fish")
    before = (db.clock() - timedelta(minutes=4)).isoformat()  # before the other game ended, after this one began
    await db.backend.execute(
        "INSERT INTO results (game_id, seat, guild_id, kind, user_id, is_bot, score, rank, winner, finished_at)"
        " VALUES (?, 0, 1, 'fish', 1, 0, 10, 1, 1, ?), (?, 1, 1, 'fish', 2, 0, 0, 2, 0, ?)",
        (early, before, early, before),
    )
    await ratings.catch_up(db, 1, "fish")
    expected: dict[str, object] = {}
    rate(expected, [["user:1"], ["user:2"]], [1, 2])
    rate(expected, [["user:1"], ["user:2"]], [2, 1])
    now = await stored(db)
    assert now["user:1"][:2] == pytest.approx((expected["user:1"].mu, expected["user:1"].sigma))  # type: ignore[attr-defined]


async def test_casual_games_hints_and_computer_players(db: Database) -> None:
    await finished(db, [(1, None), (2, None)], [1, 2], rated=False)
    assert await stored(db) == {} and await ratings.catch_up(db, 1, "fish") == 1
    assert await stored(db) == {}
    await finished(db, [(1, None), (2, None), (3, None)], [1, 2, 3], hinted=(0,))
    await finished(db, [(5, None), (-1, "hard"), (-2, "hard"), (-3, "easy")], [3, 1, 2, 4])
    await ratings.catch_up(db, 1, "fish")
    now = await stored(db)
    assert now["user:1"] == (MODEL.mu, MODEL.sigma, 1, 1)  # the hinter won, and gains nothing from it
    expected: dict[str, object] = {}
    rate(expected, [["user:1"], ["user:2"], ["user:3"]], [1, 2, 3])  # the others are rated as they played
    assert now["user:2"][:2] == pytest.approx((expected["user:2"].mu, expected["user:2"].sigma))  # type: ignore[attr-defined]
    alone = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[3.0, 1.0, 2.0, 4.0])
    assert now["bot:hard"][0] == pytest.approx((alone[1][0].mu + alone[2][0].mu) / 2)
    assert now["bot:hard"][2:] == (1, 1) and now["bot:easy"][0] == pytest.approx(alone[3][0].mu)
    board = await ratings.leaderboard(db, 1, "fish")
    assert [r.conservative for r in board] == sorted((r.conservative for r in board), reverse=True)
    assert all(r.provisional for r in board)


async def test_team_up_sides_are_rated_as_teams(db: Database) -> None:
    players = [(n, None) for n in range(1, 5)]
    row = await db.create_game(guild_id=1, channel_id=77, kind="flippers", host=Seat(0, 1, "P0"),
                               options={"teams": True}, seed=3)
    for user, _ in players[1:]:
        await db.seat_player(row.id, user, f"P{user}", 6)
    game = get("flippers")
    state = game.new_game(4, {"teams": True}, 3)
    version = await db.start_game(row.id, game.dump(state), row.version)
    game.resign(state, 1)
    game.resign(state, 3)  # side 1 (seats 1 and 3) has left: side 0 wins
    assert game.is_over(state)
    results = [Result(s.seat, s.seat + 1, False, s.score, s.rank, s.winner) for s in game.outcome(state).standings]
    version = await db.record_action(row.id, version, game.dump(state), seat=0, user_id=1, action={"type": "play"},
                                     events=[], finished=False)
    advance(db, 5)  # not too fast to be real
    await db.record_action(row.id, version, game.dump(state), seat=3, user_id=4, action={"type": "resign"},
                           events=[], finished=True, results=results)
    await ratings.catch_up(db, 1, "flippers")
    expected: dict[str, object] = {}
    # seat 3 resigned before a move of its own: inside the abort window it is left out (storage/fairness.py)
    rate(expected, [["user:1", "user:3"], ["user:2"]], [1, 2])
    now = await stored(db, kind="flippers")
    assert "user:4" not in now
    for player, model in expected.items():
        assert now[player][:2] == pytest.approx((model.mu, model.sigma))  # type: ignore[attr-defined]


async def test_server_rules_and_takeback_requests_survive(db: Database) -> None:
    assert await server_rules(db, 9) == ServerRules()
    await save_server_rules(db, 9, ServerRules(ratings=False, rated_hints=True))
    assert await server_rules(db, 9) == ServerRules(ratings=False, rated_hints=True)

    game_id = await finished(db, [(1, None), (2, None), (3, None)], [1, 2, 3])
    expires = db.clock() + timedelta(minutes=10)
    made = await requests.create(db, game_id=game_id, version=4, seat=0, user_id=1, undo=[3], waiting=[2, 3],
                                 channel_id=5, expires_at=expires)
    await requests.set_message(db, made.id, 99)
    half = await requests.accept(db, made.id, 2)
    assert half is not None and half.missing == [3] and half.message_id == 99
    assert await requests.accept(db, made.id, 7) is not None  # someone not asked changes nothing
    again = await requests.get(db, made.id)
    assert again is not None and again.accepted == [2] and not again.expired(db.clock())
    assert again.expired(datetime(2100, 1, 1, tzinfo=UTC))
    assert await requests.close(db, made.id, requests.DECLINED, 3)
    assert not await requests.close(db, made.id, requests.ACCEPTED, 2)
    assert await requests.accept(db, made.id, 3) is None
    assert [r.status for r in await requests.of_game(db, game_id)] == [requests.DECLINED]
    assert await requests.pending_for(db, game_id) == []


async def test_the_migration_recomputes_stored_ratings_with_fair_ties(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with before_migration(monkeypatch, "ratings_recomputed"):
        db = Database(database_url, clock=Clock())
        await db.open()
        players = [(n, None) for n in range(1, 7)]
        game_id = await finished(db, players, [1, 1, 3, 4, 5, 6], kind="flippers")
        # as openskill 6.2.0 left them: the tied winners below the third place (written as the code of then did)
        await db.backend.execute(
            "INSERT INTO rated_games (game_id, guild_id, kind, seq, finished_at) VALUES (?, 1, 'flippers', 1, ?)",
            (game_id, db.clock().isoformat()),
        )
        for n, mu in enumerate([26.014, 26.014, 26.775, 25.0, 24.0, 23.0], start=1):
            await db.backend.execute(
                "INSERT INTO ratings (guild_id, kind, player, user_id, bot_level, mu, sigma, games, wins, best_score)"
                " VALUES (1, 'flippers', ?, ?, NULL, ?, 8.0, 1, ?, 0)",
                (f"user:{n}", n, mu, int(n <= 2)),
            )
        await db.close()
    db = Database(database_url, clock=Clock())
    await db.open()
    try:
        assert await ratings.recomputed_since(db) is not None and await stored(db, kind="flippers") == {}
        assert await ratings.catch_up(db, 1, "flippers") == 1  # rebuilt when next read
        now = await stored(db, kind="flippers")
        expected: dict[str, object] = {}
        rate(expected, [[f"user:{n}"] for n in range(1, 7)], [1, 1, 3, 4, 5, 6])
        for player, model in expected.items():
            assert now[player][:2] == pytest.approx((model.mu, model.sigma), abs=1e-9)  # type: ignore[attr-defined]
        assert now["user:1"][0] == now["user:2"][0] > now["user:3"][0]
    finally:
        await db.close()


async def test_a_new_database_has_nothing_recomputed(db: Database) -> None:
    assert await ratings.recomputed_since(db) is None
    await finished(db, [(1, None), (2, None)], [1, 2])
    assert await ratings.rebuild(db) == 1
    assert await ratings.recomputed_since(db) == db.clock().replace(microsecond=0)
