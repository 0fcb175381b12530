"""In a burst, moves are acknowledged at once, in the form their answer takes, before any database work."""

from __future__ import annotations

import asyncio
import importlib
import inspect
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands

from bot import extension_names
from storage.answers import PendingAnswer
from storage.errors import IntegrityError
from ui.bursts import MOVE, STALE_S, Bursts
from ui.moves import DEEP, LATE_S


class Response:
    """Record how an interaction was acknowledged."""

    def __init__(self) -> None:
        self.deferred: dict[str, Any] | None = None

    def is_done(self) -> bool:
        return self.deferred is not None

    async def defer(self, **kwargs: Any) -> None:
        self.deferred = kwargs


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def interaction(shown: str | None, late_s: float = 0.0) -> Any:
    """Return a slash command interaction whose command is a move answered `shown` (None: not a move)."""
    command = SimpleNamespace(extras={MOVE: shown} if shown else {})
    created = datetime.now(UTC) - timedelta(seconds=late_s)
    return SimpleNamespace(
        id=1,
        type=discord.InteractionType.application_command,
        command=command,
        response=Response(),
        created_at=created,
        channel_id=CHANNEL,
        application_id=2,
        token="token",
        user=SimpleNamespace(id=3),
    )


CHANNEL = 50


class Answers:
    """Record the answers promised before an acknowledgement."""

    def __init__(self, fail: bool = False) -> None:
        self.promised: list[PendingAnswer] = []
        self.fail = fail

    async def promise(self, answer: PendingAnswer) -> None:
        if self.fail:
            raise IntegrityError("FOREIGN KEY constraint failed")
        self.promised.append(answer)


class Slow(Answers):
    """Promise only once released: the write that lets a move be acknowledged is under way until then."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def promise(self, answer: PendingAnswer) -> None:
        await self.release.wait()
        await super().promise(answer)


def crowded(clock: Clock, answers: Answers | None = None) -> Bursts:
    """Return a burst counter that knows this channel's game and has just seen a crowd arrive."""
    bursts = Bursts(answers, clock=clock)  # type: ignore[arg-type]
    bursts.learn(CHANNEL, 7)
    for n in range(DEEP):
        bursts.arrived(1000 + n)
    return bursts


async def test_a_move_alone_and_on_time_is_left_to_its_command() -> None:
    bursts = Bursts(clock=Clock())
    move = interaction("public")
    assert not await bursts.early(move)
    assert move.response.deferred is None


async def test_in_a_burst_a_public_and_a_private_move_show_thinking_where_they_should_and_both_are_owed() -> None:
    answers = Answers()
    bursts = crowded(Clock(), answers)
    public, private, other = interaction("public"), interaction("private"), interaction(None)
    assert await bursts.early(public)
    assert public.response.deferred == {"ephemeral": False, "thinking": True}
    assert [(a.interaction_id, a.game_id, a.token) for a in answers.promised] == [(1, 7, "token")]
    assert await bursts.early(private)
    assert private.response.deferred == {"ephemeral": True, "thinking": True}
    assert not await bursts.early(other)
    assert other.response.deferred is None
    assert len(answers.promised) == 2  # a private "thinking…" is owed its answer after a crash too


async def test_a_burst_in_a_channel_whose_game_is_not_known_yet_or_cannot_be_promised_waits_for_its_flow() -> None:
    bursts = crowded(Clock(), Answers())
    bursts.games.clear()
    move = interaction("public")
    assert not await bursts.early(move)
    assert move.response.deferred is None
    refused = crowded(Clock(), Answers(fail=True))
    move = interaction("public")
    assert not await refused.early(move)
    assert move.response.deferred is None


async def test_commands_answered_one_after_another_are_no_burst() -> None:
    clock = Clock()
    bursts = crowded(clock, Answers())
    for n in range(DEEP):
        bursts.done(1000 + n)
    move = interaction("public")
    assert not await bursts.early(move)


