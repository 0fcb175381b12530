"""Measure the table: open tables, a tap's round trip to every table's update, and memory per table.

    python -m bench.table [--tables 50] [--rounds 12] [--processes 1|2]

The bot runs in its own process (bench.bot_process) against the harness's fake Discord, with its table on a
free port and the fake OAuth2 endpoints of tests/table. Every table signs in as a player does (a code
exchanged at POST /table/api/token) and keeps a WebSocket open; each fish game has two players, each with
a table. A round lets the player to move in every game tap at the same instant (a burst), then one game at a
time (paced). A tap's round trip is from sending the move to the moment the LAST table of that game shows
the new version (the tapper's and the other player's). Memory per table is the bot process's resident memory
with the tables open less before, divided by their number. With --processes 2 (PostgreSQL, started from
Debian's server as the tests do), two bot processes run one shard each: every table watches through
process 0 while every tap is sent through process 1, so each update crosses processes through the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.latency.bots import BotProcess
from tests.harness import Driver, FakeDiscord, FakeUser
from tests.table.fakes import CLIENT_ID, CLIENT_SECRET, FakeAccount, FakeOAuth

QUIET = 0.01


def free_port() -> int:
    """Return a port of 127.0.0.1 that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Table:
    """One open table: its player, socket, and the newest state it was sent."""

    player: FakeUser
    ws: aiohttp.ClientWebSocketResponse
    state: dict[str, Any]
    seen: asyncio.Event = field(default_factory=asyncio.Event)
    acked: asyncio.Event = field(default_factory=asyncio.Event)

    async def listen(self) -> None:
        """Keep the newest state; wake whoever waits for a new one."""
        async for frame in self.ws:
            message = json.loads(frame.data)
            if message.get("type") == "state" and message["version"] > self.state["version"]:
                self.state = message
                self.seen.set()
            elif message.get("type") == "ack":
                self.acked.set()

    async def reached(self, version: int) -> float:
        """Wait until this table shows `version` or newer; return when (monotonic)."""
        while self.state["version"] < version:
            self.seen.clear()
            await asyncio.wait_for(self.seen.wait(), 30)
        return time.monotonic()


@dataclass
class Game:
    """One fish game and its two tables (watched through `tables`, tapped through `taps`)."""

    tables: list[Table]
    taps: list[aiohttp.ClientWebSocketResponse]

    def mover(self) -> int | None:
        """Return the index of the table whose player is to move, or None once the game is over."""
        for n, table in enumerate(self.tables):
            if table.state["status"] == "active" and table.state["table"]["actions"]:
                return n
        return None

    async def tap(self) -> tuple[float, float] | None:
        """Let the player to move tap a legal action; return the times to its ack and to the last table's update."""
        n = self.mover()
        if n is None:
            return None
        table, tapper = self.tables[n], self.taps[n]
        state = table.state
        action = state["table"]["actions"][0]
        table.acked.clear()
        started = time.monotonic()
        await tapper.send_json({"type": "move", "version": state["version"], "action": action, "id": "b"})
        shown, acked = await asyncio.gather(
            asyncio.gather(*(t.reached(state["version"] + 1) for t in self.tables)), self.ack(table, tapper)
        )
        return acked - started, max(shown) - started

    async def ack(self, table: Table, tapper: aiohttp.ClientWebSocketResponse) -> float:
        """Wait for the tap's ack (on the table's own socket, or on the other process's); return when."""
        if tapper is table.ws:
            await asyncio.wait_for(table.acked.wait(), 30)
            return time.monotonic()
        while True:
            message = json.loads((await tapper.receive(timeout=30)).data)
            if message.get("type") == "ack":
                return time.monotonic()


async def sign_in(http: aiohttp.ClientSession, url: str, oauth: FakeOAuth, player: FakeUser) -> str:
    """Sign in as the page does: a code from Discord exchanged at the table's token endpoint."""
    code = oauth.code_for(FakeAccount(player.id, player.name))
    async with http.post(f"{url}/table/api/token", json={"code": code, "locale": "en-US"}) as response:
        body = await response.json()
    return str(body["session"])


