"""Answer /game stats and /game leaderboard with skill ratings, and add rating and hint lines to boards."""

from __future__ import annotations

import asyncio
import io
from datetime import timedelta

import discord

from engine.registry import get
from engine.words import join_list
from i18n import _, ngettext
from i18n.numbers import number
from render.rating_chart import chart_alt, rating_chart
from storage import ratings as store
from storage.database import Database, GameRow
from storage.server_rules import hinted_just_now, hinted_seats, is_rated
from ui.names import level_name
from ui.text import lines_within

RECOMPUTED_NOTICE = timedelta(days=30)
"""How long the leaderboard says that the ratings were recomputed."""


def player_name(rating: store.Rating) -> str:
    """Return how a leaderboard shows a player: a mention, or the computer player of its level."""
    if rating.bot_level is not None:
        return _("Computer player ({level})", level=level_name(rating.bot_level))
    return f"<@{rating.user_id}>"


def rating_text(rating: store.Rating) -> str:
    """Return a rating as players read it: the conservative estimate, mu and sigma, and provisional or not."""
    values = {
        "rating": number(rating.conservative, ".1f"),
        "mu": number(rating.mu, ".1f"),
        "sigma": number(rating.sigma, ".1f"),
    }
    if rating.provisional:
        return _("{rating} (μ {mu}, σ {sigma}), provisional", **values)
    return _("{rating} (μ {mu}, σ {sigma})", **values)


def games_and_wins(games: int, wins: int) -> dict[str, str]:
    """Return the counted words of a record ("3 games", "1 win"), to fill a line's {games} and {wins}."""
    return {"games": ngettext("{n} game", "{n} games", games), "wins": ngettext("{n} win", "{n} wins", wins)}


ACTIVE_DAYS = 90
"""The leaderboard lists the players with a rated game in this many days."""
SHOWN = 15
"""How many of the best players the leaderboard lists before the lines around the reader."""
AROUND = 2
"""How many players the leaderboard shows above and below the reader when they are not among the best."""


async def leaderboard_text(db: Database, guild_id: int, kind: str, user_id: int | None = None) -> str:
    """Rank a server's recently active players of one game by their conservative rating (mu - 3 sigma).

    The best SHOWN are listed; a reader placed below them also sees the players around them.
    """
    await store.catch_up(db, guild_id, kind)
    since = (db.clock() - timedelta(days=ACTIVE_DAYS)).isoformat()
    rows = await store.active_board(db, guild_id, kind, since)
    title = get(kind).title
    if not rows:
        if await store.players_rated(db, guild_id, kind):
            return ngettext(
                "Nobody has played a rated game of {title} in this server in the last {n} day.",
                "Nobody has played a rated game of {title} in this server in the last {n} days.",
                ACTIVE_DAYS,
                title=title,
            )
        return _("Nobody has finished a rated game of {title} in this server yet.", title=title)
    lines = [
        ngettext(
            "**{title} leaderboard** (rating = μ − 3σ; * provisional: fewer than {n} rated game)",
            "**{title} leaderboard** (rating = μ − 3σ; * provisional: fewer than {n} rated games)",
            store.PROVISIONAL,
            title=title,
        ),
        ngettext(
            "Players with a rated game in the last {n} day.",
            "Players with a rated game in the last {n} days.",
            ACTIVE_DAYS,
        ),
    ]
    recomputed = await store.recomputed_since(db)
    if recomputed is not None and db.clock() - recomputed < RECOMPUTED_NOTICE:
        when = f"<t:{int(recomputed.timestamp())}:D>"
        if await store.recomputed_why(db) == "fair_play":
            # TRANSLATORS: {when} is a date Discord shows in the reader's own language and time zone.
            note = _(
                "Ratings were recomputed from every finished game on {when} with the fair-play rules: a player who"
                " resigns within their first two moves is not rated, the same players count less after three games"
                " in a day, and a hint or a win over a much weaker computer player gains nothing.",
                when=when,
            )
        else:
            # TRANSLATORS: {when} is a date Discord shows in the reader's own language and time zone.
            note = _(
                "Ratings were recomputed from every finished game on {when}: players who share a place now gain"
                " alike, and never less than a player placed below them.",
                when=when,
            )
        lines.append(note)
    lines += board_lines(rows, user_id)
    return lines_within(lines)


def board_lines(rows: list[store.Rating], user_id: int | None) -> list[str]:
    """Return a leaderboard's player lines: the best SHOWN, then the places around the reader when below them."""
    lines: list[str] = []
    mine = next((i for i, r in enumerate(rows) if user_id is not None and r.user_id == user_id), None)
    shown = list(range(min(SHOWN, len(rows))))
    if mine is not None and mine >= SHOWN:
        shown += [-1, *range(max(SHOWN, mine - AROUND), min(len(rows), mine + AROUND + 1))]
    for index in shown:
        if index < 0:
            lines.append("…")
            continue
        place, r = index + 1, rows[index]
        values = {
            "place": place,
            "player": player_name(r),
            "mark": "*" if r.provisional else "",
            "rating": number(r.conservative, ".1f"),
            **games_and_wins(r.games, r.wins),
        }
        if r.best_score is not None:
            # TRANSLATORS: {mark} is "*" for a provisional rating, else empty; {games} "3 games", {wins} "1 win".
            line = _(
                "{place}. {player}{mark}: {rating} · {games}, {wins}, best score {best}", best=r.best_score, **values
            )
        else:
            line = _("{place}. {player}{mark}: {rating} · {games}, {wins}", **values)
        lines.append(line)
    return lines


