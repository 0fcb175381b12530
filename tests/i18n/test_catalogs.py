"""The catalogs stay in step with the code, and every shipped language translates every string."""

from __future__ import annotations

from i18n.tool import check


def test_templates_and_every_language_are_in_step_with_the_code() -> None:
    problems = check()
    assert not problems, "run `python -m i18n update`, then translate:\n" + "\n".join(map(str, problems[:40]))
