"""Answer /game stats and /game leaderboard with skill ratings, and add rating and hint lines to boards."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord

from engine.registry import get
from engine.words import plural
from render.rating_chart import chart_alt, rating_chart
from storage import ratings as store
from storage.database import Database, GameRow
from storage.server_rules import hinted_seats, is_rated
from ui.text import lines_within

if TYPE_CHECKING:
    from ui.flow import GameFlow


def player_name(rating: store.Rating) -> str:
    """Return how a leaderboard shows a player: a mention, or the computer player of its level."""
    if rating.bot_level is not None:
        return f"Computer player ({rating.bot_level})"
    return f"<@{rating.user_id}>"


def rating_text(rating: store.Rating) -> str:
    """Return a rating as players read it: the conservative estimate, mu and sigma, and provisional or not."""
    text = f"{rating.conservative:.1f} (μ {rating.mu:.1f}, σ {rating.sigma:.1f})"
    return f"{text}, provisional" if rating.provisional else text


async def leaderboard_text(flow: GameFlow, guild_id: int, kind: str) -> str:
    """Rank a server's players of one game by their conservative rating (mu - 3 sigma)."""
    await store.catch_up(flow.db, guild_id, kind)
    rows = await store.leaderboard(flow.db, guild_id, kind)
    title = get(kind).title
    if not rows:
        return f"Nobody has finished a rated game of {title} in this server yet."
    lines = [f"**{title} leaderboard** (rating = μ − 3σ; * provisional: fewer than {store.PROVISIONAL} rated games)"]
    for place, r in enumerate(rows, start=1):
        mark = "*" if r.provisional else ""
        lines.append(
            f"{place}. {player_name(r)}{mark}: {r.conservative:.1f}"
            f" · {plural(r.games, 'game')}, {plural(r.wins, 'win')}"
            + (f", best score {r.best_score}" if r.best_score is not None else "")
        )
    return lines_within(lines)


async def stats_reply(flow: GameFlow, user: discord.abc.User, guild_id: int | None) -> tuple[str, discord.File | None]:
    """Describe a player's rating, place, games, wins and best score per game, with a picture of their ratings."""
    name = getattr(user, "display_name", None) or user.name
    records = {s.kind: s for s in await flow.db.player_stats(user.id, guild_id)}
    rated: list[tuple[str, store.Rating, int]] = []
    if guild_id is not None:
        for kind in records:
            await store.catch_up(flow.db, guild_id, kind)
        rated = await store.ratings_of(flow.db, guild_id, user.id)
    if not records and not rated:
        return f"{name} has not finished a game here yet.", None
    lines = [f"**{name}**"]
    by_kind = {kind: (r, place) for kind, r, place in rated}
    for kind in sorted(set(records) | set(by_kind)):
        title = get(kind).title
        parts = []
        if kind in by_kind and guild_id is not None:
            r, place = by_kind[kind]
            players = await store.players_rated(flow.db, guild_id, kind)
            parts.append(f"rating {rating_text(r)}, #{place} of {players} in this server")
            parts.append(f"best score {r.best_score}" if r.best_score is not None else "")
        if kind in records:
            s = records[kind]
            parts.insert(0, f"{plural(s.games, 'game')}, {plural(s.wins, 'win')}")
            if kind not in by_kind:
                parts.append(f"best score {await best_score(flow.db, user.id, guild_id, kind)}")
        lines.append(f"{title}: " + ", ".join(p for p in parts if p))
    picture = None
    if rated and guild_id is not None:
        series = []
        for kind, r, _ in rated:
            series.append((get(kind).title, await store.history(flow.db, guild_id, kind, r.player)))
        title = f"{name}: rating (μ − 3σ) in this server"
        png = await asyncio.to_thread(rating_chart, title, series)
        alt = chart_alt(f"{name}'s rating (μ − 3σ) in this server, per game", series)
        picture = discord.File(io.BytesIO(png), filename="ratings.png", description=alt[:1024])
    return lines_within(lines), picture


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
    rated = await is_rated(db, row.id)
    hinted = await hinted_seats(db, row.id)
    names = {s.seat: s.name for s in row.seats}
    if hinted:
        used = ", ".join(names.get(seat, "?") for seat in hinted)
        unrated = [names.get(seat, "?") for seat, unrates in hinted.items() if unrates]
        line = f"Hints were used by {used}."
        if rated and unrated:
            line += f" This game does not count for the rating of {', '.join(unrated)}."
        lines.append(line)
    if not over:
        return lines
    if not rated:
        lines.append("Casual game: ratings do not change.")
        return lines
    await store.catch_up(db, row.guild_id, row.kind)
    changes = await store.game_changes(db, row.id)
    shown = []
    for seat in sorted(row.seats, key=lambda s: s.seat):
        key = store.player_key(seat.user_id, seat.bot_level)
        if key in changes:
            before, after = changes.pop(key)
            shown.append(f"{seat.name} {before:.1f} → {after:.1f}")
    if shown:
        lines.append("Ratings (μ − 3σ): " + ", ".join(shown) + ".")
    return lines
