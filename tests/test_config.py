"""Check settings read through python-dotenv: .env syntax, the environment winning, and clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import DEFAULT_DATABASE_URL, DEFAULT_POOL_SIZE, Rate, Settings, load_env_file, read_env_file

ROOT = Path(__file__).resolve().parent.parent


def test_a_env_file_reads_quotes_exports_comments_and_dollar_signs_as_written(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# a comment\n"
        "export DISCORD_TOKEN='abc.def'\n"
        'DATABASE_URL="postgresql://ice:pa$$word@db:5432/floe"\n'
        "LOG_LEVEL=debug  # inline comment\n"
        "DEV_GUILD_ID=\n"
        "NOT_A_SETTING\n"
    )
    values = read_env_file(env_file)
    assert values["DISCORD_TOKEN"] == "abc.def"
    assert values["DATABASE_URL"] == "postgresql://ice:pa$$word@db:5432/floe"
    assert values["LOG_LEVEL"] == "debug" and values["DEV_GUILD_ID"] == ""
    assert "NOT_A_SETTING" not in values
    settings = Settings.from_env({}, env_file)
    assert (settings.token, settings.log_level, settings.dev_guild_id) == ("abc.def", "DEBUG", None)


def test_a_missing_env_file_gives_the_defaults(tmp_path: Path) -> None:
    assert read_env_file(tmp_path / "absent") == {}
    assert Settings.from_env({}, tmp_path / "absent") == Settings(database_url=DEFAULT_DATABASE_URL)


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DB_POOL_SIZE=4\nSHARD_COUNT=2\n")
    settings = Settings.from_env({"DB_POOL_SIZE": "7"}, env_file)
    assert (settings.db_pool_size, settings.shard_count, settings.shard_ids) == (7, 2, (0, 1))


def test_a_bad_value_in_the_env_file_is_refused_by_name(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DB_POOL_SIZE=lots\n")
    with pytest.raises(ValueError, match=r"DB_POOL_SIZE must be a whole number of at least 1 \(got 'lots'\)"):
        Settings.from_env({}, env_file)


def test_loading_the_env_file_fills_only_what_the_environment_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("ICE_FLOE_WORKERS=thread\nICE_FLOE_TEST_ONLY_SETTING=from-file\n")
    monkeypatch.setenv("ICE_FLOE_WORKERS", "process")
    monkeypatch.delenv("ICE_FLOE_TEST_ONLY_SETTING", raising=False)
    load_env_file(env_file)
    try:
        assert os.environ["ICE_FLOE_WORKERS"] == "process"
        assert os.environ["ICE_FLOE_TEST_ONLY_SETTING"] == "from-file"
    finally:
        os.environ.pop("ICE_FLOE_TEST_ONLY_SETTING", None)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("DEV_GUILD_ID=my server", "DEV_GUILD_ID must be a server ID made of digits"),
        ("ICE_FLOE_GAMES=no_such_games", "ICE_FLOE_GAMES names 'no_such_games', which cannot be imported"),
    ],
)
def test_the_bot_stops_with_a_clear_configuration_error(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN=t\n{line}\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID", "ICE_FLOE_GAMES")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and f"Configuration error: {message}" in done.stderr, done.stderr


def test_the_table_is_on_only_with_a_port_a_client_id_and_a_secret(tmp_path: Path) -> None:
    table = {"TABLE_PORT": "8090", "DISCORD_CLIENT_ID": "1234", "DISCORD_CLIENT_SECRET": "s3cret"}
    on = Settings.from_env(table | {"TABLE_PUBLIC_URL": "https://table.example.com/"}, env_file=None)
    assert on.table and on.table_port == 8090 and on.table_public_url == "https://table.example.com"
    assert on.discord_api == "https://discord.com/api/v10" and on.table_host == "127.0.0.1"
    for missing in table:
        assert not Settings.from_env({k: v for k, v in table.items() if k != missing}, env_file=None).table
    with pytest.raises(ValueError, match="DISCORD_CLIENT_ID"):
        Settings.from_env(table | {"DISCORD_CLIENT_ID": "my-app"}, env_file=None)
    with pytest.raises(ValueError, match="TABLE_PORT"):
        Settings.from_env(table | {"TABLE_PORT": "70000"}, env_file=None)


def test_the_tables_sign_in_limits_and_proxy_hops_are_read_with_clear_errors() -> None:
    read = Settings.from_env(
        {"LIMIT_SIGN_INS_PER_ADDRESS": "50/60", "LIMIT_SIGN_INS_PER_USER": "off", "TABLE_PROXY_HOPS": "2"},
        env_file=None,
    )
    assert read.limits.sign_ins_per_address == Rate(50, 60) and read.limits.sign_ins_per_user is None
    assert read.table_proxy_hops == 2 and Settings.from_env({}, env_file=None).table_proxy_hops == 0
    with pytest.raises(ValueError, match="TABLE_PROXY_HOPS"):
        Settings.from_env({"TABLE_PROXY_HOPS": "many"}, env_file=None)
    with pytest.raises(ValueError, match="LIMIT_SIGN_INS_PER_USER"):
        Settings.from_env({"LIMIT_SIGN_INS_PER_USER": "6"}, env_file=None)


def test_the_answers_journal_lives_in_answers_dir_else_beside_the_sqlite_file_else_in_data(tmp_path: Path) -> None:
    assert Settings.from_env({"ANSWERS_DIR": "/var/lib/floe"}, None).answers_folder() == Path("/var/lib/floe")
    assert Settings(database_url="sqlite:///srv/floe/games.db").answers_folder() == Path("srv/floe")
    assert Settings(database_url="sqlite:////srv/floe/games.db").answers_folder() == Path("/srv/floe")
    assert Settings(database_url="postgresql://floe@db/floe").answers_folder() == Path("data")


def test_the_default_pool_size_is_the_one_documented_and_four_processes_fit_postgresql_defaults() -> None:
    assert f"DB_POOL_SIZE={DEFAULT_POOL_SIZE}\n" in (ROOT / ".env.example").read_text()
    assert f"keeps open | `{DEFAULT_POOL_SIZE}` |" in (ROOT / "README.md").read_text()
    assert f"`DB_POOL_SIZE`, default {DEFAULT_POOL_SIZE} connections" in (ROOT / "docs/operations.md").read_text()
    assert 4 * (DEFAULT_POOL_SIZE + 1) <= 100 - 3 - 5, "4 processes, their lease connections and 5 for psql"
