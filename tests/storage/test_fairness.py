"""Reproduce the ways a rated ladder was escaped or farmed, and check that each now counts as it should."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.registry import get
from storage import fairness, ratings
from storage.database import Database, Result, Seat
from storage.seasons import season_board, season_of
from storage.server_rules import hinted_just_now, record_hint, set_rated
from tests.clock import Clock

START = 25.0 - 3 * 25.0 / 3


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url, clock=Clock())
    await database.open()
    yield database
    await database.close()


async def played(
    db: Database, players: list[tuple[int, str | None]], ranks: list[int], steps: list[tuple[int, str]], *,
    kind: str = "fish", options: dict[str, object] | None = None, hinted: tuple[int, ...] = (), minutes: float = 5,
) -> int:
    """Save a rated game whose log holds `steps` (seat, action type), over `minutes` after its first, with `ranks`."""
    channel = 5000 + len(await db.games_with_status("lobby", "active", "finished"))
    row = await db.create_game(guild_id=1, channel_id=channel, kind=kind, host=Seat(0, players[0][0], "P0"),
                               options=options or {}, seed=1)
    for n, (user, level) in enumerate(players[1:], start=1):
        await db.seat_player(row.id, user, f"P{n}", 6, bot_level=level)
    await set_rated(db, row.id, True)
    game = get(kind)
    state = game.new_game(len(players), options or {}, 1)
    version = await db.start_game(row.id, game.dump(state), row.version)
    for seat in hinted:
        await record_hint(db, row.id, seat, version, players[seat][0], unrates=True)
    for seat, kind_ in steps[:-1]:
        version = await db.record_action(row.id, version, game.dump(state), seat=seat, user_id=players[seat][0],
                                         action={"type": kind_}, events=[], finished=False)
    results = [Result(seat, user, user < 0, 10 * (len(players) - ranks[seat]), ranks[seat], ranks[seat] == 1)
               for seat, (user, _) in enumerate(players)]
    seat, kind_ = steps[-1]
    db.clock.advance(minutes / 60)  # type: ignore[attr-defined]  # the game lasts `minutes` from its first move
    await db.record_action(row.id, version, game.dump(state), seat=seat, user_id=players[seat][0],
                           action={"type": kind_}, events=[], finished=True, results=results)
    return row.id


async def rating(db: Database, player: str, kind: str = "fish") -> ratings.Rating | None:
    """Return one player's stored rating after rating every finished game."""
    await ratings.catch_up(db, 1, kind)
    return {r.player: r for r in await ratings.leaderboard(db, 1, kind, 100)}.get(player)


async def test_a_hint_changes_only_the_hinters_game(db: Database) -> None:
    # Before: a hint in a two-player rated game unrated both players.
    await played(db, [(1, None), (2, None)], [2, 1], [(0, "move"), (1, "move"), (0, "move")], hinted=(0,))
    loser, winner = await rating(db, "user:1"), await rating(db, "user:2")
    assert winner is not None and winner.mu > 25.0 and winner.games == 1  # the opponent is rated as they played
    assert loser is not None and loser.mu < 25.0  # the hinter's loss still counts
    await played(db, [(1, None), (2, None)], [1, 2], [(0, "move"), (1, "move"), (0, "move")], hinted=(0,))
    again = await rating(db, "user:1")
    assert again is not None and (again.mu, again.sigma) == (loser.mu, loser.sigma)  # a hinted win gains nothing
    assert again.games == 2 and again.wins == 1


async def test_resigning_at_once_aborts_and_farming_a_friend_stops_paying(db: Database) -> None:
    # Before: a friend resigning at once, 30 times in a row, took the winner from 0.0 to 23.7 (first place).
    for _ in range(30):
        await played(db, [(1, None), (2, None)], [1, 2], [(1, "resign")], minutes=0.1)
    assert await rating(db, "user:1") is None  # each was aborted: nobody is rated
    # Two moves each before resigning is past the window, but the same pair counts less and less within a day.
    for _ in range(30):
        await played(db, [(1, None), (2, None)], [1, 2], [(0, "m"), (1, "m"), (0, "m"), (1, "m"), (1, "resign")],
                     minutes=0.1)
    farmer = await rating(db, "user:1")
    assert farmer is not None and farmer.games == 30 and farmer.conservative < 10.5  # 23.7 before
    db.clock.advance(25)  # type: ignore[attr-defined]
    await played(db, [(1, None), (2, None)], [1, 2], [(0, "m"), (1, "m"), (0, "m"), (1, "m"), (1, "resign")])
    later = await rating(db, "user:1")
    assert later is not None and later.mu - farmer.mu > 0.3  # a day later they count in full again


async def test_winning_again_and_again_against_a_much_weaker_computer_stops_raising_a_rating(db: Database) -> None:
    # Before: 15 straight wins over the easy computer player reached 19.3 and still rose.
    seen = []
    for _ in range(15):
        await played(db, [(1, None), (-1, "easy")], [1, 2], [(0, "m"), (1, "m"), (0, "m"), (1, "m"), (0, "end")])
        mine = await rating(db, "user:1")
        assert mine is not None
        seen.append(mine.conservative)
    assert seen == sorted(seen) and seen[-1] == seen[-5]  # the last wins raise nothing
    assert seen[-1] < 19.3
    lost = await played(db, [(1, None), (-1, "easy")], [2, 1], [(0, "m"), (1, "m"), (0, "m"), (1, "m"), (0, "end")])
    assert lost and (await rating(db, "user:1")).conservative < seen[-1]  # type: ignore[union-attr]


