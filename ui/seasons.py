"""Answer /game leaderboard for a server that runs seasons: the current or a past season, or all time."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from engine.registry import get
from i18n import _, ngettext
from storage import ratings as store
from storage.database import Database
from storage.seasons import season_board, season_of
from storage.server_rules import server_rules
from ui.errors import UserError
from ui.mentions import command
from ui.ratings import board_lines, leaderboard_text
from ui.text import lines_within

ALL_TIME = "all"
"""The `season:` a reader types for the all-time leaderboard."""
MONTH = re.compile(r"\s*(\d{4})-(\d{1,2})\s*")


def _month(typed: str, now: datetime) -> datetime:
    """Return the first instant of the month a reader typed (2025-01), or refuse it."""
    found = MONTH.fullmatch(typed)
    if found is None or not 1 <= int(found[2]) <= 12:
        raise UserError(_('"{season}" is not a season: give a month in it, like 2025-01, or all.', season=typed))
    return now.replace(year=int(found[1]), month=int(found[2]), day=1, hour=0, minute=0, second=0, microsecond=0)


async def season_text(db: Database, guild_id: int, kind: str, user_id: int | None, season: str | None) -> str:
    """Rank the players of one season (the current one by default), or all time with `season:all`.

    A server without seasons sees the all-time leaderboard, as before seasons existed.
    """
    months = (await server_rules(db, guild_id)).season_months
    if (season is not None and season.strip().lower() == ALL_TIME) or (season is None and not months):
        return await leaderboard_text(db, guild_id, kind, user_id)
    if not months:
        raise UserError(
            _(
                "This server does not run seasons: a server manager can start them with {command}.",
                command=command("game settings", seasons=""),
            )
        )
    now = db.clock()
    current = season_of(now, months)
    start, end = current if season is None else season_of(_month(season, now), months)
    dates = {"start": start.date().isoformat(), "end": (end - timedelta(days=1)).date().isoformat()}
    title = get(kind).title
    rows = await season_board(db, guild_id, kind, start, end)
    ongoing = (start, end) == current
    if not rows:
        if ongoing:
            return _("Nobody has finished a rated game of {title} in this server this season ({start} to {end}) yet.",
                     title=title, **dates)
        return _("Nobody finished a rated game of {title} in this server in the season {start} to {end}.",
                 title=title, **dates)
    lines = [
        ngettext(
            "**{title} leaderboard, season {start} to {end}** (rating = μ − 3σ; * provisional: fewer than {n} rated"
            " game)",
            "**{title} leaderboard, season {start} to {end}** (rating = μ − 3σ; * provisional: fewer than {n} rated"
            " games)",
            store.PROVISIONAL,
            title=title,
            **dates,
        )
    ]
    earlier = season_of(start - timedelta(days=1), months)[0].strftime("%Y-%m")
    if ongoing:
        # TRANSLATORS: {example} is a month such as 2025-01; `season:` and `season:all` are typed as they are.
        lines.append(_("Every player starts a season afresh; only its rated games count. See a past season with"
                       " `season:` and a month in it (like {example}), or all time with `season:all`.",
                       example=earlier))
    else:
        lines.append(_("Only the rated games of that season count, every player starting it afresh."))
    lines += board_lines(rows, user_id)
    return lines_within(lines)
