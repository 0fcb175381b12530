"""Recognise a turn ping of ours in any language; remember the standing ping instead of reading it again."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from i18n import LANGUAGES, using
from ui.pings import TurnPings, is_turn_ping, your_turn

ANA, BO = 157821188571345716, 157821188571345717


def message(content: str, *, components: int = 0, attachments: int = 0) -> Any:
    """Return a stand-in for a channel message: its text, its mentions in order, its menus and files."""
    mentions = [ANA, BO] if f"<@{ANA}>" in content else []
    return SimpleNamespace(
        content=content, raw_mentions=mentions, components=[object()] * components, attachments=[object()] * attachments
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_ping_is_recognised_in_every_language_and_a_board_or_a_notice_is_not(language: str) -> None:
    with using(language):
        ping = f"Leaders: Ana places their Leader.\n{your_turn([f'<@{ANA}>', f'<@{BO}>'])}"
        assert is_turn_ping(message(ping))
        assert not is_turn_ping(message(ping, components=1)), "a board that pings is no stale ping"
        assert not is_turn_ping(message(ping, attachments=1))
        assert not is_turn_ping(message(f"<@{ANA}> <@{BO}> I cannot DM you: open your DMs."))
        assert not is_turn_ping(message(your_turn(["Bot 1 (easy)"])))


class Record:
    """A stand-in for the database's standing pings, counting its reads."""

    def __init__(self) -> None:
        self.pings: dict[int, int | None] = {}
        self.reads = 0

    async def standing_ping(self, game_id: int) -> int | None:
        self.reads += 1
        return self.pings.get(game_id)

    async def set_ping(self, game_id: int, message_id: int | None, previous: int | None) -> bool:
        if (self.pings.get(game_id) or 0) != (previous or 0):
            return False
        self.pings[game_id] = message_id
        return True


class Channel:
    """A stand-in for a game's channel: numbered messages sent, the ids deleted."""

    def __init__(self) -> None:
        self.sent = 0
        self.deleted: list[int] = []

    async def send(self, text: str, **_: Any) -> Any:
        self.sent += 1
        return SimpleNamespace(id=ANA + 1000 + self.sent)

    def get_partial_message(self, message_id: int) -> Any:
        async def delete() -> None:
            self.deleted.append(message_id)

        return SimpleNamespace(delete=delete)


def pinger() -> tuple[TurnPings, Record, Channel]:
    """Return turn pings of a bot whose channel and database are the stand-ins."""
    channel, record = Channel(), Record()
    bot = SimpleNamespace(get_partial_messageable=lambda _: channel, user=None)
    return TurnPings(bot, record), record, channel  # type: ignore[arg-type]


GAME = SimpleNamespace(
    id=7, channel_id=1, board_message_id=None, seats=[SimpleNamespace(mention=f"<@{ANA}>", is_bot=False)]
)


async def test_a_ping_reads_the_database_only_for_a_game_this_process_has_not_recorded_a_ping_of() -> None:
    pings, record, channel = pinger()
    await pings.ping(GAME, [0], "Ana moved.")  # type: ignore[arg-type]
    await pings.ping(GAME, [0], "Bo moved.")  # type: ignore[arg-type]
    await pings.drop(GAME, None)  # type: ignore[arg-type]
    assert record.reads == 1, "read the standing ping this process had recorded itself"
    assert channel.deleted == [ANA + 1001, ANA + 1002] and record.pings[GAME.id] is None


async def test_a_ping_recorded_by_another_process_since_is_read_and_deleted() -> None:
    pings, record, channel = pinger()
    await pings.ping(GAME, [0], "Ana moved.")  # type: ignore[arg-type]
    record.pings[GAME.id] = BO  # the shard moved away, another process pinged, and the shard came back
    await pings.ping(GAME, [0], "Bo moved.")  # type: ignore[arg-type]
    assert channel.deleted == [BO] and record.pings[GAME.id] == ANA + 1002


async def test_new_boards_with_no_ping_standing_read_the_database_once() -> None:
    pings, record, channel = pinger()
    for _ in range(3):
        await pings.drop(GAME, None)  # type: ignore[arg-type]
    assert record.reads == 1, "read again for every new board of a game with no ping standing"
    assert channel.deleted == []
