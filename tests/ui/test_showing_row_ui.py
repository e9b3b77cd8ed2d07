"""The kit's ShowingRow (companion/ui/table_kit.py): the children a step hides take no room and no
spacing, and are neither moved nor resized; showing one again lays the row out anew."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui

ROW = """
<RowPart@Widget>:
    shown: True

ShowingRow:
    size_hint: None, None
    size: 320, 50
    spacing: 10
    RowPart:
        id: first
    RowPart:
        id: middle
        shown: False
    Widget:  # without `shown`: always laid out
        id: always
"""


@pytest.fixture
def row(ui: Harness) -> Any:
    """The row above in the window; its parts' `shown` comes from their kv rules, given after
    the row added them (as in a table's kv)."""
    from kivy.lang import Builder

    layout = Builder.load_string(ROW, filename="test_showing_row")
    ui.window.add_widget(layout)
    ui.frames(2)
    yield layout
    ui.window.remove_widget(layout)
    Builder.unload_file("test_showing_row")


def boxes(row: Any) -> dict[str, tuple[float, float, float, float]]:
    return {name: (*widget.pos, *widget.size) for name, widget in row.ids.items()}


def test_a_hidden_child_takes_no_room_and_is_not_moved(ui: Harness, row: Any) -> None:
    shown = boxes(row)
    assert shown["first"] == (0, 0, 155, 50)
    assert shown["always"] == (165, 0, 155, 50)  # one spacing between the two shown
    assert shown["middle"] == (0, 0, 100, 100)  # a Widget's own place and size, untouched


def test_showing_and_hiding_lays_the_row_out_again(ui: Harness, row: Any) -> None:
    row.ids.middle.shown = True
    ui.frames(2)
    three = boxes(row)
    assert [three[name][0] for name in ("first", "middle", "always")] == [0, 110, 220]
    assert {three[name][2] for name in three} == {100}

    row.ids.middle.shown = False
    ui.frames(2)
    again = boxes(row)
    assert again["first"] == (0, 0, 155, 50) and again["always"] == (165, 0, 155, 50)
    assert again["middle"] == three["middle"]  # left where it was last shown


def test_a_row_with_nothing_shown_has_only_its_padding(ui: Harness, row: Any) -> None:
    row.padding = 4
    row.ids.first.shown = False
    row.remove_widget(row.ids.always)
    ui.frames(2)
    assert tuple(row.minimum_size) == (8, 8)
    assert tuple(row.ids.first.pos) == (0, 0)
