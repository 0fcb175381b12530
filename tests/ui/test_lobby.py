"""Check that a lobby reads in the language it is shown in: its embed, its buttons and the bots it seats."""

from __future__ import annotations

import pytest

from i18n import using
from storage.database import LOBBY, GameRow, Seat
from ui.lobby import lobby_embed, lobby_view
from ui.names import bot_name, level_name


def lobby(rated_seats: int = 2) -> GameRow:
    """Return a Flippers lobby (a title no language changes) with its host and one computer player."""
    seats = [Seat(0, 11, "Ana"), Seat(1, -1, bot_name(1, "hard"), "hard")][:rated_seats]
    return GameRow(
        id=7,
        guild_id=1,
        channel_id=2,
        kind="flippers",
        status=LOBBY,
        host_id=11,
        options={"teams": True},
        seed=1,
        state=None,
        version=0,
        board_message_id=None,
        created_at="2026-12-01T00:00:00",
        updated_at="2026-12-01T00:00:00",
        seats=seats,
    )


def test_the_english_lobby_is_worded_as_before() -> None:
    embed = lobby_embed(lobby(), rated=False)
    assert embed.title == "Flippers: lobby"
    assert embed.fields[0].name == "Players 2/6"
    assert embed.fields[0].value == "1. <@11> (host)\n2. Bot 1 (hard)"
    assert embed.fields[1].value == "teams"
    assert embed.footer.text == "Game #7 · 2-6 players · casual (not rated) · the host starts with Start"


@pytest.mark.parametrize(
    ("language", "title", "players", "host", "footer", "labels"),
    [
        (
            "de",
            "Flippers: Lobby",
            "Spieler 1/6",
            "1. <@11> (Gastgeber)",
            "Spiel #7 · 2–6 Spieler · gewertet · der Gastgeber startet mit „Starten“",
            ["Beitreten", "Verlassen", "Bot hinzufügen", "Starten"],
        ),
        (
            "ja",
            "Flippers：ロビー",
            "プレイヤー 1/6",
            "1. <@11>（ホスト）",
            "ゲーム #7 · 2〜6人 · レーティング戦 · ホストが「開始」で始めます",
            ["参加", "退出", "ボットを追加", "開始"],
        ),
    ],
)
def test_a_lobby_reads_in_the_language_it_is_shown_in(
    language: str, title: str, players: str, host: str, footer: str, labels: list[str]
) -> None:
    with using(language):
        embed = lobby_embed(lobby(1), rated=True)
        view = lobby_view(lobby(1))
    assert embed.title == title
    assert embed.fields[0].name == players and embed.fields[0].value == host
    assert embed.footer.text == footer
    assert view is not None and [item.item.label for item in view.children] == labels  # type: ignore[attr-defined]


def test_the_lobby_is_translated_when_shown_not_when_the_module_was_loaded() -> None:
    with using("es"):
        spanish = lobby_embed(lobby(1)).footer.text
    with using("pt_BR"):
        portuguese = lobby_embed(lobby(1)).footer.text
    assert spanish != portuguese and "jugadores" in (spanish or "") and "jogadores" in (portuguese or "")
    assert lobby_embed(lobby(1)).footer.text == "Game #7 · 2-6 players · rated · the host starts with Start"


def test_a_computer_player_is_named_in_the_language_of_its_lobby() -> None:
    with using("de"):
        assert bot_name(2, "easy") == "Bot 2 (leicht)"
        assert level_name("hard") == "schwer"
    with using("ja"):
        assert bot_name(2, "hard") == "ボット2（むずかしい）"
