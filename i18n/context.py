"""Hold the language the current task writes in."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from i18n.languages import ENGLISH, known

_LANGUAGE: ContextVar[str] = ContextVar("ice_floe_language", default=ENGLISH)


def current() -> str:
    """Return the catalog code that strings are translated into right now."""
    return _LANGUAGE.get()


@contextmanager
def using(language: str | None) -> Iterator[str]:
    """Translate every string made inside the block into `language` (English when unknown or None)."""
    token = _LANGUAGE.set(known(language))
    try:
        yield _LANGUAGE.get()
    finally:
        _LANGUAGE.reset(token)


def use_for_task(language: str | None) -> str:
    """Translate everything the current task writes from now on into `language`; return the code it chose.

    For an entry point that runs in a task of its own (each interaction does): the language goes with the task
    and the tasks it starts, and ends with it. Anywhere else, `using` scopes the language to a block.
    """
    _LANGUAGE.set(known(language))
    return _LANGUAGE.get()
