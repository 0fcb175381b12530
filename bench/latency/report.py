"""Format a level's samples as a table row, and a bot profile as its costliest functions."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from bench.latency.samples import Samples, ms, percentile


def figures(values: list[float]) -> str:
    """Format the median and p99 of some latencies."""
    if not values:
        return f"{'-':>8} {'-':>8}"
    return f"{ms(statistics.median(values))} {ms(percentile(values, 0.99))}"


HEADER = (
    "setup    saved games  cmds turns  ack med  ack p99  ans med  ans p99 boardmed boardp99   ac med   ac p99 |"
    " bot stall    busy >50ms   gc max cpu/cmd loop/cmd cpu% cmd/s |"
    " harness stall gc max cpu/cmd | late errors abandoned wall s"
)


def report(setup: str, saved: int, games: int, samples: Samples, seconds: float) -> str:
    """Format one level as a table row."""
    bot, commands = samples.bot, max(1, len(samples.answer))
    window = max(bot.window, 1e-9)
    cpu = net(bot.cpu, bot.idle_cpu * bot.window, commands)
    loop_cpu = net(bot.loop_cpu, bot.idle_loop_cpu * bot.window, commands)
    return (
        f"{setup:<8} {saved:5d} {games:5d} {len(samples.answer):5d} {samples.turns:5d}"
        f"{figures(samples.ack)} {figures(samples.answer)} {figures(samples.board)} {figures(samples.autocomplete)} |"
        f"{ms(bot.stall)}{ms(bot.busy_stall)} {bot.stalls_over_limit:5d}{ms(bot.gc_pause)}"
        f"{cpu}{loop_cpu}"
        f" {bot.cpu / window:4.0%} {len(samples.answer) / window:5.1f} |"
        f"     {ms(samples.harness_stall)}{ms(samples.harness_gc)}{ms(samples.harness_cpu / commands)} |"
        f" {samples.late:4d} {bot.errors:6d} {samples.abandoned:9d} {seconds:6.1f}"
    )


def net(cpu: float, idle: float, commands: int) -> str:
    """Format CPU seconds less the idle cost, per command; "-" when the idle cost is most of it (too few commands)."""
    if idle > cpu / 2:
        return f"{'-':>8}"
    return ms((cpu - idle) / commands)


def print_profile(path: Path, commands: int, top: int) -> None:
    """Print the functions that cost the bot process most, in ms of own CPU time per slash command."""
    import pstats

    for part, title in ((path, "event loop thread"), (Path(f"{path}.threads"), "to_thread worker threads")):
        if not part.exists():
            continue
        stats: Any = pstats.Stats(str(part)).stats
        total = sum(row[2] for row in stats.values())
        print(f"  {title}: {total * 1000 / commands:.1f} ms CPU per command (profiled, so inflated)")
        rows = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
        for (filename, line, name), (_cc, calls, tottime, cumtime, _callers) in rows:
            where = f"{Path(filename).name}:{line}" if line else filename
            print(
                f"    {tottime * 1000 / commands:7.2f} ms own {cumtime * 1000 / commands:8.2f} ms cum"
                f" {calls / commands:7.1f} calls  {name}  ({where})"
            )
