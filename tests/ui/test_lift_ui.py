"""A finger's lift passes over the widgets that cannot take it (companion/ui/kivy_fixes.py):
a childless widget with Kivy's own `on_touch_up`. Every other widget still gets it, under the
finger or not, and a button pressed and lifted still acts."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui


def test_a_lift_reaches_every_widget_that_can_take_it_and_no_label(ui: Harness) -> None:
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget

    lifts: list[str] = []

    class Tracker(Widget):  # a childless widget that follows fingers itself, far from this one
        def on_touch_up(self, touch: Any) -> bool | None:
            lifts.append("tracker")
            return super().on_touch_up(touch)  # type: ignore[no-any-return]

    class CountedLabel(Label):
        def dispatch(self, event_type: str, *args: Any, **kwargs: Any) -> Any:
            if event_type == "on_touch_up":
                lifts.append("label")
            return super().dispatch(event_type, *args, **kwargs)

    pressed: list[str] = []
    row = BoxLayout(size=ui.window.size, size_hint=(None, None))
    row.add_widget(Tracker())
    row.add_widget(CountedLabel(text="a label"))
    row.add_widget(Button(text="press", on_release=lambda _b: pressed.append("press")))
    ui.window.add_widget(row)
    ui.frames(2)
    try:
        button = row.children[0]
        touch = UnitTestTouch(*button.to_window(*button.center))
        touch.touch_down()
        ui.frames(1)
        touch.touch_up()
        ui.frames(2)
        assert pressed == ["press"]
        assert lifts == ["tracker"]
    finally:
        ui.window.remove_widget(row)
