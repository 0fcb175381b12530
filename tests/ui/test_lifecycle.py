"""Check how the lifecycle names missing permissions and tells a deleted channel from a refused post."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from engine.words import join_names
from ui.lifecycle import is_blocked, is_gone, missing_permissions

EVERYTHING = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
)


def without(**flags: bool) -> discord.Permissions:
    permissions = discord.Permissions(EVERYTHING.value)
    permissions.update(**{name: False for name in flags})
    return permissions


def test_nothing_is_missing_with_every_permission() -> None:
    assert missing_permissions(EVERYTHING, in_thread=False, new_thread=True) == []


def test_each_missing_permission_is_named_in_discords_words() -> None:
    assert missing_permissions(without(attach_files=True, embed_links=True), in_thread=False) == [
        "Embed Links",
        "Attach Files",
    ]
    assert missing_permissions(without(create_public_threads=True), in_thread=False) == []
    assert missing_permissions(without(create_public_threads=True), in_thread=False, new_thread=True) == [
        "Create Public Threads"
    ]


def test_threads_need_send_messages_in_threads_rather_than_send_messages() -> None:
    assert missing_permissions(without(send_messages=True), in_thread=True) == []
    assert missing_permissions(without(send_messages_in_threads=True), in_thread=True) == ["Send Messages in Threads"]


def test_a_missing_send_permission_is_named_alone() -> None:
    # Discord drops Embed Links and Attach Files without Send Messages; naming them would mislead.
    denied = without(send_messages=True, attach_files=True)
    assert missing_permissions(denied, in_thread=False) == ["Send Messages"]


@pytest.mark.parametrize(("names", "text"), [(["A"], "A"), (["A", "B"], "A and B"), (["A", "B", "C"], "A, B and C")])
def test_lists_read_naturally(names: list[str], text: str) -> None:
    assert join_names(names) == text


def refused(status: int, code: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="refused")
    return discord.HTTPException(response, {"code": code, "message": "refused"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("status", "code", "gone", "blocked"),
    [
        (404, 10003, True, False),  # Unknown Channel
        (404, 10008, False, False),  # Unknown Message: the channel is still there
        (403, 50001, False, True),  # Missing Access
        (403, 50013, False, True),  # Missing Permissions
        (400, 160005, False, True),  # Thread is locked
        (400, 50083, False, True),  # archived and locked
        (500, 0, False, False),
    ],
)
def test_a_deleted_channel_and_a_refused_post_are_told_apart(status: int, code: int, gone: bool, blocked: bool) -> None:
    error = refused(status, code)
    assert (is_gone(error), is_blocked(error)) == (gone, blocked)


def test_a_pause_is_saved_in_english_and_told_in_the_readers_language() -> None:
    from i18n import using
    from ui.lifecycle import LOCKED, MISSING, REFUSED, read_reason, saved_reason

    missing = ["Send Messages in Threads", "Manage Threads"]
    saved = saved_reason(7, MISSING, missing)
    assert saved == "I am missing the permissions Send Messages in Threads and Manage Threads in <#7>"
    assert read_reason(saved, 7) == saved
    with using("de"):
        assert read_reason(saved, 7) == (
            "mir fehlen die Berechtigungen „Nachrichten in Threads senden“ und „Threads verwalten“ in <#7>"
        )
        assert read_reason(saved_reason(7, LOCKED), 7).startswith("<#7> ist ein gesperrter Thread")
    with using("ja"):
        assert (
            read_reason(saved_reason(7, MISSING, ["Send Messages"]), 7)
            == "<#7>での権限「メッセージを送信」がありません"
        )
        assert read_reason(saved_reason(7, REFUSED), 7).startswith("<#7>に投稿できなくなりました")
        assert read_reason("a reason an older bot saved", 7) == "a reason an older bot saved"
