"""Check the /game replies of the shared cog without networking: settings, refusals and notes, in every language."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.game import GameCog, settings_text
from i18n import using
from storage.database import GuildSettings
from storage.server_rules import ServerRules
from ui.errors import UserError
from ui.scheduler import hours


def test_settings_read_in_english_with_every_switch() -> None:
    text = settings_text(GuildSettings(12.0, None, True), ServerRules(), saved=True)
    assert text == (
        "Saved. Reminder after 12 hours · timeout off · new games in a thread: yes\n"
        "Rated games: yes · takebacks: yes · takebacks in rated games: no · hints: yes"
        " · hints keep a rated game rated: no\n"
        "Takebacks a player may make in a game when only computer players are asked: 3\n"
        "Leaderboard seasons: off"
    )
    monthly = settings_text(GuildSettings(12.0, None, True), ServerRules(season_months=1), saved=False)
    assert monthly.endswith("\nLeaderboard seasons: 1 month each, starting fresh (past seasons stay viewable)")


THIRD = {
    "de": "Zugrücknahmen pro Spieler und Spiel, wenn nur Computerspieler gefragt werden: 5",
    "es": "Jugadas que cada jugador puede deshacer por partida cuando solo se pregunta a jugadores de la"
    " computadora: 5",
    "pt_BR": "Jogadas que cada jogador pode desfazer por partida quando só jogadores do computador são consultados: 5",
    "ja": "確認相手がコンピューターだけの待ったの回数（1人・1ゲームあたり）：5",
}
"""The third line of the settings, with 5 takebacks against computer players alone."""
FOURTH = {
    "de": "Ranglisten-Saisons: je 3 Monate, jede beginnt neu (frühere bleiben einsehbar)",
    "es": "Temporadas de la clasificación: de 3 meses cada una, empiezan de cero (las pasadas siguen visibles)",
    "pt_BR": "Temporadas do ranking: de 3 meses cada, começando do zero (as passadas continuam visíveis)",
    "ja": "ランキングのシーズン：各3か月、毎回ゼロから（過去のシーズンも見られます）",
}
"""The fourth line of the settings, with quarterly seasons."""


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [
        (
            "de",
            "Gespeichert. Erinnerung nach {reminder} · Zeitlimit {timeout} · neue Spiele in einem Thread: nein",
            "Gewertete Spiele: ja · Zugrücknahmen: nein · Zugrücknahmen in gewerteten Spielen: nein"
            " · Tipps: nein · Spiele bleiben trotz Tipps gewertet: ja",
        ),
        (
            "es",
            "Guardado. Recordatorio tras {reminder} · tiempo límite {timeout} · partidas nuevas en un hilo: no",
            "Partidas valoradas: sí · deshacer jugadas: no · deshacer jugadas en partidas valoradas: no"
            " · pistas: no · las pistas mantienen la partida valorada: sí",
        ),
        (
            "pt_BR",
            "Salvo. Lembrete após {reminder} · tempo limite {timeout} · novas partidas em um tópico: não",
            "Partidas ranqueadas: sim · desfazer jogadas: não · desfazer jogadas em partidas ranqueadas: não"
            " · dicas: não · dicas mantêm a partida ranqueada: sim",
        ),
        (
            "ja",
            "保存しました。リマインダー：{reminder}後 · 時間切れ：{timeout} · 新しいゲームをスレッドで開始：オフ",
            "レーティング戦：オン · 待った：オフ · レーティング戦での待った：オフ"
            " · ヒント：オフ · ヒントを使ってもレーティング戦のまま：オン",
        ),
    ],
)
def test_settings_read_in_the_servers_language_with_every_value_filled(language: str, first: str, second: str) -> None:
    rules = ServerRules(
        ratings=True, takebacks=False, rated_takebacks=False, rated_hints=True, hints=False, computer_takebacks=5,
        season_months=3,
    )
    with using(language):
        text = settings_text(GuildSettings(1.0, 24.0, False), rules, saved=True)
        reminder, timeout = hours(1.0), hours(24.0)
    lines = [first.format(reminder=reminder, timeout=timeout), second, THIRD[language], FOURTH[language]]
    assert text == "\n".join(lines)


def test_a_timeout_that_is_off_says_so_in_the_servers_language() -> None:
    with using("de"):
        assert "Zeitlimit aus ·" in settings_text(GuildSettings(), ServerRules(), saved=False)
    with using("pt_BR"):
        assert settings_text(GuildSettings(), ServerRules(), saved=False).startswith("Lembrete após ")


@dataclass
class FakeResponse:
    """Record what an interaction was answered with."""

    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


@dataclass
class FakeDatabase:
    """Remember each user's reminder choice."""

    reminders: dict[int, bool] = field(default_factory=dict)

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        self.reminders[user_id] = on

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings()


