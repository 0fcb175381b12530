"""Work no player waits for is put off while a burst is in hand, then done in order, and never dropped."""

from __future__ import annotations

import asyncio
import logging

import pytest

from ui.tidying import Tidier


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_quiet_bot_does_the_work_itself_and_a_busy_one_puts_it_off_until_the_burst_ends() -> None:
    busy = False
    done: list[str] = []
    tidier = Tidier(lambda: busy)

    async def job(name: str) -> None:
        done.append(name)

    assert not tidier.put_off(lambda: job("now"))
    busy = True
    assert tidier.put_off(lambda: job("first")) and tidier.put_off(lambda: job("second"))
    await asyncio.sleep(0.12)
    assert done == []
    busy = False
    for _ in range(50):
        if len(done) == 2:
            break
        await asyncio.sleep(0.02)
    assert done == ["first", "second"]
    await tidier.close()


async def test_work_put_off_is_done_after_a_while_however_busy_the_bot_stays() -> None:
    clock = Clock()
    done: list[str] = []
    tidier = Tidier(lambda: True, within=5.0, clock=clock)

    async def job() -> None:
        done.append("greyed")

    assert tidier.put_off(job)
    await asyncio.sleep(0.1)
    assert done == []
    clock.now = 5.0
    for _ in range(50):
        if done:
            break
        await asyncio.sleep(0.02)
    assert done == ["greyed"]
    await tidier.close()


async def test_a_failing_job_is_logged_and_the_rest_still_run_at_shutdown(
    caplog: pytest.LogCaptureFixture,
) -> None:
    done: list[str] = []
    tidier = Tidier(lambda: True)

    async def fails() -> None:
        raise RuntimeError("Discord said no")

    async def job() -> None:
        done.append("greyed")

    tidier.put_off(fails)
    tidier.put_off(job)
    with caplog.at_level(logging.ERROR):
        await tidier.close()
    assert done == ["greyed"]
    assert "a put-off job failed" in caplog.text


async def test_shutdown_waits_for_queued_work_only_so_long() -> None:
    tidier = Tidier(lambda: True)

    async def hangs() -> None:
        await asyncio.sleep(60)  # Discord does not answer

    tidier.put_off(hangs)
    tidier.put_off(hangs)
    await asyncio.wait_for(tidier.close(within=0.1), 2)
    assert not tidier.jobs
