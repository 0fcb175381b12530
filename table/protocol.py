"""The table's wire protocol: the state a seat is sent, and the client's messages, checked before use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.titles import title
from i18n import _
from i18n.context import using
from storage.database import GameRow
from table.strings import BAD_MESSAGE, NO_TABLE, chrome
from table.views import strings_for, view_for
from ui.loading import GameLoader

MAX_MESSAGE = 16_384
"""The longest client message read (a move is a few hundred bytes)."""
REFUSED = 4001
"""The WebSocket close code for a forged or expired session (the page does not reconnect with it)."""
NO_GAME_HERE = 4004
"""The WebSocket close code when the channel has no game to show."""


class ProtocolError(Exception):
    """A client message that is not one of the protocol's, or a game the table cannot show; says why."""


@dataclass(frozen=True)
class Move:
    """A move the client asks for: the action, the version it was chosen on, and its nonce."""

    action: dict[str, Any]
    version: int
    id: str


@dataclass(frozen=True)
class Resume:
    """A client that reconnected, asking for the current state (it last saw `version`)."""

    version: int


def parse(message: Any) -> Move | Resume:
    """Read a client message (already decoded JSON); raise ProtocolError for anything else."""
    if not isinstance(message, dict):
        raise ProtocolError(_(BAD_MESSAGE))
    kind, version = message.get("type"), message.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ProtocolError(_(BAD_MESSAGE))
    if kind == "resume":
        return Resume(version)
    if kind == "move":
        action, nonce = message.get("action"), message.get("id", "")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str) or not isinstance(nonce, str):
            raise ProtocolError(_(BAD_MESSAGE))
        if action["type"] == "resign":  # resigning is a command of its own, never a tap
            raise ProtocolError(_(BAD_MESSAGE))
        return Move(action, version, nonce[:64])
    raise ProtocolError(_(BAD_MESSAGE))


def state_message(loader: GameLoader, row: GameRow, seat: int | None, language: str, last: Any) -> dict[str, Any]:
    """Return the state message for one seat (None: a spectator) of a saved game, written in `language`."""
    with using(language):
        if view_for(row.kind) is None:
            raise ProtocolError(_(NO_TABLE))
        game, state = loader.live(row)
    return state_of(game, state, row, seat, language, last)


def state_of(game: Any, state: Any, row: GameRow, seat: int | None, language: str, last: Any) -> dict[str, Any]:
    """Return the state message for one seat of a game whose rules and state are at hand (`row.version`'s)."""
    view = view_for(row.kind)
    with using(language):
        if view is None:
            raise ProtocolError(_(NO_TABLE))
        names = row.names
        return {
            "type": "state",
            "version": row.version,
            "kind": row.kind,
            "status": "finished" if game.is_over(state) else "active",
            "game_id": row.id,
            "title": title(row.kind),
            "seat": seat,
            "names": names,
            "strings": chrome() | strings_for(row.kind),
            "table": view(game, state, seat, names, last),
        }


def error_message(nonce: str | None, message: str) -> dict[str, Any]:
    """Return the answer to a refused move (or a refused connection when `nonce` is None)."""
    return {"type": "error", "id": nonce, "message": message}
