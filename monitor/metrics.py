"""Turn the bot's own counters into Prometheus metrics at each scrape (nothing is counted twice or kept twice).

Every metric is read when Prometheus asks, from what the bot keeps anyway: the turn flow's tally (moves,
answer latencies, outbox and scheduler lag), the storage backend (pool in use, failures by kind, outages),
the shard lease and the gateway. ERROR log lines are counted by logger, so a new kind of failure shows too.
Beside them the client library's standard process_* and python_* metrics, and floe_build_info (the version,
the commit and the Python running), so a dashboard tells which build a process runs.
"""

from __future__ import annotations

import functools
import logging
import platform
import subprocess
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from prometheus_client import GCCollector, PlatformCollector, ProcessCollector
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    InfoMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector, CollectorRegistry

from storage.database import Database
from storage.ownership import ShardLease
from ui.tally import ANSWER_BUCKETS_S, Tally


class Tallied(Protocol):
    """The turn flow as the monitor reads it: its counters."""

    @property
    def tally(self) -> Tally:
        """Return the flow's counters (ui/tally.py)."""


class Watched(Protocol):
    """What the monitor reads of the bot that starts it (bot.py's IceFloeBot): gateway, flow, database, lease."""

    @property
    def flow(self) -> Tallied:
        """Return the turn flow, for its counters."""

    @property
    def db(self) -> Database:
        """Return the database, for its backend's pool and outages."""

    @property
    def lease(self) -> ShardLease:
        """Return the shard lease: the shards this process should hold and those it holds."""

    @property
    def latency(self) -> float:
        """Return the gateway's heartbeat latency in seconds."""

    def is_ready(self) -> bool:
        """Return True once the gateway said it is ready."""

    def is_closed(self) -> bool:
        """Return True once the gateway connection is closed."""


class ErrorLines(logging.Handler):
    """Count the ERROR (and worse) log lines by the logger that wrote them."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        """Count one line."""
        self.counts[record.name] += 1


class BotCollector(Collector):
    """Describe one running bot as Prometheus metrics."""

    def __init__(self, bot: Watched, errors: ErrorLines) -> None:
        self.bot = bot
        self.errors = errors

    def collect(self) -> Iterator[Metric]:
        """Yield every metric as it stands now."""
        tally = self.bot.flow.tally
        moves = CounterMetricFamily("floe_moves_applied", "Moves saved, by game and shard", labels=["kind", "shard"])
        for (kind, shard), count in sorted(tally.moves.items()):
            moves.add_metric([kind, str(shard)], count)
        yield moves

        answers = HistogramMetricFamily(
            "floe_answer_seconds", "Seconds from a player's move to its first answer", labels=["shard"]
        )
        for shard, latencies in sorted(tally.answers.items()):
            cumulative, running = [], 0
            for bound, count in zip((*ANSWER_BUCKETS_S, float("inf")), latencies.buckets, strict=True):
                running += count
                cumulative.append((_bound(bound), running))
            answers.add_metric([str(shard)], cumulative, sum_value=latencies.total)
        yield answers

        shards = self.bot.lease.shards.ids
        yield _per_shard(
            "floe_outbox_backlog", "Games whose newest board is not posted yet", tally.outbox_backlog, shards
        )
        yield _per_shard("floe_outbox_lag_seconds", "Age of the oldest unposted board", tally.outbox_lag, shards)
        yield _per_shard(
            "floe_scheduler_lag_seconds",
            "How late the most overdue reminder or timeout was",
            tally.scheduler_lag,
            shards,
        )

        backend = self.bot.db.backend
        yield GaugeMetricFamily("floe_db_in_use", "Database connections busy now", value=backend.in_use())
        yield GaugeMetricFamily(
            "floe_db_pool_size", "Largest number of database connections", value=getattr(backend, "pool_size", 1)
        )
        yield GaugeMetricFamily("floe_db_down", "1 while the database is failing", value=int(backend.outage.down))
        yield CounterMetricFamily("floe_db_outages", "Database outages since start-up", value=backend.outage.outages)
        errors = CounterMetricFamily("floe_errors", "Failures by kind", labels=["kind"])
        for kind in ("busy", "unavailable"):
            errors.add_metric([f"database_{kind}"], backend.outage.errors[kind])
        errors.add_metric(["error_log_lines"], sum(self.errors.counts.values()))
        yield errors

        lease = self.bot.lease
        owned = GaugeMetricFamily("floe_shard_owned", "1 for each shard this process holds", labels=["shard"])
        for shard in lease.shards.ids:
            owned.add_metric([str(shard)], int(shard in lease.held))
        yield owned
        latency = GaugeMetricFamily("floe_gateway_latency_seconds", "Heartbeat latency per shard", labels=["shard"])
        for shard, seconds in _latencies(self.bot):
            latency.add_metric([str(shard)], seconds)
        yield latency


def _bound(value: float) -> str:
    return "+Inf" if value == float("inf") else repr(value)


def _per_shard(
    name: str, text: str, values: dict[int, float] | dict[int, int], shards: tuple[int, ...]
) -> GaugeMetricFamily:
    """Return a gauge with one sample per shard this process runs (0 where nothing was measured yet)."""
    family = GaugeMetricFamily(name, text, labels=["shard"])
    for shard in sorted(set(shards) | set(values)):
        family.add_metric([str(shard)], values.get(shard, 0))
    return family


def _latencies(bot: Watched) -> list[tuple[int, float]]:
    """Return each connected shard's heartbeat latency (one entry, shard 0, for an unsharded bot)."""
    latencies = getattr(bot, "latencies", None)
    found = list(latencies) if latencies is not None else [(0, bot.latency)]
    return [(shard, seconds) for shard, seconds in found if seconds == seconds and seconds != float("inf")]


ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def build() -> dict[str, str]:
    """Return the version (pyproject.toml), the commit (git, else "unknown") and the Python version running."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=2, check=True
        )
        commit = found.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    return {"version": version, "commit": commit, "python": platform.python_version()}


class BuildCollector(Collector):
    """Describe the running build as floe_build_info."""

    def collect(self) -> Iterator[Metric]:
        """Yield the one info metric."""
        info = InfoMetricFamily("floe_build", "The version, commit and Python this process runs")
        info.add_metric([], build())
        yield info


def registry_for(bot: Watched, errors: ErrorLines) -> CollectorRegistry:
    """Return a registry of this bot's metrics, the process's and Python's (several bots in one test never mix)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(BotCollector(bot, errors))
    registry.register(BuildCollector())
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    return registry
