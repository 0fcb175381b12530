"""Decide what a finished game is worth to each rating: the rules that keep a rated ladder from being escaped or farmed.

Pure functions of a game's action log and the ratings before it (docs/ratings.md, "Fair play"):

- The abort window: a seat that resigns before making ABORT_MOVES moves of its own is left out of the rating
  (in a two-player game nobody is rated: the game was aborted, as chess sites do), and a rated game can be
  cancelled only while a seated person has not yet made ABORT_MOVES moves.
- A seat that resigns after the window, or is handed to a computer player, ranks last; in Team Up it does not
  share a winning partner's result. In a rated game without a timeout, a player who keeps the game waiting
  STALL_HOURS resigns (with a timeout, the easy computer player moves for them instead).
- Repeated pairings: the same people rated together more than REPEATS_IN_FULL times within REPEAT_WINDOW
  count for half as much each further time.
- Games too fast to be real: a rated game with people on two sides or more that was decided less than
  FAST_SECONDS after its first move counts in proportion to the time it took (over in 6 s: a tenth; at once:
  nothing), so a friend resigning game after game cannot carry anyone up the ladder.
- Time away: a player's sigma grows with the days since their last rated game (after AWAY_GRACE_DAYS), up to
  a newcomer's, so a rating left alone for months moves faster when its player comes back.
- Gains forfeited: a seat that took a hint, or whose only victims were computer players it was predicted to
  beat with probability MUCH_WEAKER or more, can lose rating but not gain any.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from storage.rating_model import MODEL, Skill

ABORT_MOVES = 2
"""Moves of its own a seat makes before resigning counts as a loss (before that it aborts)."""
REPEAT_WINDOW = timedelta(hours=24)
"""How far back games between the same people count as repeats."""
REPEATS_IN_FULL = 3
"""Games between the same people within the window that count in full; each further one counts half as much."""
FAST_SECONDS = 60.0
"""A rated game between people decided sooner than this after its first move counts less, in proportion."""
MUCH_WEAKER = 0.9
"""A computer player beaten with at least this predicted probability gives no gain."""
AWAY_GRACE_DAYS = 30
"""Days between rated games after which a rating starts to grow less certain."""
AWAY_GROWTH = 0.06
"""How much sigma squared grows per day away after the grace (a settled sigma of 2 is back to about 5 in a year)."""
STALL_HOURS = 72.0
"""How long a rated game without a timeout waits for a player before it counts as their resignation."""


@dataclass(frozen=True)
class Conduct:
    """Say what each seat did in a game: how many moves it made and whether it resigned."""

    moves: Mapping[int, int] = field(default_factory=dict)
    resigned: frozenset[int] = frozenset()

    def aborted(self) -> frozenset[int]:
        """Return the seats that resigned inside the abort window."""
        return frozenset(s for s in self.resigned if self.moves.get(s, 0) < ABORT_MOVES)


def conduct(actions: Iterable[tuple[int | None, str]]) -> Conduct:
    """Read (seat, action type) pairs of a game's log in order; takebacks and the like are not moves."""
    moves: dict[int, int] = {}
    resigned: set[int] = set()
    for seat, kind in actions:
        if seat is None or kind == "takeback":
            continue
        if kind == "resign":
            resigned.add(seat)
        elif seat not in resigned:
            moves[seat] = moves.get(seat, 0) + 1
    return Conduct(moves, frozenset(resigned))


def aged(sigma: float, days_away: float) -> float:
    """Return sigma grown by the time since the player's last rated game, never above a newcomer's."""
    if days_away <= AWAY_GRACE_DAYS:
        return sigma
    return min(MODEL.sigma, math.sqrt(sigma * sigma + AWAY_GROWTH * (days_away - AWAY_GRACE_DAYS)))


def stall_limit(timeout_hours: float | None, rated: bool) -> float | None:
    """Return after how many idle hours a waiting player resigns: only in a rated game without a timeout."""
    return STALL_HOURS if rated and not timeout_hours else None


def may_cancel(played: Conduct, people: Iterable[int]) -> bool:
    """Return True while one of the seated people (`people`: their seats) has not left the abort window."""
    return any(played.moves.get(seat, 0) < ABORT_MOVES for seat in people)


def pairing(user_ids: Iterable[int]) -> str | None:
    """Return the key of a game's set of people (two or more), by which repeated pairings are found."""
    people = sorted(set(user_ids))
    return ",".join(str(u) for u in people) if len(people) >= 2 else None


def repeat_weight(earlier: int) -> float:
    """Return how much a game counts when the same people had `earlier` rated games within the window."""
    return 1.0 if earlier < REPEATS_IN_FULL else 0.5 ** (earlier - REPEATS_IN_FULL + 1)


def pace(seconds: float, people_sides: int) -> float:
    """Return how much a game counts for its pace: in full from FAST_SECONDS on, or with people on under two sides."""
    if people_sides < 2 or seconds >= FAST_SECONDS:
        return 1.0
    return max(0.0, seconds / FAST_SECONDS)


def damp(before: Skill, after: Skill, weight: float) -> Skill:
    """Return `before` moved a `weight` share of the way to `after`."""
    if weight >= 1.0:
        return after
    return before[0] + weight * (after[0] - before[0]), before[1] + weight * (after[1] - before[1])


def without_gain(before: Skill, after: Skill) -> Skill:
    """Return `after` unless it raises the conservative rating (mu - 3 sigma); then `before`."""
    return before if after[0] - 3 * after[1] > before[0] - 3 * before[1] else after


def win_chance(mine: Sequence[Skill], theirs: Sequence[Skill]) -> float:
    """Return the model's probability that the side `mine` finishes ahead of the side `theirs`."""
    teams = [[MODEL.rating(mu, sigma) for mu, sigma in side] for side in (mine, theirs)]
    return float(MODEL.predict_win(teams)[0])


def farmed(mine: Sequence[Skill], beaten: Sequence[tuple[bool, Sequence[Skill]]]) -> bool:
    """Return True when every side that `mine` beat (each: all computers?, its skills) was a much weaker computer."""
    return bool(beaten) and all(bots and win_chance(mine, skills) >= MUCH_WEAKER for bots, skills in beaten)
