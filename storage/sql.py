"""Say what every database backend offers (rows, transactions, the backend itself), whatever its driver."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from storage.errors import Outage

Row = Mapping[str, Any]
T = TypeVar("T")


@dataclass
class Trips:
    """Count what the bot asked its database: round trips (each a wait for an answer) and commits.

    On PostgreSQL a round trip is one request the client sends and waits on (BEGIN, each statement, COMMIT,
    ROLLBACK, a read); on SQLite it is one hop to a connection's thread. A commit is a transaction made durable:
    a COMMIT, or a write run on its own. bench.latency prints both per saved move; tests hold a move to its budget.
    """

    round_trips: int = 0
    commits: int = 0

    def snapshot(self) -> tuple[int, int]:
        """Return the counts so far (round trips, commits)."""
        return self.round_trips, self.commits


class Tx(Protocol):
    """Run statements inside one transaction."""

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Return every row of a query."""
        ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run a statement and return how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run a statement once per row of arguments."""
        ...


class Backend(Protocol):
    """Open, migrate and query one database."""

    dialect: str

    async def open(self) -> None:
        """Connect and apply pending migrations."""
        ...

    async def close(self) -> None:
        """Disconnect."""
        ...

    async def schema_version(self) -> int:
        """Return how many migrations the database has."""
        ...

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Return every row of a read-only query, without waiting for writers."""
        ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one write in its own transaction and return how many rows it changed."""
        ...

    async def write(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Run one write in its own transaction (one round trip, one commit) and return the rows it returns."""
        ...

    def transaction(self) -> Any:
        """Return an async context manager yielding a Tx; commit on success, roll back on error."""
        ...

    async def run(self, job: Callable[[Tx], Awaitable[T]], *, urgent: bool = False) -> T:
        """Run a transaction's body, which awaits nothing but its Tx, as one transaction; return its result.

        SQLite runs the whole body in one trip to its writer thread, so a busy event loop delays a move's save
        once, not at every statement; an `urgent` one goes before the other writes waiting for the writer.
        """
        ...

    outage: Outage
    trips: Trips

    async def ping(self) -> None:
        """Run the cheapest query; raise StorageError when the database does not answer."""
        ...

    def in_use(self) -> int:
        """Return how many connections are busy with a query or transaction right now."""
        ...

    def stream(self, sql: str, args: Sequence[Any] = (), batch: int = 1000) -> AsyncIterator[list[Row]]:
        """Yield the rows of a large read a batch at a time, never all at once."""
        ...
