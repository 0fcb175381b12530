"""Two bot processes, one shard each, on one PostgreSQL server: every game plays once, even across a kill."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.database import FINISHED, Database
from tests.e2e.shard_process import FileClock, set_clock
from tests.harness import Driver, FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.harness.models import iter_components
from tests.postgres import PostgresServer
from tests.proxy import FaultyProxy

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
KINDS = ("fish", "tank", "flippers")
REMINDER = re.compile(r"^<@(\d+)>, a reminder: .+ \(game #(\d+)\) has waited for you")
CUSTOM_ID = re.compile(r"^floe:(\d+):(\d+):")
GLOBAL_SYNC = "PUT /applications/{application_id}/commands"


class ShardProcess:
    """One Ice Floe process running one shard (tests/e2e/shard_process.py), killed or stopped by the test."""

    def __init__(
        self, fake: FakeDiscord, shard: int, database_url: str, clock: Path, folder: Path, *, pause: float = 0.1
    ) -> None:
        self.fake = fake
        self.pause = pause
        self.shard = shard
        self.database_url = database_url
        self.clock = clock
        self.folder = folder
        self.runs = 0
        self.process: asyncio.subprocess.Process | None = None

    @property
    def log(self) -> Path:
        """Return the current run's stderr file."""
        return self.folder / f"shard{self.shard}-run{self.runs}.log"

    async def start(self) -> None:
        """Start the process and wait until its shard is connected."""
        self.runs += 1
        arguments = [
            *("--api", self.fake.api_base, "--gateway", self.fake.ws_url + "/", "--cdn", self.fake.base_url),
            *("--token", self.fake.token, "--database", self.database_url, "--clock", str(self.clock)),
            *("--shard", str(self.shard), "--shards", "2", "--pause", str(self.pause)),
        ]
        with self.log.open("wb") as stderr:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.shard_process", *arguments,
                cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=stderr,
            )
        assert self.process.stdout is not None
        async with asyncio.timeout(60):
            while raw := await self.process.stdout.readline():
                if raw.decode().strip() == "shard: ready":
                    return
        raise AssertionError(f"shard {self.shard} ended before it was ready:\n{self.log.read_text()[-3000:]}")

    async def kill(self) -> None:
        """End the process at once (SIGKILL): no clean-up runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> None:
        """Ask the process to shut down (SIGTERM), killing it if it does not."""
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), timeout=15)
        except TimeoutError:
            await self.kill()

    def errors(self) -> list[str]:
        """Return the ERROR lines and tracebacks every run of this process logged."""
        lines = []
        for run in range(1, self.runs + 1):
            text = (self.folder / f"shard{self.shard}-run{run}.log").read_text(errors="replace")
            lines += [line for line in text.splitlines() if line.startswith(("ERROR", "CRITICAL", "Traceback"))]
        return lines


async def answered(driver: Driver, user: FakeUser, command: str, channel: FakeChannel) -> str:
    """Run a slash command in a channel and return its public answer (the bots elsewhere never go quiet)."""
    result = await driver.slash(user, command, channel=channel).answered(within=30)
    assert not result.ephemeral, f"{command}: {result.content}"
    return result.content


async def open_against_bot(driver: Driver, host: FakeUser, channel: FakeChannel, kind: str) -> None:
    """Open a two-seat game against an easy computer player and start it."""
    await answered(driver, host, f"/game new game:{kind}", channel)
    await answered(driver, host, "/game addbot level:easy", channel)
    await answered(driver, host, "/game start", channel)


def reminders(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """Return the reminders posted in a channel."""
    return [m for m in fake.messages_in(channel) if REMINDER.match(m.content)]


def board_versions(fake: FakeDiscord, channel: FakeChannel) -> list[tuple[int, int]]:
    """Return (game, version) of every board message posted in a channel, from the components it was posted with.

    Later edits only grey a board out; after a crash the edit may reach an older board than the last one.
    """
    found = []
    for message in fake.messages_in(channel):
        for components in [v["components"] for v in message.versions] + [message.components]:
            ids = {CUSTOM_ID.match(c.get("custom_id") or "") for c in iter_components(components)}
            pairs = {(int(m.group(1)), int(m.group(2))) for m in ids if m is not None}
            if pairs:
                found += [pair for pair in pairs if pair[1] >= 1]
                break
    return found


def describe(fake: FakeDiscord, channel: FakeChannel, pairs: list[tuple[int, int]]) -> str:
    """Show the messages of a channel that carry these (game, version) pairs."""
    shown = []
    for message in fake.messages_in(channel):
        ids = [c.get("custom_id") or "" for c in iter_components(message.components)]
        if any(f"floe:{game}:{version}:" in cid for game, version in pairs for cid in ids):
            shown.append(f"#{message.id} {message.content[:120]!r} {ids}")
    return "\n".join(shown)


async def wait_for(predicate, what: str, within: float) -> None:  # type: ignore[no-untyped-def]
    """Poll an async predicate until it holds."""
    for _ in range(round(within / 0.1)):
        if await predicate():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def play_out(db: Database, ids: list[int], processes: list[ShardProcess], *, stalled_after: float = 60) -> None:
    """Wait until every game has finished, however slow the machine, failing once none has moved for a while."""
    loop = asyncio.get_running_loop()
    seen: dict[int, tuple[int, str]] = {}
    moved = loop.time()
    while True:
        rows = [await db.game(game_id) for game_id in ids]
        now = {row.id: (row.version, row.status) for row in rows}
        if all(status == FINISHED for _, status in now.values()):
            return
        if now != seen:
            seen, moved = now, loop.time()
        elif loop.time() - moved > stalled_after:
            stuck = [f"game {game_id} at version {version}" for game_id, (version, status) in now.items()
                     if status != FINISHED]
            errors = [process.errors() for process in processes]
            raise AssertionError(f"no game moved for {stalled_after:g} s: {', '.join(stuck)}; errors: {errors}")
        await asyncio.sleep(0.2)


async def test_two_shard_processes_share_postgresql_and_survive_a_kill(
    fake_discord: FakeDiscord, driver: Driver, postgres_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.recommended_shards = 2
    alice = driver.user("alice")
    guilds = [fake.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    channels: dict[tuple[int, str], FakeChannel] = {}
    for n, guild in enumerate(guilds):
        fake.add_member(guild, alice)
        for name in (*KINDS, "waiting"):
            channels[n, name] = fake.add_text_channel(guild, name)
    clock = tmp_path / "clock"
    set_clock(clock, START)
    shards = [ShardProcess(fake, n, postgres_url, clock, tmp_path) for n in (0, 1)]
    db = Database(postgres_url)
    await db.open()
    try:
        await asyncio.gather(*(shard.start() for shard in shards))
        assert len(fake.calls_to(GLOBAL_SYNC)) == 1, "the commands were synced by more than one process"

        # A person plays one move against a computer player on each shard, then keeps it waiting.
        acknowledged = {}
        for n in (0, 1):
            channel = channels[n, "waiting"]
            await open_against_bot(driver, alice, channel, "fish")
            tile = (await driver.autocomplete(alice, "/fish place tile:", channel=channel))[0]["value"]
            await answered(driver, alice, f"/fish place tile:{tile}", channel)
            row = await db.open_game_in(channel.id)
            assert row is not None and row.version >= 2
            acknowledged[n] = (row.id, {"type": "place", "tile": tile})

        # Computer players play all three games on both shards at once.
        for n in (0, 1):
            for kind in KINDS:
                await open_against_bot(driver, alice, channels[n, kind], kind)
                await answered(driver, alice, "/game resign hand_to_bot:easy", channels[n, kind])
        games = {key: await db.latest_game_in(channel.id) for key, channel in channels.items()}

        async def shard_one_mid_game() -> bool:
            rows = [await db.game(games[1, kind].id) for kind in KINDS]
            return all(row.version >= 3 for row in rows)

        await wait_for(shard_one_mid_game, "shard 1's games to get going", within=60)
        await shards[1].kill()
        statuses = [(await db.game(games[1, kind].id)).status for kind in KINDS]
        assert statuses != [FINISHED] * len(KINDS), "shard 1 was killed after its games ended"

        # Time passes while shard 1 is down: shard 0 reminds its own waiting player, never shard 1's.
        set_clock(clock, START + timedelta(hours=13))
        await driver.wait_for_message(channels[0, "waiting"], check=lambda m: bool(REMINDER.match(m.content)),
                                      within=20)
        await asyncio.sleep(1.0)
        assert reminders(fake, channels[1, "waiting"]) == []

        # The restarted shard 1 sends its overdue reminder and lets its computer players finish.
        await shards[1].start()
        await driver.wait_for_message(channels[1, "waiting"], check=lambda m: bool(REMINDER.match(m.content)),
                                      within=20)
        for n in (0, 1):
            await answered(driver, alice, "/game resign hand_to_bot:easy", channels[n, "waiting"])

        await play_out(db, [row.id for row in games.values()], shards)
        await asyncio.sleep(1.0)  # let any duplicate post or reminder show itself

        for n in (0, 1):
            assert len(reminders(fake, channels[n, "waiting"])) == 1, "a reminder was sent twice"
            game_id, action = acknowledged[n]
            log = await db.actions(game_id)
            assert log[0]["action"] == action and log[0]["user_id"] == alice.id
        for key, channel in channels.items():
            row = await db.game(games[key].id)
            log = await db.actions(row.id)
            assert [entry["version"] for entry in log] == list(range(2, row.version + 1)), key
            posted = board_versions(fake, channel)
            twice = [pair for pair in set(posted) if posted.count(pair) > 1]
            assert not twice, f"{key}: boards posted twice: {describe(fake, channel, twice)}"
            assert {version for _, version in posted} <= set(range(1, row.version + 1)), key
            assert (row.id, row.version) in posted, f"{key}: no final board"
            assert "**Final standings**" in fake.messages_in(channel)[-1].content, key
        assert len(fake.calls_to(GLOBAL_SYNC)) == 1, "the restarted process synced the commands again"
        for shard in shards:
            assert shard.errors() == [], f"shard {shard.shard} logged errors"
    finally:
        for shard in shards:
            with contextlib.suppress(Exception):
                await shard.stop()
        await db.close()


async def test_a_second_process_on_a_running_shard_refuses_to_start_and_names_the_owner(
    fake_discord: FakeDiscord, postgres_url: str, tmp_path: Path
) -> None:
    fake_discord.recommended_shards = 2
    clock = tmp_path / "clock"
    set_clock(clock, START)
    owner = ShardProcess(fake_discord, 1, postgres_url, clock, tmp_path)
    await owner.start()
    try:
        second = ShardProcess(fake_discord, 1, postgres_url, clock, tmp_path / "second")
        (tmp_path / "second").mkdir()
        try:
            await second.start()
        except AssertionError:
            pass
        else:
            raise AssertionError("a second process started on a shard that is already running")
        assert second.process is not None and await second.process.wait() == 3
        told = second.log.read_text()
        assert f"shard 1 of 2 is already run by {socket.gethostname()} pid {owner.process.pid}" in told, told
        await owner.kill()  # a SIGKILLed owner's shard is taken over by the next process
        await second.start()
        await second.stop()
    finally:
        await owner.stop()


async def test_a_partitioned_owner_stops_posting_its_successor_finishes_its_games_and_it_exits(
    fake_discord: FakeDiscord, driver: Driver, postgres: PostgresServer, postgres_url: str, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.recommended_shards = 2
    alice = driver.user("alice")
    guild = fake.add_guild("Shard 0", shard=(0, 2))
    fake.add_member(guild, alice)
    channels = {kind: fake.add_text_channel(guild, kind) for kind in KINDS}
    clock = tmp_path / "clock"
    set_clock(clock, START)
    proxy = FaultyProxy("127.0.0.1", postgres.port)
    await proxy.start()
    (tmp_path / "successor").mkdir()
    owner = ShardProcess(fake, 0, proxy.url(postgres_url), clock, tmp_path, pause=0.3)
    successor = ShardProcess(fake, 0, postgres_url, clock, tmp_path / "successor", pause=0.3)
    db = Database(postgres_url)
    await db.open()
    try:
        await owner.start()
        for kind, channel in channels.items():
            await open_against_bot(driver, alice, channel, kind)
            await answered(driver, alice, "/game resign hand_to_bot:easy", channel)
        games = {kind: await db.latest_game_in(channel.id) for kind, channel in channels.items()}

        async def mid_game() -> bool:
            return all([(await db.game(row.id)).version >= 3 for row in games.values()])

        await wait_for(mid_game, "the computer players to get going", within=60)
        proxy.black_hole()  # the owner is cut off from the database, not from Discord
        await asyncio.sleep(12)  # longer than STALE_AFTER_S: its lease session has gone silent
        frozen = {kind: await db.game(row.id) for kind, row in games.items()}
        await successor.start()
        proxy.heal()  # the old owner hears again: another process holds its shard, so it stops
        assert owner.process is not None
        assert await asyncio.wait_for(owner.process.wait(), 30) == 4, owner.log.read_text()[-3000:]

        await play_out(db, [row.id for row in games.values()], [owner, successor])
        await asyncio.sleep(1.0)
        for kind, channel in channels.items():
            row = await db.game(games[kind].id)
            assert frozen[kind].version < row.version or frozen[kind].status == FINISHED, kind
            posted = board_versions(fake, channel)
            twice = [pair for pair in set(posted) if posted.count(pair) > 1]
            assert not twice, f"{kind}: boards posted twice: {describe(fake, channel, twice)}"
            assert (row.id, row.version) in posted, f"{kind}: no final board"
            log = await db.actions(row.id)
            assert [entry["version"] for entry in log] == list(range(2, row.version + 1)), kind
        cut_off = "ERROR storage: the database is unavailable"  # the partition itself, rightly an outage
        assert [x for x in owner.errors() if x.startswith("ERROR") and not x.startswith(cut_off)] == [], owner.errors()
        assert successor.errors() == [], successor.errors()
    finally:
        for shard in (owner, successor):
            with contextlib.suppress(Exception):
                await shard.stop()
        await proxy.stop()
        await db.close()


def test_the_processes_never_read_a_half_written_clock(tmp_path: Path) -> None:
    path = tmp_path / "clock"
    set_clock(path, START)
    clock = FileClock(path)
    writing = threading.Event()

    def move_time_on() -> None:
        while not writing.is_set():
            set_clock(path, START + timedelta(hours=13))
            set_clock(path, START)

    writer = threading.Thread(target=move_time_on)
    writer.start()
    try:
        seen = {clock() for _ in range(3000)}
    finally:
        writing.set()
        writer.join()
    assert seen <= {START, START + timedelta(hours=13)}
