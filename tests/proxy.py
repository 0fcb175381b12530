"""Stand between the bot and PostgreSQL as a TCP proxy that can fail the way networks do.

`reset()` ends every connection with a TCP reset; `black_hole()` stops every byte in both directions (new
connections too) as a partition would, keeping what was sent for delivery after `heal()` like TCP
retransmission does, and losing the FIN of a connection closed meanwhile (its other side stays open, as a
dead peer's does); `drop_commit_replies(n)` lets the next n COMMITs reach the server, then swallows the
server's reply and resets the client's connection, so the client never learns that its change was saved;
`reset_after_commits(n)` delivers the next n COMMITs' replies and then resets, as a connection dying right
after its COMMIT would.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct


class Link:
    """One client connection and the server connection it is relayed to."""

    def __init__(self, client: asyncio.StreamWriter, server: asyncio.StreamWriter) -> None:
        self.client = client
        self.server = server
        self.drop_replies = False
        self.reset_after_reply = False
        self.tasks: list[asyncio.Task[None]] = []

    def reset(self) -> None:
        """End both sides at once with a TCP reset."""
        for writer in (self.client, self.server):
            raw = writer.get_extra_info("socket")
            with contextlib.suppress(OSError, AttributeError):
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()


class FaultyProxy:
    """Relay 127.0.0.1:port to a server, failing on demand."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.links: list[Link] = []
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.commits_to_drop = 0
        self.commits_dropped = 0
        self.commits_to_reset_after = 0
        self.writes: bytes | None = None
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        """Listen on a free port."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Stop listening and end every connection."""
        self.heal()
        if self._server is not None:
            self._server.close()
        for link in self.links:
            link.reset()
            for task in link.tasks:
                task.cancel()
        self.links.clear()

    def url(self, database_url: str) -> str:
        """Return a DATABASE_URL that reaches the same database through this proxy."""
        return database_url.replace(f":{self.target[1]}/", f":{self.port}/", 1)

    def reset(self) -> None:
        """Reset every open connection (the server restarting, a NAT dropping its table, a cable pulled)."""
        for link in self.links:
            link.reset()
        self.links.clear()

    def black_hole(self) -> None:
        """Stop every byte in both directions until `heal()`, as a network partition does."""
        self.flowing.clear()

    def heal(self) -> None:
        """Let bytes through again (what was held back is delivered now)."""
        self.flowing.set()

    def drop_commit_replies(self, count: int = 1, *, writes: bytes | None = None) -> None:
        """Let the next `count` COMMITs through, then lose the server's reply to each and reset that client.

        With `writes`, a statement whose bytes carry it (a value it writes) counts as a COMMIT too: a write run
        as its own transaction commits without one.
        """
        self.commits_to_drop = count
        self.writes = writes

    def reset_after_commits(self, count: int = 1) -> None:
        """Deliver the replies to the next `count` COMMITs, then reset each of those connections."""
        self.commits_to_reset_after = count

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.flowing.wait()  # during a partition a new connection never reaches the server
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        link = Link(writer, server_writer)
        self.links.append(link)
        link.tasks = [
            asyncio.create_task(self._pump(link, reader, server_writer, upstream=True)),
            asyncio.create_task(self._pump(link, server_reader, writer, upstream=False)),
        ]

    async def _pump(
        self, link: Link, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, upstream: bool
    ) -> None:
        """Relay one direction; in a partition hold bytes back, and lose them if their sender leaves meanwhile."""
        held = bytearray()
        try:
            while True:
                read = asyncio.ensure_future(reader.read(65536))
                if held:  # wait for the partition to heal, watching whether the sender gives up
                    heal = asyncio.ensure_future(self.flowing.wait())
                    await asyncio.wait({read, heal}, return_when=asyncio.FIRST_COMPLETED)
                    if not read.done():
                        read.cancel()
                        if not await self._relay(link, bytes(held), writer, upstream=upstream):
                            return
                        held.clear()
                        continue
                    heal.cancel()
                data = await read
                if not data:
                    break
                if not self.flowing.is_set():
                    held += data
                elif not await self._relay(link, data, writer, upstream=upstream):
                    return
        except (ConnectionError, OSError):
            pass
        if not self.flowing.is_set():
            return  # lost in the partition: what was held back, and the FIN, never reach the other side
        with contextlib.suppress(Exception):
            writer.close()

    async def _relay(self, link: Link, data: bytes, writer: asyncio.StreamWriter, *, upstream: bool) -> bool:
        """Pass bytes on (or lose a COMMIT's reply); return False once the link is reset."""
        commits = _is_commit(data) or (self.writes is not None and self.writes in data)
        if upstream and self.commits_to_drop and commits:
            self.commits_to_drop -= 1
            link.drop_replies = True
        elif upstream and self.commits_to_reset_after and _is_commit(data):
            self.commits_to_reset_after -= 1
            link.reset_after_reply = True
        elif not upstream and link.drop_replies:
            self.commits_dropped += 1
            link.reset()
            return False
        writer.write(data)
        await writer.drain()
        if not upstream and link.reset_after_reply:
            await asyncio.sleep(0.2)  # the client has read the reply by now: only then does the connection die
            link.reset()
            return False
        return True


def _is_commit(data: bytes) -> bool:
    """Tell whether a client's bytes carry a simple-query COMMIT (asyncpg commits that way)."""
    return data[:1] == b"Q" and b"COMMIT" in data.upper()
