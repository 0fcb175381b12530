"""Measure how many requests a second a fleet of bot processes sends Discord, with and without the shared limit.

Run from the repository root:  .venv/bin/python -m bench.rest_fleet [--processes 2] [--requests 300]
[--per-second 40] [--database postgresql://...]

The fake Discord of tests/harness runs in this process; each of --processes child processes builds discord.py's
HTTPClient against it, as the bot does, with ui/rest_limit.py installed on one PostgreSQL database (a throwaway
server started for the run, or --database), and posts --requests channel messages as fast as discord.py lets
it (many at once, the way a burst of computer moves posts boards). Then the same without the limit. The
figures are the fake's own records of when each request arrived: the most requests any one second held (any
second, not whole seconds of the clock), the mean rate, and how long the fleet took. Discord's global limit is
50 requests a second per token.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def busiest_second(times: list[float]) -> int:
    """Return the most of `times` (seconds) that fall within any one second."""
    times = sorted(times)
    most, first = 0, 0
    for last, moment in enumerate(times):
        while moment - times[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


async def child(args: argparse.Namespace) -> None:
    """Post messages through discord.py's HTTPClient, limited by the shared budget unless --no-limit."""
    import discord
    import discord.http

    from storage.database import Database
    from ui.rest_limit import limit_requests

    discord.http.Route.BASE = args.api
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    await http.static_login(args.token)
    db = Database(args.database)
    await db.open()
    try:
        if not args.no_limit:
            limit_requests(http, db.backend, args.per_second, 1 / args.processes)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await asyncio.gather(
            *(http.send_message(args.channel, params=discord.http.handle_message_parameters(content=f"m{n}"))
              for n in range(args.requests))
        )
    finally:
        await http.close()
        await db.close()


async def fleet(args: argparse.Namespace, url: str, limited: bool) -> tuple[int, float, float, int]:
    """Run the fleet once; return the busiest second, the mean rate, the seconds taken and the 429s seen."""
    from tests.harness import FakeDiscord

    async with FakeDiscord() as fake:
        channel = fake.add_text_channel(fake.guild, "fleet")
        children = []
        for _ in range(args.processes):
            command = [
                sys.executable, "-m", "bench.rest_fleet", "--child", "--api", fake.api_base, "--token", fake.token,
                "--channel", str(channel.id), "--database", url, "--requests", str(args.requests),
                "--per-second", str(args.per_second), "--processes", str(args.processes),
                *(() if limited else ("--no-limit",)),
            ]
            children.append(
                await asyncio.create_subprocess_exec(
                    *command, cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
                )
            )
        for process in children:
            assert process.stdout is not None
            await process.stdout.readline()
        fake.calls.clear()
        for process in children:
            assert process.stdin is not None
            process.stdin.write(b"go\n")
            await process.stdin.drain()
        await asyncio.gather(*(process.wait() for process in children))
        posts = [call for call in fake.calls if call.method == "POST" and call.route and "messages" in call.route]
        times = [call.started for call in posts]
        took = max(times) - min(times) if times else 0.0
        refused = sum(1 for call in posts if call.status == 429)
        return busiest_second(times), len(times) / max(took, 1e-9), took, refused


async def main() -> None:
    """Measure the fleet with the shared limit, then without, and print both."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--requests", type=int, default=300, help="messages each process posts (default 300)")
    parser.add_argument("--per-second", type=int, default=40, help="the fleet's limit (default 40)")
    parser.add_argument("--database", help="a PostgreSQL URL (default: a throwaway server)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--api", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--channel", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--no-limit", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        await child(args)
        return
    from bench.latency.servers import postgres_server

    server = postgres_server(args.database)
    try:
        print(
            f"{args.processes} processes post {args.requests} channel messages each through discord.py, all at once;"
            f" the fake Discord records when each arrived (load {' '.join(f'{v:.2f}' for v in os.getloadavg())})"
        )
        print("run            busiest second  mean req/s  seconds  429s")
        for limited in (True, False):
            busiest, rate, took, refused = await fleet(args, await server.new_schema(), limited)
            label = f"shared {args.per_second}/s" if limited else "no shared limit"
            print(f"{label:<16} {busiest:12d} {rate:11.1f} {took:8.2f} {refused:5d}", flush=True)
        print(f"(load after: {' '.join(f'{v:.2f}' for v in os.getloadavg())})")
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
