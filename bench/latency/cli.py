"""The command line: parse the flags, seed saved games, run every level of every setup and print the table."""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from pathlib import Path
from typing import Any

import bench.latency
from bench.latency.burst import print_bursts
from bench.latency.levels import run_level
from bench.latency.players import KINDS
from bench.latency.report import HEADER, print_profile, report
from bench.latency.samples import Samples
from bench.latency.servers import postgres_server
from bench.seed import seed


async def main() -> None:
    """Run every level, paced and/or in closed loop, on each saved-games database, and print the figures."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.latency",
        description=bench.latency.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--levels", default="1,50,100,200", help="numbers of concurrent games (default 1,50,100,200)")
    parser.add_argument(
        "--saved", default="0", help="saved games in the database before the bot starts (default 0; e.g. 0,1000,10000)"
    )
    parser.add_argument("--kinds", default=",".join(KINDS), help="games to play, round-robin (default all three)")
    parser.add_argument("--turns", type=int, default=12, help="actions per game after /game start (default 12)")
    parser.add_argument(
        "--think", type=float, default=2.0, help="paced run: mean seconds a player thinks (default 2.0; 0: none)"
    )
    parser.add_argument(
        "--stagger", type=float, default=3.0, help="paced run: games open within this many seconds (default 3)"
    )
    parser.add_argument("--runs", default="paced", help="which runs: paced, closed or paced,closed (default paced)")
    parser.add_argument(
        "--setups",
        default="sqlite",
        help="sqlite (one process, SQLite file), postgres (--processes shard processes on one throwaway"
        " PostgreSQL server), or both: sqlite,postgres (default sqlite)",
    )
    parser.add_argument("--processes", type=int, default=2, help="postgres setup: shard processes (default 2)")
    parser.add_argument(
        "--database",
        metavar="URL",
        help="postgres setup: run on the PostgreSQL server at this postgresql:// URL, a new schema per level"
        " (default: a throwaway server started for the run, which needs PostgreSQL in /usr/lib/postgresql)",
    )
    parser.add_argument("--in-process", action="store_true", help="run the bot in this process and event loop")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="write and summarise cProfile stats here")
    parser.add_argument("--top", type=int, default=25, help="functions to list per profile (default 25)")
    parser.add_argument("--stacks", action="store_true", help="show where the bot's event loop was while blocked")
    parser.add_argument(
        "--burst",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="burst mode: in each of ROUNDS rounds every game (of --kinds, in turn) moves in the same second",
    )
    args = parser.parse_args()
    kinds = tuple(kind for kind in args.kinds.split(",") if kind)
    if not kinds or any(kind not in KINDS for kind in kinds):
        parser.error(f"--kinds takes some of {','.join(KINDS)}")
    if args.database and not args.database.startswith(("postgresql://", "postgres://")):
        parser.error("--database takes a postgresql:// URL")
    if args.database and args.setups == "sqlite":
        args.setups = "postgres"
    if args.burst:
        if args.in_process or args.stacks or args.setups not in ("sqlite", "postgres") or "," in args.saved:
            parser.error("--burst runs on one setup (sqlite or postgres) and one --saved size: drop the other options")
        if args.setups == "postgres" and args.profile:
            parser.error("--burst on postgres runs shard processes: drop --profile")
        levels = [int(level) for level in args.levels.split(",")]
        server = postgres_server(args.database) if args.setups == "postgres" else None
        try:
            await print_bursts(
                levels, args.burst, args.profile, args.top, int(args.saved), kinds, server, args.processes
            )
        finally:
            if server is not None:
                server.stop()
        return
    if (args.profile or args.stacks) and args.in_process:
        parser.error("--profile and --stacks look inside the bot process: drop --in-process")
    setups = [setup.strip() for setup in args.setups.split(",") if setup.strip()]
    if not setups or set(setups) - {"sqlite", "postgres"}:
        parser.error("--setups takes sqlite, postgres or sqlite,postgres")
    if "postgres" in setups and (args.in_process or args.profile or args.stacks):
        parser.error("the postgres setup runs shard processes: drop --in-process, --profile and --stacks")
    logging.getLogger().setLevel(logging.ERROR)
    server = None
    if "postgres" in setups:
        server = postgres_server(args.database)
    try:
        await run_all(args, kinds, setups, server)
    finally:
        if server is not None:
            server.stop()


async def measure_level(
    args: argparse.Namespace,
    run: str,
    think: float,
    size: int,
    games: int,
    setup: str,
    kinds: tuple[str, ...],
    saved: Path | None,
    server: Any,
) -> Samples:
    """Measure one level of one setup and print its row (and profile, stacks)."""
    profile = None
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
        profile = (args.profile / f"bot-{run}-{size}-{games}.prof").resolve()
    started = time.monotonic()
    samples = await run_level(
        games,
        args.turns,
        think,
        stagger=args.stagger,
        in_process=args.in_process,
        profile=profile,
        stacks=args.stacks,
        kinds=kinds,
        saved=saved,
        postgres=await server.new_schema() if setup == "postgres" else None,
        processes=args.processes,
    )
    print(report(setup, size, games, samples, time.monotonic() - started), flush=True)
    for blocked, stack in samples.bot.stall_stacks:
        print(f"  bot {blocked:7.0f} ms blocked in {stack}")
    for blocked, stack in samples.harness_stacks[:6]:
        print(f"  harness {blocked:7.0f} ms blocked in {stack}")
    if profile is not None:
        print_profile(profile, max(1, len(samples.answer)), args.top)
    return samples


async def run_all(args: argparse.Namespace, kinds: tuple[str, ...], setups: list[str], server: Any) -> None:
    """Run every level of every setup on each saved-games database, paced and/or in closed loop."""
    levels = [int(level) for level in args.levels.split(",")]
    sizes = [int(size) for size in args.saved.split(",")]
    runs = [run for run in args.runs.split(",") if run in ("paced", "closed")]
    if args.think <= 0:
        runs = ["closed"]
    where = "in this process" if args.in_process else "in its own process"
    print("Ice Floe latency: command or menu choice injected -> acknowledged (ack) / answer shown (ans) /")
    print("the channel shows the board the move made (board, moves only), ms")
    print(
        f"{args.turns} actions per game after the lobby; games {', '.join(kinds)} in turn with 2, 3, 4 players;"
        f" ac = autocomplete; the bot runs {where}"
    )
    if "postgres" in setups:
        print(
            f"setup postgres = {args.processes} bot processes, one shard each, on one local PostgreSQL server"
            " (games spread over one server per shard); sqlite = one process on a SQLite file"
        )
    refusals: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ice-floe-seed-") as seeds:
        for size in sizes:
            saved = None
            if size:
                saved = Path(seeds) / f"saved-{size}.db"
                started = time.monotonic()
                census = await asyncio.to_thread(seed, str(saved), size)
                print(f"\nseeded {size} saved games in {time.monotonic() - started:.1f} s: {census}", flush=True)
            for run in runs:
                think = args.think if run == "paced" else 0.0
                if run == "paced":
                    print(
                        f"\npaced, {size} saved games: players think {think:g} s on average (0.5x-1.5x) between"
                        f" actions; the games open within {args.stagger:g} s"
                    )
                else:
                    print(f"\nclosed loop, {size} saved games: every player acts the instant it sees the answer")
                print(HEADER, flush=True)
                for games in levels:
                    for setup in setups:
                        samples = await measure_level(args, run, think, size, games, setup, kinds, saved, server)
                        label = f"{run} {setup} {size} saved {games} games"
                        refusals.extend(f"  {label}: {text}" for text in dict.fromkeys(samples.refusals))
                        refusals.extend(f"  {label}, bot error: {text}" for text in samples.bot.error_lines)
    print(
        "\nbot stall = longest event-loop block in the bot process (postgres: the worst of its processes; cpu"
        "\nsummed); busy = the same counting only the bot's CPU"
        "\ntime during a block (the rest is the OS running other processes); >50ms = blocks longer than 50 ms;"
        "\ngc max = the bot's longest garbage collection pause; cpu/cmd = CPU of the bot process (all threads)"
        "\nand its worker processes per slash command, autocompletes included, less what the idle bot spends"
        "\n(- when that is most of it); loop/cmd = its event-loop thread alone; cpu% = the bot's CPU time"
        "\n(with its workers) over the run's wall time, in % of one core;"
        "\ncmd/s = slash commands answered per second (in closed loop: the bot's capacity on this machine);"
        "\nharness = the fake Discord and the players (this process): longest event-loop block, CPU per command"
        "\n(idle cost included, so large when there are few commands);"
        "\nlate = acknowledgements Discord would refuse (after 3 s); errors = ERROR records the bot logged;"
        "\nabandoned = games stopped because the bot refused a command or did not answer (first ones below)"
    )
    for line in refusals[:10]:
        print(line)
