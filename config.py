"""Read the bot's settings from the environment and an optional .env file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_URL = "sqlite:///data/ice_floe.db"


def read_env_file(path: Path) -> dict[str, str]:
    """Parse KEY=VALUE lines from a .env file, skipping blanks and comments."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


@dataclass(frozen=True)
class Settings:
    """Hold every setting the bot reads; see .env.example for each one."""

    token: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")) -> Settings:
        """Build settings from a .env file overlaid by the process environment."""
        merged = read_env_file(env_file) if env_file is not None else {}
        merged.update(os.environ if env is None else env)
        guild = merged.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server ID made of digits (got {guild!r})")
        return cls(
            token=merged.get("DISCORD_TOKEN", "").strip() or None,
            database_url=merged.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=int(guild) if guild else None,
            log_level=(merged.get("LOG_LEVEL", "").strip() or "INFO").upper(),
        )
