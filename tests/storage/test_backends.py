"""Check how DATABASE_URL picks a backend and how one query text runs on both dialects."""

from __future__ import annotations

import pytest

from storage.backends import PostgresBackend, SqliteBackend, make_backend, to_dollar


def test_the_url_picks_the_backend() -> None:
    assert isinstance(make_backend("sqlite:///data/ice_floe.db"), SqliteBackend)
    assert isinstance(make_backend("data/plain.db"), SqliteBackend)
    postgres = make_backend("postgresql://floe:secret@db:5432/floe", pool_size=7)
    assert isinstance(postgres, PostgresBackend) and postgres.pool_size == 7
    assert isinstance(make_backend("postgres://db/floe"), PostgresBackend)
    with pytest.raises(ValueError, match="postgresql://"):
        make_backend("mysql://db/floe")


def test_question_marks_become_numbered_parameters_for_postgresql() -> None:
    assert to_dollar("UPDATE games SET a = ?, b = ? WHERE id = ? AND s IN (?, ?)") == (
        "UPDATE games SET a = $1, b = $2 WHERE id = $3 AND s IN ($4, $5)"
    )
    assert to_dollar("SELECT 1") == "SELECT 1"
