"""The sign-in limits: per address (only what trusted proxies wrote), per user, bounded, in whole sentences."""

from __future__ import annotations

import pytest

from config import LimitSettings, Rate
from i18n import using
from table.limits import SignIns, client_address, retry_after, too_many_sign_ins


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def test_the_address_is_the_peer_or_what_the_trusted_proxies_recorded() -> None:
    assert client_address("10.0.0.9", "1.2.3.4, 5.6.7.8", 0) == "10.0.0.9", "no trusted proxy: the header is ignored"
    assert client_address("127.0.0.1", "6.6.6.6, 1.2.3.4", 1) == "1.2.3.4", "the proxy's own entry, not the client's"
    assert client_address("127.0.0.1", "6.6.6.6, 1.2.3.4, 5.6.7.8", 2) == "1.2.3.4"
    assert client_address("127.0.0.1", "1.2.3.4", 3) == "1.2.3.4"
    assert client_address("127.0.0.1", None, 1) == "127.0.0.1" and client_address(None, " , ", 1) == "unknown"


def test_sign_ins_are_counted_per_address_and_per_user_apart() -> None:
    clock = Clock()
    sign_ins = SignIns(LimitSettings(sign_ins_per_address=Rate(3, 60), sign_ins_per_user=Rate(2, 60)), clock)
    assert [sign_ins.address("1.2.3.4") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert sign_ins.address("1.2.3.4") == pytest.approx(60.0)
    assert sign_ins.address("5.6.7.8") == 0.0, "another address has its own count"
    assert sign_ins.user(42) == 0.0 and sign_ins.user(42) == 0.0
    assert sign_ins.user(42) == pytest.approx(60.0) and sign_ins.user(7) == 0.0
    clock.now += 60
    assert sign_ins.address("1.2.3.4") == 0.0 and sign_ins.user(42) == 0.0


def test_a_flood_of_addresses_keeps_memory_bounded() -> None:
    sign_ins = SignIns(LimitSettings(sign_ins_per_address=Rate(1, 3600)), Clock(), most_keys=1000)
    for n in range(20_000):
        assert sign_ins.address(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}") == 0.0
        assert len(sign_ins) <= 1000
    assert sign_ins.address("10.0.78.31") > 0, "the newest addresses are still counted"


def test_the_refusal_is_a_sentence_with_whole_seconds_in_every_language() -> None:
    assert retry_after(0.2) == 1 and retry_after(41.01) == 42
    assert too_many_sign_ins(0.4) == (
        "The table was opened too many times in a short while: wait 1 second, then open it again."
    )
    assert too_many_sign_ins(41.01).endswith("wait 42 seconds, then open it again.")
    for language in ("de", "es", "ja", "pt_BR"):
        with using(language):
            text = too_many_sign_ins(41.01)
        assert "42" in text and "The table" not in text, language