async def test_a_command_whose_end_was_never_reported_stops_counting_after_a_while() -> None:
    clock = Clock()
    bursts = crowded(clock, Answers())
    clock.now += STALE_S + 1
    bursts.arrived(2000)  # the stale ones are dropped as a new one arrives
    move = interaction("public")
    assert not await bursts.early(move)


async def test_an_autocomplete_is_not_counted_nor_deferred() -> None:
    bursts = crowded(Clock(), Answers())
    typing = interaction("public")
    typing.type = discord.InteractionType.autocomplete
    assert not await bursts.early(typing)
    assert typing.response.deferred is None
    assert len(bursts.handling) == DEEP


async def test_a_move_that_reached_the_bot_late_is_acknowledged_at_once_even_alone() -> None:
    bursts = Bursts(Answers(), clock=Clock())  # type: ignore[arg-type]
    bursts.learn(CHANNEL, 7)
    move = interaction("public", late_s=LATE_S + 0.5)
    assert await bursts.early(move)


async def test_an_expired_interaction_is_not_an_error() -> None:
    class Expired(Response):
        async def defer(self, **kwargs: Any) -> None:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"code": 10062, "message": "x"})

    move = interaction("private", late_s=5)
    move.response = Expired()
    assert not await Bursts(clock=Clock()).early(move)


def test_every_slash_command_that_makes_a_move_says_how_its_answer_is_shown() -> None:
    found = {}
    for module in extension_names():
        for cog in vars(importlib.import_module(module)).values():
            for group in getattr(cog, "__cog_app_commands__", []) if isinstance(cog, type) else []:
                for command in group.walk_commands() if isinstance(group, app_commands.Group) else [group]:
                    if "flow.act(" in inspect.getsource(command.callback):
                        found[command.qualified_name] = command.extras.get(MOVE)
    assert {"fish place", "tank take", "flippers play"} <= set(found)
    assert all(shown in ("public", "private") for shown in found.values()), found
    assert found["tank discard"] == found["flippers discard"] == "private"


async def test_a_command_stops_counting_when_the_task_that_ran_it_ends() -> None:
    bursts = Bursts(Answers(), clock=Clock())  # type: ignore[arg-type]
    started = asyncio.Event()
    release = asyncio.Event()

    async def command(n: int) -> None:
        move = interaction(None)
        move.id = n
        await bursts.early(move)
        started.set()
        await release.wait()

    tasks = [asyncio.create_task(command(n)) for n in range(3)]
    await started.wait()
    await asyncio.sleep(0)
    assert len(bursts.handling) == 3
    release.set()
    await asyncio.gather(*tasks)
    await asyncio.sleep(0)
    assert bursts.handling == {}


async def test_in_a_burst_a_move_lets_the_others_be_acknowledged_before_its_own_work() -> None:
    answers = Slow()
    bursts = crowded(Clock(), answers)
    move = interaction("public")
    acknowledging = asyncio.create_task(bursts.early(move))
    await asyncio.sleep(0)
    working = asyncio.create_task(bursts.acknowledgements_first())
    await asyncio.sleep(0.05)
    assert not working.done(), "a move's work went ahead of another move's acknowledgement"
    answers.release.set()
    assert await acknowledging
    await asyncio.wait_for(working, 1)
    assert move.response.deferred is not None
    quiet = Bursts(clock=Clock())
    await asyncio.wait_for(quiet.acknowledgements_first(), 0.01)  # nothing waits: no wait at all


async def test_in_a_burst_autocomplete_waits_for_the_moves_acknowledgements() -> None:
    answers = Slow()
    bursts = crowded(Clock(), answers)
    acknowledging = asyncio.create_task(bursts.early(interaction("public")))
    await asyncio.sleep(0)
    typing = interaction("public")
    typing.type = discord.InteractionType.autocomplete
    suggesting = asyncio.create_task(bursts.early(typing))
    await asyncio.sleep(0.05)
    assert not suggesting.done(), "a suggestion was worked out before a move was acknowledged"
    answers.release.set()
    assert await acknowledging
    assert not await asyncio.wait_for(suggesting, 1)
    assert typing.response.deferred is None
