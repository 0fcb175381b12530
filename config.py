"""Read the bot's settings from the environment and an optional .env file (python-dotenv); the environment wins."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values, load_dotenv

DEFAULT_DATABASE_URL = "sqlite:///data/ice_floe.db"
DEFAULT_POOL_SIZE = 20
"""PostgreSQL connections a process keeps open at most: 10 refused a few moves "busy" in a 200-game burst."""
DEFAULT_REST_PER_SECOND = 40
"""Requests a second the whole fleet sends Discord (its global limit is 50 per token; a second may hold 4 more)."""
DEFAULT_DISCORD_API = "https://discord.com/api/v10"


@dataclass(frozen=True)
class Rate:
    """Allow `uses` uses within any `per_s` seconds."""

    uses: int
    per_s: float

    @classmethod
    def parse(cls, name: str, text: str) -> Rate | None:
        """Read "USES/SECONDS" (e.g. "2/60"); "off" means no limit; raise ValueError naming the setting."""
        text = text.strip().lower()
        if text == "off":
            return None
        uses, slash, seconds = text.partition("/")
        try:
            rate = cls(int(uses), float(seconds))
        except ValueError:
            rate = None
        if not slash or rate is None or rate.uses < 1 or not 0 < rate.per_s <= 86400:
            raise ValueError(f"{name} must look like 2/60 (uses per seconds, at most a day) or off (got {text!r})")
        return rate

    def __str__(self) -> str:
        return f"{self.uses}/{self.per_s:g}"


@dataclass(frozen=True)
class LimitSettings:
    """How often public-posting and costly commands may be used; see .env.example for each setting."""

    per_user: Rate | None = Rate(2, 60)
    """Each public-posting command (status, leaderboard, replay, new, lobby notes), per user."""
    per_channel: Rate | None = Rate(4, 60)
    """Each public-posting command but lobby notes, per channel."""
    threads_per_user: Rate | None = Rate(2, 600)
    """New game threads (`/game new thread:true`), per user."""
    threads_per_server: Rate | None = Rate(10, 600)
    """New game threads, per server."""
    lobbies_per_user: int = 3
    """Open lobbies one user may host in one server at a time."""
    sign_ins_per_address: Rate | None = Rate(30, 60)
    """Table sign-ins (OAuth2 code exchanges), per client address."""
    sign_ins_per_user: Rate | None = Rate(6, 60)
    """Table sign-ins, per Discord user."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LimitSettings:
        """Read the LIMIT_* settings; empty ones keep their defaults."""
        default = cls()
        rates: dict[str, Rate | None] = {}
        for attribute, name in (
            ("per_user", "LIMIT_PER_USER"),
            ("per_channel", "LIMIT_PER_CHANNEL"),
            ("threads_per_user", "LIMIT_THREADS_PER_USER"),
            ("threads_per_server", "LIMIT_THREADS_PER_SERVER"),
            ("sign_ins_per_address", "LIMIT_SIGN_INS_PER_ADDRESS"),
            ("sign_ins_per_user", "LIMIT_SIGN_INS_PER_USER"),
        ):
            text = env.get(name, "").strip()
            rates[attribute] = Rate.parse(name, text) if text else getattr(default, attribute)
        lobbies = env.get("LIMIT_LOBBIES_PER_USER", "").strip()
        if lobbies and (not lobbies.isdigit() or int(lobbies) < 1):
            raise ValueError(f"LIMIT_LOBBIES_PER_USER must be a whole number of at least 1 (got {lobbies!r})")
        return cls(**rates, lobbies_per_user=int(lobbies) if lobbies else default.lobbies_per_user)


def read_env_file(path: Path) -> dict[str, str]:
    """Read KEY=VALUE settings from a .env file with python-dotenv (no ${VAR} expansion); {} when there is none."""
    if not path.is_file():
        return {}
    return {key: value for key, value in dotenv_values(path, interpolate=False).items() if value is not None}


def load_env_file(path: Path = Path(".env")) -> None:
    """Copy the .env settings the environment does not set into it, for what worker processes read (ICE_FLOE_*)."""
    if path.is_file():
        load_dotenv(path, override=False, interpolate=False)


