"""Every slash command, option and choice in each shipped language, within Discord's naming rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import IceFloeBot, create_bot, extension_names
from command_strings import command_strings
from config import Settings
from i18n.languages import DISCORD_LOCALES, ENGLISH
from tests.harness.rest import command_errors, name_valid
from ui.commands import CommandTranslator

LOCALIZED = sorted(locale for code, locales in DISCORD_LOCALES.items() if code != ENGLISH for locale in locales)


async def tree_payload(tmp_path: Path) -> list[dict[str, Any]]:
    """Return what the bot sends Discord when it syncs its commands, with every localization."""
    bot: IceFloeBot = create_bot(Settings(token="t", database_url=f"sqlite:///{tmp_path}/bot.db"), workers="thread")
    try:
        await bot.tree.set_translator(CommandTranslator())
        for name in extension_names():
            await bot.load_extension(name)
        translator = bot.tree.translator
        assert translator is not None
        return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]
    finally:
        bot.flow.close()


def walk(items: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Yield (path, kind, item) for every command, option and choice of a sync payload."""
    for item in items:
        where = f"{path} {item['name']}".strip()
        kind = "command" if "options" in item and item.get("type", 1) in (1, 2) and not path else "option"
        yield where, kind, item
        for choice in item.get("choices") or []:
            yield f"{where}={choice['name']}", "choice", choice
        yield from walk(item.get("options") or [], where)


def localization_gaps(payload: list[dict[str, Any]]) -> list[str]:
    """List each command, option or choice lacking a name or description in one of the shipped locales."""
    gaps = []
    for where, kind, item in walk(payload):
        wanted = ["name_localizations"] + ([] if kind == "choice" else ["description_localizations"])
        for key in wanted:
            missing = [loc for loc in LOCALIZED if not (item.get(key) or {}).get(loc)]
            if missing and not (kind == "choice" and item["name"] in {"English", *own_names()}):
                gaps.append(f"/{where}: {key} lacks {missing}")
    return gaps


def own_names() -> set[str]:
    """Return the languages' names in themselves, which every locale shows as they are."""
    from i18n import LANGUAGES

    return set(LANGUAGES.values())


async def test_every_command_option_and_choice_is_localized_for_every_shipped_locale(tmp_path: Path) -> None:
    payload = await tree_payload(tmp_path)
    assert not localization_gaps(payload), "\n".join(localization_gaps(payload))


async def test_every_localization_follows_discords_rules(tmp_path: Path) -> None:
    payload = await tree_payload(tmp_path)
    errors = {key: value for command in payload for key, value in command_errors(command).items()}
    assert not errors, "\n".join(f"{key}: {value}" for key, value in errors.items())
    for locale in LOCALIZED:  # top-level commands are siblings too
        names = [command.get("name_localizations", {}).get(locale, command["name"]) for command in payload]
        assert len(set(names)) == len(names), f"{locale}: {names}"


async def test_german_clients_see_spiel_neu(tmp_path: Path) -> None:
    payload = await tree_payload(tmp_path)
    game = next(command for command in payload if command["name"] == "game")
    new = next(option for option in game["options"] if option["name"] == "new")
    assert (game["name_localizations"]["de"], new["name_localizations"]["de"]) == ("spiel", "neu")
    assert new["name_localizations"]["ja"] == "新規"
    assert game["name_localizations"]["es-ES"] == game["name_localizations"]["es-419"] == "partida"


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("spiel", True),
        ("bot_hinzufügen", True),
        ("número_de_partida", True),
        ("新規", True),
        ("リマインド時間", True),
        ("Spiel", False),
        ("two words", False),
        ("a" * 33, False),
        ("", False),
        ("ja・nein", False),
    ],
)
def test_the_name_rule_matches_discords(name: str, valid: bool) -> None:
    assert name_valid(name) is valid


async def test_english_clients_get_no_localization_and_unknown_strings_stay_english() -> None:
    translator = CommandTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    assert await translator.translate(app_commands.locale_str("new"), discord.Locale.american_english, context) is None
    assert await translator.translate(app_commands.locale_str("new"), discord.Locale.french, context) is None
    assert await translator.translate(app_commands.locale_str("new"), discord.Locale.german, context) == "neu"
    assert await translator.translate(app_commands.locale_str("no such"), discord.Locale.german, context) == "no such"
    kept = app_commands.locale_str("Deutsch", own_name=True)
    assert await translator.translate(kept, discord.Locale.japanese, context) is None


def test_the_extractor_lists_each_string_of_the_tree_with_its_role() -> None:
    found = command_strings()
    assert ("command name", "new") in found
    assert ("option description", "Which game to play") in found
    assert ("choice name", "Hey, That's My Fish!") in found
    assert not any(text == "Deutsch" for _role, text in found)  # languages keep their own names
