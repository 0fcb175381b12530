"""Answer /healthz and /metrics on METRICS_HOST:METRICS_PORT with aiohttp, beside the bot on its event loop.

/healthz says 200 when the gateway is connected on every shard, the database answers within a second (and
its last write was not refused as busy) and the process holds every shard it should, else 503; the JSON body
says which check failed. /metrics is the Prometheus text format (monitor/metrics.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from monitor.metrics import ErrorLines, Watched, registry_for
from storage.errors import StorageError, describe

log = logging.getLogger(__name__)

PING_TIMEOUT_S = 1.0


class MonitorServer:
    """Serve one bot's health and metrics until stopped."""

    def __init__(self, bot: Watched, port: int, host: str = "127.0.0.1") -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self.errors = ErrorLines()
        self.registry = registry_for(bot, self.errors)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen on the configured address."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        logging.getLogger().addHandler(self.errors)
        log.info("health and metrics on http://%s:%s/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        """Stop listening."""
        logging.getLogger().removeHandler(self.errors)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def health(self) -> dict[str, Any]:
        """Check the gateway, the database and the shards; return what each check found."""
        bot = self.bot
        shards = getattr(bot, "shards", None)
        if shards:
            gateway = {str(i): not info.is_closed() for i, info in sorted(shards.items())}
        else:
            ws = getattr(bot, "ws", None)  # the current gateway connection: closed while Discord is away
            gateway = {"0": bot.is_ready() and not bot.is_closed() and ws is not None and ws.open}
        try:
            await asyncio.wait_for(bot.db.backend.ping(), PING_TIMEOUT_S)
            database = "ok"
        except TimeoutError:
            database = f"no answer within {PING_TIMEOUT_S:g} s"
        except StorageError as exc:
            database = getattr(exc, "cause", None) or str(exc)
        except Exception as exc:  # whatever the driver raised, the check failed: say what it was
            database = describe(exc)
        busy_since = bot.db.backend.outage.busy_since
        if database == "ok" and busy_since is not None:  # the ping reads; writes are what players wait for
            database = f"busy: writes refused for {time.monotonic() - busy_since:.0f} s (the database is locked)"
        missing = [s for s in bot.lease.shards.ids if s not in bot.lease.held]
        healthy = bot.is_ready() and all(gateway.values()) and database == "ok" and not missing
        return {
            "healthy": healthy,
            "gateway": gateway,
            "database": database,
            "shards": {"count": bot.lease.shards.count, "held": list(bot.lease.held), "missing": missing},
        }

    async def healthz(self, request: web.Request) -> web.Response:
        """Answer 200 with the checks when all pass, else 503."""
        found = await self.health()
        return web.json_response(found, status=200 if found["healthy"] else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        """Answer the Prometheus text format."""
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