async def test_team_up_a_seat_that_resigned_does_not_share_the_partners_win(db: Database) -> None:
    # Before: a seat resigned at move 0 went from mu 25.00 to 26.96 with its partner's win.
    players = [(n, None) for n in range(1, 5)]
    game = get("flippers")
    state = game.new_game(4, {"teams": True}, 3)
    game.resign(state, 2)  # seat 2 (side 0) leaves; side 0 still wins when side 1 resigns
    game.resign(state, 1)
    game.resign(state, 3)
    ranks = {s.seat: s.rank for s in game.outcome(state).standings}
    assert ranks[0] == 1 and ranks[1] == ranks[2] == ranks[3] == 2  # the side still won
    steps = [(0, "play"), (1, "play"), (2, "play"), (3, "play")] * 2 + [(2, "resign"), (1, "resign"), (3, "resign")]
    await played(db, players, [ranks[s] for s in range(4)], steps, kind="flippers", options={"teams": True})
    quitter, partner = await rating(db, "user:3", "flippers"), await rating(db, "user:1", "flippers")
    assert quitter is not None and quitter.mu < 25.0 and quitter.wins == 0
    assert partner is not None and partner.mu > 25.0
    # A seat that left at move 0 is left out altogether.
    await played(db, [(n, None) for n in range(11, 15)], [1, 2, 1, 2], [(2, "resign"), (1, "resign")],
                 kind="flippers", options={"teams": True})
    assert await rating(db, "user:13", "flippers") is None


def test_the_abort_window_and_weights() -> None:
    log = fairness.conduct([(0, "move"), (1, "move"), (0, "takeback"), (0, "move"), (1, "resign"), (1, "move")])
    assert log.moves == {0: 2, 1: 1} and log.resigned == {1} and log.aborted() == {1}
    assert fairness.may_cancel(log, [0, 1]) and not fairness.may_cancel(log, [0])
    assert [fairness.repeat_weight(n) for n in range(5)] == [1.0, 1.0, 1.0, 0.5, 0.25]
    assert fairness.pairing([3, 3]) is None and fairness.pairing([3, 1]) == "1,3"
    assert fairness.without_gain((25.0, 8.0), (26.0, 7.9)) == (25.0, 8.0)
    assert fairness.without_gain((25.0, 8.0), (24.0, 7.9)) == (24.0, 7.9)


async def test_the_board_says_hints_were_used_for_one_round_not_under_every_later_turn(db: Database) -> None:
    # Before: the line stood under every board after the first hint (54 times in one fish game).
    game_id = await played(db, [(1, None), (2, None)], [1, 2], [(0, "m"), (1, "m"), (0, "m")])
    await record_hint(db, game_id, 0, 4, 1, unrates=True)
    assert [await hinted_just_now(db, game_id, v, 2) for v in (4, 5, 7, 8, 20)] == [True, True, True, False, False]


async def test_a_rating_grows_less_certain_with_time_away(db: Database) -> None:
    # Before: a rating left alone for months was as certain as the day it was last played.
    await played(db, [(1, None), (2, None)], [1, 2], [(0, "move"), (0, "end")])
    await played(db, [(1, None), (2, None)], [1, 2], [(0, "move"), (0, "end")])
    await played(db, [(3, None), (4, None)], [1, 2], [(0, "move"), (0, "end")])
    db.clock.advance(24 * 200)  # type: ignore[attr-defined]
    await played(db, [(3, None), (4, None)], [1, 2], [(0, "move"), (0, "end")])
    steady, back = await rating(db, "user:1"), await rating(db, "user:3")
    assert steady is not None and back is not None and back.mu == pytest.approx(steady.mu, abs=2.0)
    assert back.sigma > steady.sigma + 0.1
    assert fairness.aged(2.0, 10) == 2.0 and 2.0 < fairness.aged(2.0, 365) < fairness.aged(2.0, 3650) == 25 / 3


async def test_a_game_between_people_decided_within_seconds_counts_in_proportion_to_its_time(db: Database) -> None:
    # Before: a friend who resigned just after the abort window, six seconds in, counted as a real game in full.
    steps = [(0, "move"), (1, "move"), (0, "move"), (1, "move"), (1, "resign")]
    await played(db, [(1, None), (2, None)], [1, 2], steps, minutes=0.1)
    await played(db, [(3, None), (4, None)], [1, 2], steps, minutes=5)
    fast, real = await rating(db, "user:1"), await rating(db, "user:3")
    assert fast is not None and real is not None and real.mu > 26.0 and fast.games == 1
    assert fast.mu - 25.0 == pytest.approx(0.1 * (real.mu - 25.0))
    # A computer player cannot lose on purpose: a fast win against one counts in full.
    await played(db, [(5, None), (-1, "hard")], [1, 2], steps, minutes=0.1)
    quick = await rating(db, "user:5")
    assert quick is not None and quick.mu == pytest.approx(real.mu)
    board = {r.player: r.mu for r in await season_board(db, 1, "fish", *season_of(db.clock(), 1))}
    assert board["user:1"] == pytest.approx(fast.mu)  # a season counts it the same way
    assert fairness.pace(6.0, 2) == pytest.approx(0.1) and fairness.pace(-1.0, 2) == 0.0
    assert fairness.pace(fairness.FAST_SECONDS, 3) == 1.0 and fairness.pace(1.0, 1) == 1.0