@dataclass(frozen=True)
class Settings:
    """Hold every setting the bot reads; see .env.example for each one."""

    token: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    db_pool_size: int = DEFAULT_POOL_SIZE
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    metrics_port: int | None = None
    """Serve /healthz and /metrics on this port; None: no HTTP endpoint."""
    metrics_host: str = "127.0.0.1"
    limits: LimitSettings = field(default_factory=LimitSettings)
    table_port: int | None = None
    """Serve the table (the Discord Activity) on this port; None: no table."""
    table_host: str = "127.0.0.1"
    table_public_url: str | None = None
    """The public HTTPS address the Developer Portal's URL mapping points at (shown in docs and logs)."""
    table_proxy_hops: int = 0
    """How many reverse proxies in front of the table append to X-Forwarded-For (0: the socket's peer is the client)."""
    discord_client_id: str | None = None
    discord_client_secret: str | None = None
    discord_api: str = DEFAULT_DISCORD_API
    """Where OAuth2 codes are exchanged and users read (tests point it at a fake)."""
    answers_dir: str | None = None
    """Where this process keeps answers it promised before their move was saved; None: see `answers_folder`."""
    rest_per_second: int = DEFAULT_REST_PER_SECOND
    """Discord REST requests a second for every process of the bot together (ui/rest_limit.py)."""

    def answers_folder(self) -> Path:
        """Return the folder of the answers journal: ANSWERS_DIR, else the SQLite file's folder, else ./data."""
        if self.answers_dir:
            return Path(self.answers_dir)
        url = self.database_url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            return Path(url[len("sqlite:///") :]).parent
        return Path("data")

    @property
    def table(self) -> bool:
        """Tell whether the table is configured: a port, the application's client ID and its secret."""
        return self.table_port is not None and bool(self.discord_client_id) and bool(self.discord_client_secret)

    @property
    def sharded(self) -> bool:
        """Tell whether SHARD_COUNT asks for discord.py's AutoShardedBot on chosen shards."""
        return self.shard_count is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")) -> Settings:
        """Build settings from a .env file overlaid by the process environment."""
        merged = read_env_file(env_file) if env_file is not None else {}
        merged.update(os.environ if env is None else env)
        guild = merged.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server ID made of digits (got {guild!r})")
        shard_count, shard_ids = parse_shards(merged.get("SHARD_COUNT", ""), merged.get("SHARD_IDS", ""))
        return cls(
            token=merged.get("DISCORD_TOKEN", "").strip() or None,
            database_url=merged.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=int(guild) if guild else None,
            log_level=(merged.get("LOG_LEVEL", "").strip() or "INFO").upper(),
            db_pool_size=positive("DB_POOL_SIZE", merged.get("DB_POOL_SIZE", "")) or DEFAULT_POOL_SIZE,
            shard_count=shard_count,
            shard_ids=shard_ids,
            metrics_port=port("METRICS_PORT", merged.get("METRICS_PORT", "")),
            metrics_host=merged.get("METRICS_HOST", "").strip() or "127.0.0.1",
            limits=LimitSettings.from_env(merged),
            table_port=port("TABLE_PORT", merged.get("TABLE_PORT", "")),
            table_host=merged.get("TABLE_HOST", "").strip() or "127.0.0.1",
            table_public_url=merged.get("TABLE_PUBLIC_URL", "").strip().rstrip("/") or None,
            table_proxy_hops=hops(merged.get("TABLE_PROXY_HOPS", "")),
            discord_client_id=client_id(merged.get("DISCORD_CLIENT_ID", "")),
            discord_client_secret=merged.get("DISCORD_CLIENT_SECRET", "").strip() or None,
            discord_api=merged.get("DISCORD_API", "").strip().rstrip("/") or DEFAULT_DISCORD_API,
            answers_dir=merged.get("ANSWERS_DIR", "").strip() or None,
            rest_per_second=positive("DISCORD_REST_PER_SECOND", merged.get("DISCORD_REST_PER_SECOND", ""))
            or DEFAULT_REST_PER_SECOND,
        )


def client_id(text: str) -> str | None:
    """Read DISCORD_CLIENT_ID (the application's ID, digits); None when empty."""
    text = text.strip()
    if text and not text.isdigit():
        raise ValueError(f"DISCORD_CLIENT_ID must be the application's ID made of digits (got {text!r})")
    return text or None


def hops(text: str) -> int:
    """Read TABLE_PROXY_HOPS (0-5); 0 when empty."""
    text = text.strip()
    if text and (not text.isdigit() or int(text) > 5):
        raise ValueError(f"TABLE_PROXY_HOPS must be a whole number from 0 to 5 (got {text!r})")
    return int(text) if text else 0


def positive(name: str, text: str) -> int | None:
    """Read a positive whole number setting; None when empty."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1 (got {text!r})")
    return int(text)


def port(name: str, text: str) -> int | None:
    """Read a TCP port setting (1-65535); None when empty."""
    value = positive(name, text)
    if value is not None and value > 65535:
        raise ValueError(f"{name} must be a port number from 1 to 65535 (got {text.strip()!r})")
    return value


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """Read SHARD_COUNT and SHARD_IDS ("0,1", "0-3", "0-1,4"); SHARD_COUNT alone means every shard."""
    count = positive("SHARD_COUNT", count_text)
    ids_text = ids_text.strip()
    if not ids_text:
        return count, None if count is None else tuple(range(count))
    if count is None:
        raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards across every process)")
    ids: set[int] = set()
    for part in ids_text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"SHARD_IDS must look like 0,1 or 0-3 (got {ids_text!r})")
        ids.update(range(int(low), int(high if dash else low) + 1))
    if not ids or max(ids) >= count:
        raise ValueError(f"SHARD_IDS must name shards from 0 to {count - 1} (got {ids_text!r})")
    return count, tuple(sorted(ids))
