"""Check the limiter with a clock the tests move: windows, several keys at once, settings, wording."""

from __future__ import annotations

import pytest

from i18n import using
from ui.limits import Limiter, Limits, LimitSettings, Rate, too_many_lobbies, too_soon


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_rate_allows_its_uses_in_any_window_and_says_how_long_to_wait() -> None:
    clock = Clock()
    limiter = Limiter(clock)
    rate = Rate(2, 60)
    assert limiter.take([("k", rate)]) == 0.0
    clock.now += 10
    assert limiter.take([("k", rate)]) == 0.0
    clock.now += 5
    assert limiter.take([("k", rate)]) == pytest.approx(45.0)  # the first use leaves the window at 1060
    clock.now += 45
    assert limiter.take([("k", rate)]) == 0.0
    assert limiter.take([("k", rate)]) == pytest.approx(10.0)  # now the second one (at 1010) must leave


def test_a_use_is_recorded_under_every_key_or_none() -> None:
    clock = Clock()
    limiter = Limiter(clock)
    user, channel = Rate(2, 60), Rate(3, 60)
    for name in ("ann", "bo", "cy"):
        assert limiter.take([((name, "user"), user), ("chan", channel)]) == 0.0
    assert limiter.take([(("dee", "user"), user), ("chan", channel)]) == pytest.approx(60.0)
    assert limiter.wait([(("dee", "user"), user)]) == 0.0, "a refused use is not counted against the user"
    assert limiter.take([(("ann", "user"), user), ("other", channel)]) == 0.0
    assert limiter.take([(("ann", "user"), user), ("other", channel)]) > 0


def test_no_rate_means_no_limit_and_old_keys_are_forgotten() -> None:
    clock = Clock()
    limiter = Limiter(clock)
    assert all(limiter.take([("k", None)]) == 0.0 for _ in range(100))
    for n in range(50):
        limiter.take([(n, Rate(1, 10))])
    assert len(limiter) == 50
    clock.now += 11
    limiter.prune()
    assert len(limiter) == 0


def test_limits_count_each_command_per_user_and_channel_and_threads_per_server() -> None:
    clock = Clock()
    limits = Limits(
        LimitSettings(per_user=Rate(2, 60), per_channel=Rate(3, 60), threads_per_server=Rate(2, 600)), clock
    )
    assert [limits.public("status", 1, 10) for _ in range(3)][:2] == [0.0, 0.0]
    assert limits.public("status", 1, 10) > 0
    assert limits.public("leaderboard", 1, 10) == 0.0, "another command has its own count"
    assert limits.public("status", 2, 10) == 0.0
    assert limits.public("status", 3, 10) > 0, "the channel's three are used"
    assert limits.thread(1, 10, 99) == 0.0 and limits.thread(2, 11, 99) == 0.0
    assert limits.thread(3, 12, 99) == pytest.approx(600.0), "the server's two threads are used"
    assert limits.lobby_note(5) == 0.0 and limits.lobby_note(5) == 0.0 and limits.lobby_note(5) > 0
    assert limits.private("status", 6) == 0.0


def test_settings_are_read_from_the_environment_with_clear_errors() -> None:
    assert LimitSettings.from_env({}) == LimitSettings()
    read = LimitSettings.from_env(
        {
            "LIMIT_PER_USER": "5/30",
            "LIMIT_PER_CHANNEL": "off",
            "LIMIT_THREADS_PER_SERVER": " 1/3600 ",
            "LIMIT_LOBBIES_PER_USER": "1",
        }
    )
    assert read.per_user == Rate(5, 30) and read.per_channel is None and read.threads_per_server == Rate(1, 3600)
    assert read.lobbies_per_user == 1 and read.threads_per_user == LimitSettings().threads_per_user
    for bad in ("5", "0/60", "x/60", "5/0", "5/-1", "2/100000"):
        with pytest.raises(ValueError, match="LIMIT_PER_USER must look like 2/60"):
            LimitSettings.from_env({"LIMIT_PER_USER": bad})
    with pytest.raises(ValueError, match="LIMIT_LOBBIES_PER_USER"):
        LimitSettings.from_env({"LIMIT_LOBBIES_PER_USER": "0"})


def test_the_words_are_whole_sentences_with_whole_seconds() -> None:
    assert too_soon(0.2) == "You can do this again in 1 s."
    assert too_soon(44.01) == "You can do this again in 45 s."
    assert too_many_lobbies(3).startswith("You already host as many open lobbies in this server as one player may (3).")


def test_the_bots_settings_carry_the_limits() -> None:
    from config import Settings

    settings = Settings.from_env({"LIMIT_PER_USER": "3/10"}, env_file=None)
    assert settings.limits.per_user == Rate(3, 10) and settings.limits.per_channel == LimitSettings().per_channel
    with pytest.raises(ValueError, match="LIMIT_PER_CHANNEL"):
        Settings.from_env({"LIMIT_PER_CHANNEL": "many"}, env_file=None)


def test_a_limit_reply_reads_in_the_callers_language_with_its_numbers() -> None:
    with using("de"):
        assert too_soon(44.01) == "Du kannst das in 45 s wieder tun."
        assert too_many_lobbies(3).startswith("Du leitest auf diesem Server schon so viele offene Lobbys")
        assert "(3)" in too_many_lobbies(3) and "`/spiel liste`" in too_many_lobbies(3)
    with using("ja"):
        assert too_soon(0.2) == "1秒後にもう一度使えます。"
        assert "（3）" in too_many_lobbies(3) and "`/ゲーム 一覧`" in too_many_lobbies(3)
    assert too_many_lobbies(2).startswith("You already host as many open lobbies in this server as one player may (2).")


def test_a_bounded_limiter_forgets_the_least_recently_used_keys_first() -> None:
    clock = Clock()
    limiter = Limiter(clock, most_keys=80)
    rate = Rate(1, 60)
    assert limiter.take([("hammer", rate)]) == 0.0
    for n in range(1000):
        assert limiter.take([(n, rate)]) == 0.0
        assert len(limiter) <= 80
        if n % 50 == 0:
            assert limiter.take([("kept", Rate(10_000, 60))]) == 0.0  # used often: never the least recent
    assert limiter.wait([("kept", Rate(1, 60))]) > 0, "a key used recently is still counted"
    assert limiter.wait([("hammer", rate)]) == 0.0, "the key used longest ago was forgotten"
    assert limiter.wait([(999, rate)]) > 0


def test_an_unbounded_limiter_keeps_every_key_in_its_window() -> None:
    limiter = Limiter(Clock())
    for n in range(500):
        limiter.take([(n, Rate(1, 60))])
    assert len(limiter) == 500
