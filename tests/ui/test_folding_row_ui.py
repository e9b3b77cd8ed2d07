"""A row a table shows only while it asks for something (companion/ui/widgets.py FoldingRow):
folded, nothing of it is seen, a tap goes through it to what lies under it, and it is not laid
out; unfolded, it takes its taps and lays itself out again."""

from __future__ import annotations

from .harness import Harness


def test_a_folded_row_lets_taps_through_and_is_laid_out_only_once_unfolded(ui: Harness) -> None:
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout

    from companion.ui.widgets import FoldingRow

    tapped: list[str] = []
    under = Button(text="under", size_hint=(None, None), size=(300, 100), pos=(50, 50),
                   on_release=lambda _b: tapped.append("under"))
    row = FoldingRow(size_hint=(None, None), size=(300, 100), pos=(50, 50))
    inside = Button(text="inside", on_release=lambda _b: tapped.append("inside"))
    row.add_widget(inside)
    layer = FloatLayout()
    layer.add_widget(under)
    layer.add_widget(row)  # over the button
    ui.window.add_widget(layer)
    try:
        ui.frames(2)
        ui.tap(inside)
        assert tapped == ["inside"]

        row.folded = True
        ui.frames(2)
        assert row.opacity == 0
        ui.tap(under)  # lies under the folded row, in the same place
        assert tapped == ["inside", "under"]

        row.width = 200  # folded: its widgets keep their last places
        ui.frames(2)
        assert inside.width == 300

        row.folded = False
        ui.frames(2)
        assert row.opacity == 1 and inside.width == 200
        ui.tap(inside)
        assert tapped == ["inside", "under", "inside"]
    finally:
        ui.window.remove_widget(layer)
        ui.frames(1)