def percentile(values: list[float], share: float) -> float:
    """Return the value below which `share` of the values fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def line(name: str, values: list[float]) -> str:
    """Format a row of round trips in milliseconds."""
    ms = [v * 1000 for v in values]
    return (
        f"{name:<10} taps={len(ms):>4}  p50={statistics.median(ms):7.1f} ms  p95={percentile(ms, 0.95):7.1f} ms"
        f"  p99={percentile(ms, 0.99):7.1f} ms  max={max(ms):7.1f} ms"
    )


async def run(tables: int, rounds: int, processes: int) -> None:
    """Set the games up, open the tables, play the rounds and print the figures."""
    server = None
    database = None
    if processes > 1:
        from tests.postgres import start_server

        server = start_server()
        database = await server.new_schema()
    try:
        await measure(tables, rounds, processes, database)
    finally:
        if server is not None:
            server.stop()


async def measure(count: int, rounds: int, processes: int, database: str | None) -> None:
    """Run the benchmark against bot processes already configured by `run`."""
    oauth = FakeOAuth()
    await oauth.start()
    ports = [free_port() for _ in range(processes)]
    with tempfile.TemporaryDirectory(prefix="ice-floe-table-") as tmp:
        async with FakeDiscord() as fake, contextlib.AsyncExitStack() as stack:
            options = ("--client-id", CLIENT_ID, "--client-secret", CLIENT_SECRET, "--discord-api", oauth.url)
            bots = [
                await stack.enter_async_context(
                    BotProcess.running(
                        fake,
                        Path(tmp),
                        None,
                        False,
                        database=database,
                        shard=(n, processes) if processes > 1 else None,
                        extra=("--table-port", str(ports[n]), *options),
                    )
                )
                for n in range(processes)
            ]
            urls = [f"http://127.0.0.1:{port}" for port in ports]
            driver = Driver(fake, timeout=30)
            games_count = count // 2
            channels = [fake.add_text_channel(fake.guild, f"table-{n}") for n in range(games_count)]
            pairs = []
            for n, channel in enumerate(channels):
                host, guest = driver.user(f"t{n}a"), driver.user(f"t{n}b")
                await driver.slash(host, "/game new game:fish", channel=channel).settle(quiet=QUIET)
                await driver.slash(guest, "/game join", channel=channel).settle(quiet=QUIET)
                await driver.slash(host, "/game start", channel=channel).settle(quiet=QUIET)
                pairs.append((channel, host, guest))
            bots[0].send("rss")
            before = int(await bots[0].expect("rss", within=30))
            async with aiohttp.ClientSession() as http:
                games = []
                for channel, host, guest in pairs:
                    opened, taps = [], []
                    for player in (host, guest):
                        session = await sign_in(http, urls[0], oauth, player)
                        query = f"session={session}&channel={channel.id}"
                        ws = await http.ws_connect(f"{urls[0]}/table/ws?{query}")
                        first = json.loads((await ws.receive(timeout=30)).data)
                        opened.append(Table(player, ws, first))
                        tapper = ws
                        if processes > 1:
                            tapper = await http.ws_connect(f"{urls[-1]}/table/ws?{query}")
                            await tapper.receive(timeout=30)
                        taps.append(tapper)
                    games.append(Game(opened, taps))
                listeners = [asyncio.create_task(t.listen()) for g in games for t in g.tables]
                bots[0].send("rss")
                after = int(await bots[0].expect("rss", within=30))
                burst: list[tuple[float, float]] = []
                paced: list[tuple[float, float]] = []
                for _ in range(rounds):
                    burst += [t for t in await asyncio.gather(*(g.tap() for g in games)) if t is not None]
                    for game in games:
                        if (trip := await game.tap()) is not None:
                            paced.append(trip)
                            await asyncio.sleep(0.05)  # a player's pace, not a closed loop
                for task in listeners:
                    task.cancel()
            open_tables = sum(len(g.tables) for g in games)
            print(f"bench.table: {open_tables} open tables on {games_count} fish games, {processes} bot process(es)")
            print("update = a tap sent until the last table of its game shows the new version; ack = until saved")
            print(f"in a burst, every game's player taps at the same instant ({games_count} taps at once); paced: one")
            print("tap at a time, 50 ms apart, while the boards of earlier taps are still being drawn and posted")
            for name, trips in (("burst", burst), ("paced", paced)):
                print(line(f"{name} ack", [a for a, _u in trips]))
                print(line(f"{name} upd", [u for _a, u in trips]))
            per_table = (after - before) / open_tables
            print(
                f"memory: {before / 2**20:.1f} MiB before the tables, {after / 2**20:.1f} MiB with them open: "
                f"{per_table / 1024:.1f} KiB per table"
            )
    await oauth.stop()


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50, help="open tables (two per game)")
    parser.add_argument("--rounds", type=int, default=12, help="rounds of taps (each: a burst, then paced)")
    parser.add_argument("--processes", type=int, default=1, choices=(1, 2), help="2: two shards on PostgreSQL")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.rounds, args.processes))


if __name__ == "__main__":
    main()
