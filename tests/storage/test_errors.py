"""Check that a database outage reaches players as a clear sentence in their language, nothing else."""

from __future__ import annotations

import sqlite3

import pytest

from i18n import using
from storage.errors import BUSY_TEXT, UNAVAILABLE_TEXT, DatabaseBusy, DatabaseUnavailable, classify


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