async def stats_reply(db: Database, user: discord.abc.User, guild_id: int | None) -> tuple[str, discord.File | None]:
    """Describe a player's rating, place, games, wins and best score per game, with a picture of their ratings."""
    name = getattr(user, "display_name", None) or user.name
    records = {s.kind: s for s in await db.player_stats(user.id, guild_id)}
    rated: list[tuple[str, store.Rating, int]] = []
    if guild_id is not None:
        for kind in records:
            await store.catch_up(db, guild_id, kind)
        rated = await store.ratings_of(db, guild_id, user.id)
    if not records and not rated:
        return _("{name} has not finished a game here yet.", name=name), None
    lines = [f"**{name}**"]
    by_kind = {kind: (r, place) for kind, r, place in rated}
    for kind in sorted(set(records) | set(by_kind)):
        values: dict[str, object] = {"title": get(kind).title}
        if kind in records:
            values.update(games_and_wins(records[kind].games, records[kind].wins))
        if kind in by_kind and guild_id is not None:
            r, place = by_kind[kind]
            players = await store.players_rated(db, guild_id, kind)
            values.update(rating=rating_text(r), place=place, players=players, best=r.best_score)
            lines.append(rated_line(values))
        else:
            values["best"] = await best_score(db, user.id, guild_id, kind)
            lines.append(_("{title}: {games}, {wins}, best score {best}", **values))
    picture = None
    if rated and guild_id is not None:
        series = []
        for kind, r, _place in rated:
            series.append((get(kind).title, await store.history(db, guild_id, kind, r.player)))
        title = _("{name}: rating (μ − 3σ) in this server", name=name)
        png = await asyncio.to_thread(rating_chart, title, series, name)
        alt = chart_alt(_("{name}'s rating (μ − 3σ) in this server, per game", name=name), series)
        picture = discord.File(io.BytesIO(png), filename="ratings.png", description=alt[:1024])
    return lines_within(lines), picture


def rated_line(values: dict[str, object]) -> str:
    """Return a player's line of one game in /game stats when they hold a rating in it."""
    if "games" in values:
        if values["best"] is not None:
            return _(
                "{title}: {games}, {wins}, rating {rating}, #{place} of {players} in this server, best score {best}",
                **values,
            )
        return _("{title}: {games}, {wins}, rating {rating}, #{place} of {players} in this server", **values)
    if values["best"] is not None:
        return _("{title}: rating {rating}, #{place} of {players} in this server, best score {best}", **values)
    return _("{title}: rating {rating}, #{place} of {players} in this server", **values)


async def best_score(db: Database, user_id: int, guild_id: int | None, kind: str) -> int:
    """Return a person's best final score in a game (in one server, or everywhere)."""
    where, args = ("AND guild_id = ?", (user_id, kind, guild_id)) if guild_id else ("", (user_id, kind))
    rows = await db.backend.fetch(
        f"SELECT MAX(score) FROM results WHERE user_id = ? AND kind = ? AND is_bot = 0 {where}", args
    )
    return int(rows[0][0] or 0)


async def board_notes(db: Database, row: GameRow, over: bool) -> list[str]:
    """Return the lines a board adds about ratings: casual game, hints used, and rating changes at the end."""
    lines = []
    hinted = await hinted_seats(db, row.id)
    names = {s.seat: s.name for s in row.seats}
    unrated = [names.get(seat, "?") for seat, unrates in hinted.items() if unrates]
    # Whether the game is rated matters only to these lines: a move of a game without them reads less.
    rated = await is_rated(db, row.id) if over or unrated else False
    # Said on the boards of the round after a hint and at the end, not under every later turn.
    if hinted and (over or await hinted_just_now(db, row.id, row.version, len(row.seats))):
        used = join_list([names.get(seat, "?") for seat in hinted])
        if rated and unrated:
            line = ngettext(
                "Hints were used by {used}. {unrated} gains no rating from this game (a loss still counts).",
                "Hints were used by {used}. {unrated} gain no rating from this game (losses still count).",
                len(unrated),
                used=used,
                unrated=join_list(unrated),
            )
        else:
            line = _("Hints were used by {used}.", used=used)
        lines.append(line)
    if not over:
        return lines
    if not rated:
        lines.append(_("Casual game: ratings do not change."))
        return lines
    await store.catch_up(db, row.guild_id, row.kind)
    changes = await store.game_changes(db, row.id)
    shown = []
    for seat in sorted(row.seats, key=lambda s: s.seat):
        key = store.player_key(seat.user_id, seat.bot_level)
        if key in changes:
            before, after = changes.pop(key)
            shown.append(f"{seat.name} {number(before, '.1f')} → {number(after, '.1f')}")
    if shown:
        lines.append(_("Ratings (μ − 3σ): {changes}.", changes=join_list(shown)))
    return lines
