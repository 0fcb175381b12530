"""Check that a database outage reaches players as a clear sentence in their language, nothing else."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from i18n import using
from storage.errors import (
    BUSY_TEXT,
    OUTAGE_AFTER_S,
    UNAVAILABLE_TEXT,
    DatabaseBusy,
    DatabaseUnavailable,
    Outage,
    classify,
)


def test_a_locked_database_is_busy_in_english_exactly_as_before() -> None:
    busy = classify(sqlite3.OperationalError("database is locked"))
    assert isinstance(busy, DatabaseBusy) and str(busy) == BUSY_TEXT
    assert str(DatabaseUnavailable("disk is full")) == UNAVAILABLE_TEXT


@pytest.mark.parametrize(
    ("language", "busy", "unavailable"),
    [
        ("de", "Die Datenbank des Spiels ist gerade ausgelastet", "Der Bot kann gerade keine Spiele speichern"),
        ("es", "La base de datos del juego está ocupada", "El bot no puede guardar partidas en este momento"),
        ("pt_BR", "O banco de dados do jogo está ocupado agora", "O bot não consegue salvar partidas agora"),
        ("ja", "ゲームのデータベースが混み合っているため", "現在ボットはゲームを保存できないため"),
    ],
)
def test_busy_and_unavailable_are_told_in_the_command_language(language: str, busy: str, unavailable: str) -> None:
    with using(language):
        locked = classify(sqlite3.OperationalError("database is locked"))
        full = classify(sqlite3.OperationalError("database or disk is full"))
    assert isinstance(locked, DatabaseBusy) and str(locked).startswith(busy)
    assert isinstance(full, DatabaseUnavailable) and str(full).startswith(unavailable)
    assert full.cause == "OperationalError: database or disk is full"


def test_a_pool_closing_under_a_query_is_an_outage_the_query_waits_out() -> None:
    InterfaceError = type("InterfaceError", (Exception,), {})  # asyncpg's name, as classify reads it
    closing = classify(InterfaceError("pool is closing"))
    assert isinstance(closing, DatabaseUnavailable) and closing.transient


def test_a_blip_that_retries_away_logs_no_error_but_a_lasting_outage_logs_one(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [100.0]
    monkeypatch.setattr("storage.errors.time.monotonic", lambda: now[0])
    outage = Outage()
    caplog.set_level(logging.INFO, logger="storage")
    lost = DatabaseUnavailable("ConnectionDoesNotExistError: connection was closed", transient=True)
    outage.failed(lost, write=True)
    now[0] += 0.3
    outage.failed(lost, write=True)
    outage.ok(write=True)  # the retry went through
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert outage.outages == 1 and not outage.down
    outage.failed(lost, write=True)
    now[0] += OUTAGE_AFTER_S
    outage.failed(lost, write=True)
    outage.failed(lost, write=True)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "ConnectionDoesNotExistError" in errors[0].getMessage()
    outage.failed(DatabaseUnavailable("DiskFullError: no space"), write=True)  # same outage: no second ERROR
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1


async def test_an_outage_that_lasts_logs_its_error_without_waiting_for_another_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    outage = Outage()
    outage.after = 0.05
    caplog.set_level(logging.INFO, logger="storage")
    refused = DatabaseUnavailable("ConnectionRefusedError: connect call failed", transient=True)
    outage.failed(refused, write=False)  # a read gave up; nothing fails again until the server is back
    await asyncio.sleep(0.2)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "ConnectionRefusedError" in errors[0].getMessage()
    outage.ok(write=False)
    outage.failed(refused, write=False)
    outage.ok(write=False)  # a blip: over before `after`
    await asyncio.sleep(0.2)
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
