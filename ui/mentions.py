"""Name slash commands in messages: a tappable mention each client shows in its reader's language, once synced.

A mention (`</game new:123>`) needs the command's id, known once the commands are synced (bot.py remembers the
ids); until then a message names the command by its path in the reader's language, as code (`/spiel neu`).
"""

from __future__ import annotations

from collections.abc import Mapping

from i18n.commands import command_path, typed_options

_ids: dict[str, int] = {}


def remember(ids: Mapping[str, int]) -> None:
    """Keep the ids of the synced top-level commands, by English name ("game": 123), replacing those kept before."""
    _ids.clear()
    _ids.update(ids)


def command(path: str, /, **options: str) -> str:
    """Return a command for a message: "</game new:123> `rated:false`", else "`/spiel neu gewertet:false`".

    `path` is the English command path ("game new"); `options` are option names with the value a player would type.
    """
    known = _ids.get(path.split()[0])
    if known is None:
        return f"`{command_path(path, **options)}`"
    typed = " ".join(typed_options(options))
    return f"</{path}:{known}>" + (f" `{typed}`" if typed else "")
