"""Numbers read the way each language writes them, and a rating rounded to zero is never "-0"."""

from __future__ import annotations

from i18n import using
from i18n.numbers import number


def test_decimals_and_groups_follow_the_language() -> None:
    assert number(-1.84, ".1f") == "-1.8"
    assert number(12345.5, ",.1f") == "12,345.5"
    with using("de"):
        assert number(-1.84, ".1f") == "-1,8"
        assert number(12345.5, ",.1f") == "12.345,5"
    with using("pt_BR"):
        assert number(-1.84, ".1f") == "-1,8"
    with using("ja"):
        assert number(-1.84, ".1f") == "-1.8"


def test_a_negative_number_rounded_to_zero_loses_its_sign() -> None:
    assert number(-0.04, ".1f") == "0.0"
    assert number(-0.4, ".0f") == "0"
    assert number(-0.05, ".2f") == "-0.05"
    with using("es"):
        assert number(-0.04, ".1f") == "0,0"
