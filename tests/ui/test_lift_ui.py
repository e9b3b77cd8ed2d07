"""A finger's touch and lift pass over the widgets that cannot take them
(companion/ui/kivy_fixes.py): a childless widget with Kivy's own handlers, and a button of
Kivy's away from the finger. Every other widget still gets them, under the finger or not; a
button pressed and lifted still acts, a disabled label over a button still stops the touch,
and a link in a label still answers."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui


def tap(ui: Harness, widget: Any) -> None:
    """A finger down on the middle of `widget` and up again, a frame later."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    ui.frames(1)
    touch.touch_up()
    ui.frames(2)


def test_a_lift_reaches_every_widget_that_can_take_it_and_no_label(ui: Harness) -> None:
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
        tap(ui, button)
        assert pressed == ["press"]
        assert lifts == ["tracker"]
    finally:
        ui.window.remove_widget(row)


def test_a_touch_reaches_every_widget_that_can_take_it_and_no_label_or_button_away(
        ui: Harness) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget

    touches: list[str] = []

    class Tracker(Widget):
        def on_touch_down(self, touch: Any) -> bool | None:
            touches.append("tracker")
            return super().on_touch_down(touch)  # type: ignore[no-any-return]

    class Counted:
        def dispatch(self, event_type: str, *args: Any, **kwargs: Any) -> Any:
            if event_type == "on_touch_down":
                touches.append(type(self).__name__)
            return super().dispatch(event_type, *args, **kwargs)  # type: ignore[misc]

    class CountedLabel(Counted, Label):
        pass

    class CountedButton(Counted, Button):
        pass

    pressed: list[str] = []
    row = BoxLayout(size=ui.window.size, size_hint=(None, None))
    # Kivy hands a touch to the last widget added first: the tracker, the button away, the
    # label, then the button under the finger.
    row.add_widget(CountedButton(text="press", on_press=lambda _b: pressed.append("press")))
    row.add_widget(CountedLabel(text="a label"))
    row.add_widget(CountedButton(text="away", on_press=lambda _b: pressed.append("away")))
    row.add_widget(Tracker())
    ui.window.add_widget(row)
    ui.frames(2)
    try:
        button = row.children[-1]
        tap(ui, button)
        assert pressed == ["press"]
        assert touches == ["tracker", "CountedButton"]
    finally:
        ui.window.remove_widget(row)


def test_a_disabled_label_over_a_button_stops_the_touch_and_a_link_still_answers(
        ui: Harness) -> None:
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    pressed: list[str] = []
    links: list[str] = []
    board = FloatLayout(size=ui.window.size, size_hint=(None, None))
    button = Button(text="under", size_hint=(0.5, 0.5), pos_hint={"x": 0, "y": 0},
                    on_press=lambda _b: pressed.append("under"))
    cover = Label(text="over", size_hint=(0.5, 0.5), pos_hint={"x": 0, "y": 0}, disabled=True)
    link = Label(text="[ref=rules]the rules[/ref]", markup=True, size_hint=(0.5, 0.5),
                 pos_hint={"x": 0.5, "y": 0.5}, on_ref_press=lambda _l, ref: links.append(ref))
    for widget in (button, cover, link):
        board.add_widget(widget)
    ui.window.add_widget(board)
    ui.frames(3)

    try:
        tap(ui, button)
        assert pressed == [], "a disabled label over the button let the touch through"
        cover.disabled = False
        tap(ui, button)
        assert pressed == ["under"]
        assert link.refs, "the label drew no link"
        tap(ui, link)
        assert links == ["rules"]
    finally:
        ui.window.remove_widget(board)
