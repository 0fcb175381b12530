"""The fake gateway: HELLO, IDENTIFY, heartbeats, READY, GUILD_CREATE, dispatches, RESUME and reconnects."""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .fake_discord import FakeDiscord

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

# Client close codes after which Discord forgets the session (discord.py closes with 1000 on Client.close()).
TERMINAL_CLIENT_CLOSE_CODES = frozenset({1000, 1001})


GUILD_EVENTS_KEYED_BY_ID = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def guild_of_event(event: str, data: dict[str, Any]) -> int | None:
    """Return the guild a dispatch belongs to, or None (direct messages, the bot's own user)."""
    raw = data.get("id") if event in GUILD_EVENTS_KEYED_BY_ID else data.get("guild_id")
    return int(raw) if raw else None


@dataclass(eq=False)
class GatewaySession:
    """A gateway session: its sequence number and every dispatch sent in it, for RESUME."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None
    terminated: bool = False
    resumed: int = 0

    def serves(self, guild_id: int | None) -> bool:
        """Tell whether this session receives a guild's events: its shard is (guild_id >> 22) % shard_count.

        Events without a guild (direct messages) go to shard 0, as on Discord; an unsharded session gets all.
        """
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        return ((guild_id or 0) >> 22) % shard_count == shard_id

    def wants(self, intent: int | None) -> bool:
        """Tell whether this session subscribed to an intent (None: always)."""
        return intent is None or bool(self.intents & intent)

    def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Number, store and (if connected) send a dispatch; return its sequence number."""
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        if self.connection is not None and not self.connection.closed:
            self.connection.send(frame)
        return self.seq


class GatewayConnection:
    """One websocket connection, with an ordered writer so sends never interleave."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request
        self.path = request.path
        self.query = dict(request.query)
        self.session: GatewaySession | None = None
        self.closed = False
        self.dropped = False
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._sending = False
        self._writer = asyncio.create_task(self._write(), name="fake-discord-gateway-writer")

    @property
    def busy(self) -> bool:
        """Tell whether frames are still waiting to be written."""
        return self._sending or not self._queue.empty()

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame for sending."""
        self._queue.put_nowait(frame)

    async def _write(self) -> None:
        while True:
            frame = await self._queue.get()
            if frame is None:
                return
            self._sending = True
            try:
                await self.ws.send_str(json.dumps(frame, separators=(",", ":")))
            except (ConnectionError, RuntimeError):
                self.closed = True
            finally:
                self._sending = False

    async def stop(self) -> None:
        """Stop the writer after it has sent what is queued."""
        self.closed = True
        self._queue.put_nowait(None)
        try:
            await asyncio.wait_for(self._writer, timeout=1)
        except (TimeoutError, asyncio.CancelledError):
            self._writer.cancel()


