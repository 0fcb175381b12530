"""Open a database as it was before a migration, to fill it the way the code of then did."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from storage import migrations


@contextmanager
def before_migration(monkeypatch: pytest.MonkeyPatch, marker: str) -> Iterator[None]:
    """Apply only the migrations before the first whose script holds `marker` while inside."""
    first = next(n for n, m in enumerate(migrations.MIGRATIONS) if marker in str(m))
    with monkeypatch.context() as before:
        before.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:first])
        yield
