"""Count what the bot did for the metrics endpoint: moves applied, how long answers took, what lags behind.

Plain counters, kept by the turn flow as it works and read by monitor/ at each scrape; nothing here talks to
Prometheus, so the flow never waits on it.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field

ANSWER_BUCKETS_S = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
"""Upper bounds of the answer-latency histogram, in seconds (Discord's deadline is 3 s)."""


@dataclass
class Latencies:
    """Hold a histogram of durations: a count per bucket (the last one past every bound), their sum and count."""

    buckets: list[int] = field(default_factory=lambda: [0] * (len(ANSWER_BUCKETS_S) + 1))
    total: float = 0.0
    count: int = 0

    def observe(self, seconds: float) -> None:
        """Count one duration."""
        self.buckets[bisect.bisect_left(ANSWER_BUCKETS_S, seconds)] += 1
        self.total += seconds
        self.count += 1


@dataclass
class Tally:
    """Hold the bot's running counts, keyed by shard (the shard of the game's server; 0 for direct messages)."""

    shard_count: int = 1

    moves: Counter[tuple[str, int]] = field(default_factory=Counter)
    """(game kind, shard) -> moves saved, by people and computer players."""
    answers: dict[int, Latencies] = field(default_factory=dict)
    """Shard -> how long after the interaction was created a player's move got its first answer."""
    outbox_backlog: dict[int, int] = field(default_factory=dict)
    """Shard -> games whose newest board was not posted, at the last outbox sweep."""
    outbox_lag: dict[int, float] = field(default_factory=dict)
    """Shard -> seconds since the oldest of those games was saved, at the last sweep."""
    scheduler_lag: dict[int, float] = field(default_factory=dict)
    """Shard -> seconds the most overdue reminder or timeout had waited past its moment, at the last check."""

    def shard_of(self, guild_id: int | None) -> int:
        """Return the shard Discord puts a server on (direct messages: shard 0)."""
        return ((guild_id or 0) >> 22) % self.shard_count

    def answered(self, shard: int, seconds: float) -> None:
        """Count a move's answer that came `seconds` after the player acted."""
        self.answers.setdefault(shard, Latencies()).observe(seconds)
