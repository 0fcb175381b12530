"""A move whose board never came is named in the benchmark's output, with what its player read."""

from __future__ import annotations

from types import SimpleNamespace

from bench.latency.samples import no_board


def test_a_missing_board_names_the_move_and_what_its_player_read() -> None:
    interaction = SimpleNamespace(
        label="/fish place tile:E4", acked_at=1.0, answered_at=1.2, callback_type=5, rejections=[]
    )
    refusal = SimpleNamespace(ephemeral=True, content="The game's database is busy right now.")
    public = SimpleNamespace(ephemeral=False, content="a board")
    said = no_board(SimpleNamespace(interaction=interaction, messages=[public, refusal]))
    assert said.startswith("/fish place tile:E4: no board within 30 s; the move was acknowledged (type 5), answered")
    assert said.endswith("its player read \"The game's database is busy right now.\"")
    assert "a board" not in said


def test_a_missing_board_of_a_move_never_acknowledged_says_so() -> None:
    interaction = SimpleNamespace(label="select 'B1'", acked_at=None, answered_at=None, callback_type=None,
                                  rejections=[(404, 10062, "Unknown interaction")])
    said = no_board(SimpleNamespace(interaction=interaction, messages=[]))
    assert "never acknowledged, never answered, Discord refused [(404, 10062, 'Unknown interaction')]" in said
    assert "read" not in said
