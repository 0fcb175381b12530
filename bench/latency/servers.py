"""Where the postgres setup runs: a throwaway server started for the run, or a server the operator names."""

from __future__ import annotations

import itertools
import os
from typing import Any


class NamedServer:
    """Hand out a fresh schema per level on a PostgreSQL server given by its URL (--database)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._names = itertools.count(1)

    async def new_schema(self) -> str:
        """Create an empty schema and return a DATABASE_URL whose tables all land in it."""
        import asyncpg

        name = f"bench_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"CREATE SCHEMA {name}")
        finally:
            await conn.close()
        joiner = "&" if "?" in self.url else "?"
        return f"{self.url}{joiner}search_path={name}"

    def stop(self) -> None:
        """Leave the server running (the schemas stay, for a look afterwards)."""


def postgres_server(url: str | None) -> Any:
    """Return the server the postgres setup runs on: the one at `url`, or a throwaway one started now."""
    if url:
        return NamedServer(url)
    from tests.postgres import start_server

    return start_server()
