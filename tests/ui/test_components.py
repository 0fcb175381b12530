"""Check that labels on menus, buttons, choices and pictures fit Discord's limits, and old boards grey out as sent."""

from __future__ import annotations

import copy

import pytest

from ui.adapter import Picture
from ui.components import autocomplete, button, chunked_selects, greyed, select, view_of
from ui.text import ELLIPSIS

LONG = "Move the penguin on D5 east across the floe to the far tile with three fish " * 3


def test_long_option_labels_and_descriptions_are_shortened_at_a_word() -> None:
    menu = select(1, 2, "to", LONG, [(LONG, "D5", LONG), ("D6 (1 fish)", "D6")]).item
    first, second = menu.options
    assert len(first.label) <= 100 and first.label.endswith(ELLIPSIS) and LONG.startswith(first.label[:-1])
    assert len(first.description or "") <= 100 and (first.description or "").endswith(ELLIPSIS)
    assert first.value == "D5" and second.label == "D6 (1 fish)"
    assert len(menu.placeholder or "") <= 150 and (menu.placeholder or "").endswith(ELLIPSIS)


def test_long_button_labels_and_autocomplete_choices_are_shortened_at_a_word() -> None:
    assert len(button(1, 2, "go", LONG).item.label or "") <= 80
    (choice,) = autocomplete([(LONG, "D5")], "penguin")
    assert len(choice.name) <= 100 and choice.name.endswith(ELLIPSIS) and choice.value == "D5"


def test_long_alt_text_is_shortened_at_a_word() -> None:
    file = Picture(b"png", "board.png", LONG * 10).file()
    assert len(file.description or "") <= 1024 and (file.description or "").endswith(ELLIPSIS)


def test_a_select_never_drops_options_or_cuts_a_value_silently() -> None:
    many = [(f"Tile {n}", f"T{n}") for n in range(26)]
    with pytest.raises(ValueError, match="chunked_selects"):
        select(1, 2, "place", "Place…", many)
    with pytest.raises(ValueError, match="100 characters"):
        select(1, 2, "place", "Place…", [("Long", "x" * 101)])
    with pytest.raises(ValueError, match="100 characters"):
        autocomplete([("Long", "x" * 101)], "")


def test_chunked_selects_spread_every_option_or_refuse() -> None:
    many = [(f"Tile {n}", f"T{n}") for n in range(60)]
    menus = chunked_selects(1, 2, "place", "Place…", many, max_menus=3)
    assert [o.value for m in menus for o in m.item.options] == [v for _, v in many]
    with pytest.raises(ValueError, match="more than 2"):
        chunked_selects(1, 2, "place", "Place…", many, max_menus=2)


@pytest.mark.parametrize("language", ["en", "de", "es", "pt_BR", "ja"])
def test_every_shared_button_label_fits_whole_in_every_language(language: str) -> None:
    from i18n import using
    from storage.database import LOBBY, GameRow
    from ui.history import history_buttons
    from ui.lobby import lobby_view
    from ui.publishing import rematch_button
    from ui.takeback_buttons import TakebackButton

    row = GameRow(1, 1, 2, "fish", LOBBY, 3, {}, 4, None, 0, None, "", "")
    with using(language):
        lobby, pages = lobby_view(row), history_buttons(1, 2, 3)
        assert lobby is not None and pages is not None
        items = [
            *lobby.children,
            *pages.children,
            rematch_button(row, 5),
            *(TakebackButton(what, 1, 2) for what in ("accept", "decline", "offer")),
        ]
    labels = [item.item.label or "" for item in items]  # type: ignore[attr-defined]
    assert len(labels) == 10 and all(0 < len(label) <= 25 and not label.endswith(ELLIPSIS) for label in labels)
    assert len(set(labels)) == len(labels)  # no two buttons read the same


def test_a_superseded_board_shows_the_same_menus_greyed_out() -> None:
    items = [
        *chunked_selects(7, 3, "place", "Place a penguin on…", [(f"T{n}", f"T{n}") for n in range(30)]),
        button(7, 3, "rematch", "Rematch"),
    ]
    view = view_of(items)
    assert view is not None
    sent = view.to_components()
    assert view.to_components() is sent  # built once: the message is sent with it and remembered
    before = copy.deepcopy(sent)
    grey = greyed(sent)
    assert sent == before  # the board's own payload is left as it was
    assert [c["custom_id"] for row in grey for c in row["components"]] == [
        c["custom_id"] for row in sent for c in row["components"]
    ]
    assert all(c["disabled"] for row in grey for c in row["components"])
    assert grey[0]["components"][0]["options"] == sent[0]["components"][0]["options"]