def _cog() -> GameCog:
    """Return the /game cog on a fake flow."""
    return GameCog(SimpleNamespace(flow=SimpleNamespace(db=FakeDatabase())))  # type: ignore[arg-type]


def _interaction(guild_id: int | None = 1) -> Any:
    """Return a stand-in for a /game command."""
    return SimpleNamespace(user=SimpleNamespace(id=7), guild_id=guild_id, channel_id=5, response=FakeResponse())


@pytest.mark.parametrize(
    ("language", "on", "off"),
    [
        ("en", "I will also remind you by direct message.", "Reminders will only be posted in channels."),
        ("de", "Ich erinnere dich zusätzlich per DM.", "Erinnerungen erscheinen nur noch in den Kanälen."),
        ("ja", "DMでもお知らせします。", "リマインダーはチャンネルにのみ投稿されます。"),
    ],
)
async def test_notify_answers_privately_in_the_players_language(language: str, on: str, off: str) -> None:
    cog, interaction = _cog(), _interaction()
    with using(language):
        await GameCog.notify.callback(cog, interaction, SimpleNamespace(value="on"))  # type: ignore[arg-type]
        await GameCog.notify.callback(cog, interaction, SimpleNamespace(value="off"))  # type: ignore[arg-type]
    assert [(m["content"], m["ephemeral"]) for m in interaction.response.sent] == [(on, True), (off, True)]
    assert cog.flow.db.reminders == {7: False}


async def test_a_server_command_in_a_dm_is_refused_in_the_players_language() -> None:
    with using("es"), pytest.raises(UserError, match=r"^Usa este comando en un canal de un servidor\.$"):
        await GameCog.list_.callback(_cog(), _interaction(guild_id=None))  # type: ignore[arg-type]
    with pytest.raises(UserError, match=r"^Use this command in a server channel\.$"):
        await GameCog.list_.callback(_cog(), _interaction(guild_id=None))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("granted", "english", "german"),
    [
        (
            discord.Permissions(view_channel=True, embed_links=True, attach_files=True, read_message_history=True),
            "I cannot run a game here: I am missing Send Messages in this channel. "
            "Ask a moderator to give me it, or start the game in another channel.",
            "Mir fehlt in diesem Kanal die Berechtigung ",
        ),
        (
            discord.Permissions(view_channel=True, send_messages=True, read_message_history=True),
            "I cannot run a game here: I am missing Embed Links and Attach Files in this channel. "
            "Ask a moderator to give me them, or start the game in another channel.",
            "Mir fehlen in diesem Kanal die Berechtigungen ",
        ),
    ],
)
async def test_missing_permissions_are_counted_in_the_refusal(
    granted: discord.Permissions, english: str, german: str
) -> None:
    interaction = _interaction()
    interaction.app_permissions, interaction.channel = granted, SimpleNamespace(type=discord.ChannelType.text)
    new = GameCog.new.callback
    with pytest.raises(UserError) as refused:
        await new(_cog(), interaction, SimpleNamespace(value="fish"), thread=False)  # type: ignore[arg-type]
    assert str(refused.value) == english
    with using("de"), pytest.raises(UserError, match=german) as refused:
        await new(_cog(), interaction, SimpleNamespace(value="fish"), thread=False)  # type: ignore[arg-type]
    assert str(refused.value).endswith("oder starte das Spiel in einem anderen Kanal.")