class GatewayServer:
    """Serve the gateway websocket and route dispatches to the bot's sessions."""

    def __init__(self, fake: FakeDiscord, *, heartbeat_interval_ms: int = 41250) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.received: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.connect_paths: list[str] = []
        self.down = False
        """True while the gateway refuses every connection (503), as during a Discord outage."""

    @property
    def current(self) -> GatewaySession | None:
        """Return the newest session the bot has not ended."""
        live = [s for s in self.sessions.values() if not s.terminated]
        return live[-1] if live else None

    @property
    def connected(self) -> bool:
        """Tell whether the current session has a live connection."""
        session = self.current
        return session is not None and session.connection is not None and not session.connection.closed

    @property
    def busy(self) -> bool:
        """Tell whether any connection still has frames to write."""
        return any(conn.busy for conn in self.connections if not conn.closed)

    def describe(self) -> str:
        """Return a one-line state summary for error messages."""
        session = self.current
        if session is None:
            return "gateway: no bot session"
        state = "connected" if self.connected else "disconnected (resumable)"
        return f"gateway: session {session.id[:8]} {state}, seq {session.seq}, resumed {session.resumed}x"

    def dispatch(self, event: str, data: dict[str, Any], *, intent: int | None = None) -> None:
        """Send a dispatch to every live session subscribed to `intent` whose shard holds the event's guild."""
        guild_id = guild_of_event(event, data)
        for session in list(self.sessions.values()):
            if not session.terminated and session.wants(intent) and session.serves(guild_id):
                session.dispatch(event, data)

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """Return the newest live session whose shard holds this guild (None: direct messages)."""
        live = [s for s in self.sessions.values() if not s.terminated and s.serves(guild_id)]
        return live[-1] if live else None

    def dispatch_interaction(self, payload: dict[str, Any]) -> GatewaySession:
        """Send INTERACTION_CREATE on the guild's shard (buffered while that session is disconnected); return it."""
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        session = self.session_for(guild_id)
        if session is None:
            raise RuntimeError("no bot is connected to the fake Discord gateway (start the bot first)")
        session.dispatch("INTERACTION_CREATE", payload)
        return session

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Run one gateway websocket connection."""
        if self.down:
            raise web.HTTPServiceUnavailable()
        ws = web.WebSocketResponse(max_msg_size=0, heartbeat=None)
        await ws.prepare(request)
        conn = GatewayConnection(ws, request)
        self.connections.append(conn)
        self.connect_paths.append(request.path)
        if request.query.get("v") != "10" or request.query.get("encoding", "json") != "json":
            self.fake.problem(f"gateway connected with unsupported query {dict(request.query)}")
            await ws.close(code=4012, message=b"Invalid API version")
            return ws
        conn.send(
            {"op": HELLO, "s": None, "t": None, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        )
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    self.fake.problem("gateway received a binary frame; the fake only speaks JSON text")
                    await ws.close(code=4002, message=b"Decode error")
        finally:
            await conn.stop()
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                if ws.close_code in TERMINAL_CLIENT_CLOSE_CODES and not conn.dropped:
                    session.terminated = True
            self.fake.notify()
        return ws

    async def _on_frame(self, conn: GatewayConnection, frame: dict[str, Any]) -> None:
        self.received.append(frame)
        op = frame.get("op")
        data = frame.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            conn.send({"op": HEARTBEAT_ACK, "s": None, "t": None, "d": None})
        elif op == IDENTIFY:
            await self._identify(conn, data)
        elif op == RESUME:
            await self._resume(conn, data)
        elif conn.session is None:
            await conn.ws.close(code=4003, message=b"Not authenticated")
        elif op == REQUEST_GUILD_MEMBERS:
            self._send_member_chunks(conn.session, data)
        elif op not in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            self.fake.problem(f"gateway received unknown opcode {op}: {frame}")
            await conn.ws.close(code=4001, message=b"Unknown opcode")
        self.fake.notify()

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated")
            return
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]
        ):
            self.fake.problem(f"gateway IDENTIFY with an invalid shard {shard!r}")
            await conn.ws.close(code=4010, message=b"Invalid shard")
            return
        if shard is not None:
            # A new IDENTIFY for a shard replaces that shard's old session (a restarted process).
            for old in self.sessions.values():
                if old.shard == shard:
                    old.terminated = True
        session = GatewaySession(id=secrets.token_hex(16), intents=int(data.get("intents", 0)), shard=shard)
        self.sessions[session.id] = session
        conn.session = session
        session.connection = conn
        ready = {
            "v": 10,
            "user": {**self.fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [
                {"id": str(guild.id), "unavailable": True}
                for guild in self.fake.guilds.values()
                if guild.bot_member and session.serves(guild.id)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": f"{self.fake.ws_url}/resume",
            "application": {"id": str(self.fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["fake-discord"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        session.dispatch("READY", ready)
        for guild in self.fake.guilds.values():
            if guild.bot_member and session.serves(guild.id):
                session.dispatch("GUILD_CREATE", guild.create_payload())

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        self.resumes.append(data)
        session = self.sessions.get(data.get("session_id", ""))
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return
        if session is None or session.terminated:
            conn.send({"op": INVALID_SESSION, "s": None, "t": None, "d": False})
            return
        if session.connection is not None:
            # The old socket's close may not have been processed yet: the resume takes the session over.
            session.connection.dropped = True
            session.connection.closed = True
        seq = data.get("seq") or 0
        if seq > session.seq:
            await conn.ws.close(code=4007, message=b"Invalid seq")
            return
        conn.session = session
        session.connection = conn
        session.resumed += 1
        for frame in session.buffer:
            if frame["s"] > seq:
                conn.send(frame)
        session.dispatch("RESUMED", {"_trace": ["fake-discord"]})

    def _send_member_chunks(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.fake.guilds.get(int(data["guild_id"]))
        members = list(guild.members.values()) if guild else []
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(user_id) for user_id in user_ids}
            members = [m for m in members if m.user.id in wanted]
        query = data.get("query") or ""
        members = [m for m in members if m.user.name.startswith(query)]
        chunk: dict[str, Any] = {
            "guild_id": str(data["guild_id"]),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def drop(self, *, code: int = 4000, abrupt: bool = False) -> None:
        """Cut the current session's connection; the session stays resumable."""
        session = self.current
        if session is None or session.connection is None:
            raise RuntimeError("no connected gateway session to drop")
        conn = session.connection
        conn.dropped = True
        conn.closed = True
        session.connection = None
        if abrupt and conn.request.transport is not None:
            conn.request.transport.abort()
        else:
            await conn.ws.close(code=code, message=b"dropped by the harness")

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT on the current connection."""
        session = self.current
        if session is None or session.connection is None:
            raise RuntimeError("no connected gateway session to ask for a reconnect")
        session.connection.send({"op": RECONNECT, "s": None, "t": None, "d": None})

    def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION on the current connection (not resumable: the bot identifies again)."""
        session = self.current
        if session is None or session.connection is None:
            raise RuntimeError("no connected gateway session to invalidate")
        if not resumable:
            session.terminated = True
        session.connection.send({"op": INVALID_SESSION, "s": None, "t": None, "d": resumable})

    async def close_all(self) -> None:
        """Close every connection (server shutdown)."""
        for conn in self.connections:
            if not conn.ws.closed:
                await conn.ws.close(code=1001, message=b"fake Discord shutting down")
            await conn.stop()
