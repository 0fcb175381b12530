"""Start a throwaway PostgreSQL server for the tests (initdb + pg_ctl into a temporary folder)."""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

REQUIRE = "ICE_FLOE_REQUIRE_POSTGRES"


class PostgresUnavailable(Exception):
    """Raise when this machine cannot run a throwaway PostgreSQL server."""


def find_bin() -> Path:
    """Return the newest /usr/lib/postgresql/*/bin that has initdb and pg_ctl."""
    found = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if not found:
        raise PostgresUnavailable("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
    return found[-1]


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """Run one PostgreSQL server on 127.0.0.1 for a test session; hand out a fresh schema per test."""

    def __init__(self) -> None:
        self.bin = find_bin()
        self.user: str | None = None
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: run it as Debian's unprivileged postgres user.
            try:
                pwd.getpwnam("postgres")
            except KeyError as exc:
                raise PostgresUnavailable("running as root and there is no 'postgres' user to run the server") from exc
            self.user = "postgres"
        self.folder = Path(tempfile.mkdtemp(prefix="ice-floe-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        subprocess.run(args, check=True, capture_output=True, user=self.user, cwd=self.folder)

    def start(self) -> None:
        """Create the cluster and start the server (no fsync: a test server loses nothing that matters)."""
        if self.user is not None:
            shutil.chown(self.folder, self.user, self.user)
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync",
        )
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", self._options(), "-l", str(self.folder / "log"),
                  "-w", "-t", "60", "start")

    def halt(self) -> None:
        """Shut the server down as an operator would for a restart (clients are disconnected); keep its data."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start a halted server again on the same port and data."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", self._options(), "-l",
                  str(self.folder / "log"), "-w", "-t", "60", "start")

    def _options(self) -> str:
        return (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def root_url(self) -> str:
        """Return the URL of the server's default database."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def fresh_url(self) -> str:
        """Create an empty schema and return a DATABASE_URL whose tables all land in it."""
        return asyncio.run(self.new_schema())

    async def new_schema(self) -> str:
        """Create an empty schema and return a DATABASE_URL whose tables all land in it (from a running loop)."""
        name = f"t{next(self._names)}"
        await self._execute(f"CREATE SCHEMA {name}")
        return f"{self.root_url}?search_path={name}"

    async def _execute(self, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.root_url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()


def start_server() -> PostgresServer:
    """Start a server, or raise PostgresUnavailable saying why it cannot."""
    server = PostgresServer()
    try:
        server.start()
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        server.stop()
        raise PostgresUnavailable(f"the throwaway PostgreSQL server did not start: {exc} {detail[-300:]!r}") from exc
    return server
